"""``resolver mcp``: serve one browser page to an agent over the Model Context Protocol
(stdio, or streamable HTTP on 127.0.0.1)."""

from __future__ import annotations

from typing import Annotated

import typer

from ..record import RecorderError
from . import _inputs
from ._inputs import ChromiumOpt, HeadedOpt, IndexModeOpt, RecordDirOpt, UploadDirOpt
from ._output import CliError

__all__ = ["EXTRA_MESSAGE", "register", "run_mcp"]

EXTRA_MESSAGE = (
    "resolver mcp needs the server extra (the mcp SDK and Playwright): "
    "pip install 'resolver[server]'"
)


def register(app: typer.Typer) -> None:
    """Add the ``mcp`` command."""
    app.command("mcp")(run_mcp)


def run_mcp(
    chromium: ChromiumOpt = None,
    headed: HeadedOpt = False,
    http: Annotated[
        int | None,
        typer.Option(
            min=1, max=65535, help="Serve streamable HTTP on 127.0.0.1:PORT/mcp instead of stdio."
        ),
    ] = None,
    index_mode: IndexModeOpt = True,
    upload_dir: UploadDirOpt = None,
    record: RecordDirOpt = None,
) -> None:
    """Serve a browser page over MCP: navigate, catalog, execute, resolve, snapshot, tabs,
    screenshot.

    Exit 0 when the client disconnects, 2 when the server extra is missing.
    """
    _inputs.require_modules(("mcp.server.mcpserver", "playwright.sync_api"), EXTRA_MESSAGE)
    _inputs.check_executable(chromium, "--chromium")
    from ..server.mcp import run_server

    try:
        run_server(chromium, headed=headed, http=http, index_mode=index_mode,
                   upload_dir=upload_dir, record_dir=record)  # fmt: skip
    except RecorderError as exc:
        raise CliError(f"--record: {exc.message}") from exc
