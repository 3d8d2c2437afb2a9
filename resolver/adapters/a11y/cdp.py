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
from .._common import as_str
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


def _ax_value(field: Any) -> str:
    """``{"type": ..., "value": v}`` -> ``v`` as a string (CDP wraps every value)."""
    if type(field) is dict:
        field = field.get("value")
    if type(field) is str:
        return field
    return as_str(field)


def _states(props: Any) -> tuple[int, int, int]:
    """``(enabled, visible, focused)`` as 1/0/-1 from CDP's property list."""
    enabled = visible = focused = -1
    if type(props) is list:
        for prop in props:
            if type(prop) is not dict:
                continue
            name = prop.get("name")
            if name not in _STATE_PROPS:
                continue
            value = prop.get("value")
            flag = bool(value.get("value") if type(value) is dict else value)
            if name == "disabled":
                enabled = 0 if flag else 1
            elif name == "focused":
                focused = int(flag)
            else:
                visible = 0 if flag else 1
    return (enabled, visible, focused)


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
    by_id: dict[str, dict[str, Any]] = {}
    for node in nodes:
        if type(node) is not dict:
            continue
        node_id = node.get("nodeId")
        if type(node_id) is not str:
            node_id = as_str(node_id)
        if node_id and node_id not in by_id:
            by_id[node_id] = node
    ids: list[str] = []
    raw_roles: list[str] = []
    names: list[str] = []
    parents: list[int] = []
    boxes: list[Any] = []
    values: list[str] = []
    states: list[tuple[int, int, int]] = []
    backends: list[str | None] = []
    no_state = (-1, -1, -1)
    visited: set[str] = set()
    roots = [
        node_id
        for node_id, node in by_id.items()
        if (parent := node.get("parentId")) is None
        or (parent if type(parent) is str else as_str(parent)) not in by_id
    ] or list(by_id)[:1]
    # After the roots, any node never reached (an orphan, or a cycle with no root) starts
    # its own walk, so nothing is lost and nothing is visited twice.
    for start in [*roots, *by_id]:
        if start in visited:
            continue
        stack: list[tuple[str, int]] = [(start, -1)]
        push = stack.append
        while stack:
            node_id, parent_row = stack.pop()
            if node_id in visited:
                continue
            visited.add(node_id)
            node = by_id[node_id]
            field = node.get("role")
            raw_role = field.get("value") if type(field) is dict else field
            if type(raw_role) is not str:
                raw_role = as_str(raw_role)
            row = parent_row
            if not node.get("ignored") and raw_role not in _SKIP_ROLES:
                row = len(ids)
                ids.append(node_id)
                raw_roles.append(raw_role)
                field = node.get("name")
                name = field.get("value") if type(field) is dict else field
                names.append(name if type(name) is str else as_str(name))
                parents.append(parent_row)
                boxes.append(node.get("bbox"))
                values.append(_ax_value(node["value"]) if "value" in node else "")
                props = node.get("properties")
                states.append(_states(props) if props else no_state)
                backend = node.get("backendDOMNodeId")
                backends.append(None if backend is None else str(backend))
            kids = node.get("childIds")
            if kids:
                if type(kids) is not list:
                    continue
                for kid in reversed(kids):
                    if type(kid) is not str:
                        kid = as_str(kid)
                    if kid in by_id:
                        push((kid, row))
    builder = TableBuilder(
        "a11y", "cdp", platform="cdp", id_columns=("backend_node_id",),
        max_rows=context.max_nodes,
    )  # fmt: skip
    builder.extend(
        ids=ids,
        raw_roles=raw_roles,
        names=names,
        parents=parents,
        boxes=boxes,
        values=values,
        states=states,
        platform_ids={"backend_node_id": backends},
    )
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
