"""Selectors: absolute XPaths and CSS paths per element, ranked robust selectors per row, and
running a recorded CSS selector or XPath against the page.

XPath form: one step per element from ``html`` down, ``tag[n]`` with ``n`` the 1-based position
among same-tag siblings (``/html[1]/body[1]/div[2]/a[1]``), the convention of the fixtures'
``labels.json``. SVG and MathML elements are written ``*[local-name()='path'][n]``: in a
browser an unprefixed name test never matches an element outside the HTML namespace.

Ranked selectors for a row (:func:`ranked_selectors`), best first; each is included only when
it selects exactly that element, which is checked with counts made once per page (no
per-row document scans):

1. ``css`` ``#id`` (a unique id);
2. ``css`` ``[data-testid="..."]`` (also ``data-test-id``, ``data-test``, ``data-qa``,
   ``data-cy``), unique value;
3. ``role`` ``role=button[name="Save"]`` (Playwright's role selector), unique role and name;
4. ``css`` ``tag[aria-label="..."]``, unique;
5. ``text`` ``text="Save"`` (Playwright's exact text selector), unique name among rows;
6. ``css`` the structural path: ``tag:nth-of-type(k)`` steps from the nearest ancestor with a
   unique id (or ``html``), unique by construction;
7. ``xpath`` the absolute XPath, unique by construction.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from .parse import Document

__all__ = [
    "TESTID_ATTRS",
    "ChildGroups",
    "CssPathRunner",
    "Paths",
    "SelectorCounts",
    "XPathRunner",
    "compute_paths",
    "count_selector_values",
    "css_string",
    "id_selector",
    "ranked_selectors",
]

TESTID_ATTRS: Final[tuple[str, ...]] = (
    "data-testid",
    "data-test-id",
    "data-test",
    "data-qa",
    "data-cy",
)
_IDENT: Final[re.Pattern[str]] = re.compile(r"^-?[A-Za-z_][A-Za-z0-9_-]*$")
_XML_NAME: Final[re.Pattern[str]] = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")


def css_string(value: str) -> str:
    """A CSS string literal for ``value`` (double quotes, escapes per CSSOM)."""
    out = []
    for ch in value:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ch == "\n" or ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\{ord(ch):x} ")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def id_selector(value: str) -> str:
    """A CSS selector of an element by its HTML id (``#id``, or ``[id="..."]`` where the id
    is no plain identifier)."""
    return (
        "#" + value
        if _IDENT.match(value) and not value.startswith("--")
        else f"[id={css_string(value)}]"
    )


class Paths:
    """Absolute XPath, fixture-style layout key and CSS path of every element."""

    __slots__ = ("_doc", "_layout", "css", "id_count", "xpath")

    def __init__(
        self, doc: Document, xpath: list[str], css: list[str], id_count: dict[str, int]
    ) -> None:
        self._doc = doc
        self._layout: list[str] | None = None
        self.xpath = xpath
        self.css = css
        self.id_count = id_count

    @property
    def layout(self) -> list[str]:
        """Layout keys: the XPath, except that SVG and MathML steps are written ``tag[n]``
        (how the fixtures' layout records name them). Made on first use (layouts are rare)."""
        if self._layout is None:
            doc, xpath = self._doc, self.xpath
            tags, parent, namespace = doc.tags, doc.parent, doc.namespace
            layout = list(xpath)
            for i in range(len(layout)):
                p = parent[i]
                if namespace[i] or (p >= 0 and layout[p] != xpath[p]):
                    step = xpath[i].rsplit("/", 1)[1]
                    if namespace[i]:
                        step = f"{tags[i].lower()}[{step.rsplit('[', 1)[1]}"
                    layout[i] = f"{layout[p]}/{step}" if p >= 0 else "/" + step
            self._layout = layout
        return self._layout


def compute_paths(doc: Document) -> Paths:
    """XPaths and CSS paths for all elements in two linear passes."""
    n = len(doc)
    tags, parent, namespace, attrs = doc.tags, doc.parent, doc.namespace, doc.attrs
    xpath = [""] * n
    position = [1] * n
    # Per parent: tag -> how many children carry it (so far in pass one, in total after).
    counters: list[dict[str, int] | None] = [None] * n
    top: dict[str, int] = {}
    ids: dict[int, str] = {}
    id_count: dict[str, int] = {}
    for i in range(n):
        tag = tags[i]
        p = parent[i]
        if p >= 0:
            counter = counters[p]
            if counter is None:
                counter = counters[p] = {}
            prefix = xpath[p]
        else:
            counter = top
            prefix = ""
        k = counter.get(tag, 0) + 1
        counter[tag] = k
        position[i] = k
        if namespace[i]:
            xpath[i] = f"{prefix}/*[local-name()='{tag}'][{k}]"
        else:
            xpath[i] = f"{prefix}/{tag}[{k}]"
        element_attrs = attrs[i]
        if element_attrs:
            element_id = element_attrs.get("id")
            if element_id:
                ids[i] = element_id
                id_count[element_id] = id_count.get(element_id, 0) + 1
    css = [""] * n
    for i in range(n):
        element_id = ids.get(i) if ids else None
        if element_id and id_count[element_id] == 1:
            css[i] = id_selector(element_id)
            continue
        tag = tags[i]
        p = parent[i]
        if p >= 0:
            counter = counters[p]
            assert counter is not None  # p has at least this child
            step = tag if counter[tag] == 1 else f"{tag}:nth-of-type({position[i]})"
            css[i] = f"{css[p]} > {step}"
        else:
            css[i] = tag if top[tag] == 1 else f"{tag}:nth-of-type({position[i]})"
    return Paths(doc, xpath, css, id_count)


@dataclass(frozen=True)
class SelectorCounts:
    """How often each value a ranked selector relies on occurs on one page."""

    testid: dict[tuple[str, str], int]
    """``(attribute, value)`` of the test-ID attributes, over elements."""
    aria_label: dict[tuple[str, str], int]
    """``(tag, aria-label)``, over elements."""
    role_name: dict[tuple[str, str], int]
    """``(role, name)``, over named rows."""
    text: dict[str, int]
    """Name, over named rows."""


def count_selector_values(
    doc: Document, roles: Sequence[str], names: Sequence[str]
) -> SelectorCounts:
    """The :class:`SelectorCounts` of a page and of the rows (``roles``, ``names``) of its table."""
    testid: dict[tuple[str, str], int] = {}
    aria: dict[tuple[str, str], int] = {}
    tags = doc.tags
    for e, attrs in enumerate(doc.attrs):
        if not attrs:
            continue
        for attr in TESTID_ATTRS:
            value = attrs.get(attr)
            if value:
                testid[(attr, value)] = testid.get((attr, value), 0) + 1
        label = attrs.get("aria-label")
        if label:
            key = (tags[e], label)
            aria[key] = aria.get(key, 0) + 1
    role_name: dict[tuple[str, str], int] = {}
    text: dict[str, int] = {}
    for role, name in zip(roles, names, strict=True):
        if name:
            role_name[(role, name)] = role_name.get((role, name), 0) + 1
            text[name] = text.get(name, 0) + 1
    return SelectorCounts(testid, aria, role_name, text)


def ranked_selectors(
    doc: Document,
    paths: Paths,
    element: int,
    role: str,
    name: str,
    counts: SelectorCounts,
) -> list[tuple[str, str]]:
    """Ranked ``(kind, selector)`` pairs that each select exactly ``element`` (module doc)."""
    attrs = doc.attrs[element]
    tag = doc.tags[element]
    found: list[tuple[str, str]] = []
    element_id = attrs.get("id")
    if element_id and paths.id_count.get(element_id) == 1:
        found.append(("css", id_selector(element_id)))
    for attr in TESTID_ATTRS:
        value = attrs.get(attr)
        if value and counts.testid.get((attr, value)) == 1:
            found.append(("css", f"[{attr}={css_string(value)}]"))
    if name and role not in ("text", "generic", "none") and counts.role_name.get((role, name)) == 1:
        found.append(("role", f"role={role}[name={css_string(name)}]"))
    label = attrs.get("aria-label")
    if label and counts.aria_label.get((tag, label)) == 1:
        found.append(("css", f"{tag}[aria-label={css_string(label)}]"))
    if name and counts.text.get(name) == 1 and len(name) <= 80:
        found.append(("text", f"text={css_string(name)}"))
    found.append(("css", paths.css[element]))
    found.append(("xpath", paths.xpath[element]))
    return found


# -- running recorded XPaths ------------------------------------------------------------------

_STEP: Final[re.Pattern[str]] = re.compile(
    r"""(\*|[A-Za-z_][\w.:-]*)((?:\[(?:[^\]'"]|'[^']*'|"[^"]*")*\])*)$"""
)
_PRED: Final[re.Pattern[str]] = re.compile(r"""\[((?:[^\]'"]|'[^']*'|"[^"]*")*)\]""")
_ATTR_EQ: Final[re.Pattern[str]] = re.compile(r"""^@([\w:.-]+)\s*=\s*(?:'([^']*)'|"([^"]*)")$""")
_LOCAL: Final[re.Pattern[str]] = re.compile(r"""^local-name\(\)\s*=\s*(?:'([^']*)'|"([^"]*)")$""")


def _split_path(path: str) -> list[tuple[bool, str]] | None:
    """``(descendant, step)`` pairs of an absolute location path, or None if not simple."""
    if not path.startswith("/"):
        return None
    steps: list[tuple[bool, str]] = []
    i, n = 0, len(path)
    while i < n:
        descendant = path.startswith("//", i)
        i += 2 if descendant else 1
        depth = 0
        quote = ""
        j = i
        while j < n:
            ch = path[j]
            if quote:
                if ch == quote:
                    quote = ""
            elif ch in "'\"":
                quote = ch
            elif ch == "[":
                depth += 1
            elif ch == "]":
                depth -= 1
            elif ch == "/" and depth == 0:
                break
            j += 1
        step = path[i:j].strip()
        if not step:
            return None
        steps.append((descendant, step))
        i = j
    return steps


_CSS_TYPE_STEP: Final[re.Pattern[str]] = re.compile(
    r"([a-z][a-z0-9-]*)(?::nth-of-type\(([1-9][0-9]{0,8})\))?"
)
_FOREIGN_ROOT_TAGS: Final[frozenset[str]] = frozenset({"svg", "math"})


class ChildGroups:
    """Each element's element children grouped by lower-cased tag, made once per element on
    first use (a path's step picks among them without scanning the siblings again); one
    per page, shared by its CSS and XPath runners."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self._groups: dict[int, dict[str, list[int]]] = {}

    def __len__(self) -> int:
        return len(self._groups)

    def of(self, element: int) -> dict[str, list[int]]:
        """``element``'s children by tag (-1: the document's, whose only one is ``<html>``)."""
        groups = self._groups.get(element)
        if groups is None:
            doc = self.doc
            kids = [0] if element < 0 else [c for c in doc.content[element] if type(c) is int]
            groups = {}
            for kid in kids:
                groups.setdefault(doc.tags[kid].lower(), []).append(kid)
            self._groups[element] = groups  # whole, for other threads
        return groups


class CssPathRunner:
    """Evaluates the CSS paths recorders write (``#id > div:nth-of-type(2) > a``, or from
    ``html`` or ``body`` down) on a :class:`Document`, with no scan of the page.

    A selector engine tests every element of the subject's type and counts, for each, the
    earlier siblings of its type: on a list of thousands of links one
    ``a:nth-of-type(855)`` costs tens of milliseconds, and a catalog of thousands of such
    entries minutes. Here each step picks the children of the elements found so far by
    their tag and position (children grouped by tag once per parent), so a path costs its
    steps. :meth:`run` gives ``None`` for anything else, for the engine to answer: another
    combinator or compound (classes, attributes, pseudo-classes other than
    ``:nth-of-type(n)``), an id that needs escaping, an id in a quirks-mode page (matched
    without case there), SVG or MathML elements, a tree whose nesting was capped
    (:attr:`Document.reparented`). Its answers are the engine's (tested against it).
    """

    def __init__(self, doc: Document, children: ChildGroups | None = None) -> None:
        self.doc = doc
        self._groups = ChildGroups(doc) if children is None else children
        self._by_tag: dict[str, list[int]] | None = None
        self._by_id: dict[str, list[int]] | None = None
        self._inside_foreign: list[bool] | None = None

    def run(self, selector: str) -> list[int] | None:
        """Elements ``selector`` selects, in document order, or ``None`` when it is not a
        path of child steps this runner reads (see the class docstring)."""
        if self.doc.reparented:
            return None
        parts = [part.strip() for part in selector.split(">")]
        found = self._first(parts[0])
        for part in parts[1:]:
            if found is None or self._foreign(found):
                return None
            step = _CSS_TYPE_STEP.fullmatch(part)
            if step is None or step.group(1) in _FOREIGN_ROOT_TAGS:
                return None
            tag, nth = step.group(1), step.group(2)
            found = [c for e in found for c in self._children(e, tag, nth)]
        if found is None or self._foreign(found):
            return None
        return sorted(found)

    def _foreign(self, elements: list[int]) -> bool:
        """Whether any of ``elements`` is an SVG or MathML element or inside one (where type
        selectors match by other rules)."""
        if self._inside_foreign is None:
            doc = self.doc
            inside = [bool(ns) for ns in doc.namespace]
            if any(inside):
                parent = doc.parent
                for e in range(len(inside)):  # parents come first (document order)
                    if not inside[e] and parent[e] >= 0 and inside[parent[e]]:
                        inside[e] = True
            self._inside_foreign = inside
        inside = self._inside_foreign
        return any(inside[e] for e in elements)

    def _first(self, part: str) -> list[int] | None:
        """The elements the first compound selects anywhere on the page."""
        if part.startswith("#"):
            value = part[1:]
            if self.doc.quirks or not _IDENT.match(value) or value.startswith("--"):
                return None
            if self._by_id is None:
                self._by_id = self._index("id")
            return list(self._by_id.get(value, ()))
        step = _CSS_TYPE_STEP.fullmatch(part)
        if step is None or step.group(1) in _FOREIGN_ROOT_TAGS:
            return None
        if self._by_tag is None:
            self._by_tag = self._index(None)
        found = self._by_tag.get(step.group(1), [])
        nth = step.group(2)
        if nth is None or self._foreign(found):
            return list(found)
        parent, tag = self.doc.parent, step.group(1)
        return [e for e in found if e in self._children(parent[e], tag, nth)]

    def _index(self, attr: str | None) -> dict[str, list[int]]:
        """Elements by tag (``attr`` None) or by the value of ``attr``, in document order."""
        out: dict[str, list[int]] = {}
        doc = self.doc
        if attr is None:
            for e, tag in enumerate(doc.tags):
                out.setdefault(tag.lower(), []).append(e)
            return out
        for e, attrs in enumerate(doc.attrs):
            value = attrs.get(attr) if attrs else None
            if value is not None:
                out.setdefault(value, []).append(e)
        return out

    def _children(self, element: int, tag: str, nth: str | None) -> list[int]:
        """``element``'s children of ``tag`` (-1: the document's), or the ``nth`` of them."""
        found = self._groups.of(element).get(tag, [])
        if nth is None:
            return found
        k = int(nth)
        return found[k - 1 : k]


class XPathRunner:
    """Evaluates XPaths on a :class:`Document`: a fast path for simple location paths
    (child/descendant steps, name tests, ``[n]``, ``[@a='v']``, ``[@a]``,
    ``*[local-name()='x']``) and lxml on a lazily built copy of the tree for the rest."""

    def __init__(self, doc: Document, children: ChildGroups | None = None) -> None:
        self.doc = doc
        self._lxml: tuple[Any, dict[int, int]] | None = None
        self._groups = ChildGroups(doc) if children is None else children

    def run(self, path: str) -> list[int]:
        """Elements selected by ``path`` in document order (``[]`` if invalid or no match)."""
        path = path.strip()
        fast = self._fast(path)
        if fast is not None:
            return fast
        return self._slow(path)

    def _fast(self, path: str) -> list[int] | None:
        steps = _split_path(path)
        if steps is None:
            return None
        context = [-1]  # the document node; its only element child is <html> (index 0)
        for descendant, step in steps:
            match = _STEP.match(step)
            if match is None:
                return None
            test, preds_text = match.group(1), match.group(2)
            predicates = _PRED.findall(preds_text)
            if descendant:
                context = self._descendants_or_self(context)
            selected: list[int] = []
            for node in context:
                picked = self._filter(node, test, predicates)
                if picked is None:
                    return None
                selected.extend(picked)
            if descendant:
                selected = sorted(set(selected))
            context = selected
            if not context:
                return []
        return sorted(context)  # (children of nested context nodes interleave)

    def _descendants_or_self(self, context: list[int]) -> list[int]:
        if -1 in context:
            return [-1, *range(len(self.doc))]
        out: set[int] = set()
        for node in context:
            stack = [node]
            while stack:
                e = stack.pop()
                if e in out:
                    continue
                out.add(e)
                stack.extend(c for c in self.doc.content[e] if isinstance(c, int))
        return sorted(out)

    def _filter(self, node: int, test: str, predicates: list[str]) -> list[int] | None:
        """The children of ``node`` (-1: the document) that ``test`` and ``predicates``
        select, or ``None`` for a predicate the fast path does not read."""
        doc = self.doc
        groups = self._groups.of(node)
        if test != "*":
            nodes = groups.get(test.lower(), [])
        elif len(groups) == 1:
            nodes = next(iter(groups.values()))
        else:
            nodes = sorted(c for group in groups.values() for c in group)
        for raw in predicates:
            pred = raw.strip()
            if pred.isdigit():
                k = int(pred)
                nodes = nodes[k - 1 : k] if 1 <= k <= len(nodes) else []
                continue
            if pred == "last()":
                nodes = nodes[-1:]
                continue
            eq = _ATTR_EQ.match(pred)
            if eq is not None:
                key, value = (
                    eq.group(1).lower(),
                    eq.group(2) if eq.group(2) is not None else eq.group(3),
                )
                nodes = [c for c in nodes if doc.attrs[c].get(key) == value]
                continue
            if pred.startswith("@") and _XML_NAME.match(pred[1:]):
                key = pred[1:].lower()
                nodes = [c for c in nodes if key in doc.attrs[c]]
                continue
            local = _LOCAL.match(pred)
            if local is not None:
                name = local.group(1) if local.group(1) is not None else local.group(2)
                nodes = [c for c in nodes if doc.tags[c] == name]
                continue
            return None
        return nodes

    def _slow(self, path: str) -> list[int]:
        from lxml import etree

        if self._lxml is None:
            self._lxml = self._build_lxml()
        root, index = self._lxml
        try:
            found = root.getroottree().xpath(path)
        except (etree.XPathError, ValueError, TypeError):
            return []
        if not isinstance(found, list):
            return []
        hits = [index[id(e)] for e in found if id(e) in index]
        return sorted(set(hits))

    def _build_lxml(self) -> tuple[Any, dict[int, int]]:
        """A plain lxml copy of the tree (names sanitised) for XPaths the fast path lacks."""
        from lxml import etree

        doc = self.doc
        elements: list[Any] = []
        for i, tag in enumerate(doc.tags):
            safe_tag = tag.lower() if _XML_NAME.match(tag) else "unknown"
            element = etree.Element(safe_tag)
            for key, value in doc.attrs[i].items():
                if _XML_NAME.match(key):
                    try:
                        element.set(key, value)
                    except ValueError:
                        continue
            p = doc.parent[i]
            if p >= 0:
                elements[p].append(element)
            elements.append(element)
        for i, items in enumerate(doc.content):
            last: Any = None
            for item in items:
                if isinstance(item, int):
                    last = elements[item]
                    continue
                text = _xml_text(item)
                if last is None:
                    elements[i].text = (elements[i].text or "") + text
                else:
                    last.tail = (last.tail or "") + text
        index = {id(e): i for i, e in enumerate(elements)}
        # Keep the proxies alive so lxml hands back the same objects from xpath().
        self._elements = elements
        return elements[0], index


def _xml_text(text: str) -> str:
    return re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]", "", text)


def map_to_rows(elements: Sequence[int], row_of: Sequence[int]) -> list[int]:
    """Rows for selected elements (``row_of[e]`` or -1), deduplicated in order."""
    seen: set[int] = set()
    rows: list[int] = []
    for e in elements:
        r = row_of[e]
        if r >= 0 and r not in seen:
            seen.add(r)
            rows.append(r)
    return rows
