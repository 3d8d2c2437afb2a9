"""The same calls with Playwright's sync and async APIs, side by side, in headless Chromium.

On ``fixtures/live/own_scripts.html``: ``observe`` (no screenshot), ``act`` (a click on a
resolution, checked), ``act`` typing into a field given by a reference (resolved on a fresh
observation inside the call) and ``execute`` of one click by CSS. Each is timed ``--repeat``
times with each API (medians, milliseconds), the two APIs in turn, in one process: the sync
API's browser runs in a worker thread, the async one on an event loop in the main thread.
With the async API ``act`` and ``execute`` run their steps in a worker thread
(:mod:`resolver.integrations.threaded`); the ratio shows what that costs. Every call must
reach its element (the page's click log and the field's value are checked).

Usage::

    python -m benchmarks.live.async_api [--repeat 30] [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from live_browser import ARGS, CHROMIUM, browser_missing, chromium  # noqa: E402

from resolver import ActionWithElement, SemanticElementRef, resolve  # noqa: E402
from resolver.act import execute  # noqa: E402
from resolver.integrations.playwright import act, observe  # noqa: E402

PAGE = (ROOT / "fixtures" / "live" / "own_scripts.html").as_uri()
SAVE = SemanticElementRef(role="button", name="Save")
NAME = SemanticElementRef(role="textbox", name="Name")
TYPE = ActionWithElement(type="type", text="a", element=NAME)
CALLS = ("observe", "act", "act_ref_type", "execute")


def _calls(page: Any, obs: Any) -> dict[str, Callable[[], Any]]:
    """The timed calls on ``page`` (either API: with the async one each returns an
    awaitable), ``act`` on Save as resolved in ``obs``."""
    res = resolve(SAVE, obs)
    return {
        "observe": lambda: observe(page, screenshot=False),
        "act": lambda: act(page, res, observation=obs),
        "act_ref_type": lambda: act(page, NAME, TYPE),
        "execute": lambda: execute(page, [{"action": "click", "target": "css=#save"}]),
    }


def _checked(clicks: list[str], value: str, repeat: int) -> bool:
    """Every click reached Save and every typing the field (``repeat`` of each, plus the
    warm-up round)."""
    return clicks == ["save"] * 2 * (repeat + 1) and value == "a" * (repeat + 1)


def _sync_side(pool: ThreadPoolExecutor) -> tuple[Callable[[str], float], dict[str, Any]]:
    """The sync API in ``pool``'s one thread: a function timing one call there (ms), and
    the browser, page and calls it uses."""
    state: dict[str, Any] = {}

    def start() -> None:
        state["browser"] = chromium()
        page = state["browser"].__enter__().new_page(viewport={"width": 900, "height": 700})
        page.goto(PAGE)
        state["page"], state["calls"] = page, _calls(page, observe(page, screenshot=False))

    pool.submit(start).result()

    def timed(name: str) -> float:
        def run() -> float:
            began = time.perf_counter()
            state["calls"][name]()
            return (time.perf_counter() - began) * 1e3

        return pool.submit(run).result()

    return timed, state


async def _measure(repeat: int) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    times: dict[str, dict[str, list[float]]] = {
        api: {c: [] for c in CALLS} for api in ("sync", "async")
    }
    with ThreadPoolExecutor(1) as pool:
        sync_timed, state = _sync_side(pool)
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = await browser.new_page(viewport={"width": 900, "height": 700})
            await page.goto(PAGE)
            calls = _calls(page, await observe(page, screenshot=False))
            for round_ in range(repeat + 1):  # (the first round warms up, untimed)
                for name in CALLS:
                    took = sync_timed(name)
                    began = time.perf_counter()
                    await calls[name]()
                    if round_:
                        times["sync"][name].append(took)
                        times["async"][name].append((time.perf_counter() - began) * 1e3)
            ok_async = _checked(await page.evaluate("clicks"),
                                await page.input_value("#name"), repeat)  # fmt: skip
            await browser.close()

        def finish() -> bool:
            page = state["page"]
            ok = _checked(page.evaluate("clicks"), page.input_value("#name"), repeat)
            state["browser"].__exit__(None, None, None)
            return ok

        ok_sync = pool.submit(finish).result()
    medians = {api: {c: statistics.median(v) for c, v in calls_.items()}
               for api, calls_ in times.items()}  # fmt: skip
    return {
        "repeat": repeat,
        "medians_ms": medians,
        "reached": {"sync": ok_sync, "async": ok_async},
    }


def _table(out: dict[str, Any]) -> str:
    """The medians, one line per call, and the ratio."""
    lines = [f"{'call':<14}{'sync ms':>10}{'async ms':>10}{'async/sync':>12}"]
    for name in CALLS:
        s, a = out["medians_ms"]["sync"][name], out["medians_ms"]["async"][name]
        lines.append(f"{name:<14}{s:>10.1f}{a:>10.1f}{a / s:>12.2f}")
    return "\n".join([*lines, f"every call reached its element: {out['reached']}"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=30, help="timings per call and API")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    why = browser_missing()
    out = None if why else asyncio.run(_measure(args.repeat))
    print(f"skipped: {why}" if out is None else _table(out))
    if out is not None and args.json:
        args.json.write_text(json.dumps(out, indent=2))
    return 0 if out is None or all(out["reached"].values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
