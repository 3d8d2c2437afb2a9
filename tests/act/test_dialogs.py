"""A page's own dialogs while execute() runs: answered as the action asks, a confirm or prompt
with no answer dismissed and the action failed (never a silent success that did nothing),
every dialog reported; outside execute the page is left to Playwright's default."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from live_browser import ARGS, CHROMIUM, ROOT, browser_missing

from resolver.act import execute, parse_action
from resolver.act.dialogs import MAX_MESSAGE, DialogWatch
from resolver.errors import InvalidTargetError

PAGE = (ROOT / "fixtures" / "live" / "dialogs.html").as_uri()
live = pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing()))


class _Dialog:
    """A dialog of Playwright's sync API: its fields, and the answers given to it."""

    def __init__(self, kind: str, message: str = "", default: str = "", *, fail: bool = False):
        self.type, self.message, self.default_value = kind, message, default
        self.fail = fail
        self.answers: list[tuple[str, str | None]] = []

    def accept(self, text: str | None = None) -> None:
        if self.fail:
            raise RuntimeError("Cannot accept dialog which is already handled!")
        self.answers.append(("accept", text))

    def dismiss(self) -> None:
        if self.fail:
            raise RuntimeError("Cannot dismiss dialog which is already handled!")
        self.answers.append(("dismiss", None))


class _Page:
    def __init__(self) -> None:
        self.listeners: list[tuple[str, Any]] = []

    def on(self, event: str, listener: Any) -> None:
        self.listeners.append((event, listener))

    def remove_listener(self, event: str, listener: Any) -> None:
        self.listeners.remove((event, listener))

    def opens(self, dialog: Any) -> None:
        for event, listener in list(self.listeners):
            if event == "dialog":
                listener(dialog)


def test_the_watch_listens_only_while_entered() -> None:
    page = _Page()
    with DialogWatch(page):
        assert [event for event, _ in page.listeners] == ["dialog"]
    assert page.listeners == []
    with DialogWatch(object()) as watch:  # (a page without events: nothing to watch)
        assert watch.seen() == ()


def test_without_an_answer_an_alert_is_accepted_and_a_confirm_dismissed() -> None:
    page, alert, confirm = _Page(), _Dialog("alert", "Saved"), _Dialog("confirm", "Delete?")
    with DialogWatch(page) as watch:
        watch.expect(0, None)
        page.opens(alert)
        watch.expect(1, None)
        page.opens(confirm)
    assert alert.answers == [("accept", None)] and confirm.answers == [("dismiss", None)]
    assert watch.unanswered(0) is None
    assert watch.unanswered(1) == watch.records[1]
    seen = watch.seen()
    assert [(d.action_index, d.type, d.answer, d.by_default) for d in seen] == [
        (0, "alert", "accepted", True), (1, "confirm", "dismissed", True),
    ]  # fmt: skip


def test_answers_follow_the_action_and_a_prompt_gets_its_text() -> None:
    page = _Page()
    confirm, prompt, plain = _Dialog("confirm"), _Dialog("prompt", default="x"), _Dialog("prompt")
    kept = _Dialog("confirm")
    with DialogWatch(page) as watch:
        watch.expect(0, "accept")
        page.opens(confirm)
        watch.expect(1, "accept", "Zed")
        page.opens(prompt)
        watch.expect(2, "accept")
        page.opens(plain)
        watch.expect(3, "dismiss")
        page.opens(kept)
    assert confirm.answers == [("accept", None)]
    assert prompt.answers == [("accept", "Zed")]
    assert plain.answers == [("accept", "")]  # (the prompt's own default, empty here)
    assert kept.answers == [("dismiss", None)]
    assert [d.text for d in watch.seen()] == [None, "Zed", "", None]
    assert all(watch.unanswered(i) is None for i in range(4))  # (each answered on purpose)


def test_a_dialog_another_listener_answered_is_recorded_so() -> None:
    page, dialog = _Page(), _Dialog("confirm", "Delete?", fail=True)
    with DialogWatch(page) as watch:
        watch.expect(0, None)
        page.opens(dialog)
    assert watch.seen()[0].answer == "elsewhere"
    assert watch.unanswered(0) is None


def test_a_long_message_is_kept_short() -> None:
    page = _Page()
    with DialogWatch(page) as watch:
        page.opens(_Dialog("alert", "x" * 100_000, "y" * 50_000))
    record = watch.seen()[0]
    assert len(record.message) < MAX_MESSAGE + 40 and "100,000 characters" in record.message
    assert len(record.default_value) < MAX_MESSAGE + 40


class _AsyncDialog(_Dialog):
    """A dialog of the async API: its answers are coroutines."""

    async def accept(self, text: str | None = None) -> None:  # type: ignore[override]
        _Dialog.accept(self, text)

    async def dismiss(self) -> None:  # type: ignore[override]
        _Dialog.dismiss(self)


def test_the_async_api_answers_on_the_loop() -> None:
    async def opened() -> list[Any]:
        page, ok, taken = _Page(), _AsyncDialog("confirm"), _AsyncDialog("confirm", fail=True)
        with DialogWatch(page) as watch:
            watch.expect(0, "accept")
            page.opens(ok)
            page.opens(taken)
            await asyncio.sleep(0.01)
        return [ok.answers, [d.answer for d in watch.seen()]]

    assert asyncio.run(opened()) == [[("accept", None)], ["accepted", "elsewhere"]]


def test_dialog_text_needs_an_accepting_answer() -> None:
    assert parse_action({"action": "click", "target": "css=b", "dialog": "accept"}).dialog == (
        "accept"
    )
    for bad in (
        {"action": "click", "target": "css=b", "dialog_text": "x"},
        {"action": "click", "target": "css=b", "dialog": "dismiss", "dialog_text": "x"},
        {"action": "click", "target": "css=b", "dialog": "yes"},
    ):
        with pytest.raises(InvalidTargetError):
            parse_action(bad)


def _people(page: Any) -> list[str]:
    return list(page.evaluate("[...document.querySelectorAll('li')].map(li => li.id)"))


@pytest.mark.browser
@live
def test_a_confirm_nobody_answered_fails_the_action_and_stops_the_list(page: Any) -> None:
    page.goto(PAGE)
    result = execute(page, [
        {"action": "click", "target": "text=Delete Alice"},
        {"action": "click", "target": "text=Save"},
    ])  # fmt: skip
    assert not result.success and result.complete == 0
    assert result.error is not None and result.error.code == "DIALOG_DISMISSED"
    assert "Delete Alice?" in result.error.message and '"dialog": "accept"' in result.error.message
    assert result.error.details["dialog"] == {"type": "confirm", "message": "Delete Alice?"}
    assert _people(page) == ["alice", "bob", "carol"]  # (dismissed: nothing deleted)
    assert page.evaluate("window.saved") is None  # (the next action did not run)
    assert [(d.type, d.answer, d.by_default) for d in result.dialogs] == [
        ("confirm", "dismissed", True)
    ]


@pytest.mark.browser
@live
def test_each_action_answers_its_own_dialogs(page: Any) -> None:
    page.goto(PAGE)
    result = execute(page, [
        {"action": "click", "target": "text=Delete Alice", "dialog": "accept"},
        {"action": "click", "target": "text=Delete Bob", "dialog": "dismiss"},
        {"action": "click", "target": "text=Rename Carol", "dialog": "accept",
         "dialog_text": "Cee"},
        {"action": "click", "target": "text=Save"},
    ])  # fmt: skip
    assert result.success and result.complete == 4, result.error
    assert _people(page) == ["bob", "carol"]
    assert page.evaluate("document.getElementById('carol-name').textContent") == "Cee"
    assert page.evaluate("window.saved") == 1
    assert [(d.action_index, d.type, d.message, d.answer, d.text) for d in result.dialogs] == [
        (0, "confirm", "Delete Alice?", "accepted", None),
        (1, "confirm", "Delete Bob?", "dismissed", None),
        (2, "prompt", "New name for Carol?", "accepted", "Cee"),
        (3, "alert", "Saved", "accepted", None),
    ]
    assert result.dialogs[2].default_value == "Caroline"


@pytest.mark.browser
@live
def test_a_dialog_opened_after_the_click_returned_is_answered_too(page: Any) -> None:
    page.goto(PAGE)
    refused = execute(page, [{"action": "click", "target": "text=Archive all"}])
    assert refused.error is not None and refused.error.code == "DIALOG_DISMISSED"
    assert not refused.success and refused.complete == 0
    assert page.evaluate("window.archived") is False
    page.goto(PAGE)
    accepted = execute(page, [
        {"action": "click", "target": "text=Archive all", "dialog": "accept"},
        {"action": "click", "target": "text=Save"},
    ])  # fmt: skip
    assert accepted.success, accepted.error  # (the confirm is the click's, not Save's)
    assert [(d.action_index, d.type, d.answer) for d in accepted.dialogs] == [
        (0, "confirm", "accepted"), (1, "alert", "accepted"),
    ]  # fmt: skip
    assert page.evaluate("window.archived") is True


@pytest.mark.browser
@live
def test_outside_execute_the_page_keeps_playwrights_default(page: Any) -> None:
    page.goto(PAGE)
    execute(page, [{"action": "click", "target": "text=Save"}])
    assert page.evaluate("confirm('Still there?')") is False  # (dismissed, not held open)


@pytest.mark.browser
@live
def test_the_callers_own_listener_answers_first(page: Any) -> None:
    page.goto(PAGE)

    def accept(dialog: Any) -> None:
        dialog.accept()

    page.on("dialog", accept)
    try:
        result = execute(page, [{"action": "click", "target": "text=Delete Bob"}])
    finally:
        page.remove_listener("dialog", accept)
    assert result.success, result.error
    assert _people(page) == ["alice", "carol"]
    assert [d.answer for d in result.dialogs] == ["elsewhere"]


async def _async_dialogs() -> list[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = await browser.new_page()
        await page.goto(PAGE)
        refused = await execute(page, [{"action": "click", "target": "text=Delete Alice"}])
        done = await execute(page, [
            {"action": "click", "target": "text=Delete Alice", "dialog": "accept"},
            {"action": "click", "target": "text=Rename Carol", "dialog": "accept"},
        ])  # fmt: skip
        people = await page.evaluate("[...document.querySelectorAll('li')].map(li => li.innerText)")
        await browser.close()
    return [
        refused.error.code if refused.error else None,
        done.success,
        [(d.type, d.answer, d.text) for d in done.dialogs],
        people,
    ]


@pytest.mark.browser
@live
def test_the_async_api_answers_the_same_dialogs() -> None:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:  # (a sync API's loop may run in this thread)
        outcome = pool.submit(asyncio.run, _async_dialogs()).result()
    assert outcome == [
        "DIALOG_DISMISSED",
        True,
        [("confirm", "accepted", None), ("prompt", "accepted", "Caroline")],
        ["Bob Delete Bob", "Caroline Rename Carol"],
    ]
