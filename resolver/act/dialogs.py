"""JavaScript dialogs (``alert``, ``confirm``, ``prompt``, ``beforeunload``) a page opens while
:func:`resolver.act.execute` runs: each answered as the running action asks, and recorded.

Playwright dismisses a dialog nobody listens for, so without this a click on "Delete" that
asks ``confirm("Delete Alice?")`` reports success and deletes nothing. While the actions run,
:class:`DialogWatch` listens instead: a dialog is accepted or dismissed as the action's
``dialog`` field says; with no answer given, an ``alert`` (one button) is accepted and any
other dialog is dismissed, and the action fails (:meth:`DialogWatch.unanswered`), so a
confirmation is never given that was not asked for, and never lost in silence. The listener
is removed when the actions are done: the page behaves as before outside them.

>>> from resolver.act import execute  # doctest: +SKIP
>>> execute(page, [{"action": "click", "target": "text=Delete", "dialog": "accept"}]).dialogs
... # doctest: +SKIP
(DialogSeen(action_index=0, type='confirm', message='Delete Alice?', ..., answer='accepted'),)
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from typing import Any, Final

from ..errors import shorten
from ._watch import Watch
from .model import DialogSeen

__all__ = ["MAX_MESSAGE", "MAX_WAIT_MS", "DialogWatch", "dismissed_message"]

MAX_MESSAGE: Final[int] = 2000
"""Characters of a dialog's message (and of a prompt's default value) kept in the record."""
MAX_WAIT_MS: Final[int] = 2000
"""How long :meth:`DialogWatch.wait_answered` waits for answers to come back, at most."""
_STEP_MS: Final[int] = 10
_TIMERS_JS: Final[str] = "() => new Promise((done) => setTimeout(done, 0))"
"""Resolves once the page's timers due by now have run (they fire in the order set)."""


class DialogWatch(Watch):
    """Answers and records the dialogs ``page`` opens while it is entered (a context
    manager; a page without events is watched for nothing).

    Parameters
    ----------
    page:
        A Playwright page of the sync API, or the sync-looking proxy of an async one
        (:mod:`resolver.integrations.threaded`: the listener then runs on the event loop).
    """

    event = "dialog"

    def __init__(self, page: Any) -> None:
        super().__init__(page)
        self.records: list[dict[str, Any]] = []
        self._position = 0
        self._answer: str | None = None
        self._text: str | None = None
        self._pending: set[int] = set()

    def expect(self, position: int, answer: str | None, text: str | None = None) -> None:
        """The action at ``position`` runs next, answering dialogs with ``answer``
        (``"accept"``, ``"dismiss"`` or ``None``) and a prompt with ``text``."""
        self._position, self._answer, self._text = position, answer, text

    def _heard(self, dialog: Any = None) -> None:
        """The listener: answer ``dialog`` and record it (never raises: an unanswered
        dialog would hold the page)."""
        kind = str(getattr(dialog, "type", "") or "")
        default = str(getattr(dialog, "default_value", "") or "")
        by_default = self._answer is None
        accept = kind == "alert" if by_default else self._answer == "accept"
        text = (self._text if self._text is not None else default) if kind == "prompt" else None
        record: dict[str, Any] = {
            "action_index": self._position,
            "type": kind,
            "message": shorten(str(getattr(dialog, "message", "") or ""), MAX_MESSAGE),
            "default_value": shorten(default, MAX_MESSAGE),
            "answer": "accepted" if accept else "dismissed",
            "by_default": by_default,
            "text": text if accept else None,
        }
        self.records.append(record)
        self._pending.add(id(record))
        answered: Any = None
        try:
            answered = (
                (dialog.accept(text) if text is not None else dialog.accept())
                if accept
                else dialog.dismiss()
            )
        except Exception:  # another listener answered it first (or the page went)
            record["answer"], record["text"] = "elsewhere", None
        finally:
            if not inspect.isawaitable(answered):
                self._pending.discard(id(record))
        if inspect.isawaitable(answered):  # the async API: the answer is sent on the loop
            sent = asyncio.ensure_future(answered)
            sent.add_done_callback(lambda done: self._settled(record, done))

    def _settled(self, record: dict[str, Any], done: asyncio.Future[Any]) -> None:
        """An async answer sent; one that failed (another listener answered first) is
        recorded so."""
        if not done.cancelled() and done.exception() is not None:
            record["answer"], record["text"] = "elsewhere", None
        self._pending.discard(id(record))

    def after_action(self) -> None:
        """Let the page run the timers due by now, so that a dialog the action's handlers
        scheduled (``setTimeout(..., 0)``) opens while the action's answer still applies
        (before the next action; after the last one, the page's observation gives it the
        time); a page that navigated away or cannot run a script is not waited for."""
        if not self.listening:
            return
        with contextlib.suppress(Exception):
            self.page.evaluate(_TIMERS_JS)

    def wait_answered(self, limit_ms: int = MAX_WAIT_MS) -> None:
        """Let the page's event loop run (``wait_for_timeout``) until every answer sent has
        come back: with the sync API a listener runs beside the action, and the action can
        return (the page freed by another listener's answer) before it knows whether its
        own answer was taken."""
        waited = 0
        while self._pending and waited < limit_ms:
            try:
                self.page.wait_for_timeout(_STEP_MS)
            except Exception:  # (a page that cannot wait: its answers are as recorded)
                return
            waited += _STEP_MS

    def unanswered(self, position: int) -> dict[str, Any] | None:
        """The first dialog the action at ``position`` left dismissed because it gave no
        answer (an alert is accepted and never counts), or ``None``."""
        self.wait_answered()
        for record in self.records:
            if (
                record["action_index"] == position
                and record["by_default"]
                and record["answer"] == "dismissed"
            ):
                return record
        return None

    def seen(self) -> tuple[DialogSeen, ...]:
        """Every dialog recorded, in order."""
        self.wait_answered()
        return tuple(DialogSeen(**record) for record in self.records)


def dismissed_message(record: dict[str, Any]) -> str:
    """What ``DIALOG_DISMISSED`` says about ``record``."""
    kind = record["type"] or "JavaScript"
    said = f" ({shorten(record['message'], 200)!r})" if record["message"] else ""
    how = ', with "dialog_text" for what the prompt returns' if kind == "prompt" else ""
    return (
        f"the page opened a {kind} dialog{said}, which was dismissed because the action gave no "
        f'answer: repeat the action with "dialog": "accept" to accept it{how}, or '
        f'"dialog": "dismiss" to dismiss it on purpose'
    )
