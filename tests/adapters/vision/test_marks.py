"""Marks: whatever a screenshot draws apart from the rest, found without naming it."""

import cv2
import numpy as np
import pytest

from resolver.adapters.vision.marks import MAX_MARKS, find_marks


def _page() -> np.ndarray:  # type: ignore[type-arg]
    return np.full((200, 400, 3), 255, np.uint8)


def _near(found: tuple[tuple[float, ...], ...], box: tuple[int, int, int, int]) -> bool:
    """Whether one mark's every edge is within a pixel of ``box``."""
    return any(all(abs(a - b) <= 1.0 for a, b in zip(m, box, strict=True)) for m in found)


def test_an_icon_of_three_short_lines_is_one_mark_of_its_own_size() -> None:
    image = _page()
    for top in (40, 43, 46):  # three lines 1 px apart: a menu icon
        image[top : top + 2, 60:76] = 40
    found = find_marks(image)
    assert _near(found, (60, 40, 76, 48))
    assert len(found) == 1


def test_marks_a_clear_gap_apart_are_two_and_a_logo_of_touching_parts_is_one() -> None:
    image = _page()
    cv2.rectangle(image, (20, 100), (59, 129), (30, 30, 30), -1)
    cv2.rectangle(image, (66, 100), (105, 129), (30, 30, 30), -1)  # 6 px after the first
    cv2.circle(image, (200, 115), 14, (0, 0, 200), -1)
    cv2.rectangle(image, (215, 105), (240, 125), (0, 0, 200), -1)  # touching the circle
    found = find_marks(image)
    assert _near(found, (20, 100, 60, 130)) and _near(found, (66, 100, 106, 130))
    assert _near(found, (186, 101, 241, 130))
    assert len(found) == 3


def test_a_blank_page_and_a_tiny_image_have_no_marks() -> None:
    assert find_marks(_page()) == ()
    assert find_marks(np.zeros((2, 2, 3), np.uint8)) == ()


@pytest.mark.parametrize("seed", [0, 1])
def test_noise_gives_at_most_the_cap(seed: int) -> None:
    noise = np.random.default_rng(seed).integers(0, 256, (600, 800, 3), dtype=np.uint8)
    found = find_marks(noise)
    assert len(found) <= MAX_MARKS
    assert all(0 <= m[0] < m[2] <= 800 and 0 <= m[1] < m[3] <= 600 for m in found)
