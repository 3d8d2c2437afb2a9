"""How many answered removed targets a learned check over the answer's evidence could refuse.

The decision rules after the matcher refuse answered removed targets one pattern at a time.
This asks the question once for all patterns: given everything the matcher knew about its
answer (the score, the margin, each signal, whether a recorded selector vouched for it, the
source and the recorder), how well can a classifier fitted on labelled answers tell the right
ones from the rest, and what does each refused removed target cost in right answers?

It reads a run's outcomes (``python -m benchmarks.relocation --split all --json run.json``;
the answers' signals are in the outcomes), fits a gradient-boosted classifier (scikit-learn,
the ``bench`` extra) on the answers of the tune half (label: the answer is the recorded
element), and reports per source and recorder, at each cut-off on its probability, the right
answers it would lose and the wrong answers and answered removed targets it would refuse:
first by five-fold cross-validation over the tune half's pages, then fitted on the whole tune
half and applied to the held-out half. The classifier is not part of the library; the figures
bound what a post-hoc check over this evidence can do.

``--model logistic`` fits a logistic regression over the inputs of the library's calibration
instead (each signal as its value and whether present). ``--profile`` adds to the trees'
inputs the answer's profile (``alike.profile``: per recorded field, how far the answer is
from agreeing with its reference), so that the bound covers the reference's fields as well as
the matcher's signals. Each table ends with the lowest cut-off at which a cell answers at
most 1% of its removed targets, and the right answers lost there.

Usage::

    python -m benchmarks.relocation.verifier run.json [more.json ...] [--model logistic]
                                             [--profile] [--out verifier.md]

Several runs are read as one (a tune-half run and a held-out one, say).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from resolver import calibration

SIGNALS: Final[tuple[str, ...]] = (
    "role", "name", "bbox", "container", "id:xpath", "id:css", "id:dom_id", "id:testid",
    "web:nearby", "web:href", "web:tag", "web:class", "web:attr", "state", "occurrence",
    "lookalike_gone",
)  # fmt: skip
"""The matcher's signals, one feature each (-1 when the answer has none)."""
PROFILE: Final[tuple[str, ...]] = (
    "role", "name", "tag", "href", "dom_id", "test_id", "enabled", "xpath", "css_selector",
    "xpath_steps", "container_path", "nearby_text", "classes", "attributes", "bbox",
    "bbox_moved", "lookalikes", "occurrence",
)  # fmt: skip
"""The profile's fields, one feature each with ``--profile`` (-1 when not recorded)."""
CUTOFFS: Final[tuple[float, ...]] = (0.05, 0.1, 0.2, 0.3, 0.5)
FINE: Final[tuple[float, ...]] = tuple(round(0.01 * i, 2) for i in range(1, 100))
"""Cut-offs searched for the lowest one that answers at most 1% of removed targets."""
CELLS: Final[tuple[tuple[str, str], ...]] = (
    ("a11y", "ours"), ("a11y", "foreign"), ("dom", "ours"), ("dom", "foreign"),
)  # fmt: skip
MARGIN_CAP: Final[float] = 0.5


def answered(outcomes: Sequence[dict[str, Any]], split: str) -> list[dict[str, Any]]:
    """The outcomes of one half that the library answered, for the two recorders."""
    return [
        o for o in outcomes
        if o["split"] == split and o["recorder"] in ("ours", "foreign")
        and o["verdict"] in ("correct", "wrong", "false_hit")
    ]  # fmt: skip


def features(o: dict[str, Any]) -> list[float]:
    """One answer's features: score, capped margin, selector-vouched, source, recorder, then
    each of :data:`SIGNALS`."""
    signals = o.get("signals") or {}
    head = [
        float(o.get("score") or 0.0),
        min(float(o.get("margin") or 0.0), MARGIN_CAP),
        0.0 if signals else 1.0,
        1.0 if o["source"] == "dom" else 0.0,
        1.0 if o["recorder"] == "ours" else 0.0,
    ]
    out = head + [float(signals.get(name, -1.0)) for name in SIGNALS]
    if WITH_PROFILE:
        profile = o.get("profile") or {}
        out += [min(float(profile.get(name, -1.0)), 1e6) for name in PROFILE]
    return out


def logistic_features(o: dict[str, Any]) -> list[float]:
    """The inputs of the library's calibration (:func:`resolver.calibration.features`: each
    signal as its value and whether present)."""
    return list(calibration.features(o.get("score") or 0.0, o.get("margin") or 0.0,
                                     o.get("signals")))  # fmt: skip


MODEL = "trees"
"""``trees`` (gradient-boosted) or ``logistic`` (``--model``)."""
WITH_PROFILE = False
"""Whether the trees also read the answer's profile (``--profile``)."""


def matrix(rows: Sequence[dict[str, Any]]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    make = logistic_features if MODEL == "logistic" else features
    x = np.asarray([make(o) for o in rows], dtype=np.float64).reshape(len(rows), -1)
    y = np.asarray([o["verdict"] == "correct" for o in rows], dtype=bool)
    return x, y


def _model() -> Any:
    try:
        from sklearn.ensemble import HistGradientBoostingClassifier
        from sklearn.linear_model import LogisticRegression
    except ImportError as exc:  # pragma: no cover - the bench extra is missing
        raise SystemExit("needs scikit-learn: pip install -e '.[bench]'") from exc
    if MODEL == "logistic":
        return LogisticRegression(max_iter=5000, C=10.0)
    return HistGradientBoostingClassifier(
        max_iter=200, learning_rate=0.05, max_leaf_nodes=15, min_samples_leaf=40, random_state=0
    )


def cross_validated(rows: Sequence[dict[str, Any]], folds: int = 5) -> npt.NDArray[np.float64]:
    """Out-of-fold probabilities for ``rows``, the folds split by page."""
    x, y = matrix(rows)
    pages = sorted({o["page"] for o in rows})
    fold_of = {page: i % folds for i, page in enumerate(pages)}
    fold = np.asarray([fold_of[o["page"]] for o in rows])
    p = np.zeros(len(rows))
    for k in range(folds):
        test = fold == k
        if test.any() and (~test).any():
            p[test] = _model().fit(x[~test], y[~test]).predict_proba(x[test])[:, 1]
    return p


def held_out(tune: Sequence[dict[str, Any]], test: Sequence[dict[str, Any]]) -> Any:
    """Probabilities for ``test`` from a classifier fitted on ``tune``."""
    x, y = matrix(tune)
    return _model().fit(x, y).predict_proba(matrix(test)[0])[:, 1]


def table(
    rows: Sequence[dict[str, Any]], p: npt.NDArray[np.float64], totals: dict[Any, int]
) -> list[str]:
    """Markdown rows: per cell and cut-off, right lost, wrong and removed refused, and the
    removed targets still answered (% of all removed targets of the cell)."""
    lines = []
    for source, recorder in CELLS:
        cell = np.asarray([(o["source"], o["recorder"]) == (source, recorder) for o in rows])
        verdict = np.asarray([o["verdict"] for o in rows])
        removed = totals.get((source, recorder, False), 0)
        answered_removed = int((cell & (verdict == "false_hit")).sum())
        at_one = [c for c in (*FINE, 1.0) if _left(cell, verdict, p, c) <= removed / 100]
        for cut, label in [(c, f"{c:g}") for c in CUTOFFS] + [(at_one[0], f"{at_one[0]:g} (1%)")]:
            refused = cell & (p < cut)
            left = _left(cell, verdict, p, cut)
            lines.append(
                f"| {source} | {recorder} | {label} "
                f"| {int((refused & (verdict == 'correct')).sum())} "
                f"of {int((cell & (verdict == 'correct')).sum())} "
                f"| {int((refused & (verdict == 'wrong')).sum())} "
                f"of {int((cell & (verdict == 'wrong')).sum())} "
                f"| {answered_removed - left} of {answered_removed} "
                f"| {100 * answered_removed / max(removed, 1):.2f} → "
                f"{100 * left / max(removed, 1):.2f} |"
            )
    return lines


def _left(
    cell: npt.NDArray[np.bool_], verdict: npt.NDArray[Any], p: npt.NDArray[np.float64], cut: float
) -> int:
    """Answered removed targets of the cell that a cut-off keeps."""
    return int((cell & (verdict == "false_hit") & (p >= cut)).sum())


def totals_of(outcomes: Sequence[dict[str, Any]], split: str) -> dict[Any, int]:
    """Per (source, recorder, present), how many targets the half has."""
    counts: dict[Any, int] = {}
    for o in outcomes:
        if o["split"] == split and o["recorder"] in ("ours", "foreign"):
            key = (o["source"], o["recorder"], bool(o["present"]))
            counts[key] = counts.get(key, 0) + 1
    return counts


HEADER: Final[tuple[str, ...]] = (
    "| source | recorder | cut-off | right lost | wrong refused | removed refused "
    "| removed answered % (before → after) |",
    "|---|---|---:|---:|---:|---:|---:|",
)


def report(outcomes: Sequence[dict[str, Any]]) -> str:
    tune, test = answered(outcomes, "tune"), answered(outcomes, "heldout")
    if not tune or not any(o.get("signals") for o in tune):
        raise SystemExit("the run has no tune-half answers with signals")
    lines = ["## Tune half, five-fold cross-validation by page", "", *HEADER]
    lines += table(tune, cross_validated(tune), totals_of(outcomes, "tune"))
    if test:
        lines += ["", "## Held-out half, fitted on the tune half", "", *HEADER]
        lines += table(test, held_out(tune, test), totals_of(outcomes, "heldout"))
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "run", type=Path, nargs="+", help="runs' --json (both halves, or each its half)"
    )
    parser.add_argument("--out", type=Path, help="also write the report here")
    parser.add_argument("--model", choices=("trees", "logistic"), default="trees")
    parser.add_argument("--profile", action="store_true", help="the trees also read profiles")
    args = parser.parse_args(argv)
    global MODEL, WITH_PROFILE
    MODEL = args.model
    WITH_PROFILE = args.profile
    outcomes = [o for run in args.run for o in json.loads(run.read_text())["outcomes"]]
    text = report(outcomes)
    print(text)
    if args.out is not None:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
