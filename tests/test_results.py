"""What a resolution returns: candidates built in one pass equal those built one by one."""

import math
import random
from dataclasses import FrozenInstanceError

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_matcher import random_ref, random_table

from resolver import MatchConfig
from resolver.matcher import score_table
from resolver.results import Candidate, rounded


def test_rounded_is_round_on_ties_and_edges() -> None:
    rng = random.Random(3)
    values = [k / 20000 for k in range(-20001, 20002)]  # every tie of the 4th decimal
    values += [k / 10000 + 5e-5 for k in range(-10000, 10000)]
    values += [rng.uniform(-3.0, 3.0) for _ in range(50000)]
    values += [0.0, -0.0, 1e-300, -1e-7, 2.5e-5, 1e12, -1e12, math.inf, -math.inf, math.nan]
    got = rounded(np.asarray(values))
    want = [round(v, 4) for v in values]
    assert [repr(g) for g in got] == [repr(w) for w in want]  # repr: -0.0, nan, inf too
    small = values[:-5]  # small and finite only: the path without numpy's warnings silenced
    assert [repr(g) for g in rounded(np.asarray(small))] == [repr(round(v, 4)) for v in small]
    assert rounded(np.empty(0)) == []
    for start in range(0, len(values) - 70, 997):  # runs past the few rounded one by one
        run = values[start : start + 70]
        assert [repr(g) for g in rounded(np.asarray(run))] == [repr(round(v, 4)) for v in run]


@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=50))
def test_rounded_is_round(values: list[float]) -> None:
    got = rounded(np.asarray(values, dtype=np.float64))
    assert [repr(g) for g in got] == [repr(round(v, 4)) for v in values]


def test_ranked_is_of_for_each_row() -> None:
    rng = random.Random(8)
    table = random_table(rng, 200)
    for _ in range(20):
        scored = score_table(random_ref(rng, table), table, MatchConfig())
        one_by_one = tuple(Candidate.of(table, scored, j) for j in range(scored.rows.size))
        assert Candidate.ranked(table, scored) == one_by_one


def test_trace_entry_carries_its_diagnostics_through_json() -> None:
    import json

    from resolver.results import TraceEntry

    entry = TraceEntry("a11y", "ambiguous", "two alike", rule="ambiguous.margin",
                       diagnostics={"box_not_finite": 3, "name_not_text": 2})  # fmt: skip
    data = json.loads(json.dumps(entry.to_dict()))
    assert data["diagnostics"] == {"box_not_finite": 3, "name_not_text": 2}
    assert TraceEntry.from_dict(data) == entry
    older = {k: v for k, v in data.items() if k != "diagnostics"}  # written before the field
    assert TraceEntry.from_dict(older).diagnostics == {}


def test_a_candidate_made_in_a_batch_is_the_constructed_one() -> None:
    rng = random.Random(9)
    table = random_table(rng, 100)
    scored = score_table(random_ref(rng, table), table, MatchConfig())
    for made, one in zip(
        Candidate.ranked(table, scored),
        (Candidate.of(table, scored, j) for j in range(scored.rows.size)),
        strict=True,
    ):
        assert made == one and repr(made) == repr(one)
        assert vars(made) == vars(one) and made.to_dict() == one.to_dict()
        with pytest.raises(FrozenInstanceError):
            made.score = 0.0  # type: ignore[misc]
