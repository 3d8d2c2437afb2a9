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
