"""A catalog's indexes drawn on the screenshot of its page, for a model that reads pictures.

An agent that sees the page chooses by sight and acts by index: each catalog entry that lies
in the picture gets a coloured outline and a label with its index in the same colour, above
the outline's left end where that covers no other label and no other outline, else below it,
beside it, at its right end, or inside its corner; where none is clear, a smaller label is
tried in the same places. The index is the one ``index=N`` targets name, so the picture and
the catalog's text are two views of one catalog version.

>>> from resolver import Observation
>>> from resolver.catalog import build_catalog
>>> page = Observation(accessibility_tree={"id": "1", "role": "form", "children": [
...     {"id": "2", "role": "button", "name": "Save", "bbox": [10, 10, 90, 40]},
...     {"id": "3", "role": "button", "name": "Later", "bbox": [10, 900, 90, 940]}]})
>>> [e.index for e in marked_entries(build_catalog(page), (400.0, 300.0))]
[0]

Only entries with a box that overlaps the picture and that are not reported hidden are
drawn; the screenshot's own pixels are not redacted (what the page shows, it shows).
Drawing needs OpenCV (the ``vision`` extra).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from ..errors import InvalidObservationError, SourceUnavailableError
from ..explain import draw_rect, draw_text, png_bytes, text_size
from ..geometry import Box, FloatArray
from ..limits import DEFAULT_LIMITS, Limits
from .model import CatalogEntry

__all__ = ["MARK_COLORS", "MarkedScreenshot", "mark_screenshot", "marked_entries"]

MARK_COLORS: Final[tuple[tuple[int, int, int], ...]] = (
    (40, 40, 200), (180, 90, 20), (30, 130, 30), (150, 40, 150),
    (0, 100, 210), (120, 100, 0), (90, 60, 160), (60, 60, 60),
)  # fmt: skip
"""Outline and label colours (BGR), taken in turn by index; each carries white text."""
_WHITE: Final[tuple[int, int, int]] = (255, 255, 255)
_SMALL: Final[float] = 0.8
"""The smaller labels' size against the others', where those have no room."""
_LABEL_SCALE: Final[float] = 0.5
"""The labels' font size, in OpenCV's units, at one pixel per CSS pixel (about 10 px digits)."""


@dataclass(frozen=True)
class MarkedScreenshot:
    """What :func:`mark_screenshot` drew.

    Attributes
    ----------
    png:
        The picture with the marks, as PNG bytes.
    marked:
        The catalog indexes drawn, in catalog order.
    crowded:
        Those whose label found no place clear of the labels before it and of the other
        outlines and nearer its own outline than any other: where the picture is hard to
        read, the catalog's text tells them apart.
    size:
        The picture's width and height in pixels.
    scale:
        Pixels per unit of the catalog's boxes, across and down.
    """

    png: bytes
    marked: tuple[int, ...]
    crowded: tuple[int, ...]
    size: tuple[int, int]
    scale: tuple[float, float]


def marked_entries(
    entries: Iterable[CatalogEntry] | Any, viewport: tuple[float, float] | None
) -> list[CatalogEntry]:
    """The entries (of a catalog, or any entries) :func:`mark_screenshot` draws: those with
    a box of some area that overlaps ``(0, 0, width, height)`` (any box when ``viewport``
    is ``None``) and that are not reported hidden."""
    listed = entries.entries if hasattr(entries, "entries") else entries
    if not isinstance(listed, Iterable) or isinstance(listed, (str, bytes, Mapping)):
        raise InvalidObservationError(
            f"marks are drawn for a Catalog or its entries, not {type(entries).__name__}"
        )
    out = []
    for entry in listed:
        if not isinstance(entry, CatalogEntry):
            raise InvalidObservationError(
                f"marks are drawn for CatalogEntry items, not {type(entry).__name__}"
            )
        box = entry.bbox
        if box is None or entry.visible is False or box[2] <= box[0] or box[3] <= box[1]:
            continue
        if viewport is not None and not (
            box[2] > 0 and box[3] > 0 and box[0] < viewport[0] and box[1] < viewport[1]
        ):
            continue
        out.append(entry)
    return out


def _pixels(screenshot: Any, limits: Limits) -> Any:
    """The screenshot decoded (BGR, a copy to draw on)."""
    try:
        from ..adapters.vision.image import load_screenshot
    except ImportError as exc:
        raise SourceUnavailableError(
            "drawing marks needs OpenCV: pip install 'resolver[vision]'"
        ) from exc
    shot = load_screenshot(screenshot, limits=limits)
    return np.array(shot.pixels, copy=True)


def _scale(size: tuple[int, int], viewport: tuple[float, float] | None) -> tuple[float, float]:
    if viewport is None or min(viewport) <= 0:
        return (1.0, 1.0)
    return (size[0] / viewport[0], size[1] / viewport[1])


def _spots(box: Box, size: tuple[int, int], image: tuple[int, int]) -> list[Box]:
    """Where a label ``size`` pixels big may go, best first, each as the label's own box:
    above the box's left end, below it, beside its right then its left side, above and
    below its right end, inside its top left corner; those that leave the picture are left
    out (the last, moved into it, when all do)."""
    w, h = size[0] + 4, size[1] + 6
    left = min(max(box[0], 0.0), max(image[0] - w, 0.0))
    right = min(max(box[2] - w, 0.0), max(image[0] - w, 0.0))
    above, below, inside = box[1] - h - 1, box[3] + 1, box[1] + 1
    middle = (box[1] + box[3] - h) / 2
    places = ((left, above), (left, below), (box[2] + 1, middle), (box[0] - w - 1, middle),
              (right, above), (right, below), (left, inside))  # fmt: skip
    spots = [(x, y, x + w, y + h) for x, y in places]
    kept = [s for s in spots if s[0] >= 0 and s[1] >= 0 and s[2] <= image[0] and s[3] <= image[1]]
    if kept:
        return kept
    y = min(max(inside, 0.0), max(image[1] - h, 0.0))
    return [(left, y, left + w, y + h)]


def _hits(spot: Box, boxes: FloatArray) -> int:
    """How many of ``boxes`` (rows of edges) ``spot`` overlaps."""
    if not len(boxes):
        return 0
    return int(np.count_nonzero(
        (boxes[:, 0] < spot[2]) & (spot[0] < boxes[:, 2])
        & (boxes[:, 1] < spot[3]) & (spot[1] < boxes[:, 3])
    ))  # fmt: skip


def _gaps(spot: Box, boxes: FloatArray) -> FloatArray:
    """The distance from ``spot`` to each of ``boxes`` (0 where they touch or overlap)."""
    dx = np.maximum(np.maximum(boxes[:, 0] - spot[2], spot[0] - boxes[:, 2]), 0.0)
    dy = np.maximum(np.maximum(boxes[:, 1] - spot[3], spot[1] - boxes[:, 3]), 0.0)
    gaps: FloatArray = np.hypot(dx, dy)
    return gaps


def _faults(spot: Box, k: int, boxes: FloatArray, labels: FloatArray) -> tuple[bool, bool, bool]:
    """What is wrong with a label of box ``k`` at ``spot``: it covers a label placed before
    it, it covers another box, another box is nearer to it than its own. Boxes that hold
    box ``k`` whole (a card's link around its button) do not count: every place near the
    box is in them."""
    gaps = _gaps(spot, boxes)
    own = gaps[k]
    holds = (boxes[:, 0] <= boxes[k, 0]) & (boxes[:, 1] <= boxes[k, 1])
    holds &= (boxes[:, 2] >= boxes[k, 2]) & (boxes[:, 3] >= boxes[k, 3])
    gaps[holds] = np.inf
    return bool(_hits(spot, labels)), bool(np.any(gaps == 0.0)), bool(np.any(gaps < own))


def _labels(pixels: Any, entries: Sequence[CatalogEntry], scale: tuple[float, float]) -> list[int]:
    """Each entry's index on a label of its colour, placed in catalog order at the first of
    its :func:`_spots` with the fewest faults (:func:`_faults`, most serious first), at a
    :data:`_SMALL` size when the full size has none without one. Returns the indexes of
    those placed with a fault."""
    height, width = pixels.shape[:2]
    font = _LABEL_SCALE * max(1.0, min(scale))
    boxes = np.array(
        [[v * s for v, s in zip(e.bbox or (0, 0, 0, 0), (*scale, *scale), strict=True)]
         for e in entries], dtype=np.float64,
    ).reshape(-1, 4)  # fmt: skip
    labels = np.empty((len(entries), 4), dtype=np.float64)
    crowded = []
    for k, entry in enumerate(entries):
        text = str(entry.index)
        left, top, right, bottom = boxes[k].tolist()
        for size in (font, font * _SMALL):  # (a smaller label where the larger has no room)
            spots = _spots((left, top, right, bottom), text_size(text, size), (width, height))
            faults = [_faults(s, k, boxes, labels[:k]) for s in spots]
            best = min(range(len(spots)), key=lambda i: (faults[i], i))
            if not any(faults[best]):
                break
        else:
            crowded.append(entry.index)
        spot = labels[k] = spots[best]
        color = MARK_COLORS[entry.index % len(MARK_COLORS)]
        draw_text(pixels, (round(spot[0]), round(spot[3]) - 3), text, _WHITE, color, size)
    return crowded


def mark_screenshot(
    screenshot: Any,
    entries: Iterable[CatalogEntry] | Any,
    *,
    viewport: tuple[float, float] | None = None,
    limits: Limits = DEFAULT_LIMITS,
    skip: Collection[int] = (),
) -> MarkedScreenshot:
    """Draw the indexes of ``entries`` (a :class:`~resolver.catalog.Catalog`, or entries)
    on ``screenshot`` (PNG/JPEG bytes, a path or an array, as the vision source reads it).

    Parameters
    ----------
    screenshot:
        The picture of the page the catalog was built from.
    entries:
        The catalog, or the entries to draw.
    viewport:
        The size of the area the picture shows, in the units of the entries' boxes (an
        observation's ``screen_size``: CSS pixels for a browser page); the picture may have
        more pixels per unit (a high-density screen). ``None``: one pixel per unit, every
        box drawn where it lies in the picture.
    limits:
        How large a picture is read.
    skip:
        Indexes not to draw (those something else covers on a live page,
        :func:`resolver.act.covered.covered_entries`).

    Raises
    ------
    SourceUnavailableError
        OpenCV is not installed.
    InvalidObservationError
        The screenshot is not a readable image within ``limits``, the viewport is not two
        positive numbers, or ``entries`` are not catalog entries.
    """
    if viewport is not None and not (
        isinstance(viewport, (tuple, list))
        and len(viewport) == 2
        and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v > 0
            for v in viewport
        )
    ):
        raise InvalidObservationError(f"viewport is a positive (width, height): {viewport!r:.80}")
    pixels = _pixels(screenshot, limits)
    height, width = pixels.shape[:2]
    scale = _scale((width, height), viewport)
    drawn = marked_entries(entries, viewport or (width / scale[0], height / scale[1]))
    drawn = [entry for entry in drawn if entry.index not in skip]
    thick = max(2, round(2 * min(scale)))
    for entry in drawn:
        assert entry.bbox is not None
        left, top, right, bottom = entry.bbox
        color = MARK_COLORS[entry.index % len(MARK_COLORS)]
        draw_rect(pixels, (left, top, right, bottom), scale, color, thick)
    crowded = _labels(pixels, drawn, scale)
    return MarkedScreenshot(
        png_bytes(pixels), tuple(e.index for e in drawn), tuple(crowded), (width, height), scale
    )
