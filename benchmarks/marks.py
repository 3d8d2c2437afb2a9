"""How readable a catalog's indexes drawn on a screenshot are, on real pages made by others.

For each page of the ``readability-pages`` corpus, its render at 1280 x 800 (the relocation
benchmark's, from its cache or rendered now in headless Chromium) becomes a catalog (the
accessibility tree's), and :func:`resolver.catalog.marks.mark_screenshot` draws its indexes
on a blank picture of the viewport's size (where a label goes depends on the boxes, not on
the pixels). Reported: the entries marked per page, those whose label found no place clear
of the other labels and outlines (``crowded``), and the time a page's marks take.

    python -m benchmarks.marks [--pages N] [--json out.json] [--picture out.png]
    python -m benchmarks.marks --tool-timing 20

``--tool-timing N`` instead times the servers' ``screenshot`` tool on the project's fixture
page ``fixtures/live/rerender.html`` (a fresh observation, its catalog and the picture),
``N`` times with marks and ``N`` without, alternating, and prints the medians.

``--picture`` also writes the marks of the tune half's page with the most entries in view,
drawn on its real screenshot (taken again by the same Chromium). Needs the corpora
(``RESOLVER_CORPORA`` or ``../shared/corpora``) and Chromium.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from benchmarks.relocation.render import RenderError, render
from benchmarks.relocation.run import corpus_pages, page_versions, split_of
from resolver.catalog import build_catalog
from resolver.catalog.marks import mark_screenshot
from resolver.replay.captures import load_capture


def _blank(viewport: tuple[float, float]) -> bytes:
    width, height = (max(1, round(v)) for v in viewport)
    ok, data = cv2.imencode(".png", np.full((height, width, 3), 255, np.uint8))
    assert ok
    return bytes(data.tobytes())


def page_marks(page: Path) -> dict[str, Any] | None:
    """One page's figures (``None`` when it has no render or no viewport)."""
    _, html, _ = page_versions(str(page / "source.html"), page.name)
    if not html:
        return None
    try:
        files, _ = render(html)
    except RenderError:
        return None
    observation = load_capture(page.name, files).observation
    viewport = observation.screen_size
    if viewport is None:
        return None
    catalog = build_catalog(observation)
    blank = _blank(viewport)
    started = time.perf_counter()
    drawn = mark_screenshot(blank, catalog, viewport=viewport)
    took = (time.perf_counter() - started) * 1e3
    return {"page": page.name, "split": split_of(page.name), "entries": len(catalog),
            "marked": len(drawn.marked), "crowded": len(drawn.crowded), "ms": round(took, 2),
            "html": html}  # fmt: skip


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Totals and medians over the pages' rows."""
    marked = sum(r["marked"] for r in rows)
    crowded = sum(r["crowded"] for r in rows)
    return {
        "pages": len(rows),
        "marked": marked,
        "crowded": crowded,
        "crowded_share": round(crowded / marked, 4) if marked else 0.0,
        "pages_with_crowded": sum(1 for r in rows if r["crowded"]),
        "marked_per_page_median": statistics.median(r["marked"] for r in rows) if rows else 0,
        "marked_per_page_max": max((r["marked"] for r in rows), default=0),
        "ms_median": round(statistics.median(r["ms"] for r in rows), 2) if rows else 0.0,
        "ms_max": max((r["ms"] for r in rows), default=0.0),
    }


def _picture(row: dict[str, Any], out: Path) -> None:
    """The marks of ``row``'s page drawn on its screenshot, live."""
    import tempfile

    from live_browser import live_tab  # type: ignore[import-not-found]

    from resolver.integrations.playwright import observe

    with tempfile.TemporaryDirectory() as folder, live_tab(1280, 800) as tab:
        if tab is None:
            return
        page = Path(folder) / "page.html"
        page.write_text(row["html"], encoding="utf-8")
        local = "file:"  # (the page's own file; anything it would fetch is refused)
        tab.route("**/*", lambda r: r.continue_() if r.request.url.startswith(local) else r.abort())
        tab.goto(page.as_uri())
        observation = observe(tab, screenshot=True)
    drawn = mark_screenshot(observation.screenshot, build_catalog(observation),
                            viewport=observation.screen_size)  # fmt: skip
    out.write_bytes(drawn.png)
    print(f"wrote {out}: {row['page']}, {len(drawn.marked)} marked, {len(drawn.crowded)} crowded")


def tool_timing(rounds: int) -> dict[str, float]:
    """Median milliseconds of the ``screenshot`` tool with and without marks."""
    from resolver.server import tools
    from resolver.server.worker import BrowserWorker, default_chromium

    page = (Path(__file__).resolve().parents[1] / "fixtures" / "live" / "rerender.html").as_uri()
    worker = BrowserWorker(default_chromium())
    times: dict[bool, list[float]] = {True: [], False: []}
    try:
        worker.call(tools.navigate, page)
        for _ in range(rounds):
            for marked in (True, False):
                started = time.perf_counter()
                assert worker.call(tools.screenshot, marked)["ok"]
                times[marked].append((time.perf_counter() - started) * 1e3)
    finally:
        worker.close()
    return {"marks_ms": round(statistics.median(times[True]), 1),
            "plain_ms": round(statistics.median(times[False]), 1)}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """Measure every page (or the first ``--pages``) and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=None)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--picture", type=Path, default=None)
    parser.add_argument("--tool-timing", type=int, default=0)
    options = parser.parse_args(argv)
    if options.tool_timing:
        print(json.dumps(tool_timing(options.tool_timing)))
        return 0
    pages = corpus_pages()[: options.pages]
    if not pages:
        print("readability-pages corpus not found: nothing to measure", file=sys.stderr)
        return 0
    rows = [r for r in map(page_marks, pages) if r is not None]
    result = {"all": summary(rows), "tune": summary([r for r in rows if r["split"] == "tune"]),
              "heldout": summary([r for r in rows if r["split"] == "heldout"])}  # fmt: skip
    print(json.dumps(result, indent=2))
    if options.json:
        kept = [{k: v for k, v in r.items() if k != "html"} for r in rows]
        options.json.write_text(json.dumps({**result, "pages": kept}, indent=2))
    if options.picture and rows:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
        tune = [r for r in rows if r["split"] == "tune"] or rows
        _picture(max(tune, key=lambda r: (r["marked"], r["page"])), options.picture)
    return 0


if __name__ == "__main__":
    sys.exit(main())
