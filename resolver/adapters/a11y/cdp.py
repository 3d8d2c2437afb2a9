"""Chrome DevTools Protocol ``Accessibility.getFullAXTree`` node lists.

Input: the ``nodes`` list, or ``{"nodes": [...]}`` as the command returns it. Each node has
``nodeId``, ``role``/``name``/``value`` as ``{"type", "value"}`` objects, ``properties`` (a list
of ``{"name", "value": {"value"}}``), ``childIds``/``parentId``, ``ignored`` and
``backendDOMNodeId``. CDP itself carries no geometry; a capturer may add ``"bbox": [left,
top, right, bottom]`` (CSS px, from ``DOM.getBoxModel``) to each node, and it is used when there.
A link's ``url`` property fills the ``href`` column (web evidence, :mod:`resolver.web`).

Ignored nodes produce no row (their children attach to the nearest kept ancestor), and neither
do ``InlineTextBox`` nodes, which only repeat their ``StaticText`` parent. Rows are emitted in
pre-order from the roots; a cycle in ``childIds`` is cut, never followed twice.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from itertools import repeat
from operator import is_not, truth
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ...errors import InvalidObservationError
from ...geometry import CoordSpace
from ...limits import DEFAULT_LIMITS, Limits
from ...table import NO_STATE, CandidateTable, LazyColumns, TableBuilder
from .._common import as_str
from . import SourceInput, TreeFormat, TreeInput
from ._forest import IdLookup, forest_rows

__all__ = ["FORMAT", "kept_nodes"]

_SKIP_ROLES = frozenset({"InlineTextBox"})
_STATE_PROPS = frozenset({"disabled", "focused", "hidden"})


def _nodes(tree: TreeInput) -> Sequence[Any] | None:
    """The node list, bare or under ``nodes``; ``None`` for any other shape."""
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


def link_url(props: Any) -> str | None:
    """The ``url`` property of a link node (the resolved ``href``), or ``None``."""
    if type(props) is list:
        for prop in props:
            if type(prop) is dict and prop.get("name") == "url":
                value = prop.get("value")
                url = value.get("value") if type(value) is dict else value
                return url if type(url) is str and url else None
    return None


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


def dict_ids(nodes: Sequence[Any]) -> list[str] | None:
    """Every node's ``nodeId`` when every node is a dict with a string ID (as Chrome gives
    them: read in C), else ``None``."""
    if not nodes or set(map(type, nodes)) != {dict}:
        return None
    ids: list[Any] = list(map(dict.get, nodes, repeat("nodeId")))
    return ids if set(map(type, ids)) == {str} else None


def _by_id(nodes: Sequence[Any], ids: list[str] | None) -> dict[str, Mapping[str, Any]]:
    """The nodes by ``nodeId`` (the first node of each ID; entries that are no dict dropped;
    ``ids``: :func:`dict_ids` of the nodes)."""
    by_id: dict[str, Mapping[str, Any]] = {}
    if ids is not None:
        deque(map(by_id.setdefault, ids, nodes), maxlen=0)
        by_id.pop("", None)
        return by_id
    for node in nodes:
        if type(node) is dict or isinstance(node, Mapping):
            node_id = node.get("nodeId")
            if type(node_id) is not str:
                node_id = as_str(node_id)
            if node_id and node_id not in by_id:
                by_id[node_id] = node
    return by_id


def _starts(
    by_id: dict[str, Mapping[str, Any]], pending: dict[str, Mapping[str, Any]]
) -> Iterator[str]:
    """Where the walk starts, read as it goes: the roots (a node that names no parent, or
    one the list does not hold) in list order, then the other nodes not reached by then, in
    list order. A node is asked for its parent only while it is still ``pending``, so a
    list whose first root reaches every node reads no other node's parent."""
    later: list[str] = []
    for start, node in by_id.items():
        if not pending:
            return
        if start not in pending:
            continue
        parent = node.get("parentId")
        if parent is not None:
            if type(parent) is not str:
                parent = as_str(parent)
            if parent in by_id:
                later.append(start)
                continue
        yield start
    yield from later


def kept_nodes(
    nodes: Sequence[Any], limits: Limits = DEFAULT_LIMITS, ids: list[str] | None = None
) -> list[tuple[str, Mapping[str, Any], str, int]]:
    """``(node_id, node, raw_role, parent_row)`` for every node that makes a row, in
    pre-order over ``childIds`` (the caller appends exactly one row for each, from row 0).

    Ignored and ``InlineTextBox`` nodes make no row; their children hang on the nearest kept
    ancestor. The walk starts at the roots (no ``parentId``, or an unknown one), then at any
    node never reached (an orphan, or a cycle with no root); no node is visited twice (a
    node leaves ``pending`` when it is reached; a child the list does not hold is never
    pending). Rows nested deeper than ``limits.max_depth`` are refused as they are met.
    ``ids`` is :func:`dict_ids` of the nodes when the caller read it already.
    """
    return _walk(nodes, limits, ids, False)


def _walk(
    nodes: Sequence[Any], limits: Limits, ids: list[str] | None, rows: bool
) -> list[tuple[Any, ...]]:
    """:func:`kept_nodes`, or (``rows``) the table's rows themselves, each read while its
    node is at hand: ``(id, raw role, name, parent row, box, value, states, backend node
    ID, link URL)``."""
    ids = dict_ids(nodes) if ids is None else ids
    by_id = _by_id(nodes, ids)
    pending = dict(by_id)
    out: list[tuple[Any, ...]] = []
    emit, take = out.append, pending.pop
    max_depth = limits.max_depth
    for start in _starts(by_id, pending):
        if start not in pending:
            continue
        stack: list[tuple[str, int, int]] = [(start, -1, 0)]
        push, pop = stack.append, stack.pop
        while stack:
            node_id, row, depth = pop()
            node = take(node_id, None)
            if node is None:
                continue
            field = node.get("role")
            raw_role = field.get("value") if type(field) is dict else field
            if type(raw_role) is not str:
                raw_role = as_str(raw_role)
            if not node.get("ignored") and raw_role not in _SKIP_ROLES:
                depth += 1
                if depth > max_depth:
                    raise limits.refuse("max_depth", None, "the AX tree")
                if rows:  # (the table's row: read while the node is at hand)
                    field = node.get("name")
                    props = node.get("properties")
                    backend = node.get("backendDOMNodeId")
                    emit((
                        node_id, raw_role, field.get("value") if type(field) is dict else field,
                        row, node.get("bbox"), _ax_value(node["value"]) if "value" in node else "",
                        _states(props) if props else NO_STATE,
                        None if backend is None else str(backend),
                        link_url(props) if props and raw_role == "link" else None,
                    ))  # fmt: skip
                else:
                    emit((node_id, node, raw_role, row))
                row = len(out) - 1
            kids = node.get("childIds")
            if kids and type(kids) is list:
                for kid in reversed(kids):
                    push((kid if type(kid) is str else as_str(kid), row, depth))
    return out


def _viewport(data: Any) -> tuple[float, float] | None:
    """The screen size a capturer stored as ``"viewport": [width, height]``."""
    viewport = data.get("viewport") if isinstance(data, Mapping) else None
    if isinstance(viewport, list) and len(viewport) == 2:
        try:
            return (float(viewport[0]), float(viewport[1]))
        except (TypeError, ValueError, OverflowError):
            return None
    return None


def build(tree: TreeInput, source: SourceInput) -> CandidateTable:
    """One row per kept node (see :func:`kept_nodes`)."""
    nodes = _nodes(tree)
    if nodes is None:
        raise InvalidObservationError("a CDP AX tree needs a list of nodes")
    builder = TableBuilder(
        "a11y", "cdp", platform="cdp", id_columns=_ID_COLUMNS, max_rows=source.max_nodes
    )
    builder.reserve(len(nodes))
    ids = dict_ids(nodes)
    later = _fast_columns(nodes, ids, builder, source.limits)
    if later is None:
        builder.rows.extend(_walk(nodes, source.limits, ids, True))
    screen = source.screen_size or _viewport(tree.data)
    table = builder.build(coord_space=CoordSpace.CSS_PX, screen_size=screen)
    if later is None:
        return table
    return replace(table, platform_ids=LazyColumns({}, _ID_COLUMNS, later))


def _raw_roles(nodes: Sequence[Any]) -> list[str]:
    """Every node's raw role as text."""
    raw: list[Any] = _ax_field(list(map(dict.get, nodes, repeat("role"))))
    if set(map(type, raw)) - {str}:
        raw = [r if type(r) is str else as_str(r) for r in raw]
    return raw


_ID_COLUMNS: Final = ("backend_node_id", "href")
"""The platform-ID columns of a CDP table."""
MIN_COLUMN_NODES = 4096
"""Shorter lists are walked node by node: reading by columns costs a few array operations
per tree level, which only pays off over some thousands of nodes."""


def _fast_columns(
    nodes: Sequence[Any], ids: list[str] | None, builder: TableBuilder, limits: Limits
) -> Callable[[], dict[str, tuple[str | None, ...]]] | None:
    """Fill ``builder`` by columns when the list is a well-formed forest of plain dicts with
    string IDs (``ids``: :func:`dict_ids` of the nodes; :func:`._forest.forest_rows`) of
    at least :data:`MIN_COLUMN_NODES` nodes; ``None`` (nothing filled) otherwise.

    The platform-ID columns (backend node IDs, link URLs), which only a reference that
    recorded one reads, are left empty in ``builder``: the function returned reads them,
    for the table's :class:`~resolver.table.LazyColumns`, the first time one is asked for."""
    if len(nodes) < MIN_COLUMN_NODES or ids is None:
        return None
    lookup = IdLookup(ids)
    if not lookup.unique:  # (Chrome lists some inline text boxes twice: walked)
        return None
    raw = _raw_roles(nodes)
    n = len(nodes)
    kept = ~np.fromiter(map(truth, map(dict.get, nodes, repeat("ignored"))), bool, count=n)
    kept &= ~np.fromiter(map(_SKIP_ROLES.__contains__, raw), bool, count=n)
    found = forest_rows(nodes, ids, kept, limits, lookup)
    if found is None:
        return None
    order, parents = found
    rows = [nodes[i] for i in order]
    roles = [raw[i] for i in order]
    props = _field(rows, "properties")
    unread: list[None] = [None] * len(rows)
    builder.set_columns(
        [ids[i] for i in order], roles, _ax_field(_field(rows, "name")), parents,
        _field(rows, "bbox"), _values(rows), _state_array(props), unread, unread,
    )  # fmt: skip

    def platform_ids() -> dict[str, tuple[str | None, ...]]:
        return {
            "backend_node_id": tuple(_backends(rows)),
            "href": tuple(_links(props, roles)),
        }

    return platform_ids


def _field(rows: list[Any], key: str) -> list[Any]:
    return list(map(dict.get, rows, repeat(key)))


def _given(column: list[Any]) -> npt.NDArray[np.bool_]:
    """Where a column holds something other than ``None``."""
    return np.fromiter(map(is_not, column, repeat(None)), bool, count=len(column))


def _ax_field(fields: list[Any]) -> list[Any]:
    """``{"value": v}`` fields as ``v`` (other fields as they are)."""
    if set(map(type, fields)) == {dict}:
        return list(map(dict.get, fields, repeat("value")))
    return [f.get("value") if type(f) is dict else f for f in fields]


def _values(rows: list[Any]) -> list[str]:
    """Each row's value as text (``""`` without one)."""
    values = _field(rows, "value")
    given = _given(values)
    out = [""] * len(rows)
    for i in np.flatnonzero(given).tolist():
        out[i] = _ax_value(values[i])
    return out


def _backends(rows: list[Any]) -> list[str | None]:
    """Each row's ``backendDOMNodeId`` as text."""
    return [None if b is None else str(b) for b in _field(rows, "backendDOMNodeId")]


def _links(props: list[Any], roles: list[str]) -> list[str | None]:
    """The ``url`` property of each link row."""
    out: list[str | None] = [None] * len(props)
    for i in np.flatnonzero(_given(props)).tolist():
        if roles[i] == "link" and props[i]:
            out[i] = link_url(props[i])
    return out


def _state_array(props: list[Any]) -> npt.NDArray[np.int8]:
    """``(enabled, visible, focused)`` of every row, as an ``N x 3`` array."""
    states = np.full((len(props), 3), -1, dtype=np.int8)
    have = np.flatnonzero(np.fromiter(map(truth, props), bool, count=len(props))).tolist()
    if have:
        states[have] = [_states(props[i]) for i in have]
    return states


FORMAT = TreeFormat("cdp", detect, build, depth_checked=True)
