"""Inline SVG charts for the HTML report: stacked bars and a histogram, drawn as plain SVG
text so the report needs no script, library or network to show them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Final

__all__ = ["COLORS", "histogram", "stacked_bars"]

COLORS: Final[Mapping[str, str]] = {
    "correct": "#2e7d32", "rejected": "#66bb6a", "answered": "#90a4ae",
    "abstained": "#f9a825", "wrong": "#c62828", "false_hit": "#ef6c00",
    "invalid": "#6a1b9a", "count": "#1565c0",
}  # fmt: skip
_WIDTH: Final[int] = 560
_BAR_AREA: Final[int] = 200
_LEFT: Final[int] = 48
_TOP: Final[int] = 28


def _axis(top: float, height: float, label: str) -> list[str]:
    """The y axis with four gridlines from 0 to ``top``."""
    parts = []
    for i in range(5):
        y = _TOP + height - height * i / 4
        value = top * i / 4
        parts.append(
            f'<line x1="{_LEFT}" x2="{_WIDTH - 8}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>'
            f'<text x="{_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11">'
            f"{value:g}</text>"
        )
    parts.append(
        f'<text x="12" y="{_TOP + height / 2:.0f}" font-size="11" '
        f'transform="rotate(-90 12 {_TOP + height / 2:.0f})" text-anchor="middle">'
        f"{escape(label)}</text>"
    )
    return parts


def _nice(top: float) -> float:
    """A round axis maximum at or above ``top``."""
    if top <= 0:
        return 1.0
    step = 10.0 ** (len(str(int(top))) - 1)
    for factor in (1, 2, 2.5, 5, 10):
        if factor * step * 4 >= top:
            return factor * step * 4
    return top


def stacked_bars(
    title: str,
    groups: Sequence[tuple[str, Mapping[str, float], str]],
    series: Sequence[str],
    *,
    y_label: str = "steps",
) -> str:
    """A stacked bar chart: one bar per group (label, value per series, note above the bar),
    segments in ``series`` order, with a legend.

    Examples
    --------
    >>> svg = stacked_bars("t", [("a11y", {"correct": 3, "wrong": 1}, "75%")],
    ...                    ["correct", "wrong"])
    >>> svg.startswith("<svg") and svg.count("<rect") == 2 + 2
    True
    """
    height = _BAR_AREA
    total = max((sum(v.get(s, 0) for s in series) for _, v, _ in groups), default=0)
    top = _nice(total)
    slot = (_WIDTH - _LEFT - 16) / max(len(groups), 1)
    bar = min(64.0, slot * 0.6)
    parts = _axis(top, height, y_label)
    for i, (label, values, note) in enumerate(groups):
        x = _LEFT + 8 + i * slot + (slot - bar) / 2
        y = float(_TOP + height)
        for name in series:
            value = float(values.get(name, 0))
            if value <= 0:
                continue
            h = height * value / top
            y -= h
            parts.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar:.1f}" height="{h:.1f}" '
                f'fill="{COLORS.get(name, "#888")}"><title>{escape(label)} · {name}: '
                f"{value:g}</title></rect>"
            )
        parts.append(
            f'<text x="{x + bar / 2:.1f}" y="{y - 4:.1f}" font-size="11" '
            f'text-anchor="middle">{escape(note)}</text>'
            f'<text x="{x + bar / 2:.1f}" y="{_TOP + height + 16}" font-size="11" '
            f'text-anchor="middle">{escape(label[:14])}</text>'
        )
    parts.extend(_legend(series, _TOP + height + 34))
    return _svg(title, parts, _TOP + height + 40 + 16 * ((len(series) + 3) // 4))


def _legend(series: Sequence[str], base: float) -> list[str]:
    parts = []
    for i, name in enumerate(series):
        x = _LEFT + (i % 4) * 120
        y = base + (i // 4) * 16
        parts.append(
            f'<rect x="{x}" y="{y - 10}" width="12" height="12" fill="{COLORS.get(name, "#888")}"/>'
            f'<text x="{x + 16}" y="{y}" font-size="11">{escape(name)}</text>'
        )
    return parts


def histogram(title: str, bins: Sequence[tuple[str, float]], *, y_label: str = "steps") -> str:
    """A histogram: one bar per ``(label, count)``, labels under the bars.

    Examples
    --------
    >>> histogram("latency", [("≤1", 4), (">1", 1)]).count("<rect")
    2
    """
    height = _BAR_AREA
    top = _nice(max((c for _, c in bins), default=0))
    slot = (_WIDTH - _LEFT - 16) / max(len(bins), 1)
    parts = _axis(top, height, y_label)
    for i, (label, count) in enumerate(bins):
        h = height * count / top
        x = _LEFT + 8 + i * slot
        parts.append(
            f'<rect x="{x + 2:.1f}" y="{_TOP + height - h:.1f}" width="{slot - 4:.1f}" '
            f'height="{h:.1f}" fill="{COLORS["count"]}"><title>{escape(label)} ms: '
            f"{count:g}</title></rect>"
            f'<text x="{x + slot / 2:.1f}" y="{_TOP + height + 16}" font-size="10" '
            f'text-anchor="middle">{escape(label)}</text>'
        )
    parts.append(
        f'<text x="{_WIDTH / 2:.0f}" y="{_TOP + height + 34}" font-size="11" '
        'text-anchor="middle">milliseconds per resolution</text>'
    )
    return _svg(title, parts, _TOP + height + 44)


def _svg(title: str, parts: Sequence[str], height: float) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{height:.0f}" '
        f'viewBox="0 0 {_WIDTH} {height:.0f}" role="img" aria-label="{escape(title)}" '
        'font-family="sans-serif">'
        f'<text x="{_LEFT}" y="16" font-size="13" font-weight="bold">{escape(title)}</text>'
        + "".join(parts)
        + "</svg>"
    )
