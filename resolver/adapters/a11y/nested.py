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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from itertools import islice
from typing import Any

import numpy as np
import numpy.typing as npt

from ...geometry import CoordSpace
from ...table import NO_STATE, CandidateTable, RowPaths, TableBuilder
from ...web import NEARBY_COLUMN, WEB_COLUMNS, join_nearby, web_values
from .._common import (
    XPATH_KEYS,
    as_str,
    as_str_column,
    boxes_from_ltrb,
    first_mapping,
    flag_states,
    ltrb_array,
    node_column,
)
from . import SourceInput, TreeFormat, TreeInput
from ._walk import collect_nested

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
        id_columns=(*_ID_KEYS, *WEB_COLUMNS, NEARBY_COLUMN),
        max_rows=source.max_nodes,
    )  # fmt: skip
    nodes, parents, paths = collect_nested(
        _roots(tree), max_nodes=source.max_nodes, max_depth=source.limits.max_depth
    )
    n = len(nodes)
    builder.set_columns(*(
        column if isinstance(column, (list, np.ndarray, RowPaths)) else list(islice(column, n))
        for column in _columns(nodes, parents, paths, source.url)
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


_ID_KEYS = ("automation_id", "accessibility_id", "tag", "dom_id", "xpath")
_STATE_KEYS = frozenset({"enabled", "disabled", "visible", "hidden", "focused"})
_KEYS = frozenset({"id", "role", "name", "bbox", "value", "attributes", "nearby_text"})
_ALL_KEYS = _KEYS | _STATE_KEYS | frozenset(_ID_KEYS)


def _columns(
    nodes: Sequence[Mapping[str, Any]],
    parents: Sequence[int],
    paths: Sequence[str],
    url: str | None,
) -> list[Iterable[Any]]:
    """The row fields as columns (builder row order), read key by key: a key no node has
    gives a constant column (one value repeated, a list made in C), without looking it up in
    every node; the fields no node has share one list of ``None``."""
    # The keys the nodes have, in C; a mapping other than a dict may answer keys it does
    # not list, so then every key is looked up.
    dicts = {*map(type, nodes)} <= {dict}
    keys = set().union(*nodes) if dicts else _ALL_KEYS

    def get(key: str) -> list[Any]:
        return node_column(nodes, key, dicts)

    ids: Sequence[str] = paths
    if "id" in keys:
        raw = get("id")
        ids = raw if _all_text(raw) else [as_str(i) or p for i, p in zip(raw, paths, strict=True)]
    n = len(nodes)
    none = [None] * n
    role, value = (as_str_column(get(k)) if k in keys else [""] * n for k in ("role", "value"))
    return [
        ids, role, get("name") if "name" in keys else none, parents,
        _boxes(get("bbox")) if "bbox" in keys else none, value,
        map(flag_states, nodes) if keys & _STATE_KEYS else [NO_STATE] * n,
        *(_optional(get(k)) if k in keys else none for k in _ID_KEYS),
        *_web_columns(get("attributes") if "attributes" in keys else None, url, n, none),
        map(join_nearby, get("nearby_text")) if "nearby_text" in keys else none,
    ]  # fmt: skip


def _boxes(raw: list[Any]) -> Sequence[Any] | npt.NDArray[np.float64]:
    """The boxes as one array when they are plain (:func:`ltrb_array`), else one by one."""
    plain = ltrb_array(raw)
    return boxes_from_ltrb(raw) if plain is None else plain


def _all_text(raw: list[Any]) -> bool:
    """Whether every value is a non-empty ``str`` (checked in C)."""
    return {*map(type, raw)} <= {str} and "" not in raw


def _optional(raw: list[Any]) -> list[str | None]:
    """:func:`as_str` of each value, ``None`` for an empty one."""
    if _all_text(raw):
        return raw
    return [as_str(v) or None for v in raw]


def _web_columns(
    attributes: list[Any] | None, url: str | None, n: int, none: list[None]
) -> list[Iterable[str | None]]:
    """The web evidence columns of ``n`` nodes from their ``attributes`` (``None``: no node
    has any)."""
    if attributes is None or not any(attributes):
        return [none if v is None else [v] * n for v in web_values(None)]
    rows = [_web(a, url) for a in attributes]
    return list(zip(*rows, strict=True))


def _web(attributes: Any, url: str | None) -> tuple[str | None, ...]:
    """The web evidence columns from a node's ``attributes`` dict (string values only)."""
    if not attributes or not isinstance(attributes, dict):
        return web_values(None)
    return web_values({str(k): v for k, v in attributes.items() if isinstance(v, str)}, url)


FORMAT = TreeFormat("nested", detect, build, depth_checked=True)
