"""Which elements are rendered, and which are block-level, from the styles the page carries.

Only what the accessible name and the hidden rules need is computed: ``display`` (``none``,
inline or block) and ``visibility`` (hidden or visible), from three layers, in cascade order:

1. the user-agent defaults (:data:`UA_HIDDEN_TAGS`, the ``hidden`` attribute, block-level
   tags in :data:`BLOCK_TAGS`);
2. author rules in the page's ``<style>`` elements, read by :mod:`.css` (tinycss2), with
   ``@media`` queries evaluated against the viewport and ``@supports`` assumed true;
   importance, cascade layer, specificity and order decide between rules (CSS Cascade 5);
3. inline ``style`` attributes.

External stylesheets (``<link rel=stylesheet>``) are not fetched, and selectors that depend
on interaction (``:hover``, ``:focus``) or target pseudo-elements are ignored.

Matching is batched so cost stays near-linear: all selectors that give one outcome
(``display: none``; an inline display; a block display; ``visibility: hidden``; ``visible``)
are joined into one selector list and run once in Lexbor's C engine. Only elements that two
different outcomes claim are resolved rule by rule with specificity.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final, TypeVar

import tinycss2
from tinycss2 import ast

from .css import Declaration, MatchCost, Subjects, media_applies, read_sheets, specificity
from .parse import Document, indices_of

__all__ = ["BLOCK_TAGS", "UA_HIDDEN_TAGS", "Styles", "compute_styles"]

UA_HIDDEN_TAGS: Final[frozenset[str]] = frozenset(
    {
        "head", "script", "style", "template", "noscript", "title", "meta", "link", "base",
        "datalist", "param", "source", "track", "noembed", "noframes", "area", "map",
    }
)  # fmt: skip
"""Tags the user-agent stylesheet renders as ``display: none``; ``noscript`` only when the
page is parsed with scripting enabled (HTML §15.3.1, the rule is in the "scripting is
enabled" part)."""

BLOCK_TAGS: Final[frozenset[str]] = frozenset(
    {
        "address", "article", "aside", "blockquote", "body", "center", "dd", "details",
        "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer",
        "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "html", "legend",
        "li", "listing", "main", "menu", "nav", "ol", "p", "plaintext", "pre", "search",
        "section", "summary", "ul", "xmp", "table", "caption", "thead", "tbody", "tfoot", "tr",
        "td", "th", "colgroup", "col", "optgroup", "option", "frameset", "frame", "br",
        # inline-block by default: atomic boxes, separated like blocks
        "input", "select", "textarea", "button", "meter", "progress",
    }
)  # fmt: skip
"""Tags whose default display is not inline: accname puts spaces around their text.

``br`` is here because a line break separates words the same way."""

# Outcome codes (small ints keep the per-element arrays cheap).
D_UNSET, D_NONE, D_INLINE, D_BLOCK, D_INHERIT, D_REVERT = 0, 1, 2, 3, 4, 5
V_UNSET, V_HIDDEN, V_VISIBLE = 0, 1, 2
T_UNSET, T_NONE, T_UPPER, T_LOWER, T_CAPITALIZE = 0, 1, 2, 3, 4
_TRANSFORMS: Final[dict[str, int]] = {
    "none": T_NONE, "uppercase": T_UPPER, "lowercase": T_LOWER, "capitalize": T_CAPITALIZE,
}  # fmt: skip

_T = TypeVar("_T")

_DYNAMIC: Final[re.Pattern[str]] = re.compile(
    r"::|:(?:hover|focus|focus-within|focus-visible|active|visited|target|checked|"
    r"before|after|first-line|first-letter|selection|placeholder|marker|backdrop|"
    r"-webkit-|-moz-|-ms-|user-invalid|autofill|open|popover-open|modal|fullscreen)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Rule:
    """One selector with one display or visibility outcome."""

    selector: str
    prop: str  # "display" or "visibility"
    outcome: int
    important: bool
    layer: int
    specificity: tuple[int, int, int]
    order: int

    def rank(self) -> tuple[bool, int, tuple[int, int, int], int]:
        """Cascade precedence (CSS Cascade 5 §6): importance, then layer (earlier layers win
        among !important declarations), then specificity, then order of appearance."""
        return (self.important, -self.layer if self.important else self.layer,
                self.specificity, self.order)  # fmt: skip


@dataclass(frozen=True)
class Styles:
    """Per-element style facts (indexed like the :class:`~.parse.Document`)."""

    display: list[int]
    """``D_NONE``/``D_INLINE``/``D_BLOCK`` where set by author or inline style, else unset."""
    visibility: list[int]
    """``V_HIDDEN``/``V_VISIBLE`` where set (not inherited), else unset."""
    content_hidden: list[bool]
    """``content-visibility: hidden``: the element renders, its contents do not."""
    before: dict[int, str]
    """Text of ``::before`` generated content, per element that has one."""
    after: dict[int, str]
    """Text of ``::after`` generated content."""
    transform: list[int]
    """``text-transform`` set on the element (``T_*``; inherited, so unset means the
    parent's)."""


def _display_outcome(value: str) -> int:
    value = value.strip().lower()
    if value == "none":
        return D_NONE
    if not value:
        return D_UNSET
    # CSS Cascade 4 §7 (explicit defaulting): these keywords are declarations like any other
    # and win the cascade over an earlier ``display: none``. ``display`` is not inherited, so
    # ``initial`` and ``unset`` give its initial value ``inline``; ``inherit`` takes the
    # parent's display and ``revert`` the user-agent's (resolved in :mod:`.visibility`).
    if value in ("initial", "unset"):
        return D_INLINE
    if value == "inherit":
        return D_INHERIT
    if value in ("revert", "revert-layer"):
        return D_REVERT
    # Inline boxes join their neighbours' words; inline-block, inline-flex ... are atomic
    # boxes, and Chromium separates their text with spaces like blocks.
    if value in ("inline", "contents") or value.startswith("ruby"):
        return D_INLINE
    return D_BLOCK


def _visibility_outcome(value: str) -> int:
    value = value.strip().lower()
    if value in ("hidden", "collapse"):
        return V_HIDDEN
    if value == "visible":
        return V_VISIBLE
    return V_UNSET


def content_text(value: str, attrs: dict[str, str]) -> str | None:
    """Text of a ``content`` value for one element (CSS Generated Content §2).

    Strings and ``attr()`` concatenate; counters, quotes and images contribute nothing; the
    alternative text after ``/`` replaces the rest when present; ``none``/``normal`` mean
    no pseudo-element at all (None).
    """
    tokens = [
        t for t in tinycss2.parse_component_value_list(value, skip_comments=True)
        if t.type != "whitespace"
    ]  # fmt: skip
    if not tokens or (
        len(tokens) == 1
        and isinstance(tokens[0], ast.IdentToken)
        and tokens[0].lower_value in ("none", "normal", "initial", "inherit", "unset")
    ):
        return None
    main: list[str] = []
    alt: list[str] | None = None
    for token in tokens:
        if isinstance(token, ast.LiteralToken) and token.value == "/":
            alt = []
            continue
        target = main if alt is None else alt
        if isinstance(token, ast.StringToken):
            target.append(token.value)
        elif isinstance(token, ast.FunctionBlock) and token.lower_name == "attr":
            name = next((a for a in token.arguments if isinstance(a, ast.IdentToken)), None)
            if name is not None:
                target.append(attrs.get(name.lower_value, ""))
    return "".join(alt if alt is not None else main)


def _style_sheets(doc: Document) -> list[str]:
    sheets = []
    for i in indices_of(doc.tags, "style"):
        if not _in_noscript(doc, i):
            media = doc.attrs[i].get("media")
            if media and not media_applies(media, (1280.0, 800.0)):
                continue
            if doc.attrs[i].get("type", "text/css").lower() not in ("text/css", ""):
                continue
            sheets.append("".join(n for n in doc.content[i] if isinstance(n, str)))
    return sheets


def _in_noscript(doc: Document, i: int) -> bool:
    """With scripting on (as in a browser), ``<noscript>`` content is text, not a style;
    with it off, a style in ``<noscript>`` applies like any other."""
    if not doc.scripting:
        return False
    p = doc.parent[i]
    while p >= 0:
        if doc.tags[p] == "noscript":
            return True
        p = doc.parent[p]
    return False


def _inline(
    doc: Document,
    display: list[int],
    visibility: list[int],
    transform: list[int],
    content_hidden: list[bool],
    important: dict[int, set[str]],
) -> None:
    """``style`` attributes, read as declaration lists by tinycss2 (later ones win; each
    distinct attribute value is parsed once)."""
    parsed: dict[str, list[tuple[str, str]]] = {}
    styled = [(i, a["style"]) for i, a in enumerate(doc.attrs) if a and "style" in a]
    for i, style in styled:
        if not style or not _INLINE_HINT.search(style):
            continue
        declarations = parsed.get(style)
        if declarations is None:
            declarations = parsed[style] = _inline_declarations(style)
        for prop, value in declarations:
            if prop == "display" and "display" not in important.get(i, ()):
                outcome = _display_outcome(value)
                if outcome:
                    display[i] = outcome
            elif prop == "visibility" and "visibility" not in important.get(i, ()):
                outcome = _visibility_outcome(value)
                if outcome:
                    visibility[i] = outcome
            elif prop == "text-transform" and "text-transform" not in important.get(i, ()):
                outcome = _TRANSFORMS.get(value.strip().lower(), T_UNSET)
                if outcome:
                    transform[i] = outcome
            elif prop == "content-visibility":
                content_hidden[i] = value.strip().lower() == "hidden"


def _inline_declarations(style: str) -> list[tuple[str, str]]:
    """The declarations of :data:`_INLINE_PROPS` in a ``style`` attribute, in order: read
    by tinycss2, or, for the plain attributes most pages write (no strings, escapes,
    comments, ``!important``, functions or blocks, and keyword values), split at ``;`` and
    ``:`` with the same result."""
    if _PLAIN_STYLE.fullmatch(style):
        found = []
        for piece in style.split(";"):
            name, colon, value = piece.partition(":")
            name = name.strip(_CSS_SPACES)
            if not colon or not name.isascii() or name.lower() not in _INLINE_PROPS:
                continue
            value = value.strip(_CSS_SPACES)
            if not _KEYWORD_VALUE.fullmatch(value):
                break  # (anything but one keyword: tinycss2 reads it)
            found.append((name.lower(), value))
        else:
            return found
    return [
        (node.lower_name, _value_text(node.value))
        for node in tinycss2.parse_blocks_contents(style, skip_comments=True, skip_whitespace=True)
        if isinstance(node, ast.Declaration) and node.lower_name in _INLINE_PROPS
    ]


_PLAIN_STYLE: Final[re.Pattern[str]] = re.compile(r"[^\"'\\/!{}()\[\]@<]*")
_KEYWORD_VALUE: Final[re.Pattern[str]] = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
_CSS_SPACES: Final[str] = " \t\n\r\f"

_INLINE_PROPS: Final[frozenset[str]] = frozenset(
    {"display", "visibility", "text-transform", "content-visibility"}
)
_INLINE_HINT: Final[re.Pattern[str]] = re.compile(r"display|visibility|transform|\\", re.I)


def _value_text(tokens: list[Any]) -> str:
    """A declaration value as text (comments dropped)."""
    text: str = tinycss2.serialize([t for t in tokens if t.type != "comment"])
    return text.strip()


def compute_styles(doc: Document, viewport: tuple[float, float] = (1280.0, 800.0)) -> Styles:
    """Author and inline display/visibility for every element of ``doc``."""
    n = len(doc)
    display = [D_UNSET] * n
    transform = [T_UNSET] * n
    visibility = [V_UNSET] * n
    content_hidden = [False] * n
    important: dict[int, set[str]] = {}
    before: dict[int, str] = {}
    after: dict[int, str] = {}
    sheets = _style_sheets(doc)
    if sheets:
        subjects = Subjects(doc.tags, doc.attrs)
        costs = MatchCost(doc.tags, doc.attrs, doc.parent)
        declared = read_sheets(sheets, viewport, subjects)
        rules = _compile([d for d in declared if d.prop != "content"], doc, subjects, costs)
        matches = _ElementMatches(doc)
        _apply_rules(doc, rules, display, visibility, transform, important, matches)
        content_rules = [d for d in declared if d.prop == "content"]
        if content_rules:
            _pseudo_content(doc, content_rules, before, after, costs, matches)
    _inline(doc, display, visibility, transform, content_hidden, important)
    return Styles(display, visibility, content_hidden, before, after, transform)


def _compile(
    declared: list[Declaration],
    doc: Document,
    subjects: Subjects | None = None,
    costs: MatchCost | None = None,
) -> list[Rule]:
    """Rules with a known outcome, one per selector Lexbor can parse (checked on a one-element
    document, so an unsupported selector never forces the page's grouped queries apart).
    With ``subjects``, a selector that names a tag, class or id the page does not have is
    left out (a rule is read when any of its selectors may match; Lexbor then need not try
    the others on every element). With ``costs``, a selector the engine could take minutes
    over is left out (see :class:`.css.MatchCost`)."""
    rules: list[Rule] = []
    for declaration in declared:
        prop, value = declaration.prop, declaration.value
        if prop == "display":
            outcome = _display_outcome(value)
        elif prop == "visibility":
            outcome = _visibility_outcome(value)
        else:
            outcome = _TRANSFORMS.get(value.strip().lower(), T_UNSET)
        if prop == "content-visibility" or not outcome:
            continue
        for parsed in declaration.selectors:
            selector = parsed.text
            if _DYNAMIC.search(selector):
                continue
            if subjects is not None and not subjects.may_match(selector):
                continue
            if costs is not None and not costs.allow(selector):
                continue
            rules.append(
                Rule(selector, prop, outcome, declaration.important, declaration.layer,
                     parsed.specificity, declaration.order)
            )  # fmt: skip
    if not rules:
        return rules
    probe = doc.parser.__class__("<p></p>").root
    valid = _parsable(probe, list(dict.fromkeys(rule.selector for rule in rules)))
    return [rule for rule in rules if rule.selector in valid]


def _parsable(probe: Any, selectors: list[str]) -> set[str]:
    """The selectors Lexbor can parse, tried on ``probe``: those that could read differently
    once joined (see :func:`_joins_differently`) one by one, the others as joined lists,
    halved until a list parses (Lexbor parses a list only when each of its selectors parses:
    one bad selector rejects the whole list), so a page's selectors cost a few parses, not one
    each."""
    alone = [selector for selector in selectors if _joins_differently(selector)]
    found = {selector for selector in alone if _parses(probe, [selector])}
    pending = [[selector for selector in selectors if not _joins_differently(selector)]]
    while pending:
        part = pending.pop()
        if not part:
            continue
        if _parses(probe, part):
            found.update(part)
        elif len(part) > 1:
            middle = len(part) // 2
            pending += (part[:middle], part[middle:])
    return found


def _parses(probe: Any, selectors: list[str]) -> bool:
    try:
        probe.css_matches(", ".join(selectors))
    except Exception:  # Lexbor: unparsable selector
        return False
    return True


def _apply_rules(
    doc: Document,
    rules: list[Rule],
    display: list[int],
    visibility: list[int],
    transform: list[int],
    important: dict[int, set[str]],
    matches: _ElementMatches | None = None,
) -> None:
    """Run each outcome's selectors once; settle elements claimed twice by the cascade."""
    if matches is None:
        matches = _ElementMatches(doc)
    for prop, target in (
        ("display", display), ("visibility", visibility), ("text-transform", transform)
    ):  # fmt: skip
        mine = [r for r in rules if r.prop == prop]
        if not mine:
            continue
        claims: dict[int, set[int]] = {}
        for outcome in sorted({r.outcome for r in mine}):
            group = _distinct([r.selector for r in mine if r.outcome == outcome])
            for element in _query(doc, group):
                claims.setdefault(element, set()).add(outcome)
        contested = [e for e, outcomes in claims.items() if len(outcomes) > 1]
        for element, outcomes in claims.items():
            if len(outcomes) == 1:
                target[element] = next(iter(outcomes))
        if contested:
            _cascade(doc, mine, contested, target, matches)
        strong = _distinct([r.selector for r in mine if r.important])
        if strong:  # an !important author declaration beats inline style
            for element in _query(doc, strong):
                important.setdefault(element, set()).add(prop)


_ESCAPE_OR_SLASH: Final[re.Pattern[str]] = re.compile(r"[\\/]")
_CLOSED_STRING: Final[re.Pattern[str]] = re.compile(r"\"[^\"\n]*\"|'[^'\n]*'")


def _joins_differently(selector: str) -> bool:
    """Whether a selector could read differently once joined to others with commas: it
    holds an escape (one at its end takes the comma), a slash (a comment's start) or a
    quote outside a closed string (tinycss2 writes a bad string unclosed)."""
    if _ESCAPE_OR_SLASH.search(selector):
        return True
    if "'" in selector or '"' in selector:
        rest = _CLOSED_STRING.sub("", selector)
        return "'" in rest or '"' in rest
    return False


def _distinct(selectors: list[str]) -> list[str]:
    """``selectors`` without repeats (the first of each kept: a selector list matches the
    union of its selectors), unless one of them :func:`_joins_differently`."""
    if any(_joins_differently(selector) for selector in selectors):
        return selectors
    return list(dict.fromkeys(selectors))


def _query(doc: Document, selectors: list[str]) -> list[int]:
    """Elements matching any of ``selectors`` in one Lexbor pass; when Lexbor rejects the
    list, halves are tried, so each unparsable selector costs a few extra passes only."""
    if not selectors:
        return []
    try:
        return doc.css(", ".join(selectors))
    except Exception:  # Lexbor: unparsable selector
        if len(selectors) == 1:
            return []
        middle = len(selectors) // 2
        return _query(doc, selectors[:middle]) + _query(doc, selectors[middle:])


def _cascade(
    doc: Document,
    rules: list[Rule],
    elements: list[int],
    target: list[int],
    matches: _ElementMatches,
) -> None:
    """Resolve elements claimed by several outcomes: test the rules that can match each
    (bucketed by key selector) with :class:`_ElementMatches`,
    keep the winner by :meth:`Rule.rank`."""
    buckets: dict[tuple[str, str], list[Rule]] = {}
    for rule in rules:
        buckets.setdefault(_rule_key(rule.selector), []).append(rule)
    for element in elements:
        best: tuple[bool, int, tuple[int, int, int], int] | None = None
        outcome = 0
        for rule in _candidates(doc, element, buckets):
            key = rule.rank()
            if best is not None and key <= best:
                continue
            if matches(element, rule.selector):
                best, outcome = key, rule.outcome
        if outcome:
            target[element] = outcome


def _candidates(doc: Document, i: int, buckets: dict[tuple[str, str], list[_T]]) -> list[_T]:
    """Rules whose key selector (id, class, tag or none) fits element ``i``."""
    found = list(buckets.get(("any", ""), ()))
    found.extend(buckets.get(("tag", doc.tags[i].lower()), ()))
    attrs = doc.attrs[i]
    if attrs:
        element_id = attrs.get("id")
        if element_id:
            found.extend(buckets.get(("id", element_id), ()))
        classes = attrs.get("class")
        if classes:
            for cls in classes.split():
                found.extend(buckets.get(("class", cls), ()))
    return found


_PSEUDO_END: Final[re.Pattern[str]] = re.compile(r"::?(before|after)\s*$", re.IGNORECASE)
_LAST_COMPOUND: Final[re.Pattern[str]] = re.compile(r"[^\s>+~]*$")
_KEY_CLASS: Final[re.Pattern[str]] = re.compile(r"\.(-?[A-Za-z_][\w-]*)")
_KEY_ID: Final[re.Pattern[str]] = re.compile(r"#(-?[A-Za-z_][\w-]*)")
_KEY_TAG: Final[re.Pattern[str]] = re.compile(r"^([A-Za-z][\w-]*)")


def _rule_key(selector: str) -> tuple[str, str]:
    """The rightmost compound's most selective part: how browsers bucket rules."""
    last = _LAST_COMPOUND.search(selector.strip())
    compound = last.group(0) if last else ""
    for kind, pattern in (("id", _KEY_ID), ("class", _KEY_CLASS), ("tag", _KEY_TAG)):
        found = pattern.search(compound)
        if found:
            return kind, found.group(1).lower() if kind == "tag" else found.group(1)
    return "any", ""


_Rank = tuple[int, tuple[int, int, int]]
"""Layer and specificity of a generated-content rule."""

_ROOTED: Final[re.Pattern[str]] = re.compile(r":scope|&", re.IGNORECASE)
"""What can make a selector's meaning depend on the element a search starts from."""


class _ElementMatches:
    """``matches(i, selector)``: whether element ``i`` matches ``selector`` (False when Lexbor
    cannot parse it).

    Lexbor's per-node test (``node.css_matches``) answers whether the node *or one of its
    descendants* matches, so a rule would reach an element that merely contains what its
    selector selects (Wikipedia's ``.hlist li ul::before`` would reach the ``td`` around the
    list). A search from the node lists the node first when it matches, so the per-node test
    here is the first match of that search. A selector is tested element by element while
    those tests have cost less than searching the whole page once (each:
    :data:`_NODE_TEST_COST` plus at most the element's subtree); then the page is queried once
    and its matches kept. Selectors Lexbor can parse whose meaning can depend on where a
    search starts (``:scope``, ``&``), and pages whose parents are not the parser's (see
    :attr:`.parse.Document.reparented`), stay element by element."""

    def __init__(self, doc: Document) -> None:
        self._doc = doc
        self._found: dict[str, set[int] | None] = {}  # None: tested element by element
        self._spent: dict[str, int] = {}  # selector -> cost of its per-node tests so far
        self._sizes: list[int] | None = None

    def __call__(self, i: int, selector: str) -> bool:
        found = self._found.get(selector, _NOT_QUERIED)
        if found is _NOT_QUERIED:
            spent = self._spent.get(selector, 0) + _NODE_TEST_COST + self._size(i)
            if spent <= _NODE_TEST_COST + len(self._doc):
                self._spent[selector] = spent
                return self._node_matches(i, selector)
            found = self._found[selector] = self._query(selector)
        if found is None:
            return self._node_matches(i, selector)
        return i in found

    def _node_matches(self, i: int, selector: str) -> bool:
        node = self._doc.nodes[i]
        try:
            first = node.css_first(selector)
        except Exception:  # Lexbor: unparsable selector
            return False
        return first is not None and first.mem_id == node.mem_id

    def _size(self, i: int) -> int:
        """Elements in ``i``'s subtree, itself included."""
        if self._sizes is None:
            parent = self._doc.parent
            sizes = [1] * len(parent)
            for e in range(len(parent) - 1, 0, -1):  # (children come after their parent)
                if parent[e] >= 0:
                    sizes[parent[e]] += sizes[e]
            self._sizes = sizes
        return self._sizes[i]

    def _query(self, selector: str) -> set[int] | None:
        doc = self._doc
        try:
            hits = doc.css(selector)
        except Exception:  # Lexbor: unparsable selector (wherever the search starts)
            return set()
        if doc.reparented or _ROOTED.search(selector):
            return None
        return set(hits)


_NODE_TEST_COST: Final[int] = 150
"""A per-node Lexbor test's cost beyond the subtree it searches (parsing the selector,
setting the search up), in elements a search visits for the same work."""
_NOT_QUERIED: Final[Any] = object()


def _pseudo_content(
    doc: Document,
    declared: list[Declaration],
    before: dict[int, str],
    after: dict[int, str],
    costs: MatchCost | None = None,
    matches: _ElementMatches | None = None,
) -> None:
    """``::before``/``::after`` text per element: rules bucketed by their key selector, so
    each element is tested only against the rules that can match it."""
    buckets: dict[tuple[str, str], list[tuple[str, str, str, _Rank, int]]] = {}
    for declaration in declared:
        value, order = declaration.value, declaration.order
        for parsed in declaration.selectors:
            selector = parsed.text
            end = _PSEUDO_END.search(selector)
            if end is None:
                continue
            base = selector[: end.start()].strip() or "*"
            if _DYNAMIC.search(base) or (costs is not None and not costs.allow(base)):
                continue
            spec = (declaration.layer, specificity(base))
            buckets.setdefault(_rule_key(base), []).append(
                (end.group(1).lower(), base, value, spec, order)
            )
    if not buckets:
        return
    if matches is None:
        matches = _ElementMatches(doc)
    tags_wanted = {key for kind, key in buckets if kind == "tag"}
    classes_wanted = {key for kind, key in buckets if kind == "class"}
    ids_wanted = {key for kind, key in buckets if kind == "id"}
    everyone = ("any", "") in buckets
    for i in range(len(doc)):
        attrs = doc.attrs[i]
        if not everyone and doc.tags[i] not in tags_wanted:
            if not attrs:
                continue
            classes = attrs.get("class")
            if not (
                (classes and not classes_wanted.isdisjoint(classes.split()))
                or attrs.get("id") in ids_wanted
            ):
                continue
        candidates = _candidates(doc, i, buckets)
        if not candidates:
            continue
        best: dict[str, tuple[_Rank, int, str]] = {}
        for which, base, value, spec, order in candidates:
            current = best.get(which)
            if current is not None and (spec, order) <= current[:2]:
                continue
            if not matches(i, base):
                continue
            best[which] = (spec, order, value)
        for which, (_spec, _order, value) in best.items():
            text = content_text(value, attrs or {})
            if text is not None:
                (before if which == "before" else after)[i] = text
