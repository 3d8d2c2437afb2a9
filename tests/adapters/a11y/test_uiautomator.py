import math
from pathlib import Path

import pytest

from resolver import InvalidObservationError, Observation

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "formats"


def table(raw: object):  # type: ignore[no-untyped-def]
    return Observation(accessibility_tree=raw).candidates("a11y")


def test_fixture_roles_names_ids() -> None:
    t = table((FIXTURES / "uiautomator" / "invoice.xml").read_bytes())
    assert t.format == "uiautomator" and t.coord_space == "device_px"
    assert t.screen_size == (1080.0, 2400.0)  # from the root bounds
    assert t.ids[0] == "0" and t.parent[0] == -1  # <hierarchy> is not a row
    save = t.names.index("Save")  # an app-bar action named by its content-desc
    assert t.roles[save] == "menuitem" and t.platform_ids["accessibility_id"][save] == "Save"
    assert t.platform_ids["automation_id"][save] == "org.example.invoices:id/save"
    field = t.names.index("Customer name")  # a field is named by its hint
    assert t.roles[field] == "textbox" and t.values[field] == "Ada Lovelace"
    assert t.focused[field] == 1
    tab = t.names.index("Lines")  # a TabView is named by its child TextView
    assert t.roles[tab] == "tab"
    assert t.enabled[t.names.index("Delete")] == 0
    assert t.bboxes[t.names.index("OK")].tolist() == [560.0, 2200.0, 1032.0, 2340.0]


def test_flags_refine_generic_classes() -> None:
    xml = (
        '<hierarchy rotation="0"><node class="android.view.View" clickable="true" text="" '
        'content-desc="" bounds="[0,0][10,10]"><node class="android.widget.TextView" '
        'text="Buy" bounds="[1,1][9,9]"/></node><node class="android.view.View" '
        'checkable="true" text="Wi-Fi" bounds="[0,10][10,20]"/>'
        '<node class="android.widget.FrameLayout" bounds="[0,0][1,1]" text="x" '
        'clickable="false"/></hierarchy>'
    )
    t = table(xml)
    assert t.roles == ("button", "text", "checkbox", "generic")
    assert t.names[0] == "Buy"


@pytest.mark.parametrize("bounds", ["", "[0,0]", "[a,b][c,d]", "[10,10][0,0]", "[0,0][1e999,1]"])
def test_bad_bounds_are_nan(bounds: str) -> None:
    t = table(f'<hierarchy><node class="android.widget.Button" bounds="{bounds}"/></hierarchy>')
    assert len(t) == 1 and math.isnan(t.bboxes[0][0])


def test_truncated_dump_is_typed() -> None:
    with pytest.raises(InvalidObservationError):
        table('<?xml version="1.0"?><hierarchy rotation="0"><node class="a" bounds="[0,0][1,1]">')
