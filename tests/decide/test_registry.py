"""The registry of rules: every rule is named, described and placed; what it reads is what it
declares; the docs are generated from it; the decision names no source; no module is long."""

from __future__ import annotations

import ast
import dataclasses
import re
from dataclasses import fields
from pathlib import Path

import pytest

from resolver import MatchConfig, Observation, SemanticElementRef, resolve
from resolver.decide import KINDS, RULES, RULES_BY_ID, STAGES, Decision, rule
from resolver.decide.doc import rules_markdown
from resolver.decide.rule import revised, stamped

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "resolver" / "decide"
FIELDS = {f.name for f in fields(MatchConfig)}
PREFIX = {"accepts": "accept.", "refuses": "refuse.", "doubts": "ambiguous.", "prefers": "prefer.",
          "scopes": "scope."}  # fmt: skip


def test_every_rule_is_named_described_and_placed() -> None:
    assert len(RULES_BY_ID) == len(RULES), "rule ids are unique"
    for r in RULES:
        assert re.fullmatch(r"[a-z]+\.[a-z_]+", r.id), r.id
        assert r.kind in KINDS and r.stage in STAGES
        assert r.id.startswith(PREFIX[r.kind]), f"{r.id}: the id's verb says what it does"
        assert r.description and "\n" not in r.description and r.description.endswith(".")
        assert set(r.params) <= FIELDS, f"{r.id}: unknown parameters"
        assert (r.check is None) == (r.stage in ("chain", "catalog")), r.id
        if r.stage in ("review", "final"):
            assert r.on, f"{r.id}: a review rule names the statuses it looks at"
    assert rule("accept.score") is RULES_BY_ID["accept.score"]
    unknown = "refuse." + "nothing"
    with pytest.raises(KeyError, match=f"no rule '{unknown}'"):
        rule(unknown)


def test_stages_come_in_order() -> None:
    order = [STAGES.index(r.stage) for r in RULES]
    assert order == sorted(order)


def _functions() -> dict[str, ast.FunctionDef]:
    found: dict[str, ast.FunctionDef] = {}
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef):
                assert node.name not in found or node.name.startswith("__"), node.name
                found[node.name] = node
    return found


def _reads(node: ast.FunctionDef) -> tuple[set[str], set[str]]:
    """The MatchConfig fields a function reads (``config.x``, ``ctx.config.x``) and the
    names it calls."""
    reads, calls = set(), set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr in FIELDS:
            owner = sub.value
            name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            if name in ("config", "cfg"):
                reads.add(sub.attr)
        if isinstance(sub, ast.Call):
            func = sub.func
            if isinstance(func, ast.Name):
                calls.add(func.id)
            elif isinstance(func, ast.Attribute) and getattr(func.value, "id", "") == "ctx":
                calls.add(func.attr)  # a Context method
    return reads, calls


def test_every_rule_declares_the_parameters_it_reads() -> None:
    functions = _functions()
    direct = {name: _reads(node) for name, node in functions.items()}

    def closure(name: str) -> set[str]:
        seen, todo, out = set(), [name], set()
        while todo:
            here = todo.pop()
            if here in seen or here not in direct:
                continue
            seen.add(here)
            reads, calls = direct[here]
            out |= reads
            todo.extend(calls)
        return out

    every, wrong = set(), []
    for r in RULES:
        if r.check is None:
            continue
        read = closure(r.check.__name__)
        if r.id == "ambiguous.margin":
            read |= closure("pending")  # the margin is to the runner-up the engine finds
        every |= read
        if read != set(r.params):
            wrong.append(f"{r.id} reads {sorted(read)}, declares {sorted(r.params)}")
    assert not wrong, "\n".join(wrong)
    # No field is read by a decision module outside a rule.
    stray = set().union(*(reads for reads, _ in direct.values())) - every
    assert not stray, f"fields read outside every rule: {sorted(stray)}"


def test_the_docs_table_is_the_registry() -> None:
    text = (ROOT / "docs" / "rules.md").read_text()
    assert text == rules_markdown(), "run: python -m resolver.decide.doc > docs/rules.md"
    for r in RULES:
        assert f"`{r.id}`" in text


def test_no_decision_module_is_long_or_names_a_source() -> None:
    checked = [
        *PACKAGE.glob("*.py"),
        *(
            ROOT / "resolver" / f"{name}.py"
            for name in ("matcher", "batch", "index", "calibration")
        ),
    ]
    for path in checked:
        text = path.read_text()
        if path.parent == PACKAGE:
            assert len(text.splitlines()) <= 700, f"{path.name} is over 700 lines"
        code = ast.parse(text)
        strings = [
            n.value
            for n in ast.walk(code)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)
        ]
        literal = [
            s for s in strings if s in ("a11y", "dom", "vision", "@") or s.startswith("vision:")
        ]
        assert not literal, f"{path.name} names a source: {literal}"
        assert ".source ==" not in text and ".source !=" not in text, path.name
    assert not (ROOT / "resolver" / "decide.py").exists()


def test_thresholds_live_in_the_config() -> None:
    for path in PACKAGE.glob("*.py"):
        for node in ast.parse(path.read_text()).body:
            target = node.target if isinstance(node, ast.AnnAssign) else None
            if target is None and isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
            value = getattr(node, "value", None)
            if isinstance(target, ast.Name) and isinstance(value, ast.Constant):
                number = value.value
                assert not isinstance(number, (int, float)) or target.id == "ROUNDING", (
                    f"{path.name}: {target.id} = {number!r} is a number outside MatchConfig"
                )


def test_rule_ids_named_in_tests_and_benchmarks_are_registered() -> None:
    pattern = re.compile(r"\"((?:accept|refuse|ambiguous|prefer)\.[a-z_]+)\"")
    files = re.compile(r"\.(png|json|jsonl|html|md|txt)$")
    for folder in ("tests", "benchmarks", "resolver"):
        for path in (ROOT / folder).rglob("*.py"):
            for found in pattern.findall(path.read_text()):
                if files.search(found):
                    continue
                assert found in RULES_BY_ID, f"{path.relative_to(ROOT)} names no rule: {found}"


def _two_ok() -> Observation:
    tree = {"id": "d", "role": "dialog", "name": "Settings", "children": [
        {"id": "a", "role": "button", "name": "OK", "bbox": [10, 10, 60, 30]},
        {"id": "b", "role": "button", "name": "OK", "bbox": [10, 300, 60, 320]},
    ]}  # fmt: skip
    return Observation(accessibility_tree=tree)


def test_a_rule_stamps_what_it_returns_and_leaves_the_rest() -> None:
    ref = SemanticElementRef(role="button", name="OK", bbox=(12, 298, 62, 318))
    found = resolve(ref, _two_ok(), sources=("a11y",))
    assert found.rule == "accept.score" and found.trace[0].rules == ("accept.score",)
    assert found.to_dict()["rule"] == "accept.score"
    stale = Decision("accepted", "x", rule="accept.score", rules=("accept.score",))
    never = RULES_BY_ID["refuse.no_input"]  # a chain rule: no check, nothing changes
    assert never.apply(None, stale) is stale  # type: ignore[arg-type]


def test_a_decision_revised_is_the_decision_replaced() -> None:
    decision = Decision("pending", "", margin=0.25, rule="select.x", rules=("select.x",))
    changes = {"status": "accepted", "reason": "score 0.9", "margin": 0.3}
    assert revised(decision, **changes) == dataclasses.replace(decision, **changes)
    assert stamped(decision, "accept.score", ("select.x", "accept.score")).rules == (
        "select.x", "accept.score",
    )  # fmt: skip
    assert decision.status == "pending"  # the decision given stays as it was
    with pytest.raises(TypeError, match="stauts"):
        revised(decision, stauts="accepted")


def test_the_rules_after_a_rule_that_took_another_row_review_that_row() -> None:
    from dataclasses import replace

    from resolver.decide import Context
    from resolver.matcher import score_table
    from resolver.results import Candidate
    from resolver.table import TableBuilder

    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Page")
    b.add("one", raw_role="button", name="Save", parent=root, bbox=(0, 0, 50, 20))
    b.add("two", raw_role="button", name="Save", parent=root, bbox=(0, 400, 50, 420))
    table = b.build(coord_space="css_px")
    ref = SemanticElementRef(role="button", name="Save", bbox=(0, 0, 50, 20))
    scored = score_table(ref, table, MatchConfig())
    ctx = Context(ref, table, scored, MatchConfig())
    first = Candidate.of(table, scored, 0)
    second = Candidate.of(table, scored, 1)
    ranked = Decision("accepted", "best", (first, second))
    assert ctx.following(ranked) is ctx and table.ids[ctx.first] == "one"
    took = replace(ranked, candidates=(second, first))
    assert table.ids[ctx.following(took).first] == "two"
