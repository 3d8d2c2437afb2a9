"""``resolver catalog``: the element catalog of one observation, as the abbreviated view a
model reads or as JSON."""

from __future__ import annotations

from contextlib import nullcontext
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from ..catalog import Catalog, build_catalog
from ..errors import ResolutionError
from ..observation import Observation
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


def _write_marks(obs: Observation, catalog: Catalog, out: Path) -> None:
    """The screenshot with each entry's index drawn on it, written to ``out``."""
    from ..catalog.marks import mark_screenshot

    if obs.screenshot is None:
        raise CliError("--marks draws on the screenshot: give --screenshot too")
    try:
        drawn = mark_screenshot(obs.screenshot, catalog, viewport=obs.screen_size,
                                limits=obs.limits)  # fmt: skip
        out.write_bytes(drawn.png)
    except ResolutionError as exc:
        raise CliError(exc.message) from exc
    except OSError as exc:
        raise CliError(f"--marks: cannot write {out}: {exc.strerror or exc}") from exc
    crowded = f", {len(drawn.crowded)} crowded" if drawn.crowded else ""
    typer.echo(f"wrote {out}: {len(drawn.marked)} indexes drawn{crowded}", err=True)


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
    marks: Annotated[
        Path | None,
        typer.Option(
            help="Also write the screenshot with each entry's index drawn on it "
            "(PNG; needs --screenshot and OpenCV)."
        ),
    ] = None,
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
    if marks is not None:
        _write_marks(obs, catalog, marks)
    if as_json:
        emit_json(catalog.view.model_dump(mode="json"))
    else:
        typer.echo(cli_wording(catalog.render(max_chars=max_chars)))
