"""Fuzz the public entry points with many generated cases and report every broken property.

Usage (from the repository root)::

    python -m benchmarks.fuzz --cases 100000 [--seed 0] [--kinds reference a11y dom ...]
                              [--json fuzz.json] [--huge 3000000]

The cases are split over the kinds of ``tests/fuzz_strategies.py`` (``reference``, one
``a11y:<format>`` per accessibility-tree format, ``dom``, ``linked``, ``vision``, ``recording``,
``snapshot``, ``cli``) by their weights (vision and the command line get a smaller share).
``--kinds a11y`` selects every tree format. Each kind is driven by Hypothesis with its own
seed derived from ``--seed``, so a run is reproducible; a failure is recorded (kind, seed,
case number, exception type, message, a short repr of the input) and the run goes on. The
property: every call returns its documented type or raises a ``ResolutionError`` subclass
(its text at most 2,000 characters),
within ``2 s + 20 us * size`` (``--base``, ``--per-unit``; ``size`` counts characters, bytes
or elements, and a screenshot's decoded pixels); the command line exits with a
documented code and prints no traceback.

Exit status: 0 when no case failed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import collections
import gc
import hashlib
import importlib
import json
import os
import sys
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed, settings

ROOT = Path(__file__).resolve().parents[1]


def _strategies() -> ModuleType:
    """``tests/fuzz_strategies.py`` (the tests folder is not a package)."""
    for folder in (str(ROOT), str(ROOT / "tests")):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
    return importlib.import_module("fuzz_strategies")


def split(cases: int, kinds: Sequence[str], weights: dict[str, float]) -> dict[str, int]:
    """``cases`` shared by weight, at least one per kind, summing to ``cases``."""
    total = sum(weights[k] for k in kinds)
    shares = {k: max(1, int(cases * weights[k] / total)) for k in kinds}
    rest = cases - sum(shares.values())
    for kind in sorted(kinds, key=lambda k: -weights[k]):
        if rest <= 0:
            break
        shares[kind] += 1
        rest -= 1
    return shares


def kind_seed(base: int, kind: str) -> int:
    """The Hypothesis seed of one kind in a run seeded ``base``."""
    return int(hashlib.sha256(f"{base}:{kind}".encode()).hexdigest()[:12], 16)


class Progress:
    """One status line on stderr, rewritten at most twice a second."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.failures = 0
        self.start = time.perf_counter()
        self._shown = 0.0

    def tick(self, kind: str, index: int, count: int, failed: bool) -> None:
        self.done += 1
        self.failures += failed
        now = time.perf_counter()
        if now - self._shown >= 0.5 or self.done == self.total:
            self._shown = now
            sys.stderr.write(
                f"\r{self.done:>7}/{self.total} cases  {kind:<20} {index:>6}/{count:<6} "
                f"failures {self.failures:<6} {now - self.start:7.1f} s "
            )
            sys.stderr.flush()

    def close(self) -> None:
        sys.stderr.write("\n")
        sys.stderr.flush()


def run_kind(
    fs: ModuleType,
    kind: str,
    count: int,
    kind_seed_value: int,
    bound: Any,
    huge: int,
    progress: Progress,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Run ``count`` cases of ``kind``; the per-kind counts and the failures."""
    failures: list[dict[str, Any]] = []
    errors: collections.Counter[str] = collections.Counter()
    seconds: list[float] = []
    strategy = fs.KINDS[kind].strategy(huge)

    @seed(kind_seed_value)
    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    @given(case=strategy)
    def body(case: Any) -> None:
        index = len(seconds)
        checked = fs.run_case(kind, case, bound)
        seconds.append(checked.seconds)
        failure = checked.failure
        if failure is not None:
            errors[failure.error_type] += 1
            failures.append(
                {
                    "kind": kind,
                    "seed": kind_seed_value,
                    "case": index,
                    "error_type": failure.error_type,
                    "message": str(failure)[:500],
                    "seconds": round(checked.seconds, 4),
                    "input": fs.short_repr(case),
                }
            )
        progress.tick(kind, index + 1, count, failure is not None)

    start = time.perf_counter()
    generator_error = None
    try:
        body()
    except Exception as exc:  # a strategy that cannot draw ends this kind, not the run
        generator_error = f"{type(exc).__name__}: {exc}"[:500]
    summary = {
        "cases": len(seconds),
        "requested": count,
        "failures": len(failures),
        "by_error": dict(errors),
        "seconds": round(time.perf_counter() - start, 2),
        "max_case_seconds": round(max(seconds, default=0.0), 4),
        "seed": kind_seed_value,
        "generator_error": generator_error,
    }
    return summary, failures


def print_table(summary: dict[str, dict[str, Any]], elapsed: float) -> None:
    head = f"{'kind':<22} {'cases':>7} {'failed':>7} {'seconds':>8} {'max case':>9}  errors"
    print(head)
    print("-" * len(head))
    for kind, row in summary.items():
        errors = ", ".join(f"{k} x{v}" for k, v in sorted(row["by_error"].items()))
        if row["generator_error"]:
            errors = f"{errors}; generator stopped: {row['generator_error'][:80]}"
        print(
            f"{kind:<22} {row['cases']:>7} {row['failures']:>7} {row['seconds']:>8.1f} "
            f"{row['max_case_seconds']:>9.3f}  {errors}"
        )
    cases = sum(r["cases"] for r in summary.values())
    failed = sum(r["failures"] for r in summary.values())
    print("-" * len(head))
    print(f"{'total':<22} {cases:>7} {failed:>7} {elapsed:>8.1f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.fuzz", description=__doc__)
    parser.add_argument("--cases", type=int, default=100_000, help="cases in all")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--kinds", nargs="+", help="kinds to run ('a11y' = every tree format)")
    parser.add_argument("--json", type=Path, help="write counts and failures here")
    parser.add_argument("--huge", type=int, default=3_000_000, help="longest generated name")
    parser.add_argument("--base", type=float, default=2.0, help="seconds every case may take")
    parser.add_argument("--per-unit", type=float, default=20e-6, help="seconds per input unit")
    args = parser.parse_args(argv)
    fs = _strategies()
    warnings.filterwarnings("ignore")

    kinds = list(fs.KINDS)
    if args.kinds:
        chosen: list[str] = []
        for name in args.kinds:
            matched = [k for k in kinds if k == name or k.startswith(f"{name}:")]
            if not matched:
                parser.error(f"unknown kind {name!r}; kinds: {', '.join(kinds)}")
            chosen.extend(m for m in matched if m not in chosen)
        kinds = chosen
    shares = split(args.cases, kinds, {k: fs.KINDS[k].weight for k in kinds})
    bound = fs.Bound(base=args.base, per_unit=args.per_unit)
    if "vision" in kinds:
        sys.stderr.write("loading the OCR models...\n")
        list(fs.warm_up())

    progress = Progress(sum(shares.values()))
    summary: dict[str, dict[str, Any]] = {}
    failures: list[dict[str, Any]] = []
    start = time.perf_counter()
    for kind in kinds:
        # Each kind starts without the garbage the kinds before it left (the generator's
        # own reference cycles: collected in one generation-2 pass of over a million
        # objects, 1.5-1.9 s, that landed inside one timed case of the next kind).
        gc.collect()
        row, found = run_kind(
            fs, kind, shares[kind], kind_seed(args.seed, kind), bound, args.huge, progress
        )
        summary[kind] = row
        failures.extend(found)
    progress.close()
    elapsed = time.perf_counter() - start

    print_table(summary, elapsed)
    distinct: dict[tuple[str, str], dict[str, Any]] = {}
    for failure in failures:
        distinct.setdefault((failure["kind"], failure["error_type"]), failure)
    for (kind, error), first in distinct.items():
        print(f"\n{kind} {error} (first: case {first['case']}, seed {first['seed']})")
        print(f"  {first['message'][:300]}")
        print(f"  input: {first['input']}")
    if args.json is not None:
        report = {
            "seed": args.seed,
            "cases": args.cases,
            "huge": args.huge,
            "bound": {"base": args.base, "per_unit": args.per_unit},
            "elapsed_seconds": round(elapsed, 2),
            "kinds": summary,
            "failures": failures,
        }
        args.json.write_text(json.dumps(report, indent=1, default=str), encoding="utf-8")
        print(f"\nwrote {args.json}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
