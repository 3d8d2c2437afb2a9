"""One event of a page (or of its CDP session) listened to while a ``with`` block runs."""

from __future__ import annotations

import contextlib
from types import TracebackType
from typing import Any, Self


class Watch:
    """Listens to :attr:`event` of the source :meth:`_source` gives, with :meth:`_heard`,
    while entered; a source that cannot be listened to is watched for nothing."""

    event = ""

    def __init__(self, page: Any) -> None:
        self.page = page
        self._listened: Any = None

    def _source(self) -> Any:
        """What to listen on (the page by default)."""
        return self.page

    def _heard(self, payload: Any = None) -> None:
        """The listener."""

    def __enter__(self) -> Self:
        try:
            source = self._source()
            source.on(self.event, self._heard)
        except Exception:  # (a page without events, or without a CDP session)
            return self
        self._listened = source
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._listened is not None:
            with contextlib.suppress(Exception):  # (a closed page has no listeners left)
                self._listened.remove_listener(self.event, self._heard)
            self._listened = None

    @property
    def listening(self) -> bool:
        """Whether the listener is on."""
        return self._listened is not None
