"""Run a list of catalog actions on a live page: resolve each target, check the element,
act, and stop at the first failure.

An ``index=N`` target names an entry of the session's catalog (the one the agent read). It
is resolved with :meth:`~resolver.catalog.Catalog.resolve` on a fresh observation, so when
the page re-rendered since the catalog was built, the entry's recorded reference is found
again: the same element, or a refusal, never the element that now sits at that index. The
action itself goes through :func:`resolver.integrations.playwright.act`, which checks the
node's role and name and that nothing covers it before the mouse moves.

>>> from resolver.act import execute  # doctest: +SKIP
>>> execute(page, [{"action": "click", "target": "index=3"}],
...         expected_catalog_version="3f2a9c01d4e7").success  # doctest: +SKIP
True
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from ..catalog import Catalog, CatalogEntry, catalog_version
from ..catalog.targets import parse_target
from ..errors import (
    CatalogOutdatedError,
    ElementNotFoundError,
    ElementNotInteractableError,
    ErrorCode,
    InvalidTargetError,
    ResolutionError,
    StaleElementError,
)
from ..integrations.cdp import isolated_node
from ..integrations.playwright import _node_target, act, focus_on
from ..integrations.threaded import in_thread, is_async
from ..models import ActionWithElement
from ..results import Candidate, Resolution, center
from .dialogs import DialogWatch, dismissed_message
from .model import (
    MAX_ACTIONS,
    Action,
    ActionError,
    ClickAction,
    DragAction,
    ExecuteResult,
    HistoryAction,
    HoverAction,
    ObservationSummary,
    PressAction,
    RefreshCatalogAction,
    ScrollAction,
    ScrollToTextAction,
    SelectAction,
    TypeAction,
    UploadAction,
    WaitAction,
    parse_action,
)
from .recording import Located, RunRecording
from .session import PageSession, session_for
from .tabs import PopupWatch
from .uploads import EMPTY_FIELD_JS, FILE_FIELD_JS, through_chooser, upload_paths

__all__ = ["error_of", "execute"]

_PASSED_THROUGH: Final[frozenset[str]] = frozenset(
    {"CATALOG_OUTDATED", "ELEMENT_NOT_FOUND", "AMBIGUOUS", "ELEMENT_NOT_INTERACTABLE",
     "VALIDATION_ERROR"}
)  # fmt: skip
_INPUT_CODES: Final[frozenset[ErrorCode]] = frozenset(
    {ErrorCode.INVALID_REFERENCE, ErrorCode.INVALID_OPTION}
)
# What act's check says when the element is there but cannot be reached by the mouse.
_HOVER: Final[ActionWithElement] = ActionWithElement(type="hover")
_CLEAR_JS: Final[str] = r"""function () {
  if (!("value" in this)) return false;
  this.value = "";
  this.dispatchEvent(new Event("input", {bubbles: true}));
  return true;
}"""
_SELECT_JS: Final[str] = r"""function (by, wanted) {
  if (this.localName !== "select")
    return {error: "it is a <" + this.localName + ">, not a <select>"};
  if (this.matches(":disabled")) return {error: "it is disabled", disabled: true};
  const norm = (s) => (s || "").trim().replace(/\s+/g, " ");
  const option = [...this.options].find((o) => by === "value" ? o.value === wanted
                                         : norm(o.label) === norm(wanted));
  if (!option) return {error: "it has no option with " + by + " " + JSON.stringify(wanted)};
  if (option.disabled) return {error: "its option " + JSON.stringify(wanted) + " is disabled"};
  this.value = option.value;
  this.dispatchEvent(new Event("input", {bubbles: true}));
  this.dispatchEvent(new Event("change", {bubbles: true}));
  return {value: option.value};
}"""


def error_of(exc: BaseException, *, position: int | None = None) -> ActionError:
    """The :class:`~resolver.act.model.ActionError` for a failure: a
    :class:`~resolver.errors.ResolutionError`'s code when it is one of the result's codes
    (a covered or box-less element is ``ELEMENT_NOT_INTERACTABLE``), ``VALIDATION_ERROR``
    for other input errors, ``EXECUTION_ERROR`` for anything else (the browser failed)."""
    details: dict[str, Any] = {} if position is None else {"action_index": position}
    if not isinstance(exc, ResolutionError):
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return ActionError(code="EXECUTION_ERROR", message=first[:1000], details=details)
    code = exc.code.value
    if isinstance(exc, StaleElementError) and exc.evidence.details.get("unreachable"):
        code = "ELEMENT_NOT_INTERACTABLE"
    elif code not in _PASSED_THROUGH:
        code = "VALIDATION_ERROR" if exc.code in _INPUT_CODES else "EXECUTION_ERROR"
    evidence = exc.evidence
    details.update({k: v for k, v in evidence.details.items() if isinstance(k, str)})
    if evidence.rule:
        details["rule"] = evidence.rule
    if evidence.candidates:
        details["candidates"] = [_brief(c) for c in evidence.candidates[:3]]
    return ActionError(code=code, message=exc.message, details=details)


def _brief(candidate: Candidate) -> dict[str, Any]:
    container = candidate.container_path[-1][:200] if candidate.container_path else ""
    return {
        "executor_id": candidate.executor_id,
        "role": candidate.role,
        "name": candidate.name[:200],
        "score": candidate.score,
        "container": container,
    }


def _resolution(observation: Any, source: str, executor_id: str) -> Resolution:
    """The element an executor ID names in ``observation``, as what ``act`` checks."""
    table = observation.candidates(source)
    row = table.executor_row(executor_id)
    if row is None:
        raise ElementNotFoundError(f"{executor_id!r} is not on the page")
    box = table.box(row)
    candidate = Candidate(source=source, id=table.ids[row], executor_id=executor_id,
                          role=table.roles[row], name=table.names[row], bbox=box, score=1.0,
                          container_path=table.containers[row])  # fmt: skip
    point = None if box is None else center(box)
    return Resolution(executor_id, source, 1.0, 1.0, candidate, point)


def _locate(
    session: PageSession, target: str, expected: str | None, index_mode: bool
) -> tuple[Resolution, Any]:
    """The target's element on the page as it is now, and that observation."""
    catalog = session.catalog
    parsed = parse_target(target, len(catalog) if catalog is not None else 0)
    if parsed.kind == "index" and not index_mode:
        raise InvalidTargetError("index targets are off here: use css=, xpath= or text=")
    if parsed.kind == "index" and catalog is None:
        raise InvalidTargetError("there is no catalog yet: ask for the catalog first")
    observation = session.observe()
    if catalog is None:
        catalog = session.refresh(observation)
    if parsed.kind != "index":
        executor_id = catalog.resolve(target, observation=observation)
        return _resolution(observation, catalog.source, executor_id), observation
    if expected is not None and not session.accepts(expected):
        raise CatalogOutdatedError(
            f"the index was chosen on catalog {expected}, this is {session.version}: "
            "read the catalog again and choose again",
            details={"expected_version": expected, "version": session.version},
            rule="refuse.catalog_outdated",
        )
    executor_id = _rechecking(catalog, observation).resolve(target, observation=observation)
    return _resolution(observation, catalog.source, executor_id), observation


def _rechecking(catalog: Catalog, observation: Any) -> Catalog:
    """``catalog``, or when the page changed since it was built (another version), the same
    catalog whose entries' references also hold their first CSS selector (:func:`_with_css`):
    an index is then found again from its reference, never taken by position."""
    table = observation.candidates(catalog.source)
    if catalog.observation is None or catalog_version(observation, table) == catalog.version:
        return catalog
    entries = tuple(_with_css(entry) for entry in catalog.entries)
    view = catalog.view.model_copy(update={"entries": entries})
    return Catalog(view, catalog.observation, config=catalog.config)


def _with_css(entry: CatalogEntry) -> CatalogEntry:
    """The entry with its first CSS selector (unique on the catalog's page) also in its
    reference, when the reference has none: an id-anchored selector (``#row-bob > td >
    button``) keeps naming a keyed row's control after the rows move, where the positional
    XPath names the look-alike now in its place."""
    css = next((sel for kind, sel in entry.selectors if kind == "css"), None)
    if css is None or entry.ref.css_selector:
        return entry
    return entry.model_copy(update={"ref": entry.ref.model_copy(update={"css_selector": css})})


def _focused(session: PageSession, observation: Any, res: Resolution) -> None:
    """Give the resolved element the keyboard focus, or refuse: keys pressed now would go
    wherever the focus is (a click that opened something, a node that takes no focus)."""
    backend = observation.backend_ids.get(res.executor_id)
    if backend is None:
        raise StaleElementError(f"{res.executor_id!r} has no DOM node to type into")
    cdp, _ = _node_target(session.page, res, observation)
    why = focus_on(cdp, backend)
    if why is not None:
        raise ElementNotInteractableError(f"not typing into {res.executor_id!r}: {why}",
                                          details={"reason": why})  # fmt: skip


def _on_node(session: PageSession, observation: Any, res: Resolution, js: str, *args: Any) -> Any:
    """Call ``js`` on the resolved element's DOM node (``this``) and return its value."""
    backend = observation.backend_ids.get(res.executor_id)
    if backend is None:
        raise StaleElementError(f"{res.executor_id!r} has no DOM node to act on")
    cdp, _ = _node_target(session.page, res, observation)
    try:
        obj = isolated_node(cdp, backend)
    except Exception as exc:
        raise StaleElementError(f"not acting on {res.executor_id!r}: the node is gone") from exc
    answer = cdp.send("Runtime.callFunctionOn", {
        "objectId": obj["objectId"], "functionDeclaration": js, "returnByValue": True,
        "arguments": [{"value": a} for a in args],
    })  # fmt: skip
    return answer.get("result", {}).get("value")


def _run(
    session: PageSession, action: Action, expected: str | None, index_mode: bool, found: Located
) -> None:
    """Perform one action (raises on failure); what it located is put in ``found``."""
    page = session.page
    if isinstance(action, RefreshCatalogAction):
        session.refresh()
    elif isinstance(action, ScrollToTextAction):
        frames = getattr(page, "frames", None) or [page]  # the page's own first, then frames
        shown = (frame.get_by_text(action.text) for frame in frames)
        showing = next((located for located in shown if located.count()), None)
        if showing is None:
            raise ElementNotFoundError(f"no element shows the text {action.text[:80]!r}")
        showing.first.scroll_into_view_if_needed(timeout=5000)
    elif isinstance(action, WaitAction):
        _wait(page, action)
    elif isinstance(action, HistoryAction):
        _history(page, action.action)
    elif isinstance(action, PressAction) and action.target is None:
        page.keyboard.press(action.key)
    elif isinstance(action, ScrollAction) and action.target is None:
        size = _viewport(page)
        page.mouse.move(size[0] / 2, size[1] / 2)
        _wheel(page, action, size)
    else:
        _run_on_target(session, action, expected, index_mode, found)


def _run_on_target(
    session: PageSession, action: Action, expected: str | None, index_mode: bool, found: Located
) -> None:
    """Perform a click, type, select or targeted press."""
    page = session.page
    target = getattr(action, "target", None)
    assert isinstance(target, str)
    res, observation = _locate(session, target, expected, index_mode)
    found.resolution, found.observation = res, observation
    if isinstance(action, ClickAction):
        press = None if action.kind == "click" else ActionWithElement(type=action.kind)
        act(page, res, press, observation=observation, reobserve=False)
    elif isinstance(action, HoverAction):
        act(page, res, _HOVER, observation=observation, reobserve=False)
    elif isinstance(action, TypeAction):
        act(page, res, None, observation=observation, reobserve=False)
        if action.clear:
            _on_node(session, observation, res, _CLEAR_JS)
        _focused(session, observation, res)
        page.keyboard.type(action.text)
    elif isinstance(action, SelectAction):
        act(page, res, _HOVER, observation=observation, reobserve=False)
        by, wanted = ("label", action.label) if action.value is None else ("value", action.value)
        answer = _on_node(session, observation, res, _SELECT_JS, by, wanted)
        if not isinstance(answer, dict) or "error" in answer:
            why = answer.get("error") if isinstance(answer, dict) else "the page did not answer"
            shut = isinstance(answer, dict) and answer.get("disabled")
            kind = ElementNotInteractableError if shut else ElementNotFoundError
            raise kind(f"cannot select in {res.candidate.name!r}: {why}")
    elif isinstance(action, PressAction):
        act(page, res, _HOVER, observation=observation, reobserve=False)
        _focused(session, observation, res)
        page.keyboard.press(action.key)
    elif isinstance(action, UploadAction):
        _upload(session, observation, res, action.files)
    elif isinstance(action, ScrollAction):
        act(page, res, _HOVER, observation=observation, reobserve=False)
        _wheel(page, action, _viewport(page))
    elif isinstance(action, DragAction):
        act(page, res, _HOVER, observation=observation, reobserve=False)
        _drop(session, action.to, expected, index_mode)


def _upload(session: PageSession, observation: Any, res: Resolution, files: Any) -> None:
    """Put ``files`` into the element: a file field directly, any other control through the
    file chooser its click opens (:mod:`resolver.act.uploads`)."""
    paths = upload_paths(files, allowed=session.uploads, root=session.upload_root)
    field = _on_node(session, observation, res, FILE_FIELD_JS)
    if not isinstance(field, dict):
        raise StaleElementError(f"not uploading into {res.executor_id!r}: the page did not answer")
    if field.get("disabled"):
        raise ElementNotInteractableError(f"cannot upload into {res.candidate.name!r}: disabled")
    if not paths:  # (CDP sets no empty list: the field is emptied as a script would)
        if not field.get("file"):
            raise InvalidTargetError("no files to put: an empty list empties a file field itself")
        _on_node(session, observation, res, EMPTY_FIELD_JS)
        return
    if field.get("file"):
        cdp, _ = _node_target(session.page, res, observation)
        backend, several = observation.backend_ids.get(res.executor_id), field.get("multiple")
    else:
        # (the chooser opens on the target of the control's frame: another process's frame
        # has its own, and the node it names is one of that session)
        page = session.page
        cdp, _ = _node_target(page, res, observation)
        chooser = through_chooser(
            page, lambda: act(page, res, None, observation=observation, reobserve=False),
            cdp=cdp,
        )  # fmt: skip
        backend, several = chooser.get("backendNodeId"), chooser.get("mode") == "selectMultiple"
    if len(paths) > 1 and not several:
        raise InvalidTargetError(f"{res.candidate.name!r:.80} takes one file, not {len(paths)}")
    cdp.send("DOM.setFileInputFiles", {"files": paths, "backendNodeId": backend})


def _drop(session: PageSession, to: str, expected: str | None, index_mode: bool) -> None:
    """With the pointer resting on the dragged element: press, move to the centre of the
    element ``to`` names (found on the page as it is now) in small steps, and let go."""
    page = session.page
    res, _ = _locate(session, to, expected, index_mode)
    size = _viewport(page)
    if res.point is None or not (0 <= res.point[0] < size[0] and 0 <= res.point[1] < size[1]):
        raise ElementNotInteractableError(
            f"not dragging onto {res.candidate.name!r:.80}: it is not in the viewport "
            "(scroll it into view first)"
        )
    page.mouse.down()
    try:
        page.mouse.move(res.point[0], res.point[1], steps=12)
    finally:
        page.mouse.up()


def _viewport(page: Any) -> tuple[float, float]:
    """The viewport's CSS size (as the page reports it when Playwright set none)."""
    size = page.viewport_size or page.evaluate("[innerWidth, innerHeight]")
    if isinstance(size, dict):
        return float(size["width"]), float(size["height"])
    return float(size[0]), float(size[1])


def _wheel(page: Any, action: ScrollAction, size: tuple[float, float]) -> None:
    """The wheel turned ``action.pages`` viewports (nine tenths of one each, so a line seen
    before stays in view) in its direction, where the pointer is."""
    across = action.direction in ("left", "right")
    step = 0.9 * action.pages * (size[0] if across else size[1])
    sign = -1.0 if action.direction in ("up", "left") else 1.0
    page.mouse.wheel(sign * step if across else 0.0, 0.0 if across else sign * step)
    page.wait_for_timeout(100)  # (a wheel scrolls smoothly; let it come to rest)


def _history(page: Any, move: str) -> None:
    """Back, forward or reload, waiting (up to 30 s) for the page to load; a tab with no
    page to go to says so (``EXECUTION_ERROR``)."""
    if move == "reload":
        page.reload(wait_until="load", timeout=30_000)
        return
    went = getattr(page, "go_back" if move == "back" else "go_forward")
    url = _url(page)
    if went(wait_until="load", timeout=30_000) is None and _url(page) == url:
        raise RuntimeError(f"the tab has no page to go {move} to")


def _wait(page: Any, action: WaitAction) -> None:
    if action.until == "timeout":
        page.wait_for_timeout(action.ms)
    elif action.until == "network_idle":
        page.wait_for_load_state("networkidle", timeout=action.ms)
    elif action.until in ("text", "no_text"):
        state = "visible" if action.until == "text" else "hidden"
        page.get_by_text(action.text).first.wait_for(state=state, timeout=action.ms)
    else:
        page.wait_for_selector(action.selector, timeout=action.ms)


def _settle(session: PageSession, navigations: int) -> None:
    """After an action that navigated, wait (up to 10 s) for the new page to load."""
    if session.navigations != navigations:
        with contextlib.suppress(Exception):
            session.page.wait_for_load_state("load", timeout=10_000)


def _parse_all(actions: object) -> list[Action]:
    """Every action validated before any runs."""
    if isinstance(actions, (str, bytes)) or not isinstance(actions, Sequence):
        raise InvalidTargetError("actions is a list of action objects")
    if len(actions) > MAX_ACTIONS:
        raise InvalidTargetError(f"at most {MAX_ACTIONS} actions at once, got {len(actions)}")
    parsed = []
    for i, data in enumerate(actions):
        try:
            parsed.append(parse_action(data))
        except InvalidTargetError as exc:
            raise InvalidTargetError(
                f"action {i}: {exc.message}", details={"action_index": i}
            ) from None
    return parsed


def execute(
    page: Any,
    actions: Sequence[dict[str, Any]] | object,
    *,
    catalog: Catalog | None = None,
    expected_catalog_version: str | None = None,
    index_mode: bool | None = None,
    recorder: Any = None,
) -> Any:
    """Run ``actions`` on ``page`` in order, stopping at the first that fails.

    Parameters
    ----------
    page:
        A Playwright page (sync or async API, Chromium).
    actions:
        Action dicts (see :mod:`resolver.act.model`): ``{"action": "click", "target":
        "index=3"}`` (``button``: ``"right"``, ``double``), ``hover``, ``type`` (``text``,
        ``clear``), ``select`` (``value`` or ``label``),
        ``press`` (``key``, optional ``target``), ``upload`` (``files``: paths, see
        :mod:`resolver.act.uploads`), ``scroll`` (``direction``, ``pages``, optional
        ``target``), ``drag`` (``target`` onto ``to``), ``back``, ``forward``, ``reload``,
        ``refresh_catalog``, ``scroll_to_text`` (``text``), ``wait`` (``until``, ``ms``,
        ``selector``, ``text``). Targets are ``index=N``,
        ``css=...``, ``xpath=...`` or ``text=...``. Any action may say how to answer a
        dialog the page opens while it runs: ``"dialog": "accept"`` (with ``dialog_text``
        for a prompt) or ``"dismiss"``; without it a ``confirm``, ``prompt`` or
        ``beforeunload`` is dismissed and the action fails with ``DIALOG_DISMISSED``
        (:mod:`resolver.act.dialogs`).
    catalog:
        The catalog the indexes were chosen on (default: the page session's current one,
        from the last ``catalog`` call or ``execute``).
    expected_catalog_version:
        The version the caller read; an index target on another version is refused with
        ``CATALOG_OUTDATED``.
    index_mode:
        When false, index targets are refused (``VALIDATION_ERROR``) and only ``css=``,
        ``xpath=`` and ``text=`` targets act; default the page session's ``index_mode``
        (true unless a server was started with ``--no-index-mode`` or ``INDEX_MODE=false``).
    recorder:
        A started :class:`~resolver.record.AgentRecorder` (default: the page session's
        ``recorder``, set by a server started with ``--record``): each action that located
        an element is written to it as the observation, the decision and its result, with the
        page's dialogs and navigations (:mod:`resolver.act.recording`); a recorder that is
        not started or is finished raises ``RecorderError`` before any action runs.

    Returns
    -------
    ExecuteResult
        Never raises for a bad action or a refusal: the error is in ``error``. The page's
        catalog after the actions becomes the session's current catalog; ``dialogs`` lists
        every dialog the page opened meanwhile, with its answer, and ``opened`` every tab
        it opened (the session stays on ``page``). With the async
        API, an awaitable of it (the same steps, run in a worker thread:
        :mod:`resolver.integrations.threaded`).
    """
    options = (catalog, expected_catalog_version, index_mode, recorder)
    if is_async(page):
        return in_thread(_execute, page, actions, *options)
    return _execute(page, actions, *options)


def _execute(
    page: Any,
    actions: Sequence[dict[str, Any]] | object,
    catalog: Catalog | None,
    expected_catalog_version: str | None,
    index_mode: bool | None,
    recorder: Any,
) -> ExecuteResult:
    """:func:`execute` on a sync page (or a :class:`~resolver.integrations.threaded.Synced`
    one)."""
    session = session_for(page)
    recorder = recorder if recorder is not None else session.recorder
    recording = None if recorder is None else RunRecording(recorder)
    if catalog is not None:
        session.adopt(catalog)
    if index_mode is None:
        index_mode = session.index_mode
    url = _url(page)
    navigations = session.navigations
    done, error = 0, None
    try:
        parsed = _parse_all(actions)
    except InvalidTargetError as exc:
        parsed, error = [], error_of(exc)
    with DialogWatch(page) as watch, PopupWatch(page) as popups:
        for position in range(len(parsed)):
            popups.position = position
            error = _one(session, watch, parsed, position, expected_catalog_version, index_mode,
                         recording)  # fmt: skip
            if error is not None:
                break
            done += 1
        popups.wait_opened()
        nav = session.navigations != navigations or _url(page) != url
        result = _result(session, done, error, nav, total=len(parsed))
    if error is None and done and (late := _dismissed(watch, done - 1)) is not None:
        # (a dialog opened after the last action returned, while the page was observed)
        result = result.model_copy(update={"success": False, "error": late, "is_done": False,
                                           "complete": done - 1})  # fmt: skip
    if recording is not None:
        recording.dialogs(watch.seen())
    return result.model_copy(update={"dialogs": watch.seen(), "opened": popups.seen()})


def _one(
    session: PageSession,
    watch: DialogWatch,
    actions: list[Action],
    position: int,
    expected: str | None,
    index_mode: bool,
    recording: RunRecording | None,
) -> ActionError | None:
    """Run the action at ``position``, its dialogs answered as it asks, and record it when
    ``recording``; its failure, or ``None``."""
    action = actions[position]
    before, url = session.navigations, _url(session.page)
    watch.expect(position, action.dialog, action.dialog_text)
    found, started = Located(), time.perf_counter()
    try:
        _run(session, action, expected, index_mode, found)
    except Exception as exc:
        error: ActionError | None = error_of(exc, position=position)
    else:
        _settle(session, before)
        if position < len(actions) - 1:  # (after the last, the page is observed anyway)
            watch.after_action()
        error = _dismissed(watch, position)
    if recording is not None:
        recording.step(position, action, found, error, (time.perf_counter() - started) * 1e3)
        if session.navigations != before or _url(session.page) != url:
            recording.moved(action, _url(session.page))
    return error


def _dismissed(watch: DialogWatch, position: int) -> ActionError | None:
    """``DIALOG_DISMISSED`` when the action at ``position`` left a dialog dismissed because
    it gave no answer (:meth:`DialogWatch.unanswered`)."""
    record = watch.unanswered(position)
    if record is None:
        return None
    details = {"action_index": position, "dialog": {k: record[k] for k in ("type", "message")}}
    return ActionError(code="DIALOG_DISMISSED", message=dismissed_message(record), details=details)


def _url(page: Any) -> str:
    try:
        return str(page.url)
    except Exception:
        return ""


def _result(
    session: PageSession, done: int, error: ActionError | None, nav: bool, *, total: int
) -> ExecuteResult:
    """The result, with the page's catalog as it is after the actions."""
    try:
        catalog: Catalog | None = session.refresh()
    except Exception:
        catalog = None
    return ExecuteResult(
        success=error is None,
        error=error,
        observation=summarize(session, catalog, nav_detected=nav),
        is_done=error is None and done == total,
        complete=done,
        catalog=None if catalog is None else session.render(),
    )


def summarize(
    session: PageSession, catalog: Catalog | None, *, nav_detected: bool = False
) -> ObservationSummary:
    """URL, title and a one-line summary of the page (``Team: 13 elements: 7 button, ...``)."""
    page = session.page
    try:
        title = str(page.title())
    except Exception:
        title = ""
    if catalog is None:
        summary = f"{title or _url(page)}: the page could not be observed"
    else:
        counts = Counter(e.role for e in catalog.entries).most_common(4)
        kinds = ", ".join(f"{n} {role}" for role, n in counts)
        summary = f"{title or _url(page)}: {len(catalog)} elements"
        summary += f" ({kinds})" if kinds else ""
    return ObservationSummary(
        url=_url(page), title=title, short_summary=summary[:300],
        catalog_version=session.version if catalog is not None else None,
        nav_detected=nav_detected,
    )  # fmt: skip
