"""Score one reference against every row of a :class:`~resolver.table.CandidateTable` at once.

The cheap signals (role, box, state, platform IDs) are numpy expressions over all rows. Names
and container paths cost more, so they are computed only where they can still matter: an
upper bound on every row's score (name and container counted as perfect) is compared with
the k-th best exact score among the obvious candidates (exact/normalised/masked name hits via
hash lookups, and the rows with the highest bounds); only rows whose bound reaches it get the
rapidfuzz batch scorers, and only those whose bound still reaches it after the name get the
container comparison. The top-k this returns equals a full evaluation of every row (the tests
check it against a plain-Python reference scorer).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Final

import numpy as np
import numpy.typing as npt
from rapidfuzz import fuzz, process

from .config import MatchConfig
from .models import SemanticElementRef
from .roles import COMPAT, canonical_role, role_code
from .table import CandidateTable
from .text import NAME_TIERS, collapse, container_similarity, mask_digits, normalize

__all__ = ["Query", "Scored", "bbox_scores", "score_table"]

FloatArray = npt.NDArray[np.float64]
Index = npt.NDArray[np.intp]

_ID_FIELDS: Final[tuple[tuple[str, str], ...]] = (
    ("automation_id", "automation_id"),
    ("accessibility_id", "accessibility_id"),
    ("xpath", "xpath"),
    ("css_selector", "css"),
)
_MIN_BOUND: Final[float] = 0.05  # rows that cannot reach this are never reported


def normalize_xpath(xpath: str) -> str:
    """Drop ``[1]`` predicates and a trailing slash so equivalent absolute paths compare equal."""
    return xpath.replace("[1]", "").rstrip("/") or "/"


@dataclass(frozen=True)
class Query:
    """A reference prepared for one table (roles canonicalised, box rescaled)."""

    name_raw: str
    name_norm: str
    name_mask: str
    role: str | None
    bbox: tuple[float, float, float, float] | None
    bbox_weight: float
    container: tuple[str, ...]
    enabled: bool | None
    focused: bool | None
    ids: tuple[tuple[str, str], ...]

    @classmethod
    def build(cls, ref: SemanticElementRef, table: CandidateTable, config: MatchConfig) -> Query:
        """Prepare ``ref`` for ``table`` (rescales the box when both screen sizes are known)."""
        name_raw = collapse(ref.name) if ref.name else ""
        name_norm = normalize(name_raw) if name_raw else ""
        bbox = ref.bbox
        weight = config.w_bbox
        if bbox is not None and ref.screen_size and table.screen_size:
            sx = table.screen_size[0] / ref.screen_size[0]
            sy = table.screen_size[1] / ref.screen_size[1]
            if abs(sx - 1.0) > 1e-6 or abs(sy - 1.0) > 1e-6:
                bbox = (bbox[0] * sx, bbox[1] * sy, bbox[2] * sx, bbox[3] * sy)
        if table.coord_space == "none":
            weight = 0.0
        elif (
            ref.coord_space
            and table.coord_space != "unknown"
            and ref.coord_space != table.coord_space
        ):
            weight *= config.bbox_other_space
        ids: list[tuple[str, str]] = []
        for ref_field, column in _ID_FIELDS:
            value = getattr(ref, ref_field)
            if value and column in table.platform_ids:
                ids.append((column, normalize_xpath(value) if column == "xpath" else value))
        return cls(
            name_raw=name_raw,
            name_norm=name_norm,
            name_mask=mask_digits(name_norm) if name_norm else "",
            role=canonical_role(ref.role) if ref.role else None,
            bbox=bbox if weight > 0 else None,
            bbox_weight=weight,
            container=ref.container_path,
            enabled=ref.enabled,
            focused=ref.focused,
            ids=tuple(ids),
        )


@dataclass(frozen=True)
class Scored:
    """Top rows of one table for one query, best first, with per-signal evidence."""

    rows: Index
    scores: FloatArray
    signals: dict[str, FloatArray] = field(default_factory=dict)
    evaluated: int = 0


def bbox_scores(
    ref_box: tuple[float, float, float, float], boxes: FloatArray, unknown: float
) -> FloatArray:
    """Box agreement in ``[0, 1]`` for every row: 0.5 centre distance + 0.25 IoU + 0.25 size.

    Distance counts relative to the element's size (``exp(-d / (2 * diagonal + 50))``), so a
    50 px shift of a small button costs more than of a large panel but never everything.
    """
    left, top, right, bottom = ref_box
    rw, rh = right - left, bottom - top
    rcx, rcy = (left + right) / 2.0, (top + bottom) / 2.0
    bl, bt, br, bb = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    cw, ch = br - bl, bb - bt
    dist = np.hypot((bl + br) / 2.0 - rcx, (bt + bb) / 2.0 - rcy)
    diag = max(math.hypot(rw, rh), 24.0)
    dist_sim = np.exp(-dist / (2.0 * diag + 50.0))
    iw = np.clip(np.minimum(br, right) - np.maximum(bl, left), 0.0, None)
    ih = np.clip(np.minimum(bb, bottom) - np.maximum(bt, top), 0.0, None)
    inter = iw * ih
    union = cw * ch + rw * rh - inter
    with np.errstate(invalid="ignore", divide="ignore"):
        iou = np.where(union > 0, inter / union, (dist < 1.0).astype(np.float64))
        size = (np.minimum(cw, rw) / np.maximum(np.maximum(cw, rw), 1e-9)) * (
            np.minimum(ch, rh) / np.maximum(np.maximum(ch, rh), 1e-9)
        )
    size = np.where((cw <= 0) & (rw <= 0), 1.0, size)
    score = 0.5 * dist_sim + 0.25 * iou + 0.25 * size
    return np.where(np.isnan(score), unknown, score)


def _state_scores(query: Query, table: CandidateTable) -> FloatArray | None:
    parts: list[FloatArray] = []
    for wanted, column in ((query.enabled, table.enabled), (query.focused, table.focused)):
        if wanted is None:
            continue
        parts.append(np.where(column < 0, 0.5, (column == int(wanted)).astype(np.float64)))
    if not parts:
        return None
    return np.mean(parts, axis=0) if len(parts) > 1 else parts[0]


def _id_column(table: CandidateTable, column: str) -> npt.NDArray[np.object_]:
    key = f"idcol_{column}"
    cached = table._cache.get(key)
    if cached is None:
        values = table.platform_ids[column]
        if column == "xpath":
            values = tuple(normalize_xpath(v) if v else v for v in values)
        cached = np.array(values, dtype=object)
        table._cache[key] = cached
    return cached


class _Scorer:
    """Holds the per-row vectors of one (query, table) pair and evaluates rows lazily."""

    def __init__(self, query: Query, table: CandidateTable, config: MatchConfig) -> None:
        self.query = query
        self.table = table
        self.config = config
        n = len(table)
        num = np.zeros(n, dtype=np.float64)
        den = 0.0
        mult = np.ones(n, dtype=np.float64)
        self.signals: dict[str, FloatArray] = {}
        if query.role is not None:
            compat = COMPAT[role_code(query.role)][table.role_codes].astype(np.float64)
            num += config.w_role * compat
            den += config.w_role
            mult *= np.minimum(1.0, config.role_gate_floor + compat)
            self.signals["role"] = compat
        mult *= np.where(table.visible == 0, config.hidden_factor, 1.0)
        if query.bbox is not None:
            weight = query.bbox_weight
            box = bbox_scores(query.bbox, table.bboxes, config.bbox_unknown)
            num += weight * box
            den += weight
            self.signals["bbox"] = box
        state = _state_scores(query, table)
        if state is not None:
            num += config.w_state * state
            den += config.w_state
            self.signals["state"] = state
        for column, value in query.ids:
            hit = (_id_column(table, column) == value).astype(np.float64)
            num += config.w_id * hit
            den += config.w_id
            self.signals[f"id:{column}"] = hit
        self.has_name = bool(query.name_raw)
        self.has_container = bool(query.container)
        if self.has_name:
            den += config.w_name
        if self.has_container:
            den += config.w_container
        self.num = num
        self.den = den if den > 0 else 1.0
        self.mult = mult
        self.name = np.full(n, np.nan)
        self.container = np.full(n, np.nan)

    # -- exact parts ----------------------------------------------------------------------

    def name_scores(self, rows: Index) -> FloatArray:
        """Name similarity for ``rows`` (tiers by hash lookup, fuzzy by rapidfuzz batch)."""
        todo = rows[np.isnan(self.name[rows])]
        if todo.size:
            q = self.query
            table = self.table
            norm = table.names_norm
            subset = [norm[i] for i in todo]
            if q.name_norm:
                ratio = process.cdist(
                    [q.name_norm], subset, scorer=fuzz.ratio, dtype=np.float64, workers=1
                )[0]
                tset = process.cdist(
                    [q.name_norm], subset, scorer=fuzz.token_set_ratio, dtype=np.float64, workers=1
                )[0]
                fuzzy = np.maximum(ratio, NAME_TIERS["token_set_factor"] * tset) / 100.0
                fuzzy = np.minimum(fuzzy.astype(np.float64), NAME_TIERS["fuzzy_cap"])
                empty = np.fromiter((not s for s in subset), dtype=bool, count=len(subset))
                fuzzy[empty] = 0.0
            else:
                fuzzy = np.zeros(len(subset))
            values = fuzzy
            for kind, key, tier in (
                ("mask", q.name_mask, "masked"),
                ("norm", q.name_norm, "normalized"),
                ("raw", q.name_raw, "exact"),
            ):
                if key:
                    hits = np.isin(todo, table.lookup(kind, key))
                    values = np.where(hits, NAME_TIERS[tier], values)
            self.name[todo] = values
        return self.name[rows]

    def container_scores(self, rows: Index) -> FloatArray:
        """Container-path similarity for ``rows``, computed once per distinct path."""
        todo = rows[np.isnan(self.container[rows])]
        if todo.size:
            codes, paths = self.table.container_ids
            memo: dict[int, float] = {}
            out = np.empty(todo.size)
            for j, row in enumerate(todo):
                code = int(codes[row])
                sim = memo.get(code)
                if sim is None:
                    sim = memo[code] = container_similarity(self.query.container, paths[code])
                out[j] = sim
            self.container[todo] = out
        return self.container[rows]

    def full(self, rows: Index) -> FloatArray:
        """Exact scores of ``rows``."""
        total = self.num[rows].copy()
        gate = self.mult[rows].copy()
        if self.has_name:
            name = self.name_scores(rows)
            total += self.config.w_name * name
            gate *= self.config.name_gate_floor + (1.0 - self.config.name_gate_floor) * name
        if self.has_container:
            cont = self.container_scores(rows)
            total += self.config.w_container * cont
            floor = self.config.container_gate_floor
            gate *= floor + (1.0 - floor) * cont
        return np.asarray(gate * total / self.den, dtype=np.float64)

    def bound(self, rows: Index | None = None, *, with_name: bool = False) -> FloatArray:
        """Upper bound of the score: name (unless known) and container counted as perfect."""
        sl: Index | slice = slice(None) if rows is None else rows
        total = self.num[sl].copy()
        gate = self.mult[sl].copy()
        if self.has_name:
            if with_name and rows is not None:
                name = self.name[rows]
                total += self.config.w_name * name
                gate *= self.config.name_gate_floor + (1.0 - self.config.name_gate_floor) * name
            else:
                total += self.config.w_name
        if self.has_container:
            total += self.config.w_container
        return np.asarray(gate * total / self.den, dtype=np.float64)


def _kth_best(values: FloatArray, k: int) -> float:
    if values.size == 0:
        return _MIN_BOUND
    if values.size < k:
        return _MIN_BOUND
    return max(float(np.partition(values, values.size - k)[values.size - k]), _MIN_BOUND)


def score_table(
    ref: SemanticElementRef, table: CandidateTable, config: MatchConfig, *, k: int | None = None
) -> Scored:
    """The ``k`` best rows of ``table`` for ``ref`` (``k`` defaults to ``config.top_k + 5``).

    Returns exact scores for those rows; rows that cannot reach the k-th best are skipped
    without computing their names or containers.
    """
    n = len(table)
    k = k if k is not None else config.top_k + 5
    if n == 0:
        return Scored(np.empty(0, dtype=np.intp), np.empty(0))
    query = Query.build(ref, table, config)
    scorer = _Scorer(query, table, config)
    if not (scorer.has_name or scorer.has_container):
        scores = scorer.full(np.arange(n, dtype=np.intp))
        order = np.lexsort((np.arange(n), -scores))[:k]
        return _finish(scorer, order, scores[order], n)

    upper = scorer.bound()
    # Seeds: exact-ish name hits and the rows with the best bounds.
    seeds: list[Index] = []
    if query.name_raw:
        for kind, key in (
            ("raw", query.name_raw),
            ("norm", query.name_norm),
            ("mask", query.name_mask),
        ):
            if key:
                seeds.append(table.lookup(kind, key)[:4096])
    top = min(k, n)
    seeds.append(np.argpartition(-upper, top - 1)[:top].astype(np.intp))
    evaluated = np.unique(np.concatenate(seeds))
    exact = scorer.full(evaluated)
    floor = _kth_best(exact, k)
    # Stage 1: rows whose bound reaches the floor get their names scored.
    rest = np.flatnonzero(upper >= floor)
    rest = rest[~np.isin(rest, evaluated, assume_unique=True)]
    if rest.size:
        if scorer.has_name:
            scorer.name_scores(rest)
            rest = rest[scorer.bound(rest, with_name=True) >= floor]
        if rest.size:
            evaluated = np.concatenate([evaluated, rest])
            exact = np.concatenate([exact, scorer.full(rest)])
    order = np.lexsort((evaluated, -exact))[:k]
    return _finish(scorer, evaluated[order], exact[order], int(evaluated.size))


def _finish(scorer: _Scorer, rows: Index, scores: FloatArray, evaluated: int) -> Scored:
    signals = {name: values[rows] for name, values in scorer.signals.items()}
    if scorer.has_name:
        signals["name"] = scorer.name_scores(rows)
    if scorer.has_container:
        signals["container"] = scorer.container_scores(rows)
    return Scored(rows=rows, scores=scores, signals=signals, evaluated=evaluated)
