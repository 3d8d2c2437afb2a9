"""SnapshotV1 of a live page after it settled: a page that stops changing is stabilized, one
that never stops is snapshotted anyway, within the bound, with the reason."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from live_browser import ROOT, browser_missing, chromium

from resolver import Observation
from resolver.integrations.snapshot_live import build_snapshot

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]
if (why := browser_missing()) is not None:
    pytest.skip(why, allow_module_level=True)

PAGE = (ROOT / "fixtures" / "live" / "mutating.html").as_uri()


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    with chromium() as browser:
        tab = browser.new_page(viewport={"width": 900, "height": 700})
        yield tab


def _names(snapshot: dict[str, Any]) -> list[str]:
    return list(Observation(accessibility_tree=snapshot).candidates("a11y").names)


def test_a_page_that_stops_changing_is_stabilized(page: Any) -> None:
    page.goto(f"{PAGE}?for=1500", wait_until="commit")
    snap = build_snapshot(page, trace_id="t1", settle_timeout_ms=10_000)
    report = snap["stabilization"]
    assert report["stabilized"] is True and report["reasons"] == []
    assert report["method"] == "dom_quiet" and report["scroll"] == {"x": 0.0, "y": 0.0}
    # It waited for the feed to stop: the button added when it stops is in the snapshot.
    assert "Finished" in _names(snap) and "Done" in _names(snap)
    assert snap["title"] == "Live feed" and snap["url"].endswith("?for=1500")
    assert snap["viewport"] == {"width": 900.0, "height": 700.0}
    assert snap["trace_id"] == "t1" and snap["snapshot_version"] == 1


def test_a_page_that_never_stops_is_not_stabilized(page: Any) -> None:
    page.goto(f"{PAGE}?for=forever", wait_until="commit")
    start = time.perf_counter()
    snap = build_snapshot(page, settle_timeout_ms=600, network_timeout_ms=1000)
    seconds = time.perf_counter() - start
    report = snap["stabilization"]
    assert report["stabilized"] is False and report["mutations"] > 0
    assert any("still changing after 600 ms" in r for r in report["reasons"])
    assert seconds < 60  # bounded (generous: only a hang fails)
    assert "Finished" not in _names(snap) and "Live feed" in _names(snap)


def test_without_waiting_the_snapshot_says_so(page: Any) -> None:
    page.goto(f"{PAGE}?for=0")
    page.evaluate("window.scrollTo(0, 0)")
    snap = build_snapshot(page, stabilize=False, prune=False)
    assert snap["stabilization"]["stabilized"] is False
    assert snap["stabilization"]["reasons"] == ["not waited for"]
    assert snap["quality"]["pruned"] is False


def test_a_paused_clock_does_not_hold_the_wait(page: Any) -> None:
    # Playwright's fake clock, paused: the page's timers never fire; the wait's own do.
    context = page.context.browser.new_context(viewport={"width": 900, "height": 700})
    tab = context.new_page()
    tab.clock.install()
    tab.goto(f"{PAGE}?for=forever")
    tab.clock.pause_at(1_700_000_000_000)
    snap = build_snapshot(tab, settle_timeout_ms=600, network_timeout_ms=1000)
    report = snap["stabilization"]
    assert report["stabilized"] is True and report["mutations"] == 0, report
    assert "Live feed" in _names(snap)
    context.close()


async def _snapshot_async() -> dict[str, Any]:
    from live_browser import ARGS, CHROMIUM
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        tab = await browser.new_page(viewport={"width": 900, "height": 700})
        await tab.goto(f"{PAGE}?for=1500", wait_until="commit")
        snap: dict[str, Any] = await build_snapshot(tab, trace_id="a1", settle_timeout_ms=10_000)
        await browser.close()
    return snap


def test_the_async_api_waits_and_snapshots_the_same() -> None:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:  # (a sync API's loop may run in this thread)
        snap = pool.submit(asyncio.run, _snapshot_async()).result()
    assert snap["stabilization"]["stabilized"] is True and snap["trace_id"] == "a1"
    assert "Finished" in _names(snap) and snap["viewport"] == {"width": 900.0, "height": 700.0}
