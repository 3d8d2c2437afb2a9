"""Capture shims: turn what a recorder sees into a :class:`~resolver.models.SemanticElementRef`.

One module per way of seeing an element: :mod:`.rows` records any row of a candidate table
(from any adapter), :mod:`.point` the element under a point (a click recorded as
coordinates), :mod:`.record` a whole click; and one module per platform: :mod:`.uia`
(Windows UI Automation), :mod:`.ax` (macOS), :mod:`.chrome` (the Chrome extension's events),
:mod:`.cdp` (DevTools nodes), :mod:`.omniparser` (parsed screenshots), :mod:`.playwright`
(a locator's element). :mod:`.complete` completes a reference another tool wrote from the
page it was recorded on. :mod:`.bridge` receives the extension's events over a WebSocket.
Shims are thin, import nothing heavy, and raise only
:class:`~resolver.errors.InvalidReferenceError` on input they cannot use (``complete_ref``,
which resolves, also raises what :func:`~resolver.resolve` raises).
"""

from __future__ import annotations

from .ax import from_ax
from .cdp import from_cdp_node
from .chrome import action_from_event, from_chrome_event
from .complete import complete_ref
from .omniparser import from_omniparser
from .playwright import from_playwright
from .point import element_at_point
from .record import record_click
from .rows import ref_from_row
from .uia import from_uia

__all__ = [
    "BrowserCaptureBridge",
    "action_from_event",
    "complete_ref",
    "element_at_point",
    "from_ax",
    "from_cdp_node",
    "from_chrome_event",
    "from_omniparser",
    "from_playwright",
    "from_uia",
    "record_click",
    "ref_from_row",
]


def __getattr__(name: str) -> object:
    # The bridge pulls in asyncio servers; load it only when asked for.
    if name == "BrowserCaptureBridge":
        from .bridge import BrowserCaptureBridge

        return BrowserCaptureBridge
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
