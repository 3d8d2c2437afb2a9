"""A virtualised list's rows, recorded in view and looked for when the list draws others.

``fixtures/live/virtual_list.html`` in headless Chromium: a list of 200 orders of which only
the rows in view (and three either side) are in the document, each with a "Delete" button,
beside a short scrolled menu. The Delete of orders 10, 70, 130 and 190 is recorded with the
list scrolled to it, four ways (the in-page recorder's click event, ``record_click`` on the
a11y and on the DOM source, ``from_playwright``). Each reference is then looked for with the
list opened at its top and at order 100, with the order there and with it deleted:

- ``view``: :func:`resolver.resolve` on the page as it opens (the order is drawn only when
  it is in that view): ``right`` (the order's own button), ``wrong`` (another order's) or
  ``refused``;
- ``act``: :func:`resolver.integrations.playwright.act` with ``scrolls=40``, which scrolls
  to a row not drawn: what the page saw clicked (``right``, ``wrong``, ``nothing``), the
  scrolls made and the time taken.

For a deleted order, only ``refused`` / ``nothing`` is right (``--view-only``: the views
alone, for a version of the library without scrolling). ``--host shadow`` draws the list in
a web component's shadow tree, ``--host frame`` in a frame of the page. There
``record_click`` on the DOM source is left out (the page's HTML, which it reads, holds
neither shadow trees nor frames' documents: it records the coordinates alone), and in a
frame the in-page recorder's event too (``record`` reads the top document's events).
``--axis x`` lays the list out across (150 px an order: order 190 is 80 views of the list
to the right, hence ``--scrolls 100``). ``--axis grid`` takes instead
``fixtures/live/virtual_grid.html``: a data grid of the same 200 orders, ten columns, drawing
only the rows and the columns in view, its first column ("Order N") pinned and its last one
holding the Delete buttons; each button is recorded with the grid scrolled to its row and to
the last column, and looked for with the grid at its left (in the page only)::

    python benchmarks/live/virtual_list.py [--host page|shadow|frame] [--axis y|x|grid]
        [--scrolls 40] [--view-only] [--json X]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from live_browser import browser_missing, chromium, clicks, record  # noqa: E402

from resolver import ResolutionError, resolve  # noqa: E402
from resolver.capture import from_playwright, record_click  # noqa: E402
from resolver.integrations.playwright import act, observe, to_locator  # noqa: E402

URL = (ROOT / "fixtures" / "live" / "virtual_list.html").as_uri()
GRID_URL = (ROOT / "fixtures" / "live" / "virtual_grid.html").as_uri()
ORDERS = (10, 70, 130, 190)
STARTS = {"top": "", "order 100": "start=100"}
SCROLLS = 40


HOSTS = ("page", "shadow", "frame")


def _button(order: int) -> str:
    return f"xpath=//div[@role='listitem'][span[text()='Order {order}']]/button"


def _css(order: int, axis: str = "y") -> str:
    """Order ``order``'s Delete by CSS, which enters open shadow trees (XPath does not)."""
    if axis == "grid":
        return f"[role=row]:has([role=gridcell]:text-is('Order {order}')) button"
    return f".row:has(span:text-is('Order {order}')) button"


@dataclass(frozen=True)
class Where:
    """How the list is drawn: in the page, a shadow tree or a frame (``host``), down or
    across (``axis``); and how many scrolls ``act`` may make."""

    host: str = "page"
    axis: str = "y"
    scrolls: int = SCROLLS

    @property
    def url(self) -> str:
        """The fixture page: the list, or the grid."""
        return GRID_URL if self.axis == "grid" else URL

    def drawn_at(self, order: int) -> str:
        """The query opening the list (the grid, at its last column) at ``order``."""
        return f"start={order}" + ("&right=1" if self.axis == "grid" else "")

    @property
    def query(self) -> str:
        """The fixture's query parameters for it (``""`` for the plain list)."""
        parts = (f"host={self.host}" if self.host != "page" else "",
                 "axis=x" if self.axis == "x" else "")  # fmt: skip
        return "&".join(p for p in parts if p)


def _locator(page: Any, where: Where, order: int) -> Any:
    """Order ``order``'s Delete."""
    if where.axis == "grid":
        return page.locator(_css(order, "grid"))
    if where.host == "page":
        return page.locator(_button(order))
    scope = page.frame_locator("iframe") if where.host == "frame" else page
    return scope.locator(_css(order))


def _references(browser: Any, order: int, where: Where) -> dict[str, Any]:
    """Order ``order``'s Delete, recorded four ways (three in a shadow tree, two in a
    frame) with the list scrolled to it."""
    host = where.host
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    refs: dict[str, Any] = {}
    if host != "frame":  # (record() reads the top document's events only)
        drawn = f"{where.url}?{where.drawn_at(order)}" + (f"&{where.query}" if where.query else "")
        refs["event"] = record(page, drawn, {"delete": _css(order, where.axis)})["delete"].element
    else:
        _open(page, where.drawn_at(order), None, where)
    obs = observe(page, screenshot=False)
    box = _locator(page, where, order).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    refs["click a11y"] = record_click(x, y, obs).element
    if host == "page":  # (the page's HTML holds neither shadow trees nor frames' documents)
        refs["click dom"] = record_click(x, y, obs, source="dom").element
    refs["playwright"] = from_playwright(_locator(page, where, order))
    page.close()
    return refs


def _open(page: Any, start: str, removed: int | None, where: Where) -> None:
    parts = (start, f"without={removed}" if removed else "", where.query)
    query = "&".join(q for q in parts if q)
    page.goto(f"{where.url}?{query}" if query else where.url)
    scope = page.frame_locator("iframe") if where.host == "frame" else page
    scope.locator(".row").first.wait_for()  # (CSS enters open shadow trees)


def _view(page: Any, ref: Any, order: int) -> str:
    obs = observe(page, screenshot=False)
    try:
        found = resolve(ref, obs, coords_fallback="never")
    except ResolutionError:
        return "refused"
    row = to_locator(page, found, obs).evaluate(
        "(n) => n.closest('.row').querySelector('span, .pinned').textContent"
    )
    return "right" if row == f"Order {order}" else "wrong"


def _act(page: Any, ref: Any, order: int, most: int) -> tuple[str, int, float]:
    start = time.perf_counter()
    scrolls = 0
    try:
        act(page, ref, scrolls=most)
    except ResolutionError as exc:
        scrolls = int(exc.evidence.details.get("scrolls", 0))
    took = time.perf_counter() - start
    clicked = clicks(page)
    outcome = "nothing" if not clicked else "right" if clicked == [order] else "wrong"
    return outcome, scrolls, took


def run(view_only: bool = False, where: Where | None = None) -> dict[str, Any]:
    """Every reference against every view (and, unless ``view_only``, acted on with
    scrolling) of the list drawn as ``where`` says; the counts and the timings."""
    where = where or Where()
    counts: Counter[str] = Counter()
    times: dict[str, list[float]] = {"found": [], "refused": []}
    scrolls: list[int] = []
    with chromium() as browser:
        refs = {order: _references(browser, order, where) for order in ORDERS}
        page = browser.new_page(viewport={"width": 1000, "height": 700})
        for order, by_recorder in refs.items():
            for recorder, ref in by_recorder.items():
                for start in STARTS.values():
                    for removed in (None, order):
                        kind = "removed" if removed else "present"
                        _open(page, start, removed, where)
                        counts[f"{kind} view {_view(page, ref, order)}"] += 1
                        counts[f"{recorder} {kind} view {_view(page, ref, order)}"] += 1
                        if view_only:
                            continue
                        _open(page, start, removed, where)
                        outcome, made, took = _act(page, ref, order, where.scrolls)
                        counts[f"{kind} act {outcome}"] += 1
                        counts[f"{recorder} {kind} act {outcome}"] += 1
                        times["found" if outcome != "nothing" else "refused"].append(took)
                        if outcome == "nothing":
                            scrolls.append(made)
    return {
        "host": where.host,
        "axis": where.axis,
        "counts": dict(sorted(counts.items())),
        "median_s": {k: round(statistics.median(v), 2) for k, v in times.items() if v},
        "scrolls": where.scrolls,
        "max_s": {k: round(max(v), 2) for k, v in times.items() if v},
        "scrolls_when_refused": sorted(set(scrolls)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write the figures here too")
    parser.add_argument(
        "--view-only", action="store_true", help="resolve on each view only (no act, no scrolling)"
    )
    parser.add_argument("--host", choices=HOSTS, default="page", help="where the list is drawn")
    parser.add_argument(
        "--axis", choices=("y", "x", "grid"), default="y", help="down, across, or a grid"
    )
    parser.add_argument("--scrolls", type=int, default=SCROLLS, help="act's scrolls at most")
    args = parser.parse_args()
    if args.axis == "grid" and args.host != "page":
        parser.error("--axis grid draws the grid in the page only")
    if (why := browser_missing()) is not None:
        print(f"skipped: {why}")
        return 0
    figures = run(args.view_only, Where(args.host, args.axis, args.scrolls))
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
