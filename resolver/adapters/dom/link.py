"""Cross-linking: give a11y rows (CDP trees) the XPath of their DOM element.

Two ways, best first:

1. an explicit map ``backendDOMNodeId -> xpath`` (what a CDP runtime gets from
   ``DOM.getDocument(depth=-1)``; :func:`backend_xpaths` builds it from that result), which is
   exact;
2. otherwise alignment: the a11y rows that have a ``backend_node_id`` and the DOM rows are
   both in document order, and the DOM adapter computes roles and names the way Chromium
   does, so walking both sequences and pairing equal ``(role, name)`` keys within a small
   look-ahead window links each DOM-backed node to its element. Rows whose key is unnamed
   or repeated nearby are linked only when the neighbours on both sides agree.

The result is the a11y table with an ``xpath`` platform-ID column (``None`` where no link was
found), so the chain can verify a ref's recorded XPath against a11y rows too and hand an
``xpath:`` executor to browser executors.

A linked row also carries its element's tag and web evidence (classes, link target, a few
attributes: :data:`resolver.web.WEB_COLUMNS`), which the accessibility tree itself does not
hold: from the attributes of a ``DOM.getDocument`` result (:func:`backend_web`), or, for a
``backendDOMNodeId -> xpath`` map, from the DOM table of the page's HTML when the observation
has it (:func:`evidence_columns`, read when first asked for).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import replace
from itertools import repeat
from typing import Any, Final

import numpy as np

from ...limits import DEFAULT_LIMITS, Limits
from ...table import CandidateTable
from ...text import normalize
from ...web import WEB_COLUMNS, web_values
from .._common import XPATH_KEYS

__all__ = [
    "backend_web", "backend_xpaths", "checked_root", "cross_link", "evidence_columns",
    "page_evidence", "root_web", "root_xpaths",
]  # fmt: skip

_WINDOW: Final[int] = 40
_UNLINKABLE: Final[frozenset[str]] = frozenset({"text", "none", "generic", "document"})


_DOCUMENT: Final[str] = "the dom_node_map document"


def checked_root(document: Mapping[str, Any], limits: Limits) -> Any:
    """The root of a ``DOM.getDocument`` result, once it is known to be a tree within
    ``limits`` (:func:`~resolver.adapters.a11y._walk.measure_nested`: a node met twice, a
    cycle, is an :class:`InvalidObservationError`; too many nodes or levels a
    :class:`LimitExceededError`), so that the walks below end."""
    from ..a11y._walk import measure_nested

    root = document.get("root", document)
    measure_nested([root], "children", limits, _DOCUMENT)
    return root


def backend_xpaths(
    document: Mapping[str, Any],
    limits: Limits = DEFAULT_LIMITS,
    wanted: Collection[str] | None = None,
) -> dict[str, str]:
    """``backendNodeId -> xpath`` from a CDP ``DOM.getDocument`` result (``{"root": ...}``),
    in the fixtures' XPath form; iframe documents and shadow roots are not entered. A result
    that is not a tree, or larger than ``limits`` allow, is refused (:func:`checked_root`).

    With ``wanted``, only those backend IDs are written out: each element keeps its own step
    while the document is walked, and a path is joined only for a wanted element, so a deep
    document costs memory for the paths asked for, not for every element's."""
    return root_xpaths(checked_root(document, limits), wanted)


def root_xpaths(root: Any, wanted: Collection[str] | None = None) -> dict[str, str]:
    """:func:`backend_xpaths` of a document root already checked (:func:`checked_root`)."""
    steps, parents, where = _element_steps(root)
    if wanted is None:
        full: list[str] = []
        for step, parent in zip(steps, parents, strict=True):
            full.append(step if parent < 0 else full[parent] + step)
        return {backend: full[at] for backend, at in where.items()}
    out: dict[str, str] = {}
    for backend in wanted:
        at = where.get(backend, -1)
        parts: list[str] = []
        while at >= 0:
            parts.append(steps[at])
            at = parents[at]
        if parts:
            out[backend] = "".join(reversed(parts))
    return out


def _element_steps(root: Any) -> tuple[list[str], list[int], dict[str, int]]:
    """Each element's own step (``/tag[k]``) and its parent element's place (-1 under the
    document), in the order met (a parent before its children), and the place of each
    backend ID (the last element met with it, as a map written in that order keeps)."""
    steps: list[str] = []
    parents: list[int] = []
    where: dict[str, int] = {}
    stack: list[tuple[Any, int]] = [(root, -1)]
    while stack:
        node, place = stack.pop()
        if not isinstance(node, Mapping):
            continue
        children = node.get("children")
        if not isinstance(children, list):
            continue
        counts: dict[str, int] = {}
        items = []
        for child in children:
            if not isinstance(child, Mapping) or child.get("nodeType") != 1:
                continue
            tag = str(child.get("localName") or child.get("nodeName", "")).lower()
            counts[tag] = counts.get(tag, 0) + 1
            at = len(steps)
            steps.append(f"/{tag}[{counts[tag]}]")
            parents.append(place)
            backend = child.get("backendNodeId")
            if backend is not None:
                where[str(backend)] = at
            items.append((child, at))
        stack.extend(reversed(items))
    return steps, parents, where


def backend_web(
    document: Mapping[str, Any], url: str | None = None, limits: Limits = DEFAULT_LIMITS
) -> dict[str, tuple[Any, ...]]:
    """``backendNodeId -> (tag, *web columns)`` from a CDP ``DOM.getDocument`` result: each
    element's tag and the web evidence of its ``attributes`` (:data:`resolver.web.WEB_COLUMNS`,
    links resolved against ``url``). Elements without any of it are left out. A result that
    is not a tree, or larger than ``limits`` allow, is refused (:func:`checked_root`)."""
    return root_web(checked_root(document, limits), url)


def root_web(root: Any, url: str | None = None) -> dict[str, tuple[Any, ...]]:
    """:func:`backend_web` of a document root already checked (:func:`checked_root`)."""
    out: dict[str, tuple[Any, ...]] = {}
    stack: list[Any] = [root]
    while stack:
        node = stack.pop()
        if not isinstance(node, Mapping):
            continue
        children = node.get("children")
        if isinstance(children, list):
            stack.extend(children)
        backend = node.get("backendNodeId")
        if node.get("nodeType") != 1 or backend is None:
            continue
        flat = node.get("attributes")
        pairs = zip(flat[0::2], flat[1::2], strict=False) if isinstance(flat, list) else ()
        named = {k: v for k, v in pairs if isinstance(k, str)}
        attrs = {k: v for k, v in named.items() if isinstance(v, str)}
        tag = str(node.get("localName") or node.get("nodeName", "")).lower() or None
        out[str(backend)] = (tag, *web_values(attrs, url))
    return out


def _key(role: str, name: str) -> tuple[str, str]:
    return (role, normalize(name) if name else "")


def cross_link(
    a11y: CandidateTable,
    dom: CandidateTable | None = None,
    *,
    backend_map: Mapping[str, str] | None = None,
    backend_web: Mapping[str, tuple[Any, ...]] | None = None,
) -> CandidateTable:
    """``a11y`` with an ``xpath`` column linking its DOM-backed rows to DOM elements.

    Parameters
    ----------
    a11y:
        A table from the CDP adapter (it has a ``backend_node_id`` column).
    dom:
        The DOM table of the same page (used for alignment when no map is given).
    backend_map:
        ``backendDOMNodeId -> xpath`` (exact; see :func:`backend_xpaths`).
    backend_web:
        ``backendDOMNodeId -> (tag, *web columns)`` (see :func:`backend_web`): the linked
        rows also get the ``tag`` and web evidence columns.
    """
    backends = a11y.platform_ids.get("backend_node_id")
    if backends is None:
        return a11y
    xpaths: list[str | None] = [None] * len(a11y)
    if backend_map:
        for i, backend in enumerate(backends):
            if backend is not None:
                xpaths[i] = backend_map.get(backend)
    elif dom is not None:
        _align(a11y, dom, backends, xpaths)
    columns = dict(a11y.platform_ids)
    for name, values in _web_columns(backends, backend_web).items():
        old = columns.get(name)  # a value the tree itself gave (a link's url) is kept
        columns[name] = values if old is None else tuple(map(_first, old, values))
    if any(xpaths):
        columns["xpath"] = tuple(xpaths)
    elif len(columns) == len(a11y.platform_ids):
        return a11y
    return replace(a11y, platform_ids=columns, id_keys={**a11y.id_keys, **XPATH_KEYS})


def page_evidence(a11y: CandidateTable, dom: CandidateTable) -> CandidateTable:
    """``a11y`` with the ``tag`` and web evidence columns of the DOM elements its rows are
    linked to (:func:`evidence_columns`); as it is when its rows carry no xpath or already
    carry a tag column. (:class:`~resolver.observation.Observation` reads the same columns
    lazily, when first asked for.)"""
    if "xpath" not in a11y.platform_ids or "tag" in a11y.platform_ids:
        return a11y
    columns = {**a11y.platform_ids, **evidence_columns(a11y.platform_ids, dom)}
    return replace(a11y, platform_ids=columns)


def evidence_columns(
    columns: Mapping[str, tuple[Any, ...]], dom: CandidateTable | None
) -> dict[str, tuple[Any, ...]]:
    """The ``tag`` and web evidence columns (:data:`~resolver.web.WEB_COLUMNS`) of the rows
    of an a11y table with these ``columns``, read from ``dom`` (the DOM table of the same
    page) by each row's ``xpath``.

    This is what a ``DOM.getDocument`` map gives the linked rows (:func:`backend_web`), for a
    runtime that passed a ``backendDOMNodeId -> xpath`` map and the page's HTML instead. A
    row without a link, or linked to an element the DOM table has no row for, gets
    ``None`` (every row does without a ``dom``: a page that could not be read); a value the
    tree gave itself (a link's url) is kept.
    """
    xpaths = columns["xpath"]
    at = {} if dom is None else dom.derived(_element_rows)
    # Each row's DOM row, and -1 (the extra ``None`` cell every column gets) where it has none.
    rows = np.fromiter(map(at.get, xpaths, repeat(-1)), dtype=np.intp, count=len(xpaths))
    out: dict[str, tuple[Any, ...]] = {}
    for name in ("tag", *WEB_COLUMNS):
        values = None if dom is None else dom.platform_ids.get(name)
        if values is None:
            found: tuple[Any, ...] = (None,) * len(xpaths)
        else:
            cells = np.empty(len(values) + 1, dtype=object)
            cells[:-1] = values
            found = tuple(cells[rows].tolist())
        old = columns.get(name)
        out[name] = found if old is None else tuple(map(_first, old, found))
    return out


def _element_rows(dom: CandidateTable) -> dict[str, int]:
    """Each element's first row in a DOM table, by its xpath (text rows left out)."""
    out: dict[str, int] = {}
    for row, row_id in enumerate(dom.ids):
        if not row_id.endswith("#text"):
            out.setdefault(row_id, row)
    return out


def _first(a: Any, b: Any) -> Any:
    return a if a is not None else b


def _web_columns(
    backends: tuple[str | None, ...], web: Mapping[str, tuple[Any, ...]] | None
) -> dict[str, tuple[Any, ...]]:
    """The ``tag`` and web evidence columns of the rows whose DOM node ``web`` describes."""
    if not web:
        return {}
    empty = (None,) * (1 + len(WEB_COLUMNS))
    rows = [web.get(b, empty) if b is not None else empty for b in backends]
    return {c: tuple(r[k] for r in rows) for k, c in enumerate(("tag", *WEB_COLUMNS))}


def _align(
    a11y: CandidateTable,
    dom: CandidateTable,
    backends: tuple[str | None, ...],
    xpaths: list[str | None],
) -> None:
    wanted = [
        i for i in range(len(a11y))
        if backends[i] is not None and a11y.roles[i] not in _UNLINKABLE
    ]  # fmt: skip
    targets = [
        j for j in range(len(dom))
        if dom.roles[j] not in _UNLINKABLE and not dom.ids[j].endswith("#text")
    ]  # fmt: skip
    a_keys = [_key(a11y.roles[i], a11y.names[i]) for i in wanted]
    d_keys = [_key(dom.roles[j], dom.names[j]) for j in targets]
    j = 0
    for position, i in enumerate(wanted):
        key = a_keys[position]
        limit = min(len(d_keys), j + _WINDOW)
        for k in range(j, limit):
            if d_keys[k] == key:
                # An unnamed key ("list", "") is ambiguous: accept it only when it is the
                # next DOM row (nothing skipped), so repeated structure cannot slip.
                if key[1] or k == j:
                    xpaths[i] = dom.ids[targets[k]]
                    j = k + 1
                break
