"""``resolver annotate``: give a recording's coordinate-only actions the element under their
point (from the tree snapshot before them, or a screenshot with the ``vision`` extra)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..limits import DEFAULT_LIMITS
from ..replay.model import ReplayError
from ._inputs import JsonOpt, LimitOpt, checked_path, read_limits
from ._output import CliError, cell, console, emit_json

__all__ = ["register", "run_annotate"]


def register(app: typer.Typer) -> None:
    """Add the ``annotate`` command."""
    app.command("annotate")(run_annotate)


def run_annotate(
    recording: Annotated[
        Path, typer.Argument(help="A recording_v1 (.json, .jsonl) or openadapt-style file.")
    ],
    out: Annotated[
        Path | None,
        typer.Option("-o", "--out", help="The annotated copy (default: NAME.annotated.EXT)."),
    ] = None,
    in_place: Annotated[
        bool, typer.Option("--in-place", help="Write over the recording instead of a copy.")
    ] = False,
    limit: LimitOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Add an element to every action recorded only as coordinates (x, y, no element).

    The element under the point in the tree snapshot before the action
    (element_source "a11y_point"), else in the screenshot before it when the vision extra is
    installed ("vision"), with element_confidence. Actions that have an element are never
    changed. Exit 0 done, 2 bad input (not a recording, corrupt, an output that is the input
    without --in-place).
    """
    from ..replay.annotate import annotate_recording

    src = checked_path(recording, "RECORDING")
    if not src.is_file():
        raise CliError(f"RECORDING: no such file: {recording}")
    target = None if out is None else checked_path(out, "--out")
    limits = read_limits(limit) or DEFAULT_LIMITS
    try:
        report = annotate_recording(src, target, in_place=in_place, limits=limits)
    except ReplayError as exc:  # a RecordingError too
        raise CliError(str(exc)) from exc
    except OSError as exc:
        raise CliError(f"cannot write {target or src}: {exc.strerror or exc}") from exc
    if as_json:
        emit_json(report.to_dict())
        return
    doc = report.to_dict()
    by_source = ", ".join(f"{n} by {s}" for s, n in sorted(report.annotated.items())) or "none"
    out_console = console()
    out_console.print(f"annotated {doc['annotated']} actions ({cell(by_source)})")
    for reason, count in sorted(report.skipped.items()):
        out_console.print(f"skipped {count}: {cell(reason)}")
    console(stderr=True).print(f"written to {cell(report.output)}")
