"""A SnapshotV1 of a live page, taken once the page has settled.

:func:`build_snapshot` waits for ``domcontentloaded``, then (best effort, bounded) for the
network to go idle, then for the DOM to stop changing: a ``MutationObserver`` in the page
reports when no mutation was seen for ``quiet_ms``, or gives up after ``settle_timeout_ms``.
It then observes the page (:func:`resolver.integrations.playwright.observe`) and writes the
snapshot with :func:`resolver.snapshot.to_snapshot_v1`. How the wait went is logged in the
snapshot's ``stabilization`` (the document's free-form metadata): ``stabilized``,
``reasons`` (why it is not, one line each), ``method``, ``waited_ms``, ``mutations`` and the
page's ``scroll`` position; ``url``, ``title`` and ``viewport`` are the snapshot's own
fields. Playwright's sync or async API, Chromium only.
"""

from __future__ import annotations

import json
import time
from typing import Any, Final

from ..errors import SourceUnavailableError
from ..snapshot import to_snapshot_v1
from .cdp import Bounded, _session, isolated_context
from .threaded import in_thread, is_async

__all__ = ["SETTLE_JS", "build_snapshot", "wait_until_stable"]

SETTLE_JS: Final[str] = r"""async ([quiet, limit]) => {
  const start = performance.now();
  let last = start, count = 0;
  const seen = new MutationObserver((records) => {
    count += records.length; last = performance.now();
  });
  seen.observe(document, {subtree: true, childList: true, attributes: true,
                          characterData: true});
  return await new Promise((done) => {
    const step = Math.max(5, Math.min(25, quiet / 4));
    const tick = () => {
      const now = performance.now();
      if (now - last >= quiet || now - start >= limit) {
        seen.disconnect();
        done({quiet: now - last >= quiet, waited: now - start, mutations: count,
              scroll: {x: scrollX, y: scrollY}});
      } else {
        setTimeout(tick, step);
      }
    };
    setTimeout(tick, step);
  });
}"""
"""Resolves when the DOM saw no mutation for ``quiet`` ms, or after ``limit`` ms (run in the
library's isolated world: a page's own timers, a fake clock paused included, do not hold
it)."""
SETTLE_SLACK_MS: Final[float] = 10_000
"""How much longer than ``settle_timeout_ms`` the wait may take before it is given up (a
page whose own script runs on and on answers nothing)."""


def _settled(page: Any, quiet_ms: float, limit_ms: float) -> dict[str, Any]:
    """What :data:`SETTLE_JS` answers on the page, run in the library's isolated world."""
    try:
        session = Bounded(_session(page), limit_ms + SETTLE_SLACK_MS)
    except SourceUnavailableError:  # (no CDP: the page's own world)
        return page.evaluate(SETTLE_JS, [quiet_ms, limit_ms]) or {}
    answer = session.send("Runtime.evaluate", {
        "expression": f"({SETTLE_JS})({json.dumps([quiet_ms, limit_ms])})",
        "awaitPromise": True, "returnByValue": True, **isolated_context(session),
    })  # fmt: skip
    if answer.get("exceptionDetails"):
        raise RuntimeError(str(answer["exceptionDetails"].get("text") or "a script error"))
    value = answer.get("result", {}).get("value")
    return value if isinstance(value, dict) else {}


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def wait_until_stable(
    page: Any,
    *,
    network_timeout_ms: float = 2000,
    quiet_ms: float = 100,
    settle_timeout_ms: float = 3000,
) -> Any:
    """Wait for a live page to settle and say how it went.

    Parameters
    ----------
    page:
        A Playwright ``Page`` (sync or async API).
    network_timeout_ms:
        How long to wait for ``networkidle`` (best effort: a page that keeps polling is
        snapshotted anyway, with the reason).
    quiet_ms, settle_timeout_ms:
        The DOM is settled after ``quiet_ms`` without a mutation; the wait ends after
        ``settle_timeout_ms`` whatever the page does.

    Returns
    -------
    dict
        ``{method, stabilized, reasons, waited_ms, mutations, scroll {x, y}}``; with the
        async API, an awaitable of it.
    """
    if is_async(page):
        options = {"quiet_ms": quiet_ms, "settle_timeout_ms": settle_timeout_ms}
        return in_thread(wait_until_stable, page, network_timeout_ms=network_timeout_ms,
                         **options)  # fmt: skip
    start = time.perf_counter()
    reasons: list[str] = []
    try:
        page.wait_for_load_state("domcontentloaded", timeout=max(network_timeout_ms, 1000))
    except Exception as exc:  # Playwright's TimeoutError, or a page that closed
        reasons.append(f"domcontentloaded not reached: {_first_line(exc)}")
    try:
        page.wait_for_load_state("networkidle", timeout=network_timeout_ms)
    except Exception:
        reasons.append(f"the network was not idle within {network_timeout_ms:g} ms")
    settle: dict[str, Any] = {}
    try:
        settle = _settled(page, quiet_ms, settle_timeout_ms)
    except Exception as exc:
        reasons.append(f"the DOM could not be watched: {_first_line(exc)}")
    if settle and not settle.get("quiet"):
        reasons.append(f"the DOM was still changing after {settle_timeout_ms:g} ms "
                       f"({settle.get('mutations', 0)} mutations seen)")  # fmt: skip
    scroll = settle.get("scroll") or {}
    return {
        "method": "dom_quiet",
        "stabilized": not reasons,
        "reasons": reasons,
        "quiet_ms": quiet_ms,
        "waited_ms": round(1000 * (time.perf_counter() - start), 1),
        "mutations": int(settle.get("mutations") or 0),
        "scroll": {"x": float(scroll.get("x") or 0), "y": float(scroll.get("y") or 0)},
    }


def build_snapshot(
    page: Any,
    *,
    stabilize: bool = True,
    prune: bool = True,
    redact: bool = True,
    trace_id: str | None = None,
    **wait: float,
) -> Any:
    """A SnapshotV1 document of a live page, taken after it settled.

    Parameters
    ----------
    page:
        A Playwright ``Page`` on Chromium (sync or async API).
    stabilize:
        Wait for the page to settle first (:func:`wait_until_stable`); without it the
        ``stabilization`` says ``{"method": "none", "stabilized": false, "reasons": ["not
        waited for"]}``.
    prune, redact, trace_id:
        As for :func:`resolver.snapshot.to_snapshot_v1`.
    **wait:
        ``network_timeout_ms``, ``quiet_ms``, ``settle_timeout_ms`` for :func:`wait_until_stable`.

    Returns
    -------
    dict
        SnapshotV1 with ``url``, ``title``, ``viewport`` and ``stabilization``; with the
        async API, an awaitable of it (run in a worker thread: :mod:`.threaded`).

    Raises
    ------
    SourceUnavailableError
        The page is not a Chromium page from Playwright.
    InvalidObservationError
        The page gave no accessibility tree or document.
    """
    if is_async(page):
        options = {"prune": prune, "redact": redact, "trace_id": trace_id}
        return in_thread(build_snapshot, page, stabilize=stabilize, **options, **wait)
    from .playwright import observe

    if stabilize:
        report = wait_until_stable(page, **wait)
    else:
        report = {"method": "none", "stabilized": False, "reasons": ["not waited for"]}
        report["scroll"] = _scroll(page)
    obs = observe(page, screenshot=False)
    snapshot = to_snapshot_v1(obs, prune=prune, redact=redact, trace_id=trace_id,
                              stabilization=report)  # fmt: skip
    if not snapshot.get("title"):
        try:
            snapshot["title"] = str(page.title()) or None
        except Exception:  # a page that closed: the tree had no title either
            snapshot["title"] = None
    return snapshot


def _scroll(page: Any) -> dict[str, float]:
    try:
        where = page.evaluate("({x: scrollX, y: scrollY})")
    except Exception as exc:
        raise SourceUnavailableError(f"build_snapshot: cannot read the page: {exc}") from exc
    return {"x": float(where.get("x") or 0), "y": float(where.get("y") or 0)}
