"""Compare the outcomes of two runs of the relocation benchmark (``--json``) or of the catalog
benchmark (``python -m benchmarks.catalog --json``), case by case.

A change meant to keep behaviour (a refactor, a speed-up) must leave every outcome as it was::

    python -m benchmarks.relocation.compare before.json after.json

prints how many cases each run has, how many differ (and the first few), and the count of
outcomes per deciding rule in the second run; exits 1 when a case differs or is missing.
``--recorders ours,foreign,completed`` (and ``--sources a11y,dom``) compare only those
recorders' (sources') cases, e.g. a run with ``varied`` and ``--chain`` against one without.
``--tally`` also counts the differing relocation cases by what changed: present or removed
target, verdict before and after, and the rule deciding after (what a rule tried on the tune
half gains and costs, at a glance).
Fields a run lacks (an older run's outcomes have no ``convention``) count as empty.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["differences", "keyed", "main", "only", "tally"]

RELOCATION_KEY = ("page", "version", "key", "recorder", "source")
RELOCATION_RESULT = ("verdict", "answer", "code", "score", "margin", "best", "error")
CATALOG_KEY = ("page", "version", "source", "key", "method")
CATALOG_RESULT = ("verdict", "answer")


def _outcomes(data: Any) -> tuple[list[dict[str, Any]], tuple[str, ...], tuple[str, ...]]:
    """A run's outcomes, and the fields that name a case and that are its result."""
    if isinstance(data, dict) and "outcomes" in data:
        return list(data["outcomes"]), RELOCATION_KEY, RELOCATION_RESULT
    if isinstance(data, list):
        return list(data), CATALOG_KEY, CATALOG_RESULT
    raise ValueError("neither a relocation nor a catalog benchmark run")


def keyed(
    outcomes: Sequence[dict[str, Any]], key: Sequence[str]
) -> dict[tuple[Any, ...], dict[str, Any]]:
    """The outcomes by case (a repeated case keeps its first outcome)."""
    out: dict[tuple[Any, ...], dict[str, Any]] = {}
    for o in outcomes:
        out.setdefault(tuple(o.get(k) for k in key), o)
    return out


def differences(
    before: dict[tuple[Any, ...], dict[str, Any]],
    after: dict[tuple[Any, ...], dict[str, Any]],
    fields: Sequence[str],
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """``(changed, missing)``: the cases whose result fields differ, and the cases one run
    has and the other lacks."""
    missing = sorted(set(before) ^ set(after), key=repr)
    changed = [
        k for k in before if k in after and any(before[k].get(f) != after[k].get(f) for f in fields)
    ]
    return changed, missing


def tally(
    before: dict[tuple[Any, ...], dict[str, Any]],
    after: dict[tuple[Any, ...], dict[str, Any]],
    changed: Sequence[tuple[Any, ...]],
) -> Counter[tuple[str, str, str, str]]:
    """The changed relocation cases counted by ``(target, verdict before, verdict after, rule
    after)``, ``target`` being ``present`` or ``removed``."""
    counts: Counter[tuple[str, str, str, str]] = Counter()
    for k in changed:
        old, new = before[k], after[k]
        target = "present" if old.get("present", True) else "removed"
        verdicts = (str(old.get("verdict")), str(new.get("verdict")))
        counts[(target, *verdicts, str(new.get("rule")))] += 1
    return counts


def only(outcomes: list[dict[str, Any]], field: str, values: str | None) -> list[dict[str, Any]]:
    """The outcomes whose ``field`` is one of the comma-separated ``values`` (all: none)."""
    if not values:
        return outcomes
    keep = {v.strip() for v in values.split(",") if v.strip()}
    return [o for o in outcomes if o.get(field) in keep]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--show", type=int, default=10, help="differing cases printed")
    parser.add_argument("--recorders", help="only these recorders, comma-separated")
    parser.add_argument("--sources", help="only these sources, comma-separated")
    parser.add_argument("--tally", action="store_true", help="count the changes by kind")
    args = parser.parse_args(argv)
    runs = [_outcomes(json.loads(path.read_text())) for path in (args.before, args.after)]
    (first, key, fields), (second, _, _) = runs
    if "recorder" in key:
        first, second = (
            only(only(run, "recorder", args.recorders), "source", args.sources)
            for run in (first, second)
        )
    before, after = keyed(first, key), keyed(second, key)
    changed, missing = differences(before, after, fields)
    print(f"cases: {len(before)} before, {len(after)} after; compared on {', '.join(fields)}")
    print(f"differ: {len(changed)}; in one run only: {len(missing)}")
    for k in changed[: args.show]:
        diff = {f: (before[k].get(f), after[k].get(f)) for f in fields}
        print(" ", k, {f: v for f, v in diff.items() if v[0] != v[1]})
    if args.tally and "recorder" in key:
        for (target, old, new, rule), n in sorted(tally(before, after, changed).items()):
            print(f"  {n} {target}: {old} -> {new} ({rule})")
    rules = Counter(str(o.get("rule") or "none") for o in after.values())
    print("after, outcomes per rule: " + ", ".join(f"{r} {n}" for r, n in rules.most_common()))
    return 1 if changed or missing else 0


if __name__ == "__main__":
    sys.exit(main())
