"""Annotate old recordings: give coordinate-only actions the element under their point.

A recorder that logged only where the mouse went (``x``, ``y``, no ``element``) leaves
steps a replay cannot re-resolve. When the recording kept what the page looked like before
the action, the element there can be recorded after the fact:

- a tree snapshot (``ax_snapshot`` entry, or an openadapt line's ``snapshot``): the element
  under the point in it (:func:`resolver.capture.element_at_point` on the a11y source),
  ``element_source: "a11y_point"``;
- else a screenshot (a ``screenshot`` entry ``{kind: "screenshot", file}`` with a PNG or
  JPEG beside the recording, or an openadapt line's ``screenshot`` file), only when the
  ``vision`` extra is importable: the vision source's element under the point,
  ``element_source: "vision"``.

The action gets ``element``, ``element_source`` and ``element_confidence`` (how sure the
point names the element: high for a control or a field, lower for text or a container; for
vision, the role confidence of the row). An action that has an ``element`` (or a
``target``) is never touched. A navigation forgets the page seen before it.
"""

from __future__ import annotations

import copy
import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PureWindowsPath
from typing import Any, Final

from ..capture.point import row_at_point
from ..capture.rows import ref_from_row
from ..errors import ResolutionError
from ..limits import DEFAULT_LIMITS, Limits
from ..observation import Observation
from ..roles import ACTIONABLE_ROLES, INPUT_ROLES
from ..text import json_text
from .model import Recording, RecordingError, ReplayError
from .recording import _OBS_KEYS, _load, _snapshot

__all__ = ["AnnotateReport", "annotate_recording", "vision_available"]

_ACTIONS: Final[frozenset[str]] = frozenset({"decision", "human_action"})
CONTROL_CONFIDENCE: Final[float] = 0.9
"""Confidence of an ``a11y_point`` element that is a control or a field."""
OTHER_CONFIDENCE: Final[float] = 0.5
"""Confidence of an ``a11y_point`` element that is text, an image or a container: the click
may have meant something drawn there that the tree does not expose."""


def vision_available() -> bool:
    """Whether the vision source can be imported (the ``vision`` extra is installed)."""
    try:
        import resolver.adapters.vision  # noqa: F401
    except ImportError:
        return False
    return True


@dataclass
class AnnotateReport:
    """What :func:`annotate_recording` did: ``annotated`` (by element source), ``skipped``
    (by reason), and per annotated step its entry, source, role, name and confidence."""

    recording: str
    output: str | None = None
    annotated: Counter[str] = field(default_factory=Counter)
    skipped: Counter[str] = field(default_factory=Counter)
    steps: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view."""
        return {
            "recording": self.recording,
            "output": self.output,
            "annotated": sum(self.annotated.values()),
            "by_source": dict(self.annotated),
            "skipped": dict(self.skipped),
            "steps": self.steps,
        }


@dataclass
class _Page:
    """What the recording showed last: a tree snapshot and a screenshot file."""

    tree: Observation | None = None
    screenshot: Path | None = None


def _point(action: Mapping[str, Any]) -> tuple[float, float] | None:
    x, y = action.get("x"), action.get("y")
    ok = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (x, y))
    if not ok or not (math.isfinite(float(x)) and math.isfinite(float(y))):  # type: ignore[arg-type]
        return None
    return float(x), float(y)  # type: ignore[arg-type]


def _screenshot(where: Path, file: Any) -> Path | None:
    """A screenshot file named relative to the recording (nothing outside its folder)."""
    if not isinstance(file, str) or not file:
        return None
    named = PureWindowsPath(file)
    if named.anchor or ".." in named.parts:
        raise RecordingError(f"screenshot {file!r} is outside the recording's folder")
    return where / file


def _from_tree(obs: Observation, x: float, y: float) -> tuple[dict[str, Any], float]:
    table = obs.candidates("a11y")
    row = row_at_point(table, x, y)
    ref = ref_from_row(table, row)
    role = table.roles[row]
    control = role in ACTIONABLE_ROLES or role in INPUT_ROLES
    confidence = CONTROL_CONFIDENCE if control else OTHER_CONFIDENCE
    return ref.model_dump(mode="json", exclude_none=True), confidence


def _from_screenshot(
    path: Path, x: float, y: float, limits: Limits
) -> tuple[dict[str, Any], float]:
    obs = Observation(screenshot=path, limits=limits)
    table = obs.candidates("vision")
    row = row_at_point(table, x, y)
    ref = ref_from_row(table, row)
    column = table.platform_ids.get("role_confidence")
    try:
        confidence = float(column[row] or 0.5) if column is not None else 0.5
    except ValueError:
        confidence = 0.5
    return ref.model_dump(mode="json", exclude_none=True), round(confidence, 4)


def _has_element(entry: Mapping[str, Any], action: Mapping[str, Any]) -> bool:
    return any(
        isinstance(value, Mapping) and bool(value)
        for value in (entry.get("target"), action.get("element"), entry.get("element"))
    )


def _element_at(
    page: _Page, point: tuple[float, float], limits: Limits
) -> tuple[dict[str, Any], float, str] | str:
    """The element under ``point`` with its confidence and source, or why there is none."""
    try:
        if page.tree is not None:
            return (*_from_tree(page.tree, *point), "a11y_point")
        if page.screenshot is None:
            return "no snapshot or screenshot before it"
        if not vision_available():
            return "screenshot only, and the vision extra is not installed"
        return (*_from_screenshot(page.screenshot, *point, limits), "vision")
    except ResolutionError as exc:
        if exc.code.value == "ELEMENT_NOT_FOUND":
            return "no element at the point"
        return f"unreadable page ({exc.code.value})"


def _annotate_action(
    entry: dict[str, Any],
    action: dict[str, Any],
    page: _Page,
    report: AnnotateReport,
    at: tuple[str, Limits],
) -> None:
    """Add the element under an action's point to ``action``, or count why not."""
    name, limits = at
    if _has_element(entry, action):
        report.skipped["has an element already"] += 1
        return
    point = _point(action)
    if point is None:
        report.skipped["no point (x, y)"] += 1
        return
    found = _element_at(page, point, limits)
    if isinstance(found, str):
        report.skipped[found] += 1
        return
    element, confidence, source = found
    action.update(element=element, element_source=source, element_confidence=confidence)
    report.annotated[source] += 1
    report.steps.append({"entry": name, "source": source, "role": element.get("role"),
                         "name": element.get("name"), "confidence": confidence,
                         "point": list(point)})  # fmt: skip


def _walk(
    entries: list[tuple[str, dict[str, Any]]], where: Path, limits: Limits, report: AnnotateReport
) -> None:
    """Annotate every action of a recording's entries in place, in timeline order."""
    openadapt = bool(entries) and "kind" not in entries[0][1] and "type" in entries[0][1]
    page = _Page()
    scratch = Recording("", "", "", [], {})
    for position, (name, entry) in enumerate(entries):
        kind = "line" if openadapt else entry.get("kind")
        if kind == "navigation":
            page = _Page()
        elif kind == "screenshot":
            page.screenshot = _screenshot(where, entry.get("file"))
        elif kind == "ax_snapshot":
            sid = _snapshot(scratch, entry, (position, name), where, limits)
            page.tree = Observation(accessibility_tree=scratch.snapshots.pop(sid), limits=limits)
        elif kind == "line":
            tree = next((entry[k] for k in _OBS_KEYS if k in entry), None)
            if tree is not None:
                page.tree = Observation(accessibility_tree=tree, limits=limits)
            if "screenshot" in entry:
                page.screenshot = _screenshot(where, entry.get("screenshot"))
            _annotate_action(entry, entry, page, report, (name, limits))
        elif kind in _ACTIONS:
            action = entry.get("action")
            if not isinstance(action, dict):
                report.skipped["no point (x, y)"] += 1
                continue
            _annotate_action(entry, action, page, report, (name, limits))


def annotate_recording(
    path: str | Path,
    out: str | Path | None = None,
    *,
    in_place: bool = False,
    limits: Limits = DEFAULT_LIMITS,
) -> AnnotateReport:
    """Give every coordinate-only action of a recording the element under its point.

    Parameters
    ----------
    path:
        A recording_v1 file (``.json`` or ``.jsonl``) or an openadapt-style JSONL file.
    out:
        Where the annotated copy is written (default: ``<name>.annotated<suffix>`` beside
        the input). Never the input itself unless ``in_place``.
    in_place:
        Write over the input (atomically: a temporary file, then a rename).
    limits:
        As for :func:`~resolver.replay.read_recording`.

    Returns
    -------
    AnnotateReport
        Counts of annotated actions (by element source) and skipped ones (by reason).

    Raises
    ------
    RecordingError
        The recording is corrupt, or a snapshot or screenshot it names is outside its folder.
    ReplayError
        ``out`` is the input and ``in_place`` is not set.
    """
    src = Path(path)
    target = src if in_place else Path(out) if out is not None else _default_out(src)
    if not in_place and target.resolve() == src.resolve():
        raise ReplayError(f"{src}: the output is the input; pass --in-place to overwrite it")
    header, named = _load(src, limits)
    entries = [(name, copy.deepcopy(dict(entry))) for name, entry in named]
    report = AnnotateReport(str(src))
    try:
        _walk(entries, src.parent, limits, report)
    except ResolutionError as exc:
        raise RecordingError(f"{src.name}: {exc.message}") from exc
    plain = [entry for _, entry in entries]
    if src.suffix == ".jsonl":
        lines = ([dict(header)] if header else []) + plain
        text = "".join(json_text(line) + "\n" for line in lines)
    else:
        text = json_text({**header, "timeline": plain}) + "\n"
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(target)
    report.output = str(target)
    return report


def _default_out(src: Path) -> Path:
    return src.with_name(f"{src.stem}.annotated{src.suffix}")
