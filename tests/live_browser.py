"""Shared helpers for the live-browser tests and benchmarks: launch Debian's chromium
through Playwright, record clicks on a page through the shims, replay them."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from resolver import ActionWithElement, ResolutionError, SemanticElementRef, resolve
from resolver.capture import action_from_event
from resolver.capture.page_script import RECORDER_JS
from resolver.integrations.playwright import act, observe

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
REPLAY_PAGE = ROOT / "fixtures" / "live" / "replay.html"


def browser_missing() -> str | None:
    """Why the live tests cannot run here, or ``None``."""
    if shutil.which(CHROMIUM) is None:
        return f"needs {CHROMIUM}"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "needs playwright (pip install 'resolver[browser]')"
    return None


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium browser (Playwright, sync API)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def live_tab(width: int, height: int) -> Iterator[Any]:
    """A tab of headless Chromium, ``width`` x ``height``; ``None`` where the browser is
    missing, after printing why (for the benchmarks' commands, which then print nothing
    else)."""
    missing = browser_missing()
    if missing is not None:
        print(f"skipped: {missing}")
        yield None
        return
    with chromium() as browser:
        yield browser.new_page(viewport={"width": width, "height": height})


def record(page: Any, url: str, selectors: dict[str, str]) -> dict[str, ActionWithElement]:
    """Open ``url`` with the recorder installed, click each selector's element at its centre
    with the mouse, and return the actions the recorder's events became, by key."""
    page.add_init_script(RECORDER_JS)
    page.goto(url)
    keys = []
    for key, selector in selectors.items():
        box = page.locator(selector).bounding_box()
        if box is None:
            continue
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        keys.append(key)
    events = page.evaluate("window.__resolverEvents")
    return {k: action_from_event(e) for k, e in zip(keys, events, strict=True)}


def record_every_way(
    browser: Any, url: str, selector: str, viewport: dict[str, int]
) -> dict[str, SemanticElementRef]:
    """The element ``selector`` selects on a new page at ``url``, recorded every way the
    library records one: the in-page recorder's click event, a click point on the a11y and
    on the DOM source (``record_click``), a Playwright locator (``from_playwright``) and that
    reference completed from the page (``complete_ref``)."""
    from resolver.capture import complete_ref, from_playwright, record_click

    page = browser.new_page(viewport=viewport)
    event = record(page, url, {"it": selector})["it"].element
    assert event is not None
    obs = observe(page, screenshot=False)
    box = page.locator(selector).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    located = from_playwright(page.locator(selector))
    refs = {
        "event": event,
        "click a11y": record_click(x, y, obs).element,
        "click dom": record_click(x, y, obs, source="dom").element,
        "playwright": located,
        "completed": complete_ref(located, obs),
    }
    page.close()
    return {k: v for k, v in refs.items() if v is not None}


def replay(page: Any, action: ActionWithElement, clicked_js: str) -> tuple[str, Any]:
    """Observe, resolve and act; ``("ok", key clicked)`` or ``("abstained", error)``."""
    assert action.element is not None
    obs = observe(page, screenshot=False)
    try:
        res = resolve(action.element, obs, coords_fallback="never")
        act(page, res, action, observation=obs)
    except ResolutionError as exc:
        return "abstained", exc
    return "ok", page.evaluate(clicked_js)


def clicks(page: Any) -> list[Any]:
    """``window.clicks`` of every document of the page (its frames' too), in frame order."""
    return [c for frame in page.frames for c in frame.evaluate("window.clicks || []")]


@contextmanager
def served(count: int = 1) -> Iterator[list[int]]:
    """``fixtures/live`` served over HTTP on the loopback, ``count`` times (the ports). Two
    ports are two origins of one site; ``127.0.0.1`` and ``localhost`` are two sites (a
    frame of the other is drawn by another process)."""
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(ROOT / "fixtures" / "live"))
    servers = [ThreadingHTTPServer(("127.0.0.1", 0), handler) for _ in range(count)]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield [int(s.server_address[1]) for s in servers]
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()
