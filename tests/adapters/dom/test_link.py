"""Cross-linking CDP a11y rows to DOM XPaths (alignment and the exact backend-id map)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from resolver import Observation
from resolver.adapters.dom import backend_xpaths, cross_link

CAPTURED = Path(__file__).resolve().parents[3] / "fixtures" / "captured"
PAGES = sorted(p for p in CAPTURED.glob("*") if (p / "axtree.json").is_file())


@pytest.mark.skipif(not PAGES, reason="fixtures/captured is not there")
def test_alignment_links_dom_backed_rows_precisely() -> None:
    total = linked = right = 0
    for page in PAGES:
        records = json.loads((page / "chromium_dom.json").read_text())
        truth = {str(r["backend_node_id"]): r["xpath"] for r in records}
        obs = Observation(
            accessibility_tree=json.loads((page / "axtree.json").read_text()),
            dom_html=(page / "dom.html").read_bytes(),
        )
        table = cross_link(obs.candidates("a11y"), obs.candidates("dom"))
        xpaths = table.platform_ids["xpath"]
        for i, backend in enumerate(table.platform_ids["backend_node_id"]):
            if backend is None or table.roles[i] in ("text", "none", "generic", "document"):
                continue
            total += 1
            if xpaths[i] is not None:
                linked += 1
                right += truth.get(backend) == xpaths[i]
    assert right == linked  # never a wrong link
    assert linked >= 0.9 * total


def test_exact_map_from_a_cdp_document() -> None:
    document = {
        "root": {"nodeType": 9, "children": [{"nodeType": 10}, {
            "nodeType": 1, "localName": "html", "backendNodeId": 1, "children": [
                {"nodeType": 1, "localName": "head", "backendNodeId": 2},
                {"nodeType": 1, "localName": "body", "backendNodeId": 3, "children": [
                    {"nodeType": 1, "localName": "button", "backendNodeId": 4},
                    {"nodeType": 3, "backendNodeId": 5},
                    {"nodeType": 1, "localName": "button", "backendNodeId": 6},
                ]},
            ]}]}
    }  # fmt: skip
    mapping = backend_xpaths(document)
    assert mapping["6"] == "/html[1]/body[1]/button[2]"
    tree = {"nodes": [
        {"nodeId": "1", "role": {"value": "RootWebArea"}, "childIds": ["2"], "backendDOMNodeId": 1},
        {"nodeId": "2", "role": {"value": "button"}, "name": {"value": "B"}, "parentId": "1",
         "backendDOMNodeId": 6},
    ]}  # fmt: skip
    table = cross_link(Observation(accessibility_tree=tree).candidates("a11y"), backend_map=mapping)
    assert table.platform_ids["xpath"] == ("/html[1]", "/html[1]/body[1]/button[2]")


def test_a_cdp_document_gives_linked_rows_web_evidence() -> None:
    document = {"root": {"nodeType": 9, "children": [{
        "nodeType": 1, "localName": "html", "backendNodeId": 1, "children": [
            {"nodeType": 1, "localName": "body", "backendNodeId": 3, "children": [
                {"nodeType": 1, "localName": "a", "backendNodeId": 4,
                 "attributes": ["class", "nav help", "href", "/help", "title", "Get help"]},
                {"nodeType": 1, "localName": "input", "backendNodeId": 5,
                 "attributes": ["type", "search", "placeholder", "Search"]},
            ]},
        ]}]}}  # fmt: skip
    tree = {"nodes": [
        {"nodeId": "1", "role": {"value": "RootWebArea"}, "childIds": ["2", "3"],
         "backendDOMNodeId": 1},
        {"nodeId": "2", "role": {"value": "link"}, "name": {"value": "Help"}, "parentId": "1",
         "backendDOMNodeId": 4},
        {"nodeId": "3", "role": {"value": "searchbox"}, "name": {"value": "Search"},
         "parentId": "1", "backendDOMNodeId": 5},
    ]}  # fmt: skip
    obs = Observation(accessibility_tree=tree, dom_node_map=document, url="https://x.org/")
    web = obs.candidates("a11y").platform_ids
    assert web["xpath"] == ("/html[1]", "/html[1]/body[1]/a[1]", "/html[1]/body[1]/input[1]")
    assert web["tag"] == ("html", "a", "input")
    assert web["href"][1] == "https://x.org/help" and web["class"][1] == "nav help"
    assert (web["attr:type"][2], web["attr:placeholder"][2]) == ("search", "Search")
