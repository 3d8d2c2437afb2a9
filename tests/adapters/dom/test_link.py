"""Cross-linking CDP a11y rows to DOM XPaths (alignment and the exact backend-id map)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from resolver import (
    InvalidObservationError,
    LimitExceededError,
    Limits,
    Observation,
    SemanticElementRef,
    resolve,
)
from resolver.adapters.dom import backend_xpaths, cross_link
from resolver.adapters.dom.link import page_evidence
from resolver.table import LazyColumns

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
    # Only the IDs asked for are written out (a deep page's other paths are never joined).
    assert backend_xpaths(document, wanted={"6", "2", "99"}) == {
        "6": "/html[1]/body[1]/button[2]", "2": "/html[1]/head[1]"
    }  # fmt: skip
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


def _linked(html: str, **extra: object) -> Observation:
    """A CDP tree of a link and a search box, linked by a backend-ID -> xpath map to ``html``."""
    tree = {"nodes": [
        {"nodeId": "1", "role": {"value": "RootWebArea"}, "childIds": ["2", "3", "4"],
         "backendDOMNodeId": 1},
        {"nodeId": "2", "role": {"value": "link"}, "name": {"value": "Help"}, "parentId": "1",
         "backendDOMNodeId": 4,
         "properties": [{"name": "url", "value": {"value": "https://tree.example/help"}}]},
        {"nodeId": "3", "role": {"value": "searchbox"}, "name": {"value": "Search"},
         "parentId": "1", "backendDOMNodeId": 5},
        {"nodeId": "4", "role": {"value": "button"}, "name": {"value": "Go"}, "parentId": "1"},
    ]}  # fmt: skip
    links = {"1": "/html[1]", "4": "/html[1]/body[1]/a[1]", "5": "/html[1]/body[1]/input[1]"}
    return Observation(
        accessibility_tree=tree, dom_node_map=links, dom_html=html, url="https://x.org/",
        **extra,  # type: ignore[arg-type]
    )  # fmt: skip


_PAGE = (
    '<html><body><a class="nav help" href="/help" title="Get help">Help</a>'
    '<input type="search" placeholder="Search"><button>Go</button></body></html>'
)


def test_a_map_and_the_page_html_give_linked_rows_web_evidence() -> None:
    web = _linked(_PAGE).candidates("a11y").platform_ids
    assert web["xpath"] == ("/html[1]", "/html[1]/body[1]/a[1]", "/html[1]/body[1]/input[1]", None)
    # The root element has no row in the DOM table and the button no link: nothing read.
    assert web["tag"] == (None, "a", "input", None)
    assert web["class"][1] == "nav help" and web["attr:title"][1] == "Get help"
    assert (web["attr:type"][2], web["attr:placeholder"][2]) == ("search", "Search")
    # The tree's own value (the url Chrome resolved) is kept over the page's.
    assert web["href"][1] == "https://tree.example/help"


def test_page_evidence_leaves_tables_it_cannot_add_to_as_they_are() -> None:
    obs = _linked(_PAGE)
    a11y, dom = obs.candidates("a11y"), obs.candidates("dom")
    assert page_evidence(a11y, dom) is a11y  # it has a tag column already
    plain = Observation(accessibility_tree=obs.accessibility_tree).candidates("a11y")
    assert "xpath" not in plain.platform_ids
    assert page_evidence(plain, dom) is plain  # no row is linked
    # An element the DOM table has no row for (here: not in the page) reads as nothing.
    other = _linked("<html><body><p>moved</p></body></html>").candidates("a11y").platform_ids
    assert other["tag"] == (None,) * 4 and other["class"] == (None,) * 4


def test_without_readable_page_html_the_rows_read_nothing_but_what_the_tree_gave() -> None:
    obs = _linked(_PAGE)
    bare = Observation(accessibility_tree=obs.accessibility_tree, dom_node_map=obs.dom_node_map)
    assert "tag" not in bare.candidates("a11y").platform_ids
    unreadable = _linked(_PAGE, limits=Limits(max_html_chars=20))
    with pytest.raises(InvalidObservationError):
        unreadable.candidates("dom")
    web = unreadable.candidates("a11y").platform_ids  # no error: the DOM source says why
    assert web["tag"] == (None,) * 4 and web["class"] == (None,) * 4
    assert web["href"][1] == "https://tree.example/help" and web["xpath"][1] is not None


def test_the_page_is_read_only_for_a_reference_that_recorded_web_evidence() -> None:
    obs = _linked(_PAGE)
    columns = obs.candidates("a11y").platform_ids
    assert isinstance(columns, LazyColumns) and "class" in columns and not columns.made
    resolve(SemanticElementRef(role="link", name="Help"), obs, sources=("a11y",))
    assert not columns.made  # role and name only: no DOM built
    found = resolve(SemanticElementRef(role="link", name="Help", classes=("help",)), obs)
    assert found.executor_id == "a11y:2" and columns.made


_TWO_NODES = {"nodes": [
    {"nodeId": "1", "role": {"value": "RootWebArea"}, "childIds": ["2"], "backendDOMNodeId": 1},
    {"nodeId": "2", "role": {"value": "button"}, "name": {"value": "OK"}, "parentId": "1",
     "backendDOMNodeId": 4},
]}  # fmt: skip


def _element(backend: int, children: list[object] | None = None) -> dict[str, object]:
    return {"nodeType": 1, "localName": "div", "backendNodeId": backend,
            "children": [] if children is None else children}  # fmt: skip


def _table_of(document: object, limits: Limits | None = None) -> object:
    obs = Observation(accessibility_tree=_TWO_NODES, dom_node_map=document, limits=limits)  # type: ignore[arg-type]
    return obs.candidates("a11y")


@pytest.mark.parametrize("shape", ["cycle", "shared child", "cycle below a text node"])
def test_a_document_that_is_not_a_tree_is_refused_not_walked_for_ever(shape: str) -> None:
    html = _element(1)
    if shape == "cycle":
        html["children"] = [_element(2, [html])]
    elif shape == "shared child":
        shared = _element(3)
        html["children"] = [_element(2, [shared]), _element(4, [shared])]
    else:  # web evidence walks every node, not only elements
        text: dict[str, object] = {"nodeType": 3, "children": []}
        text["children"] = [text]
        html["children"] = [text]
    with pytest.raises(InvalidObservationError, match="cyclic or shares a node"):
        _table_of({"root": {"nodeType": 9, "children": [html]}})


def test_a_document_deeper_or_larger_than_the_limits_is_refused() -> None:
    deep = _element(1)
    node = deep
    for backend in range(2, 80):
        child = _element(backend)
        node["children"] = [child]
        node = child
    with pytest.raises(LimitExceededError, match="max_depth"):
        _table_of({"root": deep}, Limits(max_depth=50))
    assert _table_of({"root": deep}, Limits(max_depth=100)) is not None
    wide = {"root": _element(1, [_element(b) for b in range(2, 40)])}
    with pytest.raises(LimitExceededError, match="max_nodes"):
        _table_of(wide, Limits(max_nodes=20))
    flat = {str(b): f"/html[1]/div[{b}]" for b in range(30)}
    with pytest.raises(LimitExceededError, match="max_nodes"):
        _table_of(flat, Limits(max_nodes=20))


def test_attributes_that_are_not_name_value_strings_are_skipped() -> None:
    button = {"nodeType": 1, "localName": "button", "backendNodeId": 4,
              "attributes": [["x"], "y", 7, "z", "class", "primary", "title", None]}  # fmt: skip
    table = _table_of({"root": _element(1, [button])})
    ids = table.platform_ids  # type: ignore[attr-defined]
    assert ids["class"][1] == "primary" and ids["tag"][1] == "button"


def test_a_deep_document_writes_out_only_the_paths_the_tree_links() -> None:
    # A chain of 3,000 divs, each with ten spans: every path joined would be tens of
    # megabytes; the tree links one element, and only its path is written.
    spans = 10
    node: dict[str, object] = {"nodeType": 1, "localName": "div", "backendNodeId": 10**6}
    for level in range(3000, 0, -1):
        kids: list[object] = [
            {"nodeType": 1, "localName": "span", "backendNodeId": 10**7 + level * spans + i}
            for i in range(spans)
        ]
        node = {"nodeType": 1, "localName": "div", "backendNodeId": level,
                "children": [*kids, node]}  # fmt: skip
    document = {"root": {"nodeType": 9, "children": [node]}}
    every = backend_xpaths(document)
    assert len(every) == 3001 + 3000 * spans
    asked = backend_xpaths(document, wanted={"3", str(10**6)})
    assert asked == {"3": every["3"], str(10**6): every[str(10**6)]}
    assert asked["3"] == "/div[1]/div[1]/div[1]"
