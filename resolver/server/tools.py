"""The tools both servers offer, as plain functions of a
:class:`~resolver.act.session.PageSession` run on the browser thread. Each returns a
JSON-ready dict and never raises: a failure is ``{"ok": false, "error": {code, message,
details}}``."""

from __future__ import annotations

import base64
import contextlib
import struct
from collections.abc import Callable, Mapping
from typing import Any, Final
from urllib.parse import urlsplit

from ..act.execute import error_of, execute
from ..act.session import PageSession, session_for
from ..act.tabs import tab_list
from ..catalog.marks import mark_screenshot
from ..chain import resolve
from ..errors import InvalidTargetError, ResolutionError, SourceUnavailableError
from ..results import Candidate
from ..snapshot import to_snapshot_v1
from ..text import valid_unicode

__all__ = ["SCHEMES", "catalog", "current_catalog", "execute_actions", "json_ready",
           "navigate", "resolve_ref", "screenshot", "select_tab", "snapshot",
           "tabs"]  # fmt: skip

SCHEMES: Final[frozenset[str]] = frozenset({"http", "https", "file", "about", "data"})
"""URL schemes ``navigate`` opens."""
_MAX_CATALOG_CHARS: Final[int] = 12_000


def _guarded(fn: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """``fn`` returning its failure as an error dict instead of raising."""

    def run(*args: Any, **kwargs: Any) -> dict[str, Any]:
        try:
            return json_ready(fn(*args, **kwargs))
        except Exception as exc:
            return json_ready({"ok": False, "error": error_of(exc).model_dump(mode="json")})

    run.__name__, run.__doc__ = fn.__name__, fn.__doc__
    return run


def _page_info(session: PageSession) -> dict[str, Any]:
    page = session.page
    return {"url": str(page.url), "title": str(page.title())}


@_guarded
def navigate(session: PageSession, url: str) -> dict[str, Any]:
    """Open ``url`` (http, https, file, about, data) and wait for it to load. The catalog is
    kept: indexes chosen before are found again on the new page, or refused."""
    if not isinstance(url, str) or urlsplit(url.strip()).scheme.lower() not in SCHEMES:
        raise InvalidTargetError(f"navigate takes an http(s), file, about or data URL: {url!r:.80}")
    response = session.page.goto(url.strip(), wait_until="load", timeout=30_000)
    status = None if response is None else int(response.status)
    if session.recorder is not None:
        session.recorder.navigation(str(session.page.url))
    return {"ok": True, "status": status, **_page_info(session)}


def _catalog_view(session: PageSession) -> dict[str, Any]:
    current = session.catalog
    assert current is not None
    return {
        "ok": True,
        "version": session.version,
        "catalog": session.render(max_chars=_MAX_CATALOG_CHARS),
        "elements": len(current),
        **_page_info(session),
    }


@_guarded
def catalog(session: PageSession) -> dict[str, Any]:
    """Observe the page, make its catalog the current one, and return its text and version."""
    session.refresh()
    return _catalog_view(session)


@_guarded
def current_catalog(session: PageSession) -> dict[str, Any]:
    """The current catalog (built from the page when there is none yet)."""
    if session.catalog is None:
        session.refresh()
    return _catalog_view(session)


@_guarded
def execute_actions(
    session: PageSession, actions: Any, expected_catalog_version: str | None = None
) -> dict[str, Any]:
    """:func:`resolver.act.execute` on the session's page, as JSON (with ``--record``, a
    recording that cannot be written is an error result, not an exception)."""
    result = execute(session.page, actions, expected_catalog_version=expected_catalog_version)
    return json_ready(result.model_dump(mode="json"))


def json_ready(result: dict[str, Any]) -> dict[str, Any]:
    """``result`` with its text valid Unicode (:func:`~resolver.text.valid_unicode`): a page
    can hold half a character (a script that cut an emoji), which UTF-8 cannot carry."""
    ready: dict[str, Any] = valid_unicode(result)
    return ready


def _brief(candidate: Candidate) -> dict[str, Any]:
    return {"executor_id": candidate.executor_id, "role": candidate.role,
            "name": candidate.name[:200], "score": candidate.score,
            "container_path": [c[:200] for c in candidate.container_path[-3:]]}  # fmt: skip


@_guarded
def resolve_ref(session: PageSession, ref: Mapping[str, Any]) -> dict[str, Any]:
    """Resolve a SemanticElementRef (its dict form) against the page as it is now: the
    executor ID, confidence and rule, or the refusal's code and candidates."""
    observation = session.observe()
    try:
        found = resolve(dict(ref) if isinstance(ref, Mapping) else ref, observation)
    except ResolutionError as exc:
        return {"ok": False, "resolved": False, "error": {
            "code": exc.code.value, "message": exc.message, "rule": exc.evidence.rule,
            "candidates": [_brief(c) for c in exc.evidence.candidates[:5]],
        }}  # fmt: skip
    return {
        "ok": True, "resolved": True, "executor_id": found.executor_id,
        "source": found.source, "confidence": round(found.confidence, 4),
        "score": found.score, "margin": found.margin, "rule": found.rule,
        "candidate": _brief(found.candidate),
        "alternatives": [_brief(c) for c in found.alternatives[:5]],
    }  # fmt: skip


@_guarded
def snapshot(session: PageSession, prune: bool = True, redact: bool = True) -> dict[str, Any]:
    """A SnapshotV1 of the page as it is now (pruned and redacted by default)."""
    return {
        "ok": True,
        "snapshot": to_snapshot_v1(session.observe(), prune=bool(prune), redact=bool(redact)),
    }


@_guarded
def screenshot(session: PageSession, marks: bool = True) -> dict[str, Any]:
    """Observe the page with a viewport screenshot, make its catalog the current one, and
    return the picture (PNG, base64 in ``image``) with each entry in view outlined and
    labelled with its index (``marks``; ``marked`` lists them, ``crowded`` those whose
    label covers another label or outline, ``covered`` those not drawn because something
    else is drawn over their centre), the catalog version the indexes belong to, and the
    picture's size."""
    if not isinstance(marks, bool):
        raise InvalidTargetError(f"marks is true or false, not {marks!r:.40}")
    observation = session.observe(screenshot=True)
    if observation.screenshot is None:
        raise SourceUnavailableError("the page gave no screenshot")
    current = session.refresh(observation)
    png = bytes(observation.screenshot)
    info: dict[str, list[int]] = {"marked": [], "crowded": [], "covered": []}
    if marks:
        covered = sorted(session.covered)
        drawn = mark_screenshot(png, current, viewport=observation.screen_size,
                                limits=observation.limits, skip=frozenset(covered))  # fmt: skip
        png, info = drawn.png, {"marked": list(drawn.marked), "crowded": list(drawn.crowded),
                                "covered": covered}  # fmt: skip
        width, height = drawn.size
    else:  # (the PNG header read here: the plain picture needs no image library)
        png_head = png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) >= 24  # (IHDR comes first)
        width, height = struct.unpack(">II", png[16:24]) if png_head else (None, None)
    return {"ok": True, "version": session.version, **info, "width": width, "height": height,
            "media_type": "image/png", "image": base64.b64encode(png).decode("ascii"),
            **_page_info(session)}  # fmt: skip


@_guarded
def tabs(session: PageSession) -> dict[str, Any]:
    """The browser's tabs: index, URL, title, and which one the tools act on (``current``)."""
    return {"ok": True, "tabs": tab_list(session.page)}


@_guarded
def select_tab(session: PageSession, worker: Any, index: Any) -> dict[str, Any]:
    """Make tab ``index`` (of :func:`tabs`) the one the tools act on, brought to the front;
    the tabs after. ``worker`` is the :class:`~resolver.server.worker.BrowserWorker` whose
    thread this runs on."""
    pages = list(session.page.context.pages)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(pages):
        raise InvalidTargetError(
            f"no tab {index!r:.40}: the browser has {len(pages)} (indexes from 0; see tabs)"
        )
    chosen = worker.configured(session_for(pages[index]))
    with contextlib.suppress(Exception):  # (a headless page has no front to come to)
        pages[index].bring_to_front()
    worker.adopt(chosen)
    if chosen.recorder is not None:
        chosen.recorder.navigation(str(chosen.page.url), "select_tab")
    return {"ok": True, "tabs": tab_list(chosen.page)}
