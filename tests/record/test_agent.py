"""An agent run in headless Chromium (observe -> resolve -> act) recorded with
``AgentRecorder``, then replayed with ``resolver replay``: every step resolves to the node
the agent acted on; a crash mid-run is resumed from the journal."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run
from live_browser import ROOT, browser_missing, chromium

from resolver import ActionWithElement, SemanticElementRef, resolve
from resolver.capture import ref_from_row
from resolver.integrations.playwright import act
from resolver.record import AgentRecorder
from resolver.replay import read_recording

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]
if (why := browser_missing()) is not None:
    pytest.skip(why, allow_module_level=True)

FORM = (ROOT / "fixtures" / "live" / "record_form.html").as_uri()
PASSWORD, CODE = "hunter2-Secret", "493817"
PLAN = [  # role, name, container, action, text
    ("textbox", "Email", (), "type", "ada@example.com"),
    ("textbox", "Password", (), "type", PASSWORD),
    ("textbox", "Verification code", (), "type", CODE),
    ("checkbox", "Remember me", (), "click", None),
    ("button", "Sign in", (), "click", None),
    ("button", "Invite", ("Members list", "Grace Invite Remove"), "click", None),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    page.goto(FORM)
    yield page
    page.close()


def agent_step(rec: AgentRecorder, page: Any, number: int) -> str:
    """One step of a small agent: snapshot, resolve its target, decide, act, report."""
    role, name, container, kind, text = PLAN[number - 1]
    rec.snapshot(page)
    obs = rec.observation
    assert obs is not None
    res = resolve(SemanticElementRef(role=role, name=name, container_path=container), obs,
                  coords_fallback="never")  # fmt: skip
    table = obs.candidates("a11y")
    ref = ref_from_row(table, table.ids.index(res.executor_id.removeprefix("a11y:")))
    action = ActionWithElement(type=kind, element=ref, text=text)  # type: ignore[arg-type]
    rec.decision({"step": str(number), "action": action, "target_node": res.executor_id})
    used = act(page, res, action, observation=obs)
    rec.result(str(number), "ok", duration_ms=1.0, executor_id=used.executor_id)
    return used.executor_id


def replay_report(capsys: pytest.CaptureFixture[str], path: Path, out: Path) -> dict[str, Any]:
    code, text, _ = run(capsys, "replay", str(path), "--out", str(out), "--json", "--no-html",
                        "--strict")  # fmt: skip
    assert code == 0
    report: dict[str, Any] = json.loads(text)
    return report


def test_an_agent_run_replays_at_100_percent(
    page: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = AgentRecorder(tmp_path / "runs", prefix="live")
    rec.start("Sign in as Ada and invite Grace", "agent-1", context={"page": "record_form"})
    rec.navigation(FORM, "navigate")
    acted = [agent_step(rec, page, n) for n in range(1, len(PLAN) + 1)]
    assert page.evaluate("window.log") == ["submit:ada@example.com", "click:grace.invite"]
    path = rec.finish("done")
    assert path.name.startswith("live-agent-agent-1-") and path.suffix == ".json"
    raw = path.read_bytes()
    assert PASSWORD.encode() not in raw and CODE.encode() not in raw
    doc = json.loads(raw)
    assert doc["summary"]["action_count"] == len(PLAN) == doc["summary"]["ax_snapshot_count"]
    recording = read_recording(path)
    assert [s.expected[s.preceding or ""] for s in recording.steps] == [(a,) for a in acted]
    report = replay_report(capsys, path, tmp_path / "out")
    overall = report["overall"]
    assert (overall["steps"], overall["correct"], overall["accuracy"]) == (len(PLAN),) * 2 + (1.0,)


def test_a_crashed_agent_run_resumes_from_its_journal(
    page: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = AgentRecorder(tmp_path)
    journal = rec.start("Sign in", "agent-2")
    for number in (1, 2, 3):
        agent_step(rec, page, number)
    rec._fh.close()  # the process dies while writing step 3's result
    data = journal.read_bytes()
    journal.write_bytes(data[: data.rfind(b'"status"')])
    resumed = AgentRecorder.resume(journal)
    resumed.result("3", "ok")  # the torn entry is written again
    for number in (4, 5):
        agent_step(resumed, page, number)
    path = resumed.finish("done")
    assert not journal.exists()
    timeline = json.loads(path.read_text())["timeline"]
    assert [e["step"] for e in timeline if e["kind"] == "action_result"] == [
        "1",
        "2",
        "3",
        "4",
        "5",
    ]
    assert PASSWORD.encode() not in path.read_bytes()
    overall = replay_report(capsys, path, tmp_path / "out")["overall"]
    assert (overall["steps"], overall["correct"]) == (5, 5)


async def _async_run(out: Path) -> tuple[Path, list[str], list[str]]:
    from live_browser import ARGS, CHROMIUM
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = await browser.new_page(viewport={"width": 1000, "height": 700})
        await page.goto(FORM)
        rec = AgentRecorder(out, prefix="async")
        rec.start("Sign in as Ada and invite Grace", "agent-async")
        rec.navigation(FORM, "navigate")
        acted = []
        for number, (role, name, container, kind, text) in enumerate(PLAN, start=1):
            await rec.snapshot(page)
            obs = rec.observation
            assert obs is not None
            ref = SemanticElementRef(role=role, name=name, container_path=container)
            res = resolve(ref, obs, coords_fallback="never")
            action = ActionWithElement(type=kind, element=ref, text=text)  # type: ignore[arg-type]
            rec.decision({"step": str(number), "action": action, "target_node": res.executor_id})
            used = await act(page, res, action, observation=obs)
            rec.result(str(number), "ok", duration_ms=1.0, executor_id=used.executor_id)
            acted.append(used.executor_id)
        log = await page.evaluate("window.log")
        await browser.close()
    return rec.finish("done"), acted, log


def test_an_async_agent_run_is_recorded_and_replays_at_100_percent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:  # (the module's sync browser holds this thread's loop)
        path, acted, log = pool.submit(asyncio.run, _async_run(tmp_path / "runs")).result()
    assert log == ["submit:ada@example.com", "click:grace.invite"]
    assert [s.expected[s.preceding or ""] for s in read_recording(path).steps] == [
        (a,) for a in acted
    ]
    overall = replay_report(capsys, path, tmp_path / "out")["overall"]
    assert (overall["steps"], overall["correct"]) == (len(PLAN), len(PLAN))
