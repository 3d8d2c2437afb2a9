"""BrowserGym observations: ``axtree_object`` with ``extra_element_properties``, or the
flattened AXTree text.

Input, as the ``accessibility_tree`` value:

- BrowserGym's observation dict itself (other keys are ignored):
  ``{"axtree_object": {"nodes": [...]}, "extra_element_properties": {bid: {"visibility",
  "bbox": [x, y, w, h] | None, "clickable", "set_of_marks"}}, "focused_element_bid": bid}``;
  or the ``axtree_object`` alone (``{"nodes": [...]}`` whose nodes carry ``browsergym_id``);
- the flattened text (``flatten_axtree_to_str``): ``"\\t" * depth + "[bid] role 'name'"``
  then ``", attr"`` / ``", attr=value"`` items (``visible``, ``clickable``, ``focused``,
  ``disabled=True``, ``value='...'``, ``box="(l,t,r,b)"``), alone or as
  ``{"axtree_txt": <text>, "extra_element_properties": {...}}``.

The nodes are raw CDP ``Accessibility.getFullAXTree`` nodes: ignored nodes and
``InlineTextBox`` give no row (their children move up). Boxes are main-frame viewport CSS
pixels times BrowserGym's scale factor, i.e. screenshot pixels (``coord_space="css_px"``);
``bbox: None`` means not rendered. ``visible`` is ``visibility >= 0.5`` (in the text: the
``visible`` tag, when the text uses it). The bid fills ``bid`` and is the executor ID
(``a11y:a12``); a link's ``url`` property fills ``href`` (web evidence); a node without one
(text nodes, the root) gets ``a11y:#<nodeId>`` from the JSON or ``a11y:#<line path>`` from the
text, which no executor mistakes for a bid.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from ...errors import InvalidObservationError
from ...geometry import CoordSpace
from ...limits import Limits
from ...table import CandidateTable, TableBuilder
from .._common import as_str, box_from_ltrb, box_from_xywh, named_values
from . import SourceInput, TreeFormat, TreeInput
from ._walk import Outline
from ._webtext import dialect, parse_lines
from .cdp import kept_nodes

_TEXT_KEYS: Final[tuple[str, ...]] = ("axtree_txt", "axtree_text", "text")
_BOX: Final[re.Pattern[str]] = re.compile(r'\bbox="\(([^)]*)\)"')
_VALUE: Final[re.Pattern[str]] = re.compile(r"\bvalue=(['\"])(.*?)\1(?:,|$)")
_FOCUSED: Final[re.Pattern[str]] = re.compile(r",\s*focused(?:=True)?\s*(?:,|$)")
_VISIBLE: Final[re.Pattern[str]] = re.compile(r",\s*visible\s*(?:,|$)")
_SCAN_NODES: Final[int] = 32
VISIBLE_AT: Final[float] = 0.5


def _unpack(data: Any) -> tuple[Sequence[Any] | None, str | None, Mapping[str, Any], str]:
    """(nodes, text, extra_element_properties, focused bid) from any accepted shape."""
    if not isinstance(data, Mapping):
        return None, data if isinstance(data, str) else None, {}, ""
    extra = data.get("extra_element_properties")
    extra = extra if isinstance(extra, Mapping) else {}
    focused = as_str(data.get("focused_element_bid"))
    axtree = data.get("axtree_object", data)
    nodes = axtree.get("nodes") if isinstance(axtree, Mapping) else None
    if isinstance(nodes, list):
        return nodes, None, extra, focused
    text = next((data[k] for k in _TEXT_KEYS if isinstance(data.get(k), str)), None)
    return None, text, extra, focused


def detect(tree: TreeInput) -> bool:
    """BrowserGym's observation dict, an ``axtree_object`` with bids, or its flattened text."""
    if tree.kind == "text":
        return isinstance(tree.data, str) and dialect(tree.data) == "browsergym"
    data = tree.data
    if tree.kind != "json" or not isinstance(data, Mapping):
        return False
    if "axtree_object" in data:
        return True
    nodes, text, extra, _ = _unpack(data)
    if nodes is not None:
        return any(isinstance(n, Mapping) and "browsergym_id" in n for n in nodes[:_SCAN_NODES])
    return text is not None and bool(extra) and dialect(text) == "browsergym"


def _value(node: Mapping[str, Any], key: str) -> str:
    """A CDP ``{"type", "value"}`` field (or a bare value) as a string."""
    field = node.get(key)
    if type(field) is dict:
        field = field.get("value")
    return field if type(field) is str else as_str(field)


def _extra(extra: Mapping[str, Any], bid: str) -> tuple[Any, bool | None]:
    """(box, visible) for a bid from ``extra_element_properties``."""
    info = extra.get(bid) if bid else None
    if type(info) is not dict:
        return None, None
    visibility = info.get("visibility")
    visible = None
    if type(visibility) is float or type(visibility) is int:
        visible = visibility >= VISIBLE_AT
    bbox = info.get("bbox")
    if type(bbox) is list and len(bbox) == 4:
        try:
            x, y, w, h = bbox
            return (x + 0.0, y + 0.0, x + w + 0.0, y + h + 0.0), visible
        except (TypeError, OverflowError):  # not plain numbers: the general reader decides
            pass
    return box_from_xywh(bbox), visible


def _node_rows(
    nodes: Sequence[Any],
    extra: Mapping[str, Any],
    focused_bid: str,
    builder: TableBuilder,
    limits: Limits,
) -> None:
    """One row per kept AX node (see :func:`.cdp.kept_nodes`)."""
    builder.reserve(len(nodes))
    append = builder.rows.append
    for node_id, node, role, parent in kept_nodes(nodes, limits):
        bid = node.get("browsergym_id")
        bid = bid if type(bid) is str else as_str(bid)
        props = named_values(node.get("properties")) if node.get("properties") else {}
        box, visible = _extra(extra, bid)
        if props.get("hidden") is True:
            visible = False
        focused = bool(props.get("focused")) or (bool(bid) and bid == focused_bid)
        disabled = props.get("disabled")
        states = (
            -1 if type(disabled) is not bool else int(not disabled),
            -1 if visible is None else int(visible),
            int(focused),
        )
        backend = node.get("backendDOMNodeId")
        url = props.get("url")
        append((
            bid or f"#{node_id}", role, _value(node, "name"), parent, box, _value(node, "value"),
            states, bid or None, None if backend is None else str(backend),
            url if type(url) is str and url else None,
        ))  # fmt: skip


def _text_rows(text: str, extra: Mapping[str, Any], builder: TableBuilder) -> None:
    """One row per line of the flattened AXTree text; parents from indentation."""
    uses_visible = _VISIBLE.search(text) is not None
    outline = Outline(builder)
    append = builder.rows.append
    for line in parse_lines(text):
        parent, path = outline.place(line.indent)
        rest = line.rest
        box, visible = _extra(extra, line.node_id)
        if box is None and "box=" in rest:
            inline_box = _BOX.search(rest)
            box = box_from_ltrb(inline_box.group(1).split(",")) if inline_box else None
        if visible is None and uses_visible:
            visible = "visible" in rest and _VISIBLE.search(rest) is not None
        value = _VALUE.search(rest) if "value=" in rest else None
        states = (
            0 if "disabled=True" in rest else -1,
            -1 if visible is None else int(visible),
            1 if "focused" in rest and _FOCUSED.search(rest) else -1,
        )
        append((
            line.node_id or f"#{path}", line.role, line.name, parent, box,
            value.group(2) if value else "", states, line.node_id or None, None, None,
        ))  # fmt: skip


def build(tree: TreeInput, source: SourceInput) -> CandidateTable:
    """Rows from the AX nodes (JSON) or from the text lines."""
    nodes, text, extra, focused_bid = _unpack(tree.data)
    builder = TableBuilder(
        "a11y", "browsergym", platform="cdp", id_columns=("bid", "backend_node_id", "href"),
        max_rows=source.max_nodes,
    )  # fmt: skip
    if nodes is not None:
        _node_rows(nodes, extra, focused_bid, builder, source.limits)
    elif text is not None:
        _text_rows(text, extra, builder)
    else:
        raise InvalidObservationError(
            "a BrowserGym observation needs 'axtree_object' (with 'nodes') or the AXTree text"
        )
    return builder.build(coord_space=CoordSpace.CSS_PX, screen_size=source.screen_size)


FORMAT = TreeFormat("browsergym", detect, build)
