import math
from pathlib import Path
from typing import Any

import pytest

from resolver import InvalidObservationError, Observation

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "formats"


def table(raw: Any):  # type: ignore[no-untyped-def]
    return Observation(accessibility_tree=raw).candidates("a11y")


def test_window_state_fixture() -> None:
    t = table((FIXTURES / "ax" / "invoice_window_state.json").read_text())
    assert t.format == "ax" and t.coord_space == "screen_points"
    assert t.roles[0] == "window" and t.names[0] == "Invoice Editor"
    tab = t.names.index("Lines")
    assert t.roles[tab] == "tab" and t.raw_roles[tab] == "AXTabButton"  # the subrole decides
    country = t.roles.index("combobox")  # a pop-up button, named by its description
    assert t.names[country] == "Country" and t.values[country] == "Germany"
    label = t.names.index("Quantity")
    assert t.roles[label] == "text"  # static text is named by its AXValue
    assert t.platform_ids["automation_id"][t.names.index("OK")] == "ok-control"
    assert t.bboxes[t.names.index("OK")].tolist() == [860.0, 611.0, 950.0, 641.0]
    assert t.enabled[t.names.index("Delete")] == 0


def test_navigation_order_position_size_and_role_description() -> None:
    tree = {
        "AXRoleDescription": "outline row",
        "AXTitle": "General",
        "AXPosition": {"x": 1, "y": 2},
        "AXSize": {"w": 3, "h": 4},
        "AXChildren": [],
        "AXChildrenInNavigationOrder": [{"AXRole": "AXButton", "AXDescription": "Close"}],
    }
    t = table(tree)
    assert t.roles == ("treeitem", "button") and t.names[1] == "Close"
    assert t.bboxes[0].tolist() == [1.0, 2.0, 4.0, 6.0]


@pytest.mark.parametrize(
    "frame", [{"x": "a", "y": 0, "w": 1, "h": 1}, {"x": 0, "y": 0, "w": -5, "h": 1}, [1, 2], None]
)
def test_bad_frames_are_nan(frame: Any) -> None:
    t = table({"AXRole": "AXButton", "AXTitle": "OK", "AXFrame": frame})
    assert math.isnan(t.bboxes[0][0])


def test_cycle_is_typed() -> None:
    node: dict[str, Any] = {"AXRole": "AXGroup"}
    node["AXChildren"] = [node]
    with pytest.raises(InvalidObservationError):
        table(node)


def test_wrong_types_are_tolerated() -> None:
    t = table({"AXRole": 5, "AXTitle": ["x"], "AXChildren": "nope", "AXEnabled": "maybe"})
    assert len(t) == 1 and t.roles[0] == "unknown" and t.names[0] == "" and t.enabled[0] == -1
