"""``resolver resolve``: one reference against one observation; a summary table, or the
full answer as JSON with ``--json``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import typer

from ..chain import resolve
from ..errors import (
    ConfigError,
    InvalidObservationError,
    InvalidReferenceError,
    ResolutionError,
    SourceUnavailableError,
)
from ..results import Resolution, TraceEntry
from ._inputs import (
    ALL_SOURCES,
    ConfidenceOpt,
    Coords,
    CoordsOpt,
    DomOpt,
    FormatOpt,
    JsonOpt,
    LimitOpt,
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
from ._output import EXIT_NOT_RESOLVED, MAX_LINE, CliError, cell, console, emit_json

__all__ = [
    "INPUT_CODES",
    "check_unavailable",
    "print_not_resolved",
    "register",
    "run_resolve",
    "status_of",
]

INPUT_CODES = frozenset(
    {
        "INVALID_REFERENCE",
        "INVALID_OBSERVATION",
        "UNSUPPORTED_FORMAT",
        "LIMIT_EXCEEDED",
        "INVALID_RECORDING",
        "INVALID_OPTION",
        "VALIDATION_ERROR",
        "SOURCE_UNAVAILABLE",
    }
)
"""Error codes that mean the input, an option or the installation is at fault (exit 2), not
that nothing was found (3)."""
_INPUT_TYPES = (
    InvalidReferenceError,
    InvalidObservationError,
    ConfigError,
    SourceUnavailableError,
)
_NOT_LOOKED = frozenset({"absent", "unavailable", "skipped"})


def register(app: typer.Typer) -> None:
    """Add the ``resolve`` command."""
    app.command("resolve")(run_resolve)


def check_unavailable(trace: Sequence[TraceEntry]) -> None:
    """Raise a :class:`CliError` (exit 2) naming the extra to install when no source could
    look because a source the input needs is not installed (``[vision]`` for a screenshot)."""
    missing = [entry for entry in trace if entry.status == "unavailable"]
    if missing and all(entry.status in _NOT_LOOKED for entry in trace):
        raise CliError("; ".join(entry.reason for entry in missing))


def status_of(exc: ResolutionError) -> None:
    """Raise a :class:`CliError` (exit 2) when ``exc`` blames the input, an option, or a
    missing optional extra that left no source able to look."""
    if isinstance(exc, _INPUT_TYPES) or exc.code.value in INPUT_CODES:
        raise CliError(exc.message) from exc
    check_unavailable(exc.evidence.trace)


def _spinner(obs: Any) -> Any:
    """A spinner on stderr while a screenshot is read (about a second), else nothing."""
    from contextlib import nullcontext

    if obs.screenshot is None:
        return nullcontext()
    return console(stderr=True).status("reading the screenshot...")


def _summary(res: Resolution) -> None:
    from rich.table import Table

    out = console()
    out.print(f"[bold green]resolved[/] {cell(res.executor_id)}  (source {cell(res.source)}, "
              f"rule {cell(res.rule)}, score {res.score:.3f}, margin {res.margin:.3f}, "
              f"point {cell(res.point)})")  # fmt: skip
    table = Table("rank", "executor id", "role", "name", "score", title="candidates")
    table.add_row("1", cell(res.executor_id), cell(res.candidate.role),
                  cell(res.candidate.name), f"{res.score:.3f}")  # fmt: skip
    for i, alt in enumerate(res.alternatives, 2):
        table.add_row(str(i), cell(alt.executor_id), cell(alt.role), cell(alt.name),
                      f"{alt.score:.3f}")  # fmt: skip
    out.print(table)


def print_not_resolved(exc: ResolutionError, as_json: bool) -> None:
    """The error as JSON, or its message and the per-source trace as a table (stdout)."""
    from rich.table import Table

    if as_json:
        emit_json(exc.to_dict())
        return
    out = console()
    rule = f" (rule {cell(exc.evidence.rule)})" if exc.evidence.rule else ""
    code = cell(f"[{exc.code.name}]")
    out.print(f"[bold red]not resolved[/] {code}{rule} {cell(exc.message, MAX_LINE)}")
    table = Table("source", "status", "rule", "reason", title="trace")
    for entry in exc.evidence.trace:
        table.add_row(cell(entry.source), cell(entry.status), cell(entry.rule),
                      cell(entry.reason, MAX_LINE))  # fmt: skip
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
    limit: LimitOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Resolve one reference against an accessibility tree, HTML and/or screenshot.

    Exit 0 resolved, 3 not resolved (ambiguous or not found; the evidence is printed),
    2 bad input (or no source could look because an optional extra is missing).
    """
    checked = read_ref(ref)
    options = resolve_options(sources, threshold, margin, coords, min_confidence)
    obs = read_observation(tree, dom, screenshot, tree_format=tree_format,
                           screen_size=screen_size, url=url, limits=limit)  # fmt: skip
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
