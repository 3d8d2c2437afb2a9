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
``platform_ids``: ``xpath``, ``css`` (a unique CSS selector: ``#id`` or the structural path),
``dom_id``, ``tag``, ``testid``; ``bboxes`` from ``Observation.dom_layout`` (keys are XPaths
in the same form, with or without ``[1]`` steps) or NaN; ``enabled``; ``visible``;
``focused`` unknown. ``table.selector_resolver(kind, selector)`` runs a ``"css"`` or
``"xpath"`` selector and returns the rows it selects: an element without a row maps to the
nearest ancestor row when that row is a control or link it sits inside (an icon ``<span>`` in
a button) or to the text row that contains its text, and to nothing otherwise (unrendered
elements, wrappers). Invalid selectors select nothing. :func:`ranked_selectors` lists robust
selectors for a row.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final

from ...errors import InvalidObservationError
from ...table import CandidateTable, TableBuilder
from .accname import NAME_FROM_CONTENT, NameComputer
from .link import backend_xpaths, cross_link
from .parse import Document, parse_html
from .roles import compute_roles, is_focusable
from .selectors import TESTID_ATTRS, Paths, XPathRunner, compute_paths, map_to_rows
from .selectors import ranked_selectors as _ranked
from .style import compute_styles
from .visibility import States, compute_states

if TYPE_CHECKING:
    from ...observation import Observation

__all__ = [
    "DomAnalysis",
    "analyze",
    "backend_xpaths",
    "build_table",
    "cross_link",
    "ranked_selectors",
]

INLINE_TEXT_ROLES: Final[frozenset[str]] = frozenset(
    {"generic", "none", "strong", "emphasis", "code", "mark", "insertion", "deletion", "time",
     "text", "term", "definition"}
)  # fmt: skip
"""Roles that get no row of their own unless interactive or named: their text joins the
enclosing text row."""
_CONTROL_ROWS: Final[frozenset[str]] = NAME_FROM_CONTENT | {
    "textbox", "searchbox", "combobox", "listbox", "slider", "spinbutton", "img",
}  # fmt: skip
_DEFAULT_VIEWPORT: Final[tuple[float, float]] = (1280.0, 800.0)
_ID_COLUMNS: Final[tuple[str, ...]] = ("xpath", "css", "dom_id", "tag", "testid")
_TESTID_SET: Final[frozenset[str]] = frozenset(TESTID_ATTRS)
_VALUE_TAGS: Final[frozenset[str]] = frozenset({"input", "textarea", "select"})
_VALUE_ATTRS: Final[frozenset[str]] = frozenset({"aria-valuetext", "aria-valuenow"})
# (enabled, visible, focused) per row, shared: one tuple per combination, not one per row.
_STATES: Final[tuple[tuple[tuple[int, int, int], ...], ...]] = (
    ((0, 0, -1), (0, 1, -1)),
    ((1, 0, -1), (1, 1, -1)),
)


class DomAnalysis:
    """Everything computed about one page, per element (for the table and for measurement).

    Parameters
    ----------
    html:
        The page (``str`` or ``bytes``).
    viewport:
        Width and height in CSS px that ``@media`` queries are evaluated against.
    """

    def __init__(self, html: str | bytes, viewport: tuple[float, float] = _DEFAULT_VIEWPORT):
        self.doc: Document = parse_html(html)
        self.styles = compute_styles(self.doc, viewport)
        self.roles: list[str] = compute_roles(self.doc)
        self.states: States = compute_states(self.doc, self.styles)
        self.names = NameComputer(
            self.doc, self.roles, self.states.hidden, self.states.block, self.states.end,
            rendered=self.states.rendered, aria_hidden=self.states.aria_hidden,
            before=self.styles.before, after=self.styles.after,
            transform=self.styles.transform if any(self.styles.transform) else None,
        )  # fmt: skip
        self.paths: Paths = compute_paths(self.doc)
        self._xpath: XPathRunner | None = None

    def __len__(self) -> int:
        return len(self.doc)

    def name(self, element: int) -> str:
        """Accessible name of an element (accname 1.2)."""
        return self.names.name(element)

    def xpath(self, path: str) -> list[int]:
        """Elements an XPath selects (document order)."""
        if self._xpath is None:
            self._xpath = XPathRunner(self.doc)
        return self._xpath.run(path)

    def css(self, selector: str) -> list[int]:
        """Elements a CSS selector selects (document order; ``[]`` when invalid)."""
        try:
            return self.doc.css(selector)
        except Exception:  # Lexbor: unparsable selector
            return []


def analyze(html: str | bytes, viewport: tuple[float, float] = _DEFAULT_VIEWPORT) -> DomAnalysis:
    """Parse and analyse a page (see :class:`DomAnalysis`)."""
    return DomAnalysis(html, viewport)


def _layout_lookup(layout: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """``dom_layout`` keyed by fully indexed XPath (short forms expanded lazily)."""
    if not layout:
        return {}
    sample = next(iter(layout), "")
    if isinstance(sample, str) and sample.startswith("/html[1]"):
        return layout
    return {_strip_ones(k): v for k, v in layout.items() if isinstance(k, str)}


def _strip_ones(path: str) -> str:
    return path.replace("[1]", "")


def _box(value: Any) -> Sequence[float] | None:
    if isinstance(value, Mapping):
        try:
            x, y = float(value["x"]), float(value["y"])
            w, h = float(value["width"]), float(value["height"])
        except (KeyError, TypeError, ValueError):
            return None
        return (x, y, x + w, y + h)
    if isinstance(value, (list, tuple)) and len(value) == 4:
        try:
            return tuple(float(v) for v in value)
        except (TypeError, ValueError):
            return None
    return None


def build_table(observation: Observation) -> CandidateTable:
    """The DOM source's table for ``observation`` (``dom_html`` and optional layout).

    Raises
    ------
    InvalidObservationError
        The HTML cannot be read (too large, binary, absurdly nested; see :mod:`.parse`).
    """
    html = observation.dom_html
    if html is None:
        raise InvalidObservationError("the observation has no dom_html")
    viewport = observation.screen_size or _DEFAULT_VIEWPORT
    analysis = DomAnalysis(html, viewport)
    table, row_of = _table(analysis, observation.dom_layout, observation.max_nodes)
    table = replace(
        table,
        screen_size=observation.screen_size,
        selector_resolver=_resolver(analysis, row_of),
    )
    table._cache["dom_analysis"] = (analysis, _selector_counts(analysis, table))
    return table


def _table(
    analysis: DomAnalysis, layout: Mapping[str, Any] | None, max_rows: int
) -> tuple[CandidateTable, list[int]]:
    """Rows in pre-order, and for every element the row a selector on it stands for."""
    doc, roles, states, names, paths = (
        analysis.doc, analysis.roles, analysis.states, analysis.names, analysis.paths,
    )  # fmt: skip
    n = len(doc)
    tags, attrs_of, parent = doc.tags, doc.attrs, doc.parent
    rendered, aria_hidden, hidden, enabled = (
        states.rendered, states.aria_hidden, states.hidden, states.enabled,
    )  # fmt: skip
    xpath_of, css_of = paths.xpath, paths.css
    boxes = _layout_lookup(layout)
    short = bool(boxes) and boxes is not layout
    row_of = [-1] * n
    text_row: dict[int, int] = {}  # text owner -> its text row
    # owner[e]: the element whose text row collects e's text; -2 when e's text is already
    # part of a row's name (inside a link or button), -1 when e is not rendered.
    owner = [-1] * n
    is_row = [False] * n
    skip = [False] * n  # a row, or the owner of its own text: not part of an outer text row
    text_rows = _text_owners(doc, roles, states, owner, is_row, skip)
    # The table's columns, filled in pre-order and handed to the builder in one call.
    ids: list[str] = []
    xpaths: list[str] = []
    raw_roles: list[str] = []
    row_roles: dict[int, str] = {}
    row_names: list[str] = []
    parents: list[int] = []
    row_boxes: list[Any] = []
    values: list[str] = []
    row_states: list[tuple[int, int, int]] = []
    css: list[str | None] = []
    dom_ids: list[str | None] = []
    row_tags: list[str | None] = []
    testids: list[str | None] = []
    text_children = False
    enclosing = [-1] * n  # nearest ancestor-or-self row (for parents and selector mapping)
    for e in range(n):
        if not rendered[e]:
            continue  # no rows below, and selectors on it select nothing
        p = parent[e]
        up = enclosing[p] if p >= 0 else -1
        if hidden[e] and not aria_hidden[e]:  # visibility: hidden
            enclosing[e] = up
            continue
        row = -1
        if is_row[e] or (owner[e] == e and e in text_rows):
            xpath = xpath_of[e]
            attrs = attrs_of[e]
            box = None
            if boxes:
                box = boxes.get(_strip_ones(paths.layout[e]) if short else paths.layout[e])
            tag = tags[e]
            bbox = _box(box) if box is not None else None
            state = _STATES[enabled[e]][not aria_hidden[e]]
            element_css = css_of[e]
            dom_id = attrs.get("id") if attrs else None
            testid = _testid(attrs) if attrs and not _TESTID_SET.isdisjoint(attrs) else None
            text = ""
            if is_row[e]:
                role = roles[e]
                name = names.name(e)
                if not name and role in INLINE_TEXT_ROLES:  # a clickable generic: its text
                    name = names.text_of(e)
                row = len(ids)
                row_roles[row] = role
                row_names.append(name)
                values.append(
                    _value(analysis, e, role)
                    if tag in _VALUE_TAGS or (attrs and not _VALUE_ATTRS.isdisjoint(attrs))
                    else ""
                )
                if owner[e] == e and e in text_rows:  # the text directly inside this row
                    text = names.text_of(e, skip)
            else:
                name = names.text_of(e, skip)
                if not name:
                    enclosing[e] = up
                    continue
                row = len(ids)
                row_roles[row] = "text"
                row_names.append(name)
                values.append("")
                text_row[e] = row
            ids.append(xpath)
            xpaths.append(xpath)
            raw_roles.append(tag)
            parents.append(up)
            row_boxes.append(bbox)
            row_states.append(state)
            css.append(element_css)
            dom_ids.append(dom_id)
            row_tags.append(tag)
            testids.append(testid)
            row_of[e] = row
            up = row
            if text:  # a child row addressed by the same element
                text_children = True
                text_row[e] = len(ids)
                ids.append(xpath + "#text")
                xpaths.append(xpath)
                raw_roles.append("#text")
                row_roles[len(row_names)] = "text"
                row_names.append(text)
                values.append("")
                parents.append(row)
                row_boxes.append(bbox)
                row_states.append(state)
                css.append(element_css)
                dom_ids.append(dom_id)
                row_tags.append(tag)
                testids.append(testid)
        elif up >= 0:
            # No row: a selector hitting this element means the control it sits in, or the
            # text row that holds its text; a wrapper maps to nothing.
            o = owner[e]
            if o == -2:
                row_of[e] = up
            elif o >= 0:
                row_of[e] = text_row.get(o, -1)
        enclosing[e] = up
    builder = TableBuilder(
        "dom", "html", platform="html", id_columns=_ID_COLUMNS, executor_prefix="xpath:",
        max_rows=max_rows,
    )  # fmt: skip
    builder.extend(
        ids=ids, raw_roles=raw_roles, names=row_names, parents=parents, boxes=row_boxes,
        values=values, states=row_states, roles=row_roles,
        platform_ids={"xpath": xpaths, "css": css, "dom_id": dom_ids, "tag": row_tags,
                      "testid": testids},
        # A text child row's ID is "<xpath>#text", but it executes on its element.
        executor_ids=["xpath:" + x for x in xpaths] if text_children else None,
    )  # fmt: skip
    table = builder.build(coord_space="css_px" if boxes else "unknown")
    return table, row_of


def _text_owners(
    doc: Document,
    roles: list[str],
    states: States,
    owner: list[int],
    is_row: list[bool],
    skip: list[bool],
) -> set[int]:
    """Decide rows and text owners in one pre-order pass; return owners that have text."""
    tags, attrs_of, parent, content = doc.tags, doc.attrs, doc.parent, doc.content
    rendered, block, hidden = states.rendered, states.block, states.hidden
    has_text: set[int] = set()
    inline_roles, from_content = INLINE_TEXT_ROLES, NAME_FROM_CONTENT
    for e in range(len(doc)):
        if not rendered[e]:
            continue
        p = parent[e]
        role = roles[e]
        attrs = attrs_of[e]
        row = False
        if role not in inline_roles:
            row = tags[e] not in ("html", "body")
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
            o = -2 if (role in from_content or role in inline_roles) else e
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
    return has_text


def _testid(attrs: Mapping[str, str]) -> str | None:
    if not attrs:
        return None
    for attr in TESTID_ATTRS:
        value = attrs.get(attr)
        if value:
            return value
    return None


def _value(analysis: DomAnalysis, e: int, role: str) -> str:
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
        return " ".join(analysis.names._selected_options(e))
    value = attrs.get("aria-valuetext") or attrs.get("aria-valuenow") if attrs else None
    return value or ""


def _resolver(analysis: DomAnalysis, row_of: list[int]) -> Any:
    """``(kind, selector) -> rows`` over this page (see module doc for the mapping)."""

    def resolve(kind: str, selector: str) -> list[int]:
        if not isinstance(selector, str) or not selector.strip():
            return []
        if kind == "css":
            elements = analysis.css(selector)
        elif kind == "xpath":
            elements = analysis.xpath(selector.removeprefix("xpath:"))
        else:
            return []
        return map_to_rows(elements, row_of)

    return resolve


def ranked_selectors(table: CandidateTable, row: int) -> list[tuple[str, str]]:
    """Robust selectors for a DOM row, best first: ``[(kind, selector), ...]`` where kind is
    ``css``, ``role``, ``text`` or ``xpath`` (see :mod:`.selectors`). Each selects exactly
    that element on this page.

    Raises
    ------
    InvalidObservationError
        ``table`` is not a DOM table or ``row`` is out of range.
    """
    context = table._cache.get("dom_analysis")
    if context is None or not 0 <= row < len(table):
        raise InvalidObservationError("ranked_selectors needs a DOM table and a row in it")
    analysis, counts = context
    element = analysis.xpath(table.ids[row].removesuffix("#text"))
    if len(element) != 1:
        return [("xpath", table.ids[row])]
    return _ranked(
        analysis.doc, analysis.paths, element[0], table.roles[row], table.names[row], counts
    )


def _selector_counts(analysis: DomAnalysis, table: CandidateTable) -> Any:
    """Counts that prove selectors unique, made once per page on first use."""
    made: dict[str, dict[Any, int]] = {}

    def counts() -> dict[str, dict[Any, int]]:
        if made:
            return made
        testid: dict[Any, int] = {}
        aria: dict[Any, int] = {}
        doc = analysis.doc
        for e, attrs in enumerate(doc.attrs):
            if not attrs:
                continue
            for attr in TESTID_ATTRS:
                value = attrs.get(attr)
                if value:
                    testid[(attr, value)] = testid.get((attr, value), 0) + 1
            label = attrs.get("aria-label")
            if label:
                key = (doc.tags[e], label)
                aria[key] = aria.get(key, 0) + 1
        role_name: dict[Any, int] = {}
        text: dict[Any, int] = {}
        for r in range(len(table)):
            name = table.names[r]
            if name:
                role_name[(table.roles[r], name)] = role_name.get((table.roles[r], name), 0) + 1
                text[name] = text.get(name, 0) + 1
        made.update(testid=testid, aria_label=aria, role_name=role_name, text=text)
        return made

    return counts
