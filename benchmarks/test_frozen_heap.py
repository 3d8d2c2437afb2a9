"""``benchmarks.frozen_heap`` runs and leaves the process as it found it."""

import gc

from benchmarks.frozen_heap import measure


def test_measure_times_each_case_before_and_after_freezing() -> None:
    result = measure(objects=2_000, samples=1)
    assert result["objects_frozen"] >= 2_000 and gc.get_freeze_count() == 0
    for key in ("nothing_frozen_ms", "frozen_ms", "frozen_over_nothing"):
        assert set(result[key]) == {"step", "small", "resolve_many"}
        assert all(value > 0 for value in result[key].values())
