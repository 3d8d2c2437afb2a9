import pytest

from resolver import InvalidReferenceError, Observation, resolve
from resolver.capture import from_ax

DIALOG = {"AXRole": "AXWindow", "AXTitle": "Preferences", "AXChildren": [
    {"AXRole": "AXGroup", "AXTitle": "Network", "AXChildren": [
        {"AXRole": "AXButton", "AXTitle": "Apply", "AXIdentifier": "apply",
         "AXFrame": {"x": 300, "y": 400, "w": 80, "h": 24}, "AXEnabled": True}]}]}  # fmt: skip


def test_from_ax_reads_a_dump_node_with_its_ancestors() -> None:
    group = DIALOG["AXChildren"][0]
    ref = from_ax(group["AXChildren"][0], ancestors=[DIALOG, group])
    assert (ref.role, ref.name, ref.bbox) == ("AXButton", "Apply", (300.0, 400.0, 380.0, 424.0))
    assert ref.container_path == ("Preferences", "Network")
    assert (ref.automation_id, ref.enabled, ref.coord_space) == ("apply", True, "screen_points")
    assert resolve(ref, Observation(accessibility_tree=DIALOG)).executor_id == "a11y:0.0.0"
    assert ref.panel is None  # a window is no panel shown one at a time


def test_from_ax_records_the_sheet_or_dialog_it_is_in() -> None:
    sheet = {"AXRole": "AXSheet", "AXTitle": "Save changes?"}
    button = {"AXRole": "AXButton", "AXTitle": "Save", "AXFrame": [[10, 20], [50, 16]]}
    assert from_ax(button, ancestors=[DIALOG, sheet]).panel == ("dialog", "Save changes?")
    window = {"AXRole": "AXWindow", "AXSubrole": "AXDialog", "AXTitle": "Export"}
    assert from_ax(button, ancestors=[window]).panel == ("dialog", "Export")


def test_from_ax_reads_objects_parent_links_and_pyobjc_frames() -> None:
    class Element:
        def __init__(self, **attrs: object) -> None:
            self.__dict__.update(attrs)

    window = Element(AXRole="AXWindow", AXTitle="Mail")
    text = Element(AXRole="AXStaticText", AXValue="Inbox", AXParent=window,
                   AXFrame="{{10, 20}, {50, 16}}")  # fmt: skip
    ref = from_ax(text)
    assert (ref.name, ref.bbox, ref.container_path) == (
        "Inbox",
        (10.0, 20.0, 60.0, 36.0),
        ("Mail",),
    )
    with pytest.raises(InvalidReferenceError):
        from_ax({"AXFrame": "nonsense"})
