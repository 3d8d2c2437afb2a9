"""Chrome DevTools Protocol ``Accessibility.getFullAXTree`` node lists.

Input: the ``nodes`` list, or ``{"nodes": [...]}`` as the command returns it. Each node has
``nodeId``, ``role``/``name``/``value`` as ``{"type", "value"}`` objects, ``properties`` (a list
of ``{"name", "value": {"value"}}``), ``childIds``/``parentId``, ``ignored`` and
``backendDOMNodeId``. CDP itself carries no geometry; a capturer may add ``"bbox": [left,
top, right, bottom]`` (CSS px, from ``DOM.getBoxModel``) to each node, and it is used when there.

Ignored nodes produce no row (their children attach to the nearest kept ancestor), and neither
do ``InlineTextBox`` nodes, which only repeat their ``StaticText`` parent. Rows are emitted in
pre-order from the roots; a cycle in ``childIds`` is cut, never followed twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...errors import InvalidObservationError
from ...table import CandidateTable, TableBuilder
from .._common import as_str, box_from_ltrb
from . import BuildContext, TreeFormat, TreeInput

_SKIP_ROLES = frozenset({"InlineTextBox"})
_STATE_PROPS = frozenset({"disabled", "focused", "hidden"})


def _nodes(tree: TreeInput) -> Sequence[Any] | None:
    data = tree.data
    if isinstance(data, Mapping):
        data = data.get("nodes")
    if isinstance(data, list):
        return data
    return None


def detect(tree: TreeInput) -> bool:
    """A list of dicts with ``nodeId`` and a ``role`` object."""
    if tree.kind != "json":
        return False
    nodes = _nodes(tree)
    if not nodes:
        return False
    first = nodes[0]
    return (
        isinstance(first, Mapping)
        and "nodeId" in first
        and (isinstance(first.get("role"), Mapping) or "ignored" in first)
    )


def _ax_value(node: Mapping[str, Any], key: str) -> str:
    field = node.get(key)
    if isinstance(field, Mapping):
        return as_str(field.get("value"))
    return as_str(field)


def _states(props: Any) -> tuple[bool | None, bool | None, bool | None]:
    enabled: bool | None = None
    focused: bool | None = None
    visible: bool | None = None
    if isinstance(props, list):
        for prop in props:
            if not isinstance(prop, Mapping):
                continue
            name = prop.get("name")
            if name not in _STATE_PROPS:
                continue
            value = prop.get("value")
            flag = value.get("value") if isinstance(value, Mapping) else value
            if name == "disabled":
                enabled = not bool(flag)
            elif name == "focused":
                focused = bool(flag)
            else:
                visible = not bool(flag)
    return enabled, focused, visible


def build(tree: TreeInput, context: BuildContext) -> CandidateTable:
    """Walk from the roots over ``childIds``; one row per kept node."""
    nodes = _nodes(tree)
    if nodes is None:
        raise InvalidObservationError("a CDP AX tree needs a list of nodes")
    if len(nodes) > context.max_nodes:
        raise InvalidObservationError(
            f"the tree has more than {context.max_nodes} nodes; raise max_nodes to read it",
            details={"max_nodes": context.max_nodes},
        )
    by_id: dict[str, Mapping[str, Any]] = {}
    order: list[str] = []
    for node in nodes:
        if not isinstance(node, Mapping):
            continue
        node_id = as_str(node.get("nodeId"))
        if node_id and node_id not in by_id:
            by_id[node_id] = node
            order.append(node_id)
    builder = TableBuilder(
        "a11y", "cdp", platform="cdp", id_columns=("backend_node_id", "dom_id"),
        max_rows=context.max_nodes,
    )  # fmt: skip
    visited: set[str] = set()
    roots = [i for i in order if as_str(by_id[i].get("parentId")) not in by_id] or order[:1]
    # After the roots, any node never reached (an orphan, or a cycle with no root) starts
    # its own walk, so nothing is lost and nothing is visited twice.
    for start in [*roots, *order]:
        if start in visited:
            continue
        stack: list[tuple[str, int]] = [(start, -1)]
        while stack:
            node_id, parent_row = stack.pop()
            if node_id in visited:
                continue
            visited.add(node_id)
            node = by_id[node_id]
            raw_role = _ax_value(node, "role")
            row = parent_row
            if not node.get("ignored") and raw_role not in _SKIP_ROLES:
                enabled, focused, visible = _states(node.get("properties"))
                backend = node.get("backendDOMNodeId")
                row = builder.add(
                    node_id,
                    raw_role=raw_role,
                    name=_ax_value(node, "name"),
                    parent=parent_row,
                    bbox=box_from_ltrb(node.get("bbox")) if "bbox" in node else None,
                    value=_ax_value(node, "value"),
                    enabled=enabled,
                    visible=visible,
                    focused=focused,
                    backend_node_id=None if backend is None else as_str(backend),
                )
            kids = node.get("childIds")
            if isinstance(kids, list):
                for kid in reversed(kids):
                    kid_id = as_str(kid)
                    if kid_id in by_id and kid_id not in visited:
                        stack.append((kid_id, row))
    screen = context.screen_size
    data = tree.data
    if screen is None and isinstance(data, Mapping):
        viewport = data.get("viewport")
        if isinstance(viewport, list) and len(viewport) == 2:
            try:
                screen = (float(viewport[0]), float(viewport[1]))
            except (TypeError, ValueError):
                screen = None
    return builder.build(coord_space="css_px", screen_size=screen)


FORMAT = TreeFormat("cdp", detect, build)
