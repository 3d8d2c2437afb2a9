"""Durable locators in headless Chromium: role, CSS and XPath locators for resolved elements
among look-alikes, each selecting exactly the resolved node."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from live_browser import ROOT, browser_missing, chromium

from resolver import InvalidReferenceError, SemanticElementRef, resolve
from resolver.act import durable_locators
from resolver.capture import ref_from_row
from resolver.integrations.playwright import observe

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]
if (why := browser_missing()) is not None:
    pytest.skip(why, allow_module_level=True)

PAGE = (ROOT / "fixtures" / "live" / "lookalikes.html").as_uri()
LAST = "window.seen[window.seen.length - 1]"


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    with chromium() as browser:
        tab = browser.new_page()
        tab.goto(PAGE)
        yield tab


def _locate(page: Any, role: str, name: str, inside: str, nth: int = 0) -> Any:
    """Record the ``nth`` element with ``role`` and ``name`` whose container path mentions
    ``inside`` (as a recorder would), resolve it on a fresh observation, and locate it."""
    recorded = observe(page, screenshot=False).candidates("a11y")
    rows = [
        r for r in range(len(recorded))
        if (recorded.roles[r], recorded.names[r]) == (role, name)
        and any(inside in entry for entry in recorded.containers[r])
    ]  # fmt: skip
    ref = ref_from_row(recorded, rows[nth])
    obs = observe(page, screenshot=False)
    return durable_locators(page, resolve(ref, obs, coords_fallback="never"), obs)


def _clicks(page: Any, found: Any) -> list[str]:
    """What the page saw clicked through each locator (role expression, CSS, XPath)."""
    seen = []
    for locator in (
        eval(found.role, {"page": page}),  # the expression is Python on ``page``
        page.locator(f"css={found.css}"),
        page.locator(f"xpath={found.xpath}"),
    ):
        assert locator.count() == 1
        locator.click()
        seen.append(page.evaluate(LAST))
    return seen


@pytest.mark.parametrize(
    ("person", "key"), [("Ada Lovelace", "ada"), ("Alan Turing", "alan"), ("Grace Hopper", "grace")]
)
def test_delete_buttons_in_table_rows(page: Any, person: str, key: str) -> None:
    found = _locate(page, "button", "Delete", person)
    assert found.role is not None and found.css and found.xpath and found.reasons == {}
    assert found.role.startswith('page.get_by_role("row")') and person in found.role
    assert ".nth(" not in found.role
    assert _clicks(page, found) == [key, key, key]


@pytest.mark.parametrize(
    ("dialog", "key"), [("Delete file?", "ok-delete"), ("Discard changes?", "ok-discard")]
)
def test_ok_buttons_in_two_dialogs(page: Any, dialog: str, key: str) -> None:
    found = _locate(page, "button", "OK", dialog)
    assert found.role == (
        f'page.get_by_role("dialog", name="{dialog}", exact=True)'
        '.get_by_role("button", name="OK", exact=True)'
    )
    assert _clicks(page, found) == [key, key, key]
    # Every candidate run on the page is listed; the plain role locator selected both.
    assert (
        "role",
        'page.get_by_role("button", name="OK", exact=True)',
        "2 elements",
    ) in found.tried


def test_identical_list_items_fall_back_to_nth(page: Any) -> None:
    found = _locate(page, "button", "Edit", "Notes", nth=1)
    assert found.role == 'page.get_by_role("button", name="Edit", exact=True).nth(1)'
    assert _clicks(page, found) == ["note-2", "note-2", "note-2"]


def test_a_point_answer_has_no_locator(page: Any) -> None:
    obs = observe(page, screenshot=False)
    ref = SemanticElementRef(role="button", name="Nothing like it", bbox=(0, 0, 10, 10))
    res = resolve(ref, obs, sources=("coords",), coords_fallback="always")
    with pytest.raises(InvalidReferenceError):
        durable_locators(page, res, obs)


def test_an_element_without_role_keeps_the_reason(page: Any) -> None:
    obs = observe(page, screenshot=False)
    res = resolve(SemanticElementRef(role="heading", name="Team members"), obs)
    found = durable_locators(page, res, obs)
    assert found.role == 'page.get_by_role("heading", name="Team members", exact=True)'
    # The marker used for the check is gone afterwards.
    assert page.evaluate("document.querySelector('h1').__resolverLocatorMark") is None


FRAMES = (ROOT / "fixtures" / "live" / "frames.html").as_uri()


@pytest.mark.parametrize(
    ("name", "inside", "key", "frames"),
    [("Save", "Billing address", "frame-save", 1), ("Pay now", "Card", "card-pay", 2)],
)
def test_elements_inside_frames(page: Any, name: str, inside: str, key: str, frames: int) -> None:
    # A "Save" inside the billing frame (the page has another at the top) and a button in a
    # frame inside that frame: the locators enter the frames, from the top down.
    page.goto(FRAMES)
    page.wait_for_function("window.seen && document.querySelector('iframe').contentDocument")
    try:
        found = _locate(page, "button", name, inside)
        assert len(found.frames) == frames and found.role is not None and found.xpath
        assert found.role.startswith('page.frame_locator("xpath=/html[1]/body[1]/main[1]/iframe')
        entered = page
        for holder in found.frames:
            entered = entered.frame_locator(f"xpath={holder}")
        for locator in (eval(found.role, {"page": page}), entered.locator(f"xpath={found.xpath}")):
            assert locator.count() == 1
            locator.click()
            assert page.evaluate("window.seen[window.seen.length - 1]") == key
        assert found.to_dict()["frames"] == list(found.frames)
        assert "inside a frame" in found.reasons["css"]
    finally:
        page.goto(PAGE)


def test_scopes_pass_a_region_named_document_and_stop_at_the_frame(page: Any) -> None:
    # An editor region (role "document") is no scope but does not end the search: the
    # section around it names the button; in a frame, no scope is taken from outside it.
    page.set_content(
        "<section aria-label='Left'><div role='document'><button>Edit</button></div></section>"
        "<section aria-label='Right'><div role='document'><button>Edit</button></div></section>"
        "<section aria-label='Billing'><iframe srcdoc=\"<section aria-label='Card'>"
        "<button>Edit</button></section><section aria-label='Bank'><button>Edit</button>"
        '</section>"></iframe></section>'
    )
    page.frame_locator("iframe").get_by_role("button").first.wait_for()
    obs = observe(page, screenshot=False)
    left = durable_locators(
        page,
        resolve(SemanticElementRef(role="button", name="Edit", container_path=("Left",)), obs),
        obs,
    )
    assert left.role == (
        'page.get_by_role("region", name="Left", exact=True)'
        '.get_by_role("button", name="Edit", exact=True)'
    )
    card = durable_locators(
        page,
        resolve(SemanticElementRef(role="button", name="Edit", container_path=("Card",)), obs),
        obs,
    )
    assert card.role is not None and 'name="Card"' in card.role and card.frames
    assert not any("Billing" in text for _, text, _ in card.tried)
    page.goto(PAGE)


async def _durable_async() -> list[Any]:
    from live_browser import ARGS, CHROMIUM
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = await browser.new_page()
        await page.goto(PAGE)
        obs = await observe(page, screenshot=False)
        table = obs.candidates("a11y")
        row = next(r for r in range(len(table)) if table.roles[r] == "button" and table.names[r])
        found = await durable_locators(page, resolve(ref_from_row(table, row), obs), obs)
        counts = [await page.locator(f"{kind}={getattr(found, kind)}").count()
                  for kind in ("css", "xpath")]  # fmt: skip
        await browser.close()
    return [found.role is not None, counts]


def test_the_async_api_gets_the_same_verified_locators() -> None:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:  # (a sync API's loop may run in this thread)
        assert pool.submit(asyncio.run, _durable_async()).result() == [True, [1, 1]]


_SHADOW_PAGE = """<!doctype html><h1>Shop</h1>
<x-card id="c1" data-name="Apples"></x-card><x-card id="c2" data-name="Pears"></x-card>
<x-card data-name="Plums"></x-card><x-vault></x-vault>
<script>
const pick = (name) => { window.seen = (window.seen || []).concat([name]); };
customElements.define("x-note", class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: "open"}).innerHTML =
    `<p>Note</p><button onclick="pick('deep-' + this.getRootNode().host.getRootNode()
      .host.dataset.name)">Deep</button>`; }
});
customElements.define("x-card", class extends HTMLElement {
  constructor() { super(); const n = this.dataset.name;
    this.attachShadow({mode: "open"}).innerHTML = `<section aria-label="${n}"><h2>${n}</h2>
      <div><button data-testid="buy-${n}" onclick="pick('buy-${n}')">Buy</button>
      <button name="info" onclick="pick('info-${n}')">Info</button>
      <button onclick="pick('more-${n}')">More</button></div><x-note></x-note></section>`; }
});
customElements.define("x-vault", class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: "closed"}).innerHTML =
    `<section aria-label="Vault"><button onclick="pick('vault')">Open</button></section>`; }
});
</script>"""


@pytest.mark.parametrize(
    ("name", "inside", "key", "css"),
    [
        ("Buy", "Pears", "buy-Pears", '[data-testid="buy-Pears"]'),
        ("Info", "Apples", "info-Apples", '#c1 button[name="info"]'),
        ("More", "Plums", "more-Plums", None),  # no attribute: the path through the hosts
        ("Deep", "Pears", "deep-Pears", None),  # two shadow trees down
    ],
)
def test_elements_inside_open_shadow_trees_get_css(
    page: Any, name: str, inside: str, key: str, css: str | None
) -> None:
    # No XPath enters a shadow tree; Playwright's CSS does: the CSS candidates come from the
    # element's and its host's attributes, then a structural path through every host.
    page.set_content(_SHADOW_PAGE)
    try:
        found = _locate(page, "button", name, inside)
        assert found.css is not None and found.xpath is None
        assert "shadow tree" in found.reasons["xpath"]
        if css is not None:
            assert found.css == css
        else:
            assert found.css.startswith("html:nth-child(1) > body:nth-child(2) > x-card")
        for locator in (eval(found.role, {"page": page}), page.locator(f"css={found.css}")):
            assert locator.count() == 1
            locator.click()
            assert page.evaluate(LAST) == key
    finally:
        page.goto(PAGE)


def test_an_element_under_a_closed_shadow_root_says_why(page: Any) -> None:
    page.set_content(_SHADOW_PAGE)
    try:
        obs = observe(page, screenshot=False)
        res = resolve(SemanticElementRef(role="button", name="Open"), obs)
        found = durable_locators(page, res, obs)
        assert found.css is None and found.xpath is None
        assert "closed shadow tree" in found.reasons["css"]
        assert not [t for t in found.tried if t[0] == "css"]
    finally:
        page.goto(PAGE)
