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
