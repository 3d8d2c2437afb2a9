"""The journal and finish machinery the recorders share, without a browser: key order, file
name, fsync'd journal lines, atomic finish, crash and resume, refused input."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from resolver import Observation, SemanticElementRef
from resolver.record import AgentRecorder, HumanRecorder, RecorderError, read_journal
from resolver.replay import read_recording
from resolver.snapshot import MASK

TREE = {"id": "1", "role": "form", "name": "Sign in", "children": [
    {"id": "2", "role": "textbox", "name": "Email", "bbox": [10, 10, 200, 30]},
    {"id": "3", "role": "textbox", "name": "Password", "bbox": [10, 40, 200, 60]},
    {"id": "4", "role": "button", "name": "Sign in", "bbox": [10, 70, 80, 90]},
]}  # fmt: skip
START = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)


class Clock:
    """A clock that moves one second per reading."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        value = self.now
        self.now += timedelta(seconds=1)
        return value


def _started(tmp_path: Path, **kwargs: Any) -> AgentRecorder:
    rec = AgentRecorder(tmp_path, clock=Clock(), **kwargs)
    rec.start("Sign in as ada", "t-1", context={"model": "m1"})
    return rec


def _steps(rec: AgentRecorder, first: int = 1, count: int = 2) -> None:
    for n in range(first, first + count):
        rec.add_observation(Observation(accessibility_tree=TREE))
        ref = SemanticElementRef(role="button", name="Sign in")
        rec.decision({"step": str(n), "action": {"type": "click", "element": ref},
                      "target_node": "a11y:4"})  # fmt: skip
        rec.result(str(n), "ok", duration_ms=12.5, executor_id="a11y:4")


def test_file_name_key_order_and_summary(tmp_path: Path) -> None:
    rec = _started(tmp_path, prefix="nightly")
    rec.navigation("https://example.test/login", "navigate")
    _steps(rec)
    path = rec.finish("done")
    assert path.name == "nightly-agent-t-1-20260304-050607.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert list(doc) == ["schema_version", "mode", "id", "created_at", "ended_at", "prompt",
                         "context", "timeline", "summary"]  # fmt: skip
    assert (doc["schema_version"], doc["mode"], doc["id"]) == (1, "agent", path.stem)
    assert doc["created_at"] == "2026-03-04T05:06:07.000Z" and doc["context"] == {"model": "m1"}
    assert doc["summary"] == {"urls": ["https://example.test/login"], "action_count": 2,
                              "ax_snapshot_count": 2, "ended_reason": "done"}  # fmt: skip
    kinds = [e["kind"] for e in doc["timeline"]]
    assert kinds == ["navigation"] + ["ax_snapshot", "decision", "action_result"] * 2
    decision = doc["timeline"][2]
    assert list(decision) == ["kind", "ts", "step", "snapshot_id", "action", "target_node"]
    assert list(decision["action"]) == ["type", "x", "y", "element", "text", "key"]
    assert decision["target_node"] == "4" and decision["snapshot_id"] == "s1"
    assert not rec.journal_path or not rec.journal_path.exists()
    recording = read_recording(path)
    assert recording.recording_id == path.stem and recording.mode == "agent"
    assert [s.expected for s in recording.steps] == [{"s1": ("a11y:4",)}, {"s2": ("a11y:4",)}]


def test_a_run_holding_half_a_character_is_journaled_and_finished(tmp_path: Path) -> None:
    """A lone surrogate (a page script cut an emoji) in the prompt, a step and a reference:
    the journal and the recording are written, the texts read back as they were given
    (the reference's as U+FFFD, as references read it)."""
    rec = AgentRecorder(tmp_path, clock=Clock())
    rec.start("Buy the \ud83d", "t-1")
    rec.decision({"step": "1 \ud83d", "action": {
        "type": "click", "element": {"role": "button", "name": "Buy \ud83d"}}})  # fmt: skip
    path = rec.finish("done")
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["prompt"] == "Buy the \ud83d" and doc["timeline"][0]["step"] == "1 \ud83d"
    assert doc["timeline"][0]["action"]["element"]["name"] == "Buy \ufffd"


def test_a_human_recording_is_named_for_its_mode(tmp_path: Path) -> None:
    rec = HumanRecorder(tmp_path, clock=Clock())
    rec.start(None, "session.7")
    path = rec.finish("user_closed")
    assert path.name == "run-human-session.7-20260304-050607.json"
    assert json.loads(path.read_text())["mode"] == "human"


def test_every_journal_line_is_fsynced_before_the_call_returns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    rec = _started(tmp_path)
    journal = rec.journal_path
    assert journal is not None
    for step in range(1, 4):
        before = len(synced)
        _steps(rec, step, 1)  # a snapshot, a decision and a result: three lines
        assert len(synced) - before >= 3
        header, entries, _ = read_journal(journal)
        assert header["kind"] == "recording" and len(entries) == 3 * step
        assert journal.read_bytes().endswith(b"\n")


def test_finish_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rec = _started(tmp_path)
    _steps(rec)
    journal = rec.journal_path
    assert journal is not None and rec.path is not None

    def crash(src: Any, dst: Any) -> None:
        raise OSError("disk pulled")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk pulled"):
        rec.finish("done")
    assert not rec.path.exists() and journal.exists()  # no half-written recording
    monkeypatch.undo()
    again = AgentRecorder.resume(journal, clock=Clock())
    path = again.finish("done")
    assert not journal.exists() and not path.with_name(path.name + ".tmp").exists()
    assert len(read_recording(path).steps) == 2


def test_crash_and_resume_keeps_every_entry_but_the_torn_one(tmp_path: Path) -> None:
    rec = _started(tmp_path)
    _steps(rec, 1, 3)
    journal = rec.journal_path
    assert journal is not None
    rec._fh.close()  # the process dies: no finish; the last entry is half written
    data = journal.read_bytes()
    journal.write_bytes(data[: data.rfind(b"{") + 20])
    _header, entries, _ = read_journal(journal)
    assert len(entries) == 8  # 9 written, the torn result of step 3 left out
    resumed = AgentRecorder.resume(journal, clock=Clock())
    resumed.result("3", "ok", executor_id="a11y:4")  # step 3's decision survived
    _steps(resumed, 4, 1)
    path = resumed.finish("done")
    doc = json.loads(path.read_text())
    assert [e.get("step") for e in doc["timeline"] if e["kind"] == "action_result"] == \
        ["1", "2", "3", "4"]  # fmt: skip
    assert doc["summary"]["action_count"] == 4 and doc["summary"]["ax_snapshot_count"] == 4
    assert [s.step for s in read_recording(path).steps] == ["1", "2", "3", "4"]


def test_a_torn_last_line_with_its_newline_is_dropped_too(tmp_path: Path) -> None:
    rec = _started(tmp_path)
    _steps(rec, 1, 1)
    journal = rec.journal_path
    assert journal is not None
    rec._fh.close()
    with journal.open("ab") as f:
        f.write(b'{"kind": "decision", "st\n')
    assert len(read_journal(journal)[1]) == 3
    path = AgentRecorder.resume(journal).finish("crashed")
    assert json.loads(path.read_text())["summary"]["ended_reason"] == "crashed"


def test_a_corrupt_line_before_the_last_is_refused(tmp_path: Path) -> None:
    rec = _started(tmp_path)
    _steps(rec, 1, 1)
    journal = rec.journal_path
    assert journal is not None
    rec._fh.close()
    lines = journal.read_bytes().split(b"\n")
    lines[1] = b"{broken"
    journal.write_bytes(b"\n".join(lines))
    with pytest.raises(RecorderError, match="line 2 is corrupt"):
        AgentRecorder.resume(journal)
    lines[1] = b"{}"
    journal.write_bytes(b"\n".join(lines))
    with pytest.raises(RecorderError, match="'agent' journal"):
        HumanRecorder.resume(journal)


def test_bad_input_is_refused_with_a_typed_error(tmp_path: Path) -> None:
    rec = AgentRecorder(tmp_path)
    with pytest.raises(RecorderError, match="not started"):
        rec.navigation("https://example.test", "navigate")
    with pytest.raises(RecorderError, match="file name"):
        rec.start("x", "../../etc/passwd")
    with pytest.raises(RecorderError, match="file name"):
        AgentRecorder(tmp_path, prefix="a/b")
    rec = _started(tmp_path)
    with pytest.raises(RecorderError, match="started already"):
        rec.start("again", "t-2")
    with pytest.raises(RecorderError, match="no snapshot"):
        rec.decision({"step": "1", "action": {"type": "click"}, "target_node": "4"})
    rec.add_observation(Observation(accessibility_tree=TREE))
    with pytest.raises(RecorderError, match="not a node of snapshot 's1'"):
        rec.decision({"step": "1", "action": {"type": "click"}, "target_node": "99"})
    with pytest.raises(RecorderError, match="needs an ID"):
        rec.decision({"action": {"type": "click"}})
    with pytest.raises(RecorderError, match="unknown action fields"):
        rec.decision({"step": "1", "action": {"type": "click", "colour": "red"}})
    with pytest.raises(ValueError, match="needs text"):  # InvalidReferenceError
        rec.decision({"step": "1", "action": {"type": "type"}})
    rec.decision({"step": "1", "action": {"type": "click"}, "target_node": "4"})
    with pytest.raises(RecorderError, match="recorded already"):
        rec.decision({"step": "1", "action": {"type": "click"}})
    with pytest.raises(RecorderError, match="no decision has step '7'"):
        rec.result("7", "ok")
    with pytest.raises(RecorderError, match="duration_ms"):
        rec.result("1", "ok", duration_ms=float("nan"))
    with pytest.raises(RecorderError, match="status"):
        rec.result("1", "")
    before = rec.journal_path.read_bytes() if rec.journal_path else b""
    assert b'"step": "7"' not in before  # nothing refused reached the journal
    rec.finish("done")
    with pytest.raises(RecorderError, match="finished"):
        rec.finish("done")
    with pytest.raises(RecorderError, match="finished"):
        rec.result("1", "ok")


def test_a_recording_of_the_same_name_is_not_overwritten(tmp_path: Path) -> None:
    first = AgentRecorder(tmp_path, clock=lambda: START)
    first.start(None, "same")
    with pytest.raises(RecorderError, match=r"journal .* exists"):
        AgentRecorder(tmp_path, clock=lambda: START).start(None, "same")
    first.finish("done")
    with pytest.raises(RecorderError, match="exists already"):
        AgentRecorder(tmp_path, clock=lambda: START).start(None, "same")


def test_text_typed_into_a_secret_field_never_reaches_the_files(tmp_path: Path) -> None:
    rec = _started(tmp_path)
    rec.add_observation(Observation(accessibility_tree=TREE))
    password = SemanticElementRef(role="textbox", name="Password")
    rec.decision(
        {
            "step": "1",
            "target_node": "3",
            "action": {"type": "type", "element": password, "text": "hunter2secret"},
        }
    )
    otp = {"role": "textbox", "name": "Code", "attributes": {"name": "otp"}}
    rec.decision({"step": "2", "action": {"type": "type", "element": otp, "text": "493817"}})
    email = SemanticElementRef(role="textbox", name="Email")
    rec.decision({"step": "3", "action": {"type": "type", "element": email, "text": "ada"}})
    rec.result("3", "error", error="the page said: wrong password hunter2secret")
    journal = rec.journal_path
    assert journal is not None
    raw = journal.read_bytes()
    assert b"hunter2secret" not in raw and b"493817" not in raw
    path = rec.finish("done")
    raw = path.read_bytes()
    assert b"hunter2secret" not in raw and b"493817" not in raw
    timeline = json.loads(raw)["timeline"]
    assert [e["action"]["text"] for e in timeline if e["kind"] == "decision"] == \
        [MASK, MASK, "ada"]  # fmt: skip
    assert timeline[-1]["error"] == f"the page said: wrong password {MASK}"
