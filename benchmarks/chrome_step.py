"""A new agent step on Chromium's own accessibility node lists, beside the naive loop.

Usage (from the repository root)::

    python -m benchmarks.chrome_step [--trees 8] [--repeat 5] [--json out.json]

The synthetic trees of :mod:`benchmarks.step_speed` are lean: each node has an ID, a role, a
name and its children. The lists Chromium returns for ``Accessibility.getFullAXTree`` carry
much more per node (name sources, property lists, ``chromeRole``, backend IDs, boxes the
capturer added), and some repeat an ID (an inline text box listed twice). Here the
trees are the relocation benchmark's renders (:mod:`benchmarks.relocation.render`; its cache
folder, ``$RESOLVER_RELOCATION_CACHE``): the ``--trees`` lists with the most nodes.

Per tree, ``--repeat`` samples of each, the order rotating from sample to sample
(:func:`benchmarks.step_speed.interleaved`): the table build
(``Observation(...).candidates("a11y")``), the step (a fresh observation and one ``resolve`` of a
named link or button of the list, the middle one in list order) and the naive loop over the
same list for the same role and name (:func:`benchmarks.seed_baseline.find_in_cdp_nodes`).
Printed: medians, per-node cost, and the naive loop over the step (at least 1 is the
target). Without the cache a one-line note is printed and the exit status is 0.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.relocation.render import cache_root
from benchmarks.seed_baseline import find_in_cdp_nodes
from benchmarks.step_speed import interleaved
from resolver import Observation, Resolution, ResolutionError, SemanticElementRef, resolve

__all__ = ["ChromeCase", "chrome_cases", "main", "naive", "step"]

TARGET_ROLES = ("link", "button")


@dataclass(frozen=True)
class ChromeCase:
    """One rendered page's node list and the reference a step resolves on it."""

    key: str
    nodes: list[dict[str, Any]]
    ref: SemanticElementRef

    @property
    def repeated_ids(self) -> int:
        """How many entries repeat an earlier entry's ``nodeId``."""
        return len(self.nodes) - len({n.get("nodeId") for n in self.nodes})


def _value(field: Any) -> Any:
    return field.get("value") if isinstance(field, dict) else None


def _case(path: Path) -> ChromeCase | None:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        data = json.load(handle)
    tree = data.get("axtree.json") if isinstance(data, dict) else None
    if isinstance(tree, str):
        tree = json.loads(tree)
    nodes = tree.get("nodes") if isinstance(tree, dict) else tree
    if not isinstance(nodes, list):
        return None
    named = [
        n for n in nodes
        if _value(n.get("role")) in TARGET_ROLES and isinstance(_value(n.get("name")), str)
        and _value(n.get("name")).strip()
    ]  # fmt: skip
    if not named:
        return None
    node = named[len(named) // 2]
    ref = SemanticElementRef(role=_value(node["role"]), name=_value(node["name"]))
    return ChromeCase(path.name.split(".")[0], nodes, ref)


def cases_from(cache: Path | None, count: int) -> list[ChromeCase]:
    """:func:`chrome_cases` of the render cache (``cache``, else the benchmark's); none, with
    a message on stderr, where it holds no rendered lists."""
    root = cache or cache_root()
    cases = chrome_cases(root, count) if root.is_dir() else []
    if not cases:
        print(f"no rendered node lists under {root}: nothing to measure", file=sys.stderr)
    return cases


def chrome_cases(root: Path, count: int) -> list[ChromeCase]:
    """The ``count`` cached node lists with the most nodes (ties by key), largest first;
    only the 4 * ``count`` largest files are read."""
    files = sorted(root.glob("*/*.json.gz"), key=lambda p: (-p.stat().st_size, p.name))
    found = [c for c in map(_case, files[: 4 * count]) if c is not None]
    found.sort(key=lambda c: (-len(c.nodes), c.key))
    return found[:count]


def step(case: ChromeCase) -> Resolution | ResolutionError:
    """The agent step: a fresh observation of the list and one resolve."""
    try:
        return resolve(case.ref, Observation(accessibility_tree=case.nodes))
    except ResolutionError as exc:
        return exc


def naive(case: ChromeCase) -> str | None:
    """The seed's loop over the same list for the same role and name."""
    return find_in_cdp_nodes(case.nodes, case.ref.role, case.ref.name)


def _build(case: ChromeCase) -> object:
    return Observation(accessibility_tree=case.nodes).candidates("a11y")


def measure(case: ChromeCase, repeat: int) -> dict[str, Any]:
    """Medians (ms) of the build, the step and the naive loop, sampled alternately
    (:func:`benchmarks.step_speed.interleaved`), and the median of the per-sample ratios
    naive / step."""
    calls: dict[str, Callable[[], object]] = {
        "build": lambda: _build(case), "step": lambda: step(case), "naive": lambda: naive(case)
    }  # fmt: skip
    samples = interleaved(calls, repeat)
    ratios = [n / s for n, s in zip(samples["naive"], samples["step"], strict=True)]
    out: dict[str, Any] = {"key": case.key, "nodes": len(case.nodes)}
    out["repeated_ids"] = case.repeated_ids
    out.update({f"{name}_ms": 1e3 * statistics.median(v) for name, v in samples.items()})
    out["naive_over_step"] = statistics.median(ratios)
    return out


def table(rows: list[dict[str, Any]]) -> str:
    """The figures as a markdown table, with the medians over the trees last."""
    lines = [
        "| tree | nodes | IDs repeated | build ms | build us/node | step ms | naive ms | "
        "naive/step |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['key'][:10]} | {r['nodes']:,} | {r['repeated_ids']} | {r['build_ms']:.1f} | "
            f"{1e3 * r['build_ms'] / r['nodes']:.2f} | {r['step_ms']:.1f} | {r['naive_ms']:.1f} | "
            f"{r['naive_over_step']:.2f} |"
        )
    if rows:
        per_node = statistics.median(1e3 * r["build_ms"] / r["nodes"] for r in rows)
        ratio = statistics.median(r["naive_over_step"] for r in rows)
        lines.append(f"| median | | | | {per_node:.2f} | | | {ratio:.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.chrome_step")
    parser.add_argument("--trees", type=int, default=8, help="how many lists (default 8)")
    parser.add_argument("--repeat", type=int, default=5, help="samples per tree (default 5)")
    parser.add_argument("--cache", type=Path, help="the render cache (default: the benchmark's)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    cases = cases_from(args.cache, args.trees)
    if not cases:
        return 0
    step(cases[-1])  # imports and first-use caches outside the samples
    rows = [measure(case, args.repeat) for case in cases]
    print(table(rows))
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
