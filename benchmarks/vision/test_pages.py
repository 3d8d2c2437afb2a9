"""Bookkeeping of the real-page vision benchmark (no browser, no corpus):
``python -m pytest benchmarks/vision/test_pages.py``."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from benchmarks.vision import pages
from benchmarks.vision.pages import (
    _scale,
    below_fold,
    inside_screen,
    place_of,
    report,
    screen_box,
    summary,
    tally,
    verdict,
)
from resolver import SemanticElementRef

BOX = [100.0, 100.0, 200.0, 130.0]


def test_only_boxes_wholly_on_the_first_screen_count() -> None:
    assert inside_screen(BOX)
    assert not inside_screen([100.0, 790.0, 200.0, 820.0])  # cut by the fold
    assert not inside_screen([-10.0, 10.0, 20.0, 30.0])
    assert not inside_screen([10.0, 10.0, 10.0, 30.0])  # empty
    assert not inside_screen(None)


def test_below_the_fold_means_wholly_below_the_first_screen() -> None:
    assert below_fold([100.0, 900.0, 200.0, 930.0])
    assert below_fold([100.0, 800.0, 200.0, 830.0])
    assert not below_fold([100.0, 790.0, 200.0, 820.0])  # cut by the fold: neither place
    assert not below_fold(BOX)
    assert not below_fold(None)


def test_a_target_drawn_a_pixel_wide_is_reported_apart() -> None:
    shown = {"bbox": BOX, "in_view": True}
    assert place_of(BOX, shown) == "in_view"
    assert place_of([8.0, 21.0, 9.0, 22.0], {"bbox": [8.0, 21.0, 9.0, 22.0], "in_view": True}) == (
        "too_small"
    )
    assert place_of(BOX, {"bbox": [100.0, 100.0, 200.0, 103.0], "in_view": True}) == "too_small"
    assert place_of(BOX, {"bbox": BOX, "in_view": False}) is None  # recorded but hidden
    assert place_of([100.0, 900.0, 200.0, 930.0], {}) == "below_fold"
    assert place_of([100.0, 790.0, 200.0, 820.0], {"in_view": True}) is None


def test_a_box_recorded_on_another_screen_size_is_placed_on_this_one() -> None:
    # Recorded at zoom 1.25: the box and the screen size both scaled. Read on the 1280x800
    # screen it lies in the viewport, as the library reads it; as written, below the fold.
    zoomed = SemanticElementRef(
        role="link", name="Terms", bbox=(125.0, 875.0, 250.0, 900.0), screen_size=(1600, 1000)
    )
    assert screen_box(zoomed) == (100.0, 700.0, 200.0, 720.0)
    shown = {"bbox": [100.0, 700.0, 200.0, 720.0], "in_view": True}
    assert place_of(screen_box(zoomed), shown) == "in_view"
    assert place_of(zoomed.bbox, shown) == "below_fold"
    # Recorded in a wider window, the box rescaled lies on the screen while the target is
    # drawn below the fold: below the fold, its answers counted.
    wide = SemanticElementRef(
        role="link", name="Terms", bbox=(168.0, 823.0, 246.0, 841.0), screen_size=(1440, 900)
    )
    hidden = {"bbox": [88.0, 823.0, 166.0, 841.0], "in_view": False}
    assert place_of(screen_box(wide), hidden) == "below_fold"
    # Without a recorded screen size, or without a box, the box is as recorded.
    plain = zoomed.model_copy(update={"screen_size": None})
    assert screen_box(plain) == (125.0, 875.0, 250.0, 900.0)
    assert screen_box(plain.model_copy(update={"bbox": None})) is None


def test_verdicts() -> None:
    shown = {"bbox": BOX, "in_view": True}
    assert verdict((150.0, 115.0), shown) == "correct"
    assert verdict((201.5, 115.0), shown) == "correct"  # within the slack
    assert verdict((250.0, 115.0), shown) == "wrong"
    assert verdict(None, shown) == "abstained"
    assert verdict((150.0, 115.0), None) == "false_hit"  # removed, yet answered
    assert verdict((150.0, 115.0), {"bbox": BOX, "in_view": False}) == "false_hit"
    assert verdict(None, None) == "rejected"


def _outcome(mutation: str, twin: bool, result: str) -> dict[str, Any]:
    fixed = {"page": "p", "version": "v1", "key": "t0", "role": "link", "name": "Share", "ms": 5}
    return {**fixed, "mutation": mutation, "twin": twin, "verdict": result, "answer": None}


def test_tally_counts_kinds_and_twins_apart() -> None:
    outcomes = [
        _outcome("identity", False, "correct"),
        _outcome("remove", True, "false_hit"),
        _outcome("remove", False, "rejected"),
        _outcome("wrap", True, "wrong"),
    ]
    counts = tally(outcomes)
    assert counts["remove"]["twins"]["false_hit"] == 1
    assert counts["remove"]["unique"]["rejected"] == 1
    assert counts["remove"]["all"]["false_hit"] == 1
    assert "twins" not in counts["identity"]
    assert sum(counts["all"]["all"].values()) == 4
    assert counts["all"]["twins"] == {"false_hit": 1, "wrong": 1}
    text = report(outcomes, {"pages": 1, "split": "tune", "wall_seconds": 1.0})
    assert "| remove | 0 | 0 (- %) | 0 | 0 | 100.0 % | 2 | 1 | 0 |" in text
    assert "| wrap | 1 | 0 (0.0 %) | 1 | 0 | 100.0 % | 0 | 0 | 0 |" in text


def test_summary_counts_wrong_answers_of_every_present_target() -> None:
    def placed(place: str, present: bool, result: str) -> dict[str, Any]:
        return {**_outcome("none", False, result), "place": place, "present": present}

    outcomes = [
        placed("in_view", True, "correct"),
        placed("in_view", True, "correct"),
        placed("in_view", True, "abstained"),
        placed("in_view", True, "wrong"),
        placed("in_view", True, "false_hit"),  # pushed off screen by a banner, yet answered
        placed("below_fold", True, "false_hit"),
        placed("below_fold", True, "rejected"),
        placed("below_fold", True, "rejected"),
        placed("in_view", False, "false_hit"),  # removed, answered
        placed("in_view", False, "rejected"),
        placed("below_fold", False, "rejected"),
        placed("in_view", True, "error"),  # not counted: reported apart
    ]
    figures = summary(outcomes)
    assert figures["in_view"] == {
        "targets": 4, "correct": 2, "wrong": 1, "abstained": 1, "right_pct": 50.0
    }  # fmt: skip
    assert figures["present"] == {"targets": 8, "wrong": 3, "wrong_pct": 37.5}
    assert figures["removed"] == {"targets": 3, "answered": 1, "answered_pct": 33.33}
    text = report(outcomes, {"pages": 1, "split": "tune", "wall_seconds": 1.0})
    assert "In the viewport: 2 of 4 right (50.0 %)" in text
    assert "### recorded below fold" in text
    assert "Warning" not in text
    config = {"pages": 1, "split": "tune", "wall_seconds": 1.0, "uncovered_scripts": ["Chinese"]}
    assert "Warning: no installed font draws Chinese" in report(outcomes, config)


def test_an_answer_keeps_its_box_and_a_refusal_its_nearest_row() -> None:
    from benchmarks.vision import pages
    from resolver import Observation, SemanticElementRef

    button = {"id": "b", "role": "button", "name": "Save", "bbox": [10.5, 20.0, 80.0, 44.0]}
    obs = Observation(accessibility_tree={"id": "r", "role": "form", "children": [button]})
    real = pages.resolve

    def on_tree(ref: SemanticElementRef, observation: Observation, **_: Any) -> Any:
        return real(ref, observation, sources=("a11y",))

    pages.resolve = on_tree  # type: ignore[assignment]
    try:
        point, answer, error, box, nearest = pages._resolve(
            SemanticElementRef(role="button", name="Save"), obs
        )
        assert error is None and answer is not None and "Save" in answer and point is not None
        assert box == [10.5, 20.0, 80.0, 44.0] and nearest is None
        missing = pages._resolve(SemanticElementRef(role="link", name="Nowhere"), obs)
        assert missing[0] is None and missing[2] is None and missing[3] is None
        # The refusal names the row it refused, with its box and score.
        assert missing[4] is not None and missing[4]["name"] == "Save"
        assert missing[4]["box"] == [10.5, 20.0, 80.0, 44.0] and missing[4]["score"] < 0.6
    finally:
        pages.resolve = real  # type: ignore[assignment]


def test_a_device_scale_is_a_number_from_half_to_three() -> None:
    assert _scale("2") == 2.0 and _scale("0.75") == 0.75
    for bad in ("0", "4", "x", "nan"):
        with pytest.raises(argparse.ArgumentTypeError):
            _scale(bad)


def test_abstentions_that_ranked_the_target_first_are_counted() -> None:
    from benchmarks.vision.pages import refused_first

    def abstained(nearest: list[float] | None, place: str = "in_view") -> dict[str, Any]:
        return {
            "place": place, "verdict": "abstained", "truth_box": [100, 100, 160, 120],
            "nearest": None if nearest is None else {"box": nearest, "score": 0.5},
        }  # fmt: skip

    outcomes = [
        abstained([102, 101, 158, 119]),  # the target itself, refused
        abstained([300, 100, 360, 120]),  # another row
        abstained(None),  # nothing to rank
        abstained([102, 101, 158, 119], place="below_fold"),  # not in the viewport
        {"place": "in_view", "verdict": "correct", "truth_box": [0, 0, 9, 9], "nearest": None},
    ]
    assert refused_first(outcomes) == (1, 3)


def test_varied_targets_in_the_viewport_are_counted_per_convention() -> None:
    from benchmarks.relocation.conventions import draw
    from benchmarks.vision.pages import by_convention

    def outcome(page: str, key: str, verdict: str, place: str = "in_view") -> dict[str, Any]:
        return {"page": page, "key": key, "verdict": verdict, "place": place, "present": True}

    pages = [f"page-{i}" for i in range(12)]
    outcomes = [outcome(p, "t0", "correct") for p in pages]
    outcomes += [outcome(p, "t1", "abstained") for p in pages]
    outcomes += [outcome(p, "t2", "wrong", place="below_fold") for p in pages]  # not shown
    outcomes += [outcome(p, "t3", "rejected") for p in pages]  # not a shown target's verdict
    counted = by_convention(outcomes)
    assert sum(sum(v.values()) for v in counted.values()) == 24
    for p in pages:
        assert counted[draw(p, "t0").name]["correct"] >= 1
        assert counted[draw(p, "t1").name]["abstained"] >= 1
    assert all(v["wrong"] == 0 and v["rejected"] == 0 for v in counted.values())
    assert by_convention([]) == {}


def test_a_page_job_hands_its_moving_kinds_on(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[str, ...]] = []

    def fake(*args: object) -> dict[str, object]:
        seen.append(args[-1])  # type: ignore[arg-type]
        return {"page": "p", "outcomes": []}

    monkeypatch.setattr(pages, "evaluate_page", fake)
    pages._safe_page("p", "s.html", "chromium", 1.0, "foreign", 1.0, None, (0, 0, 1, 0, 0), "",
                     ("banner",))  # fmt: skip
    assert seen == [("banner",)]
