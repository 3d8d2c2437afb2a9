"""Read recordings into steps: recording_v1 (a JSON document or JSONL) and openadapt-style
``ActionWithElement`` JSONL.

**recording_v1.** A document ``{"recording_version": 1, "recording_id", "mode": "agent" |
"human", "timeline": [entry, ...]}``, or the same as JSONL: an optional header line
``{"kind": "recording", "recording_version": 1, "mode": ...}`` and one entry per line.
``schema_version`` and ``id`` (what :mod:`resolver.record` writes) are read as
``recording_version`` and ``recording_id``.
Every entry has a ``kind``:

- ``navigation`` ``{url}``: the page changed; steps after it need a newer snapshot.
- ``ax_snapshot`` ``{snapshot_id, snapshot | file}``: a SnapshotV1 or axtree_v1 document,
  inline, in a file beside the recording, or as the entry itself (an ``ax_tree`` beside
  ``kind``). Without ``snapshot_id`` it is numbered ``s<position>``.
- ``decision`` (an agent's) and ``human_action`` ``{step, action {type, x, y, element, text,
  key, files?} | target, target_node?, expected?}`` (``files``: an ``upload``'s file
  names): ``element`` (or ``target``) is the recorded
  :class:`~resolver.SemanticElementRef`; ``target_node`` is its node ID in the preceding
  snapshot; ``expected`` maps other snapshot IDs to the node (or executor ID) that is right
  there, ``null`` when the element is gone. An entry without a target is counted, not
  replayed.
- ``action_result`` ``{step, status, executor_id}``: what the executor acted on; when the
  decision names no ``target_node``, a successful result's ID is the expected answer in the
  preceding snapshot.

- ``dialog`` ``{step, type, message, default_value, answer, text}`` (what
  :class:`~resolver.record.HumanRecorder` writes): a dialog the page opened after action
  ``step`` and how the person answered it (``accepted`` or ``dismissed``; a prompt's text).
  Read by nothing here: it does not change which element an action names.

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
import math
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path, PureWindowsPath
from typing import Any, Final

from ..errors import shorten
from ..limits import DEFAULT_LIMITS, Limits
from .model import Recording, RecordingError, RecordingTooLargeError, Step

__all__ = [
    "MAX_RECORDING_BYTES",
    "document_kind",
    "observation_file_kind",
    "parse_entries",
    "read_recording",
]

MAX_RECORDING_BYTES: Final[int] = DEFAULT_LIMITS.max_recording_bytes
"""The default size limit of a recording file; the one a replay applies is
``ReplayOptions.limits.max_recording_bytes`` (``--limit max_recording_bytes=N``)."""
_ACTION_KINDS: Final[frozenset[str]] = frozenset({"decision", "human_action"})
_OBS_KEYS: Final[tuple[str, ...]] = ("snapshot", "accessibility_tree", "ax_snapshot")
_VERSION_KEYS: Final[frozenset[str]] = frozenset({"recording_version", "schema_version"})

Named = tuple[str, Mapping[str, Any]]
"""A timeline entry and what an error calls it (``r.json: timeline entry 3``,
``r.jsonl: line 4``)."""


def _json_lines(text: str, name: str) -> list[Named]:
    """Every non-empty line of a JSONL text as a mapping, named by its line number."""
    entries: list[Named] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except (ValueError, RecursionError) as exc:  # a JSONDecodeError, or a 5,000-digit int
            raise RecordingError(
                f"{name}: line {number} is not valid JSON (truncated?): {exc}"
            ) from exc
        if not isinstance(value, dict):
            raise RecordingError(f"{name}: line {number} is not a JSON object")
        entries.append((f"{name}: line {number}", value))
    if not entries:
        raise RecordingError(f"{name}: the file is empty")
    return entries


def _read_text(path: Path, limits: Limits) -> str:
    """The recording's text, refused before it is read when it is over
    ``limits.max_recording_bytes``."""
    try:
        size = path.stat().st_size
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        raise RecordingError(f"{path.name}: cannot read: {_reason(exc)}") from exc
    if size > limits.max_recording_bytes:
        raise RecordingTooLargeError.refuse(limits, "max_recording_bytes", size, path.name)
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RecordingError(f"{path.name}: not UTF-8 text") from exc
    except OSError as exc:
        raise RecordingError(f"{path.name}: cannot read: {_reason(exc)}") from exc


def _reason(exc: Exception) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc)


def _load(path: Path, limits: Limits) -> tuple[Mapping[str, Any], list[Named]]:
    """The header and the named entries of a recording file."""
    text = _read_text(path, limits)
    if path.suffix == ".jsonl":
        lines = _json_lines(text, path.name)
        first = lines[0][1]
        if first.get("kind") == "recording" or not _VERSION_KEYS.isdisjoint(first):
            return first, lines[1:]
        return {}, lines
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise RecordingError(f"{path.name}: not valid JSON (truncated?): {exc}") from exc
    if not isinstance(doc, dict) or not isinstance(doc.get("timeline"), list):
        raise RecordingError(f"{path.name}: not a recording_v1 document (no timeline list)")
    entries = doc["timeline"]
    if not all(isinstance(e, dict) for e in entries):
        raise RecordingError(f"{path.name}: every timeline entry must be a JSON object")
    return doc, [(f"{path.name}: timeline entry {i}", entry) for i, entry in enumerate(entries)]


def document_kind(doc: Any) -> str | None:
    """What a parsed JSON document is: ``"recording"`` (a recording_v1 document),
    ``"SnapshotV1"``, ``"reference"`` (a :class:`~resolver.SemanticElementRef`), the name of
    the accessibility-tree format that reads it, or ``None``."""
    from ..adapters.a11y import detect_format, parse_input
    from ..errors import ResolutionError
    from ..models import SemanticElementRef

    if isinstance(doc, Mapping):
        if isinstance(doc.get("timeline"), list) or not _VERSION_KEYS.isdisjoint(doc):
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


def observation_file_kind(path: Path, *, limits: Limits = DEFAULT_LIMITS) -> str | None:
    """What ``path`` holds when it is an observation file a recording's ``ax_snapshot``
    entry can name (``"SnapshotV1"``, or an accessibility-tree format such as ``"cdp"``);
    ``None`` for a recording, a reference, anything unreadable, or a file over
    ``limits.max_recording_bytes``."""
    if path.suffix != ".json":
        return None
    try:
        if path.stat().st_size > limits.max_recording_bytes:
            return None
        doc = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, ValueError, RecursionError):
        return None
    kind = document_kind(doc)
    return None if kind in (None, "recording", "reference") else kind


def read_recording(path: str | os.PathLike[str], *, limits: Limits = DEFAULT_LIMITS) -> Recording:
    """Read the recording at ``path`` (``.json`` document or ``.jsonl`` lines).

    Parameters
    ----------
    path:
        A recording_v1 file or an openadapt-style ``ActionWithElement`` JSONL file (a
        ``Path`` or its text).
    limits:
        The file is refused over ``limits.max_recording_bytes``, a snapshot file its
        timeline names over ``limits.max_tree_bytes``. A snapshot file is read only from
        the recording's folder or below it.

    Returns
    -------
    Recording
        Its steps with a target and the snapshots they refer to.

    Raises
    ------
    RecordingError
        The file cannot be read, is not valid JSON, is cut short, is not a recording, or an
        entry's field has the wrong type (the message names the entry and the field).
        :class:`~resolver.replay.model.RecordingTooLargeError` (also a
        :class:`~resolver.errors.LimitExceededError`) when it is over a limit.
    """
    if not isinstance(path, str | os.PathLike) or isinstance(path, bytes):
        raise RecordingError(f"a recording is read from a path, not {type(path).__name__}")
    path = Path(path)
    header, entries = _load(path, limits)
    key = "recording_version" if "recording_version" in header else "schema_version"
    version = header.get(key, 1)
    if version != 1 or isinstance(version, bool):
        raise RecordingError(f"{path.name}: {key} {shorten(version, 60)} is not supported")
    mode = header.get("mode")
    if mode is not None and not isinstance(mode, str):
        raise RecordingError(f"{path.name}: mode must be a string, got {shorten(mode, 60)}")
    openadapt = bool(entries) and "kind" not in entries[0][1] and "type" in entries[0][1]
    recording = Recording(
        name=path.name,
        fmt="openadapt_jsonl" if openadapt else "recording_v1",
        mode=mode or ("human" if openadapt else "agent"),
        steps=[],
        snapshots={},
        recording_id=_recording_id(header, path.name),
    )
    source = _openadapt_entries(entries) if openadapt else iter(entries)
    parse_entries(recording, source, path.parent, limits=limits)
    return recording


def _recording_id(header: Mapping[str, Any], name: str) -> str | None:
    """The header's ``recording_id``, or its ``id``, as text."""
    key = "recording_id" if "recording_id" in header else "id"
    return _as_label(header.get(key), f"{name}: {key}")


def _openadapt_entries(lines: list[Named]) -> Iterator[Named]:
    """openadapt-style lines as recording_v1 entries (a snapshot entry where a line has one)."""
    for number, (name, line) in enumerate(lines, 1):
        obs = next((line[k] for k in _OBS_KEYS if k in line), None)
        if obs is not None:
            sid = obs.get("snapshot_id") if isinstance(obs, Mapping) else None
            sid = sid if sid is not None and sid != "" else f"s{number}"
            yield name, {"kind": "ax_snapshot", "snapshot_id": sid, "snapshot": obs}
        action = {k: v for k, v in line.items() if k not in (*_OBS_KEYS, "target_node", "expected")}
        yield (
            name,
            {
                "kind": "human_action",
                "step": str(number),
                "action": action,
                "target_node": line.get("target_node"),
                "expected": line.get("expected"),
            },
        )


def _label(entry: Mapping[str, Any], key: str, name: str) -> str | None:
    """The field ``key`` of an entry as text (an ID, a step label, a file name): a string,
    or a number written as text; ``None`` when it is absent or null.

    Raises
    ------
    RecordingError
        Anything else (a list, an object, true/false, NaN or infinity), naming the entry.
    """
    return _as_label(entry.get(key), f"{name}: {key}")


def _as_label(value: Any, what: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, float) and math.isfinite(value):
        return str(value)
    raise RecordingError(f"{what} must be a string or a number, got {shorten(value, 60)}")


def _mapping(entry: Mapping[str, Any], key: str, name: str) -> Mapping[str, Any] | None:
    """The field ``key`` of an entry when it is a JSON object; ``None`` when absent or null;
    a :class:`RecordingError` naming the entry for anything else."""
    value = entry.get(key)
    if value is None or isinstance(value, Mapping):
        return value
    raise RecordingError(f"{name}: {key} must be a JSON object, got {shorten(value, 60)}")


def parse_entries(
    recording: Recording,
    entries: Iterable[Named],
    where: Path,
    *,
    limits: Limits = DEFAULT_LIMITS,
) -> None:
    """Fill ``recording`` from timeline entries, each with what an error calls it
    (``("r.json: timeline entry 3", {...})``); ``where`` is the folder snapshot files are relative
    to, read within ``limits.max_tree_bytes``.

    Raises
    ------
    RecordingError
        A snapshot cannot be read, or an entry's field has the wrong type (a list where an ID
        belongs, NaN as a step number); the message names the entry and the field.
    """
    current: str | None = None
    waiting: list[int] = []  # steps whose following snapshot is not seen yet
    by_step: dict[str, int] = {}
    for position, (name, entry) in enumerate(entries):
        recording.entries += 1
        kind = _label(entry, "kind", name)
        if kind == "navigation":
            current = None
        elif kind == "ax_snapshot":
            current = _snapshot(recording, entry, (position, name), where, limits)
            for i in waiting:
                recording.steps[i] = replace(recording.steps[i], following=current)
            waiting = []
        elif kind in _ACTION_KINDS:
            step = _step(entry, kind, (position, name), current)
            if step is None:
                recording.untargeted += 1
                continue
            by_step[step.step] = len(recording.steps)
            waiting.append(len(recording.steps))
            recording.steps.append(step)
        elif kind == "action_result":
            _result(recording, entry, name, by_step)


def _snapshot(
    recording: Recording,
    entry: Mapping[str, Any],
    at: tuple[int, str],
    where: Path,
    limits: Limits,
) -> str:
    """Store the snapshot of an ``ax_snapshot`` entry; return its ID."""
    position, name = at
    sid = _label(entry, "snapshot_id", name) or f"s{position}"
    if "snapshot" in entry:
        doc = entry["snapshot"]
    elif "file" in entry:
        doc = _snapshot_file(where, _label(entry, "file", name) or "", sid, limits)
    else:
        doc = {k: v for k, v in entry.items() if k != "kind"}
    if not isinstance(doc, Mapping):
        raise RecordingError(f"{name}: snapshot {shorten(sid, 60)} is not a JSON object")
    recording.snapshots[sid] = doc
    recording.order.append(sid)
    return sid


def _snapshot_file(where: Path, file: str, sid: str, limits: Limits) -> Any:
    """The JSON document of a snapshot file beside the recording (or in a folder below it),
    refused over ``limits.max_tree_bytes``; a path that would leave the recording's folder
    (absolute, or with a ``..`` part) is refused before anything is opened."""
    shown = f"snapshot {shorten(sid, 60)}"
    named = PureWindowsPath(file)  # (reads both separators; "/etc" has an anchor too)
    if named.anchor or ".." in named.parts:
        raise RecordingError(
            f"{shown}: file {shorten(file, 80)!r} is outside the recording's folder "
            "(a snapshot file is named relative to the recording, with no '..')"
        )
    path = where / file
    try:
        size = path.stat().st_size
        if size > limits.max_tree_bytes:
            raise RecordingTooLargeError.refuse(limits, "max_tree_bytes", size, f"{shown} file")
        return json.loads(path.read_text(encoding="utf-8"))
    except RecordingError:
        raise
    except (OSError, ValueError, RecursionError) as exc:
        raise RecordingError(f"{shown}: cannot read {shorten(path.name, 80)}: {exc}") from exc


def _target(entry: Mapping[str, Any], name: str) -> tuple[str, Mapping[str, Any] | None]:
    """The action type and the recorded reference of a decision or human action."""
    action = _mapping(entry, "action", name) or {}
    refs = (
        _mapping(entry, "target", name),
        _mapping(action, "element", f"{name}: action"),
        _mapping(entry, "element", name),
    )
    ref = next((r for r in refs if r), None)
    kind = (
        _label(action, "type", f"{name}: action") or _label(entry, "action_type", name) or "click"
    )
    return kind, ref


def _step(
    entry: Mapping[str, Any], kind: str, at: tuple[int, str], current: str | None
) -> Step | None:
    """The step of a decision or human action, or ``None`` when it has no target."""
    position, name = at
    action_type, ref = _target(entry, name)
    if ref is None:
        return None
    expected: dict[str, tuple[str, ...]] = {}
    node = _label(entry, "target_node", name)
    if node is not None and current is not None:
        expected[current] = (_executor(node),)
    for sid, value in (_mapping(entry, "expected", name) or {}).items():
        answer = _as_label(value, f"{name}: expected[{shorten(sid, 60)!r}]")
        expected[str(sid)] = () if answer is None else (_executor(answer),)
    label = _label(entry, "step", name)
    return Step(
        index=position,
        step=label if label is not None else str(position),
        kind=kind,
        action_type=action_type,
        ref=ref,
        preceding=current,
        following=None,
        expected=expected,
        recorded_on=current,
        key=_label(entry, "key", name),
    )


def _executor(text: str) -> str:
    """A node ID as the a11y executor ID; executor IDs stay as they are."""
    return text if ":" in text else f"a11y:{text}"


def _result(
    recording: Recording, entry: Mapping[str, Any], name: str, by_step: Mapping[str, int]
) -> None:
    """Use a successful ``action_result`` as the expected answer where none is recorded."""
    label = _label(entry, "step", name)
    i = by_step.get(label) if label is not None else len(recording.steps) - 1
    target = _label(entry, "executor_id", name)
    status = _label(entry, "status", name) if "status" in entry else "ok"
    if i is None or i < 0 or target is None or status != "ok":
        return
    step = recording.steps[i]
    if step.preceding is not None and step.preceding not in step.expected:
        expected = {**step.expected, step.preceding: (_executor(target),)}
        recording.steps[i] = replace(step, expected=expected)
