"""SnapshotV1 and recording_v1 ``axtree_v1`` snapshots.

Both are flat node tables with a root:

- SnapshotV1: ``{"ax_tree": {"root_id": "n1", "nodes": [...] | {id: node}}, ...}``
- axtree_v1: ``{"axtree_v1": {...}}``, or a mapping whose ``format``/``type``/``schema`` is
  ``"axtree_v1"`` with ``root_id`` and ``nodes`` beside it (as recording_v1 stores a snapshot).

A node is ``{"node_id", "role", "name", "value", "properties", "children"}`` where
``children`` lists child node IDs (nested child dicts are accepted too) and ``properties`` is a
dict (or a list of ``{"name", "value"}``) that may hold ``disabled``, ``focused``, ``hidden``,
``bbox`` ``[l, t, r, b]``, ``automation_id``, ``accessibility_id``, ``xpath``, ``css``.
A ``bbox`` directly on the node is read too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...errors import InvalidObservationError
from ...table import CandidateTable, TableBuilder
from .._common import as_bool, as_str, box_from_ltrb
from . import BuildContext, TreeFormat, TreeInput

_TAGS = frozenset({"axtree_v1", "snapshot_v1", "snapshotv1"})


def _tree(data: Any) -> Mapping[str, Any] | None:
    if not isinstance(data, Mapping):
        return None
    for key in ("ax_tree", "axtree_v1", "axtree"):
        inner = data.get(key)
        if isinstance(inner, Mapping) and "nodes" in inner:
            return inner
    tag = next((data.get(k) for k in ("format", "type", "schema") if k in data), None)
    if isinstance(tag, str) and tag.lower() in _TAGS and "nodes" in data:
        return data
    return None


def detect(tree: TreeInput) -> bool:
    """A mapping holding an ``ax_tree``/``axtree_v1`` node table (or tagged as one)."""
    return tree.kind == "json" and _tree(tree.data) is not None


def _props(node: Mapping[str, Any]) -> dict[str, Any]:
    props = node.get("properties")
    if isinstance(props, Mapping):
        return dict(props)
    out: dict[str, Any] = {}
    if isinstance(props, list):
        for item in props:
            if isinstance(item, Mapping) and isinstance(item.get("name"), str):
                value = item.get("value")
                out[item["name"]] = value.get("value") if isinstance(value, Mapping) else value
    return out


def _flag(props: Mapping[str, Any], positive: str, negative: str) -> bool | None:
    if positive in props:
        return as_bool(props[positive])
    if negative in props:
        value = as_bool(props[negative])
        return None if value is None else not value
    return None


def build(tree: TreeInput, context: BuildContext) -> CandidateTable:
    """Walk from ``root_id`` (or every node no one lists as a child) in pre-order."""
    table = _tree(tree.data)
    if table is None:
        raise InvalidObservationError("not a SnapshotV1/axtree_v1 snapshot")
    raw_nodes = table.get("nodes")
    by_id: dict[str, Mapping[str, Any]] = {}
    order: list[str] = []
    items: list[tuple[str, Any]]
    if isinstance(raw_nodes, Mapping):
        items = [(as_str(k), v) for k, v in raw_nodes.items()]
    elif isinstance(raw_nodes, list):
        items = [
            (as_str(n.get("node_id", n.get("id"))), n) for n in raw_nodes if isinstance(n, Mapping)
        ]
    else:
        raise InvalidObservationError("snapshot 'nodes' must be a list or a mapping")
    if len(items) > context.max_nodes:
        raise InvalidObservationError(
            f"the tree has more than {context.max_nodes} nodes; raise max_nodes to read it"
        )
    for node_id, node in items:
        if isinstance(node, Mapping) and node_id and node_id not in by_id:
            by_id[node_id] = node
            order.append(node_id)
    listed: set[str] = set()
    for node in by_id.values():
        kids = node.get("children")
        if isinstance(kids, list):
            listed.update(as_str(k) for k in kids if not isinstance(k, Mapping))
    root_id = as_str(table.get("root_id"))
    roots = [root_id] if root_id in by_id else [i for i in order if i not in listed]
    builder = TableBuilder(
        "a11y", "snapshot",
        id_columns=("automation_id", "accessibility_id", "xpath", "css"),
        max_rows=context.max_nodes,
    )  # fmt: skip
    seen: set[int] = set()
    synthetic = 0
    for start in [*roots, *order]:
        stack: list[tuple[Any, int, str]] = [(by_id.get(start), -1, start)]
        while stack:
            node, parent, node_id = stack.pop()
            if not isinstance(node, Mapping) or id(node) in seen:
                continue
            seen.add(id(node))
            props = _props(node)
            bbox = node.get("bbox", props.get("bbox"))
            row = builder.add(
                node_id,
                raw_role=as_str(node.get("role")),
                name=as_str(node.get("name")),
                parent=parent,
                bbox=box_from_ltrb(bbox),
                value=as_str(node.get("value")),
                enabled=_flag(props, "enabled", "disabled"),
                visible=_flag(props, "visible", "hidden"),
                focused=as_bool(props.get("focused")),
                automation_id=as_str(props.get("automation_id")) or None,
                accessibility_id=as_str(props.get("accessibility_id")) or None,
                xpath=as_str(props.get("xpath")) or None,
                css=as_str(props.get("css")) or None,
            )
            kids = node.get("children")
            if isinstance(kids, list):
                for kid in reversed(kids):
                    if isinstance(kid, Mapping):
                        synthetic += 1
                        kid_id = (
                            as_str(kid.get("node_id", kid.get("id"))) or f"{node_id}.{synthetic}"
                        )
                        stack.append((kid, row, kid_id))
                    else:
                        kid_id = as_str(kid)
                        stack.append((by_id.get(kid_id), row, kid_id))
    return builder.build(screen_size=context.screen_size)


FORMAT = TreeFormat("snapshot", detect, build)
