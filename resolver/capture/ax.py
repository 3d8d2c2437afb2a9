"""macOS Accessibility: an AX element, as a dict (a JSON dump) or an object with the AX
attributes, as a reference."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from ..adapters.a11y.ax import _role_spelling as role_spelling
from ..geometry import CoordSpace
from ..models import BBox, SemanticElementRef
from ._shim import (
    MAX_PATH,
    box_xywh,
    container_entry,
    flag,
    get,
    make_ref,
    panel_from,
    path_of,
    text,
)

__all__ = ["from_ax"]

_NUMBERS: Final[re.Pattern[str]] = re.compile(r"-?\d+(?:\.\d+)?")
_MAX_ANCESTORS: Final[int] = 64
_ROLE_KEYS: Final[tuple[str, ...]] = ("AXRole", "AXSubrole", "AXRoleDescription")


def ax_frame(element: Any) -> BBox | None:
    """``AXFrame`` (``{x, y, w, h}``, a pair of pairs, or pyobjc's ``"{{x, y}, {w, h}}"``
    string), else ``AXPosition`` with ``AXSize``, as ``(l, t, r, b)``."""
    frame = get(element, "AXFrame")
    if isinstance(frame, str):
        numbers = _NUMBERS.findall(frame)
        frame = [float(n) for n in numbers] if len(numbers) == 4 else None
    elif isinstance(frame, Sequence) and len(frame) == 2:
        frame = [*frame[0], *frame[1]] if all(isinstance(p, Sequence) for p in frame) else None
    if frame is not None:
        return box_xywh(frame)
    position, size = get(element, "AXPosition"), get(element, "AXSize")
    if isinstance(position, Mapping) and isinstance(size, Mapping):
        return box_xywh({**size, "x": position.get("x"), "y": position.get("y")})
    if isinstance(position, Sequence) and isinstance(size, Sequence):
        return box_xywh([*position, *size]) if len(position) == len(size) == 2 else None
    return None


def _role(element: Any) -> str | None:
    """The spelling that decides the role, by the AX table's rule (the subrole when it is
    more telling than the role, else the role, else the role description)."""
    spelled = role_spelling(*(text(get(element, k), 128) or "" for k in _ROLE_KEYS))
    return spelled or None


def _name(element: Any) -> str | None:
    name = text(get(element, "AXTitle")) or text(get(element, "AXDescription"))
    if name is None and get(element, "AXRole") in ("AXStaticText", "AXHeading", "AXCell"):
        name = text(get(element, "AXValue"))
    return name


def _chain(element: Any, ancestors: Sequence[Any] | None) -> Sequence[Any]:
    """``ancestors`` when given (outermost first), else the ``AXParent`` chain."""
    if ancestors is not None:
        return ancestors
    chain: list[Any] = []
    node = get(element, "AXParent")
    while node is not None and len(chain) < _MAX_ANCESTORS and not isinstance(node, str):
        chain.append(node)
        node = get(node, "AXParent")
    return chain[::-1]


def ax_container_path(element: Any, ancestors: Sequence[Any] | None = None) -> tuple[str, ...]:
    """The named container ancestors, outermost first: ``ancestors`` when given (outermost
    first), else the ``AXParent`` chain."""
    entries = [container_entry(_role(a), _name(a), "ax") for a in _chain(element, ancestors)]
    return path_of([e for e in entries if e][-MAX_PATH:])


def from_ax(
    element: Any,
    *,
    ancestors: Sequence[Any] | None = None,
    screen_size: tuple[int, int] | None = None,
) -> SemanticElementRef:
    """The reference for a macOS AX element.

    Parameters
    ----------
    element:
        A dict (an AX JSON dump node) or an object with the AX attributes: ``AXRole``,
        ``AXSubrole``, ``AXTitle``/``AXDescription`` (``AXValue`` names static text),
        ``AXFrame`` (or ``AXPosition`` + ``AXSize``), ``AXIdentifier``, ``AXEnabled``,
        ``AXFocused``, ``AXClassName``; ``AXParent`` for the container path.
    ancestors:
        The element's ancestors, outermost first, when the caller walked down to it (a JSON
        dump has no parent links).
    screen_size:
        The screen size in points, when known.

    Raises
    ------
    InvalidReferenceError
        ``element`` says nothing about an element.
    """
    chain = _chain(element, ancestors)
    return make_ref(
        "from_ax",
        role=_role(element),
        name=_name(element),
        bbox=ax_frame(element),
        container_path=ax_container_path(element, chain),
        panel=panel_from(((_role(a), _name(a)) for a in chain), "ax"),
        enabled=flag(get(element, "AXEnabled")),
        focused=flag(get(element, "AXFocused")),
        automation_id=text(get(element, "AXIdentifier", "AXDOMIdentifier")),
        class_name=text(get(element, "AXClassName"), 256),
        screen_size=screen_size,
        coord_space=CoordSpace.SCREEN_POINTS,
    )
