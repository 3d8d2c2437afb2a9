"""A learned pairwise model: how likely a row is the element a web reference recorded.

The hand scorer (:mod:`resolver.matcher`) weighs name, role, box, containers and web evidence
with fixed weights and refuses under a threshold. A real redesign (a site rebuilt years
later) renames texts, moves and restyles elements, and rewrites the markup around them; the
evidence that is left (a similar xpath, the same link target, the texts around it, a class
that survived) is spread over many weak signals. This model weighs those signals as they
were found to predict the right element on real redesigns (a logistic regression over
:data:`FEATURES`, fitted by ``benchmarks/similo/train.py`` on the tune apps of the Similo
pairs only), and the rule ``accept.pairwise`` (:mod:`resolver.decide.learned`) uses it to
break a tie the hand rules could not (never between look-alikes, never against a refusal).

Every feature compares the reference with each row, vectorised over the table: ``0`` where
either side lacks the field, with a ``has_*`` feature telling the model which are present.
The model is package data (``resolver/data/pairwise.json``): numbers, run with numpy,
deterministic.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

import numpy as np
import numpy.typing as npt
from rapidfuzz import fuzz, process

from .index import index_of
from .matcher import bbox_scores
from .models import SemanticElementRef
from .roles import ROLE_INDEX, canonical_role
from .table import CandidateTable
from .text import collapse, normalize
from .web import WebIndex, WebQuery, href_key, nearby_key, stable_classes

__all__ = [
    "FEATURES",
    "MODEL_FILE",
    "PairwiseModel",
    "applicable",
    "load_model",
    "pair_features",
]

FloatArray = npt.NDArray[np.float64]

FEATURES: Final[tuple[str, ...]] = (
    "name_exact",
    "name_fuzzy",
    "name_both_empty",
    "role",
    "tag",
    "has_class",
    "class",
    "has_href",
    "href",
    "has_attr",
    "attr",
    "dom_id",
    "xpath",
    "xpath_tail",
    "has_nearby",
    "nearby",
    "has_box",
    "box",
)
"""The inputs of the model, one column each (see :func:`pair_features`)."""
MODEL_FILE: Final[str] = "pairwise.json"
"""The model's file in ``resolver/data``."""
_XPATH_TAIL: Final[int] = 3  # the last steps of an xpath: the element and its parents


@dataclass(frozen=True)
class PairwiseModel:
    """A logistic regression over standardised :data:`FEATURES`."""

    features: tuple[str, ...]
    mean: FloatArray
    scale: FloatArray
    weights: FloatArray
    bias: float

    def probabilities(self, x: FloatArray) -> FloatArray:
        """The probability of each row (a row of ``x``) being the recorded element."""
        z = ((x - self.mean) / self.scale) @ self.weights + self.bias
        out: FloatArray = 1.0 / (1.0 + np.exp(-np.clip(z, -50.0, 50.0)))
        return out

    def contributions(self, x: FloatArray) -> dict[str, float]:
        """What each feature of one row (``x`` of shape ``(F,)``) adds to its log-odds."""
        terms = (x - self.mean) / self.scale * self.weights
        return {name: round(float(t), 3) for name, t in zip(self.features, terms, strict=True)}

    def to_json(self) -> dict[str, object]:
        """The model as the JSON object :func:`load_model` reads."""
        return {
            "features": list(self.features),
            "mean": self.mean.tolist(),
            "scale": self.scale.tolist(),
            "weights": self.weights.tolist(),
            "bias": self.bias,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> PairwiseModel:
        """Read a model written by :meth:`to_json` (its features must be :data:`FEATURES`)."""
        features = tuple(str(f) for f in data["features"])  # type: ignore[attr-defined]
        if features != FEATURES:
            raise ValueError(f"the model's features {features} are not {FEATURES}")

        def column(key: str) -> FloatArray:
            values = np.asarray(data[key], dtype=np.float64)
            if values.shape != (len(FEATURES),) or not np.isfinite(values).all():
                raise ValueError(f"the model's {key} is not {len(FEATURES)} finite numbers")
            return values

        scale = column("scale")
        if (scale <= 0).any():
            raise ValueError("the model's scales must be positive")
        bias = float(data["bias"])  # type: ignore[arg-type]
        return cls(features, column("mean"), scale, column("weights"), bias)


@cache
def load_model() -> PairwiseModel:
    """The shipped model (read once)."""
    text = resources.files("resolver.data").joinpath(MODEL_FILE).read_text("utf-8")
    return PairwiseModel.from_json(json.loads(text))


def applicable(ref: SemanticElementRef, table: CandidateTable) -> bool:
    """Whether the model has what it was fitted on: a web reference (an xpath or a tag) and a
    table of web rows (their xpaths or tags)."""
    if not (ref.xpath or ref.tag):
        return False
    columns = table.platform_ids
    return any(columns.get("xpath") or ()) or any(columns.get("tag") or ())


def pair_features(ref: SemanticElementRef, table: CandidateTable) -> FloatArray:
    """Per row, the :data:`FEATURES` of the pair (reference, row): shape ``(N, F)``."""
    n = len(table)
    out = np.zeros((n, len(FEATURES)))
    col = {name: i for i, name in enumerate(FEATURES)}
    _names(ref, table, out, col)
    if ref.role:
        code = ROLE_INDEX.get(canonical_role(ref.role))
        if code is not None:
            out[:, col["role"]] = table.role_codes == code
    web = table.derived(WebIndex) if n else None
    if web is not None:
        _web(ref, table, web, out, col)
    if ref.bbox is not None and n:
        known = ~np.isnan(table.bboxes[:, 0])
        if known.any():
            out[:, col["has_box"]] = known
            out[:, col["box"]] = np.where(known, bbox_scores(ref.bbox, table.bboxes, 0.0), 0.0)
    return out


def _names(
    ref: SemanticElementRef, table: CandidateTable, out: FloatArray, col: dict[str, int]
) -> None:
    name = normalize(collapse(ref.name)) if ref.name else ""
    names = table.names_norm
    if not name:
        out[:, col["name_both_empty"]] = index_of(table).empty_names if len(table) else 0.0
        return
    out[:, col["name_exact"]] = [m == name for m in names]
    scores = process.cdist([name], list(names), scorer=fuzz.token_set_ratio, dtype=np.float64)
    out[:, col["name_fuzzy"]] = np.where([bool(m) for m in names], scores[0] / 100.0, 0.0)


def _web(
    ref: SemanticElementRef,
    table: CandidateTable,
    web: WebIndex,
    out: FloatArray,
    col: dict[str, int],
) -> None:
    if ref.tag:
        out[:, col["tag"]] = web.tags == ref.tag.lower()
    classes = stable_classes(ref.classes)
    if classes:
        by_token, counts = web.classes
        shared = np.zeros(len(table))
        for token in classes:
            rows = by_token.get(token)
            if rows is not None:
                shared[rows] += 1.0
        present = counts > 0
        out[:, col["has_class"]] = present
        union = np.maximum(counts + len(classes) - shared, 1.0)
        out[:, col["class"]] = np.where(present, shared / union, 0.0)
    key = href_key(ref.href) if ref.href else None
    if key is not None:
        paths = web.hrefs[1]
        present = paths != None  # noqa: E711
        out[:, col["has_href"]] = present
        out[:, col["href"]] = (paths == key[1]) & present
    query = WebQuery.build(ref)
    if query is not None and query.attributes:
        have, equal = np.zeros(len(table)), np.zeros(len(table))
        for attr, value in query.attributes:
            column = web.attribute(attr)
            have += column != None  # noqa: E711
            equal += column == value
        out[:, col["has_attr"]] = have > 0
        out[:, col["attr"]] = equal / np.maximum(have, 1.0)
    if ref.dom_id:
        ids = table.platform_ids.get("dom_id") or ()
        out[:, col["dom_id"]] = [v == ref.dom_id for v in ids] if ids else 0.0
    _xpaths(ref, table, out, col)
    if query is not None and query.nearby:
        _nearby(query.nearby, web, out, col)


def _xpaths(
    ref: SemanticElementRef, table: CandidateTable, out: FloatArray, col: dict[str, int]
) -> None:
    xpaths = table.platform_ids.get("xpath")
    if not ref.xpath or not xpaths:
        return
    mine = ref.xpath.lower()
    theirs = [x.lower() if x else "" for x in xpaths]
    whole = process.cdist([mine], theirs, scorer=fuzz.ratio, dtype=np.float64)[0] / 100.0
    tail = "/".join(mine.rstrip("/").split("/")[-_XPATH_TAIL:])
    tails = ["/".join(x.rstrip("/").split("/")[-_XPATH_TAIL:]) for x in theirs]
    ends = process.cdist([tail], tails, scorer=fuzz.ratio, dtype=np.float64)[0] / 100.0
    present = np.asarray([bool(x) for x in theirs])
    out[:, col["xpath"]] = np.where(present, whole, 0.0)
    out[:, col["xpath_tail"]] = np.where(present, ends, 0.0)


def _nearby(keys: tuple[str, ...], web: WebIndex, out: FloatArray, col: dict[str, int]) -> None:
    recorded = web.recorded_nearby
    if recorded is None:
        return
    has, by_key = recorded
    share = np.zeros(has.size)
    for key in keys:
        rows = by_key.get(nearby_key(key) or key)
        if rows is not None:
            share[rows] += 1.0
    out[:, col["has_nearby"]] = has
    out[:, col["nearby"]] = share / len(keys)
