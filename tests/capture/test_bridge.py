import asyncio
import json
import socket
from pathlib import Path

import pytest

from resolver import ActionWithElement, InvalidReferenceError
from resolver.capture import BrowserCaptureBridge

websockets = pytest.importorskip("websockets")
from websockets.asyncio.client import connect  # noqa: E402

CLICK = {"type": "click", "x": 10, "y": 20,
         "element": {"tag": "button", "name": "Save", "bbox": [0, 0, 40, 30]}}  # fmt: skip


def _lines(path: Path) -> list[ActionWithElement]:
    return [ActionWithElement.model_validate_json(line) for line in path.read_text().splitlines()]


def test_handle_validates_and_records(tmp_path: Path) -> None:
    out = tmp_path / "actions.jsonl"
    bridge = BrowserCaptureBridge(out)
    assert bridge.handle(json.dumps(CLICK)) == {"ok": True, "accepted": 1}
    assert bridge.handle("{not json")["ok"] is False
    assert bridge.handle(json.dumps({"type": "teleport"}))["ok"] is False
    assert bridge.handle(json.dumps([CLICK, 5, CLICK]))["accepted"] == 2
    bridge.close()
    actions = _lines(out)
    assert len(actions) == 3 and actions[0].element and actions[0].element.name == "Save"
    assert (bridge.accepted, bridge.rejected) == (3, 3)


def test_needs_a_destination_and_survives_a_failing_callback(tmp_path: Path) -> None:
    with pytest.raises(InvalidReferenceError):
        BrowserCaptureBridge()

    def boom(action: ActionWithElement) -> None:
        raise RuntimeError("recorder bug")

    bridge = BrowserCaptureBridge(callback=boom)
    assert bridge.handle(json.dumps(CLICK))["ok"] is True


def test_real_websocket_burst_and_a_client_that_vanishes(tmp_path: Path) -> None:
    out = tmp_path / "a.jsonl"
    got: list[ActionWithElement] = []

    async def scenario() -> None:
        async with BrowserCaptureBridge(out, callback=got.append, port=0, ack=False) as bridge:
            url = f"ws://127.0.0.1:{bridge.port}"
            async with connect(url) as ws:
                for i in range(1000):
                    await ws.send(json.dumps({**CLICK, "x": i}))
                await ws.send("garbage")
                await ws.send(json.dumps(CLICK))
            # A raw client that sends half a frame header and a partial payload, then leaves.
            raw = socket.create_connection(("127.0.0.1", bridge.port))
            raw.sendall(
                b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            )
            await asyncio.sleep(0.2)
            raw.sendall(bytes([0x81, 0xFE, 0x01, 0x00]) + b"\x00\x00\x00\x00" + b'{"type":')
            raw.close()
            await asyncio.sleep(0.2)
            async with connect(url) as ws:  # the server is still up
                await ws.send(json.dumps(CLICK))
            for _ in range(100):
                if bridge.accepted >= 1002:
                    break
                await asyncio.sleep(0.02)
            assert (bridge.accepted, bridge.rejected) == (1002, 1)

    asyncio.run(scenario())
    actions = _lines(out)
    assert len(actions) == len(got) == 1002
    assert [a.x for a in actions[:1000]] == list(range(1000))


def test_acknowledges_each_message(tmp_path: Path) -> None:
    async def scenario() -> list[dict[str, object]]:
        bridge = BrowserCaptureBridge(tmp_path / "a.jsonl", port=0)
        await bridge.start()
        async with connect(f"ws://127.0.0.1:{bridge.port}") as ws:
            await ws.send(json.dumps(CLICK))
            first = json.loads(await ws.recv())
            await ws.send("[1]")
            second = json.loads(await ws.recv())
        await bridge.stop()
        return [first, second]

    first, second = asyncio.run(scenario())
    assert first == {"ok": True, "accepted": 1}
    assert second["ok"] is False and "JSON object" in str(second["error"])
