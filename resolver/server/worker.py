"""One browser on one thread: Playwright's sync API cannot run inside an asyncio loop, so
every page call of the servers goes to a single worker thread that owns the browser."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final, TypeVar

from ..act.session import PageSession, session_for
from ..errors import SourceUnavailableError, shorten

__all__ = ["CHROMIUM_ARGS", "DEFAULT_CHROMIUM", "BrowserWorker", "default_chromium"]

T = TypeVar("T")

DEFAULT_CHROMIUM: Final[str] = "/usr/bin/chromium"
CHROMIUM_ARGS: Final[tuple[str, ...]] = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)  # fmt: skip
VIEWPORT: Final[dict[str, int]] = {"width": 1280, "height": 800}


def default_chromium() -> str | None:
    """``/usr/bin/chromium`` when it exists, else ``None`` (Playwright's own browser)."""
    return DEFAULT_CHROMIUM if os.path.exists(DEFAULT_CHROMIUM) else None


class BrowserWorker:
    """A Chromium page driven from one dedicated thread.

    The browser starts on the first call. :meth:`call` runs a function of the
    :class:`~resolver.act.session.PageSession` on the thread and waits; :meth:`run` is
    the same for async code (an MCP tool, a Starlette route).

    Parameters
    ----------
    chromium:
        The Chromium executable (default :func:`default_chromium`).
    headed:
        Show the window instead of running headless.
    index_mode:
        Whether ``execute`` acts on ``index=N`` targets (false: CSS, XPath and text only).
    upload_dir:
        The folder ``upload`` actions take files from (paths relative to it); ``None``
        refuses every upload: an agent must not send a page the machine's files.
    record_dir:
        Record the session as recording_v1 in this folder (``server-agent-<pid>-<time>``):
        every navigation and every action ``execute`` located, with its observation
        (:mod:`resolver.act.recording`); the recording is written when the worker closes
        (its journal, resumable, until then). ``None``: nothing is recorded.
    """

    def __init__(
        self,
        chromium: str | None = None,
        *,
        headed: bool = False,
        index_mode: bool = True,
        upload_dir: Path | None = None,
        record_dir: Path | None = None,
    ) -> None:
        self.chromium = chromium if chromium is not None else default_chromium()
        self.recorder: Any = None
        self.recording: Path | None = None  # the recording written by close
        if record_dir is not None:
            from ..record import AgentRecorder, RecorderError

            self.recorder = AgentRecorder(record_dir, prefix="server")
            try:
                self.recorder.start(None, trace_id=f"pid{os.getpid()}")
            except OSError as exc:
                raise RecorderError(
                    f"cannot record in {record_dir}: {exc.strerror or exc}"
                ) from exc
        self.headed = headed
        self.index_mode = index_mode
        self.upload_dir = upload_dir
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="resolver-browser")
        self._playwright: Any = None
        self._browser: Any = None
        self._session: PageSession | None = None

    def _start(self) -> PageSession:
        from playwright.sync_api import sync_playwright

        self._playwright = sync_playwright().start()
        args = [a for a in CHROMIUM_ARGS if not (self.headed and a == "--headless")]
        try:
            self._browser = self._playwright.chromium.launch(
                executable_path=self.chromium, headless=not self.headed, args=args
            )
        except Exception as exc:
            self._stop()
            shown = self.chromium or "Playwright's own Chromium"
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise SourceUnavailableError(f"cannot start {shown}: {shorten(first, 300)}") from exc
        page = self._browser.new_page(viewport=VIEWPORT)
        self._session = self.configured(session_for(page))
        return self._session

    def configured(self, session: PageSession) -> PageSession:
        """``session`` with the server's settings: index mode, and uploads only from
        ``upload_dir`` (none without it)."""
        session.index_mode = self.index_mode
        session.uploads = self.upload_dir is not None
        session.upload_root = self.upload_dir
        session.recorder = self.recorder
        return session

    def _on_thread(self, fn: Callable[..., T], *args: Any) -> T:
        session = self._session or self._start()
        return fn(session, *args)

    def adopt(self, session: PageSession) -> None:
        """Act on ``session``'s page from now on (call on the browser thread: a tool that
        makes another tab current)."""
        self._session = session

    def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(session, *args)`` on the browser thread; its result."""
        return self._pool.submit(self._on_thread, fn, *args).result()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(session, *args)`` on the browser thread, awaited."""
        return await asyncio.wrap_future(self._pool.submit(self._on_thread, fn, *args))

    def _stop(self) -> None:
        if self._browser is not None:
            with contextlib.suppress(Exception):  # already gone: nothing left to close
                self._browser.close()
        if self._playwright is not None:
            with contextlib.suppress(Exception):
                self._playwright.stop()
        self._browser = self._playwright = self._session = None

    def close(self) -> None:
        """Close the browser and end the thread; write the recording (``record_dir``)."""
        self._pool.submit(self._stop).result()
        self._pool.shutdown(wait=True)
        if self.recorder is not None:
            self.recording = self.recorder.finish("closed")
            self.recorder = None
