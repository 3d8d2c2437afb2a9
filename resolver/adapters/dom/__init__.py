"""The DOM source: a page's HTML to a :class:`~resolver.table.CandidateTable`.

Pipeline (one module each): :mod:`.parse` (HTML5 parse, limits) -> :mod:`.style` (display and
visibility from ``<style>`` and ``style=``) -> :mod:`.roles` (explicit and HTML-AAM implicit
roles) -> :mod:`.visibility` (rendered, hidden, enabled) -> :mod:`.accname` (accessible
names) -> :mod:`.selectors` (XPaths, CSS paths, ranked selectors, selector verification).

Rows (pre-order, parent = nearest ancestor with a row):

- every rendered element with a role other than ``generic``/``none`` and the inline text roles
  (``strong``, ``emphasis``, ``code`` ...): controls, links, headings, images, landmarks,
  lists, tables, paragraphs ...;
- generic elements that are focusable, carry ``onclick``, or are named by ``aria-label``/
  ``aria-labelledby``/``title`` (clickable ``div``\\ s), named from their text;
- text leaves (role ``text``): a block-level generic element's text with its inline
  descendants (``<div>Q3 <b>report</b></div>``) is one row addressed by that element; the
  text directly inside a non-generic row whose name does not come from content (a
  paragraph, a list item) is a child row addressed by the same element (ID ``<xpath>#text``).

Elements that are not rendered (``display: none``, ``hidden``, closed ``<details>``,
``<template>``, ``<script>`` ...) and ``visibility: hidden`` ones have no rows. Rendered
elements hidden from assistive technology (``aria-hidden="true"``, ``inert``) keep their rows
with ``visible = 0``, so the matcher discounts them but a DOM recording can still find them.

Columns: ``ids`` and ``xpaths`` are the absolute XPath; ``executor_ids`` ``xpath:<xpath>``;
``platform_ids``: ``xpath``, ``css`` (a unique CSS selector: ``#id`` or the structural
path), ``dom_id``, ``tag``, ``testid``, and the web evidence of
:data:`resolver.web.WEB_COLUMNS` (``class``, ``href`` resolved against the page URL when
known, ``attr:name``, ``attr:type``, ``attr:placeholder``, ``attr:title``, ``attr:alt``);
``bboxes`` from ``Observation.dom_layout`` (keys are XPaths in the same form, with or
without ``[1]`` steps) or NaN; ``enabled``; ``visible``; ``focused`` unknown.
``table.selector_resolver(kind, selector)`` runs a ``"css"`` or ``"xpath"`` selector and
returns the rows it selects: an element without a row maps to the nearest ancestor row when
that row is a control or link it sits inside (an icon ``<span>`` in a button) or to the text
row that contains its text, and to nothing otherwise (unrendered elements, wrappers).
Invalid selectors select nothing. ``table.native`` is the page's
:class:`DomNative` (its analysis and that element-to-row map), from which
:func:`ranked_selectors` lists robust selectors for a row.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import urljoin, urlsplit

from ...errors import InvalidObservationError
from ...geometry import CoordSpace
from ...limits import DEFAULT_LIMITS, Limits
from ...table import MAX_TEXT, CandidateTable, TableBuilder
from ...web import WEB_COLUMNS, web_values
from .._common import XPATH_KEYS, no_cyclic_gc
from ..base import SourceInput
from .accname import NAME_FROM_CONTENT, NameComputer
from .css import MAX_MATCH_COST, MatchCost
from .link import backend_xpaths, cross_link
from .parse import Document, parse_html
from .roles import aria_role, compute_roles, is_focusable, layout_cells
from .selectors import (
    TESTID_ATTRS,
    ChildGroups,
    CssPathRunner,
    Paths,
    SelectorCounts,
    XPathRunner,
    compute_paths,
    count_selector_values,
    map_to_rows,
)
from .selectors import ranked_selectors as _ranked
from .style import compute_styles
from .visibility import States, compute_states

__all__ = [
    "DomAnalysis",
    "DomNative",
    "ElementAnswer",
    "analyze",
    "backend_xpaths",
    "build_table",
    "cross_link",
    "document_base_url",
    "ranked_selectors",
]

INLINE_TEXT_ROLES: Final[frozenset[str]] = frozenset(
    {"generic", "none", "strong", "emphasis", "code", "mark", "insertion", "deletion", "time",
     "text", "term", "definition"}
)  # fmt: skip
"""Roles that get no row of their own unless interactive or named: their text joins the
enclosing text row."""
_ASCII_SPACES: Final[re.Pattern[str]] = re.compile("[\t\n\f\r ]+")
_DEFAULT_VIEWPORT: Final[tuple[float, float]] = (1280.0, 800.0)
_ID_COLUMNS: Final[tuple[str, ...]] = ("xpath", "css", "dom_id", "tag", "testid", *WEB_COLUMNS)
_TESTID_SET: Final[frozenset[str]] = frozenset(TESTID_ATTRS)
_VALUE_TAGS: Final[frozenset[str]] = frozenset({"input", "textarea", "select"})
_VALUE_ATTRS: Final[frozenset[str]] = frozenset({"aria-valuetext", "aria-valuenow"})
# (enabled, visible, focused) per row, shared: one tuple per combination, not one per row.
_STATES: Final[tuple[tuple[tuple[int, int, int], ...], ...]] = (
    ((0, 0, -1), (0, 1, -1)),
    ((1, 0, -1), (1, 1, -1)),
)
_BoxOf = Callable[[int], Sequence[float] | None]
"""Element -> its box from the capture's layout (see :func:`_box_lookup`)."""


class DomAnalysis:
    """Everything computed about one page, per element (for the table and for measurement).

    Parameters
    ----------
    html:
        The page (``str`` or ``bytes``).
    viewport:
        Width and height in CSS px that ``@media`` queries are evaluated against.
    scripting:
        Read the page as a browser with scripting enabled (the default) does, or, with
        ``False``, as one with JavaScript disabled: ``<noscript>`` content is then parsed as
        elements, rendered, and its ``<style>`` sheets apply.
    limits:
        How much of the page is read (``max_html_chars``, ``max_depth``, ``max_elements``;
        see :func:`.parse.parse_html`); more is refused with
        :class:`~resolver.errors.LimitExceededError`.
    """

    def __init__(
        self,
        html: str | bytes,
        viewport: tuple[float, float] = _DEFAULT_VIEWPORT,
        *,
        scripting: bool = True,
        limits: Limits = DEFAULT_LIMITS,
    ):
        self.doc: Document = parse_html(html, scripting=scripting, limits=limits)
        self.styles = compute_styles(self.doc, viewport)
        self.roles: list[str] = compute_roles(self.doc)
        self.states: States = compute_states(self.doc, self.styles)
        self.names = NameComputer(
            self.doc, self.roles, self.states.hidden, self.states.block, self.states.end,
            rendered=self.states.rendered, aria_hidden=self.states.aria_hidden,
            before=self.styles.before, after=self.styles.after,
            transform=self.styles.transform if any(self.styles.transform) else None,
            content_named=layout_cells(self.doc, self.roles),
        )  # fmt: skip
        self.paths: Paths = compute_paths(self.doc)
        self._xpath: XPathRunner | None = None
        self._costs: MatchCost | None = None
        self._css_paths: CssPathRunner | None = None
        self._children = ChildGroups(self.doc)  # (filled on first use)

    def __len__(self) -> int:
        return len(self.doc)

    def name(self, element: int) -> str:
        """Accessible name of an element (accname 1.2)."""
        return self.names.name(element)

    def aria_role(self, element: int) -> str:
        """The element's role as a browser's ``computedrole`` spells it (ARIA 1.3 names:
        ``image``, ``subscript``, ``sectionheader`` ...; see :func:`.roles.aria_role`)."""
        return aria_role(self.doc, self.roles, element)

    def rendered(self, element: int) -> bool:
        """Whether the element is in the accessibility tree at all: rendered and not under
        ``visibility: hidden`` (``aria-hidden`` elements count: they keep their rows)."""
        states = self.states
        return states.rendered[element] and (
            states.aria_hidden[element] or not states.hidden[element]
        )

    def xpath(self, path: str) -> list[int]:
        """Elements an XPath selects (document order)."""
        if self._xpath is None:
            self._xpath = XPathRunner(self.doc, self._children)
        return self._xpath.run(path)

    def css(self, selector: str) -> list[int]:
        """Elements a CSS selector selects (document order; ``[]`` when invalid, or when the
        selector engine could take minutes over it: see :class:`.css.MatchCost`)."""
        if self._css_paths is None:
            self._css_paths = CssPathRunner(self.doc, self._children)
        fast = self._css_paths.run(selector)
        if fast is not None:
            return fast
        if self._costs is None:
            self._costs = MatchCost(self.doc.tags, self.doc.attrs, self.doc.parent)
        if any(self._costs(part) > MAX_MATCH_COST for part in selector.split(",")):
            return []
        try:
            return self.doc.css(selector)
        except Exception:  # Lexbor: unparsable selector
            return []


def analyze(
    html: str | bytes,
    viewport: tuple[float, float] = _DEFAULT_VIEWPORT,
    *,
    scripting: bool = True,
    limits: Limits = DEFAULT_LIMITS,
) -> DomAnalysis:
    """Parse and analyse a page (see :class:`DomAnalysis`)."""
    with no_cyclic_gc():
        return DomAnalysis(html, viewport, scripting=scripting, limits=limits)


@dataclass(frozen=True)
class ElementAnswer:
    """What the DOM source says about one element, whether or not it has a row."""

    element: int
    role: str
    """Canonical role (:mod:`resolver.roles`), as its row would carry it."""
    aria_role: str
    """The role as a browser's ``computedrole`` spells it (``image``, ``sectionheader``)."""
    name: str
    """Accessible name (accname 1.2)."""
    row: int
    """The element's own row, or -1 when it has none (inline text, wrappers, ``generic``
    blocks whose text row stands for their text)."""


@dataclass(frozen=True, eq=False)
class DomNative:
    """The DOM source's own model of a page, kept in ``CandidateTable.native``."""

    analysis: DomAnalysis
    row_of: Sequence[int] = field(repr=False)
    """Per element, the row a selector on it stands for, or -1 (see the module doc)."""
    ids: list[str] = field(repr=False, default_factory=list)
    """The table's row IDs (an element's XPath; a text row's ends in ``#text``), filled in
    once the table is built. (Not the rows themselves: once the table holds their values,
    the row tuples are freed before the garbage collector has to scan them.)"""
    _paths: dict[str, int] = field(repr=False, default_factory=dict)

    def element(self, xpath: str) -> ElementAnswer | None:
        """Role and name of the element at an absolute XPath (``/html[1]/body[1]/div[2]``),
        listed or not; None when there is no such element or it is not in the
        accessibility tree (not rendered, ``visibility: hidden``).

        Rows are the matcher's candidates; this answers for every element, so an element
        that can never be a target (a ``<strong>``, a ``generic`` wrapper) still has its
        browser role and name.
        """
        analysis = self.analysis
        if not self._paths:
            self._paths.update((path, e) for e, path in enumerate(analysis.paths.layout))
        path = xpath.removeprefix("xpath:")
        e = self._paths.get(path, -1)
        if e < 0 or not analysis.rendered(e):
            return None
        row = self.row_of[e]
        if row >= 0 and not (row < len(self.ids) and self.ids[row] == analysis.paths.xpath[e]):
            row = -1  # the row a selector means (its control, its text row), not its own
        return ElementAnswer(e, analysis.roles[e], analysis.aria_role(e), analysis.name(e), row)

    def resolve(self, kind: str, selector: str) -> list[int]:
        """Rows a ``"css"`` or ``"xpath"`` selector selects (the table's selector resolver)."""
        if not isinstance(selector, str) or not selector.strip():
            return []
        if kind == "css":
            elements = self.analysis.css(selector)
        elif kind == "xpath":
            elements = self.analysis.xpath(selector.removeprefix("xpath:"))
        else:
            return []
        return map_to_rows(elements, self.row_of)


def build_table(source: SourceInput) -> CandidateTable:
    """The DOM source's table for ``source.raw`` (the page's HTML) and its optional layout.

    Raises
    ------
    LimitExceededError
        The HTML is over one of ``source.limits`` (``max_html_chars``, ``max_depth``,
        ``max_elements``; see :mod:`.parse`).
    InvalidObservationError
        The HTML cannot be read (binary, unparsable) or the page has more than
        ``source.max_nodes`` rows.
    """
    html = source.raw
    if html is None:
        raise InvalidObservationError("the observation has no dom_html")
    with no_cyclic_gc():
        return _build(source, html)


def _build(source: SourceInput, html: str | bytes) -> CandidateTable:
    analysis = DomAnalysis(
        html,
        source.screen_size or _DEFAULT_VIEWPORT,
        scripting=source.scripting,
        limits=source.limits,
    )
    builder = TableBuilder(
        "dom", "html", platform="html", id_columns=_ID_COLUMNS, executor_prefix="xpath:",
        max_rows=source.max_nodes, ascii_collapsed=True,
    )  # fmt: skip
    box = _box_lookup(source.dom_layout, analysis.paths)
    base = document_base_url(analysis.doc, source.url)
    native = DomNative(analysis, _fill(builder, analysis, box, base))
    table = builder.build(
        coord_space=CoordSpace.CSS_PX if box is not None else CoordSpace.UNKNOWN,
        screen_size=source.screen_size,
        id_keys=XPATH_KEYS,
        selector_resolver=native.resolve,
        native=native,
        document_name=document_title(analysis.doc),
    )
    native.ids.extend(table.ids)
    return table


def document_base_url(doc: Document, url: str | None) -> str | None:
    """The URL links are resolved against (HTML, "document base URL"): the ``href`` of the
    first HTML ``<base>`` element that has one, resolved against the page's ``url``; ``url``
    without such an element. Without ``url``, an absolute ``<base href>`` still serves, a
    relative one cannot be resolved (links then stay as written)."""
    tags, namespace, attrs = doc.tags, doc.namespace, doc.attrs
    start = 0
    while True:
        try:
            e = tags.index("base", start)
        except ValueError:
            return url
        href = attrs[e].get("href") if attrs[e] and namespace[e] == 0 else None
        if href is not None:
            break
        start = e + 1
    href = href.strip()
    try:
        absolute = urljoin(url, href) if url else href
        return absolute if urlsplit(absolute).scheme else url
    except ValueError:  # a malformed URL (an unclosed IPv6 bracket ...): as if no <base>
        return url


def document_title(doc: Document) -> str:
    """``document.title``: the text of the first HTML ``<title>`` element, its ASCII
    whitespace stripped and collapsed (HTML, "the document's title"); ``""`` without one. An
    SVG ``<title>`` names its graphic, not the page."""
    tags, namespace = doc.tags, doc.namespace
    start = 0
    while True:
        try:
            e = tags.index("title", start)
        except ValueError:
            return ""
        if namespace[e] == 0:
            text = "".join(item for item in doc.content[e] if isinstance(item, str))
            return _ASCII_SPACES.sub(" ", text).strip(" ")[:MAX_TEXT]
        start = e + 1


@dataclass(frozen=True)
class _Plan:
    """Which elements get rows of their own, and which text row each element's text joins."""

    owner: list[int]
    """The element whose text row collects this element's text; -2 when the text is already
    part of a row's name (inside a link or button), -1 when the element is not rendered."""
    is_row: list[bool]
    skip: list[bool]
    """A row, or the owner of its own text: not part of an outer text row."""
    has_text: set[int]
    """Owners that have text."""


def _plan(doc: Document, roles: list[str], states: States, content_named: Collection[int]) -> _Plan:
    """Decide rows and text owners in one pre-order pass.

    ``content_named`` elements (layout-table cells) are rows although their role is generic,
    as Chromium exposes them (named from their content); their content keeps its own rows.
    """
    tags, attrs_of, parent, content = doc.tags, doc.attrs, doc.parent, doc.content
    rendered, block, hidden = states.rendered, states.block, states.hidden
    n = len(doc)
    owner = [-1] * n
    is_row = [False] * n
    skip = [False] * n
    has_text: set[int] = set()
    inline_roles, from_content = INLINE_TEXT_ROLES, NAME_FROM_CONTENT
    for e in range(n):
        if not rendered[e]:
            continue
        p = parent[e]
        role = roles[e]
        attrs = attrs_of[e]
        row = False
        if role not in inline_roles:
            row = tags[e] not in ("html", "body")
        elif e in content_named:
            row = True
        elif attrs and (
            is_focusable(tags[e], attrs)
            or "onclick" in attrs
            or attrs.get("aria-label", "").strip()
            or attrs.get("aria-labelledby")
            or attrs.get("title", "").strip()
        ):
            row = role != "none" or "onclick" in attrs
        up = owner[p] if p >= 0 else -1
        if up == -2:
            o = -2  # inside a control named from its content: already in a name
        elif row:
            o = (
                -2
                if role in from_content or (role in inline_roles and e not in content_named)
                else e
            )
        elif block[e] or up < 0:
            o = e
        else:
            o = up
        owner[e] = o
        if row:
            is_row[e] = skip[e] = True
        elif o == e:
            skip[e] = True
        if o >= 0 and o not in has_text and not hidden[e]:
            for item in content[e]:
                if not isinstance(item, int) and item.strip():
                    has_text.add(o)
                    break
    return _Plan(owner, is_row, skip, has_text)


def _fill(
    builder: TableBuilder, analysis: DomAnalysis, box: _BoxOf | None, base: str | None
) -> list[int]:
    """Append the page's rows in pre-order; return per element the row a selector on it means
    (links resolved against ``base``, the document base URL)."""
    doc, states, names, roles = analysis.doc, analysis.states, analysis.names, analysis.roles
    parent, tags, attrs_of = doc.parent, doc.tags, doc.attrs
    xpath, css, enabled = analysis.paths.xpath, analysis.paths.css, states.enabled
    rendered, aria_hidden, hidden = states.rendered, states.aria_hidden, states.hidden
    plan = _plan(doc, roles, states, names.content_named)
    owner, is_row, skip, has_text = plan.owner, plan.is_row, plan.skip, plan.has_text
    rows, row_roles = builder.rows, builder.roles
    row_of = [-1] * len(doc)
    enclosing = [-1] * len(doc)  # nearest ancestor-or-self row (for parents and selectors)
    text_row: dict[int, int] = {}  # text owner -> its text row
    for e in range(len(doc)):
        if not rendered[e]:
            continue  # no rows below, and selectors on it select nothing
        p = parent[e]
        up = enclosing[p] if p >= 0 else -1
        if hidden[e] and not aria_hidden[e]:  # visibility: hidden
            enclosing[e] = up
            continue
        attrs = attrs_of[e]
        if is_row[e]:
            role, name, value = roles[e], names.name(e), ""
            if not name and role in INLINE_TEXT_ROLES:  # a clickable generic: title or text
                title = attrs.get("title", "") if attrs else ""
                name = " ".join(title.split()) or names.text_of(e)
            if tags[e] in _VALUE_TAGS or (attrs and not _VALUE_ATTRS.isdisjoint(attrs)):
                value = _value(analysis, e)
            text = names.text_of(e, skip) if owner[e] == e and e in has_text else ""
        elif owner[e] == e and e in has_text and (name := names.text_of(e, skip)):
            role, value, text = "text", "", ""  # a block's text, with its inline descendants
            text_row[e] = len(rows)
        else:
            # No row: a selector hitting this element means the control it sits in, or the
            # text row that holds its text; a wrapper (or a block without text) maps to nothing.
            o = owner[e]
            if up >= 0 and o != -1:
                row_of[e] = up if o == -2 else text_row.get(o, -1)
            enclosing[e] = up
            continue
        x, tag, bbox = xpath[e], tags[e], box(e) if box is not None else None
        state = _STATES[enabled[e]][not aria_hidden[e]]
        dom_id = attrs.get("id") if attrs else None
        testid = _testid(attrs) if attrs and not _TESTID_SET.isdisjoint(attrs) else None
        web = web_values(attrs, base)
        rows.append((x, tag, name, up, bbox, value, state, x, css[e], dom_id, tag, testid, *web))
        up = row_of[e] = enclosing[e] = len(rows) - 1
        row_roles[up] = role
        if text:  # the text directly inside this row: a child row addressed by the element
            text_row[e] = len(rows)
            row_roles[len(rows)] = "text"
            builder.executor_ids[len(rows)] = "xpath:" + x  # its ID is <xpath>#text
            rows.append((x + "#text", "#text", text, up, bbox, "", state, x, css[e], dom_id, tag,
                         testid, *web))  # fmt: skip
    return row_of


def _box_lookup(layout: Mapping[str, Any] | None, paths: Paths) -> _BoxOf | None:
    """A function from element to its box in ``dom_layout``; None when there is no layout."""
    if not layout:
        return None
    sample = next(iter(layout), "")
    short = not (isinstance(sample, str) and sample.startswith("/html[1]"))
    boxes = (
        {_strip_ones(k): v for k, v in layout.items() if isinstance(k, str)} if short else layout
    )
    if not boxes:
        return None

    def box(e: int) -> Sequence[float] | None:
        """Element ``e``'s box, or None."""
        key = paths.layout[e]
        value = boxes.get(_strip_ones(key) if short else key)
        return _layout_box(value) if value is not None else None

    return box


def _strip_ones(path: str) -> str:
    """An XPath without its ``[1]`` steps."""
    return path.replace("[1]", "")


def _layout_box(value: Any) -> Sequence[float] | None:
    """``[l, t, r, b]`` from a layout entry (``[l, t, r, b]`` or ``{x, y, width, height}``)."""
    if isinstance(value, Mapping):
        try:
            x, y = float(value["x"]), float(value["y"])
            w, h = float(value["width"]), float(value["height"])
        except (KeyError, TypeError, ValueError, OverflowError):
            return None
        return (x, y, x + w, y + h)
    if isinstance(value, (list, tuple)) and len(value) == 4:
        try:
            return tuple(float(v) for v in value)
        except (TypeError, ValueError, OverflowError):
            return None
    return None


def _testid(attrs: Mapping[str, str]) -> str | None:
    """The first test-ID attribute value an element carries."""
    for attr in TESTID_ATTRS:
        value = attrs.get(attr)
        if value:
            return value
    return None


def _value(analysis: DomAnalysis, e: int) -> str:
    """Current value of a form control (text fields, selects, ranges)."""
    doc = analysis.doc
    tag = doc.tags[e]
    attrs = doc.attrs[e]
    if tag == "input":
        kind = attrs.get("type", "").lower()
        if kind in ("checkbox", "radio"):
            return "checked" if "checked" in attrs else ""
        return attrs.get("value", "") if kind not in ("password", "hidden") else ""
    if tag == "textarea":
        return analysis.names.text_of(e)
    if tag == "select":
        return " ".join(analysis.names.selected_options(e))
    value = attrs.get("aria-valuetext") or attrs.get("aria-valuenow") if attrs else None
    return value or ""


def ranked_selectors(table: CandidateTable, row: int) -> list[tuple[str, str]]:
    """Robust selectors for a DOM row, best first: ``[(kind, selector), ...]`` where kind is
    ``css``, ``role``, ``text`` or ``xpath`` (see :mod:`.selectors`). Each selects exactly
    that element on this page.

    Raises
    ------
    InvalidObservationError
        ``table`` is not a DOM table or ``row`` is out of range.
    """
    native = _native(table)
    if not 0 <= row < len(table):
        raise InvalidObservationError(
            f"ranked_selectors: row {row} is not in the table ({len(table)} rows)"
        )
    analysis = native.analysis
    element = analysis.xpath(table.ids[row].removesuffix("#text"))
    if len(element) != 1:
        return [("xpath", table.ids[row])]
    counts = table.derived(_selector_counts)
    return _ranked(
        analysis.doc, analysis.paths, element[0], table.roles[row], table.names[row], counts
    )


def _native(table: CandidateTable) -> DomNative:
    """The DOM model a table was built with; InvalidObservationError for other tables."""
    native = table.native
    if not isinstance(native, DomNative):
        raise InvalidObservationError(
            f"ranked_selectors needs a table built by the DOM source, not by {table.source!r}"
        )
    return native


def _selector_counts(table: CandidateTable) -> SelectorCounts:
    """Counts that prove a DOM table's selectors unique (made once per table, on first use)."""
    return count_selector_values(_native(table).analysis.doc, table.roles, table.names)
