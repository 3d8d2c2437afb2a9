"""Time two checkouts of the library side by side on the same synthetic tree.

Usage (from the repository root)::

    git archive <commit> | (mkdir -p /tmp/before && tar -x -C /tmp/before)
    python benchmarks/side_by_side.py /tmp/before [AFTER] [--rounds 5] [--calls 400]

``AFTER`` defaults to this checkout. Each round starts one process per checkout, one after
the other, so both see about the same machine load (timings on a shared machine move by tens
of percent between minutes). Each process imports the library and ``benchmarks/synth.py`` of
its own checkout, builds the 10k-node CDP tree of ``synth.workload(10_000, seed=0)`` once
and reports, with the table built:

- ``resolve``: the median of ``--calls`` calls of ``resolve_element``, cycling its 20 refs;
- ``resolve_many``: the median of ``resolve_many`` of 100 refs (``make_refs(seed=7)``);
- ``one by one``: the median of the same 100 refs each resolved with ``resolve``.

The two 100-ref measurements alternate within the process. The output is a markdown table
of the median over rounds per checkout, with each round's figures below it.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MEASURES = ("resolve", "resolve_many", "one by one")


def child(root: Path, calls: int) -> dict[str, float]:
    """The three medians (ms) for the library in ``root``, measured in this process."""
    sys.path[:0] = [str(root), str(root / "benchmarks")]
    from synth import make_refs, workload

    import resolver

    if not Path(resolver.__file__).resolve().is_relative_to(root.resolve()):
        raise SystemExit(f"imported {resolver.__file__}, not the library in {root}")
    w = workload(10_000, k=20, seed=0)
    obs, targets = w.observation, w.targets
    refs = [t.ref for t in make_refs(w.table, 100, seed=7)]

    def one(ref: object) -> object:
        try:
            return resolver.resolve(ref, obs)
        except resolver.ResolutionError as exc:
            return exc

    def timed(fn: Callable[[int], object], runs: int) -> list[float]:
        samples = []
        for i in range(runs):
            start = time.perf_counter()
            fn(i)
            samples.append((time.perf_counter() - start) * 1000.0)
        return samples

    def alternate(i: int) -> object:
        return resolver.resolve_many(refs, obs) if i % 2 == 0 else [one(r) for r in refs]

    # Warm-up: the table's lazy indexes and caches, then the young objects of the set-up
    # moved out of the way of the collector (as report.py does).
    timed(lambda i: one(targets[i % len(targets)].ref), 2 * len(targets))
    timed(alternate, 4)
    gc.collect()
    single = timed(lambda i: one(targets[i % len(targets)].ref), calls)
    pairs = timed(alternate, 2 * max(3, calls // 40))
    return {
        "resolve": statistics.median(single),
        "resolve_many": statistics.median(pairs[0::2]),
        "one by one": statistics.median(pairs[1::2]),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the rounds and print the table; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path, nargs="?", help="a checkout of the earlier code")
    parser.add_argument("after", type=Path, nargs="?", default=ROOT, help="default: this one")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=400, help="single resolves per process")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        print(json.dumps(child(args.child, args.calls)))
        return 0
    if args.before is None:
        parser.error("the checkout to compare with (BEFORE) is missing")
    runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for _ in range(args.rounds):
        for label, root in (("before", args.before), ("after", args.after)):
            out = subprocess.run(
                [sys.executable, __file__, "--child", str(root), "--calls", str(args.calls)],
                capture_output=True, text=True, check=True, cwd=root,
            )  # fmt: skip
            runs[label].append(json.loads(out.stdout))
    print("| median over rounds (ms) | " + " | ".join(MEASURES) + " |")
    print("|---|" + "---|" * len(MEASURES))
    for label, root in (("before", args.before), ("after", args.after)):
        cells = [f"{statistics.median(r[m] for r in runs[label]):.3f}" for m in MEASURES]
        print(f"| {label} (`{root}`) | " + " | ".join(cells) + " |")
    print()
    for i in range(args.rounds):
        for label in ("before", "after"):
            figures = ", ".join(f"{m} {runs[label][i][m]:.3f}" for m in MEASURES)
            print(f"round {i + 1} {label}: {figures}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
