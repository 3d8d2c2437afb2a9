"""``resolver serve``: one browser page behind a small HTTP API on 127.0.0.1, for agent
runtimes that speak plain HTTP rather than MCP (``GET /catalog``, ``POST /catalog/refresh``,
``POST /execute``, ``POST /navigate``)."""

from __future__ import annotations

import importlib
from typing import Annotated

import typer

from ._inputs import check_executable
from ._output import EXIT_INPUT, CliError

__all__ = ["EXTRA_MESSAGE", "register", "run_serve"]

EXTRA_MESSAGE = (
    "resolver serve needs the server extra (Starlette, uvicorn and Playwright): "
    "pip install 'resolver[server]'"
)


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command."""
    app.command("serve")(run_serve)


def _check_extra() -> None:
    """Exit 2 with the install line unless the extra's modules import (the server itself
    is started by :func:`resolver.server.http.serve_http`)."""
    try:
        for module in ("playwright.sync_api", "starlette.applications", "uvicorn"):
            importlib.import_module(module)
    except ImportError as exc:
        raise CliError(f"{EXTRA_MESSAGE} ({exc})", EXIT_INPUT) from exc


def run_serve(
    port: Annotated[
        int, typer.Option(min=1, max=65535, help="Listen on 127.0.0.1:PORT (loopback only).")
    ] = 8765,
    chromium: Annotated[
        str | None,
        typer.Option(
            help="Chromium executable (default /usr/bin/chromium if present, else "
            "Playwright's own browser)."
        ),
    ] = None,
    headed: Annotated[bool, typer.Option(help="Show the browser window.")] = False,
    max_body: Annotated[
        int, typer.Option(min=1, help="Refuse request bodies over this many bytes (413).")
    ] = 1_000_000,
    index_mode: Annotated[
        bool,
        typer.Option(
            envvar="INDEX_MODE",
            help="Act on index=N targets; --no-index-mode (or INDEX_MODE=false) leaves only "
            "css=, xpath= and text= targets.",
        ),
    ] = True,
) -> None:
    """Serve a browser page over HTTP: GET /catalog, POST /catalog/refresh, POST /execute
    ({actions, expected_catalog_version}), POST /navigate ({url}).

    Exit 0 when interrupted, 2 when the server extra is missing.
    """
    _check_extra()
    check_executable(chromium, "--chromium")
    from ..server.http import serve_http
    from ..server.worker import BrowserWorker

    worker = BrowserWorker(chromium, headed=headed, index_mode=index_mode)
    try:
        serve_http(worker, port, max_body=max_body)
    finally:
        worker.close()
