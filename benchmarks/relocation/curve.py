"""Risk/coverage of the decision on the relocation benchmark, at other thresholds and margins.

Usage::

    python -m benchmarks.relocation --split heldout --json out.json
    python -m benchmarks.relocation.curve out.json

Every outcome records the best candidate of the source, its score and its lead over the best
different target, also when the source abstained; this script replays the decision with
other ``threshold`` / ``min_margin`` values (``resolve(..., threshold=t, min_margin=m)``) and
prints, per source and recorder, how many present targets are answered right, answered
wrong, and how many removed targets are answered anyway.

An answer of the run stays an answer while its score and margin clear the values; a
refusal stays a refusal unless the run refused on threshold or margin alone
(``refused_by``), and then it is answered once both clear. An answer under the default
threshold (the sole namesake) stays one at any threshold, and one under the default margin
(a tie a rule broke) at any margin. It is quick and a little pessimistic above the
defaults: there the library still takes some bests the replay counts as refused (the sole
namesake under the raised threshold, a tie a rule breaks under the raised margin). For
exact figures run the benchmark with ``--threshold``, ``--min-margin`` or
``--min-confidence``.
"""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path
from typing import Any

from resolver import MatchConfig

DEFAULT = MatchConfig()
THRESHOLDS = (0.6, 0.7, 0.75, 0.8, 0.85, 0.9)
MARGINS = (0.06, 0.1, 0.15)


def rates(rows: list[dict[str, Any]], threshold: float, margin: float) -> tuple[float, ...]:
    """``(correct %, wrong %, abstained %)`` of present targets, removed answered %."""
    present = [x for x in rows if x["expected"]]
    removed = [x for x in rows if not x["expected"]]

    def answered(x: dict[str, Any]) -> bool:
        if not x.get("best"):
            return False
        if x.get("answer") is None:
            if x.get("refused_by", "rule") == "rule":
                return False
        elif x["score"] < DEFAULT.threshold:
            return True  # the sole namesake, taken under any threshold
        elif x["margin"] < DEFAULT.min_margin:
            return bool(x["score"] >= threshold)  # a tie a rule broke, under any margin
        return bool(x["score"] >= threshold and x["margin"] >= margin)

    def given(x: dict[str, Any]) -> Any:
        return x.get("answer") or x["best"]

    right = sum(1 for x in present if answered(x) and given(x) == x["expected"])
    wrong = sum(1 for x in present if answered(x) and given(x) != x["expected"])
    hits = sum(1 for x in removed if answered(x))
    n = max(len(present), 1)
    return (
        100 * right / n,
        100 * wrong / n,
        100 * (len(present) - right - wrong) / n,
        100 * hits / max(len(removed), 1),
    )


def main(argv: list[str] | None = None) -> int:
    """Print one markdown table per source and recorder."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("json", type=Path, help="the --json output of a benchmark run")
    parser.add_argument("--split", default="heldout", help="heldout, tune or all")
    args = parser.parse_args(argv)
    outcomes = json.loads(args.json.read_text())["outcomes"]
    rows = [
        x for x in outcomes
        if x["kind"] != "identity" and x["recorder"] in ("ours", "foreign")
        and (args.split == "all" or x["split"] == args.split)
    ]  # fmt: skip
    for source, recorder in itertools.product(("a11y", "dom"), ("ours", "foreign")):
        mine = [x for x in rows if x["source"] == source and x["recorder"] == recorder]
        if not mine:
            continue
        print(f"\n{source} / {recorder} ({args.split})\n")
        print("| threshold | margin | correct % | wrong % | abstained % | removed answered % |")
        print("|---|---|---|---|---|---|")
        for threshold, margin in itertools.product(THRESHOLDS, MARGINS):
            c, w, a, f = rates(mine, threshold, margin)
            print(f"| {threshold} | {margin} | {c:.1f} | {w:.2f} | {a:.1f} | {f:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
