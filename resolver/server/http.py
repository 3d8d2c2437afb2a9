"""A small HTTP API over the same page session as the MCP server (Starlette, bound to
127.0.0.1): ``GET /catalog``, ``POST /catalog/refresh``, ``POST /execute`` (JSON ``{actions,
expected_catalog_version?}``), ``POST /navigate`` (``{url}``), ``GET /tabs``, ``POST
/tabs/select`` (``{index}``: the tab the others act on) and ``GET /screenshot``
(``?marks=false`` for the plain picture: the viewport as a base64 PNG in ``image``, each
element in view labelled with its catalog index, and that catalog's version).

A body over ``max_body`` bytes is refused with 413, malformed JSON with 400 and a
``VALIDATION_ERROR``; a request whose ``Host`` is not the loopback address is refused (a web
page cannot reach the browser through DNS rebinding).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, Final

from . import tools
from .worker import BrowserWorker

__all__ = ["HOST", "MAX_BODY", "build_app", "serve_http"]

HOST: Final[str] = "127.0.0.1"
MAX_BODY: Final[int] = 1_000_000
"""Bytes of a request body, at most."""


class _BodyError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _validation(status: int, message: str) -> Any:
    from starlette.responses import JSONResponse

    error = {"code": "VALIDATION_ERROR", "message": message, "details": {}}
    return JSONResponse({"ok": False, "success": False, "error": error}, status_code=status)


async def _json_body(request: Any, max_body: int) -> dict[str, Any]:
    """The request's JSON object, read up to ``max_body`` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > max_body:
        raise _BodyError(413, f"the body is over {max_body} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > max_body:
            raise _BodyError(413, f"the body is over {max_body} bytes")
    try:
        data = json.loads(bytes(body) or b"null")
    except (ValueError, UnicodeDecodeError) as exc:
        raise _BodyError(400, f"the body is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise _BodyError(400, "the body is a JSON object")
    return data


async def _posted(
    request: Any, max_body: int, call: Callable[[dict[str, Any]], Awaitable[Any]]
) -> Any:
    """The JSON response of ``call`` on the request's body, or the body's refusal."""
    from starlette.responses import JSONResponse

    try:
        body = await _json_body(request, max_body)
    except _BodyError as exc:
        return _validation(exc.status, exc.message)
    return JSONResponse(await call(body))


def build_app(worker: BrowserWorker, *, max_body: int = MAX_BODY) -> Any:
    """The Starlette application over ``worker``'s page."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def get_catalog(request: Any) -> Any:
        return JSONResponse(await worker.run(tools.current_catalog))

    async def refresh(request: Any) -> Any:
        return JSONResponse(await worker.run(tools.catalog))

    async def execute(request: Any) -> Any:
        try:
            body = await _json_body(request, max_body)
        except _BodyError as exc:
            return _validation(exc.status, exc.message)
        expected = body.get("expected_catalog_version")
        if expected is not None and not isinstance(expected, str):
            return _validation(400, "expected_catalog_version is a string")
        result = await worker.run(tools.execute_actions, body.get("actions"), expected)
        return JSONResponse(result)

    async def navigate(request: Any) -> Any:
        return await _posted(request, max_body, lambda b: worker.run(tools.navigate, b.get("url")))

    async def get_screenshot(request: Any) -> Any:
        marks = request.query_params.get("marks", "true").lower()
        if marks not in ("true", "false", "1", "0"):
            return _validation(400, "marks is true or false")
        return JSONResponse(await worker.run(tools.screenshot, marks in ("true", "1")))

    async def get_tabs(request: Any) -> Any:
        return JSONResponse(await worker.run(tools.tabs))

    async def select_tab(request: Any) -> Any:
        return await _posted(
            request, max_body, lambda b: worker.run(tools.select_tab, worker, b.get("index"))
        )

    routes = [
        Route("/catalog", get_catalog, methods=["GET"]),
        Route("/tabs", get_tabs, methods=["GET"]),
        Route("/screenshot", get_screenshot, methods=["GET"]),
        Route("/tabs/select", select_tab, methods=["POST"]),
        Route("/catalog/refresh", refresh, methods=["POST"]),
        Route("/execute", execute, methods=["POST"]),
        Route("/navigate", navigate, methods=["POST"]),
    ]
    hosts = ["127.0.0.1", "localhost"]
    return Starlette(
        routes=routes, middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts)]
    )


def serve_http(worker: BrowserWorker, port: int, *, max_body: int = MAX_BODY) -> None:
    """Serve :func:`build_app` on ``127.0.0.1:port`` until interrupted."""
    import uvicorn

    uvicorn.run(build_app(worker, max_body=max_body), host=HOST, port=port, log_level="warning")
