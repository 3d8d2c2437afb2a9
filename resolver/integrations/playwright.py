"""Live Playwright pages: observe a page, and act on what :func:`resolver.resolve` answered.

``observe(page)`` builds a :class:`~resolver.integrations.snapshot.PageObservation` from a
Chromium page over its CDP session, and each cross-site frame's (see
:mod:`resolver.integrations.snapshot` for the batched calls, :mod:`resolver.integrations.cdp`
for the sessions and their time limits); ``to_locator(page, resolution)`` turns an executor
ID into a Playwright locator, inside the frames the element is in; ``act(page, resolution,
action)`` clicks, types or hovers at the element, after checking that the node it is about
to touch still has the resolved role and name, is not covered by another element and is not
moving away, and types only with the keyboard focus on it. When the check fails (a
re-render between observe and act), ``act`` observes again and resolves the recorded
element once more, or raises :class:`~resolver.errors.StaleElementError`: it never clicks
something else.

Nothing from Playwright is imported (the page is used through its methods), so this module
loads without the ``browser`` extra; the functions need a Playwright page (``pip install
'resolver[browser]'``) on Chromium, of the sync or the async API (``act`` runs its steps in
a worker thread with the async one: :mod:`.threaded`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, Final

from ..capture.chrome import element_role
from ..capture.page_script import FRAME_ORIGIN_JS, XPATH_JS
from ..chain import resolve
from ..config import MatchConfig
from ..errors import (
    ElementNotInteractableError,
    InvalidReferenceError,
    ResolutionError,
    SourceUnavailableError,
    StaleElementError,
    shorten,
)
from ..models import ActionWithElement, SemanticElementRef
from ..observation import Observation
from ..results import Resolution
from ..roles import canonical_role, role_compat
from ..text import name_similarity
from .cdp import (
    FRAME_TIMEOUT_MS,
    PAGE_TIMEOUT_MS,
    SILENT,
    Bounded,
    _drive,
    _drive_async,
    _drive_remote,
    _frame_session,
    _on,
    _remote_plan,
    _session,
    isolated_context,
    isolated_node,
)
from .scrolling import scroll_to_find
from .snapshot import (
    NAVIGATION_TRIES,
    PageNavigatedError,
    PageObservation,
    PageSnapshot,
    RemoteFrame,
    observe_steps,
    observed,
    remote_key,
    to_observation,
    top_frame_id,
)
from .threaded import is_async, synced

__all__ = ["PageObservation", "act", "observe", "scroll_to_find", "to_locator"]

UNREACHABLE: Final[tuple[str, ...]] = (
    "another element covers it",
    "the node has no box",
    "the node could not be scrolled into view",
    "it cannot be clicked",
    "it is moving",
    "it is disabled",
    "it moves each time the pointer comes near it",
)
"""How :func:`act`'s check begins its reason when the element is there but cannot be reached
(``StaleElementError.evidence.details["unreachable"]`` is then true)."""
STEADY_TRIES: Final[int] = 5
"""How many times ``act`` measures an element that moved between two frames before it
gives up (each measurement waits two frames)."""
POINTER_TRIES: Final[int] = 3
"""How many times ``act`` moves the pointer to an element that moved when the pointer
arrived (a menu closing as the pointer left it) before it gives up."""

CONTROLS_CSS: Final[str] = (
    "a[href],button,input,select,textarea,summary,label,[contenteditable=''],"
    "[contenteditable=true],[role=button],[role=link],[role=checkbox],[role=radio],"
    "[role=switch],[role=tab],[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],"
    "[role=option],[role=combobox],[role=textbox],[role=searchbox],[role=slider],"
    "[role=spinbutton],[role=treeitem]"
)
"""Elements a press acts on as controls: an element that is none of these and holds one
drawn at its centre is not pressed there (:data:`_POINT_JS`)."""

# Scroll the node into view (unless it is drawn at its centre in the viewport already) and
# find its centre in the top viewport; check that the element drawn there is the node (or
# inside it), across shadow roots and frames. Where a frame of another origin hides the way
# up (``seen`` false), the check places the point by the node's quads, which CDP gives in
# the session's viewport.
_POINT_JS: Final[str] = r"""async function (settle) {
  const el = this.nodeType === 1 ? this : this.parentElement, node = this;
  if (!el || !el.isConnected) return {hit: false, reason: "the node left the page"};
  const measure = () => {
    if (node.nodeType !== 3) return el.getBoundingClientRect();
    const range = el.ownerDocument.createRange(); range.selectNodeContents(node);
    return range.getBoundingClientRect();
  };
  const topmost = (x, y) => {
    const root = el.getRootNode();
    return (root.elementFromPoint ? root : el.ownerDocument).elementFromPoint(x, y);
  };
  // Scrolled into view unless it is drawn at its centre in the top document's viewport
  // already: scrolling moves what a person would press where it is (inner scroll boxes,
  // sticky headers, lazy lists).
  const own = el.ownerDocument.defaultView, at = measure();
  const ax = at.left + at.width / 2, ay = at.top + at.height / 2, shown = topmost(ax, ay);
  if (!(own === own.top && at.width > 0 && at.height > 0 && ax >= 0 && ay >= 0 &&
        ax < own.innerWidth && ay < own.innerHeight && shown &&
        (shown === el || el.contains(shown))))
    el.scrollIntoView({block: "center", inline: "center", behavior: "instant"});
  const first = measure();
  // Two frames later (or 100 ms, where frames are not drawn), the point to click must be
  // inside the box in both measurements: an element that moves away (an animation, a page
  // still laying out) is not clicked at a place it has left; one that pulses in place is.
  // (Not waited for when measured again with the pointer on it: settle false.)
  if (settle !== false) await new Promise((done) => {
    const win = el.ownerDocument.defaultView;
    win.requestAnimationFrame(() => win.requestAnimationFrame(done));
    win.setTimeout(done, 100);
  });
  const r = measure();
  if (!(r.width > 0 && r.height > 0)) return {hit: false, reason: "the node has no box"};
  const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  if (!(cx > first.left + 1 && cx < first.right - 1 && cy > first.top + 1 &&
        cy < first.bottom - 1))
    return {hit: false, moving: true, reason: "it is moving (an animation, or the page " +
            "still laying out)"};
  const hit = topmost(cx, cy);
  const win = el.ownerDocument.defaultView, [dx, dy, seen] = (FRAME_ORIGIN)(win);
  const ok = !!hit && (hit === el || el.contains(hit));
  // An element that is no control (a group, a dialog, a row) with a control inside it drawn
  // at its centre: a press there acts on that control, which the reference does not name.
  const inner = ok && hit !== el && !el.closest(CONTROLS) ? hit.closest(CONTROLS) : null;
  const held = !!inner && inner !== el && el.contains(inner);
  return {hit: ok && !held, x: cx + dx, y: cy + dy, seen, cx, cy, left: r.left, top: r.top,
          width: r.width, height: r.height, framed: win !== win.top,
          scroll: seen ? [win.top.scrollX, win.top.scrollY] : null,
          reason: held ? "a control inside it is drawn at its centre: <" + inner.localName + ">"
            : ok ? "" : "another element covers it: <" + (hit ? hit.localName : "none") + ">"};
}""".replace("FRAME_ORIGIN", FRAME_ORIGIN_JS).replace("CONTROLS", json.dumps(CONTROLS_CSS))


async def _observe_async(page: Any, screenshot: bool, options: dict[str, Any]) -> Observation:
    try:
        session = await page.context.new_cdp_session(page)
    except Exception as exc:
        raise SourceUnavailableError("observe needs a Chromium page from Playwright") from exc
    try:
        for tries_left in range(NAVIGATION_TRIES - 1, -1, -1):
            try:  # (taken again while the page navigates under it: observed())
                steps = _on(session, observe_steps(screenshot=screenshot))
                snapshot: PageSnapshot = await _drive_async(page, steps)
                break
            except PageNavigatedError as exc:
                if not tries_left:
                    raise SourceUnavailableError(
                        f"the page navigated under each of {NAVIGATION_TRIES} observations in a row"
                    ) from exc
        plan = _remote_plan(session, list(page.frames))
        snapshot.remotes, snapshot.unread = await _drive_async(page, plan)
    finally:
        await session.detach()
    for remote in snapshot.remotes:
        remote.handle = None  # (its session is closed: act opens it again, _reattach)
    return to_observation(snapshot, **options)


def observe(page: Any, *, screenshot: bool = True, **options: Any) -> Any:
    """An observation of a live Chromium page.

    Parameters
    ----------
    page:
        A Playwright ``Page`` (sync or async API) on Chromium.
    screenshot:
        Also take a viewport screenshot (for the vision source); about a third of the cost.
    **options:
        Passed to the observation (``max_nodes``, ...).

    Returns
    -------
    PageObservation
        The CDP accessibility tree with boxes (frames included, cross-site frames too:
        each read on its own session, :class:`~resolver.integrations.snapshot.RemoteFrame`;
        ``act`` and the locators reach their nodes through it), the DOM after scripts with
        element boxes (``dom_layout``) and the AX↔DOM link (``dom_node_map``), the
        screenshot and viewport size; with the async API, an awaitable of it.

    Raises
    ------
    SourceUnavailableError
        The page is not a Chromium page (no CDP), or its process did not answer within
        :data:`PAGE_TIMEOUT_MS` (a cross-site frame that does not answer within
        :data:`FRAME_TIMEOUT_MS` is left out instead, its URL in ``unread_frames``), or it
        navigated under each of :data:`NAVIGATION_TRIES` observations in a row (one that a
        navigation crossed mixes two documents, and is taken again).
    InvalidObservationError
        The page gave no accessibility tree or document.
    """
    if is_async(page):
        return _observe_async(page, screenshot, options)
    main = _session(page)
    snapshot = observed(lambda: _drive(main, observe_steps(screenshot=screenshot)))
    plan = _remote_plan(main, list(page.frames))
    snapshot.remotes, snapshot.unread = _drive_remote(page, plan, main)
    return to_observation(snapshot, **options)


def to_locator(page: Any, resolution: Resolution, observation: Observation | None = None) -> Any:
    """A Playwright locator for a resolution's element (a locator of the page's API).

    ``xpath:`` and ``css:`` IDs become ``xpath=`` / ``css=`` locators; an ``a11y:`` ID (a
    node of ``observation``, which it needs) the element's XPath when ``observation`` links
    it to the DOM, its shadow host's XPath and a CSS path down from the shadow root when it
    is inside open shadow trees, else ``get_by_role(role, name=..., exact=True)``; an
    element inside frames (of any origin or process) is looked for inside them
    (``page.frame_locator(...)`` for each frame, from the top, when ``observation`` is what
    :func:`observe` returned).

    Raises
    ------
    InvalidReferenceError
        A ``vision:`` or ``coords:`` answer has no element to locate, the element is in a
        frame no selector enters (``PageObservation.unlocatable``): use :func:`act`; or an
        ``a11y:`` answer came without its observation (a role locator on the top document
        could select a namesake of an element inside a frame).
    """
    scheme, _, value = resolution.executor_id.partition(":")
    if scheme == "css":
        return page.locator(f"css={value}")
    if scheme == "xpath":
        return page.locator(f"xpath={value}")
    if scheme == "a11y":
        if observation is None:
            raise InvalidReferenceError(
                f"{resolution.executor_id!r} names a node of an observation: pass the "
                "observation it was resolved on, so its element is looked for where it is"
            )
        if resolution.executor_id in getattr(observation, "unlocatable", ()):
            raise InvalidReferenceError(
                f"{resolution.executor_id!r} is inside a frame no selector enters (a frame "
                "element beside another inside one shadow host): use act() on it"
            )
        base, xpath = _framed(page, resolution, observation)
        if xpath:
            return base.locator(f"xpath={xpath}")
        inside = _shadow_path(page, resolution, observation)
        if inside:  # (in open shadow trees, which no XPath reaches)
            return base.locator(inside)
        candidate = resolution.candidate
        if candidate.role == "text":
            return base.get_by_text(candidate.name, exact=True)
        return base.get_by_role(candidate.role, name=candidate.name or None, exact=True)
    raise InvalidReferenceError(
        f"{resolution.executor_id!r} is a point, not an element: use act() to click it"
    )


def _framed(
    page: Any, resolution: Resolution, observation: Observation | None
) -> tuple[Any, str | None]:
    """Where to look for an ``a11y:`` answer's element (the page, or the frame locator of
    the frames it is inside) and its XPath there, when the observation links one."""
    place = getattr(observation, "frame_paths", {}).get(resolution.executor_id)
    if place is None:
        return page, _linked_xpath(resolution, observation)
    return _entered(page, place[0]), place[1]


def _entered(page: Any, holders: Sequence[str]) -> Any:
    """The page, or the frame locator of the last frame element of ``holders`` (their
    XPaths, or selectors, from the top document down, each in its own document)."""
    for holder in holders:
        page = page.frame_locator(frame_selector(holder))
    return page


def frame_selector(holder: str) -> str:
    """The Playwright selector of a frame element as :data:`FramePath` gives it (an XPath,
    or a selector already)."""
    return holder if holder.startswith("xpath=") else f"xpath={holder}"


_SHADOW_PATH_JS: Final[str] = r"""function () {
  const tag = (el) => /^[a-z][a-z0-9-]*$/.test(el.localName) ? el.localName : "*";
  const xpath = XPATH_OF;
  const chain = (el) => {
    const root = el.getRootNode();
    if (!(root instanceof ShadowRoot)) {
      const path = root === el.ownerDocument ? xpath(el) : null;
      return path && "xpath=" + path;
    }
    if (root.mode !== "open") return null;
    const steps = [];
    for (let e = el; e; e = e.parentElement) {
      const k = Array.prototype.indexOf.call(e.parentNode.children, e) + 1;
      steps.unshift(tag(e) + ":nth-child(" + k + ")");
      if (e.parentNode === root) break;
    }
    const host = chain(root.host);
    return host && host + " >> css=:scope > " + steps.join(" > ");
  };
  return this.nodeType === 1 && this.getRootNode() instanceof ShadowRoot ? chain(this) : null;
}""".replace("XPATH_OF", XPATH_JS)
"""A Playwright selector of an element inside open shadow trees, in its frame's document:
the outermost shadow host's XPath, then for each shadow tree a CSS path down from its root
(``:scope > tag:nth-child(k) > ...``; Playwright's CSS enters open shadow roots, a root's
children being its host's children there), the trees joined by ``>>``. ``null`` for
anything else, and for an element under a closed shadow root."""


def _shadow_path(page: Any, resolution: Resolution, observation: Observation | None) -> str | None:
    """:data:`_SHADOW_PATH_JS` of an ``a11y:`` answer's node, read on the page now (the
    snapshot's node list follows the flattened tree, where a shadow root's own children
    and its host's slotted children cannot be told apart); ``None`` where the page does
    not give one (a node gone, or not inside a shadow tree)."""
    backend = getattr(observation, "backend_ids", {}).get(resolution.executor_id)
    if backend is None:
        return None
    try:
        session, _ = _node_target(page, resolution, observation)
        answer = session.send("Runtime.callFunctionOn", {
            "objectId": isolated_node(session, backend)["objectId"],
            "functionDeclaration": _SHADOW_PATH_JS, "returnByValue": True,
        })  # fmt: skip
    except Exception:  # (gone, a frame that does not answer: the role locator instead)
        return None
    value = (answer or {}).get("result", {}).get("value")
    return value if isinstance(value, str) else None


def _linked_xpath(resolution: Resolution, observation: Observation | None) -> str | None:
    if observation is None or not observation.has("a11y"):
        return None
    table = observation.candidates("a11y")
    column = table.platform_ids.get("xpath")
    if column is None:
        return None
    row = table.executor_row(resolution.executor_id)
    return None if row is None else column[row]


def _backend(page: Any, resolution: Resolution, observation: Observation | None) -> int | None:
    """The backendNodeId of the resolution's element, or ``None`` for a point answer."""
    if isinstance(observation, PageObservation):
        known = observation.backend_ids.get(resolution.executor_id)
        if known is not None:
            return known
    scheme, _, value = resolution.executor_id.partition(":")
    if scheme == "a11y":
        raise InvalidReferenceError(
            f"{resolution.executor_id!r} names a node of an observation: pass the observation "
            "observe() returned, so the node can be checked before it is touched"
        )
    if scheme not in ("css", "xpath"):
        return None
    find = (f"document.querySelector({value!r})" if scheme == "css" else
            f"document.evaluate({value!r}, document, null, 9, null).singleNodeValue")  # fmt: skip
    session = Bounded(_session(page), PAGE_TIMEOUT_MS)
    try:
        found = session.send("Runtime.evaluate", {"expression": find,
                                                  **isolated_context(session)})  # fmt: skip
        node = session.send("DOM.describeNode", {"objectId": found["result"]["objectId"]})
        return int(node["node"]["backendNodeId"])
    except Exception as exc:  # no such element any more
        raise StaleElementError(f"{resolution.executor_id!r} selects nothing now") from exc


def _node_target(
    page: Any, resolution: Resolution, observation: Observation | None
) -> tuple[Any, Callable[[], tuple[float, float]]]:
    """The CDP session that holds the answer's node (the tab's, or that of the cross-site
    frame it is in), and what gives, when called, where that frame's viewport is in the
    tab's now (its frame element may have moved since the observation)."""
    key = getattr(observation, "targets", {}).get(resolution.executor_id)
    if key is None:
        return Bounded(_session(page), PAGE_TIMEOUT_MS), lambda: (0.0, 0.0)
    assert isinstance(observation, PageObservation)
    remote = observation.remote_frames.get(key)
    if remote is None or remote.handle is None:
        raise StaleElementError(
            f"{resolution.executor_id!r} is in a frame another process draws, which this "
            "copy of the observation cannot reach: observe the page again"
        )
    session = Bounded(remote.handle, FRAME_TIMEOUT_MS)
    return session, partial(_frame_offset, page, observation, remote)


def _frame_offset(
    page: Any, observation: PageObservation, remote: RemoteFrame
) -> tuple[float, float]:
    """Where a cross-site frame's viewport is in the tab's now (as observed if it cannot be
    read again)."""
    above = observation.remote_frames.get(remote.parent) if remote.parent else None
    via = Bounded(_session(page), PAGE_TIMEOUT_MS)
    if above is not None:
        via = Bounded(above.handle, FRAME_TIMEOUT_MS)
    try:
        quad = via.send("DOM.getBoxModel", {"backendNodeId": remote.owner})["model"]["content"]
    except Exception:
        return remote.offset
    dx, dy = (0.0, 0.0) if above is None else _frame_offset(page, observation, above)
    return (dx + float(quad[0]), dy + float(quad[1]))


def _observed_ancestors(
    observation: Observation | None, backend: int, executor: str = ""
) -> tuple[str, ...]:
    """The names of the named ancestors the node had when it was observed (innermost
    first, up to its frame's document), from the observation's accessibility tree; ``()``
    when it is not known."""
    if not isinstance(observation, PageObservation) or not observation.has("a11y"):
        return ()
    executors = [executor] if executor in observation.backend_ids else [
        k for k, v in observation.backend_ids.items()
        if v == backend and k not in observation.targets  # (IDs of another process)
    ]  # fmt: skip
    table = observation.candidates("a11y")
    row = next((r for e in executors if (r := table.executor_row(e)) is not None), None)
    names: list[str] = []
    for _ in range(len(table.names)):  # up to the node's own document (its frame's root)
        parent = int(table.parent[row]) if row is not None else -1
        row = parent if parent >= 0 else None
        if row is None or table.roles[row] == "document":
            break
        if table.names[row]:
            names.append(table.names[row])
    return tuple(names)


def _ancestors_now(tree: Mapping[str, Any], backend: int) -> list[str]:
    """The names of the node's ancestors in a ``getPartialAXTree`` answer with relatives."""
    nodes = [n for n in tree.get("nodes", []) if isinstance(n, dict)]
    parent_of = {str(c): str(n.get("nodeId")) for n in nodes for c in n.get("childIds") or ()}
    by_id = {str(n.get("nodeId")): n for n in nodes}
    start = next((n for n in nodes if n.get("backendDOMNodeId") == backend), None)
    at = None if start is None else str(start.get("nodeId"))
    names: list[str] = []
    for _ in range(len(nodes)):
        at = parent_of.get(at) if at is not None else None
        if at is None or at not in by_id:
            break
        names.append(str((by_id[at].get("name") or {}).get("value") or ""))
    return names


def _moved(before: Sequence[str], now: list[str], config: MatchConfig) -> str | None:
    """Why the node's surroundings no longer are what they were, or ``None``: every named
    ancestor it had must still be one of its ancestors (a group relabelled, a row whose
    texts changed, a node moved into another section make it be resolved again)."""
    for name in before:
        if not any(name_similarity(name, other[: len(name) + 20]) >= config.selector_name
                   for other in now if other):  # fmt: skip
            return f"its surroundings changed: it is no longer inside {shorten(name, 60)!r}"
    return None


# What a node the accessibility tree leaves out (``aria-hidden``) or leaves unnamed (a blank
# name) is, read from the page: its tag, ``type`` and ``role`` attributes (the role made of
# them as the Chrome shim makes one), its label, text, title or alternative text (the first
# that is not blank), and whether it is disabled.
_LEFT_OUT_JS: Final[str] = r"""function () {
  const el = this.nodeType === 1 ? this : this.parentElement;
  if (!el) return null;
  const text = (s) => (s == null ? "" : String(s)).replace(/\s+/g, " ").trim();
  const name = text(el.getAttribute("aria-label")) ||
    text(el.labels && el.labels.length ? el.labels[0].innerText : "") || text(el.innerText) ||
    text(el.localName === "input" ? el.value : "") || text(el.getAttribute("title")) ||
    text(el.getAttribute("alt"));
  return {tag: el.localName, role: el.getAttribute("role"),
          attributes: {type: el.getAttribute("type") || ""},
          name: name, disabled: el.matches(":disabled")};
}"""


def _left_out(session: Any, obj: Mapping[str, Any]) -> dict[str, Any]:
    """A node the accessibility tree ignores as :func:`_check` reads a node of it: its
    ``role`` (:func:`~resolver.capture.chrome.element_role` of what :data:`_LEFT_OUT_JS`
    reads, ``generic`` for a tag without one) and ``name``, and a ``disabled`` property when
    it is; no role when the page cannot say."""
    try:
        read = session.send("Runtime.callFunctionOn", {
            "objectId": obj["objectId"], "functionDeclaration": _LEFT_OUT_JS,
            "returnByValue": True,
        })["result"]["value"]  # fmt: skip
    except Exception:
        return {}
    if not isinstance(read, dict):
        return {}
    role = element_role(read) or "generic"
    flag = [{"name": "disabled", "value": {"value": True}}] if read.get("disabled") is True else []
    return {"role": {"value": role}, "name": {"value": str(read.get("name") or "")},
            "properties": flag}  # fmt: skip


def _ax_name(node: Mapping[str, Any]) -> str:
    """An accessibility node's name as text (``""`` without one)."""
    return str((node.get("name") or {}).get("value") or "")


def _check(
    target: tuple[Any, Callable[[], tuple[float, float]]],
    backend: int,
    resolution: Resolution,
    config: MatchConfig,
    ancestors: Sequence[str] = (),
    *,
    enabled: bool = True,
) -> dict[str, Any] | str:
    """The node as a ``Runtime.RemoteObject`` (for :func:`_where`), after checking it still
    is what was resolved, in the surroundings it was resolved in (and, with ``enabled``,
    that it is not disabled); the reason it is not, as a string, otherwise (``target``: the
    session holding the node and its frame's offset, :func:`_node_target`)."""
    session, _ = target
    try:
        obj = isolated_node(session, backend)
        tree = session.send("Accessibility.getPartialAXTree",
                            {"backendNodeId": backend, "fetchRelatives": True})  # fmt: skip
    except Exception:
        return "the node is gone (the page re-rendered)"
    node: dict[str, Any] = next(
        (n for n in tree.get("nodes", []) if n.get("backendDOMNodeId") == backend), {}
    )
    if resolution.source == "dom" and node.get("ignored"):
        node = _left_out(session, obj)  # (aria-hidden: read as the DOM source reads it)
    elif resolution.source == "dom" and not _ax_name(node).strip():
        node = {**node, "name": _left_out(session, obj).get("name", {})}  # (blank in the tree)
    role = canonical_role((node.get("role") or {}).get("value"), "cdp")
    name = _ax_name(node)
    want = resolution.candidate
    if role_compat(want.role, role) < config.selector_role:
        return f"its role is now {role!r}, not {want.role!r}"
    if want.name and name_similarity(want.name, name) < config.selector_name:
        return f"its name is now {name!r}, not {want.name!r}"
    moved = _moved(ancestors, _ancestors_now(tree, backend), config)
    if moved or (enabled and _disabled(node)):
        return moved or "it is disabled (the page does not let a person use it now)"
    return obj


def _where(
    target: tuple[Any, Callable[[], tuple[float, float]]],
    backend: int,
    obj: Mapping[str, Any],
    settle: bool = True,
) -> tuple[float, float] | str:
    """The viewport point of the node ``obj`` (:func:`_check`), scrolled into view and drawn
    there (no other element over it), or why there is none. With ``settle`` the node is
    measured twice two frames apart and must not be moving away (measured again, a few
    times, :data:`STEADY_TRIES`); without, once (measured again with the pointer on it)."""
    session, offset = target
    for _ in range(STEADY_TRIES):  # (a moving element is measured again, a few times)
        try:
            point = session.send("Runtime.callFunctionOn", {
                "objectId": obj["objectId"], "functionDeclaration": _POINT_JS,
                "arguments": [{"value": settle}], "returnByValue": True, "awaitPromise": True,
            })["result"]["value"]  # fmt: skip
        except Exception:
            return "the node could not be scrolled into view"
        if not point.get("moving"):
            break
    if not point.get("hit"):
        return str(point.get("reason") or "it cannot be clicked")
    placed = _framed_point(session, backend, obj, point)
    if isinstance(placed, str):
        return placed
    dx, dy = offset()
    return (placed[0] + dx, placed[1] + dy)


# Whether the node a hit test found (``hit``) is this node, or inside it across shadow roots.
_HOLDS_JS: Final[str] = r"""function (hit) {
  const el = this.nodeType === 1 ? this : this.parentElement;
  for (let n = hit; n; n = n.parentNode || n.host) if (n === el || n === this) return true;
  return false;
}"""


def _framed_point(
    session: Any, backend: int, obj: Mapping[str, Any], point: Mapping[str, Any]
) -> tuple[float, float] | str:
    """The point of :data:`_POINT_JS`'s answer in the session's viewport. Inside a frame it
    was placed by adding the frames' offsets, which a frame drawn scaled or turned (a CSS
    transform or zoom on it) does not follow, or could not be placed (``seen`` false): there
    the browser's own hit test must find the node at the point, else the point is placed
    by the node's quads (scaled to them) and tested again, else none is given."""
    if not point.get("framed"):
        return (float(point["x"]), float(point["y"]))
    lands = partial(_lands, session, obj, backend, point.get("scroll"))
    if point.get("seen", True) and lands(float(point["x"]), float(point["y"])):
        return (float(point["x"]), float(point["y"]))
    try:
        quads = session.send("DOM.getContentQuads", {"backendNodeId": backend})["quads"]
        xs = [v for q in quads for v in q[0::2]]
        ys = [v for q in quads for v in q[1::2]]
        sx = (max(xs) - min(xs)) / max(float(point["width"]), 1e-9)
        sy = (max(ys) - min(ys)) / max(float(point["height"]), 1e-9)
    except Exception:
        return "the node could not be scrolled into view"
    x = min(xs) + (float(point["cx"]) - float(point["left"])) * sx
    y = min(ys) + (float(point["cy"]) - float(point["top"])) * sy
    if lands(x, y):
        return (x, y)
    return "it cannot be clicked: its frame is drawn scaled or moved, and no point reached it"


def _lands(
    session: Any,
    obj: Mapping[str, Any],
    backend: int,
    scroll: Sequence[float] | None,
    x: float,
    y: float,
) -> bool:
    """Whether the browser's hit test at ``(x, y)`` (in the session's viewport; across the
    frames it draws) finds the node (``obj``, ``backend``) or a node inside it. The test
    takes the point in the document: the viewport's ``scroll`` is added (asked for when
    the page script could not read it)."""
    try:
        if scroll is None:
            view = session.send("Page.getLayoutMetrics")["cssVisualViewport"]
            scroll = (view["pageX"], view["pageY"])
        found = session.send("DOM.getNodeForLocation", {
            "x": round(x + scroll[0]), "y": round(y + scroll[1]),
            "includeUserAgentShadowDOM": True, "ignorePointerEventsNone": False,
        })  # fmt: skip
        if found.get("backendNodeId") == backend:
            return True
        # (looked up as the element was: two nodes of different worlds cannot be compared)
        hit = isolated_node(session, int(found["backendNodeId"]))
        answer = session.send("Runtime.callFunctionOn", {
            "objectId": obj["objectId"], "functionDeclaration": _HOLDS_JS,
            "arguments": [{"objectId": hit["objectId"]}], "returnByValue": True,
        })  # fmt: skip
    except Exception:  # (a node of another frame's world: not this one)
        return False
    return answer.get("result", {}).get("value") is True


def _disabled(node: Mapping[str, Any]) -> bool:
    """Whether an accessibility node is disabled (``disabled``, or ``aria-disabled``)."""
    return any(
        p.get("name") == "disabled" and (p.get("value") or {}).get("value") is True
        for p in node.get("properties") or ()
    )


def _perform(
    page: Any,
    action: ActionWithElement | None,
    x: float,
    y: float,
    focused: Callable[[], str | None] = lambda: None,
    *,
    there: bool = False,
) -> None:
    """Do ``action`` at ``(x, y)`` (``there``: the pointer rests there already, so a click
    is pressed and released without moving it again); before typing or pressing a key,
    ``focused`` must say nothing (else the text would go wherever the focus is)."""
    kind = action.type if action is not None else "click"
    if kind == "hover":
        page.mouse.move(x, y)
    elif kind == "double_click":
        page.mouse.dblclick(x, y)
    elif kind in ("click", "type", "key", "right_click"):
        button = "right" if kind == "right_click" else "left"
        if there:
            page.mouse.down(button=button)
            page.mouse.up(button=button)
        else:
            page.mouse.click(x, y, button=button)
        if kind == "right_click":
            return
        keys = action is not None and bool(action.text if kind == "type" else action.key)
        if kind != "click" and keys and (why := focused()) is not None:
            raise ElementNotInteractableError(f"not typing: {why}", details={"reason": why})
        if kind == "type" and action is not None and action.text:
            page.keyboard.type(action.text)
        elif kind == "key" and action is not None and action.key:
            page.keyboard.press(action.key)
    else:
        raise InvalidReferenceError(
            f"act: {kind!r} actions are not supported; click, double_click, right_click, "
            "hover, type and key are"
        )


# Whether the focus is on this node (or inside it, across shadow roots), and its frames
# are the focused ones as far up as the page lets the script see.
_FOCUS_JS: Final[str] = r"""function () {
  const el = this.nodeType === 1 ? this : this.parentElement;
  if (!el || !el.isConnected) return false;
  let a = el.ownerDocument.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  let inside = false;
  for (let n = a; n; n = n.parentNode || n.host) if (n === el) { inside = true; break; }
  try {
    for (let w = el.ownerDocument.defaultView; w !== w.top && w.frameElement; w = w.parent)
      if (w.parent.document.activeElement !== w.frameElement) return false;
  } catch (e) { /* a parent of another origin */ }
  return inside;
}"""


def focus_on(session: Any, backend: int) -> str | None:
    """``None`` when the node has the keyboard focus, after giving it the focus if it had
    not (a click that moved the focus elsewhere); else why it does not."""

    def has() -> bool:
        obj = isolated_node(session, backend)
        answer = session.send("Runtime.callFunctionOn", {
            "objectId": obj["objectId"], "functionDeclaration": _FOCUS_JS, "returnByValue": True,
        })  # fmt: skip
        return answer.get("result", {}).get("value") is True

    try:
        if has():
            return None
        with contextlib.suppress(Exception):  # (a node that takes no focus refuses it)
            session.send("DOM.focus", {"backendNodeId": backend})
        return None if has() else "the element does not take the keyboard focus"
    except Exception:
        return "the node is gone (the page re-rendered)"


def _resolve_again(action: ActionWithElement, fresh: Observation, why: str) -> Resolution:
    assert action.element is not None
    try:
        return resolve(action.element, fresh, coords_fallback="never")
    except ResolutionError as exc:
        exc.message = f"{why}; resolving it again: {exc.message}"
        raise


def _target(
    page: Any,
    target: Resolution | SemanticElementRef,
    action: ActionWithElement | None,
    observation: Observation | None,
    scrolls: int = 0,
) -> tuple[Resolution, ActionWithElement | None, Observation | None]:
    """What ``act`` acts on: a resolution as given, or a reference resolved on a fresh
    observation of the page (which then is the action's element), scrolled to if asked."""
    if isinstance(target, Resolution):
        return target, action, observation
    if not isinstance(target, SemanticElementRef):
        raise InvalidReferenceError(
            f"act takes a Resolution or a SemanticElementRef, not {type(target).__name__}"
        )
    if scrolls:
        resolution, fresh = scroll_to_find(page, target, max_scrolls=scrolls,
                                           observation=observation)  # fmt: skip
    else:
        fresh = observation if observation is not None else observe(page, screenshot=False)
        resolution = resolve(target, fresh, coords_fallback="never")
    if action is None:
        action = ActionWithElement(type="click", element=target)
    elif action.element is None:
        action = action.model_copy(update={"element": target})
    return resolution, action, fresh


def _stale(resolution: Resolution, why: str) -> StaleElementError:
    """The refusal to act on a node that is not what was resolved (or cannot be reached:
    ``details["unreachable"]``)."""
    return StaleElementError(
        f"not acting on {resolution.executor_id!r}: {why}",
        details={"reason": why, "unreachable": why.startswith(UNREACHABLE)},
    )


def _at_point(page: Any, resolution: Resolution, action: ActionWithElement | None) -> Resolution:
    """Act at a point answer's point (``vision:``, ``coords:``), unchecked."""
    if resolution.point is None:
        raise InvalidReferenceError(f"{resolution.executor_id!r} has no point to act on")
    _perform(page, action, *resolution.point)
    return resolution


def act(
    page: Any,
    target: Resolution | SemanticElementRef,
    action: ActionWithElement | None = None,
    *,
    observation: Observation | None = None,
    reobserve: bool = True,
    config: MatchConfig | None = None,
    scrolls: int = 0,
) -> Any:
    """Perform ``action`` (a click when ``None``) on the target's element.

    An element answer (``a11y:``, ``xpath:``, ``css:``) is checked first: the node must still
    exist, have the resolved role and name (``MatchConfig.selector_role``/``selector_name``), be
    inside every named ancestor it was observed in (not in a group whose label moved), be drawn at
    its centre once scrolled into view (no control inside it drawn there), not be moving away (that
    centre inside its box two frames before too) and, for anything but a hover, not be disabled,
    and stay there once the pointer rests on it (:func:`_reached`); keys are typed only with the
    focus on it. A point answer is clicked unchecked.

    Parameters
    ----------
    page:
        The Playwright page (sync or async API, Chromium).
    target:
        What :func:`resolver.resolve` answered for the page, or a
        :class:`~resolver.SemanticElementRef`, resolved here on a fresh observation.
    action:
        The recorded action; its ``element`` is resolved again if the check fails.
    observation:
        The observation the resolution came from (:func:`observe`; needed for ``a11y:``).
    reobserve:
        When the check fails, observe, resolve ``action.element`` again and act on that, once.
    scrolls:
        For a reference the page has not drawn (a virtualised list's row out of view): scroll
        the page's scrollable regions to find it, at most this many times
        (:func:`~resolver.integrations.scrolling.scroll_to_find`; 0, the default: no scroll).

    Returns
    -------
    Resolution
        The resolution acted on (a new one after a re-observation); with the async API, an
        awaitable of it (the same steps, run in a worker thread: :mod:`.threaded`).

    Raises
    ------
    StaleElementError
        The element changed and could not be found again; nothing was touched.
    ElementNotInteractableError
        Keys to type, and the element takes no keyboard focus (it was clicked, not typed in).
    InvalidReferenceError
        ``target`` is neither a resolution nor a reference.
    ResolutionError
        The re-resolution failed (not found, ambiguous).
    """
    if isinstance(scrolls, bool) or not isinstance(scrolls, int) or scrolls < 0:
        raise InvalidReferenceError(f"scrolls must be an int >= 0, got {scrolls!r}")
    if is_async(page):
        return _act_async(page, target, action, observation, reobserve, config, scrolls)
    return _act(page, target, action, observation, reobserve, config or MatchConfig(), scrolls)


def _act(
    page: Any,
    target: Resolution | SemanticElementRef,
    action: ActionWithElement | None,
    observation: Observation | None,
    reobserve: bool,
    config: MatchConfig,
    scrolls: int = 0,
) -> Resolution:
    """:func:`act` on a sync page (or a :class:`~.threaded.Synced` one)."""
    resolution, action, observation = _target(page, target, action, observation, scrolls)
    backend = _backend(page, resolution, observation)
    if backend is None:
        return _at_point(page, resolution, action)
    ancestors = _observed_ancestors(observation, backend, resolution.executor_id)
    holder = _node_target(page, resolution, observation)
    kind = action.type if action is not None else "click"
    node = _check(holder, backend, resolution, config, ancestors, enabled=kind != "hover")
    if isinstance(node, str):
        return _once_more(page, resolution, action, node, reobserve, config)
    where = partial(_where, holder, backend, node)
    outcome = where(True) if kind == "hover" else _reached(page, where)
    if not isinstance(outcome, tuple):
        return _once_more(page, resolution, action, outcome, reobserve, config)
    there = kind != "hover"  # (the pointer was moved there and the node measured again)
    _perform(page, action, *outcome, focused=partial(focus_on, holder[0], backend), there=there)
    return resolution


def _reached(
    page: Any, where: Callable[[bool], tuple[float, float] | str]
) -> tuple[float, float] | str:
    """Where to press: the node measured (``where(settle)``, :func:`_where`) with the
    pointer resting on it. A page can move things when the pointer arrives (a menu that
    closes as the pointer leaves it lets what follows move up), and a press at the place
    measured before would land on whatever took the node's place. The pointer goes to the
    node, the node is measured again (the first time two frames apart, as every press's
    node is), and again after each move until it stays under the pointer; the point, or
    why there is none (the node went, or moves each time the pointer comes near,
    :data:`POINTER_TRIES`)."""
    point = where(False)
    for tries in range(POINTER_TRIES):
        if isinstance(point, str):
            return point
        page.mouse.move(*point)
        again = where(tries == 0)
        if isinstance(again, str):
            return again
        if abs(again[0] - point[0]) <= 1.0 and abs(again[1] - point[1]) <= 1.0:
            return point
        point = again
    return "it moves each time the pointer comes near it"


async def _act_async(
    page: Any,
    target: Resolution | SemanticElementRef,
    action: ActionWithElement | None,
    observation: Observation | None,
    reobserve: bool,
    config: MatchConfig | None,
    scrolls: int,
) -> Resolution:
    """:func:`act` on an async page: the sync steps in a worker thread (:mod:`.threaded`)."""
    bridge = synced(page)

    def run() -> Resolution:
        if isinstance(observation, PageObservation):
            _reattach(bridge, observation)
        chosen = config or MatchConfig()
        return _act(bridge, target, action, observation, reobserve, chosen, scrolls)

    return await asyncio.to_thread(run)


def _reattach(page: Any, observation: PageObservation) -> None:
    """Give each cross-site frame of ``observation`` whose session was closed (an
    observation made with the async API) the live session of the frame it was read from
    (the same frame ID), where the page still has that frame."""
    closed = {r.key: r for r in observation.remote_frames.values() if r.handle is None}
    for frame in page.frames if closed else ():
        if getattr(frame, "parent_frame", None) is None:
            continue
        session = _frame_session(page, frame)
        if session is None or session == SILENT:
            continue
        with contextlib.suppress(Exception):  # (gone meanwhile: left closed)
            tree = Bounded(session, FRAME_TIMEOUT_MS).send("Page.getFrameTree")
            remote = closed.pop(remote_key(str(top_frame_id(tree))), None)
            if remote is not None:
                remote.handle = session


def _once_more(
    page: Any,
    resolution: Resolution,
    action: ActionWithElement | None,
    why: str,
    reobserve: bool,
    config: MatchConfig,
) -> Resolution:
    """After a failed check (``why``): the recorded element resolved again on a fresh
    observation and acted on, once, or the refusal."""
    if not reobserve or action is None or action.element is None:
        raise _stale(resolution, why)
    fresh = observe(page, screenshot=False)
    return _act(page, _resolve_again(action, fresh, why), action, fresh, False, config)
