"""SnapshotV1 on real pages: size, build time, and whether a snapshot resolves as its page.

Usage::

    python -m benchmarks.catalog.snapshots [--split heldout|tune|all] [--pages N]

For each page of the relocation benchmark whose renders are cached (and the project's
captured fixtures), every benchmark target is recorded on the base render
(``ref_from_row``) and resolved on each changed version twice: on the version's observation
and on ``Observation(accessibility_tree=to_snapshot_v1(version))``. Reported: how often the
two answers are the same (same executor ID, or the same error code), snapshot size against
the CDP tree's, and build time (median).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.catalog.stale_index import _cached
from benchmarks.relocation.mutate import make_versions
from benchmarks.relocation.render import render
from benchmarks.relocation.run import corpus_pages, split_of
from benchmarks.relocation.targets import choose_targets, load_page, serialize
from resolver import Observation, resolve
from resolver.capture import ref_from_row
from resolver.errors import ResolutionError
from resolver.replay.captures import load_capture
from resolver.snapshot import to_snapshot_v1


def _answer(ref: Any, obs: Observation) -> str:
    try:
        return resolve(ref, obs, sources=("a11y",)).executor_id
    except ResolutionError as exc:
        return exc.code.value


def measure_page(path: Path) -> dict[str, Any] | None:
    """Agreement, sizes and times of one page's versions (None when not cached)."""
    root = load_page(path / "source.html")
    targets = choose_targets(root, path.name)
    if not targets:
        return None
    base_html = serialize(root)
    versions = make_versions(root, targets, path.name)
    if not all(_cached(h) for h in [base_html, *(v.html for v in versions)]):
        return None
    base = load_capture("base", render(base_html)[0])
    table = base.observation.candidates("a11y")
    rows = {rid: i for i, rid in enumerate(table.ids)}
    nodes = [str((base.labels.get(t.key) or {}).get("ax_node_id")) for t in targets]
    refs = [ref_from_row(table, rows[node]) for node in nodes if node in rows]
    out: dict[str, Any] = {"same": 0, "total": 0, "ms": [], "ratio": [], "bytes": []}
    for version in versions:
        files = render(version.html)[0]
        obs = load_capture(version.name, files).observation
        obs.candidates("a11y")
        started = time.perf_counter()
        snap = to_snapshot_v1(obs)
        out["ms"].append((time.perf_counter() - started) * 1000)
        size = len(json.dumps(snap))
        out["bytes"].append(size)
        out["ratio"].append(size / max(1, len(files["axtree.json"])))
        back = Observation(accessibility_tree=snap)
        for ref in refs:
            out["total"] += 1
            out["same"] += _answer(ref, obs) == _answer(ref, back)
    return out


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.catalog.snapshots")
    parser.add_argument("--split", choices=("heldout", "tune", "all"), default="heldout")
    parser.add_argument("--pages", type=int)
    args = parser.parse_args(argv)
    pages = [p for p in corpus_pages() if args.split == "all" or split_of(p.name) == args.split]
    pages = pages[: args.pages] if args.pages else pages
    results = []
    for i, path in enumerate(pages, 1):
        found = measure_page(path)
        print(f"[{i}/{len(pages)}] {path.name}: {'-' if found is None else 'ok'}", file=sys.stderr)
        if found is not None:
            results.append(found)
    same = sum(r["same"] for r in results)
    total = sum(r["total"] for r in results)
    ms = [m for r in results for m in r["ms"]]
    sizes = [b for r in results for b in r["bytes"]]
    ratios = [x for r in results for x in r["ratio"]]
    print(f"{args.split} half: {len(results)} pages, {len(ms)} snapshots")
    print(f"- resolve the same as the page: {same}/{total} = {same / max(1, total):.2%}")
    print(f"- build time median {statistics.median(ms):.1f} ms (max {max(ms):.1f} ms)")
    print(f"- size median {statistics.median(sizes) / 1024:.1f} KiB, "
          f"{statistics.median(ratios):.1%} of the CDP tree's JSON")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
