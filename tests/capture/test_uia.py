from types import SimpleNamespace

import pytest
from desktop_trees import notepad

from resolver import ElementNotFoundError, InvalidReferenceError, Observation, resolve
from resolver.capture import from_uia, ref_from_row


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


def test_from_uia_records_the_dialog_around_the_control() -> None:
    main = Control(ControlTypeName="WindowControl", Name="Untitled - Notepad",
                   ClassName="Notepad")  # fmt: skip
    dialog = Control(ControlTypeName="WindowControl", Name="Confirm Save As",
                     ClassName="#32770", up=main)  # fmt: skip
    yes = Control(ControlTypeName="ButtonControl", Name="Yes", up=dialog)
    ref = from_uia(yes)
    assert ref.panel == ("dialog", "Confirm Save As")
    assert ref.container_path == ("Untitled - Notepad", "Confirm Save As")
    assert from_uia(dialog).role == "Dialog" and from_uia(main).role == "WindowControl"
    assert from_uia(dialog).panel is None  # (the dialog itself is in none)
    # A WPF dialog says so; a control of the main window is in no panel.
    wpf = Control(ControlTypeName="WindowControl", Name="Options", IsDialog=True, up=main)
    assert from_uia(Control(ControlTypeName="ButtonControl", Name="OK", up=wpf)).panel == (
        "dialog", "Options")  # fmt: skip
    assert from_uia(Control(ControlTypeName="EditControl", Name="", up=main)).panel is None
    # A path given by the caller skips the walk, so no panel is read.
    assert from_uia(yes, container_path=("Confirm Save As",)).panel is None


def test_a_property_that_raises_does_not_make_a_dialog() -> None:
    class Stale(Control):
        @property
        def ClassName(self) -> str:  # noqa: N802 - uiautomation's spelling
            raise OSError("element not available")

    window = Stale(ControlTypeName="WindowControl", Name="Gone")
    ref = from_uia(Control(ControlTypeName="ButtonControl", Name="OK", up=window))
    assert ref.panel is None and ref.container_path == ("Gone",)


def test_the_yes_of_another_dialog_is_refused_the_recorded_dialogs_found() -> None:
    # "Yes" recorded in "Confirm Save As"; an error box with its own "Yes" is shown instead.
    main = Control(ControlTypeName="WindowControl", Name="Untitled - Notepad",
                   ClassName="Notepad")  # fmt: skip
    dialog = Control(ControlTypeName="WindowControl", Name="Confirm Save As",
                     ClassName="#32770", up=main)  # fmt: skip
    yes = Control(
        ControlTypeName="ButtonControl",
        Name="Yes",
        up=dialog,
        BoundingRectangle=SimpleNamespace(left=400, top=320, right=470, bottom=345),
    )
    recorded = Observation(accessibility_tree=notepad("Confirm Save As"))
    completed = ref_from_row(recorded.candidates("a11y"), 3)
    assert completed.panel == ("dialog", "Confirm Save As")
    error_box = Observation(accessibility_tree=notepad("Notepad: Access denied"))
    for ref in (from_uia(yes), completed):
        assert resolve(ref, recorded).executor_id == "a11y:0.1.0"
        with pytest.raises(ElementNotFoundError) as refused:
            resolve(ref, error_box)
    # The completed reference (its box, texts and anchors agree) is refused for its dialog.
    a11y = [e.rule for e in refused.value.evidence.trace if e.source == "a11y"]
    assert a11y == ["refuse.other_panel"] or a11y == ["refuse.panel_closed"]
