"""One live page and the catalog an agent last saw of it.

:func:`session_for` keeps one :class:`PageSession` per Playwright page, so a catalog made by
one call (``catalog``) is what a later :func:`~resolver.act.execute` resolves indexes in.
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
import weakref
from typing import Any

from ..catalog import Catalog, build_catalog
from ..integrations.playwright import observe

__all__ = ["PageSession", "content_digest", "session_for", "version_of"]

_SESSIONS: weakref.WeakKeyDictionary[Any, PageSession] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def content_digest(observation: Any, source: str) -> str:
    """A digest of every row's role, name and containers: what the page shows, static text
    included (the catalog version leaves out text that is not a control's name)."""
    table = observation.candidates(source)
    digest = hashlib.sha1(table.role_codes.tobytes())
    for name, containers in zip(table.names, table.containers, strict=True):
        text = name + "\x1f" + "\x1d".join(containers) + "\x1e"
        digest.update(text.encode(errors="surrogatepass"))
    return digest.hexdigest()


def version_of(catalog: Catalog) -> str:
    """The version an agent is given for ``catalog``: its own version mixed with the digest
    of everything its page showed.

    :func:`~resolver.catalog.catalog_version` stays the same when only text around the
    controls changed, so two catalogs of one table sorted two ways share it while their
    indexes name different rows; an index chosen on one must not be taken by position in
    the other. This version tells them apart (a catalog read from JSON keeps its own).
    """
    if catalog.observation is None:
        return catalog.version
    content = content_digest(catalog.observation, catalog.source)
    return hashlib.sha1(f"{catalog.version}:{content}".encode()).hexdigest()[:12]


def render(catalog: Catalog, *, max_chars: int = 6000) -> str:
    """``catalog.render()`` with :func:`version_of` in its header."""
    text = catalog.render(max_chars=max_chars)
    return text.replace(f"version {catalog.version}", f"version {version_of(catalog)}", 1)


class PageSession:
    """A Playwright page (sync API, Chromium), its current catalog, and how many times its
    main frame navigated (``navigations``).

    Parameters
    ----------
    page:
        The page.
    source:
        Whose table the catalog is built from (``"a11y"`` or ``"dom"``).
    """

    def __init__(self, page: Any, *, source: str = "a11y") -> None:
        self.page = page
        self.source = source
        self.catalog: Catalog | None = None
        self.navigations = 0
        self._versions: frozenset[str] = frozenset()
        with contextlib.suppress(AttributeError, TypeError):  # a page without events
            page.on("framenavigated", self._navigated)

    def _navigated(self, frame: Any) -> None:
        if getattr(frame, "parent_frame", None) is None:
            self.navigations += 1

    def observe(self) -> Any:
        """A fresh :class:`~resolver.integrations.snapshot.PageObservation` (no
        screenshot)."""
        return observe(self.page, screenshot=False)

    def refresh(self, observation: Any = None) -> Catalog:
        """Build the catalog of the page as it is now (or of ``observation``) and make it the
        current one."""
        catalog = build_catalog(
            observation if observation is not None else self.observe(), source=self.source
        )
        self.adopt(catalog)
        return catalog

    def adopt(self, catalog: Catalog, *, explicit: bool = False) -> None:
        """Make ``catalog`` the current one; ``explicit`` when the caller handed it over
        (its own ``version`` is then accepted too, besides :func:`version_of`'s)."""
        self.catalog = catalog
        versions = {version_of(catalog)}
        if explicit:
            versions.add(catalog.version)
        self._versions = frozenset(versions)

    @property
    def version(self) -> str | None:
        """The current catalog's :func:`version_of` (``None`` before the first catalog)."""
        return None if self.catalog is None else version_of(self.catalog)

    def accepts(self, version: str) -> bool:
        """Whether an index chosen on ``version`` names the current catalog's entries."""
        return version in self._versions


def session_for(page: Any) -> PageSession:
    """The :class:`PageSession` of ``page`` (made on first use, kept while the page lives)."""
    with _LOCK:
        session = _SESSIONS.get(page)
        if session is None:
            session = PageSession(page)
            _SESSIONS[page] = session
        return session
