"""The indistinguishable-case classifier of the relocation benchmark (no browser, no corpus):
``python -m pytest benchmarks/relocation/test_alike.py``."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from benchmarks.relocation.alike import (
    BOX_TOLERANCE,
    CONTEXT,
    LISTS,
    PLACES,
    SAME,
    SELECTORS,
    Page,
    dominating,
    evidence,
    judge,
    perfect,
    profile,
    profile_grid,
    profile_of,
    steps_apart,
    target_better,
)
from benchmarks.relocation.recorders import ForeignRecorder, Recorded
from benchmarks.relocation.report import markdown, refusal_cost
from benchmarks.relocation.run import _lookup, _same_address
from resolver import Observation, SemanticElementRef
from resolver.capture import ref_from_row
from resolver.replay.captures import Capture, read_capture

CAPTURED = Path(__file__).resolve().parents[2] / "fixtures" / "captured"
BOX = (100.0, 200.0, 180.0, 220.0)
REF = SemanticElementRef(
    role="link",
    name="Read more",
    bbox=BOX,
    xpath="/html[1]/body[1]/a[2]",
    nearby_text=("Postgres 17", "Share"),
    container_path=("Blog",),
)


def _seen(**changes: Any) -> SemanticElementRef:
    return REF.model_copy(update=changes)


def _always(field: str, selector: str) -> bool:
    return True


def _never(field: str, selector: str) -> bool:
    return False


def _removed(
    seen: SemanticElementRef, selects: Any = _always, shift: Any = None
) -> tuple[str, ...]:
    """Fields that tell ``seen`` from the removed target ``REF`` was recorded from."""
    return target_better(evidence(REF, seen, selects, shift), perfect(REF))


def test_every_field_of_a_reference_is_compared_or_named_as_context() -> None:
    sorted_fields = sorted((*SAME, *SELECTORS, *LISTS, *PLACES, *CONTEXT))
    assert sorted_fields == sorted(SemanticElementRef.model_fields)


def test_an_element_that_agrees_with_every_recorded_field_is_indistinguishable() -> None:
    assert _removed(_seen()) == ()
    nudged = (BOX[0] + BOX_TOLERANCE, BOX[1], BOX[2], BOX[3] - BOX_TOLERANCE / 2)
    assert _removed(_seen(bbox=nudged)) == ()  # within the tolerance


def test_any_field_that_differs_tells_a_removed_target_apart() -> None:
    assert _removed(_seen(name="Read more!")) == ("name",)
    assert _removed(_seen(name="read more")) == ("name",)  # case is kept
    assert _removed(_seen(role="button")) == ("role",)
    assert _removed(_seen(), selects=_never) == ("xpath",)
    assert _removed(_seen(nearby_text=("Postgres 18", "Share"))) == ("nearby_text",)
    assert _removed(_seen(nearby_text=("Share", "Postgres 17"))) == ("nearby_text",)  # order
    assert _removed(_seen(container_path=())) == ("container_path",)
    moved = (BOX[0], BOX[1] + BOX_TOLERANCE + 1, BOX[2], BOX[3] + BOX_TOLERANCE + 1)
    assert _removed(_seen(bbox=moved)) == ("bbox",)
    assert _removed(_seen(bbox=None)) == ("bbox",)


def test_role_spellings_of_one_role_agree() -> None:
    assert _removed(_seen(role="AXLink")) == ()


def test_a_field_the_reference_did_not_record_says_nothing() -> None:
    bare = SemanticElementRef(role="link", name="Read more")
    seen = _seen(href="https://example.org/other", tag="span")
    assert target_better(evidence(bare, seen, _never, None), perfect(bare)) == ()


def _wrong(answer: SemanticElementRef, target: SemanticElementRef, **kw: Any) -> tuple[str, ...]:
    ref = kw.pop("ref", REF)
    shift = kw.pop("shift", None)
    return target_better(
        evidence(ref, answer, kw.pop("answer_selects", _never), shift),
        evidence(ref, target, kw.pop("target_selects", _never), shift),
    )


def test_a_wrong_answer_is_compared_with_the_target_as_it_is_now() -> None:
    far = (BOX[0], BOX[1] + 300, BOX[2], BOX[3] + 300)
    # The target moved away and lost a neighbour; a twin sits where it was: nothing in the
    # reference favours the target.
    target = _seen(bbox=far, nearby_text=("Share",))
    assert _wrong(_seen(), target) == ()
    # The target kept its neighbours, the twin did not.
    assert _wrong(_seen(nearby_text=("Share",)), _seen(bbox=far)) == ("nearby_text",)
    # Both moved, the answer farther.
    farther = (BOX[0], BOX[1] + 310, BOX[2], BOX[3] + 310)
    assert _wrong(_seen(bbox=farther), _seen(bbox=far)) == ("bbox",)
    # The recorded selector still selects the target.
    assert _wrong(_seen(), _seen(), target_selects=_always) == ("xpath",)
    assert _wrong(_seen(), _seen(), answer_selects=_always, target_selects=_always) == ()


def test_a_look_alike_place_and_the_occurrence_tell_apart() -> None:
    twin_box = (300.0, 200.0, 380.0, 220.0)
    ref = REF.model_copy(update={"lookalikes": (twin_box,), "occurrence": (0, 2)})
    seen = ref.model_copy(update={"bbox": twin_box, "occurrence": (1, 2)})
    target = ref.model_copy(update={"bbox": (BOX[0], 500.0, BOX[2], 520.0)})
    apart = _wrong(seen, target, ref=ref)
    assert "lookalikes" in apart and "occurrence" in apart
    # Only the place among the look-alikes counts, not how many are left.
    alone = ref.model_copy(update={"occurrence": None})
    assert target_better(evidence(ref, alone, _always, None), perfect(ref)) == ()


def test_boxes_are_also_compared_after_the_shift_the_anchors_show() -> None:
    ref = REF.model_copy(update={"anchors": (("Blog", (0.0, 0.0, 50.0, 20.0)),)})
    down = (BOX[0], BOX[1] + 200, BOX[2], BOX[3] + 200)
    # A banner pushed the page 200 px down: the target moved with it, and a twin that was
    # 200 px higher now sits on the recorded box.
    apart = _wrong(ref.model_copy(), ref.model_copy(update={"bbox": down}), ref=ref, shift=(0, 200))
    assert apart == ("bbox",)
    # A removed target would have moved with the page: a twin now on its shifted place is
    # indistinguishable, one on its old place is not.
    on_place = ref.model_copy(update={"bbox": down})
    assert target_better(evidence(ref, on_place, _always, (0, 200)), perfect(ref, (0, 200))) == ()
    stayed = target_better(evidence(ref, ref, _always, (0, 200)), perfect(ref, (0, 200)))
    assert stayed == ("bbox",)
    # Without the shift nothing favours the target there.
    assert _wrong(ref.model_copy(), ref.model_copy(update={"bbox": down}), ref=ref) == ()


def test_steps_apart_counts_what_the_two_paths_do_not_share() -> None:
    recorded = "/html[1]/body[1]/ul[1]/li[2]/a[1]"
    assert steps_apart(recorded, recorded) == 0
    assert steps_apart(recorded, "/html[1]/body[1]/ul[1]/li[3]/a[1]") == 2  # renumbered
    assert steps_apart(recorded, "/html[1]/body[1]/div[1]/ul[1]/li[2]/a[1]") == 1  # wrapped
    assert steps_apart(None, "/html[1]/body[1]/a[1]") == 0  # nothing recorded
    assert steps_apart(recorded, None) == math.inf


def test_a_profile_grades_each_recorded_field() -> None:
    seen = _seen(name="Read more", nearby_text=("Postgres 17",), container_path=("Blog", "Main"))
    got = profile(REF, evidence(REF, seen, _never, None), 2.0)
    assert got["name"] == 0 and got["role"] == 0  # agrees
    assert got["xpath"] == 1  # the recorded XPath does not select it
    assert got["nearby_text"] == 2  # lacks one recorded entry of two
    assert got["container_path"] == 1  # every entry, in another list
    assert got["bbox"] == 0 and got["xpath_steps"] == 2
    assert profile(REF, evidence(REF, REF, _always, None), 0.0) == dict.fromkeys(got, 0.0)
    lost = profile(REF, evidence(REF, _seen(nearby_text=()), _always, None), 0.0)
    assert lost["nearby_text"] == 3


def test_an_answer_is_dominated_by_those_agreeing_no_better_on_each_field_it_fails() -> None:
    case = {"name": 0.0, "xpath": 1.0, "bbox": 40.0}
    others = [
        {"name": 0.0, "xpath": 1.0, "bbox": 300.0},  # farther, same XPath miss: no better
        {"name": 1.0, "xpath": 1.0, "bbox": 40.0},  # a worse name too: no better
        {"name": 0.0, "xpath": 0.0, "bbox": 900.0},  # its XPath selects it: better there
        {"name": 0.0, "xpath": 1.0, "bbox": 39.0},  # nearer: better there
        {"name": 0.0, "bbox": 500.0},  # no XPath recorded: agrees there
    ]
    keys, grid = profile_grid(others)
    assert dominating(case, keys, grid).tolist() == [True, True, False, False, False]
    # A case that agrees everywhere is refused only with everything.
    assert dominating({"name": 0.0}, keys, grid).all()
    # A field none of the others recorded: no other agrees no better there.
    assert not dominating({"href": 1.0}, keys, grid).any()
    assert dominating(case, *profile_grid([])).shape == (0,)


# -- on captured pages --------------------------------------------------------------------


def _capture(name: str) -> Capture:
    folder = CAPTURED / name
    if not (folder / "chromium_dom.json").is_file():
        pytest.skip(f"captured fixture {name} not found")
    return read_capture(folder)


def _a11y(capture: Capture, key: str) -> str:
    return f"a11y:{capture.labels[key]['ax_node_id']}"


def _foreign(capture: Capture, key: str) -> SemanticElementRef:
    label = capture.labels[key]
    return ForeignRecorder(capture).ref(
        str(label["ax_node_id"]), label["xpath"], label["bbox"], label["role"], label["name"], None
    )


POSTGRES = "nav.article.postgres.read_more"  # removed in nav.v2
ONCALL = "nav.article.oncall.read_more"  # in nav.v2, slid into the removed article's place


@pytest.mark.parametrize("source", ["a11y", "dom"])
def test_a_reference_is_indistinguishable_from_its_own_element(source: str) -> None:
    base = _capture("nav")
    table = base.observation.candidates(source)
    label = base.labels[POSTGRES]
    ident = str(label["ax_node_id"]) if source == "a11y" else label["xpath"]
    answer = f"a11y:{ident}" if source == "a11y" else f"xpath:{ident}"
    ref = ref_from_row(table, table.ids.index(ident))
    assert judge(Page(base), ref, "ours", source, answer, None) == ()
    assert judge(Page(base), _foreign(base, POSTGRES), "foreign", source, answer, None) == ()


@pytest.mark.parametrize("recorder", ["ours", "foreign"])
def test_a_slid_twin_is_told_apart_by_its_neighbours(recorder: str) -> None:
    base, changed = _capture("nav"), _capture("nav.v2")
    if recorder == "ours":
        table = base.observation.candidates("a11y")
        ref = ref_from_row(table, table.ids.index(str(base.labels[POSTGRES]["ax_node_id"])))
    else:
        ref = _foreign(base, POSTGRES)
    apart = judge(Page(changed), ref, recorder, "a11y", _a11y(changed, ONCALL), None)
    # Same name, role, box and XPath; the article title next to it differs.
    assert "nearby_text" in apart
    assert not {"name", "role", "xpath"} & set(apart)
    if recorder == "foreign":  # ours also has anchors: the page moved up, so it is not
        assert "bbox" not in apart  # where the target would now be


@pytest.mark.parametrize("source", ["a11y", "dom"])
def test_the_profile_of_an_answer_on_a_captured_page(source: str) -> None:
    base, changed = _capture("nav"), _capture("nav.v2")
    ref = _foreign(base, POSTGRES)
    own = base.labels[POSTGRES]
    answer = f"a11y:{own['ax_node_id']}" if source == "a11y" else f"xpath:{own['xpath']}"
    mine = profile_of(Page(base), ref, "foreign", source, answer)
    assert mine is not None and not any(mine.values())  # its own element agrees everywhere
    slid = changed.labels[ONCALL]
    twin = f"a11y:{slid['ax_node_id']}" if source == "a11y" else f"xpath:{slid['xpath']}"
    got = profile_of(Page(changed), ref, "foreign", source, twin)
    assert got is not None
    assert got["name"] == 0 and got["role"] == 0 and got["nearby_text"] > 0
    assert profile_of(Page(changed), ref, "foreign", source, "a11y:no-such-node") is None


def test_a_renamed_target_beats_its_twin_by_place() -> None:
    base, changed = _capture("nav"), _capture("nav.v2")
    ref = _foreign(base, "nav.header.home")
    answer = _a11y(changed, "nav.footer.home")
    apart = judge(Page(changed), ref, "foreign", "a11y", answer, _a11y(changed, "nav.header.home"))
    assert "bbox" in apart and "container_path" in apart


def test_the_report_sets_indistinguishable_cases_aside() -> None:
    def outcome(verdict: str, apart: list[str] | None = None) -> dict[str, Any]:
        o: dict[str, Any] = {
            "split": "heldout", "kind": "wrap", "mutation": "none", "source": "a11y",
            "recorder": "ours", "verdict": verdict, "twin": False, "element": "link",
            "page": "p", "version": "v1-wrap", "key": "t1", "expected": None, "answer": None,
        }  # fmt: skip
        if apart is not None:
            o["apart"] = apart
        return o

    outcomes = [outcome("correct")] * 7 + [
        outcome("wrong", []),
        outcome("wrong", ["bbox"]),
        outcome("abstained"),
        {**outcome("false_hit", []), "same_address": True},
        outcome("rejected"),
    ]
    config = {"split": "heldout", "sources": ["a11y"], "pages": 1, "wall_seconds": 1, "workers": 1}
    pages = [{"page": "p", "split": "heldout", "status": "ok", "recorded": 1, "versions": []}]
    text = markdown(pages, outcomes, config, splits=("heldout",))
    # 2 wrong (1 indistinguishable), 1 removed answered (indistinguishable); without them:
    # 7 / 1 / 1 of 9 present, 0 of 1 removed.
    assert "| a11y | ours | 2 | 1 | 1 | 1 | 77.8 / 11.1 / 11.1 | 0.0 |" in text
    assert "| bbox | 1 |" in text
    # The removed target was answered by a link to its address.
    assert "| a11y | ours | 1 | 1 |" in text


def test_the_report_counts_removed_targets_a_right_answer_agrees_no_better_than() -> None:
    def outcome(verdict: str, profile: dict[str, float]) -> dict[str, Any]:
        return {
            "split": "heldout", "kind": "remove", "mutation": "none", "source": "dom",
            "recorder": "foreign", "verdict": verdict, "twin": True, "element": "link",
            "page": "p", "version": "v1-remove", "key": "t1", "expected": None,
            "answer": "xpath:/a", "profile": profile,
        }  # fmt: skip

    outcomes = [
        outcome("correct", {"xpath": 1.0, "bbox": 300.0}),
        outcome("correct", {"xpath": 1.0, "bbox": 500.0}),
        outcome("correct", {"xpath": 0.0, "bbox": 900.0}),
        outcome("false_hit", {"xpath": 1.0, "bbox": 400.0}),  # the 500 px one is no better
        outcome("false_hit", {"xpath": 1.0, "bbox": 600.0}),  # none is as far
    ]
    config = {"split": "heldout", "sources": ["dom"], "pages": 1, "wall_seconds": 1, "workers": 1}
    pages = [{"page": "p", "split": "heldout", "status": "ok", "recorded": 1, "versions": []}]
    text = markdown(pages, outcomes, config, splits=("heldout",))
    # To answer none: the far one costs nothing, the other its one right answer.
    assert "| dom | foreign | 2 | 1 | 1 | 1 / 1 | 3 |" in text


def test_the_cost_of_refusing_removed_targets_is_bounded_below_and_by_a_greedy_choice() -> None:
    masks = [
        np.array([True, True, False, False]),
        np.array([False, False, True, False]),
        np.array([False, False, False, False]),  # no right answer agrees no better
        np.array([True, False, False, False]),
    ]
    # Three of four refused: the free one and two others, each costing at least one (the
    # second smallest); the cheapest two cost two together.
    assert refusal_cost(masks, allowed=1) == (1, 2)
    assert refusal_cost(masks, allowed=0) == (2, 3)
    assert refusal_cost(masks, allowed=3) == (0, 0)
    assert refusal_cost([], allowed=0) == (0, 0)


def test_an_answer_linking_where_the_removed_target_linked_is_told() -> None:
    html = (
        '<html><body><a href="/story#top"><img alt="Story"></a>'
        '<a href="/other">Story</a><a href="javascript:void(0)">Menu</a></body></html>'
    )
    obs = Observation(dom_html=html)
    rows = {"dom": _lookup(obs.candidates("dom"))}
    removed = SemanticElementRef(role="link", name="Story", href="/story#top")
    rec = Recorded(key="t1", role="link", name="Story", twin=True, refs={("ours", "dom"): removed})
    assert _same_address(rec, "xpath:/html[1]/body[1]/a[1]", obs, rows)
    assert not _same_address(rec, "xpath:/html[1]/body[1]/a[2]", obs, rows)
    # A link that goes nowhere is no address, recorded or answered.
    menu = removed.model_copy(update={"href": "javascript:void(0)"})
    rec.refs[("ours", "dom")] = menu
    assert not _same_address(rec, "xpath:/html[1]/body[1]/a[3]", obs, rows)


def test_the_report_counts_what_each_completion_found() -> None:
    def identity(source: str, completion: str) -> dict[str, Any]:
        return {
            "split": "heldout", "kind": "identity", "mutation": "none", "source": source,
            "recorder": "completed", "verdict": "correct", "twin": False, "element": "link",
            "page": "p", "version": "identity", "key": "t1", "expected": None, "answer": None,
            "completion": completion,
        }  # fmt: skip

    outcomes = [identity("a11y", "element")] * 3 + [
        identity("a11y", "refused"),
        identity("dom", "other"),
    ]
    config = {"split": "heldout", "sources": ["a11y"], "pages": 1, "wall_seconds": 1, "workers": 1}
    pages = [{"page": "p", "split": "heldout", "status": "ok", "recorded": 1, "versions": []}]
    text = markdown(pages, outcomes, config, splits=("heldout",))
    assert "| a11y | 4 | 3 | 0 | 1 |" in text
    assert "| dom | 1 | 0 | 1 | 0 |" in text
