"""Nested dict trees: ``{"id", "role", "name", "bbox": [l, t, r, b], "children": [...]}``.

The plainest format, used by hand-written harnesses and by the design's ``find_in_a11y_tree``.
Optional keys: ``value``, ``enabled``/``disabled``, ``focused``, ``visible``/``hidden``,
``automation_id``, ``accessibility_id``, and for web trees ``tag``, ``dom_id`` (the HTML
``id``), ``xpath`` (the element's absolute xpath, compared normalised as the DOM source's) and
an ``attributes`` dict (``class``, ``href``, ``name``, ``type``, ``placeholder``, ``title``,
``alt`` become the web evidence columns of :mod:`resolver.web`), and ``nearby_text``, the
texts a recorder kept next to the node (above, left, right, below; a list of strings, read
as :data:`resolver.web.NEARBY_COLUMN`). A node without ``id`` gets
its child-index path (``"0.2.1"``). The input may be one root or a list of roots.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...geometry import CoordSpace
from ...table import CandidateTable, TableBuilder
from ...web import NEARBY_COLUMN, WEB_COLUMNS, join_nearby, web_values
from .._common import XPATH_KEYS, as_str, box_from_ltrb, first_mapping, flag_states
from . import SourceInput, TreeFormat, TreeInput
from ._walk import walk_nested

_MARKERS = ("id", "bbox")


def _roots(tree: TreeInput) -> list[Any]:
    """The roots: the list itself, or the one root."""
    data = tree.data
    return data if isinstance(data, list) else [data]


def detect(tree: TreeInput) -> bool:
    """A dict (or list of dicts) with ``role`` and ``children``/``id``/``bbox`` keys."""
    root = first_mapping(_roots(tree)) if tree.kind == "json" else None
    return root is not None and "role" in root and any(k in root for k in (*_MARKERS, "children"))


def build(tree: TreeInput, source: SourceInput) -> CandidateTable:
    """One row per node."""
    builder = TableBuilder(
        "a11y", "nested",
        id_columns=(
            "automation_id", "accessibility_id", "tag", "dom_id", "xpath", *WEB_COLUMNS,
            NEARBY_COLUMN,
        ),
        max_rows=source.max_nodes,
    )  # fmt: skip
    append = builder.rows.append
    for node, parent, path in walk_nested(
        _roots(tree), max_nodes=source.max_nodes, max_depth=source.limits.max_depth
    ):
        get = node.get
        attributes = get("attributes")
        append((
            as_str(get("id")) or path, as_str(get("role")), get("name"), parent,
            box_from_ltrb(get("bbox")), as_str(get("value")), flag_states(node),
            as_str(get("automation_id")) or None, as_str(get("accessibility_id")) or None,
            as_str(get("tag")) or None, as_str(get("dom_id")) or None,
            as_str(get("xpath")) or None, *_web(attributes, source.url),
            join_nearby(get("nearby_text")),
        ))  # fmt: skip
    table = builder.build(
        coord_space=CoordSpace.UNKNOWN, screen_size=source.screen_size, id_keys=XPATH_KEYS
    )
    # A column no node filled is left out: without an xpath the table does not claim to know
    # rows by their element (the rules that read document places stay silent), and without
    # recorded neighbour texts they are read from the page as for any tree.
    empty = [k for k in ("xpath", NEARBY_COLUMN) if not any(table.platform_ids[k])]
    if empty:
        columns = {k: v for k, v in table.platform_ids.items() if k not in empty}
        table = replace(table, platform_ids=columns)
    return table


def _web(attributes: Any, url: str | None) -> tuple[str | None, ...]:
    """The web evidence columns from a node's ``attributes`` dict (string values only)."""
    if not attributes or not isinstance(attributes, dict):
        return web_values(None)
    return web_values({str(k): v for k, v in attributes.items() if isinstance(v, str)}, url)


FORMAT = TreeFormat("nested", detect, build)
