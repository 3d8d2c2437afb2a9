"""Widgets from pixels: bordered rectangles, checkbox squares, radio circles and icon blobs.

OpenCV only, no model. The image is denoised first (a small Gaussian blur: JPEG ringing and
dithering must not make edges, one-pixel borders must survive), then:

- **rectangles**: closed contours of the edge map whose outline fills its bounding box (the
  border of a text field, a button's border or fill, a panel); nested duplicates of one
  border (its outer and inner edge) are merged, and two controls whose borders touch (side by
  side, or one above the other on a shared border) are cut apart again; a border whose
  contour the text inside or a neighbour breaks is sought from the text line instead
  (:mod:`resolver.adapters.vision.borders`);
- **checkboxes**: small rectangles with square proportions; **radios**: small closed contours
  that are round (circularity near 1);
- **icons**: compact clusters of edges outside every text box and rectangle outline (glyphs
  drawn as images: a gear, a magnifier, a cross).

Boxes are ``(left, top, right, bottom)`` in pixels of the image passed. Every number is a
named constant below.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from ...geometry import Box, iou_one, share_inside
from .borders import find_around_lines
from .roles import MAX_CONTROL_HEIGHT

__all__ = ["Widget", "detect_widgets", "edges_of"]

Pixels = npt.NDArray[np.uint8]

CANNY_LOW: Final[int] = 20
CANNY_HIGH: Final[int] = 60
MIN_RECT: Final[int] = 9
"""Smallest side of a rectangle (px)."""
RECT_FILL: Final[float] = 0.88
"""A contour is a rectangle when its area fills this much of its bounding box."""
SAME_BORDER: Final[float] = 0.8
"""Two rectangles overlapping this much (IoU) are one border."""
BORDER_INSET: Final[float] = 4.0
"""A rectangle this close (px) inside another on every side is the other's inner edge."""
CHECK_MIN, CHECK_MAX = 10, 28
"""Side of a checkbox square or radio circle (px)."""
PILL_ASPECT: Final[float] = 1.5
"""A closed outline at least this much wider than tall may be a pill (:func:`_pill`)."""
PILL_SLACK: Final[float] = 0.04
"""How much less than a perfect stadium a pill's outline may fill its box (its rounded ends
are drawn in whole pixels)."""
SQUARE: Final[float] = 0.8
"""Width/height ratio range of a square: ``[SQUARE, 1 / SQUARE]``."""
ROUND: Final[float] = 0.8
"""Circularity ``4 pi A / P^2`` above which a small closed contour is a circle."""
SMALL_FILL: Final[float] = 0.7
"""Fill ratio a checkbox or radio outline needs (its corners may be rounded)."""
ICON_MIN, ICON_MAX = 10, 48
"""Side of an icon blob (px)."""
ICON_EDGE_DENSITY: Final[float] = 0.12
"""Share of edge pixels an icon blob's box must have (flat areas are not icons)."""
ICON_GAP: Final[float] = 0.6
"""Words of one line further apart than this, in line heights, leave the gap between them to
the icon search (a space is about a quarter of a line height)."""
GLYPH_OVERHANG: Final[int] = 2
"""Pixels a glyph may stick out of its OCR word box at either end (the round side of an
"S"). Where no icon is found, icons are sought again with them erased with the word: they
join an icon just below into one blob too tall for an icon (a broken image before its
alternative text)."""
STACK_GAP: Final[float] = 1.0
"""How far right of a tall blob, in its widths, a text line may start to cut the blob into
icons (see :func:`find_icons`)."""
LETTER_SHARE: Final[float] = 0.25
"""A small shape inside a word is one of its letters (o, D, 0) only when at least this share
of the word's height: a button under a banner's huge word box (a logo drawn as text, its box
reaching over the line below) is no letter of it."""
CAPTION_PAD: Final[float] = 0.25
"""A shape reaching this share of a word's height past both its ends is no letter of it."""
WORD_SHARE: Final[float] = 0.8
"""A checkbox square at least this share of a word's width may be what the word was read
from (see :func:`_read_as_word`)..."""
EMPTY_FILL: Final[float] = 225.0
"""... when the mean of every colour channel inside it is at least this (an empty box)..."""
BOX_HEIGHT: Final[float] = 0.6
"""... and it is at least this share of the word's height (a lower-case letter, as wide as
a word of one or two, is about half its line's height)."""
TEXT_BOX_IOU: Final[float] = 0.6
"""A rectangle overlapping a text line's box this much is that text, not a widget..."""
BORDER_MARGIN: Final[float] = 2.0
"""... unless it encloses the line with at least this margin (px) at its left and right
end: the border of a small button snug around its caption ("Edit")."""
LINE_OVERHANG: Final[float] = 0.08
"""Share of an OCR line box's height that may stick out above or below a border around it."""
MAX_WIDGETS: Final[int] = 4000
DIVIDER: Final[float] = 0.95
"""Share of a rectangle's inner rows an edge column must cross to divide it: two bordered
controls a pixel or two apart (small buttons side by side) close into one contour, and the
border between them is such a column."""
DIVIDER_GAP: Final[int] = 4
"""Dividing columns this close (px) are one divider (the two controls' borders)."""
TEXT_INSET: Final[int] = 2
"""Rectangles hidden by text are sought with the edges inside every word box erased, but
this many pixels (px) in from each of its sides: a border the box grazes stays."""
LEGEND_REACH: Final[int] = 6
"""How far (px) a frame's top side runs up to a legend on each side of it, at least."""
LEGEND_PAD: Final[int] = 6
"""How far (px) from a legend's text the side it breaks may stop (the legend's padding)."""
LEGEND_ROW: Final[float] = 0.25
"""How far (in line heights) from the middle of a legend the side it breaks may run."""
DIVIDED_ASPECT: Final[float] = 1.2
"""Each part of a divided rectangle is at least this many times as wide as it is high (a
select's chevron compartment, about square, stays part of the select)."""
JOINED_MAX_HEIGHT: Final[float] = 72.0
"""Only control-sized rectangles are divided (not panels)."""
STACKED_MIN: Final[float] = 16.0
"""Two bordered controls one above the other that share a border (a button over another,
a vertical button group) close into one contour too; the border between them is an edge row
crossing it whole. Each part must be at least this tall (px), at most
:data:`JOINED_MAX_HEIGHT`, and :data:`DIVIDED_ASPECT` times as wide as tall."""


@dataclass(frozen=True)
class Widget:
    """One shape found in the pixels.

    Attributes
    ----------
    kind:
        ``"rect"``, ``"checkbox"``, ``"radio"``, ``"icon"``, ``"frame"`` (a border round a
        group whose top side its legend breaks: never a control) or, from a detector
        model, ``"detected"``.
    box:
        ``(left, top, right, bottom)`` in pixels.
    score:
        How clearly the shape is what ``kind`` says, in ``[0, 1]``.
    fill:
        Mean BGR colour of the inside (a button's fill, a field's background).
    label:
        A detector's class name, else ``""``.
    """

    kind: str
    box: Box
    score: float
    fill: tuple[float, float, float] = (255.0, 255.0, 255.0)
    label: str = ""

    @property
    def width(self) -> float:
        """Width in pixels."""
        return self.box[2] - self.box[0]

    @property
    def height(self) -> float:
        """Height in pixels."""
        return self.box[3] - self.box[1]


def edges_of(pixels: Pixels) -> Pixels:
    """The denoised edge map of a BGR image (shared by the detectors here)."""
    gray = cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY)
    gray = cv2.GaussianBlur(gray, (3, 3), 0)
    return np.asarray(cv2.Canny(gray, CANNY_LOW, CANNY_HIGH, L2gradient=True), dtype=np.uint8)


def _shape(contour: npt.NDArray[np.int32]) -> tuple[Box, float, float] | None:
    """Box, fill ratio and circularity of a closed contour, or None when too small."""
    x, y, w, h = cv2.boundingRect(contour)
    if w < MIN_RECT or h < MIN_RECT:
        return None
    area = cv2.contourArea(contour)
    perimeter = cv2.arcLength(contour, True)
    circularity = 4.0 * math.pi * area / (perimeter * perimeter) if perimeter > 0 else 0.0
    return (float(x), float(y), float(x + w), float(y + h)), area / float(w * h), circularity


def _corners(edges: Pixels, box: Box) -> int:
    """How many corners of ``box`` the outline reaches (a square: 4; a circle: 0)."""
    left, top, right, bottom = (int(v) for v in box)
    hits = 0
    for x, y in ((left, top), (right - 3, top), (left, bottom - 3), (right - 3, bottom - 3)):
        if np.count_nonzero(edges[y + 1 : y + 3, x + 1 : x + 3]):
            hits += 1
    return hits


def _kind(
    edges: Pixels, box: Box, fill_ratio: float, circularity: float
) -> tuple[str, float] | None:
    width, height = box[2] - box[0], box[3] - box[1]
    small = CHECK_MIN <= width <= CHECK_MAX and CHECK_MIN <= height <= CHECK_MAX
    if small and SQUARE <= width / height <= 1.0 / SQUARE and fill_ratio >= SMALL_FILL:
        corners = _corners(edges, box)
        if corners <= 1 and circularity >= ROUND:
            return "radio", min(1.0, circularity)
        if corners >= 3:
            return "checkbox", fill_ratio
        return None
    if fill_ratio >= RECT_FILL or _hollow_box(edges, box, fill_ratio):
        return "rect", fill_ratio
    return ("rect", fill_ratio) if _pill(edges, box, fill_ratio) else None


def _hollow_box(edges: Pixels, box: Box, fill_ratio: float) -> bool:
    """Whether a closed outline under :data:`RECT_FILL` is a rectangle all the same: its
    polygon runs through the centres of the border pixels, so a perfect ``w`` x ``h``
    rectangle encloses only ``(w - 1) (h - 1)``, which counts in a small one (the inside of
    an icon-sized button's border, 13 x 18 px: 0.87 of its box). It is one when its area
    fills ``(w - 1) (h - 1)`` by :data:`RECT_FILL` and nothing is drawn inside it (a
    letter's blob, which fills its box as solidly, is all ink)."""
    left, top, right, bottom = (int(v) for v in box)
    width, height = right - left, bottom - top
    if fill_ratio * width * height < RECT_FILL * (width - 1) * (height - 1):
        return False
    return not np.count_nonzero(edges[top + 2 : bottom - 2, left + 2 : right - 2])


def _pill(edges: Pixels, box: Box, fill_ratio: float) -> bool:
    """Whether a closed outline is a pill: a rectangle with fully rounded ends (a stadium,
    a common button shape), wide (:data:`PILL_ASPECT`), nothing drawn at its box's corners,
    and filling its box nearly as a stadium of that size does (:data:`PILL_SLACK`); a
    stadium twice as wide as tall fills 89% of its box, under :data:`RECT_FILL`."""
    width, height = box[2] - box[0], box[3] - box[1]
    if height <= 0 or width < PILL_ASPECT * height:
        return False
    stadium = 1.0 - (1.0 - math.pi / 4.0) * height / width
    return fill_ratio >= stadium - PILL_SLACK and _corners(edges, box) == 0


def _mean_inside(pixels: Pixels, box: Box) -> tuple[float, float, float]:
    left, top, right, bottom = (int(v) for v in box)
    inner = pixels[top + 2 : bottom - 2, left + 2 : right - 2]
    if inner.size == 0:
        return (255.0, 255.0, 255.0)
    b, g, r = (float(v) for v in inner.reshape(-1, 3).mean(axis=0))
    return (b, g, r)


def _divided(closed: Pixels, box: Box) -> list[Box]:
    """``box`` cut at the edge columns that cross nearly all its inner rows (see
    :data:`DIVIDER`), when every part is wide enough; else ``[box]``."""
    left, top, right, bottom = (int(v) for v in box)
    height = bottom - top
    if height > JOINED_MAX_HEIGHT or right - left < 2 * DIVIDED_ASPECT * height:
        return [box]
    crossed = _crossing_columns(closed, box)
    if crossed.size == 0:
        return [box]
    edges = [float(left), *_middles(crossed.tolist()), float(right)]
    parts = [(edges[k], float(top), edges[k + 1], float(bottom)) for k in range(len(edges) - 1)]
    if any(p[2] - p[0] < DIVIDED_ASPECT * height for p in parts):
        return [box]
    return parts


def _crossing_columns(closed: Pixels, box: Box) -> npt.NDArray[np.intp]:
    """The columns inside ``box`` (image x, :data:`MIN_RECT` in from its sides) where an edge
    crosses nearly all its inner rows (see :data:`DIVIDER`): a border between two controls,
    a cell's border, or the side of the narrower of two stacked controls."""
    left, top, right, bottom = (int(v) for v in box)
    inner = closed[top + 3 : bottom - 2, left + MIN_RECT : right - MIN_RECT]
    if inner.shape[0] < 3 or inner.shape[1] < 1:
        return np.empty(0, dtype=np.intp)
    crossed = np.flatnonzero(np.count_nonzero(inner, axis=0) >= DIVIDER * inner.shape[0])
    return crossed + (left + MIN_RECT)


def _middles(lines: list[int]) -> list[float]:
    """Where to cut at dividing lines (sorted): lines this close (:data:`DIVIDER_GAP`) are
    one divider (the two controls' borders), cut at its middle."""
    cuts: list[tuple[int, int]] = []
    for at in lines:
        if cuts and at <= cuts[-1][1] + DIVIDER_GAP:
            cuts[-1] = (cuts[-1][0], at)
        else:
            cuts.append((at, at))
    return [(a + b + 1) / 2.0 for a, b in cuts]


def _split_rows(closed: Pixels, box: Box) -> list[Box]:
    """``box`` cut at the edge rows that run unbroken across all but the ends of its inner
    columns (see :data:`STACKED_MIN`), when every part is control-sized; else ``[box]``."""
    left, top, right, bottom = (int(v) for v in box)
    width = right - left
    if bottom - top > 2 * JOINED_MAX_HEIGHT or bottom - top < 2 * STACKED_MIN:
        return [box]
    inner = closed[top + MIN_RECT : bottom - MIN_RECT, left + 3 : right - 2] > 0
    if inner.shape[0] < 1 or inner.shape[1] < 3:
        return [box]
    need = DIVIDER * inner.shape[1]
    rows = [y for y in np.flatnonzero(inner.sum(axis=1) >= need).tolist() if _run(inner[y]) >= need]
    if not rows:
        return [box]
    edges = [float(top), *_middles([y + top + MIN_RECT for y in rows]), float(bottom)]
    parts = [(float(left), edges[k], float(right), edges[k + 1]) for k in range(len(edges) - 1)]
    for part in parts:
        tall = part[3] - part[1]
        if not STACKED_MIN <= tall <= JOINED_MAX_HEIGHT or width < DIVIDED_ASPECT * tall:
            return [box]
    # A cell border through every row at one place (within DIVIDER_GAP): a grid (a table).
    near = range(-DIVIDER_GAP, DIVIDER_GAP + 1)
    columns = [{x + d for x in _crossing_columns(closed, p).tolist() for d in near} for p in parts]
    return [box] if set.intersection(*columns) else parts


def _run(flags: npt.NDArray[np.bool_]) -> int:
    """The longest run of set flags."""
    padded = np.concatenate(([False], flags, [False]))
    changes = np.flatnonzero(padded[1:] != padded[:-1])
    return int((changes[1::2] - changes[::2]).max()) if changes.size else 0


def _merge(found: list[Widget]) -> list[Widget]:
    """One widget per border: of near-identical boxes, or of a box and one just inside it
    (a border's outer and inner edge), keep the outer (largest) one."""
    found.sort(key=lambda w: -(w.width * w.height))
    kept: list[Widget] = []
    for widget in found:
        if all(
            iou_one(widget.box, other.box) < SAME_BORDER and not _inner_edge(widget.box, other.box)
            for other in kept
        ):
            kept.append(widget)
    return kept


def _inner_edge(inner: Box, outer: Box) -> bool:
    """Whether ``inner`` lies inside ``outer`` at most :data:`BORDER_INSET` from each side."""
    insets = (inner[0] - outer[0], inner[1] - outer[1], outer[2] - inner[2], outer[3] - inner[3])
    return all(0.0 <= d <= BORDER_INSET for d in insets)


def find_shapes(pixels: Pixels, edges: Pixels) -> list[Widget]:
    """Rectangles, checkboxes and radios from the closed contours of ``edges``."""
    closed = np.asarray(cv2.dilate(edges, np.ones((2, 2), np.uint8)), dtype=np.uint8)
    contours, _ = cv2.findContours(closed, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    found: list[Widget] = []
    for contour in contours[: MAX_WIDGETS * 4]:
        shape = _shape(np.asarray(contour, dtype=np.int32))
        if shape is None:
            continue
        kind = _kind(closed, *shape)
        if kind is None:
            continue
        boxes = [shape[0]]
        if kind[0] == "rect":
            boxes = _divided(closed, shape[0])
            boxes = _split_rows(closed, shape[0]) if len(boxes) == 1 else boxes
        for box in boxes:
            found.append(Widget(kind[0], box, round(kind[1], 3), _mean_inside(pixels, box)))
    return _merge(found)[:MAX_WIDGETS]


def _inside_any(box: Box, others: Sequence[Box], pad: float = 2.0) -> bool:
    cx, cy = (box[0] + box[2]) / 2.0, (box[1] + box[3]) / 2.0
    return any(o[0] - pad <= cx <= o[2] + pad and o[1] - pad <= cy <= o[3] + pad for o in others)


def _text_spans(lines: Sequence[tuple[Box, Sequence[Box]]]) -> list[Box]:
    """Per line, the spans of its words (the whole line without words): what is not an
    icon. A line's words make one span unless they are more than :data:`ICON_GAP` line
    heights apart: a broken-image icon read into a line ("Kuhn [icon] [RSS of Blog]") stays
    visible between them, and so does a logo before the first word."""
    spans = []
    for line, words in lines:
        if not words:
            spans.append(line)
            continue
        ordered = sorted(words)
        start, end, widest = ordered[0][0], ordered[0][2], ICON_GAP * (line[3] - line[1])
        for left, _, right, _ in ordered[1:]:
            if left - end > widest:
                spans.append((start, line[1], end, line[3]))
                start = left
            end = max(end, right)
        spans.append((start, line[1], end, line[3]))
    return spans


def find_icons(
    edges: Pixels, lines: Sequence[tuple[Box, Sequence[Box]]], shapes: Sequence[Widget]
) -> list[Widget]:
    """Compact edge clusters outside text and outside every shape's outline; then, where
    none was found, those left once the glyphs' ends just outside their word boxes are
    erased too (:data:`GLYPH_OVERHANG`)."""
    spans = _text_spans(lines)
    icons = _icons(_icon_mask(edges, spans, shapes, 0), spans)
    more = _icons(_icon_mask(edges, spans, shapes, GLYPH_OVERHANG), spans)
    return icons + [w for w in more if all(share_inside(w.box, i.box) <= 0.0 for i in icons)]


def _icon_mask(
    edges: Pixels, spans: Sequence[Box], shapes: Sequence[Widget], overhang: int
) -> Pixels:
    """``edges`` without the text spans (widened by ``overhang`` px at either end) and the
    shapes' outlines (an icon may sit inside a button) and checkboxes."""
    mask = edges.copy()
    for left, top, right, bottom in spans:
        start, end = max(0, int(left) - overhang), math.ceil(right) + overhang
        mask[int(top) : math.ceil(bottom), start:end] = 0
    for shape in shapes:
        x0, y0, x1, y1 = (int(v) for v in shape.box)
        filled = shape.kind in ("checkbox", "radio")
        cv2.rectangle(mask, (x0 - 1, y0 - 1), (x1, y1), 0, -1 if filled else 3)
    return mask


def _icons(mask: Pixels, spans: Sequence[Box]) -> list[Widget]:
    """The icon-sized blobs of ``mask`` dense enough in edges, outside every text span."""
    blobs = cv2.dilate(mask, np.ones((5, 5), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(blobs, connectivity=8)
    icons = []
    for i in range(1, min(count, MAX_WIDGETS)):
        x, y, w, h, _ = (int(v) for v in stats[i])
        if ICON_MIN <= w <= ICON_MAX and h > 2 * w:
            pieces = _stacked(x, y, w, h, spans)
        elif ICON_MIN <= w <= ICON_MAX and ICON_MIN <= h <= ICON_MAX and 0.5 <= w / h <= 2.0:
            pieces = [(x, y, w, h)]
        else:
            continue
        for x, y, w, h in pieces:
            density = float(np.count_nonzero(mask[y : y + h, x : x + w])) / float(w * h)
            if density < ICON_EDGE_DENSITY:
                continue
            box = (float(x + 2), float(y + 2), float(x + w - 2), float(y + h - 2))
            if not _inside_any(box, spans, pad=0.0):
                icons.append(Widget("icon", box, round(min(1.0, density * 3.0), 3)))
    return icons


def _stacked(
    x: int, y: int, w: int, h: int, spans: Sequence[Box]
) -> list[tuple[int, int, int, int]]:
    """A blob an icon wide and several tall, cut into one square per text line that starts
    right of its middle and within :data:`STACK_GAP` of its width after it, with its middle
    inside it: icons stacked a line apart touch (a list of images that did not load, each
    drawn as a broken-image icon before its alternative text) and close into one blob.
    Without two such lines it is no stack (a scroll bar, a divider) and gives nothing."""
    right, bottom, half = x + w, y + h, w / 2.0
    middles = sorted(
        (top + end) / 2.0
        for left, top, _, end in spans
        if x + half <= left <= right + STACK_GAP * w and y <= (top + end) / 2.0 <= bottom
    )
    if len(middles) < 2:
        return []
    tops = [max(y, min(bottom - w, round(m - half))) for m in middles]
    return [(x, top, w, w) for top in tops]


def _plausible(shape: Widget, lines: Sequence[tuple[Box, Sequence[Box]]]) -> bool:
    """Not a text line's own tight box, and (for small shapes) not a letter (o, D, 0); a
    shape that encloses the text is its border either way."""
    words = [w for line, ws in lines for w in (ws or (line,))]
    if any(
        iou_one(shape.box, line) >= TEXT_BOX_IOU and not _encloses(shape.box, line)
        for line, _ in lines
    ):
        return False
    if shape.kind == "rect" and shape.height > CHECK_MAX:
        return True
    return not any(
        _inside_any(shape.box, (w,))
        and not _encloses(shape.box, w)
        and not _around_word(shape.box, w)
        and not _read_as_word(shape, w)
        and shape.height >= LETTER_SHARE * (w[3] - w[1])
        for w in words
    )


def _read_as_word(shape: Widget, word: Box) -> bool:
    """Whether ``shape`` is what ``word`` was read from rather than one of its letters: a
    checkbox square, empty inside (:data:`EMPTY_FILL`), about as wide as the word
    (:data:`WORD_SHARE`) and nearly as tall (:data:`BOX_HEIGHT`): an unchecked box read as
    the one character "0" or "口". A round letter read alone ("o", "a") has its strokes
    inside its square, and a small word's ("to") is half its line's height."""
    return (
        shape.kind == "checkbox"
        and min(shape.fill) >= EMPTY_FILL
        and shape.width >= WORD_SHARE * (word[2] - word[0])
        and shape.height >= BOX_HEIGHT * (word[3] - word[1])
    )


def _around_word(box: Box, word: Box) -> bool:
    """Whether ``box`` reaches past both ends of ``word`` by :data:`CAPTION_PAD` of its
    height: no letter of the word (a round letter read alone sticks out of its tight OCR box
    by a pixel or two), but the border of a small button around its caption whose OCR box,
    padded above and below, reaches past the border's top or bottom ("Follow")."""
    pad = CAPTION_PAD * (word[3] - word[1])
    return box[0] + pad <= word[0] and word[2] <= box[2] - pad


def _encloses(outer: Box, inner: Box) -> bool:
    """Whether ``outer`` holds ``inner``, with :data:`BORDER_MARGIN` to spare at either end
    (an OCR line box, padded above and below, may reach past a snug border's top or bottom
    by :data:`LINE_OVERHANG` of its height: the caption of a small bordered button)."""
    m = BORDER_MARGIN
    overhang = LINE_OVERHANG * (inner[3] - inner[1])
    return (
        outer[0] + m <= inner[0]
        and outer[1] - overhang <= inner[1]
        and inner[2] <= outer[2] - m
        and inner[3] <= outer[3] + overhang
    )


def _drop_nested_small(shapes: list[Widget]) -> list[Widget]:
    """A checkbox drawn as two squares (border and inner box) is one checkbox."""
    small = [s for s in shapes if s.kind in ("checkbox", "radio")]
    return [
        s
        for s in shapes
        if s.kind not in ("checkbox", "radio")
        or not any(o is not s and _contains(o.box, s.box) for o in small)
    ]


def _contains(outer: Box, inner: Box) -> bool:
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
        and (outer[2] - outer[0]) * (outer[3] - outer[1])
        > (inner[2] - inner[0]) * (inner[3] - inner[1])
    )


def detect_widgets(
    pixels: Pixels, lines: Sequence[tuple[Box, Sequence[Box]]], edges: Pixels | None = None
) -> list[Widget]:
    """Every widget of a BGR image (boxes in its pixels): shapes, then icons.

    ``lines`` are the OCR text lines as ``(line box, word boxes)``: shapes that are text
    (a line's tight box, a round letter) and edges of text are not widgets. ``edges`` is
    the image's :func:`edges_of` when the caller has it already.
    """
    edges = edges_of(pixels) if edges is None else edges
    shapes = _drop_nested_small([s for s in find_shapes(pixels, edges) if _plausible(s, lines)])
    shapes += _behind_text(pixels, edges, lines, shapes)
    shapes += _around_lines(pixels, edges, lines, shapes)
    shapes += _legend_frames(pixels, edges, lines, shapes)
    return shapes + find_icons(edges, lines, shapes)


def _behind_text(
    pixels: Pixels, edges: Pixels, lines: Sequence[tuple[Box, Sequence[Box]]], found: list[Widget]
) -> list[Widget]:
    """Rectangles whose outline text breaks: a field's 1 px border that its placeholder, or
    the line above, touches once the edges are closed, so that the contour is no rectangle.
    They are sought again with the edges inside every word box erased (less
    :data:`TEXT_INSET`); only rectangles of a control's height (an erased word can leave a
    square that is no checkbox, and a panel the words inside it broke open would change the
    groups of everything in it), and only those apart from or inside the shapes ``found``
    already (:func:`_apart_or_inside`)."""
    erased = edges.copy()
    for line, words in lines:
        for left, top, right, bottom in words or (line,):
            top_, left_ = int(top) + TEXT_INSET, int(left) + TEXT_INSET
            erased[top_ : math.ceil(bottom) - TEXT_INSET, left_ : math.ceil(right) - TEXT_INSET] = 0
    return [
        shape
        for shape in find_shapes(pixels, erased)
        if shape.kind == "rect"
        and shape.height <= MAX_CONTROL_HEIGHT
        and _plausible(shape, lines)
        and all(_apart_or_inside(shape.box, other.box) for other in found)
    ]


def _around_lines(
    pixels: Pixels, edges: Pixels, lines: Sequence[tuple[Box, Sequence[Box]]], found: list[Widget]
) -> list[Widget]:
    """Rectangles sought from the text lines (:func:`~.borders.find_around_lines`): a
    field whose value runs up to its border, or whose border a neighbour touches. Only
    those apart from or inside the shapes ``found`` already (:func:`_apart_or_inside`)."""
    closed = np.asarray(cv2.dilate(edges, np.ones((2, 2), np.uint8)), dtype=np.uint8)
    boxes = find_around_lines(closed, lines, [w.box for w in found], SAME_BORDER, pixels)
    return [
        Widget("rect", box, 1.0, _mean_inside(pixels, box))
        for box in boxes
        if box[3] - box[1] <= MAX_CONTROL_HEIGHT
        and all(_apart_or_inside(box, other.box) for other in found)
    ]


def _legend_frames(
    pixels: Pixels, edges: Pixels, lines: Sequence[tuple[Box, Sequence[Box]]], found: list[Widget]
) -> list[Widget]:
    """Frames whose top side a text line breaks (a fieldset's legend): the side runs up to
    the line on both sides at one row near its middle (:func:`_broken_side`). The line's
    edges are erased and the side drawn across it; the rectangles then closed, their top
    along such a row across the line and their bottom below it, apart from, inside or
    around each shape ``found`` already, are frames (kind ``"frame"``: a group's border,
    whatever its height, never a control)."""
    bridged = edges
    rows: list[tuple[int, Box]] = []
    for line, _ in lines:
        row = _broken_side(edges, line)
        if row is None:
            continue
        bridged = edges.copy() if bridged is edges else bridged
        reach = LEGEND_REACH + LEGEND_PAD
        left, right = int(line[0]), math.ceil(line[2])
        bridged[int(line[1]) : math.ceil(line[3]), left:right] = 0
        bridged[row, left - reach : right + reach] = 255
        rows.append((row, line))
    if not rows:
        return []
    return [
        Widget("frame", shape.box, shape.score, shape.fill)
        for shape in find_shapes(pixels, bridged)
        if shape.kind == "rect"
        and any(_along(shape.box, row, line) for row, line in rows)
        and all(_nested_or_apart(shape.box, other.box) for other in found)
    ]


def _broken_side(edges: Pixels, line: Box) -> int | None:
    """The row, near the middle of ``line``, along which edges run for :data:`LEGEND_REACH`
    columns at least on each side of the line, within :data:`LEGEND_PAD` px more of it (a
    border the line breaks, the legend padded), or None."""
    height = line[3] - line[1]
    middle = (line[1] + line[3]) / 2.0
    left, right = int(line[0]), math.ceil(line[2])
    reach = LEGEND_REACH + LEGEND_PAD
    first = round(middle - LEGEND_ROW * height)
    last = round(middle + LEGEND_ROW * height)
    if left - reach < 0 or right + reach > edges.shape[1] or first < 1 or last + 2 > len(edges):
        return None
    counts = []
    for span in (slice(left - reach, left), slice(right, right + reach)):
        marked = edges[first - 1 : last + 2, span] > 0
        # a row's band: the row and the rows just above and below it
        band = marked[:-2] | marked[1:-1] | marked[2:]
        counts.append(band.sum(axis=1))
    found = np.flatnonzero(np.minimum(counts[0], counts[1]) >= LEGEND_REACH)
    return first + int(found[0]) if found.size else None


def _along(box: Box, row: int, line: Box) -> bool:
    """Whether ``box``'s top lies along ``row`` (within :data:`BORDER_INSET`) across the
    whole of ``line``, and ``box`` reaches below the line."""
    across = box[0] < line[0] and line[2] < box[2]
    return abs(box[1] - row) <= BORDER_INSET and across and box[3] > line[3]


def _nested_or_apart(box: Box, other: Box) -> bool:
    """Whether ``box`` and ``other`` do not overlap, or one holds the other, and they are
    not one border."""
    if iou_one(box, other) >= SAME_BORDER:
        return False
    return share_inside(box, other) <= 0.0 or _contains(box, other) or _contains(other, box)


def _apart_or_inside(box: Box, other: Box) -> bool:
    """Whether ``box``, found behind text, is a shape of its own beside ``other`` (a shape
    found before): apart from it, or inside it and not its inner edge. One that overlaps or
    holds shapes already found is cells of a table merged where a word crossed the border
    between them."""
    if share_inside(box, other) <= 0.0:
        return True
    return _contains(other, box) and not _inner_edge(box, other)
