"""The CDP plan of an observation, run against recorded answers (no browser)."""

from __future__ import annotations

import base64
import copy
import pickle
from typing import Any

import pytest

from resolver import InvalidObservationError, SemanticElementRef, resolve
from resolver.integrations.snapshot import PageObservation, observe_steps, to_observation

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


def _run(answers: dict[str, Any]) -> PageObservation:
    steps = observe_steps(screenshot=True)
    result: Any = None
    try:
        while True:
            method, params = steps.send(result)
            key = "frame" if params.get("frameId") else method
            result = answers.get(key)
    except StopIteration as done:
        return to_observation(done.value)


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
        res = resolve(SemanticElementRef(role="button", name="Inside"), other)
        assert res.executor_id == "a11y:F2.9"
