"""Playwright ``page.accessibility.snapshot()`` JSON.

Nested ``{"role", "name", "children", ...}`` with states as keys (``disabled``, ``focused``,
``checked``, ``pressed``, ``expanded``, ``value``). It has no IDs and no geometry: rows get
their child-index path as ID (``a11y:0.1.3``), and bbox evidence is simply absent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ...geometry import CoordSpace
from ...table import CandidateTable, TableBuilder
from .._common import as_str, tri, tri_not
from . import SourceInput, TreeFormat, TreeInput
from ._walk import walk_nested

_ROOT_ROLES = frozenset({"WebArea", "RootWebArea", "document"})
_FOREIGN = ("id", "bbox", "nodeId", "node_id", "AXRole", "ControlType", "class")


_LOOK: Final[int] = 2000  # nodes inspected for keys a Playwright snapshot never has


def _foreign_below(root: Mapping[str, Any]) -> bool:
    """Whether any of the first nodes (breadth first) carries an ID or a box: a nested tree
    whose root happens to have neither, which must not be read as a snapshot (its IDs and
    boxes would be lost)."""
    queue: list[Any] = [root]
    for node in queue:
        if len(queue) > _LOOK:
            break
        if isinstance(node, Mapping):
            if any(k in node for k in _FOREIGN):
                return True
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
    """One row per snapshot node."""
    builder = TableBuilder("a11y", "playwright", platform="cdp", max_rows=source.max_nodes)
    append = builder.rows.append
    for node, parent, path in walk_nested(
        [tree.data], max_nodes=source.max_nodes, max_depth=source.limits.max_depth
    ):
        get = node.get
        states = (tri_not(get("disabled")), -1, tri(get("focused")))
        append((
            path, as_str(get("role")), get("name"), parent, None, as_str(get("value")),
            states,
        ))  # fmt: skip
    return builder.build(coord_space=CoordSpace.NONE, screen_size=source.screen_size)


FORMAT = TreeFormat("playwright", detect, build)
