"""The learned pairwise model as one rule, ``accept.pairwise`` (:mod:`resolver.pairwise`).

It is asked last, for a tie no tie-breaking rule could break (:data:`RESCUED`: rows that
cleared the threshold within the margin of each other), and it may only pick one of the tied
rows, and only where no two of them are look-alikes (one role, one name up to its digits),
which only their places tell apart: a refusal (under the threshold, evidence of absence, a
contradiction) is never overruled, a row the hand scorer did not rank among the tied is never
taken, and twins stay a question. What it
accepts still goes through the ``final`` stage (a removed record, ``min_confidence``).
Asked where the hand score was under the threshold, it answered removed targets with their
look-alikes ("Unfollow" for a removed "Follow"): it was fitted on redesigns in which the
target is always present. Its evidence: the model's probability of the answer and of the
runner-up, and what each input added to the answer's log-odds (the candidate's signals
``pairwise:*``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

import numpy as np

from ..pairwise import applicable, load_model, pair_features
from ..results import Candidate
from ..table import CandidateTable
from ..text import mask_digits, normalize
from .rule import Context, Decision

__all__ = ["RESCUED", "pairwise"]

RESCUED: Final[frozenset[str]] = frozenset({"ambiguous.margin"})
"""The verdicts the model may turn into an answer: a tie of rows that cleared the threshold."""


def _lead(table: CandidateTable, probs: np.ndarray, best: int) -> int | None:
    """The best row after ``best`` that is not its ancestor or descendant (the same control
    and its label are one target); ``None`` when there is none."""
    for row in np.argsort(-probs, kind="stable").tolist():
        if row != best and not (table.is_ancestor(row, best) or table.is_ancestor(best, row)):
            return int(row)
    return None


def pairwise(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.pairwise``: in a tie (:data:`RESCUED`), the tied row (within ``min_margin``
    of the best score) the learned model gives at least ``pairwise_accept`` probability,
    leading the best other target by ``pairwise_margin``, for a web reference on a table of
    web rows."""
    config, table, ref = ctx.config, ctx.table, ctx.ref
    if decision.rule not in RESCUED or config.pairwise_accept >= 1.0 or len(table) == 0:
        return None
    if not applicable(ref, table):
        return None
    model = load_model()
    x = pair_features(ref, table)
    probs = model.probabilities(x)
    best = int(np.argmax(probs))
    other = _lead(table, probs, best)
    second = float(probs[other]) if other is not None else 0.0
    lead = float(probs[best]) - second
    if probs[best] < config.pairwise_accept or lead < config.pairwise_margin:
        return None
    top = decision.candidates[0].score if decision.candidates else 0.0
    tied = [c for c in decision.candidates if c.score >= top - config.min_margin]
    if table.ids[best] not in {c.id for c in tied}:
        return None  # the model prefers a row the hand scorer did not rank among the tied
    if len({(c.role, mask_digits(normalize(c.name))) for c in tied}) < len(tied):
        return None  # look-alikes are tied: only their places tell them apart, and a
        # place (an xpath, a box) is what a reorder or a removal makes point at the wrong one
    signals = {f"pairwise:{k}": v for k, v in model.contributions(x[best]).items()}
    answer = Candidate.at_row(table, best, float(probs[best]), signals)
    runner = None if other is None else Candidate.at_row(table, other, second, {})
    kept = tuple(c for c in decision.candidates if c.id not in {answer.id, runner and runner.id})
    ranked = (answer, *(() if runner is None else (runner,)), *kept)
    reason = (
        f"{decision.reason}; the learned pairwise model gives {answer.role} "
        f"{answer.name!r} probability {probs[best]:.3f}, leading the best other target by "
        f"{lead:.3f}"
    )
    return replace(
        decision, status="accepted", reason=reason, candidates=ranked, runner_up=runner,
        margin=round(lead, 4),
    )  # fmt: skip
