import math

import pytest

from resolver import ElementNotFoundError, InvalidReferenceError, Observation, resolve_element
from resolver.capture import ref_at_point, ref_from_row

TREE = {
    "id": "w", "role": "window", "name": "Editor", "bbox": [0, 0, 800, 600],
    "children": [
        {"id": "tb", "role": "toolbar", "name": "Main", "bbox": [0, 0, 800, 40], "children": [
            {"id": "save", "role": "button", "name": "Save", "bbox": [10, 5, 70, 35],
             "automation_id": "btnSave", "disabled": False},
            {"id": "open", "role": "button", "name": "Open", "bbox": [80, 5, 140, 35]},
        ]},
        {"id": "body", "role": "textbox", "name": "Body", "bbox": [0, 40, 800, 600]},
    ],
}  # fmt: skip


def test_ref_from_row_records_what_identifies_the_element() -> None:
    obs = Observation(accessibility_tree=TREE, screen_size=(800, 600))
    table = obs.candidates("a11y")
    ref = ref_from_row(table, table.ids.index("save"))
    assert ref.role == "button"
    assert ref.name == "Save"
    assert ref.bbox == (10.0, 5.0, 70.0, 35.0)
    assert ref.container_path == ("Editor", "Main")
    assert ref.automation_id == "btnSave"
    assert ref.enabled is True
    assert ref.screen_size == (800, 600)
    assert resolve_element(ref, obs) == "a11y:save"
    assert ref_from_row(table, 0, with_ids=False).automation_id is None
    with pytest.raises(InvalidReferenceError):
        ref_from_row(table, 99)


def test_ref_at_point_takes_the_smallest_element_under_it() -> None:
    obs = Observation(accessibility_tree=TREE)
    assert ref_at_point(obs, 100, 20).name == "Open"
    assert ref_at_point(obs, 400, 20).name == "Main"
    assert ref_at_point(obs, 400, 300).name == "Body"
    with pytest.raises(ElementNotFoundError):
        ref_at_point(obs, 900, 900)
    with pytest.raises(InvalidReferenceError):
        ref_at_point(obs, math.nan, 1)
