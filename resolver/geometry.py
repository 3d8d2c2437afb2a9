"""Boxes: the coordinate spaces they are measured in, and the one overlap (IoU) computation.

Boxes are ``[left, top, right, bottom]`` everywhere; a table stores them as a float N x 4
array with NaN where a row has none.
"""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

__all__ = [
    "Box", "CoordSpace", "Edges", "Geometry", "box_area", "box_gap", "box_gaps", "boxes_overlap",
    "iou", "iou_one", "nearest_move", "overlap", "scale_between", "share_inside",
    "uncovered_point",
]  # fmt: skip

FloatArray = npt.NDArray[np.float64]
Box = tuple[float, float, float, float]
Edges = tuple[float | FloatArray, float | FloatArray, float | FloatArray, float | FloatArray]
"""A box's ``left, top, right, bottom``: numbers, or one per row compared."""


class CoordSpace(StrEnum):
    """What a box is measured in. Boxes in different spaces are weak evidence for each other
    (a macOS point is not a CSS pixel; a device pixel is neither)."""

    CSS_PX = "css_px"
    """Viewport CSS pixels (CDP, BrowserGym, WebArena, the DOM with a layout)."""
    SCREEN_PX = "screen_px"
    """Physical screen pixels (Windows UIA, AT-SPI, pywinauto)."""
    SCREEN_POINTS = "screen_points"
    """Screen points, top-left origin (macOS AX)."""
    DEVICE_PX = "device_px"
    """Android device pixels."""
    UNKNOWN = "unknown"
    """The source has boxes but does not say in what."""
    NONE = "none"
    """The source has no geometry at all (aria and Playwright snapshots)."""

    @property
    def known(self) -> bool:
        """Whether boxes in this space can be compared with another named space."""
        return self not in (CoordSpace.UNKNOWN, CoordSpace.NONE)


class Geometry(NamedTuple):
    """Edges, centres and sizes of many boxes, as columns (computed once per table)."""

    left: FloatArray
    top: FloatArray
    right: FloatArray
    bottom: FloatArray
    cx: FloatArray
    cy: FloatArray
    width: FloatArray
    height: FloatArray

    @classmethod
    def of(cls, boxes: FloatArray) -> Geometry:
        """The geometry of an N x 4 box array."""
        left, top, right, bottom = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
        return cls(
            left, top, right, bottom, (left + right) / 2.0, (top + bottom) / 2.0,
            right - left, bottom - top,
        )  # fmt: skip

    def take(self, rows: npt.NDArray[np.intp]) -> Geometry:
        """The geometry of some rows."""
        return Geometry._make([column[rows] for column in self])


def iou(
    box: Box | Edges, geometry: Geometry, *, coincide: npt.NDArray[np.bool_] | None = None
) -> FloatArray:
    """Intersection over union of ``box`` with every box of ``geometry`` (NaN where unknown);
    ``box`` may give each row its own edges.

    Two zero-area boxes have no union; they count as overlapping fully where ``coincide`` is
    true (callers pass "the centres are within a pixel"), else not at all.
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        return overlap(box, geometry, coincide)


def overlap(
    box: Box | Edges, geometry: Geometry, coincide: npt.NDArray[np.bool_] | None
) -> FloatArray:
    """:func:`iou` for a caller that has silenced numpy's invalid and divide warnings."""
    left, top, right, bottom = box
    # ``np.maximum(x, 0.0)``: ``np.clip(x, 0, None)``'s values, without its overhead.
    inter = np.maximum(np.minimum(geometry.right, right) - np.maximum(geometry.left, left), 0.0)
    inter *= np.maximum(np.minimum(geometry.bottom, bottom) - np.maximum(geometry.top, top), 0.0)
    union = geometry.width * geometry.height + (right - left) * (bottom - top) - inter
    fallback = np.zeros_like(union) if coincide is None else coincide.astype(np.float64)
    shares: FloatArray = np.where(union > 0, inter / union, fallback)
    return shares


def iou_one(a: Box, b: Box) -> float:
    """IoU of two boxes (identical zero-area boxes count as overlapping fully)."""
    geometry = Geometry.of(np.asarray([b], dtype=np.float64))
    return float(iou(a, geometry, coincide=np.asarray([a == b]))[0])


def share_inside(inner: Box, outer: Box) -> float:
    """Share of ``inner``'s area that lies inside ``outer`` (0 for an empty or inverted
    ``inner``)."""
    width = min(inner[2], outer[2]) - max(inner[0], outer[0])
    height = min(inner[3], outer[3]) - max(inner[1], outer[1])
    area = max(0.0, inner[2] - inner[0]) * max(0.0, inner[3] - inner[1])
    return max(0.0, width) * max(0.0, height) / area if area > 0 else 0.0


def box_gap(a: Box, b: Box) -> float:
    """The distance between two boxes' edges (0 when they touch or overlap)."""
    dx = max(a[0] - b[2], b[0] - a[2], 0.0)
    dy = max(a[1] - b[3], b[1] - a[3], 0.0)
    return math.hypot(dx, dy)


def nearest_move(start: float, end: float, was_start: float, was_end: float) -> float:
    """How far an extent moved from where it was, along one axis: the smallest (by size) of
    the moves of its start, its end and its centre. A block recorded across the page and
    the ink of its words read on a screen share their start when the text is set left, their
    end when set right, their centre when centred.

    >>> nearest_move(52.0, 675.0, 48.0, 1272.0)
    4.0
    """
    moves = (start - was_start, end - was_end, (start + end - was_start - was_end) / 2.0)
    return min(moves, key=abs)


def box_gaps(boxes: FloatArray, box: Box) -> FloatArray:
    """:func:`box_gap` from each row of ``boxes`` (``[N, 4]``) to ``box`` (NaN for a row
    whose box is unknown).

    >>> box_gaps(np.array([[0.0, 0.0, 10.0, 10.0], [13.0, 14.0, 20.0, 20.0]]), (0, 10, 10, 12))
    array([0.        , 3.60555128])
    """
    dx = np.maximum(np.maximum(boxes[:, 0] - box[2], box[0] - boxes[:, 2]), 0.0)
    dy = np.maximum(np.maximum(boxes[:, 1] - box[3], box[1] - boxes[:, 3]), 0.0)
    gaps: FloatArray = np.hypot(dx, dy)
    return gaps


def scale_between(
    recorded: tuple[float, float] | None, now: tuple[float, float] | None
) -> tuple[float, float]:
    """``(sx, sy)`` that map boxes measured on a screen of size ``recorded`` onto one of size
    ``now``; ``(1, 1)`` unless both sizes are known."""
    if recorded and now:
        return now[0] / recorded[0], now[1] / recorded[1]
    return 1.0, 1.0


MAX_PARTS: Final[int] = 64
"""Parts of a box :func:`uncovered_point` keeps while it cuts covers out (the largest)."""


def uncovered_point(box: Box, covers: list[Box], least: float) -> tuple[float, float] | None:
    """A point of ``box`` that no box of ``covers`` holds, where a click lands on what
    ``box`` bounds: its centre when no cover holds that; else the centre of the largest part
    of ``box`` that no cover overlaps (``box`` cut, cover by cover, into the parts left of,
    right of, above and below it, each at least ``least`` wide and high; at most
    :data:`MAX_PARTS` kept, the largest); ``None`` when no part is left (``box`` lies under
    the covers)."""
    left, top, right, bottom = box
    x, y = (left + right) / 2.0, (top + bottom) / 2.0
    if not any(c[0] <= x <= c[2] and c[1] <= y <= c[3] for c in covers):
        return (x, y)
    parts = [box]
    for c in covers:
        cut: list[Box] = []
        for p in parts:
            if not boxes_overlap(p, c):
                cut.append(p)
                continue
            for q in (
                (p[0], p[1], min(p[2], c[0]), p[3]),
                (max(p[0], c[2]), p[1], p[2], p[3]),
                (p[0], p[1], p[2], min(p[3], c[1])),
                (p[0], max(p[1], c[3]), p[2], p[3]),
            ):
                if q[2] - q[0] >= least and q[3] - q[1] >= least:
                    cut.append(q)
        parts = sorted(cut, key=box_area, reverse=True)[:MAX_PARTS]
    if not parts:
        return None
    part = parts[0]
    return ((part[0] + part[2]) / 2.0, (part[1] + part[3]) / 2.0)


def box_area(box: Box) -> float:
    """A box's area (0 for an inverted one)."""
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def boxes_overlap(a: Box, b: Box) -> bool:
    """Whether two boxes share an area (touching edges do not)."""
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])
