"""A new step and a batch in a process that froze its objects (``gc.freeze()``), against
the same process before it froze them.

A server that forks workers often freezes what it loaded first, so that the workers share
those pages of memory; an agent runtime may do the same. The builds and batches pause the
cyclic collector and ask whether the process keeps frozen objects (which they must not
release), and CPython counts those by walking them all. This times, on the 10k-node CDP tree
of :func:`benchmarks.synth.workload`:

- ``step``: ``Observation(accessibility_tree=tree)`` and one ``resolve``;
- ``small``: the same on a tree of 200 nodes (where a fixed cost shows most);
- ``resolve_many``: 100 references on the built table;

first with nothing frozen, then after ``--objects`` small lists were made and frozen
(medians of ``--samples``; ms). Run it on two checkouts (``PYTHONPATH=<checkout>``) to
compare them.

Usage::

    python -m benchmarks.frozen_heap [--objects 1000000] [--samples 15] [--json F]
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import resolver
from benchmarks.synth import cdp_tree, make_refs, workload


def _median_ms(run: Callable[[], Any], samples: int) -> float:
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1e3)
    return round(statistics.median(times), 3)


def _cases(samples: int) -> dict[str, float]:
    """Median ms of each timed case, in the process as it is now."""
    w = workload(10_000, k=20, seed=0)
    small = cdp_tree(200, seed=0)
    ref = w.targets[0].ref
    small_ref = make_refs(resolver.Observation(accessibility_tree=small).candidates("a11y"), 1)
    refs = [t.ref for t in make_refs(w.table, 100, seed=7)]

    def step(tree: Any, target: resolver.SemanticElementRef) -> Callable[[], None]:
        def run() -> None:
            with contextlib.suppress(resolver.ResolutionError):
                resolver.resolve(target, resolver.Observation(accessibility_tree=tree))

        return run

    return {
        "step": _median_ms(step(w.tree, ref), samples),
        "small": _median_ms(step(small, small_ref[0].ref), samples),
        "resolve_many": _median_ms(lambda: resolver.resolve_many(refs, w.observation), samples),
    }


def measure(objects: int, samples: int) -> dict[str, Any]:
    """The cases before and after ``objects`` lists are frozen (unfrozen again after)."""
    before = _cases(samples)
    kept = [[i] for i in range(objects)]
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        after = _cases(samples)
    finally:
        gc.unfreeze()
    del kept
    return {
        "code": resolver.__file__,
        "objects_frozen": frozen,
        "samples": samples,
        "nothing_frozen_ms": before,
        "frozen_ms": after,
        "frozen_over_nothing": {k: round(after[k] / before[k], 3) for k in before},
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--objects", type=int, default=1_000_000)
    parser.add_argument("--samples", type=int, default=15)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    result = measure(args.objects, args.samples)
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
