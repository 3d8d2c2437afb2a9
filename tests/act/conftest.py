"""The live page the agent-kit tests act on: one headless Chromium tab per test module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from live_browser import chromium


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    """A 1000 x 700 tab (a module that needs another page defines its own)."""
    with chromium() as browser:
        tab = browser.new_page(viewport={"width": 1000, "height": 700})
        yield tab
        tab.close()
