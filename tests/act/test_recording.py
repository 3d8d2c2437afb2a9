"""``execute(..., recorder=AgentRecorder)``: an agent-kit run written as recording_v1 that the
replay harness reads and resolves again, step by step, with dialogs and navigations; a
recorder that is not started is refused before anything runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from live_browser import ROOT

from resolver.act import execute
from resolver.act.model import parse_action
from resolver.act.recording import recorded_action
from resolver.models import SemanticElementRef
from resolver.record import AgentRecorder, RecorderError
from resolver.replay import ReplayOptions, discover, replay_local

PAGE = (ROOT / "fixtures" / "live" / "rerender.html").as_uri()
UPLOADS = (ROOT / "fixtures" / "live" / "uploads.html").as_uri()
DIALOGS = (ROOT / "fixtures" / "live" / "dialogs.html").as_uri()


def _timeline(path: Path) -> list[dict[str, Any]]:
    timeline: list[dict[str, Any]] = json.loads(path.read_text())["timeline"]
    return timeline


def _run(page: Any, tmp_path: Path) -> tuple[Path, list[Any]]:
    recorder = AgentRecorder(tmp_path)
    recorder.start("sort, delete Bob, fill the form, reload", trace_id="kit")
    page.goto(PAGE + "?keyed")
    execute(page, [{"action": "refresh_catalog"}])
    results = [
        execute(page, [{"action": "click", "target": "index=1"},
                       {"action": "click", "target": "index=4"}], recorder=recorder),
        execute(page, [{"action": "type", "target": "css=#name", "text": "Ada"},
                       {"action": "select", "target": "css=#colour", "label": "Blue"},
                       {"action": "click", "target": "text=No such button"}], recorder=recorder),
        execute(page, [{"action": "reload"}], recorder=recorder),
    ]  # fmt: skip
    page.goto(DIALOGS)
    results.append(execute(page, [{"action": "click", "target": "text=Delete Alice",
                                   "dialog": "accept"}], recorder=recorder))  # fmt: skip
    return recorder.finish("done"), results


def test_a_run_is_recorded_and_replays(page: Any, tmp_path: Path) -> None:
    path, results = _run(page, tmp_path)
    assert [r.success for r in results] == [True, False, True, True]
    timeline = _timeline(path)
    decisions = [e for e in timeline if e["kind"] == "decision"]
    kinds = [(d["action"]["type"], d["action"]["element"]["name"]) for d in decisions]
    assert kinds == [("click", "Sort"), ("click", "Delete"), ("type", "Name"),
                     ("select", "Colour"), ("click", "Delete Alice")]  # fmt: skip
    assert "Bob bob@example.com Delete" in decisions[1]["action"]["element"]["container_path"]
    assert decisions[2]["action"]["text"] == "Ada" and decisions[3]["action"]["text"] == "Blue"
    statuses = [e["status"] for e in timeline if e["kind"] == "action_result"]
    assert statuses == ["ok"] * 5  # (the missing button was located nowhere: not written)
    assert [e["reason"] for e in timeline if e["kind"] == "navigation"] == ["reload"]
    (dialog,) = [e for e in timeline if e["kind"] == "dialog"]
    assert (dialog["step"], dialog["type"], dialog["answer"]) == ("5", "confirm", "accepted")
    # Each step is resolved again against the snapshot it was located on: all right.
    (replayed,) = replay_local(discover([path]), ReplayOptions())
    assert replayed["status"] == "ok" and len(replayed["steps"]) == 5
    assert [s["verdict"] for s in replayed["steps"]] == ["correct"] * 5, replayed["steps"]


def test_a_recorder_that_is_not_running_is_refused_first(page: Any, tmp_path: Path) -> None:
    page.goto(PAGE)
    clicks = [{"action": "click", "target": "text=Sort"}]
    with pytest.raises(RecorderError, match="not started"):
        execute(page, clicks, recorder=AgentRecorder(tmp_path))
    with pytest.raises(RecorderError, match="AgentRecorder"):
        execute(page, clicks, recorder=object())
    assert "Clicked: nothing" in page.content()  # nothing ran


def test_each_action_kind_and_its_recorded_type() -> None:
    element = SemanticElementRef(role="button", name="Go")
    kinds = {
        '{"action": "click", "target": "index=1"}': "click",
        '{"action": "click", "target": "index=1", "double": true}': "double_click",
        '{"action": "click", "target": "index=1", "button": "right"}': "right_click",
        '{"action": "hover", "target": "index=1"}': "hover",
        '{"action": "press", "target": "index=1", "key": "Enter"}': "key",
        '{"action": "upload", "target": "index=1", "files": []}': "upload",
        '{"action": "press", "key": "Enter"}': None,
        '{"action": "scroll", "target": "index=1"}': "scroll",
        '{"action": "scroll", "direction": "up"}': None,
        '{"action": "drag", "target": "index=1", "to": "index=2"}': "drag",
    }
    for text, kind in kinds.items():
        got = recorded_action(parse_action(json.loads(text)), element)
        assert (None if got is None else got["type"]) == kind, text


def test_an_upload_is_recorded_with_its_file_names() -> None:
    element = SemanticElementRef(role="button", name="Attach")
    action = parse_action({"action": "upload", "target": "index=1",
                           "files": ["/tmp/x/cv.pdf", "sub/photo.png"]})  # fmt: skip
    assert recorded_action(action, element) == {
        "type": "upload", "element": element, "files": ["cv.pdf", "photo.png"],
    }  # fmt: skip


def test_uploads_are_recorded_and_replay(page: Any, tmp_path: Path) -> None:
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text(name)
    recorder = AgentRecorder(tmp_path / "run")
    recorder.start("attach two files and a photo", trace_id="uploads")
    page.goto(UPLOADS)
    files = [str(tmp_path / "a.txt"), str(tmp_path / "b.txt")]
    result = execute(page, [
        {"action": "upload", "target": "css=#attachments", "files": files},
        {"action": "upload", "target": "text=Choose photos", "files": files[1:]},
        {"action": "upload", "target": "css=#attachments", "files": []},
    ], recorder=recorder)  # fmt: skip
    assert result.success, result.error
    path = recorder.finish("done")
    decisions = [e["action"] for e in _timeline(path) if e["kind"] == "decision"]
    assert [(d["type"], d["element"]["name"], d["files"]) for d in decisions] == [
        ("upload", "Attachments", ["a.txt", "b.txt"]),
        ("upload", "Choose photos", ["b.txt"]),
        ("upload", "Attachments", []),
    ]  # fmt: skip
    assert str(tmp_path) not in path.read_text()  # (names, never the folder they came from)
    (replayed,) = replay_local(discover([path]), ReplayOptions())
    assert [s["verdict"] for s in replayed["steps"]] == ["correct"] * 3, replayed["steps"]
