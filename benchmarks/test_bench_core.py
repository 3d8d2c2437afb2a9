"""pytest-benchmark suite for the core path: table build, resolve, resolve_many, and the seed.

Not part of the default test run (``testpaths = ["tests"]``). Run it with::

    python -m pytest benchmarks/test_bench_core.py --benchmark-only

Compare groups with ``--benchmark-group-by=group`` (the default) and save a run with
``--benchmark-autosave``. These benchmarks assert nothing about time; the targets are checked
by ``benchmarks/report.py``.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The helpers sit next to this file (pytest runs with --import-mode=importlib, which does not
# add it to sys.path), and the library measured is the one in this checkout.
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from seed_baseline import cdp_nodes_of, find_in_a11y_tree, find_in_cdp_nodes  # noqa: E402
from synth import Workload, make_refs, workload  # noqa: E402

from resolver import (  # noqa: E402
    Observation,
    Resolution,
    ResolutionError,
    SemanticElementRef,
    resolve,
    resolve_element,
    resolve_many,
)
from resolver.capture import ref_from_row  # noqa: E402
from resolver.replay import read_capture  # noqa: E402

FIXTURES = ROOT / "fixtures" / "captured"
PAGES = (
    sorted(p.name for p in FIXTURES.iterdir() if (p / "axtree.json").exists())
    if FIXTURES.is_dir()
    else []
)
SIZES = (1_000, 10_000, 100_000)


@pytest.fixture(scope="session")
def workloads() -> Callable[[int], Workload]:
    """Synthetic workloads by size, generated once per session on first use."""
    made: dict[int, Workload] = {}

    def get(n: int) -> Workload:
        if n not in made:
            made[n] = workload(n, k=20, seed=0)
        return made[n]

    return get


def _answer(ref: SemanticElementRef, observation: Observation) -> str | None:
    try:
        return resolve_element(ref, observation)
    except ResolutionError:
        return None


def _rounds(n: int) -> int:
    return 5 if n >= 100_000 else 20


@pytest.mark.benchmark(group="build table (fresh Observation each round)")
@pytest.mark.parametrize("n", SIZES)
def test_build_table(benchmark: Any, workloads: Callable[[int], Workload], n: int) -> None:
    """``obs.candidates("a11y")`` on a fresh observation of an ``n``-node CDP tree."""
    tree = workloads(n).tree

    def setup() -> tuple[tuple[Observation], dict[str, Any]]:
        return (Observation(accessibility_tree=tree),), {}

    table = benchmark.pedantic(
        lambda obs: obs.candidates("a11y"), setup=setup, rounds=_rounds(n), warmup_rounds=1
    )
    assert len(table) > 0


@pytest.mark.benchmark(group="resolve one ref (table built)")
@pytest.mark.parametrize("n", SIZES)
def test_resolve_one(benchmark: Any, workloads: Callable[[int], Workload], n: int) -> None:
    """``resolve_element`` of one ref at a time, cycling through 20 recorded refs."""
    w = workloads(n)
    obs = w.observation
    refs = itertools.cycle(w.targets)
    for target in w.targets:  # warm the table's lazy indexes
        _answer(target.ref, obs)
    benchmark.pedantic(lambda: _answer(next(refs).ref, obs), rounds=_rounds(n) * 4, warmup_rounds=2)


@pytest.mark.benchmark(group="resolve one ref: seed baseline")
@pytest.mark.parametrize("n", SIZES)
def test_seed_nested(benchmark: Any, workloads: Callable[[int], Workload], n: int) -> None:
    """The seed's ``find_in_a11y_tree`` on the same tree as nested dicts, same refs."""
    w = workloads(n)
    refs = itertools.cycle(w.targets)

    def run() -> str | None:
        ref = next(refs).ref
        return find_in_a11y_tree(w.nested, ref.role, ref.name, ref.bbox)

    benchmark.pedantic(run, rounds=_rounds(n) * 2, warmup_rounds=1)


@pytest.mark.benchmark(group="resolve one ref: seed baseline")
def test_seed_cdp_10k(benchmark: Any, workloads: Callable[[int], Workload]) -> None:
    """The seed scoring the 10k-node CDP list directly."""
    w = workloads(10_000)
    refs = itertools.cycle(w.targets)
    nodes = w.tree["nodes"]

    def run() -> str | None:
        ref = next(refs).ref
        return find_in_cdp_nodes(nodes, ref.role, ref.name, ref.bbox)

    benchmark.pedantic(run, rounds=40, warmup_rounds=1)


@pytest.mark.benchmark(group="resolve_many 100 refs, 10k nodes")
def test_resolve_many_10k(benchmark: Any, workloads: Callable[[int], Workload]) -> None:
    """``resolve_many`` of 100 refs against one observation whose table is built (one
    batch per source)."""
    w = workloads(10_000)
    refs = [t.ref for t in make_refs(w.table, 100, seed=7)]
    results = benchmark.pedantic(
        lambda: resolve_many(refs, w.observation), rounds=20, warmup_rounds=2
    )
    assert len(results) == len(refs)


@pytest.mark.benchmark(group="resolve_many 100 refs, 10k nodes")
def test_resolve_one_by_one_100_refs_10k(
    benchmark: Any, workloads: Callable[[int], Workload]
) -> None:
    """The same 100 refs, one ``resolve`` each, errors kept: what ``resolve_many`` returns."""
    w = workloads(10_000)
    refs = [t.ref for t in make_refs(w.table, 100, seed=7)]

    def run() -> list[Resolution | ResolutionError]:
        out: list[Resolution | ResolutionError] = []
        for ref in refs:
            try:
                out.append(resolve(ref, w.observation))
            except ResolutionError as exc:
                out.append(exc)
        return out

    results = benchmark.pedantic(run, rounds=10, warmup_rounds=1)
    assert len(results) == len(refs)


@pytest.mark.benchmark(group="resolve_many 100 refs, 10k nodes")
def test_seed_100_refs_10k(benchmark: Any, workloads: Callable[[int], Workload]) -> None:
    """The seed on the same 100 refs, one tree walk each."""
    w = workloads(10_000)
    refs = [t.ref for t in make_refs(w.table, 100, seed=7)]

    def run() -> list[str | None]:
        return [find_in_a11y_tree(w.nested, r.role, r.name, r.bbox) for r in refs]

    benchmark.pedantic(run, rounds=3, warmup_rounds=1)


def _page(name: str) -> tuple[dict[str, Any], list[SemanticElementRef], tuple[float, float]]:
    capture = read_capture(FIXTURES / name, with_dom=False)
    obs = capture.observation
    table = obs.candidates("a11y")
    row_of = {node_id: i for i, node_id in enumerate(table.ids)}
    refs = [
        ref_from_row(table, row_of[str(label["ax_node_id"])])
        for label in capture.labels.values()
        if str(label.get("ax_node_id")) in row_of
    ]
    assert obs.screen_size is not None
    return obs.accessibility_tree, refs, obs.screen_size


@pytest.mark.benchmark(group="captured page: build + resolve every labelled element")
@pytest.mark.parametrize("page", PAGES or [pytest.param("none", marks=pytest.mark.skip)])
def test_page_library(benchmark: Any, page: str) -> None:
    """A fresh observation of a captured page, its table, and every labelled ref resolved."""
    tree, refs, screen = _page(page)

    def run() -> list[str | None]:
        obs = Observation(accessibility_tree=tree, screen_size=screen)
        return [_answer(ref, obs) for ref in refs]

    benchmark(run)


@pytest.mark.benchmark(group="captured page: build + resolve every labelled element")
@pytest.mark.parametrize("page", PAGES or [pytest.param("none", marks=pytest.mark.skip)])
def test_page_seed(benchmark: Any, page: str) -> None:
    """The seed on the same page and refs."""
    tree, refs, screen = _page(page)
    nodes = cdp_nodes_of(Observation(accessibility_tree=tree, screen_size=screen))

    def run() -> list[str | None]:
        return [find_in_cdp_nodes(nodes, r.role, r.name, r.bbox) for r in refs]

    benchmark(run)
