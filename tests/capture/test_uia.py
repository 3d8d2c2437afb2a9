from types import SimpleNamespace

import pytest

from resolver import InvalidReferenceError, Observation, resolve
from resolver.capture import from_uia


class Control(SimpleNamespace):
    """Stands in for a uiautomation Control: attributes and GetParentControl()."""

    def GetParentControl(self) -> object:  # noqa: N802 - uiautomation's spelling
        return getattr(self, "up", None)


def test_from_uia_reads_a_control_and_its_ancestors() -> None:
    window = Control(ControlTypeName="WindowControl", Name="Invoice Editor")
    group = Control(ControlTypeName="GroupControl", Name="Customer", up=window)
    rect = SimpleNamespace(left=10, top=20, right=110, bottom=44)
    ok = Control(ControlTypeName="ButtonControl", Name="OK", BoundingRectangle=rect,
                 AutomationId="btnOk", ClassName="Button", IsEnabled=True,
                 HasKeyboardFocus=False, up=group)  # fmt: skip
    ref = from_uia(ok)
    assert (ref.role, ref.name, ref.bbox) == ("ButtonControl", "OK", (10.0, 20.0, 110.0, 44.0))
    assert ref.container_path == ("Invoice Editor", "Customer")
    assert (ref.automation_id, ref.class_name, ref.enabled, ref.focused) == (
        "btnOk", "Button", True, False)  # fmt: skip
    tree = {"ControlTypeName": "WindowControl", "Name": "Invoice Editor", "Children": [
        {"ControlTypeName": "GroupControl", "Name": "Customer", "Children": [
            {"ControlTypeName": "ButtonControl", "Name": "OK", "AutomationId": "btnOk",
             "BoundingRectangle": [10, 20, 110, 44], "RuntimeId": [4, 2]}]}]}  # fmt: skip
    assert resolve(ref, Observation(accessibility_tree=tree)).executor_id == "a11y:4.2"


def test_from_uia_drops_bad_evidence_and_refuses_nothing() -> None:
    def broken() -> object:
        raise OSError("element not available")

    ref = from_uia({"ControlTypeName": "EditControl", "BoundingRectangle": "garbage",
                    "GetParentControl": broken})  # fmt: skip
    assert ref.bbox is None and ref.container_path == ()
    with pytest.raises(InvalidReferenceError, match="from_uia"):
        from_uia(object())
