"""The browser bridge: a WebSocket server that turns the Chrome extension's events into
recorded actions.

The extension (or :data:`~resolver.capture.page_script.RECORDER_JS` in any page) sends one
JSON event per message, or a JSON list of events; each is validated and converted by
:func:`~resolver.capture.chrome.action_from_event`, then appended as one line of JSON to a
file (append-only, flushed after every event, so an interrupted recording keeps every event
it acknowledged) and/or handed to a callback. A malformed message is rejected with a logged
reason and an ``{"ok": false, "error": ...}`` reply; the connection stays open. Needs the
``websockets`` package (``pip install 'resolver[bridge]'``), imported when the server starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, Final

from ..errors import InvalidReferenceError, ResolutionError, SourceUnavailableError
from ..models import ActionWithElement
from .chrome import action_from_event

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "BrowserCaptureBridge"]

log = logging.getLogger(__name__)

DEFAULT_HOST: Final[str] = "127.0.0.1"
DEFAULT_PORT: Final[int] = 8765
MAX_MESSAGE: Final[int] = 1 << 20
"""Largest message accepted, in bytes (a larger one closes that connection, per the
WebSocket protocol's 1009 "message too big")."""
MAX_BATCH: Final[int] = 1000
"""Most events in one list message."""


def _load_websockets() -> Any:
    try:
        from websockets.asyncio import server
    except ImportError as exc:
        raise SourceUnavailableError(
            "the browser bridge needs the websockets package: pip install 'resolver[bridge]'"
        ) from exc
    return server


class BrowserCaptureBridge:
    """Receive the extension's events over a WebSocket and record them.

    Parameters
    ----------
    output:
        A JSONL file the actions are appended to (one ``ActionWithElement`` JSON per line).
    callback:
        Called with every accepted action (after it is written); an exception it raises is
        logged and the bridge goes on.
    host, port:
        Where to listen (``127.0.0.1:8765`` by default; port ``0`` picks a free one, see
        :attr:`port`). Listening beyond loopback is the caller's explicit choice.
    ack:
        Reply to every message with ``{"ok": true, "accepted": n}`` or ``{"ok": false,
        "error": ...}``.

    Examples
    --------
    >>> bridge = BrowserCaptureBridge("actions.jsonl")   # doctest: +SKIP
    >>> bridge.run()                                     # doctest: +SKIP
    """

    def __init__(
        self,
        output: str | Path | None = None,
        *,
        callback: Callable[[ActionWithElement], Any] | None = None,
        host: str = DEFAULT_HOST,
        port: int = DEFAULT_PORT,
        ack: bool = True,
    ) -> None:
        if output is None and callback is None:
            raise InvalidReferenceError("the bridge needs an output file, a callback, or both")
        self.output = None if output is None else Path(output)
        self.callback = callback
        self.host = host
        self.port = port
        self.ack = ack
        self.accepted = 0
        """Events recorded so far."""
        self.rejected = 0
        """Messages or events refused so far."""
        self._file: IO[str] | None = None
        self._server: Any = None

    # -- events ------------------------------------------------------------------------

    def handle(self, message: str | bytes) -> dict[str, Any]:
        """Validate and record one message (an event or a list of events); the reply.

        Every valid event of a list is recorded even when others in it are not.
        """
        try:
            data = json.loads(message)
        except (ValueError, UnicodeDecodeError) as exc:
            return self._reject(f"not JSON: {exc}")
        events = data if isinstance(data, list) else [data]
        if len(events) > MAX_BATCH:
            return self._reject(f"more than {MAX_BATCH} events in one message")
        errors: list[str] = []
        count = 0
        for event in events:
            try:
                action = action_from_event(event)
            except ResolutionError as exc:
                errors.append(self._reject(exc.message)["error"])
                continue
            self._record(action)
            count += 1
        if errors:
            return {"ok": False, "accepted": count, "error": "; ".join(errors)}
        return {"ok": True, "accepted": count}

    def _reject(self, reason: str) -> dict[str, Any]:
        self.rejected += 1
        log.warning("bridge: rejected a message: %s", reason)
        return {"ok": False, "accepted": 0, "error": reason}

    def _record(self, action: ActionWithElement) -> None:
        if self.output is not None:
            if self._file is None:
                self.output.parent.mkdir(parents=True, exist_ok=True)
                self._file = self.output.open("a", encoding="utf-8")
            self._file.write(action.model_dump_json(exclude_none=True) + "\n")
            self._file.flush()  # per event: an interrupted recording loses nothing written
        self.accepted += 1
        if self.callback is not None:
            try:
                self.callback(action)
            except Exception:  # the recorder's callback must not take the server down
                log.exception("bridge: the callback failed")

    # -- server ------------------------------------------------------------------------

    async def _connection(self, websocket: Any) -> None:
        peer = getattr(websocket, "remote_address", None)
        try:
            async for message in websocket:
                reply = self.handle(message)
                if self.ack:
                    await websocket.send(json.dumps(reply))
        except Exception as exc:  # a client that vanished mid-message: its events so far stay
            log.info("bridge: connection from %s ended: %s", peer, exc)

    async def start(self) -> None:
        """Start listening (returns once the socket is bound; :attr:`port` is then the real
        port)."""
        server = _load_websockets()
        self._server = await server.serve(
            self._connection, self.host, self.port, max_size=MAX_MESSAGE
        )
        sockets = self._server.sockets
        if sockets:
            self.port = int(sockets[0].getsockname()[1])
        log.info("bridge: listening on ws://%s:%d", self.host, self.port)

    async def stop(self) -> None:
        """Stop listening, close connections, and close the output file."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        self.close()

    def close(self) -> None:
        """Close the output file (it is reopened, in append mode, by the next event)."""
        if self._file is not None:
            self._file.close()
            self._file = None

    async def serve_forever(self) -> None:
        """Listen until cancelled."""
        await self.start()
        try:
            await asyncio.Future()
        finally:
            await self.stop()

    def run(self) -> None:
        """Listen until Ctrl-C (blocking); every event received so far is on disk."""
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(self.serve_forever())
        self.close()

    async def __aenter__(self) -> BrowserCaptureBridge:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
