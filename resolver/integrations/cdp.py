"""CDP sessions of a live Chromium page: the page's own, and each cross-site frame's.

Every call is bounded: one to the page's own process gives up after :data:`PAGE_TIMEOUT_MS`
(:class:`~resolver.errors.SourceUnavailableError`: a page whose script runs on and on holds
its process, and nothing can be observed), one to a cross-site frame's after
:data:`FRAME_TIMEOUT_MS` (the frame is left out and not asked again for
:data:`SILENT_FOR_S`). :func:`_remote_plan` reads every frame another process draws on its
own session (the page's session does not see into it); :func:`_drive`,
:func:`_drive_remote` and :func:`_drive_async` run the plans of
:mod:`resolver.integrations.snapshot` over Playwright's sync and async sessions.

:func:`isolated_node` and :func:`isolated_context` give what the library's page functions
run on in its isolated world (:data:`~resolver.integrations.snapshot.WORLD`), where the
page's own scripts cannot change what they measure.

Nothing from Playwright is imported: pages, frames and sessions are used through their
methods.
"""

from __future__ import annotations

import contextlib
import inspect
import time
import weakref
from collections.abc import Generator, Sequence
from typing import Any, Final

from ..errors import InvalidObservationError, SourceUnavailableError
from .snapshot import (
    WORLD,
    Call,
    PageSnapshot,
    RemoteFrame,
    observe_steps,
    remote_key,
    top_frame_id,
)
from .snapshot import _frame_ids as _child_frame_ids

__all__ = [
    "FRAME_TIMEOUT_MS",
    "PAGE_TIMEOUT_MS",
    "SILENT_FOR_S",
    "Bounded",
    "isolated_context",
    "isolated_node",
]

_SESSIONS: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
_NO_SESSION: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()
"""Frames of their parent's process (no session of their own), with the URL they had."""
_SILENT: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()
"""Sessions of frames that did not answer in time, until when they are not asked again."""
PAGE_TIMEOUT_MS: Final[float] = 30_000
"""How long ``observe`` waits for one answer of the page's own process."""
FRAME_TIMEOUT_MS: Final[float] = 3_000
"""How long it waits for one answer of a cross-site frame's process (a frame whose script
runs on and on answers nothing: it is left out, and not asked again for a while)."""
SILENT_FOR_S: Final[float] = 30.0


def _session(page: Any) -> Any:
    """One CDP session per page (sync API), kept while the page lives."""
    try:
        cached = _SESSIONS.get(page)
    except TypeError:
        cached = None
    if cached is None:
        try:
            cached = page.context.new_cdp_session(page)
        except Exception as exc:  # Firefox/WebKit pages have no CDP
            raise SourceUnavailableError(
                "observe/act need a Chromium page from Playwright "
                "(pip install 'resolver[browser]'): " + str(exc).splitlines()[0]
            ) from exc
        with contextlib.suppress(TypeError):  # a page that takes no weak reference
            _SESSIONS[page] = cached
    return cached


def _frame_session(page: Any, frame: Any, *, fresh: bool = False) -> Any:
    """The CDP session of a frame another process draws (kept while the frame lives), or
    ``None`` for a frame its parent's session reads (Playwright refuses it a session)."""
    known = _SESSIONS.get(frame)
    if known is not None and _SILENT.get(known, 0.0) > time.monotonic():
        return SILENT  # (not asked again for a while, nor given a new session)
    cached = None if fresh else known
    if cached is None:
        with contextlib.suppress(TypeError):
            if not fresh and _NO_SESSION.get(frame) == frame.url:
                return None  # (asked before, and it has not navigated since)
        try:
            cached = page.context.new_cdp_session(frame)
        except Exception:  # a frame of its parent's process (or gone)
            with contextlib.suppress(TypeError):
                _NO_SESSION[frame] = frame.url
            return None
        with contextlib.suppress(TypeError):
            _SESSIONS[frame] = cached
    return cached


Step = tuple[str, Any]
"""One step of :func:`_remote_plan`: ``("open", frame)`` asks the frame's own session (or
``None``), ``("reopen", frame)`` a new one, ``("send", (session, method, params))`` a call's
result (or ``None``)."""


def _on(session: Any, steps: Generator[Call, Any, PageSnapshot]) -> Generator[Step, Any, Any]:
    """``steps``' calls, sent to ``session``."""
    result: Any = None
    try:
        while True:
            method, params = steps.send(result)
            result = yield ("send", (session, method, params))
    except StopIteration as done:
        return done.value


def _depth(frame: Any) -> int:
    depth = 0
    while (frame := getattr(frame, "parent_frame", None)) is not None:
        depth += 1
    return depth


Remotes = tuple[list[RemoteFrame], list[str]]
"""The cross-site frames read, and the URLs of those that did not answer."""
SILENT: Final[str] = "silent"
"""What an ``open`` step answers for a frame that did not answer a moment ago."""


def _remote_plan(main: Any, frames: Sequence[Any]) -> Generator[Step, Any, Remotes]:
    """Every cross-site frame of a page read on its own session (the tab's session does not
    see into them): its nodes, its frame element (in the process of the frame it is in)
    and that element's content box in the tab's viewport; and the frames that did not
    answer."""
    found: dict[int, tuple[Any, RemoteFrame]] = {}
    unread: list[str] = []
    for frame in sorted(frames, key=_depth):
        if (
            getattr(frame, "parent_frame", None) is None
            or (session := (yield ("open", frame))) is None
        ):
            continue
        tree = None if session == SILENT else (yield ("send", (session, "Page.getFrameTree", {})))
        if tree is None and session != SILENT:  # (a stale session: the frame navigated)
            session = yield ("reopen", frame)
            if session is not None and session != SILENT:
                tree = yield ("send", (session, "Page.getFrameTree", {}))
        if tree is None:
            unread.append(str(getattr(frame, "url", "")))
            continue
        above = next((found[id(f)] for f in _ancestors(frame) if id(f) in found), None)
        via = main if above is None else above[0]
        frame_id = top_frame_id(tree)
        owner = yield ("send", (via, "DOM.getFrameOwner", {"frameId": frame_id}))
        backend = (owner or {}).get("backendNodeId")
        model = yield ("send", (via, "DOM.getBoxModel", {"backendNodeId": backend}))
        quad = ((model or {}).get("model") or {}).get("content")
        if not isinstance(frame_id, str) or not isinstance(backend, int) or not quad:
            continue  # gone meanwhile, or not drawn
        try:
            snap = yield from _on(session, observe_steps(screenshot=False, document=False))
        except InvalidObservationError:
            unread.append(str(getattr(frame, "url", "")))
            continue
        dx, dy = (0.0, 0.0) if above is None else above[1].offset
        remote = RemoteFrame(remote_key(frame_id), snap, backend, (dx + quad[0], dy + quad[1]),
                             None if above is None else above[1].key, session)  # fmt: skip
        found[id(frame)] = (session, remote)
    return [remote for _, remote in found.values()], unread


def _ancestors(frame: Any) -> Generator[Any, None, None]:
    while (frame := getattr(frame, "parent_frame", None)) is not None:
        yield frame


def _drive_remote(page: Any, plan: Generator[Step, Any, Remotes], main: Any) -> Remotes:
    """Run :func:`_remote_plan` over the sync API (``main``: the page's own session, asked
    as :func:`_drive` asks it); a frame's session that does not answer within
    :data:`FRAME_TIMEOUT_MS` is not asked again for :data:`SILENT_FOR_S`."""
    result: Any = None
    try:
        while True:
            kind, arg = plan.send(result)
            if kind in ("open", "reopen"):
                result = _frame_session(page, arg, fresh=kind == "reopen")
                continue
            session, method, params = arg
            if session is main:
                result = _from_page(session, method, params)
                continue
            if _SILENT.get(session, 0.0) > time.monotonic():
                result = None
                continue
            try:
                result = _bounded(session, method, params, FRAME_TIMEOUT_MS)
            except Exception as exc:  # a frame that went away: the plan carries on without it
                result = None
                if type(exc).__name__ == "TimeoutError":
                    with contextlib.suppress(TypeError):
                        _SILENT[session] = time.monotonic() + SILENT_FOR_S
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


def _unanswered(method: str) -> SourceUnavailableError:
    return SourceUnavailableError(
        f"the page did not answer {method} within {PAGE_TIMEOUT_MS / 1000:g} s (a script "
        "that runs on and on holds its process): nothing was observed"
    )


def _bounded(session: Any, method: str, params: dict[str, Any], timeout_ms: float) -> Any:
    """``session.send``, given up after ``timeout_ms`` where Playwright can (its CDP
    session's ``send`` takes a timeout in the versions that have one, 1.65 here; where it
    takes none, the call waits as long as it takes)."""
    if _takes_timeout(session.send):
        return session.send(method, params, timeout=timeout_ms)
    return session.send(method, params)


class Bounded:
    """A CDP session whose calls give up after ``timeout_ms`` (where Playwright can)."""

    def __init__(self, session: Any, timeout_ms: float) -> None:
        self.session, self.timeout_ms = session, timeout_ms

    def send(self, method: str, params: dict[str, Any] | None = None) -> Any:
        return _bounded(self.session, method, params or {}, self.timeout_ms)


def _takes_timeout(send: Any) -> bool:
    kind = type(getattr(send, "__self__", send))
    known = _TAKES_TIMEOUT.get(kind)
    if known is None:
        try:
            known = "timeout" in inspect.signature(send).parameters
        except (TypeError, ValueError):
            known = False
        _TAKES_TIMEOUT[kind] = known
    return known


_TAKES_TIMEOUT: dict[type, bool] = {}
"""Per session class, whether its ``send`` takes a timeout."""


def _drive(session: Any, steps: Generator[Call, Any, PageSnapshot]) -> PageSnapshot:
    result: Any = None
    try:
        while True:
            method, params = steps.send(result)
            result = _from_page(session, method, params)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


def _from_page(session: Any, method: str, params: dict[str, Any]) -> Any:
    """One call to the page's own process: ``None`` when it fails (a frame that went away:
    the plan carries on without it); :class:`SourceUnavailableError` when it does not
    answer within :data:`PAGE_TIMEOUT_MS`."""
    try:
        return _bounded(session, method, params, PAGE_TIMEOUT_MS)
    except Exception as exc:
        if type(exc).__name__ == "TimeoutError":
            raise _unanswered(method) from exc
        return None


async def _drive_async(page: Any, plan: Generator[Step, Any, Any]) -> Any:
    """Run a plan over the async API; the frame sessions it opens are closed after it, and
    one that does not answer in time is not asked again."""
    opened: dict[int, Any] = {}  # by frame
    silent: set[int] = set()
    result: Any = None
    try:
        while True:
            kind, arg = plan.send(result)
            if kind in ("open", "reopen"):
                result = await _open_async(page, arg, opened, silent)
                continue
            session, method, params = arg
            if id(session) in silent:
                result = None
                continue
            remote = any(session is o for o in opened.values())
            try:
                timeout = FRAME_TIMEOUT_MS if remote else PAGE_TIMEOUT_MS
                if _takes_timeout(session.send):
                    result = await session.send(method, params, timeout=timeout)
                else:
                    result = await session.send(method, params)
            except Exception as exc:  # a frame that went away: the plan carries on without it
                result = None
                if type(exc).__name__ == "TimeoutError":
                    if not remote:
                        raise _unanswered(method) from exc
                    silent.add(id(session))
    except StopIteration as done:
        return done.value
    finally:
        for session in opened.values():
            with contextlib.suppress(Exception):
                await session.detach()


async def _open_async(page: Any, frame: Any, opened: dict[int, Any], silent: set[int]) -> Any:
    """A frame's own session (async API), ``None`` for a frame of its parent's process,
    :data:`SILENT` for one whose session did not answer."""
    if id(opened.get(id(frame))) in silent:
        return SILENT
    try:
        session = await page.context.new_cdp_session(frame)
    except Exception:  # a frame of its parent's process (or gone)
        return None
    opened[id(frame)] = session
    return session


def _frame_ids(session: Any) -> list[str]:
    """The IDs of the frames ``session`` draws, its top frame first (``[]``: none read)."""
    try:
        tree = session.send("Page.getFrameTree", {})
    except Exception as exc:
        if type(exc).__name__ == "TimeoutError":
            raise
        return []
    top = top_frame_id(tree)
    return [] if top is None else [top, *_child_frame_ids(tree)]


def _world(session: Any, frame_id: str) -> int | None:
    """The execution context of the library's isolated world in a frame (made on first
    use, the same one after; ``None`` for a frame another process draws, or gone)."""
    try:
        made = session.send("Page.createIsolatedWorld", {"frameId": frame_id, "worldName": WORLD})
    except Exception as exc:
        if type(exc).__name__ == "TimeoutError":
            raise
        return None
    context = (made or {}).get("executionContextId")
    return context if isinstance(context, int) else None


def isolated_context(session: Any) -> dict[str, int]:
    """``Runtime.evaluate``'s parameter that runs an expression in the library's isolated
    world of the session's top frame (``{}``, the page's main world, where none is made)."""
    frames = _frame_ids(session)
    context = _world(session, frames[0]) if frames else None
    return {} if context is None else {"contextId": context}


def isolated_node(session: Any, backend: int) -> dict[str, Any]:
    """The node ``backend`` as a ``Runtime.RemoteObject`` of the library's isolated world in
    the first frame of the session (top first) whose world gives it, for
    ``Runtime.callFunctionOn``; of the page's main world where no frame of the session makes
    one. Raises when the node is gone."""
    for frame_id in _frame_ids(session):
        context = _world(session, frame_id)
        if context is None:
            continue
        try:  # (another frame's world gives an object without an ID)
            found = session.send("DOM.resolveNode", {"backendNodeId": backend,
                                                     "executionContextId": context})  # fmt: skip
        except Exception as exc:
            if type(exc).__name__ == "TimeoutError":
                raise
            continue
        node = (found or {}).get("object") or {}
        if node.get("objectId"):
            return dict(node)
    return dict(session.send("DOM.resolveNode", {"backendNodeId": backend})["object"])
