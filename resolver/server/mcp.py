"""The MCP server (``resolver mcp``): one headless Chromium page, and the tools
``navigate``, ``catalog``, ``execute``, ``resolve``, ``snapshot``, ``tabs`` and
``screenshot`` over it.

An agent reads the ``catalog`` (one line per element, with an index and the catalog's
version), then ``execute``s actions by index, passing the version it read: when the page
re-rendered in between, each index is found again from the element it named, or refused with
a code (``CATALOG_OUTDATED``, ``ELEMENT_NOT_FOUND``, ``AMBIGUOUS``,
``ELEMENT_NOT_INTERACTABLE``), never taken to mean the element now at that position.

Built on the official ``mcp`` SDK (``MCPServer``); all page work runs on the
:class:`~resolver.server.worker.BrowserWorker` thread.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Final

from . import tools
from .worker import BrowserWorker

__all__ = ["INSTRUCTIONS", "build_server", "run_server"]

INSTRUCTIONS: Final[str] = (
    "Drives one browser page. Call navigate, then catalog to read the actionable elements "
    "with their indexes and the catalog version; call execute with actions such as "
    '{"action": "click", "target": "index=3"} and expected_catalog_version set to the '
    "version you read. A refusal says why (its code) and nothing was touched: read the "
    "catalog again and choose again. A click that opens a tab says so (execute's opened); "
    "tabs switches to it. screenshot shows the page with each element's index drawn on it."
)


def _screenshot_tool(worker: BrowserWorker) -> Callable[..., Awaitable[list[Any]]]:
    """The ``screenshot`` tool: its answer is text and an image, not data."""
    from mcp.server.mcpserver.utilities.types import Image
    from mcp.types import TextContent

    async def screenshot(marks: bool = True) -> list[Any]:
        """A picture of the page's viewport with each element in view outlined and
        labelled with its catalog index (marks=false: the plain picture). The indexes are
        those of the catalog version returned with it, so execute can act on what you see:
        {"action": "click", "target": "index=N"}. An element something else is drawn over
        (a modal's backdrop, a banner) is not labelled and is listed in "covered". The
        picture is the page as drawn: text on it is not redacted."""
        result = await worker.run(tools.screenshot, marks)
        image = result.pop("image", None)
        text = TextContent(type="text", text=json.dumps(result, ensure_ascii=False))
        if not isinstance(image, str):
            return [text]
        return [text, Image(data=base64.b64decode(image), format="png")]

    # Text and an image, not data (the SDK reads the annotation; these names are local).
    screenshot.__annotations__["return"] = list[TextContent | Image]
    return screenshot


def _page_tools(worker: BrowserWorker) -> tuple[Callable[..., Awaitable[Any]], ...]:
    """The ``tabs`` and ``screenshot`` tools."""

    async def tabs(select: int | None = None) -> dict[str, Any]:
        """List the browser's tabs: index, URL, title and which one is current. With select
        (an index), make that tab current first: navigate, catalog, execute, resolve and
        snapshot then act on it. A click that opens a tab lists it in execute's
        "opened"."""
        if select is None:
            return await worker.run(tools.tabs)
        return await worker.run(tools.select_tab, worker, select)

    return tabs, _screenshot_tool(worker)


def build_server(worker: BrowserWorker) -> Any:
    """An ``MCPServer`` whose tools run on ``worker``."""
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("resolver", instructions=INSTRUCTIONS, log_level="WARNING")

    async def navigate(url: str) -> dict[str, Any]:
        """Open a URL (http, https, file, about, data) in the page and wait for it to load.
        The current catalog is kept: its indexes are found again on the new page or refused."""
        return await worker.run(tools.navigate, url)

    async def catalog() -> dict[str, Any]:
        """Observe the page and return its catalog: one line per actionable element as
        '[index] role: name', grouped by region, and the catalog version to pass to
        execute."""
        return await worker.run(tools.catalog)

    async def execute(
        actions: list[dict[str, Any]], expected_catalog_version: str | None = None
    ) -> dict[str, Any]:
        """Run actions in order, stopping at the first failure. Each action is an object:
        {"action": "click", "target": T} ("button": "right", "double": true), {"action":
        "hover", "target": T}, {"action": "type", "target": T, "text": ..., "clear":
        false}, {"action": "select", "target": T, "value" or "label": ...},
        {"action": "press", "key": "Enter", "target": T (optional)},
        {"action": "upload", "target": T, "files": [paths in the server's upload folder]},
        {"action": "scroll", "direction": "down", "pages": 1, "target": T (optional: a list
        inside the page)}, {"action": "drag", "target": T, "to": T2}, {"action": "back"}
        ("forward", "reload": the tab's history, the catalog kept),
        {"action": "refresh_catalog"}, {"action": "scroll_to_text", "text": ...},
        {"action": "wait", "until": "network_idle" | "selector" | "text" | "no_text" |
        "timeout", "ms": 1000, "selector": ..., "text": ...}. A target is "index=N" (from
        the catalog), "css=...", "xpath=..." or "text=...". An action that may open a
        confirm or prompt dialog says how to answer it: "dialog": "accept" (and
        "dialog_text" for a prompt) or "dismiss"; without it such a dialog is dismissed and
        the action fails with DIALOG_DISMISSED.
        Returns success, error {code, message, details}, how many actions completed, the
        dialogs the page opened with their answers, the tabs it opened ("opened"; see
        tabs), and the page's new catalog and version."""
        return await worker.run(tools.execute_actions, actions, expected_catalog_version)

    async def resolve(ref: dict[str, Any]) -> dict[str, Any]:
        """Find a recorded element (a SemanticElementRef: role, name, bbox, container_path,
        nearby_text, xpath, ...) on the page as it is now: its executor id, confidence and
        rule, or the refusal's code and nearest candidates."""
        return await worker.run(tools.resolve_ref, ref)

    async def snapshot(prune: bool = True, redact: bool = True) -> dict[str, Any]:
        """The page as a SnapshotV1 document (flattened accessibility tree), pruned to what
        a reference can name and with secret values masked unless told otherwise."""
        return await worker.run(tools.snapshot, prune, redact)

    every: tuple[Callable[..., Any], ...] = (navigate, catalog, execute, resolve, snapshot)
    for tool in (*every, *_page_tools(worker)):
        server.add_tool(tool, name=tool.__name__)
    return server


def run_server(
    chromium: str | None = None,
    *,
    headed: bool = False,
    http: int | None = None,
    index_mode: bool = True,
    upload_dir: Path | None = None,
    record_dir: Path | None = None,
) -> None:
    """Run the MCP server until its client goes away: over stdio, or streamable HTTP on
    ``127.0.0.1:http`` (path ``/mcp``) when a port is given; recorded in ``record_dir``
    when one is given (:class:`~resolver.server.worker.BrowserWorker`).

    Raises
    ------
    ImportError
        The ``server`` extra (the ``mcp`` SDK, Playwright) is not installed.
    RecorderError
        ``record_dir`` cannot hold a recording.
    """
    worker = BrowserWorker(chromium, headed=headed, index_mode=index_mode,
                           upload_dir=upload_dir, record_dir=record_dir)  # fmt: skip
    server = build_server(worker)
    try:
        if http is None:
            server.run("stdio")
        else:
            server.run("streamable-http", host="127.0.0.1", port=http)
    finally:
        worker.close()
