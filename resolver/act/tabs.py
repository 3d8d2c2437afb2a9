"""Tabs a page opens while :func:`resolver.act.execute` runs (a link with a ``target``,
``window.open``, a form posted to another window): listed in the result, so an agent knows
where its click went. The session stays on its page; the servers' ``tabs`` tool lists the
context's tabs and makes another current (:func:`tab_list`)."""

from __future__ import annotations

import contextlib
from typing import Any, Final

from ._watch import Watch
from .model import PageOpened

__all__ = ["OPEN_WAIT_MS", "PopupWatch", "tab_list"]

OPEN_WAIT_MS: Final[int] = 2000
"""How long :meth:`PopupWatch.wait_opened` waits for the tabs asked for, at most."""
_STEP_MS: Final[int] = 20


class PopupWatch(Watch):
    """Records the windows ``page`` asks to open while it is entered (CDP's
    ``Page.windowOpen`` on the page's session: sent as the page asks, before the new tab
    loads, so a click's tab is known when the click is done), each with the action that was
    running (a context manager; a page without a CDP session is watched for nothing)."""

    event = "Page.windowOpen"

    def __init__(self, page: Any) -> None:
        super().__init__(page)
        self.position = 0
        self.opened: list[tuple[int, str]] = []
        self._before = _tab_count(page)

    def _source(self) -> Any:
        from ..integrations.cdp import _session

        session = _session(self.page)
        session.send("Page.enable")
        return session

    def _heard(self, payload: Any = None) -> None:
        url = payload.get("url") if isinstance(payload, dict) else None
        self.opened.append((self.position, url if isinstance(url, str) else ""))

    def wait_opened(self, limit_ms: int = OPEN_WAIT_MS) -> None:
        """Wait (at most ``limit_ms``) until the context holds the tabs asked for, so that
        the next look at its tabs finds them (the new page reaches Playwright after the
        request); nothing to wait for when none was asked for."""
        waited = 0
        while self.opened and waited < limit_ms:
            if _tab_count(self.page) >= self._before + len(self.opened):
                return
            try:
                self.page.wait_for_timeout(_STEP_MS)
            except Exception:  # (the page closed)
                return
            waited += _STEP_MS

    def seen(self) -> tuple[PageOpened, ...]:
        """Every window asked for, in order, with the address it was opened at."""
        return tuple(PageOpened(action_index=at, url=url) for at, url in self.opened)


def _tab_count(page: Any) -> int:
    try:
        return len(page.context.pages)
    except Exception:  # (a page without a context, or closed)
        return 0


def _url(page: Any) -> str:
    try:
        return str(page.url)
    except Exception:  # (closed meanwhile)
        return ""


def tab_list(page: Any) -> list[dict[str, Any]]:
    """The tabs of ``page``'s browser context, in order: ``index``, ``url``, ``title`` and
    whether it is ``page`` (``current``)."""
    tabs = []
    for index, tab in enumerate(page.context.pages):
        title = ""
        with contextlib.suppress(Exception):  # (a tab closing meanwhile)
            title = str(tab.title())
        tabs.append({"index": index, "url": _url(tab), "title": title,
                     "current": tab is page or tab == page})  # fmt: skip
    return tabs
