"""The Chrome extension's event payload as a reference, and as a recorded action.

The payload an extension's content script sends for one event (every field optional, both
``snake_case`` and ``camelCase`` accepted)::

    {"type": "click", "x": 412, "y": 230, "url": "...", "viewport": [1280, 800],
     "element": {"role": "button", "tag": "button", "name": "Save", "innerText": "Save",
                 "bbox": [380, 214, 444, 246], "css_selector": "#save", "xpath": "/html[1]/...",
                 "id": "save", "classes": ["btn", "primary"], "href": null,
                 "attributes": {"type": "submit"}, "test_id": "save-btn",
                 "nearby_text": ["Cancel", "Settings"], "heading": "Network",
                 "enabled": true, "focused": false,
                 "visible": true,
                 "ancestors": [{"role": "dialog", "name": "Settings", "tag": "div"},
                               {"tag": "li", "content": "Alice Edit Delete"},
                               {"tag": "details", "summary": "Shipping address"}, ...]}}

The element's fields may also sit at the top level of the event. ``ancestors`` are listed
outermost first; the container path is built from their roles and names by the rule the
tables use (named dialogs, groups, forms, ...; ``[navigation]`` for an unnamed landmark; an
unnamed row, list item or article by its ``content``, its first texts), and
when they carry names but no roles every named ancestor is kept (the matcher recognises
that style). An XPath is never split into a path: its steps are tags, not names. The
innermost dialog, tab panel or ``<details>`` section (named by its ``summary``) among the
ancestors is the reference's ``panel``.
``visible: false`` gives the reference a ``confidence`` of 0.5.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ..adapters.dom.roles import _INPUT_ROLES as INPUT_ROLES
from ..adapters.dom.roles import explicit_role
from ..errors import InvalidReferenceError
from ..geometry import CoordSpace
from ..models import ActionType, ActionWithElement, SemanticElementRef
from ..roles import canonical_role
from ._shim import (
    attributes_of,
    box_ltrb,
    box_xywh,
    classes_of,
    container_entry,
    file_names,
    flag,
    get,
    make_ref,
    nearby_of,
    panel_from,
    path_of,
    text,
)

__all__ = ["EVENT_TYPES", "action_from_event", "element_role", "from_chrome_event"]

EVENT_TYPES: Final[Mapping[str, ActionType]] = {
    "click": "click", "dblclick": "double_click", "double_click": "double_click",
    "contextmenu": "right_click", "right_click": "right_click", "input": "type",
    "change": "type", "type": "type", "keydown": "key", "key": "key", "scroll": "scroll",
    "wheel": "scroll", "hover": "hover", "mouseover": "hover", "select": "select",
    "drag": "drag", "upload": "upload",
}  # fmt: skip
"""Event types the extension sends, and the recorded action type each becomes (an ``input``
or ``change`` of an ``<input type=file>`` is an ``upload``, :func:`_file_names`)."""
_PRESSES: Final[frozenset[str]] = frozenset({"click", "double_click", "right_click"})
_NAME_CHARS: Final[int] = 256  # innerText of a big element is content, not a name
_TEST_ID_KEYS: Final[tuple[str, ...]] = ("test_id", "testId", "data-testid", "data-test-id",
                                         "data-test", "data-qa", "data-cy")  # fmt: skip


def _element(event: Mapping[str, Any]) -> Mapping[str, Any]:
    element = event.get("element", event.get("target"))
    return element if isinstance(element, Mapping) else event


def element_role(element: Mapping[str, Any]) -> str | None:
    """The ARIA role when given, else the implicit role of the tag (inputs by type)."""
    role = text(get(element, "role"), 128)
    if role:
        return explicit_role(role) or role
    tag = text(get(element, "tag", "tagName"), 64)
    if not tag:
        return None
    tag = tag.lower()
    if tag == "input":
        kind = (attributes_of(get(element, "attributes")).get("type") or "").lower()
        return INPUT_ROLES.get(kind, "textbox")
    role = canonical_role(tag, "html")
    return None if role == "unknown" else role


def _box(value: Any) -> Any:
    """``[l, t, r, b]``, or a DOMRect-like ``{x, y, width, height}`` / ``{left, top, ...}``."""
    if isinstance(value, Mapping) and "width" in value:
        return box_xywh(value)
    return box_ltrb(value)


_NAMED_ONLY: Final[frozenset[str]] = frozenset({"form", "section"})


def _entry(ancestor: Mapping[str, Any]) -> str | None:
    """An ancestor's container entry; an unnamed ``<form>`` or ``<section>`` has no landmark
    role in HTML-AAM (only a named one has), so it adds none."""
    name = get(ancestor, "name", "ariaLabel")
    tag = str(get(ancestor, "tag", "tagName") or "").lower()
    if not text(name) and not get(ancestor, "role") and tag in _NAMED_ONLY:
        return None
    return container_entry(element_role(ancestor), name, "html", get(ancestor, "content"))


def _path(element: Mapping[str, Any]) -> tuple[str, ...]:
    """The container path: given as is, else from the ancestors' roles and names."""
    given = get(element, "container_path", "containerPath")
    if isinstance(given, Sequence) and not isinstance(given, str):
        return path_of(given)
    ancestors = get(element, "ancestors")
    if not isinstance(ancestors, Sequence) or isinstance(ancestors, str):
        return ()
    items = [a for a in ancestors if isinstance(a, Mapping)]
    if any(get(a, "role", "tag", "tagName") for a in items):
        return path_of(_entry(a) for a in items)
    return path_of(get(a, "name") for a in items)


def _panel(element: Mapping[str, Any]) -> tuple[str, str] | None:
    """The innermost dialog or tab panel among the ancestors (by role, or a ``<dialog>``'s
    tag), or ``<details>`` section (named by its ``summary``), as the reference's
    ``panel``."""
    ancestors = get(element, "ancestors")
    if not isinstance(ancestors, Sequence) or isinstance(ancestors, str):
        return None
    items = [a for a in ancestors if isinstance(a, Mapping)]
    return panel_from((_panel_item(a) for a in items), "html")


def _panel_item(ancestor: Mapping[str, Any]) -> tuple[Any, Any]:
    """An ancestor's ``(role, name)`` for :func:`panel_from`; a ``<details>`` without a role
    of its own is ``("details", its summary)``."""
    tag = str(get(ancestor, "tag", "tagName") or "").lower()
    if tag == "details" and not get(ancestor, "role"):
        return "details", get(ancestor, "summary")
    return element_role(ancestor), get(ancestor, "name", "ariaLabel")


def _enabled(element: Mapping[str, Any]) -> bool | None:
    enabled = flag(get(element, "enabled"))
    if enabled is None:
        disabled = flag(get(element, "disabled"))
        enabled = None if disabled is None else not disabled
    return enabled


def _viewport(event: Mapping[str, Any]) -> tuple[int, int] | None:
    value = get(event, "viewport", "screen_size")
    if isinstance(value, Mapping):
        value = (value.get("width"), value.get("height"))
    box = box_ltrb([0, 0, *value]) if isinstance(value, Sequence) and len(value) == 2 else None
    return (round(box[2]), round(box[3])) if box and box[2] >= 1 and box[3] >= 1 else None


def from_chrome_event(event: Any) -> SemanticElementRef:
    """The reference for the element of one Chrome extension event (see the module doc).

    Parameters
    ----------
    event:
        The decoded JSON payload (a mapping).

    Raises
    ------
    InvalidReferenceError
        ``event`` is no mapping, or it says nothing about an element.
    """
    if not isinstance(event, Mapping):
        raise InvalidReferenceError(
            f"from_chrome_event: an event is a JSON object, got {type(event).__name__}"
        )
    element = _element(event)
    visible = flag(get(element, "visible"))
    name = text(get(element, "name", "ariaLabel", "accessibleName"), _NAME_CHARS)
    return make_ref(
        "from_chrome_event",
        role=element_role(element),
        name=name or text(get(element, "innerText", "text_content", "textContent"), _NAME_CHARS),
        bbox=_box(get(element, "bbox", "rect", "boundingClientRect")),
        container_path=_path(element),
        enabled=_enabled(element),
        focused=flag(get(element, "focused")),
        css_selector=text(get(element, "css_selector", "cssSelector", "selector")),
        xpath=text(get(element, "xpath")),
        dom_id=text(get(element, "id", "dom_id", "domId")),
        test_id=text(get(element, *_TEST_ID_KEYS)),
        tag=text(get(element, "tag", "tagName"), 64),
        classes=classes_of(get(element, "classes", "className", "class")),
        href=text(get(element, "href"), 4096),
        attributes=attributes_of(get(element, "attributes")),
        nearby_text=nearby_of(get(element, "nearby_text", "nearbyText")),
        heading=text(get(element, "heading"), 1000),
        panel=_panel(element),
        screen_size=_viewport(event),
        coord_space=CoordSpace.CSS_PX,
        # A hidden target (the recorder caught a click on an element the page hides) is a
        # weaker record than a visible one.
        confidence=0.5 if visible is False else None,
    )


def action_from_event(event: Any) -> ActionWithElement:
    """The recorded action of one Chrome extension event: its type (``click``, ``input`` ->
    ``type``, ``scroll``, ... see :data:`EVENT_TYPES`), the point, typed text or key, and the
    element (:func:`from_chrome_event`; ``None`` for an event with no element, a scroll of
    the page).

    Raises
    ------
    InvalidReferenceError
        ``event`` is no mapping, has an unknown type, or its fields do not fit together.
    """
    if not isinstance(event, Mapping):
        raise InvalidReferenceError(
            f"an event is a JSON object, got {type(event).__name__}", details={"shim": "chrome"}
        )
    kind = EVENT_TYPES.get(str(event.get("type", "")).lower())
    if kind is None:
        raise InvalidReferenceError(
            f"unknown event type {event.get('type')!r}; expected one of {', '.join(EVENT_TYPES)}"
        )
    try:
        element: SemanticElementRef | None = from_chrome_event(event)
    except InvalidReferenceError:
        if kind != "scroll":
            raise
        element = None
    if element is not None and element.focused and kind in _PRESSES:
        # The press itself gave the element the focus (before the page heard the click): it
        # says nothing of the element as a replay will find it.
        element = element.model_copy(update={"focused": None})
    x, y = (event.get(k, get(event, f"client{k.upper()}")) for k in ("x", "y"))
    files = _file_names(event) if kind in ("type", "upload") else None
    kind = "upload" if files is not None else kind
    typed = text(get(event, "text", "value"), 10_000) if kind == "type" else None
    return ActionWithElement(
        type=kind, x=x, y=y, element=element, text=typed or ("" if kind == "type" else None),
        key=text(get(event, "key"), 64) if kind == "key" else None, files=files,
    )  # fmt: skip


def _file_names(event: Mapping[str, Any]) -> tuple[str, ...] | None:
    """The names of the files an ``upload`` event, or an event on an ``<input type=file>``,
    chose: its ``files`` (names, or objects with a ``name``), else the field's value (the
    name after its last separator: a page reads ``C:\\fakepath\\cv.pdf``); ``None`` for
    any other event."""
    element = _element(event)
    tag = str(get(element, "tag", "tagName") or "").lower()
    kind = (attributes_of(get(element, "attributes")).get("type") or "").lower()
    if str(event.get("type", "")).lower() != "upload" and (tag, kind) != ("input", "file"):
        return None
    given = event.get("files")
    if isinstance(given, Sequence) and not isinstance(given, str):
        return file_names(given)
    value = get(event, "value", "text")
    name = value.replace("\\", "/").rsplit("/", 1)[-1] if isinstance(value, str) else ""
    return (name[:4096],) if name.strip() else ()
