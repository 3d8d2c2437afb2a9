"""The HTTP API over loopback: uvicorn in a thread on a free port, plain urllib requests."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from live_browser import CHROMIUM, ROOT, browser_missing

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing())),
]
PAGE = (ROOT / "fixtures" / "live" / "rerender.html").as_uri()


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    import uvicorn

    from resolver.server.http import HOST, build_app
    from resolver.server.worker import BrowserWorker

    worker = BrowserWorker(CHROMIUM)
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(build_app(worker, max_body=10_000), host=HOST, port=port, log_level="error")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    yield f"http://{HOST}:{port}"
    server.should_exit = True
    thread.join(10)
    worker.close()


def _call(url: str, body: bytes | dict[str, Any] | None = None, **headers: str) -> Any:
    data = json.dumps(body).encode() if isinstance(body, dict) else body
    request = urllib.request.Request(
        url,
        data=data,
        method="GET" if data is None else "POST",
        headers={"Content-Type": "application/json", **headers},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        text = exc.read()
        return exc.code, json.loads(text) if text.startswith(b"{") else text.decode()


def test_catalog_and_execute_over_loopback(base: str) -> None:
    assert _call(f"{base}/navigate", {"url": PAGE + "?keyed"})[1]["title"] == "Team"
    status, catalog = _call(f"{base}/catalog/refresh", b"")
    assert status == 200 and catalog["elements"] == 15
    assert _call(f"{base}/catalog")[1]["version"] == catalog["version"]
    # Sort, then Bob's Delete by the index read before the sort.
    actions = [{"action": "click", "target": "index=1"}, {"action": "click", "target": "index=4"}]
    status, result = _call(
        f"{base}/execute", {"actions": actions, "expected_catalog_version": catalog["version"]}
    )
    assert status == 200 and result["success"] and result["complete"] == 2, result["error"]
    again = _call(
        f"{base}/execute", {"actions": actions[:1], "expected_catalog_version": catalog["version"]}
    )[1]
    assert again["error"]["code"] == "CATALOG_OUTDATED"


def test_bad_bodies_are_refused(base: str) -> None:
    status, answer = _call(f"{base}/execute", b"{not json")
    assert status == 400 and answer["error"]["code"] == "VALIDATION_ERROR"
    status, answer = _call(f"{base}/execute", b"[1, 2]")
    assert status == 400 and answer["error"]["code"] == "VALIDATION_ERROR"
    status, answer = _call(f"{base}/execute", {"actions": [{"action": "x" * 20_000}]})
    assert status == 413 and answer["error"]["code"] == "VALIDATION_ERROR"
    status, answer = _call(f"{base}/execute", {"actions": "click"})
    assert status == 200 and answer["error"]["code"] == "VALIDATION_ERROR"
    status, _ = _call(f"{base}/catalog", Host="evil.example")
    assert status == 400  # not a loopback Host: refused by the host check


CUT_EMOJI = (
    "data:text/html,<title>Cut</title><button id=b>x</button><a href=%23>Menu</a><script>"
    "document.getElementById('b').textContent = 'Buy ' + '\\uD83D\\uDE00'.slice(0, 1)</script>"
)


def test_a_name_cut_inside_a_character_is_answered_as_json(base: str) -> None:
    """A page script that cuts a name inside an emoji leaves half of it, which UTF-8 cannot
    carry: the catalog still answers, in JSON, with U+FFFD in its place."""
    assert _call(f"{base}/navigate", {"url": CUT_EMOJI})[1]["title"] == "Cut"
    status, catalog = _call(f"{base}/catalog/refresh", b"")
    assert status == 200 and catalog["ok"], catalog
    assert "Buy \ufffd" in catalog["catalog"] and "Menu" in catalog["catalog"]
    actions = [{"action": "click", "target": "index=0"}]
    status, result = _call(
        f"{base}/execute", {"actions": actions, "expected_catalog_version": catalog["version"]}
    )
    assert status == 200 and result["success"], result


def test_tabs_are_listed_and_selected(base: str) -> None:
    tabs_page = (ROOT / "fixtures" / "live" / "tabs.html").as_uri()
    assert _call(f"{base}/navigate", {"url": tabs_page})[1]["title"] == "Start"
    click = [{"action": "click", "target": "text=Open the users"}]
    status, result = _call(f"{base}/execute", {"actions": click})
    assert status == 200 and result["success"] and len(result["opened"]) == 1
    status, listed = _call(f"{base}/tabs")
    assert status == 200 and [t["current"] for t in listed["tabs"]][-2:] == [True, False]
    last = listed["tabs"][-1]["index"]
    status, chosen = _call(f"{base}/tabs/select", {"index": last})
    assert status == 200 and chosen["tabs"][-1]["current"]
    assert _call(f"{base}/catalog/refresh", b"")[1]["title"] == "Users"
    status, refused = _call(f"{base}/tabs/select", {"index": "first"})
    assert status == 200 and refused["error"]["code"] == "VALIDATION_ERROR"


def test_a_screenshot_with_the_indexes_of_the_catalog_it_returns(base: str) -> None:
    import base64

    assert _call(f"{base}/navigate", {"url": PAGE})[1]["ok"]
    status, shot = _call(f"{base}/screenshot")
    assert status == 200 and shot["ok"] and shot["marked"] == list(range(11))
    assert _call(f"{base}/catalog")[1]["version"] == shot["version"]
    picture = base64.b64decode(shot["image"])
    assert picture.startswith(b"\x89PNG") and (shot["width"], shot["height"]) == (1280, 800)
    status, plain = _call(f"{base}/screenshot?marks=false")
    assert status == 200 and plain["marked"] == [] and plain["image"] != shot["image"]
    status, refused = _call(f"{base}/screenshot?marks=maybe")
    assert status == 400 and refused["error"]["code"] == "VALIDATION_ERROR"
    # A modal over the page: only its own button is drawn, the page's are listed covered.
    assert _call(f"{base}/navigate", {"url": PAGE + "?do=modal"})[1]["ok"]
    status, modal = _call(f"{base}/screenshot")
    assert status == 200 and len(modal["marked"]) == 1 and len(modal["covered"]) == 11
    assert shot["covered"] == [] and plain["covered"] == []
