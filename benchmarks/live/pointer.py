"""A press where the page moves things when the pointer arrives, through ``act``.

``fixtures/live/pointer.html`` in headless Chromium: a menu opens while the pointer is over
"Account" and pushes the buttons below it 40 px down; "Edit" and "Delete" are 40 px high, one
under the other. With the menu open, "Edit" is resolved and clicked with
:func:`resolver.integrations.playwright.act`: on its way there the pointer leaves the menu,
which closes, and "Delete" moves up to where "Edit" was measured. The page logs which button
got the press. Run ``--tries`` times on a fresh page; run it on another checkout's library
to compare::

    python benchmarks/live/pointer.py [--tries 10]
    PYTHONPATH=<checkout> python benchmarks/live/pointer.py
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from live_browser import live_tab  # noqa: E402

from resolver import ActionWithElement, ResolutionError, SemanticElementRef, resolve  # noqa: E402
from resolver.integrations.playwright import act, observe  # noqa: E402

PAGE = (ROOT / "fixtures" / "live" / "pointer.html").as_uri()


def one_try(page: Any) -> str:
    """Open the menu, click Edit; which button the page saw pressed (or the refusal)."""
    page.goto(PAGE)
    obs = observe(page, screenshot=False)
    account = resolve(SemanticElementRef(role="button", name="Account"), obs)
    act(page, account, ActionWithElement(type="hover"), observation=obs)
    opened = observe(page, screenshot=False)
    try:
        act(page, resolve(SemanticElementRef(role="button", name="Edit"), opened),
            observation=opened, reobserve=False)  # fmt: skip
    except ResolutionError as exc:
        return f"refused ({exc.code.value})"
    page.wait_for_timeout(50)
    events = [e for e in page.evaluate("window.events") if e != "hover"]
    return " ".join(events) or "nothing"


def main(argv: list[str] | None = None) -> int:
    """Print what each try pressed, counted."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=10)
    options = parser.parse_args(argv)
    with live_tab(800, 600) as page:
        if page is None:
            return 0
        seen = Counter(one_try(page) for _ in range(options.tries))
    for pressed, count in seen.most_common():
        print(f"Edit clicked, the page saw: {pressed:<24} {count} of {options.tries}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
