"""Fit :mod:`resolver.calibration` on data the decisions were not tuned on, and measure it
on data nothing was fitted on.

Usage::

    python -m benchmarks.relocation --split all --no-seed --removals 12 --json r12.json
    python -m benchmarks.relocation --split all --no-seed --json plain.json
    python -m benchmarks.similo --split all --json similo.json
    python -m benchmarks.relocation.calibrate r12.json --intercept-from plain.json \
        --similo similo.json
    python -m benchmarks.relocation.calibrate r12.json --intercept-from plain.json \
        --similo similo.json --similo-weights 1 10 100

Three parts of the data, fixed in code: the decisions (thresholds, margins, rules) are tuned
on the *tune* half of the real pages and of the Similo apps; the held-out half is cut again
by :func:`part_of`, the confidence model is fitted on its ``calib`` part and measured on its
``test`` part, which nothing was fitted on. (A model fitted on the tune half learns how
often decisions are right where they were tuned, and is over-confident elsewhere.)

Every outcome with a best candidate (answered or refused by threshold and margin; refusals
by a review rule stay refused) is one example: right when that candidate is the target,
wrong otherwise (also every candidate for a removed target). The ``chain`` pseudo-source
repeats the a11y and DOM answers and is left out. A logistic regression over
:func:`resolver.calibration.features` (score, margin and the candidate's signals, which the
runs keep) is fitted by Newton's method with a small ridge on the ``calib`` part of the run
with extra removal versions (so that it learns what answers for removed targets look like)
and of the Similo pairs (each answered, and resolved again without its target: a redesign's
answers); ``--intercept-from`` then moves its intercept to the plain run's ``calib`` share
of removed targets (about one in forty), keeping the other coefficients. Printed are the
coefficients, then on the ``test`` part: log loss, reliability (predicted against observed
share right, per probability band) and the risk/coverage table at several
``min_confidence`` values with the library's default threshold and margin (the run's
answers that reach each level; the runs must use the library's decisions).

``--similo-weights`` prints instead, per weight given to each Similo example in the fit, the
calib apps' answers at 0.9 or above and how many are wrong, each app's answers judged by a
model fitted without that app (:func:`leave_one_app_out`): how much the redesigns should
count, chosen without the test part.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

import numpy as np

from resolver.calibration import COEFFICIENTS, confidence, features

CALIB: Final[str] = "calib"
TEST: Final[str] = "test"
LEVELS = (0.0, 0.5, 0.8, 0.9, 0.95, 0.98, 0.99)
_WIDTH: Final[int] = 1 + len(features(0.0, 0.0))
"""Columns of an example: the intercept's, then the model's inputs."""


def part_of(name: str) -> str:
    """The part of the held-out half a page or a Similo app is in: :data:`CALIB` (the
    confidence model is fitted on it) when the first hex digit of SHA-1 of
    ``"calibration:" + name`` is even, else :data:`TEST` (measured on it only).

    >>> sorted({part_of(f"page-{i}") for i in range(20)})
    ['calib', 'test']
    """
    digest = hashlib.sha1(f"calibration:{name}".encode()).hexdigest()
    return CALIB if int(digest[0], 16) % 2 == 0 else TEST


def _kept(o: dict[str, Any], split: str, part: str | None, *, chain: bool = False) -> bool:
    """Whether a relocation outcome is in ``split`` (and ``part``: ``None`` for all of it),
    and not an identity control, the seed or (unless ``chain``) the chain."""
    return (
        o["split"] == split
        and o["kind"] != "identity"
        and o["recorder"] != "seed"
        and (chain or o["source"] != "chain")
        and (part is None or part_of(o["page"]) == part)
    )


def examples(
    outcomes: list[dict[str, Any]], split: str, part: str | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Feature rows and labels of one half, or of one ``part`` of it (identity controls, the
    seed and the chain left out)."""
    rows, labels = [], []
    for o in outcomes:
        if not _kept(o, split, part):
            continue
        if o.get("best") is None or o.get("score") is None or o.get("vetoed"):
            continue
        rows.append((1.0, *features(o["score"], o.get("margin", 0.0), o.get("signals"))))
        labels.append(1.0 if o["present"] and o["best"] == o["expected"] else 0.0)
    return np.asarray(rows), np.asarray(labels)


def similo_examples(
    pairs: Iterable[dict[str, Any]], part: str | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Feature rows and labels of the Similo pairs of the held-out apps (of one ``part``;
    ``None``: all): each pair's answer or best candidate, right when it is the truth, and its
    answer or best candidate on the page without the target, always wrong. Candidates a
    review rule refused are left out, as in :func:`examples`."""
    rows, labels = [], []
    for p in pairs:
        if p["split"] != "heldout" or (part is not None and part_of(p["app"]) != part):
            continue
        for ev, present in ((p.get("evidence"), True), (p.get("removed_evidence"), False)):
            if not ev or ev.get("vetoed") or ev.get("score") is None:
                continue
            signals = ev.get("signals") or None
            rows.append((1.0, *features(ev["score"], ev.get("margin", 0.0), signals)))
            labels.append(1.0 if present and ev.get("best") == p["truth"] else 0.0)
    return np.asarray(rows).reshape(len(rows), _WIDTH), np.asarray(labels)


def similo_answers(
    pairs: Iterable[dict[str, Any]], apps: Iterable[str]
) -> tuple[np.ndarray, np.ndarray]:
    """Feature rows and labels of the answers the Similo run gave for the held-out pairs of
    ``apps``, as :mod:`benchmarks.reliability` counts them: each answered pair (right when it
    is the truth) and each pair answered again on its page without the target (wrong)."""
    wanted, rows, labels = set(apps), [], []
    for p in pairs:
        if p["split"] != "heldout" or p["app"] not in wanted:
            continue
        answered = (
            (p.get("evidence"), p["verdict"] in ("correct", "wrong"), p["verdict"] == "correct"),
            (p.get("removed_evidence"), bool(p.get("removed_answered")), False),
        )
        for ev, given, right in answered:
            if given and ev and ev.get("score") is not None:
                signals = ev.get("signals") or None
                rows.append((1.0, *features(ev["score"], ev.get("margin", 0.0), signals)))
                labels.append(1.0 if right else 0.0)
    return np.asarray(rows).reshape(len(rows), _WIDTH), np.asarray(labels)


def leave_one_app_out(
    pages: tuple[np.ndarray, np.ndarray],
    intercept: tuple[np.ndarray, np.ndarray] | None,
    pairs: list[dict[str, Any]],
    weight: float,
    level: float = 0.9,
) -> tuple[int, int]:
    """Wrong answers and all answers at ``level`` or above on the calib apps, each app's
    answers judged by a model fitted without that app: on the calib part's pages (``pages``,
    and the intercept refitted on ``intercept`` when given) with the other calib apps'
    Similo examples (:func:`similo_examples`), each counted ``weight`` times. Chooses how
    much the redesigns should count without looking at the test part."""
    apps = sorted(
        {p["app"] for p in pairs if p["split"] == "heldout" and part_of(p["app"]) == CALIB}
    )
    wrong = kept = 0
    for app in apps:
        sx, sy = similo_examples([p for p in pairs if p["app"] != app], CALIB)
        x, y = np.vstack([pages[0], sx]), np.concatenate([pages[1], sy])
        w = fit(x, y, weights=np.concatenate([np.ones(len(pages[1])), np.full(len(sy), weight)]))
        if intercept is not None:
            w = fit_intercept(w, *intercept)
        ax, ay = similo_answers(pairs, [app])
        sure = 1.0 / (1.0 + np.exp(-(ax @ w))) >= level if len(ay) else np.zeros(0, dtype=bool)
        wrong += int((sure & (ay == 0)).sum())
        kept += int(sure.sum())
    return wrong, kept


def fit(
    x: np.ndarray,
    y: np.ndarray,
    ridge: float = 1.0,
    steps: int = 50,
    weights: np.ndarray | None = None,
) -> np.ndarray:
    """Logistic regression by Newton's method, with a ridge: the presence terms of signals
    that (nearly) always come together are collinear. ``weights``: how much each example
    counts (all 1 by default)."""
    sw = np.ones(len(y)) if weights is None else np.asarray(weights, dtype=np.float64)
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (sw * (p - y)) + ridge * w
        hess = (x * (sw * p * (1 - p))[:, None]).T @ x + ridge * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def log_loss(x: np.ndarray, y: np.ndarray) -> float:
    """Mean log loss of the library's coefficients on ``(x, y)``."""
    p = np.clip(1.0 / (1.0 + np.exp(-(x @ np.asarray(COEFFICIENTS)))), 1e-9, 1 - 1e-9)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def fit_intercept(w: np.ndarray, x: np.ndarray, y: np.ndarray, steps: int = 50) -> np.ndarray:
    """``w`` with its intercept refitted on ``(x, y)`` and every other coefficient kept: the
    model learnt where removed targets are many, moved to a share of them like ``y``'s."""
    w = w.copy()
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        step = float((p - y).sum() / max((p * (1 - p)).sum(), 1e-12))
        w[0] -= step
        if abs(step) < 1e-9:
            break
    return w


def reliability(outcomes: list[dict[str, Any]], split: str, part: str | None = None) -> list[str]:
    """Predicted (by the library's coefficients) against observed share right, per band."""
    return _bands(*examples(outcomes, split, part))


def _bands(x: np.ndarray, y: np.ndarray) -> list[str]:
    p = 1.0 / (1.0 + np.exp(-(x @ np.asarray(COEFFICIENTS)))) if len(x) else np.zeros(0)
    lines = ["| predicted | examples | mean predicted | observed right |", "|---|---|---|---|"]
    for lo, hi in ((0, 0.5), (0.5, 0.8), (0.8, 0.9), (0.9, 0.95), (0.95, 0.99), (0.99, 1.01)):
        band = (p >= lo) & (p < hi)
        if band.any():
            lines.append(f"| {lo:.2f}-{min(hi, 1):.2f} | {band.sum()} | {p[band].mean():.3f} | "
                         f"{y[band].mean():.3f} |")  # fmt: skip
    return lines


def coverage(outcomes: list[dict[str, Any]], split: str, part: str | None = None) -> list[str]:
    """Correct / wrong % of present targets and % of removed answered, per source, recorder
    and ``min_confidence``, with the default threshold and margin: the answers of the run
    whose estimated probability reaches the level, as ``min_confidence`` refuses every
    answer under it (``python -m benchmarks.relocation --min-confidence L`` measures one
    level directly)."""
    lines = ["| min_confidence | source | recorder | correct % | wrong % | removed answered % |",
             "|---|---|---|---|---|---|"]  # fmt: skip
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for o in outcomes:
        if _kept(o, split, part, chain=True):
            groups.setdefault((o["source"], o["recorder"]), []).append(o)
    for level in LEVELS:
        for (source, recorder), rows in sorted(groups.items()):
            c = w = f = 0
            for o in rows:
                s, m = o.get("score"), o.get("margin", 0.0)
                best = o.get("answer")
                sure = None if s is None else confidence(s, m, o.get("signals"))
                if best is None or (level > 0 and (sure is None or sure < level)):
                    continue
                if not o["present"]:
                    f += 1
                elif best == o["expected"]:
                    c += 1
                else:
                    w += 1
            n = max(1, sum(o["present"] for o in rows))
            r = max(1, sum(not o["present"] for o in rows))
            lines.append(f"| {level} | {source} | {recorder} | {100 * c / n:.1f} | "
                         f"{100 * w / n:.2f} | {100 * f / r:.1f} |")  # fmt: skip
    return lines


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.relocation.calibrate")
    parser.add_argument("outcomes", type=Path, help="--json output of a --removals run")
    parser.add_argument(
        "--intercept-from", type=Path, metavar="PLAIN_JSON",
        help="a run's --json (without --removals): the intercept is refitted on its calib part",
    )  # fmt: skip
    parser.add_argument("--similo", type=Path, help="a python -m benchmarks.similo --json")
    parser.add_argument(
        "--similo-weights", type=float, nargs="+", metavar="W",
        help="instead: per weight of the Similo examples, the calib apps' answers at 0.9 or "
        "above, each app's by a model fitted without it (leave_one_app_out); needs --similo",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.similo_weights:
        if args.similo is None:
            parser.error("--similo-weights needs --similo")
        return _weights(args.outcomes, args.intercept_from, args.similo, args.similo_weights)
    runs = [_load(args.outcomes)]
    x, y = examples(runs[0], "heldout", CALIB)
    pairs = json.loads(args.similo.read_text())["pairs"] if args.similo else []
    sx, sy = similo_examples(pairs, CALIB)
    if len(sy):
        x, y = np.vstack([x, sx]), np.concatenate([y, sy])
    w = fit(x, y)
    print(f"fitted on the calib part of the held-out half ({len(y)} examples, {len(sy)} of "
          f"them Similo pairs; {y.mean():.3f} right):")  # fmt: skip
    if args.intercept_from is not None:
        runs.append(_load(args.intercept_from))
        px, py = examples(runs[1], "heldout", CALIB)
        w = fit_intercept(w, px, py)
        print(f"intercept refitted on the calib part of {args.intercept_from} ({len(py)} "
              f"examples, {py.mean():.3f} right):")  # fmt: skip
    print(f"COEFFICIENTS = ({', '.join(f'{v:.4f}' for v in w)})\n")
    for outcomes in runs[::-1]:
        _report(outcomes)
    if len(sy):
        tx, ty = similo_examples(pairs, TEST)
        print("Similo pairs, test apps, reliability of the library's coefficients:\n")
        print("\n".join(_bands(tx, ty)) + "\n")
    return 0


def _weights(
    outcomes: Path, intercept_from: Path | None, similo: Path, weights: list[float]
) -> int:
    """Print :func:`leave_one_app_out` for each weight of the Similo examples."""
    pages = examples(_load(outcomes), "heldout", CALIB)
    intercept = None
    if intercept_from is not None:
        intercept = examples(_load(intercept_from), "heldout", CALIB)
    pairs = json.loads(similo.read_text())["pairs"]
    print(
        "| weight of a Similo example | calib apps' answers at >= 0.9, each app left out | wrong |"
    )
    print("|---:|---:|---:|")
    for weight in weights:
        wrong, kept = leave_one_app_out(pages, intercept, pairs, weight)
        print(f"| {weight:g} | {kept} | {wrong} ({100 * wrong / max(kept, 1):.1f}%) |")
    return 0


def _report(outcomes: list[dict[str, Any]]) -> None:
    """The library's coefficients on the test part of a run."""
    hx, hy = examples(outcomes, "heldout", TEST)
    if len(hy):
        print(f"Test part log loss of the library's coefficients: {log_loss(hx, hy):.4f}\n")
    print("Test part reliability of the library's coefficients:\n")
    print("\n".join(reliability(outcomes, "heldout", TEST)))
    print("\nTest part risk/coverage (default threshold and margin, then min_confidence):\n")
    print("\n".join(coverage(outcomes, "heldout", TEST)) + "\n")


def _load(path: Path) -> list[dict[str, Any]]:
    data = json.loads(path.read_text())
    return data["outcomes"] if isinstance(data, dict) else data  # type: ignore[no-any-return]


if __name__ == "__main__":
    raise SystemExit(main())
