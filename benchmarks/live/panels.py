"""Controls of one name in panels shown one at a time: dialogs, tabs and a disclosure section.

``fixtures/live/panels.html`` in headless Chromium: an account page with two tabs (Profile,
Billing), each panel with its own "Save"; two dialogs ("Delete file?", "Discard changes?"),
each with its own "OK"; and two disclosure sections (``details``: Shipping address, Invoice
address), each with its own "Apply". One panel of each kind is shown at a time. Each control
is recorded with its panel shown, five ways (the in-page recorder's click event,
``record_click`` on the a11y and on the DOM source, ``from_playwright``, and that reference
completed with ``complete_ref``), then looked for with each source alone and with the chain
(a11y, DOM, vision, no coordinates) on the page with its own panel shown (``present``: only
its own control is right) and with the other panel of its kind shown instead (``gone``:
only a refusal is right; the control there acts on something else). An answer is acted on
with :func:`resolver.integrations.playwright.act`, and what the page saw clicked decides::

    python -m benchmarks.live.panels [--json X]

Prints right / wrong / refused per kind of panel and case, the refusing rules, and each
wrong answer.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from itertools import product
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from live_browser import browser_missing, chromium, record  # noqa: E402

from resolver import ResolutionError, resolve  # noqa: E402
from resolver.capture import complete_ref, from_playwright, record_click  # noqa: E402
from resolver.integrations.playwright import act, observe  # noqa: E402

URL = (ROOT / "fixtures" / "live" / "panels.html").as_uri()
KINDS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    # kind: ((control's key, the query showing its panel), the other one)
    "tab": (("save-profile", "?tab=profile"), ("save-billing", "?tab=billing")),
    "dialog": (("ok-delete", "?dialog=delete"), ("ok-discard", "?dialog=discard")),
    "section": (("apply-shipping", "?open=shipping"), ("apply-invoice", "?open=invoice")),
}
SOURCES: dict[str, tuple[str, ...] | None] = {"a11y": ("a11y",), "dom": ("dom",), "chain": None}


def references(browser: Any, key: str, query: str) -> dict[str, Any]:
    """The control ``key`` recorded five ways on the page opened at ``query``."""
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    selector = f'[data-key="{key}"]'
    event = record(page, URL + query, {"it": selector})["it"].element
    obs = observe(page, screenshot=False)
    box = page.locator(selector).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    located = from_playwright(page.locator(selector))
    refs = {
        "event": event, "click a11y": record_click(x, y, obs).element,
        "click dom": record_click(x, y, obs, source="dom").element,
        "playwright": located, "completed": complete_ref(located, obs),
    }  # fmt: skip
    page.close()
    return refs


def clicked(page: Any, ref: Any, obs: Any, sources: tuple[str, ...] | None) -> str:
    """What the page saw clicked when the reference's answer is acted on, or ``refused:``
    and the refusing rule."""
    try:
        if sources is None:
            found = resolve(ref, obs, coords_fallback="never")
        else:
            found = resolve(ref, obs, sources=sources, coords_fallback="never")
        before = page.evaluate("window.clicked.length")
        act(page, found, observation=obs, reobserve=False)
    except ResolutionError as exc:
        return "refused:" + str(getattr(exc.evidence, "rule", "") or "-")
    seen = page.evaluate(f"window.clicked.slice({before})")
    return seen[-1] if seen else "nothing"


def _verdict(case: str, want: str, got: str) -> str:
    """``refused``, ``right`` (the recorded control, its panel shown) or ``wrong``."""
    if got.startswith("refused:"):
        return "refused"
    return "right" if case == "present" and got == want else "wrong"


def run() -> dict[str, Any]:
    """Every control, recorder, source and case: the counts and the wrong answers."""
    counts: Counter[tuple[str, str, str]] = Counter()
    rules: Counter[str] = Counter()
    wrong: list[dict[str, str]] = []
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1000, "height": 700})
        for kind, pair in KINDS.items():
            for mine, other in (pair, pair[::-1]):
                refs = references(browser, *mine)
                for case, query in (("present", mine[1]), ("gone", other[1])):
                    page.goto(URL + query)
                    obs = observe(page, screenshot=True)
                    runs = product(refs.items(), SOURCES.items())
                    for (recorder, ref), (source, sources) in runs:
                        got = clicked(page, ref, obs, sources)
                        verdict = _verdict(case, mine[0], got)
                        counts[(kind, case, verdict)] += 1
                        if verdict == "refused":
                            rules[got.partition(":")[2]] += 1
                        elif verdict == "wrong":
                            wrong.append({"recorded": mine[0], "case": case, "recorder": recorder,
                                          "source": source, "clicked": got})  # fmt: skip
    table = {
        f"{kind} {case}": {v: counts[(kind, case, v)] for v in ("right", "wrong", "refused")}
        for kind in KINDS
        for case in ("present", "gone")
    }
    return {"counts": table, "rules": dict(rules.most_common()), "wrong": wrong}


def main(argv: list[str] | None = None) -> int:
    """Run the scenarios and print the counts."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.live.panels")
    parser.add_argument("--json", type=Path, help="write the counts and wrong answers here")
    args = parser.parse_args(argv)
    if (why := browser_missing()) is not None:
        print(f"skipped: {why}")
        return 0
    result = run()
    for name, cells in result["counts"].items():
        print(f"{name:18} " + ", ".join(f"{v} {n}" for v, n in cells.items()))
    print("refused by: " + (", ".join(f"{r} {n}" for r, n in result["rules"].items()) or "none"))
    for item in result["wrong"]:
        print("wrong: " + ", ".join(f"{k}={v}" for k, v in item.items()))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
