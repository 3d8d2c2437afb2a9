"""Stale indexes: an index chosen on one version of a page, acted on after it changed.

Usage::

    python -m benchmarks.catalog [--split heldout|tune|all] [--pages N] [--cached-only]
                                 [--json out.json]

For every page of the relocation benchmark (``benchmarks/relocation``: the readability
corpus, targets, seeded mutations, Chromium renders from its cache), a catalog is built on
the base render for each source (a11y, dom). Every catalog entry that is a benchmark target
(its element is known in every version) is picked by its index and acted on in each changed
version, three ways:

- ``catalog``: ``Catalog.resolve("index=N", observation=changed)`` (this library);
- ``same index``: index ``N`` of a catalog built on the changed version (what index-based
  tools do when the page re-rendered);
- ``same selector``: the entry's best ranked selector run on the changed page.

Outcomes: ``correct`` (the target's element), ``refused`` (no answer), ``wrong`` (another
element). A removed target is ``refused`` (right) or ``wrong`` (any answer).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.relocation.mutate import make_versions
from benchmarks.relocation.render import RenderError, cache_root, html_key, render
from benchmarks.relocation.run import corpus_pages, split_of
from benchmarks.relocation.targets import choose_targets, load_page, serialize
from resolver import MatchConfig
from resolver.catalog import REUSE_CONFIG, Catalog, build_catalog
from resolver.errors import ResolutionError
from resolver.replay.captures import Capture, load_capture
from resolver.table import CandidateTable

METHODS = ("catalog", "same index", "same selector")
SOURCES = ("a11y", "dom")


def _cached(html: str) -> bool:
    key = html_key(html)
    return (cache_root() / key[:2] / f"{key}.json.gz").is_file()


def _expected(capture: Capture, key: str, source: str, table: CandidateTable) -> str | None:
    """The executor ID of target ``key`` in a render, or None when it is gone."""
    label = capture.labels.get(key) or {}
    if source == "a11y":
        node = label.get("ax_node_id")
        wanted = f"a11y:{node}" if node is not None else None
    else:
        wanted = f"xpath:{label['xpath']}" if label.get("xpath") else None
    return wanted if wanted is not None and wanted in table.executor_ids else None


def _as_row_id(answer: str | None, table: CandidateTable) -> str | None:
    """A DOM answer given as ``css:`` as the ``xpath:`` of the row it selects."""
    if answer is None or not answer.startswith("css:") or table.selector_resolver is None:
        return answer
    hits = table.selector_resolver("css", answer[4:])
    return table.executor_ids[hits[0]] if len(hits) == 1 else answer


def _try(call: Any) -> tuple[str | None, str | None]:
    """The answer, or ``None`` and the id of the rule that refused (``evidence.rule``)."""
    try:
        answer: str = call()
    except ResolutionError as exc:
        return None, exc.evidence.rule or None
    return answer, None


def _selector_target(entry: Any) -> str | None:
    for kind, selector in entry.selectors:
        if kind in ("css", "xpath", "text"):
            return f"{kind}={selector}"
    return None


def _verdict(answer: str | None, expected: str | None) -> str:
    if answer is None:
        return "refused"
    return "correct" if answer == expected else "wrong"


def _version_outcomes(
    page: str, version: str, base: Catalog, keyed: dict[int, str], changed: Capture, source: str
) -> list[dict[str, Any]]:
    obs = changed.observation
    table = obs.candidates(source)
    fresh = build_catalog(obs, source=source)
    out = []
    for index, key in keyed.items():
        expected = _expected(changed, key, source, table)
        entry = base.entries[index]
        selector = _selector_target(entry)
        started = time.perf_counter()
        answers = {
            "catalog": _try(lambda i=index: base.resolve(f"index={i}", observation=obs)),
            "same index": (fresh.entries[index].executor_id if index < len(fresh) else None, None),
            "same selector": _try(lambda s=selector: fresh.resolve(s))
            if selector
            else (None, None),
        }
        ms = (time.perf_counter() - started) * 1000
        for method, (found, rule) in answers.items():
            answer = _as_row_id(found, table)
            out.append({
                "page": page, "split": split_of(page), "version": version, "source": source,
                "key": key, "index": index, "method": method, "present": expected is not None,
                "verdict": _verdict(answer, expected), "expected": expected, "answer": answer,
                "rule": rule, "ms": round(ms, 2),
            })  # fmt: skip
    return out


def evaluate_page(
    path: Path, cached_only: bool, config: MatchConfig | None = None
) -> list[dict[str, Any]]:
    """Every (source, target, version, method) outcome of one page."""
    name = path.name
    root = load_page(path / "source.html")
    targets = choose_targets(root, name)
    if not targets:
        return []
    base_html = serialize(root)
    versions = make_versions(root, targets, name)
    if cached_only and not all(_cached(h) for h in [base_html, *(v.html for v in versions)]):
        return []
    base = load_capture(f"{name}/base", render(base_html)[0])
    catalogs = {s: build_catalog(base.observation, source=s, config=config) for s in SOURCES}
    keyed: dict[str, dict[int, str]] = {}
    for source, catalog in catalogs.items():
        table = base.observation.candidates(source)
        by_id = {_expected(base, t.key, source, table): t.key for t in targets}
        keyed[source] = {e.index: by_id[e.executor_id] for e in catalog.entries
                         if e.executor_id in by_id}  # fmt: skip
    outcomes: list[dict[str, Any]] = []
    for version in versions:
        try:
            changed = load_capture(f"{name}/{version.name}", render(version.html)[0])
        except RenderError:
            continue
        for source in SOURCES:
            outcomes += _version_outcomes(
                name, version.name, catalogs[source], keyed[source], changed, source
            )
    return outcomes


def report(outcomes: list[dict[str, Any]]) -> str:
    """Per source and method: present targets correct / refused / wrong, removed answered."""
    lines = [
        "| source | method | present | correct | refused | wrong | removed | removed answered |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for source in SOURCES:
        for method in METHODS:
            rows = [o for o in outcomes if o["source"] == source and o["method"] == method]
            present = [o for o in rows if o["present"]]
            removed = [o for o in rows if not o["present"]]
            c = Counter(o["verdict"] for o in present)
            hit = sum(o["verdict"] != "refused" for o in removed)
            n = max(1, len(present))
            lines.append(
                f"| {source} | {method} | {len(present)} | {c['correct'] / n:.1%} | "
                f"{c['refused'] / n:.1%} | {c['wrong']} ({c['wrong'] / n:.2%}) | {len(removed)} "
                f"| {hit} |"
            )
    refused = [o for o in outcomes if o["method"] == "catalog" and o["verdict"] == "refused"]
    by_rule = Counter((str(o.get("rule") or "none"), o["present"]) for o in refused)
    lines += [
        "",
        "Refusals of the catalog's indexes by the rule that refused (docs/rules.md):",
        "",
        "| rule | present targets refused | removed targets refused |",
        "|---|---|---|",
    ]
    for rule in sorted({r for r, _ in by_rule}):
        lines.append(f"| `{rule}` | {by_rule[(rule, True)]} | {by_rule[(rule, False)]} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.catalog")
    parser.add_argument("--split", choices=("heldout", "tune", "all"), default="heldout")
    parser.add_argument("--pages", type=int, help="only the first N pages of the split")
    parser.add_argument("--cached-only", action="store_true",
                        help="skip pages whose renders are not cached yet")  # fmt: skip
    parser.add_argument("--json", type=Path, help="write every outcome here")
    parser.add_argument("--threshold", type=float, default=REUSE_CONFIG.threshold)
    parser.add_argument("--margin", type=float, default=REUSE_CONFIG.min_margin)
    args = parser.parse_args(argv)
    config = MatchConfig(threshold=args.threshold, min_margin=args.margin)
    pages = [p for p in corpus_pages() if args.split == "all" or split_of(p.name) == args.split]
    pages = pages[: args.pages] if args.pages else pages
    outcomes: list[dict[str, Any]] = []
    used = 0
    for i, path in enumerate(pages, 1):
        found = evaluate_page(path, args.cached_only, config)
        used += bool(found)
        outcomes += found
        print(f"[{i}/{len(pages)}] {path.name}: {len(found)} outcomes", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(outcomes))
    print(f"{args.split} half, {used} pages with targets, threshold {config.threshold}, "
          f"margin {config.min_margin}\n")  # fmt: skip
    print(report(outcomes))
    wrong = [o for o in outcomes if o["method"] == "catalog" and o["verdict"] == "wrong"]
    for o in wrong[:50]:
        print(f"- catalog wrong: {o['page']} {o['version']} {o['source']} {o['key']} "
              f"expected {o['expected']} got {o['answer']}")  # fmt: skip
    return 0
