"""``resolver formats``: the inputs resolver reads, or what one input file is (detected
format, rows, roles, coordinate space, IDs)."""

from __future__ import annotations

import struct
import sys
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer

from ..adapters.a11y import FORMATS, detect_format, parse_input
from ..errors import ResolutionError
from ..observation import Observation
from ..replay.model import RecordingError
from ..replay.recording import read_recording
from ._inputs import JsonOpt
from ._output import CliError, console, emit_json

__all__ = ["describe", "register", "run_formats"]

_OTHER = (
    ("recording_v1", "replay: recording_v1 timeline (JSON document or JSONL)"),
    ("openadapt_jsonl", "replay: one ActionWithElement per line"),
    ("html", "the dom source: a page's HTML"),
    ("png / jpeg", "the vision source: a screenshot"),
)


def register(app: typer.Typer) -> None:
    """Add the ``formats`` command."""
    app.command("formats")(run_formats)


def _summary_line(doc: str | None) -> str:
    return (doc or "").strip().split("\n\n")[0].replace("\n", " ")


def _known() -> list[dict[str, str]]:
    rows = [
        {"name": f.name, "kind": "accessibility tree",
         "about": _summary_line(sys.modules[f.build.__module__].__doc__)}
        for f in FORMATS
    ]  # fmt: skip
    return rows + [{"name": n, "kind": "other", "about": a} for n, a in _OTHER]


def _image(data: bytes) -> dict[str, Any] | None:
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return {"format": "png", "kind": "screenshot", "width": width, "height": height}
    if data.startswith(b"\xff\xd8\xff"):
        return {"format": "jpeg", "kind": "screenshot"}
    return None


def _table_facts(obs: Observation, source: str) -> dict[str, Any]:
    table = obs.candidates(source)
    roles = Counter(table.roles).most_common(6)
    return {
        "rows": len(table),
        "named_rows": sum(1 for n in table.names if n),
        "top_roles": dict(roles),
        "coord_space": table.coord_space.value if table.coord_space.known else None,
        "screen_size": list(table.screen_size) if table.screen_size else None,
        "id_columns": sorted(k for k, v in table.platform_ids.items() if any(v)),
    }


def describe(path: Path) -> dict[str, Any]:
    """What ``path`` is: its detected format and a few facts about it.

    Raises
    ------
    CliError
        The file cannot be read or is no input resolver knows.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise CliError(f"no such file: {path}") from exc
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from exc
    image = _image(data)
    if image is not None:
        return {"path": str(path), "bytes": len(data), **image}
    head = data[:2048].lstrip().lower()
    try:
        if path.suffix == ".jsonl" or b'"timeline"' in data[: 1 << 16]:
            rec = read_recording(path)
            return {"path": str(path), "format": rec.fmt, "kind": "recording", "mode": rec.mode,
                    "entries": rec.entries, "steps": len(rec.steps), "snapshots": len(rec.order),
                    "untargeted": rec.untargeted}  # fmt: skip
        if head.startswith((b"<!doctype html", b"<html")):
            facts = _table_facts(Observation(dom_html=data), "dom")
            return {"path": str(path), "format": "html", "kind": "dom", **facts}
        fmt = detect_format(parse_input(data))
        obs = Observation(accessibility_tree=data, tree_format=fmt.name)
        facts = _table_facts(obs, "a11y")
        return {"path": str(path), "format": fmt.name, "kind": "accessibility tree", **facts}
    except (RecordingError, ResolutionError) as exc:
        message = exc.message if isinstance(exc, ResolutionError) else str(exc)
        raise CliError(f"{path}: {message}") from exc


def run_formats(
    path: Annotated[
        Path | None, typer.Argument(help="An input file to detect and describe.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Describe an input file's format, or list every input resolver reads.

    Exit 0 done, 2 unreadable or unknown input.
    """
    from rich.table import Table

    if path is None:
        known = _known()
        if as_json:
            emit_json(known)
            return
        table = Table("name", "kind", "about", title="inputs resolver reads")
        for row in known:
            table.add_row(row["name"], row["kind"], row["about"])
        console().print(table)
        return
    facts = describe(path)
    if as_json:
        emit_json(facts)
        return
    table = Table("field", "value", title=str(path))
    for key, value in facts.items():
        if key != "path":
            table.add_row(key, str(value))
    console().print(table)
