"""Build time of the DOM source on every corpus page, per 100 elements, beside the floor.

The floor is a bare Lexbor walk of the same page: parse, then visit every node reading its
tag and attributes (what any reader of the tree must do). Each page is built ``--repeat``
times with the cyclic collector as the process has it; the median is reported.

Usage::

    python -m benchmarks.dom.speed [--repeat 5] [--limit 1.5] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from resolver.adapters.base import SourceInput
from resolver.adapters.dom import build_table
from resolver.adapters.dom.parse import decode_html

from .corpora import corpora_dir


def _median_ms(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def lexbor_floor(text: str) -> int:
    """Parse with Lexbor and read every node's tag and attributes; the element count."""
    from selectolax.lexbor import LexborHTMLParser

    root = LexborHTMLParser(text).root
    count = 0
    for node in root.traverse(include_text=True) if root is not None else ():
        if node.tag and node.tag[0] != "-":
            count += 1
            _ = node.attributes
    return count


def measure(page: Path, repeat: int) -> dict[str, Any]:
    """Median build and floor times of one page."""
    html = page.read_bytes()
    text = decode_html(html)
    elements = lexbor_floor(text)
    build = _median_ms(lambda: build_table(SourceInput(raw=html, max_nodes=10**7)), repeat)
    floor = _median_ms(lambda: lexbor_floor(text), repeat)
    return {
        "page": page.parent.name, "elements": elements, "build_ms": round(build, 2),
        "floor_ms": round(floor, 2), "ms_per_100": round(100 * build / max(elements, 1), 3),
        "ratio": round(build / max(floor, 1e-6), 2),
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--limit", type=float, default=1.5, help="ms per 100 elements")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    corpora = corpora_dir()
    if corpora is None:
        print("corpora not found; skipped")
        return 0
    pages = sorted((corpora / "readability-pages" / "pages").glob("*/source.html"))
    rows = [measure(page, args.repeat) for page in pages]
    over = [r for r in rows if r["ms_per_100"] > args.limit]
    worst = max(rows, key=lambda r: r["ms_per_100"])
    summary = {
        "pages": len(rows),
        "median_ms_per_100": statistics.median(r["ms_per_100"] for r in rows),
        "worst": worst,
        "over_limit": [(r["page"], r["ms_per_100"]) for r in over],
        "median_ratio_to_floor": statistics.median(r["ratio"] for r in rows),
        "wikipedia-2": next((r for r in rows if r["page"] == "wikipedia-2"), None),
    }
    print(json.dumps(summary, indent=2))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
