"""The reliability table and picture (benchmarks/reliability.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.reliability import Group, main, markdown, relocation_groups, similo_groups, svg


def _outcome(answer: str | None, expected: str, present: bool = True, **extra: object) -> dict:
    return {
        "split": "heldout", "kind": "wrap", "recorder": "foreign", "source": "a11y",
        "present": present, "answer": answer, "expected": expected, "score": 1.0,
        "margin": 0.5, **extra,
    }  # fmt: skip


def test_relocation_answers_are_right_wrong_or_for_removed_targets() -> None:
    data = {"outcomes": [
        _outcome("a11y:1", "a11y:1"),
        _outcome("a11y:2", "a11y:1"),
        _outcome("a11y:3", "a11y:9", present=False),
        _outcome(None, "a11y:1"),
        _outcome("a11y:1", "a11y:1", kind="identity"),
        _outcome("a11y:1", "a11y:1", recorder="seed"),
    ]}  # fmt: skip
    (group,) = relocation_groups(data, "heldout")
    assert group.present == 3
    assert [right for _, right in group.answers] == [True, False, False]
    assert all(0.9 < c <= 1 for c, _ in group.answers)  # score 1, wide margin, vouched


def test_similo_counts_removed_answers_as_wrong() -> None:
    data = {"pairs": [
        {"split": "tune", "verdict": "correct", "confidence": 0.99, "removed_answered": True,
         "removed_confidence": 0.95},
        {"split": "tune", "verdict": "abstained", "confidence": None, "removed_answered": False},
        {"split": "heldout", "verdict": "wrong", "confidence": 0.5},
    ]}  # fmt: skip
    (group,) = similo_groups(data, "tune")
    assert group.answers == ((0.99, True), (0.95, False)) and group.present == 2


def test_the_table_and_picture_show_each_band_and_what_min_confidence_keeps() -> None:
    group = Group("g", ((0.97, True), (0.96, False), (0.6, True), (0.3, False)), 10)
    text = markdown([group])
    assert "| g | 0.95-0.99 | 2 | 0.965 | 0.500 |" in text
    assert "| g | 4 | 2 | 2 | 1 | 50.00 | 10.00 |" in text
    picture = svg([group, Group("h & <i>", (), 0)])
    assert picture.count("<circle") == 3 and "h &amp; &lt;i&gt;" in picture


def test_main_writes_the_picture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run.json"
    run.write_text(json.dumps({"outcomes": [_outcome("a11y:1", "a11y:1")]}), encoding="utf-8")
    out = tmp_path / "pic" / "r.svg"
    assert main(["--relocation", str(run), "--svg", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<svg")
    assert "a11y / foreign" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main([])
