"""Every answer the project's benchmarks give, in one JSON file, to diff two versions.

A change meant to keep behaviour (a refactor, a speed-up) must leave this file identical:
the candidate tables every adapter builds from the fixtures and the readability pages (each
column digested), and every resolution the README's figures are made of (fixture relocation
per source and per reference variant, the cross-platform matrix, DOM relocation, the WPT
accname cases, the synthetic workload, and the real format samples).

Usage (from the repository root)::

    python -m benchmarks.answers --out before.json     # on the old version
    python -m benchmarks.answers --out after.json      # on the new one
    python -m benchmarks.answers --compare before.json after.json

``--compare`` prints the keys whose values differ and exits 1 when any does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from resolver import CandidateTable, Observation, SemanticElementRef, resolve
from resolver.errors import ResolutionError

from .ablation import VARIANTS
from .dom.corpora import REPO, corpora_dir

FIXTURES = REPO / "fixtures"


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=_plain)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _plain(value: Any) -> Any:
    if hasattr(value, "tolist"):
        return [None if isinstance(v, float) and math.isnan(v) else v for v in value.tolist()]
    return str(value)


def table_digest(table: CandidateTable) -> dict[str, str]:
    """One digest per column (and the table's coordinate facts)."""
    boxes = [[None if math.isnan(v) else round(v, 3) for v in row] for row in table.bboxes.tolist()]
    columns: dict[str, Any] = {
        "format": table.format,
        "ids": table.ids,
        "executor_ids": table.executor_ids,
        "roles": table.roles,
        "raw_roles": table.raw_roles,
        "names": table.names,
        "values": table.values,
        "bboxes": boxes,
        "depth": table.depth.tolist(),
        "parent": table.parent.tolist(),
        "states": [table.enabled.tolist(), table.visible.tolist(), table.focused.tolist()],
        "containers": list(table.containers),
        "platform_ids": {k: list(v) for k, v in sorted(table.platform_ids.items())},
        "coord_space": str(getattr(table.coord_space, "value", table.coord_space)),
        "screen_size": table.screen_size,
    }
    return {key: _digest(value) for key, value in columns.items()}


def _answer(ref: SemanticElementRef, obs: Observation, **options: Any) -> str:
    try:
        res = resolve(ref, obs, **options)
    except ResolutionError as exc:
        return exc.code.value
    return f"{res.executor_id} {res.score:.4f} {res.margin:.4f}"


def format_tables() -> Iterator[tuple[str, CandidateTable]]:
    """Tables of every format fixture and every captured page (a11y and DOM)."""
    for path in sorted((FIXTURES / "formats").rglob("*")):
        if path.is_file() and path.suffix != ".py":
            yield (
                f"formats/{path.relative_to(FIXTURES / 'formats')}",
                Observation(accessibility_tree=path.read_bytes()).candidates("a11y"),
            )
    for folder in sorted((FIXTURES / "captured").iterdir()):
        obs = _captured(folder)
        yield f"captured/{folder.name}/a11y", obs.candidates("a11y")
        yield f"captured/{folder.name}/dom", obs.candidates("dom")


def _captured(folder: Path) -> Observation:
    records = json.loads((folder / "chromium_dom.json").read_text())
    meta = json.loads((folder / "meta.json").read_text())
    return Observation(
        accessibility_tree=json.loads((folder / "axtree.json").read_text()),
        dom_html=(folder / "dom.html").read_bytes(),
        screen_size=tuple(meta.get("viewport") or (1280, 800)),
        dom_layout={r["xpath"]: r["bbox"] for r in records if r.get("bbox")},
        dom_node_map={
            str(r["backend_node_id"]): r["xpath"]
            for r in records
            if r.get("backend_node_id") is not None
        },
    )


def readability_tables() -> Iterator[tuple[str, CandidateTable]]:
    """DOM tables of the readability pages (when the corpora are on this machine)."""
    root = corpora_dir()
    if root is None:
        return
    for page in sorted((root / "readability-pages" / "pages").iterdir()):
        source = page / "source.html"
        if source.is_file():
            try:
                table = Observation(dom_html=source.read_bytes()).candidates("dom")
            except ResolutionError as exc:
                yield f"readability/{page.name}", _ErrorTable(exc.code.value)  # type: ignore[misc]
                continue
            yield f"readability/{page.name}", table


class _ErrorTable:
    def __init__(self, code: str) -> None:
        self.code = code


def fixture_trials() -> dict[str, str]:
    """Every fixture relocation trial, per source set and reference variant."""
    from resolver.replay import folder_captures, iter_trials

    trials = list(iter_trials(folder_captures(FIXTURES / "captured")))
    out: dict[str, str] = {}
    for sources in (("a11y",), ("dom",), ("a11y", "dom", "vision", "coords")):
        for label, variant in VARIANTS.items():
            if sources != ("a11y",) and label != next(iter(VARIANTS)):
                continue
            for trial in trials:
                ref = variant(trial.ref)
                key = f"trial/{','.join(sources)}/{label}/{trial.scenario}/{trial.key}"
                out[key] = _answer(ref, trial.changed.observation, sources=sources)
    return out


def cross_platform() -> dict[str, str]:
    """The cross-platform matrix, cell by cell and target by target."""
    sys.path.insert(0, str(REPO / "tests"))
    import test_cross_platform as cp

    return {
        f"xplat/{s}/{t}/{name}/{ids}": cp.outcome(s, t, name, with_ids=ids)
        for s in cp.PLATFORMS
        for t in cp.PLATFORMS
        for name in cp.TARGETS
        for ids in (False, True)
    }


def dom_relocation() -> dict[str, str]:
    """DOM-only relocation across fixture versions (its per-case outcomes)."""
    from .dom.relocation import evaluate

    result = evaluate(FIXTURES / "captured", verbose=False)
    return {"dom_relocation": _digest(result)}


def wpt() -> dict[str, str]:
    """Each WPT accname case's computed name."""
    root = corpora_dir()
    if root is None:
        return {}
    from .dom.wpt_accname import run

    return {
        f"wpt/{o.file}/{o.test}/{i}": f"{o.actual!r} {o.skipped}"
        for i, o in enumerate(run(root / "wpt-accname"))
    }


def synthetic() -> dict[str, str]:
    """The synthetic 10k-node workload's answers, one ref at a time and in one batch."""
    from resolver import resolve_many

    from .synth import workload

    w = workload(10_000)
    obs = Observation(accessibility_tree=w.tree)
    out = {f"synth/{i}": _answer(t.ref, obs) for i, t in enumerate(w.targets)}
    batch = resolve_many([t.ref for t in w.targets], obs)
    for i, res in enumerate(batch):
        out[f"synth_many/{i}"] = (
            res.code.value
            if isinstance(res, ResolutionError)
            else f"{res.executor_id} {res.score:.4f} {res.margin:.4f}"
        )
    return out


def samples() -> dict[str, str]:
    """Round trips on the real format samples."""
    from .formats_samples import observations, resolve_some, samples_dir

    root = samples_dir(None)
    if root is None:
        return {}
    out: dict[str, str] = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        for i, (label, raw) in enumerate(observations(path)):
            try:
                out[f"sample/{path.relative_to(root)}/{i}/{label}"] = str(resolve_some(raw, 4))
            except ResolutionError as exc:
                out[f"sample/{path.relative_to(root)}/{i}/{label}"] = exc.code.value
    return out


def collect(parts: list[str]) -> dict[str, Any]:
    """All answers, keyed."""
    makers: dict[str, Callable[[], dict[str, Any]]] = {
        "tables": lambda: {
            k: (t.code if isinstance(t, _ErrorTable) else table_digest(t))
            for k, t in [*format_tables(), *readability_tables()]
        },
        "trials": fixture_trials,
        "xplat": cross_platform,
        "dom_relocation": dom_relocation,
        "wpt": wpt,
        "synthetic": synthetic,
        "samples": samples,
    }
    out: dict[str, Any] = {}
    for part in parts:
        print(f"collecting {part}", file=sys.stderr)
        out.update(makers[part]())
    return out


def compare(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The keys (and table columns) that differ."""
    diffs: list[str] = []
    for key in sorted(set(before) | set(after)):
        a, b = before.get(key), after.get(key)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            cols = sorted(c for c in set(a) | set(b) if a.get(c) != b.get(c))
            diffs.append(f"{key}: columns {', '.join(cols)}")
        else:
            diffs.append(f"{key}: {a!r} -> {b!r}")
    return diffs


PARTS = ["tables", "trials", "xplat", "dom_relocation", "wpt", "synthetic", "samples"]


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--parts", default=",".join(PARTS))
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    parser.add_argument(
        "--prefix", action="append", default=[], help="compare only keys starting with this"
    )
    args = parser.parse_args(argv)
    if args.compare:
        before, after = (json.loads(p.read_text()) for p in args.compare)
        if args.prefix:
            keep = tuple(args.prefix)
            before = {k: v for k, v in before.items() if k.startswith(keep)}
            after = {k: v for k, v in after.items() if k.startswith(keep)}
        diffs = compare(before, after)
        for line in diffs:
            print(line)
        print(f"{len(diffs)} of {len(set(before) | set(after))} answers differ")
        return 1 if diffs else 0
    answers = collect(args.parts.split(","))
    text = json.dumps(answers, indent=0, sort_keys=True)
    if args.out:
        args.out.write_text(text)
        print(f"{len(answers)} answers written to {args.out}", file=sys.stderr)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
