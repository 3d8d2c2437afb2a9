"""SVG charts: well-formed, one bar segment per non-zero value, labels escaped."""

from __future__ import annotations

from xml.etree import ElementTree

from resolver.replay.charts import histogram, stacked_bars


def test_stacked_bars_are_well_formed_svg() -> None:
    svg = stacked_bars(
        "Verdicts <by> source",
        [
            ("a11y", {"correct": 10, "wrong": 2}, "83%"),
            ("none", {"abstained": 3}, "–"),
        ],
        ["correct", "abstained", "wrong"],
    )
    root = ElementTree.fromstring(svg)
    rects = [e for e in root.iter() if e.tag.endswith("rect")]
    assert len(rects) == 3 + 3  # three segments, three legend keys
    assert "Verdicts &lt;by&gt; source" in svg


def test_histogram_and_empty_charts() -> None:
    svg = histogram("latency", [("≤1", 5), ("≤2", 0), (">2", 1)])
    ElementTree.fromstring(svg)
    assert svg.count("<rect") == 3
    ElementTree.fromstring(stacked_bars("empty", [], ["correct"]))
    ElementTree.fromstring(histogram("empty", []))
