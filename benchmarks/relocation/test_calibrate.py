"""Fitting the confidence model on the held-out half's calib part (no browser, no corpus):
``python -m pytest benchmarks/relocation/test_calibrate.py``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from benchmarks.relocation.calibrate import (
    CALIB,
    TEST,
    examples,
    fit,
    leave_one_app_out,
    main,
    part_of,
    similo_answers,
    similo_examples,
)
from benchmarks.relocation.run import split_of

PAGES = [f"page-{i}" for i in range(40)]


def _o(page: str, *, right: bool = True, split: str = "heldout", **extra: Any) -> dict[str, Any]:
    return {
        "page": page, "split": split, "kind": "wrap", "recorder": "foreign", "source": "a11y",
        "present": True, "expected": "a", "best": "a" if right else "b",
        "answer": "a" if right else "b", "score": 0.9 if right else 0.65, "margin": 0.1,
        "signals": {"name": 1.0 if right else 0.7, "bbox": 0.9 if right else 0.3}, **extra,
    }  # fmt: skip


def test_the_parts_are_fixed_and_split_the_held_out_pages() -> None:
    parts = [part_of(p) for p in PAGES]
    assert set(parts) == {CALIB, TEST}
    assert parts == [part_of(p) for p in PAGES]  # fixed: no seed, no state
    # Not the halves' own rule again: the held-out pages fall in both parts.
    assert {part_of(p) for p in PAGES if split_of(p) == "heldout"} == {CALIB, TEST}


def test_examples_of_a_part_are_only_its_pages_and_leave_the_chain_out() -> None:
    rows = [_o(p) for p in PAGES] + [_o(PAGES[0], source="chain"), _o(PAGES[1], split="tune")]
    calib_x, _ = examples(rows, "heldout", CALIB)
    test_x, _ = examples(rows, "heldout", TEST)
    whole, _ = examples(rows, "heldout")
    assert len(calib_x) + len(test_x) == len(whole) == len(PAGES)
    assert len(calib_x) == sum(part_of(p) == CALIB for p in PAGES)


def _pair(app: str, *, split: str = "heldout", removed: dict[str, Any] | None = None) -> dict:
    return {
        "app": app, "split": split, "truth": "3",
        "evidence": {"best": "3", "score": 1.0, "margin": 0.4, "vetoed": False, "signals": {}},
        "removed_evidence": removed,
    }  # fmt: skip


def test_similo_examples_count_an_answer_without_the_target_as_wrong() -> None:
    app = next(p for p in PAGES if part_of(p) == CALIB)
    other = next(p for p in PAGES if part_of(p) == TEST)
    gone = {"best": "5", "score": 0.95, "margin": 0.3, "vetoed": False, "signals": {"name": 1.0}}
    vetoed = {**gone, "vetoed": True}
    pairs = [
        _pair(app, removed=gone),
        _pair(app, removed=vetoed),  # a review rule refused it: not an example
        _pair(app, split="tune", removed=gone),  # decisions were tuned on it: never fitted on
        _pair(other, removed=gone),
    ]
    x, y = similo_examples(pairs, CALIB)
    assert y.tolist() == [1.0, 0.0, 1.0]
    assert x.shape == (3, examples([_o(app)], "heldout")[0].shape[1])
    assert similo_examples(pairs, TEST)[1].tolist() == [1.0, 0.0]


def test_the_fit_learns_which_answers_are_right() -> None:
    rows = [_o(p, right=i % 3 != 0) for i, p in enumerate(PAGES * 3)]
    x, y = examples(rows, "heldout")
    w = fit(x, y)
    p = 1.0 / (1.0 + np.exp(-(x @ w)))
    assert p[y == 1].min() > 0.5 > p[y == 0].max()


def test_the_command_fits_on_the_calib_part_and_reports_the_test_part(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [_o(p, right=i % 4 != 0) for i, p in enumerate(PAGES * 2)]
    run = tmp_path / "run.json"
    run.write_text(json.dumps({"outcomes": rows}))
    similo = tmp_path / "similo.json"
    similo.write_text(json.dumps({"pairs": [_pair(p) for p in PAGES[:6]]}))
    assert main([str(run), "--intercept-from", str(run), "--similo", str(similo)]) == 0
    out = capsys.readouterr().out
    calib = sum(part_of(p) == CALIB for p in PAGES)
    similo_calib = sum(part_of(p) == CALIB for p in PAGES[:6])
    assert f"({2 * calib + similo_calib} examples, {similo_calib} of them Similo" in out
    assert "COEFFICIENTS = (" in out and "Test part risk/coverage" in out
    assert "Similo pairs, test apps" in out


def test_a_weight_counts_an_example_as_often_as_it_says() -> None:
    rows = [_o(p, right=i % 3 != 0) for i, p in enumerate(PAGES)]
    x, y = examples(rows, "heldout")
    weights = np.where(np.arange(len(y)) % 2 == 0, 3.0, 1.0)
    repeated = np.repeat(np.arange(len(y)), weights.astype(int))
    assert np.allclose(fit(x, y, weights=weights), fit(x[repeated], y[repeated]), atol=1e-6)
    assert np.allclose(fit(x, y, weights=np.ones(len(y))), fit(x, y))


def _answered(app: str, *, right: bool, gone: bool, split: str = "heldout") -> dict[str, Any]:
    # The page without the target answered as the pages' right answers look (_o).
    signals = {"name": 1.0, "bbox": 0.9}
    removed = {"best": "5", "score": 0.9, "margin": 0.1, "vetoed": False, "signals": signals}
    return {
        **_pair(app, split=split, removed=removed if gone else None),
        "verdict": "correct" if right else "wrong", "removed_answered": gone,
    }  # fmt: skip


def test_similo_answers_are_the_answers_reliability_counts() -> None:
    app = PAGES[0]
    pairs = [
        _answered(app, right=True, gone=True),  # the pair, and its page without the target
        _answered(app, right=False, gone=False),
        {**_answered(app, right=True, gone=False), "verdict": "abstained"},  # no answer
        _answered(app, right=True, gone=True, split="tune"),  # not the held-out half
        _answered(PAGES[1], right=True, gone=False),  # another app
    ]
    x, y = similo_answers(pairs, [app])
    assert y.tolist() == [1.0, 0.0, 0.0] and x.shape[0] == 3


def test_each_calib_app_is_judged_by_a_model_fitted_without_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    apps = [p for p in PAGES if part_of(p) == CALIB][:3]
    rows = [_o(p, right=i % 4 != 0) for i, p in enumerate(PAGES * 2)]
    pages = examples(rows, "heldout", CALIB)
    # Every app's page without its target is answered, as right answers look: always wrong.
    pairs = [_answered(a, right=True, gone=True) for a in apps for _ in range(4)]
    answered = len(similo_answers(pairs, apps)[1])
    wrong, kept = leave_one_app_out(pages, pages, pairs, 1.0, level=0.0)
    assert (wrong, kept) == (answered // 2, answered)
    # Counted many times over, the other apps' wrong answers teach the model that such an
    # answer can be wrong: none of the left-out app's wrong answers reaches the level.
    loud = leave_one_app_out(pages, None, pairs, 1000.0, level=0.8)
    quiet = leave_one_app_out(pages, None, pairs, 0.001, level=0.8)
    assert loud[0] == 0 < quiet[0]
    # An app alone has no other app to learn from: its own answers never teach the model.
    alone = [pair for pair in pairs if pair["app"] == apps[0]]
    assert leave_one_app_out(pages, None, alone, 1000.0, level=0.8) == (4, 4)
    run = tmp_path / "run.json"
    run.write_text(json.dumps({"outcomes": rows}))
    similo = tmp_path / "similo.json"
    similo.write_text(json.dumps({"pairs": pairs}))
    assert main([str(run), "--similo", str(similo), "--similo-weights", "1", "30"]) == 0
    out = capsys.readouterr().out
    assert "| 1 |" in out and "| 30 |" in out
