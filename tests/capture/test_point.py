import math

import pytest
from capture_tree import TREE

from resolver import ElementNotFoundError, InvalidReferenceError, Observation
from resolver.capture import element_at_point


def test_element_at_point_takes_the_smallest_element_under_it() -> None:
    obs = Observation(accessibility_tree=TREE)
    assert element_at_point(obs, 100, 20).name == "Open"
    assert element_at_point(obs, 400, 20).name == "Main"
    assert element_at_point(obs, 400, 300).name == "Body"
    with pytest.raises(ElementNotFoundError):
        element_at_point(obs, 900, 900)
    with pytest.raises(InvalidReferenceError):
        element_at_point(obs, math.nan, 1)


def test_the_deepest_element_wins_and_a_label_gives_way_to_its_control() -> None:
    tree = {"id": "r", "role": "group", "name": "Big", "bbox": [0, 0, 100, 100], "children": [
        {"id": "b", "role": "button", "name": "Go", "bbox": [0, 0, 200, 200], "children": [
            {"id": "t", "role": "text", "name": "Go", "bbox": [5, 5, 30, 20]}]},
        {"id": "s", "role": "text", "name": "note", "bbox": [50, 50, 60, 60]}]}  # fmt: skip
    obs = Observation(accessibility_tree=tree)
    assert element_at_point(obs, 10, 10).name == "Go"
    assert element_at_point(obs, 10, 10).role == "button"
    assert element_at_point(obs, 150, 150).role == "button"  # deeper than the group
    assert element_at_point(obs, 55, 55).name == "note"
