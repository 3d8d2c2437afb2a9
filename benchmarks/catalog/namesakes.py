"""A catalog of a page of many namesakes, each under a heading of its own: how long the
references take to record (each one's heading is compared with its namesakes').

Usage (from the repository root; no corpus needed)::

    python -m benchmarks.catalog.namesakes [--count 3000]
    PYTHONPATH=<other checkout> python -m benchmarks.catalog.namesakes   # other code

The page is one accessibility tree of ``--count`` headings ("Order 0", ...), each followed
by a "Delete" button. Printed: the seconds of 200 ``ref_from_row`` calls and of
``build_catalog`` (which records every row), wall time, one run each: the figures are for
comparing code, run side by side.
"""

from __future__ import annotations

import argparse
import time

from resolver import Observation
from resolver.capture import ref_from_row
from resolver.catalog import build_catalog


def page(count: int) -> Observation:
    """``count`` headings, each followed by a "Delete" button."""
    kids: list[dict[str, object]] = []
    for k in range(count):
        kids.append({"id": f"h{k}", "role": "heading", "name": f"Order {k}"})
        kids.append({"id": f"d{k}", "role": "button", "name": "Delete",
                     "bbox": [0, 20 * k, 50, 20 * k + 15]})  # fmt: skip
    tree = {"id": "r", "role": "document", "name": "Orders", "children": kids}
    return Observation(accessibility_tree=tree)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.catalog.namesakes")
    parser.add_argument("--count", type=int, default=3000)
    args = parser.parse_args(argv)
    obs = page(args.count)
    table = obs.candidates("a11y")
    start = time.perf_counter()
    refs = [ref_from_row(table, row) for row in range(2, min(len(table), 402), 2)]
    recorded = time.perf_counter() - start
    start = time.perf_counter()
    catalog = build_catalog(obs)
    built = time.perf_counter() - start
    heading = getattr(refs[0], "heading", None)  # (None before the field)
    print(f"{len(refs)} references {recorded:.3f} s (the first's heading: {heading!r}); "
          f"catalog of {len(catalog.entries)} entries {built:.2f} s")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
