from pathlib import Path

import pytest

from resolver import InvalidObservationError, Observation, resolve
from resolver.capture import ref_from_row

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "formats"

WIN32 = """
\t        Control Identifiers:

\t   \tDialog - 'Replace'    (L179, T174, R657, B409)
\t\t['ReplaceDialog', 'Dialog', 'Replace']
\t\tchild_window(title="Replace", class_name="#32770")
 \t\t   |
\t\t   | Button - '&Find Next'    (L536, T220, R636, B248)
 \t\t   | ['&Find Next', 'Button']
\t\t   | child_window(title="&Find Next", class_name="Button")
"""


def test_uia_fixture_tree_and_specs() -> None:
    t = Observation(
        accessibility_tree=(FIXTURES / "pywinauto" / "invoice.txt").read_text()
    ).candidates("a11y")
    uia = Observation(
        accessibility_tree=(FIXTURES / "uia" / "invoice.json").read_text()
    ).candidates("a11y")
    assert t.format == "pywinauto" and t.coord_space == "screen_px"
    assert t.roles == uia.roles and t.names == uia.names
    assert t.parent.tolist() == uia.parent.tolist()
    assert t.bboxes.tolist() == uia.bboxes.tolist()
    ok = t.names.index("OK")
    assert t.platform_ids["automation_id"][ok] == "okField"
    assert t.platform_ids["child_window"][ok].startswith('child_window(title="OK"')


def test_win32_dump_with_tabs_and_mnemonics() -> None:
    t = Observation(accessibility_tree=WIN32).candidates("a11y")
    assert t.roles == ("dialog", "button") and t.names == ("Replace", "Find Next")
    assert t.parent.tolist() == [-1, 0]
    assert t.platform_ids["class_name"] == ("#32770", "Button")


def test_no_controls_is_typed() -> None:
    with pytest.raises(InvalidObservationError):
        Observation(
            accessibility_tree="Control Identifiers:\n\n", tree_format="pywinauto"
        ).candidates("a11y")


NOTEPAD = """
Dialog - '{title}'    (L100, T100, R900, B700)
['{title}Dialog', 'Dialog', '{title}']
child_window(title="{title}", class_name="{cls}")
   |
   | Edit - ''    (L108, T150, R892, B680)
   | ['Edit', 'Edit0', 'Edit1']
   | child_window(class_name="Edit")
"""


def test_only_a_dialog_class_window_is_a_dialog() -> None:
    # pywinauto calls every top-level window "Dialog" (Notepad's main window too).
    def roles(text: str) -> tuple[str, ...]:
        return Observation(accessibility_tree=text).candidates("a11y").roles

    assert roles(NOTEPAD.format(title="Untitled - Notepad", cls="Notepad"))[0] == "window"
    assert roles(NOTEPAD.format(title="Replace", cls="#32770"))[0] == "dialog"
    assert roles(WIN32)[0] == "dialog"
    uia = "Dialog - 'Save As'    (L0, T0, R9, B9)\n['Dialog']\n" + (
        'child_window(title="Save As", class_name="#32770", control_type="Window")'
    )
    assert roles(uia) == ("dialog",)
    no_spec = "Dialog - 'Untitled - Notepad'    (L0, T0, R9, B9)\n['Dialog']\n"
    assert roles(no_spec) == ("dialog",)  # (no class: read as pywinauto spelled it)


def test_the_editor_is_found_after_the_document_is_saved() -> None:
    # Recorded in "Untitled - Notepad"; saving renames the window. Read as a dialog, the main
    # window was the editor's panel, and the renamed one another dialog: refused.
    def seen(title: str) -> Observation:
        return Observation(accessibility_tree=NOTEPAD.format(title=title, cls="Notepad"))

    ref = ref_from_row(seen("Untitled - Notepad").candidates("a11y"), 1)
    assert ref.panel is None and ref.container_path == ("Untitled - Notepad",)
    assert resolve(ref, seen("notes.txt - Notepad")).executor_id == "a11y:0.0"
