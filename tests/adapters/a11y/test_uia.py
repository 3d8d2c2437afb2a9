import math
from pathlib import Path
from typing import Any

import pytest

from resolver import InvalidObservationError, Observation

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "formats"


def table(raw: Any):  # type: ignore[no-untyped-def]
    return Observation(accessibility_tree=raw).candidates("a11y")


def test_uiautomation_fixture() -> None:
    t = table((FIXTURES / "uia" / "invoice.json").read_text())
    assert t.format == "uia" and t.coord_space == "screen_px"
    ok = t.names.index("OK")
    assert t.roles[ok] == "button" and t.executor_ids[ok].startswith("a11y:42.")
    assert t.platform_ids["automation_id"][ok] == "okField"
    assert t.bboxes[ok].tolist() == [900.0, 640.0, 990.0, 670.0]
    assert t.roles[t.names.index("Quantity:")] == "text"
    edit = [i for i in range(len(t)) if t.roles[i] == "textbox"]
    assert [t.names[i] for i in edit] == ["Customer name:"] and t.focused[edit[0]] == 1
    assert t.roles[t.names.index("Lines")] == "tab"
    assert t.enabled[t.names.index("Delete")] == 0


def test_numeric_control_types_string_rects_and_offscreen() -> None:
    tree = {
        "ControlType": 50032, "Name": "Calc", "BoundingRectangle": "(0,0,400,300)[400x300]",
        "Children": [
            {"ControlType": 50000, "Name": "7", "BoundingRectangle": [10, 10, 40, 40],
             "RuntimeId": [42, 7]},
            {"ControlType": 50018, "Name": "", "BoundingRectangle": [0, 0, 0, 0],
             "IsOffscreen": True},
            {"ControlType": 99999, "Name": "odd"},
        ],
    }  # fmt: skip
    t = table(tree)
    assert t.roles == ("window", "button", "tablist", "unknown")
    assert t.bboxes[0].tolist() == [0.0, 0.0, 400.0, 300.0]
    assert t.executor_ids[1] == "a11y:42.7" and t.executor_ids[2] == "a11y:0.1"
    assert math.isnan(t.bboxes[2][0]) and t.visible[2] == 0


def test_openadapt_window_states() -> None:
    state = {"title": "Untitled - Notepad", "left": -9, "top": -9, "width": 1938,
             "height": 1048, "meta": {"class_name": "Notepad", "is_enabled": True,
                                      "rectangle": {"left": 0, "top": 0, "right": 1920,
                                                    "bottom": 1030}}}  # fmt: skip
    t = table(state)
    assert t.names == ("Untitled - Notepad",) and t.roles == ("window",)
    assert t.bboxes[0].tolist() == [0.0, 0.0, 1920.0, 1030.0]
    state["data"] = {
        "class_name": "Notepad", "friendly_class_name": "Dialog", "texts": ["Untitled"],
        "rectangle": {"left": 0, "top": 0, "right": 100, "bottom": 100},
        "children": [{"class_name": "Edit", "friendly_class_name": "Edit", "texts": [""],
                      "control_type": "Edit", "automation_id": "15", "is_enabled": True}],
    }  # fmt: skip
    t = table(state)
    # pywinauto calls every top-level window "Dialog"; a Notepad-class window is a window.
    assert t.roles == ("window", "textbox") and t.platform_ids["automation_id"][1] == "15"


def test_cycle_and_wrong_types() -> None:
    node: dict[str, Any] = {"ControlTypeName": "PaneControl", "Name": "p"}
    node["Children"] = [node]
    with pytest.raises(InvalidObservationError):
        table(node)
    t = table({"ControlType": "ButtonControl", "Name": 3, "BoundingRectangle": {"left": "x"},
               "Children": 7})  # fmt: skip
    assert t.names == ("3",) and math.isnan(t.bboxes[0][0])


def test_a_window_is_a_dialog_by_its_class_or_what_it_says() -> None:
    def window(**said: Any) -> dict[str, Any]:
        return {"ControlTypeName": "WindowControl", "Name": "w", "Children": [], **said}

    tree = {"ControlTypeName": "WindowControl", "Name": "Untitled - Notepad",
            "ClassName": "Notepad", "Children": [
                window(ClassName="#32770"), window(IsDialog=True), window(IsModal=True),
                window(WindowIsModal=True), window(LocalizedControlType="Dialog"),
                window(LocalizedControlType="window", ClassName="Chrome_WidgetWin_1"),
                window(IsDialog=False, IsModal="yes"), window(),
                {"ControlType": "dialog", "ClassName": "HwndWrapper[A]", "Name": "d"}]}  # fmt: skip
    t = table(tree)
    assert t.roles == ("window", *["dialog"] * 5, "window", "window", "window", "dialog")
    assert t.raw_roles[1] == "Dialog" and t.raw_roles[-2] == "WindowControl"
    # A page's dialog in a browser: a pane that says it is one.
    page = {"ControlTypeName": "PaneControl", "Name": "Chrome", "Children": [
        {"ControlTypeName": "PaneControl", "Name": "Delete file?", "IsDialog": True},
        {"ControlTypeName": "GroupControl", "Name": "Oops",
         "LocalizedControlType": "alert dialog"},
        {"ControlTypeName": "PaneControl", "Name": "Bar",
         "LocalizedControlType": "pane"}]}  # fmt: skip
    assert table(page).roles == ("group", "dialog", "dialog", "group")
    # pywinauto's properties: friendly "Dialog" on a top-level window of another class.
    props = {"class_name": "#32770", "friendly_class_name": "Dialog", "texts": ["Replace"],
             "children": [{"class_name": "Notepad", "friendly_class_name": "Dialog",
                           "texts": ["Untitled - Notepad"]}]}  # fmt: skip
    assert table(props).roles == ("dialog", "window")
