"""ARIA roles of HTML elements: explicit ``role`` attributes and HTML-AAM implicit roles.

The result is a canonical role from :data:`resolver.roles.ROLES` for every element. Where
Chromium maps an element to an internal role with no ARIA counterpart, the canonical role
Chromium's spelling maps to is used (``LayoutTable`` -> ``generic``, ``LabelText`` ->
``label``, ``DisclosureTriangle`` -> ``button``), so DOM rows and CDP rows agree.

Order of the decision for one element (all tables, few branches):

1. an explicit ``role``: the first token that names a concrete ARIA role wins (ARIA 1.2 §7.1
   "role attribute", fallback roles); ``presentation`` means ``none``;
2. the presentational role conflict (ARIA 1.2 §9.3): ``none`` is ignored on focusable elements
   and on elements with global ARIA attributes;
3. otherwise the implicit role (HTML-AAM §4 "Element mappings"): :data:`IMPLICIT_ROLES` for
   the fixed cases, and one small function per context-dependent element (``input``,
   ``a``/``area``, ``img``, ``select``, ``section``/``form``/``aside``, ``header``/
   ``footer``, table parts, ``li``, ``option``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from ...roles import ROLE_INDEX
from .parse import MATHML, SVG, Document, indices_of

__all__ = [
    "ARIA_ROLES", "IMPLICIT_ROLES", "aria_role", "compute_roles", "is_focusable", "layout_cells",
]  # fmt: skip

_DPUB_ROLES: Final[Mapping[str, tuple[str, ...]]] = {
    "region": (
        "abstract", "acknowledgments", "afterword", "appendix", "bibliography", "chapter",
        "colophon", "conclusion", "credit", "credits", "dedication", "endnotes", "epigraph",
        "epilogue", "errata", "example", "foreword", "glossary", "introduction", "part",
        "preface", "prologue", "qna",
    ),
    "link": ("backlink", "biblioref", "glossref", "noteref"),
    "listitem": ("biblioentry", "endnote"),
    "note": ("footnote", "notice", "tip"),
    "navigation": ("index", "pagelist", "toc"),
    "img": ("cover",),
    "separator": ("pagebreak",),
    "generic": ("pullquote",),
    "paragraph": ("subtitle",),
}  # fmt: skip
"""DPUB-ARIA roles (``doc-`` + token), grouped by the canonical role they map to."""

# ARIA role tokens -> canonical roles. Abstract roles are absent (they are not valid tokens).
ARIA_ROLES: Final[Mapping[str, str]] = {
    **{role: role for role in ROLE_INDEX if role not in ("unknown", "text", "window", "label",
                                                          "titlebar", "desktop", "section")},
    "presentation": "none",
    "image": "img",
    "graphics-document": "document",
    "graphics-object": "group",
    "graphics-symbol": "img",
    "subscript": "generic",
    "superscript": "generic",
    "comment": "note",
    "suggestion": "generic",
    "sectionhead": "heading",
    "sectionheader": "generic",
    "sectionfooter": "generic",
    **{f"doc-{token}": role for role, tokens in _DPUB_ROLES.items() for token in tokens},
}  # fmt: skip

# HTML-AAM §4 element mappings that do not depend on context.
# Deviation (follows Chromium): b is absent (generic). WPT html-aam/roles.html expects
# strong; Chromium 156 computes generic, on the 64 exposed b of the readability captures too.
IMPLICIT_ROLES: Final[Mapping[str, str]] = {
    "address": "group", "article": "article", "blockquote": "blockquote", "button": "button",
    "caption": "caption", "code": "code", "datalist": "listbox", "del": "deletion",
    "s": "deletion", "details": "group", "dialog": "dialog", "dd": "definition",
    "dfn": "term", "dl": "list", "dt": "term", "em": "emphasis", "fieldset": "group",
    "figure": "figure", "figcaption": "caption", "h1": "heading", "h2": "heading",
    "h3": "heading", "h4": "heading", "h5": "heading", "h6": "heading", "hgroup": "group",
    "hr": "separator", "iframe": "document", "ins": "insertion", "main": "main",
    "mark": "mark", "math": "math", "menu": "list", "meter": "meter", "nav": "navigation",
    "ol": "list", "ul": "list", "optgroup": "group", "output": "status", "p": "paragraph",
    "progress": "progressbar", "search": "search", "strong": "strong", "textarea": "textbox",
    "time": "time", "label": "label", "legend": "label",
    "canvas": "img", "video": "group", "audio": "group", "embed": "group", "object": "group",
    "br": "text", "svg": "img", "html": "none", "body": "generic",
}  # fmt: skip
"""Tags whose implicit role is fixed. Chromium spellings: ``figcaption`` is ``Figcaption``,
``label`` ``LabelText``, ``legend`` ``Legend``, ``summary`` ``DisclosureTriangle``,
``canvas`` ``Canvas``, ``video`` ``Video``, ``br`` ``LineBreak``, ``svg`` ``image``."""

_INPUT_ROLES: Final[Mapping[str, str]] = {
    "button": "button", "submit": "button", "reset": "button", "image": "button",
    "checkbox": "checkbox", "radio": "radio", "range": "slider", "number": "spinbutton",
    "search": "searchbox", "color": "button", "file": "button", "hidden": "none",
    "date": "textbox", "datetime-local": "textbox", "month": "textbox", "time": "textbox",
    "week": "textbox",
}  # fmt: skip
_TEXT_INPUTS: Final[frozenset[str]] = frozenset({"text", "email", "tel", "url", "search", ""})
_LANDMARK_SCOPES: Final[frozenset[str]] = frozenset(
    {"article", "complementary", "main", "navigation", "region"}
)
_SCOPE_TAGS: Final[frozenset[str]] = frozenset({"article", "aside", "main", "nav", "section"})
_GLOBAL_ARIA: Final[frozenset[str]] = frozenset(
    {
        "aria-atomic", "aria-busy", "aria-controls", "aria-current", "aria-describedby",
        "aria-details", "aria-dropeffect", "aria-flowto", "aria-grabbed", "aria-haspopup",
        "aria-invalid", "aria-keyshortcuts", "aria-label", "aria-labelledby", "aria-live",
        "aria-owns", "aria-relevant", "aria-roledescription",
    }
)  # fmt: skip
_FOCUSABLE_TAGS: Final[frozenset[str]] = frozenset(
    {"button", "select", "textarea", "iframe", "summary"}
)
_TABLE_SECTIONS: Final[frozenset[str]] = frozenset({"thead", "tbody", "tfoot"})
_GRID_ROLES: Final[frozenset[str]] = frozenset({"grid", "treegrid"})
_LIST_ROLES: Final[frozenset[str]] = frozenset({"list", "directory"})


def _has_name_attr(attrs: Mapping[str, str], doc: Document) -> bool:
    """Whether author markup gives the element a name (HTML-AAM: "has an accessible name")."""
    if attrs.get("aria-label", "").strip() or attrs.get("title", "").strip():
        return True
    refs = attrs.get("aria-labelledby") or ""
    return any(r in doc.by_id for r in refs.split())


def is_focusable(tag: str, attrs: Mapping[str, str]) -> bool:
    """HTML focusability without layout: form controls, links, tabindex, contenteditable."""
    if "tabindex" in attrs or tag in _FOCUSABLE_TAGS:
        return "disabled" not in attrs or tag in ("iframe", "summary")
    if tag in ("a", "area"):
        return "href" in attrs
    if tag == "input":
        return attrs.get("type", "").lower() != "hidden" and "disabled" not in attrs
    editable = attrs.get("contenteditable")
    return editable is not None and editable.lower() in ("", "true", "plaintext-only")


def explicit_role(value: str) -> str | None:
    """ARIA 1.2 §7.1: the first recognised token of a ``role`` attribute, canonical."""
    for token in value.lower().split():
        role = ARIA_ROLES.get(token)
        if role is not None:
            return role
    return None


class _Context:
    """Per-document memo for table-type decisions."""

    def __init__(self, doc: Document, roles: list[str]) -> None:
        self.doc = doc
        self.roles = roles
        self.data_tables: dict[int, bool] = {}

    def table_of(self, i: int) -> int:
        """Nearest ``table`` ancestor of a table part (-1 if none)."""
        doc = self.doc
        p = doc.parent[i]
        while p >= 0 and doc.tags[p] != "table":
            if doc.tags[p] in ("td", "th"):
                return -1
            p = doc.parent[p]
        return p

    def is_data_table(self, t: int) -> bool:
        """Chromium's layout-table heuristic, simplified (see AXLayoutObject::IsDataTable)."""
        known = self.data_tables.get(t)
        if known is not None:
            return known
        self.data_tables[t] = result = self._judge(t)
        return result

    def _judge(self, t: int) -> bool:
        doc = self.doc
        attrs = doc.attrs[t]
        if explicit_role(attrs.get("role", "")) not in (None, "none"):
            return True
        if "summary" in attrs or _has_name_attr(attrs, doc):
            return True
        rows: list[int] = []
        for child in doc.content[t]:
            if not isinstance(child, int):
                continue
            tag = doc.tags[child]
            if tag in ("caption", "thead", "tfoot", "colgroup", "col"):
                return True
            if tag == "tr":
                rows.append(child)
            elif tag == "tbody":
                rows.extend(
                    c for c in doc.content[child] if isinstance(c, int) and doc.tags[c] == "tr"
                )
        if len(rows) >= 20:
            return True
        widest = 0
        for row in rows:
            cells = 0
            for cell in doc.content[row]:
                if not isinstance(cell, int):
                    continue
                tag = doc.tags[cell]
                if tag == "th":
                    return True
                if tag == "td":
                    cell_attrs = doc.attrs[cell]
                    if cell_attrs and (
                        "headers" in cell_attrs or "scope" in cell_attrs or "abbr" in cell_attrs
                    ):
                        return True
                    cells += 1
            widest = max(widest, cells)
        return len(rows) >= 2 and widest >= 2 and _no_nested_table(doc, t)

    def table_kind(self, i: int) -> str:
        """``data``, ``grid``, ``layout`` or ``none`` for the table a part belongs to."""
        t = self.table_of(i)
        if t < 0:
            return "none"
        role = self.roles[t]
        if role in _GRID_ROLES:
            return "grid"
        if role == "table":
            return "data"
        return "none" if role == "none" else "layout"


def _no_nested_table(doc: Document, t: int) -> bool:
    stack = [c for c in doc.content[t] if isinstance(c, int)]
    seen = 0
    while stack and seen < 5000:
        seen += 1
        e = stack.pop()
        if doc.tags[e] == "table":
            return False
        stack.extend(c for c in doc.content[e] if isinstance(c, int))
    return True


def _role_input(doc: Document, i: int, ctx: _Context) -> str:
    attrs = doc.attrs[i]
    kind = attrs.get("type", "").strip().lower()
    if "list" in attrs and kind in _TEXT_INPUTS | {"email"}:
        return "combobox"  # HTML-AAM: text-like input with a list -> combobox
    return _INPUT_ROLES.get(kind, "textbox")


def _role_link(doc: Document, i: int, ctx: _Context) -> str:
    attrs = doc.attrs[i]
    if "href" in attrs:
        return "link"
    if "onclick" in attrs and doc.tags[i] == "a":
        return "link"  # Deviation (follows Chromium): an anchor with a click handler is a link
    return "generic" if doc.tags[i] == "a" else "none"


def _role_img(doc: Document, i: int, ctx: _Context) -> str:
    attrs = doc.attrs[i]
    # HTML-AAM: img with alt="" is presentational unless it is named another way.
    if attrs.get("alt", None) == "" and not (
        attrs.get("aria-label", "").strip()
        or attrs.get("aria-labelledby", "").strip()
        or attrs.get("title", "").strip()
    ):
        return "none"
    return "img"


def _role_select(doc: Document, i: int, ctx: _Context) -> str:
    attrs = doc.attrs[i]
    size = attrs.get("size", "").strip()
    if "multiple" in attrs or (size.isdigit() and int(size) > 1):
        return "listbox"
    return "combobox"


def _role_named(role: str) -> Callable[[Document, int, _Context], str]:
    def decide(doc: Document, i: int, ctx: _Context) -> str:
        # HTML-AAM: section -> region and form -> form only with an accessible name.
        # Deviation (follows Chromium): an unnamed form is still exposed as "form".
        if role == "form" or _has_name_attr(doc.attrs[i], doc):
            return role
        return "generic"

    return decide


def _inside_scope(doc: Document, i: int, roles: list[str], *, main: bool = True) -> bool:
    """Whether ``i`` sits in sectioning content (``main`` counts for header/footer only)."""
    p = doc.parent[i]
    while p >= 0:
        scoping = doc.tags[p] in _SCOPE_TAGS or roles[p] in _LANDMARK_SCOPES
        if scoping and (main or (doc.tags[p] != "main" and roles[p] != "main")):
            return True
        p = doc.parent[p]
    return False


def _role_scoped(role: str) -> Callable[[Document, int, _Context], str]:
    def decide(doc: Document, i: int, ctx: _Context) -> str:
        # HTML-AAM §4 (header, footer, aside): header/footer are landmarks only when not
        # inside article/aside/main/nav/section (or an element with such a role); there they are
        # ARIA 1.3's sectionheader/sectionfooter, which are not landmarks: canonical generic
        # here, spelled out by :func:`aria_role`. An aside inside those is complementary
        # only with a name.
        # Deviation (follows Chromium): main scopes header/footer too, as Chromium 156
        # exposes a header inside main as sectionheader.
        # The computed role stays sectionheader/sectionfooter for a named one too (HTML-AAM
        # after w3c/aria#2543; Chromium 156 and WebKit): WPT html-aam/roles.html and
        # roles-contextual.html, written before those roles, expect generic there.
        if not _inside_scope(doc, i, ctx.roles, main=role != "complementary"):
            return role
        if role != "complementary":
            return "generic"
        return role if _has_name_attr(doc.attrs[i], doc) else "generic"

    return decide


def _role_table(doc: Document, i: int, ctx: _Context) -> str:
    # Follows Chromium: tables used for layout are exposed as LayoutTable (generic).
    return "table" if ctx.is_data_table(i) else "generic"


def _role_row(doc: Document, i: int, ctx: _Context) -> str:
    kind = ctx.table_kind(i)
    return {"data": "row", "grid": "row", "layout": "generic", "none": "none"}[kind]


def _role_rowgroup(doc: Document, i: int, ctx: _Context) -> str:
    kind = ctx.table_kind(i)
    if kind in ("data", "grid"):
        # HTML-AAM §4 (tbody, thead, tfoot) maps all three to rowgroup, but no engine
        # exposes a static one as such but Chromium (w3c/html-aam#474): WPT
        # html-aam/table-roles.html expects them not exposed (computed role "") unless
        # focusable, as Gecko and WebKit do. Chromium 156 reports thead and tfoot (not tbody)
        # as rowgroup: 3 of 55,195 exposed elements on the readability captures.
        return "rowgroup" if is_focusable(doc.tags[i], doc.attrs[i]) else "none"
    return "none" if kind == "none" else "generic"


def _role_cell(doc: Document, i: int, ctx: _Context) -> str:
    kind = ctx.table_kind(i)
    if kind == "layout":
        return "generic"
    if kind == "none":
        return "none"
    if doc.tags[i] == "th":
        return _header_role(doc, i)
    return "gridcell" if kind == "grid" else "cell"


def _header_role(doc: Document, i: int) -> str:
    """HTML-AAM th: ``scope`` decides; else a th in a row of td cells heads that row."""
    scope = doc.attrs[i].get("scope", "").lower()
    if scope in ("row", "rowgroup"):
        return "rowheader"
    if scope in ("col", "colgroup"):
        return "columnheader"
    row = doc.parent[i]
    if row >= 0 and doc.tags[row] == "tr":
        section = doc.parent[row]
        if section >= 0 and doc.tags[section] == "thead":
            return "columnheader"
        cells = [c for c in doc.content[row] if isinstance(c, int) and doc.tags[c] in ("td", "th")]
        if cells and cells[0] == i and any(doc.tags[c] == "td" for c in cells):
            return "rowheader"
    return "columnheader"


def _role_li(doc: Document, i: int, ctx: _Context) -> str:
    p = doc.parent[i]
    if p < 0:
        return "generic"
    if ctx.roles[p] == "none" and doc.tags[p] in ("ul", "ol", "menu"):
        return "none"  # ARIA 1.2 §9.3: required owned elements of a presentational list
    # HTML-AAM §4 li: listitem inside an ol, ul or menu (or an element with role list); an
    # orphaned li is generic. Deviation (follows Chromium): the list may be any ancestor
    # (``<ul><div><li>``), not only the parent.
    while p >= 0:
        if (doc.tags[p] in ("ul", "ol", "menu") and doc.namespace[p] == 0) or (
            ctx.roles[p] in _LIST_ROLES
        ):
            return "listitem"
        p = doc.parent[p]
    return "generic"


def _role_summary(doc: Document, i: int, ctx: _Context) -> str:
    # HTML-AAM §4 summary: only the first summary child of a details element is its
    # disclosure button (HTML §4.11.2 "summary for its parent details"); others are generic.
    p = doc.parent[i]
    if p < 0 or doc.tags[p] != "details" or doc.namespace[p] != 0:
        return "generic"
    for child in doc.content[p]:
        if isinstance(child, int) and doc.tags[child] == "summary":
            return "button" if child == i else "generic"
    return "generic"


def _role_option(doc: Document, i: int, ctx: _Context) -> str:
    p = doc.parent[i]
    if p >= 0 and doc.tags[p] == "optgroup":
        p = doc.parent[p]
    return "option" if p >= 0 and doc.tags[p] in ("select", "datalist") else "generic"


_SPECIAL: Final[Mapping[str, Callable[[Document, int, _Context], str]]] = {
    "input": _role_input, "a": _role_link, "area": _role_link, "img": _role_img,
    "select": _role_select, "section": _role_named("region"), "form": _role_named("form"),
    "aside": _role_scoped("complementary"), "header": _role_scoped("banner"),
    "footer": _role_scoped("contentinfo"), "tr": _role_row, "td": _role_cell,
    "th": _role_cell, "thead": _role_rowgroup, "tbody": _role_rowgroup,
    "tfoot": _role_rowgroup, "li": _role_li, "summary": _role_summary,
    "option": _role_option, "table": _role_table,
}  # fmt: skip


def implicit_role(doc: Document, i: int, ctx: _Context) -> str:
    """HTML-AAM implicit role of element ``i`` (``generic`` for unknown/custom elements)."""
    tag = doc.tags[i]
    ns = doc.namespace[i]
    if ns == SVG:
        # SVG-AAM: the root is an image (graphics-document); shapes are hidden unless named.
        if tag == "svg":
            return "img"
        if tag in ("a",):
            return "link" if "href" in doc.attrs[i] or "xlink:href" in doc.attrs[i] else "group"
        return "none"
    if ns == MATHML:
        # MathML-AAM: math is the math role; the other elements are exposed with platform
        # roles that have no ARIA counterpart (Chromium's MathMLIdentifier ...): generic.
        return "math" if tag == "math" else "generic"
    special = _SPECIAL.get(tag)
    if special is not None:
        return special(doc, i, ctx)
    return IMPLICIT_ROLES.get(tag, "generic")


def compute_roles(doc: Document) -> list[str]:
    """Canonical role of every element, in one pre-order pass (ancestors decide first)."""
    n = len(doc)
    roles = ["generic"] * n
    ctx = _Context(doc, roles)
    tags, all_attrs, namespace = doc.tags, doc.attrs, doc.namespace
    for i in range(n):
        attrs = all_attrs[i]
        raw = attrs.get("role") if attrs else None
        role = explicit_role(raw) if raw else None
        if role == "none" and (
            is_focusable(tags[i], attrs) or any(a in _GLOBAL_ARIA for a in attrs)
        ):
            role = None  # ARIA 1.2 §9.3 presentational role conflict resolution
        if role is None:
            tag = tags[i]
            if tag not in _SPECIAL and namespace[i] == 0:  # (implicit_role's last step)
                role = IMPLICIT_ROLES.get(tag, "generic")
            else:
                role = implicit_role(doc, i, ctx)
        roles[i] = role
    return roles


def layout_cells(doc: Document, roles: list[str]) -> frozenset[int]:
    """The ``td`` and ``th`` elements of layout tables (see :meth:`_Context.is_data_table`)
    that keep their implicit role.

    Deviation (follows Chromium): Chromium exposes them as LayoutTableCell and names them
    from their content, as a cell is named (ARIA 1.2 cell: "Name From: contents"), although
    their role is generic; HTML-AAM leaves such cells unnamed.
    """
    ctx = _Context(doc, roles)
    tags, attrs = doc.tags, doc.attrs
    found: set[int] = set()
    for tag in ("td", "th"):
        for i in indices_of(tags, tag):
            if (
                roles[i] == "generic"
                and not (attrs[i] and "role" in attrs[i])
                and ctx.table_kind(i) == "layout"
            ):
                found.add(i)
    return frozenset(found)


_FINER_TOKENS: Final[frozenset[str]] = frozenset(
    {"subscript", "superscript", "sectionheader", "sectionfooter", "comment", "suggestion"}
)
_FINER_TAGS: Final[Mapping[str, str]] = {
    "sub": "subscript", "sup": "superscript", "header": "sectionheader",
    "footer": "sectionfooter",
}  # fmt: skip


def aria_role(doc: Document, roles: list[str], i: int) -> str:
    """The role a browser reports as the element's ``computedrole`` (WAI-ARIA 1.3 names).

    The canonical role folds a few ARIA 1.3 roles that no other platform has into
    ``generic`` (``subscript``, ``superscript``, ``sectionheader``, ``sectionfooter``);
    this spells them out again, and writes ``img`` as ARIA 1.3's preferred ``image``.
    """
    role = roles[i]
    if role == "img":
        return "image"
    if role != "generic" or doc.namespace[i] != 0:
        return role
    attrs = doc.attrs[i]
    raw = attrs.get("role") if attrs else None
    if raw:
        for token in raw.lower().split():
            if token in ARIA_ROLES:
                return token if token in _FINER_TOKENS else role
    # HTML-AAM §4 sub, sup; header/footer scoped to sectioning content (see _role_scoped,
    # which leaves them generic only there).
    return _FINER_TAGS.get(doc.tags[i], role)
