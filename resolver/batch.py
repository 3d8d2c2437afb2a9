"""Score many references against one table in one pass (:func:`score_many`, for
:func:`resolver.chain.resolve_many`).

The result for each reference is exactly :func:`resolver.matcher.score_table`'s; what changes
is how much work is shared:

- references with the same name share that name's lookup hits and per-row name scores, and
  references with the same container path its per-row container scores (the ``shared``
  caches of :class:`~resolver.matcher.Scorer`); those with the same role and signal set
  share the role vectors and the order of rows by bound, as single resolves already do;
  with the same name and look-alike order too, they form a group with one set of seed rows;
- the fuzzy names a pruned scoring needs are computed for all references together, with one
  rapidfuzz ``cdist`` per scorer: first those of every reference's seed rows, exactly, then
  those of every row whose bound still reaches its reference's floor, with a cutoff under
  which no such row could reach it (there a value only has to stay under the cutoff);
- the seeds of all references are scored in one vectorised pass over (reference, row) pairs
  (:func:`score_pairs`), with each pair going through the single scorer's operations;
- the chunked loop after the seeds (:func:`resolver.matcher.extend`) runs only for a
  reference where some row can still reach the floor once its name is known; for the
  others the seeds are the answer, as the loop would have found.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from .config import MatchConfig
from .index import BoundedCache, ContainerVocab, index_of
from .matcher import (
    MAX_NAME_SEEDS,
    NEARBY,
    Query,
    Scored,
    Scorer,
    Seeds,
    among,
    box_agreement,
    box_diagonal,
    distinct,
    distinct_codes,
    entry_sims,
    extend,
    floor_of,
    past_seeds,
    prune_k,
    ranked,
    score_every_row,
    score_table,
    seed_rows,
)
from .models import SemanticElementRef
from .table import CandidateTable
from .text import NAME_TIERS, entry_weight, fuzzy_matrix, fuzzy_pairs
from .web import nearby_shares

__all__ = ["least_name", "past_seeds", "score_many", "score_pairs"]

FloatArray = npt.NDArray[np.float64]
Index = npt.NDArray[np.intp]

BATCH_VALUES: Final[int] = 1 << 23
"""Per-row values one batch may hold (a row-long name cache per distinct name): longer
lists of references are scored in batches of ``BATCH_VALUES // len(table)``, so memory stays
bounded (64 MB) whatever the number of references."""
PAIR_COST: Final[tuple[int, int]] = (2, 10)
"""How many query x name comparisons of one rapidfuzz ``cdist`` cost about as much as one
pair of ``cpdist``, with ``token_set_ratio`` and with ``ratio`` alone (a cutoff above the
token-set factor): ``cdist`` compares one name with several short queries at once, which
pays most for ``ratio``."""
_CUTOFF_SLACK: Final[float] = 1e-6
"""Taken off a computed name cutoff, so that rounding in the bound never decides."""

_Job = tuple[Scorer, Index, float]
"""A scorer, rows whose fuzzy name scores it needs, and the value they must be exact from."""


def score_many(
    refs: Sequence[SemanticElementRef],
    table: CandidateTable,
    config: MatchConfig,
    *,
    k: int | None = None,
) -> list[Scored]:
    """:func:`~resolver.matcher.score_table` of every reference, sharing the work.

    Parameters
    ----------
    refs:
        The references, in order.
    table:
        The table they are all scored against.
    config:
        One configuration for all of them.
    k:
        As for :func:`~resolver.matcher.score_table`.

    Returns
    -------
    list of Scored
        One per reference, in order, equal to what ``score_table`` returns for it.
    """
    k = prune_k(k)
    if len(table) == 0:
        return [score_table(ref, table, config, k=k) for ref in refs]
    step = max(1, BATCH_VALUES // len(table))
    if len(refs) > step:
        return [
            s
            for i in range(0, len(refs), step)
            for s in score_many(refs[i : i + step], table, config, k=k)
        ]
    queries = [Query.build(ref, table, config) for ref in refs]
    shared: dict[Any, Any] = {NEARBY: nearby_shares([q.web for q in queries], table, config)}
    scorers = [Scorer(query, table, config, shared) for query in queries]
    groups = _grouped([scorer for scorer in scorers if scorer.pruned], k)
    _fill_names([(group.scorers[0], group.rows, 0.0) for group in groups])
    members = [scorer for group in groups for scorer in group.scorers]
    seeded = iter(_scored_in_parts(members, [g.rows for g in groups for _ in g.scorers]))
    for group in groups:
        group.scored = [next(seeded) for _ in group.scorers]
    lines: dict[int, FloatArray] = {}
    _fill_names([job for group in groups if (job := _beyond(group, k, lines)) is not None])
    done = {id(scorer): result for group in groups for scorer, result in _finished(group, k)}
    return [done[id(scorer)] if scorer.pruned else score_every_row(scorer, k) for scorer in scorers]


class _Group:
    """Pruned scorers with the same seed rows and bounds: one name, one role and signal set,
    one look-alike order. Their seeds are scored together; the rows past the seeds that any
    of their floors lets through are a prefix of one order, named and bounded once."""

    def __init__(self, scorers: list[Scorer], k: int) -> None:
        self.scorers = scorers
        self.upper, self.order, self.rows = seed_rows(scorers[0], k)
        self.scored: list[tuple[FloatArray, dict[str, FloatArray]]] = []
        self.floors: list[float] = []
        self.prefix = np.empty(0, dtype=np.intp)
        """The rows past the seeds, best bound first, as far as the lowest floor reaches."""
        self.free = np.empty(0, dtype=bool)
        """Which rows of :attr:`prefix` are not seeds."""
        self.counts: list[int] = []
        """Per scorer, how many rows of :attr:`prefix` its floor lets through."""


def _grouped(scorers: list[Scorer], k: int) -> list[_Group]:
    """The scorers in groups that share seeds and bounds (see :class:`_Group`)."""
    by_key: dict[Any, list[Scorer]] = {}
    for scorer in scorers:
        query = scorer.query
        # Past MAX_NAME_SEEDS name hits, some hits are not seeds: a look-alike order (which
        # depends on the recorded path too) would make bounds differ within a group.
        shared = scorer.cache_key is not None and not (
            query.occurrence is not None and scorer.name_hits().size > MAX_NAME_SEEDS
        )
        key = (
            (query.name_raw, scorer.cache_key, query.occurrence, query.group_path)
            if shared
            else id(scorer)
        )
        by_key.setdefault(key, []).append(scorer)
    return [_Group(members, k) for members in by_key.values()]


def _beyond(group: _Group, k: int, lines: dict[int, FloatArray]) -> _Job | None:
    """Find, for every scorer of ``group``, the rows past its seeds whose bound (name at the
    fuzzy cap) reaches its floor: the rows the chunked loop would look at. Returns the
    names they need, exact from the lowest value at which one of them could matter."""
    group.floors = [floor_of(scores, k) for scores, _ in group.scored]
    upper, leader = group.upper, group.scorers[0]
    if group.order is None:  # one scorer, whose bound order is not shared
        reach = upper >= group.floors[0]
        if not past_seeds(reach, group.rows):
            # Every row that reaches the floor is a seed (most references): no row past
            # them needs a name or a bound, and the prefix stays empty.
            group.counts = [0]
            return None
        rest = np.flatnonzero(reach)
        line = rest[np.argsort(-upper[rest], kind="stable")]
        group.counts = [int(line.size)]
    else:
        line = group.order
        # The order is by descending bound: the rows that reach a floor come first.
        ascending = lines.get(id(line))
        if ascending is None:
            ascending = lines[id(line)] = -upper[line]
        counts = np.searchsorted(ascending, [-floor for floor in group.floors], side="right")
        group.counts = counts.tolist()
    group.prefix = line[: max(group.counts)]
    group.free = ~among(group.prefix, group.rows)
    if not leader.has_name or not group.free.any():
        return None
    cutoffs = _name_cutoffs(leader, group)
    return (leader, group.prefix[group.free], min(cutoffs)) if cutoffs else None


def _name_cutoffs(leader: Scorer, group: _Group) -> list[float]:
    """Per scorer with rows past its seeds, the name similarity under which none of them
    can reach its floor."""
    rows, free = group.prefix, group.free
    total = leader.num[rows] + (leader.query.bbox_weight if leader.has_box else 0.0)
    if leader.has_container:
        total = total + leader.container_weight[rows]
    # Running maxima over the rows past the seeds: any scorer's rows are a prefix.
    gain = np.maximum.accumulate(np.where(free, leader.mult[rows] / leader.den[rows], -np.inf))
    most = np.maximum.accumulate(np.where(free, total, -np.inf))
    config = leader.config
    return [
        least_name(float(gain[count - 1]), float(most[count - 1]), floor, config)
        for count, floor in zip(group.counts, group.floors, strict=True)
        if count and gain[count - 1] > -np.inf
    ]


def _finished(group: _Group, k: int) -> list[tuple[Scorer, Scored]]:
    """Each scorer's result: its seeds, unless a row past them can still reach its floor
    once its name is known (then the chunked loop runs for it, as a single scoring would)."""
    leader, free = group.scorers[0], group.free
    if not free.any():  # no row past the seeds: each scorer's seeds are all it scores
        return [
            (scorer, ranked(scorer, group.rows, scores, k, known))
            for scorer, (scores, known) in zip(group.scorers, group.scored, strict=True)
        ]
    if leader.has_name:
        bound = np.where(free, leader.bound(group.prefix), -np.inf)
        best_past = np.maximum.accumulate(bound)
    else:
        best_past = np.where(np.cumsum(free) > 0, np.inf, -np.inf)
    out: list[tuple[Scorer, Scored]] = []
    for scorer, (scores, known), floor, count in zip(
        group.scorers, group.scored, group.floors, group.counts, strict=True
    ):
        if count and best_past[count - 1] >= floor:
            _remember(scorer, group.rows, known)
            seeds = Seeds(group.upper, group.order, group.rows, scores, floor, known)
            evaluated, exact, scored_known = extend(scorer, k, seeds)
            out.append((scorer, ranked(scorer, evaluated, exact, k, scored_known)))
        else:
            out.append((scorer, ranked(scorer, group.rows, scores, k, known)))
    return out


def _remember(scorer: Scorer, rows: Index, known: dict[str, FloatArray]) -> None:
    """Keep box scores computed in a batch in the scorer's cache (container scores are in
    the table's scores per path already)."""
    if "bbox" in known:
        scorer.box[rows] = known["bbox"]


def least_name(gain: float, other: float, floor: float, config: MatchConfig) -> float:
    """The least name similarity with which a row could still score ``floor``.

    The bound of a row's score (:meth:`~resolver.matcher.Scorer.bound`) is
    ``gain * (a + b x) * (other + w x)`` for a name similarity ``x``, with ``a`` the name gate
    floor, ``b = 1 - a`` and ``w`` the name weight. It grows with ``x``; solved for ``floor``
    it is a quadratic, whose positive root, less a small slack, is returned.

    Parameters
    ----------
    gain:
        The largest gate over denominator (role gate x visibility / sum of weights) of the
        rows concerned.
    other:
        The largest weighted sum of their other signals, box and container counted perfect.
    floor:
        The score a row must reach to matter.
    config:
        The name gate floor and name weight.

    Returns
    -------
    float
        In ``[0, 1]``: no row whose name scores under it can reach ``floor`` (0 when even
        an unrelated name could, 1 when not even an equal one can).
    """
    if gain * (other + config.w_name) < floor:
        return 1.0  # not even an equal name reaches the floor (the gate is 1 there)
    a = config.name_gate_floor
    quad = (1.0 - a) * config.w_name
    lin = a * config.w_name + (1.0 - a) * other
    const = a * other - floor / gain
    if not math.isfinite(const):
        return 1.0  # a gain this small leaves every row under the floor
    if const >= 0.0:
        return 0.0  # even a name that agrees in nothing reaches the floor
    # The positive root, in the form that keeps its precision when ``quad`` is tiny.
    denominator = lin + math.sqrt(lin * lin - 4.0 * quad * const)
    if denominator <= 0.0:
        return 1.0  # the name does not move the bound, which stays under the floor
    x = -2.0 * const / denominator
    if math.isnan(x):
        return 0.0  # no usable cutoff: every name is computed exactly
    return min(max(x - _CUTOFF_SLACK, 0.0), 1.0)


def _fill_names(jobs: list[_Job]) -> None:
    """Compute the fuzzy name scores ``jobs`` ask for, each needed value once."""
    # References with the same name share one cache: ask once per name, from the lowest
    # value any of them needs exactly.
    wanted: dict[str, tuple[Scorer, list[Index], float]] = {}
    for scorer, rows, cutoff in jobs:
        if not scorer.has_name or not rows.size:
            continue
        key = scorer.query.name_raw
        first, parts, lowest = wanted.get(key, (scorer, [], cutoff))
        parts.append(rows)
        wanted[key] = (first, parts, min(lowest, cutoff))
    pending: list[_Job] = []
    for scorer, parts, cutoff in wanted.values():
        rows = scorer.pending_names(parts[0] if len(parts) == 1 else np.concatenate(parts))
        if rows.size:
            pending.append((scorer, rows, cutoff))
    # token_set_ratio counts only under the factor: the names whose cutoff is above it need
    # ratio alone, and go in a batch of their own.
    factor = NAME_TIERS["token_set_factor"]
    for batch in (
        [job for job in pending if job[2] > factor],
        [job for job in pending if job[2] <= factor],
    ):
        if batch:
            _fuzzy_batch(batch)


def _fuzzy_batch(jobs: list[_Job]) -> None:
    """One rapidfuzz pass for all ``jobs``, from the lowest cutoff: every query name against
    every distinct row name any of them needs (one ``cdist``), or, when the queries need
    few of those names each, the (query, name) pairs they need, each once (one ``cpdist``)."""
    index = index_of(jobs[0][0].table)
    codes, names = index.norm_codes
    parts = [codes[rows] for _, rows, _ in jobs]
    needed = distinct(np.concatenate(parts))
    queries: dict[str, int] = {}
    for scorer, _, _ in jobs:
        queries.setdefault(scorer.query.name_norm, len(queries))
    floor = min(cutoff for _, _, cutoff in jobs)
    # Each job's (query, name) pairs as places in the query x name matrix.
    places = np.concatenate([
        queries[scorer.query.name_norm] * needed.size + np.searchsorted(needed, part)
        for (scorer, _, _), part in zip(jobs, parts, strict=True)
    ])  # fmt: skip
    pairs, pair_of = np.unique(places, return_inverse=True)
    texts = list(queries)
    cost = PAIR_COST[floor > NAME_TIERS["token_set_factor"]]
    if pairs.size * cost < len(texts) * needed.size:
        asked = [texts[q] for q in (pairs // needed.size).tolist()]
        given = [names[c] for c in needed[pairs % needed.size].tolist()]
        values = fuzzy_pairs(asked, given, floor=floor)[pair_of]
    else:
        matrix = fuzzy_matrix(texts, [names[c] for c in needed.tolist()], floor=floor)
        values = matrix.ravel()[places]
    start = 0
    for scorer, rows, _ in jobs:
        scorer.set_fuzzy(rows, values[start : start + rows.size])
        start += rows.size


# -- exact scores of many (scorer, row) pairs ------------------------------------------------


class _Pairs:
    """Rows of many scorers laid end to end: pair ``p`` is row ``flat[p]`` of scorer
    ``owner[p]``."""

    def __init__(self, scorers: list[Scorer], rows: list[Index]) -> None:
        self.scorers = scorers
        self.rows = rows
        sizes = [r.size for r in rows]
        self.bounds = list(itertools.pairwise([0, *itertools.accumulate(sizes)]))
        self.flat = np.concatenate(rows)
        self.owner = np.repeat(np.arange(len(rows)), [r.size for r in rows])

    def each(self, values: list[float] | list[bool]) -> npt.NDArray[Any]:
        """One value per scorer, spread over its pairs."""
        return np.asarray(values)[self.owner]

    def gather(self, columns: list[FloatArray]) -> FloatArray:
        """Each scorer's per-row vector at its rows."""
        return np.concatenate([c[r] for c, r in zip(columns, self.rows, strict=True)])

    def split(self, values: FloatArray) -> list[FloatArray]:
        """Per scorer, its pairs' values."""
        return [values[start:end] for start, end in self.bounds]


PART_PAIRS: Final[int] = 8192
"""Pairs scored per pass: large temporary arrays come from fresh memory pages each time
(the allocator returns them to the system when freed), which costs more than the extra
numpy calls of several smaller passes."""


def _scored_in_parts(
    scorers: list[Scorer], rows: list[Index]
) -> list[tuple[FloatArray, dict[str, FloatArray]]]:
    """:func:`score_pairs` in passes of about :data:`PART_PAIRS` pairs."""
    out: list[tuple[FloatArray, dict[str, FloatArray]]] = []
    start, size = 0, 0
    for i, part in enumerate(rows):
        size += part.size
        if size >= PART_PAIRS or i == len(rows) - 1:
            out.extend(score_pairs(scorers[start : i + 1], rows[start : i + 1]))
            start, size = i + 1, 0
    return out


def score_pairs(
    scorers: list[Scorer], rows: list[Index]
) -> list[tuple[FloatArray, dict[str, FloatArray]]]:
    """``scorer.full(rows)`` for each scorer and its rows, over all pairs at once.

    Every pair goes through the same operations, in the same order, as in
    :meth:`~resolver.matcher.Scorer.full`, so the scores are the same numbers. Names must
    already be known for every row (:meth:`~resolver.matcher.Scorer.pending_names`).

    Returns
    -------
    list of (scores, known)
        Per scorer, the scores of its rows and, in ``known``, their box (``"bbox"``) and
        container (``"container"``) scores where the scorer has those signals.
    """
    if not scorers:
        return []
    pairs = _Pairs(scorers, rows)
    config = scorers[0].config
    total = pairs.gather([s.num for s in scorers])
    gate = pairs.gather([s.mult for s in scorers])
    known: list[tuple[str, FloatArray, list[bool]]] = []
    with_box = pairs.each([s.has_box for s in scorers])
    if with_box.any():
        box = _pair_boxes(pairs, with_box)
        known.append(("bbox", box, [s.has_box for s in scorers]))
        _add(total, with_box, pairs.each([s.query.bbox_weight for s in scorers]) * box)
        gated = with_box & pairs.each([s.query.box_same_space for s in scorers])
        floor = config.bbox_gate_floor
        _scale(gate, gated, floor + (1.0 - floor) * box)
    with_name = pairs.each([s.has_name for s in scorers])
    if with_name.any():
        name = pairs.gather([s.name for s in scorers])
        _add(total, with_name, config.w_name * name)
        floor = config.name_gate_floor
        _scale(gate, with_name, floor + (1.0 - floor) * name)
    with_container = pairs.each([s.has_container for s in scorers])
    if with_container.any():
        cont = _pair_containers(pairs, with_container)
        known.append(("container", cont, [s.has_container for s in scorers]))
        weight = pairs.gather([s.container_weight for s in scorers])
        _add(total, with_container, weight * cont)
        floor = config.container_gate_floor
        _scale(gate, with_container, np.where(weight > 0, floor + (1.0 - floor) * cont, 1.0))
    scores = pairs.split(gate * total / pairs.gather([s.den for s in scorers]))
    parts = [(name, pairs.split(values), used) for name, values, used in known]
    return [
        (scores[i], {name: split[i] for name, split, used in parts if used[i]})
        for i in range(len(scorers))
    ]


def _add(target: FloatArray, where: npt.NDArray[np.bool_], values: FloatArray) -> None:
    """``target += values`` at ``where``."""
    if where.all():
        target += values
    else:
        target[where] += values[where]


def _scale(target: FloatArray, where: npt.NDArray[np.bool_], values: FloatArray) -> None:
    """``target *= values`` at ``where``."""
    if where.all():
        target *= values
    else:
        target[where] *= values[where]


def _pair_boxes(pairs: _Pairs, wanted: npt.NDArray[np.bool_]) -> FloatArray:
    """Box agreement of the ``wanted`` pairs (NaN elsewhere), as ``bbox_scores`` gives it."""
    scorers = pairs.scorers
    boxes = [s.query.bbox or (np.nan,) * 4 for s in scorers]
    diags = [box_diagonal(b) if s.has_box else np.nan for s, b in zip(scorers, boxes, strict=True)]
    at = np.flatnonzero(wanted)
    who = pairs.owner[at]
    edges = np.asarray(boxes, dtype=np.float64)[who]
    geometry = scorers[0].index.geometry.take(pairs.flat[at])
    ref = (edges[:, 0], edges[:, 1], edges[:, 2], edges[:, 3])
    unknown = scorers[0].config.bbox_unknown
    out = np.full(pairs.flat.size, np.nan)
    out[at] = box_agreement(ref, np.asarray(diags)[who], geometry, unknown)
    for k in range(max((len(s.query.bbox_alts) for s in scorers), default=0)):
        # The other readings of a box recorded on another screen size (Query.bbox_alts).
        alts = [s.query.bbox_alts[k] if k < len(s.query.bbox_alts) else None for s in scorers]
        has = np.asarray([a is not None for a in alts])[who]
        alt_boxes = [a or b for a, b in zip(alts, boxes, strict=True)]
        alt_diags = [box_diagonal(b) if s.has_box else np.nan
                     for s, b in zip(scorers, alt_boxes, strict=True)]  # fmt: skip
        edges = np.asarray(alt_boxes, dtype=np.float64)[who]
        second = box_agreement(
            (edges[:, 0], edges[:, 1], edges[:, 2], edges[:, 3]),
            np.asarray(alt_diags)[who], geometry, unknown,
        )  # fmt: skip
        out[at] = np.where(has, np.maximum(out[at], second), out[at])
    return out


def _pair_containers(pairs: _Pairs, wanted: npt.NDArray[np.bool_]) -> FloatArray:
    """Container-path similarity of the ``wanted`` pairs (0 elsewhere), as
    ``Scorer.container_scores`` gives it: each vocabulary's distinct paths and recorded
    entries once for all scorers."""
    scorers = pairs.scorers
    out = np.zeros(pairs.flat.size)
    for ancestors in (False, True):
        chosen = [s.has_container and s.query.ancestors == ancestors for s in scorers]
        at = np.flatnonzero(wanted & pairs.each(chosen))
        if at.size:
            out[at] = _path_pairs(pairs, at)
    return out


def _path_pairs(pairs: _Pairs, at: Index) -> FloatArray:
    """The recorded paths against the rows' paths for pairs ``at`` (one vocabulary): a
    pair's score depends only on its scorer's recorded path and its row's path, each such
    couple once, read from the table's scores per path
    (:meth:`~resolver.matcher.Scorer.path_cache`) where an earlier scoring made them."""
    scorers = pairs.scorers
    vocab, cache = scorers[int(pairs.owner[at[0]])].vocabulary()
    size = len(vocab.paths)
    codes = pairs.owner[at] * size + vocab.path_of_row[pairs.flat[at]]
    couples, couple_of = distinct_codes(codes, len(scorers) * size)
    who, path = np.divmod(couples, size)
    owners = distinct(who)
    caches = [scorers[i].path_cache(vocab) for i in owners.tolist()]
    place = np.searchsorted(owners, who)
    scores: FloatArray = np.stack(caches)[place, path]
    missing = np.flatnonzero(np.isnan(scores))
    if missing.size:
        scores[missing] = _couple_scores(scorers, who[missing], path[missing], (vocab, cache))
        for j, by_path in enumerate(caches):
            mine = missing[place[missing] == j]
            by_path[path[mine]] = scores[mine]
    by_pair: FloatArray = scores[couple_of]
    return by_pair


def _couple_scores(
    scorers: list[Scorer], who: Index, path: Index, vocabulary: tuple[ContainerVocab, BoundedCache]
) -> FloatArray:
    """Scorer ``who[i]``'s recorded path against path ``path[i]`` of the vocabulary, for
    every ``i``, each recorded entry's similarities from the table's cache."""
    vocab, cache = vocabulary
    paths, path_of = distinct_codes(path, len(vocab.paths))
    owners = distinct(who).tolist()
    users = [scorers[i] for i in owners]
    items: dict[str, int] = {}
    depth = max(len(s.query.container) for s in users)
    item_at = np.full((len(scorers), depth), -1, dtype=np.intp)
    weight_at = np.zeros((len(scorers), depth))
    weight_sum = np.ones(len(scorers))
    for i, scorer in zip(owners, users, strict=True):
        summed = 0.0
        for d, item in enumerate(scorer.query.container):
            weight = entry_weight(d, item)
            item_at[i, d], weight_at[i, d] = items.setdefault(item, len(items)), weight
            summed += weight
        weight_sum[i] = summed
    sub = vocab.matrix[paths]  # paths x entries, -1 padded
    best = _best_by_path(list(items), (item_at[who], path_of, sub), vocab, cache)
    # Level by level, as the single scorer adds them up.
    total = np.zeros(who.size)
    for d in range(depth):
        item = item_at[who, d]
        live = item >= 0
        if live.all():
            total += weight_at[who, d] * best[item * paths.size + path_of]
        else:
            owner = who[live]
            total[live] += weight_at[owner, d] * best[item[live] * paths.size + path_of[live]]
    by_couple: FloatArray = total / weight_sum[who]
    return by_couple


def _best_by_path(
    items: list[str],
    layout: tuple[Index, Index, Index],
    vocab: ContainerVocab,
    cache: BoundedCache,
) -> FloatArray:
    """Per recorded entry and path (flat, entry-major), the best agreement of any of the
    path's entries, from the table's cache of entry similarities (NaN where no pair records
    the entry on the path). ``layout``: each pair's
    recorded entries by level (-1 past its path), each pair's path, and the paths' entries.
    Similarities still unknown where a pair needs them are computed for the paths of the
    pairs that record the entry, as single scorings would; no pair reads the others."""
    entries_of, path_of, sub = layout
    paths = sub.shape[0]
    # Only the (entry, path) places some pair reads: each the best over the path's entries.
    read = np.zeros(len(items) * paths, dtype=bool)
    read[(entries_of * paths + path_of[:, None])[entries_of >= 0]] = True
    keys = np.flatnonzero(read)
    entry_at, path_at = np.divmod(keys, paths)
    unknown = np.full(len(vocab.raw) + 1, np.nan)
    rows = [cache.get(item, unknown) for item in items]
    best: FloatArray = np.stack(rows)[entry_at[:, None], sub[path_at]].max(axis=1)
    lacking = np.isnan(best)
    if lacking.any():
        for j in distinct(entry_at[lacking]).tolist():
            theirs = sub[path_at[entry_at == j]]
            rows[j] = entry_sims(items[j], distinct(theirs[theirs >= 0]), vocab, cache)
        best = np.stack(rows)[entry_at[:, None], sub[path_at]].max(axis=1)
    out = np.full(len(items) * paths, np.nan)
    out[keys] = best
    return out
