"""The targets ``benchmarks.scaled_resolve`` reports against."""

import pytest

from benchmarks.scaled_resolve import MIN_GROWTH_NODES, _growth_calls, judged, line, main
from resolver.config import MatchConfig


def test_each_target_is_judged_on_its_own_call() -> None:
    verdicts = judged({"resolve_scaled_ms": 0.31, "resolve_many_scaled_ms": 9.9})
    assert verdicts == {
        "resolve <= 1 ms (scaled)": True,
        "resolve_many <= 20 ms (scaled)": True,
        "resolve <= 0.3 ms (scaled)": False,
        "resolve_many <= 10 ms (scaled)": True,
    }
    assert all(judged({"resolve_scaled_ms": 0.3, "resolve_many_scaled_ms": 10.0}).values())


def test_line_through_sizes() -> None:
    at_zero, slope = line([1.0, 3.0, 10.0], [12.0, 16.0, 30.0])
    assert at_zero == pytest.approx(10.0)
    assert slope == pytest.approx(2.0)
    assert line([10.0], [7.5]) == (7.5, 0.0)
    assert line([2.0, 2.0], [1.0, 3.0]) == (2.0, 0.0)
    with pytest.raises(ValueError, match="one value per size"):
        line([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="one value per size"):
        line([], [])


def test_growth_refuses_trees_too_small_for_100_targets() -> None:
    with pytest.raises(SystemExit):
        main(["--growth", "500", "2000"])


def test_growth_calls_time_100_references() -> None:
    calls = _growth_calls(MIN_GROWTH_NODES, MatchConfig())
    assert list(calls) == ["resolve", "resolve_many", "score_many"]
    run, per = calls["resolve"]
    assert per == 20
    assert run() is None
    for name in ("resolve_many", "score_many"):
        run, per = calls[name]
        assert per == 1
        assert len(run()) == 100  # type: ignore[arg-type]
