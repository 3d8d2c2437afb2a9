"""``resolver serve``: one browser page behind a small HTTP API on 127.0.0.1, for agent
runtimes that speak plain HTTP rather than MCP (``GET /catalog``, ``POST /catalog/refresh``,
``POST /execute``, ``POST /navigate``, ``GET /tabs``, ``POST /tabs/select``, ``GET
/screenshot``)."""

from __future__ import annotations

from typing import Annotated

import typer

from ..record import RecorderError
from . import _inputs
from ._inputs import ChromiumOpt, HeadedOpt, IndexModeOpt, RecordDirOpt, UploadDirOpt
from ._output import CliError

__all__ = ["EXTRA_MESSAGE", "register", "run_serve"]

EXTRA_MESSAGE = (
    "resolver serve needs the server extra (Starlette, uvicorn and Playwright): "
    "pip install 'resolver[server]'"
)


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command."""
    app.command("serve")(run_serve)


def run_serve(
    port: Annotated[
        int, typer.Option(min=1, max=65535, help="Listen on 127.0.0.1:PORT (loopback only).")
    ] = 8765,
    chromium: ChromiumOpt = None,
    headed: HeadedOpt = False,
    max_body: Annotated[
        int, typer.Option(min=1, help="Refuse request bodies over this many bytes (413).")
    ] = 1_000_000,
    index_mode: IndexModeOpt = True,
    upload_dir: UploadDirOpt = None,
    record: RecordDirOpt = None,
) -> None:
    """Serve a browser page over HTTP: GET /catalog, POST /catalog/refresh, POST /execute
    ({actions, expected_catalog_version}), POST /navigate ({url}), GET /tabs, POST
    /tabs/select ({index}), GET /screenshot (?marks=false: no indexes drawn).

    Exit 0 when interrupted, 2 when the server extra is missing.
    """
    # (the server itself is started by resolver.server.http.serve_http)
    needed = ("playwright.sync_api", "starlette.applications", "uvicorn")
    _inputs.require_modules(needed, EXTRA_MESSAGE)
    _inputs.check_executable(chromium, "--chromium")
    from ..server.http import serve_http
    from ..server.worker import BrowserWorker

    try:
        worker = BrowserWorker(chromium, headed=headed, index_mode=index_mode,
                               upload_dir=upload_dir, record_dir=record)  # fmt: skip
    except RecorderError as exc:
        raise CliError(f"--record: {exc.message}") from exc
    try:
        serve_http(worker, port, max_body=max_body)
    finally:
        worker.close()
