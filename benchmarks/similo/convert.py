"""Corpus widgets as the resolver sees them: the new version's candidates as a nested
accessibility tree, an old version's target as a :class:`~resolver.SemanticElementRef`.

Roles come from the tag, the ``type`` and Similo's ``is_button`` flag, in the raw spellings
:func:`resolver.roles.canonical_role` maps (``link``, ``button``, ``textbox``, ``heading``,
``img``, ``listitem``, ``generic`` ...). Names come from the text a person sees: the visible
text, else the text content, else ``alt``/``title``, else the placeholder, else the value of
a form control (Similo read the DOM ``.value`` of every element; on a list item it is the
ordinal, so it is trusted on form controls only).

Boxes are page coordinates (CSS px) from ``x``, ``y``, ``width`` and ``height``; half the
apps were extracted without geometry, and their references and rows carry no box.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

from resolver import SemanticElementRef
from resolver.errors import InvalidReferenceError
from resolver.models import BBox
from resolver.text import collapse
from resolver.web import (
    ATTRIBUTE_NAMES,
    MAX_ATTRIBUTE,
    MAX_CLASS_CHARS,
    MAX_CLASSES,
    MAX_HREF,
    MAX_NEARBY,
    MAX_NEARBY_CHARS,
    MAX_TAG,
)

from .data import Widget

__all__ = [
    "FORM_TAGS",
    "NEIGHBOUR_KEYS",
    "ROOT_ID",
    "box_of",
    "name_of",
    "observation_tree",
    "own_properties",
    "ref_of",
    "role_of",
]

ROOT_ID: Final[str] = "root"
"""The id of the document node the candidates hang under (a candidate's id is its index)."""
FORM_TAGS: Final[frozenset[str]] = frozenset({"input", "select", "textarea", "button"})
"""Tags whose ``value`` is what the element shows (elsewhere Similo's ``.value`` is noise)."""
NEIGHBOUR_KEYS: Final[tuple[str, ...]] = (
    "neighbor_text_above",
    "neighbor_text_left",
    "neighbor_text_right",
    "neighbor_text_below",
)
"""The neighbour texts a reference records, in reading order (above, left, right, below)."""

_BUTTON_TYPES: Final[frozenset[str]] = frozenset({"submit", "button", "reset", "image", "file"})
_TAG_ROLES: Final[dict[str, str]] = {
    "a": "link",
    "button": "button",
    "select": "combobox",
    "textarea": "textbox",
    "img": "img",
    "svg": "img",
    "li": "listitem",
    "label": "label",
    "p": "paragraph",
    "td": "cell",
    "th": "columnheader",
    "tr": "row",
    "nav": "navigation",
    "ul": "list",
    "ol": "list",
    **{f"h{level}": "heading" for level in range(1, 7)},
}
"""Raw roles by tag (inputs are decided by their type); anything else is ``generic``. An
``<a>`` is a link even without ``href``: half the apps were extracted without links, so a
missing ``href`` is not the page's."""
_STEP: Final[re.Pattern[str]] = re.compile(r"^([^\[\]]+)(?:\[(\d+)\])?$")


def _lower(widget: Widget, key: str) -> str:
    value = widget.get(key)
    return value.lower() if value else ""


def role_of(widget: Widget) -> str:
    """The raw role of a widget (a spelling :func:`resolver.roles.canonical_role` knows).

    >>> role_of(Widget("w", {"tag": "INPUT", "type": "submit"}))
    'button'
    """
    tag = _lower(widget, "tag")
    kind = _lower(widget, "type")
    if _lower(widget, "is_button") == "yes":
        return "button"
    if tag == "input":
        if kind in _BUTTON_TYPES:
            return "button"
        if kind in ("checkbox", "radio"):
            return kind
        if kind == "search":
            return "searchbox"
        if kind == "range":
            return "slider"
        if kind == "hidden":
            return "generic"
        return "textbox"  # text, email, password, tel, url, number, no type ...
    return _TAG_ROLES.get(tag, "generic")


def name_of(widget: Widget) -> str:
    """The accessible name as a person reads it (whitespace collapsed; may be empty).

    >>> name_of(Widget("w", {"tag": "A", "text": "  Sign \\n in ", "title": "Log in"}))
    'Sign in'
    """
    form = _lower(widget, "tag") in FORM_TAGS
    keys = ["visible_text", "text", "alt", "title", "placeholder"]
    if form:
        keys.append("value")
    value_text = collapse(widget.get("value") or "")
    for key in keys:
        text = collapse(widget.get(key) or "")
        if not text:
            continue
        if key == "visible_text" and not form and text == value_text and not widget.get("text"):
            # Similo's visible text falls back on the DOM ``.value``: a list item's ordinal.
            continue
        return text
    return ""


def box_of(widget: Widget) -> BBox | None:
    """``[left, top, right, bottom]`` from ``x``, ``y``, ``width``, ``height`` (None when any
    is missing, not a number or a size is negative)."""
    x, y = widget.number("x"), widget.number("y")
    width, height = widget.number("width"), widget.number("height")
    if x is None or y is None or width is None or height is None or width < 0 or height < 0:
        return None
    return (x, y, x + width, y + height)


def _attributes(widget: Widget) -> dict[str, str]:
    """The descriptive attributes the widget has (values within the reference's limit)."""
    out: dict[str, str] = {}
    for key in ATTRIBUTE_NAMES:
        value = widget.get(key)
        if value and len(value) <= MAX_ATTRIBUTE:
            out[key] = value
    return out


def _classes(widget: Widget) -> tuple[str, ...]:
    tokens = dict.fromkeys((widget.get("class") or "").split())
    return tuple(t for t in tokens if len(t) <= MAX_CLASS_CHARS)[:MAX_CLASSES]


def _nearby(widget: Widget) -> tuple[str, ...]:
    texts: list[str] = []
    for key in NEIGHBOUR_KEYS:
        value = widget.get(key)
        text = collapse(value)[:MAX_NEARBY_CHARS].strip() if value else ""
        if text and text not in texts:
            texts.append(text)
    return tuple(texts[:MAX_NEARBY])


def own_properties(widget: Widget) -> tuple[Any, ...]:
    """What a widget is, apart from where it is: its role, name, tag, class tokens, link and
    descriptive attributes (not its xpath, box or neighbour texts)."""
    return (
        role_of(widget), name_of(widget), _lower(widget, "tag"),
        tuple((widget.get("class") or "").split()), widget.get("href") or "",
        _attributes(widget),
    )  # fmt: skip


def ref_of(widget: Widget) -> SemanticElementRef | None:
    """The reference a web recorder would have made of an old-version widget, or None when
    the model refuses it as invalid (counted as ``invalid``, not a crash)."""
    tag = _lower(widget, "tag")
    href = widget.get("href")
    try:
        return SemanticElementRef(
            role=role_of(widget),
            name=name_of(widget) or None,
            bbox=box_of(widget),
            tag=tag[:MAX_TAG] or None,
            classes=_classes(widget),
            href=href if href and len(href) <= MAX_HREF else None,
            attributes=_attributes(widget),
            nearby_text=_nearby(widget),
            xpath=widget.get("xpath"),
            dom_id=widget.get("id"),
        )
    except (InvalidReferenceError, ValueError, TypeError):
        return None


# --- the new version as a tree -----------------------------------------------------------------


def _steps(xpath: str) -> list[tuple[str, int]]:
    """``/html[1]/body[1]/div[3]`` -> ``[("html", 1), ("body", 1), ("div", 3)]`` (a step
    without an index is the first; an unreadable step keeps its text with index 0)."""
    steps: list[tuple[str, int]] = []
    for part in xpath.strip("/").split("/"):
        match = _STEP.match(part)
        if match:
            steps.append((match.group(1).lower(), int(match.group(2) or 1)))
        elif part:
            steps.append((part.lower(), 0))
    return steps


def _order_key(xpath: str) -> list[tuple[int, str]]:
    """Document order, as far as an xpath tells it: an ancestor before its descendants,
    siblings by position (siblings of different tags by position, then tag)."""
    return [(index, tag) for tag, index in _steps(xpath)]


def _node(index: int, widget: Widget, neighbours: bool = True) -> dict[str, Any]:
    node: dict[str, Any] = {
        "id": str(index),
        "role": role_of(widget),
        "name": name_of(widget),
        "tag": _lower(widget, "tag"),
        **{
            key: value
            for key, prop in (("dom_id", "id"), ("xpath", "xpath"))
            if (value := widget.get(prop))
        },
        "attributes": {
            **{k: v for k in ("class", "href") if (v := widget.get(k))},
            **_attributes(widget),
        },
        "children": [],
    }
    nearby = _nearby(widget) if neighbours else ()
    if nearby:
        node["nearby_text"] = list(nearby)
    box = box_of(widget)
    if box is not None:
        node["bbox"] = list(box)
    return node


def observation_tree(
    candidates: Sequence[Widget], *, nest: bool = True, neighbours: bool = True
) -> dict[str, Any]:
    """The candidates as a ``nested`` tree: a document root, one node per candidate with its
    index as id, in document order. With ``nest`` a candidate hangs under the nearest
    candidate whose xpath is an ancestor of its own (a link under its list item, a text
    under its link), else under the root; without it every candidate is a child of the
    root."""
    root: dict[str, Any] = {"id": ROOT_ID, "role": "document", "name": "", "children": []}
    nodes = [_node(i, w, neighbours) for i, w in enumerate(candidates)]
    paths = [w.get("xpath") or "" for w in candidates]
    by_path: dict[str, int] = {}
    for i, path in enumerate(paths):
        if path:
            by_path.setdefault(path.lower(), i)
    order = sorted(range(len(candidates)), key=lambda i: (_order_key(paths[i]), i))
    for i in order:
        parent = root
        if nest and paths[i]:
            steps = paths[i].rstrip("/").split("/")
            for cut in range(len(steps) - 1, 1, -1):
                j = by_path.get("/".join(steps[:cut]).lower())
                if j is not None and j != i:
                    parent = nodes[j]
                    break
        parent["children"].append(nodes[i])
    return root
