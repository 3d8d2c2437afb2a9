"""Nested dict trees: ``{"id", "role", "name", "bbox": [l, t, r, b], "children": [...]}``.

The plainest format, used by hand-written harnesses and by the design's ``find_in_a11y_tree``.
Optional keys: ``value``, ``enabled``/``disabled``, ``focused``, ``visible``/``hidden``,
``automation_id``, ``accessibility_id``. A node without ``id`` gets its child-index path
(``"0.2.1"``). The input may be one root or a list of roots.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...table import CandidateTable, TableBuilder
from .._common import as_bool, as_str, box_from_ltrb
from . import BuildContext, TreeFormat, TreeInput
from ._walk import walk_nested

_MARKERS = ("id", "bbox")


def _roots(tree: TreeInput) -> list[Any]:
    data = tree.data
    return data if isinstance(data, list) else [data]


def detect(tree: TreeInput) -> bool:
    """A dict (or list of dicts) with ``role`` and ``children``/``id``/``bbox`` keys."""
    if tree.kind != "json":
        return False
    roots = _roots(tree)
    if not roots or not isinstance(roots[0], Mapping):
        return False
    root = roots[0]
    return "role" in root and any(k in root for k in (*_MARKERS, "children"))


def _state(node: Mapping[str, Any], positive: str, negative: str) -> bool | None:
    if positive in node:
        return as_bool(node[positive])
    if negative in node:
        flag = as_bool(node[negative])
        return None if flag is None else not flag
    return None


def build(tree: TreeInput, context: BuildContext) -> CandidateTable:
    """One row per node."""
    builder = TableBuilder(
        "a11y", "nested", id_columns=("automation_id", "accessibility_id"),
        max_rows=context.max_nodes,
    )  # fmt: skip
    for node, parent, path in walk_nested(_roots(tree), max_nodes=context.max_nodes):
        raw_id = node.get("id")
        node_id = as_str(raw_id) or path
        builder.add(
            node_id,
            raw_role=as_str(node.get("role")),
            name=as_str(node.get("name")),
            parent=parent,
            bbox=box_from_ltrb(node.get("bbox")),
            value=as_str(node.get("value")),
            enabled=_state(node, "enabled", "disabled"),
            visible=_state(node, "visible", "hidden"),
            focused=as_bool(node.get("focused")),
            automation_id=as_str(node.get("automation_id")) or None,
            accessibility_id=as_str(node.get("accessibility_id")) or None,
        )
    return builder.build(screen_size=context.screen_size)


FORMAT = TreeFormat("nested", detect, build)
