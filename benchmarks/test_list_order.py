"""Chromium's lists read in list order (``benchmarks/list_order.py``): both tree orders give
the walk's rows and parents, and the command measures the cache's lists or says it has none."""

import gzip
import json
import random
from pathlib import Path
from typing import Any

import pytest

from benchmarks import list_order
from benchmarks.chrome_step import chrome_cases
from resolver.adapters.a11y import cdp
from resolver.limits import DEFAULT_LIMITS


def _bfs_list(count: int, seed: int) -> list[dict[str, Any]]:
    """A random tree listed breadth-first, as Chromium lists it, with ignored nodes, inline
    text boxes, links with URLs, and one entry listed twice."""
    rng = random.Random(seed)
    kids: dict[int, list[int]] = {0: []}
    for i in range(1, count):
        parent = rng.randrange(i)
        kids.setdefault(parent, []).append(i)
        kids[i] = []
    order, queue = [], [0]
    while queue:
        at = queue.pop(0)
        order.append(at)
        queue.extend(kids[at])
    roles = ["generic", "link", "StaticText", "InlineTextBox", "button", "none"]
    nodes = []
    for i in order:
        role = rng.choice(roles)
        node: dict[str, Any] = {
            "nodeId": str(i + 1), "role": {"type": "role", "value": role},
            "name": {"type": "computedString", "value": f"n{i}"},
            "childIds": [str(k + 1) for k in kids[i]], "ignored": role == "none",
            "backendDOMNodeId": i + 100,
        }  # fmt: skip
        if i:
            node["parentId"] = str(next(p for p, ks in kids.items() if i in ks) + 1)
        if role == "link":
            node["properties"] = [{"name": "url", "value": {"value": f"https://x.test/{i}"}}]
        nodes.append(node)
    return [*nodes, dict(nodes[-1])]


@pytest.mark.parametrize("seed", range(5))
def test_both_orders_give_the_walks_rows_and_parents(seed: int) -> None:
    nodes = _bfs_list(300, seed)
    ids = cdp.dict_ids(nodes)
    assert ids is not None
    walked = cdp._walk(nodes, DEFAULT_LIMITS, ids, True)
    want = ([(*w[:3], *w[4:]) for w in walked], [w[3] for w in walked])
    rows = list_order.read_rows(nodes)
    assert list_order.position_order(nodes, ids, rows) == want
    assert list_order.forest_order(nodes, ids, rows) == want


def test_the_command_measures_the_cached_lists(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert list_order.main(["--cache", str(tmp_path)]) == 0
    assert "nothing to measure" in capsys.readouterr().err
    folder = tmp_path / "ab"
    folder.mkdir()
    tree = json.dumps({"nodes": _bfs_list(200, 9)})
    with gzip.open(folder / "ab01.json.gz", "wt", encoding="utf-8") as handle:
        json.dump({"axtree.json": tree}, handle)
    assert chrome_cases(tmp_path, 1)
    assert list_order.main(["--cache", str(tmp_path), "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "| ab01 | 201 |" in out and out.rstrip().endswith("| True |")
