"""The step on a tree linked to its page (``benchmarks/linked_step.py``): which cached renders
it takes, the reference it resolves, and what it prints."""

import gzip
import json
from pathlib import Path

import pytest

from benchmarks import linked_step
from resolver.table import LazyColumns


def _render(root: Path, key: str, *, labelled: bool = True) -> None:
    nodes = [
        {"nodeId": "1", "role": {"value": "RootWebArea"}, "name": {"value": "Page"},
         "childIds": ["2"], "backendDOMNodeId": 1},
        {"nodeId": "2", "role": {"value": "link"}, "name": {"value": "Help"}, "parentId": "1",
         "backendDOMNodeId": 4, "bbox": [8, 8, 40, 24]},
    ]  # fmt: skip
    records = [
        {"backend_node_id": 1, "xpath": "/html[1]"},
        {"backend_node_id": 4, "xpath": "/html[1]/body[1]/a[1]"},
    ]
    label = {"role": "link", "name": "Help", "bbox": [8, 8, 40, 24],
             "xpath": "/html[1]/body[1]/a[1]"}  # fmt: skip
    files = {
        "axtree.json": json.dumps({"nodes": nodes}),
        "chromium_dom.json": json.dumps(records),
        "dom.html": '<html><body><a class="nav" href="/help">Help</a></body></html>',
        "labels.json": json.dumps({"t0": label} if labelled else {}),
        "meta.json": json.dumps({"viewport": [1280, 800]}),
    }
    folder = root / key[:2]
    folder.mkdir(parents=True, exist_ok=True)
    with gzip.open(folder / f"{key}.json.gz", "wt", encoding="utf-8") as handle:
        json.dump(files, handle)


def test_pages_with_a_map_the_html_and_a_named_target_are_taken(tmp_path: Path) -> None:
    _render(tmp_path, "aa01")
    _render(tmp_path, "bb02", labelled=False)
    pages = linked_step.linked_pages(tmp_path, 5)
    assert [p.key for p in pages] == ["aa01"] and pages[0].nodes == 2
    page = pages[0]
    assert (page.ref.role, page.ref.name, page.screen) == ("link", "Help", (1280, 800))
    obs = page.observation()
    columns = obs.candidates("a11y").platform_ids
    assert isinstance(columns, LazyColumns) and columns["class"][1] == "nav"
    assert linked_step.step_ms(page, page.ref, 2) > 0


def test_main_prints_a_row_per_page_and_the_medians(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _render(tmp_path, "aa01")
    monkeypatch.setenv("RESOLVER_RELOCATION_CACHE", str(tmp_path))
    assert linked_step.main(["--pages", "3", "--repeat", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2].startswith("| aa01 | 2 |") and out[-1].startswith("| median of 1 |")
    monkeypatch.setenv("RESOLVER_RELOCATION_CACHE", str(tmp_path / "none"))
    assert linked_step.main([]) == 0
    assert "no render cache" in capsys.readouterr().out
