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


def test_ref_from_row_records_web_evidence_and_nearby_text() -> None:
    html = """<html><body><p>Your account</p><form>
    <input name="q" type="search" placeholder="Search" title="Search the site"
           class="field css-1x2y3z">
    <a href="/help?utm_source=x" class="help">Help</a></form><p>Footer</p></body></html>"""
    table = Observation(dom_html=html, url="https://example.org/").candidates("dom")
    field = table.roles.index("searchbox")
    ref = ref_from_row(table, field)
    assert ref.tag == "input" and ref.classes == ("field", "css-1x2y3z")
    assert ref.attributes == {"name": "q", "type": "search", "placeholder": "Search",
                              "title": "Search the site"}  # fmt: skip
    assert ref.nearby_text == ("Your account", "Help", "Footer")
    link = ref_from_row(table, table.names.index("Help"))
    assert link.href == "https://example.org/help?utm_source=x"
    bare = ref_from_row(table, field, with_ids=False)
    assert bare.tag is None and bare.attributes == {} and bare.nearby_text == ref.nearby_text
