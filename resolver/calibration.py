"""How likely an answer is right: a logistic model over its score, margin and signals.

A score in ``[0, 1]`` is a weighted agreement, not a probability: 0.8 with a wide lead is
safer than 0.9 a hair ahead of a look-alike, and one score says more or less depending on
which evidence made it (a selector that vouched, a recorded link that agrees, a box far from
the recorded one). :func:`confidence` turns
an answer's score, margin and signals (:attr:`resolver.results.Candidate.signals`: which
pieces of evidence it had and how well each agreed) into an estimated probability that the
answer is the recorded element, from a logistic regression fitted on labelled outcomes the
decisions were not tuned on (``python -m benchmarks.relocation.calibrate``). The rules'
thresholds are tuned on the tune halves of the benchmarks; the held-out half of the real-page
relocation benchmark is cut again in two fixed parts, and the model is fitted on the first
(``calib``): every best candidate (answered, or refused by threshold and margin) of both
sources and every recorder, labelled right or wrong, an answer for a removed target wrong,
with the held-out Similo apps of that part (answers on the redesigned sites, and on them once
the target is removed). Its figures come from the second part (``test``), which nothing was
fitted on: a model fitted where the decisions were tuned learns how often they are right
there, and is over-confident elsewhere. It is fitted where a quarter of the targets were
removed (``--removals 12``), so that it learns what answers for removed targets look like,
and its intercept is then refitted where one in forty was (the plain run), the share the
probabilities are calibrated to. The coefficients are data (:data:`COEFFICIENTS`); the
benchmark prints new ones and how well they hold on the test part.

An answer a recorded selector vouched for has no signals; the model has a term for that.

``MatchConfig.min_confidence`` (default 0: off) refuses every answer under a probability,
however it was reached: one option to trade coverage for fewer wrong answers and fewer
answers for removed targets (the risk/coverage table of benchmarks/RESULTS.md).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Final

__all__ = ["COEFFICIENTS", "MARGIN_CAP", "SIGNALS", "confidence", "features"]

MARGIN_CAP: Final[float] = 0.12
"""Margins beyond this are not measured exactly (rows further behind are not scored), so the
model sees ``min(margin, MARGIN_CAP)``."""

SIGNALS: Final[tuple[str, ...]] = (
    "role", "name", "bbox", "container", "id:xpath", "id:css", "web:nearby", "web:href",
    "web:tag", "web:class", "web:attr", "state", "occurrence", "lookalike_gone",
)  # fmt: skip
"""The signals the model reads, each as its value and whether the answer had it."""

COEFFICIENTS: Final[tuple[float, ...]] = (
    -0.2144, 4.9956, -1.0169, 4.7361, 1.6019,
    2.3991, -3.9138, 5.4200, -6.2718, 1.6572, -1.2310, -2.8250, 3.2589,
    3.5670, -2.5896, 1.6007, -0.9149, 0.9296, 0.3564, 2.9510, -2.8698,
    1.5965, -0.6308, 2.0912, -1.6935, 0.5680, -1.0013, 0.0555, 0.0537,
    1.5930, 0.1075, 0.4318, -1.5694,
)  # fmt: skip
"""Intercept; score, margin (scaled to ``[0, 1]`` by :data:`MARGIN_CAP`), score x margin,
vouched by a selector (no signals); then per entry of :data:`SIGNALS` its value (0 when
absent) and whether present."""


def features(
    score: float, margin: float, signals: Mapping[str, float] | None = None
) -> tuple[float, ...]:
    """The model's inputs (after the intercept): score, capped and scaled margin, their
    product, 1 when there are no signals (a selector vouched), then per entry of
    :data:`SIGNALS` its value and whether present. Scores and signals are agreements in
    ``[0, 1]``; a finite value outside is read as the nearest end (NaN and infinities stay,
    for :func:`confidence` to refuse)."""
    m = min(max(margin, 0.0), MARGIN_CAP) / MARGIN_CAP
    signals = signals or {}
    s = _unit(score)
    out = [s, m, s * m, 0.0 if signals else 1.0]
    for name in SIGNALS:
        value = signals.get(name)
        out += [0.0, 0.0] if value is None else [_unit(float(value)), 1.0]
    return tuple(out)


def _unit(value: float) -> float:
    """A finite ``value`` clipped to ``[0, 1]``; NaN and infinities as they are."""
    return min(max(value, 0.0), 1.0) if math.isfinite(value) else value


def confidence(score: float, margin: float, signals: Mapping[str, float] | None = None) -> float:
    """Estimated probability that an answer with this ``score``, ``margin`` and ``signals``
    is right (no signals: a recorded selector vouched for it). An answer that agrees in
    nothing (score 0: the plain coordinates of the ``coords`` fallback) gets 0.

    Examples
    --------
    >>> confidence(1.0, 0.5) > 0.99 > confidence(0.65, 0.07, {"name": 0.7, "bbox": 0.2})
    True
    """
    if not (math.isfinite(score) and math.isfinite(margin)) or score <= 0.0:
        return 0.0
    values = features(score, margin, signals)
    if not all(math.isfinite(v) for v in values):
        return 0.0
    z = COEFFICIENTS[0] + math.fsum(w * v for w, v in zip(COEFFICIENTS[1:], values, strict=True))
    return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0
