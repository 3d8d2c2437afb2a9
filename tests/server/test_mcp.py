"""The MCP server over stdio, driven by the SDK's own client launching ``python -m resolver
mcp``: navigate, catalog, execute by index (across re-renders), resolve and snapshot."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import sys
from typing import Any

import pytest
from live_browser import CHROMIUM, ROOT, browser_missing

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing())),
]
PAGE = (ROOT / "fixtures" / "live" / "rerender.html").as_uri()
DIALOGS = (ROOT / "fixtures" / "live" / "dialogs.html").as_uri()
TABS = (ROOT / "fixtures" / "live" / "tabs.html").as_uri()


CUT_EMOJI = (
    "data:text/html,<title>Cut</title><button>x</button><script>"
    "document.querySelector('button').textContent = 'Buy ' + '\\uD83D\\uDE00'.slice(0, 1)"
    "</script>"
)


def _session_calls(calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Run ``calls`` in one stdio session; each tool result's structured content (or, for a
    result with is_error, ``{"is_error": True, "text": ...}``)."""
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "resolver", "mcp", "--chromium", CHROMIUM],
        env=env, cwd=str(ROOT),
    )  # fmt: skip
    out: list[dict[str, Any]] = []

    async def main() -> None:
        with open(os.devnull, "w") as quiet:
            async with (
                stdio_client(params, errlog=quiet) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                listed = await session.list_tools()
                out.append({"tools": sorted(t.name for t in listed.tools)})
                for name, args in calls:
                    result = await session.call_tool(name, args)
                    if result.is_error:
                        out.append({"is_error": True, "text": result.content[0].text})
                    elif result.structured_content is None:  # text and pictures
                        data = json.loads(result.content[0].text)
                        pictures = [
                            base64.b64decode(c.data)
                            for c in result.content[1:]
                            if c.type == "image" and c.mime_type == "image/png"
                        ]
                        out.append({**data, "pictures": pictures})
                    else:
                        data = result.structured_content
                        assert data == json.loads(result.content[0].text)
                        out.append(data)

    anyio.run(main)
    return out


def _index(catalog_text: str, line_part: str, nth: int = 0) -> int:
    """The index of the ``nth`` catalog line containing ``line_part``."""
    hits = [line for line in catalog_text.splitlines() if line_part in line]
    return int(hits[nth].split("]")[0].split("[")[1])


@pytest.fixture(scope="module")
def session() -> list[dict[str, Any]]:
    # One server process for the module: every call the tests below read.
    ref = {"role": "button", "name": "Save", "bbox": [20, 60, 70, 90]}
    calls: list[tuple[str, dict[str, Any]]] = [
        ("navigate", {"url": PAGE + "?keyed"}),
        ("catalog", {}),
        # Bob's Delete is index 4 on the fresh page; Sort is index 1: sort, then Bob's index
        # (chosen on the catalog before the sort) in the same call.
        ("execute", {"actions": [{"action": "click", "target": "index=1"},
                                 {"action": "click", "target": "index=4"}]}),
        ("resolve", {"ref": ref}),
        ("resolve", {"ref": {"role": "button", "name": "Delete"}}),
        ("resolve", {"ref": {"role": "nonsense-role-x"}}),
        ("snapshot", {}),
        ("snapshot", {"prune": False, "redact": True}),
        ("navigate", {"url": "javascript:alert(1)"}),
        ("execute", {"actions": [{"action": "fly"}]}),
        ("execute", {"actions": [{"action": "click", "target": "index=0"}],
                     "expected_catalog_version": "000000000000"}),
        # Between catalog and execute the page re-renders (navigate to ?do=remove): Bob's
        # index is refused, not given to Carol.
        ("navigate", {"url": PAGE}),
        ("catalog", {}),
        ("navigate", {"url": PAGE + "?do=remove"}),
        ("execute", {"actions": [{"action": "click", "target": "index=4"}]}),
        ("navigate", {"url": PAGE + "?do=modal"}),
        ("execute", {"actions": [{"action": "click", "target": "index=0"}]}),
        # Rows without ids: Sort re-renders every row, then Bob's index (chosen before) is
        # clicked in the same call; the page's click log is read from the full snapshot.
        ("navigate", {"url": PAGE}),
        ("catalog", {}),
        ("execute", {"actions": [{"action": "click", "target": "index=1"},
                                 {"action": "click", "target": "index=4"}]}),
        ("snapshot", {"prune": False}),
        # "Save" renamed "Save draft" between catalog and execute: its index still names it.
        ("navigate", {"url": PAGE}),
        ("catalog", {}),
        ("navigate", {"url": PAGE + "?do=rename"}),
        ("execute", {"actions": [{"action": "click", "target": "index=0"}]}),
        ("snapshot", {"prune": False}),
        # The page re-renders itself between the catalog and the action, in the same call:
        # Bob's row removed (index 4 refused), "Save" renamed (index 0 still "Save"), a modal
        # opened over the page (index 0 refused: covered).
        ("navigate", {"url": PAGE}),
        ("catalog", {}),
        ("execute", {"actions": [{"action": "click", "target": "index=9"},
                                 {"action": "click", "target": "index=4"}]}),
        ("navigate", {"url": PAGE}),
        ("catalog", {}),
        ("execute", {"actions": [{"action": "click", "target": "index=10"},
                                 {"action": "click", "target": "index=0"}]}),
        ("navigate", {"url": PAGE}),
        ("catalog", {}),
        ("execute", {"actions": [{"action": "click", "target": "index=2"},
                                 {"action": "click", "target": "index=0"}]}),
        ("snapshot", {"prune": False}),
        # A page whose Delete asks confirm(): no answer given, then accepted.
        ("navigate", {"url": DIALOGS}),
        ("execute", {"actions": [{"action": "click", "target": "text=Delete Alice"}]}),
        ("execute", {"actions": [{"action": "click", "target": "text=Delete Alice",
                                  "dialog": "accept"}]}),
        # A link that opens a tab: listed by execute; tabs lists and selects it, and the
        # catalog is then the new tab's; a tab that is not there is refused.
        ("navigate", {"url": TABS}),
        ("execute", {"actions": [{"action": "click", "target": "text=Open the users"}]}),
        ("tabs", {}),
        ("tabs", {"select": 1}),
        ("catalog", {}),
        ("tabs", {"select": 7}),
        ("tabs", {"select": 0}),
        # The page as a picture, each element's index on it; then the same catalog as text.
        ("navigate", {"url": PAGE}),
        ("screenshot", {}),
        ("catalog", {}),
        ("screenshot", {"marks": False}),
        # Last: a page whose script cut a name inside an emoji (read by the test of that name).
        ("navigate", {"url": CUT_EMOJI}),
        ("catalog", {}),
        ("snapshot", {}),
    ]  # fmt: skip
    return _session_calls(calls)


def test_the_tools_are_listed(session: list[dict[str, Any]]) -> None:
    assert session[0] == {
        "tools": ["catalog", "execute", "navigate", "resolve", "screenshot", "snapshot", "tabs"]
    }
    assert session[1]["ok"] and session[1]["title"] == "Team" and session[1]["status"] == 200


def test_catalog_then_execute_by_index_across_a_sort(session: list[dict[str, Any]]) -> None:
    catalog = session[2]
    assert catalog["ok"] and catalog["elements"] == 15
    assert f"version {catalog['version']}" in catalog["catalog"]
    assert _index(catalog["catalog"], "button: Sort") == 1
    result = session[3]
    assert result["success"] and result["complete"] == 2 and result["is_done"], result["error"]
    # The page's click log, read back through the catalog text: after the sort and Bob's
    # delete, the session's catalog is the sorted page's, with a new version.
    assert result["observation"]["catalog_version"] != catalog["version"]
    assert result["catalog"].startswith('page "Team"')
    # Which elements got the clicks: the page's click log, read from the full snapshot.
    names = [n.get("name", "") for n in session[8]["snapshot"]["ax_tree"]["nodes"]]
    assert "Clicked: sort, delete:bob" in names


def test_resolve_answers_or_refuses_with_candidates(session: list[dict[str, Any]]) -> None:
    found, ambiguous, bad = session[4], session[5], session[6]
    assert found["resolved"] and found["executor_id"].startswith("a11y:")
    assert found["candidate"]["name"] == "Save" and found["rule"]
    assert 0 < found["confidence"] <= 1
    assert not ambiguous["resolved"] and ambiguous["error"]["code"] == "AMBIGUOUS"
    assert len(ambiguous["error"]["candidates"]) >= 2
    assert not bad["ok"] and "code" in bad["error"]


def test_snapshot_is_snapshot_v1(session: list[dict[str, Any]]) -> None:
    pruned, full = session[7]["snapshot"], session[8]["snapshot"]
    assert pruned["snapshot_version"] == 1 and full["snapshot_version"] == 1
    assert len(full["ax_tree"]["nodes"]) > len(pruned["ax_tree"]["nodes"]) > 5


def test_bad_input_is_a_result_not_an_exception(session: list[dict[str, Any]]) -> None:
    assert session[9]["error"]["code"] == "VALIDATION_ERROR"
    assert session[10]["error"]["code"] == "VALIDATION_ERROR" and session[10]["complete"] == 0
    assert session[11]["error"]["code"] == "CATALOG_OUTDATED"


def test_a_rerender_between_catalog_and_execute(session: list[dict[str, Any]]) -> None:
    assert _index(session[13]["catalog"], "button: Delete", 1) == 4
    removed = session[15]
    assert not removed["success"]
    assert removed["error"]["code"] in ("ELEMENT_NOT_FOUND", "AMBIGUOUS", "CATALOG_OUTDATED")
    covered = session[17]
    assert not covered["success"] and covered["error"]["code"] == "ELEMENT_NOT_INTERACTABLE"


def _click_log(snapshot: dict[str, Any]) -> str:
    names = [n.get("name", "") for n in snapshot["snapshot"]["ax_tree"]["nodes"]]
    return next(n for n in names if n.startswith("Clicked:"))


def test_rows_without_ids_sorted_and_a_renamed_button(session: list[dict[str, Any]]) -> None:
    assert _index(session[19]["catalog"], "button: Delete", 1) == 4
    assert _index(session[19]["catalog"], "button: Save") == 0
    sorted_then_bob = session[20]
    assert sorted_then_bob["success"] and sorted_then_bob["complete"] == 2
    assert _click_log(session[21]) == "Clicked: sort, delete:bob"
    renamed = session[25]  # the same element under its new name
    assert renamed["success"] and _click_log(session[26]) == "Clicked: save"


def test_the_server_answers_over_streamable_http_on_loopback() -> None:
    import socket
    import subprocess
    import time

    import anyio
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen(
        [sys.executable, "-m", "resolver", "mcp", "--chromium", CHROMIUM, "--http", str(port)],
        env=env, cwd=str(ROOT), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    out: dict[str, Any] = {}

    async def main() -> None:
        url = f"http://127.0.0.1:{port}/mcp"
        async with (
            streamable_http_client(url) as (read, write, *_),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            out["tools"] = sorted(t.name for t in (await session.list_tools()).tools)
            called = await session.call_tool("navigate", {"url": PAGE})
            out["navigate"] = called.structured_content
            out["catalog"] = (await session.call_tool("catalog", {})).structured_content

    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # until the server listens
            with socket.socket() as s, contextlib.suppress(OSError):
                s.connect(("127.0.0.1", port))
                break
            time.sleep(0.2)
        anyio.run(main)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert out["tools"] == [
        "catalog", "execute", "navigate", "resolve", "screenshot", "snapshot", "tabs",
    ]  # fmt: skip
    assert out["navigate"]["ok"] and out["navigate"]["title"] == "Team"
    assert "button: Delete" in out["catalog"]["catalog"]


def test_the_page_re_renders_between_catalog_and_action(session: list[dict[str, Any]]) -> None:
    listed = session[28]["catalog"]
    assert _index(listed, "button: Remove Bob") == 9 and _index(listed, "button: Rename") == 10
    removed, renamed, covered = session[29], session[32], session[35]
    assert removed["complete"] == 1 and not removed["success"]
    assert removed["error"]["code"] in ("ELEMENT_NOT_FOUND", "AMBIGUOUS")
    assert renamed["success"] and renamed["complete"] == 2
    assert covered["complete"] == 1 and covered["error"]["code"] == "ELEMENT_NOT_INTERACTABLE"
    # what the page saw clicked in the last of the three
    assert _click_log(session[36]) == "Clicked: open"


def test_a_name_cut_inside_a_character_is_answered(session: list[dict[str, Any]]) -> None:
    """Half an emoji on the page, which UTF-8 cannot carry, reads as U+FFFD in every answer."""
    navigated, catalog, snapshot = session[-3:]
    assert navigated["ok"] and navigated["title"] == "Cut"
    assert catalog["ok"] and "Buy \ufffd" in catalog["catalog"], catalog
    assert snapshot["ok"] and "Buy \ufffd" in json.dumps(snapshot, ensure_ascii=False)


def test_a_dialog_is_answered_only_as_the_action_says(session: list[dict[str, Any]]) -> None:
    refused, accepted = session[38], session[39]
    assert not refused["success"] and refused["error"]["code"] == "DIALOG_DISMISSED"
    assert [(d["type"], d["answer"]) for d in refused["dialogs"]] == [("confirm", "dismissed")]
    assert "Delete Alice" in refused["catalog"]
    assert accepted["success"] and accepted["dialogs"][0]["answer"] == "accepted"
    assert "Delete Alice" not in accepted["catalog"]


def test_a_tab_opened_by_a_click_is_listed_and_selected(session: list[dict[str, Any]]) -> None:
    clicked, listed, selected, catalog, missing, back = session[41:47]
    users = (ROOT / "fixtures" / "live" / "users.html").as_uri()
    assert clicked["success"] and clicked["opened"] == [{"action_index": 0, "url": users}]
    assert [(t["url"], t["current"]) for t in listed["tabs"]][-2:] == [
        (TABS, True), (users, False),
    ]  # fmt: skip
    assert selected["ok"] and [t["current"] for t in selected["tabs"]][-2:] == [False, True]
    assert catalog["ok"] and catalog["title"] == "Users" and "button: Delete" in catalog["catalog"]
    assert not missing["ok"] and missing["error"]["code"] == "VALIDATION_ERROR"
    assert back["ok"] and back["tabs"][0]["current"]


def test_a_screenshot_shows_the_indexes_of_the_catalog_it_returns(
    session: list[dict[str, Any]],
) -> None:
    import cv2
    import numpy as np

    marked, catalog, plain = session[48:51]
    assert marked["ok"] and marked["version"] == catalog["version"] == plain["version"]
    # Every element in view is marked: the fifteen but the select's list and options.
    assert marked["marked"] == list(range(11)) and plain["marked"] == []
    (picture,), (bare,) = marked["pictures"], plain["pictures"]
    pixels = cv2.imdecode(np.frombuffer(picture, np.uint8), cv2.IMREAD_COLOR)
    assert pixels.shape[:2] == (marked["height"], marked["width"]) == (800, 1280)
    unmarked = cv2.imdecode(np.frombuffer(bare, np.uint8), cv2.IMREAD_COLOR)
    assert pixels.shape == unmarked.shape and np.any(pixels != unmarked)
    assert "image" not in marked and marked["media_type"] == "image/png"
