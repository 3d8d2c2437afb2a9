"""Windows UI Automation: a ``uiautomation`` Control (or any object or dict with its
attributes) as a reference."""

from __future__ import annotations

from typing import Any, Final

from ..adapters.a11y.uia import says_dialog
from ..geometry import CoordSpace
from ..models import SemanticElementRef
from ..roles import WINDOW_SPELLINGS, windows_window_role
from ._shim import box_ltrb, container_entry, flag, get, make_ref, panel_from, path_of, text

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


def _raw_role(element: Any) -> Any:
    """The element's control type as a raw role, a window read as a dialog or a window
    (:func:`~resolver.roles.windows_window_role`, by its class and what it says)."""
    raw = get(element, "ControlTypeName", "ControlType")
    if isinstance(raw, str) and raw in WINDOW_SPELLINGS:
        class_name = text(get(element, "ClassName"), 256)
        return windows_window_role(raw, class_name, says_dialog(lambda key: get(element, key)))
    return raw


def _ancestors(element: Any) -> list[tuple[Any, Any]]:
    """``(raw role, name)`` of the element's ancestors, outermost first."""
    chain: list[tuple[Any, Any]] = []
    seen: set[int] = set()
    node = _parent(element)
    while node is not None and len(seen) < _MAX_ANCESTORS and id(node) not in seen:
        seen.add(id(node))
        chain.append((_raw_role(node), get(node, "Name")))
        node = _parent(node)
    chain.reverse()
    return chain


def _path(chain: list[tuple[Any, Any]]) -> tuple[str, ...]:
    """The named container ancestors in an ancestor chain, outermost first (the rule the UIA
    table uses: :func:`~resolver.capture._shim.container_entry`)."""
    return path_of(container_entry(role, name, "uia") for role, name in chain)


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
        one cross-process call per level; the reference then records no ``panel``).

    Returns
    -------
    SemanticElementRef
        Role as UIA spells it (``ButtonControl``), except a window's: ``Dialog`` when its
        class is the Win32 dialog class ``#32770`` or it says it is a dialog (``IsDialog``, a
        modal window pattern, the localized control type "dialog"). ``panel``:
        the nearest such dialog around the element (its name), read on the same walk up the
        ancestors as the path. Screen pixels.

    Raises
    ------
    InvalidReferenceError
        ``element`` says nothing about an element (no control type, name, box or ID).
    """
    chain = _ancestors(element) if container_path is None else None
    path = container_path if chain is None else _path(chain)
    return make_ref(
        "from_uia",
        role=text(_raw_role(element), 128),
        name=text(get(element, "Name")),
        bbox=box_ltrb(get(element, "BoundingRectangle")),
        container_path=path,
        enabled=flag(get(element, "IsEnabled")),
        focused=flag(get(element, "HasKeyboardFocus")),
        automation_id=text(get(element, "AutomationId")),
        class_name=text(get(element, "ClassName"), 256),
        panel=None if chain is None else panel_from(chain, "uia"),
        screen_size=screen_size,
        coord_space=CoordSpace.SCREEN_PX,
    )
