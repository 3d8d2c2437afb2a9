"""Table build time of seeded synthetic accessibility trees, nested dicts and CDP node lists.

Usage (from the repository root)::

    python -m benchmarks.build_speed [--sizes 10000 200000] [--repeat 5] [--walk]
    PYTHONPATH=<other checkout> python benchmarks/build_speed.py   # the same on other code

Each tree is nested as real pages are (a node hangs under one of the 30 nodes before it, at
most 40 levels deep; roles button, link, text and group; a box per node), built from seed 1,
and given to ``Observation(accessibility_tree=...).candidates("a11y")``: the median of
``--repeat`` builds is printed per tree, with its cost per node. Each tree is read back from
its JSON text first, as a runtime receives it (every string its own object). ``--walk``
reads CDP lists node by node at every size (by default lists of ``cdp.MIN_COLUMN_NODES``
nodes or more are read by columns).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from resolver import Observation


def nested_tree(nodes: int, seed: int = 1) -> dict[str, Any]:
    """A nested ``children`` tree of ``nodes`` nodes, at most 40 levels deep."""
    rng = random.Random(seed)
    root: dict[str, Any] = {"role": "group", "name": "root", "children": []}
    made, depth, parent = [root], [0], [0]
    for i in range(1, nodes):
        at = max(0, i - rng.randint(1, 30))
        while depth[at] >= 40:
            at = parent[at]
        kid = {
            "role": rng.choice(["button", "link", "text", "group"]),
            "name": f"n{i}",
            "children": [],
            "bbox": [i % 1000, i % 700, i % 1000 + 20, i % 700 + 10],
        }
        made[at]["children"].append(kid)
        made.append(kid)
        depth.append(depth[at] + 1)
        parent.append(at)
    return root


def cdp_tree(root: dict[str, Any]) -> dict[str, Any]:
    """The same tree as a CDP ``Accessibility.getFullAXTree`` node list."""
    out: list[dict[str, Any]] = []
    stack: list[tuple[dict[str, Any], dict[str, Any] | None]] = [(root, None)]
    while stack:
        node, up = stack.pop()
        entry: dict[str, Any] = {
            "nodeId": str(len(out) + 1),
            "role": {"type": "role", "value": node["role"]},
            "name": {"type": "computedString", "value": node["name"]},
            "childIds": [],
            "ignored": False,
        }
        if up is not None:
            entry["parentId"] = up["nodeId"]
            up["childIds"].append(entry["nodeId"])
        out.append(entry)
        stack.extend((kid, entry) for kid in node["children"])
    return {"nodes": out}


def build_seconds(tree: Any, repeat: int) -> float:
    """The median time of ``repeat`` builds of the a11y table of ``tree``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        Observation(accessibility_tree=tree).candidates("a11y")
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 200_000])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--walk", action="store_true", help="walk CDP lists node by node whatever their size"
    )
    args = parser.parse_args(argv)
    if args.walk:
        from resolver.adapters.a11y import cdp

        cdp.MIN_COLUMN_NODES = 1 << 62
    for size in args.sizes:
        nested = nested_tree(size)
        for kind, made in (("nested", nested), ("cdp", cdp_tree(nested))):
            tree = json.loads(json.dumps(made))  # (as a runtime receives it)
            seconds = build_seconds(tree, args.repeat)
            print(f"{kind:<7} {size:>8,} nodes  {seconds * 1000:9.1f} ms  "
                  f"{seconds / size * 1e6:6.2f} us/node")  # fmt: skip


if __name__ == "__main__":
    main()
