"""Fit :mod:`resolver.calibration` on the tune half and check it on the held-out half.

Usage::

    python -m benchmarks.relocation --split all --no-seed --removals 12 --json r12.json
    python -m benchmarks.relocation --split all --no-seed --json plain.json
    python -m benchmarks.relocation.calibrate r12.json --intercept-from plain.json

Every outcome with a best candidate (answered or refused by threshold and margin; refusals
by the look-alike rule stay refused) is one example: right when that candidate is the
target, wrong otherwise (also every candidate for a removed target). A logistic regression
over :func:`resolver.calibration.features` (score, margin and the candidate's signals, which
the run's outcomes keep) is fitted on the tune half by Newton's method, with a small ridge;
the run with extra removal versions teaches it what answers for removed targets look like,
and ``--intercept-from`` then moves its intercept to a run's share of them (a plain run:
about one target in forty removed), keeping the other coefficients;
printed are its coefficients, its reliability on the held-out half (predicted against
observed share right, per probability band), and the risk/coverage table at several
``min_confidence`` values with the library's default threshold and margin (the run's answers
that reach each level; the run must use the library's coefficients).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from resolver.calibration import COEFFICIENTS, confidence, features

LEVELS = (0.0, 0.5, 0.8, 0.9, 0.95, 0.98, 0.99)


def examples(outcomes: list[dict[str, Any]], split: str) -> tuple[np.ndarray, np.ndarray]:
    """Feature rows and labels of one half (identity controls and the seed left out)."""
    rows, labels = [], []
    for o in outcomes:
        if o["split"] != split or o["kind"] == "identity" or o["recorder"] == "seed":
            continue
        if o.get("best") is None or o.get("score") is None or o.get("vetoed"):
            continue
        rows.append((1.0, *features(o["score"], o.get("margin", 0.0), o.get("signals"))))
        labels.append(1.0 if o["present"] and o["best"] == o["expected"] else 0.0)
    return np.asarray(rows), np.asarray(labels)


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1.0, steps: int = 50) -> np.ndarray:
    """Logistic regression by Newton's method, with a ridge: the presence terms of signals
    that (nearly) always come together are collinear."""
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(x.shape[1])
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


def reliability(outcomes: list[dict[str, Any]], split: str) -> list[str]:
    """Predicted (by the library's coefficients) against observed share right, per band."""
    x, y = examples(outcomes, split)
    p = 1.0 / (1.0 + np.exp(-(x @ np.asarray(COEFFICIENTS)))) if len(x) else np.zeros(0)
    lines = ["| predicted | examples | mean predicted | observed right |", "|---|---|---|---|"]
    for lo, hi in ((0, 0.5), (0.5, 0.8), (0.8, 0.9), (0.9, 0.95), (0.95, 0.99), (0.99, 1.01)):
        band = (p >= lo) & (p < hi)
        if band.any():
            lines.append(f"| {lo:.2f}-{min(hi, 1):.2f} | {band.sum()} | {p[band].mean():.3f} | "
                         f"{y[band].mean():.3f} |")  # fmt: skip
    return lines


def coverage(outcomes: list[dict[str, Any]], split: str) -> list[str]:
    """Correct / wrong % of present targets and % of removed answered, per source, recorder
    and ``min_confidence``, with the default threshold and margin: the answers of the run
    whose estimated probability reaches the level, as ``min_confidence`` refuses every
    answer under it (``python -m benchmarks.relocation --min-confidence L`` measures one
    level directly)."""
    lines = ["| min_confidence | source | recorder | correct % | wrong % | removed answered % |",
             "|---|---|---|---|---|---|"]  # fmt: skip
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for o in outcomes:
        if o["split"] == split and o["kind"] != "identity" and o["recorder"] != "seed":
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
    parser.add_argument("outcomes", type=Path, help="--json output of a --split all run")
    parser.add_argument(
        "--intercept-from", type=Path, metavar="PLAIN_JSON",
        help="a run's --json (without --removals): the intercept is refitted on its tune half",
    )  # fmt: skip
    args = parser.parse_args(argv)
    runs = [_load(args.outcomes)]
    x, y = examples(runs[0], "tune")
    w = fit(x, y)
    print(f"fitted on the tune half ({len(y)} examples, {y.mean():.3f} right):")
    if args.intercept_from is not None:
        runs.append(_load(args.intercept_from))
        px, py = examples(runs[1], "tune")
        w = fit_intercept(w, px, py)
        print(f"intercept refitted on the tune half of {args.intercept_from} ({len(py)} examples, "
              f"{py.mean():.3f} right):")  # fmt: skip
    print(f"COEFFICIENTS = ({', '.join(f'{v:.4f}' for v in w)})\n")
    for outcomes in runs[::-1]:
        hx, hy = examples(outcomes, "heldout")
        if len(hy):
            print(f"Held-out log loss of the library's coefficients: {log_loss(hx, hy):.4f}\n")
        print("Held-out reliability of the library's coefficients:\n")
        print("\n".join(reliability(outcomes, "heldout")))
        print("\nHeld-out risk/coverage (default threshold and margin, then min_confidence):\n")
        print("\n".join(coverage(outcomes, "heldout")) + "\n")
    return 0


def _load(path: Path) -> list[dict[str, Any]]:
    data = json.loads(path.read_text())
    return data["outcomes"] if isinstance(data, dict) else data  # type: ignore[no-any-return]


if __name__ == "__main__":
    raise SystemExit(main())
