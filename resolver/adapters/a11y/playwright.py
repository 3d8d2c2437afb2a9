"""Playwright ``page.accessibility.snapshot()`` JSON.

Nested ``{"role", "name", "children", ...}`` with states as keys (``disabled``, ``focused``,
``checked``, ``pressed``, ``expanded``, ``value``). It has no IDs and no geometry: rows get
their child-index path as ID (``a11y:0.1.3``), and bbox evidence is simply absent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...table import CandidateTable, TableBuilder
from .._common import as_bool, as_str
from . import BuildContext, TreeFormat, TreeInput
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


def build(tree: TreeInput, context: BuildContext) -> CandidateTable:
    """One row per snapshot node."""
    builder = TableBuilder("a11y", "playwright", platform="cdp", max_rows=context.max_nodes)
    for node, parent, path in walk_nested([tree.data], max_nodes=context.max_nodes):
        disabled = as_bool(node.get("disabled"))
        value: Any = node.get("value")
        builder.add(
            path,
            raw_role=as_str(node.get("role")),
            name=as_str(node.get("name")),
            parent=parent,
            value=as_str(value),
            enabled=None if disabled is None else not disabled,
            focused=as_bool(node.get("focused")),
        )
    return builder.build(coord_space="none", screen_size=context.screen_size)


FORMAT = TreeFormat("playwright", detect, build)
