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
