"""How likely an answer is right: a logistic model over its score and margin.

A score in ``[0, 1]`` is a weighted agreement, not a probability: 0.8 with a wide lead is
safer than 0.9 a hair ahead of a look-alike. :func:`confidence` turns ``(score, margin)``
into an estimated probability that the answer is the recorded element, from a logistic
regression fitted on labelled outcomes: the tune half of the real-page relocation benchmark
(``python -m benchmarks.relocation.calibrate``), both sources and both recorders, where every
answer the matcher would give (also those it refused) is labelled right or wrong, and an
answer for a removed target is wrong. The coefficients are data (:data:`COEFFICIENTS`); the
benchmark prints new ones and how well they hold on the held-out half.

``MatchConfig.min_confidence`` (default 0: off) refuses every answer under a probability,
however it was reached: one option to trade coverage for fewer wrong answers (the README's
risk/coverage table).
"""

from __future__ import annotations

import math
from typing import Final

__all__ = ["COEFFICIENTS", "MARGIN_CAP", "confidence", "features"]

MARGIN_CAP: Final[float] = 0.12
"""Margins beyond this are not measured exactly (rows further behind are not scored), so the
model sees ``min(margin, MARGIN_CAP)``."""

COEFFICIENTS: Final[tuple[float, float, float, float]] = (-5.23, 7.72, -1.61, 6.29)
"""Intercept, score, margin (scaled to ``[0, 1]`` by :data:`MARGIN_CAP`), score x margin."""


def features(score: float, margin: float) -> tuple[float, float, float]:
    """The model's inputs: the score, the capped and scaled margin, and their product."""
    m = min(max(margin, 0.0), MARGIN_CAP) / MARGIN_CAP
    return (score, m, score * m)


def confidence(score: float, margin: float) -> float:
    """Estimated probability that an answer with this ``score`` and ``margin`` is right.

    Examples
    --------
    >>> confidence(1.0, 0.5) > 0.99 > confidence(0.65, 0.07)
    True
    """
    if not (math.isfinite(score) and math.isfinite(margin)):
        return 0.0
    b0, b1, b2, b3 = COEFFICIENTS
    s, m, sm = features(score, margin)
    z = b0 + b1 * s + b2 * m + b3 * sm
    return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0
