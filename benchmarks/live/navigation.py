"""Observations a navigation crosses, and what the calls an observation adds cost.

``fixtures/live/replay.html`` is opened, a navigation to ``users.html`` is scheduled 0-7 ms
later (``setTimeout``, each delay in turn, ``--rounds`` times over), and ``observe`` is
called at once. An observation is *mixed* when its accessibility tree and its DOM are of
different pages (one names Carol, who is only on the users page, and the other does not),
or a button of its tree has no box (its node is not in the DOM snapshot). Counted: the
observations taken and the mixed ones. Then, on the page at rest, the medians (ms, over
``--repeat`` calls) of the two CDP calls an observation makes now besides its reading:
``Page.getFrameTree`` (the navigation check) and ``Page.createIsolatedWorld`` (the world the
document is read in).

Usage::

    python benchmarks/live/navigation.py [--rounds 5] [--repeat 50] [--json out.json]

(run as a file, the library comes from ``PYTHONPATH`` when set, to measure another checkout)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.append(str(ROOT))  # (last: run as a file, the library may come from PYTHONPATH)

from live_browser import browser_missing, chromium, served  # noqa: E402

from benchmarks.live.speed import _ms  # noqa: E402
from resolver.integrations.playwright import observe  # noqa: E402

DELAYS = range(8)


def _mixed(obs: Any) -> bool:
    """Whether the observation's tree and DOM are of two pages."""
    nodes = obs.accessibility_tree["nodes"]
    names = {(n.get("name") or {}).get("value") for n in nodes}
    buttons = [n for n in nodes if (n.get("role") or {}).get("value") == "button"]
    return ("Carol" in names) != ("Carol" in str(obs.dom_html)) or not all(
        n.get("bbox") for n in buttons
    )


def count(page: Any, base: str, rounds: int) -> dict[str, int]:
    """Observations taken right as a navigation was due, and how many were mixed."""
    taken = mixed = 0
    for _ in range(rounds):
        for delay in DELAYS:
            page.goto(f"{base}/replay.html")
            page.evaluate(f"setTimeout(() => location.href = '{base}/users.html', {delay})")
            try:
                obs = observe(page, screenshot=False)
            except Exception:  # (refused: not counted as mixed, nor as taken)
                continue
            taken += 1
            mixed += _mixed(obs)
    return {"taken": taken, "mixed": mixed}


def calls(page: Any, repeat: int) -> dict[str, float]:
    """Medians (ms) of the two calls an observation adds."""
    session = page.context.new_cdp_session(page)
    top = session.send("Page.getFrameTree")["frameTree"]["frame"]["id"]
    world = {"frameId": top, "worldName": "resolver"}
    return {
        "Page.getFrameTree": round(_ms(lambda: session.send("Page.getFrameTree"), repeat), 3),
        "Page.createIsolatedWorld": round(
            _ms(lambda: session.send("Page.createIsolatedWorld", world), repeat), 3
        ),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="times over the eight delays")
    parser.add_argument("--repeat", type=int, default=50, help="timings per call (medians)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    if (why := browser_missing()) is not None:
        print(f"skipped: {why}")
        return 0
    with served() as (port,), chromium() as browser:
        page = browser.new_page(viewport={"width": 900, "height": 700})
        out = {**count(page, f"http://127.0.0.1:{port}", args.rounds),
               "calls_ms": calls(page, args.repeat)}  # fmt: skip
    print(f"observations taken {out['taken']}, mixed {out['mixed']}; calls (ms): "
          + ", ".join(f"{k} {v}" for k, v in out["calls_ms"].items()))  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
