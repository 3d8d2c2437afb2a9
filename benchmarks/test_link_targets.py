"""The link-target check: the targets of a render cache, and their keys read both ways."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from benchmarks import link_targets


def _render(root: Path, name: str, bundle: dict[str, str]) -> None:
    folder = root / name[:2]
    folder.mkdir(parents=True, exist_ok=True)
    with gzip.open(folder / f"{name}.json.gz", "wt", encoding="utf-8") as handle:
        json.dump(bundle, handle)


def test_targets_are_read_from_the_links_and_the_saved_dom(tmp_path: Path) -> None:
    link = {"nodeId": "1", "properties": [{"name": "url", "value": {"value": "/a/b?x=1"}}]}
    _render(tmp_path, "ab12", {
        "axtree.json": json.dumps({"nodes": [link, {"nodeId": "2"}]}),
        "dom.html": "<a href='https://www.example.org/'>x</a><a href=\"#top\">y</a>",
    })  # fmt: skip
    _render(tmp_path, "cd34", {"axtree.json": "[]"})
    found = link_targets.targets(tmp_path)
    assert found == {"/a/b?x=1", "https://www.example.org/", "#top"}
    plain, differ, _ = link_targets.compare(found | {"javascript:void(0)", " "})
    assert (plain, differ) == (2, 0)  # (the query's target is read by urlsplit)
    assert link_targets.main(["--cache", str(tmp_path)]) == 0


def test_no_cache_is_nothing_to_compare(tmp_path: Path) -> None:
    assert link_targets.main(["--cache", str(tmp_path / "none")]) == 0
