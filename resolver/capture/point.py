"""The element under a point: how a click recorded as coordinates becomes a reference."""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from ..errors import ElementNotFoundError, InvalidReferenceError, shorten
from ..models import SemanticElementRef
from ..observation import Observation
from ..roles import ACTIONABLE_ROLES, DIALOG_ROLES, LANDMARK_ROLES
from ..table import CandidateTable
from ._shim import _number
from .rows import ref_from_row

__all__ = ["PRESS_STOPS", "control_at_point", "element_at_point", "in_dialog", "row_at_point"]

_SURFACES: Final[frozenset[str]] = frozenset({"document", "application", "window"})
PRESS_STOPS: Final[frozenset[str]] = DIALOG_ROLES | LANDMARK_ROLES | _SURFACES
"""Roles a press inside one is never sent past to a control around it (a dialog or a
document drawn inside a link is its own surface; a landmark is a region of the page)."""


def _point(x: object, y: object) -> tuple[float, float]:
    """``(x, y)`` as floats; an :class:`InvalidReferenceError` unless both are finite real
    numbers (a bool, a text or an integer too large for a float is no coordinate)."""
    x_, y_ = (None if isinstance(v, str | bytes | bytearray) else _number(v) for v in (x, y))
    if x_ is None or y_ is None:
        raise InvalidReferenceError(
            f"the point must be two finite numbers, got ({shorten(repr(x), 40)}, "
            f"{shorten(repr(y), 40)})"
        )
    return x_, y_


def row_at_point(table: CandidateTable, x: float, y: float) -> int:
    """The row of ``table`` under ``(x, y)``: of the rows whose box holds the point, the one a
    click lands on (:func:`_topmost`: an innermost row, the smallest of them); where a
    dialog's box holds the point, among the dialog's rows only (:func:`_on_top`). A text row
    that only repeats its parent's name (the label inside a button or link) gives way to
    that parent when the parent's box holds the point too: a click on it is a click on the
    control; and any row that is no control (a text, an icon, a heading) inside a control
    gives way to the nearest control around it (:func:`_pressed_control`).

    Raises
    ------
    InvalidReferenceError
        The point is not finite.
    ElementNotFoundError
        No row's box holds the point.
    """
    x, y = _point(x, y)
    inside = _holding(table.bboxes, x, y)
    rows = np.flatnonzero(inside)
    if rows.size == 0:
        raise ElementNotFoundError(f"no element's bbox contains ({x}, {y})")
    rows = _on_top(table, rows)
    row = _topmost(table, rows)
    parent = int(table.parent[row])
    if (
        parent >= 0
        and inside[parent]
        and table.roles[row] == "text"
        and table.names_norm[row] == table.names_norm[parent]
    ):
        row = parent
    return _pressed_control(table, row, inside)


def _holding(boxes: npt.NDArray[np.float64], x: float, y: float) -> npt.NDArray[np.bool_]:
    """Which boxes hold the point (edges included; a row without a box holds none)."""
    with np.errstate(invalid="ignore"):
        return (boxes[:, 0] <= x) & (x <= boxes[:, 2]) & (boxes[:, 1] <= y) & (y <= boxes[:, 3])


def _topmost(table: CandidateTable, rows: npt.NDArray[np.intp]) -> int:
    """Which of ``rows`` (not empty; each holding the point) a click lands on, read from
    their boxes alone: of the rows with no other of ``rows`` inside them (an element drawn
    over the point is drawn over its ancestors), the one of the smallest area (a link drawn
    over a large picture link whose box overflows onto it, as a box taller than what it
    draws does), then the deepest, then the last in the document; a row of no area only
    when every one has none."""
    boxes = table.bboxes
    above: set[int] = set()
    for row in rows.tolist():
        at = int(table.parent[row])
        while at >= 0 and at not in above:
            above.add(at)
            at = int(table.parent[at])
    leaves = np.asarray([r for r in rows.tolist() if r not in above], dtype=np.intp)
    area = (boxes[leaves, 2] - boxes[leaves, 0]) * (boxes[leaves, 3] - boxes[leaves, 1])
    order = np.lexsort((-leaves, -table.depth[leaves], area, area <= 0))
    return int(leaves[order[0]])


def _pressed_control(table: CandidateTable, row: int, inside: npt.NDArray[np.bool_]) -> int:
    """The control a press on ``row`` acts on: ``row`` itself, or, when it is no control,
    the nearest control (:data:`~resolver.roles.ACTIONABLE_ROLES`) around it whose box holds
    the point too (``inside``), as a browser sends the press to the nearest element around
    the target that acts on one: the "×" in a Close button, a logo's picture in the link
    home, a heading inside a card's link. The search stops at a row whose box does not hold
    the point and at what no press passes through (:data:`PRESS_STOPS`: a dialog, a
    landmark, a document)."""
    at = row
    while table.roles[at] not in ACTIONABLE_ROLES and table.roles[at] not in PRESS_STOPS:
        at = int(table.parent[at])
        if at < 0 or not inside[at]:
            return row
        if table.roles[at] in ACTIONABLE_ROLES:
            return at
    return row


def _on_top(table: CandidateTable, rows: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
    """``rows`` (each holding the point) inside the innermost dialog among them, or all of
    them when none is a dialog: a dialog is drawn over the page, so a deeper element of the
    page under it (a form's label beneath a dialog drawn over the form) is hidden there."""
    roles = table.roles
    dialogs = [int(r) for r in rows if roles[r] in DIALOG_ROLES]
    if not dialogs:
        return rows
    top = max(dialogs, key=lambda r: int(table.depth[r]))
    kept = [int(r) for r in rows if r == top or table.is_ancestor(top, int(r))]
    return np.asarray(kept, dtype=np.intp)


def element_at_point(
    observation: Observation, x: float, y: float, *, source: str = "a11y"
) -> SemanticElementRef:
    """The reference (with its container path) for the element of ``source`` under
    ``(x, y)`` (:func:`row_at_point`). Works on any tree an adapter reads.

    Raises
    ------
    InvalidReferenceError
        The point is not finite.
    ElementNotFoundError
        No row's box holds the point.
    """
    observation = Observation.from_any(observation)
    table = observation.candidates(source)
    if source == "dom" and (why := _beyond_the_html(observation, x, y)):
        raise ElementNotFoundError(why)
    return ref_from_row(table, row_at_point(table, x, y))


def control_at_point(observation: Observation, x: float, y: float) -> SemanticElementRef | None:
    """The DOM's control under ``(x, y)``: of the DOM source's rows whose box holds the
    point and whose role is a control's (:data:`~resolver.roles.ACTIONABLE_ROLES`), the one
    a click lands on (:func:`_topmost`); ``None`` when there is none, or when the
    point is in a frame or a shadow tree the page's HTML does not hold."""
    x, y = _point(x, y)
    if _beyond_the_html(observation, x, y):
        return None
    table = observation.candidates("dom")
    held = np.flatnonzero(_holding(table.bboxes, x, y)).tolist()
    rows = np.asarray([r for r in held if table.roles[r] in ACTIONABLE_ROLES], dtype=np.intp)
    return ref_from_row(table, _topmost(table, rows)) if rows.size else None


def in_dialog(table: CandidateTable, row: int) -> bool:
    """Whether ``row`` is a dialog or inside one (drawn over the page)."""
    return table.roles[row] in DIALOG_ROLES or table.nearest_above(row, DIALOG_ROLES) is not None


def _beyond_the_html(observation: Observation, x: float, y: float) -> str | None:
    """Why the DOM source cannot record the element under the point, when the page's
    accessibility tree places it in a frame's document or a shadow tree (live page
    observations say which nodes are): the page's HTML, which the DOM source reads, holds
    neither, and its row there is the frame element or the shadow host (or an ancestor),
    which a replay would click in the middle of. ``None`` otherwise."""
    kinds = ("frame_paths", "unlocatable", "in_shadow")
    elsewhere = [getattr(observation, k, None) or () for k in kinds]
    if not any(elsewhere) or not observation.has("a11y"):
        return None
    table = observation.candidates("a11y")
    try:
        executor = table.executor_id(row_at_point(table, x, y))
    except ElementNotFoundError:
        return None
    place = next((k for k, ids in zip(("frame", "frame", "shadow tree"), elsewhere, strict=True)
                  if executor in ids), None)  # fmt: skip
    if place is None:
        return None
    return (
        f"the element at ({x:g}, {y:g}) is inside a {place}, which the page's HTML (what the "
        "DOM source reads) does not hold: record it from the a11y source"
    )
