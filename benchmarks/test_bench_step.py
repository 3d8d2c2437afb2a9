"""pytest-benchmark suite: one agent step against the naive loop, 1k to 200k nodes.

Not part of the default test run (``testpaths`` leaves the top of ``benchmarks/`` out). Run
it with::

    python -m pytest benchmarks/test_bench_step.py --benchmark-only \
        --benchmark-columns=min,median,mean,rounds --benchmark-sort=name
    python -m pytest benchmarks/test_bench_step.py --benchmark-only -k "10000"   # one size

Groups, per tree (``nested`` dicts, ``cdp`` node list, ``playwright`` snapshot: the
nested tree without boxes; ``benchmarks/build_speed.py``, ``benchmarks/step_speed.py``) and
size:

- ``build``: ``Observation(accessibility_tree=tree).candidates("a11y")``;
- ``step``: ``Observation(accessibility_tree=tree)`` and one ``resolve(ref, obs)`` of a real
  node's role and name (a refusal counts as an answer);
- ``naive``: the seed's loop over the same tree for the same ref;
- on the 10k trees, the table built: one ``resolve``, ``resolve_many`` of 100 refs, and the
  naive loop over the same 100 refs.

The cases are those of ``python -m benchmarks.step_speed``, which times step and naive loop
interleaved in one run and prints their ratio. Nothing here asserts a time.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
# pytest runs with --import-mode=importlib, which does not put the checkout on sys.path
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.step_speed import (  # noqa: E402
    BASE,
    KINDS,
    SIZES,
    Case,
    answer,
    build,
    cases,
    naive,
    step,
)
from resolver import Observation, resolve_many  # noqa: E402

WARM_REFS = 100


@pytest.fixture(scope="module")
def case_of() -> Callable[[str, int], Case]:
    """Cases by tree kind and size, made once per module on first use (100 refs each)."""
    made: dict[int, tuple[Case, ...]] = {}

    def get(kind: str, n: int) -> Case:
        if n not in made:
            made[n] = cases(n, seed=0, refs=WARM_REFS, kinds=KINDS)
        return made[n][KINDS.index(kind)]

    return get


def _rounds(n: int) -> int:
    return 3 if n >= 200_000 else 5 if n >= 50_000 else 15


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("kind", KINDS)
def test_build(benchmark: Any, case_of: Callable[[str, int], Case], kind: str, n: int) -> None:
    """The a11y table of a fresh observation."""
    case = case_of(kind, n)
    benchmark.group = f"{kind} {n:>7,} nodes"
    rows = benchmark.pedantic(build, args=(case,), rounds=_rounds(n), warmup_rounds=1)
    assert rows > 0


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("kind", KINDS)
def test_step(benchmark: Any, case_of: Callable[[str, int], Case], kind: str, n: int) -> None:
    """A fresh observation and one resolve."""
    case = case_of(kind, n)
    benchmark.group = f"{kind} {n:>7,} nodes"
    benchmark.pedantic(step, args=(case,), rounds=_rounds(n), warmup_rounds=1)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("kind", KINDS)
def test_naive(benchmark: Any, case_of: Callable[[str, int], Case], kind: str, n: int) -> None:
    """The seed's loop on the same tree and ref."""
    case = case_of(kind, n)
    benchmark.group = f"{kind} {n:>7,} nodes"
    benchmark.pedantic(naive, args=(case,), rounds=_rounds(n), warmup_rounds=1)


def _warm(case: Case) -> Observation:
    obs = Observation(accessibility_tree=case.tree)
    obs.candidates("a11y")
    answer(case.ref, obs)
    return obs


@pytest.mark.parametrize("kind", KINDS)
def test_warm_resolve_one(benchmark: Any, case_of: Callable[[str, int], Case], kind: str) -> None:
    """One resolve on the 10k tree whose table (and lazy indexes) are built."""
    case = case_of(kind, BASE)
    obs = _warm(case)
    benchmark.group = f"{kind} 10k nodes, table built"
    benchmark.pedantic(answer, args=(case.ref, obs), rounds=50, warmup_rounds=2)


@pytest.mark.parametrize("kind", KINDS)
def test_warm_resolve_many(benchmark: Any, case_of: Callable[[str, int], Case], kind: str) -> None:
    """``resolve_many`` of 100 refs on the 10k tree whose table is built."""
    case = case_of(kind, BASE)
    obs = _warm(case)
    benchmark.group = f"{kind} 10k nodes, table built"
    results = benchmark.pedantic(resolve_many, args=(case.refs, obs), rounds=10, warmup_rounds=1)
    assert len(results) == WARM_REFS


@pytest.mark.parametrize("kind", KINDS)
def test_warm_naive_many(benchmark: Any, case_of: Callable[[str, int], Case], kind: str) -> None:
    """The naive loop over the same 100 refs, one tree walk each."""
    case = case_of(kind, BASE)
    benchmark.group = f"{kind} 10k nodes, table built"

    def run() -> list[str | None]:
        return [naive(case, ref) for ref in case.refs]

    benchmark.pedantic(run, rounds=3, warmup_rounds=0)
