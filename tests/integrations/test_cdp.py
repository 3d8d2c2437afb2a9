"""Bounded CDP calls and the cross-site frame plan, with stand-in sessions (no browser)."""

from __future__ import annotations

from typing import Any

import pytest

from resolver import SourceUnavailableError
from resolver.integrations import cdp
from resolver.integrations.snapshot import observe_steps


class TimeoutError(Exception):
    """What Playwright raises when a call does not answer in time (told by its name)."""


class Old:
    """A session whose ``send`` takes no timeout."""

    def send(self, method: str, params: dict[str, Any] | None = None) -> Any:
        return {"method": method, "params": params}


class Silent:
    """A session whose every call times out (its process runs a script on and on)."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def send(self, method: str, params: Any = None, *, timeout: float = 0) -> Any:
        self.calls.append(method)
        raise TimeoutError(f"{method}: Timeout {timeout}ms exceeded")


class Frame:
    """A frame of a page (``parent_frame``), whose own session is ``session``."""

    def __init__(self, url: str, parent: Any, session: Any) -> None:
        self.url, self.parent_frame, self.session = url, parent, session


class Context:
    def new_cdp_session(self, target: Any) -> Any:
        if target.session is None:
            raise RuntimeError("This frame does not have a separate CDP session")
        return target.session


class Page:
    def __init__(self, frames: list[Frame]) -> None:
        self.frames, self.context = frames, Context()


def test_a_session_without_a_timeout_is_still_asked() -> None:
    assert cdp.Bounded(Old(), 10.0).send("DOM.getDocument") == {
        "method": "DOM.getDocument",
        "params": {},
    }


def test_a_page_that_does_not_answer_is_refused() -> None:
    with pytest.raises(SourceUnavailableError, match=r"did not answer Page\.getFrameTree"):
        cdp._drive(Silent(), observe_steps(screenshot=False))


def test_a_frame_that_does_not_answer_is_named_and_not_asked_again() -> None:
    top = Frame("https://shop.test/", None, None)
    silent = Silent()
    ad = Frame("https://ads.test/banner", top, silent)
    near = Frame("https://shop.test/help", top, None)  # (drawn by the page's process)
    page = Page([top, ad, near])
    for _ in range(2):
        remotes, unread = cdp._drive_remote(page, cdp._remote_plan(Old(), page.frames), Old())
        assert remotes == [] and unread == ["https://ads.test/banner"]
    assert silent.calls == ["Page.getFrameTree"]  # asked once, then left alone a while


class Frames:
    """A session drawing a top frame ``T`` and a child ``C`` (whose grandchild ``G`` another
    process draws): node 7 lives in ``C``, node 9 nowhere any more; ``worlds`` False: a
    browser that makes no isolated world."""

    def __init__(self, worlds: bool = True) -> None:
        self.worlds = worlds
        self.calls: list[tuple[str, Any]] = []

    def send(self, method: str, params: Any = None) -> Any:
        self.calls.append((method, params))
        if method == "Page.getFrameTree":
            child = {"frame": {"id": "C"}, "childFrames": [{"frame": {"id": "G"}}]}
            return {"frameTree": {"frame": {"id": "T"}, "childFrames": [child]}}
        if method == "Page.createIsolatedWorld":
            if not self.worlds or params["frameId"] == "G":
                raise RuntimeError("No frame for given id found")
            return {"executionContextId": {"T": 1, "C": 2}[params["frameId"]]}
        if method == "DOM.resolveNode" and params["backendNodeId"] == 7:
            context = params.get("executionContextId")
            if context == 1:  # another frame's world: an object without an ID
                return {"object": {"type": "undefined"}}
            return {"object": {"type": "object", "objectId": f"node-in-{context}"}}
        if method == "DOM.resolveNode":
            raise RuntimeError("No node with given id found")
        raise AssertionError(method)


def test_a_node_is_taken_in_the_isolated_world_of_its_own_frame() -> None:
    session = Frames()
    assert cdp.isolated_node(session, 7)["objectId"] == "node-in-2"
    asked = [p["frameId"] for m, p in session.calls if m == "Page.createIsolatedWorld"]
    assert asked == ["T", "C"]  # top frame first, and no further once found
    assert cdp.isolated_context(session) == {"contextId": 1}


def test_without_isolated_worlds_the_main_world_is_used_and_a_gone_node_raises() -> None:
    assert cdp.isolated_node(Frames(worlds=False), 7)["objectId"] == "node-in-None"
    assert cdp.isolated_context(Frames(worlds=False)) == {}
    with pytest.raises(RuntimeError, match="No node"):
        cdp.isolated_node(Frames(), 9)


def test_a_page_that_does_not_answer_is_not_taken_for_a_missing_world() -> None:
    with pytest.raises(TimeoutError):
        cdp.isolated_node(Silent(), 7)
    with pytest.raises(TimeoutError):
        cdp.isolated_context(Silent())
