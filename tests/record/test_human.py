"""A person's session in headless Chromium (mouse and keyboard) recorded with
``HumanRecorder``: the entries name the element acted on through its AX node, secrets typed
never reach the journal or the file, new tabs and reloads are navigations, and the recording
replays at 100% with ``resolver replay``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run
from live_browser import ROOT, browser_missing, chromium, served

from resolver.record import HumanRecorder
from resolver.record.human import HUMAN_JS
from resolver.replay import read_recording
from resolver.snapshot import MASK

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]
if (why := browser_missing()) is not None:
    pytest.skip(why, allow_module_level=True)

FORM = (ROOT / "fixtures" / "live" / "record_form.html").as_uri()
PASSWORD, CODE = "hunter2-Secret", "493817"
PAUSE = 250  # ms a person takes between two actions


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


def click(page: Any, key: str) -> None:
    """Move the mouse to the element's centre and click, as a person would."""
    box = page.locator(f'[data-k="{key}"]').bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_timeout(PAUSE)


def session(context: Any, page: Any, journal: Path) -> Any:
    """A person signs in, invites and removes members, opens help in a new tab, reloads it."""
    click(page, "email")
    page.keyboard.type("ada@example.com")
    click(page, "password")
    page.keyboard.type(PASSWORD)
    click(page, "otp")
    page.keyboard.type(CODE)
    raw = journal.read_bytes()  # mid-session: nothing typed in a secret field is there
    assert PASSWORD.encode() not in raw and CODE.encode() not in raw
    page.keyboard.press("Enter")
    page.wait_for_timeout(PAUSE)
    click(page, "grace.invite")
    click(page, "linus.remove")
    with context.expect_page() as opened:
        click(page, "nav.help")
    tab = opened.value
    tab.wait_for_load_state()
    tab.wait_for_timeout(PAUSE)
    click(tab, "help.contact")
    tab.reload()
    tab.wait_for_timeout(PAUSE)
    click(tab, "help.contact")
    return tab


@pytest.fixture(scope="module")
def recorded(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("human")
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    page = context.new_page()
    page.goto(FORM)
    rec = HumanRecorder(out)
    journal = rec.start("Sign in and invite Grace", "person-1")
    rec.attach(page)
    page.wait_for_timeout(PAUSE)
    tab = session(context, page, journal)
    journal_bytes = journal.read_bytes()
    path = rec.finish("user_closed")
    seen = (page.evaluate("window.log"), tab.evaluate("document.body.innerText"))
    context.close()
    return {"path": path, "journal": journal_bytes, "errors": rec.errors, "seen": seen,
            "doc": json.loads(path.read_text(encoding="utf-8"))}  # fmt: skip


def actions(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    out = []
    for e in doc["timeline"]:
        if e["kind"] == "human_action":
            a, el = e["action"], e["action"]["element"] or {}
            out.append((a["type"], el.get("role"), el.get("name"), a["text"], a["key"]))
    return out


def test_the_session_is_recorded_action_by_action(recorded: dict[str, Any]) -> None:
    assert recorded["errors"] == []
    assert recorded["seen"][0] == ["submit:ada@example.com", "click:grace.invite",
                                   "click:linus.remove"]  # fmt: skip
    assert actions(recorded["doc"]) == [
        ("click", "textbox", "Email", None, None),
        ("type", "textbox", "Email", "ada@example.com", None),
        ("click", "textbox", "Password", None, None),
        ("type", "textbox", "Password", MASK, None),
        ("click", "textbox", "Verification code", None, None),
        ("type", "textbox", "Verification code", MASK, None),
        ("key", "textbox", "Verification code", None, "Enter"),
        ("submit", "form", "Sign in", None, None),
        ("click", "button", "Invite", None, None),
        ("click", "button", "Remove", None, None),
        ("click", "link", "Help", None, None),
        ("click", "button", "Contact support", None, None),
        ("click", "button", "Contact support", None, None),
    ]


def test_each_action_names_its_node_in_the_snapshot_taken_before_it(
    recorded: dict[str, Any],
) -> None:
    doc = recorded["doc"]
    assert doc["mode"] == "human" and doc["id"].startswith("run-human-person-1-")
    snapshots: dict[str, dict[str, Any]] = {}
    for e in doc["timeline"]:
        if e["kind"] == "ax_snapshot":
            snapshots[e["snapshot_id"]] = {n["id"]: n for n in e["snapshot"]["ax_tree"]["nodes"]}
        elif e["kind"] == "human_action":
            node = snapshots[e["snapshot_id"]][e["target_node"]]
            element = e["action"]["element"]
            assert (node["role"], node["name"]) == (element["role"], element["name"])
            assert e["action"]["x"] is not None and e["action"]["y"] is not None
    # The Invite the person clicked is Grace's (the row's text is on its container path),
    # and the Remove is Linus's: the snapshot was taken before the row went away.
    rows = [e["action"]["element"] for e in doc["timeline"] if e["kind"] == "human_action"]
    assert any("Grace" in c for c in rows[8]["container_path"])
    assert any("Linus" in c for c in rows[9]["container_path"])
    exact = [e["snapshot_exact"] for e in doc["timeline"] if e["kind"] == "human_action"]
    assert exact.count(True) >= len(exact) - 2


def test_navigations_new_tabs_and_reloads(recorded: dict[str, Any]) -> None:
    navigations = [(e["url"].rsplit("/", 1)[-1], e["reason"])
                   for e in recorded["doc"]["timeline"] if e["kind"] == "navigation"]  # fmt: skip
    assert navigations == [("record_form.html", "navigate"), ("record_help.html", "new_tab"),
                           ("record_help.html", "reload")]  # fmt: skip
    summary = recorded["doc"]["summary"]
    assert [u.rsplit("/", 1)[-1] for u in summary["urls"]] == ["record_form.html",
                                                              "record_help.html"]  # fmt: skip
    assert summary["action_count"] == 13 and summary["ended_reason"] == "user_closed"


def test_typed_secrets_never_reach_the_journal_or_the_file(recorded: dict[str, Any]) -> None:
    for raw in (recorded["journal"], recorded["path"].read_bytes()):
        assert PASSWORD.encode() not in raw and CODE.encode() not in raw
        assert b"ada@example.com" in raw  # what is not secret is kept


def test_the_human_recording_replays_at_100_percent(
    recorded: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert len(read_recording(recorded["path"]).steps) == 13
    code, text, _ = run(capsys, "replay", str(recorded["path"]), "--out", str(tmp_path),
                        "--json", "--no-html", "--strict")  # fmt: skip
    overall = json.loads(text)["overall"]
    assert code == 0
    assert (overall["steps"], overall["correct"], overall["accuracy"]) == (13, 13, 1.0)


def test_the_page_script_is_installed_once(browser: Any, tmp_path: Path) -> None:
    page = browser.new_page()
    page.goto(FORM)
    page.evaluate(HUMAN_JS)
    page.evaluate(HUMAN_JS)
    assert page.evaluate("typeof window.__resolverHumanElement") == "function"
    page.close()


FRAMES = (ROOT / "fixtures" / "live" / "frames.html").as_uri()


def _frame_clicks(
    page: Any, targets: list[Any], shifts: list[float] | None = None
) -> list[tuple[float, float]]:
    """Click each locator's centre with the mouse, shifted right and down by ``shifts``
    pixels; the points clicked (in the tab)."""
    points = []
    for locator, shift in zip(targets, shifts or [0.0] * len(targets), strict=True):
        box = locator.bounding_box()
        points.append((box["x"] + box["width"] / 2 + shift, box["y"] + box["height"] / 2 + shift))
        page.mouse.click(*points[-1])
        page.wait_for_timeout(PAUSE)
    return points


@pytest.mark.parametrize("late", [False, True], ids=["attached-first", "attached-late"])
def test_clicks_inside_frames_name_their_own_element(
    browser: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], late: bool
) -> None:
    # A "Save" at the top, one inside a same-origin frame, and "Pay now" in a frame inside
    # that: each click names the element clicked (an ID of a frame's own once named the
    # top document's element of that number), at its point in the tab.
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    page = context.new_page()
    rec = HumanRecorder(tmp_path)
    rec.start("Save the address and pay", "frames")
    if late:
        page.goto(FRAMES)
        page.wait_for_function("document.querySelector('iframe').contentDocument.body")
    rec.attach(context)
    if not late:
        page.goto(FRAMES)
    page.wait_for_timeout(PAUSE)
    billing = page.frame_locator("iframe")
    points = _frame_clicks(page, [
        page.get_by_role("button", name="Save").first,
        billing.get_by_role("button", name="Save"),
        billing.frame_locator("iframe").get_by_role("button", name="Pay now"),
    ])  # fmt: skip
    assert page.evaluate("window.seen") == ["top-save", "frame-save", "card-pay"]
    path = rec.finish("user_closed")
    context.close()
    doc = json.loads(path.read_text(encoding="utf-8"))
    steps = [e for e in doc["timeline"] if e["kind"] == "human_action"]
    named = [(e["action"]["element"]["name"], e["action"]["element"]["container_path"][-1])
             for e in steps]  # fmt: skip
    assert named == [("Save", "[main]"), ("Save", "Billing address"), ("Pay now", "Card")]
    for step, (x, y) in zip(steps, points, strict=True):
        assert abs(step["action"]["x"] - x) <= 1 and abs(step["action"]["y"] - y) <= 1
    urls = {e["url"] for e in doc["timeline"] if e["kind"] == "navigation"}
    assert urls <= {"about:blank", FRAMES}  # a frame's load is no navigation
    assert rec.errors == []
    code, text, _ = run(capsys, "replay", str(path), "--out", str(tmp_path / "out"),
                        "--json", "--no-html", "--strict")  # fmt: skip
    assert code == 0 and json.loads(text)["overall"]["correct"] == 3


@pytest.fixture
def two_origins() -> Iterator[tuple[str, str, str]]:
    """The live fixtures served on two loopback ports: the page's origin, another origin of
    its site, and another site (drawn by another process)."""
    with served(2) as (one, two):
        yield (f"http://127.0.0.1:{one}", f"http://127.0.0.1:{two}", f"http://localhost:{two}")


@pytest.mark.parametrize("site", ["same-site", "cross-site"])
def test_a_frame_of_another_origin_names_its_element_by_its_place(
    browser: Any,
    tmp_path: Path,
    two_origins: tuple[str, str, str],
    site: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The frame's script cannot reach the top document: its element IDs were read in the
    # top one (a wrong element). Its elements are found by their place instead, its points
    # placed in the tab by its frame element's content box (a border and a padding).
    top, same_site, cross_site = two_origins
    url = f"{top}/checkout.html?{same_site if site == 'same-site' else cross_site}/card.html"
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    page = context.new_page()
    rec = HumanRecorder(tmp_path)
    rec.start("Pay by card", "card")
    rec.attach(context)
    page.goto(url)
    card = page.frame_locator("#card")
    card.get_by_role("button", name="Pay").wait_for()
    page.wait_for_timeout(PAUSE)
    clicked = [page.get_by_role("button", name="Pay"), card.get_by_role("textbox"),
               card.get_by_role("button", name="Pay")]  # fmt: skip
    box = page.locator("#card").bounding_box()
    # Playwright places the boxes inside a cross-site frame off its frame element's border
    # and padding (7 + 5 px here); the person clicks where the frame draws them.
    shift = 0.0 if site == "same-site" else 12.0
    points = _frame_clicks(page, clicked, [0.0, shift, shift])
    page.wait_for_function("window.seen.length === 2")
    assert page.evaluate("window.seen") == ["top-pay", "frame-pay"]
    path = rec.finish("user_closed")
    context.close()
    doc = json.loads(path.read_text(encoding="utf-8"))
    steps = [e for e in doc["timeline"] if e["kind"] == "human_action"]
    named = [(e["action"]["element"]["role"], e["action"]["element"]["name"],
              e["action"]["element"]["container_path"][-1:]) for e in steps]  # fmt: skip
    assert named == [("button", "Pay", ["Checkout"]), ("textbox", "Card number", ["Card"]),
                     ("button", "Pay", ["Card"])]  # fmt: skip
    for step, (x, y) in zip(steps, points, strict=True):
        assert step["url"] == url and step["target_node"] is not None
        assert abs(step["action"]["x"] - x) <= 1 and abs(step["action"]["y"] - y) <= 1
    inside = steps[2]["action"]  # the frame's Pay, inside the frame's content box
    assert box["x"] + 12 <= inside["x"] <= box["x"] + box["width"] - 12
    assert box["y"] + 12 <= inside["y"] <= box["y"] + box["height"] - 12
    navigations = [e["url"] for e in doc["timeline"] if e["kind"] == "navigation"]
    assert not any("card.html" in u.split("?")[0] for u in navigations)
    assert rec.errors == []
    code, text, _ = run(capsys, "replay", str(path), "--out", str(tmp_path / "out"),
                        "--json", "--no-html", "--strict")  # fmt: skip
    assert code == 0 and json.loads(text)["overall"]["correct"] == 3


def test_a_snapshot_the_page_navigated_away_from_is_no_error(tmp_path: Path) -> None:
    # Attached before the first page loads, the blank page's load asks a snapshot while the
    # tab already navigates on: nothing is lost, nothing to report.
    class Leaving:
        url = "about:blank"

        def evaluate(self, expression: str) -> Any:
            raise RuntimeError(
                "Execution context was destroyed, most likely because of a navigation"
            )

    rec = HumanRecorder(tmp_path)
    rec.start("Nothing yet", "blank")
    page = Leaving()
    rec._event(rec._on_prepare)({"page": page}, 3)
    rec._event(rec._on_loaded)({"page": page}, {"url": "about:blank", "type": "navigate", "m": 0})
    assert rec.errors == []
    rec.finish("user_closed")


async def _async_session(out: Path) -> tuple[dict[str, Any], list[str], list[str]]:
    """The first part of :func:`session` with Playwright's async API, a new tab included."""
    from live_browser import ARGS, CHROMIUM
    from playwright.async_api import async_playwright

    async def click(page: Any, key: str) -> None:
        box = await page.locator(f'[data-k="{key}"]').bounding_box()
        await page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        await page.wait_for_timeout(PAUSE)

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = await browser.new_context(viewport={"width": 1000, "height": 700})
        page = await context.new_page()
        await page.goto(FORM)
        rec = HumanRecorder(out)
        rec.start("Sign in and invite Grace", "person-async")
        await rec.attach(page)
        await page.wait_for_timeout(PAUSE)
        await click(page, "email")
        await page.keyboard.type("ada@example.com")
        await click(page, "password")
        await page.keyboard.type(PASSWORD)
        await page.keyboard.press("Enter")
        await page.wait_for_timeout(PAUSE)
        await click(page, "grace.invite")
        async with context.expect_page() as opened:
            await click(page, "nav.help")
        tab = await opened.value
        await tab.wait_for_load_state()
        await tab.wait_for_timeout(PAUSE)
        await click(tab, "help.contact")
        path = await rec.finish("user_closed")
        log = await page.evaluate("window.log")
        await browser.close()
    return json.loads(path.read_text(encoding="utf-8")), rec.errors, log


def test_the_async_api_records_the_same_session(tmp_path: Path) -> None:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:  # (the module's sync browser holds this thread's loop)
        doc, errors, log = pool.submit(asyncio.run, _async_session(tmp_path)).result()
    assert errors == [] and log == ["submit:ada@example.com", "click:grace.invite"]
    assert actions(doc) == [
        ("click", "textbox", "Email", None, None),
        ("type", "textbox", "Email", "ada@example.com", None),
        ("click", "textbox", "Password", None, None),
        ("type", "textbox", "Password", MASK, None),
        ("key", "textbox", "Password", None, "Enter"),
        ("submit", "form", "Sign in", None, None),
        ("click", "button", "Invite", None, None),
        ("click", "link", "Help", None, None),
        ("click", "button", "Contact support", None, None),
    ]
    navigations = [(e["url"].rsplit("/", 1)[-1], e["reason"])
                   for e in doc["timeline"] if e["kind"] == "navigation"]  # fmt: skip
    assert navigations == [("record_form.html", "navigate"), ("record_help.html", "new_tab")]
    assert PASSWORD not in json.dumps(doc)


DIALOGS = (ROOT / "fixtures" / "live" / "dialogs.html").as_uri()


def _dialog_session(browser: Any, out: Path, leave: bool) -> tuple[Any, ...]:
    """A person clicks "Archive all" (its confirm opens after the click) and answers it in
    the browser (CDP's ``Page.handleJavaScriptDialog``, as the browser's own buttons do),
    then answers a password prompt the page opens."""
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    page = context.new_page()
    page.goto(DIALOGS)
    rec = HumanRecorder(out, leave_dialogs=leave)
    rec.start("Archive everyone", "person-dialogs")
    rec.attach(page)
    page.wait_for_timeout(PAUSE)
    cdp = context.new_cdp_session(page)
    cdp.send("Page.enable")  # (a session answers only the dialogs it saw open)
    answered = []
    box = page.get_by_text("Archive all").bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for answer in ({"accept": True}, {"accept": True, "promptText": PASSWORD}):
        page.wait_for_timeout(PAUSE)  # (the person reads the dialog)
        try:
            cdp.send("Page.handleJavaScriptDialog", answer)
            answered.append(True)
        except Exception:  # no dialog showing: it was dismissed before the person saw it
            answered.append(False)
        page.wait_for_timeout(PAUSE)
        if len(answered) == 1:
            page.evaluate("setTimeout(() => { window.named = prompt('Your password?', ''); })")
    state = page.evaluate("[window.archived, window.named ?? null]")
    path = rec.finish("user_closed")
    context.close()
    return answered, state, rec.errors, path.read_text(encoding="utf-8")


def test_the_person_answers_the_pages_dialogs_and_the_answers_are_recorded(
    browser: Any, tmp_path: Path
) -> None:
    answered, state, errors, text = _dialog_session(browser, tmp_path, leave=True)
    assert answered == [True, True] and state == [True, PASSWORD] and errors == []
    doc = json.loads(text)
    assert actions(doc) == [("click", "button", "Archive all", None, None)]
    dialogs = [(e["step"], e["type"], e["message"], e["answer"], e["text"])
               for e in doc["timeline"] if e["kind"] == "dialog"]  # fmt: skip
    assert dialogs == [
        ("1", "confirm", "Archive everyone?", "accepted", None),
        ("1", "prompt", "Your password?", "accepted", MASK),
    ]
    assert PASSWORD not in text


def test_without_leave_dialogs_playwright_dismisses_them(browser: Any, tmp_path: Path) -> None:
    answered, state, errors, text = _dialog_session(browser, tmp_path, leave=False)
    assert answered == [False, False] and state == [False, None] and errors == []
    assert '"kind": "dialog"' not in text


async def _async_dialogs(out: Path) -> tuple[Any, ...]:
    """:func:`_dialog_session`'s confirm with Playwright's async API."""
    from live_browser import ARGS, CHROMIUM
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = await browser.new_page(viewport={"width": 1000, "height": 700})
        await page.goto(DIALOGS)
        rec = HumanRecorder(out)
        rec.start("Archive everyone", "person-dialogs-async")
        await rec.attach(page)
        await page.wait_for_timeout(PAUSE)
        cdp = await page.context.new_cdp_session(page)
        await cdp.send("Page.enable")
        box = await page.get_by_text("Archive all").bounding_box()
        await page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        await page.wait_for_timeout(PAUSE)
        await cdp.send("Page.handleJavaScriptDialog", {"accept": False})
        await page.wait_for_timeout(PAUSE)
        archived = await page.evaluate("window.archived")
        path = await rec.finish("user_closed")
        await browser.close()
    return archived, rec.errors, json.loads(path.read_text(encoding="utf-8"))


def test_the_async_api_records_the_persons_answer(tmp_path: Path) -> None:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:  # (the module's sync browser holds this thread's loop)
        archived, errors, doc = pool.submit(asyncio.run, _async_dialogs(tmp_path)).result()
    assert archived is False and errors == []
    entries = [e for e in doc["timeline"] if e["kind"] == "dialog"]
    assert [(e["step"], e["type"], e["answer"]) for e in entries] == [("1", "confirm", "dismissed")]


def test_a_dialog_of_a_frame_another_process_draws_is_recorded(
    browser: Any, tmp_path: Path
) -> None:
    # The card form comes from another site (localhost, the page 127.0.0.1): its dialogs
    # open on the frame's own CDP session, which the page's does not hear.
    with served() as (port,):
        context = browser.new_context(viewport={"width": 1000, "height": 700})
        page = context.new_page()
        card = f"http://localhost:{port}/card.html"
        page.goto(f"http://127.0.0.1:{port}/checkout.html?{card}")
        page.frame_locator("#card").get_by_role("button", name="Pay").wait_for()
        rec = HumanRecorder(tmp_path, leave_dialogs=True)
        rec.start("Pay by card", "person-frame-dialog")
        rec.attach(page)
        frame = next(f for f in page.frames if f.parent_frame is not None)
        person = context.new_cdp_session(page)  # (the browser's own buttons)
        person.send("Page.enable")
        frame.evaluate("setTimeout(() => { window.paid = confirm('Pay 20 EUR?'); })")
        page.wait_for_timeout(PAUSE)
        person.send("Page.handleJavaScriptDialog", {"accept": True})
        page.wait_for_timeout(PAUSE)
        paid = frame.evaluate("window.paid")
        path = rec.finish("user_closed")
        context.close()
    timeline = json.loads(path.read_text())["timeline"]
    dialogs = [(e["type"], e["message"], e["answer"]) for e in timeline if e["kind"] == "dialog"]
    assert paid is True and rec.errors == []
    assert dialogs == [("confirm", "Pay 20 EUR?", "accepted")]


UPLOADS = (ROOT / "fixtures" / "live" / "uploads.html").as_uri()


def test_files_a_person_chooses_are_recorded_by_name(browser: Any, tmp_path: Path) -> None:
    """The chooser a click opens answered (as a person picks files): an ``upload`` of the
    file names on the field, or on the button a hidden field was opened by, after the click
    that opened it; the folder is never written; the recording replays."""
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text(name)
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    page.goto(UPLOADS)
    # (a listener held from the start: the tab's choosers are intercepted before any click)
    choosers: list[Any] = []
    page.on("filechooser", lambda chooser: choosers.append(chooser))
    rec = HumanRecorder(tmp_path / "rec")
    rec.start("Attach two files", "person-uploads")
    rec.attach(page)
    page.wait_for_timeout(PAUSE)
    for target, files in (("#attachments", ["a.txt", "b.txt"]), ("text=Choose photos", ["b.txt"])):
        box = page.locator(target).bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        for _ in range(100):
            if choosers:
                break
            page.wait_for_timeout(50)
        choosers.pop().set_files([str(tmp_path / f) for f in files])
        page.wait_for_timeout(PAUSE)
    path = rec.finish("user_closed")
    page.close()
    text = path.read_text(encoding="utf-8")
    doc = json.loads(text)
    uploads = [(e["action"]["element"] or {}, e["action"]["files"]) for e in doc["timeline"]
               if e["kind"] == "human_action" and e["action"]["type"] == "upload"]  # fmt: skip
    assert [files for _, files in uploads] == [["a.txt", "b.txt"], ["b.txt"]]
    # The field itself, then the button a hidden field's chooser was opened by.
    assert [element.get("name") for element, _ in uploads] == ["Attachments", "Choose photos"]
    assert str(tmp_path) not in text and rec.errors == []
    steps = read_recording(path).steps
    assert [s.action_type for s in steps] == ["click", "upload", "click", "upload"]
