"""Durable locators: selectors for a resolved element that a test suite can keep.

:func:`durable_locators` turns a resolution on a live page into three selectors, each run on
the page before it is returned: a Playwright ``get_by_role(role, name=..., exact=True)``
expression (scoped by a named container such as a table row or a dialog, or by
``.filter(has_text=...)``, or as a last resort ``.nth(i)``, when the role and name alone
select look-alikes too), a CSS selector and an XPath (the catalog's ranked selectors:
:func:`resolver.adapters.dom.ranked_selectors`, best first). An element inside open shadow
trees, which no XPath enters and the page's own document does not hold, gets CSS selectors
read from the page instead: its own identifying attributes, its shadow host's, then a path
through every host, for Playwright's CSS engine (which enters open shadow roots; not for
``document.querySelector``). A selector is kept only when it selects exactly one element and
that element is the resolution's node; one that cannot be verified is left out and
``reasons`` says why.

The node is recognised in the page by a marker property set on it for the check (a script
property, not an attribute, so no selector sees it) and removed afterwards.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from ..adapters.dom.elements import ElementFacts
from ..adapters.dom.selectors import TESTID_ATTRS, css_string, id_selector
from ..capture.complete import answer_row
from ..catalog.entries import page_facts
from ..errors import InvalidReferenceError, StaleElementError
from ..index import index_of
from ..integrations.playwright import _entered, frame_selector
from ..integrations.threaded import in_thread, is_async
from ..observation import Observation
from ..results import Resolution
from ..table import CandidateTable

__all__ = ["DurableLocators", "durable_locators"]

_MARK: Final[str] = "__resolverLocatorMark"
_SET_JS: Final[str] = f"function (token) {{ this.{_MARK} = token; }}"
_CLEAR_JS: Final[str] = f"function () {{ delete this.{_MARK}; }}"
_HITS_JS: Final[str] = f"(els, token) => els.map(e => e.{_MARK} === token)"
_NO_ROLE: Final[frozenset[str]] = frozenset({"text", "generic", "none", "unknown", ""})
MAX_CONTAINERS: Final[int] = 4
"""Named ancestors tried as the scope of a role locator, nearest first."""


@dataclass(frozen=True)
class DurableLocators:
    """Verified selectors for one element (``None`` where none could be verified).

    ``role`` is a Playwright (Python) expression on ``page``; ``css`` and ``xpath`` are
    selectors (``page.locator("css=...")`` / ``page.locator("xpath=...")``). For an element
    inside frames, ``frames`` lists the XPaths of the frame elements to enter first, from the
    top document down (``page.frame_locator("xpath=...")`` for each; one inside shadow trees
    is a selector starting ``xpath=``, used as it is; the ``role`` expression already enters
    them), and ``css`` and ``xpath`` select inside the last one. For an element inside open
    shadow trees ``css`` is for Playwright's CSS engine and ``xpath`` is ``None``.
    ``reasons`` maps each missing kind to why; ``tried`` lists every candidate run on the
    page with what it selected (``"unique"``, ``"none"``, ``"another element"``,
    ``"N elements"``).
    """

    role: str | None
    css: str | None
    xpath: str | None
    backend_node_id: int
    reasons: dict[str, str] = field(default_factory=dict)
    tried: list[tuple[str, str, str]] = field(default_factory=list)
    frames: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view."""
        return {
            "role": self.role,
            "css": self.css,
            "xpath": self.xpath,
            "backend_node_id": self.backend_node_id,
            "reasons": dict(self.reasons),
            "tried": [list(t) for t in self.tried],
            "frames": list(self.frames),
        }


@dataclass(frozen=True)
class _RoleCandidate:
    """A role locator: optional scope ``(role, name, has_text)``, then role and name."""

    role: str
    name: str | None
    scope: tuple[str, str | None, str | None] | None = None
    nth: int | None = None
    frames: tuple[str, ...] = ()

    def expression(self) -> str:
        text = "page" + "".join(f".frame_locator({json.dumps(frame_selector(f))})"
                                for f in self.frames)  # fmt: skip
        if self.scope is not None:
            role, name, has_text = self.scope
            text += _by_role(role, name)
            if has_text is not None:
                text += f".filter(has_text={json.dumps(has_text)})"
        text += _by_role(self.role, self.name)
        return text + (f".nth({self.nth})" if self.nth is not None else "")

    def locator(self, page: Any) -> Any:
        base = _entered(page, self.frames)
        if self.scope is not None:
            role, name, has_text = self.scope
            base = _role_locator(base, role, name)
            if has_text is not None:
                base = base.filter(has_text=has_text)
        found = _role_locator(base, self.role, self.name)
        return found.nth(self.nth) if self.nth is not None else found


def _by_role(role: str, name: str | None) -> str:
    if name is None:
        return f".get_by_role({json.dumps(role)})"
    return f".get_by_role({json.dumps(role)}, name={json.dumps(name)}, exact=True)"


def _role_locator(base: Any, role: str, name: str | None) -> Any:
    if name is None:
        return base.get_by_role(role)
    return base.get_by_role(role, name=name, exact=True)


class _Checker:
    """Runs candidate locators on the page and says what each selects, by the marker set on
    the resolution's node."""

    def __init__(self, page: Any, session: Any, backend: int, frames: tuple[str, ...] = ()) -> None:
        self.page = page
        self.frames = frames  # the frame elements to enter first (their XPaths)
        self.session = session  # the session holding the node (the tab's, or its frame's)
        self.token = secrets.token_hex(8)
        self.tried: list[tuple[str, str, str]] = []
        try:
            found = self.session.send("DOM.resolveNode", {"backendNodeId": backend})
            self.object_id = found["object"]["objectId"]
            self.session.send("Runtime.callFunctionOn", {
                "objectId": self.object_id, "functionDeclaration": _SET_JS,
                "arguments": [{"value": self.token}],
            })  # fmt: skip
        except Exception as exc:
            raise StaleElementError(
                f"the node {backend} is gone from the page (it re-rendered): observe again"
            ) from exc

    def hits(self, kind: str, text: str, locator: Any) -> list[bool]:
        """Per element the locator selects, whether it is the node (recorded in ``tried``)."""
        try:
            hits = [bool(h) for h in locator.evaluate_all(_HITS_JS, self.token)]
        except Exception as exc:  # a selector the engine refuses
            self.tried.append((kind, text, f"error: {str(exc).splitlines()[0][:120]}"))
            return []
        if len(hits) == 1:
            verdict = "unique" if hits[0] else "another element"
        else:
            verdict = "none" if not hits else f"{len(hits)} elements"
        self.tried.append((kind, text, verdict))
        return hits

    def unique(self, kind: str, text: str, locator: Any) -> bool:
        return self.hits(kind, text, locator) == [True]

    def close(self) -> None:
        with contextlib.suppress(Exception):  # the page moved on: nothing left to clean
            self.session.send(
                "Runtime.callFunctionOn",
                {"objectId": self.object_id, "functionDeclaration": _CLEAR_JS},
            )


def _scopes(
    table: CandidateTable, row: int, obs: Observation
) -> Iterator[tuple[str, str | None, str | None]]:
    """Scopes for a role locator, nearest named ancestor first: by role and its own exact
    name, by role and a text inside it that is unique on the page (a row's first cell, a
    card's title), then by role and the name its content gives it; none outside the frame
    the row is in (a locator entering that frame does not see them)."""
    places = getattr(obs, "frame_paths", {})

    def frames(r: int) -> tuple[str, ...]:
        place = places.get(table.executor_id(r)) if places else None
        return place[0] if place is not None else ()

    child, parent = row, int(table.parent[row])
    mine, seen = frames(row), 0
    while parent >= 0 and seen < MAX_CONTAINERS and frames(parent) == mine:
        role, name = table.roles[parent], table.names[parent].strip()
        label = table.containers[child][-1] if table.containers[child] else ""
        if role not in _NO_ROLE and role != "document":
            seen += 1
            if name:
                yield (role, name, None)
            text = _distinct_text(table, parent, table.names[row])
            if text is not None:
                yield (role, None, text)
            if not name and label and not label.startswith("["):
                yield (role, label, None)
        child, parent = parent, int(table.parent[parent])


def _distinct_text(table: CandidateTable, container: int, own: str) -> str | None:
    """The first name inside ``container`` (in document order) that no other row of the page
    has, other than ``own``."""
    unique = index_of(table).unique_named
    for other in range(container + 1, min(len(table), container + 500)):
        if not table.is_ancestor(container, other):
            break
        name = table.names[other].strip()
        if unique[other] and name and name != own.strip() and len(name) <= 80:
            return name
    return None


def _role_locator_for(
    check: _Checker, table: CandidateTable, row: int, obs: Observation
) -> str | None:
    """The first verified role expression, from the plainest to ``.nth(i)``."""
    role, name = table.roles[row], table.names[row].strip() or None
    if role in _NO_ROLE:
        return None
    plain = _RoleCandidate(role, name, frames=check.frames)
    hits = check.hits("role", plain.expression(), plain.locator(check.page))
    if hits == [True]:
        return plain.expression()
    for scope in _scopes(table, row, obs):
        scoped = _RoleCandidate(role, name, scope, frames=check.frames)
        if check.unique("role", scoped.expression(), scoped.locator(check.page)):
            return scoped.expression()
    if hits.count(True) == 1:
        nth = _RoleCandidate(role, name, nth=hits.index(True), frames=check.frames)
        if check.unique("role", nth.expression(), nth.locator(check.page)):
            return nth.expression()
    return None


_SHADOW_ATTRS: Final[tuple[str, ...]] = ("id", *TESTID_ATTRS, "aria-label", "name", "placeholder")
_SHADOW_FACTS_JS: Final[str] = r"""function (names) {
  const root = this.nodeType === 1 ? this.getRootNode() : null;
  if (!(root instanceof ShadowRoot)) return null;
  const tag = (el) => /^[a-z][a-z0-9-]*$/.test(el.localName) ? el.localName : "*";
  const facts = (el) => {
    const attrs = {};
    for (const a of names) { const v = el.getAttribute(a); if (v) attrs[a] = v; }
    return {tag: tag(el), attrs: attrs};
  };
  const steps = [];
  let closed = false;
  for (let e = this; e; ) {
    const up = e.parentNode;
    const k = up && up.children ? Array.prototype.indexOf.call(up.children, e) + 1 : 1;
    steps.unshift(tag(e) + ":nth-child(" + k + ")");
    if (up instanceof ShadowRoot) { closed = closed || up.mode !== "open"; e = up.host; }
    else e = e.parentElement;
  }
  return {closed: closed, own: facts(this), host: facts(root.host), path: steps.join(" > ")};
}"""
"""What CSS selectors of a node inside shadow trees are made from: its tag and identifying
attributes (``names``), its shadow host's, and a structural path from the document's root
through every host (``tag:nth-child(k)`` steps joined by ``>``: Playwright's CSS enters open
shadow roots, a root's children being its host's children there); ``closed`` when a shadow
root on the way is closed. ``null`` for a node in no shadow tree."""


def _own_selectors(facts: Any, names: tuple[str, ...]) -> list[str]:
    """Simple selectors of one element from its :data:`_SHADOW_FACTS_JS` facts, by the
    attributes ``names``, in that order."""
    if not isinstance(facts, dict) or not isinstance(facts.get("tag"), str):
        return []
    tag, attrs = facts["tag"], facts.get("attrs")
    found: list[str] = []
    for attr in names:
        value = attrs.get(attr) if isinstance(attrs, dict) else None
        if not isinstance(value, str) or not value:
            continue
        if attr == "id":
            found.append(id_selector(value))
        elif attr in TESTID_ATTRS:
            found.append(f"[{attr}={css_string(value)}]")
        else:
            found.append(f"{tag}[{attr}={css_string(value)}]")
    return found


def _shadow_css(check: _Checker) -> list[str] | None:
    """Candidate CSS selectors of the checked node when it is inside shadow trees, best
    first: by its own identifying attributes, then by its host's and its own (or its tag),
    then its structural path (:data:`_SHADOW_FACTS_JS`); ``[]`` under a closed shadow root
    (no selector enters one); ``None`` for a node in no shadow tree, or one the page does
    not describe."""
    try:
        answer = check.session.send("Runtime.callFunctionOn", {
            "objectId": check.object_id, "functionDeclaration": _SHADOW_FACTS_JS,
            "arguments": [{"value": list(_SHADOW_ATTRS)}], "returnByValue": True,
        })  # fmt: skip
    except Exception:  # (the page moved on: the other kinds still say why)
        return None
    facts = (answer or {}).get("result", {}).get("value")
    if not isinstance(facts, dict):
        return None
    if facts.get("closed"):
        return []
    own = _own_selectors(facts.get("own"), _SHADOW_ATTRS)
    tag = facts["own"].get("tag") if isinstance(facts.get("own"), dict) else None
    hosts = _own_selectors(facts.get("host"), ("id", *TESTID_ATTRS))[:1]
    found = own + [f"{h} {o}" for h in hosts for o in [*own, tag] if isinstance(o, str)]
    if isinstance(facts.get("path"), str):
        found.append(facts["path"])
    return list(dict.fromkeys(found))


def _selectors(obs: Observation, table: CandidateTable, row: int) -> dict[str, list[str]]:
    """Candidate CSS selectors and XPaths for a row, best first (the catalog's ranking, then
    the XPath the tree links the row to)."""
    facts = ElementFacts(table, table) if table.source == "dom" else page_facts(obs, table)
    found: dict[str, list[str]] = {"css": [], "xpath": []}
    for kind, selector in facts.selectors(row):
        if kind in found and selector not in found[kind]:
            found[kind].append(selector)
    linked = table.xpaths[row] if row < len(table.xpaths) else None
    if linked and linked not in found["xpath"]:
        found["xpath"].append(linked)
    return found


def durable_locators(
    page: Any, resolution: Resolution, observation: Observation | None = None
) -> Any:
    """Role, CSS and XPath locators for a resolution's element, each verified on the page.

    Parameters
    ----------
    page:
        The Playwright page (sync or async API, Chromium) the observation was taken of.
    resolution:
        What :func:`resolver.resolve` answered on ``observation`` (an element: ``a11y:``,
        ``xpath:`` or ``css:``).
    observation:
        The observation :func:`resolver.integrations.playwright.observe` returned (it links
        the answer to its DOM node; needed for ``a11y:`` answers).

    Returns
    -------
    DurableLocators
        Each selector selects exactly one element on the page now, the resolved node; a
        kind none of whose candidates does is ``None``, with the reason. With the async
        API, an awaitable of it (run in a worker thread:
        :mod:`resolver.integrations.threaded`).

    Raises
    ------
    InvalidReferenceError
        The answer is a point (``vision:``, ``coords:``), or an ``a11y:`` answer came
        without its observation.
    StaleElementError
        The node is no longer in the page.
    """
    if is_async(page):
        return in_thread(durable_locators, page, resolution, observation)
    from ..integrations.playwright import _backend, _node_target

    backend = _backend(page, resolution, observation)
    if backend is None:
        raise InvalidReferenceError(
            f"{resolution.executor_id!r} is a point, not an element: it has no locator"
        )
    obs = observation if observation is not None else Observation()
    table = obs.candidates(resolution.source) if obs.has(resolution.source) else None
    row = answer_row(table, resolution) if table is not None else None
    place = getattr(obs, "frame_paths", {}).get(resolution.executor_id)
    session, _ = _node_target(page, resolution, obs)
    check = _Checker(page, session, backend, place[0] if place else ())
    try:
        return _verified(check, backend, obs, table, row, place[1] if place else None)
    finally:
        check.close()


def _verified(
    check: _Checker,
    backend: int,
    obs: Observation,
    table: CandidateTable | None,
    row: int | None,
    framed: str | None = None,
) -> DurableLocators:
    """Each kind's first candidate that selects exactly the node (``framed``: the node's
    XPath in its frame's document, for a node inside frames)."""
    reasons: dict[str, str] = {}
    found: dict[str, str | None] = {"role": None, "css": None, "xpath": None}
    if table is None or row is None:
        reasons.update(dict.fromkeys(found, "the observation does not describe the element"))
        return DurableLocators(None, None, None, backend, reasons, check.tried, check.frames)
    found["role"] = _role_locator_for(check, table, row, obs)
    candidates = _selectors(obs, table, row)
    shadow = _shadow_css(check)
    if shadow is not None:  # (in a shadow tree: no XPath reaches it)
        candidates = {"css": shadow + candidates["css"], "xpath": []}
    if framed and framed not in candidates["xpath"]:
        candidates["xpath"].append(framed)
    base = _entered(check.page, check.frames)
    for kind in ("css", "xpath"):
        found[kind] = next(
            (s for s in candidates[kind] if check.unique(kind, s, base.locator(f"{kind}={s}"))),
            None,
        )
    for kind, value in found.items():
        if value is None:
            reasons[kind] = _reason(check, kind, shadow)
    return DurableLocators(found["role"], found["css"], found["xpath"], backend, reasons,
                           check.tried, check.frames)  # fmt: skip


def _reason(check: _Checker, kind: str, shadow: list[str] | None) -> str:
    """Why no candidate of ``kind`` was kept (``shadow``: :func:`_shadow_css`'s answer)."""
    tried = [t for t in check.tried if t[0] == kind]
    if tried:
        return f"none of {len(tried)} candidates selects exactly this element"
    if shadow is not None and kind == "xpath":
        return "no candidate (the element is inside a shadow tree, which no XPath enters)"
    if shadow == [] and kind == "css":
        return "no candidate (the element is inside a closed shadow tree, which no selector enters)"
    if check.frames and kind == "css":
        return (
            "no candidate (the element is inside a frame: CSS selectors are made from the "
            "page's own document)"
        )
    return "no candidate (no role and name, or no DOM linked to the element)"
