"""The risk/coverage replays of the relocation benchmark (no browser, no corpus):
``python -m pytest benchmarks/relocation/test_curve.py``."""

from __future__ import annotations

from typing import Any

from benchmarks.relocation.calibrate import coverage
from benchmarks.relocation.curve import rates
from benchmarks.relocation.run import _refused_by, _vetoed
from resolver.calibration import confidence


def _o(answer: str | None, score: float, margin: float, *, expected: str | None = "a",
       refused_by: str | None = None, signals: dict[str, float] | None = None,
       ) -> dict[str, Any]:  # fmt: skip
    """An outcome; a refused one's best candidate is the target."""
    o: dict[str, Any] = {
        "answer": answer, "best": answer or "a", "score": score, "margin": margin,
        "expected": expected, "present": expected is not None, "split": "heldout",
        "kind": "wrap", "recorder": "ours", "source": "a11y", "signals": signals or {},
    }  # fmt: skip
    if refused_by is not None:
        o["refused_by"] = refused_by
    return o


def test_the_replay_at_the_defaults_is_the_run() -> None:
    rows = [
        _o("a", 0.9, 0.3),  # right
        _o("a", 0.5, 0.3),  # right, the sole namesake under the threshold
        _o("a", 0.8, 0.02),  # right, a tie a rule broke
        _o(None, 0.9, 0.3, refused_by="rule"),  # refused by a rule after both cleared
        _o(None, 0.55, 0.3, refused_by="threshold"),
        _o("x", 0.9, 0.3, expected=None),  # a removed target answered
    ]
    right, wrong, abstained, removed = rates(rows, 0.6, 0.06)
    assert (right, wrong, removed) == (60.0, 0.0, 100.0) and abstained == 40.0
    # Raised: only answers that clear both stay (and those no threshold or margin asked).
    right, _, _, removed = rates(rows, 0.85, 0.1)
    assert right == 40.0 and removed == 100.0
    # Lowered: a refusal on the threshold alone is answered; a rule's refusal is not.
    right, _, _, _ = rates(rows, 0.5, 0.06)
    assert right == 80.0


def test_min_confidence_keeps_the_answers_that_reach_it() -> None:
    far = {"role": 1.0, "name": 0.7, "bbox": 0.2}  # a changed name far from the recorded box
    rows = [
        _o("a", 1.0, 0.5), _o("a", 0.62, 0.07, signals=far),
        _o(None, 0.9, 0.3, refused_by="rule"),
    ]  # fmt: skip
    assert confidence(0.62, 0.07, far) < 0.9 < confidence(1.0, 0.5)
    table = "\n".join(coverage(rows, "heldout"))
    assert "| 0.0 | a11y | ours | 66.7 | 0.00 |" in table
    assert "| 0.9 | a11y | ours | 33.3 | 0.00 |" in table


def test_a_refusal_is_put_down_to_the_rule_that_refused_it() -> None:
    assert _refused_by("refuse.threshold") == "threshold"
    assert _refused_by("ambiguous.margin") == "margin"
    assert _refused_by("refuse.neighbour_name") == "rule"
    assert _refused_by("refuse.low_confidence") == "rule"
    # Only a review rule's refusal of an answer that cleared both is a veto.
    assert _vetoed("refuse.lookalike_place") and _vetoed("ambiguous.torn")
    assert not _vetoed("refuse.threshold") and not _vetoed("refuse.min_confidence")
    assert not _vetoed("no.such_rule")
