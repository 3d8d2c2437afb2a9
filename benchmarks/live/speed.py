"""Cost of observing a live page, per agent step, and the bridge's throughput.

- ``observe(page)`` on each fixture page (median of ``--repeat`` runs), with and without
  the screenshot;
- one agent step: ``observe`` + 10 ``resolve`` calls, against 10 Playwright
  ``get_by_role(role, name=...)`` queries (each resolved to its element's box, which is
  what locating costs), on the same page and the same 10 elements;
- the browser bridge: events per second from one WebSocket client over loopback, without
  and with a reply per event.

Usage::

    python -m benchmarks.live.speed [--repeat 5]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from live_browser import browser_missing, chromium  # noqa: E402

from resolver import ResolutionError, resolve  # noqa: E402
from resolver.capture import BrowserCaptureBridge, ref_from_row  # noqa: E402
from resolver.integrations.playwright import observe  # noqa: E402

PAGES = ("login", "table", "settings", "nav", "naming", "hidden")
ARIA = {"button", "link", "textbox", "checkbox", "combobox", "heading", "radio", "tab"}


def _ms(fn: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def page_costs(browser: Any, name: str, repeat: int) -> dict[str, float]:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto((ROOT / "fixtures" / "pages" / f"{name}.html").as_uri())
    observe(page)  # warm the CDP session
    with_shot = _ms(lambda: observe(page), repeat)
    without = _ms(lambda: observe(page, screenshot=False), repeat)
    table = observe(page, screenshot=False).candidates("a11y")
    named = [i for i in range(len(table)) if table.roles[i] in ARIA and table.names[i]]
    # Elements Playwright can locate: rendered, and found under their role and name.
    rows = [
        i for i in named
        if table.visible[i] != 0
        and page.get_by_role(table.roles[i], name=table.names[i], exact=True).count() >= 1
        and page.get_by_role(table.roles[i], name=table.names[i], exact=True).first.is_visible()
    ][:10]  # fmt: skip
    refs = [ref_from_row(table, i) for i in rows]

    def step() -> None:
        obs = observe(page, screenshot=False)
        for ref in refs:
            with contextlib.suppress(ResolutionError):  # an abstention costs the same
                resolve(ref, obs)

    def playwright() -> None:
        for i in rows:
            page.get_by_role(table.roles[i], name=table.names[i], exact=True).first.bounding_box()

    ours, theirs = _ms(step, repeat), _ms(playwright, repeat)
    page.close()
    return {"observe_ms": with_shot, "observe_no_shot_ms": without, "step_ms": ours,
            "get_by_role_ms": theirs, "ratio": ours / theirs, "targets": len(rows),
            "ax_rows": len(table)}  # fmt: skip


async def bridge_rate(events: int, ack: bool) -> float:
    from websockets.asyncio.client import connect

    click = {"type": "click", "x": 1, "y": 2,
             "element": {"tag": "button", "name": "Save", "bbox": [0, 0, 40, 30]}}  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        bridge = BrowserCaptureBridge(Path(tmp) / "a.jsonl", port=0, ack=ack)
        await bridge.start()
        start = time.perf_counter()
        async with connect(f"ws://127.0.0.1:{bridge.port}") as ws:
            for i in range(events):
                await ws.send(json.dumps({**click, "x": i}))
                if ack:
                    await ws.recv()
            while bridge.accepted < events:
                await asyncio.sleep(0.001)
        elapsed = time.perf_counter() - start
        await bridge.stop()
    return events / elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--events", type=int, default=5000)
    args = parser.parse_args(argv)
    for ack in (False, True):
        rate = asyncio.run(bridge_rate(args.events, ack))
        print(f"bridge, {'a reply per event' if ack else 'no replies'}: {rate:,.0f} events/s")
    if (why := browser_missing()) is not None:
        print(f"browser part skipped: {why}")
        return 0
    print(
        "| page | AX rows | observe | observe, no screenshot | observe + 10 resolves | "
        "10 get_by_role | ratio |"
    )
    print("|---|---|---|---|---|---|---|")
    with chromium() as browser:
        for name in PAGES:
            c = page_costs(browser, name, args.repeat)
            print(f"| {name} | {c['ax_rows']} | {c['observe_ms']:.0f} ms | "
                  f"{c['observe_no_shot_ms']:.0f} ms | {c['step_ms']:.0f} ms | "
                  f"{c['get_by_role_ms']:.0f} ms ({c['targets']} targets) | {c['ratio']:.2f} |",
                  flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
