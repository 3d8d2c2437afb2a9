"""Elements inside frames on live pages, in headless Chromium: observed, resolved and acted on.

Three kinds of frame, each holding a button that is also named on the page around it (so the
container path decides): a same-origin frame with a frame inside it (``fixtures/live/
frames.html``), a frame of another origin of the same site (drawn by the page's own process,
out of the page script's reach), and a frame of another site (drawn by another process,
read on its own CDP session). The checkout page's frame has a 7 px border and a 5 px
padding. For each button: ``observe`` -> ``resolve`` -> ``act`` must reach it (the page
notes the click), ``to_locator`` must select exactly it (a click through it is noted too),
``durable_locators`` must verify a
role locator, and the box observed must be where Playwright finds the element (in the
cross-site frame, where a click reaches it: Playwright leaves the frame element's border and
padding out there). Timed: ``observe`` (no screenshot), ``act`` on the first button, and
the plan that looks for cross-site frames (medians of ``--repeat``). Last, a cross-site
frame whose script never returns: the first two observations are timed, and the frame must
be named as not read.

Usage::

    python -m benchmarks.live.frames [--repeat 30] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.append(str(ROOT))  # (last: run as a file, the library may come from PYTHONPATH)

from live_browser import browser_missing, chromium, served  # noqa: E402

from benchmarks.live.speed import _ms  # noqa: E402
from resolver import ResolutionError, SemanticElementRef, resolve  # noqa: E402
from resolver.act import durable_locators  # noqa: E402
from resolver.integrations import playwright as live  # noqa: E402

# A button: its name, the container it is in, what the page notes of a click on it, and the
# frames to enter to find it with Playwright.
Button = tuple[str, str, str, tuple[str, ...]]
# (kind, page, its buttons, how far Playwright places the boxes from where they are drawn)
Case = tuple[str, str, list[Button], float]


def _cases(one: int, two: int) -> list[Case]:
    checkout = f"http://127.0.0.1:{one}/checkout.html?"
    return [
        ("same origin, nested", (ROOT / "fixtures" / "live" / "frames.html").as_uri(),
         [("Save", "Billing address", "frame-save", ("iframe",)),
          ("Pay now", "Card", "card-pay", ("iframe", "iframe"))], 0.0),
        ("another origin, same site", f"{checkout}http://127.0.0.1:{two}/card.html",
         [("Pay", "Card", "frame-pay", ("#card",))], 0.0),
        ("another site", f"{checkout}http://localhost:{two}/card.html",
         [("Pay", "Card", "frame-pay", ("#card",))], 12.0),
    ]  # fmt: skip


def _check(page: Any, obs: Any, button: Button, shift: float) -> dict[str, Any]:
    """What each step did for one button: ``True``, ``False`` (it did something else), or
    the error it raised."""
    name, inside, noted, frames = button
    ref = SemanticElementRef(role="button", name=name, container_path=(inside,))
    out: dict[str, Any] = {"name": name}
    try:
        res = resolve(ref, obs, coords_fallback="never")
    except ResolutionError as exc:
        return {**out, "resolved": exc.code.value}
    frame = page
    for selector in frames:
        frame = frame.frame_locator(selector)
    drawn = frame.get_by_role("button", name=name).bounding_box()
    box = res.candidate.bbox or (float("nan"),) * 4
    out["resolved"] = True
    out["remote"] = res.executor_id in getattr(obs, "targets", {})
    out["placed"] = (
        abs(box[0] - drawn["x"] - shift) <= 0.5 and abs(box[1] - drawn["y"] - shift) <= 0.5
    )
    steps: dict[str, Callable[[], bool]] = {
        "acted": lambda: _acted(page, res, obs, noted),
        "located": lambda: _located(page, res, obs, noted),
        "durable_role": lambda: durable_locators(page, res, obs).role is not None,
    }
    for step, run in steps.items():
        try:
            out[step] = run()
        except Exception as exc:  # (what the code before did: kept as the outcome)
            out[step] = type(exc).__name__
    return out


def _acted(page: Any, res: Any, obs: Any, noted: str) -> bool:
    live.act(page, res, observation=obs)
    page.wait_for_timeout(300)  # (a frame's click reaches the page as a message)
    seen = page.evaluate("window.seen.splice(0)")
    return bool(seen == [noted])


def _located(page: Any, res: Any, obs: Any, noted: str) -> bool:
    """Whether ``to_locator`` selects exactly the button (a click through it is noted)."""
    located = live.to_locator(page, res, obs)
    if located.count() != 1:
        return False
    located.evaluate("(e) => e.click()")
    page.wait_for_timeout(300)
    return bool(page.evaluate("window.seen.splice(0)") == [noted])


def _timed(page: Any, repeat: int, button: Button) -> dict[str, float | None]:
    """``observe``; ``act`` on the case's first button (a click that the page notes);
    the plan that looks for cross-site frames (``None`` where there is none)."""
    obs = live.observe(page, screenshot=False)
    ref = SemanticElementRef(role="button", name=button[0], container_path=(button[1],))
    res = resolve(ref, obs, coords_fallback="never")
    times = {
        "observe_ms": _ms(lambda: live.observe(page, screenshot=False), repeat),
        "act_ms": _ms(lambda: live.act(page, res, observation=obs), repeat),
    }
    page.evaluate("window.seen.splice(0)")
    try:
        from resolver.integrations import cdp
    except ImportError:  # (a library that reads no cross-site frame, as at 60df9c5)
        return {**times, "frame_plan_ms": None}
    main = cdp._session(page)
    run = lambda: cdp._drive_remote(page, cdp._remote_plan(main, list(page.frames)), main)  # noqa: E731
    return {**times, "frame_plan_ms": _ms(run, repeat)}


def measure(repeat: int) -> list[dict[str, Any]]:
    """Every case's checks and timings."""
    rows = []
    with served(2) as (one, two), chromium() as browser:
        for kind, url, buttons, shift in _cases(one, two):
            page = browser.new_page(viewport={"width": 1000, "height": 700})
            page.goto(url)
            page.frame_locator(buttons[0][3][0]).get_by_role("button").first.wait_for()
            page.wait_for_timeout(200)
            obs = live.observe(page, screenshot=False)
            checks = [_check(page, obs, button, shift) for button in buttons]
            rows.append({"kind": kind, "checks": checks, **_timed(page, repeat, buttons[0])})
            page.close()
        rows.append(_silent(browser, f"http://127.0.0.1:{one}/checkout.html?"
                                     f"http://localhost:{two}/busy.html"))  # fmt: skip
    return rows


def _silent(browser: Any, url: str) -> dict[str, Any]:
    """A cross-site frame whose script never returns: how long the first two observations
    take, and whether the frame is named as not read (the page's own button still found)."""
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    page.goto(url)
    page.wait_for_timeout(600)
    seconds, named = [], []
    for _ in range(2):
        start = time.perf_counter()
        obs = live.observe(page, screenshot=False)
        seconds.append(time.perf_counter() - start)
        unread = getattr(obs, "unread_frames", ())
        named.append(any(u.endswith("/busy.html") for u in unread))
    found = resolve(SemanticElementRef(role="button", name="Pay"), obs).executor_id
    page.close()
    return {"kind": "another site, never answers", "seconds": seconds, "named": named,
            "found": bool(found)}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=30, help="timings per case (medians)")
    parser.add_argument("--json", type=Path, help="write the rows here")
    args = parser.parse_args(argv)
    if (why := browser_missing()) is not None:
        print(f"skipped: {why}")
        return 0
    rows = measure(args.repeat)
    failed = 0
    for row in rows:
        if "seconds" in row:
            first, again = row["seconds"]
            failed += not (all(row["named"]) and row["found"])
            print(
                f"{row['kind']:26} observed in {first:.2f} s, then {again:.2f} s; named as "
                f"not read: {row['named']}; the page's own button found: {row['found']}"
            )
            continue
        for check in row["checks"]:
            marks = [f"{k} {v}" for k, v in check.items() if k != "name" and v is not True]
            marks = [m for m in marks if not m.startswith("remote")]
            failed += bool(marks)
            where = "its own session" if check.get("remote") else "the page's session"
            print(f"{row['kind']:26} {check['name']:8} read on {where:18} "
                  f"{'ok' if not marks else 'FAILED: ' + ', '.join(marks)}")  # fmt: skip
        plan = "-" if row["frame_plan_ms"] is None else f"{row['frame_plan_ms']:.2f}"
        print(f"{'':26} observe {row['observe_ms']:.1f} ms; act {row['act_ms']:.1f} ms; "
              f"the frame plan alone {plan} ms (medians of {args.repeat})")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2), encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
