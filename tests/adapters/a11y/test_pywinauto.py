from pathlib import Path

import pytest

from resolver import InvalidObservationError, Observation

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
