"""Coordinate spaces and the one IoU."""

import numpy as np
import pytest

from resolver.geometry import (
    CoordSpace,
    Geometry,
    box_gap,
    box_gaps,
    iou,
    iou_one,
    overlap,
    uncovered_point,
)


def test_iou_one() -> None:
    assert iou_one((0, 0, 10, 10), (0, 0, 10, 10)) == 1.0
    assert iou_one((0, 0, 10, 10), (5, 0, 15, 10)) == pytest.approx(50 / 150)
    assert iou_one((0, 0, 10, 10), (20, 20, 30, 30)) == 0.0
    assert iou_one((3, 3, 3, 3), (3, 3, 3, 3)) == 1.0  # the same point
    assert iou_one((3, 3, 3, 3), (4, 4, 4, 4)) == 0.0


def test_iou_many_with_unknown_boxes() -> None:
    boxes = np.array([[0, 0, 10, 10], [np.nan] * 4, [5, 5, 15, 15]], dtype=np.float64)
    out = iou((0, 0, 10, 10), Geometry.of(boxes))
    assert out[0] == 1.0 and out[2] == pytest.approx(25 / 175)
    assert out[1] == 0.0  # no union: not overlapping
    with np.errstate(invalid="ignore", divide="ignore"):
        assert np.array_equal(overlap((0, 0, 10, 10), Geometry.of(boxes), None), out)


def test_coord_spaces() -> None:
    assert CoordSpace("css_px") is CoordSpace.CSS_PX
    assert CoordSpace.CSS_PX.known and not CoordSpace.UNKNOWN.known and not CoordSpace.NONE.known
    with pytest.raises(ValueError):
        CoordSpace("pixels")


def test_share_inside() -> None:
    from resolver.geometry import share_inside

    assert share_inside((0, 0, 10, 10), (0, 0, 20, 20)) == 1.0
    assert share_inside((0, 0, 10, 10), (5, 0, 20, 20)) == 0.5
    assert share_inside((0, 0, 10, 10), (30, 30, 40, 40)) == 0.0
    assert share_inside((5, 5, 5, 5), (0, 0, 10, 10)) == 0.0  # empty
    assert share_inside((10, 10, 0, 0), (0, 0, 10, 10)) == 0.0  # inverted


def test_box_gap_is_the_distance_between_edges() -> None:
    from resolver.geometry import box_gap

    assert box_gap((0, 0, 10, 10), (5, 5, 20, 20)) == 0.0  # overlapping
    assert box_gap((0, 0, 10, 10), (10, 0, 20, 10)) == 0.0  # touching
    assert box_gap((0, 0, 10, 10), (13, 0, 20, 10)) == 3.0  # side by side
    assert box_gap((0, 0, 10, 10), (13, 14, 20, 20)) == 5.0  # diagonal: 3, 4, 5
    assert box_gap((13, 14, 20, 20), (0, 0, 10, 10)) == 5.0  # either order


def test_box_gaps_agree_with_box_gap_row_by_row() -> None:
    rng = np.random.default_rng(7)
    corners = rng.uniform(0, 500, size=(200, 2))
    sizes = rng.uniform(0, 80, size=(200, 2))
    boxes = np.hstack((corners, corners + sizes))
    boxes[3] = np.nan  # an unknown box
    target = (120.0, 80.0, 190.0, 97.0)
    gaps = box_gaps(boxes, target)
    assert np.isnan(gaps[3])
    for row in (r for r in range(len(boxes)) if r != 3):
        left, top, right, bottom = boxes[row].tolist()
        assert gaps[row] == pytest.approx(box_gap((left, top, right, bottom), target))


def test_a_point_beside_the_boxes_drawn_over_a_box() -> None:
    box = (0.0, 50.0, 800.0, 600.0)
    assert uncovered_point(box, [], 4.0) == (400.0, 325.0)
    assert uncovered_point(box, [(0, 0, 100, 100)], 4.0) == (400.0, 325.0)  # centre clear
    # A dialog over the centre: the largest part beside it (below it here) takes the point.
    assert uncovered_point(box, [(300, 220, 660, 360)], 4.0) == (400.0, 480.0)
    # Wholly under one, or under two that leave only slivers narrower than 4 px.
    assert uncovered_point((350, 250, 550, 270), [(300, 220, 660, 360)], 4.0) is None
    assert uncovered_point((0, 0, 100, 10), [(0, 0, 52, 10), (49, 0, 100, 10)], 4.0) is None
    # A part beside one dialog that another covers is not taken.
    two = [(0, 0, 60, 100), (50, 0, 100, 30)]
    assert uncovered_point((0, 0, 100, 100), two, 4.0) == (80.0, 65.0)
