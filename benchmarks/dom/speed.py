"""Build time of the DOM source on every corpus page, per 100 elements, beside the floor.

The floor is a bare Lexbor walk of the same page: parse, then visit every node reading its
tag and attributes (what any reader of the tree must do). Each page is built once to warm up,
then ``--repeat`` times (each time as many builds as fill ``--min-ms``, so a page of a few
elements is not timed at the clock's resolution), with the cyclic collector as the process
has it; the median per build is reported.

The targets (wikipedia-2 in 60 ms, every page in 1.5 ms per 100 elements) are times on the
machine whose floor for wikipedia-2 is ``--reference-floor`` ms (6.6: the quietest machine
these figures came from). On another machine the run measures its own speed by that floor,
in the same run, and scales the targets by it: a machine whose floor takes twice as long
gets twice the time. A shared machine's speed drifts during a run (by half or more within a
minute), so every sample of a page's build is paired with a sample of the dense page's floor
taken right before it, and each build sample is scaled by its own pair's factor;
``normalised_ms`` and ``normalised_per_100`` are the medians of those scaled samples: the
figures to hold against the targets.

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


def _samples_ms(
    run: Callable[[], object],
    repeat: int,
    min_ms: float = 20.0,
    before: Callable[[], object] | None = None,
) -> list[float]:
    """Times of one ``run`` in ms: one warm-up call, then ``repeat`` samples, each of as many
    calls as take ``min_ms`` at least (counted from the warm-up); ``before`` is called ahead
    of each sample, outside its time."""
    start = time.perf_counter()
    run()
    once = time.perf_counter() - start
    calls = max(1, int(min_ms / 1e3 / max(once, 1e-9)))
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        start = time.perf_counter()
        for _ in range(calls):
            run()
        times.append((time.perf_counter() - start) / calls * 1e3)
    return times


def dense_page() -> str | None:
    """The text of wikipedia-2, the page whose bare Lexbor walk measures the machine's speed
    (``--reference-floor``), or None without the corpora."""
    corpora = corpora_dir()
    if corpora is None:
        return None
    dense = corpora / "readability-pages" / "pages" / "wikipedia-2" / "source.html"
    return decode_html(dense.read_bytes())


def floor_ms(dense_text: str) -> float:
    """One timing (ms) of the bare Lexbor walk of ``dense_text``."""
    start = time.perf_counter()
    lexbor_floor(dense_text)
    return (time.perf_counter() - start) * 1e3


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


def measure(
    page: Path, repeat: int, min_ms: float = 20.0, speed: Callable[[], float] | None = None
) -> dict[str, Any]:
    """Median build and floor times of one page; with ``speed`` (a function giving the
    machine's slowdown factor now), also the median of the build samples each divided by the
    factor measured right before it (``normalised_ms``)."""
    html = page.read_bytes()
    text = decode_html(html)
    elements = lexbor_floor(text)

    def build() -> object:
        return build_table(SourceInput(raw=html, max_nodes=10**7))

    factors: list[float] = []
    before = None if speed is None else (lambda: factors.append(speed()))
    builds = _samples_ms(build, repeat, min_ms, before)
    floor = statistics.median(_samples_ms(lambda: lexbor_floor(text), repeat, min_ms))
    median = statistics.median(builds)
    row: dict[str, Any] = {
        "page": page.parent.name, "elements": elements, "build_ms": round(median, 2),
        "floor_ms": round(floor, 2), "ms_per_100": round(100 * median / max(elements, 1), 3),
        "ratio": round(median / max(floor, 1e-6), 2),
    }  # fmt: skip
    if factors:
        scaled = statistics.median(b / f for b, f in zip(builds, factors, strict=True))
        row["factor"] = round(statistics.median(factors), 3)
        row["normalised_ms"] = round(scaled, 2)
        row["normalised_per_100"] = round(100 * scaled / max(elements, 1), 3)
    return row


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--limit", type=float, default=1.5, help="ms per 100 elements")
    parser.add_argument("--dense-limit", type=float, default=60.0, help="ms for wikipedia-2")
    parser.add_argument("--reference-floor", type=float, default=6.6,
                        help="wikipedia-2's floor (ms) on the machine of the targets")  # fmt: skip
    parser.add_argument("--min-ms", type=float, default=20.0, help="time per sample, at least")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    corpora, dense_text = corpora_dir(), dense_page()
    if corpora is None or dense_text is None:
        print("corpora not found; skipped")
        return 0
    pages = sorted((corpora / "readability-pages" / "pages").glob("*/source.html"))
    # The machine's speed: the dense page's floor, timed right before each sample of each
    # page's build (a shared machine's speed drifts during a run), scales that sample.
    calibration: list[float] = []

    def speed() -> float:
        calibration.append(floor_ms(dense_text))
        return calibration[-1] / float(args.reference_floor)

    rows = [measure(page, args.repeat, args.min_ms, speed) for page in pages]
    over = [r for r in rows if r["normalised_per_100"] > args.limit]
    worst = max(rows, key=lambda r: r["normalised_per_100"])
    wiki = next((r for r in rows if r["page"] == "wikipedia-2"), None)
    summary = {
        "pages": len(rows),
        "machine": {
            "dense_floor_ms": {
                "min": round(min(calibration), 2),
                "median": round(statistics.median(calibration), 2),
                "max": round(max(calibration), 2),
            },
            "reference_floor_ms": args.reference_floor,
        },
        "median_ms_per_100": statistics.median(r["ms_per_100"] for r in rows),
        "median_normalised_per_100": statistics.median(r["normalised_per_100"] for r in rows),
        "worst": worst,
        "over_limit": [(r["page"], r["normalised_per_100"]) for r in over],
        "median_ratio_to_floor": statistics.median(r["ratio"] for r in rows),
        "wikipedia-2": wiki,
        "targets": {
            f"wikipedia-2 <= {args.dense_limit} ms": wiki is not None
            and wiki["normalised_ms"] <= args.dense_limit,
            f"every page <= {args.limit} ms per 100 elements": not over,
        },
    }
    print(json.dumps(summary, indent=2))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
