import pytest
from capture_tree import TREE

from resolver import InvalidReferenceError, Observation, resolve_element
from resolver.capture import ref_from_row


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


def test_ref_from_row_records_every_id_column_the_table_has() -> None:
    from resolver.models import ID_FIELDS
    from resolver.table import TableBuilder

    b = TableBuilder("dom", "html", id_columns=[column for _, column in ID_FIELDS])
    b.add("x", raw_role="button", name="Go", automation_id="go", accessibility_id="Go now",
          xpath="/html/body/button", css="#go")  # fmt: skip
    ref = ref_from_row(b.build(), 0)
    assert (ref.automation_id, ref.accessibility_id, ref.xpath, ref.css_selector) == (
        "go", "Go now", "/html/body/button", "#go",
    )  # fmt: skip
