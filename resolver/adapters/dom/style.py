"""Which elements are rendered, and which are block-level, from the styles the page carries.

Only what the accessible name and the hidden rules need is computed: ``display`` (``none``,
inline or block) and ``visibility`` (hidden or visible), from three layers, in cascade order:

1. the user-agent defaults (:data:`UA_HIDDEN_TAGS`, the ``hidden`` attribute, block-level
   tags in :data:`BLOCK_TAGS`);
2. author rules in the page's ``<style>`` elements, with ``@media`` queries evaluated against
   the viewport (``min-``/``max-width``/``height``, ``screen``/``all``/``print``) and
   ``@supports`` assumed true; specificity and order decide between rules, ``!important``
   lifts a declaration above the others;
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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final, TypeVar

from .parse import Document

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

_COMMENT: Final[re.Pattern[str]] = re.compile(r"/\*.*?\*/", re.DOTALL)
_DECL: Final[re.Pattern[str]] = re.compile(
    r"(?:^|;)\s*(display|visibility|content-visibility|text-transform)\s*:\s*([^;!]*?)\s*(!\s*important)?\s*(?=;|$)",
    re.IGNORECASE,
)
_DYNAMIC: Final[re.Pattern[str]] = re.compile(
    r"::|:(?:hover|focus|focus-within|focus-visible|active|visited|target|checked|"
    r"before|after|first-line|first-letter|selection|placeholder|marker|backdrop|"
    r"-webkit-|-moz-|-ms-|user-invalid|autofill|open|popover-open|modal|fullscreen)",
    re.IGNORECASE,
)
_MEDIA_FEATURE: Final[re.Pattern[str]] = re.compile(
    r"\(\s*(min|max)-(width|height)\s*:\s*([\d.]+)\s*(px|em|rem)?\s*\)", re.IGNORECASE
)
_SPEC_ID: Final[re.Pattern[str]] = re.compile(r"#[\w-]+")
_SPEC_CLASS: Final[re.Pattern[str]] = re.compile(
    r"\.[\w-]+|\[[^\]]*\]|:(?!not\(|is\(|where\()[\w-]+"
)
_SPEC_TYPE: Final[re.Pattern[str]] = re.compile(r"(?:^|[\s>+~(,])([a-zA-Z][\w-]*)")
_MAX_RULES: Final[int] = 5000  # rules carrying display/visibility considered per page


@dataclass(frozen=True)
class Rule:
    """One selector with one display or visibility outcome."""

    selector: str
    prop: str  # "display" or "visibility"
    outcome: int
    important: bool
    specificity: tuple[int, int, int]
    order: int


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


def specificity(selector: str) -> tuple[int, int, int]:
    """(ids, classes/attributes/pseudo-classes, types) of one complex selector (approximate:
    the arguments of ``:not()``/``:is()`` count as if written outside)."""
    stripped = re.sub(r"\[[^\]]*\]", "[]", selector)
    ids = len(_SPEC_ID.findall(stripped))
    classes = len(_SPEC_CLASS.findall(stripped))
    types = len([t for t in _SPEC_TYPE.findall(stripped) if t.lower() not in ("not", "is")])
    return (ids, classes, types)


def split_selectors(text: str) -> list[str]:
    """Split a selector list on top-level commas (not those inside ``()`` or ``[]``)."""
    if "(" not in text and "[" not in text and '"' not in text and "'" not in text:
        return [p for p in (part.strip() for part in text.split(",")) if p]
    parts: list[str] = []
    depth = 0
    start = 0
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def _media_applies(query: str, viewport: tuple[float, float]) -> bool:
    """Evaluate a media query list against a screen of ``viewport`` CSS px (unknown -> no)."""
    width, height = viewport
    for alternative in split_selectors(query):
        q = alternative.strip().lower()
        negate = q.startswith("not ")
        if negate:
            q = q[4:]
        q = q.removeprefix("only ").strip()
        ok = True
        media_type = q.split("(", 1)[0].replace(" and", "").strip()
        if media_type and media_type not in ("screen", "all"):
            ok = False
        remainder = _MEDIA_FEATURE.sub("", q)
        if "(" in remainder:  # a feature we do not evaluate (hover, prefers-*, orientation)
            feature = remainder[remainder.index("(") :]
            if re.search(
                r"prefers-color-scheme\s*:\s*light|hover\s*:\s*hover|pointer\s*:\s*fine", feature
            ):
                pass
            elif "orientation" in feature:
                ok = ok and ("landscape" in feature) == (width >= height)
            else:
                ok = False
        for kind, axis, number, unit in _MEDIA_FEATURE.findall(q):
            px = float(number) * (16.0 if unit and unit.lower() in ("em", "rem") else 1.0)
            size = width if axis.lower() == "width" else height
            if kind.lower() == "min" and size < px:
                ok = False
            if kind.lower() == "max" and size > px:
                ok = False
        if ok != negate:
            return True
    return False


_BRACE: Final[re.Pattern[str]] = re.compile(r"[{}]")


def _blocks(css: str) -> Iterator[tuple[str, str]]:
    """Top-level ``(prelude, body)`` pairs of a stylesheet (bodies keep nested blocks)."""
    i = 0
    n = len(css)
    while i < n:
        brace = _prelude_end(css, i)
        if brace < 0:
            return
        semi = css.find(";", i, brace)
        if semi >= 0 and css[i:semi].lstrip().startswith("@"):
            i = semi + 1  # @import / @charset / @layer a, b;
            continue
        depth = 1
        j = n
        for match in _BRACE.finditer(css, brace + 1):
            if match.group() == "{":
                depth += 1
            else:
                depth -= 1
                if not depth:
                    j = match.end()
                    break
        yield css[i:brace].strip(), css[brace + 1 : j - 1]
        i = j


def _prelude_end(css: str, i: int) -> int:
    """Index of the ``{`` that opens the block of the rule starting at ``i`` (-1: none).

    CSS Syntax 3 §5.4.3 and §5.4.8: a prelude's ``(`` and ``[`` open simple blocks that run
    to their matching close, and a ``{`` inside one (or inside a string) opens nothing. So a
    sheet wrapped in ``<![CDATA[ ... ]]>`` is one prelude without a block, and browsers drop
    all of it. The common prelude has balanced brackets and no quotes: one ``find``.
    """
    brace = css.find("{", i)
    if brace < 0:
        return -1
    head = css[i:brace]
    if (
        head.count("[") == head.count("]")
        and head.count("(") == head.count(")")
        and '"' not in head
        and "'" not in head
    ):
        return brace
    closing = {"[": "]", "(": ")"}
    stack: list[str] = []
    quote = ""
    j = i
    n = len(css)
    while j < n:
        ch = css[j]
        if quote:
            if ch == "\\":
                j += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in closing:
            stack.append(closing[ch])
        elif stack and ch == stack[-1]:
            stack.pop()
        elif ch == "{" and not stack:
            return j
        j += 1
    return -1


def parse_rules(
    sheets: Iterable[str], viewport: tuple[float, float]
) -> list[tuple[str, str, str, bool]]:
    """``(selector_list, property, value, important)`` for display/visibility declarations."""
    found: list[tuple[str, str, str, bool]] = []

    def walk(css: str, level: int) -> None:
        for prelude, body in _blocks(css):
            if len(found) >= _MAX_RULES:
                return
            if prelude.startswith("@"):
                lowered = prelude.lower()
                if level > 8:
                    continue
                if lowered.startswith("@media"):
                    if _media_applies(prelude[6:], viewport):
                        walk(body, level + 1)
                elif lowered.startswith(("@supports", "@layer", "@container", "@scope")):
                    walk(body, level + 1)
                continue  # @font-face, @keyframes, @page ...
            if "{" in body:  # CSS nesting: not resolved; the outer declarations still count
                body = re.sub(r"[^;{}]*\{[^{}]*\}", "", body)
            if ("content" in body and ":before" in prelude) or ":after" in prelude:
                value = _content_value(body)
                if value is not None:
                    found.append((prelude, "content", value, False))
            if "display" not in body and "visibility" not in body and "transform" not in body:
                continue
            for prop, value, important in _DECL.findall(body):
                found.append((prelude, prop.lower(), value, bool(important)))

    for sheet in sheets:
        walk(_COMMENT.sub("", sheet), 0)
    return found


_CONTENT_DECL: Final[re.Pattern[str]] = re.compile(
    r"""(?:^|;)\s*content\s*:((?:[^;"']|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')*)""",
    re.IGNORECASE,
)
_CONTENT_TOKEN: Final[re.Pattern[str]] = re.compile(
    r""""((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|attr\(\s*([\w-]+)\s*\)|(/)|([\w-]+\([^)]*\)|[\w-]+)"""
)
_ESCAPE: Final[re.Pattern[str]] = re.compile(r"\\([0-9a-fA-F]{1,6})\s?|\\(.)", re.DOTALL)


def _content_value(body: str) -> str | None:
    """The last ``content`` declaration of a rule body, raw (None if there is none)."""
    found = _CONTENT_DECL.findall(body)
    return found[-1].strip() if found else None


def _unescape(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        if match.group(1):
            code = int(match.group(1), 16)
            return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else ""
        return match.group(2)

    return _ESCAPE.sub(one, text)


def content_text(value: str, attrs: dict[str, str]) -> str | None:
    """Text of a ``content`` value for one element (CSS Generated Content §2).

    Strings and ``attr()`` concatenate; counters, quotes and images contribute nothing; the
    alternative text after ``/`` replaces the rest when present; ``none``/``normal`` mean
    no pseudo-element at all (None).
    """
    if value.strip().lower() in ("none", "normal", "", "initial", "inherit", "unset"):
        return None
    main: list[str] = []
    alt: list[str] | None = None
    for dq, sq, attr, slash, _other in _CONTENT_TOKEN.findall(value):
        if slash:
            alt = []
            continue
        target = main if alt is None else alt
        if dq or sq:
            target.append(_unescape(dq or sq))
        elif attr:
            target.append(attrs.get(attr.lower(), ""))
    return "".join(alt if alt is not None else main)


def _style_sheets(doc: Document) -> list[str]:
    sheets = []
    for i, tag in enumerate(doc.tags):
        if tag == "style" and not _in_noscript(doc, i):
            media = doc.attrs[i].get("media")
            if media and not _media_applies(media, (1280.0, 800.0)):
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
    for i, attrs in enumerate(doc.attrs):
        style = attrs.get("style") if attrs else None
        if not style or (
            "display" not in style and "visibility" not in style and "transform" not in style
        ):
            continue
        for prop, value, _important in _DECL.findall(style):
            prop = prop.lower()
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
        raw = parse_rules(sheets, viewport)
        rules = _compile([r for r in raw if r[1] != "content"], doc)
        _apply_rules(doc, rules, display, visibility, transform, important)
        content_rules = [r for r in raw if r[1] == "content"]
        if content_rules:
            _pseudo_content(doc, content_rules, before, after)
    _inline(doc, display, visibility, transform, content_hidden, important)
    return Styles(display, visibility, content_hidden, before, after, transform)


def _compile(raw: list[tuple[str, str, str, bool]], doc: Document) -> list[Rule]:
    """Rules with a known outcome, one per selector Lexbor can parse (checked on a one-element
    document, so an unsupported selector never forces the page's grouped queries apart)."""
    rules: list[Rule] = []
    probe = doc.parser.__class__("<p></p>").root
    valid: dict[str, bool] = {}
    for order, (prelude, prop, value, important) in enumerate(raw):
        if prop == "display":
            outcome = _display_outcome(value)
        elif prop == "visibility":
            outcome = _visibility_outcome(value)
        else:
            outcome = _TRANSFORMS.get(value.strip().lower(), T_UNSET)
        if prop == "content-visibility" or not outcome:
            continue
        for selector in split_selectors(prelude):
            if _DYNAMIC.search(selector):
                continue
            ok = valid.get(selector)
            if ok is None:
                try:
                    probe.css_matches(selector)
                    ok = True
                except Exception:  # Lexbor: unparsable selector
                    ok = False
                valid[selector] = ok
            if ok:
                rules.append(Rule(selector, prop, outcome, important, specificity(selector), order))
    return rules


def _apply_rules(
    doc: Document,
    rules: list[Rule],
    display: list[int],
    visibility: list[int],
    transform: list[int],
    important: dict[int, set[str]],
) -> None:
    """Run each outcome's selectors once; settle elements claimed twice by the cascade."""
    for prop, target in (
        ("display", display), ("visibility", visibility), ("text-transform", transform)
    ):  # fmt: skip
        mine = [r for r in rules if r.prop == prop]
        if not mine:
            continue
        claims: dict[int, set[int]] = {}
        for outcome in sorted({r.outcome for r in mine}):
            group = [r.selector for r in mine if r.outcome == outcome]
            for element in _query(doc, group):
                claims.setdefault(element, set()).add(outcome)
        contested = [e for e, outcomes in claims.items() if len(outcomes) > 1]
        for element, outcomes in claims.items():
            if len(outcomes) == 1:
                target[element] = next(iter(outcomes))
        if contested:
            _cascade(doc, mine, contested, target)
        strong = [r.selector for r in mine if r.important]
        if strong:  # an !important author declaration beats inline style
            for element in _query(doc, strong):
                important.setdefault(element, set()).add(prop)


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


def _cascade(doc: Document, rules: list[Rule], elements: list[int], target: list[int]) -> None:
    """Resolve elements claimed by several outcomes: test the rules that can match each
    (bucketed by key selector), keep the winner by importance, specificity and order."""
    buckets: dict[tuple[str, str], list[Rule]] = {}
    for rule in rules:
        buckets.setdefault(_rule_key(rule.selector), []).append(rule)
    for element in elements:
        node = doc.nodes[element]
        best: tuple[bool, tuple[int, int, int], int] | None = None
        outcome = 0
        for rule in _candidates(doc, element, buckets):
            key = (rule.important, rule.specificity, rule.order)
            if best is not None and key <= best:
                continue
            try:
                hit = node.css_matches(rule.selector)
            except Exception:  # Lexbor: unparsable selector
                hit = False
            if hit:
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


def _pseudo_content(
    doc: Document,
    raw: list[tuple[str, str, str, bool]],
    before: dict[int, str],
    after: dict[int, str],
) -> None:
    """``::before``/``::after`` text per element: rules bucketed by their key selector, so
    each element is tested only against the rules that can match it."""
    buckets: dict[tuple[str, str], list[tuple[str, str, str, tuple[int, int, int], int]]] = {}
    for order, (prelude, _prop, value, _imp) in enumerate(raw):
        for selector in split_selectors(prelude):
            end = _PSEUDO_END.search(selector)
            if end is None:
                continue
            base = selector[: end.start()].strip() or "*"
            if _DYNAMIC.search(base):
                continue
            spec = specificity(base)
            buckets.setdefault(_rule_key(base), []).append(
                (end.group(1).lower(), base, value, spec, order)
            )
    if not buckets:
        return
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
        node = doc.nodes[i]
        best: dict[str, tuple[tuple[int, int, int], int, str]] = {}
        for which, base, value, spec, order in candidates:
            current = best.get(which)
            if current is not None and (spec, order) <= current[:2]:
                continue
            try:
                if not node.css_matches(base):
                    continue
            except Exception:  # Lexbor: unparsable selector
                continue
            best[which] = (spec, order, value)
        for which, (_spec, _order, value) in best.items():
            text = content_text(value, attrs or {})
            if text is not None:
                (before if which == "before" else after)[i] = text
