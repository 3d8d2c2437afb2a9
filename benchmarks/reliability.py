"""Reliability of the answers' confidence, per benchmark and recorder: a table and a picture.

Usage::

    python -m benchmarks.reliability --relocation run.json [--similo similo.json]
                                     [--split heldout] [--part test]
                                     [--svg docs/reliability.svg]

Every answer of a run counts: right when it is the target, wrong when it is another element
or the target was removed. Its confidence is the one the library reports
(:func:`resolver.calibration.confidence` of the answer's score, margin and signals, which
both runs keep; an older Similo run's stored confidence is read when it kept no evidence).
``--part`` keeps the pages and apps of one part of the held-out half
(:func:`benchmarks.relocation.calibrate.part_of`): the confidence model is fitted on the
``calib`` part, so its figures come from the ``test`` part.

Answers are put in bands of confidence; per band the picture shows the share right against
the mean confidence (a point on the diagonal is calibrated, under it overconfident), the
point's area growing with the answers in it. The table adds, per group, what
``min_confidence=0.9`` keeps: the answers at or above 0.9 and the wrong ones among them.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.relocation.calibrate import part_of
from resolver.calibration import confidence

__all__ = ["BANDS", "Group", "main", "markdown", "relocation_groups", "similo_groups", "svg"]

BANDS: tuple[tuple[float, float], ...] = (
    (0.0, 0.5), (0.5, 0.8), (0.8, 0.9), (0.9, 0.95), (0.95, 0.99), (0.99, 1.0001),
)  # fmt: skip
LEVEL = 0.9


@dataclass(frozen=True)
class Group:
    """The answers of one benchmark cell: ``(confidence, right)`` each, and how many
    present targets the cell had (for wrong answers as a share of them)."""

    name: str
    answers: tuple[tuple[float, bool], ...]
    present: int


def _label(split: str, part: str | None) -> str:
    return split if part is None else f"{split}, {part} part"


def relocation_groups(data: dict[str, Any], split: str, part: str | None = None) -> list[Group]:
    """One group per source and recorder of a relocation run (identity controls and the
    seed left out), of one ``part`` of the half when given."""
    cells: dict[tuple[str, str], tuple[list[tuple[float, bool]], list[int]]] = {}
    for o in data["outcomes"]:
        if o["split"] != split or o["kind"] == "identity" or o["recorder"] == "seed":
            continue
        if part is not None and part_of(o["page"]) != part:
            continue
        answers, present = cells.setdefault((o["source"], o["recorder"]), ([], [0]))
        present[0] += bool(o["present"])
        if o.get("answer") is None or o.get("score") is None:
            continue
        sure = confidence(o["score"], o.get("margin", 0.0), o.get("signals"))
        answers.append((sure, bool(o["present"]) and o["answer"] == o["expected"]))
    return [
        Group(f"real pages {_label(split, part)}: {source} / {recorder}", tuple(a), p[0])
        for (source, recorder), (a, p) in sorted(cells.items())
    ]


def similo_groups(data: dict[str, Any], split: str, part: str | None = None) -> list[Group]:
    """The Similo run's answers of one half (of its apps of one ``part`` when given):
    present pairs, and pairs resolved again with their target removed (every answer there
    is wrong)."""
    answers: list[tuple[float, bool]] = []
    pairs = [
        p for p in data["pairs"]
        if p["split"] == split and (part is None or part_of(p["app"]) == part)
    ]  # fmt: skip
    for p in pairs:
        sure = _similo_confidence(p.get("evidence"), p.get("confidence"))
        if p["verdict"] in ("correct", "wrong") and sure is not None:
            answers.append((sure, p["verdict"] == "correct"))
        sure = _similo_confidence(p.get("removed_evidence"), p.get("removed_confidence"))
        if p.get("removed_answered") and sure is not None:
            answers.append((sure, False))
    return [Group(f"Similo redesigns {_label(split, part)} (a11y)", tuple(answers), len(pairs))]


def _similo_confidence(evidence: dict[str, Any] | None, stored: float | None) -> float | None:
    """An answer's confidence from its kept score, margin and signals, else as stored."""
    if evidence and evidence.get("score") is not None:
        signals = evidence.get("signals") or None
        return confidence(evidence["score"], evidence.get("margin", 0.0), signals)
    return stored


def _bands(group: Group) -> list[tuple[float, float, int, float, float]]:
    """Per non-empty band: its bounds, its answers, their mean confidence and share right."""
    out = []
    for low, high in BANDS:
        inside = [(c, r) for c, r in group.answers if low <= c < high]
        if inside:
            mean = sum(c for c, _ in inside) / len(inside)
            right = sum(r for _, r in inside) / len(inside)
            out.append((low, min(high, 1.0), len(inside), mean, right))
    return out


def markdown(groups: Sequence[Group]) -> str:
    """Per group: the bands, then what ``min_confidence=0.9`` keeps."""
    lines = [
        "| group | band | answers | mean confidence | share right |",
        "|---|---|---:|---:|---:|",
    ]
    for g in groups:
        for low, high, n, mean, right in _bands(g):
            lines.append(f"| {g.name} | {low:.2f}-{high:.2f} | {n} | {mean:.3f} | {right:.3f} |")
    lines += [
        "",
        f"| group | answers | wrong | at min_confidence={LEVEL}: answers | wrong | wrong % of "
        "answers | wrong % of present targets |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for g in groups:
        kept = [r for c, r in g.answers if c >= LEVEL]
        wrong_all = sum(not r for _, r in g.answers)
        wrong = sum(not r for r in kept)
        share = 100.0 * wrong / len(kept) if kept else 0.0
        of_present = 100.0 * wrong / g.present if g.present else 0.0
        lines.append(
            f"| {g.name} | {len(g.answers)} | {wrong_all} | {len(kept)} | {wrong} | "
            f"{share:.2f} | {of_present:.2f} |"
        )
    return "\n".join(lines)


LOW = 0.5
"""The pictures' axes start here: nearly every answer is above it, and the decade from 0.9
to 1 is where ``min_confidence`` is set. A band below is drawn on the edge, hollow."""


def svg(groups: Sequence[Group], columns: int = 3) -> str:
    """The reliability picture: one panel per group, confidence across, share right up,
    from :data:`LOW` to 1; a green point is at least as right as its confidence says, a red
    one is overconfident."""
    size, pad, top = 220, 90, 44
    rows = math.ceil(len(groups) / columns) or 1
    width, height = columns * (size + pad) + pad, rows * (size + pad + top) + pad
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    for i, g in enumerate(groups):
        x0 = pad + (i % columns) * (size + pad)
        y0 = top + pad + (i // columns) * (size + pad + top)
        out += _panel(g, x0, y0, size)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _panel(g: Group, x0: float, y0: float, size: float) -> list[str]:
    def at(p: float, q: float) -> tuple[float, float]:
        span = 1.0 - LOW
        return x0 + (max(p, LOW) - LOW) / span * size, y0 + (1 - (max(q, LOW) - LOW) / span) * size

    kept = [r for c, r in g.answers if c >= LEVEL]
    wrong = 100.0 * sum(not r for r in kept) / len(kept) if kept else 0.0
    (ax, ay), (bx, by) = at(LOW, LOW), at(1, 1)
    parts = [
        f'<text x="{x0}" y="{y0 - 22}" font-weight="bold">{_escape(g.name)}</text>',
        f'<text x="{x0}" y="{y0 - 8}" fill="#555">{len(g.answers)} answers; at or above '
        f"{LEVEL}: {len(kept)}, {wrong:.2f}% wrong</text>",
        f'<rect x="{x0}" y="{y0}" width="{size}" height="{size}" fill="none" stroke="#888"/>',
        f'<line x1="{ax}" y1="{ay}" x2="{bx}" y2="{by}" stroke="#bbb" stroke-dasharray="4 3"/>',
        f'<text x="{x0 + size / 2}" y="{y0 + size + 28}" text-anchor="middle">confidence</text>',
        f'<text x="{x0 - 30}" y="{y0 + size / 2}" text-anchor="middle" '
        f'transform="rotate(-90 {x0 - 30} {y0 + size / 2})">share right</text>',
    ]
    for tick in (LOW, 0.75, LEVEL, 1.0):
        tx, _ = at(tick, LOW)
        _, ty = at(LOW, tick)
        parts += [
            f'<text x="{tx}" y="{y0 + size + 13}" text-anchor="middle" fill="#555">{tick:g}</text>',
            f'<text x="{x0 - 4}" y="{ty + 4}" text-anchor="end" fill="#555">{tick:g}</text>',
        ]
    for _low, _high, n, mean, right in _bands(g):
        cx, cy = at(mean, right)
        r = 2.5 + 2.5 * math.log10(1 + n)
        colour = "#2a7" if right >= mean - 0.005 else "#c33"
        fill = "none" if right < LOW or mean < LOW else colour
        parts.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{fill}" '
            f'fill-opacity="0.55" stroke="{colour}"><title>{n} answers, confidence '
            f"{mean:.3f}, right {right:.3f}</title></circle>"
        )
    return parts


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _load(path: Path | None) -> dict[str, Any] | None:
    return None if path is None else json.loads(path.read_text(encoding="utf-8"))


def main(argv: Iterable[str] | None = None) -> int:
    """Print the table; write the picture when ``--svg`` is given."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--relocation", type=Path, help="a python -m benchmarks.relocation JSON")
    parser.add_argument("--similo", type=Path, help="a python -m benchmarks.similo JSON")
    parser.add_argument("--split", default="heldout", choices=("tune", "heldout"))
    parser.add_argument("--part", choices=("calib", "test"), help="one part of the half")
    parser.add_argument("--svg", type=Path, help="write the picture here")
    args = parser.parse_args(list(argv) if argv is not None else None)
    groups: list[Group] = []
    relocation, similo = _load(args.relocation), _load(args.similo)
    if relocation is not None:
        groups += relocation_groups(relocation, args.split, args.part)
    if similo is not None:
        groups += similo_groups(similo, args.split, args.part)
    if not groups:
        parser.error("give --relocation and/or --similo")
    print(markdown(groups))
    if args.svg is not None:
        args.svg.parent.mkdir(parents=True, exist_ok=True)
        args.svg.write_text(svg(groups), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
