"""What ``resolver.act.execute`` reports when a click opens a tab.

``fixtures/live/tabs.html`` in headless Chromium: "Open the users" is a link with
``target="_blank"``, "Pop up the shop" calls ``window.open``, "Stay here" opens nothing.
Each is clicked alone on a fresh page, then all three in one call. Per case: whether the call
reported success, the tabs it listed as opened (with the action that opened each), and the
tabs the browser context holds right after the call. Run it on another checkout's library to
compare::

    python benchmarks/live/tabs.py
    PYTHONPATH=<checkout> python benchmarks/live/tabs.py
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from live_browser import browser_missing, chromium  # noqa: E402

from resolver.act import execute  # noqa: E402

PAGE = (ROOT / "fixtures" / "live" / "tabs.html").as_uri()
CONTROLS = ("Open the users", "Pop up the shop", "Stay here")


def run_case(browser: Any, controls: tuple[str, ...]) -> dict[str, Any]:
    """Click ``controls`` in one call on a fresh context; what the call and the context say."""
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    try:
        page = context.new_page()
        page.goto(PAGE)
        actions = [{"action": "click", "target": f"text={c}"} for c in controls]
        result = execute(page, actions)
        opened = [f"{o.action_index}:{o.url.rsplit('/', 1)[-1]}"
                  for o in getattr(result, "opened", ())]  # fmt: skip
        tabs = [p.url.rsplit("/", 1)[-1] for p in context.pages]
    finally:
        context.close()
    return {"case": " + ".join(controls), "success": result.success,
            "opened": " ".join(opened) or "-", "tabs": " ".join(tabs)}  # fmt: skip


def main() -> int:
    """Print one line per case, and how many calls opened a tab without listing it."""
    missing = browser_missing()
    if missing is not None:
        print(f"skipped: {missing}")
        return 0
    with chromium() as browser:
        rows = [run_case(browser, (c,)) for c in CONTROLS] + [run_case(browser, CONTROLS)]
    print(f"{'case':<46} {'success':<8} {'listed as opened':<32} tabs right after the call")
    unlisted = 0
    for row in rows:
        print(f"{row['case']:<46} {row['success']!s:<8} {row['opened']:<32} {row['tabs']}")
        unlisted += len(row["tabs"].split()) - 1 > (0 if row["opened"] == "-" else
                                                     len(row["opened"].split()))  # fmt: skip
    print(f"calls that opened a tab not listed: {unlisted} of {len(rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
