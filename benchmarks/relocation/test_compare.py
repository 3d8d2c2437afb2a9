"""Comparing two benchmark runs case by case (no browser, no corpus)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.relocation.compare import main


def _run(path: Path, verdict: str, *, catalog: bool = False) -> Path:
    case = {"page": "p", "version": "v1", "key": "t1", "source": "a11y", "verdict": verdict,
            "answer": "a11y:1", "rule": "accept.score"}  # fmt: skip
    if catalog:
        path.write_text(json.dumps([{**case, "method": "catalog"}]))
    else:
        path.write_text(json.dumps({"outcomes": [{**case, "recorder": "ours", "score": 0.9}]}))
    return path


@pytest.mark.parametrize("catalog", [False, True])
def test_equal_runs_pass_and_a_changed_case_fails(
    tmp_path: Path, catalog: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _run(tmp_path / "a.json", "correct", catalog=catalog)
    same = _run(tmp_path / "b.json", "correct", catalog=catalog)
    assert main([str(a), str(same)]) == 0
    assert "differ: 0" in capsys.readouterr().out
    other = _run(tmp_path / "c.json", "wrong", catalog=catalog)
    assert main([str(a), str(other)]) == 1
    out = capsys.readouterr().out
    assert "differ: 1" in out and "accept.score 1" in out
    empty = tmp_path / "d.json"
    empty.write_text(json.dumps([] if catalog else {"outcomes": []}))
    assert main([str(a), str(empty)]) == 1  # a case missing from one run


def test_only_the_chosen_recorders_and_sources_are_compared(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = _run(tmp_path / "old.json", "correct")  # an older run: no varied, no convention
    case = json.loads(old.read_text())["outcomes"][0]
    new = tmp_path / "new.json"
    new.write_text(json.dumps({"outcomes": [
        {**case, "convention": ""},
        {**case, "recorder": "varied", "convention": "bare", "verdict": "wrong"},
        {**case, "recorder": "foreign", "source": "chain", "verdict": "wrong"},
    ]}))  # fmt: skip
    assert main([str(old), str(new)]) == 1  # the new cases are in one run only
    assert "in one run only: 2" in capsys.readouterr().out
    assert main([str(old), str(new), "--recorders", "ours,foreign"]) == 1  # the chain's
    assert main([str(old), str(new), "--recorders", "ours,foreign", "--sources", "a11y"]) == 0
    assert main([str(old), str(new), "--recorders", "ours"]) == 0
    assert "differ: 0; in one run only: 0" in capsys.readouterr().out


def test_tally_counts_the_changes_by_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def run(path: Path, verdicts: list[tuple[bool, str, str]]) -> Path:
        case = {"page": "p", "version": "v", "recorder": "foreign", "source": "a11y"}
        outcomes = [
            {**case, "key": f"t{i}", "present": present, "verdict": verdict, "rule": rule}
            for i, (present, verdict, rule) in enumerate(verdicts)
        ]
        path.write_text(json.dumps({"outcomes": outcomes}))
        return path

    kept = (True, "correct", "accept.score")
    before = run(tmp_path / "a.json", [kept, kept, (False, "false_hit", "accept.score")])
    after = run(
        tmp_path / "b.json",
        [(True, "abstained", "refuse.stray"), kept, (False, "rejected", "refuse.stray")],
    )
    assert main([str(before), str(after), "--tally"]) == 1
    out = capsys.readouterr().out
    assert "1 present: correct -> abstained (refuse.stray)" in out
    assert "1 removed: false_hit -> rejected (refuse.stray)" in out
    assert main([str(before), str(after)]) == 1
    assert "present: correct" not in capsys.readouterr().out
