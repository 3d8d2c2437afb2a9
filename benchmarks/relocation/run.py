"""Run the real-page relocation benchmark and print a markdown report.

Usage::

    python -m benchmarks.relocation [--pages N] [--split heldout|tune|all]
                                    [--sources a11y,dom] [--json out.json] [--chain]

For every corpus page (``readability-pages``): choose targets, make the changed versions,
render base and versions in Chromium (cached), record each target on the base render with
every recorder (:data:`~benchmarks.relocation.recorders.RECORDERS`), and resolve every
reference on every changed version with one source at a time. The seed's additive scorer
runs on the a11y tree for comparison. With ``--chain``, the ``foreign`` and ``varied``
references are also resolved with a11y, then dom after an a11y refusal (pseudo-source
``chain``; each outcome says which source answered and what a11y did). Pages are processed
one at a time per worker (two worker processes), so memory stays bounded.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.dom.corpora import corpora_dir
from benchmarks.seed_baseline import seed_resolve_cdp
from resolver import Observation, SemanticElementRef, resolve
from resolver.decide import RULES_BY_ID
from resolver.errors import ResolutionError
from resolver.replay.captures import Capture, load_capture
from resolver.table import CandidateTable
from resolver.web import href_key

from .alike import Page, judge, profile_of
from .conventions import ALL_CONVENTIONS
from .mutate import (
    MOVING_KINDS,
    Version,
    edit_versions,
    make_versions,
    move_versions,
    removal_versions,
    restyle_versions,
)
from .recorders import RECORDERS, Recorded, record_targets
from .render import (
    DEFAULT_CHROMIUM,
    RenderError,
    font_set,
    render,
    uncovered_scripts,
)
from .report import markdown
from .targets import Target, choose_targets, load_page, serialize

__all__ = ["evaluate_page", "main", "split_of"]

SPLITS = ("heldout", "tune")


def pages_and_browser(chromium: str) -> tuple[list[Path], int | None]:
    """The corpus pages, and an exit status when a run cannot start: 0 without the corpus
    (skipped, said on stdout), 2 without the browser."""
    pages = corpus_pages()
    if not pages:
        print("readability-pages corpus not found (see benchmarks/dom/corpora.py); skipped")
        return pages, 0
    if not Path(chromium).exists():
        print(f"chromium not found at {chromium}", file=sys.stderr)
        return pages, 2
    return pages, None


def split_of(page: str) -> str:
    """``tune`` when the first hex digit of SHA-1(page name) is even, else ``heldout``."""
    return (
        "tune"
        if int(hashlib.sha1(page.encode("utf-8")).hexdigest()[0], 16) % 2 == 0
        else ("heldout")
    )


def corpus_pages() -> list[Path]:
    """The page folders of the readability corpus (empty when the corpora are absent)."""
    root = corpora_dir()
    if root is None:
        return []
    pages = root / "readability-pages" / "pages"
    return sorted(p for p in pages.iterdir() if (p / "source.html").is_file())


@dataclass(frozen=True)
class Options:
    sources: tuple[str, ...]
    chromium: str
    timeout: float
    seed: bool
    removals: int = 0
    """Extra ``remove`` versions per page, each from its own seed (``--removals``)."""
    restyles: int = 0
    """Extra ``restyle`` versions per page, each from its own seed (``--restyles``)."""
    moves: int = 0
    """Extra versions per page of each kind that moves targets (``--moves``)."""
    settings: tuple[tuple[str, float], ...] = ()
    """``MatchConfig`` values for every resolution (``--threshold``, ``--min-margin``,
    ``--min-confidence``, ``--pairwise-accept``); none given: the library's defaults."""
    chain: bool = False
    """Also resolve the ``foreign`` and ``varied`` references with the a11y source, then the
    DOM source after an a11y refusal (pseudo-source ``chain``, ``--chain``)."""
    convention: str = ""
    """The one convention every ``varied`` reference is written in
    (``--varied-convention``); empty: drawn per target."""
    edits: int = 0
    """Extra versions per page of each kind that edits labels or adds decoys (``--edits``)."""
    draw: int = 0
    """Which set of targets each page gets (``--draw``; 0: the usual one)."""


CHAIN = "chain"
"""The pseudo-source of ``--chain``: ``resolve(ref, obs, sources=CHAIN_SOURCES,
coords_fallback="never")``."""
CHAIN_SOURCES = ("a11y", "dom")
CHAIN_RECORDERS = ("foreign", "varied")


SETTINGS: dict[str, str] = {
    "--threshold": "threshold",
    "--min-margin": "min_margin",
    "--min-confidence": "min_confidence",
    "--pairwise-accept": "pairwise_accept",
}
"""Command-line options that set one ``MatchConfig`` value for the whole run."""

# -- one page -------------------------------------------------------------------------------


def _lookup(table: CandidateTable) -> dict[str, int]:
    return {rid: i for i, rid in enumerate(table.ids)}


def _normalise(answer: str, table: CandidateTable | None) -> str:
    """A DOM answer given as ``css:<selector>`` as the ``xpath:`` of the row it selects."""
    if table is None or not answer.startswith("css:") or table.selector_resolver is None:
        return answer
    hits = table.selector_resolver("css", answer.removeprefix("css:"))
    return table.executor_ids[hits[0]] if len(hits) == 1 else answer


def _describe(executor_id: str | None, table: CandidateTable | None, rows: dict[str, int]) -> str:
    """``<executor id> role 'name'`` for the report's list of wrong answers."""
    if executor_id is None:
        return "-"
    if table is None:
        return executor_id
    row = rows.get(executor_id.split(":", 1)[1]) if ":" in executor_id else None
    if row is None:
        return executor_id
    name = table.names[row]
    name = name if len(name) <= 60 else name[:57] + "..."
    return f"{executor_id} {table.roles[row]} {name!r}"


def _same_address(
    rec: Recorded, answer: str, obs: Observation, rows: dict[str, dict[str, int]]
) -> bool:
    """Whether ``answer``, given for a removed target, links to the address the target linked
    to on the base page (an image link left beside a removed title link, a menu entry
    repeated elsewhere): clicking it leads where the recorded click led. The answer is found
    in the changed page's DOM (by its xpath, for an accessibility-tree answer)."""
    base = rec.refs.get(("ours", "dom"))
    recorded = href_key(base.href) if base is not None and base.href else None
    if recorded is None or ":" not in answer:
        return False
    kind, key = answer.split(":", 1)
    if kind == "a11y":
        a11y = obs.candidates("a11y")
        row = rows.get("a11y", _lookup(a11y)).get(key)
        paths = a11y.platform_ids.get("xpath")
        if row is None or paths is None or not paths[row]:
            return False
        key = str(paths[row])
    dom = obs.candidates("dom")
    drow = rows.get("dom", _lookup(dom)).get(key)
    hrefs = dom.platform_ids.get("href")
    if drow is None or hrefs is None or not hrefs[drow]:
        return False
    return href_key(str(hrefs[drow])) == recorded


def _resolve(
    recorder: str,
    ref: SemanticElementRef,
    obs: Observation,
    source: str,
    settings: tuple[tuple[str, float], ...] = (),
) -> tuple[str | None, str | None, str | None, dict[str, Any]]:
    """``(answer, error code, unexpected error, decision)`` of one resolution; ``decision``
    holds the best candidate, its score and its margin over the best different target, also
    when the source abstained (for risk/coverage curves at other thresholds). The ``chain``
    pseudo-source tries a11y, then DOM, without the coordinates fallback; its decision also
    says which source answered and what the a11y source did."""
    try:
        if recorder == "seed":
            return seed_resolve_cdp(ref, obs), None, None, {}
        if source == CHAIN:
            res = resolve(
                ref, obs, sources=CHAIN_SOURCES, coords_fallback="never", **dict(settings)
            )
        else:
            res = resolve(ref, obs, sources=(source,), **dict(settings))
        best: dict[str, Any] = {
            "best": res.executor_id, "score": res.score, "margin": res.margin, "rule": res.rule,
        }  # fmt: skip
        step = next((s for s in reversed(res.trace) if s.best is not None), None)
        if step is not None and step.best is not None and step.best.signals:
            # The answer's signals (none when a recorded selector vouched for it).
            best["signals"] = {k: round(v, 4) for k, v in step.best.signals.items()}
        if source == CHAIN:
            best.update(_chain_steps(res.trace, res.source))
        return res.executor_id, None, None, best
    except ResolutionError as exc:
        evidence = _evidence(exc)
        if source == CHAIN:
            evidence.update(_chain_steps(exc.evidence.trace, None))
        return None, exc.code.value, None, evidence
    except Exception as exc:  # a bug in the library must not stop the run: count it
        return None, None, f"{type(exc).__name__}: {exc}"[:300], {}


def _chain_steps(trace: Any, answered_by: str | None) -> dict[str, Any]:
    """Which source of the chain answered (``None``: neither) and the a11y source's status
    (``accepted``, ``not_found``, ``ambiguous`` ...)."""
    a11y = next((t.status for t in trace if t.source == "a11y"), None)
    return {"answered_by": answered_by, "a11y_status": a11y}


def _evidence(exc: ResolutionError) -> dict[str, Any]:
    """The best candidate of the last source tried, its score and its lead, and the rule that
    refused it (its id: :data:`resolver.decide.RULES`)."""
    for step in reversed(exc.evidence.trace):
        best = step.best
        if best is not None:
            runner = step.runner_up
            margin = best.score - (runner.score if runner is not None else 0.0)
            return {
                "best": best.executor_id, "score": best.score, "margin": margin,
                "rule": step.rule, "vetoed": _vetoed(step.rule),
                "refused_by": _refused_by(step.rule), "signals": dict(best.signals),
            }  # fmt: skip
    return {}


def _vetoed(rule: str) -> bool:
    """Whether a review rule refused or doubted an answer that cleared threshold and margin
    (a look-alike is gone, a namesake elsewhere ...)."""
    known = RULES_BY_ID.get(rule)
    return known is not None and known.stage == "review"


def _refused_by(rule: str) -> str:
    """``threshold`` or ``margin`` when a source refused on those alone (a lower setting
    would have answered, unless a rule then refused), else ``rule``: a rule refused the
    best after it cleared both, or for another reason."""
    return {"refuse.threshold": "threshold", "ambiguous.margin": "margin"}.get(rule, "rule")


def _trials(
    recorded: dict[str, Recorded], options: Options
) -> Iterator[tuple[Recorded, str, str, SemanticElementRef]]:
    for rec in recorded.values():
        for (recorder, source), ref in rec.refs.items():
            if source in options.sources:
                yield rec, recorder, source, ref
        if options.seed and "a11y" in options.sources and ("foreign", "a11y") in rec.refs:
            yield rec, "seed", "a11y", rec.refs[("foreign", "a11y")]
        if options.chain:
            for recorder in CHAIN_RECORDERS:
                if (recorder, "a11y") in rec.refs:
                    yield rec, recorder, CHAIN, rec.refs[(recorder, "a11y")]


def _expected(source: str, label: dict[str, Any], rows: dict[str, dict[str, int]]) -> str | None:
    """The target's executor ID for ``source`` on the changed page (``None``: removed)."""
    if source == "a11y":
        node = label.get("ax_node_id")
        return f"a11y:{node}" if node is not None and str(node) in rows["a11y"] else None
    xpath = label.get("xpath")
    return f"xpath:{xpath}" if xpath and xpath in rows["dom"] else None


def _answer_source(source: str, answer: str | None) -> str:
    """The source whose executor ID ``answer`` is (``chain``: the one that answered)."""
    if source != CHAIN or answer is None:
        return source
    return "a11y" if answer.startswith("a11y:") else "dom"


def evaluate_version(
    page: str,
    version: str,
    kind: str,
    touched: dict[str, str],
    changed: Capture,
    recorded: dict[str, Recorded],
    targets: dict[str, Target],
    options: Options,
) -> list[dict[str, Any]]:
    """Every (target, recorder, source) outcome on one changed version."""
    obs = changed.observation
    needed = set(options.sources) | (set(CHAIN_SOURCES) if options.chain else set())
    tables = {s: obs.candidates(s) for s in ("a11y", "dom") if s in needed}
    rows = {s: _lookup(t) for s, t in tables.items()}
    split = split_of(page)
    seen = Page(changed)
    outcomes = []
    for rec, recorder, source, ref in _trials(recorded, options):
        label = changed.labels.get(rec.key) or {}
        # The chain's answer is right when it is the target in the source that gave it.
        targets_of = CHAIN_SOURCES if source == CHAIN else (source,)
        expecteds = {s: _expected(s, label, rows) for s in targets_of}
        expected = next((e for e in expecteds.values() if e is not None), None)
        start = time.perf_counter()
        answer, code, error, decision = _resolve(
            recorder, ref, obs, source, settings=options.settings
        )
        if decision.get("best") and source in ("dom", CHAIN):
            decision["best"] = _normalise(decision["best"], tables["dom"])
        ms = 1000 * (time.perf_counter() - start)
        if answer is not None and source in ("dom", CHAIN):
            answer = _normalise(answer, tables["dom"])
        answering = _answer_source(source, answer)
        if expecteds.get(answering) is not None:
            expected = expecteds[answering]  # the target in the answer's own terms
        if error is not None:
            verdict = "error"
        elif expected is None:
            verdict = "rejected" if answer is None else "false_hit"
        elif answer is None:
            verdict = "abstained"
        else:
            verdict = "correct" if answer == expected else "wrong"
        outcome: dict[str, Any] = {
            "page": page,
            "split": split,
            "version": version,
            "kind": kind,
            "mutation": touched.get(rec.key, "none"),
            "key": rec.key,
            "element": targets[rec.key].kind,
            "twin": rec.twin,
            "recorder": recorder,
            "source": source,
            "present": expected is not None,
            "expected": expected,
            "answer": answer,
            "verdict": verdict,
            "code": code,
            "ms": round(ms, 2),
            "convention": rec.convention.name if recorder == "varied" else "",
            **decision,
        }
        if recorder == "varied" and rec.convention.variant:
            outcome["variant"] = rec.convention.variant
        if error is not None:
            outcome["error"] = error
        if recorder == "completed":
            outcome["completion"] = rec.completion.get(source, "refused")
        # A completed reference holds what ``ref_from_row`` writes, as ours does (a refused
        # completion kept the foreign one).
        writer = recorder
        if recorder == "completed":
            writer = "foreign" if outcome["completion"] == "refused" else "ours"
        drawn = rec.convention if recorder == "varied" else None
        if recorder in RECORDERS and answer is not None and verdict != "error":
            # How far the answer is from its reference, field by field (report: dominance)
            outcome["profile"] = profile_of(seen, ref, writer, answering, answer, drawn)
        if verdict in ("wrong", "false_hit"):
            table = tables.get(answering)
            described = _source_of(expected, answering)
            outcome["expected_desc"] = _describe(
                expected, tables.get(described), rows.get(described, {})
            )
            outcome["answer_desc"] = _describe(answer, table, rows.get(answering, {}))
            if recorder in RECORDERS and answer is not None:
                # Fields on which the target beats the answer; none: indistinguishable
                outcome["apart"] = list(
                    judge(seen, ref, writer, answering, answer, expected, drawn)
                )
            if verdict == "false_hit" and answer is not None:
                outcome["same_address"] = _same_address(rec, answer, obs, rows)
        outcomes.append(outcome)
    return outcomes


def _source_of(executor_id: str | None, default: str) -> str:
    """The source of an ``a11y:`` or ``xpath:`` executor ID (else ``default``)."""
    if executor_id is None:
        return default
    return "a11y" if executor_id.startswith("a11y:") else "dom"


def page_versions(
    source: str,
    name: str,
    removals: int = 0,
    restyles: int = 0,
    moves: int = 0,
    edits: int = 0,
    draw: int = 0,
    move_kinds: Sequence[str] = MOVING_KINDS,
) -> tuple[list[Target], str, list[Version]]:
    """A corpus page's targets, its base HTML and its changed versions (all empty when it
    has no target), with ``removals`` extra removal versions, ``restyles`` extra restyle
    versions, ``moves`` extra versions of each moving kind (of ``move_kinds``) and ``edits``
    of each editing kind, for the targets of draw ``draw``
    (:func:`~benchmarks.relocation.targets.choose_targets`); the parsed page is dropped
    before rendering starts."""
    root = load_page(Path(source))
    targets = choose_targets(root, name, draw)
    if not targets:
        return [], "", []
    versions = make_versions(root, targets, name) + removal_versions(root, targets, name, removals)
    versions += restyle_versions(root, targets, name, restyles)
    versions += move_versions(root, targets, name, moves, move_kinds)
    versions += edit_versions(root, targets, name, edits)
    return targets, serialize(root), versions


def evaluate_page(name: str, source: str, options: Options) -> dict[str, Any]:
    """Targets, versions, renders and outcomes of one page (run in a worker process)."""
    started = time.monotonic()
    result: dict[str, Any] = {"page": name, "split": split_of(name), "outcomes": []}
    targets, base_html, versions = page_versions(
        source, name, options.removals, options.restyles, options.moves, options.edits,
        options.draw,
    )  # fmt: skip
    result["targets"] = len(targets)
    if not targets:
        result["status"] = "no targets"
        return result
    renders = {"rendered": 0, "cached": 0}
    try:
        files, hit = render(base_html, chromium=options.chromium, timeout=options.timeout)
    except RenderError as exc:
        result["status"] = f"base render failed: {exc}"
        return result
    renders["cached" if hit else "rendered"] += 1
    base = load_capture(f"{name}/base", files)
    recorded = record_targets(
        base, options.sources, {t.key: t.element_id for t in targets}, page=name,
        convention=options.convention,
    )  # fmt: skip
    by_key = {t.key: t for t in targets}
    result["recorded"] = len(recorded)
    result["twins"] = sum(r.twin for r in recorded.values())
    outcomes = evaluate_version(
        name, "v0-identity", "identity", {}, base, recorded, by_key, options
    )
    del base, files
    result["versions"] = []
    for version in versions:
        try:
            files, hit = render(version.html, chromium=options.chromium, timeout=options.timeout)
        except RenderError as exc:
            result["versions"].append({"name": version.name, "status": f"render failed: {exc}"})
            continue
        renders["cached" if hit else "rendered"] += 1
        changed = load_capture(f"{name}/{version.name}", files)
        outcomes += evaluate_version(
            name, version.name, version.kind, version.touched, changed, recorded, by_key, options
        )
        touched = sum(1 for k in version.touched.values() if k != "none")
        result["versions"].append({"name": version.name, "status": "ok", "touched": touched})
        del changed, files
    result["outcomes"] = outcomes
    result["renders"] = renders
    result["status"] = "ok"
    result["seconds"] = round(time.monotonic() - started, 2)
    return result


# -- driver ---------------------------------------------------------------------------------


def _run_pages(jobs: list[tuple[str, str]], options: Options, workers: int) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    total = len(jobs)

    def progress(result: dict[str, Any]) -> None:
        results.append(result)
        versions = sum(1 for v in result.get("versions", []) if v["status"] == "ok")
        extra = "" if result.get("status") == "ok" else f"  [{result.get('status')}]"
        print(
            f"[{len(results):3d}/{total}] {result['page']:<40} {result['split']:<7} "
            f"targets={result.get('recorded', 0):<3} versions={versions} "
            f"outcomes={len(result['outcomes']):<5} {result.get('seconds', 0):6.1f}s{extra}",
            file=sys.stderr,
            flush=True,
        )

    if workers <= 1:
        for name, source in jobs:
            progress(_safe_page(name, source, options))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(_safe_page, name, source, options) for name, source in jobs]
            for future in as_completed(futures):
                progress(future.result())
    results.sort(key=lambda r: r["page"])
    return results


def _safe_page(name: str, source: str, options: Options) -> dict[str, Any]:
    """:func:`evaluate_page`, with any failure reported as the page's status."""
    try:
        return evaluate_page(name, source, options)
    except Exception as exc:  # one broken page must not stop the run
        return {
            "page": name,
            "split": split_of(name),
            "outcomes": [],
            "status": f"failed: {type(exc).__name__}: {exc}"[:300],
        }


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.relocation", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--pages", type=int, help="only the first N pages (of the split)")
    parser.add_argument("--split", choices=("heldout", "tune", "all"), default="heldout")
    parser.add_argument("--sources", default="a11y,dom", help="comma-separated: a11y,dom")
    parser.add_argument("--json", type=Path, help="write every outcome here")
    parser.add_argument("--out", type=Path, help="also write the markdown report here")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM", DEFAULT_CHROMIUM))
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds per render")
    parser.add_argument("--no-seed", action="store_true", help="skip the seed baseline")
    parser.add_argument(
        "--removals", type=int, default=0,
        help="extra remove versions per page, each from its own seed (for tuning refusals)",
    )  # fmt: skip
    parser.add_argument(
        "--restyles", type=int, default=0,
        help="extra versions per page in which some targets alone get new class names",
    )  # fmt: skip
    parser.add_argument(
        "--moves", type=int, default=0,
        help="extra versions per page of each kind that moves targets (wrap, unwrap, reorder, "
        "banner, duplicate_label), each from its own seed",
    )  # fmt: skip
    parser.add_argument(
        "--edits", type=int, default=0,
        help="extra versions per page of each kind that edits labels or adds decoys "
        "(change_case, add_word, remove_word, change_number, decoys), each from its own seed",
    )  # fmt: skip
    parser.add_argument(
        "--draw", type=int, default=0,
        help="another seeded set of targets on each page (default 0: the usual set)",
    )  # fmt: skip
    for flag, what in SETTINGS.items():
        parser.add_argument(flag, type=float, help=f"MatchConfig.{what} (default: the library's)")
    parser.add_argument("--wrong", type=int, default=300, help="wrong answers listed per half")
    parser.add_argument(
        "--chain", action="store_true",
        help="also resolve the foreign and varied references with a11y then dom "
        "(pseudo-source 'chain', no coordinates fallback)",
    )  # fmt: skip
    parser.add_argument(
        "--varied-convention", choices=ALL_CONVENTIONS, default="",
        help="write every varied reference in this one convention (default: one drawn per "
        "target)",
    )  # fmt: skip
    args = parser.parse_args(argv)

    sources = tuple(s.strip() for s in args.sources.split(",") if s.strip())
    if not sources or any(s not in ("a11y", "dom") for s in sources):
        parser.error("--sources takes a11y, dom or both")
    pages, status = pages_and_browser(args.chromium)
    if status is not None:
        return status
    splits = SPLITS if args.split == "all" else (args.split,)
    chosen = [p for p in pages if split_of(p.name) in splits]
    if args.pages is not None:
        chosen = chosen[: args.pages]
    if min(args.removals, args.restyles, args.moves, args.edits, args.draw) < 0:
        parser.error("--removals, --restyles, --moves, --edits and --draw take a count from 0 up")
    chosen_settings = tuple(
        (what, float(value))
        for what in SETTINGS.values()
        if (value := getattr(args, what)) is not None
    )
    if any(not 0.0 <= value <= 1.0 for _, value in chosen_settings):
        parser.error(f"{', '.join(SETTINGS)} take a value from 0 to 1")
    options = Options(
        sources, args.chromium, args.timeout, not args.no_seed, args.removals, args.restyles,
        args.moves, chosen_settings, args.chain, args.varied_convention, args.edits, args.draw,
    )  # fmt: skip
    jobs = [(p.name, str(p / "source.html")) for p in chosen]

    started = time.monotonic()
    results = _run_pages(jobs, options, args.workers)
    wall = time.monotonic() - started
    outcomes = [o for r in results for o in r["outcomes"]]
    pages_info = [{k: v for k, v in r.items() if k != "outcomes"} for r in results]
    config = {
        "pages": len(jobs),
        "split": args.split,
        "sources": list(sources),
        "workers": args.workers,
        "removals": args.removals,
        "restyles": args.restyles,
        "moves": args.moves,
        "edits": args.edits,
        "draw": args.draw,
        "settings": dict(chosen_settings),
        "chain": args.chain,
        "varied_convention": args.varied_convention,
        "fonts": list(font_set()),
        "uncovered_scripts": list(uncovered_scripts()),
        "wall_seconds": round(wall, 1),
    }
    report = markdown(pages_info, outcomes, config, splits=splits, wrong_limit=args.wrong)
    print(report)
    if args.out:
        args.out.write_text(report, encoding="utf-8")
    if args.json:
        payload = {"config": config, "pages": pages_info, "outcomes": outcomes}
        args.json.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
    print(f"done: {len(jobs)} pages in {wall:.0f}s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
