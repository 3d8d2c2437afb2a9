"""Counting what a run's remaining errors carry (no browser, no corpus)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks.relocation.limits import limits, main


def _case(**fields: Any) -> dict[str, Any]:
    base = {"page": "p", "version": "v1", "key": "t1", "source": "a11y", "recorder": "foreign",
            "present": True, "twin": False, "verdict": "correct", "answer": "a11y:1"}  # fmt: skip
    return {**base, **fields}


def test_removed_answers_and_twin_wrongs_are_counted_apart() -> None:
    outcomes = [
        _case(),
        _case(twin=True),
        _case(twin=True, verdict="wrong", apart=[], convention="bare"),
        _case(twin=True, verdict="wrong", apart=["href"], convention="bare"),
        _case(verdict="wrong", apart=[]),  # wrong, but no twin
        _case(present=False, verdict="false_hit", twin=True),
        _case(present=False, verdict="false_hit"),
        _case(present=False, verdict="rejected", answer=None, twin=True),
        _case(source="dom", present=False, verdict="rejected", answer=None),
    ]
    counts = limits(outcomes)
    a11y, dom = counts[("a11y", "foreign")], counts[("dom", "foreign")]
    assert (a11y.present, a11y.present_twins, a11y.wrong, a11y.wrong_twins) == (5, 3, 3, 2)
    assert a11y.wrong_twins_alike == 1 and a11y.alike_by_convention == {"bare": 1}
    assert (a11y.removed, a11y.removed_answered, a11y.removed_answered_twins) == (3, 2, 1)
    assert (dom.removed, dom.removed_answered, dom.present) == (1, 0, 0)


def test_the_table_is_printed_and_other_files_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run.json"
    run.write_text(json.dumps({"outcomes": [_case(present=False, verdict="false_hit", twin=True)]}))
    assert main([str(run), "--recorders", "foreign"]) == 0
    assert "| a11y | foreign | 1 of 1 | 1 (100.0%) |" in capsys.readouterr().out
    assert main([str(run), "--recorders", "ours"]) == 0
    assert "| a11y |" not in capsys.readouterr().out
    other = tmp_path / "catalog.json"
    other.write_text("[]")
    assert main([str(other)]) == 2
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    assert main([str(broken)]) == 2
    assert main([str(tmp_path / "missing.json")]) == 2
