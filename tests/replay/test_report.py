"""The JSON report: counts, groups, histogram, failures, corrupt recordings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from recording_files import write_corrupt, write_document

from resolver.replay.model import ReplayOptions
from resolver.replay.report import build_report, counts_of, write_json
from resolver.replay.run import replay_local
from resolver.replay.sources import discover


def test_counts_and_rates() -> None:
    verdicts = ("correct", "correct", "wrong", "abstained", "rejected", "false_hit", "skipped")
    steps = [{"verdict": v, "ms": 1.0} for v in verdicts]
    row = counts_of(steps)
    assert row["accuracy"] == 0.5 and row["wrong_rate"] == 0.5 and row["rejection"] == 0.5
    assert row["steps"] == 7 and row["skipped"] == 1 and row["median_ms"] == 1.0
    assert counts_of([])["accuracy"] is None


def test_report_of_a_run(tmp_path: Path) -> None:
    write_document(tmp_path)
    write_corrupt(tmp_path)
    results = replay_local(discover([tmp_path]), ReplayOptions(sources=("a11y",), against="next"))
    report = build_report(results, meta={"against": "next"})
    overall = report["overall"]
    assert overall["recordings"] == 5 and overall["corrupt"] == 4
    assert overall["resolutions"] == 2  # the human action has no later snapshot
    assert set(report["by_source"]) == {"a11y", "none"}
    assert set(report["by_action_type"]) == {"click"}
    assert sum(b["count"] for b in report["latency_histogram"]) == 2
    assert len(report["corrupt"]) == 4 and report["failures"] == []
    assert report["by_completion"] == {}  # nothing was completed
    write_json(report, tmp_path / "r.json")
    assert json.loads((tmp_path / "r.json").read_text())["meta"] == {"against": "next"}


def test_completed_steps_are_counted_by_completion(tmp_path: Path) -> None:
    from resolver.replay.html import render_html

    write_document(tmp_path)
    options = ReplayOptions(sources=("a11y",), complete=True)
    report = build_report(replay_local(discover([tmp_path]), options))
    assert set(report["by_completion"]) == {"completed"}
    assert report["by_completion"]["completed"]["correct"] == 3
    assert "Verdicts by completion" in render_html(report, [])
    plain = build_report(replay_local(discover([tmp_path]), ReplayOptions(sources=("a11y",))))
    assert "Verdicts by completion" not in render_html(plain, [])


def test_a_report_with_text_that_is_not_unicode_is_written_and_reads_back(
    tmp_path: Path,
) -> None:
    report = {"recording": "caf\udce9.json", "step": "a\ud800b", "name": "Résumé"}
    write_json(report, tmp_path / "r.json")
    assert json.loads((tmp_path / "r.json").read_bytes().decode("ascii")) == report
    plain = {"name": "Résumé"}
    write_json(plain, tmp_path / "plain.json")  # valid text is written as it is
    assert "Résumé" in (tmp_path / "plain.json").read_text("utf-8")


@pytest.mark.parametrize(
    "results", [None, 5, "run", [5], [{"recording": "x"}],
                [{"recording": "x", "status": "ok", "steps": 5}]],
)  # fmt: skip
def test_a_report_of_what_is_no_list_of_results_is_refused(results: object) -> None:
    from resolver.replay.model import ReplayError

    with pytest.raises(ReplayError):
        build_report(results)  # type: ignore[arg-type]
