"""One live page and the catalog an agent last saw of it.

:func:`session_for` keeps one :class:`PageSession` per Playwright page, so a catalog made by
one call (``catalog``) is what a later :func:`~resolver.act.execute` resolves indexes in.
"""

from __future__ import annotations

import contextlib
import threading
import weakref
from pathlib import Path
from typing import Any

from ..catalog import Catalog, build_catalog
from ..errors import SourceUnavailableError
from ..integrations.playwright import observe
from ..integrations.threaded import is_async
from .covered import covered_entries

__all__ = ["PageSession", "session_for"]

_SESSIONS: weakref.WeakKeyDictionary[Any, PageSession] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


class PageSession:
    """A Playwright page (sync API, Chromium), its current catalog, and how many times its
    main frame navigated (``navigations``).

    Parameters
    ----------
    page:
        The page.
    source:
        Whose table the catalog is built from (``"a11y"`` or ``"dom"``).
    index_mode:
        Whether ``index=N`` targets act (false: only ``css=``, ``xpath=``, ``text=``).

    Attributes
    ----------
    uploads:
        Whether ``upload`` actions may send the page files (a server turns it off unless
        started with ``--upload-dir``).
    upload_root:
        The folder upload paths are relative to and confined in (``None``: any path).
    recorder:
        A started :class:`~resolver.record.AgentRecorder` every
        :func:`~resolver.act.execute` on this page writes to when it is given none
        (``None``: nothing is recorded).
    """

    def __init__(self, page: Any, *, source: str = "a11y", index_mode: bool = True) -> None:
        self.page = page
        self.source = source
        self.index_mode = index_mode
        self.uploads = True
        self.upload_root: Path | None = None
        self.recorder: Any = None
        self.catalog: Catalog | None = None
        self.covered: frozenset[int] = frozenset()
        self.navigations = 0
        with contextlib.suppress(AttributeError, TypeError):  # a page without events
            page.on("framenavigated", self._navigated)

    def _navigated(self, frame: Any) -> None:
        if getattr(frame, "parent_frame", None) is None:
            self.navigations += 1

    def observe(self, *, screenshot: bool = False) -> Any:
        """A fresh :class:`~resolver.integrations.snapshot.PageObservation` (with a
        viewport screenshot when asked)."""
        return observe(self.page, screenshot=screenshot)

    def refresh(self, observation: Any = None) -> Catalog:
        """Build the catalog of the page as it is now (or of ``observation``, made of the
        page as it is now) and make it the current one; :attr:`covered` then holds the
        indexes something else is drawn over (:func:`~resolver.act.covered.covered_entries`)."""
        observed = observation if observation is not None else self.observe()
        catalog = build_catalog(observed, source=self.source)
        self.adopt(catalog)
        frames = getattr(observed, "frame_paths", None)
        self.covered = frozenset(covered_entries(self.page, catalog.entries, frames))
        return catalog

    def render(self, **options: Any) -> str:
        """The current catalog's text (:meth:`~resolver.catalog.Catalog.render`), its covered
        entries marked ``[covered]``."""
        assert self.catalog is not None
        return self.catalog.render(covered=self.covered, **options)

    def adopt(self, catalog: Catalog) -> None:
        """Make ``catalog`` the current one (nothing known covered)."""
        self.catalog = catalog
        self.covered = frozenset()

    @property
    def version(self) -> str | None:
        """The current catalog's version (``None`` before the first catalog)."""
        return None if self.catalog is None else self.catalog.version

    def accepts(self, version: str) -> bool:
        """Whether an index chosen on ``version`` names the current catalog's entries."""
        return version == self.version


def session_for(page: Any) -> PageSession:
    """The :class:`PageSession` of ``page`` (made on first use, kept while the page lives);
    a :class:`~resolver.errors.SourceUnavailableError` for anything that is no page."""
    if not callable(getattr(page, "evaluate", None)) or not hasattr(page, "context"):
        raise SourceUnavailableError(
            f"the agent kit acts on a Playwright page (Chromium), not {type(page).__name__}"
        )
    if is_async(page):
        raise SourceUnavailableError(
            "a PageSession drives a page of Playwright's sync API; with the async API, "
            "await execute(page, actions) (a refresh_catalog action gives the catalog)"
        )
    with _LOCK:
        session = _SESSIONS.get(page)
        if session is None:
            session = PageSession(page)
            _SESSIONS[page] = session
        return session
