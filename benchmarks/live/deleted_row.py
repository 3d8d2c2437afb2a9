"""A deleted table row's button, recorded every way the library records one.

``fixtures/live/users.html`` (Alice, Bob, Carol, a "Delete" button per row) in headless
Chromium: each user's button is recorded five ways (the in-page recorder's event,
``record_click`` on the a11y and on the DOM source, ``from_playwright``, and that reference
completed with ``complete_ref``) and resolved with each source alone on five versions of the
page (unchanged, Bob's row deleted, Alice's row deleted, the rows sorted, Bob's e-mail
edited). A resolution is ``right`` (the user's own row), ``wrong`` (another user's row) or
``refused``; for a deleted row's button only ``refused`` is right. Prints the counts, and the
refusing rules where the library names them::

    python -m benchmarks.live.deleted_row
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from live_browser import browser_missing, chromium, record_every_way  # noqa: E402

from resolver import ResolutionError, resolve  # noqa: E402
from resolver.integrations.playwright import observe  # noqa: E402

URL = (ROOT / "fixtures" / "live" / "users.html").as_uri()
ROWS = "#users tbody tr"
USERS = ("Alice", "Bob", "Carol")
CHANGES = {
    "unchanged": "",
    "Bob's row deleted": f"document.querySelectorAll('{ROWS}')[1].remove()",
    "Alice's row deleted": f"document.querySelectorAll('{ROWS}')[0].remove()",
    "rows sorted": "const b = document.querySelector('#users tbody');"
    " [...b.rows].reverse().forEach(r => b.appendChild(r))",
    "Bob's e-mail edited": f"document.querySelectorAll('{ROWS}')[1].cells[1].textContent"
    " = 'bob@new.org'",
}
GONE = {("Bob", "Bob's row deleted"), ("Alice", "Alice's row deleted")}


def _references(browser: Any) -> dict[str, dict[str, Any]]:
    refs: dict[str, dict[str, Any]] = {}
    for n, user in enumerate(USERS, 1):
        selector = f"{ROWS}:nth-child({n}) button"
        refs[user] = record_every_way(browser, URL, selector, {"width": 1000, "height": 700})
    return refs


def main() -> int:
    """Run the scenarios and print the counts."""
    if (why := browser_missing()) is not None:
        print(f"skipped: {why}")
        return 0
    counts: Counter[tuple[str, str]] = Counter()
    rules: Counter[str] = Counter()
    with chromium() as browser:
        refs = _references(browser)
        page = browser.new_page(viewport={"width": 1000, "height": 700})
        for change, script in CHANGES.items():
            page.goto(URL)
            if script:
                page.evaluate(script)
            obs = observe(page, screenshot=False)
            for user, by_recorder in refs.items():
                kind = "removed" if (user, change) in GONE else "present"
                for ref in by_recorder.values():
                    for source in ("a11y", "dom"):
                        try:
                            found = resolve(ref, obs, sources=(source,))
                        except ResolutionError as exc:
                            counts[(kind, "refused")] += 1
                            rules[str(getattr(exc.evidence, "rule", "") or "-")] += 1
                            continue
                        row = found.candidate.container_path[-1].split()[0]
                        counts[(kind, "right" if row == user else "wrong")] += 1
    for kind in ("present", "removed"):
        cells = ", ".join(f"{v} {counts[(kind, v)]}" for v in ("right", "wrong", "refused"))
        print(f"{kind}: {cells}")
    print("refused by: " + (", ".join(f"{r} {n}" for r, n in rules.most_common()) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
