"""Windows UI Automation: a ``uiautomation`` Control (or any object or dict with its
attributes) as a reference."""

from __future__ import annotations

from typing import Any, Final

from ..geometry import CoordSpace
from ..models import SemanticElementRef
from ._shim import MAX_PATH, box_ltrb, container_entry, flag, get, make_ref, path_of, text

__all__ = ["from_uia"]

_MAX_ANCESTORS: Final[int] = 64  # a parent chain longer than this is a cycle or a bad proxy


def _parent(element: Any) -> Any:
    """The element's parent: ``GetParentControl()`` (uiautomation), else a ``parent`` key or
    attribute; ``None`` at the desktop or when the call fails (the element went away)."""
    method = get(element, "GetParentControl")
    if callable(method):
        try:
            return method()
        except Exception:  # COM errors on a destroyed element: the path ends here
            return None
    return get(element, "parent", "Parent")


def uia_container_path(element: Any) -> tuple[str, ...]:
    """The named container ancestors of a UIA element, outermost first (the rule the UIA
    table uses: :func:`~resolver.capture._shim.container_entry`)."""
    entries: list[str] = []
    seen: set[int] = set()
    node = _parent(element)
    while node is not None and len(seen) < _MAX_ANCESTORS and id(node) not in seen:
        seen.add(id(node))
        entry = container_entry(get(node, "ControlTypeName", "ControlType"), get(node, "Name"),
                                "uia")  # fmt: skip
        if entry:
            entries.append(entry)
        node = _parent(node)
    return path_of(reversed(entries[:MAX_PATH]))


def from_uia(
    element: Any,
    *,
    screen_size: tuple[int, int] | None = None,
    container_path: tuple[str, ...] | None = None,
) -> SemanticElementRef:
    """The reference for a Windows UI Automation element.

    Parameters
    ----------
    element:
        A ``uiautomation`` ``Control``, or any object or dict with its attributes:
        ``ControlTypeName`` (or ``ControlType``), ``Name``, ``BoundingRectangle`` (a Rect with
        ``left/top/right/bottom``, a list or a dict), ``AutomationId``, ``ClassName``,
        ``IsEnabled``, ``HasKeyboardFocus``; ancestors through ``GetParentControl()`` or a
        ``parent`` attribute or key.
    screen_size:
        The screen size in pixels, when known.
    container_path:
        The path, when the caller already has it (skips the walk up the ancestors, which is
        one cross-process call per level).

    Returns
    -------
    SemanticElementRef
        Role as UIA spells it (``ButtonControl``), screen pixels.

    Raises
    ------
    InvalidReferenceError
        ``element`` says nothing about an element (no control type, name, box or ID).
    """
    path = container_path if container_path is not None else uia_container_path(element)
    return make_ref(
        "from_uia",
        role=text(get(element, "ControlTypeName", "ControlType"), 128),
        name=text(get(element, "Name")),
        bbox=box_ltrb(get(element, "BoundingRectangle")),
        container_path=path,
        enabled=flag(get(element, "IsEnabled")),
        focused=flag(get(element, "HasKeyboardFocus")),
        automation_id=text(get(element, "AutomationId")),
        class_name=text(get(element, "ClassName"), 256),
        screen_size=screen_size,
        coord_space=CoordSpace.SCREEN_PX,
    )
