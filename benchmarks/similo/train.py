"""Fit the pairwise model (:mod:`resolver.pairwise`) on the tune apps of the Similo pairs.

Usage::

    python -m benchmarks.similo.train [--out resolver/data/pairwise.json] [--l2 1.0]
                                      [--corpus DIR]

Data: every joined pair of the tune half's apps (:data:`benchmarks.similo.data.TUNE_APPS`;
the held-out apps are never read). Each pair gives one example per candidate row of the new
version's tree (the tree the benchmark resolves on): the features of (old target's
reference, row), labelled 1 for the ground-truth candidate and 0 for every other row. The
document root is left out.

Fit: L2-regularised logistic regression by Newton's method (deterministic: no random
initialisation, no sampling), on features standardised by their mean and spread over the
examples. Before the fit on all tune apps, a leave-one-app-out run over the tune apps prints
how often the model's best row is the truth, and how often it is with the rule's thresholds
(``MatchConfig.pairwise_accept`` and ``pairwise_margin``), so the thresholds are chosen on
apps each fold did not see. Without the corpus it prints a note and exits 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from resolver import Observation
from resolver.config import DEFAULT_CONFIG
from resolver.pairwise import FEATURES, PairwiseModel, pair_features
from resolver.table import CandidateTable

from .convert import ROOT_ID, observation_tree, ref_of
from .data import TUNE_APPS, App, corpus_dir, load_apps

__all__ = ["Example", "examples_of", "fit", "main", "pick"]

FloatArray = npt.NDArray[np.float64]
OPT_IN_ACCEPT = 0.5
"""The ``pairwise_accept`` to turn the rule on with (the library's default, 1, is off)."""


@dataclass(frozen=True)
class Example:
    """One pair: the features of every row and which row is the truth."""

    app: str
    pair: str
    x: FloatArray
    truth: int
    table: CandidateTable


def examples_of(app: App) -> list[Example]:
    """The examples of one app (pairs whose target the reference model refuses are left
    out)."""
    obs = Observation(accessibility_tree=observation_tree(app.candidates))
    table = obs.candidates("a11y")
    rows = {node: i for i, node in enumerate(table.ids)}
    out = []
    for pair in app.pairs:
        ref = ref_of(pair.target)
        if ref is None:
            continue
        out.append(Example(app.name, pair.file, pair_features(ref, table),
                           rows[str(pair.candidate)], table))  # fmt: skip
    return out


def _design(examples: list[Example]) -> tuple[FloatArray, FloatArray]:
    xs, ys = [], []
    for ex in examples:
        keep = np.asarray([i != ROOT_ID for i in ex.table.ids])
        y = np.zeros(len(ex.table))
        y[ex.truth] = 1.0
        xs.append(ex.x[keep])
        ys.append(y[keep])
    return np.vstack(xs), np.concatenate(ys)


def fit(examples: list[Example], l2: float) -> PairwiseModel:
    """The logistic regression over ``examples`` (Newton's method, L2 penalty ``l2`` on the
    weights of the standardised features, not on the bias)."""
    x, y = _design(examples)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = np.hstack([(x - mean) / scale, np.ones((x.shape[0], 1))])
    beta = np.zeros(z.shape[1])
    penalty = np.full(z.shape[1], l2)
    penalty[-1] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ beta, -50, 50)))
        grad = z.T @ (p - y) + penalty * beta
        hess = (z * (p * (1 - p))[:, None]).T @ z + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    return PairwiseModel(FEATURES, mean, scale, beta[:-1].copy(), float(beta[-1]))


def pick(model: PairwiseModel, ex: Example) -> tuple[int, float, float]:
    """The model's best row, its probability, and its lead over the best row that is not
    its ancestor or descendant (the same control and its label count as one)."""
    probs = model.probabilities(ex.x)
    table = ex.table
    probs[[i for i, node in enumerate(table.ids) if node == ROOT_ID]] = 0.0
    order = np.argsort(-probs, kind="stable")
    best = int(order[0])
    second = 0.0
    for row in order[1:].tolist():
        if not (table.is_ancestor(row, best) or table.is_ancestor(best, row)):
            second = float(probs[row])
            break
    return best, float(probs[best]), float(probs[best]) - second


def _fold_report(examples: list[Example], l2: float) -> None:
    accept, margin = OPT_IN_ACCEPT, DEFAULT_CONFIG.pairwise_margin
    top = answered = right = 0
    for app in dict.fromkeys(ex.app for ex in examples):
        model = fit([ex for ex in examples if ex.app != app], l2)
        for ex in (ex for ex in examples if ex.app == app):
            best, p, lead = pick(model, ex)
            top += best == ex.truth
            if p >= accept and lead >= margin:
                answered += 1
                right += best == ex.truth
    n = len(examples)
    print(
        f"leave-one-app-out over {n} tune pairs: best row right {top} ({top / n:.1%}); "
        f"the model alone, answering its best row at pairwise_accept={accept}, "
        f"pairwise_margin={margin}: answered {answered}, "
        f"right {right}, wrong {answered - right} ({(answered - right) / n:.1%} of pairs)",
        file=sys.stderr,
    )


def main(argv: list[str] | None = None) -> int:
    """Fit on the tune apps and write the model."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("resolver/data/pairwise.json"))
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--corpus", type=Path, default=None)
    args = parser.parse_args(argv)
    root = args.corpus or corpus_dir()
    if root is None:
        print("similo corpus not found; nothing to train on", file=sys.stderr)
        return 0
    examples = [ex for app in load_apps(root, TUNE_APPS) for ex in examples_of(app)]
    _fold_report(examples, args.l2)
    model = fit(examples, args.l2)
    data = {
        **model.to_json(),
        "trained_on": {"corpus": "similo-tune", "apps": list(TUNE_APPS), "pairs": len(examples),
                       "l2": args.l2},
    }  # fmt: skip
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    weights = zip(FEATURES, model.weights.tolist(), strict=True)
    for name, w in sorted(weights, key=lambda t: -abs(t[1])):
        print(f"  {name:16s} {w:+.3f}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
