"""``resolver complete``: a reference another tool wrote, completed from the observation it
was recorded on; the completed reference as JSON on stdout."""

from __future__ import annotations

import typer

from ..capture.complete import TABLE_SOURCES, complete_ref
from ..errors import ResolutionError
from ._inputs import (
    DomOpt,
    FormatOpt,
    LimitOpt,
    RefOpt,
    ScreenshotOpt,
    ScreenSizeOpt,
    TreeOpt,
    UrlOpt,
    read_observation,
    read_ref,
)
from ._output import EXIT_NOT_RESOLVED, CliError, emit_json
from .resolve import print_not_resolved, status_of

__all__ = ["register", "run_complete"]


def register(app: typer.Typer) -> None:
    """Add the ``complete`` command."""
    app.command("complete")(run_complete)


def run_complete(
    ref: RefOpt,
    tree: TreeOpt = None,
    dom: DomOpt = None,
    screenshot: ScreenshotOpt = None,
    tree_format: FormatOpt = None,
    screen_size: ScreenSizeOpt = None,
    url: UrlOpt = None,
    sources: str = typer.Option(
        "a11y,dom", help=f"Where to find the element, in order (of {', '.join(TABLE_SOURCES)})."
    ),
    limit: LimitOpt = None,
) -> None:
    """Complete a reference from the page it was recorded on (--tree/--dom/--screenshot of
    that page): its look-alikes, anchors and nearby texts, as the library records them.

    Prints the completed reference as JSON. Exit 0 completed, 3 the element is not certain on
    its own page (the evidence is printed), 2 bad input.
    """
    checked = read_ref(ref)
    chosen = tuple(s.strip() for s in sources.split(",") if s.strip())
    unknown = [s for s in chosen if s not in TABLE_SOURCES]
    if unknown or not chosen:
        raise CliError(f"--sources: use some of {', '.join(TABLE_SOURCES)} (got {sources!r})")
    obs = read_observation(tree, dom, screenshot, tree_format=tree_format,
                           screen_size=screen_size, url=url, limits=limit)  # fmt: skip
    try:
        completed = complete_ref(checked, obs, sources=chosen)
    except ResolutionError as exc:
        status_of(exc)
        print_not_resolved(exc, as_json=False)
        raise typer.Exit(EXIT_NOT_RESOLVED) from exc
    emit_json(completed.model_dump(mode="json", exclude_defaults=True))
