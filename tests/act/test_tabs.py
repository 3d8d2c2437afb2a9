"""Tabs a page opens while execute() runs: listed with the action that opened them (a link
with a target, window.open), none for a control that opens none; the session stays on its
page; tab_list names every tab of the context and the current one."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from live_browser import ARGS, CHROMIUM, ROOT, browser_missing, chromium

from resolver.act import execute
from resolver.act.tabs import PopupWatch, tab_list

PAGE = (ROOT / "fixtures" / "live" / "tabs.html").as_uri()
USERS = (ROOT / "fixtures" / "live" / "users.html").as_uri()
SHOP = (ROOT / "fixtures" / "live" / "cards.html").as_uri()
live = pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing()))
CLICKS = [
    {"action": "click", "target": "text=Open the users"},
    {"action": "click", "target": "text=Stay here"},
    {"action": "click", "target": "text=Pop up the shop"},
]


def test_a_page_without_a_cdp_session_is_watched_for_nothing() -> None:
    with PopupWatch(object()) as watch:
        watch.position = 3
    assert watch.seen() == ()


@pytest.fixture
def context() -> Iterator[Any]:
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1000, "height": 700})
        yield context
        context.close()


@pytest.mark.browser
@live
def test_each_tab_opened_is_listed_with_its_action(context: Any) -> None:
    page = context.new_page()
    page.goto(PAGE)
    result = execute(page, CLICKS)
    assert result.success and result.complete == 3, result.error
    assert [(o.action_index, o.url) for o in result.opened] == [(0, USERS), (2, SHOP)]
    assert result.observation.title == "Stayed"  # (the session stayed on its page)
    page.wait_for_timeout(200)
    tabs = tab_list(page)
    assert [(t["index"], t["url"], t["current"]) for t in tabs] == [
        (0, PAGE, True), (1, USERS, False), (2, SHOP, False),
    ]  # fmt: skip
    assert tabs[1]["title"] == "Users"
    again = execute(page, CLICKS[1:2])
    assert again.success and again.opened == ()  # (the listener went with the last call)


async def _async_tabs() -> list[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = await browser.new_page()
        await page.goto(PAGE)
        result = await execute(page, CLICKS)
        await browser.close()
    return [(o.action_index, o.url) for o in result.opened]


@pytest.mark.browser
@live
def test_the_async_api_lists_the_same_tabs() -> None:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:  # (a sync API's loop may run in this thread)
        opened = pool.submit(asyncio.run, _async_tabs()).result()
    assert opened == [(0, USERS), (2, SHOP)]
