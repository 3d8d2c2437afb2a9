"""The ``varied`` recorder's conventions, its per-convention report and the ``chain``
pseudo-source (no browser, no corpus; the last tests read the captured fixture pages):
``python -m pytest benchmarks/relocation/test_conventions.py``."""

from __future__ import annotations

import dataclasses
import types
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from benchmarks.relocation.conventions import (
    ALL_CONVENTIONS,
    CONVENTIONS,
    LANDMARK_ROLES,
    Drawn,
    bare,
    draw,
    landmarks,
    name_case,
    name_cut,
    nearest_container,
    no_containers,
    other_viewport,
    selectors_only,
    wide_viewport,
)
from benchmarks.relocation.recorders import _landmark_ancestors, _named_ancestors, record_targets
from benchmarks.relocation.report import _chain_rows, _convention_rows
from benchmarks.relocation.run import Options, evaluate_version
from resolver import SemanticElementRef
from resolver.replay.captures import Capture, read_capture

CAPTURED = Path(__file__).resolve().parents[2] / "fixtures" / "captured"

FOREIGN = SemanticElementRef(
    role="link",
    name="Read the whole story about the harbour bridge",
    bbox=(100.0, 200.0, 300.0, 220.0),
    screen_size=(1280, 800),
    xpath="/html[1]/body[1]/main[1]/a[1]",
    css_selector="body > main:nth-of-type(1) > a:nth-of-type(1)",
    container_path=("Harbour news", "Main", "Stories"),
    tag="a",
    dom_id="story",
    classes=("teaser",),
    href="https://example.org/story",
    attributes={"title": "Story"},
    nearby_text=("Yesterday", "Next"),
)


def test_nearest_container_keeps_the_innermost_named_ancestor() -> None:
    ref = nearest_container(FOREIGN)
    assert ref.container_path == ("Stories",)
    assert ref.model_copy(update={"container_path": FOREIGN.container_path}) == FOREIGN
    assert nearest_container(FOREIGN.model_copy(update={"container_path": ()})).container_path == ()


def test_landmarks_replace_the_container_path() -> None:
    ref = landmarks(FOREIGN, ("banner", "Site menu"))
    assert ref.container_path == ("banner", "Site menu")
    assert ref.name == FOREIGN.name and ref.xpath == FOREIGN.xpath


def test_other_viewport_scales_box_and_screen_together() -> None:
    ref = other_viewport(FOREIGN)
    assert ref.bbox == (125.0, 250.0, 375.0, 275.0)
    assert ref.screen_size == (1600, 1000)
    assert ref.name == FOREIGN.name and ref.container_path == FOREIGN.container_path


def test_wide_viewport_moves_the_box_right_and_widens_the_screen() -> None:
    ref = wide_viewport(FOREIGN)
    assert ref.bbox == (180.0, 200.0, 380.0, 220.0)
    assert ref.screen_size == (1440, 900)
    assert wide_viewport(FOREIGN.model_copy(update={"bbox": None})).bbox is None


def test_name_cut_keeps_thirty_characters_and_leaves_short_names() -> None:
    assert name_cut(FOREIGN).name == FOREIGN.name[:30] != FOREIGN.name  # type: ignore[index]
    assert len(name_cut(FOREIGN).name or "") == 30
    short = FOREIGN.model_copy(update={"name": "Home"})
    assert name_cut(short) == short


def test_name_case_lowers_or_uppers_the_name() -> None:
    assert name_case(FOREIGN, upper=False).name == FOREIGN.name.lower()  # type: ignore[union-attr]
    assert name_case(FOREIGN, upper=True).name == FOREIGN.name.upper()  # type: ignore[union-attr]
    assert name_case(FOREIGN.model_copy(update={"name": None}), upper=True).name is None


def test_bare_keeps_role_name_and_box_only() -> None:
    ref = bare(FOREIGN)
    assert ref == SemanticElementRef(role="link", name=FOREIGN.name, bbox=FOREIGN.bbox)
    assert ref.xpath is None and ref.css_selector is None and ref.screen_size is None
    assert not ref.container_path and not ref.nearby_text and not ref.classes


def test_no_containers_drops_only_the_container_path() -> None:
    ref = no_containers(FOREIGN)
    assert ref.container_path == ()
    assert ref.model_copy(update={"container_path": FOREIGN.container_path}) == FOREIGN


def test_selectors_only_drops_box_screen_and_containers() -> None:
    ref = selectors_only(FOREIGN)
    assert ref.bbox is None and ref.screen_size is None and ref.container_path == ()
    kept = ref.model_copy(
        update={"bbox": FOREIGN.bbox, "screen_size": FOREIGN.screen_size,
                "container_path": FOREIGN.container_path}
    )  # fmt: skip
    assert kept == FOREIGN


def test_one_convention_asked_for_is_every_target_s() -> None:
    assert {
        draw(f"page-{i}", f"t{k}", "selectors_only").name for i in range(5) for k in range(5)
    } == {"selectors_only"}
    cased = {draw(f"page-{i}", "t0", "name_case").variant for i in range(25)}
    assert cased == {"lower", "upper"}
    with pytest.raises(ValueError, match="unknown convention"):
        draw("page-a", "t0", "nope")


def test_the_draw_is_repeatable_and_covers_every_convention() -> None:
    assert draw("page-a", "t3") == draw("page-a", "t3")
    drawn = [draw(f"page-{i}", f"t{k}") for i in range(40) for k in range(25)]
    assert {d.name for d in drawn} == set(CONVENTIONS)
    assert {d.variant for d in drawn if d.name == "name_case"} == {"lower", "upper"}
    assert all(d.variant == "" for d in drawn if d.name != "name_case")
    # The page and the key both count.
    assert len({draw("page-a", f"t{k}") for k in range(25)}) > 1
    assert len({draw(f"page-{i}", "t0") for i in range(25)}) > 1


@pytest.mark.parametrize("name", ALL_CONVENTIONS)
def test_every_convention_applies(name: str) -> None:
    variant = "upper" if name == "name_case" else ""
    ref = Drawn(name, variant).apply(FOREIGN, ("main",))
    assert ref != FOREIGN
    assert ref.role == FOREIGN.role
    with pytest.raises(ValueError, match="unknown convention"):
        Drawn("nope").apply(FOREIGN)


def _node(nid: str, role: str, name: str = "", parent: str | None = None, **extra: Any) -> Any:
    node: dict[str, Any] = {
        "nodeId": nid, "role": {"value": role}, "name": {"value": name}, **extra,
    }  # fmt: skip
    if parent is not None:
        node["parentId"] = parent
    return node


def test_landmark_ancestors_are_named_else_written_as_their_role() -> None:
    nodes = [
        _node("1", "RootWebArea", "Harbour news"),
        _node("2", "banner", parent="1"),
        _node("3", "navigation", "Site menu", parent="2"),
        _node("4", "list", "Links", parent="3"),
        _node("5", "region", "Hidden", parent="4", ignored=True),
        _node("6", "link", "Home", parent="5"),
    ]
    by_id = {n["nodeId"]: n for n in nodes}
    assert _landmark_ancestors("6", by_id) == ("banner", "Site menu")
    assert _named_ancestors("6", by_id) == ("Harbour news", "Site menu", "Links")
    assert {"banner", "navigation", "main", "contentinfo"} <= LANDMARK_ROLES
    by_id["1"] = {**by_id["1"], "parentId": "6"}  # a cycle ends the walk
    assert _landmark_ancestors("6", by_id) == ("banner", "Site menu")


# -- the recorder and the chain on captured pages ----------------------------------------------


def _capture(name: str) -> Capture:
    folder = CAPTURED / name
    if not (folder / "chromium_dom.json").is_file():
        pytest.skip(f"captured fixture {name} not found")
    return read_capture(folder)


def _keyed(capture: Capture, keys: list[str]) -> Capture:
    labels = {f"t{i}": capture.labels[k] for i, k in enumerate(keys) if k in capture.labels}
    return dataclasses.replace(capture, labels=labels)


def test_the_varied_reference_is_the_foreign_one_in_the_drawn_convention() -> None:
    base = _capture("nav")
    base = _keyed(base, sorted(base.labels))
    recorded = record_targets(base, ("a11y", "dom"), {}, page="nav")
    assert recorded
    for key, rec in recorded.items():
        assert rec.convention == draw("nav", key)
        foreign = rec.refs[("foreign", "a11y")]
        varied = rec.refs[("varied", "a11y")]
        assert rec.refs[("varied", "dom")] == varied
        assert not varied.anchors and not varied.lookalikes  # as the foreign reference
        if rec.convention.name != "landmarks":
            assert varied == rec.convention.apply(foreign)
        else:
            assert set(varied.container_path) <= set(foreign.container_path) | LANDMARK_ROLES


def _outcomes(chain: bool) -> list[dict[str, Any]]:
    base = _capture("nav")
    keys = sorted(base.labels)
    base = _keyed(base, keys)
    changed = _keyed(_capture("nav.v2"), keys)
    recorded = record_targets(base, ("a11y", "dom"), {}, page="nav")
    targets = {k: types.SimpleNamespace(kind="link") for k in recorded}
    options = Options(("a11y", "dom"), "", 1.0, False, chain=chain)
    return evaluate_version("nav", "v2", "remove", {}, changed, recorded, targets, options)


def _case(o: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(o.get(k) for k in ("key", "recorder", "source", "verdict", "answer", "score"))


def test_the_chain_adds_its_cases_and_leaves_the_others_as_they_were() -> None:
    plain, chained = _outcomes(chain=False), _outcomes(chain=True)
    assert not any(o["source"] == "chain" for o in plain)
    assert Counter(map(_case, plain)) == Counter(
        _case(o) for o in chained if o["source"] != "chain"
    )
    chain = [o for o in chained if o["source"] == "chain"]
    assert Counter(o["recorder"] for o in chain) == {
        "foreign": len(chain) // 2, "varied": len(chain) // 2,
    }  # fmt: skip
    for o in chain:
        assert o["answered_by"] in ("a11y", "dom", None)
        assert (o["answer"] is None) == (o["answered_by"] is None)
        if o["answered_by"] == "a11y":
            assert o["answer"].startswith("a11y:") and o["a11y_status"] == "accepted"
        if o["verdict"] == "correct":
            assert o["answer"] == o["expected"]
    assert all(o["convention"] == "" for o in chained if o["recorder"] != "varied")
    assert all(o["convention"] in CONVENTIONS for o in chained if o["recorder"] == "varied")


# -- the report ------------------------------------------------------------------------------


def _o(recorder: str, source: str, key: str, verdict: str, **extra: Any) -> dict[str, Any]:
    return {
        "page": "p", "version": "v1", "kind": "remove", "key": key, "recorder": recorder,
        "source": source, "verdict": verdict, "twin": False, **extra,
    }  # fmt: skip


def test_the_report_counts_varied_outcomes_per_convention() -> None:
    outcomes = [
        _o("varied", "a11y", "t1", "correct", convention="bare"),
        _o("varied", "a11y", "t2", "wrong", convention="bare", twin=True),
        _o("varied", "a11y", "t3", "false_hit", convention="name_cut"),
        _o("varied", "a11y", "t3", "correct", convention="name_cut", kind="identity"),
        _o("foreign", "a11y", "t1", "correct", convention=""),
        _o("foreign", "a11y", "t2", "correct"),  # an older run's outcome: no convention
        _o("foreign", "a11y", "t3", "rejected"),
        _o("varied", "dom", "t1", "abstained", convention="bare"),
    ]
    rows = _convention_rows(outcomes, "a11y")  # in the order of CONVENTIONS
    assert rows[2] == "| name_cut | 1 | 0 | - | - | - | 0 | 1 | 100.0 | 100.0 | - / - / -, 0.0 |"
    assert rows[3] == (
        "| bare | 2 | 2 | 50.0 | 50.0 | 0.0 | 1 | 0 | - | - | 100.0 / 0.0 / 0.0, - |"
    )
    assert rows[4].startswith("| all | 3 | 2 | 50.0 | 50.0 | 0.0 | 1 | 1 | 100.0 | 100.0 |")
    assert len(rows) == 5
    assert _convention_rows([o for o in outcomes if o["recorder"] == "foreign"], "a11y") == [
        "(no cases)"
    ]


def test_the_report_counts_dom_answers_after_an_a11y_refusal() -> None:
    outcomes = [
        _o("foreign", "chain", "t1", "correct", answered_by="a11y", a11y_status="accepted"),
        _o("foreign", "chain", "t2", "correct", answered_by="dom", a11y_status="not_found"),
        _o("foreign", "chain", "t3", "false_hit", answered_by="dom", a11y_status="ambiguous"),
        _o("foreign", "chain", "t4", "abstained", answered_by=None, a11y_status="not_found"),
        _o("varied", "chain", "t1", "wrong", answered_by="dom", a11y_status="not_found",
           convention="bare"),
        _o("varied", "a11y", "t1", "wrong", convention="bare"),
    ]  # fmt: skip
    rows = _chain_rows(outcomes)
    assert rows[2] == "| foreign | all | 4 | 1 | 3 | 2 | 1 | 0 | 1 |"
    assert rows[3] == "| varied | all | 1 | 0 | 1 | 1 | 0 | 1 | 0 |"
    assert rows[4] == "| varied | bare | 1 | 0 | 1 | 1 | 0 | 1 | 0 |"
    assert len(rows) == 5
    assert _chain_rows(outcomes[-1:]) == ["(no cases)"]
