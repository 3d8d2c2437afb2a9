"""The step on Chromium's own lists (``benchmarks/chrome_step.py``): which cached lists it
takes, the reference it resolves, and what it prints."""

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks import chrome_step


def _node(node_id: str, role: str, name: str, kids: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "nodeId": node_id, "role": {"type": "role", "value": role},
        "name": {"type": "computedString", "value": name}, "childIds": list(kids),
    }  # fmt: skip


def _render(root: Path, key: str, nodes: list[dict[str, Any]] | None) -> None:
    folder = root / key[:2]
    folder.mkdir(parents=True, exist_ok=True)
    data: dict[str, Any] = {"dom.html": "<p>" + "x" * len(key)}
    if nodes is not None:
        data["axtree.json"] = json.dumps({"nodes": nodes})
    with gzip.open(folder / f"{key}.json.gz", "wt", encoding="utf-8") as handle:
        json.dump(data, handle)


def _page(links: int) -> list[dict[str, Any]]:
    kids = tuple(str(i + 2) for i in range(links))
    nodes = [_node("1", "RootWebArea", "Page", kids)]
    nodes += [_node(str(i + 2), "link", f"Link {i}") for i in range(links)]
    return [*nodes, dict(nodes[-1])]  # the last node listed twice, as Chrome does


def test_the_largest_lists_are_taken_with_a_named_link_of_each(tmp_path: Path) -> None:
    _render(tmp_path, "aa01", _page(3))
    _render(tmp_path, "bb02", _page(9))
    _render(tmp_path, "cc03", None)  # a render without a tree
    _render(tmp_path, "dd04", [_node("1", "RootWebArea", "Empty")])  # nothing to click
    cases = chrome_step.chrome_cases(tmp_path, 2)
    assert [c.key for c in cases] == ["bb02", "aa01"]
    assert cases[0].ref.role == "link" and cases[0].ref.name == "Link 5"  # the middle one of 10
    assert cases[0].repeated_ids == 1
    row = chrome_step.measure(cases[0], repeat=2)
    assert row["nodes"] == 11 and row["repeated_ids"] == 1
    assert row["step_ms"] > 0 and row["naive_over_step"] > 0
    assert chrome_step.naive(cases[0]) == "7"  # the naive loop finds the same link
    assert "| median |" in chrome_step.table([row])


def test_without_a_cache_it_says_so_and_exits_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert chrome_step.main(["--cache", str(tmp_path / "none")]) == 0
    assert "nothing to measure" in capsys.readouterr().err
