"""What the two Android formats (uiautomator XML, DroidBot JSON) share: roles and names.

Android has no role attribute, only a widget class. The class maps through the role tables;
a class that maps to nothing more telling than ``generic`` (``android.view.View``, the usual
Jetpack Compose node, or a ``LinearLayout`` made clickable) takes its role from its flags, as
TalkBack announces it: checkable -> ``checkbox``, editable -> ``textbox``, clickable ->
``button``; a clickable ``TextView`` or ``ImageView`` is a ``button`` too. A control with no
text of its own is named by the text of its descendants, the way TalkBack reads a button
whose label is a child ``TextView``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, TypeVar

from ...roles import canonical_role

__all__ = [
    "LABELLED_BY_CONTENT",
    "AndroidRoles",
    "android_role",
    "descendant_label",
    "pick_name",
    "root_screen",
]

N = TypeVar("N")

_WEAK: Final[frozenset[str]] = frozenset({"generic", "unknown", "group", "none"})
# A clickable TextView or ImageView is how many apps draw a button (menu actions, icons).
_CLICK_PROMOTES: Final[frozenset[str]] = frozenset({*_WEAK, "text", "img"})
MAX_LABEL_NODES: Final[int] = 64  # descendants visited to name one unlabeled control
_MAX_LABEL_PARTS: Final[int] = 6


def android_role(
    cls: str,
    *,
    clickable: bool | None,
    checkable: bool | None,
    editable: bool | None,
    cache: dict[tuple[str, bool, bool, bool], str],
) -> str:
    """Canonical role from the widget class, refined by flags for generic containers."""
    key = (cls, bool(clickable), bool(checkable), bool(editable))
    role = cache.get(key)
    if role is None:
        role = canonical_role(cls, "android")
        if role in _WEAK and checkable:
            role = "checkbox"
        elif role in _WEAK and editable:
            role = "textbox"
        elif role in _CLICK_PROMOTES and clickable:
            role = "button"
        cache[key] = role
    return role


Flags = tuple[str, bool, bool, bool]
"""``(class, clickable, checkable, editable)``."""


class AndroidRoles:
    """Per tree: the role of each class and flags, and the role a row must be given when
    the flags change the class's own (:attr:`TableBuilder.roles`), each worked out once.

    ``known`` is read directly in the walk loops; :meth:`learn` fills a miss.
    """

    __slots__ = ("_cache", "known")

    def __init__(self) -> None:
        self._cache: dict[tuple[str, bool, bool, bool], str] = {}
        self.known: dict[Flags, tuple[str, str | None]] = {}
        """flags -> (role, the role when it differs from the class's own, else None)"""

    def learn(self, flags: Flags) -> tuple[str, str | None]:
        """Work out and keep the entry of :attr:`known` for ``flags``."""
        cls, clickable, checkable, editable = flags
        cache = self._cache
        role = android_role(
            cls, clickable=clickable, checkable=checkable, editable=editable, cache=cache
        )
        mapped = android_role(cls, clickable=False, checkable=False, editable=False, cache=cache)
        known = self.known[flags] = (role, None if role == mapped else role)
        return known


def root_screen(rows: Sequence[tuple[Any, ...]]) -> tuple[float, float] | None:
    """The screen size, from the first root row whose box starts at the origin (the box of
    the window that fills the screen)."""
    for row in rows:
        if row[3] < 0:
            box = row[4]
            if box is not None and box[:2] == (0.0, 0.0):
                return (box[2], box[3])
    return None


LABELLED_BY_CONTENT: Final[frozenset[str]] = frozenset(
    {"button", "link", "checkbox", "switch", "radio", "tab", "menuitem", "option", "listitem",
     "treeitem"}
)  # fmt: skip
"""Roles that, with no text of their own, are named by their descendants' text."""

_EDITABLE: Final[frozenset[str]] = frozenset({"textbox", "searchbox", "combobox"})


def pick_name(role: str, text: str, desc: str, hint: str) -> tuple[str, str]:
    """``(name, value)``: a field is named by its description or hint and holds its text;
    anything else is named by its text, then its content description, then its hint."""
    if role in _EDITABLE:
        return (desc or hint), text
    return (text or desc or hint), ""


def descendant_label(
    start: N, children: Callable[[N], Iterable[N]], label: Callable[[N], str]
) -> str:
    """The texts of ``start``'s descendants in reading order, bounded and de-duplicated."""
    parts: list[str] = []
    stack: list[N] = list(children(start))[::-1]
    visited = 0
    while stack and visited < MAX_LABEL_NODES and len(parts) < _MAX_LABEL_PARTS:
        node = stack.pop()
        visited += 1
        text = label(node).strip()
        if text and text not in parts:
            parts.append(text)
        stack.extend(list(children(node))[::-1])
    return " ".join(parts)
