"""execute() on a live page that re-renders between the catalog and the action: the same
element or a refusal, never a neighbour (a page-side click log says which element got it)."""

from __future__ import annotations

from typing import Any

import pytest
from live_browser import ROOT, browser_missing

from resolver.act import ExecuteResult, execute, parse_action, session_for
from resolver.errors import InvalidTargetError, SourceUnavailableError

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing())),
]
PAGE = (ROOT / "fixtures" / "live" / "rerender.html").as_uri()
REFUSED = {"ELEMENT_NOT_FOUND", "AMBIGUOUS", "CATALOG_OUTDATED"}


def _open(page: Any, query: str = "") -> tuple[Any, dict[str, int]]:
    """Load the page, build its catalog; the indexes of the toolbar and of each Delete."""
    page.goto(PAGE + query)
    catalog = session_for(page).refresh()
    index = {e.name: e.index for e in catalog.entries if e.role == "button" and e.name}
    for e in catalog.entries:
        if e.name == "Delete":
            index["delete:" + e.ref.container_path[-1].split()[0].lower()] = e.index
    return catalog, index


def _click(page: Any, catalog: Any, index: int) -> tuple[ExecuteResult, list[str]]:
    page.evaluate("window.clicks = []")
    result = execute(
        page,
        [{"action": "click", "target": f"index={index}"}],
        catalog=catalog,
        expected_catalog_version=catalog.version,
    )
    return result, page.evaluate("window.clicks")


def test_an_unchanged_page_clicks_each_indexed_element(page: Any) -> None:
    catalog, index = _open(page)
    for user in ("alice", "bob", "carol", "dave"):
        result, clicks = _click(page, catalog, index[f"delete:{user}"])
        assert result.success and result.complete == 1 and result.is_done
        assert clicks == [f"delete:{user}"]


@pytest.mark.parametrize("query", ["?keyed", ""])
def test_sorted_rows_click_the_same_row_or_refuse(page: Any, query: str) -> None:
    # Reversed rows keep the catalog version (only cell text moved). With keyed rows the
    # index follows Bob's row; without keys the positional selectors name Carol's twin: a
    # refusal. Never Carol's button.
    for user in ("alice", "bob", "carol", "dave"):
        catalog, index = _open(page, query)
        page.evaluate("rerender('sort')")
        result, clicks = _click(page, catalog, index[f"delete:{user}"])
        if query:
            assert result.success, result.error
            assert clicks == [f"delete:{user}"]
        else:
            assert clicks in ([], [f"delete:{user}"])
            assert result.success or result.error.code in REFUSED


@pytest.mark.parametrize("query", ["?keyed", ""])
def test_a_removed_row_is_refused_not_its_neighbour(page: Any, query: str) -> None:
    catalog, index = _open(page, query)
    page.evaluate("rerender('remove')")
    result, clicks = _click(page, catalog, index["delete:bob"])
    assert not result.success and result.complete == 0 and not result.is_done
    assert result.error.code in ("ELEMENT_NOT_FOUND", "CATALOG_OUTDATED")
    assert result.error.details["action_index"] == 0 and result.error.details.get("rule")
    assert clicks == []
    # The other rows still act on their own user.
    for user in ("alice", "dave"):
        result, clicks = _click(page, catalog, index[f"delete:{user}"])
        assert clicks in ([], [f"delete:{user}"])
        assert result.success or result.error.code in REFUSED


def test_a_renamed_button_is_the_same_element_or_refused(page: Any) -> None:
    catalog, index = _open(page)
    page.evaluate("rerender('rename')")
    result, clicks = _click(page, catalog, index["Save"])
    if result.success:
        assert clicks == ["save"]
    else:
        assert result.error.code in REFUSED and clicks == []
    result, clicks = _click(page, catalog, index["Sort"])  # unrenamed: still found
    assert result.success and clicks == ["sort"]


def test_a_modal_over_the_page_lands_no_click(page: Any) -> None:
    catalog, index = _open(page)
    page.evaluate("rerender('modal')")
    for name in ("Save", "delete:bob"):
        result, clicks = _click(page, catalog, index[name])
        assert not result.success and clicks == []
        assert result.error.code in ("ELEMENT_NOT_INTERACTABLE", "EXECUTION_ERROR")
        assert "covers" in result.error.message


def test_after_execute_the_session_holds_the_new_catalog(page: Any) -> None:
    catalog, index = _open(page)
    page.evaluate("window.clicks = []")
    result = execute(page, [{"action": "click", "target": f"index={index['Sort']}"}])
    assert result.success and result.observation.catalog_version
    assert session_for(page).catalog is not catalog
    assert result.catalog is not None and "button: Delete" in result.catalog
    # The sort moved only the cells' texts, and the version follows texts too: an index
    # chosen on the old catalog is refused, one chosen on the new acts in the new order.
    assert session_for(page).catalog.version != catalog.version
    assert result.observation.catalog_version == session_for(page).catalog.version
    assert f"version {result.observation.catalog_version}" in result.catalog
    old = execute(page, [{"action": "click", "target": "index=3"}],
                  expected_catalog_version=catalog.version)  # fmt: skip
    assert old.error is not None and old.error.code == "CATALOG_OUTDATED"
    page.evaluate("window.clicks = []")
    new = execute(page, [{"action": "click", "target": "index=3"}],
                  expected_catalog_version=old.observation.catalog_version)  # fmt: skip
    assert new.success and page.evaluate("window.clicks") == ["delete:dave"]


def test_type_select_press_scroll_and_wait(page: Any) -> None:
    _open(page)
    page.evaluate("window.clicks = []")
    result = execute(page, [
        {"action": "type", "target": "css=#name", "text": "Ada"},
        {"action": "type", "target": "css=#name", "text": "Bo", "clear": True},
        {"action": "select", "target": "css=#colour", "label": "Blue"},
        {"action": "press", "target": "css=#name", "key": "Enter"},
        {"action": "scroll_to_text", "text": "Terms of service"},
        {"action": "wait", "until": "selector", "selector": "#footer", "ms": 2000},
        {"action": "wait", "until": "timeout", "ms": 10},
        {"action": "refresh_catalog"},
    ])  # fmt: skip
    assert result.success and result.complete == 8, result.error
    state = page.evaluate("[clicks, changes, document.getElementById('name').value]")
    assert state == [["submit:Bo"], ["colour:blue"], "Bo"]
    assert page.evaluate("document.getElementById('footer').getBoundingClientRect().top") < 700
    missing = execute(page, [{"action": "select", "target": "css=#colour", "value": "pink"}])
    assert missing.error is not None and missing.error.code == "ELEMENT_NOT_FOUND"
    absent = execute(page, [{"action": "scroll_to_text", "text": "no such words here"}])
    assert absent.error is not None and absent.error.code == "ELEMENT_NOT_FOUND"
    slow = execute(page, [{"action": "wait", "until": "selector", "selector": "#nope", "ms": 50}])
    assert slow.error is not None and slow.error.code == "EXECUTION_ERROR"


def test_text_css_and_xpath_targets_and_index_mode_off(page: Any) -> None:
    _open(page)
    page.evaluate("window.clicks = []")
    result = execute(page, [
        {"action": "click", "target": "text=Save"},
        {"action": "click", "target": "xpath=//tbody/tr[2]/td[3]/button"},
        {"action": "click", "target": "index=0"},
    ], index_mode=False)  # fmt: skip
    assert result.complete == 2 and not result.success
    assert result.error.code == "VALIDATION_ERROR" and result.error.details["action_index"] == 2
    assert page.evaluate("clicks") == ["save", "delete:bob"]
    many = execute(page, [{"action": "click", "target": "text=Delete"}])
    assert many.error is not None and many.error.code == "AMBIGUOUS" and many.complete == 0
    # The session's setting is the default (a server started with INDEX_MODE=false).
    session_for(page).index_mode = False
    try:
        off = execute(page, [{"action": "click", "target": "index=0"}])
        assert off.error is not None and off.error.code == "VALIDATION_ERROR"
        assert execute(page, [{"action": "click", "target": "index=0"}], index_mode=True).success
    finally:
        session_for(page).index_mode = True


@pytest.mark.parametrize(
    "actions",
    [
        "click",
        [{"action": "click"}],
        [{"action": "drag", "target": "index=0"}],
        [{"action": "select", "target": "index=0"}],
        [{"action": "click", "target": "index=999"}],
        [{"action": "click", "target": "bogus=1"}],
        [{"action": "wait", "ms": 10**9}],
        [{"action": "click", "target": "index=0"}] * 51,
    ],
)
def test_bad_actions_are_a_validation_error_and_nothing_runs(page: Any, actions: Any) -> None:
    _open(page)
    page.evaluate("window.clicks = []")
    result = execute(page, actions)
    assert result.error is not None and result.error.code == "VALIDATION_ERROR"
    assert result.complete == 0 and page.evaluate("clicks") == []
    assert result.observation.catalog_version is not None


def test_parse_action_refuses_with_a_typed_error() -> None:
    assert parse_action({"action": "press", "key": "Enter"}).key == "Enter"
    with pytest.raises(InvalidTargetError) as refused:
        parse_action({"action": "wait", "until": "selector"})
    assert refused.value.code.value == "VALIDATION_ERROR"


@pytest.mark.parametrize("not_a_page", [None, 5, "https://example.test/", {"url": "x"}])
def test_anything_but_a_page_is_refused_as_no_source(not_a_page: Any) -> None:
    from resolver.errors import SourceUnavailableError

    with pytest.raises(SourceUnavailableError, match="Playwright page"):
        execute(not_a_page, [{"action": "click", "target": "index=0"}])
    with pytest.raises(SourceUnavailableError, match="Playwright page"):
        session_for(not_a_page)


def test_an_element_inside_frames_is_acted_on_and_scrolled_to(page: Any) -> None:
    # The catalog lists a frame's elements; an index acts on them and a text shown only in a
    # frame is scrolled to.
    page.goto((ROOT / "fixtures" / "live" / "frames.html").as_uri())
    page.wait_for_function("document.querySelector('iframe').contentDocument.body")
    page.frame_locator("iframe").frame_locator("iframe").get_by_role("button").wait_for()
    first = execute(page, [])
    assert first.catalog is not None
    index = next(line for line in first.catalog.splitlines() if "Pay now" in line)
    number = index.split("]")[0].split("[")[1]
    done = execute(page, [{"action": "scroll_to_text", "text": "Billing address"},
                          {"action": "type", "target": "text=Street", "text": "1 Main St"},
                          {"action": "click", "target": f"index={number}"}],
                   expected_catalog_version=first.observation.catalog_version)  # fmt: skip
    assert done.success, done.error
    assert page.evaluate("window.seen") == ["card-pay"]
    street = page.frame_locator("iframe").get_by_role("textbox", name="Street")
    assert street.input_value() == "1 Main St"


def test_typed_text_and_keys_go_to_the_target_or_nowhere(page: Any) -> None:
    # The card field's click moves the focus to the search box: typing and Enter go to the
    # card field; a target that takes no focus is refused, nothing typed.
    page.set_content(
        "<label>Search <input id='search'></label><label>Card number <input id='card' "
        "onclick=\"document.getElementById('search').focus()\"></label>"
        "<div role='textbox' aria-label='Notes'>x</div>"
    )
    done = execute(page, [{"action": "type", "target": "text=Card number", "text": "4242"}])
    assert done.success, done.error
    assert (page.input_value("#card"), page.input_value("#search")) == ("4242", "")
    refused = execute(page, [{"action": "type", "target": "text=Notes", "text": "hello"}])
    assert refused.error is not None and refused.error.code == "ELEMENT_NOT_INTERACTABLE"
    pressed = execute(page, [{"action": "press", "target": "text=Notes", "key": "a"}])
    assert pressed.error is not None and pressed.error.code == "ELEMENT_NOT_INTERACTABLE"
    assert page.input_value("#search") == "" and "hello" not in page.content()


def test_a_cleared_field_is_cleared_in_the_apps_own_state(page: Any) -> None:
    # The page keeps the field's value in its own state, told of edits the way React is
    # (a wrapped `value` setter): emptying the field must read as an edit, not as the app's
    # own write, or the app keeps the old text while the field shows none.
    page.goto((ROOT / "fixtures" / "live" / "own_scripts.html").as_uri())
    result = execute(page, [
        {"action": "type", "target": "css=#name", "text": "Ada"},
        {"action": "type", "target": "css=#name", "text": "", "clear": True},
    ])  # fmt: skip
    assert result.success, result.error
    assert page.evaluate("[document.getElementById('name').value, state]") == ["", ""]


async def _execute_async() -> list[Any]:
    from live_browser import ARGS, CHROMIUM
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = await browser.new_page(viewport={"width": 1000, "height": 700})
        await page.goto(PAGE)
        first = await execute(page, [{"action": "refresh_catalog"}])
        version = first.observation.catalog_version
        save = next(line for line in first.catalog.splitlines() if "button: Save" in line)
        index = save.split("]")[0].strip(" [")
        result = await execute(page, [
            {"action": "click", "target": f"index={index}"},
            {"action": "type", "target": "css=#name", "text": "Ada"},
            {"action": "type", "target": "css=#name", "text": "Bo", "clear": True},
            {"action": "select", "target": "css=#colour", "label": "Blue"},
            {"action": "scroll_to_text", "text": "Terms of service"},
            {"action": "wait", "until": "selector", "selector": "#footer", "ms": 2000},
        ], expected_catalog_version=version)  # fmt: skip
        state = await page.evaluate("[clicks, changes, document.getElementById('name').value]")
        try:
            session_for(page)
            refused = ""
        except SourceUnavailableError as exc:
            refused = exc.message
        await browser.close()
    return [result.success, result.complete, state, "await execute" in refused]


def test_the_async_api_executes_the_same_actions() -> None:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:  # (a sync API's loop may run in this thread)
        outcome = pool.submit(asyncio.run, _execute_async()).result()
    assert outcome == [True, 6, [["save"], ["colour:blue"], "Bo"], True]


def test_a_disabled_control_is_not_interactable(page: Any) -> None:
    page.set_content(
        "<button disabled onclick='window.hit = 1'>Send</button>"
        "<select aria-label='Size' disabled><option>S</option><option>M</option></select>"
    )
    clicked = execute(page, [{"action": "click", "target": "css=button"}])
    chosen = execute(page, [{"action": "select", "target": "css=select", "label": "M"}])
    for result in (clicked, chosen):
        assert result.error is not None and result.error.code == "ELEMENT_NOT_INTERACTABLE"
    assert "disabled" in chosen.error.message  # type: ignore[union-attr]
    assert page.evaluate("[window.hit, document.querySelector('select').value]") == [None, "S"]


def test_hover_double_and_right_clicks(page: Any) -> None:
    page.goto((ROOT / "fixtures" / "live" / "pointer.html").as_uri())
    hidden = execute(page, [{"action": "click", "target": "text=Settings"}])
    assert hidden.error is not None  # (the menu is closed: its item is not on the page)
    result = execute(page, [
        {"action": "hover", "target": "text=Account"},
        {"action": "click", "target": "text=Settings"},
        {"action": "click", "target": "text=Edit"},
        {"action": "click", "target": "css=#cell", "double": True},
        {"action": "click", "target": "css=#row", "button": "right"},
    ])  # fmt: skip
    assert result.success and result.complete == 5, result.error
    events = page.evaluate("window.events")
    assert events == ["hover", "settings", "edit", "click", "click", "rename", "context"]
    with pytest.raises(InvalidTargetError):
        parse_action({"action": "click", "target": "css=#cell", "double": True, "button": "right"})


def test_back_forward_and_reload(page: Any) -> None:
    first = (ROOT / "fixtures" / "live" / "users.html").as_uri()
    second = (ROOT / "fixtures" / "live" / "rerender.html").as_uri()
    page.goto(first)
    page.goto(second)
    removed = execute(page, [{"action": "click", "target": "text=Remove Bob"}])
    assert removed.success and "bob@example.com" not in (removed.catalog or "")
    reloaded = execute(page, [{"action": "reload"}])
    assert reloaded.success and "bob@example.com" in (reloaded.catalog or "")
    back = execute(page, [{"action": "back"}])
    assert back.success and back.observation.url == first and back.observation.nav_detected
    forward = execute(page, [{"action": "forward"}])
    assert forward.success and forward.observation.url == second
    nowhere = execute(page, [{"action": "forward"}])
    assert not nowhere.success and nowhere.error is not None
    assert (
        nowhere.error.code == "EXECUTION_ERROR" and "no page to go forward" in nowhere.error.message
    )
    assert nowhere.observation.url == second


SCROLLING = (
    """data:text/html,<body style="margin:0;height:4000px">
<div id="list" role="list" aria-label="Items" style="height:120px;width:200px;overflow:auto">
"""
    + "".join(f'<div role="listitem" style="height:30px">Item {i}</div>' for i in range(40))
    + """
</div></body>"""
)


def test_scroll_the_page_or_a_list_inside_it(page: Any) -> None:
    page.goto(SCROLLING)
    height = page.evaluate("innerHeight")
    down = execute(page, [{"action": "scroll"}])
    assert down.success and abs(page.evaluate("scrollY") - 0.9 * height) <= 2
    execute(page, [{"action": "scroll", "direction": "up", "pages": 5}])
    assert page.evaluate("scrollY") == 0
    inner = execute(page, [{"action": "scroll", "target": "css=#list", "pages": 0.5}])
    assert inner.success and page.evaluate("document.getElementById('list').scrollTop") > 0
    assert page.evaluate("scrollY") == 0  # (the list took the wheel, not the page)
    for bad in ({"action": "scroll", "pages": 0}, {"action": "scroll", "direction": "in"},
                {"action": "scroll", "pages": 11}):  # fmt: skip
        refused = execute(page, [bad])
        assert refused.error is not None and refused.error.code == "VALIDATION_ERROR"


DRAGGING = """data:text/html,<body style="margin:0">
<div id="card" draggable="true" role="button" aria-label="Card A"
     style="position:absolute;left:20px;top:20px;width:80px;height:40px;background:gold">A</div>
<div id="done" role="region" aria-label="Done"
     style="position:absolute;left:300px;top:20px;width:150px;height:150px;background:silver"></div>
<div id="track" role="group" aria-label="Volume"
     style="position:absolute;left:20px;top:250px;width:400px;height:10px;background:gray">
  <div id="knob" role="slider" aria-label="Level" aria-valuenow="0"
       style="position:absolute;left:0;top:-5px;width:20px;height:20px;background:black"></div>
</div>
<div id="end" role="note" aria-label="Loud"
     style="position:absolute;left:390px;top:280px;width:30px;height:30px">Loud</div>
<script>
window.log = [];
const done = document.getElementById("done");
done.addEventListener("dragover", (e) => e.preventDefault());
done.addEventListener("drop", (e) => { e.preventDefault(); log.push("dropped"); });
const knob = document.getElementById("knob");
let held = false;
knob.addEventListener("mousedown", () => { held = true; });
addEventListener("mousemove", (e) => { if (held) knob.style.left = (e.clientX - 30) + "px"; });
addEventListener("mouseup", (e) => {
  if (held) log.push("level:" + (e.clientX - 20));
  held = false;
});
</script></body>"""


def test_drag_a_card_onto_a_column_and_a_knob_along_its_track(page: Any) -> None:
    page.goto(DRAGGING)
    dropped = execute(page, [{"action": "drag", "target": "css=#card", "to": "css=#done"}])
    assert dropped.success, dropped.error
    slid = execute(page, [{"action": "drag", "target": "css=#knob", "to": "css=#end"}])
    assert slid.success, slid.error
    assert page.evaluate("log") == ["dropped", "level:385"]
    away = execute(page, [{"action": "drag", "target": "css=#knob", "to": "css=#nowhere"}])
    assert away.error is not None and away.error.code == "ELEMENT_NOT_FOUND"


def test_wait_for_a_text_to_show_and_to_go(page: Any) -> None:
    page.goto("data:text/html,<p id=s>Loading...</p><script>setTimeout(() => {"
              " document.getElementById('s').textContent = 'Saved'; }, 300)</script>")  # fmt: skip
    saved = execute(page, [{"action": "wait", "until": "text", "text": "Saved", "ms": 5000}])
    assert saved.success, saved.error
    gone = execute(page, [{"action": "wait", "until": "no_text", "text": "Loading...", "ms": 1000}])
    assert gone.success, gone.error
    never = execute(page, [{"action": "wait", "until": "text", "text": "Failed", "ms": 300}])
    assert never.error is not None and never.error.code == "EXECUTION_ERROR"
    bad = execute(page, [{"action": "wait", "until": "text"}])
    assert bad.error is not None and bad.error.code == "VALIDATION_ERROR"
