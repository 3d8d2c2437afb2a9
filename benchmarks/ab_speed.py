"""Two checkouts of the library timed in one process, alternately: ``resolve`` and
``resolve_many`` on the 10k-node synthetic tree.

Usage (from the repository root)::

    python -m benchmarks.ab_speed OLD_CHECKOUT NEW_CHECKOUT [--rounds 40] [--json out.json]

A shared machine's speed drifts by 2-4x within minutes, so timings taken in separate runs
compare badly. Here both checkouts are imported into this process (each as its own copy of
``resolver`` and ``benchmarks.synth``), each builds the same workload
(``synth.workload(10_000, k=20, seed=0)``; 100 references of ``synth.make_refs(..., seed=7)``
for ``resolve_many``; the workload's targets one by one for ``resolve``), and every round
times both, the order swapped every round. Printed: the median of each and the median of the
per-round ratios new / old (below 1: the new checkout is faster).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

Modules = dict[str, Any]
Timed = tuple[Callable[[], object], Callable[[], object], int, Modules]
_OURS = ("resolver", "benchmarks")


def _forget() -> Modules:
    """Take the library's modules out of ``sys.modules``, returning them."""
    return {
        name: sys.modules.pop(name) for name in list(sys.modules) if name.split(".")[0] in _OURS
    }


def _install(modules: Modules) -> None:
    """Make ``modules`` the library's modules (an import inside a function finds its own
    checkout's)."""
    _forget()
    sys.modules.update(modules)


def load(checkout: Path) -> Timed:
    """The two timed calls of one checkout (``resolve_many`` of 100 refs, every target's
    ``resolve``), the number of targets, and the checkout's modules, warmed up."""
    _forget()
    sys.path.insert(0, str(checkout))
    try:
        resolver: Any = importlib.import_module("resolver")
        synth: Any = importlib.import_module("benchmarks.synth")
    finally:
        sys.path.remove(str(checkout))
    work = synth.workload(10_000, k=20, seed=0)
    refs = [t.ref for t in synth.make_refs(work.table, 100, seed=7)]
    observation, targets = work.observation, work.targets

    def many() -> object:
        return resolver.resolve_many(refs, observation)

    def singles() -> object:
        for target in targets:
            with contextlib.suppress(resolver.ResolutionError):
                resolver.resolve(target.ref, observation)
        return None

    for _ in range(3):
        many()
        singles()
    return many, singles, len(targets), _forget()


def _ms(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1e3


def compare(old: Timed, new: Timed, rounds: int) -> dict[str, float]:
    """Medians (ms) of each call on each checkout and of the per-round ratios new / old."""
    times: dict[str, list[float]] = {k: [] for k in ("old_many", "new_many", "old_one", "new_one")}
    gc.collect()
    for i in range(rounds):
        order = [("old", old), ("new", new)] if i % 2 == 0 else [("new", new), ("old", old)]
        for tag, (many, singles, n, modules) in order:
            _install(modules)
            times[f"{tag}_many"].append(_ms(many))
            times[f"{tag}_one"].append(_ms(singles) / n)
    out = {key: statistics.median(values) for key, values in times.items()}
    for call in ("many", "one"):
        ratios = [b / a for a, b in zip(times[f"old_{call}"], times[f"new_{call}"], strict=True)]
        out[f"ratio_{call}"] = statistics.median(ratios)
    return out


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ab_speed")
    parser.add_argument("old", type=Path, help="the checkout timed as 'old'")
    parser.add_argument("new", type=Path, help="the checkout timed as 'new'")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    for checkout in (args.old, args.new):
        if not (checkout / "resolver" / "__init__.py").is_file():
            parser.error(f"{checkout} is not a checkout of the library")
    figures = compare(load(args.old.resolve()), load(args.new.resolve()), args.rounds)
    print(
        f"resolve_many (100 refs): old {figures['old_many']:.2f} ms, new "
        f"{figures['new_many']:.2f} ms, median ratio {figures['ratio_many']:.3f}\n"
        f"resolve (per target):    old {figures['old_one']:.3f} ms, new "
        f"{figures['new_one']:.3f} ms, median ratio {figures['ratio_one']:.3f}"
    )
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
