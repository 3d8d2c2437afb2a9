"""The CDP plan of an observation, run against recorded answers (no browser)."""

from __future__ import annotations

import base64
import copy
import pickle
from typing import Any

import pytest

from resolver import InvalidObservationError, SemanticElementRef, resolve
from resolver.integrations.snapshot import (
    PageObservation,
    PageSnapshot,
    RemoteFrame,
    observe_steps,
    to_observation,
)

STRINGS = ["#document", "HTML", "BODY", "BUTTON", "IFRAME", "DIV", "SPAN", "open", "F2", "id",
           "x"]  # fmt: skip


def _doc(names: list[int], parents: list[int], backends: list[int], layout: dict[int, list[float]],
         **extra: Any) -> dict[str, Any]:  # fmt: skip
    return {"nodes": {"parentIndex": parents, "nodeType": [9] + [1] * (len(names) - 1),
                      "nodeName": names, "backendNodeId": backends,
                      "attributes": [[] for _ in names], **extra},
            "layout": {"nodeIndex": list(layout), "bounds": list(layout.values())},
            "scrollOffsetX": 0, "scrollOffsetY": 10}  # fmt: skip


ANSWERS: dict[str, Any] = {
    "Page.getFrameTree": {"frameTree": {"frame": {"id": "F1"}, "childFrames": [
        {"frame": {"id": "F2"}}]}},
    "Accessibility.getFullAXTree": {"nodes": [
        {"nodeId": "1", "role": {"value": "RootWebArea"}, "childIds": ["4", "6"],
         "backendDOMNodeId": 1},
        {"nodeId": "4", "parentId": "1", "role": {"value": "button"}, "name": {"value": "Go"},
         "backendDOMNodeId": 4},
        {"nodeId": "6", "parentId": "1", "role": {"value": "button"},
         "name": {"value": "Deep"}, "backendDOMNodeId": 6},
        {"nodeId": "5", "parentId": "1", "role": {"value": "Iframe"}, "backendDOMNodeId": 5}]},
    "frame": {"nodes": [
        {"nodeId": "1", "role": {"value": "RootWebArea"}, "childIds": ["9"],
         "backendDOMNodeId": 8},
        {"nodeId": "9", "parentId": "1", "role": {"value": "button"},
         "name": {"value": "Inside"}, "backendDOMNodeId": 9}]},
    "DOMSnapshot.captureSnapshot": {"strings": STRINGS, "documents": [
        _doc([0, 1, 2, 3, 4, 5, 3], [-1, 0, 1, 2, 2, 2, 5], [0, 1, 2, 4, 5, 7, 6],
             {3: [10, 20, 50, 20], 4: [100, 200, 300, 100], 6: [0, 0, 5, 5]},
             contentDocumentIndex={"index": [4], "value": [1]},
             shadowRootType={"index": [6], "value": [7]}),
        {**_doc([0, 1, 2, 3], [-1, 0, 1, 2], [8, 10, 11, 9], {3: [5, 5, 20, 10]}), "frameId": 8},
    ]},
    "Runtime.evaluate": {"result": {"value": {"html": "<body><button>Go</button></body>",
                                              "width": 800, "height": 600, "url": "x"}}},
    "Page.captureScreenshot": {"data": base64.b64encode(b"png").decode()},
}  # fmt: skip


def _snapshot(answers: dict[str, Any]) -> PageSnapshot:
    steps = observe_steps(screenshot=True)
    result: Any = None
    try:
        while True:
            method, params = steps.send(result)
            key = "frame" if params.get("frameId") else method
            result = answers.get(key)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


def _run(answers: dict[str, Any]) -> PageObservation:
    return to_observation(_snapshot(answers))


def test_frames_boxes_links_and_shadow_trees() -> None:
    obs = _run(ANSWERS)
    assert obs.screen_size == (800.0, 600.0) and obs.screenshot == b"png"
    inside = resolve(SemanticElementRef(role="button", name="Inside"), obs)
    # The frame (100, 190 after the page scroll) offsets its content, less its own scroll.
    assert inside.candidate.bbox == (105.0, 185.0, 125.0, 195.0)
    go = resolve(SemanticElementRef(role="button", name="Go"), obs)
    assert go.candidate.bbox == (10.0, 10.0, 60.0, 30.0)
    assert inside.executor_id == "a11y:F2.9"  # the frame reuses node id 1: prefixed
    assert obs.backend_ids["a11y:4"] == 4 and obs.backend_ids["a11y:F2.9"] == 9
    assert obs.backend_ids["xpath:/html[1]/body[1]/button[1]"] == 4
    assert not any(k.startswith("xpath:") and v == 6 for k, v in obs.backend_ids.items())
    assert obs.in_shadow == frozenset({"a11y:6"})  # (the page's HTML does not hold it)
    assert obs.dom_layout == {"/html[1]/body[1]/button[1]": [10, 10, 60, 30],
                              "/html[1]/body[1]/iframe[1]": [100, 190, 400, 290]}  # fmt: skip


def test_a_page_without_a_tree_is_refused() -> None:
    with pytest.raises(InvalidObservationError):
        _run({**ANSWERS, "Accessibility.getFullAXTree": None})
    with pytest.raises(InvalidObservationError):
        _run({**ANSWERS, "DOMSnapshot.captureSnapshot": None})


def test_a_frames_nodes_know_the_frame_elements_to_enter() -> None:
    obs = _run(ANSWERS)
    # The frame's button: its frame element's XPath in the page, its own in the frame.
    holder = "/html[1]/body[1]/iframe[1]"
    assert obs.frame_paths["a11y:F2.9"] == ((holder,), "/html[1]/body[1]/button[1]")
    assert obs.frame_paths["a11y:F2.1"] == ((holder,), None)  # the frame's document
    assert not any(k in obs.frame_paths for k in ("a11y:1", "a11y:4", "a11y:5", "a11y:6"))
    # A frame whose element is inside a shadow tree: no XPath reaches it, none is made up.
    docs = ANSWERS["DOMSnapshot.captureSnapshot"]["documents"]
    shadowed = {
        **docs[0],
        "nodes": {**docs[0]["nodes"], "contentDocumentIndex": {"index": [6], "value": [1]}},
    }
    snap = {**ANSWERS["DOMSnapshot.captureSnapshot"], "documents": [shadowed, docs[1]]}
    assert _run({**ANSWERS, "DOMSnapshot.captureSnapshot": snap}).frame_paths == {}


def test_a_page_observation_pickles_and_copies_with_its_node_links() -> None:
    obs = _run(ANSWERS)
    for other in (pickle.loads(pickle.dumps(obs)), copy.deepcopy(obs), copy.copy(obs)):
        assert isinstance(other, PageObservation)
        assert other.backend_ids == obs.backend_ids and other.frame_paths == obs.frame_paths
        assert other.in_shadow == obs.in_shadow
        res = resolve(SemanticElementRef(role="button", name="Inside"), other)
        assert res.executor_id == "a11y:F2.9"


# A cross-site frame's own answers: its process numbers its nodes from 1 again (backend 4,
# its "Pay" button, is also the page's "Go" button).
REMOTE: dict[str, Any] = {
    **ANSWERS,
    "Page.getFrameTree": {"frameTree": {"frame": {"id": "R7"}}},
    "Accessibility.getFullAXTree": {"nodes": [
        {"nodeId": "1", "role": {"value": "RootWebArea"}, "name": {"value": "Card"},
         "childIds": ["2"], "backendDOMNodeId": 1},
        {"nodeId": "2", "parentId": "1", "role": {"value": "button"}, "name": {"value": "Pay"},
         "backendDOMNodeId": 4}]},
    "DOMSnapshot.captureSnapshot": {"strings": STRINGS, "documents": [
        _doc([0, 1, 2, 3], [-1, 0, 1, 2], [1, 2, 3, 4], {3: [8, 18, 40, 20]})]},
}  # fmt: skip


def test_a_cross_site_frame_is_hung_under_its_frame_element() -> None:
    snapshot = _snapshot(ANSWERS)
    inner = RemoteFrame("R7abcdef", _snapshot(REMOTE), owner=5, offset=(112.0, 202.0))
    nested = RemoteFrame("N1", _snapshot(REMOTE), owner=4, offset=(130.0, 230.0), parent="R7abcdef")
    snapshot.remotes = [inner, nested]
    obs = to_observation(snapshot)
    pay = resolve(SemanticElementRef(role="button", name="Pay", container_path=("Card",)), obs)
    # Its own ID space, under the page's iframe node; its box offset into the tab's viewport
    # (the DOMSnapshot's own scroll of 10 px included).
    assert pay.executor_id == "a11y:R7abcdef.2" and obs.targets[pay.executor_id] == "R7abcdef"
    assert pay.candidate.bbox == (120.0, 210.0, 160.0, 230.0)
    table = obs.candidates("a11y")
    frame_row = table.executor_row("a11y:5")
    assert table.parent[table.executor_row("a11y:R7abcdef.1")] == frame_row
    # Its backend ID is kept for acting, but never links it to the page's own DOM, where
    # backend 4 is the "Go" button.
    assert obs.backend_ids["a11y:R7abcdef.2"] == 4 and obs.backend_ids["a11y:4"] == 4
    assert table.xpaths[table.executor_row(pay.executor_id)] is None
    assert table.xpaths[table.executor_row("a11y:4")] == "/html[1]/body[1]/button[1]"
    # Locators enter the iframe, then find the button in the frame's own document.
    assert obs.frame_paths[pay.executor_id] == (
        ("/html[1]/body[1]/iframe[1]",),
        "/html[1]/body[1]/button[1]",
    )
    # A frame inside it, whose frame element is its node of backend 4 (not the page's).
    assert obs.targets["a11y:N1.2"] == "N1"
    assert table.parent[table.executor_row("a11y:N1.1")] == table.executor_row(pay.executor_id)
    assert obs.frame_paths["a11y:N1.2"][0] == (
        "/html[1]/body[1]/iframe[1]",
        "/html[1]/body[1]/button[1]",
    )
    # A frame whose parent was not read is left out (nowhere to hang it).
    snapshot.remotes = [nested]
    assert not any(k.startswith("a11y:N1.") for k in to_observation(snapshot).backend_ids)


def test_a_frames_document_is_placed_by_its_frame_elements_content_box() -> None:
    # The frame element's border box starts at (100, 190); its content box, inside a border
    # and a padding, at (112, 202) (what DOM.getBoxModel gives, in the viewport).
    boxed = {
        **ANSWERS,
        "DOM.getBoxModel": {"model": {"content": [112, 202, 388, 202, 388, 278, 112, 278]}},
    }
    inside = resolve(SemanticElementRef(role="button", name="Inside"), _run(boxed))
    assert inside.candidate.bbox == (117.0, 197.0, 137.0, 207.0)  # (its own scroll of 10 px)


def _shadowed(frames: int) -> tuple[Any, dict[int, str]]:
    """A document: html > body > x-pay (a shadow host) > #shadow-root > div > ``frames``
    iframes, and the XPaths the light DOM has."""
    from resolver.integrations.snapshot import _Doc

    names = ["#document", "html", "body", "x-pay", "#document-fragment", "div"]
    parent = [-1, 0, 1, 2, 3, 4]
    kind = [9, 1, 1, 1, 11, 1]
    for _ in range(frames):
        names.append("iframe")
        parent.append(5)
        kind.append(1)
    doc = _Doc(parent, kind, names, list(range(len(names))), [[] for _ in names])
    xpaths = {1: "/html[1]", 2: "/html[1]/body[1]", 3: "/html[1]/body[1]/x-pay[1]"}
    return doc, xpaths


def test_a_frame_inside_a_shadow_tree_is_entered_through_its_host_when_it_is_alone() -> None:
    from resolver.integrations.snapshot import _shadow_holder

    doc, xpaths = _shadowed(1)
    assert _shadow_holder(doc, xpaths, 6) == "xpath=/html[1]/body[1]/x-pay[1] >> css=iframe"
    doc, xpaths = _shadowed(2)  # two frames under the host: the selector would not tell
    assert _shadow_holder(doc, xpaths, 6) is None and _shadow_holder(doc, xpaths, 7) is None
    assert _shadow_holder(doc, xpaths, 5) is None  # (not a frame element)


def _observed_with(loaders: list[str], screenshot: bool, failing: str = "") -> PageSnapshot:
    """observe_steps answered from ``ANSWERS``, the top frame's loader ID changing as
    ``loaders`` say, and the call ``failing`` failing."""
    steps, result, trees = observe_steps(screenshot=screenshot), None, iter(loaders)
    try:
        while True:
            method, params = steps.send(result)
            if method == "Page.getFrameTree":
                tree = copy.deepcopy(ANSWERS["Page.getFrameTree"])
                tree["frameTree"]["frame"]["loaderId"] = next(trees)
                result = tree
            elif method == failing:
                result = None
            else:
                result = ANSWERS.get("frame" if params.get("frameId") else method)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


def test_an_observation_a_navigation_crossed_is_refused_and_taken_again() -> None:
    from resolver import SourceUnavailableError
    from resolver.integrations.snapshot import PageNavigatedError, observed

    def run(loaders: list[str]) -> PageSnapshot:
        return _observed_with(loaders, screenshot=True)

    assert run(["L1", "L1"]).docs  # (the same document from the first call to the last)
    with pytest.raises(PageNavigatedError, match="navigated while it was observed"):
        run(["L1", "L2"])
    takes = iter([["L1", "L2"], ["L2", "L3"], ["L3", "L3"]])
    assert observed(lambda: run(next(takes))).docs  # (the third one is whole)
    with pytest.raises(SourceUnavailableError, match="3 observations in a row"):
        observed(lambda: run(["L1", "L2"]))


def test_a_navigation_that_destroyed_the_document_s_world_is_taken_again() -> None:
    # The navigation committed between creating the isolated world and reading the page in
    # it: the read fails, which is the navigation's doing, not a page without a document.
    from resolver.integrations.snapshot import PageNavigatedError

    def run(loaders: list[str]) -> PageSnapshot:  # (the context went with the old document)
        return _observed_with(loaders, screenshot=False, failing="Runtime.evaluate")

    with pytest.raises(PageNavigatedError, match="navigated while it was observed"):
        run(["L1", "L2"])
    with pytest.raises(InvalidObservationError, match="no DOM snapshot or no document"):
        run(["L1", "L1"])
