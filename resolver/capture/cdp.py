"""Chrome DevTools Protocol nodes as references: an ``Accessibility`` node (from
``getFullAXTree`` or ``getPartialAXTree``), optionally with its DOM node and box."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ..errors import InvalidReferenceError
from ..geometry import CoordSpace
from ..models import BBox, SemanticElementRef
from ._shim import (
    attributes_of,
    box_ltrb,
    classes_of,
    container_entry,
    flag,
    make_ref,
    panel_from,
    path_of,
    text,
)

__all__ = ["from_cdp_node"]

_TEST_IDS: Final[tuple[str, ...]] = ("data-testid", "data-test-id", "data-test", "data-qa")


def _value(field: Any) -> Any:
    """CDP wraps values as ``{"type": ..., "value": v}``."""
    return field.get("value") if isinstance(field, Mapping) else field


def _properties(node: Mapping[str, Any]) -> dict[str, Any]:
    props = node.get("properties")
    out: dict[str, Any] = {}
    if isinstance(props, list):
        for prop in props:
            if isinstance(prop, Mapping) and isinstance(prop.get("name"), str):
                out[prop["name"]] = _value(prop.get("value"))
    return out


def cdp_box(box: Any) -> BBox | None:
    """``[l, t, r, b]``, a quad (8 numbers), or a ``DOM.getBoxModel`` result (its border
    quad) as ``(l, t, r, b)``."""
    if isinstance(box, Mapping):
        box = box.get("model", box)
        box = box.get("border", box.get("content")) if isinstance(box, Mapping) else None
    if isinstance(box, Sequence) and not isinstance(box, str) and len(box) == 8:
        xs, ys = box[0::2], box[1::2]
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in box):
            return box_ltrb([min(xs), min(ys), max(xs), max(ys)])
        return None
    return box_ltrb(box)


def _dom_fields(dom_node: Any) -> dict[str, Any]:
    """Tag, id, classes, link target, attributes and test ID from a CDP DOM node."""
    if not isinstance(dom_node, Mapping):
        return {}
    flat = dom_node.get("attributes")
    attrs = dict(zip(flat[0::2], flat[1::2], strict=False)) if isinstance(flat, list) else {}
    attrs = {k: v for k, v in attrs.items() if isinstance(k, str) and isinstance(v, str)}
    test_id = next((attrs[k] for k in _TEST_IDS if attrs.get(k)), None)
    return {
        "tag": text(dom_node.get("localName") or dom_node.get("nodeName"), 64),
        "dom_id": text(attrs.get("id")),
        "classes": classes_of(attrs.get("class", "")),
        "href": text(attrs.get("href"), 4096),
        "attributes": attributes_of(attrs),
        "test_id": text(test_id),
    }


def _path(ancestors: Sequence[Any]) -> tuple[str, ...]:
    return path_of(
        container_entry(_value(a.get("role")), _value(a.get("name")), "cdp")
        for a in ancestors
        if isinstance(a, Mapping) and not a.get("ignored")
    )


def _panel(ancestors: Sequence[Any]) -> tuple[str, str] | None:
    return panel_from(
        (_value(a.get("role")), _value(a.get("name")))
        for a in ancestors
        if isinstance(a, Mapping) and not a.get("ignored")
    )


def from_cdp_node(
    node: Any,
    box: Any = None,
    *,
    ancestors: Sequence[Any] = (),
    dom_node: Any = None,
    xpath: str | None = None,
    viewport: tuple[int, int] | None = None,
) -> SemanticElementRef:
    """The reference for one CDP accessibility node.

    Parameters
    ----------
    node:
        An AX node: ``role``/``name`` as ``{"type", "value"}`` objects, ``properties``
        (``disabled``, ``focused``, a link's ``url``), and optionally a capturer's ``bbox``.
    box:
        The node's box when ``node`` has none: ``[l, t, r, b]`` in CSS px, an 8-number quad,
        or a ``DOM.getBoxModel`` result.
    ancestors:
        The node's AX ancestors, outermost first (``getPartialAXTree`` with
        ``fetchRelatives`` returns them); the container path is built from them by the rule
        the tables use.
    dom_node:
        The element's DOM node (``DOM.describeNode``): tag, ``id``, classes, ``href``,
        attributes and test ID are recorded from it.
    xpath:
        The element's absolute XPath, when the caller knows it.
    viewport:
        ``(width, height)`` of the viewport the box is measured in.

    Raises
    ------
    InvalidReferenceError
        ``node`` is no mapping or says nothing about an element.
    """
    if not isinstance(node, Mapping):
        raise InvalidReferenceError(
            f"from_cdp_node: a CDP node is a mapping, got {type(node).__name__}"
        )
    props = _properties(node)
    disabled = flag(props.get("disabled"))
    fields = {"href": text(props.get("url"), 4096)}
    fields.update({k: v for k, v in _dom_fields(dom_node).items() if v})
    path = _path(ancestors)
    return make_ref(
        "from_cdp_node",
        role=text(_value(node.get("role")), 128),
        name=text(_value(node.get("name"))),
        bbox=cdp_box(box if box is not None else node.get("bbox")),
        container_path=path,
        panel=_panel(ancestors),
        enabled=None if disabled is None else not disabled,
        focused=flag(props.get("focused")),
        xpath=text(xpath),
        screen_size=viewport,
        coord_space=CoordSpace.CSS_PX,
        **fields,
    )
