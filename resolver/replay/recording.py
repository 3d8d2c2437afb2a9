"""Read recordings into steps: recording_v1 (a JSON document or JSONL) and openadapt-style
``ActionWithElement`` JSONL.

**recording_v1.** A document ``{"recording_version": 1, "recording_id", "mode": "agent" |
"human", "timeline": [entry, ...]}``, or the same as JSONL: an optional header line
``{"kind": "recording", "recording_version": 1, "mode": ...}`` and one entry per line.
Every entry has a ``kind``:

- ``navigation`` ``{url}``: the page changed; steps after it need a newer snapshot.
- ``ax_snapshot`` ``{snapshot_id, snapshot | file}``: a SnapshotV1 or axtree_v1 document,
  inline, in a file beside the recording, or as the entry itself (an ``ax_tree`` beside
  ``kind``). Without ``snapshot_id`` it is numbered ``s<position>``.
- ``decision`` (an agent's) and ``human_action`` ``{step, action {type, x, y, element, text,
  key} | target, target_node?, expected?}``: ``element`` (or ``target``) is the recorded
  :class:`~resolver.SemanticElementRef`; ``target_node`` is its node ID in the preceding
  snapshot; ``expected`` maps other snapshot IDs to the node (or executor ID) that is right
  there, ``null`` when the element is gone. An entry without a target is counted, not
  replayed.
- ``action_result`` ``{step, status, executor_id}``: what the executor acted on; when the
  decision names no ``target_node``, a successful result's ID is the expected answer in the
  preceding snapshot.

Other kinds are ignored, so newer recorders stay readable.

**openadapt-style JSONL.** One ``ActionWithElement`` per line (``type``, ``x``, ``y``,
``element``, ``text``, ``key``); a line may carry the observation it was taken on as
``snapshot`` (or ``accessibility_tree``), which later lines reuse, and ``target_node`` /
``expected`` as above.

Anything that is not valid JSON, not one of these shapes, or cut short raises
:class:`~resolver.replay.model.RecordingError`. A snapshot file kept beside its recording
(named by an ``ax_snapshot`` entry's ``file``) is no recording: :func:`document_kind` tells
it apart, and a replay of the folder skips it instead of reporting it corrupt.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Final

from .model import Recording, RecordingError, Step

__all__ = [
    "MAX_RECORDING_BYTES",
    "document_kind",
    "observation_file_kind",
    "parse_entries",
    "read_recording",
]

MAX_RECORDING_BYTES: Final[int] = 512 * 1024 * 1024
_ACTION_KINDS: Final[frozenset[str]] = frozenset({"decision", "human_action"})
_OBS_KEYS: Final[tuple[str, ...]] = ("snapshot", "accessibility_tree", "ax_snapshot")


def _json_lines(text: str, name: str) -> list[dict[str, Any]]:
    """Every non-empty line of a JSONL text as a mapping."""
    entries: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise RecordingError(
                f"{name}: line {number} is not valid JSON (truncated?): {exc}"
            ) from exc
        if not isinstance(value, dict):
            raise RecordingError(f"{name}: line {number} is not a JSON object")
        entries.append(value)
    if not entries:
        raise RecordingError(f"{name}: the file is empty")
    return entries


def _load(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the entries of a recording file."""
    try:
        size = path.stat().st_size
        if size > MAX_RECORDING_BYTES:
            raise RecordingError(f"{path.name}: larger than {MAX_RECORDING_BYTES // 2**20} MiB")
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise RecordingError(f"{path.name}: cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise RecordingError(f"{path.name}: not UTF-8 text") from exc
    if path.suffix == ".jsonl":
        lines = _json_lines(text, path.name)
        if lines[0].get("kind") == "recording" or "recording_version" in lines[0]:
            return lines[0], lines[1:]
        return {}, lines
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise RecordingError(f"{path.name}: not valid JSON (truncated?): {exc}") from exc
    if not isinstance(doc, dict) or not isinstance(doc.get("timeline"), list):
        raise RecordingError(f"{path.name}: not a recording_v1 document (no timeline list)")
    entries = doc["timeline"]
    if not all(isinstance(e, dict) for e in entries):
        raise RecordingError(f"{path.name}: every timeline entry must be a JSON object")
    return doc, entries


def document_kind(doc: Any) -> str | None:
    """What a parsed JSON document is: ``"recording"`` (a recording_v1 document),
    ``"SnapshotV1"``, ``"reference"`` (a :class:`~resolver.SemanticElementRef`), the name of
    the accessibility-tree format that reads it, or ``None``."""
    from ..adapters.a11y import detect_format, parse_input
    from ..errors import ResolutionError
    from ..models import SemanticElementRef

    if isinstance(doc, Mapping):
        if isinstance(doc.get("timeline"), list) or "recording_version" in doc:
            return "recording"
        if "snapshot_version" in doc and isinstance(doc.get("ax_tree"), Mapping):
            return "SnapshotV1"
        fields = SemanticElementRef.model_fields
        if doc and "children" not in doc and all(key in fields for key in doc):
            try:
                SemanticElementRef.model_validate(doc)
            except (ValueError, ResolutionError):
                pass
            else:
                return "reference"
    try:
        return detect_format(parse_input(doc)).name
    except (ValueError, TypeError, ResolutionError):
        return None


def observation_file_kind(path: Path) -> str | None:
    """What ``path`` holds when it is an observation file a recording's ``ax_snapshot``
    entry can name (``"SnapshotV1"``, or an accessibility-tree format such as ``"cdp"``);
    ``None`` for a recording, a reference, or anything unreadable."""
    if path.suffix != ".json":
        return None
    try:
        if path.stat().st_size > MAX_RECORDING_BYTES:
            return None
        doc = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, ValueError, RecursionError):
        return None
    kind = document_kind(doc)
    return None if kind in (None, "recording", "reference") else kind


def read_recording(path: Path) -> Recording:
    """Read the recording at ``path`` (``.json`` document or ``.jsonl`` lines).

    Parameters
    ----------
    path:
        A recording_v1 file or an openadapt-style ``ActionWithElement`` JSONL file.

    Returns
    -------
    Recording
        Its steps with a target and the snapshots they refer to.

    Raises
    ------
    RecordingError
        The file cannot be read, is not valid JSON, is cut short or is not a recording.
    """
    header, entries = _load(path)
    version = header.get("recording_version", 1)
    if version != 1:
        raise RecordingError(f"{path.name}: recording_version {version!r} is not supported")
    openadapt = bool(entries) and "kind" not in entries[0] and "type" in entries[0]
    recording = Recording(
        name=path.name,
        fmt="openadapt_jsonl" if openadapt else "recording_v1",
        mode=str(header.get("mode") or ("human" if openadapt else "agent")),
        steps=[],
        snapshots={},
    )
    source = _openadapt_entries(entries) if openadapt else iter(entries)
    parse_entries(recording, source, path.parent)
    return recording


def _openadapt_entries(lines: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """openadapt-style lines as recording_v1 entries (a snapshot entry where a line has one)."""
    for number, line in enumerate(lines, 1):
        obs = next((line[k] for k in _OBS_KEYS if k in line), None)
        if obs is not None:
            sid = obs.get("snapshot_id") if isinstance(obs, Mapping) else None
            yield {"kind": "ax_snapshot", "snapshot_id": sid or f"s{number}", "snapshot": obs}
        action = {k: v for k, v in line.items() if k not in (*_OBS_KEYS, "target_node", "expected")}
        yield {
            "kind": "human_action",
            "step": str(number),
            "action": action,
            "target_node": line.get("target_node"),
            "expected": line.get("expected"),
        }


def parse_entries(recording: Recording, entries: Iterator[dict[str, Any]], where: Path) -> None:
    """Fill ``recording`` from timeline entries (``where``: the folder snapshot files are
    relative to)."""
    current: str | None = None
    waiting: list[int] = []  # steps whose following snapshot is not seen yet
    by_step: dict[str, int] = {}
    for position, entry in enumerate(entries):
        recording.entries += 1
        kind = entry.get("kind")
        if kind == "navigation":
            current = None
        elif kind == "ax_snapshot":
            current = _snapshot(recording, entry, position, where)
            for i in waiting:
                recording.steps[i] = replace(recording.steps[i], following=current)
            waiting = []
        elif kind in _ACTION_KINDS:
            step = _step(entry, str(kind), position, current)
            if step is None:
                recording.untargeted += 1
                continue
            by_step[step.step] = len(recording.steps)
            waiting.append(len(recording.steps))
            recording.steps.append(step)
        elif kind == "action_result":
            _result(recording, entry, by_step)


def _snapshot(recording: Recording, entry: Mapping[str, Any], position: int, where: Path) -> str:
    """Store the snapshot of an ``ax_snapshot`` entry; return its ID."""
    sid = str(entry.get("snapshot_id") or f"s{position}")
    if "snapshot" in entry:
        doc = entry["snapshot"]
    elif "file" in entry:
        file = where / str(entry["file"])
        try:
            doc = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError) as exc:
            raise RecordingError(f"snapshot {sid}: cannot read {file.name}: {exc}") from exc
    else:
        doc = {k: v for k, v in entry.items() if k != "kind"}
    if not isinstance(doc, Mapping):
        raise RecordingError(f"snapshot {sid} is not a JSON object")
    recording.snapshots[sid] = doc
    recording.order.append(sid)
    return sid


def _target(entry: Mapping[str, Any]) -> tuple[str, Mapping[str, Any] | None]:
    """The action type and the recorded reference of a decision or human action."""
    action = entry.get("action")
    action = action if isinstance(action, Mapping) else {}
    ref = entry.get("target") or action.get("element") or entry.get("element")
    kind = action.get("type") or entry.get("action_type") or "click"
    return str(kind), ref if isinstance(ref, Mapping) else None


def _step(entry: Mapping[str, Any], kind: str, position: int, current: str | None) -> Step | None:
    """The step of a decision or human action, or ``None`` when it has no target."""
    action_type, ref = _target(entry)
    if ref is None:
        return None
    expected: dict[str, tuple[str, ...]] = {}
    node = entry.get("target_node")
    if node is not None and current is not None:
        expected[current] = (_executor(node),)
    extra = entry.get("expected")
    if isinstance(extra, Mapping):
        for sid, value in extra.items():
            expected[str(sid)] = () if value is None else (_executor(value),)
    label = entry.get("step")
    return Step(
        index=position,
        step=str(label if label is not None else position),
        kind=kind,
        action_type=action_type,
        ref=ref,
        preceding=current,
        following=None,
        expected=expected,
        recorded_on=current,
        key=str(entry["key"]) if entry.get("key") is not None else None,
    )


def _executor(value: Any) -> str:
    """A node ID as the a11y executor ID; executor IDs stay as they are."""
    text = str(value)
    return text if ":" in text else f"a11y:{text}"


def _result(recording: Recording, entry: Mapping[str, Any], by_step: Mapping[str, int]) -> None:
    """Use a successful ``action_result`` as the expected answer where none is recorded."""
    label = entry.get("step")
    i = by_step.get(str(label)) if label is not None else len(recording.steps) - 1
    target = entry.get("executor_id")
    if i is None or i < 0 or target is None or entry.get("status", "ok") != "ok":
        return
    step = recording.steps[i]
    if step.preceding is not None and step.preceding not in step.expected:
        expected = {**step.expected, step.preceding: (_executor(target),)}
        recording.steps[i] = replace(step, expected=expected)
