"""The element under a point: how a click recorded as coordinates becomes a reference."""

from __future__ import annotations

import math

import numpy as np

from ..errors import ElementNotFoundError, InvalidReferenceError
from ..models import SemanticElementRef
from ..observation import Observation
from ..table import CandidateTable
from .rows import ref_from_row

__all__ = ["element_at_point", "row_at_point"]


def element_at_point(
    observation: Observation, x: float, y: float, *, source: str = "a11y"
) -> SemanticElementRef:
    """The reference for the smallest row of ``source`` whose bbox contains ``(x, y)``.

    Ties go to the deepest row. Works on any tree an adapter reads.

    Raises
    ------
    InvalidReferenceError
        The point is not finite.
    ElementNotFoundError
        No row's box holds the point.
    """
    table = observation.candidates(source)
    row = row_at_point(table, x, y)
    if row is None:
        raise ElementNotFoundError(f"no element's bbox contains ({x}, {y})")
    return ref_from_row(table, row)


def row_at_point(table: CandidateTable, x: float, y: float) -> int | None:
    """The smallest row of ``table`` whose box contains ``(x, y)`` (ties: the deepest), or
    ``None``.

    Raises
    ------
    InvalidReferenceError
        The point is not finite.
    """
    if not (math.isfinite(x) and math.isfinite(y)):
        raise InvalidReferenceError("the point must be finite")
    boxes = table.bboxes
    with np.errstate(invalid="ignore"):
        inside = (boxes[:, 0] <= x) & (x <= boxes[:, 2]) & (boxes[:, 1] <= y) & (y <= boxes[:, 3])
    rows = np.flatnonzero(inside)
    if rows.size == 0:
        return None
    area = (boxes[rows, 2] - boxes[rows, 0]) * (boxes[rows, 3] - boxes[rows, 1])
    order = np.lexsort((-table.depth[rows], area))
    return int(rows[order[0]])
