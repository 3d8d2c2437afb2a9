import numpy as np
import pytest

from resolver.roles import COMPAT, ROLE_INDEX, ROLES, canonical_role, role_compat


@pytest.mark.parametrize(
    ("raw", "platform", "expected"),
    [
        ("button", None, "button"),
        ("StaticText", None, "text"),
        ("RootWebArea", None, "document"),
        ("sectionheader", None, "banner"),
        ("ButtonControl", None, "button"),
        ("EditControl", None, "textbox"),
        ("Button", "uia", "button"),
        ("Text", "uia", "text"),
        ("AXButton", None, "button"),
        ("AXTextField", None, "textbox"),
        ("AXStaticText", None, "text"),
        ("push-button", "atspi", "button"),
        ("push button", "atspi", "button"),
        ("text", "atspi", "textbox"),
        ("label", "atspi", "text"),
        ("menu-item", "atspi", "menuitem"),
        ("android.widget.Button", "android", "button"),
        ("android.widget.EditText", None, "textbox"),
        ("android.widget.TextView", None, "text"),
        ("a", None, "link"),
        ("input[type=checkbox]", None, "checkbox"),
        ("", None, "unknown"),
        (None, None, "unknown"),
        ("no-such-role-anywhere", None, "unknown"),
    ],
)
def test_canonical_role(raw: str | None, platform: str | None, expected: str) -> None:
    assert canonical_role(raw, platform) == expected
    assert expected in ROLE_INDEX


def test_compat_matrix_shape() -> None:
    n = len(ROLES)
    assert COMPAT.shape == (n, n)
    assert np.allclose(COMPAT, COMPAT.T)
    assert np.all(np.diag(COMPAT) == 1.0)
    assert COMPAT.min() >= 0 and COMPAT.max() <= 1
    assert not COMPAT.flags.writeable


def test_graded_compat() -> None:
    assert role_compat("link", "button") >= 0.75
    assert role_compat("button", "heading") == 0.0
    assert role_compat("checkbox", "switch") > role_compat("checkbox", "button")
    assert role_compat("textbox", "searchbox") > 0.8
    assert 0 < role_compat("unknown", "button") < 0.5


def test_a_windows_window_is_a_dialog_by_its_class_or_its_word() -> None:
    from resolver.roles import windows_window_role

    # pywinauto's "Dialog" for every top-level window: the class tells.
    assert windows_window_role("Dialog", "Notepad", False) == "Window"
    assert windows_window_role("Dialog", "#32770", False) == "Dialog"
    assert windows_window_role("WindowControl", "#32770", False) == "Dialog"
    assert windows_window_role("WindowControl", "HwndWrapper[App]", True) == "Dialog"
    assert windows_window_role("WindowControl", "Chrome_WidgetWin_1", False) == "WindowControl"
    # No class known and nothing said: left as the dump spelled it; other roles untouched.
    assert windows_window_role("Dialog", None, False) == "Dialog"
    assert windows_window_role("WindowControl", "", False) == "WindowControl"
    assert windows_window_role("ButtonControl", "#32770", True) == "ButtonControl"
    # A pane is a dialog only by what it says (a page's dialog in a browser).
    assert windows_window_role("PaneControl", None, True) == "Dialog"
    assert windows_window_role("PaneControl", "#32770", False) == "PaneControl"
    assert (
        canonical_role("Dialog", "uia") == "dialog" and canonical_role("Window", "uia") == "window"
    )


def test_an_atspi_alert_is_a_message_box() -> None:
    # GTK's message dialogs and Chromium's role=alertdialog are AT-SPI "alert"s; an ARIA
    # alert region is a "notification" there.
    assert canonical_role("alert", "atspi") == "alertdialog"
    assert canonical_role("alert") == "alert" and canonical_role("alert", "uia") == "alert"
