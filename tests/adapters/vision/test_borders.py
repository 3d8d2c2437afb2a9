"""Borders sought from text lines: around a line, and around the runs of a line between two
controls' sides."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from resolver.adapters.vision.borders import find_around_lines

LINE = (22.0, 10.0, 118.0, 31.0)
WORDS = [(24.0, 13.0, 56.0, 28.0), (64.0, 13.0, 116.0, 28.0)]
"""A line of two words, the first inside a box drawn round it, the second outside."""


def _edges() -> npt.NDArray[np.uint8]:
    """The edge map of a box round the first word: its sides at columns 20 and 60, its top
    and bottom along the line's top and bottom rows (no border goes round the whole line)."""
    closed = np.zeros((60, 200), np.uint8)
    closed[10, 20:61] = closed[30, 20:61] = 255
    closed[10:31, 20] = closed[10:31, 60] = 255
    return closed


def _grey(side: slice) -> npt.NDArray[np.uint8]:
    """The image in grey levels: the box's top, bottom and left side drawn, and of its
    right side (between the two words) the rows ``side``."""
    grey = np.full((60, 200), 255, np.uint8)
    grey[10, 20:61] = grey[30, 20:61] = 120
    grey[10:31, 20] = 120
    grey[side, 60] = 120
    return grey


def test_a_border_round_the_run_of_a_line_between_two_sides_is_found() -> None:
    found = find_around_lines(_edges(), [(LINE, WORDS)], [], 0.8, _grey(slice(10, 31)))
    assert found == [(20.0, 10.0, 61.0, 31.0)]


def test_a_side_that_is_edge_but_not_one_stroke_splits_nothing() -> None:
    # A tall letter ending the word, joined in the edge map to the underlines above and
    # below it, is edge all the way down; drawn, it stops short of both.
    assert find_around_lines(_edges(), [(LINE, WORDS)], [], 0.8, _grey(slice(15, 27))) == []
    # Without the image, lines are not split.
    assert find_around_lines(_edges(), [(LINE, WORDS)], [], 0.8) == []


def test_a_colour_image_splits_a_line_as_its_grey_levels_do() -> None:
    # The screenshot as the vision source holds it (BGR): only the pixels a side is checked
    # on are turned into grey levels.
    for side in (slice(10, 31), slice(15, 27)):
        grey = _grey(side)
        colour = np.ascontiguousarray(np.stack([grey, grey, grey], axis=2))
        assert find_around_lines(_edges(), [(LINE, WORDS)], [], 0.8, colour) == (
            find_around_lines(_edges(), [(LINE, WORDS)], [], 0.8, grey)
        )
    colour = np.stack([_grey(slice(10, 31))] * 3, axis=2)
    assert find_around_lines(_edges(), [(LINE, WORDS)], [], 0.8, colour) == [
        (20.0, 10.0, 61.0, 31.0)
    ]
