"""Recorded on a real page, pressed on its changed versions: the whole loop, live.

For each page of the readability corpus (real pages made by others; the tune and held-out
halves of :func:`benchmarks.relocation.run.split_of`), the relocation benchmark's targets
(:func:`benchmarks.relocation.targets.choose_targets`) and changed versions
(:func:`benchmarks.relocation.mutate.make_versions`: texts edited, elements wrapped,
unwrapped, reordered, removed, twins added, classes renamed, banners and decoys inserted)
are loaded in headless Chromium (1280 x 800, from ``file://``, every other request
refused). On the unchanged page, every target that is a control (link, button, field) and
that a click at its centre reaches in the first viewport is recorded as a person's click:
``record_click(x, y, observe(page))``. Then, on each changed version, each recorded click is
replayed as an agent runtime would: a fresh observation, ``resolve`` (no coordinate
fallback) and ``act``, while a capture-phase listener notes the element each click reached
(and keeps links from being followed). Outcomes, per recorded click and version:

- the target is still on the page: ``right`` (the click reached it), ``wrong`` (another
  element), ``refused`` (``resolve`` or ``act`` refused), ``lost`` (no click came);
- the version removed it: ``rejected`` (refused, as it should be) or ``pressed`` (a click
  went to some other element: a wrong press);
- ``navigated``: the press made the page navigate, whatever the listener prevents (the
  version is loaded again for the next click).

Usage::

    python -m benchmarks.live.changed_pages [--split tune|heldout|all] [--source a11y|dom]
        [--pages N] [--scrolled] [--json out.json]

With ``--scrolled``, the controls below the first view are recorded too, each scrolled into
the middle of the view first (as a person scrolls to what they click), so their recorded
boxes are where they were drawn then; each replay starts at the top of the page, and
``act`` scrolls as it needs.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from live_browser import chromium  # noqa: E402

from benchmarks.live.point_pages import (  # noqa: E402
    CONTROLS,
    NOTE_PRESSES_JS,
    REACHES_JS,
    _local_only,
    load,
    report,
    unavailable,
)
from benchmarks.relocation.mutate import make_versions  # noqa: E402
from benchmarks.relocation.run import corpus_pages, split_of  # noqa: E402
from benchmarks.relocation.targets import choose_targets, load_page, serialize  # noqa: E402
from resolver import ActionWithElement, ResolutionError, resolve  # noqa: E402
from resolver.capture import record_click  # noqa: E402
from resolver.integrations.playwright import act, observe  # noqa: E402

CLICKED_KINDS = frozenset({"link", "button", "input"})
"""Kinds of targets a person clicks (headings and pictures are left out)."""

# Each keyed control a click at its centre reaches in the view as it is: [key, x, y].
KEYED_REACHED_JS = (
    "([sel, keys]) => { const reaches = "
    + REACHES_JS
    + """;
  return keys.flatMap((key) => {
    const el = document.querySelector(`[data-fixture-key="${key}"]`);
    const point = el && el.matches(sel) ? reaches(el, sel) : null;
    return point ? [[key, ...point]] : [];
  });
}"""
)
# Where the last click went: null (none came), true (the keyed element or inside it), or a
# short description of the element it reached.
KEYED_PRESSED_JS = """(key) => {
  const target = window.__pressedTargets.pop();
  window.__pressedTargets.length = 0;
  if (!target) return null;
  const el = document.querySelector(`[data-fixture-key="${key}"]`);
  if (el && (target === el || el.contains(target))) return true;
  const keyed = target.closest ? target.closest("[data-fixture-key]") : null;
  const what = (target.tagName || "#text").toLowerCase();
  return keyed ? `${what} in ${keyed.getAttribute("data-fixture-key")}` : what;
}"""
SCROLL_TO_JS = """(key) => {
  window.scrollTo(0, 0);
  const el = document.querySelector(`[data-fixture-key="${key}"]`);
  if (el) el.scrollIntoView({block: "center", inline: "center"});
}"""
PRESENT_JS = '(key) => !!document.querySelector(`[data-fixture-key="${key}"]`)'
OUTCOMES = ("right", "wrong", "refused", "lost", "rejected", "pressed", "navigated")


def recorded(
    page: Any, keys: list[str], source: str, scrolled: bool = False
) -> dict[str, tuple[ActionWithElement, bool]]:
    """The click a person makes on each of ``keys`` that the page (loaded, at its top) draws
    where a click reaches it, recorded by ``record_click`` on one observation; with
    ``scrolled``, also each other one, scrolled to the middle of the view first and recorded
    there on an observation of its own (its boxes as drawn then). A click is recorded only
    when the page drew the target at the same point after the observation as before it (a
    page may move while it is observed: a picture that fails to load narrows it), each
    scrolled one taken again up to :data:`TRIES` times. By key: the action and whether the
    page was scrolled for it."""
    reached = page.evaluate(KEYED_REACHED_JS, [CONTROLS, keys])
    out: dict[str, tuple[ActionWithElement, bool]] = {}
    if reached:
        seen = observe(page, screenshot=False)
        still = {tuple(r) for r in page.evaluate(KEYED_REACHED_JS, [CONTROLS, keys])}
        out = {key: (record_click(x, y, seen, source=source), False)
               for key, x, y in reached if (key, x, y) in still}  # fmt: skip
    for key in keys if scrolled else ():
        if key not in out:
            page.evaluate(SCROLL_TO_JS, key)
            action = _recorded_here(page, key, source)
            if action is not None:
                out[key] = (action, True)
    page.evaluate("window.scrollTo(0, 0)")
    return out


TRIES = 3
"""Observations taken for one scrolled click before it is given up (the page kept moving)."""


def _recorded_here(page: Any, key: str, source: str) -> ActionWithElement | None:
    """The click on ``key`` where the page draws it now, recorded on an observation that the
    page did not move the target during; ``None`` when no click there reaches it."""
    for _ in range(TRIES):
        here = page.evaluate(KEYED_REACHED_JS, [CONTROLS, [key]])
        if not here:
            return None
        seen = observe(page, screenshot=False)
        if page.evaluate(KEYED_REACHED_JS, [CONTROLS, [key]]) == here:
            _, x, y = here[0]
            return record_click(x, y, seen, source=source)
    return None


def replayed(page: Any, key: str, action: ActionWithElement) -> tuple[str, str | None]:
    """One recorded click replayed on the page as it is (a fresh observation, ``resolve``,
    ``act``): its outcome (:data:`OUTCOMES`) and, for a click that went elsewhere, what it
    reached."""
    present = bool(page.evaluate(PRESENT_JS, key))
    page.evaluate("window.scrollTo(0, 0); window.__pressedTargets.length = 0")
    try:
        if action.element is None:
            raise ResolutionError("nothing was recorded")
        seen = observe(page, screenshot=False)
        act(page, resolve(action.element, seen, coords_fallback="never"), action, observation=seen)
    except ResolutionError:
        return ("refused" if present else "rejected"), None
    hit = page.evaluate(KEYED_PRESSED_JS, key)
    if hit is None:
        return ("lost" if present else "rejected"), None
    if not present:
        return "pressed", str(hit)
    return ("right", None) if hit is True else ("wrong", str(hit))


def measure_page(
    browser: Any, path: Path, source: str, scrolled: bool = False
) -> list[dict[str, Any]]:
    """Every recorded click of one corpus page (:func:`recorded`), replayed on each changed
    version."""
    root = load_page(path / "source.html")
    targets = choose_targets(root, path.name)
    keys = [t.key for t in targets if t.kind in CLICKED_KINDS]
    versions = make_versions(root, targets, path.name)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="changed-pages-") as tmp:
        # Every version is served at the base page's address, as a changed site is: links
        # to the page's own fragments resolve alike on each.
        where = Path(tmp) / "page.html"
        where.write_text(serialize(root), encoding="utf-8")
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        try:
            page = context.new_page()
            page.route("**/*", _local_only)
            page.add_init_script(NOTE_PRESSES_JS)
            load(page, where.as_uri())
            actions = recorded(page, keys, source, scrolled)
            for version in versions:
                where.write_text(version.html, encoding="utf-8")
                load(page, where.as_uri())
                for key, (action, moved) in actions.items():
                    try:
                        outcome, reached = replayed(page, key, action)
                    except Exception:  # (the press made the page navigate: loaded again)
                        outcome, reached = "navigated", None
                        load(page, where.as_uri())
                    rows.append({"version": version.name, "kind": version.touched[key],
                                 "key": key, "role": getattr(action.element, "role", None),
                                 "name": getattr(action.element, "name", None),
                                 "scrolled": moved, "outcome": outcome,
                                 "reached": reached})  # fmt: skip
        finally:
            context.close()
    return rows


def summary(clicks: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Counts of each outcome over every page, present and removed targets apart; and the
    same for the clicks recorded after a scroll alone (``scrolled``)."""
    rows = [row for page in clicks.values() for row in page]
    return {
        "pages": len(clicks),
        "recorded": sum(len({r["key"] for r in page}) for page in clicks.values()),
        **_counts(rows),
        "scrolled": _counts([row for row in rows if row.get("scrolled")]),
    }


def _counts(rows: list[dict[str, Any]]) -> dict[str, Any]:
    counts = Counter(row["outcome"] for row in rows)
    present = sum(counts[o] for o in ("right", "wrong", "refused", "lost"))
    return {
        "present": present,
        "removed": counts["rejected"] + counts["pressed"],
        **{o: counts[o] for o in OUTCOMES},
        "right_share": round(counts["right"] / present, 4) if present else None,
    }


def run(
    split: str, source: str, limit: int | None = None, scrolled: bool = False
) -> dict[str, list[dict[str, Any]]]:
    """Replays by page name, for the pages of ``split`` (the first ``limit`` of them)."""
    pages = [p for p in corpus_pages() if split in ("all", split_of(p.name))][:limit]
    out: dict[str, list[dict[str, Any]]] = {}
    with chromium() as browser:
        for number, path in enumerate(pages, 1):
            try:
                out[path.name] = measure_page(browser, path, source, scrolled)
            except Exception as exc:  # (a page that does not load is reported, not fatal)
                print(f"{path.name}: {type(exc).__name__}: {exc}", file=sys.stderr)
                continue
            print(f"[{number}/{len(pages)}] {path.name}: "
                  f"{dict(Counter(r['outcome'] for r in out[path.name]))}",
                  file=sys.stderr, flush=True)  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("tune", "heldout", "all"), default="tune")
    parser.add_argument("--source", choices=("a11y", "dom"), default="a11y")
    parser.add_argument("--pages", type=int, default=None, help="only the first N pages")
    parser.add_argument(
        "--scrolled",
        action="store_true",
        help="also record the controls below the first view, each scrolled into view",
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if unavailable():
        return 0
    clicks = run(args.split, args.source, args.pages, args.scrolled)
    report({"split": args.split, "source": args.source, **summary(clicks)}, clicks, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
