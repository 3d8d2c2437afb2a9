"""A Playwright locator's element as a reference (sync and async APIs).

The element is described in the page by :data:`~resolver.capture.page_script.DESCRIBE_JS`
(the Chrome extension's payload: role, name, box, selectors, web evidence, ancestors) and
turned into a reference by :func:`~resolver.capture.chrome.from_chrome_event`, so a
reference recorded through Playwright and one recorded by the extension are alike. Nothing
from Playwright is imported: the locator is used through its ``evaluate`` method.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any, Final

from ..errors import InvalidReferenceError
from ..models import SemanticElementRef
from .chrome import from_chrome_event
from .page_script import DESCRIBE_JS

__all__ = ["from_playwright"]

TIMEOUT_MS: Final[float] = 5000.0
"""How long to wait for the locator's element by default."""


def _ref(payload: Any) -> SemanticElementRef:
    if not isinstance(payload, Mapping):
        raise InvalidReferenceError("from_playwright: the page described no element")
    return from_chrome_event({"element": payload, "viewport": payload.get("viewport")})


def _unreadable(exc: Exception) -> InvalidReferenceError:
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return InvalidReferenceError(f"from_playwright: the locator's element could not be read: "
                                 f"{first}")  # fmt: skip


def _options(evaluate: Any, timeout: float) -> dict[str, float]:
    """``timeout=`` for a Locator's ``evaluate``; an ElementHandle's takes none."""
    try:
        takes = "timeout" in inspect.signature(evaluate).parameters
    except (TypeError, ValueError):
        takes = False
    return {"timeout": timeout} if takes else {}


async def _from_async(locator: Any, timeout: float) -> SemanticElementRef:
    try:
        payload = await locator.evaluate(DESCRIBE_JS, **_options(locator.evaluate, timeout))
    except Exception as exc:  # Playwright's TimeoutError/Error, or a closed page
        raise _unreadable(exc) from exc
    return _ref(payload)


def from_playwright(locator: Any, *, timeout: float = TIMEOUT_MS) -> Any:
    """The reference for the element a Playwright locator selects.

    Parameters
    ----------
    locator:
        A ``Locator`` (or ``ElementHandle``) of the sync or async API.
    timeout:
        Milliseconds to wait for the element.

    Returns
    -------
    SemanticElementRef
        With the sync API; with the async API, an awaitable of it
        (``ref = await from_playwright(page.get_by_role("button"))``).

    Raises
    ------
    InvalidReferenceError
        ``locator`` is not a locator, or its element could not be read (none, several, or
        the page went away).
    """
    evaluate = getattr(locator, "evaluate", None)
    if not callable(evaluate):
        raise InvalidReferenceError(
            f"from_playwright: expected a Playwright Locator, got {type(locator).__name__}"
        )
    if inspect.iscoroutinefunction(evaluate):
        return _from_async(locator, timeout)
    try:
        payload = evaluate(DESCRIBE_JS, **_options(evaluate, timeout))
    except Exception as exc:  # Playwright's TimeoutError/Error, or a closed page
        raise _unreadable(exc) from exc
    return _ref(payload)
