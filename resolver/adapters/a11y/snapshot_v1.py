"""SnapshotV1 and recording_v1 ``axtree_v1`` snapshots (the ``"snapshot"`` tree format).

Both are flat node tables with a root:

- SnapshotV1: ``{"ax_tree": {"root_id": "n1", "nodes": [...] | {id: node}}, ...}``
- axtree_v1: ``{"axtree_v1": {...}}``, or a mapping whose ``format``/``type``/``schema`` is
  ``"axtree_v1"`` with ``root_id`` and ``nodes`` beside it (as recording_v1 stores a snapshot).

A node is ``{"node_id", "role", "name", "value", "properties", "children"}`` where
``children`` lists child node IDs (nested child dicts are accepted too) and ``properties`` is a
dict (or a list of ``{"name", "value"}``) that may hold ``disabled``, ``focused``, ``hidden``,
``bbox`` ``[l, t, r, b]``, ``automation_id``, ``accessibility_id``, ``xpath``, ``css``.
A ``bbox`` directly on the node is read too, and so are a ``state`` dict (``disabled``,
``hidden``, ``focused``) and a ``domRef`` XPath, as :func:`resolver.snapshot.to_snapshot_v1`
writes them; the document's ``viewport`` (``{"width", "height"}`` or ``[w, h]``) and
``coord_space`` apply when the observation names none. A nested child dict without an ID gets
``<parent id>.<n>`` (``n`` counts such children in the snapshot). The ``xpath`` column
compares normalised (``XPATH_KEYS``), as the DOM's does.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any

from ...errors import InvalidObservationError
from ...geometry import CoordSpace
from ...table import CandidateTable, TableBuilder
from .._common import XPATH_KEYS, as_str, box_from_ltrb, flag_states, named_values
from . import SourceInput, TreeFormat, TreeInput

_TAGS = frozenset({"axtree_v1", "snapshot_v1", "snapshotv1"})


def _tree(data: Any) -> Mapping[str, Any] | None:
    """The mapping that holds ``nodes`` (and ``root_id``), or ``None``."""
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
    """The node's properties, from a dict or a list of ``{"name", "value"}``."""
    props = node.get("properties")
    if isinstance(props, Mapping):
        return dict(props)
    return named_values(props)


def _items(table: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """``(node_id, node)`` of every entry of ``nodes``, a list or a mapping."""
    raw_nodes = table.get("nodes")
    if isinstance(raw_nodes, Mapping):
        return [(as_str(k), v) for k, v in raw_nodes.items()]
    if isinstance(raw_nodes, list):
        return [
            (as_str(n.get("node_id", n.get("id"))), n) for n in raw_nodes if isinstance(n, Mapping)
        ]
    raise InvalidObservationError("snapshot 'nodes' must be a list or a mapping")


def _starts(
    table: Mapping[str, Any], items: list[tuple[str, Any]]
) -> tuple[dict[str, Mapping[str, Any]], list[str]]:
    """The nodes by ID, and where the walk starts: ``root_id``, else every node no one lists
    as a child; then every node in order (what is already visited is skipped)."""
    by_id: dict[str, Mapping[str, Any]] = {}
    order: list[str] = []
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
    return by_id, [*roots, *order]


def _walk(
    by_id: Mapping[str, Mapping[str, Any]], starts: list[str]
) -> Iterator[tuple[Mapping[str, Any], str, int]]:
    """Yield ``(node, node_id, parent_row)`` in pre-order, each node once (the caller appends
    one row for each, from row 0)."""
    seen: set[int] = set()
    synthetic = 0
    for start in starts:
        stack: list[tuple[Any, int, str]] = [(by_id.get(start), -1, start)]
        while stack:
            node, parent, node_id = stack.pop()
            if not isinstance(node, Mapping) or id(node) in seen:
                continue
            row = len(seen)
            seen.add(id(node))
            yield node, node_id, parent
            kids = node.get("children")
            if not isinstance(kids, list):
                continue
            for kid in reversed(kids):
                if isinstance(kid, Mapping):
                    synthetic += 1
                    kid_id = as_str(kid.get("node_id", kid.get("id"))) or f"{node_id}.{synthetic}"
                    stack.append((kid, row, kid_id))
                else:
                    kid_id = as_str(kid)
                    stack.append((by_id.get(kid_id), row, kid_id))


def build(tree: TreeInput, source: SourceInput) -> CandidateTable:
    """Walk from ``root_id`` (or every node no one lists as a child) in pre-order."""
    table = _tree(tree.data)
    if table is None:
        raise InvalidObservationError("not a SnapshotV1/axtree_v1 snapshot")
    items = _items(table)
    builder = TableBuilder(
        "a11y", "snapshot", id_columns=("automation_id", "accessibility_id", "xpath", "css"),
        max_rows=source.max_nodes,
    )  # fmt: skip
    builder.reserve(len(items))
    append = builder.rows.append
    for node, node_id, parent in _walk(*_starts(table, items)):
        props = _props(node)
        state = node.get("state")
        if isinstance(state, Mapping):
            props = {**state, **props}
        get = props.get
        append((
            node_id, as_str(node.get("role")), node.get("name"), parent,
            box_from_ltrb(node.get("bbox", get("bbox"))), as_str(node.get("value")),
            flag_states(props),
            as_str(get("automation_id")) or None, as_str(get("accessibility_id")) or None,
            as_str(get("xpath") or node.get("domRef")) or None, as_str(get("css")) or None,
        ))  # fmt: skip
    space, size = _geometry(tree.data)
    return builder.build(
        coord_space=space, screen_size=source.screen_size or size, id_keys=XPATH_KEYS
    )


def _geometry(data: Any) -> tuple[CoordSpace, tuple[float, float] | None]:
    """The document's coordinate space and viewport, where it states them."""
    if not isinstance(data, Mapping):
        return CoordSpace.UNKNOWN, None
    try:
        space = CoordSpace(data.get("coord_space") or "unknown")
    except ValueError:
        space = CoordSpace.UNKNOWN
    view = data.get("viewport")
    if isinstance(view, Mapping):
        view = (view.get("width"), view.get("height"))
    try:
        width, height = (float(v) for v in view)  # type: ignore[arg-type,union-attr]
    except (TypeError, ValueError, OverflowError):
        return space, None
    ok = math.isfinite(width) and math.isfinite(height) and width > 0 and height > 0
    return space, (width, height) if ok else None


FORMAT = TreeFormat("snapshot", detect, build)
