"""Windows UI Automation trees (``uiautomation`` style, screen pixels) for the tests of
desktop dialogs: Notepad with a field and, when asked, a message box drawn over it."""

from typing import Any

FIELD = ("Text Editor", [0, 50, 800, 600])
"""Notepad's text field: its name and box (the message box covers the middle of it)."""


def uia_node(kind: str, name: str, box: list[int], *kids: Any, **more: Any) -> dict[str, Any]:
    """One UIA element with its children."""
    return {"ControlTypeName": kind, "Name": name, "BoundingRectangle": box,
            "Children": list(kids), **more}  # fmt: skip


def notepad(
    dialog: str | None = "Confirm Save As", field: tuple[str, list[int]] = FIELD
) -> dict[str, Any]:
    """Notepad's window with ``field`` and, unless ``dialog`` is ``None``, a message box of
    that name (the Win32 dialog class) with "Yes" and "No" over the middle of the window."""
    kids: list[Any] = [uia_node("EditControl", *field)]
    if dialog is not None:
        kids.append(uia_node(
            "WindowControl", dialog, [300, 220, 660, 360],
            uia_node("ButtonControl", "Yes", [400, 320, 470, 345]),
            uia_node("ButtonControl", "No", [480, 320, 550, 345]), ClassName="#32770",
        ))  # fmt: skip
    return uia_node("WindowControl", "Untitled - Notepad", [0, 0, 800, 600], *kids,
                    ClassName="Notepad")  # fmt: skip
