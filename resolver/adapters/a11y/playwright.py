"""Playwright ``page.accessibility.snapshot()`` JSON.

Nested ``{"role", "name", "children", ...}`` with states as keys (``disabled``, ``focused``,
``checked``, ``pressed``, ``expanded``, ``value``). It has no IDs and no geometry: rows get
their child-index path as ID (``a11y:0.1.3``), and bbox evidence is simply absent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ...geometry import CoordSpace
from ...table import NO_STATE, CandidateTable, States, TableBuilder
from .._common import as_str_column, node_column, tri, tri_not
from . import SourceInput, TreeFormat, TreeInput
from ._walk import collect_nested

_ROOT_ROLES = frozenset({"WebArea", "RootWebArea", "document"})
_FOREIGN = frozenset({"id", "bbox", "nodeId", "node_id", "AXRole", "ControlType", "class"})


_KEYS = frozenset({"role", "name", "value", "disabled", "focused"})
"""The keys a snapshot node's row is read from."""
_LOOK: Final[int] = 2000  # nodes inspected for keys a Playwright snapshot never has


def _foreign_below(root: Mapping[str, Any]) -> bool:
    """Whether any of the first nodes (breadth first) carries an ID or a box: a nested tree
    whose root happens to have neither, which must not be read as a snapshot (its IDs and
    boxes would be lost)."""
    queue: list[Any] = [root]
    for node in queue:
        if len(queue) > _LOOK:
            break
        if type(node) is dict:  # (its keys compared as a set, in C)
            if not _FOREIGN.isdisjoint(node):
                return True
        elif isinstance(node, Mapping):
            if any(k in node for k in _FOREIGN):  # (a mapping may hold keys it does not list)
                return True
        else:
            continue
        kids = node.get("children")
        if isinstance(kids, list):
            queue.extend(kids)
    return False


def detect(tree: TreeInput) -> bool:
    """A dict rooted at ``WebArea``/``RootWebArea``, or role+name dicts, with no IDs or boxes
    anywhere (among the first few thousand nodes)."""
    if tree.kind != "json" or not isinstance(tree.data, Mapping):
        return False
    root = tree.data
    if "role" not in root or not (root.get("role") in _ROOT_ROLES or "name" in root):
        return False
    return not _foreign_below(root)


def build(tree: TreeInput, source: SourceInput) -> CandidateTable:
    """One row per snapshot node, read column by column (one walk, then one pass per key in
    C; see :func:`resolver.adapters.a11y.nested.build`)."""
    builder = TableBuilder("a11y", "playwright", platform="cdp", max_rows=source.max_nodes)
    nodes, parents, paths = collect_nested(
        [tree.data], max_nodes=source.max_nodes, max_depth=source.limits.max_depth
    )
    n = len(nodes)
    dicts = {*map(type, nodes)} <= {dict}
    # The keys the nodes have, in C (a mapping other than a dict may answer keys it does not
    # list, so then every key is looked up); a key no node has is a column made at once.
    keys = set().union(*nodes) if dicts else _KEYS

    def get(key: str) -> list[Any]:
        return node_column(nodes, key, dicts) if key in keys else [None] * n

    if keys.isdisjoint(("disabled", "focused")):
        states: list[States] = [NO_STATE] * n
    else:
        states = list(map(_states, get("disabled"), get("focused")))
    builder.set_columns(
        paths, as_str_column(get("role")), get("name"), parents, [None] * n,
        as_str_column(get("value")), states,
    )  # fmt: skip
    return builder.build(coord_space=CoordSpace.NONE, screen_size=source.screen_size)


def _states(disabled: Any, focused: Any) -> States:
    """``(enabled, visible, focused)``: a snapshot states no visibility."""
    return (tri_not(disabled), -1, tri(focused))


FORMAT = TreeFormat("playwright", detect, build, depth_checked=True)
