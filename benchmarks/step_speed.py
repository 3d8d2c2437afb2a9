"""One agent step against the naive loop, on the seeded synthetic trees of ``build_speed``.

Usage (from the repository root)::

    python -m benchmarks.step_speed [--sizes 1000 10000 50000 200000] [--repeat 3] [--json F]
                                    [--svg docs/step_speed.svg]
    PYTHONPATH=<other checkout> python -m benchmarks.step_speed   # the same on other code

For every size the tree is made as nested dicts (``nested_tree``), as a CDP node list
(``cdp_tree``) and as a Playwright accessibility snapshot (``snapshot``: the nested tree
without boxes; ``--kinds`` picks among them), and one ref is taken from a real node of it
(the role and name of a button or link picked with ``--seed``). Timed on each tree, per
sample:

- ``build``: ``Observation(accessibility_tree=tree).candidates("a11y")``;
- ``step``: ``Observation(accessibility_tree=tree)`` and one ``resolve(ref, obs)`` (a
  :class:`~resolver.ResolutionError` counts as an answer), the new agent step;
- ``naive``: the seed's loop on the same tree and ref (``find_in_a11y_tree`` on nested
  dicts and snapshots, ``find_in_cdp_nodes`` on CDP lists).

Step and naive loop alternate within every sample (which goes first swaps each sample), so
their ratio is measured under the same load; the table gives medians. ``growth`` is the cost
per node at a size over the cost per node at 10k nodes (1.00 is linear). On the 10k trees the
warm case is timed too: one ``resolve`` and ``resolve_many`` of 100 refs once the table is
built, against the naive loop over the same refs, and one ``resolve`` called 50 times back to
back (no collection or naive loop between calls: warm caches; its median).

``--svg`` draws the per-node costs against tree size, a panel per tree (:func:`svg`).

``--floor`` times instead what reading a CDP list costs before any work: one pass over the
nodes per field the table reads (:func:`field_passes`), against the naive loop.

``benchmarks/test_bench_step.py`` runs the same cases under pytest-benchmark.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import math
import random
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from benchmarks.build_speed import cdp_tree, nested_tree
from benchmarks.seed_baseline import find_in_a11y_tree, find_in_cdp_nodes
from resolver import (
    Observation,
    Resolution,
    ResolutionError,
    SemanticElementRef,
    resolve,
    resolve_many,
)

SIZES = (1_000, 10_000, 50_000, 200_000)
BASE = 10_000
TARGET_ROLES = ("button", "link")


@dataclass(frozen=True)
class Case:
    """One tree (``kind`` is one of :data:`KINDS`) of ``nodes`` nodes and refs of its
    real nodes."""

    kind: str
    nodes: int
    tree: dict[str, Any]
    refs: tuple[SemanticElementRef, ...]

    @property
    def ref(self) -> SemanticElementRef:
        """The ref of a single step."""
        return self.refs[0]


def _walk(root: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """The nodes of a nested tree in pre-order."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.get("children") or ()))


def pick_refs(nested: Mapping[str, Any], count: int, seed: int) -> tuple[SemanticElementRef, ...]:
    """``count`` refs (role and name) of distinct buttons and links of ``nested``, by seed.

    Examples
    --------
    >>> tree = nested_tree(200)
    >>> [r.role in TARGET_ROLES for r in pick_refs(tree, 3, seed=0)]
    [True, True, True]
    >>> pick_refs(tree, 3, seed=0) == pick_refs(tree, 3, seed=0)
    True
    """
    targets = [n for n in _walk(nested) if n.get("role") in TARGET_ROLES and n.get("name")]
    chosen = random.Random(seed).sample(targets, min(count, len(targets)))
    return tuple(SemanticElementRef(role=n["role"], name=n["name"]) for n in chosen)


KINDS = ("nested", "cdp", "playwright")
"""The trees: nested dicts with boxes, the same as a CDP node list, and the same without
boxes, which is a Playwright ``page.accessibility.snapshot()``."""


def cases(
    size: int, *, seed: int = 0, refs: int = 1, kinds: Sequence[str] = ("nested", "cdp")
) -> tuple[Case, ...]:
    """The cases of ``size`` nodes of each of ``kinds``, with the same ``refs`` refs. Each
    tree is read back from its JSON text, as a runtime receives it (every string its own
    object, as the protocol's ``nodeId`` and ``childIds`` are)."""
    nested = nested_tree(size)
    picked = pick_refs(nested, refs, seed)
    made = {
        "nested": lambda: nested,
        "cdp": lambda: cdp_tree(nested),
        "playwright": lambda: snapshot(nested),
    }
    return tuple(Case(k, size, json.loads(json.dumps(made[k]())), picked) for k in kinds)


def snapshot(nested: Mapping[str, Any]) -> dict[str, Any]:
    """The tree as Playwright's accessibility snapshot gives it: roles, names and children
    (left out where there are none), no boxes (a copy)."""
    node = {"role": nested["role"], "name": nested["name"]}
    if nested["children"]:
        node["children"] = [snapshot(kid) for kid in nested["children"]]
    return node


def build(case: Case) -> int:
    """The a11y table of a fresh observation of the tree; returns its row count."""
    return len(Observation(accessibility_tree=case.tree).candidates("a11y"))


def answer(ref: SemanticElementRef, observation: Observation) -> Resolution | ResolutionError:
    """``resolve(ref, observation)``, a refusal returned instead of raised."""
    try:
        return resolve(ref, observation)
    except ResolutionError as exc:
        return exc


def step(case: Case, ref: SemanticElementRef | None = None) -> Resolution | ResolutionError:
    """The agent step: a fresh observation of the tree and one resolve."""
    return answer(ref or case.ref, Observation(accessibility_tree=case.tree))


def naive(case: Case, ref: SemanticElementRef | None = None) -> str | None:
    """The seed's loop over the same tree for ``ref`` (the case's ref by default)."""
    ref = ref or case.ref
    if case.kind != "cdp":
        return find_in_a11y_tree(case.tree, ref.role, ref.name, ref.bbox)
    return find_in_cdp_nodes(case.tree["nodes"], ref.role, ref.name, ref.bbox)


def seconds(fn: Callable[[], object]) -> float:
    """Wall time of one call."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def interleaved(fns: Mapping[str, Callable[[], object]], repeat: int) -> dict[str, list[float]]:
    """``repeat`` samples of every function, all of them in each sample, the order rotating
    from sample to sample; the lists of seconds by name."""
    names = list(fns)
    out: dict[str, list[float]] = {name: [] for name in names}
    for sample in range(repeat):
        shift = sample % len(names)
        for name in names[shift:] + names[:shift]:
            gc.collect()
            out[name].append(seconds(fns[name]))
    return out


def measure_case(case: Case, repeat: int) -> dict[str, Any]:
    """Build, step and naive loop of one case, interleaved; medians in ms and the naive/step
    ratio (the median of the per-sample ratios)."""
    samples = interleaved(
        {"build": lambda: build(case), "step": lambda: step(case), "naive": lambda: naive(case)},
        repeat,
    )
    ratios = [n / s for n, s in zip(samples["naive"], samples["step"], strict=True)]
    result = step(case)
    return {
        "tree": case.kind, "nodes": case.nodes,
        "build_ms": 1e3 * statistics.median(samples["build"]),
        "step_ms": 1e3 * statistics.median(samples["step"]),
        "naive_ms": 1e3 * statistics.median(samples["naive"]),
        "naive_over_step": statistics.median(ratios),
        "answer": "refused" if isinstance(result, ResolutionError) else result.executor_id,
        "samples_ms": {k: [round(1e3 * v, 2) for v in vs] for k, vs in samples.items()},
    }  # fmt: skip


def measure_warm(case: Case, repeat: int) -> dict[str, Any]:
    """The warm case: the table built once, then one resolve, ``resolve_many`` of the case's
    refs, and the naive loop for one ref and for every ref (medians in ms)."""
    obs = Observation(accessibility_tree=case.tree)
    obs.candidates("a11y")
    answer(case.ref, obs)  # the lazy indexes too
    samples = interleaved(
        {
            "resolve_one": lambda: answer(case.ref, obs),
            "naive_one": lambda: naive(case),
            "resolve_many": lambda: resolve_many(case.refs, obs),
            "naive_many": lambda: [naive(case, ref) for ref in case.refs],
        },
        repeat,
    )
    medians = {f"{k}_ms": 1e3 * statistics.median(v) for k, v in samples.items()}
    medians["resolve_back_to_back_ms"] = 1e3 * back_to_back(lambda: answer(case.ref, obs))
    return {"tree": case.kind, "nodes": case.nodes, "refs": len(case.refs), **medians}


def back_to_back(fn: Callable[[], object], calls: int = 50) -> float:
    """The median seconds of ``calls`` calls made one after the other, with no collection
    or other work between them (caches as a runtime that resolves several references in a
    row finds them; the interleaved samples start each call after a collection and the
    naive loop, with cold caches)."""
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


FLOOR_FIELDS = (
    "nodeId", "role", "ignored", "childIds", "parentId", "name", "bbox", "properties", "value",
    "backendDOMNodeId",
)  # fmt: skip
"""The fields of a CDP node the a11y table reads (``role`` and ``name`` are ``{"value": ...}``
objects, read a second time)."""


def field_passes(nodes: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
    """One ``map(dict.get)`` pass over ``nodes`` per field of :data:`FLOOR_FIELDS`, in list
    order, and the inner ``value`` of every role and name: reading what a table holds, and
    doing nothing with it."""
    columns = [list(map(dict.get, nodes, itertools.repeat(key))) for key in FLOOR_FIELDS]
    for column in (columns[1], columns[5]):
        inner = [c for c in column if c is not None]
        columns.append(list(map(dict.get, inner, itertools.repeat("value"))))
    return columns


def measure_floor(case: Case, repeat: int) -> dict[str, Any]:
    """The floor of a CDP list read by Python, beside the naive loop (medians in ms): one
    field pass, :func:`field_passes`, and the naive loop, interleaved."""
    nodes = case.tree["nodes"]
    samples = interleaved(
        {
            "one_field": lambda: list(map(dict.get, nodes, itertools.repeat("role"))),
            "fields": lambda: field_passes(nodes),
            "naive": lambda: naive(case),
        },
        repeat,
    )
    return {
        "nodes": case.nodes,
        **{f"{k}_ms": 1e3 * statistics.median(v) for k, v in samples.items()},
    }


def floor_table(rows: list[dict[str, Any]]) -> str:
    """:func:`measure_floor`'s figures as a Markdown table."""
    lines = [
        "| CDP list | one field ms | us/node | the table's fields ms | us/node | naive ms |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        n = r["nodes"]
        lines.append(
            f"| {n:,} | {r['one_field_ms']:.1f} | {1e3 * r['one_field_ms'] / n:.2f} | "
            f"{r['fields_ms']:.1f} | {1e3 * r['fields_ms'] / n:.2f} | {r['naive_ms']:.1f} |"
        )
    return "\n".join(lines)


def growth(rows: list[dict[str, Any]], key: str) -> None:
    """Add ``<key>_growth``: per-node cost at the row's size over the same tree's at 10k."""
    base = {r["tree"]: r[key] / r["nodes"] for r in rows if r["nodes"] == BASE}
    for row in rows:
        ref = base.get(row["tree"])
        row[f"{key}_growth"] = (row[key] / row["nodes"]) / ref if ref else None


def table(rows: list[dict[str, Any]], warm: list[dict[str, Any]]) -> str:
    """The figures as a Markdown table (and the warm case below it)."""

    def g(value: float | None) -> str:
        return "–" if value is None else f"{value:.2f}"

    lines = [
        "| tree | nodes | build ms | build us/node | step ms | naive ms | naive/step | "
        "growth build | growth step |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['tree']} | {r['nodes']:,} | {r['build_ms']:.1f} | "
            f"{1e3 * r['build_ms'] / r['nodes']:.2f} | {r['step_ms']:.1f} | {r['naive_ms']:.1f} | "
            f"{r['naive_over_step']:.2f} | {g(r['build_ms_growth'])} | {g(r['step_ms_growth'])} |"
        )
    if warm:
        lines += [
            "",
            "| warm, table built | nodes | resolve ms | resolve ms, back to back | naive ms | "
            "resolve_many ms (refs) | naive ms, same refs | per ref us |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for w in warm:
            lines.append(
                f"| {w['tree']} | {w['nodes']:,} | {w['resolve_one_ms']:.2f} | "
                f"{w['resolve_back_to_back_ms']:.2f} | {w['naive_one_ms']:.2f} | "
                f"{w['resolve_many_ms']:.1f} ({w['refs']}) | {w['naive_many_ms']:.1f} | "
                f"{1e3 * w['resolve_many_ms'] / w['refs']:.0f} |"
            )
    return "\n".join(lines)


SERIES: tuple[tuple[str, str, str], ...] = (
    ("step_ms", "step", "#1f6fb4"),
    ("build_ms", "build", "#7fb0dc"),
    ("naive_ms", "naive loop", "#888"),
)
"""What the growth picture draws per tree: the row's key, its label and its colour."""
PANEL_W, PANEL_H, PAD = 300, 190, 70


def svg(rows: Sequence[Mapping[str, Any]]) -> str:
    """The growth picture: one panel per tree, its nodes across (a log scale), microseconds
    a node up, for the step, the build and the naive loop (:data:`SERIES`). Flat lines are
    linear growth; the step under the naive loop is a step faster than the loop. Each
    panel's subtitle gives naive/step per size."""
    trees = list(dict.fromkeys(str(r["tree"]) for r in rows))
    width = PAD + len(trees) * (PANEL_W + PAD)
    height = PANEL_H + 2 * PAD + 30
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        'font-family="sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    for i, tree in enumerate(trees):
        mine = sorted((r for r in rows if r["tree"] == tree), key=lambda r: int(r["nodes"]))
        out += _growth_panel(tree, mine, PAD + i * (PANEL_W + PAD), PAD)
    legend_y = PAD + PANEL_H + 52
    for j, (_, label, colour) in enumerate(SERIES):
        x = PAD + j * 120
        out += [
            f'<line x1="{x}" y1="{legend_y}" x2="{x + 24}" y2="{legend_y}" stroke="{colour}" '
            'stroke-width="2"/>',
            f'<text x="{x + 30}" y="{legend_y + 4}">{label}</text>',
        ]
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _growth_panel(tree: str, rows: list[Mapping[str, Any]], x0: float, y0: float) -> list[str]:
    """One tree's panel of :func:`svg` (``rows`` by size, ascending)."""
    sizes = [int(r["nodes"]) for r in rows]
    low, high = math.log10(min(sizes)), math.log10(max(sizes))
    per_node = {key: [1e3 * float(r[key]) / int(r["nodes"]) for r in rows] for key, *_ in SERIES}
    top = _nice_top(max(v for values in per_node.values() for v in values))

    def at(nodes: int, us: float) -> tuple[float, float]:
        across = (math.log10(nodes) - low) / (high - low) if high > low else 0.5
        return x0 + across * PANEL_W, y0 + (1.0 - us / top) * PANEL_H

    ratios = " · ".join(
        f"{_short(n)} {float(r['naive_over_step']):.2f}" for n, r in zip(sizes, rows, strict=True)
    )
    parts = [
        f'<text x="{x0}" y="{y0 - 24}" font-weight="bold">{escape(tree)}</text>',
        f'<text x="{x0}" y="{y0 - 9}" fill="#555">naive/step: {ratios}</text>',
        f'<rect x="{x0}" y="{y0}" width="{PANEL_W}" height="{PANEL_H}" fill="none" stroke="#888"/>',
        f'<text x="{x0 + PANEL_W / 2}" y="{y0 + PANEL_H + 30}" text-anchor="middle">nodes</text>',
        f'<text x="{x0 - 42}" y="{y0 + PANEL_H / 2}" text-anchor="middle" '
        f'transform="rotate(-90 {x0 - 42} {y0 + PANEL_H / 2})">microseconds a node</text>',
    ]
    for nodes in sizes:
        tx, _ = at(nodes, 0.0)
        parts.append(
            f'<text x="{tx:.1f}" y="{y0 + PANEL_H + 14}" text-anchor="middle" '
            f'fill="#555">{_short(nodes)}</text>'
        )
    for tick in (0.0, top / 2, top):
        _, ty = at(sizes[0], tick)
        parts.append(
            f'<text x="{x0 - 5}" y="{ty + 4:.1f}" text-anchor="end" fill="#555">{tick:g}</text>'
        )
    for key, label, colour in SERIES:
        points = [at(n, v) for n, v in zip(sizes, per_node[key], strict=True)]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        parts += [
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}"><title>{label}, '
            f"{_short(n)} nodes: {v:.2f} us a node</title></circle>"
            for n, v, (x, y) in zip(sizes, per_node[key], points, strict=True)
        ]
    return parts


def _nice_top(value: float) -> float:
    """The least of 1, 2 or 5 times a power of ten at or above ``value`` (1 for nothing)."""
    if not value > 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(value))
    return next(m * power for m in (1.0, 2.0, 5.0, 10.0) if m * power >= value)


def _short(nodes: int) -> str:
    """``200000`` -> ``"200k"``, ``1500`` -> ``"1.5k"``, ``800`` -> ``"800"``."""
    return f"{nodes / 1000:g}k" if nodes >= 1000 else str(nodes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    parser.add_argument("--repeat", type=int, default=3, help="samples per tree (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="which nodes the refs name")
    parser.add_argument("--refs", type=int, default=100, help="refs of the warm case")
    parser.add_argument("--no-warm", action="store_true", help="skip the warm 10k case")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--svg", type=Path, help="also draw the growth picture here")
    parser.add_argument(
        "--floor", action="store_true",
        help="instead: the fields a table reads from a CDP list, passed over and nothing "
        "more, against the naive loop",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.floor:
        floors = [measure_floor(cases(size, kinds=["cdp"])[0], args.repeat) for size in args.sizes]
        print(floor_table(floors))
        return 0
    rows: list[dict[str, Any]] = []
    warm: list[dict[str, Any]] = []
    warmed: set[str] = set()
    for size in args.sizes:
        for case in cases(size, seed=args.seed, refs=args.refs, kinds=args.kinds):
            if case.kind not in warmed:  # imports and first-use caches outside the samples
                step(cases(1_000, kinds=[case.kind])[0])
                warmed.add(case.kind)
            rows.append(measure_case(case, args.repeat))
            if size == BASE and not args.no_warm:
                warm.append(measure_warm(case, args.repeat))
    for key in ("build_ms", "step_ms"):
        growth(rows, key)
    print(table(rows, warm))
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "warm": warm}, indent=1))
    if args.svg:
        args.svg.parent.mkdir(parents=True, exist_ok=True)
        args.svg.write_text(svg(rows), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
