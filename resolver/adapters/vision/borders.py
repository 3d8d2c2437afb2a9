"""Borders sought around text lines: the outline of a control whose contour the text breaks.

The contour search of :mod:`resolver.adapters.vision.widgets` finds a rectangle when its
outline closes on its own. A text field whose value or placeholder runs up to its border
(an unstyled ``<input>`` holding a long address), or whose border a neighbour touches (an
underlined link just above it, a second field stacked on it), closes into one contour with
the glyphs or the neighbour, and no rectangle is found. Here the border is sought from the
text instead: for each OCR line, an edge row just above it and one just below it that run
across its whole width, then an edge column at either end joining them. Only the four sides
are looked at, so whatever touches them from outside or inside does not matter.

A line may run out of a control: a select's value read as one line with its label before it
and the word after it ("Size Any size Or"). Where no border goes round the whole line, its
words are taken in runs split where an edge column crosses the line's full height in the
blank between two words (a control's side), and a border is sought around each run.

Every number is a named constant below.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from ...geometry import Box, iou_one

__all__ = ["find_around_lines"]

Pixels = npt.NDArray[np.uint8]

SIDE_COVER: Final[float] = 0.9
"""Share of a side's length the edge map must cover for that side to be drawn."""
PAD: Final[float] = 0.5
"""How far (in line heights) from the text a snug border may lie, above, below and at the
left; at least :data:`PAD_MIN` px."""
PAD_MIN: Final[int] = 4
INSIDE: Final[int] = 2
"""How far (px) inside the OCR line box a side may lie (a line box padded past a snug
border, a glyph the border cuts)."""
MAX_HEIGHT: Final[float] = 2.5
"""A border this many times taller than its line holds more than a line: no control's."""
TEXT_PAD: Final[int] = 2
"""The text starts at least this far (px) inside the left side: a field pads its value;
an outline no further out than the words' own left end is the text's own box (a highlight
behind it), not a border around it."""
SIDE_INK: Final[int] = 40
"""Grey levels a control's side drawn between two words of a line differs from the blank
around it by."""
MAX_WIDTH: Final[float] = 6.0
"""How far (in widths of the line) a field may reach right of its text (a short
placeholder in a wide field)."""


def _covered(strip: Pixels) -> float:
    """Share of positions along a side where any of the side's rows (or columns) is edge."""
    return float(np.count_nonzero(strip.any(axis=0))) / float(max(strip.shape[1], 1))


def _rows(closed: Pixels, candidates: range, left: int, right: int) -> list[int]:
    """The rows of ``candidates`` drawn across ``[left, right)``, nearest the text first."""
    return [
        y
        for y in candidates
        if 0 <= y < closed.shape[0] and _covered(closed[y : y + 1, left:right]) >= SIDE_COVER
    ]


def _column(closed: Pixels, candidates: range, top: int, bottom: int) -> int | None:
    """The first column of ``candidates`` drawn from ``top`` to ``bottom``."""
    for x in candidates:
        if (
            0 <= x < closed.shape[1]
            and _covered(closed[top : bottom + 1, x : x + 1].T) >= SIDE_COVER
        ):
            return x
    return None


def _right_side(closed: Pixels, top: int, bottom: int, start: int, limit: int) -> int | None:
    """The right side: the first column past ``start`` joining the top and bottom rows,
    within the span where both rows are still drawn (each within a pixel)."""
    start, limit = max(start, 0), min(limit, closed.shape[1])
    if start >= limit:
        return None
    span = closed[:, start:limit] > 0
    above = span[max(top - 1, 0) : top + 2].any(axis=0)
    below = span[max(bottom - 1, 0) : bottom + 2].any(axis=0)
    gaps = np.flatnonzero(~(above & below))
    end = int(gaps[0]) if gaps.size else above.size
    cover = span[top : bottom + 1, :end].mean(axis=0)
    joined = np.flatnonzero(cover >= SIDE_COVER)
    return start + int(joined[0]) if joined.size else None


def _border(closed: Pixels, line: Box) -> Box | None:
    """The snug border around one line's text, its outer edge, or None."""
    left, top, right, bottom = (round(v) for v in line)
    height = bottom - top
    if height <= 0 or right - left < height:
        return None
    pad = max(PAD_MIN, int(PAD * height))
    span = (left + INSIDE, right - INSIDE)
    tops = _rows(closed, range(top + INSIDE, top - pad - 1, -1), *span)
    bottoms = _rows(closed, range(bottom - INSIDE, bottom + pad + 1), *span)
    for y0 in tops:
        for y1 in bottoms:
            if y1 - y0 < height - 2 * INSIDE or y1 - y0 > MAX_HEIGHT * height:
                continue
            x0 = _column(closed, range(left + INSIDE, left - pad - 1, -1), y0, y1)
            if x0 is None:
                continue
            limit = right + int(MAX_WIDTH * (right - left))
            x1 = _right_side(closed, y0, y1, right - INSIDE, limit)
            if x1 is None or x1 - x0 <= height:
                continue
            return _outer(closed, (x0, y0, x1, y1))
    return None


def _outer(closed: Pixels, sides: tuple[int, int, int, int]) -> Box:
    """The box of the sides' outer edges: each side moved outward while still drawn."""
    x0, y0, x1, y1 = sides
    h, w = closed.shape[:2]
    while x0 > 0 and _covered(closed[y0 : y1 + 1, x0 - 1 : x0].T) >= SIDE_COVER:
        x0 -= 1
    while x1 < w - 1 and _covered(closed[y0 : y1 + 1, x1 + 1 : x1 + 2].T) >= SIDE_COVER:
        x1 += 1
    while y0 > 0 and _covered(closed[y0 - 1 : y0, x0 : x1 + 1]) >= SIDE_COVER:
        y0 -= 1
    while y1 < h - 1 and _covered(closed[y1 + 1 : y1 + 2, x0 : x1 + 1]) >= SIDE_COVER:
        y1 += 1
    return (float(x0), float(y0), float(x1 + 1), float(y1 + 1))


def _holds_text(box: Box, words: Sequence[Box]) -> bool:
    """Whether the words start :data:`TEXT_PAD` inside ``box`` and end at most
    :data:`INSIDE` past its right side (a value the border cuts)."""
    return (
        min(w[0] for w in words) >= box[0] + TEXT_PAD
        and max(w[2] for w in words) <= box[2] + INSIDE
    )


def _holds_other(box: Box, line: Box, lines: Sequence[Box]) -> bool:
    """Whether ``box`` holds the middle of a line other than ``line``."""
    return any(
        other is not line
        and box[0] <= (other[0] + other[2]) / 2.0 <= box[2]
        and box[1] <= (other[1] + other[3]) / 2.0 <= box[3]
        for other in lines
    )


def _crossed(closed: Pixels, image: Pixels, line: Box, gap: tuple[float, float]) -> bool:
    """Whether a column of the blank ``gap`` (between two words) is edge over the whole
    height of ``line`` and drawn there as one unbroken stroke (:func:`_stroke`): a
    control's side between the two words. A tall letter at a word's end joined to the
    underlines below it and above it is edge all the way down, but not ink."""
    left, right = math.floor(gap[0]), math.ceil(gap[1])
    top, bottom = round(line[1]) + INSIDE, round(line[3]) - INSIDE
    if right <= left or bottom <= top:
        return False
    block = closed[max(top, 0) : max(bottom, 0), max(left, 0) : max(right, 0)] > 0
    if not block.size:
        return False
    sides = np.flatnonzero(block.mean(axis=0) >= SIDE_COVER) + max(left, 0)
    return any(_stroke(image, x, (left, right), (top, bottom)) for x in sides.tolist())


def _stroke(image: Pixels, x: int, span: tuple[int, int], rows: tuple[int, int]) -> bool:
    """Whether column ``x`` (or a neighbour of it) differs from the blank's background (the
    median of the gap ``span`` over ``rows``) by :data:`SIDE_INK` grey levels at least on
    :data:`SIDE_COVER` of ``rows``."""
    top, bottom = max(rows[0], 0), max(rows[1], 0)
    gap = _grey(image[top:bottom, max(span[0], 0) : max(span[1], 0)])
    near = _grey(image[top:bottom, max(x - 1, 0) : x + 2]).astype(np.int16)
    if not gap.size or not near.size:
        return False
    background = float(np.median(gap))
    inked = (np.abs(near - background) >= SIDE_INK).any(axis=1)
    return float(inked.mean()) >= SIDE_COVER


def _grey(patch: Pixels) -> Pixels:
    """A patch of the image in grey levels (a BGR patch converted; only the few pixels a
    side is checked on, never the whole screen)."""
    if patch.ndim == 2 or not patch.size:
        return patch
    return np.asarray(cv2.cvtColor(np.ascontiguousarray(patch), cv2.COLOR_BGR2GRAY), np.uint8)


def _runs(
    closed: Pixels, image: Pixels, line: Box, words: Sequence[Box]
) -> list[tuple[Box, list[Box]]]:
    """The line's words in runs split where a control's side crosses the blank between
    two of them (:func:`_crossed`), each with its box at the line's height; one run (the
    whole line) when no side crosses it."""
    runs: list[list[Box]] = [[words[0]]] if words else []
    for before, after in itertools.pairwise(words):
        if _crossed(closed, image, line, (before[2], after[0])):
            runs.append([])
        runs[-1].append(after)
    return [((run[0][0], line[1], max(w[2] for w in run), line[3]), run) for run in runs]


def find_around_lines(
    closed: Pixels,
    lines: Sequence[tuple[Box, Sequence[Box]]],
    found: Sequence[Box],
    same: float,
    image: Pixels | None = None,
) -> list[Box]:
    """Borders around single text lines, or around the runs of a line between controls'
    sides (see the module's docstring), that no box of ``found`` already is (IoU under
    ``same``). ``lines`` are ``(line box, word boxes)``; ``closed`` is the dilated edge
    map, ``image`` the image itself, BGR or in grey levels (without it, lines are not split
    in runs)."""
    boxes: list[Box] = []
    line_boxes = [line for line, _ in lines]
    for line, words in lines:
        box = _border(closed, line)
        split = box is None and len(words) > 1
        runs = _runs(closed, image, line, words) if split and image is not None else []
        # A line that runs out of a control: a border around each run between its sides.
        seen = (
            [(_border(closed, run), inside) for run, inside in runs]
            if len(runs) > 1
            else [(box, list(words) or [line])]
        )
        for box, inside in seen:
            if box is None or not _holds_text(box, inside):
                continue
            if _holds_other(box, line, line_boxes) or _holds_word(box, inside, words):
                continue
            if all(iou_one(box, other) < same for other in [*found, *boxes]):
                boxes.append(box)
    return boxes


def _holds_word(box: Box, inside: Sequence[Box], words: Sequence[Box]) -> bool:
    """Whether ``box`` holds the middle of a word of the line that is not one of ``inside``
    (the run it was sought around)."""
    return any(
        all(w is not other for other in inside) and box[0] <= (w[0] + w[2]) / 2.0 <= box[2]
        for w in words
    )
