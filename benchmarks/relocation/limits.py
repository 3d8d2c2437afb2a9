"""What a relocation run's remaining errors carry: how many of them a reference could not tell
from a right answer.

Reads one run of the real-page relocation benchmark (``--json``) and, per source and
recorder, counts:

- **removed targets answered**, and how many of those targets had a twin (another element of
  the same role and name) on the page they were recorded on. A reference that records no
  look-alikes cannot know there were two; when one of them goes, the other is what is left
  at the recorded role and name, and only the box and the neighbour texts can still speak.
- **wrong answers to present targets**, how many of them are twins of the target (of how many
  present targets with a twin), and how many of those the benchmark found nothing recorded
  to tell apart (its ``apart`` list is empty: every field the reference recorded fits the
  answer as well as the target), per recorder convention (``varied`` references).

Usage::

    python -m benchmarks.relocation.limits run.json [--sources a11y,dom] [--recorders foreign]

Nothing here judges; it describes where the information in the references runs out, so a
proposed rule can be weighed against what any rule could reach.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .compare import only

__all__ = ["Limits", "limits", "main"]


@dataclass
class Limits:
    """The counts of one source and recorder (see the module's description)."""

    present: int = 0
    present_twins: int = 0
    wrong: int = 0
    wrong_twins: int = 0
    wrong_twins_alike: int = 0
    removed: int = 0
    removed_answered: int = 0
    removed_answered_twins: int = 0
    alike_by_convention: Counter[str] = field(default_factory=Counter)

    def add(self, outcome: dict[str, Any]) -> None:
        """Count one outcome."""
        answered = bool(outcome.get("answer"))
        if not outcome.get("present", True):
            self.removed += 1
            self.removed_answered += answered
            self.removed_answered_twins += answered and bool(outcome.get("twin"))
            return
        self.present += 1
        self.present_twins += bool(outcome.get("twin"))
        if outcome.get("verdict") != "wrong":
            return
        self.wrong += 1
        if not outcome.get("twin"):
            return
        self.wrong_twins += 1
        if not outcome.get("apart"):
            self.wrong_twins_alike += 1
            self.alike_by_convention[str(outcome.get("convention") or "-")] += 1


def limits(outcomes: Iterable[dict[str, Any]]) -> dict[tuple[str, str], Limits]:
    """The counts per ``(source, recorder)``, in the order first seen."""
    out: dict[tuple[str, str], Limits] = {}
    for o in outcomes:
        key = (str(o.get("source")), str(o.get("recorder")))
        out.setdefault(key, Limits()).add(o)
    return out


def _share(part: int, whole: int) -> str:
    return f"{part} ({100.0 * part / whole:.1f}%)" if whole else str(part)


def _lines(counts: dict[tuple[str, str], Limits]) -> list[str]:
    lines = [
        "| source | recorder | removed answered | of them with a twin | wrong (present) "
        "| wrong among twins | twins nothing recorded tells apart |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for (source, recorder), c in counts.items():
        alike = _share(c.wrong_twins_alike, c.wrong_twins)
        if c.alike_by_convention:
            alike += " — " + ", ".join(f"{k} {n}" for k, n in c.alike_by_convention.most_common())
        lines.append(
            f"| {source} | {recorder} | {c.removed_answered} of {c.removed} "
            f"| {_share(c.removed_answered_twins, c.removed_answered)} | {c.wrong} of {c.present} "
            f"| {c.wrong_twins} of {c.present_twins} | {alike} |"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--sources", help="only these sources, comma-separated")
    parser.add_argument("--recorders", help="only these recorders, comma-separated")
    args = parser.parse_args(argv)
    try:
        data = json.loads(args.run.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        print(f"{args.run}: cannot read a run: {exc}", file=sys.stderr)
        return 2
    if not isinstance(data, dict) or not isinstance(data.get("outcomes"), list):
        print(f"{args.run}: not a relocation benchmark run", file=sys.stderr)
        return 2
    outcomes = only(only(data["outcomes"], "source", args.sources), "recorder", args.recorders)
    print("\n".join(_lines(limits(outcomes))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
