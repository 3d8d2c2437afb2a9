"""Chromium's node lists read in list order, then put in tree order, beside the walk.

Usage (from the repository root)::

    python -m benchmarks.list_order [--trees 6] [--repeat 9] [--cache DIR]

Chromium lists ``Accessibility.getFullAXTree``'s nodes breadth-first (a level at a time
under each parent), not in tree order, so a CDP table walks them node by node
(``resolver.adapters.a11y.cdp._walk``: a stack over ``childIds``). This measures two other
ways to the same rows, on the render cache's largest lists (:mod:`benchmarks.chrome_step`):

- ``read``: one loop over the list in list order, reading each node's row fields as the walk
  does (:func:`read_rows`), and nothing about the tree: what the fields alone cost;
- ``read + positions``: that loop, then the pre-order found over list positions
  (:func:`position_order`: each node's children looked up once, a stack of integers, roots
  and orphans as the walk takes them);
- ``read + forest``: that loop, then the pre-order found by the column reading's numpy
  forest over each ID's first entry (:func:`forest_order`).

Printed per list: the least thread-CPU time of ``--repeat`` calls of each, and whether both
orders give the walk's rows and parents. Without the cache a one-line note is printed and
the exit status is 0. Neither way is used by the library: both took longer than the walk.
"""

from __future__ import annotations

import argparse
import gc
from collections.abc import Iterator, Sequence
from itertools import repeat
from operator import is_not
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.build_phases import least_ms
from benchmarks.chrome_step import ChromeCase, cases_from
from resolver.adapters._common import as_str
from resolver.adapters.a11y import _forest, cdp
from resolver.limits import DEFAULT_LIMITS
from resolver.table import NO_STATE

__all__ = ["forest_order", "main", "position_order", "read_rows"]

Row = tuple[Any, ...]


def read_rows(nodes: Sequence[dict[str, Any]]) -> list[Row | None]:
    """Per node, in list order, the row the walk makes of it without its parent (``id, raw
    role, name, box, value, states, backend ID, link URL``), or ``None`` for a node that
    makes no row (ignored, or an inline text box)."""
    out: list[Row | None] = []
    emit = out.append
    for node in nodes:
        field = node.get("role")
        raw_role = field.get("value") if type(field) is dict else field
        if type(raw_role) is not str:
            raw_role = as_str(raw_role)
        if node.get("ignored") or raw_role in cdp._SKIP_ROLES:
            emit(None)
            continue
        field = node.get("name")
        props = node.get("properties")
        backend = node.get("backendDOMNodeId")
        emit((
            node.get("nodeId"), raw_role, field.get("value") if type(field) is dict else field,
            node.get("bbox"), cdp._ax_value(node["value"]) if "value" in node else "",
            cdp._states(props) if props else NO_STATE,
            None if backend is None else str(backend),
            cdp.link_url(props) if props and raw_role == "link" else None,
        ))  # fmt: skip
    return out


def _first_entries(ids: list[str]) -> dict[str, int]:
    """Each ID's first position (the entry the walk reads)."""
    return dict(zip(reversed(ids), range(len(ids) - 1, -1, -1), strict=True))


def _starts(
    nodes: Sequence[dict[str, Any]], first: dict[str, int], pending: list[bool]
) -> Iterator[int]:
    """The walk's starts: roots in list order, then the nodes not reached by then."""
    later = []
    for i in sorted(first.values()):
        parent = nodes[i].get("parentId")
        if (
            parent is not None
            and first.get(parent if type(parent) is str else as_str(parent)) is not None
        ):
            later.append(i)
        elif pending[i]:
            yield i
    yield from later


def position_order(
    nodes: Sequence[dict[str, Any]], ids: list[str], rows: list[Row | None]
) -> tuple[list[Row], list[int]]:
    """The rows of :func:`read_rows` in the walk's order with their parent rows, found over
    list positions (IDs of dict nodes with string IDs, as Chromium gives them)."""
    first = _first_entries(ids)
    kids = [
        list(map(first.get, node.get("childIds") or ())) if first.get(ids[i]) == i else None
        for i, node in enumerate(nodes)
    ]
    pending = [True] * len(nodes)
    out: list[Row] = []
    parents: list[int] = []
    for start in _starts(nodes, first, pending):
        stack: list[tuple[int | None, int, int]] = [(start, -1, 0)]
        push, pop = stack.append, stack.pop
        while stack:
            at, row, depth = pop()
            if at is None or not pending[at]:
                continue
            pending[at] = False
            if rows[at] is not None:
                depth += 1
                if depth > DEFAULT_LIMITS.max_depth:
                    raise DEFAULT_LIMITS.refuse("max_depth", None, "the AX tree")
                out.append(rows[at])  # type: ignore[arg-type]
                parents.append(row)
                row = len(out) - 1
            for kid in reversed(kids[at] or ()):
                push((kid, row, depth))
    return out, parents


def forest_order(
    nodes: Sequence[dict[str, Any]], ids: list[str], rows: list[Row | None]
) -> tuple[list[Row], list[int]] | None:
    """The same by the numpy forest of the column reading (:func:`_forest.forest_rows`) over
    each ID's first entry; ``None`` where it does not take the list."""
    keep = sorted(_first_entries(ids).values())
    if len(keep) != len(nodes):
        nodes, ids, rows = [nodes[i] for i in keep], [ids[i] for i in keep], [rows[i] for i in keep]
    kept = np.fromiter(map(is_not, rows, repeat(None)), bool, count=len(rows))
    found = _forest.forest_rows(nodes, ids, kept, DEFAULT_LIMITS)
    if found is None:
        return None
    order, parents = found
    return [rows[i] for i in order], parents.tolist()  # type: ignore[misc]


def measure(case: ChromeCase, times: int) -> dict[str, Any]:
    """Least thread time (ms) of the walk and of the three readings on one list, and whether
    both orders give the walk's rows and parents."""
    nodes = case.nodes
    ids = cdp.dict_ids(nodes)
    if ids is None:
        return {"key": case.key, "nodes": len(nodes), "skipped": "not dict nodes with string IDs"}
    walked = cdp._walk(nodes, DEFAULT_LIMITS, ids, True)
    want = ([(*w[:3], *w[4:]) for w in walked], [w[3] for w in walked])
    rows = read_rows(nodes)
    gc.disable()
    try:
        out = {
            "key": case.key, "nodes": len(nodes),
            "walk": least_ms(lambda: cdp._walk(nodes, DEFAULT_LIMITS, ids, True), times),
            "read": least_ms(lambda: read_rows(nodes), times),
            "read + positions": least_ms(
                lambda: position_order(nodes, ids, read_rows(nodes)), times),
            "read + forest": least_ms(lambda: forest_order(nodes, ids, read_rows(nodes)), times),
        }  # fmt: skip
    finally:
        gc.enable()
    out["same rows"] = (
        position_order(nodes, ids, rows) == want and forest_order(nodes, ids, rows) == want
    )
    return out


def table(results: list[dict[str, Any]]) -> str:
    """A markdown table of :func:`measure`'s results."""
    head = ["list", "nodes", "walk", "read", "read + positions", "read + forest", "same rows"]
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for r in results:
        if "skipped" in r:
            lines.append(f"| {r['key'][:10]} | {r['nodes']} | {r['skipped']} |||||")
            continue
        times = " | ".join(f"{r[k]:.1f} ms" for k in head[2:6])
        lines.append(f"| {r['key'][:10]} | {r['nodes']:,} | {times} | {r['same rows']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.list_order")
    parser.add_argument("--trees", type=int, default=6, help="how many lists (default 6)")
    parser.add_argument("--repeat", type=int, default=9, help="calls of each (default 9)")
    parser.add_argument("--cache", type=Path, help="the render cache (default: the benchmark's)")
    args = parser.parse_args(argv)
    cases = cases_from(args.cache, args.trees)
    if not cases:
        return 0
    print(table([measure(case, args.repeat) for case in cases]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
