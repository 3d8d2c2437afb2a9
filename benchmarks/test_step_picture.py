"""The growth picture of ``python -m benchmarks.step_speed --svg`` (no timing is asserted)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from benchmarks.step_speed import SERIES, _nice_top, _short, main, svg

NS = "{http://www.w3.org/2000/svg}"


def _row(tree: str, nodes: int, step: float, build: float, naive: float) -> dict[str, Any]:
    return {
        "tree": tree, "nodes": nodes, "step_ms": step, "build_ms": build, "naive_ms": naive,
        "naive_over_step": naive / step,
    }  # fmt: skip


def test_one_panel_per_tree_with_a_line_per_series_and_a_point_per_size() -> None:
    rows = [
        _row("nested", 1_000, 1.0, 0.8, 1.5),
        _row("nested", 10_000, 12.0, 9.0, 16.0),
        _row("nested", 200_000, 300.0, 240.0, 300.0),
        _row("cdp", 10_000, 16.0, 13.0, 7.0),
        _row("cdp", 1_000, 1.6, 1.3, 0.7),
    ]
    root = ET.fromstring(svg(rows))
    titles = [t.text for t in root.iter(f"{NS}text") if t.get("font-weight") == "bold"]
    assert titles == ["nested", "cdp"]  # in the order the rows give them
    lines = list(root.iter(f"{NS}polyline"))
    assert len(lines) == 2 * len(SERIES)
    assert len(list(root.iter(f"{NS}circle"))) == 5 * len(SERIES)
    # The points of a series go across in order of size, whatever the rows' order.
    for line in lines:
        xs = [float(p.split(",")[0]) for p in (line.get("points") or "").split()]
        assert xs == sorted(xs)
    hints = [c.findtext(f"{NS}title") or "" for c in root.iter(f"{NS}circle")]
    assert "step, 10k nodes: 1.20 us a node" in hints  # 12 ms over 10,000 nodes
    assert "naive loop, 1k nodes: 0.70 us a node" in hints
    subtitles = [t.text or "" for t in root.iter(f"{NS}text") if (t.text or "").startswith("naive")]
    assert subtitles[0] == "naive/step: 1k 1.50 · 10k 1.33 · 200k 1.00"


def test_a_tree_named_with_markup_is_written_as_text() -> None:
    root = ET.fromstring(svg([_row("<a&b>", 1_000, 1.0, 1.0, 1.0)]))
    assert [t.text for t in root.iter(f"{NS}text") if t.get("font-weight") == "bold"] == ["<a&b>"]


def test_a_cheaper_series_is_drawn_lower() -> None:
    root = ET.fromstring(
        svg([_row("cdp", 1_000, 3.0, 2.0, 1.0), _row("cdp", 2_000, 6.0, 4.0, 2.0)])
    )
    heights = {}
    for circle in root.iter(f"{NS}circle"):
        label = re.sub(r",.*", "", circle.findtext(f"{NS}title") or "")
        heights.setdefault(label, float(circle.get("cy") or 0))
    # SVG's y grows downwards: the slowest series is highest on the picture.
    assert heights["step"] < heights["build"] < heights["naive loop"]


@pytest.mark.parametrize(
    ("value", "top"), [(0.0, 1.0), (0.42, 0.5), (1.0, 1.0), (1.3, 2.0), (7.1, 10.0), (30.0, 50.0)]
)
def test_the_axis_ends_at_a_round_number_at_or_above_the_largest(value: float, top: float) -> None:
    assert _nice_top(value) == pytest.approx(top)


def test_sizes_are_written_short() -> None:
    assert [_short(n) for n in (800, 1_000, 1_500, 50_000, 200_000)] == [
        "800", "1k", "1.5k", "50k", "200k",
    ]  # fmt: skip


def test_the_command_writes_the_picture(tmp_path: Path) -> None:
    out = tmp_path / "pictures" / "growth.svg"
    args = ["--sizes", "1000", "2000", "--kinds", "nested", "--repeat", "1", "--no-warm"]
    assert main([*args, "--svg", str(out)]) == 0
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert [t.text for t in root.iter(f"{NS}text") if t.get("font-weight") == "bold"] == ["nested"]
