"""The learned-check bound: features, the table's counts, and (with scikit-learn) a fit."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from benchmarks.relocation import verifier


def _outcome(
    verdict: str, score: float, *, page: str = "p", split: str = "tune", **signals: float
) -> dict[str, Any]:
    present = verdict != "false_hit"
    return {
        "page": page, "split": split, "source": "a11y", "recorder": "foreign",
        "present": present, "verdict": verdict, "score": score, "margin": 0.3,
        "signals": signals,
    }  # fmt: skip


def test_features_mark_a_selector_vouched_answer_and_missing_signals() -> None:
    vouched = _outcome("correct", 1.0)
    matched = _outcome("correct", 0.8, bbox=0.25, name=1.0)
    assert verifier.features(vouched)[:5] == [1.0, 0.3, 1.0, 0.0, 0.0]
    row = verifier.features(matched)
    assert row[2] == 0.0
    assert row[5 + verifier.SIGNALS.index("bbox")] == 0.25
    assert row[5 + verifier.SIGNALS.index("container")] == -1.0


def test_the_table_counts_what_a_cut_off_refuses() -> None:
    rows = [_outcome("correct", 0.9), _outcome("correct", 0.7), _outcome("false_hit", 0.7)]
    totals = {("a11y", "foreign", True): 2, ("a11y", "foreign", False): 4}
    lines = verifier.table(rows, np.asarray([0.9, 0.15, 0.04]), totals)
    at = {line.split(" | ")[2]: line for line in lines if "| a11y | foreign |" in line}
    assert "| 0 of 2 | 0 of 0 | 1 of 1 | 25.00 → 0.00 |" in at["0.05"]
    assert "| 1 of 2 | 0 of 0 | 1 of 1 | 25.00 → 0.00 |" in at["0.2"]
    # The lowest cut-off that leaves at most 1% of the 4 removed targets answered.
    assert "| 0 of 2 | 0 of 0 | 1 of 1 | 25.00 → 0.00 |" in at["0.05 (1%)"]


def test_profiles_are_read_only_when_asked() -> None:
    row = {**_outcome("false_hit", 0.8, bbox=0.25), "profile": {"xpath": 1.0, "bbox": 1e9}}
    assert len(verifier.features(row)) == 5 + len(verifier.SIGNALS)
    verifier.WITH_PROFILE = True
    try:
        extra = verifier.features(row)[5 + len(verifier.SIGNALS) :]
    finally:
        verifier.WITH_PROFILE = False
    assert extra[verifier.PROFILE.index("xpath")] == 1.0
    assert extra[verifier.PROFILE.index("bbox")] == 1e6  # capped
    assert extra[verifier.PROFILE.index("name")] == -1.0  # not recorded


def test_a_learnt_check_refuses_removed_targets_its_evidence_tells_apart() -> None:
    pytest.importorskip("sklearn")
    rng = random.Random(0)
    rows = []
    for i in range(150):  # right answers sit on the recorded box, removed ones do not
        page = f"p{i % 10}"
        rows.append(_outcome("correct", 0.9, page=page, bbox=rng.uniform(0.8, 1.0)))
        rows.append(_outcome("false_hit", 0.9, page=page, bbox=rng.uniform(0.0, 0.3)))
    p = verifier.cross_validated(rows)
    truth = np.asarray([o["verdict"] == "correct" for o in rows])
    assert ((p > 0.5) == truth).mean() > 0.95
