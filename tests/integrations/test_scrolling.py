"""Scrolling to a recorded element a virtualised list has not drawn (headless Chromium)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from live_browser import ROOT, browser_missing, chromium, clicks, served

from resolver import ResolutionError, SemanticElementRef, resolve
from resolver.capture import from_playwright, ref_from_row
from resolver.errors import InvalidReferenceError
from resolver.integrations.playwright import act, observe
from resolver.integrations.scrolling import _order, scroll_to_find

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]
if (why := browser_missing()) is not None:
    pytest.skip(why, allow_module_level=True)

URL = (ROOT / "fixtures" / "live" / "virtual_list.html").as_uri()
ROW_BUTTON = "xpath=//div[@role='listitem'][span[text()='Order {}']]/button"
TOPS = "[document.getElementById('orders').scrollTop, document.querySelector('nav').scrollTop]"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    yield page
    page.close()


def _open(page: Any, query: str = "") -> None:
    page.goto(URL + query)
    page.wait_for_function("document.querySelectorAll('.row').length > 0")


@pytest.fixture(scope="module")
def order_120(browser: Any) -> SemanticElementRef:
    """The reference of order 120's Delete, recorded with the list scrolled to it."""
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    _open(page, "?start=120")
    table = observe(page, screenshot=False).candidates("a11y")
    page.close()
    for row in range(len(table)):
        if (
            table.roles[row] == "button"
            and "Order 120" in (ref := ref_from_row(table, row)).nearby_text
        ):
            return ref
    raise AssertionError("order 120 not drawn")


def test_a_row_out_of_view_is_refused_not_its_neighbours(page: Any, order_120: Any) -> None:
    # The list drawn at order 180: its fourth row sits where order 120's was, under the same
    # xpath; that row's Delete was the answer (the DOM's, by its xpath; the a11y source's at
    # 0.999). Without scrolling: refused, nothing clicked.
    _open(page, "?start=180")
    with pytest.raises(ResolutionError) as info:
        resolve(order_120, observe(page, screenshot=False), coords_fallback="never")
    assert info.value.evidence.rule == "refuse.record_gone"
    with pytest.raises(ResolutionError):
        act(page, order_120)
    assert page.evaluate("window.clicks") == []


@pytest.mark.parametrize("query", ["", "?start=180", "?rows=400&start=300"])
def test_act_scrolls_to_a_row_the_list_has_not_drawn(page: Any, order_120: Any, query: str) -> None:
    # Below the view (scrolled down to), above it (down to the end first, then up from
    # where the list was).
    _open(page, query)
    resolution = act(page, order_120, scrolls=40)
    assert page.evaluate("window.clicks") == [120]
    assert resolution.source == "a11y" and resolution.confidence >= 0.9


@pytest.mark.parametrize(
    ("order", "query"), [(10, "?start=60"), (10, ""), (10, "?start=100"), (130, "?start=100")]
)
def test_a_recorded_selector_that_followed_the_slot_is_not_trusted_while_scrolling(
    page: Any, order: int, query: str
) -> None:
    # from_playwright records a positional css selector and xpath (the fourth row when
    # recorded), the box and four texts around. Scrolling, views have another order in that
    # slot and the recorded one elsewhere: the slot's element was accepted (order 9's Delete
    # was clicked for order 10's), or the view was ambiguous and the search went past it.
    _open(page, f"?start={order}")
    ref = from_playwright(page.locator(ROW_BUTTON.format(order)))
    assert ref.container_path[-1] == f"Order {order} Delete" and ref.css_selector
    _open(page, query)
    act(page, ref, scrolls=40)
    assert page.evaluate("window.clicks") == [order]


def test_a_removed_row_is_refused_after_scrolling_and_the_page_is_put_back(
    page: Any, order_120: Any
) -> None:
    _open(page, "?start=60&without=120")
    before = page.evaluate(TOPS)
    with pytest.raises(ResolutionError) as info:
        act(page, order_120, scrolls=40)
    assert page.evaluate("window.clicks") == []
    assert page.evaluate(TOPS) == before
    details = info.value.evidence.details
    assert details["scrolls"] > 20 and "after" in info.value.message


def test_the_search_is_bounded(page: Any, order_120: Any) -> None:
    _open(page)
    with pytest.raises(ResolutionError) as info:
        scroll_to_find(page, order_120, max_scrolls=3)
    assert info.value.evidence.details["scrolls"] == 3
    assert page.evaluate(TOPS) == [0, 0]
    with pytest.raises(InvalidReferenceError):
        scroll_to_find(page, order_120, max_scrolls=-1)
    with pytest.raises(InvalidReferenceError):
        scroll_to_find(page, {"role": "button"})  # type: ignore[arg-type]
    with pytest.raises(InvalidReferenceError):
        act(page, order_120, scrolls=True)


def test_scroll_to_find_with_the_async_api(order_120: Any) -> None:
    from live_browser import ARGS, CHROMIUM
    from playwright.async_api import async_playwright

    async def run() -> tuple[str, str, list[int]]:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = await browser.new_page(viewport={"width": 1000, "height": 700})
            await page.goto(URL)
            found, _ = await scroll_to_find(page, order_120)
            await page.goto(URL)
            acted = await act(page, order_120, scrolls=40)
            clicks = await page.evaluate("window.clicks")
            await browser.close()
            return found.executor_id, acted.executor_id, clicks

    with ThreadPoolExecutor(1) as pool:  # (the sync API's loop runs in this thread)
        found, acted, clicks = pool.submit(asyncio.run, run()).result()
    assert found.startswith("a11y:") and acted.startswith("a11y:") and clicks == [120]


def _drawn(page: Any) -> None:
    """Wait until some document of the page (a frame's too, its shadow trees too) draws
    the list's rows."""
    for _ in range(100):
        with contextlib.suppress(Exception):  # (a frame still loading)
            if any(frame.locator(".row").count() for frame in page.frames):
                return
        page.wait_for_timeout(100)
    raise AssertionError("the list was not drawn")


def _recorded_in(page: Any, url: str, order: int = 120) -> SemanticElementRef:
    """Order ``order``'s Delete, recorded on ``url`` (which opens the list scrolled to
    it)."""
    page.goto(url)
    _drawn(page)
    table = observe(page, screenshot=False).candidates("a11y")
    for row in range(len(table)):
        if (
            table.roles[row] == "button"
            and f"Order {order}" in ref_from_row(table, row).nearby_text
        ):
            return ref_from_row(table, row)
    raise AssertionError(f"order {order} not drawn")


def _tops(page: Any) -> list[list[list[float]]]:
    """Where each scrolled region of each document is (down, across)."""
    return [
        frame.evaluate("[...document.querySelectorAll('nav, #orders, order-list')].map((e) => "
                       "(e.shadowRoot ? e.shadowRoot.getElementById('orders') : e))"
                       ".map((e) => [e.scrollTop, e.scrollLeft])")
        for frame in page.frames
    ]  # fmt: skip


def _hosted(page: Any, base: str, query: str, order: int = 120) -> None:
    """Order ``order`` found by scrolling the list ``query`` draws, and refused, with
    nothing clicked and every list put back, once it is removed."""
    ref = _recorded_in(page, f"{base}?{query}&start={order}", order)
    page.goto(f"{base}?{query}")
    _drawn(page)
    assert clicks(page) == []
    act(page, ref, scrolls=40)
    assert clicks(page) == [order]
    page.goto(f"{base}?{query}&start={order // 2}&without={order}")
    _drawn(page)
    before = _tops(page)
    with pytest.raises(ResolutionError) as info:
        act(page, ref, scrolls=40)
    assert clicks(page) == [] and _tops(page) == before
    assert info.value.evidence.details["scrolls"] > 20


@pytest.mark.parametrize("host", ["shadow", "frame"])
def test_a_list_in_a_shadow_tree_or_a_frame_is_scrolled(page: Any, host: str) -> None:
    # The regions were those of the top document's light tree: a list in a web
    # component's shadow tree or in a frame was never scrolled (order 120 refused after
    # 4 scrolls of the sections' menu, or none).
    _hosted(page, URL, f"host={host}")


def test_a_list_in_a_frame_another_process_draws_is_scrolled(page: Any) -> None:
    # 127.0.0.1 and localhost are two sites: the frame has its own process and CDP
    # session, which the page's session does not reach.
    with served() as (port,):
        base = f"http://127.0.0.1:{port}/virtual_list.html"
        _hosted(page, base, f"host=frame&site=http://localhost:{port}/")
        assert any(f.url.startswith("http://localhost") for f in page.frames)


@pytest.mark.parametrize("host", ["page", "shadow"])
def test_a_list_laid_out_across_is_scrolled_sideways(page: Any, host: str) -> None:
    # A carousel, a grid's columns: the regions were scrolled down and up only, and order
    # 30, 4,350 px to the right, was never drawn.
    _hosted(page, URL, f"axis=x&host={host}", order=30)


def test_a_frame_s_document_comes_before_the_page() -> None:
    regions = [
        {"label": "", "area": 700000.0, "page": True, "frame": False},
        {"label": "", "area": 200000.0, "page": True, "frame": True},
        {"label": "", "area": 50000.0, "page": False, "frame": True},
    ]
    assert _order(regions, SemanticElementRef(role="button", name="Delete")) == [1, 2, 0]


def test_regions_labelled_as_a_recorded_container_come_first() -> None:
    regions = [
        {"label": "", "area": 700000.0, "page": True},
        {"label": "Sections", "area": 19000.0, "page": False},
        {"label": "", "area": 50000.0, "page": False},
        {"label": "Orders", "area": 12000.0, "page": False},
    ]
    ref = SemanticElementRef(role="button", name="Delete", container_path=("Shop", "Orders"))
    assert _order(regions, ref) == [3, 2, 1, 0]
    assert _order(regions, SemanticElementRef(role="button", name="Delete")) == [2, 1, 3, 0]


GRID = (ROOT / "fixtures" / "live" / "virtual_grid.html").as_uri()
GRID_BUTTON = "[role=row]:has([role=gridcell]:text-is('Order {}')) button"
GRID_AT = "[document.getElementById('grid').scrollTop, document.getElementById('grid').scrollLeft]"


def _grid(page: Any, query: str = "") -> None:
    page.goto(GRID + query)
    page.wait_for_function("document.querySelectorAll('[role=gridcell]').length > 0")


@pytest.fixture(scope="module")
def grid_refs(browser: Any) -> dict[int, dict[str, SemanticElementRef]]:
    """Orders 10's, 70's and 130's Delete, each recorded with the grid scrolled to its row
    and to the last column (``from_playwright``: a positional selector, the box, the texts
    around; ``ref_from_row``: the accessibility tree's reference)."""
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    refs: dict[int, dict[str, SemanticElementRef]] = {}
    for order in (10, 70, 130):
        _grid(page, f"?start={order}&right=1")
        button = page.locator(GRID_BUTTON.format(order))
        table = observe(page, screenshot=False).candidates("a11y")
        rows = [r for r in range(len(table)) if table.roles[r] == "button"
                and table.containers[r][-1].startswith(f"Order {order} ")]  # fmt: skip
        refs[order] = {"playwright": from_playwright(button),
                       "tree": ref_from_row(table, rows[0])}  # fmt: skip
    page.close()
    return refs


@pytest.mark.parametrize("order", [10, 70, 130])
@pytest.mark.parametrize("query", ["", "?start=100"])
def test_a_grid_is_scrolled_down_to_the_recorded_row_then_across_to_its_button(
    page: Any, grid_refs: Any, order: int, query: str
) -> None:
    # The grid draws the rows and the columns in view. Opened at its left, no Delete is
    # drawn; scrolled across at the top, the Delete of rows 1 to 13 are, and in the recorded
    # place the row of another order sharing most of the recorded row's texts (status,
    # carrier, note): that one was clicked (order 10's for order 70's). The search now goes
    # down to the row that alone bears the recorded row's number, then across.
    for ref in grid_refs[order].values():
        _grid(page, query)
        act(page, ref, scrolls=40)
        assert clicks(page) == [order]


def test_a_deleted_grid_row_s_button_is_never_another_row_s(page: Any, grid_refs: Any) -> None:
    for order in (10, 70, 130):
        for ref in grid_refs[order].values():
            _grid(page, f"?without={order}")
            with pytest.raises(ResolutionError):
                act(page, ref, scrolls=40)
            assert clicks(page) == []
            assert page.evaluate(GRID_AT) == [0, 0]


def test_a_refused_search_leaves_no_table_in_a_reference_cycle(page: Any, order_120: Any) -> None:
    # The first view's refusal was kept with the frames it was raised through, which held
    # it: a cycle holding that view's tables, moved to the collector's oldest generation by
    # the next build and kept there (a long run grew by the observations it had refused).
    import gc

    _open(page, "?without=120")
    for done in range(4):
        if done == 1:
            gc.collect()
        with pytest.raises(ResolutionError):
            act(page, order_120, scrolls=3)
    gc.collect(1)  # (what the next build does first: Playwright's calls leave young cycles)
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        kept = [o for o in gc.garbage if type(o).__module__.startswith("resolver.")]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert kept == []
