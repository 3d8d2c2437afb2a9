"""The relocation report's table of outcomes per deciding rule (no browser, no corpus)."""

from __future__ import annotations

from typing import Any

from benchmarks.relocation.report import _rule_rows


def _o(verdict: str, recorder: str, rule: str | None, source: str = "a11y") -> dict[str, Any]:
    return {"verdict": verdict, "recorder": recorder, "rule": rule, "source": source}


def test_outcomes_are_counted_per_rule_and_recorder() -> None:
    rows = _rule_rows([
        _o("correct", "ours", "accept.score"), _o("correct", "foreign", "accept.score"),
        _o("wrong", "foreign", "accept.score"), _o("rejected", "ours", "refuse.stray"),
        _o("false_hit", "completed", "accept.score"), _o("error", "ours", None),
        _o("correct", "seed", None), _o("abstained", "varied", "refuse.stray"),
        _o("correct", "foreign", "accept.score", source="chain"),
    ])  # fmt: skip
    none = "0 (0 / 0 / 0 / 0)"
    assert rows[2] == (
        f"| `accept.score` | 2 (1 / 1 / 0 / 0) | 1 (0 / 1 / 0 / 0) | {none} "
        f"| 1 (0 / 0 / 1 / 0) | {none} |"
    )
    assert rows[3] == (
        f"| `refuse.stray` | {none} | {none} | 1 (0 / 0 / 0 / 1) | {none} | 1 (1 / 0 / 0 / 0) |"
    )
    assert len(rows) == 4  # errors, the seed's outcomes and the chain's are not counted
    assert _rule_rows([]) == ["(no cases)"]


def test_a_run_without_fonts_for_a_script_says_so() -> None:
    from benchmarks.relocation.report import markdown

    config: dict[str, Any] = {
        "split": "tune", "sources": ["a11y"], "pages": 0, "wall_seconds": 1.0, "workers": 1,
        "settings": {},
    }  # fmt: skip
    assert "Warning" not in markdown([], [], config, splits=["tune"])
    config["uncovered_scripts"] = ["Chinese", "Japanese"]
    text = markdown([], [], config, splits=["tune"])
    assert "Warning: no installed font draws Chinese or Japanese" in text
