"""Playwright's async API seen as its sync API, from a worker thread.

:func:`resolver.integrations.playwright.act` and :func:`resolver.act.execute` check an
element, wait for it to stand still, click, type and wait for the page, in some twenty
calls to the page; that code is written once, for the sync API. With the async API it runs
in a worker thread (``asyncio.to_thread``) on :class:`Synced` proxies: every method called
on one runs on the event loop (``asyncio.run_coroutine_threadsafe``; a coroutine's result
awaited there), and the worker waits for it while the loop, which only awaits the worker,
is free to run it. What comes back is proxied the same way (a CDP session, a frame, a
locator). Attributes are read in the worker directly (``url``, ``frames``,
``parent_frame``, ``mouse``).

A page and each of its frames have one proxy while they live (the library keeps a CDP
session per page and per frame, by that proxy); other objects get a new one each time.
Never call a proxy's methods on the event loop's own thread: they would wait for the loop
they hold up.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

__all__ = ["Synced", "in_thread", "is_async", "synced"]

_KEPT: weakref.WeakKeyDictionary[Any, Synced] = weakref.WeakKeyDictionary()
"""The one proxy of each async page and frame (each holding its object weakly: a strong
hold from a value would keep its key, and the page, alive)."""
_ASYNC_API = "playwright.async_api"


def is_async(page: Any) -> bool:
    """Whether ``page`` is an object of Playwright's async API (its ``evaluate`` is a
    coroutine function, or it is of that API's module: a browser context)."""
    return inspect.iscoroutinefunction(getattr(page, "evaluate", None)) or type(
        page
    ).__module__.startswith(_ASYNC_API)


def synced(obj: Any) -> Synced:
    """The :class:`Synced` proxy of an async-API object, for the running event loop (call
    on the loop's thread; use the proxy from another)."""
    return _proxy(obj, asyncio.get_running_loop())


async def in_thread(function: Callable[..., T], page: Any, *args: Any, **kwargs: Any) -> T:
    """``function(page, *args, **kwargs)`` for an async page: run in a worker thread on the
    page's :class:`Synced` proxy."""
    return await asyncio.to_thread(function, synced(page), *args, **kwargs)


class Synced:
    """An object of Playwright's async API, used as its sync-API counterpart (see the
    module's notes)."""

    __slots__ = ("__weakref__", "_get", "_loop")

    def __init__(self, get: Callable[[], Any], loop: asyncio.AbstractEventLoop) -> None:
        self._get, self._loop = get, loop

    @property
    def inner(self) -> Any:
        """The async-API object."""
        obj = self._get()
        if obj is None:
            raise RuntimeError("the page or frame is gone (closed and collected)")
        return obj

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.inner, name)
        if inspect.ismethod(value):
            return _method(value, self._loop)
        return _wrap(value, self._loop)

    def __repr__(self) -> str:
        return f"Synced({self._get()!r})"


def _method(method: Any, loop: asyncio.AbstractEventLoop) -> Callable[..., Any]:
    """``method`` run on the loop and waited for (its signature kept: the library asks
    whether a CDP session's ``send`` takes a timeout)."""

    @functools.wraps(method)
    def call(*args: Any, **kwargs: Any) -> Any:
        args = tuple(_unwrap(a) for a in args)
        kwargs = {k: _unwrap(v) for k, v in kwargs.items()}

        async def run() -> Any:
            out = method(*args, **kwargs)
            return await out if inspect.isawaitable(out) else out

        return _wrap(asyncio.run_coroutine_threadsafe(run(), loop).result(), loop)

    return call


def _wrap(value: Any, loop: asyncio.AbstractEventLoop) -> Any:
    if isinstance(value, list):
        return [_wrap(v, loop) for v in value]
    if type(value).__module__.startswith(_ASYNC_API):
        return _proxy(value, loop)
    return value


def _unwrap(value: Any) -> Any:
    return value.inner if isinstance(value, Synced) else value


def _proxy(obj: Any, loop: asyncio.AbstractEventLoop) -> Synced:
    """The proxy of ``obj``: a page's or a frame's kept (for this loop), others new."""
    if type(obj).__name__ not in ("Page", "Frame"):
        return Synced(lambda: obj, loop)
    kept = _KEPT.get(obj)
    if kept is None or kept._loop is not loop:
        kept = Synced(weakref.ref(obj), loop)
        with contextlib.suppress(TypeError):
            _KEPT[obj] = kept
    return kept
