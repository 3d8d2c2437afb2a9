"""Capture shims: turn what a recorder sees into a :class:`~resolver.models.SemanticElementRef`.

These are thin and dependency-free. :func:`ref_from_row` records any row of a candidate table
(from any adapter) and :func:`ref_at_point` records the element under a point, the way a
recorder that only knows where the user clicked would.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import ElementNotFoundError, InvalidReferenceError
from ..models import SemanticElementRef
from ..observation import Observation
from ..table import CandidateTable

__all__ = ["ref_at_point", "ref_from_row"]


def ref_from_row(
    table: CandidateTable,
    row: int,
    *,
    screen_size: tuple[int, int] | None = None,
    with_ids: bool = True,
) -> SemanticElementRef:
    """The reference a recorder would store for ``table``'s row ``row``.

    Parameters
    ----------
    table:
        Any candidate table (``Observation.candidates(...)``).
    row:
        Row index.
    screen_size:
        The screen or viewport size the bbox was measured in (defaults to the table's).
    with_ids:
        Also record platform IDs (``automation_id``, ``accessibility_id``, ``xpath``).

    Examples
    --------
    >>> obs = Observation(accessibility_tree={"id": "1", "role": "dialog", "name": "Settings",
    ...     "children": [{"id": "2", "role": "button", "name": "OK", "bbox": [5, 5, 45, 25]}]})
    >>> ref = ref_from_row(obs.candidates("a11y"), 1)
    >>> (ref.role, ref.name, ref.container_path)
    ('button', 'OK', ('Settings',))
    """
    if not 0 <= row < len(table):
        raise InvalidReferenceError(f"row {row} is outside the table (0..{len(table) - 1})")
    box = table.bboxes[row]
    bbox = None if np.isnan(box).any() else tuple(float(v) for v in box)
    if screen_size is None and table.screen_size is not None:
        screen_size = (round(table.screen_size[0]), round(table.screen_size[1]))
    ids: dict[str, str] = {}
    if with_ids:
        for column, field in (
            ("automation_id", "automation_id"),
            ("accessibility_id", "accessibility_id"),
            ("xpath", "xpath"),
        ):
            value = table.platform_ids.get(column, (None,) * len(table))[row]
            if value:
                ids[field] = value
    enabled = int(table.enabled[row])
    return SemanticElementRef(
        role=table.roles[row] if table.roles[row] != "unknown" else table.raw_roles[row] or None,
        name=table.names[row] or None,
        bbox=bbox,
        container_path=table.containers[row],
        enabled=None if enabled < 0 else bool(enabled),
        screen_size=screen_size,
        coord_space=None if table.coord_space in ("unknown", "none") else table.coord_space,
        **ids,
    )


def ref_at_point(
    observation: Observation, x: float, y: float, *, source: str = "a11y"
) -> SemanticElementRef:
    """The reference for the smallest row whose bbox contains ``(x, y)``.

    Ties go to the deepest row. Raises :class:`ElementNotFoundError` when no box holds the point.
    """
    if not (math.isfinite(x) and math.isfinite(y)):
        raise InvalidReferenceError("the point must be finite")
    table = observation.candidates(source)
    boxes = table.bboxes
    with np.errstate(invalid="ignore"):
        inside = (boxes[:, 0] <= x) & (x <= boxes[:, 2]) & (boxes[:, 1] <= y) & (y <= boxes[:, 3])
    rows = np.flatnonzero(inside)
    if rows.size == 0:
        raise ElementNotFoundError(f"no element's bbox contains ({x}, {y})")
    area = (boxes[rows, 2] - boxes[rows, 0]) * (boxes[rows, 3] - boxes[rows, 1])
    order = np.lexsort((-table.depth[rows], area))
    return ref_from_row(table, int(rows[order[0]]))
