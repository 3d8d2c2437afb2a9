"""Speed and accuracy report: the library against the seed baseline, measured in one run.

Usage (from the repository root)::

    python benchmarks/report.py [--scale 1.0] [--seed 0] [--strict]

Times each operation with :func:`time.perf_counter` after a warm-up, many times, and prints
medians (and the 90th percentile) as markdown: table build and single-ref resolution on
synthetic CDP trees of 1k, 10k and 100k nodes, ``resolve_many`` of 100 refs, the seed baseline
on the same trees, per-page figures on the captured fixtures, and accuracy on the fixture
relocation trials for the library and the seed side by side. Then checks the targets:

- resolve one ref on a 10k-node tree, table already built: median <= 1 ms;
- build the table of a 10k-node CDP tree: median <= 20 ms;
- at least 50x faster than the seed baseline on the same 10k-node tree;
- ``resolve_many`` of 100 refs on a 10k-node tree (table built): median <= 20 ms.

The report never fails on timing unless ``--strict`` is given (then the exit status is 1 when
a target is missed). ``--scale`` multiplies the repetition counts and time budgets.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# Measure the checkout this script lives in, even when another copy is installed.
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

import numpy as np  # noqa: E402
import rapidfuzz  # noqa: E402
from seed_baseline import (  # noqa: E402
    cdp_nodes_of,
    find_in_a11y_tree,
    find_in_cdp_nodes,
    seed_resolve_cdp,
)
from synth import Target, Workload, make_refs, workload  # noqa: E402

import resolver  # noqa: E402
from resolver import (  # noqa: E402
    Observation,
    Resolution,
    ResolutionError,
    resolve,
    resolve_element,
    resolve_many,
)
from resolver.capture import ref_from_row  # noqa: E402
from resolver.replay import (  # noqa: E402
    folder_captures,
    iter_trials,
    read_capture,
    run_trials,
    summarize,
)

SIZES = (1_000, 10_000, 100_000)
FIXTURES = ROOT / "fixtures" / "captured"


# -- timing ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Timing:
    """Summary of repeated calls, in seconds."""

    median: float
    p90: float
    runs: int

    def ms(self) -> str:
        """``median`` in ms, with the 90th percentile and the number of runs."""
        return f"{_fmt_ms(self.median)} (p90 {_fmt_ms(self.p90)}, n={self.runs})"


def _fmt_ms(seconds: float) -> str:
    ms = seconds * 1000.0
    if ms >= 100:
        return f"{ms:.0f} ms"
    if ms >= 10:
        return f"{ms:.1f} ms"
    return f"{ms:.3f} ms"


def measure(
    fn: Callable[[int], object],
    *,
    reps: int,
    budget_s: float,
    warmup: int = 2,
    min_runs: int = 5,
    setup: Callable[[int], object] | None = None,
) -> Timing:
    """Call ``fn(i)`` ``warmup`` times, then up to ``reps`` times (at least ``min_runs``, and
    stop early once ``budget_s`` seconds of calls have run); ``setup(i)`` runs untimed before
    each call."""
    for i in range(warmup):
        if setup is not None:
            setup(i)
        fn(i)
    samples: list[float] = []
    spent = 0.0
    gc.collect()
    for i in range(reps):
        if setup is not None:
            setup(i)
        start = time.perf_counter()
        fn(i)
        elapsed = time.perf_counter() - start
        samples.append(elapsed)
        spent += elapsed
        if spent > budget_s and len(samples) >= min_runs:
            break
    return timing(samples)


def timing(samples: Sequence[float]) -> Timing:
    """Median, 90th percentile and count of some durations."""
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return Timing(statistics.median(ordered), p90, len(ordered))


def measure_each(fn: Callable[[int], object], *, reps: int, budget_s: float) -> list[float]:
    """Every duration of ``fn(i)`` for ``i`` in ``range(reps)`` after two warm-up calls
    (``fn(0)`` and ``fn(1)``), stopping early once ``budget_s`` seconds have run (at an even
    count, so that alternating callers keep pairs)."""
    fn(0)
    fn(1)
    gc.collect()
    samples: list[float] = []
    for i in range(reps):
        start = time.perf_counter()
        fn(i)
        samples.append(time.perf_counter() - start)
        if sum(samples) > budget_s and len(samples) >= 6 and len(samples) % 2 == 0:
            break
    return samples


# -- operations -----------------------------------------------------------------------------


def _lib_answer(ref: Any, observation: Observation) -> str | None:
    """``resolve_element``, with a resolution error counted as "no answer"."""
    try:
        return resolve_element(ref, observation)
    except ResolutionError:
        return None


def _seed_nested(w: Workload, target: Target) -> str | None:
    ref = target.ref
    return find_in_a11y_tree(w.nested, ref.role, ref.name, ref.bbox)


def _seed_cdp(w: Workload, target: Target) -> str | None:
    ref = target.ref
    return find_in_cdp_nodes(w.tree["nodes"], ref.role, ref.name, ref.bbox)


@dataclass
class SizeResult:
    """Every figure for one synthetic tree size."""

    n: int
    rows: int
    build: Timing
    resolve: Timing
    cold: Timing
    seed_nested: Timing
    seed_cdp: Timing
    lib_correct: int
    seed_correct: int
    targets: int


def bench_size(w: Workload, scale: float) -> SizeResult:
    """Build, warm resolve, cold step and both seed walkers on one workload."""
    targets = w.targets
    big = w.n >= 100_000
    tree = w.tree
    fresh: list[Observation] = []

    def new_obs(_: int) -> None:
        fresh[:] = [Observation(accessibility_tree=tree)]

    build = measure(
        lambda _: fresh[0].candidates("a11y"),
        setup=new_obs,
        reps=int((8 if big else 40) * scale) or 5,
        budget_s=(6.0 if big else 3.0) * scale,
        warmup=1,
    )
    obs = w.observation
    obs.candidates("a11y")
    resolve = measure(
        lambda i: _lib_answer(targets[i % len(targets)].ref, obs),
        reps=int((40 if big else 200) * scale) or 5,
        budget_s=(8.0 if big else 4.0) * scale,
        warmup=len(targets),
    )
    cold = measure(
        lambda i: _lib_answer(targets[i % len(targets)].ref, fresh[0]),
        setup=new_obs,
        reps=int((8 if big else 40) * scale) or 5,
        budget_s=(6.0 if big else 3.0) * scale,
        warmup=1,
    )
    seed_nested = measure(
        lambda i: _seed_nested(w, targets[i % len(targets)]),
        reps=int((10 if big else 60) * scale) or 5,
        budget_s=(4.0 if big else 3.0) * scale,
        warmup=1,
    )
    seed_cdp = measure(
        lambda i: _seed_cdp(w, targets[i % len(targets)]),
        reps=int((10 if big else 60) * scale) or 5,
        budget_s=(4.0 if big else 3.0) * scale,
        warmup=1,
    )
    lib_correct = sum(_lib_answer(t.ref, obs) == f"a11y:{t.node_id}" for t in targets)
    seed_correct = sum(_seed_nested(w, t) == t.node_id for t in targets)
    return SizeResult(
        w.n, len(w.table), build, resolve, cold, seed_nested, seed_cdp,
        lib_correct, seed_correct, len(targets),
    )  # fmt: skip


@dataclass
class ManyResult:
    """``resolve_many`` of many refs on one tree, and the same refs resolved one by one."""

    warm: Timing
    one_by_one: Timing
    cold: Timing
    answered: int
    refs: int


def _one_by_one(refs: Sequence[Any], observation: Observation) -> list[Any]:
    """What ``resolve_many`` returns, by one ``resolve`` per ref."""
    out: list[Any] = []
    for ref in refs:
        try:
            out.append(resolve(ref, observation))
        except ResolutionError as exc:
            out.append(exc)
    return out


def bench_many(w: Workload, count: int, scale: float) -> ManyResult:
    """``resolve_many`` of ``count`` refs, table built (warm), side by side with ``count``
    single resolves (alternating, so both see the same machine load), then with a fresh
    observation."""
    refs = [t.ref for t in make_refs(w.table, count, seed=7)]
    obs = w.observation
    fresh: list[Observation] = []

    def new_obs(_: int) -> None:
        fresh[:] = [Observation(accessibility_tree=w.tree)]

    def alternate(i: int) -> object:
        return resolve_many(refs, obs) if i % 2 == 0 else _one_by_one(refs, obs)

    samples = measure_each(alternate, reps=int(60 * scale) or 6, budget_s=20.0 * scale)
    warm, one_by_one = samples[0::2], samples[1::2]
    cold = measure(
        lambda _: resolve_many(refs, fresh[0]),
        setup=new_obs,
        reps=int(10 * scale) or 3,
        budget_s=8.0 * scale,
        warmup=1,
        min_runs=3,
    )
    answered = sum(isinstance(r, Resolution) for r in resolve_many(refs, obs))
    return ManyResult(timing(warm), timing(one_by_one), cold, answered, len(refs))


@dataclass
class PageResult:
    """Per-page figures on one captured fixture."""

    page: str
    nodes: int
    rows: int
    refs: int
    build: Timing
    resolve: Timing
    seed: Timing

    def cells(self) -> list[str]:
        """One markdown row."""
        return [
            self.page, str(self.nodes), str(self.rows), str(self.refs),
            _fmt_ms(self.build.median), _fmt_ms(self.resolve.median), _fmt_ms(self.seed.median),
        ]  # fmt: skip


def bench_page(page: Path, scale: float) -> PageResult | None:
    """Build and self-resolution of every labelled element of one captured page."""
    capture = read_capture(page, with_dom=False)
    obs = capture.observation
    tree = obs.accessibility_tree
    table = obs.candidates("a11y")
    row_of = {node_id: i for i, node_id in enumerate(table.ids)}
    rows = [
        row_of[str(label["ax_node_id"])]
        for label in capture.labels.values()
        if str(label.get("ax_node_id")) in row_of
    ]
    refs = [ref_from_row(table, row) for row in rows]  # a real capture: no jitter
    if not refs:
        return None
    fresh: list[Observation] = []

    def new_obs(_: int) -> None:
        fresh[:] = [Observation(accessibility_tree=tree, screen_size=obs.screen_size)]

    def seed(i: int) -> str | None:
        ref = refs[i % len(refs)]
        return find_in_cdp_nodes(nodes, ref.role, ref.name, ref.bbox)

    build = measure(
        lambda _: fresh[0].candidates("a11y"),
        setup=new_obs,
        reps=int(100 * scale) or 5,
        budget_s=0.4 * scale,
    )
    nodes = cdp_nodes_of(obs)
    resolve = measure(
        lambda i: _lib_answer(refs[i % len(refs)], obs),
        reps=int(200 * scale) or 5,
        budget_s=0.4 * scale,
        warmup=len(refs),
    )
    seed_time = measure(seed, reps=int(200 * scale) or 5, budget_s=0.2 * scale)
    return PageResult(page.name, len(nodes), len(table), len(refs), build, resolve, seed_time)


def bench_pages(folder: Path, scale: float) -> list[PageResult]:
    """:func:`bench_page` for every captured page under ``folder``."""
    pages = sorted(p for p in folder.iterdir() if (p / "axtree.json").exists())
    return [r for r in (bench_page(p, scale) for p in pages) if r is not None]


def accuracy(folder: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """``summarize()`` of the fixture relocation trials for the library and for the seed."""
    trials = list(iter_trials(folder_captures(folder)))
    library = run_trials(trials, lambda ref, obs: resolve_element(ref, obs, sources=("a11y",)))
    seed = run_trials(trials, seed_resolve_cdp)
    return summarize(library), summarize(seed)


# -- output ---------------------------------------------------------------------------------


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _git_commit() -> str:
    try:
        out = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, timeout=10, check=False,
        )  # fmt: skip
        dirty = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True, text=True, timeout=10, check=False,
        )  # fmt: skip
    except OSError:
        return "unknown"
    commit = out.stdout.strip() or "unknown"
    return commit + (" (working tree has uncommitted changes)" if dirty.stdout.strip() else "")


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine_info() -> list[str]:
    """Lines describing the machine, interpreter and library versions."""
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count() or 0
    blas = {k: v for k, v in os.environ.items() if k.startswith(("OPENBLAS", "OMP_", "MKL_"))}
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return [
        f"- command: `{shlex.join([Path(sys.executable).name, *sys.argv])}` (cwd `{Path.cwd()}`)",
        f"- resolver {resolver.__version__} from `{Path(resolver.__file__).parent}`, "
        f"commit {_git_commit()}",
        f"- machine: {platform.system()} {platform.machine()}, {_cpu_model()}, "
        f"nproc {usable} (cpu_count {os.cpu_count()}), load average {load}",
        f"- python {platform.python_version()} ({platform.python_implementation()}), "
        f"numpy {np.__version__}, rapidfuzz {rapidfuzz.__version__}",
        f"- thread env (as found): {blas or 'none set'}",
    ]


def _pct(x: float) -> str:
    return f"{100.0 * x:.1f}%"


def main(argv: Sequence[str] | None = None) -> int:
    """Run every measurement and print the markdown report; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="repetitions x this factor")
    parser.add_argument("--seed", type=int, default=0, help="seed of the synthetic trees")
    parser.add_argument("--fixtures", type=Path, default=FIXTURES, help="captured fixtures")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    started = time.perf_counter()

    print("# resolver: speed and accuracy against the seed baseline\n")
    print("\n".join(machine_info()))
    print(
        "\nAll figures are medians of `time.perf_counter()` over repeated calls after a "
        "warm-up (p90 and the number of timed runs in brackets). Synthetic trees come from "
        "`benchmarks/synth.py` (CDP `getFullAXTree` node lists with boxes; node counts "
        "include ignored and `InlineTextBox` nodes); refs are recorded from the built table "
        "with `ref_from_row` and shifted by up to 3 px, and resolution cycles through 20 of "
        'them. "warm" = the observation\'s table is already built; "cold" = a fresh '
        "`Observation`, table build and the resolve, as on every new step of a runtime.\n"
    )

    sizes: list[SizeResult] = []
    ten_k: Workload | None = None
    for n in SIZES:
        w = workload(n, k=20, seed=args.seed)
        sizes.append(bench_size(w, args.scale))
        if n == 10_000:
            ten_k = w
    assert ten_k is not None
    many = bench_many(ten_k, 100, args.scale)

    print("## Synthetic CDP trees\n")
    rows: list[list[str]] = []
    for s in sizes:
        rows.append(
            [
                f"{s.n:,}",
                f"{s.rows:,}",
                s.build.ms(),
                s.resolve.ms(),
                s.cold.ms(),
                s.seed_nested.ms(),
                s.seed_cdp.ms(),
            ]
        )
    print(
        _table(
            [
                "nodes",
                "table rows",
                "build table",
                "resolve 1 ref (warm)",
                "new step: build + resolve 1 ref",
                "seed, nested tree",
                "seed, CDP list",
            ],
            rows,
        )
    )
    print("\n### Library vs seed on the same trees (same run)\n")
    rows = []
    for s in sizes:
        rows.append(
            [
                f"{s.n:,}",
                f"{s.seed_nested.median / s.resolve.median:.2f}x",
                f"{s.seed_nested.median / s.cold.median:.2f}x",
                f"{s.lib_correct}/{s.targets}",
                f"{s.seed_correct}/{s.targets}",
            ]
        )
    print(
        _table(
            [
                "nodes",
                "speed-up, warm resolve vs seed",
                "speed-up, new step vs seed",
                "library: own node found",
                "seed: own node found",
            ],
            rows,
        )
    )
    print(
        "\n(speed-up = seed median / library median; above 1 the library is faster. "
        '"own node found": the ref resolves to the node it was recorded from.)\n'
    )
    print("### resolve_many on the 10k-node tree\n")
    print(
        "`resolve_many` and the same refs resolved one by one with `resolve` are timed "
        "alternately in this run (table built).\n"
    )
    print(
        _table(
            [
                "refs",
                "resolve_many, warm (table built)",
                f"{many.refs} x resolve, warm",
                "speed-up",
                "resolve_many, cold (fresh observation)",
                "answered",
            ],
            [
                [
                    str(many.refs),
                    many.warm.ms(),
                    many.one_by_one.ms(),
                    f"{many.one_by_one.median / many.warm.median:.1f}x",
                    many.cold.ms(),
                    f"{many.answered}/{many.refs}",
                ]
            ],
        )
    )

    s10 = next(s for s in sizes if s.n == 10_000)
    speedup = s10.seed_nested.median / s10.resolve.median
    checks = [
        (
            "resolve 1 ref, 10k nodes, table built",
            _fmt_ms(s10.resolve.median),
            "<= 1 ms",
            s10.resolve.median <= 0.001,
        ),
        (
            "build table, 10k-node CDP tree",
            _fmt_ms(s10.build.median),
            "<= 20 ms",
            s10.build.median <= 0.020,
        ),
        ("speed-up vs seed, 10k nodes", f"{speedup:.2f}x", ">= 50x", speedup >= 50.0),
        (
            "resolve_many 100 refs, 10k nodes",
            _fmt_ms(many.warm.median),
            "<= 20 ms",
            many.warm.median <= 0.020,
        ),
    ]
    print("\n## Targets\n")
    print(
        _table(
            ["target", "measured (median)", "limit", "result"],
            [[name, got, limit, "PASS" if ok else "FAIL"] for name, got, limit, ok in checks],
        )
    )

    if args.fixtures.is_dir() and any(args.fixtures.iterdir()):
        print("\n## Captured fixtures, per page\n")
        print(
            "Every labelled element of a page recorded with `ref_from_row` and resolved on "
            "the same page.\n"
        )
        pages = bench_pages(args.fixtures, args.scale)
        print(
            _table(
                ["page", "CDP nodes", "rows", "refs", "build", "resolve 1 ref", "seed 1 ref"],
                [p.cells() for p in pages],
            )
        )
        lib, seed = accuracy(args.fixtures)
        print("\n## Accuracy on the fixture relocation trials\n")
        print(
            "Refs recorded on each base page, resolved on its changed versions "
            "(`resolver.replay.iter_trials`). Library: `resolve_element(ref, obs, "
            'sources=("a11y",))`; seed: the additive scorer over the CDP node list, '
            "answering `a11y:<nodeId>` unless its best score is 0.\n"
        )
        keys: list[tuple[str, Callable[[Any], str]]] = [
            ("trials", str),
            ("present targets", str),
            ("removed targets", str),
            ("correct", str),
            ("wrong", str),
            ("abstained (present, no answer)", str),
            ("rejected (removed, no answer)", str),
            ("false hit (removed, answered)", str),
            ("accuracy on present targets", _pct),
            ("wrong-answer rate (of answers)", _pct),
            ("rejection of removed targets", _pct),
            ("median time per trial", lambda v: f"{v:.3f} ms"),
        ]
        fields = (
            "trials", "present", "removed", "correct", "wrong", "abstained", "rejected",
            "false_hit", "accuracy_present", "wrong_rate_answered", "rejection_removed",
            "median_ms",
        )  # fmt: skip
        print(
            _table(
                ["", "library", "seed"],
                [
                    [label, fmt(lib[field]), fmt(seed[field])]
                    for (label, fmt), field in zip(keys, fields, strict=True)
                ],
            )
        )
        print(f"\nlibrary summarize(): `{lib}`\n\nseed summarize(): `{seed}`")
    else:
        print(f"\n(no captured fixtures under {args.fixtures}; page and accuracy sections skipped)")

    print(f"\nTotal time {time.perf_counter() - started:.0f} s.")
    failed = [name for name, _, _, ok in checks if not ok]
    return 1 if args.strict and failed else 0


if __name__ == "__main__":
    sys.exit(main())
