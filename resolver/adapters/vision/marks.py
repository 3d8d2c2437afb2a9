"""Marks: whatever a screenshot draws with a clear gap all around it.

The detectors name what they recognise (a bordered box, an icon-sized blob, a glyph, a
line of text); a logo wider than an icon, or a button drawn as a pill too small for a
bordered box, is recognised as none of them, yet a person sees each as one thing standing
apart. :func:`find_marks` finds such things without naming them: the edges of the image,
each grown by :data:`MARK_MARGIN` px, close into one blob per group of strokes less than
twice that margin apart, and each blob, shrunk back, is a mark. Every word and every
widget is a mark too; the table makes rows only of the marks that no text line and no
widget touches (:mod:`resolver.adapters.vision.table`), which the rules that compare a
recorded box with marks answer (``accept.mark_in_box``, ``accept.drawn_at_place``): such a
row bears no name and the role ``generic``, far under the ranking's threshold.
"""

from __future__ import annotations

from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from ...geometry import Box
from .widgets import edges_of

__all__ = ["MARK_MARGIN", "MAX_MARKS", "find_marks"]

Pixels = npt.NDArray[np.uint8]

MARK_MARGIN: Final[int] = 1
"""Half the clear gap, in px, that sets a mark apart: strokes less than twice this apart
are one mark (the letters of a word, an icon's parts, a logo's letters); a word's space
parts two."""

MAX_MARKS: Final[int] = 20_000
"""Most marks kept for one screenshot (a page of noise gives many tiny ones)."""

MIN_MARK: Final[int] = 3
"""Least width and height, in px, of a mark (a dot's edges are three pixels across)."""


def find_marks(pixels: Pixels, edges: Pixels | None = None) -> tuple[Box, ...]:
    """The marks of a BGR image, in its pixels, in reading order of their top-left
    corners; at most :data:`MAX_MARKS`. ``edges`` is the image's :func:`edges_of` when the
    caller has it already (the widget finders use the same)."""
    if pixels.shape[0] < MIN_MARK or pixels.shape[1] < MIN_MARK:
        return ()
    if edges is None:
        edges = edges_of(pixels)
    grown = cv2.dilate(edges, np.ones((2 * MARK_MARGIN + 1,) * 2, np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
    if count <= 1:
        return ()
    x, y, w, h = (stats[1:, i].astype(np.float64) for i in range(4))
    # the edges of a stroke lie on its outline, and growing them by the margin reaches
    # that far outside: shrinking back gives the stroke's own box (clipped to the image)
    left = np.maximum(x + MARK_MARGIN, 0.0)
    top = np.maximum(y + MARK_MARGIN, 0.0)
    right = np.minimum(x + w - MARK_MARGIN, float(pixels.shape[1]))
    bottom = np.minimum(y + h - MARK_MARGIN, float(pixels.shape[0]))
    keep = (right - left >= MIN_MARK) & (bottom - top >= MIN_MARK)
    order = np.lexsort((left[keep], top[keep]))[:MAX_MARKS]
    boxes = np.stack((left[keep], top[keep], right[keep], bottom[keep]), axis=1)[order]
    return tuple((float(a), float(b), float(c), float(d)) for a, b, c, d in boxes.tolist())
