"""Batched scoring: the same results as one scoring per reference, and as the reference scorer."""

import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_scorer import reference_scores, reference_top
from test_matcher import assert_identical, random_ref, random_table

from benchmarks.synth import cdp_tree, make_refs
from resolver import MatchConfig, Observation, SemanticElementRef, batch
from resolver.batch import least_name, score_many, score_pairs
from resolver.index import TableIndex
from resolver.matcher import RELEVANT_GAP, Query, Scored, Scorer, score_table
from resolver.table import CandidateTable, TableBuilder

CONFIGS = [MatchConfig(), MatchConfig(w_bbox=0.0, top_k=2), MatchConfig(name_gate_floor=0.8)]


def assert_same_scored(got: Scored, want: Scored) -> None:
    """Everything a Scored holds, equal (scores to 1e-9)."""
    assert got.rows.tolist() == want.rows.tolist()
    assert got.scores == pytest.approx(want.scores, abs=1e-9)
    assert list(got.signals) == list(want.signals)
    for name, values in want.signals.items():
        assert got.signals[name] == pytest.approx(values, abs=1e-9), name
    assert got.evaluated == want.evaluated
    assert got.identifying == want.identifying


def one_by_one(refs: list[SemanticElementRef], table: CandidateTable, config: MatchConfig,
               k: int | None = None) -> list[Scored]:  # fmt: skip
    return [score_table(ref, table, config, k=k) for ref in refs]


def near_names(rng: random.Random, base: str, count: int) -> list[str]:
    """Names a few edits away from ``base``: fuzzy agreement spread over the range where a
    name decides whether a row is scored at all."""
    letters = "abcdefghijklmnopqrstuvwxyz "
    out = []
    for _ in range(count):
        name = list(base)
        for _ in range(rng.randrange(1, 5)):
            at = rng.randrange(len(name) + 1)
            edit = rng.randrange(3)
            if edit == 0:
                name.insert(at, rng.choice(letters))
            elif edit == 1 and at < len(name):
                del name[at]
            elif at < len(name):
                name[at] = rng.choice(letters)
        out.append("".join(name).strip() or base)
    return out


def crowded_table(rng: random.Random, base: str, n: int) -> CandidateTable:
    """Rows of one role in one container, named like ``base`` but never exactly, near one
    place: only the fuzzy names (and boxes) tell them apart."""
    b = TableBuilder("a11y", "crowded")
    b.add("root", raw_role="dialog", name="Settings", parent=-1, bbox=(0, 0, 1000, 800))
    for i, name in enumerate(near_names(rng, base, n)):
        x, y = rng.uniform(300, 400), rng.uniform(300, 400)
        role = rng.choice(["button", "button", "link", "StaticText"])
        b.add(str(i), raw_role=role, name=name, parent=0, bbox=(x, y, x + 80, y + 24))
    return b.build(screen_size=(1000.0, 800.0))


@pytest.mark.parametrize("seed", range(30))
def test_score_many_is_score_table_on_random_tables(seed: int) -> None:
    rng = random.Random(seed)
    table = random_table(rng, rng.choice([1, 5, 50, 400]))
    refs = [random_ref(rng, table) for _ in range(20)]
    # The same names again, without a box (a reference of a box alone has nothing left).
    refs += [ref.model_copy(update={"bbox": None}) for ref in refs[:5] if ref.role or ref.name]
    config = CONFIGS[seed % len(CONFIGS)]
    for got, want in zip(score_many(refs, table, config), one_by_one(refs, table, config),
                         strict=True):  # fmt: skip
        assert_same_scored(got, want)


@pytest.mark.parametrize("seed", range(20))
def test_score_many_is_score_table_where_fuzzy_names_decide(seed: int) -> None:
    # No row has the recorded name, so the floor sits among fuzzy scores: a name cutoff set
    # too high would leave out rows that a single scoring scores (and reports).
    rng = random.Random(seed)
    base = rng.choice(["save draft", "read more about this", "inbox messages", "ok"])
    table = crowded_table(rng, base, rng.choice([30, 300, 1200]))
    refs = []
    for name in near_names(rng, base, 12):
        x, y = rng.uniform(300, 400), rng.uniform(300, 400)
        refs.append(SemanticElementRef(role=rng.choice(["button", "link"]), name=name,
                                       bbox=(x, y, x + 80, y + 24),
                                       container_path=("Settings",)))  # fmt: skip
    k = rng.choice([None, 4, 8])
    config = CONFIGS[seed % len(CONFIGS)]
    for got, want in zip(score_many(refs, table, config, k=k),
                         one_by_one(refs, table, config, k=k), strict=True):  # fmt: skip
        assert_same_scored(got, want)


@pytest.mark.parametrize("cost", [(0, 0), (10**9, 10**9)])
@pytest.mark.parametrize("seed", range(6))
def test_fuzzy_names_by_pairs_or_by_matrix(
    monkeypatch: pytest.MonkeyPatch, seed: int, cost: tuple[int, int]
) -> None:
    # The fuzzy names of a batch come from the (query, name) pairs it needs or from the
    # whole query x name matrix, whichever costs less: each gives the single scorings' names.
    monkeypatch.setattr("resolver.batch.PAIR_COST", cost)
    rng = random.Random(40 + seed)
    base = rng.choice(["save draft", "read more about this", "inbox messages"])
    table = crowded_table(rng, base, rng.choice([60, 600]))
    refs = [
        SemanticElementRef(role=rng.choice(["button", "link"]), name=name,
                           container_path=("Settings",))
        for name in near_names(rng, base, 10)
    ]  # fmt: skip
    config = CONFIGS[seed % len(CONFIGS)]
    for got, want in zip(score_many(refs, table, config), one_by_one(refs, table, config),
                         strict=True):  # fmt: skip
        assert_same_scored(got, want)


@pytest.mark.parametrize("seed", range(15))
def test_score_many_matches_the_reference_scorer(seed: int) -> None:
    rng = random.Random(100 + seed)
    table = random_table(rng, rng.choice([5, 50, 400]))
    config = MatchConfig()
    refs = [random_ref(rng, table) for _ in range(8)]
    for ref, fast in zip(refs, score_many(refs, table, config, k=4), strict=True):
        every = reference_scores(ref, table, config)
        slow = reference_top(ref, table, config, 4)
        if not slow:
            assert all(s < 0.05 for s in fast.scores[:4])
            continue
        cut = max(0.05, slow[0][1] - RELEVANT_GAP)
        slow = [(r, s) for r, s in slow if s >= cut]
        got = [(int(r), float(s)) for r, s in zip(fast.rows[:4], fast.scores[:4], strict=True)]
        got = [(r, s) for r, s in got if s >= cut]
        assert len(got) == len(slow)
        for (row_a, score_a), (row_b, score_b) in zip(got, slow, strict=True):
            assert score_a == pytest.approx(score_b, abs=1e-9)
            assert every[row_a] == pytest.approx(score_a, abs=1e-9)
            if sum(1 for s in every if math.isclose(s, score_b, abs_tol=1e-9)) == 1:
                assert row_a == row_b


def test_score_pairs_is_full() -> None:
    rng = random.Random(5)
    table = random_table(rng, 300)
    config = MatchConfig()
    shared: dict[object, object] = {}
    scorers = [Scorer(Query.build(random_ref(rng, table), table, config), table, config, shared)
               for _ in range(25)]  # fmt: skip
    rows = [np.unique(rng.sample(range(300), rng.randrange(1, 60))) for _ in scorers]
    for scorer, chosen in zip(scorers, rows, strict=True):
        scorer.name_scores(chosen)  # score_pairs needs the names
    batch = score_pairs(scorers, rows)
    for scorer, chosen, (scores, known) in zip(scorers, rows, batch, strict=True):
        alone = Scorer(scorer.query, table, config)
        assert scores == pytest.approx(alone.full(chosen), abs=1e-12)
        if scorer.has_box:
            assert known["bbox"] == pytest.approx(alone.box_scores(chosen), abs=1e-12)
        if scorer.has_container:
            assert known["container"] == pytest.approx(alone.container_scores(chosen), abs=1e-12)


def test_empty_table_and_no_refs() -> None:
    table = TableBuilder("a11y", "empty").build()
    assert [s.rows.size for s in score_many([SemanticElementRef(name="x")], table,
                                            MatchConfig())] == [0]  # fmt: skip
    assert score_many([], random_table(random.Random(1), 10), MatchConfig()) == []


def _bound(x: float, gain: float, other: float, config: MatchConfig) -> float:
    a = config.name_gate_floor
    return gain * (a + (1 - a) * x) * (other + config.w_name * x)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    gain=st.floats(0.0, 1.0),
    other=st.floats(0.0, 1.5),
    floor=st.floats(0.05, 1.0),
    gate=st.floats(0.0, 1.0),
    weight=st.floats(0.0, 1.0),
)
def test_least_name_is_where_the_bound_reaches_the_floor(
    gain: float, other: float, floor: float, gate: float, weight: float
) -> None:
    config = MatchConfig(name_gate_floor=gate, w_name=weight)
    x = least_name(gain, other, floor, config)
    assert 0.0 <= x <= 1.0
    if x > 0.0:
        # under the cutoff no row can reach the floor (up to rounding: with a gate floor a
        # hair under 1 the bound hardly moves with the name) ...
        assert _bound(x, gain, other, config) < floor + 1e-12
    if x < 1.0:
        # ... and just above it, one may
        assert _bound(min(x + 1e-5, 1.0), gain, other, config) >= floor - 1e-12


def test_score_many_past_4096_name_hits() -> None:
    # Past 4096 hits not every hit is a seed; look-alike orders recorded in different
    # containers must not share bounds.
    rng = random.Random(2)
    b = TableBuilder("a11y", "many-edits")
    b.add("root", raw_role="main", name="", parent=-1, bbox=(0, 0, 1000, 9000))
    for g in range(30):
        b.add(f"g{g}", raw_role="group", name=f"Group {g}", parent=0, bbox=(0, 0, 1000, 9000))
    for i in range(4300):
        y = rng.uniform(0, 8900)
        b.add(str(i), raw_role=rng.choice(["button", "link"]), name=rng.choice(["Edit", "edit"]),
              parent=1 + rng.randrange(30), bbox=(10, y, 60, y + 20))  # fmt: skip
    table = b.build(screen_size=(1000.0, 9000.0))
    refs = []
    for _ in range(12):
        y = rng.uniform(0, 8900)
        refs.append(SemanticElementRef(
            role="button", name="Edit", bbox=(10, y, 60, y + 20),
            container_path=(f"Group {rng.randrange(30)}",), occurrence=(rng.randrange(3), 140),
        ))  # fmt: skip
    config = MatchConfig()
    for got, want in zip(score_many(refs, table, config), one_by_one(refs, table, config),
                         strict=True):  # fmt: skip
        assert_same_scored(got, want)


def test_long_lists_are_scored_in_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    # A batch holds a row-long vector per distinct name: long lists go in several batches,
    # with the same results.
    rng = random.Random(12)
    table = random_table(rng, 200)
    refs = [random_ref(rng, table) for _ in range(23)]
    config = MatchConfig()
    want = one_by_one(refs, table, config)
    monkeypatch.setattr("resolver.batch.BATCH_VALUES", 5 * len(table))
    got = score_many(refs, table, config)
    for a, b in zip(got, want, strict=True):
        assert_same_scored(a, b)


def test_small_table_caches_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    # The table's bounded caches (entry similarities, shared vectors, names' agreement) empty
    # themselves while a batch or a single scoring still uses what they held.
    monkeypatch.setattr("resolver.index.ENTRY_SIMS", 3)
    monkeypatch.setattr("resolver.index.SHARED_ENTRIES", 2)
    monkeypatch.setattr("resolver.index.NAME_ROW_CELLS", 700)  # two names of 300 rows
    rng = random.Random(21)
    config = MatchConfig()
    for _ in range(3):
        table = random_table(rng, 300)  # a new table: its index takes the small limits
        refs = [random_ref(rng, table) for _ in range(30)]
        got = score_many(refs, table, config)
        for a, b in zip(got, one_by_one(refs, table, config), strict=True):
            assert_same_scored(a, b)


@pytest.mark.parametrize("seed", range(12))
def test_scores_kept_by_a_batch_or_a_single_scoring_serve_the_other(seed: int) -> None:
    # A table keeps container-path scores per recorded path, whichever scoring made them:
    # a batch after single scorings, and single scorings after a batch, give the numbers
    # each gives on a fresh table.
    n = random.Random(seed).choice([50, 400])
    rng = random.Random(seed + 1)
    refs = [random_ref(rng, random_table(random.Random(seed), n)) for _ in range(16)]
    config = MatchConfig()
    singles = one_by_one(refs, random_table(random.Random(seed), n), config)
    batch = score_many(refs, random_table(random.Random(seed), n), config)
    table = random_table(random.Random(seed), n)
    for got, want in zip(score_many(refs, table, config), batch, strict=True):
        assert_identical(got, want)
    for got, want in zip(one_by_one(refs, table, config), singles, strict=True):
        assert_identical(got, want)
    table = random_table(random.Random(seed), n)
    for got, want in zip(one_by_one(refs, table, config), singles, strict=True):
        assert_identical(got, want)
    for got, want in zip(score_many(refs, table, config), batch, strict=True):
        assert_identical(got, want)


@pytest.mark.parametrize("seed", range(12))
def test_names_a_table_keeps_serve_later_scorings_exactly(seed: int) -> None:
    # A table keeps each recorded name's agreement with its rows for later single scorings
    # (the names of one page repeat); a batch keeps its own, whose fuzzy values under a
    # cutoff need not be exact. Scorings one after another on one table, with batches at
    # several cutoffs in between, give what each gives on a fresh table, and every value
    # the table keeps is exact.
    rng = random.Random(seed)
    base = rng.choice(["save draft", "read more about this", "inbox messages", "ok"])
    size = rng.choice([30, 300])

    def fresh() -> CandidateTable:
        if seed % 2:
            return random_table(random.Random(seed), size)
        return crowded_table(random.Random(seed), base, size)

    if seed % 2:
        refs = [random_ref(rng, fresh()) for _ in range(30)]
    else:
        names = near_names(rng, base, 5)
        refs = []
        for _ in range(14):
            x, y = rng.uniform(300, 400), rng.uniform(300, 400)
            refs.append(SemanticElementRef(role=rng.choice(["button", "link"]),
                                           name=rng.choice(names), bbox=(x, y, x + 80, y + 24),
                                           container_path=("Settings",)))  # fmt: skip
    # The same names recorded with less around them score lower: their floors are lower.
    bare = [r.model_copy(update={"bbox": None, "container_path": ()}) for r in refs if r.name]
    config = MatchConfig(top_k=8)
    want = [score_table(ref, fresh(), config) for ref in refs + bare]
    table = fresh()
    for got, expected in zip(one_by_one(refs, table, config), want[: len(refs)], strict=True):
        assert_identical(got, expected)
    kept = table.derived(TableIndex).name_rows
    assert set(kept) == {Query.build(ref, table, config).name_raw for ref in refs}
    for k in (None, 1, 8):
        score_many(refs, table, config, k=k)
        for got, expected in zip(one_by_one((refs + bare)[::-1], table, config), want[::-1],
                                 strict=True):  # fmt: skip
            assert_identical(got, expected)
    every = np.arange(len(table))
    for ref in refs:
        values = kept[Query.build(ref, table, config).name_raw][1]
        known = ~np.isnan(values)
        exact = Scorer(Query.build(ref, table, config), fresh(), config).name_scores(every)
        assert values[known].tolist() == exact[known].tolist()


@pytest.mark.parametrize("seed", range(6))
def test_seeds_alone_give_what_the_look_past_them_gives(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A reference with neighbour texts orders the rows by its own bounds; when every row
    # that reaches its floor is a seed, the batch looks no further. Made to look past the
    # seeds every time, it must give the same results, number for number.
    tree = cdp_tree(random.Random(seed).choice([400, 3000]), seed=seed)
    refs = [t.ref for t in make_refs(Observation(accessibility_tree=tree).candidates("a11y"),
                                     60, seed=seed)]  # fmt: skip
    # Fuzzy names and a stated state (which also orders the rows per reference): here rows
    # past the seeds often reach the floor and are scored.
    rng = random.Random(seed)
    base = rng.choice(["save draft", "read more about this", "ok"])
    crowded = crowded_table(rng, base, 300)
    near = [
        SemanticElementRef(role="button", name=name, enabled=True, bbox=(330, 330, 410, 354),
                           container_path=("Settings",))
        for name in near_names(rng, base, 12)
    ]  # fmt: skip
    answers: list[bool] = []
    real = batch.past_seeds

    def counted(reach: np.ndarray, seeds: np.ndarray) -> bool:
        answers.append(real(reach, seeds))
        return answers[-1]

    def fresh() -> CandidateTable:
        return Observation(accessibility_tree=tree).candidates("a11y")

    for k in (None, 1, 8):
        monkeypatch.setattr(batch, "past_seeds", counted)
        quick = score_many(refs, fresh(), MatchConfig(), k=k)
        monkeypatch.setattr(batch, "past_seeds", lambda reach, seeds: True)
        full = score_many(refs, fresh(), MatchConfig(), k=k)
        for got, want in zip(quick, full, strict=True):
            assert_identical(got, want)
        monkeypatch.setattr(batch, "past_seeds", counted)
        quick = score_many(near, crowded, MatchConfig(), k=k)
        for got, want in zip(quick, one_by_one(near, crowded, MatchConfig(), k=k), strict=True):
            assert_identical(got, want)
    assert False in answers and True in answers  # both ways were taken
