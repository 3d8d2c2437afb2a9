"""``resolver catalog``: the element catalog of one observation, as the abbreviated view a
model reads or as JSON."""

from __future__ import annotations

from contextlib import nullcontext
from enum import StrEnum
from typing import Annotated, Any

import typer

from ..catalog import build_catalog
from ..errors import ResolutionError
from ._inputs import (
    DomOpt,
    FormatOpt,
    JsonOpt,
    LimitOpt,
    ScreenshotOpt,
    ScreenSizeOpt,
    TreeOpt,
    UrlOpt,
    read_observation,
)
from ._output import CliError, cli_wording, console, emit_json

__all__ = ["register", "run_catalog"]


class CatalogSource(StrEnum):
    """Whose table the entries come from."""

    a11y = "a11y"
    dom = "dom"
    vision = "vision"


def register(app: typer.Typer) -> None:
    """Add the ``catalog`` command."""
    app.command("catalog")(run_catalog)


def _busy(reading_screenshot: bool) -> Any:
    """A spinner on stderr while a screenshot is read (about a second), else nothing."""
    if not reading_screenshot:
        return nullcontext()
    return console(stderr=True).status("reading the screenshot...")


def run_catalog(
    tree: TreeOpt = None,
    dom: DomOpt = None,
    screenshot: ScreenshotOpt = None,
    tree_format: FormatOpt = None,
    screen_size: ScreenSizeOpt = None,
    url: UrlOpt = None,
    source: Annotated[
        CatalogSource, typer.Option(help="Whose table the entries come from.")
    ] = CatalogSource.a11y,
    max_chars: Annotated[
        int, typer.Option(min=200, help="Size budget of the abbreviated view, in characters.")
    ] = 6000,
    limit: LimitOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List what an agent can act on in one observation, with stable indexes.

    Exit 0 done, 2 bad input (or the source needs an optional extra that is missing).
    """
    obs = read_observation(tree, dom, screenshot, tree_format=tree_format,
                           screen_size=screen_size, url=url, limits=limit)  # fmt: skip
    try:
        with _busy(obs.screenshot is not None):
            catalog = build_catalog(obs, source=source.value)
    except ResolutionError as exc:
        raise CliError(exc.message) from exc
    if as_json:
        emit_json(catalog.view.model_dump(mode="json"))
    else:
        typer.echo(cli_wording(catalog.render(max_chars=max_chars)))
