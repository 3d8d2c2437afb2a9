"""End-to-end replay on the fixture pages in headless Chromium, through the shims.

For each of the six fixture pages (``fixtures/pages``), every labelled element
(``data-fixture-key``) that has a box in the first viewport is clicked at its centre with
the mouse on the base page while the
in-page recorder (:data:`resolver.capture.page_script.RECORDER_JS`) runs; its events become
actions through :func:`resolver.capture.action_from_event` (the Chrome shim). Each action is
then replayed on the base page and on the changed versions ``.v2`` and ``.v3`` through
``observe`` -> ``resolve`` -> ``act``; the page notes which labelled element received each
click; the element the recorded click reached is the one the replayed click must reach.
The labels are moved out of the DOM before anything is recorded or observed.
A second recorder, ``record_click`` (coordinates -> ``element_at_point`` on an
observation), is replayed the same way.

Usage::

    python -m benchmarks.live.replay [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from live_browser import browser_missing, chromium  # noqa: E402

from resolver import ActionWithElement, ResolutionError, resolve  # noqa: E402
from resolver.capture import action_from_event, record_click  # noqa: E402
from resolver.capture.page_script import RECORDER_JS  # noqa: E402
from resolver.integrations.playwright import act, observe  # noqa: E402

PAGES = ("login", "table", "settings", "nav", "naming", "hidden")
# Moves the labels into a map (so nothing observed carries them) and notes clicked labels.
LABELS_JS = """
(() => {
  const keys = new Map();
  window.clickedKeys = [];
  const take = () => document.querySelectorAll("[data-fixture-key]").forEach((el) => {
    keys.set(el, el.getAttribute("data-fixture-key"));
    el.removeAttribute("data-fixture-key");
  });
  window.keyBox = (key) => {
    for (const [el, k] of keys) if (k === key) {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 ? [r.left, r.top, r.width, r.height] : null;
    }
    return null;
  };
  window.allKeys = () => Array.from(keys.values());
  document.addEventListener("DOMContentLoaded", take);
  document.addEventListener("click", (e) => {
    let el = e.composedPath().find((n) => n.nodeType === 1);
    while (el && !keys.has(el)) el = el.parentElement;
    window.clickedKeys.push(el ? keys.get(el) : null);
    e.preventDefault();
  }, true);
})();
"""


def _open(browser: Any, name: str, recorder: bool) -> Any:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.add_init_script(LABELS_JS)
    if recorder:
        page.add_init_script(RECORDER_JS)
    page.goto((ROOT / "fixtures" / "pages" / f"{name}.html").as_uri())
    return page


def record_page(browser: Any, name: str) -> dict[str, dict[str, ActionWithElement]]:
    """Per recorder (``chrome``, ``point``), the actions of every clickable label."""
    page = _open(browser, name, recorder=True)
    out: dict[str, dict[str, ActionWithElement]] = {"chrome": {}, "point": {}}
    for key in page.evaluate("allKeys()"):
        box = page.evaluate(f"keyBox({key!r})")
        if box is None or box[1] + box[3] / 2 > 800:  # hidden, or below the fold
            continue
        x, y = box[0] + box[2] / 2, box[1] + box[3] / 2
        point = record_click(x, y, observe(page, screenshot=False))
        before = len(page.evaluate("window.__resolverEvents"))
        page.mouse.click(x, y)
        events = page.evaluate("window.__resolverEvents")
        # The truth is the labelled element that received the recorded click (a click at
        # a container's centre lands on whatever is drawn there).
        hit = page.evaluate("window.clickedKeys[window.clickedKeys.length - 1]")
        if hit is None or hit in out["point"]:
            continue
        out["point"][hit] = point
        if len(events) > before:
            out["chrome"][hit] = action_from_event(events[-1])
    page.close()
    return out


def replay_page(browser: Any, name: str, actions: dict[str, ActionWithElement]) -> dict[str, int]:
    counts = {"correct": 0, "wrong": 0, "abstained": 0, "removed_answered": 0, "removed": 0}
    page = _open(browser, name, recorder=False)
    present = set(page.evaluate("allKeys()"))
    for key, action in actions.items():
        if action.element is None:
            continue
        gone = key not in present
        counts["removed"] += gone
        obs = observe(page, screenshot=False)
        try:
            act(page, resolve(action.element, obs, coords_fallback="never"), action,
                observation=obs)  # fmt: skip
        except ResolutionError:
            counts["abstained"] += not gone
            continue
        clicked = page.evaluate("window.clickedKeys[window.clickedKeys.length - 1]")
        if gone:
            counts["removed_answered"] += 1
        else:
            counts["correct" if clicked == key else "wrong"] += 1
    page.close()
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if (why := browser_missing()) is not None:
        print(f"skipped: {why}")
        return 0
    rows: list[dict[str, Any]] = []
    started = time.monotonic()
    with chromium() as browser:
        for name in PAGES:
            recorded = record_page(browser, name)
            for version in (name, f"{name}.v2", f"{name}.v3"):
                for recorder, actions in recorded.items():
                    counts = replay_page(browser, version, actions)
                    rows.append({"page": version, "recorder": recorder, **counts})
                    print(version, recorder, counts, flush=True)
    totals: dict[str, dict[str, int]] = {}
    for row in rows:
        kind = "unchanged" if "." not in row["page"] else "changed"
        total = totals.setdefault(f"{row['recorder']}/{kind}", {})
        for k, v in row.items():
            if isinstance(v, int):
                total[k] = total.get(k, 0) + v
    for label, total in totals.items():
        n = total["correct"] + total["wrong"] + total["abstained"]
        print(f"{label}: {total['correct']}/{n} correct, {total['wrong']} wrong, "
              f"{total['abstained']} abstained; removed answered "
              f"{total['removed_answered']}/{total['removed']}")  # fmt: skip
    print(f"{time.monotonic() - started:.0f} s")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "totals": totals}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
