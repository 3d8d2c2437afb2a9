"""The point recorder on real pages: the control a click lands on, recorded and found again.

For each page of the readability corpus (real pages made by others, split into the tune and
held-out halves of :func:`benchmarks.relocation.run.split_of`), loaded in headless Chromium
from ``file://`` with every other request refused, the controls drawn in the first viewport
(links, buttons, fields, ARIA widgets) whose centre a click reaches (the topmost element
there is the control or inside it, and no other control inside it holds the point) are
clicked in thought: ``record_click(x, y, observe(page))`` makes the reference a recorder
stores, and ``resolve`` on a fresh observation of the same, unchanged page finds it again
(no coordinate fallback); a control the page moved while it was observed (a page still
loading) is left out. The answer's DOM node (``PageObservation.backend_ids``) is
compared with the control's:

- ``right``: the control itself;
- ``wrong``: another node (a container around it, a text inside it, another element);
- ``refused``: the resolver refused the reference;
- ``unrecorded``: the recorder kept the point but no element.

Also counted: how often the recorded role is a control role (``recorded a control``).
With ``--press``, each recorded action is then replayed on the page as it is by then (a
fresh observation, ``resolve``, ``act``), a capture-phase listener noting which element each
click reached and keeping links from being followed: ``right`` (the control), ``wrong``
(another element), ``refused``, ``lost`` (no click came), ``moved`` (the control is no
longer reached where it was recorded: not pressed), ``navigated`` (the press made the page
navigate; the page's later presses are not made). Disabled controls are left out (a press on
one does nothing). At most ``--per-page`` controls a page, spread over the page's order.
Usage::

    python -m benchmarks.live.point_pages [--split tune|heldout|all] [--source a11y|dom]
        [--per-page 30] [--press | --scrolled] [--json out.json]

With ``--scrolled``, the controls a person scrolls to are measured instead: of at most
``--per-page`` controls spread over the whole page, each one a click does not reach in the
first view is scrolled to the middle of the view, recorded there (its boxes as drawn then)
and resolved on a second observation of the page at that scroll.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from live_browser import browser_missing, chromium  # noqa: E402

from benchmarks.relocation.run import corpus_pages, split_of  # noqa: E402
from resolver import ResolutionError, SemanticElementRef, resolve  # noqa: E402
from resolver.capture import record_click  # noqa: E402
from resolver.integrations.playwright import act, observe  # noqa: E402
from resolver.roles import ACTIONABLE_ROLES  # noqa: E402

CONTROLS = (
    "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], "
    "[role=link], [role=checkbox], [role=radio], [role=switch], [role=tab], [role=menuitem], "
    "[role=combobox], [role=textbox], [role=option]"
)
# A function of a control and CONTROLS: the centre [x, y] of the control when a click there
# reaches it in the view as it is (the topmost element there is the control or inside it,
# and no other control inside it holds the point), else null. Every benchmark of clicks on
# real pages asks this one test.
REACHES_JS = """(el, sel) => {
  if (!el || el.matches(":disabled")) return null;
  const r = el.getBoundingClientRect();
  if (r.width < 4 || r.height < 4) return null;
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return null;
  const hit = document.elementFromPoint(x, y);
  if (!hit || !(hit === el || el.contains(hit)) || hit.closest(sel) !== el) return null;
  return [x, y];
}"""
# Each control a click at its centre reaches: [its place among CONTROLS, x, y].
REACHED_JS = (
    "([sel, most]) => { const reaches = "
    + REACHES_JS
    + """;
  const out = [];
  document.querySelectorAll(sel).forEach((el, i) => {
    const point = reaches(el, sel);
    if (point) out.push([i, ...point]);
  });
  if (out.length <= most) return out;
  const step = out.length / most;
  return Array.from({length: most}, (_, k) => out[Math.floor(k * step)]);
}"""
)
# The places among CONTROLS of at most ``most`` controls spread over the whole page.
SPREAD_JS = """([sel, most]) => {
  const count = document.querySelectorAll(sel).length;
  const step = Math.max(1, count / most);
  return Array.from({length: Math.min(most, count)}, (_, k) => Math.floor(k * step));
}"""
# The control at ``place`` scrolled to the middle of the view: [x, y] of its centre when a
# click there reaches it (REACHES_JS), else null.
SCROLLED_JS = (
    "([sel, place]) => { const reaches = "
    + REACHES_JS
    + """;
  window.scrollTo(0, 0);
  const el = document.querySelectorAll(sel)[place];
  if (el) el.scrollIntoView({block: "center", inline: "center"});
  return reaches(el, sel);
}"""
)
VERDICTS = ("right", "wrong", "refused", "unrecorded")


def control_backends(page: Any, places: list[int]) -> list[int | None]:
    """The backend DOM node ID of each control, by its place among :data:`CONTROLS`."""
    session = page.context.new_cdp_session(page)
    try:
        return [
            backend_of(session, f"document.querySelectorAll({json.dumps(CONTROLS)})[{i}]")
            for i in places
        ]
    finally:
        session.detach()


def backend_of(session: Any, expression: str) -> int | None:
    """The backend DOM node ID of the element ``expression`` gives in the page, or None."""
    found = session.send("Runtime.evaluate", {"expression": expression})
    object_id = found.get("result", {}).get("objectId")
    if object_id is None:
        return None
    return (
        session.send("DOM.describeNode", {"objectId": object_id})
        .get("node", {})
        .get("backendNodeId")
    )


def answered_backend(page: Any, page_obs: Any, executor_id: str) -> int | None:
    """The backend DOM node ID an answer's executor ID names: from the observation, or, for
    a DOM answer's CSS selector or XPath, from the page."""
    known = page_obs.backend_ids.get(executor_id)
    if known is not None:
        return int(known)
    kind, _, selector = executor_id.partition(":")
    if kind == "css":
        expression = f"document.querySelector({json.dumps(selector)})"
    elif kind == "xpath":
        expression = (
            f"document.evaluate({json.dumps(selector)}, document, null, 9, null).singleNodeValue"
        )
    else:
        return None
    session = page.context.new_cdp_session(page)
    try:
        return backend_of(session, expression)
    finally:
        session.detach()


def verdict(ref: SemanticElementRef | None, page: Any, page_obs: Any, backend: int) -> str:
    """How the recorded ``ref`` fares on ``page_obs``, an observation of ``page`` (see the
    module docstring)."""
    if ref is None:
        return "unrecorded"
    try:
        answer = resolve(ref, page_obs, coords_fallback="never")
    except ResolutionError:
        return "refused"
    return "right" if answered_backend(page, page_obs, answer.executor_id) == backend else "wrong"


def page_clicks(
    page: Any, url: str, source: str, per_page: int, press: bool = False
) -> list[dict[str, Any]]:
    """Every reached control of one page, recorded and resolved (and, with ``press``,
    pressed: :func:`pressed`)."""
    load(page, url)
    reached = page.evaluate(REACHED_JS, [CONTROLS, per_page])
    if not reached:
        return []
    backends = control_backends(page, [i for i, _, _ in reached])
    recorded_on = observe(page, screenshot=False)
    replayed_on = observe(page, screenshot=False)
    still = {
        (i, round(x, 1), round(y, 1)) for i, x, y in page.evaluate(REACHED_JS, [CONTROLS, 1e9])
    }
    rows, actions = [], []
    for (i, x, y), backend in zip(reached, backends, strict=True):
        if backend is None or (i, round(x, 1), round(y, 1)) not in still:
            continue  # (a control the page moved, or stopped drawing, while it was observed)
        start = time.perf_counter()
        action = record_click(x, y, recorded_on, source=source)
        took = time.perf_counter() - start
        ref = action.element
        actions.append((i, action))
        rows.append({
            "x": x, "y": y, "ms": 1e3 * took,
            "role": ref.role if ref else None, "name": ref.name if ref else None,
            "control": bool(ref and ref.role in ACTIONABLE_ROLES),
            "verdict": verdict(ref, page, replayed_on, backend),
        })  # fmt: skip
    if press:
        _press_all(page, rows, actions)
    return rows


def scrolled_clicks(page: Any, url: str, source: str, per_page: int) -> list[dict[str, Any]]:
    """The controls a person scrolls to before clicking: of at most ``per_page`` controls
    spread over the page, each one not reached in the first view, scrolled to the middle of
    the view, clicked at its centre (when a click there reaches it), recorded on an
    observation of the page as it is drawn then, and resolved on a second one."""
    load(page, url)
    first = {i for i, _, _ in page.evaluate(REACHED_JS, [CONTROLS, 1e9])}
    places = [i for i in page.evaluate(SPREAD_JS, [CONTROLS, per_page]) if i not in first]
    rows = []
    for place, backend in zip(places, control_backends(page, places), strict=True):
        point = page.evaluate(SCROLLED_JS, [CONTROLS, place])
        if backend is None or point is None:
            continue
        x, y = point
        seen = observe(page, screenshot=False)
        start = time.perf_counter()
        ref = record_click(x, y, seen, source=source).element
        took = time.perf_counter() - start
        again = observe(page, screenshot=False)
        if page.evaluate(SCROLLED_JS, [CONTROLS, place]) != point:
            continue  # (the page moved the control while it was observed)
        rows.append({
            "x": x, "y": y, "ms": 1e3 * took, "scrolled": True,
            "role": ref.role if ref else None, "name": ref.name if ref else None,
            "control": bool(ref and ref.role in ACTIONABLE_ROLES),
            "verdict": verdict(ref, page, again, backend),
        })  # fmt: skip
    return rows


def _press_all(page: Any, rows: list[dict[str, Any]], actions: list[tuple[int, Any]]) -> None:
    """:func:`pressed` for each row in turn; once a press made the page navigate (a page's
    own script can, whatever the listener prevents), the rows left are ``not pressed``."""
    left = "not pressed"
    for row, (i, action) in zip(rows, actions, strict=True):
        if left != "not pressed":
            row["pressed"] = left
            continue
        try:
            row["pressed"] = pressed(page, action, i)
        except Exception:  # (the page navigated: its context is gone)
            row["pressed"], left = "navigated", "after a navigation"


# Which control a press reached: [its place among CONTROLS, x, y] -> true when the last click
# the page saw went to that control or inside it, false when elsewhere, null when none came.
PRESSED_JS = """([sel, i]) => {
  const target = window.__pressedTargets.pop();
  window.__pressedTargets.length = 0;
  if (!target) return null;
  const control = document.querySelectorAll(sel)[i];
  return !!control && (target === control || control.contains(target));
}"""
# Notes every click's target and keeps it from following a link or submitting a form.
NOTE_PRESSES_JS = """window.__pressedTargets = [];
window.addEventListener("click", (e) => {
  window.__pressedTargets.push(e.composedPath()[0]);
  e.preventDefault();
}, true);"""


def pressed(page: Any, action: Any, place: int) -> str:
    """The recorded ``action`` replayed on ``page`` as it is now (a fresh observation,
    ``resolve``, ``act``): ``right`` (the click reached the control at ``place``), ``wrong``
    (another element), ``refused`` (resolve or act refused), ``lost`` (no click came),
    ``moved`` (the control is no longer where it was recorded: not pressed)."""
    if action.element is None:
        return "refused"
    page.evaluate("window.scrollTo(0, 0)")  # (an earlier press may have scrolled the page)
    here = page.evaluate(REACHED_JS, [CONTROLS, 1e9])
    if not any(i == place and (x, y) == (action.x, action.y) for i, x, y in here):
        return "moved"
    page.evaluate("window.__pressedTargets.length = 0")
    try:
        obs = observe(page, screenshot=False)
        act(page, resolve(action.element, obs, coords_fallback="never"), action, observation=obs)
    except ResolutionError:
        return "refused"
    hit = page.evaluate(PRESSED_JS, [CONTROLS, place])
    return "lost" if hit is None else ("right" if hit else "wrong")


def run(
    split: str, source: str, per_page: int, press: bool = False, scrolled: bool = False
) -> dict[str, list[dict[str, Any]]]:
    """Clicks by page name, for the pages of ``split``."""
    pages = [p for p in corpus_pages() if split in ("all", split_of(p.name))]
    out: dict[str, list[dict[str, Any]]] = {}
    with chromium() as browser:
        for path in pages:
            try:
                out[path.name] = measure_page(browser, path, source, per_page, press, scrolled)
            except Exception as exc:  # (a page that does not load is reported, not fatal)
                print(f"{path.name}: {type(exc).__name__}: {exc}", file=sys.stderr)
    return out


def measure_page(
    browser: Any,
    path: Path,
    source: str,
    per_page: int,
    press: bool = False,
    scrolled: bool = False,
) -> list[dict[str, Any]]:
    """:func:`page_clicks` (or, with ``scrolled``, :func:`scrolled_clicks`) of one corpus
    page folder, in a fresh 1280 x 800 context."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.route("**/*", _local_only)
        page.add_init_script(NOTE_PRESSES_JS)
        url = (path / "source.html").as_uri()
        if scrolled:
            return scrolled_clicks(page, url, source, per_page)
        return page_clicks(page, url, source, per_page, press)
    finally:
        context.close()


def _local_only(route: Any) -> None:
    if route.request.url.startswith("file:"):
        route.continue_()
    else:
        route.abort()


def summary(clicks: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Counts of each verdict, how many were recorded as a control, the median time a
    click, and the median of each page's first click (which builds the observation's
    tables)."""
    rows = [row for page in clicks.values() for row in page]
    firsts = [page[0]["ms"] for page in clicks.values() if page]
    counts = Counter(row["verdict"] for row in rows)
    return {
        "pages": len(clicks),
        "clicks": len(rows),
        **{v: counts[v] for v in VERDICTS},
        "recorded_a_control": sum(row["control"] for row in rows),
        **(
            {"pressed": dict(Counter(row["pressed"] for row in rows if "pressed" in row))}
            if any("pressed" in row for row in rows)
            else {}
        ),
        "median_ms": round(statistics.median(r["ms"] for r in rows), 2) if rows else None,
        "first_click_median_ms": round(statistics.median(firsts), 1) if firsts else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("tune", "heldout", "all"), default="tune")
    parser.add_argument("--source", choices=("a11y", "dom"), default="a11y")
    parser.add_argument("--per-page", type=int, default=30)
    parser.add_argument("--press", action="store_true", help="also act on each reference")
    parser.add_argument(
        "--scrolled",
        action="store_true",
        help="instead, the controls below the first view, each scrolled into view first",
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if unavailable():
        return 0
    if args.press and args.scrolled:
        parser.error("--press replays the first view's clicks only: not with --scrolled")
    clicks = run(args.split, args.source, args.per_page, args.press, args.scrolled)
    result = {"split": args.split, "source": args.source, "scrolled": args.scrolled,
              **summary(clicks)}  # fmt: skip
    report(result, clicks, args.json)
    return 0


def load(page: Any, url: str) -> None:
    """``page`` at ``url``, as loaded as it gets within 10 s (some pages' load never ends)."""
    page.goto(url, wait_until="domcontentloaded", timeout=30_000)
    with contextlib.suppress(Exception):
        page.wait_for_load_state("load", timeout=10_000)


def unavailable() -> bool:
    """Whether the browser or the corpus is missing (and why, printed): a command skips."""
    if (why := browser_missing()) is not None:
        print(f"skipped: {why}")
        return True
    if not corpus_pages():
        print("readability-pages corpus not found; skipped", file=sys.stderr)
        return True
    return False


def report(result: dict[str, Any], clicks: Any, out: Path | None) -> None:
    """The totals printed, and with every click written to ``out`` when given."""
    print(json.dumps(result, indent=1))
    if out:
        out.write_text(json.dumps({**result, "clicks": clicks}, indent=1))


if __name__ == "__main__":
    raise SystemExit(main())
