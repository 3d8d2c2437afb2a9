"""Where a CDP table build's time goes: each phase on its own, beside the naive loop.

Usage (from the repository root)::

    python -m benchmarks.build_phases [--nodes 200000] [--repeat 3] [--chrome-ids]

The tree is ``build_speed``'s seeded CDP list, read back from its JSON text. Each phase of
``resolver.adapters.a11y.cdp`` (column reading, the forest's pre-order, raw roles) and of
``TableBuilder.build`` (role spelling, names, values, states, boxes, role codes, the row
tuples; container paths are made when first read, not by a build) is called on its own, and
the whole build through ``Observation``; printed is the least thread-CPU time of
``--repeat`` calls (the least is the one a busy machine disturbed least), with its ratio to
the naive loop (the seed's scorer over the same list) timed in the same process. Phases
nest: the indented ones are parts of the one above. ``--chrome-ids`` numbers the nodes as
Chrome does (:func:`chrome_ids`): the list's order and its IDs' order then differ, and some
IDs are negative.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import time
from collections.abc import Callable
from itertools import repeat
from typing import Any

import numpy as np

from benchmarks.build_speed import cdp_tree, nested_tree
from benchmarks.seed_baseline import find_in_cdp_nodes
from resolver import Observation
from resolver.adapters.a11y import _forest, cdp
from resolver.limits import DEFAULT_LIMITS
from resolver.table import (
    ROLE_INDEX,
    TableBuilder,
    _box_array,
    _clean_names,
    _clean_values,
    _state_rows,
)


def least_ms(run: Callable[[], Any], repeat_: int) -> float:
    """The least thread time of ``repeat_`` calls of ``run``, in ms."""
    best = float("inf")
    for _ in range(repeat_):
        start = time.thread_time()
        run()
        best = min(best, time.thread_time() - start)
    return best * 1e3


def _builder() -> TableBuilder:
    return TableBuilder("a11y", "cdp", platform="cdp", id_columns=("backend_node_id", "href"))


def phases(nodes: list[Any], repeat_: int) -> dict[str, float]:
    """Milliseconds per phase (see the module docstring)."""
    ids = list(map(dict.get, nodes, repeat("nodeId")))
    kept = np.ones(len(nodes), dtype=bool)
    lookup = _forest.IdLookup(ids)
    filled = _builder()
    cdp._fast_columns(nodes, cdp.dict_ids(nodes), filled, DEFAULT_LIMITS)
    columns = filled._columns()
    roles = filled._canonical(columns[1], {})
    steps: dict[str, Callable[[], Any]] = {
        "naive loop": lambda: find_in_cdp_nodes(nodes, "button", "n5", None),
        "whole build": lambda: Observation(accessibility_tree={"nodes": nodes}).candidates("a11y"),
        "column reading": lambda: cdp._fast_columns(
            nodes, cdp.dict_ids(nodes), _builder(), DEFAULT_LIMITS
        ),
        "  forest pre-order": lambda: _forest.forest_rows(nodes, ids, kept, DEFAULT_LIMITS),
        "    ID look-up": lambda: _forest.IdLookup(ids),
        "    child lists": lambda: _forest._kids(nodes, lookup),
        "  raw roles": lambda: cdp._raw_roles(nodes),
        "TableBuilder.build": filled.build,
        "  role spelling": lambda: filled._canonical(columns[1], {}),
        "  names": lambda: _clean_names(columns[2], False, {}),
        "  values": lambda: _clean_values(columns[5], {}),
        "  states": lambda: _state_rows(columns[6], len(roles)),
        "  boxes": lambda: _box_array(columns[4], {}),
        "  role codes": lambda: np.array(list(map(ROLE_INDEX.__getitem__, roles)), np.int32),
        "  row tuples": lambda: (tuple(columns[0]), tuple(columns[2]), tuple(roles)),
    }
    return {name: least_ms(run, repeat_) for name, run in steps.items()}


def chrome_ids(nodes: list[dict[str, Any]], seed: int = 0) -> list[dict[str, Any]]:
    """The same nodes with the IDs Chrome gives: the positive ones a seeded shuffle of 1..n
    (its IDs do not follow the list's order), and a fifth of the nodes numbered from
    -1000000000 down (as Chrome numbers the nodes it makes for text and markers). Changed in
    place; ``parentId`` and ``childIds`` follow."""
    rng = random.Random(seed)
    numbers = list(range(1, len(nodes) + 1))
    rng.shuffle(numbers)
    new = {
        node["nodeId"]: str(-1_000_000_000 - i) if rng.random() < 0.2 else str(numbers[i])
        for i, node in enumerate(nodes)
    }
    for node in nodes:
        node["nodeId"] = new[node["nodeId"]]
        if "parentId" in node:
            node["parentId"] = new[node["parentId"]]
        node["childIds"] = [new[kid] for kid in node["childIds"]]
    return nodes


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--chrome-ids", action="store_true", help="number the nodes as Chrome does")
    args = parser.parse_args(argv)
    nodes = json.loads(json.dumps(cdp_tree(nested_tree(args.nodes))))["nodes"]
    if args.chrome_ids:
        nodes = json.loads(json.dumps(chrome_ids(nodes)))
    gc.disable()  # (the build pauses the collector itself; its phases alone would not)
    times = phases(nodes, args.repeat)
    naive = times["naive loop"]
    for name, ms in times.items():
        print(f"{name:<22} {ms:9.1f} ms  {ms / naive:5.2f}x the naive loop")


if __name__ == "__main__":
    main()
