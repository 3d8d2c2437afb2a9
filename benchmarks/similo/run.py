"""Resolve every Similo pair and print a markdown report.

Usage::

    python -m benchmarks.similo [--split tune|heldout|all] [--json out.json] [--corpus DIR]
                                [--flat]

For every app of the chosen half (both halves with ``all``): the new version's candidates
become one nested accessibility tree, every joined target a reference; each reference is
resolved on the tree with the a11y source alone, and the Similo-style baseline
(:mod:`benchmarks.similo.baseline`) answers the same pair. An answer is correct when it is the
ground-truth candidate's node. The report gives each half separately: the share of correct,
wrong and abstained answers (and references the model refused as invalid), per app, and the
outcomes by the rule that decided them. Progress goes to stderr; without the corpus a
one-line note is printed and the exit status is 0.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final, Literal

from resolver import Observation, Resolution, SemanticElementRef, resolve
from resolver.decide import RULES_BY_ID
from resolver.errors import ResolutionError

from .baseline import similo_best
from .convert import name_of, observation_tree, own_properties, ref_of, role_of
from .data import SPLITS, App, Widget, apps_of_split, corpus_dir, load_apps, split_of

__all__ = ["Outcome", "evaluate_app", "main", "markdown", "same_control", "truth_first"]

Verdict = Literal["correct", "wrong", "abstained", "invalid"]
VERDICTS: Final[tuple[Verdict, ...]] = ("correct", "wrong", "abstained", "invalid")
SOURCES: Final[tuple[str, ...]] = ("a11y",)


@dataclass(frozen=True)
class Outcome:
    """One pair: what the resolver and the baseline answered, and the truth."""

    app: str
    split: str
    pair: str
    target_file: str
    truth: str
    role: str
    name: str
    truth_name: str
    verdict: Verdict
    answer: str | None
    rule: str
    code: str
    score: float | None
    confidence: float | None
    baseline_answer: str | None
    baseline_correct: bool
    baseline_score: float | None
    adjacent: bool = False
    """A wrong answer that is the truth's parent or child (Similo's own criterion counts
    it as located)."""
    baseline_adjacent: bool = False
    removed_answered: bool | None = None
    """Resolved again on the new version with the truth and everything inside it deleted:
    whether it still answered (any answer is wrong there); ``None`` for an invalid reference."""
    removed_rule: str = ""
    removed_confidence: float | None = None
    removed_copy: bool | None = None
    """Where the page without the target was answered: whether the answer is another copy of
    the removed element (:func:`same_control`: the same role, name, tag, classes, link and
    attributes, elsewhere on the page), which nothing recorded of the element's own tells
    from it; ``None`` where it was not answered."""
    evidence: dict[str, Any] | None = None
    """The answer's (or, for a refusal, the best candidate's) ``best`` node, ``score``,
    ``margin`` and ``signals``, and whether a review rule ``vetoed`` it: what a confidence
    model is fitted on (:mod:`benchmarks.relocation.calibrate`)."""
    removed_evidence: dict[str, Any] | None = None
    """The same on the page without the target (any answer there is wrong)."""


def _adjacent(app: App, answer: str | None, truth: int) -> bool:
    """Whether the candidate ``answer`` is the parent or a child of candidate ``truth`` by
    their xpaths (one is the other with its last step removed)."""
    if answer is None or not answer.isdigit() or int(answer) >= len(app.candidates):
        return False
    a = (app.candidates[int(answer)].get("xpath") or "").lower().rstrip("/")
    b = (app.candidates[truth].get("xpath") or "").lower().rstrip("/")
    if not a or not b or a == b:
        return False
    return a.rsplit("/", 1)[0] == b or b.rsplit("/", 1)[0] == a


def _node_id(executor_id: str) -> str:
    return executor_id.removeprefix("a11y:")


def evaluate_app(
    app: App,
    split: str,
    *,
    nest: bool = True,
    options: dict[str, Any] | None = None,
    neighbours: bool = True,
) -> list[Outcome]:
    """Resolve every joined pair of one app with the resolver and the baseline (``options``:
    :class:`~resolver.config.MatchConfig` fields for every resolve; without ``neighbours``
    the tree's nodes carry no recorded neighbour texts)."""
    tree = observation_tree(app.candidates, nest=nest, neighbours=neighbours)
    observation = Observation(accessibility_tree=tree)
    outcomes: list[Outcome] = []
    for pair in app.pairs:
        truth = str(pair.candidate)
        target = pair.target
        best = similo_best(target, app.candidates)
        baseline_answer = str(best[0]) if best is not None else None
        common: dict[str, Any] = {
            "app": app.name,
            "split": split,
            "pair": pair.file,
            "target_file": target.file,
            "truth": truth,
            "role": role_of(target),
            "name": name_of(target),
            "truth_name": name_of(app.candidates[pair.candidate]),
            "baseline_answer": baseline_answer,
            "baseline_correct": baseline_answer == truth,
            "baseline_score": round(best[1], 4) if best is not None else None,
            "baseline_adjacent": baseline_answer != truth
            and _adjacent(app, baseline_answer, pair.candidate),
        }
        ref = ref_of(target)
        if ref is None:
            outcomes.append(
                Outcome(
                    **common,
                    verdict="invalid",
                    answer=None,
                    rule="",
                    code="INVALID_REFERENCE",
                    score=None,
                    confidence=None,
                )
            )
            continue
        try:
            res = resolve(ref, observation, sources=SOURCES, **(options or {}))
        except ResolutionError as exc:
            common.update(_removed(app, pair.candidate, ref, nest, neighbours, options))
            outcomes.append(
                Outcome(
                    **common,
                    verdict="abstained",
                    answer=None,
                    rule=exc.evidence.rule,
                    code=str(exc.code),
                    score=None,
                    confidence=None,
                    evidence=refused_evidence(exc),
                )
            )
            continue
        answer = _node_id(res.executor_id)
        common.update(_removed(app, pair.candidate, ref, nest, neighbours, options))
        outcomes.append(
            Outcome(
                **common,
                verdict="correct" if answer == truth else "wrong",
                answer=answer,
                rule=res.rule,
                code="",
                score=round(res.score, 4),
                confidence=round(res.confidence, 4),
                adjacent=answer != truth and _adjacent(app, answer, pair.candidate),
                evidence=answer_evidence(res),
            )
        )
    return outcomes


def answer_evidence(res: Resolution) -> dict[str, Any]:
    """An answer's node, score, margin and signals (none when a recorded selector vouched
    for it), as the relocation benchmark keeps them."""
    out: dict[str, Any] = {
        "best": _node_id(res.executor_id), "score": res.score, "margin": res.margin,
        "vetoed": False, "signals": {},
    }  # fmt: skip
    step = next((s for s in reversed(res.trace) if s.best is not None), None)
    if step is not None and step.best is not None and step.best.signals:
        out["signals"] = {k: round(v, 4) for k, v in step.best.signals.items()}
    return out


def refused_evidence(exc: ResolutionError) -> dict[str, Any] | None:
    """A refusal's best candidate (node, score, its lead over the runner-up, signals) and
    whether a review rule refused it after it cleared threshold and margin (``vetoed``);
    ``None`` when there was no candidate."""
    for step in reversed(exc.evidence.trace):
        best = step.best
        if best is not None:
            runner = step.runner_up
            known = RULES_BY_ID.get(step.rule)
            return {
                "best": _node_id(best.executor_id), "score": best.score,
                "margin": best.score - (runner.score if runner is not None else 0.0),
                "vetoed": known is not None and known.stage == "review",
                "signals": dict(best.signals),
            }  # fmt: skip
    return None


def without_truth(app: App, truth: int) -> list[Widget]:
    """The new version's candidates as if the target had been removed: candidate ``truth``,
    every candidate inside it, and every ancestor (by xpath) that holds nothing else among
    the candidates (the link around a removed icon goes with it: it was the same control)."""
    paths = [(w.get("xpath") or "").lower().rstrip("/") for w in app.candidates]
    top = paths[truth]
    if top:
        while "/" in top.strip("/"):
            parent = top.rsplit("/", 1)[0]
            holds = [p for p in paths if p.startswith(parent + "/")]
            if parent not in paths or any(not p.startswith(top) for p in holds):
                break
            top = parent
    gone = {
        truth,
        *(i for i, p in enumerate(paths) if top and (p == top or p.startswith(top + "/"))),
    }
    return [w for i, w in enumerate(app.candidates) if i not in gone]


def same_control(a: Widget, b: Widget) -> bool:
    """Whether two candidates are copies of one control: the same role, name, tag, classes,
    link and descriptive attributes (their places, boxes and neighbours aside), as a site
    that draws a menu or a link twice makes them."""
    return own_properties(a) == own_properties(b)


def _removed(
    app: App,
    truth: int,
    ref: SemanticElementRef,
    nest: bool,
    neighbours: bool,
    options: dict[str, Any] | None,
) -> dict[str, Any]:
    """Whether ``ref`` is still answered on the page without its target, by which rule, and
    whether by a copy of the removed element (:func:`same_control`)."""
    rest = without_truth(app, truth)
    tree = observation_tree(rest, nest=nest, neighbours=neighbours)
    try:
        res = resolve(ref, Observation(accessibility_tree=tree), sources=SOURCES, **(options or {}))
    except ResolutionError as exc:
        return {
            "removed_answered": False, "removed_rule": "", "removed_confidence": None,
            "removed_evidence": refused_evidence(exc),
        }  # fmt: skip
    answer = _node_id(res.executor_id)
    copy = answer.isdigit() and int(answer) < len(rest)
    return {
        "removed_answered": True, "removed_rule": res.rule,
        "removed_confidence": round(res.confidence, 4), "removed_evidence": answer_evidence(res),
        "removed_copy": copy and same_control(rest[int(answer)], app.candidates[truth]),
    }  # fmt: skip


# --- the report ----------------------------------------------------------------------------------


def _share(count: int, total: int) -> str:
    return f"{count} ({100.0 * count / total:.1f}%)" if total else "0"


def _rule_label(outcome: Outcome) -> str:
    if outcome.rule:
        return outcome.rule
    if outcome.verdict == "invalid":
        return "(invalid reference)"
    return f"(no rule: {outcome.code})" if outcome.code else "(no rule)"


def _summary_rows(outcomes: Sequence[Outcome]) -> list[str]:
    n = len(outcomes)
    verdicts = Counter(o.verdict for o in outcomes)
    base = sum(o.baseline_correct for o in outcomes)
    near = sum(o.adjacent for o in outcomes)
    base_near = sum(o.baseline_adjacent for o in outcomes)
    tried = [o for o in outcomes if o.removed_answered is not None]
    gone = sum(bool(o.removed_answered) for o in tried)
    copies = sum(bool(o.removed_copy) for o in tried)
    refused = [o for o in outcomes if o.verdict == "abstained"]
    return [
        "| method | n | correct | wrong | abstained | invalid | wrong: truth's parent/child |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        "| resolver (a11y) | "
        + " | ".join([str(n), *(_share(verdicts[v], n) for v in VERDICTS), str(near)])
        + " |",
        f"| Similo baseline | {n} | {_share(base, n)} | {_share(n - base, n)} | — | — "
        f"| {base_near} |",
        "",
        f"Removed targets (the truth, everything inside it and a wrapper that held only it "
        f"deleted from the new version): "
        f"the resolver answered {_share(gone, len(tried))} of {len(tried)}, {copies} of them "
        f"with another copy of the removed element (the same role, name, tag, classes, link "
        f"and attributes, elsewhere on the page); the baseline answers every one.",
        "",
        f"Abstentions whose best candidate is the truth (refused for thin evidence or by a "
        f"rule, not for ranking another element first): {sum(map(truth_first, refused))} of "
        f"{len(refused)}; the baseline answers {sum(o.baseline_correct for o in refused)} of "
        f"them right.",
    ]


def truth_first(outcome: Outcome) -> bool:
    """Whether a refusal's best candidate (:attr:`Outcome.evidence`) is the truth."""
    evidence = outcome.evidence
    return evidence is not None and evidence.get("best") == outcome.truth


def _app_rows(outcomes: Sequence[Outcome], apps: Sequence[App]) -> list[str]:
    rows = [
        "| app | pairs | skipped | resolver correct | wrong | abstained | invalid "
        "| baseline correct | baseline wrong |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for app in apps:
        mine = [o for o in outcomes if o.app == app.name]
        n = len(mine)
        verdicts = Counter(o.verdict for o in mine)
        base = sum(o.baseline_correct for o in mine)
        cells = [app.name, str(n), str(len(app.skipped))]
        cells += [_share(verdicts[v], n) for v in VERDICTS]
        cells += [_share(base, n), _share(n - base, n)]
        rows.append("| " + " | ".join(cells) + " |")
    return rows


def _rule_rows(outcomes: Sequence[Outcome]) -> list[str]:
    table: dict[str, Counter[str]] = {}
    for outcome in outcomes:
        table.setdefault(_rule_label(outcome), Counter())[outcome.verdict] += 1
    rows = [
        "| deciding rule | correct | wrong | abstained | invalid |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    ordered = sorted(table.items(), key=lambda item: (-sum(item[1].values()), item[0]))
    for rule, counts in ordered:
        rows.append(f"| `{rule}` | " + " | ".join(str(counts[v]) for v in VERDICTS) + " |")
    return rows


def markdown(outcomes: Sequence[Outcome], apps: Sequence[App], root: Path | None) -> str:
    """The report: for each half present, its summary, its apps and its deciding rules."""
    lines = ["# Similo web element localisation: resolver vs. a Similo-style baseline", ""]
    if root is not None:
        lines += [f"Corpus: `{root}`.", ""]
    lines += [
        "Each target recorded on the old version of a site is resolved on its new version "
        "(one nested accessibility tree of the candidates, a11y source only). *correct*: the "
        "ground-truth candidate; *wrong*: another node; *abstained*: a `ResolutionError`; "
        "*invalid*: the reference model refused the converted target. The baseline always "
        "answers its best-scoring candidate. Pairs that do not join to exactly one target "
        "and one candidate are skipped. The last column counts the wrong answers that are the "
        "ground truth's parent or child element (Similo's own criterion counts those as "
        "located).",
        "",
    ]
    for split in SPLITS:
        chosen = [a for a in apps if split_of(a.name) == split]
        if not chosen:
            continue
        mine = [o for o in outcomes if o.split == split]
        skipped = sum(len(a.skipped) for a in chosen)
        lines += [
            f"## {split} ({len(chosen)} apps, {len(mine)} pairs, {skipped} skipped)",
            "",
            *_summary_rows(mine),
            "",
            f"### {split}: per app",
            "",
            *_app_rows(mine, chosen),
            "",
            f"### {split}: outcomes by deciding rule",
            "",
            *_rule_rows(mine),
            "",
        ]
    return "\n".join(lines)


def _to_json(outcomes: Iterable[Outcome], apps: Sequence[App]) -> dict[str, Any]:
    items = list(outcomes)
    summary: dict[str, Any] = {}
    for split in SPLITS:
        mine = [o for o in items if o.split == split]
        if not mine:
            continue
        verdicts = Counter(o.verdict for o in mine)
        summary[split] = {
            "pairs": len(mine),
            "removed_answered": sum(bool(o.removed_answered) for o in mine),
            "removed_copies": sum(bool(o.removed_copy) for o in mine),
            "abstained_truth_first": sum(truth_first(o) for o in mine if o.verdict == "abstained"),
            "resolver": {v: verdicts[v] for v in VERDICTS},
            "baseline": {
                "correct": sum(o.baseline_correct for o in mine),
                "wrong": sum(not o.baseline_correct for o in mine),
            },
        }
    return {
        "summary": summary,
        "skipped": [
            {"app": a.name, "pair": pair, "reason": reason}
            for a in apps
            for pair, reason in a.skipped
        ],
        "pairs": [asdict(o) for o in items],
    }


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.similo", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--split", choices=("tune", "heldout", "all"), default="all")
    parser.add_argument("--json", type=Path, help="write every pair's outcome here")
    parser.add_argument(
        "--corpus", type=Path, help="the corpus folder (default: $RESOLVER_SIMILO or shared)"
    )
    parser.add_argument(
        "--flat",
        action="store_true",
        help="hang every candidate under the root (default: nest candidates by their xpaths)",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="FIELD=NUMBER",
        help="a MatchConfig field for every resolve (e.g. pairwise_accept=1 turns the learned "
        "rule off); repeatable",
    )
    parser.add_argument(
        "--no-neighbours",
        action="store_true",
        help="leave the recorded neighbour texts off the tree's nodes",
    )
    return parser


def _options(pairs: Sequence[str]) -> dict[str, float]:
    out: dict[str, float] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--set takes FIELD=NUMBER, not {pair!r}")
        out[key.strip()] = float(value)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; the exit status is 0 (also when the corpus is absent)."""
    args = _parser().parse_args(argv)
    root: Path | None = args.corpus if args.corpus is not None else corpus_dir()
    if root is None or not (root / "apps").is_dir():
        print("Similo corpus absent (set $RESOLVER_SIMILO or add ../shared/corpora/similo-tune)")
        return 0
    options = _options(args.set)
    names = apps_of_split(args.split)
    apps = load_apps(root, names)
    outcomes: list[Outcome] = []
    started = time.perf_counter()
    for app in apps:
        split = split_of(app.name) or "?"
        tick = time.perf_counter()
        outcomes += evaluate_app(
            app, split, nest=not args.flat, options=options, neighbours=not args.no_neighbours
        )
        print(
            f"{split:8} {app.name:12} {len(app.pairs):3} pairs {len(app.candidates):4} "
            f"candidates {time.perf_counter() - tick:6.2f}s",
            file=sys.stderr,
        )
    print(f"{len(outcomes)} pairs in {time.perf_counter() - started:.1f}s", file=sys.stderr)
    print(markdown(outcomes, apps, root))
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(_to_json(outcomes, apps), indent=1), encoding="utf-8")
    return 0
