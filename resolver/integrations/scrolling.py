"""Finding a recorded element a page has not drawn yet: scroll, look again.

A virtualised list (a feed, a mail list, a data grid) keeps only the rows in view in the
document; the others are made when scrolled to. A reference recorded on row 150 is then not
in an observation of the list's first rows, and a person would scroll to find it.
:func:`scroll_to_find` does that: it resolves the reference on the page as it is; when that
is refused as *not found* or *ambiguous* (the rows in view are the target's look-alikes:
"Delete" in every order but the recorded one), it scrolls the page's scrollable regions a
view at a time (85% of the region's height, so consecutive views overlap), first down from
where each region is, then up from there (and for a region that scrolls sideways, a
carousel or a grid's columns, right and then left), and resolves again on a fresh
observation after each step, once the DOM has been quiet for :data:`QUIET_MS`. A region
that scrolls both ways, a data grid drawing only the rows and the columns in view, is also
scrolled right and left from each view (the first one included) that shows the recorded
record without the element (:func:`~resolver.decide.records.record_in_view`: the one row
bearing a word of the recorded row no other row bears, its number): a person scrolls down
to the row, then across to its cell.

The regions are tried in this order: those whose label (``aria-label``,
``aria-labelledby``, ``title``) is one of the reference's recorded containers, then the
other regions inside the page by the area they show, then the page itself. Every answer
found after a scroll must be at least :data:`SEARCH_CONFIDENCE` confident (the calibrated
probability, :mod:`resolver.calibration`): each view is one more chance for a look-alike to
be taken for the target, so a view is only believed when its answer is as sure as the
calibration makes it. A list reuses its rows' places as it scrolls: where the answer is in
another record than the recorded one ("Order 9 Delete") while the recorded record is in view
with an element of the recorded role and name in it (or the view was found ambiguous while
the recorded record is in view with one such element), the reference is resolved again
without what it recorded of its place (box, positional selector, xpath, anchors,
look-alikes, occurrence), by what it is and what is around it, and the answer taken only if
it is then that element of the recorded record. When
the search ends without the element, every region is scrolled
back to where it was and the first view's refusal is raised, saying how far the search
went. What runs in the page (finding the regions, scrolling) runs in the library's
isolated world, in every frame: the page's, each frame's (those another process draws on
their own sessions), and the open shadow trees in them. A frame's document is a region of
its own, labelled by the frame's ``title`` where its parent shows it.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final

from ..chain import resolve
from ..config import MatchConfig
from ..decide.records import in_recorded_record, namesake_recorded_there, record_in_view
from ..errors import (
    AmbiguousMatchError,
    ElementNotFoundError,
    InvalidReferenceError,
    ResolutionError,
)
from ..index import index_of
from ..models import SemanticElementRef
from ..results import Resolution
from ..table import CandidateTable
from ..text import normalize
from .cdp import FRAME_TIMEOUT_MS, SILENT, Bounded, _frame_ids, _frame_session, _session, _world
from .snapshot_live import SETTLE_JS
from .threaded import in_thread, is_async

__all__ = ["QUIET_MS", "SCROLLS", "SEARCH_CONFIDENCE", "scroll_to_find"]

SCROLLS: Final[int] = 30
"""How many scrolls :func:`scroll_to_find` makes at most, over every region."""
SEARCH_CONFIDENCE: Final[float] = 0.9
"""The least confidence of an answer found after a scroll."""
QUIET_MS: Final[float] = 60
"""How long the DOM must be quiet after a scroll before the page is observed again."""
SETTLE_LIMIT_MS: Final[float] = 1500
"""How long to wait for that quiet at most (a page that never stops changing)."""
_CALL_MS: Final[float] = 10_000
_UNPLACED: Final[dict[str, Any]] = {
    "bbox": None, "css_selector": None, "xpath": None, "anchors": (), "lookalikes": (),
    "occurrence": None,
}  # fmt: skip

_REGIONS_JS: Final[str] = r"""(() => {
  const norm = (s) => (s || "").replace(/\s+/g, " ").trim();
  const root = document.scrollingElement || document.documentElement;
  let framed = "";
  try {  // (a frame of another origin does not show its element)
    const own = window.frameElement;
    framed = own ? norm(own.getAttribute("aria-label")) || norm(own.getAttribute("title")) : "";
  } catch (e) {}
  const label = (el) => {
    if (el === root) return framed;
    const own = norm(el.getAttribute("aria-label"));
    if (own) return own;
    const ids = norm(el.getAttribute("aria-labelledby")), scope = el.getRootNode();
    const named = ids.split(" ").map((id) => {
      const t = id && scope.getElementById ? scope.getElementById(id) : null;
      return t ? t.textContent : "";
    });
    return norm(named.join(" ")) || norm(el.getAttribute("title"));
  };
  // Which ways a region scrolls: down (y) when taller than its box, across (x) when
  // wider (the page itself only when much wider: pages often overflow by a few pixels).
  const free = (v) => v === "auto" || v === "scroll" || v === "overlay";
  const axes = (el) => {
    const tall = el.scrollHeight > el.clientHeight + 1;
    if (el === root) return {y: tall, x: el.scrollWidth > el.clientWidth * 1.2};
    const wide = el.scrollWidth > el.clientWidth + 1;
    if (!tall && !wide) return {y: false, x: false};
    const style = getComputedStyle(el);
    return {y: tall && free(style.overflowY), x: wide && free(style.overflowX)};
  };
  const found = [], trees = [document.body || document.documentElement];
  const visit = (el) => {
    if (found.length >= 32) return;
    const ways = axes(el);
    if (!ways.x && !ways.y) return;
    const r = el === root ? {left: 0, top: 0, right: innerWidth, bottom: innerHeight}
      : el.getBoundingClientRect();
    const w = Math.min(r.right, innerWidth) - Math.max(r.left, 0);
    const h = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
    if (w > 0 && h > 0) {
      found.push({el, label: label(el), area: w * h, page: el === root, ...ways});
    }
  };
  visit(root);
  for (let t = 0; t < trees.length && t < 1000 && found.length < 32; t++) {
    for (const el of trees[t].querySelectorAll("*")) {  // open shadow trees after
      if (el.shadowRoot) trees.push(el.shadowRoot);
      visit(el);
    }
  }
  globalThis.__resolverRegions = found.map((f) => ({
    el: f.el, top: f.el.scrollTop, left: f.el.scrollLeft,
  }));
  return found.map((f) => ({label: f.label, area: f.area, page: f.page, x: f.x, y: f.y}));
})()"""
"""The page's scrollable regions in view (kept in the isolated world for the calls below)."""

_SCROLL_JS: Final[str] = r"""((i, how, across) => {
  const kept = (globalThis.__resolverRegions || [])[i];
  if (!kept || !kept.el.isConnected) return null;
  const el = kept.el, root = document.scrollingElement || document.documentElement;
  const at = () => across ? el.scrollLeft : el.scrollTop;
  const before = at();
  if (how === 0) el.scrollTo({top: kept.top, left: kept.left, behavior: "instant"});
  else if (how === 2) el.scrollTo({[across ? "left" : "top"]: across ? kept.left : kept.top,
                                   behavior: "instant"});
  else {
    const view = across ? (el === root ? innerWidth : el.clientWidth)
      : (el === root ? innerHeight : el.clientHeight);
    const by = how * Math.max(40, view * 0.85);
    el.scrollBy({top: across ? 0 : by, left: across ? by : 0, behavior: "instant"});
  }
  return Math.abs(at() - before) >= 1;
})"""
"""``(region, how, across)``: scroll a region a view down or right (1), up or left (-1),
back to where it was (0), or back on the one axis (2); whether it moved (``null``: the
region is gone)."""

_RESTORE_JS: Final[str] = r"""(globalThis.__resolverRegions || []).forEach((kept) => {
  if (kept.el.isConnected) kept.el.scrollTo({top: kept.top, left: kept.left, behavior: "instant"});
})"""


@dataclass(frozen=True)
class _World:
    """Where the library's page functions run for one frame: a CDP session and the
    ``Runtime.evaluate`` parameters of the library's isolated world in the frame."""

    session: Any
    params: Mapping[str, int]

    def run(self, expression: str, *, wait: bool = False) -> Any:
        answer = self.session.send("Runtime.evaluate", {
            "expression": expression, "returnByValue": True, "awaitPromise": wait,
            **self.params,
        })  # fmt: skip
        if not isinstance(answer, Mapping) or answer.get("exceptionDetails"):
            return None
        return answer.get("result", {}).get("value")


@dataclass
class _Search:
    """A search under way: the page, its frames' worlds, the regions found in them (a
    world and the region's place among that world's), how many scrolls are left, and the
    first view's refusal."""

    page: Any
    worlds: list[_World]
    left: int
    refused: ResolutionError
    first: Any = None
    scrolls: int = 0
    regions: list[tuple[int, int]] = field(default_factory=list)

    def find_regions(self) -> list[Mapping[str, Any]]:
        """Every frame's scrollable regions (each frame's kept in its world)."""
        found: list[Mapping[str, Any]] = []
        for w, world in enumerate(self.worlds):
            try:
                listed = world.run(_REGIONS_JS)
            except Exception:
                if not w:
                    raise  # (the page's own process: a closed page, a timeout)
                continue  # (a frame gone, or not answering)
            for i, region in enumerate(listed if isinstance(listed, list) else ()):
                if isinstance(region, Mapping):
                    found.append({**region, "frame": w > 0})
                    self.regions.append((w, i))
        return found

    def scroll(self, region: int, how: int, across: bool = False) -> bool:
        w, i = self.regions[region]
        try:
            return self.worlds[w].run(f"{_SCROLL_JS}({i}, {how}, {json.dumps(across)})") is True
        except Exception:
            if not w:
                raise  # (the page's own process: a closed page, a timeout)
            return False

    def settle(self, region: int) -> None:
        """Wait for the scrolled frame's DOM to be quiet (:data:`QUIET_MS`)."""
        limits = json.dumps([QUIET_MS, SETTLE_LIMIT_MS])
        with contextlib.suppress(Exception):  # (a frame that cannot be watched)
            self.worlds[self.regions[region][0]].run(f"({SETTLE_JS})({limits})", wait=True)

    def restore(self) -> None:
        """Every region back where it was, as far as the page still answers."""
        for world in self.worlds:
            with contextlib.suppress(Exception):  # (the page closed or navigated)
                world.run(_RESTORE_JS)


def _worlds(page: Any, session: Any) -> list[_World]:
    """The isolated world of every frame the library can run in: the page's process's
    frames on the page's session (the top frame first; the page's main world when no
    isolated world is made), then each frame another process draws, on its own session."""
    worlds: list[_World] = []
    for frame_id in _frame_ids(session):
        context = _world(session, frame_id)
        if context is not None:
            worlds.append(_World(session, {"contextId": context}))
    if not worlds:
        worlds.append(_World(session, {}))
    for frame in list(getattr(page, "frames", ()) or ())[1:]:
        with contextlib.suppress(Exception):  # (a frame gone, or not answering)
            own = _frame_session(page, frame)
            if own is None or own == SILENT:
                continue
            bounded = Bounded(own, FRAME_TIMEOUT_MS)
            for frame_id in _frame_ids(bounded):
                context = _world(bounded, frame_id)
                if context is not None:
                    worlds.append(_World(bounded, {"contextId": context}))
    return worlds


def _order(regions: Sequence[Mapping[str, Any]], ref: SemanticElementRef) -> list[int]:
    """Which regions to scroll first: labelled as a recorded container, then inner regions
    by the area they show, then the page."""
    containers = {normalize(str(c)) for c in ref.container_path or ()}

    def rank(i: int) -> tuple[bool, bool, float]:
        region = regions[i]
        named = bool(region.get("label")) and normalize(str(region["label"])) in containers
        top = bool(region.get("page")) and not region.get("frame")
        return (not named, top, -float(region.get("area") or 0))

    return sorted(range(len(regions)), key=rank)


def scroll_to_find(
    page: Any,
    ref: SemanticElementRef,
    *,
    max_scrolls: int = SCROLLS,
    config: MatchConfig | None = None,
    observation: Any = None,
) -> Any:
    """Resolve ``ref`` on a live page, scrolling to it when the page has not drawn it yet.

    Parameters
    ----------
    page:
        A Playwright page (sync or async API, Chromium).
    ref:
        The recorded element.
    max_scrolls:
        How many scrolls to make at most (0: resolve once, as :func:`resolver.resolve`).
    config:
        The matcher's configuration.
    observation:
        The page's current observation (:func:`~resolver.integrations.playwright.observe`),
        if the caller has one.

    Returns
    -------
    tuple of (Resolution, PageObservation)
        The answer and the observation it was found in (the page stays scrolled there);
        with the async API, an awaitable of it.

    Raises
    ------
    ElementNotFoundError, AmbiguousMatchError
        Not found in any view: the first view's refusal (every region scrolled back),
        ``details["scrolls"]`` saying how many scrolls were made.
    ResolutionError
        Any other refusal (an invalid reference, a page that cannot be read).
    """
    if is_async(page):
        return in_thread(scroll_to_find, page, ref, max_scrolls=max_scrolls, config=config,
                         observation=observation)  # fmt: skip
    if not isinstance(ref, SemanticElementRef):
        raise InvalidReferenceError(
            f"scroll_to_find takes a SemanticElementRef, not {type(ref).__name__}"
        )
    if isinstance(max_scrolls, bool) or not isinstance(max_scrolls, int) or max_scrolls < 0:
        raise InvalidReferenceError(f"max_scrolls must be an int >= 0, got {max_scrolls!r}")
    from .playwright import observe  # (playwright.act uses this module)

    first = observation if observation is not None else observe(page, screenshot=False)
    try:
        return resolve(ref, first, config=config, coords_fallback="never"), first
    except (ElementNotFoundError, AmbiguousMatchError) as exc:
        if max_scrolls == 0:
            raise
        # Kept for the search's own refusal, without the frames it was raised through:
        # they hold it (a reference cycle) and the first view's tables with it.
        refused = exc.with_traceback(None)
    return _scrolled(page, ref, config, max_scrolls, refused, first)


def _scrolled(
    page: Any,
    ref: SemanticElementRef,
    config: MatchConfig | None,
    most: int,
    refused: ResolutionError,
    first: Any = None,
) -> tuple[Resolution, Any]:
    """:func:`scroll_to_find` once the page as it is (``first``) has refused ``ref``."""
    session = Bounded(_session(page), _CALL_MS)
    search = _Search(page, _worlds(page, session), most, refused, first)
    try:
        found = _search(search, ref, config)
    except BaseException:  # (a closed page, an interrupt: the regions go back first)
        search.restore()
        raise
    if found is not None:
        return found
    raise _not_found(search)


def _search(
    search: _Search, ref: SemanticElementRef, config: MatchConfig | None
) -> tuple[Resolution, Any] | None:
    """Each region down, then up, from where it is (then right, then left, for one that
    scrolls sideways); the first view that has ``ref``. In a region that scrolls both ways (a
    grid drawing the columns in view), each view down or up that shows the recorded record
    without the element is also scrolled right and left (:func:`_across`)."""
    regions = search.find_regions()
    for region in _order(regions, ref):
        shown = regions[region]  # (a region that says nothing of its axes scrolls down)
        ways = [across for across, key in ((False, "y"), (True, "x")) if shown.get(key, not across)]
        grid = len(ways) == 2
        shows = grid and _record_shown(ref, search.first)
        found = _across(search, region, ref, config) if shows else None
        if found is not None:
            return found
        for across in ways:
            for how in (1, -1):
                found = _sweep(search, region, ref, config, (how, across, grid))
                if found is not None:
                    return found
            search.scroll(region, 0)
    return None


def _sweep(
    search: _Search,
    region: int,
    ref: SemanticElementRef,
    config: MatchConfig | None,
    way: tuple[int, bool, bool],
) -> tuple[Resolution, Any] | None:
    """Scroll ``region`` a view at a time one way (``(how, across, grid)``: down or right
    for 1, up or left from where it was for -1; ``grid``: it scrolls both ways), looking in
    each view."""
    how, across, grid = way
    if how == -1:
        search.scroll(region, 0)
    while search.left > 0 and search.scroll(region, how, across):
        search.left -= 1
        search.scrolls += 1
        found, fresh = _look(search, region, ref, config)
        if found is None and grid and not across and _record_shown(ref, fresh):
            found = _across(search, region, ref, config)
        if found is not None:
            return found
    return None


def _across(
    search: _Search, region: int, ref: SemanticElementRef, config: MatchConfig | None
) -> tuple[Resolution, Any] | None:
    """Scroll ``region`` right, then left, from where it is across, looking in each view;
    back where it was across when ``ref`` is not found (where it is down stays)."""
    for how in (1, -1):
        if how == -1:
            search.scroll(region, 2, True)
        while search.left > 0 and search.scroll(region, how, True):
            search.left -= 1
            search.scrolls += 1
            found, _ = _look(search, region, ref, config)
            if found is not None:
                return found
    search.scroll(region, 2, True)
    return None


def _record_shown(ref: SemanticElementRef, observation: Any) -> bool:
    """Whether the recorded record is in ``observation`` (:func:`record_in_view`)."""
    if observation is None or not observation.has("a11y"):
        return False
    return record_in_view(ref, observation.candidates("a11y")) is not None


def _look(
    search: _Search, region: int, ref: SemanticElementRef, config: MatchConfig | None
) -> tuple[tuple[Resolution, Any] | None, Any]:
    """Resolve ``ref`` on the page as the last scroll (of ``region``) left it: the answer
    (``None``: not there) and the observation looked in."""
    from .playwright import observe

    search.settle(region)
    fresh = observe(search.page, screenshot=False)
    least = max(SEARCH_CONFIDENCE, (config or MatchConfig()).min_confidence)
    look = partial(resolve, config=config, coords_fallback="never", min_confidence=least)
    try:
        resolution: Resolution = look(ref, fresh)
        if not _slot_taken(ref, fresh, resolution):
            return (resolution, fresh), fresh
    except ElementNotFoundError:
        return None, fresh
    except AmbiguousMatchError:
        if not _in_recorded_record(ref, fresh.candidates("a11y")):
            return None, fresh
    # A list's recycled slot: the recorded place (box, positional selector, xpath) names
    # whichever row is drawn there now. Looked for by what it is and what is around it.
    unplaced = ref.model_copy(update=_UNPLACED)
    try:
        resolution = look(unplaced, fresh)
    except (ElementNotFoundError, AmbiguousMatchError):
        return None, fresh
    table = fresh.candidates("a11y")
    row = index_of(table).rows_by_id.get(resolution.candidate.id)
    if resolution.source != "a11y" or row not in _in_recorded_record(ref, table):
        return None, fresh  # (the answer must be the one element of the recorded record)
    return (resolution, fresh), fresh


def _in_recorded_record(ref: SemanticElementRef, table: CandidateTable) -> list[int]:
    """The row of the recorded role and name in the recorded record (a table row, a list's
    entry named by its texts), when exactly one is; else none."""
    there = in_recorded_record(ref, table)
    return there if len(there) == 1 else []


def _slot_taken(ref: SemanticElementRef, observation: Any, resolution: Resolution) -> bool:
    """Whether the answer is in another record than the recorded one while the recorded
    record, in view, holds an element of the recorded role and name
    (:func:`~resolver.decide.records.namesake_recorded_there`): a virtualised list reuses its
    rows' places, so a recorded positional selector or xpath, or the recorded box, names
    whichever row is drawn there now."""
    if resolution.source not in ("a11y", "dom"):
        return False
    table = observation.candidates(resolution.source)
    row = index_of(table).rows_by_id.get(resolution.candidate.id)
    return row is not None and namesake_recorded_there(ref, table, row)


def _not_found(search: _Search) -> ResolutionError:
    """The first view's refusal, saying how far the search went."""
    first = search.refused
    how = (f"not in any other view either, after {search.scrolls} "
           f"scroll{'s' * (search.scrolls != 1)} of the page's scrollable regions "
           f"(each scrolled back)")  # fmt: skip
    evidence = first.evidence
    return type(first)(
        f"{first.message}; {how}", code=first.code, candidates=evidence.candidates,
        trace=evidence.trace, details={**evidence.details, "scrolls": search.scrolls},
        rule=evidence.rule,
    )  # fmt: skip
