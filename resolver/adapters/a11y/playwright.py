"""Playwright ``page.accessibility.snapshot()`` JSON.

Nested ``{"role", "name", "children", ...}`` with states as keys (``disabled``, ``focused``,
``checked``, ``pressed``, ``expanded``, ``value``). It has no IDs and no geometry: rows get
their child-index path as ID (``a11y:0.1.3``), and bbox evidence is simply absent.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...geometry import CoordSpace
from ...table import CandidateTable, TableBuilder
from .._common import as_str, tri, tri_not
from . import SourceInput, TreeFormat, TreeInput
from ._walk import walk_nested

_ROOT_ROLES = frozenset({"WebArea", "RootWebArea", "document"})
_FOREIGN = ("id", "bbox", "nodeId", "node_id", "AXRole", "ControlType", "class")


def detect(tree: TreeInput) -> bool:
    """A dict rooted at ``WebArea``/``RootWebArea``, or role+name dicts with no IDs or boxes."""
    if tree.kind != "json" or not isinstance(tree.data, Mapping):
        return False
    root = tree.data
    if "role" not in root or any(k in root for k in _FOREIGN):
        return False
    return root.get("role") in _ROOT_ROLES or "name" in root


def build(tree: TreeInput, source: SourceInput) -> CandidateTable:
    """One row per snapshot node."""
    builder = TableBuilder("a11y", "playwright", platform="cdp", max_rows=source.max_nodes)
    append = builder.rows.append
    for node, parent, path in walk_nested([tree.data], max_nodes=source.max_nodes):
        get = node.get
        states = (tri_not(get("disabled")), -1, tri(get("focused")))
        append((
            path, as_str(get("role")), as_str(get("name")), parent, None, as_str(get("value")),
            states,
        ))  # fmt: skip
    return builder.build(coord_space=CoordSpace.NONE, screen_size=source.screen_size)


FORMAT = TreeFormat("playwright", detect, build)
