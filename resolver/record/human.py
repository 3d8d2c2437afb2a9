"""``HumanRecorder``: what a person does in a Playwright browser, as recording_v1.

>>> rec = HumanRecorder("runs")                                    # doctest: +SKIP
>>> rec.start("File the expense report", trace_id="session-7")     # doctest: +SKIP
>>> rec.attach(context)     # a BrowserContext or a Page (async API: await)  # doctest: +SKIP
>>> page.wait_for_event("close", timeout=0)   # the person works   # doctest: +SKIP
>>> rec.finish("user_closed")           # (async API: await)          # doctest: +SKIP

**What is recorded.** :data:`HUMAN_JS` (an init script of the context, and run at once on the
pages already open) adds capture-phase listeners: a click (pointer clicks only; a click the
keyboard causes is the key press), a text field's value when it loses focus or Enter is
pressed in it (``type``), a ``select``'s choice (``select``), the files chosen for a file
field (``upload``, their names: a page sees no path; a field drawn nowhere is named by the
control whose click opened its chooser), Enter (``key``) and a form's
``submit``. Each event reaches Python through a page binding with the element kept in the
page; the recorder finds the element's backend node (``DOM.describeNode``), its accessibility
node and ancestors (``Accessibility.getPartialAXTree`` with that backend node ID) and the
first of them the snapshot holds, by backend node ID: the ``target_node``. The action's
``element`` is that node's reference (:func:`~resolver.capture.ref_from_row` on the
snapshot), as an agent's decision has it. Loads, reloads, back/forward, hash changes and new
tabs (``context.on("page")``) are ``navigation`` entries.

**When the snapshot is taken.** A binding call is asynchronous for the page: by the time
Python hears of a click, the page's own handlers have run and may have changed the page. So
the recorder snapshots the page *ahead* of the action: after each load, whenever the DOM has
been quiet for :data:`SETTLE_MS` after a change (a MutationObserver counts changes), and at
``pointerdown``, ``focusin`` and ``keydown`` if the DOM changed since the last snapshot. Every
event carries the change count at the moment it fired, before its default action, and every
snapshot the counts read just before and after it was taken: when they agree the snapshot
shows the page exactly as the person saw it (``snapshot_exact: true``). When none does (the
person acted within a few milliseconds of a change), the latest snapshot holding the element is
used, or a fresh one, and the entry says ``snapshot_exact: false``. Snapshots are written to the
timeline only when an action uses them.

Text typed into password, one-time-code and token fields is masked (the SnapshotV1 rules);
snapshots are redacted.

**Dialogs.** Playwright dismisses a page's ``alert``, ``confirm``, ``prompt`` and
``beforeunload`` at once when nothing listens for them, so a person could never confirm a
deletion. The recorder listens on the context without answering (``leave_dialogs``, on by
default), which leaves each dialog to the person, and hears it open and close on the page's
CDP session (``Page.javascriptDialogOpening`` / ``Closed``): each answered dialog is a
``dialog`` entry after the action before it (``step``), with its kind, message, the answer
and an accepted prompt's text (masked when the message asks for a password or a code).

**Frames.** The script runs in every frame. A same-origin frame's events name their element
through the top document (one set of element IDs and one DOM change count per tab), with the
point in the tab's viewport; its loads are no navigations. A frame the top document cannot
reach (another origin, or another site drawn by another process) sends its element's XPath;
the recorder reads its frame elements' XPaths from the frames above and finds the node at
that place in the snapshot (``PageObservation.frame_paths``), and places the point in the
tab by its frame element's content box. An element inside a shadow tree of such a frame has
no XPath: its action keeps its point and no element.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Final

from ..capture._shim import file_names
from ..capture.page_script import FRAME_ORIGIN_JS, XPATH_JS
from ..capture.rows import ref_from_row
from ..integrations.threaded import is_async, synced
from ..observation import Observation
from ..snapshot import is_sensitive
from ._base import DIALOG_TEXT, Recorder

__all__ = ["DIALOG_TEXT", "HUMAN_JS", "SETTLE_MS", "HumanRecorder"]

log = logging.getLogger(__name__)

SETTLE_MS: Final[int] = 120
"""How long the DOM must be quiet after a change before the page is snapshot again."""
OPENER_MS: Final[int] = 60_000
"""A hidden file field's choice is named by the last click at most this long before it
(the control that opened the chooser; a person may take a while to pick the files)."""

HUMAN_JS: Final[str] = (
    r"""(() => {
  if (window.__resolverHuman) return;
  window.__resolverHuman = true;
  // One hub per tab, kept by the top document: element IDs, and the DOM change count of the
  // tab's same-origin frames too, so an ID read in the top document names the element
  // acted on in whichever frame. A frame the top document cannot reach keeps its own.
  const framed = window.top !== window;
  let shared = null;
  try { if (framed) shared = window.top.__resolverHumanHub || null; } catch (e) { shared = null; }
  const hub = shared || {m: 0, n: 0, els: new Map()};
  if (!framed) window.__resolverHumanHub = hub;
  const within = framed ? (shared ? "shared" : "apart") : "";
  let settle = 0;
  window.__resolverHumanElement = (id) => hub.els.get(id) || null;
  window.__resolverHumanCount = () => hub.m;
  const offset = () => (FRAME_ORIGIN)(window);  // (a frame apart: placed by the recorder)
  const call = (name, arg) => {
    try {
      const f = window[name];
      if (typeof f === "function") Promise.resolve(f(arg)).catch(() => {});
    } catch (e) { /* never break the page */ }
  };
  const prepare = () => call("__resolverHumanPrepare", hub.m);
  new MutationObserver(() => {
    hub.m++; clearTimeout(settle); settle = setTimeout(prepare, SETTLE);
  }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  const keep = (el) => {
    hub.els.set(++hub.n, el);
    if (hub.els.size > 64) hub.els.delete(hub.els.keys().next().value);
    return hub.n;
  };
  const CLICKABLE = "a[href],button,input,select,textarea,summary,label,[role=button]," +
    "[role=link],[role=checkbox],[role=radio],[role=tab],[role=menuitem],[role=option]," +
    "[role=switch],[onclick],[tabindex]";
  const first = (e) => e.composedPath().find((x) => x.nodeType === 1) || null;
  const isText = (el) => !!el && (el.localName === "textarea" || el.isContentEditable ||
    (el.localName === "input" &&
     !/^(button|submit|reset|checkbox|radio|file|image|range|color|hidden)$/i.test(el.type)));
  const attrsOf = (el) => {
    const a = {};
    for (const k of ["type", "name", "id", "autocomplete", "placeholder", "aria-label"]) {
      const v = el.getAttribute(k); if (v) a[k] = v;
    }
    return a;
  };
  const send = (type, el, point, extra) => {
    try {
      const r = el.getBoundingClientRect();
      const label = el.labels && el.labels.length ? el.labels[0].innerText : "";
      const [dx, dy] = within === "shared" ? offset() : [0, 0];
      let url = location.href;
      try { url = window.top.location.href; } catch (e) { /* a frame apart */ }
      call("__resolverHumanAction", {type, id: keep(el), m: hub.m, url, within,
        path: within === "apart" ? xpathOf(el) : null,
        x: dx + (point ? point.clientX : r.left + r.width / 2),
        y: dy + (point ? point.clientY : r.top + r.height / 2),
        attrs: attrsOf(el), label, ...extra});
    } catch (e) { /* never break the page */ }
  };
  const xpathOf = XPATH_OF;  // (for a frame apart: Python finds the element by it)
  const base = new WeakMap();
  const valueOf = (el) => el.isContentEditable ? el.innerText : String(el.value ?? "");
  const flush = (el) => {
    if (!isText(el) || !base.has(el) || valueOf(el) === base.get(el)) return;
    base.set(el, valueOf(el));
    send("type", el, null, {text: valueOf(el)});
  };
  document.addEventListener("pointerdown", prepare, true);
  document.addEventListener("focusin", (e) => {
    const el = first(e);
    if (isText(el) && !base.has(el)) base.set(el, valueOf(el));
    prepare();
  }, true);
  document.addEventListener("focusout", (e) => flush(first(e)), true);
  // A file field drawn nowhere (most sites hide it behind a button) is named by the
  // control whose click opened its chooser, the person's last click.
  let opener = null, openedAt = 0;
  const drawn = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0 &&
      !el.closest("[aria-hidden=true]");
  };
  document.addEventListener("click", (e) => {
    if (e.detail === 0) return;  // the keyboard's click: the key press is recorded
    const el = first(e);
    if (!el) return;
    opener = el.closest(CLICKABLE) || el; openedAt = Date.now();
    send("click", opener, e, {});
  }, true);
  document.addEventListener("change", (e) => {
    const el = first(e);
    if (el && el.localName === "select") {
      const o = el.selectedOptions && el.selectedOptions[0];
      send("select", el, null, {text: o ? o.text : String(el.value)});
    } else if (el && el.localName === "input" && el.type === "file") {
      const by = drawn(el) || !opener || Date.now() - openedAt > OPENER_MS ? el : opener;
      send("upload", by, null, {files: [...(el.files || [])].map((f) => f.name)});
    } else flush(el);
  }, true);
  document.addEventListener("keydown", (e) => {
    prepare();
    if (e.key !== "Enter" || e.isComposing) return;
    const el = first(e);
    if (!el) return;
    flush(el);
    send("key", el, null, {key: "Enter"});
  }, true);
  document.addEventListener("submit", (e) => send("submit", e.target, null, {}), true);
  // A frame's load is no navigation of the tab: the page changed, and is snapshot again.
  const loaded = (type) => framed ? prepare()
    : call("__resolverHumanLoaded", {url: location.href, type, m: hub.m});
  const start = () => {
    let type = "navigate";
    try { type = performance.getEntriesByType("navigation")[0].type || type; } catch (e) {}
    loaded(type);
  };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start, {once: true});
  } else start();
  window.addEventListener("hashchange", () => loaded("same_document"));
})();""".replace("SETTLE", str(SETTLE_MS))
    .replace("OPENER_MS", str(OPENER_MS))
    .replace("XPATH_OF", XPATH_JS)
    .replace("FRAME_ORIGIN", FRAME_ORIGIN_JS)
)
"""The in-page side of :class:`HumanRecorder` (module doc)."""

_REASONS: Final[dict[str, str]] = {"navigate": "navigate", "reload": "reload",
                                   "back_forward": "back_forward", "prerender": "navigate",
                                   "same_document": "same_document"}  # fmt: skip


@dataclass
class _Shot:
    """A snapshot taken of one page: its observation, the DOM change count it shows exactly
    (``None`` when the page changed while it was taken) and its timeline ID once written."""

    observation: Any
    count: int | None
    url: str
    sid: str | None = None
    by_backend: dict[int, str] = field(default_factory=dict)
    by_place: dict[Any, str] = field(default_factory=dict)  # frame path -> node ID


@dataclass
class _PageState:
    shot: _Shot | None = None
    loads: int = 0
    opened: bool = False  # a tab opened while recording (its first load is a new tab)
    dialog: Mapping[str, Any] | None = None  # the dialog shown (CDP's opening event)
    heard: bool = False  # its dialogs are listened for


def _left_to_person(dialog: Any) -> None:
    """A context's dialog listener that answers nothing: while one listens, Playwright leaves
    each dialog for the person (with none, it dismisses every one at once)."""


class HumanRecorder(Recorder):
    """Records what a person does in a Playwright browser (module doc).

    Parameters
    ----------
    out_dir:
        Folder of the recording (``<prefix>-human-<trace_id>-<yyyyMMdd-HHmmss>.json``) and
        its journal while the run lasts.
    prefix:
        The file name's first part.
    clock:
        Returns the current time (an aware ``datetime``); UTC now by default.
    leave_dialogs:
        Leave the page's dialogs (``alert``, ``confirm``, ``prompt``, ``beforeunload``) for
        the person to answer, each then written as a ``dialog`` entry with the answer given
        (the text of an accepted prompt masked where its message asks for a secret). Without
        a listener Playwright dismisses every dialog at once, so the person could not confirm
        anything; false keeps that (a headless run with nobody to answer).

    Attributes
    ----------
    errors:
        What went wrong while handling a page event (an event is never allowed to break the
        page or the browser; it is left out and its reason kept here).
    """

    mode = "human"

    def __init__(
        self, out_dir: Any, *, prefix: str = "run", clock: Any = None, leave_dialogs: bool = True
    ) -> None:
        super().__init__(out_dir, prefix=prefix, clock=clock)
        self.leave_dialogs = leave_dialogs
        self.errors: list[str] = []
        self._pages: dict[int, _PageState] = {}
        self._queue: deque[tuple[Callable[..., None], tuple[Any, ...]]] = deque()
        self._busy = False
        self._context: Any = None
        self._worker: ThreadPoolExecutor | None = None

    def attach(self, target: Any) -> Any:
        """Start recording a browser context (or the context of a page).

        The page bindings and the init script are added to the context, the script also runs
        on the pages already open, and tabs opened later are followed. With Playwright's
        async API it returns an awaitable: the recorder then handles the page's events in a
        thread of its own (on proxies of the pages: :mod:`resolver.integrations.threaded`),
        and :meth:`finish` is awaited too (after the events already sent).

        Raises
        ------
        RecorderError
            The run is not started or is finished.
        """
        self._open("attach")
        context = target if hasattr(target, "pages") else target.context
        if is_async(context):
            return self._attach_async(context)
        self._attach(context, context)
        return None

    async def _attach_async(self, context: Any) -> None:
        if self._worker is None:
            self._worker = ThreadPoolExecutor(1, thread_name_prefix="resolver-human")
        proxy = synced(context)
        await asyncio.get_running_loop().run_in_executor(self._worker, self._attach, proxy, context)

    def _attach(self, context: Any, key: Any) -> None:
        """:meth:`attach` to ``context`` (``key``: the context itself, where ``context`` is
        its proxy)."""
        if key is self._context:
            return
        self._context = key
        context.expose_binding("__resolverHumanAction", self._event(self._on_action))
        context.expose_binding("__resolverHumanPrepare", self._event(self._on_prepare))
        context.expose_binding("__resolverHumanLoaded", self._event(self._on_loaded))
        context.add_init_script(HUMAN_JS)
        context.on("page", self._on_page if self._worker is None else self._on_page_async)
        if self.leave_dialogs:
            context.on("dialog", _left_to_person)
        for page in list(context.pages):
            self._state(page)
            self._hear_dialogs(page)
            for frame in list(page.frames):  # the top document first: it keeps the hub
                try:
                    frame.evaluate(HUMAN_JS)
                except Exception as exc:  # a frame detached meanwhile: nothing to listen to
                    log.debug("HumanRecorder: frame not attached: %s", exc)

    # -- events --------------------------------------------------------------------------

    def _event(self, handler: Callable[..., None]) -> Callable[..., None]:
        """A binding callback that runs ``handler`` after any event being handled (a CDP
        call inside a handler lets Playwright deliver the next event), never raising; with
        the async API, in the recorder's thread, on proxies."""

        def callback(source: Any, payload: Any = None) -> None:
            page, frame = source.get("page"), source.get("frame")
            if self._worker is None:
                self._handle(handler, (page, payload, frame))
                return
            on = (None if page is None else synced(page), payload,
                  None if frame is None else synced(frame))  # fmt: skip
            with contextlib.suppress(RuntimeError):  # (finished: the thread is shut down)
                self._worker.submit(self._handle, handler, on)

        return callback

    def _handle(self, handler: Callable[..., None], args: tuple[Any, ...]) -> None:
        """Run ``handler(*args)`` after the events queued before it."""
        self._queue.append((handler, args))
        if self._busy:
            return
        self._busy = True
        try:
            while self._queue:
                run, given = self._queue.popleft()
                if self._finished or self._header is None:
                    continue
                try:
                    run(*given)
                except Exception as exc:  # a recorder must not break the browsing
                    log.debug("HumanRecorder: event dropped: %s", exc, exc_info=True)
                    self.errors.append(f"{run.__name__}: {type(exc).__name__}: {exc}")
        finally:
            self._busy = False

    def _state(self, page: Any) -> _PageState:
        return self._pages.setdefault(id(page), _PageState())

    def _on_page(self, page: Any) -> None:
        self._state(page).opened = True
        self._hear_dialogs(page)

    def _hear_dialogs(self, page: Any) -> None:
        """Listen for the page's dialogs opening and closing (CDP ``Page`` events on the
        page's session): each answered one becomes a ``dialog`` entry (:meth:`_on_dialog`)."""
        from ..integrations.cdp import _session

        state = self._state(page)
        if not self.leave_dialogs or state.heard:
            return
        try:
            session = _session(page)
            for event in ("Page.javascriptDialogOpening", "Page.javascriptDialogClosed"):
                session.on(event, partial(self._dialog_event, page, event))
            session.send("Page.enable")
            state.heard = True
        except Exception as exc:  # (a page closing meanwhile: nothing to hear)
            log.debug("HumanRecorder: dialogs not heard: %s", exc)

    def _dialog_event(self, page: Any, event: str, params: Any = None) -> None:
        """A CDP dialog event, handled after the events before it (in the recorder's
        thread with the async API)."""
        args = (page, event, params if isinstance(params, Mapping) else {})
        if self._worker is None:
            self._handle(self._on_dialog, args)
            return
        with contextlib.suppress(RuntimeError):  # (finished: the thread is shut down)
            self._worker.submit(self._handle, self._on_dialog, args)

    def _on_dialog(self, page: Any, event: str, params: Mapping[str, Any]) -> None:
        """Keep an opening dialog; write the ``dialog`` entry when it closes: its kind,
        message, the answer and an accepted prompt's text, after the last action."""
        state = self._state(page)
        if event.endswith("Opening"):
            state.dialog = params
            return
        shown, state.dialog = state.dialog or {}, None
        kind = str(shown.get("type") or "")
        accepted = bool(params.get("result"))
        last = self._counts["actions"]
        self.dialog(
            str(last) if last else None, kind, str(shown.get("message") or ""),
            "accepted" if accepted else "dismissed",
            default_value=str(shown.get("defaultPrompt") or ""),
            text=params.get("userInput") if kind == "prompt" and accepted else None,
            url=shown.get("url"),
        )  # fmt: skip

    def _on_page_async(self, page: Any) -> None:
        """:meth:`_on_page` of a tab of the async API, in the recorder's thread."""
        assert self._worker is not None
        with contextlib.suppress(RuntimeError):  # (finished: the thread is shut down)
            self._worker.submit(self._handle, self._on_page, (synced(page),))

    def finish(self, ended_reason: str) -> Any:
        """:meth:`Recorder.finish`; with the async API (:meth:`attach`), an awaitable of it,
        run after the events the pages sent before it."""
        if self._worker is None:
            return super().finish(ended_reason)
        return self._finish_async(self._worker, ended_reason)

    async def _finish_async(self, worker: ThreadPoolExecutor, ended_reason: str) -> Path:
        try:
            done: Path = await asyncio.get_running_loop().run_in_executor(
                worker, partial(Recorder.finish, self, ended_reason)
            )
        finally:
            worker.shutdown(wait=False)
        return done

    def _on_loaded(self, page: Any, payload: Any, frame: Any = None) -> None:
        state = self._state(page)
        info = payload if isinstance(payload, Mapping) else {}
        reason = _REASONS.get(str(info.get("type")), "navigate")
        if state.opened and state.loads == 0:
            reason = "new_tab"
        state.loads += 1
        state.shot = None
        self.navigation(str(info.get("url") or page.url), reason)
        self._on_prepare(page, info.get("m"))

    def _on_prepare(self, page: Any, count: Any, frame: Any = None) -> None:
        state = self._state(page)
        if state.shot is None or state.shot.count is None or state.shot.count != count:
            try:
                state.shot = _capture(page)
            except Exception as exc:  # the page moved on (a navigation) while it was read:
                # no action is lost, the next action or load takes its own snapshot
                log.debug("HumanRecorder: snapshot skipped: %s", exc)

    def _on_action(self, page: Any, payload: Any, frame: Any = None) -> None:
        if not isinstance(payload, Mapping) or not isinstance(payload.get("type"), str):
            return
        state = self._state(page)
        apart = payload.get("within") == "apart"
        # An element in a frame the top document cannot reach is not looked for there (an
        # ID of that frame names another element in the top one): it is found by its
        # place (its frame elements' XPaths and its own), its point placed in the tab.
        backend = None if apart else _backend(page, payload.get("id"))
        place = _place(frame, payload.get("path")) if apart else None
        if apart:
            payload = {**payload, **_placed(frame, payload), "m": None}
        count = payload.get("m")
        shot = state.shot
        exact = shot is not None and shot.count is not None and shot.count == count
        chain = _ax_chain(page, backend) if backend is not None else []
        if shot is None or _node(shot, chain, None, place) is None:
            shot = state.shot = _capture(page)
            exact = shot.count is not None and shot.count == count
        self._write_shot(shot)
        kept = self._nodes.get(self._current or "", frozenset())
        self._record(payload, _node(shot, chain, kept, place), exact)

    def _write_shot(self, shot: _Shot) -> None:
        """Put ``shot`` in the timeline unless it is the snapshot the next action is on."""
        if shot.sid is None or shot.sid != self._current:
            shot.sid = self._snapshot_entry(shot.observation, shot.url)

    def _record(self, payload: Mapping[str, Any], node: str | None, exact: bool) -> None:
        """Write the ``human_action`` entry of one page event."""
        element = None
        if node is not None and self._current_doc is not None:
            table = Observation(accessibility_tree=self._current_doc).candidates("a11y")
            element = ref_from_row(table, table.ids.index(node)).model_dump(
                mode="json", exclude_none=True
            )
        text, key = payload.get("text"), payload.get("key")
        action: dict[str, Any] = {
            "type": str(payload["type"]), "x": _number(payload.get("x")),
            "y": _number(payload.get("y")), "element": element,
            "text": None if text is None else str(text), "key": None if key is None else str(key),
        }  # fmt: skip
        if action["type"] == "upload":
            files = payload.get("files")  # (the page's script could send anything)
            action["files"] = list(file_names(files if isinstance(files, list) else []))
        attrs = payload.get("attrs")
        attrs = attrs if isinstance(attrs, Mapping) else {}
        role = str((element or {}).get("role") or "textbox")
        secret = is_sensitive(role, str(payload.get("label") or ""),
                              attrs={str(k): str(v) for k, v in attrs.items()})  # fmt: skip
        action = self._typed(action, node, secret=secret)
        self._append("human_action", {
            "step": str(self._counts["actions"] + 1), "snapshot_id": self._current,
            "action": action, "target_node": node, "url": payload.get("url"),
            "snapshot_exact": exact,
        })  # fmt: skip


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _placed(frame: Any, payload: Mapping[str, Any]) -> dict[str, Any]:
    """A point a frame apart gave (in its own viewport) placed in the tab's viewport, by its
    frame element's content box; the tab's URL."""
    x, y = _number(payload.get("x")), _number(payload.get("y"))
    holder = frame.frame_element() if frame is not None else None
    box = holder.bounding_box() if holder is not None else None
    if holder is None or box is None or x is None or y is None:
        return {"x": None, "y": None, "url": getattr(getattr(frame, "page", None), "url", None)}
    inner = holder.evaluate(_CONTENT_JS)
    return {"x": box["x"] + float(inner[0]) + x, "y": box["y"] + float(inner[1]) + y,
            "url": frame.page.url}  # fmt: skip


_CONTENT_JS: Final[str] = """(f) => { const s = getComputedStyle(f);
  return [f.clientLeft + (parseFloat(s.paddingLeft) || 0),
          f.clientTop + (parseFloat(s.paddingTop) || 0)]; }"""


def _place(frame: Any, path: Any) -> tuple[tuple[str, ...], str] | None:
    """Where an element of a frame apart is: the XPaths of the frame elements from the top
    document down (each read in its parent frame), and its own (``path``, from the page)."""
    if frame is None or not isinstance(path, str):
        return None
    route: list[str] = []
    while getattr(frame, "parent_frame", None) is not None:
        try:
            holder = frame.frame_element().evaluate(XPATH_JS)
        except Exception:  # the frame went away meanwhile
            return None
        if not isinstance(holder, str):
            return None
        route.insert(0, holder)
        frame = frame.parent_frame
    return (tuple(route), path)


def _capture(page: Any) -> _Shot:
    """Observe ``page`` (as ``observe`` does, no screenshot) between two reads of its DOM
    change count; the count it shows exactly, or ``None`` when the page changed meanwhile."""
    from ..integrations.playwright import observe

    read = "window.__resolverHumanCount ? window.__resolverHumanCount() : null"
    before = page.evaluate(read)
    observation = observe(page, screenshot=False)
    after = page.evaluate(read)
    count = before if before is not None and before == after else None
    backends = getattr(observation, "backend_ids", {})
    remote = getattr(observation, "targets", {})  # (a cross-site frame's: another process)
    by_backend: dict[int, str] = {}
    for executor, backend in backends.items():
        if executor.startswith("a11y:") and executor not in remote:
            by_backend.setdefault(int(backend), executor.removeprefix("a11y:"))
    places = getattr(observation, "frame_paths", {})
    by_place = {
        place: executor.removeprefix("a11y:") for executor, place in places.items() if place[1]
    }
    return _Shot(observation, count, str(observation.url or page.url), by_backend=by_backend,
                 by_place=by_place)  # fmt: skip


def _backend(page: Any, element_id: Any) -> int | None:
    """The backend node ID of the element the page script kept under ``element_id``."""
    from ..integrations.cdp import _session

    if not isinstance(element_id, int):
        return None
    session = _session(page)
    expression = f"window.__resolverHumanElement({element_id})"
    found = session.send("Runtime.evaluate", {"expression": expression})
    object_id = found.get("result", {}).get("objectId")
    if object_id is None:
        return None
    try:
        node = session.send("DOM.describeNode", {"objectId": object_id})
    finally:
        session.send("Runtime.releaseObject", {"objectId": object_id})
    return int(node["node"]["backendNodeId"])


def _ax_chain(page: Any, backend: int) -> list[int]:
    """The element's backend node ID, then those of its accessibility ancestors, nearest
    first, ignored nodes left out (``Accessibility.getPartialAXTree``). An element the page
    has just removed has no ancestors any more: the snapshot taken before knows it."""
    from ..integrations.cdp import _session

    tree = _session(page).send("Accessibility.getPartialAXTree",
                               {"backendNodeId": backend, "fetchRelatives": True})  # fmt: skip
    nodes = {str(n.get("nodeId")): n for n in tree.get("nodes", [])}
    current = next((n for n in nodes.values() if n.get("backendDOMNodeId") == backend), None)
    chain: list[int] = [backend]  # first the element itself, as the snapshot knew it
    seen: set[str] = set()
    while current is not None and str(current.get("nodeId")) not in seen:
        seen.add(str(current.get("nodeId")))
        found = current.get("backendDOMNodeId")
        if not current.get("ignored") and found is not None and int(found) not in chain:
            chain.append(int(found))
        current = nodes.get(str(current.get("parentId")))
    return chain


def _node(
    shot: _Shot, chain: list[int], kept: frozenset[str] | None, place: Any = None
) -> str | None:
    """The first of ``chain`` the snapshot has a node for (its node ID), or the node at
    ``place`` (a frame path), among the nodes the written snapshot ``kept`` (any node of the
    observation when ``None``)."""
    if place is not None:
        node = shot.by_place.get(place)
        return node if node is not None and (kept is None or node in kept) else None
    for backend in chain:
        node = shot.by_backend.get(backend)
        if node is not None and (kept is None or node in kept):
            return node
    return None
