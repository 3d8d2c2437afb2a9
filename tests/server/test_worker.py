"""The browser thread: a Chromium that cannot start is a typed error naming it; uploads
come only from the folder the server was given."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from resolver.errors import SourceUnavailableError

pytest.importorskip("playwright.sync_api")


def test_a_chromium_that_cannot_start_is_source_unavailable() -> None:
    from resolver.server import tools
    from resolver.server.worker import BrowserWorker

    worker = BrowserWorker("/nonexistent/chromium")
    try:
        with pytest.raises(SourceUnavailableError, match="cannot start /nonexistent/chromium"):
            worker.call(tools.navigate, "about:blank")
    finally:
        worker.close()


@pytest.mark.browser
def test_uploads_come_only_from_the_upload_folder(tmp_path: Path) -> None:
    from live_browser import CHROMIUM, ROOT, browser_missing

    from resolver.server import tools
    from resolver.server.worker import BrowserWorker

    if browser_missing() is not None:
        pytest.skip(str(browser_missing()))
    page = (ROOT / "fixtures" / "live" / "uploads.html").as_uri()
    (tmp_path / "cv.txt").write_text("a CV")
    outside = tmp_path.parent / f"{tmp_path.name}-secret.txt"
    outside.write_text("not for the page")

    def upload(worker: BrowserWorker, *files: str) -> dict[str, Any]:
        worker.call(tools.navigate, page)
        actions = [{"action": "upload", "target": "css=#avatar", "files": list(files)}]
        return worker.call(tools.execute_actions, actions)

    closed, folder = BrowserWorker(CHROMIUM), BrowserWorker(CHROMIUM, upload_dir=tmp_path)
    try:
        refused = upload(closed, str(tmp_path / "cv.txt"))
        taken = upload(folder, "cv.txt")
        changes = folder.call(lambda s: s.page.evaluate("window.changes"))
        escaped = [upload(folder, name) for name in (str(outside), f"../{outside.name}")]
    finally:
        closed.close()
        folder.close()
    assert refused["error"]["code"] == "VALIDATION_ERROR"
    assert "--upload-dir" in refused["error"]["message"]
    assert taken["success"], taken["error"]
    assert changes == ["avatar:cv.txt"]
    assert [e["error"]["code"] for e in escaped] == ["VALIDATION_ERROR"] * 2


@pytest.mark.browser
def test_a_recorded_session_replays(tmp_path: Path) -> None:
    import json

    from live_browser import CHROMIUM, ROOT, browser_missing

    from resolver.replay import ReplayOptions, discover, replay_local
    from resolver.server import tools
    from resolver.server.worker import BrowserWorker

    if browser_missing() is not None:
        pytest.skip(str(browser_missing()))
    page = (ROOT / "fixtures" / "live" / "rerender.html").as_uri()
    worker = BrowserWorker(CHROMIUM, record_dir=tmp_path / "runs")
    try:
        assert worker.call(tools.navigate, page + "?keyed")["ok"]
        version = worker.call(tools.catalog)["version"]
        clicks = [
            {"action": "click", "target": "index=1"},
            {"action": "click", "target": "index=4"},
        ]
        assert worker.call(tools.execute_actions, clicks, version)["success"]
    finally:
        worker.close()
    assert worker.recording is not None and worker.recording.parent == tmp_path / "runs"
    timeline = json.loads(worker.recording.read_text())["timeline"]
    assert [e["kind"] for e in timeline] == [
        "navigation", "ax_snapshot", "decision", "action_result",
        "ax_snapshot", "decision", "action_result",
    ]  # fmt: skip
    bob = timeline[5]["action"]["element"]
    assert bob["name"] == "Delete" and "Bob bob@example.com Delete" in bob["container_path"]
    (replayed,) = replay_local(discover([worker.recording]), ReplayOptions())
    assert [s["verdict"] for s in replayed["steps"]] == ["correct", "correct"]


def test_a_record_folder_that_cannot_be_made_is_refused(tmp_path: Path) -> None:
    from resolver.record import RecorderError
    from resolver.server.worker import BrowserWorker

    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(RecorderError, match="cannot record in"):
        BrowserWorker("/nonexistent/chromium", record_dir=tmp_path / "file" / "runs")


@pytest.mark.browser
def test_a_recording_that_cannot_be_written_is_an_error_result(tmp_path: Path) -> None:
    from live_browser import CHROMIUM, browser_missing

    from resolver.server import tools
    from resolver.server.worker import BrowserWorker

    if browser_missing() is not None:
        pytest.skip(str(browser_missing()))
    worker = BrowserWorker(CHROMIUM, record_dir=tmp_path)
    try:
        assert worker.call(tools.navigate, "data:text/html,<button>Go</button>")["ok"]
        worker.recorder.finish("gone")  # (as if its file could no longer be written)
        answer = worker.call(tools.execute_actions, [{"action": "click", "target": "text=Go"}])
        assert answer["ok"] is False and "finished" in answer["error"]["message"]
    finally:
        worker.recorder = None
        worker.close()
