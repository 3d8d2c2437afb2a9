"""The targets ``benchmarks.scaled_resolve`` reports against."""

from benchmarks.scaled_resolve import judged


def test_each_target_is_judged_on_its_own_call() -> None:
    verdicts = judged({"resolve_scaled_ms": 0.31, "resolve_many_scaled_ms": 9.9})
    assert verdicts == {
        "resolve <= 1 ms (scaled)": True,
        "resolve_many <= 20 ms (scaled)": True,
        "resolve <= 0.3 ms (scaled)": False,
        "resolve_many <= 10 ms (scaled)": True,
    }
    assert all(judged({"resolve_scaled_ms": 0.3, "resolve_many_scaled_ms": 10.0}).values())
