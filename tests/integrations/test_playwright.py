"""End to end in headless Chromium: record clicks through the shims, change the page, replay
through observe -> resolve -> act, and check which element the page saw clicked."""

from __future__ import annotations

import asyncio
import contextlib
import pickle
from collections.abc import Iterator
from typing import Any

import pytest
from live_browser import (
    REPLAY_PAGE,
    ROOT,
    browser_missing,
    chromium,
    record,
    record_every_way,
    replay,
    served,
)

from resolver import (
    ActionWithElement,
    ElementNotFoundError,
    ElementNotInteractableError,
    InvalidReferenceError,
    ResolutionError,
    SemanticElementRef,
    SourceUnavailableError,
    resolve,
)
from resolver.act import durable_locators
from resolver.capture import (
    action_from_event,
    complete_ref,
    from_playwright,
    record_click,
    ref_from_row,
)
from resolver.capture.page_script import RECORDER_JS
from resolver.errors import StaleElementError
from resolver.integrations.playwright import act, observe, to_locator

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]
if (why := browser_missing()) is not None:
    pytest.skip(why, allow_module_level=True)

URL = REPLAY_PAGE.as_uri()
KEYS = ["nav.projects", "tool.new", "tool.import", "tool.export", "apollo.edit",
        "gemini.edit", "mercury.delete", "search.query", "search.go", "footer.help"]  # fmt: skip
LAST = "window.clicked[window.clicked.length - 1]"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def recorded(browser: Any) -> dict[str, Any]:
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    actions = record(page, URL, {k: f'[data-k="{k}"]' for k in KEYS})
    page.close()
    assert set(actions) == set(KEYS)
    return actions


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    page.goto(URL)
    yield page
    page.close()


def test_the_recorder_events_become_semantic_references(recorded: dict[str, Any]) -> None:
    edit = recorded["gemini.edit"].element
    assert (edit.role, edit.name, edit.tag) == ("button", "Edit", "button")
    assert "Projects" in edit.container_path and edit.xpath and edit.nearby_text
    assert recorded["search.query"].element.attributes == {"name": "q"}
    assert recorded["nav.projects"].element.href.endswith("#projects")


@pytest.mark.parametrize("kind", ["none", "move", "rename", "duplicate"])
def test_replay_clicks_the_recorded_element(page: Any, recorded: dict[str, Any], kind: str) -> None:
    if kind != "none":
        page.evaluate(f"changePage('{kind}')")
    outcomes = {key: replay(page, action, LAST) for key, action in recorded.items()}
    wrong = {k: v for k, v in outcomes.items() if v[0] == "ok" and v[1] != k}
    right = [k for k, v in outcomes.items() if v == ("ok", k)]
    assert wrong == {}
    assert len(right) >= (len(KEYS) if kind in ("none", "move", "duplicate") else 8), outcomes


def test_a_rerender_between_observe_and_act_is_resolved_again(page: Any, recorded: Any) -> None:
    action = recorded["tool.import"]
    obs = observe(page, screenshot=False)
    res = resolve(action.element, obs)
    page.evaluate("changePage('rerender')")
    used = act(page, res, action, observation=obs)
    assert page.evaluate(LAST) == "tool.import"
    assert used.executor_id != res.executor_id


def test_a_changed_element_is_never_clicked(page: Any, recorded: Any) -> None:
    action = recorded["tool.import"]
    obs = observe(page, screenshot=False)
    res = resolve(action.element, obs)
    page.evaluate("document.querySelector('[data-k=\"tool.import\"]').textContent = 'Wipe all'")
    with pytest.raises(StaleElementError, match="name is now 'Wipe all'") as renamed:
        act(page, res, action, observation=obs, reobserve=False)
    assert renamed.value.evidence.details["unreachable"] is False
    page.evaluate("document.body.prepend(Object.assign(document.createElement('div'), "
                  "{style: 'position:fixed;inset:0;z-index:9', id: 'cover'}))")  # fmt: skip
    obs = observe(page, screenshot=False)
    res = resolve(recorded["tool.new"].element, obs)
    with pytest.raises(StaleElementError, match="covers it") as covered:
        act(page, res, recorded["tool.new"], observation=obs, reobserve=False)
    assert covered.value.evidence.details["unreachable"] is True
    with pytest.raises(InvalidReferenceError, match="pass the observation"):
        act(page, res, recorded["tool.new"])
    assert page.evaluate("window.clicked") == []


CONTAINERS_PAGE = """<!doctype html><html><body style="margin:0">
<div role="toolbar" aria-label="Document actions" style="display:flex;gap:8px;padding:10px">
  <span>Q3 report</span>
  <button aria-hidden="true" tabindex="-1" onclick="window.log.push('print')">Print</button>
  <button onclick="window.log.push('save')">Save</button></div>
<fieldset style="width:400px"><legend>Display</legend>
  <p style="margin:4px">Applies to every page.</p>
  <input aria-label="Font size" style="width:380px" onclick="window.log.push('font size')">
  <p style="margin:4px">Changes are kept.</p></fieldset>
<fieldset style="width:400px"><legend>Notes</legend><p>Read only.</p></fieldset>
<script>window.log = [];</script></body></html>"""


def test_the_recorder_script_records_a_choice_of_files_and_a_changed_value(
    browser: Any, tmp_path: Any
) -> None:
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text(name)
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    try:
        page.add_init_script(RECORDER_JS)
        page.goto((ROOT / "fixtures" / "live" / "uploads.html").as_uri())
        page.set_input_files("#attachments", [str(tmp_path / "a.txt"), str(tmp_path / "b.txt")])
        events = [e for e in page.evaluate("window.__resolverEvents") if e["type"] == "input"]
        (upload,) = [action_from_event(e) for e in events]
        assert (upload.type, upload.files) == ("upload", ("a.txt", "b.txt"))
        assert upload.element is not None and upload.element.name == "Attachments"
        # A changed value has no point (it was NaN, which no action takes).
        page.goto('data:text/html,<input aria-label="City">')
        page.fill("input", "Oslo")
        page.keyboard.press("Tab")
        (change,) = [e for e in page.evaluate("window.__resolverEvents") if e["type"] == "input"]
        typed = action_from_event(change)
        assert (typed.type, typed.text, typed.x) == ("type", "Oslo", None)
    finally:
        page.close()


@contextlib.contextmanager
def observed_page(browser: Any, html: str) -> Iterator[tuple[Any, Any]]:
    """A 1000 x 700 page of ``html`` and its observation, closed after."""
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    try:
        page.set_content(html)
        yield page, observe(page, screenshot=False)
    finally:
        page.close()


@pytest.fixture
def containers(browser: Any) -> Iterator[tuple[Any, Any]]:
    """A page of :data:`CONTAINERS_PAGE` and its observation."""
    with observed_page(browser, CONTAINERS_PAGE) as both:
        yield both


def test_a_press_on_a_container_never_lands_on_a_control_inside_it(
    containers: tuple[Any, Any],
) -> None:
    # A click recorded on a group's empty space (or a reference naming the group) would be
    # replayed at the group's centre, where its font-size field is drawn: refused, nothing
    # pressed. A group whose centre shows text only is pressed as before.
    page, obs = containers
    display = resolve(SemanticElementRef(role="group", name="Display"), obs)
    with pytest.raises(StaleElementError, match="a control inside it"):
        act(page, display, observation=obs, reobserve=False)
    notes = resolve(SemanticElementRef(role="group", name="Notes"), obs)
    act(page, notes, observation=obs)
    assert page.evaluate("window.log") == []
    save = resolve(SemanticElementRef(role="button", name="Save"), obs)
    act(page, save, observation=obs)
    assert page.evaluate("window.log") == ["save"]


def test_a_click_on_a_control_the_accessibility_tree_leaves_out(
    containers: tuple[Any, Any],
) -> None:
    # The Print button is aria-hidden: no row of the a11y source, whose row under the point
    # is the toolbar (replayed at its centre, another place). It is recorded from the DOM
    # instead; a replay finds it there, and the executor checks it as the DOM reads it (the
    # accessibility tree ignores it): pressed, and refused once renamed or disabled. A click
    # on text in the toolbar keeps the a11y row.
    page, obs = containers
    box = page.get_by_text("Print").bounding_box()
    action = record_click(box["x"] + 5, box["y"] + 5, obs)
    assert action.element is not None
    assert (action.element.role, action.element.name) == ("button", "Print")
    found = resolve(action.element, obs)
    assert (found.source, found.candidate.name) == ("dom", "Print")
    act(page, found, action, observation=obs)
    assert page.evaluate("window.log") == ["print"]
    text = page.get_by_text("Q3 report").bounding_box()
    kept = record_click(text["x"] + 2, text["y"] + 2, obs).element
    assert kept is not None and kept.name == "Q3 report"
    printer = "document.querySelector('[aria-hidden]')"
    page.evaluate(f"{printer}.disabled = true")
    with pytest.raises(StaleElementError, match="disabled"):
        act(page, found, action, observation=obs, reobserve=False)
    page.evaluate(f"{printer}.disabled = false; {printer}.textContent = 'Wipe all'")
    with pytest.raises(StaleElementError, match="name is now 'Wipe all'"):
        act(page, found, action, observation=obs, reobserve=False)
    assert page.evaluate("window.log") == ["print"]


HIDDEN_HEADER_PAGE = """<!doctype html><html><body style="margin:0">
<div aria-hidden="true" style="position:fixed;top:0;left:0;right:0;height:34px;z-index:5;
  background:#fff"><div style="height:20px"><a href="#in" style="display:inline-block;
  height:18px;padding:4px;margin:3px 40px" onclick="window.log.push('sign in');
  return false">Sign in</a></div></div>
<main><p style="margin:0;height:80px;font-size:24px">The story under the header goes on
  and on over more than one line of the page, as a story does.</p></main>
<script>window.log = [];</script></body></html>"""


def test_a_click_on_a_hidden_header_drawn_over_the_page(browser: Any) -> None:
    # A fixed header the accessibility tree leaves out (aria-hidden, as a page hides it
    # while a dialog is open) is drawn over the story: the tree's row under the point is the
    # story's paragraph, another part of the document, and the link overflows its own row
    # of the header. The click is recorded as the link, from the DOM, and pressed again.
    with observed_page(browser, HIDDEN_HEADER_PAGE) as (page, obs):
        box = page.get_by_text("Sign in").bounding_box()
        action = record_click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, obs)
        assert action.element is not None
        assert (action.element.role, action.element.name) == ("link", "Sign in")
        found = resolve(action.element, obs)
        act(page, found, action, observation=obs)
        assert page.evaluate("window.log") == ["sign in"]


MODAL_PAGE = """<!doctype html><html><body style="margin:0">
<div aria-hidden="true"><button style="width:600px;height:200px"
  onclick="window.log.push('behind')">Behind</button></div>
<div role="dialog" aria-label="Terms" style="position:fixed;top:0;left:0;width:900px;
  height:300px;background:#fff;font-size:20px">Read these terms before you go on; they
  are long and they say much, over several lines of the dialog.</div>
<script>window.log = [];</script></body></html>"""


def test_a_click_on_a_dialog_s_text_is_not_taken_for_a_control_beneath_it(
    browser: Any,
) -> None:
    # The page hides what lies behind its dialog from the accessibility tree; a button the
    # dialog covers is still in the DOM under the point. The click was on the dialog.
    with observed_page(browser, MODAL_PAGE) as (_, obs):
        action = record_click(100, 40, obs)
        assert action.element is not None and action.element.role != "button"
        assert "terms" in (action.element.name or "").lower()


STORIES = "".join(
    f'<li><a href="#{k}" title="{title}" onclick="window.log.push(\'{k} picture\');'
    f'return false"><span style="display:inline-block;width:40px;height:24px"> <img '
    f'data-src="{k}.jpg"> <img data-src="{k}-wide.jpg"> </span></a> <a href="#{k}" '
    f"onclick=\"window.log.push('{k}');"
    f'return false">{title}</a></li>'
    for k, title in (("a", "Story A"), ("b", "Story B"), ("c", "Story C"))
)
STORIES_PAGE = (
    f"<!doctype html><html><body><h2>Most read</h2><ul>{STORIES}</ul>"
    f"<h2>Also</h2><ul>{STORIES}</ul><script>window.log = [];</script></body></html>"
)


def test_a_picture_link_the_tree_names_otherwise_is_found_from_the_dom(browser: Any) -> None:
    # Each story's picture link is named by its title in the DOM; Chromium's tree names it
    # by its blank text, so the tree holds half the recorded namesakes and took the picture
    # for a story link that lost its look-alikes (refuse.lookalike_place), which stopped
    # every later source. The DOM, which names the picture at its recorded XPath as
    # recorded, now judges it (scope.dom_names_it): found and pressed.
    with observed_page(browser, STORIES_PAGE) as (page, obs):
        box = page.locator('a[title="Story B"]').first.bounding_box()
        action = record_click(box["x"] + 20, box["y"] + 12, obs, source="dom")
        assert action.element is not None and action.element.name == "Story B"
        found = resolve(action.element, obs)
        assert found.source == "dom"
        assert "scope.dom_names_it" in found.trace[0].rules
        act(page, found, action, observation=obs)
        assert page.evaluate("window.log") == ["b picture"]


SCROLL_BOX_PAGE = """<!doctype html><html><body style="margin:0;height:3000px">
<div id="box" style="height:200px;overflow:auto"><div style="height:1000px">
  <button style="margin-top:150px" onclick="window.log.push('save')">Save</button></div></div>
<script>window.log = [];</script></body></html>"""


def test_a_control_drawn_where_it_is_is_pressed_without_scrolling(browser: Any) -> None:
    # A button drawn in view, near the foot of a scrolling box: a person presses it there.
    # Scrolling it to the middle of the view first moved the box's content (and, on real
    # pages, headers placed over other rows, and lists that load as they scroll).
    with observed_page(browser, SCROLL_BOX_PAGE) as (page, obs):
        act(page, resolve(SemanticElementRef(role="button", name="Save"), obs), observation=obs)
        assert page.evaluate("window.log") == ["save"]
        scrolled = "[document.getElementById('box').scrollTop, window.scrollY]"
        assert page.evaluate(scrolled) == [0, 0]


def test_coordinates_become_references_and_locators(page: Any) -> None:
    obs = observe(page)
    box = page.locator('[data-k="gemini.delete"]').bounding_box()
    action = record_click(box["x"] + 5, box["y"] + 5, obs)
    assert action.element is not None and action.element.name == "Delete"
    assert action.element.container_path[-1].startswith("Gemini")
    res = resolve(action.element, obs)
    to_locator(page, res, obs).click()
    assert page.evaluate(LAST) == "gemini.delete"
    ref = from_playwright(page.get_by_role("button", name="Export"))
    assert (ref.role, ref.name, ref.container_path) == ("button", "Export", ("[main]", "Toolbar"))
    assert obs.screenshot is not None and obs.screen_size == (1000.0, 700.0)


def test_a_record_drawn_as_a_div_with_its_role_names_the_reference(browser: Any) -> None:
    # A virtualised list's items are divs with role="listitem" (a grid's rows, role="row"):
    # the page script named only li, tr and article elements by their texts, so a reference
    # it recorded had no record, and a view of other orders answered one of theirs.
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    url = (ROOT / "fixtures" / "live" / "virtual_list.html").as_uri()
    page.goto(url + "?start=120")
    button = page.locator("xpath=//div[@role='listitem'][span[text()='Order 120']]/button")
    ref = from_playwright(button)
    assert ref.container_path[-1] == "Order 120 Delete"
    page.goto(url + "?start=180")
    with pytest.raises(ResolutionError):
        resolve(ref, observe(page, screenshot=False), coords_fallback="never")
    page.close()


@pytest.mark.parametrize("source", ["a11y", "dom"])
def test_a_reference_is_completed_from_the_live_page(page: Any, source: str) -> None:
    ref = from_playwright(page.locator('[data-k="apollo.edit"]'))
    assert ref.lookalikes == () and ref.anchors == ()  # what a page script sees
    obs = observe(page, screenshot=False)
    full = complete_ref(ref, obs, sources=(source,))
    assert len(full.lookalikes) == 2 and full.anchors  # Gemini's and Mercury's "Edit"
    assert full.tag == "button" and full.xpath
    res = resolve(full, obs, sources=(source,))
    to_locator(page, res, obs).click()
    assert page.evaluate(LAST) == "apollo.edit"
    page.evaluate("document.querySelector('[data-k=\"apollo.edit\"]').remove()")
    with pytest.raises(ElementNotFoundError):
        resolve(full, observe(page, screenshot=False), sources=(source,))


def test_frames_and_open_shadow_roots_are_observed(browser: Any) -> None:
    page = browser.new_page(viewport={"width": 800, "height": 600})
    page.set_content(
        "<p style='height:40px'>top</p>"
        "<iframe style='position:absolute;left:100px;top:200px;width:300px;height:150px;"
        "border:0' srcdoc=\"<button onclick='parent.hit=1'>In frame</button>\"></iframe>"
        "<div id=host></div><script>const r = host.attachShadow({mode: 'open'});"
        "r.innerHTML = '<button>In shadow</button>';"
        "r.querySelector('button').onclick = () => { window.hit = 2; };</script>"
    )
    page.wait_for_function("document.querySelector('iframe').contentDocument.body")
    obs = observe(page, screenshot=False)
    for name, expected in (("In frame", 1), ("In shadow", 2)):
        res = resolve(SemanticElementRef(role="button", name=name), obs)
        assert res.point is not None
        act(page, res, observation=obs)
        assert page.evaluate("window.hit") == expected
    frame_button = resolve(SemanticElementRef(role="button", name="In frame"), obs)
    assert frame_button.point[0] > 100 and frame_button.point[1] > 200  # offset by the frame
    page.close()


def test_a_locator_enters_the_frames_its_element_is_in(browser: Any) -> None:
    # The "Save" inside the frame, not the one at the top; a button in a frame in a frame.
    page = browser.new_page(viewport={"width": 800, "height": 600})
    page.goto((ROOT / "fixtures" / "live" / "frames.html").as_uri())
    page.wait_for_function("window.seen && document.querySelector('iframe').contentDocument")
    obs = observe(page, screenshot=False)
    for name, inside, key in (("Save", "Billing address", "frame-save"),
                              ("Pay now", "Card", "card-pay")):  # fmt: skip
        ref = SemanticElementRef(role="button", name=name, container_path=("Invoices", inside))
        locator = to_locator(page, resolve(ref, obs), obs)
        assert locator.count() == 1
        locator.click()
        assert page.evaluate("window.seen[window.seen.length - 1]") == key
    page.close()


@pytest.fixture(scope="module")
def cross_site(browser: Any) -> Iterator[tuple[Any, str]]:
    """The browser (Chromium draws each site in its own process) and a checkout page whose
    card form is a frame of another site (``localhost`` inside ``127.0.0.1``)."""
    with served() as (port,):
        yield browser, f"http://127.0.0.1:{port}/checkout.html?http://localhost:{port}/card.html"


def _checkout(browser: Any, url: str) -> Any:
    page = browser.new_page(viewport={"width": 800, "height": 600})
    page.goto(url)
    page.frame_locator("#card").get_by_role("button", name="Pay").wait_for()
    return page


def test_a_cross_site_frame_is_observed_and_acted_on(cross_site: tuple[Any, str]) -> None:
    # The card form is drawn by another process: the tab's own session does not see into
    # it (its nodes were missing), and its backend IDs are numbered apart from the tab's.
    page = _checkout(*cross_site)
    obs = observe(page, screenshot=False)
    pay = resolve(
        SemanticElementRef(role="button", name="Pay", container_path=("Checkout", "Card")), obs
    )
    assert pay.executor_id in obs.targets
    # Its box is where the frame draws it: inside the frame element's content box (the
    # frame has a 7 px border and 5 px padding), not at the frame's own coordinates.
    frame_box = page.locator("#card").bounding_box()
    assert (
        frame_box["x"] + 12
        <= pay.candidate.bbox[0]
        < pay.candidate.bbox[2]
        <= frame_box["x"] + frame_box["width"]
    )
    assert frame_box["y"] + 12 <= pay.candidate.bbox[1]
    act(page, pay, observation=obs)
    page.wait_for_function("window.seen.length > 0")  # (a message from the frame)
    assert page.evaluate("window.seen") == ["frame-pay"]
    number = resolve(SemanticElementRef(role="textbox", name="Card number"), obs)
    act(page, number, ActionWithElement(type="type", text="4242"), observation=obs)
    card = next(f for f in page.frames if f.parent_frame is not None)
    assert card.evaluate("document.getElementById('number').value") == "4242"
    located = to_locator(page, pay, obs)
    assert located.count() == 1 and located.evaluate("e => e.textContent") == "Pay"
    # The tab's own DOM is never linked to a frame's node by a backend ID of the same number.
    table = obs.candidates("a11y")
    row = table.executor_row(pay.executor_id)
    assert row is not None and table.xpaths[row] is None
    page.close()


def test_a_copy_of_the_observation_refuses_to_act_in_a_cross_site_frame(
    cross_site: tuple[Any, str],
) -> None:
    page = _checkout(*cross_site)
    obs = observe(page, screenshot=False)
    copy = pickle.loads(pickle.dumps(obs))
    pay = resolve(
        SemanticElementRef(role="button", name="Pay", container_path=("Checkout", "Card")), copy
    )
    assert pay.executor_id in copy.targets
    with pytest.raises(StaleElementError, match="observe the page again"):
        act(page, pay, observation=copy, reobserve=False)
    page.wait_for_timeout(200)
    assert page.evaluate("window.seen") == []
    page.close()


def test_a_frame_that_moves_to_another_site_is_read_on_its_new_process(
    cross_site: tuple[Any, str],
) -> None:
    page = cross_site[0].new_page(viewport={"width": 800, "height": 600})
    page.goto(cross_site[1].split("?")[0] + "?about:blank")  # the frame starts blank
    page.wait_for_function("document.getElementById('card').contentDocument")
    assert observe(page, screenshot=False).targets == {}  # (asked once, remembered)
    page.evaluate(f"document.getElementById('card').src = {cross_site[1].split('?')[1]!r}")
    page.frame_locator("#card").get_by_role("button", name="Pay").wait_for()
    obs = observe(page, screenshot=False)
    pay = resolve(
        SemanticElementRef(role="button", name="Pay", container_path=("Checkout", "Card")), obs
    )
    assert pay.executor_id in obs.targets
    page.close()


@contextlib.contextmanager
def _card_page(browser: Any, origin: str, script: str = "") -> Iterator[tuple[Any, Any]]:
    """The checkout page, its card form from its own origin or another of its site (drawn by
    its process), and the form's Pay button; ``script`` runs in every frame first."""
    with served(2) as (one, two):
        page = browser.new_page(viewport={"width": 800, "height": 600})
        if script:
            page.add_init_script(script)
        card = f"http://127.0.0.1:{one if origin == 'same' else two}/card.html"
        page.goto(f"http://127.0.0.1:{one}/checkout.html?{card}")
        button = page.frame_locator("#card").get_by_role("button", name="Pay")
        button.wait_for()
        try:
            yield page, button
        finally:
            page.close()


@pytest.mark.parametrize("origin", ["same", "other"])
def test_a_recorder_in_a_frame_writes_nothing_of_the_frame_as_the_pages(
    browser: Any, origin: str
) -> None:
    # The frame's selectors, XPath and id are of its own document: left out. In a frame of
    # another origin the page script cannot see where the frame is: no box, no point,
    # rather than ones in the frame's own viewport read as the page's.
    with _card_page(browser, origin, RECORDER_JS) as (page, button):
        ref = from_playwright(page.frame_locator("#card").locator("#number"))
        assert (ref.role, ref.name) == ("textbox", "Card number")
        assert ref.css_selector is None and ref.xpath is None and ref.dom_id is None
        drawn = button.bounding_box()
        button.click()
        frame = next(f for f in page.frames if f.parent_frame is not None)
        event = frame.evaluate("window.__resolverEvents[window.__resolverEvents.length - 1]")
        action = action_from_event(event)
        assert action.element is not None and action.element.name == "Pay"
        if origin == "same":
            assert action.element.bbox is not None
            assert action.element.bbox[:2] == pytest.approx((drawn["x"], drawn["y"]))
            assert action.x == pytest.approx(drawn["x"] + drawn["width"] / 2, abs=1)
        else:
            assert action.element.bbox is None and action.element.screen_size is None
            assert action.x is None and ref.bbox is None


def test_a_cross_site_frame_inside_another_is_read_through_it(browser: Any) -> None:
    # The checkout page inside a frame of another site, whose card form comes from a third
    # process again: the inner frame is read on its own session, its frame element found
    # in the middle frame's process, and its boxes placed through both frames.
    with served(2) as (one, two):
        inner = f"http://127.0.0.1:{one}/card.html"
        middle_url = f"http://localhost:{two}/checkout.html?{inner}"
        page = browser.new_page(viewport={"width": 1000, "height": 800})
        page.goto(f"http://127.0.0.1:{one}/checkout.html?{middle_url}")
        deep = page.frame_locator("#card").frame_locator("#card")
        deep.get_by_role("button", name="Pay").wait_for()
        obs = observe(page, screenshot=False)
        table = obs.candidates("a11y")
        rows = [
            r for r in range(len(table))
            if table.roles[r] == "button"
            and len(obs.frame_paths.get(table.executor_id(r), ((), None))[0]) == 2
        ]  # fmt: skip
        assert len(rows) == 1 and len(set(obs.targets.values())) == 2
        box = tuple(float(v) for v in table.bboxes[rows[0]])
        # Where each document draws it: the frames' content boxes, each in its parent's
        # viewport, and the button in the card's.
        content = "(e) => { const r = e.getBoundingClientRect(), s = getComputedStyle(e); " \
                  "return [r.left + e.clientLeft + parseFloat(s.paddingLeft), " \
                  "r.top + e.clientTop + parseFloat(s.paddingTop)]; }"  # fmt: skip
        middle = next(f for f in page.frames if f.url.startswith("http://localhost"))
        card = next(f for f in page.frames if f.parent_frame is middle)
        outer = page.locator("#card").evaluate(content)
        inside = middle.locator("#card").evaluate(content)
        drawn = card.get_by_role("button", name="Pay").evaluate(
            "(e) => [e.getBoundingClientRect().left, e.getBoundingClientRect().top]"
        )
        expected = (outer[0] + inside[0] + drawn[0], outer[1] + inside[1] + drawn[1])
        assert box[:2] == pytest.approx(expected, abs=0.5)
        res = resolve(SemanticElementRef(role="button", name="Pay", bbox=box), obs)
        assert res.executor_id == table.executor_id(rows[0])
        act(page, res, observation=obs)
        middle.wait_for_function("window.seen.length > 0")  # (the card tells its parent)
        assert middle.evaluate("window.seen") == ["frame-pay"]
        assert page.evaluate("window.seen") == []
        assert to_locator(page, res, obs).count() == 1
        page.close()


def test_a_cross_site_frame_that_never_answers_is_left_out_and_named(
    cross_site: tuple[Any, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The frame's script runs on and on: its process answers nothing. Before, observe waited
    # for it for ever; now it waits FRAME_TIMEOUT_MS once, then not again for a while.
    import resolver.integrations.cdp as cdp

    monkeypatch.setattr(cdp, "FRAME_TIMEOUT_MS", 500.0)
    page = cross_site[0].new_page(viewport={"width": 800, "height": 600})
    page.goto(cross_site[1].replace("card.html", "busy.html"))
    page.wait_for_timeout(600)  # (its loop starts 200 ms after it loads)
    for _ in range(2):
        obs = observe(page, screenshot=False)
        assert [u.rsplit("/", 1)[-1] for u in obs.unread_frames] == ["busy.html"]
        assert not obs.targets
        assert resolve(SemanticElementRef(role="button", name="Pay"), obs).executor_id
    page.close()


def test_a_page_that_never_answers_is_refused_in_bounded_time(
    browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import resolver.integrations.cdp as cdp

    monkeypatch.setattr(cdp, "PAGE_TIMEOUT_MS", 500.0)
    context = browser.new_context()
    page = context.new_page()
    page.set_content("<button>Go</button><script>setTimeout(() => { for (;;) {} }, 100)</script>")
    page.wait_for_timeout(300)
    with pytest.raises(SourceUnavailableError, match="did not answer"):
        observe(page, screenshot=False)
    context.close()


MOVING = """<script>window.seen = []</script>
<style>button { position: absolute; top: 10px; width: 80px; height: 30px }
@keyframes pulse { from { transform: scale(1) } to { transform: scale(1.15) } }</style>
<div id="others"></div>
<button id="target" style="left: 0; z-index: 1" onclick="seen.push('target')">Target</button>
<button style="left: 0; top: 80px; animation: pulse 0.3s infinite alternate"
        onclick="seen.push('pulse')">Pulse</button>
<script>
  for (let x = 0; x < 700; x += 80) {  // a row of other buttons under the target's way
    const b = document.createElement("button");
    b.textContent = "Other"; b.style.left = x + "px"; b.onclick = () => seen.push("other");
    document.getElementById("others").append(b);
  }
  const t = document.getElementById("target");
  let x = 0;
  const step = () => { x = (x + 90) % 630; t.style.left = x + "px"; requestAnimationFrame(step); };
  requestAnimationFrame(step);
</script>"""


def test_an_element_that_moves_away_is_not_clicked_one_that_pulses_is(browser: Any) -> None:
    # The target jumps 90 px a frame over a row of other buttons: clicked where it was
    # measured, the click reached one of them. It is measured again two frames later; the
    # point must be inside both boxes. A button pulsing in place is clicked.
    page = browser.new_page(viewport={"width": 800, "height": 600})
    page.set_content(MOVING)
    obs = observe(page, screenshot=False)
    target = resolve(SemanticElementRef(role="button", name="Target"), obs)
    with pytest.raises(StaleElementError, match="moving") as refused:
        act(page, target, observation=obs, reobserve=False)
    assert refused.value.evidence.details["unreachable"] is True
    page.wait_for_timeout(100)
    assert page.evaluate("window.seen") == []
    act(page, resolve(SemanticElementRef(role="button", name="Pulse"), obs), observation=obs)
    page.wait_for_timeout(100)
    assert page.evaluate("window.seen") == ["pulse"]
    page.close()


POINTER = (ROOT / "fixtures" / "live" / "pointer.html").as_uri()


def test_a_click_lands_where_the_element_is_once_the_pointer_is_there(browser: Any) -> None:
    # A menu open under the pointer pushes Edit 40 px down; on the way to Edit the pointer
    # leaves the menu, which closes, and Delete moves up to where Edit was measured: a press
    # there clicked Delete. The element is measured again with the pointer on it.
    page = browser.new_page(viewport={"width": 800, "height": 600})
    page.goto(POINTER)
    obs = observe(page, screenshot=False)
    act(page, resolve(SemanticElementRef(role="button", name="Account"), obs),
        ActionWithElement(type="hover"), observation=obs)  # fmt: skip
    opened = observe(page, screenshot=False)
    act(page, resolve(SemanticElementRef(role="button", name="Edit"), opened), observation=opened)
    page.wait_for_timeout(50)
    assert page.evaluate("window.events") == ["hover", "edit"]
    page.close()


FOCUS = """<label>Search <input id="search"></label>
<label>Card number <input id="card" onclick="document.getElementById('search').focus()">
</label><div role="textbox" aria-label="Notes">x</div>"""


def test_text_is_typed_into_the_element_or_not_at_all(browser: Any) -> None:
    # A click whose handler moves the focus elsewhere: the card number went into the
    # search box. The element is given the focus back. An element that takes no focus:
    # the text went nowhere, reported as done; now refused.
    page = browser.new_page()
    page.set_content(FOCUS)
    obs = observe(page, screenshot=False)
    card = resolve(SemanticElementRef(role="textbox", name="Card number"), obs)
    act(page, card, ActionWithElement(type="type", text="4242"), observation=obs)
    assert (page.input_value("#card"), page.input_value("#search")) == ("4242", "")
    notes = resolve(SemanticElementRef(role="textbox", name="Notes"), obs)
    with pytest.raises(ElementNotInteractableError, match="keyboard focus"):
        act(page, notes, ActionWithElement(type="type", text="hello"), observation=obs)
    assert page.input_value("#search") == "" and "hello" not in page.content()
    page.close()


async def _observe_cross_site(url: str) -> tuple[list[str], bool]:
    from live_browser import ARGS, CHROMIUM
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(
            executable_path=CHROMIUM, args=[*ARGS, "--site-per-process"]
        )
        page = await browser.new_page()
        await page.goto(url)
        await page.frame_locator("#card").get_by_role("button", name="Pay").wait_for()
        obs = await observe(page, screenshot=False)
        await browser.close()
    table = obs.candidates("a11y")
    names = [
        table.names[table.executor_row(e)] for e in obs.targets if table.executor_row(e) is not None
    ]
    return names, all(r.handle is None for r in obs.remote_frames.values())


def test_the_async_api_observes_a_cross_site_frame(cross_site: tuple[Any, str]) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:  # (the sync API's loop runs in this thread)
        names, closed = pool.submit(asyncio.run, _observe_cross_site(cross_site[1])).result()
    assert "Pay" in names and "Card number" in names and closed


@pytest.mark.parametrize("origin", ["same", "other"])
def test_a_frame_with_a_border_and_a_padding_is_acted_in_at_the_right_place(
    browser: Any, origin: str
) -> None:
    # The frame element's border (7 px) and padding (5 px) are inside its box: its document
    # starts 12 px further in. In a frame of another origin (the same site: the same
    # process) the page cannot see the way up, and CDP places the point.
    with _card_page(browser, origin) as (page, button):
        obs = observe(page, screenshot=False)
        ref = SemanticElementRef(role="button", name="Pay", container_path=("Checkout", "Card"))
        pay = resolve(ref, obs)
        drawn = button.bounding_box()
        assert pay.executor_id not in obs.targets  # (drawn by the page's own process)
        assert pay.candidate.bbox[:2] == pytest.approx((drawn["x"], drawn["y"]), abs=0.5)
        act(page, pay, observation=obs)
        page.wait_for_function("window.seen.length > 0")
        assert page.evaluate("window.seen") == ["frame-pay"]
        if origin == "same":  # a recorder in the page sees the way up: the box it records
            recorded = from_playwright(button).bbox
            assert recorded is not None and recorded[:2] == pytest.approx((drawn["x"], drawn["y"]))


async def _observe_async() -> int:
    from live_browser import ARGS, CHROMIUM
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        b = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = await b.new_page()
        await page.goto(URL)
        obs = await observe(page, screenshot=False)
        ref = await from_playwright(page.get_by_role("button", name="Import"))
        await b.close()
    return len(obs.candidates("a11y")) if ref.name == "Import" else 0


def test_the_async_api_observes_and_records() -> None:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    # The sync API's loop runs in this thread (the module's browser): use another one.
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(asyncio.run, _observe_async()).result() > 20


USERS = (REPLAY_PAGE.parent / "users.html").as_uri()
ROWS = "#users tbody tr"
CHANGES = {
    "unchanged": "",
    "Bob's row deleted": f"document.querySelectorAll('{ROWS}')[1].remove()",
    "Alice's row deleted": f"document.querySelectorAll('{ROWS}')[0].remove()",
    "rows sorted": "const b = document.querySelector('#users tbody');"
    " [...b.rows].reverse().forEach(r => b.appendChild(r))",
    "Bob's e-mail edited": f"document.querySelectorAll('{ROWS}')[1].cells[1].textContent"
    " = 'bob@new.org'",
}


def _recorded_rows(browser: Any) -> dict[str, dict[str, Any]]:
    """Each user's "Delete", recorded by every recorder: the in-page recorder's event, a
    click on the a11y and on the DOM source, a Playwright locator, and that reference
    completed from the page; plus the page's catalog."""
    refs: dict[str, dict[str, Any]] = {}
    for n, user in enumerate(("alice", "bob", "carol"), 1):
        selector = f"{ROWS}:nth-child({n}) button"
        refs[user] = record_every_way(browser, USERS, selector, {"width": 1000, "height": 700})
    return refs


@pytest.mark.timeout(240)
def test_a_deleted_rows_button_is_never_its_neighbours(browser: Any) -> None:
    # Bob's "Delete" recorded every way there is; Bob's row deleted: every reference is
    # refused, naming the rule, and never acts on Carol's button (the recorded selectors and
    # xpath now select it). Rows sorted, another row deleted, Bob's e-mail edited: every
    # reference still acts on its own user's button.
    from resolver.catalog import build_catalog

    refs = _recorded_rows(browser)
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    page.goto(USERS)
    catalog = build_catalog(observe(page, screenshot=False))
    bob = next(
        e.index for e in catalog.entries if e.name == "Delete" and "Bob" in e.ref.container_path[-1]
    )
    for change, script in CHANGES.items():
        page.goto(USERS)
        if script:
            page.evaluate(script)
        obs = observe(page, screenshot=False)
        for user, by_recorder in refs.items():
            gone = (user, change) in (
                ("bob", "Bob's row deleted"),
                ("alice", "Alice's row deleted"),
            )
            for recorder, ref in by_recorder.items():
                for source in ("a11y", "dom"):
                    where = f"{user} / {recorder} / {source} / {change}"
                    if gone:
                        with pytest.raises(ElementNotFoundError) as refused:
                            resolve(ref, obs, sources=(source,))
                        assert refused.value.evidence.rule == "refuse.record_gone", where
                        continue
                    found = resolve(ref, obs, sources=(source,))
                    page.evaluate("window.clicked = []")
                    act(page, found, observation=obs)
                    assert page.evaluate("window.clicked") == [user], where
        # The catalog's index of Bob's button, used on the changed page.
        if change == "Bob's row deleted":
            with pytest.raises(ElementNotFoundError) as refused:
                catalog.resolve(f"index={bob}", observation=obs)
            assert refused.value.evidence.rule == "refuse.record_gone"
        else:  # Bob's button, or a refusal (sorted twins whose selectors disagree): no other
            try:
                executor = catalog.resolve(f"index={bob}", observation=obs)
            except ResolutionError:
                continue
            table = obs.candidates(catalog.source)
            assert "Bob" in table.containers[table.executor_ids.index(executor)][-1], change
    page.close()


PANELS = (ROOT / "fixtures" / "live" / "panels.html").as_uri()
PANEL_PAIRS = {  # one panel of each kind shown at a time, each with a control of one name
    "tab": (("save-profile", "?tab=profile"), ("save-billing", "?tab=billing")),
    "dialog": (("ok-delete", "?dialog=delete"), ("ok-discard", "?dialog=discard")),
    "section": (("apply-shipping", "?open=shipping"), ("apply-invoice", "?open=invoice")),
}


@pytest.mark.timeout(240)
@pytest.mark.parametrize("kind", list(PANEL_PAIRS))
def test_the_same_control_in_another_tab_dialog_or_section_is_never_clicked(
    browser: Any, kind: str
) -> None:
    # "Save" recorded in the Profile tab, "OK" in the "Delete file?" dialog, "Apply" in the
    # open "Shipping address" section (<details>), every way there is. With the other tab
    # (dialog, section) shown instead, its namesake was clicked, at confidence 0.97-0.99;
    # now every source and the chain refuse, and with the recorded panel shown each
    # reference clicks its own control. A click recorded on the DOM source
    # over a dialog named the form's label under the dialog, not its OK.
    for mine, other in (PANEL_PAIRS[kind], PANEL_PAIRS[kind][::-1]):
        selector = f'[data-key="{mine[0]}"]'
        viewport = {"width": 1000, "height": 700}
        refs = record_every_way(browser, PANELS + mine[1], selector, viewport)
        assert len(refs) == 5
        page = browser.new_page(viewport=viewport)
        for query, want in ((mine[1], mine[0]), (other[1], None)):
            page.goto(PANELS + query)
            _each_clicks(page, refs, want, f"{mine[0]} / {query}")
        page.close()


def _each_clicks(page: Any, refs: dict[str, SemanticElementRef], want: str | None, at: str) -> None:
    """Every reference, with each source alone and with the chain, clicks ``want`` on the
    page as it is (``None``: every one is refused)."""
    obs = observe(page, screenshot=True)
    for recorder, ref in refs.items():
        for sources in (("a11y",), ("dom",), ("a11y", "dom", "vision")):
            where = f"{at} / {recorder} / {sources}"
            if want is None:
                with pytest.raises(ResolutionError):
                    resolve(ref, obs, sources=sources, coords_fallback="never")
                continue
            found = resolve(ref, obs, sources=sources, coords_fallback="never")
            page.evaluate("window.clicked = []")
            act(page, found, observation=obs, reobserve=False)
            assert page.evaluate("window.clicked") == [want], where


MODAL = (ROOT / "fixtures" / "live" / "modal.html").as_uri()


@pytest.mark.timeout(240)
@pytest.mark.parametrize("mine", [("save-dialog", "?modal=1"), ("save-notice", "?notice=1")])
def test_a_closed_dialogs_save_never_clicks_the_pages_own(
    browser: Any, mine: tuple[str, str]
) -> None:
    # "Save" recorded in a modal dialog (the page beneath it hidden, so no look-alike is
    # recorded) or in a corner notice, every way there is. With the dialog closed, the
    # page's own "Save" was clicked (12 and 6 of 15 sources and recorders); every reference
    # now records the panel and is refused, and with the panel shown clicks its own Save.
    viewport = {"width": 1200, "height": 700}
    refs = record_every_way(browser, MODAL + mine[1], f'[data-key="{mine[0]}"]', viewport)
    assert len(refs) == 5
    assert {ref.panel for ref in refs.values()} <= {
        ("dialog", "New password"), ("dialog", "Unsaved changes")}  # fmt: skip
    page = browser.new_page(viewport=viewport)
    for query, want in ((mine[1], mine[0]), ("", None)):
        page.goto(MODAL + query)
        _each_clicks(page, refs, want, f"{mine[0]} / {query}")
    page.close()


CARDS = (ROOT / "fixtures" / "live" / "cards.html").as_uri()


@pytest.mark.timeout(240)
def test_a_cards_add_to_cart_is_never_another_cards(browser: Any) -> None:
    # "Add to cart" of the third product card (no link, the card an unnamed div), recorded
    # every way there is, with the cards reversed, the card before it removed, and itself
    # removed: another card's button was clicked (31 of 45 acts). The title before each
    # button tells them apart now: its own clicked or a refusal, never another's.
    viewport = {"width": 1200, "height": 700}
    refs = record_every_way(browser, CARDS, '[data-key="add-2"]', viewport)
    assert len(refs) == 5 and {ref.heading for ref in refs.values()} == {"Green teapot"}
    page = browser.new_page(viewport=viewport)
    right = 0
    for query, want in (("?order=rev", "add-2"), ("?without=1", "add-2"), ("?without=2", None)):
        page.goto(CARDS + query)
        obs = observe(page, screenshot=True)
        for recorder, ref in refs.items():
            for sources in (("a11y",), ("dom",), ("a11y", "dom", "vision")):
                where = f"{recorder} / {sources} / {query}"
                try:
                    found = resolve(ref, obs, sources=sources, coords_fallback="never")
                except ResolutionError:
                    continue
                page.evaluate("window.clicked = []")
                act(page, found, observation=obs, reobserve=False)
                assert page.evaluate("window.clicked") == [want], where
                right += 1
    assert right >= 15  # (18 of 30 present acts at the time of writing; none removed)
    page.close()


@pytest.mark.parametrize(("cards", "heading"), [(5, "Item 3"), (300, None)])
def test_the_recorded_heading_looks_at_a_bounded_number_of_namesakes(
    browser: Any, cards: int, heading: str | None
) -> None:
    page = browser.new_page()
    page.set_content("".join(f"<h3>Item {k}</h3><button>Add</button>" for k in range(cards)))
    ref = from_playwright(page.locator("button").nth(3))
    assert ref.name == "Add" and ref.heading == heading  # (more than 200: none recorded)
    page.close()


ADDRESSES = (ROOT / "fixtures" / "live" / "addresses.html").as_uri()
BILLING_EDIT = SemanticElementRef(role="button", name="Edit", container_path=("Billing address",))


def test_after_two_groups_swap_labels_the_element_that_fits_now_is_acted_on(
    browser: Any,
) -> None:
    page = browser.new_page(viewport={"width": 900, "height": 700})
    page.goto(ADDRESSES)
    obs = observe(page, screenshot=False)
    res = resolve(BILLING_EDIT, obs)
    page.evaluate("swapGroups()")
    action = ActionWithElement(type="click", element=BILLING_EDIT)
    used = act(page, res, action, observation=obs)
    # the node first resolved now sits in "Shipping address": the other one is Billing's
    assert page.evaluate("window.clicked") == ["first"]
    assert used.executor_id != res.executor_id
    page.evaluate("window.clicked = []; swapGroups()")
    obs = observe(page, screenshot=False)
    res = resolve(BILLING_EDIT, obs)
    page.evaluate("swapGroups()")
    with pytest.raises(StaleElementError, match="no longer inside 'Billing address'"):
        act(page, res, action, observation=obs, reobserve=False)
    assert page.evaluate("window.clicked") == []
    page.close()


def test_act_takes_a_reference_and_refuses_what_is_neither(browser: Any) -> None:
    page = browser.new_page(viewport={"width": 900, "height": 700})
    page.goto(ADDRESSES)
    used = act(page, BILLING_EDIT)
    assert page.evaluate("window.clicked") == ["second"] and used.executor_id.startswith("a11y:")
    page.evaluate("swapGroups()")
    act(page, BILLING_EDIT, ActionWithElement(type="click"))
    assert page.evaluate("window.clicked") == ["second", "first"]
    with pytest.raises(InvalidReferenceError, match="Resolution or a SemanticElementRef"):
        act(page, {"role": "button", "name": "Edit"})  # type: ignore[arg-type]
    with pytest.raises(ResolutionError):
        act(page, SemanticElementRef(role="button", name="Edit"))  # two of them: ambiguous
    assert page.evaluate("window.clicked") == ["second", "first"]
    page.close()


OWN_SCRIPTS = (ROOT / "fixtures" / "live" / "own_scripts.html").as_uri()
SAVE = SemanticElementRef(role="button", name="Save")
CANCEL = SemanticElementRef(role="button", name="Cancel")
NAME = SemanticElementRef(role="textbox", name="Name")


def test_a_pages_own_layout_mock_does_not_move_the_click(browser: Any) -> None:
    # The page reports Cancel's box for Save and says Save is drawn there: measured with
    # the page's functions, the click would land on Cancel.
    page = browser.new_page(viewport={"width": 900, "height": 700})
    page.goto(OWN_SCRIPTS)
    page.evaluate("mockLayout()")
    act(page, SAVE)
    act(page, CANCEL)
    assert page.evaluate("clicks") == ["save", "cancel"]
    page.close()


def test_a_paused_clock_does_not_hold_act(browser: Any) -> None:
    # Playwright's own fake clock, paused: the page's timers and animation frames never run.
    page = browser.new_page(viewport={"width": 900, "height": 700})
    page.clock.install()
    page.goto(OWN_SCRIPTS)
    page.clock.pause_at(1_700_000_000_000)
    act(page, CANCEL)
    act(page, NAME, ActionWithElement(type="type", text="Ada", element=NAME))
    assert page.evaluate("[clicks, state]") == [["cancel"], "Ada"]
    page.close()


def test_observe_reads_the_page_not_the_globals_its_scripts_replaced(browser: Any) -> None:
    page = browser.new_page(viewport={"width": 900, "height": 700})
    page.goto(OWN_SCRIPTS)
    page.evaluate("replaceViewport()")
    obs = observe(page, screenshot=False)
    assert obs.screen_size == (900.0, 700.0)
    assert resolve(SAVE, obs, sources=("dom",)).candidate.name == "Save"
    page.close()


async def _act_async(url: str) -> list[Any]:
    from live_browser import ARGS, CHROMIUM
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(
            executable_path=CHROMIUM, args=[*ARGS, "--site-per-process"]
        )
        page = await browser.new_page(viewport={"width": 800, "height": 600})
        await page.goto(url)
        await page.frame_locator("#card").get_by_role("button", name="Pay").wait_for()
        obs = await observe(page, screenshot=False)  # (its frame sessions closed after it)
        ref = SemanticElementRef(role="button", name="Pay", container_path=("Checkout", "Card"))
        pay = resolve(ref, obs)
        used = await act(page, pay, observation=obs)
        await page.wait_for_function("window.seen.length > 0")
        number = SemanticElementRef(role="textbox", name="Card number")
        await act(page, number, ActionWithElement(type="type", text="4242"))
        card = next(f for f in page.frames if f.parent_frame is not None)
        typed = await card.evaluate("document.getElementById('number').value")
        seen = await page.evaluate("window.seen")
        await browser.close()
    return [used.executor_id == pay.executor_id, pay.executor_id in obs.targets, seen, typed]


def test_the_async_api_acts_in_the_page_and_in_a_cross_site_frame(
    cross_site: tuple[Any, str],
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:  # (the sync API's loop runs in this thread)
        outcome = pool.submit(asyncio.run, _act_async(cross_site[1])).result()
    assert outcome == [True, True, ["frame-pay"], "4242"]


def test_a_frame_inside_a_shadow_tree_is_entered_by_locators(browser: Any) -> None:
    # A payment widget (a web component) holds the card form's frame in its shadow tree:
    # no XPath reaches the frame element; its shadow host's does, and Playwright's CSS
    # enters open shadow roots.
    page = browser.new_page(viewport={"width": 800, "height": 600})
    page.goto((ROOT / "fixtures" / "live" / "shadow_frame.html").as_uri())
    page.frame_locator("pay-widget >> css=iframe").get_by_role("button", name="Pay").wait_for()
    obs = observe(page, screenshot=False)
    pay = resolve(SemanticElementRef(role="button", name="Pay", container_path=("Card",)), obs)
    located = to_locator(page, pay, obs)
    assert located.count() == 1
    located.click()  # (it was the page's own Pay: a role locator on the top document)
    assert page.evaluate("seen") == ["frame-pay"]
    found = durable_locators(page, pay, obs)
    assert found.role is not None and found.xpath is not None
    assert found.frames == ("xpath=/html[1]/body[1]/main[1]/pay-widget[1] >> css=iframe",)
    act(page, pay, observation=obs)
    assert page.evaluate("seen") == ["frame-pay", "frame-pay"]
    page.close()


NESTED = """<main><h1>Checkout</h1><button onclick="seen.push('light')">Pay</button>
<pay-box></pay-box><p id="tail">Total 12.00</p>
<script>
  window.seen = [];
  // A component whose shadow tree holds another component (its slot showing the host's
  // light text), whose own shadow tree holds the second Pay; and a closed one.
  customElements.define("pay-box", class extends HTMLElement {
    constructor() {
      super();
      const r = this.attachShadow({mode: "open"});
      r.innerHTML = "<p>Card ending 4242</p><pay-inner><em>Saved card</em></pay-inner>";
      const inner = r.querySelector("pay-inner").attachShadow({mode: "open"});
      inner.innerHTML = "<span>Card</span><slot></slot>" +
        `<button id="tail" onclick="seen.push('inner')">Pay</button>`;
    }
  });
</script></main>"""


def test_an_element_in_shadow_trees_gets_a_locator_that_selects_it_alone(browser: Any) -> None:
    # No XPath reaches into a shadow tree: the locator was get_by_role("button", name="Pay"),
    # which selects both (Playwright refused it: two elements). Now the outer host's XPath
    # and a CSS path down each shadow tree. from_playwright recorded a CSS path from the
    # inner shadow root, read as the document's, the HTML id of the inner button (the
    # page's #tail is another element) and the document's texts as its nearby texts.
    page = browser.new_page(viewport={"width": 800, "height": 600})
    page.set_content(NESTED)
    obs = observe(page, screenshot=False)
    table = obs.candidates("a11y")
    pays = [r for r in range(len(table)) if (table.roles[r], table.names[r]) == ("button", "Pay")]
    inner, light = (resolve(ref_from_row(table, r), obs) for r in pays[::-1])
    assert inner.executor_id in obs.in_shadow and light.executor_id not in obs.in_shadow
    located = to_locator(page, inner, obs)
    assert located.count() == 1
    located.click()
    assert page.evaluate("seen") == ["inner"]
    to_locator(page, light, obs).click()
    assert page.evaluate("seen") == ["inner", "light"]
    ref = from_playwright(page.locator("pay-inner button"))
    assert ref.css_selector is None and ref.xpath is None and ref.dom_id is None
    assert "Card" in ref.nearby_text and "Total 12.00" not in ref.nearby_text
    assert resolve(ref, observe(page, screenshot=False)).executor_id == inner.executor_id
    page.close()


def test_a_frame_no_selector_enters_is_refused_by_locators_and_acted_on(browser: Any) -> None:
    # Two frames in one shadow tree: "xpath=<host> >> css=iframe" would not tell them apart.
    # A locator on the top document would select the page's own Pay: refused instead.
    page = browser.new_page(viewport={"width": 800, "height": 600})
    page.goto((ROOT / "fixtures" / "live" / "shadow_frame.html").as_uri() + "?two")
    page.frame_locator("pay-widget >> css=iframe >> nth=0").get_by_role(
        "button", name="Pay"
    ).wait_for()
    obs = observe(page, screenshot=False)
    pay = resolve(SemanticElementRef(role="button", name="Pay", container_path=("Card",)), obs)
    assert pay.executor_id in obs.unlocatable and pay.executor_id not in obs.frame_paths
    with pytest.raises(InvalidReferenceError, match="no selector enters"):
        to_locator(page, pay, obs)
    with pytest.raises(InvalidReferenceError, match="pass the observation"):
        to_locator(page, pay)  # (a role locator on the top document: the page's own Pay)
    act(page, pay, observation=obs)
    assert page.evaluate("seen") == ["frame-pay"]
    copy = pickle.loads(pickle.dumps(obs))
    assert copy.unlocatable == obs.unlocatable
    page.close()


DISABLED = """<main><h1>Order</h1>
<button disabled onclick="log.push('submit')" onmouseenter="log.push('hover')">Submit</button>
<div role="button" aria-disabled="true" tabindex="0" onclick="log.push('archive')">Archive</div>
<input aria-label="Code" disabled>
<script>window.log = []</script></main>"""


def test_a_disabled_element_is_not_clicked_or_typed_into_and_says_why(browser: Any) -> None:
    # A click on a disabled button does nothing: it was reported done. An aria-disabled
    # control's own handler ran. Both are refused now, as unreachable, with the reason.
    page = browser.new_page(viewport={"width": 800, "height": 600})
    page.set_content(DISABLED)
    for ref, action in (
        (SemanticElementRef(role="button", name="Submit"), None),
        (SemanticElementRef(role="button", name="Archive"), None),
        (SemanticElementRef(role="textbox", name="Code"), ActionWithElement(type="type", text="7")),
    ):
        with pytest.raises(StaleElementError, match="it is disabled") as refused:
            act(page, ref, action)
        assert refused.value.evidence.details["unreachable"] is True
    act(page, SemanticElementRef(role="button", name="Submit"), ActionWithElement(type="hover"))
    assert page.evaluate("log") == ["hover"] and page.input_value("input") == ""
    page.evaluate("document.querySelector('button').disabled = false")
    act(page, SemanticElementRef(role="button", name="Submit"))
    assert page.evaluate("log") == ["hover", "submit"]
    page.close()


def test_an_observation_is_never_of_two_documents_while_the_page_navigates(
    browser: Any,
) -> None:
    # A navigation that commits while observe reads the page: the old page's tree was
    # joined with the new page's DOM and URL (about half of these observations did).
    page = browser.new_page(viewport={"width": 900, "height": 700})
    with served() as (port,):
        base = f"http://127.0.0.1:{port}"
        for delay in list(range(8)) * 2:
            page.goto(f"{base}/replay.html")
            page.evaluate(f"setTimeout(() => location.href = '{base}/users.html', {delay})")
            obs = observe(page, screenshot=False)
            names = {(n.get("name") or {}).get("value") for n in obs.accessibility_tree["nodes"]}
            on_users = "users.html" in str(obs.url)
            assert ("Carol" in names) == on_users == ("Carol" in str(obs.dom_html)), delay
    page.close()


SCALED_FRAME = """<p>Pay below</p><button onclick="log.push('page')">Pay</button>
<div style="height: 1500px"></div><div style="height: 300px; overflow: auto">
<div style="height: 600px"></div>
<iframe style="{style}; width: 300px; height: 150px" srcdoc="<div style='height: 500px'></div>
<button onclick=&quot;parent.log.push('frame')&quot;>Pay</button>"></iframe></div>
<script>window.log = []</script>"""


@pytest.mark.parametrize(
    ("style", "clicked"),
    [
        ("border: 0", ["frame"]),  # (the page and a box around the frame scrolled to it)
        ("transform: scale(1.5); transform-origin: 0 0", ["frame"]),
        ("zoom: 1.5", []),
    ],
)
def test_a_frame_drawn_scaled_is_clicked_where_it_is_drawn_or_refused(
    browser: Any, style: str, clicked: list[str]
) -> None:
    # The frame's offsets do not scale its points: the click landed beside the button and
    # was reported done. Now the browser's hit test must find the button at the point
    # (placed by its quads where the offsets miss); under a zoomed frame element, where
    # Chromium's own quads miss too, act refuses rather than clicking blind.
    page = browser.new_page(viewport={"width": 900, "height": 600})
    page.set_content(SCALED_FRAME.format(style=style))
    page.frame_locator("iframe").get_by_role("button", name="Pay").wait_for()
    obs = observe(page, screenshot=False)
    table = obs.candidates("a11y")
    row = next(r for r in range(len(table))
               if table.names[r] == "Pay" and table.executor_id(r) in obs.frame_paths)  # fmt: skip
    res = resolve(ref_from_row(table, row), obs)
    assert res.executor_id == table.executor_id(row)
    if clicked:
        act(page, res, observation=obs)
    else:
        with pytest.raises(StaleElementError, match="drawn scaled") as refused:
            act(page, res, observation=obs, reobserve=False)
        assert refused.value.evidence.details["unreachable"] is True
    assert page.evaluate("log") == clicked
    page.close()
