"""The async API seen as the sync one from a worker thread, with stand-in async-API objects
(classes named and placed as Playwright's are; no browser)."""

from __future__ import annotations

import asyncio
import inspect
import threading
from typing import Any

import pytest

from resolver.integrations.threaded import Synced, is_async, synced

API = "playwright.async_api._generated"


class Session:
    async def send(self, method: str, params: Any = None, timeout: float | None = None) -> Any:
        await asyncio.sleep(0)
        if method == "Fail":
            raise TimeoutError("Timeout 5ms exceeded")
        return {"method": method, "thread": threading.current_thread().name, "timeout": timeout}


class Frame:
    def __init__(self, parent: Frame | None) -> None:
        self.parent_frame = parent
        self.url = "about:blank"

    async def evaluate(self, expression: str) -> str:
        return expression


class Context:
    async def new_cdp_session(self, target: Any) -> Session:
        assert isinstance(target, (Page, Frame))  # (given the async object, not its proxy)
        return Session()


class Page(Frame):
    def __init__(self) -> None:
        super().__init__(None)
        self.context = Context()
        self.child = Frame(self)
        self.frames = [self, self.child]
        self.seen: list[str] = []

    def on(self, event: str, handler: Any) -> None:  # (sync in the async API too)
        self.seen.append(threading.current_thread().name)


for kind in (Session, Frame, Context, Page):
    kind.__module__ = API


def test_calls_run_on_the_loop_and_results_are_proxied_too() -> None:
    async def main() -> list[Any]:
        page = Page()
        proxy = synced(page)
        loop_thread = threading.current_thread().name

        def work() -> list[Any]:
            session = proxy.context.new_cdp_session(proxy)
            answer = session.send("DOM.getDocument", {}, timeout=5)
            with pytest.raises(TimeoutError):
                session.send("Fail")
            proxy.on("framenavigated", print)
            child = proxy.frames[1]
            return [
                isinstance(session, Synced),
                answer["thread"] == loop_thread,
                answer["timeout"],
                "timeout" in inspect.signature(session.send).parameters,
                child is synced_child[0] and child.parent_frame is proxy,
                page.seen == [loop_thread],
                proxy.evaluate("1 + 1"),
                is_async(page) and not is_async(proxy),
            ]

        synced_child = [synced(page.child)]
        return await asyncio.to_thread(work)

    assert asyncio.run(main()) == [True, True, 5, True, True, True, "1 + 1", True]


def test_a_page_keeps_one_proxy_while_it_lives_and_none_after() -> None:
    async def main() -> None:
        page = Page()
        first = synced(page)
        assert synced(page) is first and synced(page.child) is first.frames[1]
        other = Session()
        assert synced(other) is not synced(other)  # (not a page or a frame: made anew)
        del page
        import gc

        gc.collect()
        with pytest.raises(RuntimeError, match="gone"):
            _ = first.url

    asyncio.run(main())
