"""Serve one live Chromium page to agents: an MCP server (:mod:`resolver.server.mcp`, the
``resolver mcp`` command) and a small HTTP API (:mod:`resolver.server.http`) over the same
tools (:mod:`resolver.server.tools`), with all browser work on one thread
(:mod:`resolver.server.worker`).

Needs the ``server`` extra (``pip install 'resolver[server]'``); the submodules import the
MCP SDK, Starlette and Playwright only when used.
"""

from __future__ import annotations

__all__: list[str] = []
