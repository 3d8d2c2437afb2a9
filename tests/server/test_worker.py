"""The browser thread: a Chromium that cannot start is a typed error naming it."""

from __future__ import annotations

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
