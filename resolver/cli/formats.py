"""``resolver formats``: the inputs resolver reads, or what one input file is (detected
format, rows, roles, coordinate space, IDs).

A file is recognised in this order: a PNG or JPEG screenshot (its structure checked, and
decoded when the ``[vision]`` extra is installed), binary data that is none of the inputs, a
recording, a SnapshotV1 document, a recorded reference (``--ref``), HTML, and last an
accessibility tree of one of the tree formats.
"""

from __future__ import annotations

import json
import re
import struct
import sys
import zlib
from collections import Counter
from pathlib import Path
from typing import Annotated, Any, Final

import typer

from ..adapters.a11y import FORMATS, detect_format, parse_input
from ..errors import ResolutionError, shorten
from ..limits import DEFAULT_LIMITS, Limits
from ..observation import Observation
from ..replay.model import RecordingError
from ..replay.recording import document_kind, read_recording
from ._inputs import JsonOpt, LimitOpt, checked_path, limits_kwargs, read_limits
from ._output import CliError, cell, console, emit_json

__all__ = ["describe", "plain_text", "register", "run_formats"]

_OTHER = (
    ("SnapshotV1", "snapshot", "resolver snapshot's document; read as the snapshot tree format"),
    ("reference", "reference", "a recorded element (SemanticElementRef): resolve --ref"),
    ("recording_v1", "recording", "replay: recording_v1 timeline (JSON document or JSONL)"),
    ("openadapt_jsonl", "recording", "replay: one ActionWithElement per line"),
    ("html", "dom", "the dom source: a page's HTML"),
    ("png / jpeg", "screenshot", "the vision source: a screenshot"),
)
_PNG_MAGIC: Final[bytes] = b"\x89PNG\r\n\x1a\n"
_BINARY: Final[str] = "binary data, not an accessibility tree, HTML, recording or image"
_ROLE: Final[re.Pattern[str]] = re.compile(r":(?:class|func|meth|mod|data|attr|exc):`~?([^`]+)`")


def register(app: typer.Typer) -> None:
    """Add the ``formats`` command."""
    app.command("formats")(run_formats)


def plain_text(doc: str | None) -> str:
    """The first paragraph of a docstring as plain text: RST literals (````x````) and roles
    (``:class:`~a.B```) shown as their text, on one line."""
    first = (doc or "").strip().split("\n\n")[0]
    first = _ROLE.sub(lambda m: m.group(1).rsplit(".", 1)[-1], first)
    return " ".join(first.replace("``", "").split())


def _known() -> list[dict[str, str]]:
    rows = [
        {"name": f.name, "kind": "accessibility tree",
         "about": plain_text(sys.modules[f.build.__module__].__doc__)}
        for f in FORMATS
    ]  # fmt: skip
    return rows + [{"name": n, "kind": k, "about": a} for n, k, a in _OTHER]


def _png_chunks(data: bytes) -> str | None:
    """What is wrong with a PNG's chunk structure, or ``None``: the chunks must follow one
    another to the end, IHDR first and IEND last, each with its CRC."""
    pos, seen = len(_PNG_MAGIC), []
    while pos + 8 <= len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        end = pos + 12 + length
        if end > len(data):
            return f"the PNG is truncated (its {kind.decode('latin-1')!r} chunk is cut short)"
        (crc,) = struct.unpack(">I", data[end - 4 : end])
        if zlib.crc32(data[pos + 4 : end - 4]) != crc:
            return f"the PNG is corrupt (its {kind.decode('latin-1')!r} chunk fails its CRC)"
        seen.append(kind)
        pos = end
        if kind == b"IEND":
            break
    if not seen or seen[0] != b"IHDR":
        return "the PNG is corrupt (no IHDR chunk first)"
    if seen[-1] != b"IEND":
        return "the PNG is truncated (no IEND chunk at its end)"
    if b"IDAT" not in seen:
        return "the PNG has no image data (no IDAT chunk)"
    return None


def _decoded(data: bytes, path: Path, limits: Limits) -> None:
    """Decode the image when the ``[vision]`` extra is installed (its loader checks the
    size against ``limits`` too); without it the structure check is all."""
    try:
        from ..adapters.vision.image import load_screenshot
    except ImportError:
        return
    try:
        load_screenshot(data, limits=limits)
    except ResolutionError as exc:
        raise CliError(f"{path}: {exc.message}") from exc


def _image(data: bytes, path: Path, limits: Limits) -> dict[str, Any] | None:
    """A screenshot's facts, checked; ``None`` for anything that is not PNG or JPEG."""
    if data.startswith(_PNG_MAGIC):
        problem = _png_chunks(data)
        if problem is not None:
            raise CliError(f"{path}: {problem}")
        _decoded(data, path, limits)
        width, height = struct.unpack(">II", data[16:24])
        return {"format": "png", "kind": "screenshot", "width": width, "height": height}
    if data.startswith(b"\xff\xd8\xff"):
        if b"\xff\xd9" not in data[-64:]:
            raise CliError(f"{path}: the JPEG is truncated (no end-of-image marker)")
        _decoded(data, path, limits)
        return {"format": "jpeg", "kind": "screenshot"}
    return None


def _is_binary(data: bytes) -> bool:
    """Bytes no text input can be: not UTF-8 (nor UTF-16 with its mark), or with NULs or
    many control bytes."""
    head = data[:65536]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return False
    if b"\x00" in head:
        return True
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 4:  # not a character cut at the end of the sample
            return True
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13))
    return controls > len(head) // 20


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


def _recording(path: Path, limits: Limits | None) -> dict[str, Any]:
    rec = read_recording(path, limits=limits or DEFAULT_LIMITS)
    return {"format": rec.fmt, "kind": "recording", "mode": rec.mode, "entries": rec.entries,
            "steps": len(rec.steps), "snapshots": len(rec.order),
            "untargeted": rec.untargeted}  # fmt: skip


def _document(path: Path, data: bytes, limits: Limits | None) -> dict[str, Any] | None:
    """Facts of a JSON document that is a recording, a SnapshotV1 or a reference; ``None``
    for other JSON (a tree) or no JSON at all."""
    if data.lstrip()[:1] not in (b"{", b"["):
        return None
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        return None
    kind = document_kind(doc)
    if kind == "recording":
        return _recording(path, limits)
    if kind == "SnapshotV1":
        obs = Observation(accessibility_tree=doc, tree_format="snapshot", **limits_kwargs(limits))
        return {"format": "SnapshotV1", "kind": "snapshot", "snapshot_id": doc.get("snapshot_id"),
                "url": doc.get("url"), **_table_facts(obs, "a11y")}  # fmt: skip
    if kind == "reference":
        return {"format": "reference", "kind": "recorded element reference (for --ref)",
                "role": doc.get("role"), "name": doc.get("name"),
                "fields": sorted(doc)}  # fmt: skip
    return None


def _facts(path: Path, data: bytes, limits: Limits | None) -> dict[str, Any]:
    """What a file's bytes are, tried in the module's order."""
    image = _image(data, path, limits or DEFAULT_LIMITS)
    if image is not None:
        return {"bytes": len(data), **image}
    if _is_binary(data):
        raise CliError(f"{path}: {_BINARY}")
    if path.suffix == ".jsonl":
        return _recording(path, limits)
    document = _document(path, data, limits)
    if document is not None:
        return document
    head = data[:2048].lstrip().lower()
    if head.startswith((b"<!doctype html", b"<html")):
        facts = _table_facts(Observation(dom_html=data, **limits_kwargs(limits)), "dom")
        return {"format": "html", "kind": "dom", **facts}
    fmt = detect_format(parse_input(data))
    obs = Observation(accessibility_tree=data, tree_format=fmt.name, **limits_kwargs(limits))
    return {"format": fmt.name, "kind": "accessibility tree", **_table_facts(obs, "a11y")}


def describe(path: Path, limits: Limits | None = None) -> dict[str, Any]:
    """What ``path`` is: its detected format and a few facts about it.

    Raises
    ------
    CliError
        The file cannot be read, is corrupt, or is no input resolver knows.
    """
    within = limits or DEFAULT_LIMITS
    path = checked_path(path, "PATH")
    try:
        size = path.stat().st_size
        if size > within.max_recording_bytes:
            raise CliError(within.refuse("max_recording_bytes", size, str(path)).message)
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise CliError(f"no such file: {path}") from exc
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        return {"path": str(path), **_facts(path, data, limits)}
    except (RecordingError, ResolutionError) as exc:
        message = exc.message if isinstance(exc, ResolutionError) else str(exc)
        raise CliError(f"{path}: {message}") from exc


def run_formats(
    path: Annotated[
        Path | None, typer.Argument(help="An input file to detect and describe.")
    ] = None,
    limit: LimitOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Describe an input file's format, or list every input resolver reads.

    Exit 0 done, 2 unreadable, corrupt (a truncated PNG) or unknown input.
    """
    from rich.table import Table

    if path is None:
        known = _known()
        if as_json:
            emit_json(known)
            return
        table = Table("name", "kind", "about", title="inputs resolver reads")
        for row in known:
            table.add_row(cell(row["name"]), cell(row["kind"]), cell(row["about"], 400))
        console().print(table)
        return
    facts = describe(path, read_limits(limit))
    if as_json:
        emit_json(facts)
        return
    table = Table("field", "value", title=cell(shorten(str(path), 120)))
    for key, value in facts.items():
        if key != "path":
            table.add_row(cell(key), cell(value))
    console().print(table)
