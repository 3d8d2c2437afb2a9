"""The markdown report of a relocation run, one section per half (held-out first)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from .alike import dominating, profile_grid
from .conventions import CONVENTIONS
from .mutate import KINDS
from .recorders import COMPLETIONS, RECORDERS
from .render import uncovered_warning

__all__ = ["COLUMNS", "markdown", "refusal_cost"]

COLUMNS = (
    ("a11y", "ours"),
    ("a11y", "foreign"),
    ("dom", "ours"),
    ("dom", "foreign"),
    ("a11y", "completed"),
    ("dom", "completed"),
    ("a11y", "seed"),
    ("a11y", "varied"),
    ("dom", "varied"),
    ("chain", "foreign"),
    ("chain", "varied"),
)
TITLES = {"heldout": "Held-out half", "tune": "Tune half"}
ELEMENTS = ("link", "button", "input", "heading", "image")


def _counts(outcomes: Iterable[dict[str, Any]]) -> Counter[str]:
    return Counter(o["verdict"] for o in outcomes)


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}" if whole else "-"


def _overall_rows(outcomes: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| source | recorder | present | correct % | wrong % | abstained % | precision % "
        "| removed | answered % | errors |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    if not outcomes:
        return ["(no cases)"]
    for source, recorder in _columns(outcomes):
        c = _counts(o for o in outcomes if o["source"] == source and o["recorder"] == recorder)
        present = c["correct"] + c["wrong"] + c["abstained"]
        removed = c["rejected"] + c["false_hit"]
        lines.append(
            f"| {source} | {recorder} | {present} | {_pct(c['correct'], present)} "
            f"| {_pct(c['wrong'], present)} | {_pct(c['abstained'], present)} "
            f"| {_pct(c['correct'], c['correct'] + c['wrong'])} | {removed} "
            f"| {_pct(c['false_hit'], removed)} | {c['error']} |"
        )
    return lines


def _completion_rows(identity: list[dict[str, Any]]) -> list[str]:
    """Per source, what completing the foreign references on their base render found (one
    identity outcome per target and source)."""
    done = [o for o in identity if o["recorder"] == "completed"]
    if not done:
        return ["(no completed references)"]
    lines = ["| source | targets | " + " | ".join(COMPLETIONS) + " |", "|---|---:|---:|---:|---:|"]
    for source in sorted({o["source"] for o in done}):
        c = Counter(o.get("completion", "refused") for o in done if o["source"] == source)
        lines.append(
            f"| {source} | {sum(c.values())} | " + " | ".join(str(c[k]) for k in COMPLETIONS) + " |"
        )
    return lines


def _alike(o: dict[str, Any]) -> bool:
    """A wrong answer or answered removed target no field of its reference tells apart."""
    return o["verdict"] in ("wrong", "false_hit") and o.get("apart") == []


def _alike_rows(outcomes: list[dict[str, Any]]) -> list[str]:
    if not outcomes:
        return ["(no cases)"]
    lines = [
        "| source | recorder | wrong | of them indistinguishable | removed answered "
        "| of them indistinguishable | correct / wrong / abstained % without them "
        "| removed answered % without them |",
        "|---|---|---:|---:|---:|---:|---|---:|",
    ]
    for source, recorder in _columns(outcomes):
        cell = [o for o in outcomes if o["source"] == source and o["recorder"] == recorder]
        c = _counts(cell)
        same_wrong = sum(1 for o in cell if o["verdict"] == "wrong" and _alike(o))
        same_removed = sum(1 for o in cell if o["verdict"] == "false_hit" and _alike(o))
        present = c["correct"] + c["wrong"] + c["abstained"] - same_wrong
        removed = c["rejected"] + c["false_hit"] - same_removed
        lines.append(
            f"| {source} | {recorder} | {c['wrong']} | {same_wrong} | {c['false_hit']} "
            f"| {same_removed} | {_pct(c['correct'], present)} / "
            f"{_pct(c['wrong'] - same_wrong, present)} / {_pct(c['abstained'], present)} "
            f"| {_pct(c['false_hit'] - same_removed, removed)} |"
        )
    return lines


def _address_rows(outcomes: list[dict[str, Any]]) -> list[str]:
    """Answered removed targets, and those answered by a link to the removed one's address."""
    cells = [
        (source, recorder, [o for o in outcomes if o["source"] == source
                            and o["recorder"] == recorder and o["verdict"] == "false_hit"])
        for source, recorder in _columns(outcomes)
    ]  # fmt: skip
    lines = [
        "| source | recorder | removed answered | of them a link to the removed one's address |",
        "|---|---|---:|---:|",
    ]
    for source, recorder, hits in cells:
        same = sum(1 for o in hits if o.get("same_address"))
        lines.append(f"| {source} | {recorder} | {len(hits)} | {same} |")
    return lines


def refusal_cost(masks: list[np.ndarray], allowed: int) -> tuple[int, int]:
    """Right answers a rule must refuse to leave at most ``allowed`` of the answered removed
    targets whose dominating right answers are ``masks`` (one row each, see
    :func:`~benchmarks.relocation.alike.dominating`): at least, and by a greedy choice.

    A target no right answer dominates is refused for nothing (an optimistic premise). Of
    the others, any ``k`` refused cost at least the ``k``-th smallest count, since the rule
    refuses the union of their rows; the greedy choice adds the one that costs least next.
    """
    free = [m for m in masks if not m.any()]
    others = sorted((m for m in masks if m.any()), key=lambda m: int(m.sum()))
    k = max(0, len(masks) - allowed - len(free))
    if k == 0:
        return 0, 0
    least = int(others[k - 1].sum())
    refused = np.zeros_like(others[0])
    for _ in range(k):
        best = min(range(len(others)), key=lambda i: int((others[i] & ~refused).sum()))
        refused |= others.pop(best)
    return least, int(refused.sum())


def _dominance_rows(outcomes: list[dict[str, Any]]) -> list[str]:
    """Answered removed targets, those a right answer of the same column agrees no better
    than, the right answers any such rule would refuse with them, and what bringing the
    answered removed targets down to 1% would cost."""
    lines = [
        "| source | recorder | removed answered | of them, a right answer agrees no better "
        "| right answers refused with those | right answers lost for 1%, at least / greedy "
        "| right answers |",
        "|---|---|---:|---:|---:|---|---:|",
    ]
    for source, recorder in _columns(outcomes):
        if recorder not in RECORDERS:
            continue
        cell = [o for o in outcomes if o["source"] == source and o["recorder"] == recorder]
        hits = [o["profile"] for o in cell if o["verdict"] == "false_hit" and o.get("profile")]
        right = [o["profile"] for o in cell if o["verdict"] == "correct" and o.get("profile")]
        removed = sum(1 for o in cell if o["verdict"] in ("false_hit", "rejected"))
        keys, grid = profile_grid(right)
        masks = [dominating(hit, keys, grid) for hit in hits]
        refused = np.zeros(len(right), dtype=bool)
        for mask in masks:
            refused |= mask
        least, greedy = refusal_cost(masks, removed // 100)
        lines.append(
            f"| {source} | {recorder} | {len(hits)} | {sum(bool(m.any()) for m in masks)} "
            f"| {int(refused.sum())} | {least} / {greedy} | {len(right)} |"
        )
    return lines


def _apart_rows(outcomes: list[dict[str, Any]]) -> list[str]:
    """How often each recorded field told a wrong answer from its target."""
    cols = _columns(outcomes)
    told = [o for o in outcomes if o["verdict"] in ("wrong", "false_hit") and o.get("apart")]
    fields = Counter(f for o in told for f in o["apart"])
    if not fields:
        return ["(no cases)"]
    lines = [
        "| field | " + " | ".join(f"{s} {r}" for s, r in cols) + " |",
        "|---|" + "---:|" * len(cols),
    ]
    for name, _ in fields.most_common():
        cells = [
            str(sum(1 for o in told if (o["source"], o["recorder"]) == col and name in o["apart"]))
            for col in cols
        ]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def _rule_rows(outcomes: list[dict[str, Any]]) -> list[str]:
    """Per deciding rule (its id, :data:`resolver.decide.RULES`): what it did to present
    targets (right, wrong, abstained) and to removed ones (answered, refused), every column
    of the a11y and dom sources together and each recorder apart (``ours / foreign /
    completed / varied``); the ``chain`` pseudo-source is left out."""
    judged = [
        o for o in outcomes
        if o["verdict"] != "error" and o["recorder"] != "seed" and o.get("source") != "chain"
    ]  # fmt: skip
    if not judged:
        return ["(no cases)"]
    recorders = RECORDERS
    lines = [
        "| rule | present: correct | wrong | abstained | removed: answered | refused |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    by_rule: dict[str, list[dict[str, Any]]] = {}
    for o in judged:
        by_rule.setdefault(str(o.get("rule") or "none"), []).append(o)
    for rule, items in sorted(by_rule.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        cells = []
        for verdict in ("correct", "wrong", "abstained", "false_hit", "rejected"):
            split = [sum(o["verdict"] == verdict for o in items if o["recorder"] == r)
                     for r in recorders]  # fmt: skip
            cells.append(f"{sum(split)} ({' / '.join(map(str, split))})")
        lines.append(f"| `{rule}` | " + " | ".join(cells) + " |")
    return lines


def _convention_of(outcomes: list[dict[str, Any]]) -> dict[tuple[str, str], str]:
    """``(page, key) -> convention`` of the ``varied`` recorder's targets."""
    return {
        (o["page"], o["key"]): o.get("convention") or ""
        for o in outcomes
        if o["recorder"] == "varied"
    }


def _convention_rows(outcomes: list[dict[str, Any]], source: str) -> list[str]:
    """Per convention of the ``varied`` recorder on one source: present targets correct /
    wrong / abstained, wrong answers with a twin, removed targets answered, the identity
    control, and the ``foreign`` reference on the same cases."""
    drawn = _convention_of(outcomes)
    mine = [o for o in outcomes if o["source"] == source and o["recorder"] in ("varied", "foreign")]
    lines = [
        "| convention | targets | present | correct % | wrong % | abstained % "
        "| wrong with a twin | removed | answered % | identity correct % "
        "| foreign on the same cases: correct / wrong / abstained %, answered % |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name in (*CONVENTIONS, "all"):
        cases = [o for o in mine if name == "all" or drawn.get((o["page"], o["key"])) == name]
        varied = [o for o in cases if o["recorder"] == "varied"]
        if not varied:
            continue
        changed = [o for o in varied if o["kind"] != "identity"]
        foreign = [o for o in cases if o["recorder"] == "foreign" and o["kind"] != "identity"]
        c, f = _counts(changed), _counts(foreign)
        identity = _counts(o for o in varied if o["kind"] == "identity")
        present = c["correct"] + c["wrong"] + c["abstained"]
        removed = c["rejected"] + c["false_hit"]
        f_present = f["correct"] + f["wrong"] + f["abstained"]
        f_removed = f["rejected"] + f["false_hit"]
        twin_wrong = sum(1 for o in changed if o["verdict"] == "wrong" and o["twin"])
        targets = len({(o["page"], o["key"]) for o in varied})
        id_present = identity["correct"] + identity["wrong"] + identity["abstained"]
        lines.append(
            f"| {name} | {targets} | {present} | {_pct(c['correct'], present)} "
            f"| {_pct(c['wrong'], present)} | {_pct(c['abstained'], present)} | {twin_wrong} "
            f"| {removed} | {_pct(c['false_hit'], removed)} "
            f"| {_pct(identity['correct'], id_present)} "
            f"| {_pct(f['correct'], f_present)} / {_pct(f['wrong'], f_present)} / "
            f"{_pct(f['abstained'], f_present)}, {_pct(f['false_hit'], f_removed)} |"
        )
    return lines if len(lines) > 2 else ["(no cases)"]


def _convention_sections(outcomes: list[dict[str, Any]]) -> list[str]:
    """One table per source of the ``varied`` recorder's outcomes by convention."""
    varied = {o["source"] for o in outcomes if o["recorder"] == "varied"}
    sources = [s for s in ("a11y", "dom", "chain") if s in varied]
    if not sources:
        return []
    lines = [
        "### The varied recorder, per convention",
        "",
        "Each target's foreign reference as one other tool's convention writes it "
        "(`benchmarks/relocation/conventions.py`; one convention per target, drawn from the "
        "page name and target key). Changed versions; `identity correct %` is the present "
        "targets on the unchanged base render; the last column is the `foreign` reference "
        "of the same targets on the same versions.",
        "",
    ]
    for source in sources:
        lines += [f"Source `{source}`:", "", *_convention_rows(outcomes, source), ""]
    return lines


def _chain_rows(outcomes: list[dict[str, Any]]) -> list[str]:
    """Per chain recorder (and convention, for ``varied``): how often a11y refused, how
    often dom then answered, and how those answers were judged."""
    chain = [o for o in outcomes if o["source"] == "chain"]
    lines = [
        "| recorder | convention | cases | a11y answered | a11y refused | dom answered after "
        "| of them correct | wrong | removed answered |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    groups: list[tuple[str, str, list[dict[str, Any]]]] = []
    for recorder in ("foreign", "varied"):
        mine = [o for o in chain if o["recorder"] == recorder]
        if not mine:
            continue
        groups.append((recorder, "all", mine))
        if recorder == "varied":
            for name in CONVENTIONS:
                subset = [o for o in mine if o.get("convention") == name]
                if subset:
                    groups.append((recorder, name, subset))
    for recorder, name, items in groups:
        by_a11y = sum(1 for o in items if o.get("answered_by") == "a11y")
        refused = sum(1 for o in items if o.get("a11y_status") not in (None, "accepted"))
        dom = [o for o in items if o.get("answered_by") == "dom"]
        c = _counts(dom)
        lines.append(
            f"| {recorder} | {name} | {len(items)} | {by_a11y} | {refused} | {len(dom)} "
            f"| {c['correct']} | {c['wrong']} | {c['false_hit']} |"
        )
    return lines if len(lines) > 2 else ["(no cases)"]


def _chain_section(outcomes: list[dict[str, Any]]) -> list[str]:
    """The ``--chain`` pseudo-source: a11y, then dom after an a11y refusal."""
    if not any(o["source"] == "chain" for o in outcomes):
        return []
    chain = [o for o in outcomes if o["source"] == "chain"]
    return [
        "### Chain: a11y, then dom",
        "",
        "The foreign and varied references (their a11y form) resolved with "
        '`resolve(ref, obs, sources=("a11y", "dom"), coords_fallback="never")`: '
        "an answer is right when it is the target in the source that gave it (its AX node, "
        "or the DOM row at its XPath).",
        "",
        *_overall_rows(chain),
        "",
        "Answers given by dom after a11y refused (changed versions; `a11y refused` counts "
        "every a11y status other than accepted):",
        "",
        *_chain_rows(chain),
        "",
    ]


def _columns(outcomes: list[dict[str, Any]]) -> list[tuple[str, str]]:
    seen = {(o["source"], o["recorder"]) for o in outcomes}
    return [col for col in COLUMNS if col in seen]


def _present_cell(outcomes: list[dict[str, Any]]) -> str:
    c = _counts(outcomes)
    present = c["correct"] + c["wrong"] + c["abstained"]
    if not present:
        return "-"
    return (
        f"{_pct(c['correct'], present)} / {_pct(c['wrong'], present)} / "
        f"{_pct(c['abstained'], present)} ({present})"
    )


def _removed_cell(outcomes: list[dict[str, Any]]) -> str:
    c = _counts(outcomes)
    removed = c["rejected"] + c["false_hit"]
    return f"{_pct(c['false_hit'], removed)} ({removed})" if removed else "-"


def _grid(
    outcomes: list[dict[str, Any]],
    row_name: str,
    rows: list[tuple[str, Callable[[dict[str, Any]], bool]]],
    cell: Callable[[list[dict[str, Any]]], str],
) -> list[str]:
    cols = _columns(outcomes)
    lines = [
        f"| {row_name} | " + " | ".join(f"{s} {r}" for s, r in cols) + " |",
        "|---|" + "---:|" * len(cols),
    ]
    for label, keep in rows:
        subset = [o for o in outcomes if keep(o)]
        if not subset:
            continue
        cells = [
            cell([o for o in subset if o["source"] == s and o["recorder"] == r]) for s, r in cols
        ]
        if all(c == "-" for c in cells):
            continue
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines if len(lines) > 2 else ["(no cases)"]


def _mutation_rows() -> list[tuple[str, Callable[[dict[str, Any]], bool]]]:
    rows: list[tuple[str, Callable[[dict[str, Any]], bool]]] = [
        (kind, lambda o, k=kind: o["mutation"] == k) for kind in KINDS
    ]
    rows.append(("none (untouched)", lambda o: o["mutation"] == "none"))
    return rows


def _wrong_lines(outcomes: list[dict[str, Any]], limit: int) -> list[str]:
    wrong = [
        o for o in outcomes if o["verdict"] in ("wrong", "false_hit") and o["recorder"] in RECORDERS
    ]
    wrong.sort(key=lambda o: (o["page"], o["version"], int(o["key"][1:]), o["source"]))
    lines = [
        f"{len(wrong)} wrong answers and false hits of `ours`/`foreign`/`completed`/`varied` "
        f"(the seed's are in the JSON){'' if len(wrong) <= limit else f'; first {limit} shown'}:",
        "",
        "| page | version | key | source | recorder | mutation | verdict | expected | got "
        "| told apart by |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for o in wrong[:limit]:
        expected = o.get("expected_desc", o["expected"] or "-").replace("|", "\\|")
        got = o.get("answer_desc", o["answer"] or "-").replace("|", "\\|")
        lines.append(
            f"| {o['page']} | {o['version']} | {o['key']} | {o['source']} | {o['recorder']} "
            f"| {o['mutation']} | {o['verdict']} | `{expected}` | `{got}` "
            f"| {', '.join(o['apart']) if o.get('apart') else 'nothing'} |"
        )
    return lines


def _section(
    split: str, pages: list[dict[str, Any]], outcomes: list[dict[str, Any]], wrong_limit: int
) -> list[str]:
    if not pages:
        return [f"## {TITLES.get(split, split)}", "", "No pages of this half were run.", ""]
    ok = [p for p in pages if p.get("status") == "ok"]
    failed = [p for p in pages if p.get("status") not in ("ok", "no targets")]
    no_targets = [p["page"] for p in pages if p.get("status") == "no targets"]
    versions = [v for p in ok for v in p.get("versions", []) if v["status"] == "ok"]
    bad_versions = [
        f"{p['page']}/{v['name']}: {v['status']}"
        for p in ok
        for v in p.get("versions", [])
        if v["status"] != "ok"
    ]
    changed = [o for o in outcomes if o["kind"] != "identity"]
    identity = [o for o in outcomes if o["kind"] == "identity"]
    kinds = Counter(v["name"].split("-", 1)[1] for v in versions)
    lines = [
        f"## {TITLES.get(split, split)}",
        "",
        f"- pages: {len(pages)} ({len(ok)} evaluated, {len(no_targets)} without targets, "
        f"{len(failed)} failed)",
        f"- targets recorded on base renders: {sum(p.get('recorded', 0) for p in ok)} "
        f"({sum(p.get('twins', 0) for p in ok)} with a same-role same-name twin)",
        f"- changed versions: {len(versions)} ("
        + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
        + ")",
    ]
    for p in failed:
        lines.append(f"- failed page: {p['page']}: {p.get('status')}")
    for line in bad_versions:
        lines.append(f"- failed version: {line}")
    if no_targets:
        lines.append(f"- pages without targets: {', '.join(no_targets)}")
    lines += [
        "",
        "### All changed versions",
        "",
        "present = target still in the changed render (for that source); removed = not there. "
        "precision = correct / (correct + wrong); answered % of removed = false hits.",
        "",
        *_overall_rows(changed),
        "",
        "### Identity control (each reference resolved on its own, unchanged base render)",
        "",
        *_overall_rows(identity),
        "",
        *_convention_sections(outcomes),
        *_chain_section(changed),
        "### Completed references",
        "",
        "The foreign references completed from their base render "
        "(`resolver.capture.complete_ref`): the element each completion found there (the "
        "target, another element, or nothing certain: the foreign reference is then kept).",
        "",
        *_completion_rows(identity),
        "",
        "### Indistinguishable wrong answers",
        "",
        "A wrong answer, or an answer for a removed target, is indistinguishable when it "
        "agrees with every field of the reference at least as well as the target does (the "
        "target on the changed page, or on the base page when it was removed), the fields "
        "being what the same recorder writes for each element on the changed page "
        "(`benchmarks/relocation/alike.py`). No method that sees only the reference and "
        "the page can tell those apart; the last two columns set them aside.",
        "",
        *_alike_rows(changed),
        "",
        "Fields on which the target agrees with the reference better than the answer "
        "(wrong answers and answered removed targets told apart; a case counts once per field):",
        "",
        *_apart_rows(changed),
        "",
        "Answered removed targets that a right answer agrees with its own reference no "
        "better than, on every field where they disagree with theirs (`profile` in "
        "`benchmarks/relocation/alike.py`: each equality, selector and list field, the box's "
        "distance and the XPath steps apart). A rule that judges an answer by how it agrees "
        "with its reference, refusing whatever agrees no better than what it refuses, cannot "
        "refuse those without the right answers counted next to them. To answer at most 1% "
        "of the removed targets, such a rule must also refuse at least the right answers "
        "counted after them (even granting that the others cost nothing).",
        "",
        *_dominance_rows(changed),
        "",
        "Removed targets answered by a link to the address the removed one linked to (an "
        "image link left beside a removed title link, a menu entry repeated elsewhere): "
        "clicking it leads where the recorded click led, though it is another element.",
        "",
        *_address_rows(changed),
        "",
        "### By deciding rule",
        "",
        "The rule that made each outcome (`Resolution.rule`, or the rule of the refusing "
        "source's trace entry; docs/rules.md), both sources together; in brackets ours / "
        "foreign / completed.",
        "",
        *_rule_rows(changed),
        "",
        "### Per mutation kind: present targets, correct / wrong / abstained % (n)",
        "",
        "Per-target kinds count the targets they touched; `none` is the untouched targets of "
        "those versions. Page-wide kinds (rename_ids_classes, decoys, banner) count every target.",
        "",
        *_grid(changed, "mutation", _mutation_rows(), _present_cell),
        "",
        "### Removed targets: answered % (n)",
        "",
        *_grid(changed, "mutation", _mutation_rows(), _removed_cell),
        "",
        "### Twins (another base element with the same Chromium role and name)",
        "",
        *_grid(
            changed,
            "target",
            [("twin", lambda o: o["twin"]), ("no twin", lambda o: not o["twin"])],
            _present_cell,
        ),
        "",
        "Removed targets, answered % (n):",
        "",
        *_grid(
            changed,
            "target",
            [("twin", lambda o: o["twin"]), ("no twin", lambda o: not o["twin"])],
            _removed_cell,
        ),
        "",
        "### By element kind: present targets, correct / wrong / abstained % (n)",
        "",
        *_grid(
            changed,
            "element",
            [(e, lambda o, e=e: o["element"] == e) for e in ELEMENTS],
            _present_cell,
        ),
        "",
        "### Wrong answers",
        "",
        *_wrong_lines(changed, wrong_limit),
        "",
    ]
    return lines


def _settings(settings: dict[str, float] | None) -> str:
    """The ``MatchConfig`` values the run set, or the library's defaults."""
    if not settings:
        return "the library's defaults"
    return ", ".join(f"`{k}={v:g}`" for k, v in settings.items())


def markdown(
    pages: list[dict[str, Any]],
    outcomes: list[dict[str, Any]],
    config: dict[str, Any],
    *,
    splits: Iterable[str],
    wrong_limit: int = 300,
) -> str:
    """The whole report."""
    lines = [
        "# Real-page relocation benchmark",
        "",
        f"Corpus: readability-pages; split shown: {config['split']}; sources: "
        f"{', '.join(config['sources'])}; {config['pages']} pages; wall time "
        f"{config['wall_seconds']:.0f} s with {config['workers']} workers; settings: "
        f"{_settings(config.get('settings'))}.",
        *filter(None, [uncovered_warning(tuple(config.get("uncovered_scripts", ())))]),
        "",
        "Recorders: `ours` = `ref_from_row` on the base render's table for that source; "
        "`foreign` = Chromium role/name/box, viewport, xpath, css selector and all named AX "
        "ancestors, and what a content script reads (tag, id, classes, href, attributes, "
        "nearby texts); `completed` = the foreign reference completed from the base render "
        "(`complete_ref`: the element found again there and recorded with `ref_from_row`); "
        "`seed` = the seed's additive scorer on the a11y tree (foreign reference); `varied` = "
        "the foreign reference in one other tool's convention per target (see the per-convention "
        "section); source `chain` (with `--chain`) = a11y, then dom after an a11y refusal.",
        "",
    ]
    for split in splits:
        lines += _section(
            split,
            [p for p in pages if p["split"] == split],
            [o for o in outcomes if o["split"] == split],
            wrong_limit,
        )
    return "\n".join(lines)
