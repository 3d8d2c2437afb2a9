"""``resolver mcp``: serve one browser page to an agent over the Model Context Protocol
(stdio, or streamable HTTP on 127.0.0.1)."""

from __future__ import annotations

from typing import Annotated

import typer

from ._inputs import check_executable
from ._output import EXIT_INPUT, CliError

__all__ = ["EXTRA_MESSAGE", "register", "run_mcp"]

EXTRA_MESSAGE = (
    "resolver mcp needs the server extra (the mcp SDK and Playwright): "
    "pip install 'resolver[server]'"
)


def register(app: typer.Typer) -> None:
    """Add the ``mcp`` command."""
    app.command("mcp")(run_mcp)


def _check_extra() -> None:
    try:
        import mcp.server.mcpserver  # noqa: F401
        import playwright.sync_api  # noqa: F401
    except ImportError as exc:
        raise CliError(f"{EXTRA_MESSAGE} ({exc})", EXIT_INPUT) from exc


def run_mcp(
    chromium: Annotated[
        str | None,
        typer.Option(
            help="Chromium executable (default /usr/bin/chromium if present, else "
            "Playwright's own browser)."
        ),
    ] = None,
    headed: Annotated[bool, typer.Option(help="Show the browser window.")] = False,
    http: Annotated[
        int | None,
        typer.Option(
            min=1, max=65535, help="Serve streamable HTTP on 127.0.0.1:PORT/mcp instead of stdio."
        ),
    ] = None,
    index_mode: Annotated[
        bool,
        typer.Option(
            envvar="INDEX_MODE",
            help="Act on index=N targets; --no-index-mode (or INDEX_MODE=false) leaves only "
            "css=, xpath= and text= targets.",
        ),
    ] = True,
) -> None:
    """Serve a browser page over MCP: tools navigate, catalog, execute, resolve, snapshot.

    Exit 0 when the client disconnects, 2 when the server extra is missing.
    """
    _check_extra()
    check_executable(chromium, "--chromium")
    from ..server.mcp import run_server

    run_server(chromium, headed=headed, http=http, index_mode=index_mode)
