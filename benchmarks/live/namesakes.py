"""Controls of one name in several places of a live page: which one is clicked after a change.

Three fixture pages in headless Chromium:

- ``panels``, ``fixtures/live/panels.html``: an account page shows one of two tabs
  (Profile, Billing; each panel with its own "Save"), one of two dialogs ("Delete file?",
  "Discard changes?"; each with its own "OK"), one of two disclosure sections
  (``details``: Shipping address, Invoice address; each with its own "Apply") and one
  section of an accordion (header buttons expanding a region: Contact details, Security;
  each with its own "Edit"). Each control is recorded with its panel shown, and looked for
  with it shown (``present``) and with the other panel of its kind shown instead
  (``gone``); the "Save" of a modal dialog opened over the page ("New password") with the
  dialog closed (``gone``: the Profile tab's "Save" is then the only one).
- ``modal``, ``fixtures/live/modal.html``: a profile form with its own "Save", a modal
  dialog ("New password") and a notice in a corner ("Unsaved changes", a dialog), each with
  its own "Save". The dialog's and the notice's are looked for with them shown and closed
  (``gone``: the page's own "Save" is then the only one); the page's with the notice shown
  and under the open modal dialog (``covered``: only a refusal is right).
- ``cards``, ``fixtures/live/cards.html``: six product cards (title, price, "Add to cart",
  "Details") and a detail pane ("Edit", "Remove") showing one product. The third product's
  "Add to cart" and "Details" are recorded and looked for with the page unchanged
  (``present``), the cards in reverse (``reordered``), the product before it removed
  (``shifted``) and the product itself removed (``gone``); its "Edit" with the pane showing it
  (``present``), with another product removed (``shifted``) and showing another product
  (``gone``).

Each control is recorded five ways (the in-page recorder's click event, ``record_click`` on
the a11y and on the DOM source, ``from_playwright``, and that reference completed with
``complete_ref``) and looked for with each source alone and with the chain (a11y, DOM,
vision; no coordinates). An answer is acted on with
:func:`resolver.integrations.playwright.act`, and what the page saw clicked decides:
``right`` (the recorded control; in a ``gone`` case only a refusal is right), ``wrong`` or
``refused``::

    python -m benchmarks.live.namesakes [--page panels|modal|cards] [--json X]

Prints right / wrong / refused per kind of control and case, the refusing rules, and each
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

from live_browser import browser_missing, chromium, record_every_way  # noqa: E402

from resolver import ResolutionError, resolve  # noqa: E402
from resolver.integrations.playwright import act, observe  # noqa: E402

LIVE = ROOT / "fixtures" / "live"
Case = tuple[str, str, str | None]
"""A case's name, the page's query, and the control that is right there (``None``: none)."""
Target = tuple[str, str, str, tuple[Case, ...]]
"""A kind of control, its key, the query it is recorded at, and the cases it is looked for in."""


def _pair(kind: str, one: tuple[str, str], other: tuple[str, str]) -> list[Target]:
    """Two controls of one name in two panels shown one at a time, each looked for with its
    own panel and with the other one shown."""
    return [
        (kind, mine[0], mine[1], (("present", mine[1], mine[0]), ("gone", theirs[1], None)))
        for mine, theirs in ((one, other), (other, one))
    ]


PAGES: dict[str, tuple[Path, list[Target]]] = {
    "panels": (LIVE / "panels.html", [
        *_pair("tab", ("save-profile", "?tab=profile"), ("save-billing", "?tab=billing")),
        *_pair("dialog", ("ok-delete", "?dialog=delete"), ("ok-discard", "?dialog=discard")),
        *_pair("section", ("apply-shipping", "?open=shipping"),
               ("apply-invoice", "?open=invoice")),
        *_pair("accordion", ("edit-contact", "?expand=contact"),
               ("edit-security", "?expand=security")),
        ("modal", "save-password", "?modal=1",
         (("present", "?modal=1", "save-password"), ("gone", "", None))),
    ]),
    "modal": (LIVE / "modal.html", [
        ("dialog's Save", "save-dialog", "?modal=1",
         (("present", "?modal=1", "save-dialog"), ("gone", "", None))),
        ("notice's Save", "save-notice", "?notice=1",
         (("present", "?notice=1", "save-notice"), ("gone", "", None))),
        ("page's Save", "save-page", "", (("present", "", "save-page"),
                                          ("notice shown", "?notice=1", "save-page"),
                                          ("covered", "?modal=1", None))),
    ]),
    "cards": (LIVE / "cards.html", [
        (kind, key, "", (("present", "", key), ("reordered", "?order=rev", key),
                         ("shifted", "?without=1", key), ("gone", "?without=2", None)))
        for kind, key in (("add to cart", "add-2"), ("details", "view-2"))
    ] + [
        ("edit", "edit-2", "?selected=2", (("present", "?selected=2", "edit-2"),
                                           ("shifted", "?selected=2&without=1", "edit-2"),
                                           ("gone", "?selected=3", None))),
    ]),
}  # fmt: skip
SOURCES: dict[str, tuple[str, ...] | None] = {"a11y": ("a11y",), "dom": ("dom",), "chain": None}
VIEWPORT = {"width": 1200, "height": 700}


def references(browser: Any, url: str, key: str, query: str) -> dict[str, Any]:
    """The control ``key`` recorded five ways on the page opened at ``query``."""
    return record_every_way(browser, url + query, f'[data-key="{key}"]', VIEWPORT)


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


def _verdict(want: str | None, got: str) -> str:
    """``refused``, ``right`` (the control that is right there) or ``wrong``."""
    if got.startswith("refused:"):
        return "refused"
    return "right" if got == want else "wrong"


def run(name: str) -> dict[str, Any]:
    """Every control, recorder, source and case of a page: the counts and wrong answers."""
    path, targets = PAGES[name]
    url = path.as_uri()
    counts: Counter[tuple[str, str, str]] = Counter()
    rules: Counter[str] = Counter()
    wrong: list[dict[str, str]] = []
    with chromium() as browser:
        page = browser.new_page(viewport=VIEWPORT)
        for kind, key, recorded_at, cases in targets:
            refs = references(browser, url, key, recorded_at)
            for case, query, want in cases:
                page.goto(url + query)
                obs = observe(page, screenshot=True)
                for (recorder, ref), (source, sources) in product(refs.items(), SOURCES.items()):
                    got = clicked(page, ref, obs, sources)
                    verdict = _verdict(want, got)
                    counts[(kind, case, verdict)] += 1
                    if verdict == "refused":
                        rules[got.partition(":")[2]] += 1
                    elif verdict == "wrong":
                        wrong.append({"recorded": key, "case": case, "recorder": recorder,
                                      "source": source, "clicked": got})  # fmt: skip
    table = {
        f"{kind} {case}": {v: counts[(kind, case, v)] for v in ("right", "wrong", "refused")}
        for kind, _, _, cases in targets
        for case, _, _ in cases
    }
    return {"page": name, "counts": table, "rules": dict(rules.most_common()), "wrong": wrong}


def main(argv: list[str] | None = None) -> int:
    """Run a page's cases and print the counts."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.live.namesakes")
    parser.add_argument("--page", choices=sorted(PAGES), default="panels")
    parser.add_argument("--json", type=Path, help="write the counts and wrong answers here")
    args = parser.parse_args(argv)
    if (why := browser_missing()) is not None:
        print(f"skipped: {why}")
        return 0
    result = run(args.page)
    for name, cells in result["counts"].items():
        print(f"{name:22} " + ", ".join(f"{v} {n}" for v, n in cells.items()))
    print("refused by: " + (", ".join(f"{r} {n}" for r, n in result["rules"].items()) or "none"))
    for item in result["wrong"]:
        print("wrong: " + ", ".join(f"{k}={v}" for k, v in item.items()))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
