"""``resolver resolve``: one reference against one observation; a summary table, or the
full answer as JSON with ``--json``."""

from __future__ import annotations

from typing import Any

import typer

from ..chain import resolve
from ..errors import ResolutionError
from ..results import Resolution
from ._inputs import (
    ALL_SOURCES,
    ConfidenceOpt,
    Coords,
    CoordsOpt,
    DomOpt,
    FormatOpt,
    JsonOpt,
    MarginOpt,
    RefOpt,
    ScreenshotOpt,
    ScreenSizeOpt,
    SourcesOpt,
    ThresholdOpt,
    TreeOpt,
    UrlOpt,
    read_observation,
    read_ref,
    resolve_options,
)
from ._output import EXIT_NOT_RESOLVED, CliError, console, emit_json

__all__ = ["INPUT_CODES", "print_not_resolved", "register", "run_resolve", "status_of"]

INPUT_CODES = frozenset({"INVALID_REFERENCE", "INVALID_OBSERVATION", "UNSUPPORTED_FORMAT"})
"""Error codes that mean the input is at fault (exit 2), not that nothing was found (3)."""


def register(app: typer.Typer) -> None:
    """Add the ``resolve`` command."""
    app.command("resolve")(run_resolve)


def status_of(exc: ResolutionError) -> None:
    """Raise a :class:`CliError` (exit 2) when ``exc`` blames the input."""
    if exc.code.value in INPUT_CODES:
        raise CliError(exc.message) from exc


def _spinner(obs: Any) -> Any:
    """A spinner on stderr while a screenshot is read (about a second), else nothing."""
    from contextlib import nullcontext

    if obs.screenshot is None:
        return nullcontext()
    return console(stderr=True).status("reading the screenshot...")


def _summary(res: Resolution) -> None:
    from rich.table import Table

    out = console()
    out.print(f"[bold green]resolved[/] {res.executor_id}  (source {res.source}, "
              f"rule {res.rule}, score {res.score:.3f}, margin {res.margin:.3f}, "
              f"point {res.point})")  # fmt: skip
    table = Table("rank", "executor id", "role", "name", "score", title="candidates")
    table.add_row("1", res.executor_id, res.candidate.role, res.candidate.name,
                  f"{res.score:.3f}")  # fmt: skip
    for i, alt in enumerate(res.alternatives, 2):
        table.add_row(str(i), alt.executor_id, alt.role, alt.name, f"{alt.score:.3f}")
    out.print(table)


def print_not_resolved(exc: ResolutionError, as_json: bool) -> None:
    """The error as JSON, or its message and the per-source trace as a table (stdout)."""
    from rich.table import Table

    if as_json:
        emit_json(exc.to_dict())
        return
    out = console()
    rule = f" (rule {exc.evidence.rule})" if exc.evidence.rule else ""
    out.print(f"[bold red]not resolved[/] [{exc.code.value}]{rule} {exc.message}")
    table = Table("source", "status", "rule", "reason", title="trace")
    for entry in exc.evidence.trace:
        table.add_row(entry.source, entry.status, entry.rule, entry.reason)
    out.print(table)


def run_resolve(
    ref: RefOpt,
    tree: TreeOpt = None,
    dom: DomOpt = None,
    screenshot: ScreenshotOpt = None,
    tree_format: FormatOpt = None,
    screen_size: ScreenSizeOpt = None,
    url: UrlOpt = None,
    sources: SourcesOpt = ALL_SOURCES,
    threshold: ThresholdOpt = None,
    margin: MarginOpt = None,
    min_confidence: ConfidenceOpt = None,
    coords: CoordsOpt = Coords.unobserved,
    as_json: JsonOpt = False,
) -> None:
    """Resolve one reference against an accessibility tree, HTML and/or screenshot.

    Exit 0 resolved, 3 not resolved (ambiguous or not found; the evidence is printed),
    2 bad input.
    """
    checked = read_ref(ref)
    options = resolve_options(sources, threshold, margin, coords, min_confidence)
    obs = read_observation(tree, dom, screenshot, tree_format=tree_format,
                           screen_size=screen_size, url=url)  # fmt: skip
    try:
        with _spinner(obs):
            res = resolve(checked, obs, **options)
    except ResolutionError as exc:
        status_of(exc)
        print_not_resolved(exc, as_json)
        raise typer.Exit(EXIT_NOT_RESOLVED) from exc
    if as_json:
        emit_json(res.to_dict())
    else:
        _summary(res)
