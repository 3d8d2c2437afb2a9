import math

from capture_tree import TREE

from resolver import Observation
from resolver.capture import record_click


def test_record_click_keeps_the_point_and_finds_the_element() -> None:
    action = record_click(30, 20, Observation(accessibility_tree=TREE))
    assert (action.type, action.x, action.y) == ("click", 30.0, 20.0)
    assert action.element is not None and action.element.name == "Save"
    assert action.element.container_path == ("Editor", "Main")


def test_record_click_never_raises() -> None:
    assert record_click(900, 900, Observation(accessibility_tree=TREE)).element is None
    assert record_click(1, 1, {"accessibility_tree": "<<not a tree"}).x == 1.0
    assert record_click(1, 1, object()).element is None
    dropped = record_click(math.nan, 1, Observation(accessibility_tree=TREE))
    assert dropped.x is None and dropped.element is None
