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
    main,
    part_of,
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
