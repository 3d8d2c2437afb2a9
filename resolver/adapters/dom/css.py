"""The page's stylesheets read with a CSS parser (``tinycss2``), for the few properties the
DOM source uses.

Only declarations of :data:`PROPERTIES` matter (whether an element renders, is a block, is
hidden, is transformed, and what ``::before``/``::after`` add). A whole stylesheet through
``tinycss2.parse_stylesheet`` costs close to a second on a news page with 600 KB of CSS, so
the parser is given only the parts that can hold such a declaration:

1. a pre-pass blanks out comments, strings, escapes and unquoted ``url()`` (same length, so
   positions still hold) and finds the block structure from the braces that remain;
2. every block with a candidate declaration (a property name of :data:`PROPERTIES` followed
   by ``:``, or an escape, which could spell one) is parsed by tinycss2: its declarations
   with ``parse_blocks_contents``, its selector and the preludes of the at-rules around it
   with ``parse_component_value_list``;
3. given the page's :class:`Subjects` (its tags, classes and ids), a style rule none of
   whose selectors can select anything on the page is skipped before step 2: every selector
   has a compound that needs a tag, class or id the page does not have. Frameworks ship
   thousands of rules for classes a page never uses, and this test is a few microseconds
   where tinycss2 spends tens per selector or declaration.

The pre-pass cannot tell a ``{`` inside a ``(``/``[`` block of a prelude from one that opens
a rule (CSS Syntax 3 §5.4.8), nor does it close brackets left open at the end. When a
stylesheet has either (brackets around a brace or semicolon, unbalanced brackets, or a
``}`` that closes no block), the whole stylesheet goes through ``tinycss2.parse_stylesheet``
instead. Blocks left open at the end close there, as the tokenizer closes them at the end
of the input.

At-rules: ``@media`` is evaluated against the viewport; ``@supports`` is assumed true;
``@container`` and ``@scope`` are entered (their conditions are not evaluated); ``@layer``
blocks and statements give cascade layers (CSS Cascade 5 §6.4: later layers win, a layer's
own rules beat its sub-layers, unlayered rules beat every layer; for ``!important`` the
order reverses). Other at-rules (``@font-face``, ``@keyframes``, ``@page`` ...) hold no
element styles. Style rules nested inside style rules (CSS Nesting) are not resolved.

Specificity follows Selectors Level 4 §17 on the tinycss2 tokens of each selector.
"""

from __future__ import annotations

import math
import re
import string
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain
from typing import Any, Final

import numpy as np
import tinycss2
from tinycss2 import ast

__all__ = [
    "MAX_MATCH_COST",
    "PROPERTIES",
    "Declaration",
    "MatchCost",
    "Selector",
    "Subjects",
    "media_applies",
    "read_sheets",
    "selectors",
    "specificity",
]

PROPERTIES: Final[frozenset[str]] = frozenset(
    {"display", "visibility", "content-visibility", "text-transform", "content"}
)
"""The properties the DOM source reads; declarations of any other are skipped unparsed."""
MAX_DECLARATIONS: Final[int] = 5000
"""Declarations of :data:`PROPERTIES` read per page (the rest are ignored)."""
MAX_NESTING: Final[int] = 8
"""At-rules nested deeper than this are not entered."""
UNLAYERED: Final[str] = ""
"""The layer name of rules outside any ``@layer``."""

Specificity = tuple[int, int, int]


@dataclass(frozen=True)
class Selector:
    """One complex selector of a rule: its text (comments dropped) and specificity."""

    text: str
    specificity: Specificity


@dataclass(frozen=True)
class Declaration:
    """One declaration of a :data:`PROPERTIES` property in a style rule that applies."""

    selectors: tuple[Selector, ...]
    prop: str
    """Lower-case property name."""
    value: str
    """The value as tinycss2 serialises it (comments dropped, ends stripped)."""
    important: bool
    layer: int
    """Cascade layer rank: higher wins for normal declarations (unlayered is highest)."""
    order: int
    """Position in the page's stylesheets."""


# Comments (an unclosed one runs to the end), strings (an unescaped newline ends one),
# escapes, unquoted url() tokens: blanked by the pre-pass. Runs of plain characters are
# taken whole and never given back (possessive): a long string (a data URI) is one step for
# the engine, and no shorter match could end inside a run.
_OPAQUE: Final[re.Pattern[str]] = re.compile(
    r"/\*[^*]*+(?:\*(?!/)[^*]*+)*+(?:\*/|\Z)"
    r"|\"[^\"\\\n]*+(?:\\.[^\"\\\n]*+)*+(?:\"|$)"
    r"|'[^'\\\n]*+(?:\\.[^'\\\n]*+)*+(?:'|$)"
    r"|\\."
    r"|u[rR][lL]\(\s*[^\s\"'()\\]*\s*\)"
    r"|U[rR][lL]\(\s*[^\s\"'()\\]*\s*\)",
    re.DOTALL | re.MULTILINE,
)  # (every alternative starts with a literal, so the engine skips ahead to those characters)
_LEADING_SPACES: Final[re.Pattern[str]] = re.compile(r"[ \t\n\r\f]*+")  # (always matches)
_ESCAPED: Final[str] = "\x00"  # what an escape is blanked to (it may spell a property)
_CANDIDATES: Final[tuple[tuple[bytes, re.Pattern[bytes] | None], ...]] = tuple(
    (word, re.compile(pattern) if pattern else None)
    for word, pattern in (
        (b"display", rb"display\s*:"), (b"visibility", rb"visibility\s*:"),
        (b"text-transform", rb"text-transform\s*:"), (b"content", rb"content\s*:"),
        (b"\x00", None), (b"@layer", rb"@layer\b"),
    )
)  # fmt: skip
"""Where a declaration of :data:`PROPERTIES` (or an escape, or ``@layer``) may start, on
ASCII-lowered latin-1 bytes (one per character; IGNORECASE is several times slower): each
word, and the pattern that must match where it is (None: the word alone). No two can match
overlapping text, nor can one match overlap another match of itself. No word of a
property's name ends another (``visibility`` also ends ``content-visibility``), so a colon
follows at most one of them."""
_NAMES: Final[tuple[bytes, ...]] = tuple(word for word, _ in _CANDIDATES[:4])
_LARGE_SHEET: Final[int] = 65536
"""From this many characters, :func:`_candidate_starts` looks at the colons (numpy) rather
than searching for each word (the fixed cost of the numpy calls is then the smaller)."""
_LAYER: Final[re.Pattern[bytes]] = re.compile(rb"@layer\b")
_BYTE_SPACES: Final[bytes] = b" \t\n\r\f\v"  # (what \s matches in a bytes pattern)
_IS_BYTE_SPACE: Final[Any] = np.zeros(256, dtype=bool)
_IS_BYTE_SPACE[list(_BYTE_SPACES)] = True
_ASCII_WS: Final[re.Pattern[str]] = re.compile(r"[ \t\n\r\f]+")
_WORDS_WORTH_READING: Final[tuple[str, ...]] = (
    "display", "visibility", "text-transform", "content", "@layer"
)  # fmt: skip


def _worth_reading(sheet: str) -> bool:
    """Whether a sheet names a property of :data:`PROPERTIES` (any case) or ``@layer``, or
    holds an escape (which could spell one): a few scans in C of its lower-cased text."""
    if "\\" in sheet:
        return True
    lowered = sheet.lower()
    return any(word in lowered for word in _WORDS_WORTH_READING)


def read_sheets(
    sheets: Iterable[str], viewport: tuple[float, float], subjects: Subjects | None = None
) -> list[Declaration]:
    """The declarations of :data:`PROPERTIES` in style rules that apply, in cascade order
    of appearance, with their layer ranks.

    With ``subjects``, rules that cannot select any element of that page are left out (see
    :meth:`Subjects.may_match`); the declarations that can apply are the same.
    """
    sheets = [sheet for sheet in sheets if _worth_reading(sheet)]
    reader = _read(sheets, viewport, subjects)
    if subjects is not None and len(reader.found) + reader.skipped >= MAX_DECLARATIONS:
        # The skipped rules could have counted towards the limit: read as without subjects,
        # so the same declarations are cut.
        reader = _read(sheets, viewport, None)
    ranks = _layer_ranks(reader.layers)
    found = reader.found[:MAX_DECLARATIONS]
    return [
        Declaration(sel, prop, value, important, ranks[layer], order)
        for order, (sel, prop, value, important, layer) in enumerate(found)
    ]


def _read(sheets: list[str], viewport: tuple[float, float], subjects: Subjects | None) -> _Reader:
    reader = _Reader(viewport, subjects)
    for sheet in sheets:
        if len(reader.found) >= MAX_DECLARATIONS:
            break
        reader.read(sheet)
    return reader


_Found = tuple[tuple[Selector, ...], str, str, bool, str]
_UNSEEN: Final[Any] = object()


class _Reader:
    """Reads stylesheets one by one into ``found`` (declarations) and ``layers`` (layer
    names in order of first appearance); ``skipped`` bounds the declarations of the rules
    left out because they cannot select anything in ``subjects``."""

    def __init__(self, viewport: tuple[float, float], subjects: Subjects | None = None) -> None:
        self.viewport = viewport
        self.subjects = subjects
        self.found: list[_Found] = []
        self.layers: list[str] = []
        self.skipped = 0
        self._anonymous = 0
        # Within one read, the same selector list or declaration text gives the same result
        # (frameworks repeat ``display:none`` hundreds of times): each is parsed once.
        self._selectors: dict[str, tuple[Selector, ...]] = {}
        self._values: dict[str, tuple[str, str, bool] | None] = {}
        # (prelude, layer outside) -> layer inside, for at-rules that declare nothing
        # (the same @media query opens hundreds of blocks in a framework's sheet).
        self._conditions: dict[tuple[str, str], str | None] = {}

    def read(self, sheet: str) -> None:
        """Read one stylesheet (the fast path when its structure is plain, see module doc)."""
        blanked, lowered = blank_opaque(sheet)
        plan = _Structure.of(blanked, lowered)
        if plan is not None and plan.closed_after and b"@layer" in lowered:
            # (the parser's: the fast path declares an @layer statement that sits inside a
            # prelude, where it declares nothing)
            plan = None
        if plan is None:
            if not _opens_a_rule(blanked):
                return  # e.g. a sheet wrapped in <![CDATA[ ... ]]>: one prelude, no rules
            rules = tinycss2.parse_stylesheet(sheet, skip_comments=True, skip_whitespace=True)
            self._walk(rules, 0, UNLAYERED)
            return
        self._read_plain(sheet, blanked, lowered, plan)

    # -- fast path ---------------------------------------------------------------------------

    def _read_plain(self, sheet: str, blanked: str, lowered: bytes, plan: _Structure) -> None:
        # Per enclosing block: None when its rules do not apply, else the layer inside it.
        contexts: dict[int, str | None] = {-1: UNLAYERED}
        done: set[int] = set()
        hits = _candidate_starts(lowered)
        for at in hits:
            if blanked[at] == "@":  # @layer: a statement or a block, declares layers in order
                end = plan.prelude_end(at)
                if end >= 0 and blanked[end] == "{":
                    self._context(sheet, plan, end, contexts)
                    continue
                layer = self._context(sheet, plan, plan.enclosing(at), contexts)
                if layer is not None:
                    prelude = _tokens(sheet[at:end] if end >= 0 else sheet[at:])
                    for name in _layer_names(prelude[1:]):
                        self._declare(_join(layer, name))
                continue
            block = plan.enclosing(at)
            if block < 0 or block in done:
                continue
            done.add(block)
            start = plan.prelude_start(block)
            if blanked[start:block].lstrip().startswith("@"):
                continue  # @font-face, @page ...: no element styles
            layer = self._context(sheet, plan, plan.parent(block), contexts)
            if layer is None:
                continue
            close = plan.close(block)
            nested = blanked.find("{", block + 1, close) >= 0
            if (
                not nested
                and self.subjects is not None
                and not self.subjects.may_match(blanked[start:block], sheet, start)
            ):
                # (at most one declaration per ";" and one after the last)
                self.skipped += blanked.count(";", block + 1, close) + 1
                continue
            pieces = _pieces(sheet, blanked, block + 1, close)
            if pieces is None:  # nested rules: the block is parsed whole
                body = _blocks_contents(sheet[block + 1 : close])
                if body:
                    self._rule(_tokens(sheet[start:block]), body, layer)
            elif pieces:
                self._plain_rule(sheet[start:block], pieces, layer)

    def _context(
        self, sheet: str, plan: _Structure, block: int, contexts: dict[int, str | None]
    ) -> str | None:
        """The layer inside ``block`` (-1: the top level), None when its rules do not apply
        (a false ``@media``, an at-rule without element styles, a style rule: nesting)."""
        if block in contexts:
            return contexts[block]
        chain = []
        while block not in contexts:
            chain.append(block)
            block = plan.parent(block)
        layer = contexts[block]
        for inner in reversed(chain):
            if layer is not None and plan.depth(inner) > MAX_NESTING:
                layer = None
            elif layer is not None:
                text = sheet[plan.prelude_start(inner) : inner]
                known = self._conditions.get((text, layer), _UNSEEN)
                if known is not _UNSEEN:
                    layer = known
                else:
                    prelude = _tokens(text)
                    head = prelude[0] if prelude else None
                    if not isinstance(head, ast.AtKeywordToken):
                        inside = None
                    else:
                        inside = self._enter(head.lower_value, prelude[1:], layer)
                    if not isinstance(head, ast.AtKeywordToken) or head.lower_value != "layer":
                        self._conditions[(text, layer)] = inside  # (@layer declares: not kept)
                    layer = inside
            contexts[inner] = layer
        return layer

    # -- slow path ---------------------------------------------------------------------------

    def _walk(self, rules: Sequence[Any], level: int, layer: str) -> None:
        for rule in rules:
            if len(self.found) >= MAX_DECLARATIONS:
                return
            if isinstance(rule, ast.QualifiedRule):
                self._rule(_clean(rule.prelude), _blocks_contents(rule.content), layer)
            elif isinstance(rule, ast.AtRule) and level < MAX_NESTING:
                if rule.content is None:
                    if rule.lower_at_keyword == "layer":
                        for name in _layer_names(_clean(rule.prelude)):
                            self._declare(_join(layer, name))
                    continue
                inner = self._enter(rule.lower_at_keyword, _clean(rule.prelude), layer)
                if inner is not None:
                    content = tinycss2.parse_rule_list(
                        rule.content, skip_comments=True, skip_whitespace=True
                    )
                    self._walk(content, level + 1, inner)

    # -- shared ------------------------------------------------------------------------------

    def _enter(self, keyword: str, prelude: list[Any], layer: str) -> str | None:
        """The layer inside an at-rule's block, None when the block holds no rules that
        apply here."""
        if keyword == "media":
            return layer if _media_list_applies(prelude, self.viewport) else None
        if keyword == "layer":
            names = _layer_names(prelude)
            if names:
                name = _join(layer, names[0])
            else:
                self._anonymous += 1
                name = _join(layer, f"\x00{self._anonymous}")
            self._declare(name)
            return name
        if keyword in ("supports", "container", "scope"):
            return layer
        return None

    def _declare(self, name: str) -> None:
        if name not in self.layers:
            self.layers.append(name)

    def _plain_rule(self, prelude: str, pieces: list[str], layer: str) -> None:
        """One style rule of the fast path: ``pieces`` are its candidate declarations."""
        values = self._values
        declared = []
        for piece in pieces:
            if piece in values:
                value = values[piece]
            else:
                value = values[piece] = _plain_declaration(piece) or _declaration(
                    tinycss2.parse_one_declaration(piece, True)
                )
            if value is not None:
                declared.append(value)
        if not declared:
            return
        found = self._selectors.get(prelude)
        if found is None:
            simple = _simple_selectors(prelude)
            found = simple if simple is not None else tuple(selectors(_tokens(prelude)))
            self._selectors[prelude] = found
        if not found:
            return
        for prop, value_text, important in declared:
            self.found.append((found, prop, value_text, important, layer))

    def _rule(self, prelude: list[Any], body: Sequence[Any], layer: str) -> None:
        """One style rule: keep its declarations of :data:`PROPERTIES`."""
        declared = [fact for node in body if (fact := _declaration(node)) is not None]
        if not declared:
            return
        found = tuple(selectors(prelude))
        if not found:
            return
        for prop, value, important in declared:
            self.found.append((found, prop, value, important, layer))


def _candidate_starts(lowered: bytes) -> list[int]:
    """Where the patterns of :data:`_CANDIDATES` match, in order (what ``finditer`` of each
    finds): each word is found by ``bytes.find``, a substring search that skips ahead, and
    its pattern is tried there; in a large sheet, see :func:`_candidates_at_marks`."""
    if len(lowered) >= _LARGE_SHEET:
        return _candidates_at_marks(lowered)
    hits = []
    for word, pattern in _CANDIDATES:
        at = lowered.find(word)
        while at >= 0:
            if pattern is None or pattern.match(lowered, at):
                hits.append(at)
            at = lowered.find(word, at + 1)
    hits.sort()
    return hits


def _candidates_at_marks(lowered: bytes) -> list[int]:
    """:func:`_candidate_starts` from the positions of every ``:``, ``@`` and NUL (one numpy
    pass): the name before each colon (spaces skipped) is compared with :data:`_NAMES` at
    those positions only, rather than each word being searched for through the text (a
    framework's sheet names ``display`` and ``content`` thousands of times)."""
    codes = np.frombuffer(lowered, dtype=np.uint8)
    marks = np.flatnonzero((codes == 58) | (codes == 64) | (codes == 0))  # : @ NUL
    kinds = codes[marks]
    hits: list[int] = marks[kinds == 0].tolist()
    hits += [at for at in marks[kinds == 64].tolist() if _LAYER.match(lowered, at)]
    colons = marks[(kinds == 58) & (marks > 0)]
    ends = colons - 1  # where the name before each colon ends (inclusive)
    spaced = _IS_BYTE_SPACE[codes[ends]]
    if spaced.any():
        ends[spaced] = [_name_end(lowered, colon) for colon in colons[spaced].tolist()]
    for name in _NAMES:
        size = len(name)
        at = ends[ends >= size - 1]
        for back in range(size):
            if not at.size:
                break
            at = at[codes[at - back] == name[size - 1 - back]]
        hits += (at - (size - 1)).tolist()
    hits.sort()
    return hits


def _name_end(lowered: bytes, colon: int) -> int:
    """The last position before ``colon`` that is not ASCII whitespace (-1: none). The text
    before it is looked at in windows that double, so a long run costs its length once."""
    width = 16
    while True:
        start = max(0, colon - width)
        kept = len(lowered[start:colon].rstrip(_BYTE_SPACES))
        if kept or not start:
            return start + kept - 1
        width *= 2


def _blocks_contents(content: str | Sequence[Any]) -> list[Any]:
    result: list[Any] = tinycss2.parse_blocks_contents(
        content, skip_comments=True, skip_whitespace=True
    )
    return result


def _pieces(sheet: str, blanked: str, start: int, end: int) -> list[str] | None:
    """The texts of the declarations of a style rule's block that may set one of
    :data:`PROPERTIES`; None for a block with nested rules (it is parsed whole).

    In a block without nested rules every top-level ``;`` ends a declaration (the pre-pass
    has checked that none sits inside brackets, strings are blanked), so the block is cut
    there and only the declarations whose name is one of :data:`PROPERTIES`, or holds an
    escape, are kept.
    """
    text = blanked[start:end]
    if "{" in text:
        return None
    found = []
    at = start
    for piece in text.split(";"):
        name = piece.partition(":")[0].strip().lower()
        if name in PROPERTIES or _ESCAPED in name:
            found.append(sheet[at : at + len(piece)])
        at += len(piece) + 1
    return found


_PLAIN_DECLARATION: Final[re.Pattern[str]] = re.compile(
    r"[ \t\n\r\f]*([A-Za-z-]+)[ \t\n\r\f]*:[ \t\n\r\f]*([A-Za-z][A-Za-z0-9-]*)[ \t\n\r\f]*"
    r"(![ \t\n\r\f]*(?i:important)[ \t\n\r\f]*)?"
)
"""A declaration of one keyword, ``!important`` or not, with nothing else (no comment,
escape, string or function)."""


def _plain_declaration(piece: str) -> tuple[str, str, bool] | None:
    """:func:`_declaration` of a piece :data:`_PLAIN_DECLARATION` matches, read without
    tinycss2 (which gives the same: the name lower-cased, the keyword as written, whether
    ``!important`` ends it); None for any other piece."""
    plain = _PLAIN_DECLARATION.fullmatch(piece)
    if plain is None:
        return None
    name = plain.group(1).lower()
    return (name, plain.group(2), plain.group(3) is not None) if name in PROPERTIES else None


def _declaration(node: Any) -> tuple[str, str, bool] | None:
    """Property, value text and importance of a parsed declaration of :data:`PROPERTIES`."""
    if not isinstance(node, ast.Declaration) or node.lower_name not in PROPERTIES:
        return None
    value = tinycss2.serialize(_strip_comments(node.value)).strip()
    return node.lower_name, value, node.important


_NOT_BRACKET: Final[re.Pattern[str]] = re.compile(r"[^{}()\[\]]+")
_OPENER: Final[dict[str, str]] = {"}": "{", ")": "(", "]": "["}


def _opens_a_rule(blanked: str) -> bool:
    """Whether any ``{`` of a blanked sheet is outside every ``(``/``[`` block (CSS Syntax 3
    §5.4.8: a block runs to its own closing bracket; other closing brackets inside it are
    ordinary tokens)."""
    stack: list[str] = []
    brackets = 0
    for char in _NOT_BRACKET.sub("", blanked):  # (the brackets alone, in order)
        if char in "{([":
            if char == "{":
                if not brackets:
                    return True
            else:
                brackets += 1
            stack.append(char)
        elif stack and stack[-1] == _OPENER[char]:
            brackets -= stack.pop() != "{"
    return False


_URL_SPACES: Final[str] = "".join(chr(c) for c in range(128) if re.match(r"\s", chr(c)))
"""The ASCII characters ``\\s`` matches (those ``str.strip`` removes from ASCII text)."""
_URL_ALLOWED: Final[bytes] = bytes(
    c for c in range(128) if re.match(r"[^\s\"'()\\]", chr(c))
)  # (the ASCII characters that may stand inside an unquoted url(), past its spaces)


def _url_end(sheet: str, start: int) -> int:
    """Where the match of :data:`_OPAQUE` at ``start`` (``url(`` in any case) ends, or -1
    if there is none, or -2 when not decided here (non-ASCII contents: ask the pattern).

    Nothing the pattern allows inside is a ``)``, so only the first one after ``url(`` can
    close it; the contents then match if, past leading and trailing spaces, they hold no
    space, quote, parenthesis or backslash, which one C call over the bytes tells."""
    close = sheet.find(")", start + 4)
    if close < 0:
        return -1
    inner = sheet[start + 4 : close]
    if not inner.isascii():
        return -2
    rest = inner.strip(_URL_SPACES).encode("ascii").translate(None, _URL_ALLOWED)
    return -1 if rest else close + 1


def _string_end(sheet: str, start: int) -> int:
    """Where the match of :data:`_OPAQUE` at ``start`` (a quote) ends, or -2 when not
    decided here (an escape or a newline before the closing quote: ask the pattern).

    Without those, the string runs to the first closing quote, or to the end of the text."""
    close = sheet.find(sheet[start], start + 1)
    stop = close if close >= 0 else len(sheet)
    if sheet.find("\\", start + 1, stop) >= 0 or sheet.find("\n", start + 1, stop) >= 0:
        return -2
    return stop + 1 if close >= 0 else stop


def blank_opaque(sheet: str) -> tuple[str, bytes]:
    """``sheet`` with every match of :data:`_OPAQUE` blanked (escapes to :data:`_ESCAPED`,
    the rest to spaces; same length), and that text as ASCII-lowered latin-1 bytes (one byte
    per character, ``?`` for the others).

    The same as ``_OPAQUE.sub`` from left to right, but the pattern is tried only where one
    of its alternatives can start (a quote, a backslash, ``/*``, ``url(`` in any case),
    positions found with numpy over the bytes, instead of at every character; and most
    strings and ``url()``s are measured with string searches (:func:`_string_end`,
    :func:`_url_end`) instead."""
    lowered = sheet.encode("latin-1", "replace").lower()
    codes = np.frombuffer(lowered, dtype=np.uint8)
    starts = (codes == 34) | (codes == 39) | (codes == 92)  # quotes, backslash
    starts[:-1] |= (codes[:-1] == 47) & (codes[1:] == 42)  # /*
    starts[:-3] |= (
        (codes[:-3] == 117) & (codes[1:-2] == 114) & (codes[2:-1] == 108) & (codes[3:] == 40)
    )  # url(
    pieces: list[str] = []
    painted: list[bytes] = []  # (the same pieces, of ``lowered``)
    at = 0
    for start in np.flatnonzero(starts).tolist():
        if start < at:
            continue
        first = sheet[start]
        end = (
            _url_end(sheet, start)
            if first in "uU"
            else _string_end(sheet, start)
            if first in "\"'"
            else -2
        )
        if end == -2:
            found = _OPAQUE.match(sheet, start)
            if found is None:
                continue
            end = found.end()
        elif end < 0:
            continue
        escape = sheet[start] == "\\"
        pieces.append(sheet[at:start])
        pieces.append((_ESCAPED if escape else " ") * (end - start))
        painted.append(lowered[at:start])
        painted.append((b"\x00" if escape else b" ") * (end - start))
        at = end
    if not pieces:
        return sheet, lowered
    pieces.append(sheet[at:])
    painted.append(lowered[at:])
    return "".join(pieces), b"".join(painted)


_SMALL_STRUCTURE: Final[int] = 512
"""Up to this many braces, a sheet's blocks are listed by a loop rather than numpy."""


class _Structure:
    """Block structure of a blanked stylesheet: where each ``{`` closes (a block open at the
    end closes after the text), its parent."""

    __slots__ = ("_braces", "_closes", "_depth", "_opens", "_text", "closed_after")

    def __init__(self, text: str, braces: Any, depth: Any) -> None:
        self._text = text
        # Positions of every "{" and "}" in order, and the blocks open after each of them.
        # Kept as lists: one lookup is a bisect, far cheaper than a numpy call on a scalar.
        self._braces: list[int] = braces.tolist()
        self._depth: list[int] = depth.tolist()
        self.closed_after = self._braces[-1] >= len(text)
        """Whether blocks open at the end are closed after the text."""
        # depth inside -> the "{" opening such blocks; depth outside -> the "}" closing them
        self._opens: dict[int, list[int]] = {}
        self._closes: dict[int, list[int]] = {}
        if len(self._braces) <= _SMALL_STRUCTURE:  # (a loop is cheaper than numpy's calls)
            previous = 0
            for position, level in zip(self._braces, self._depth, strict=True):
                blocks = self._opens if level > previous else self._closes
                blocks.setdefault(level, []).append(position)
                previous = level
            return
        is_open = depth > np.concatenate(([0], depth[:-1]))
        at_open, at_close = braces[is_open], braces[~is_open]
        inside, outside = depth[is_open], depth[~is_open]
        # Depth moves by one at each brace and ends at 0, so a deepest level M has opens at
        # every level 1..M and closes back to every level 0..M-1.
        top = int(depth.max())
        self._opens = {d: at_open[inside == d].tolist() for d in range(1, top + 1)}
        self._closes = {d: at_close[outside == d].tolist() for d in range(top)}

    @classmethod
    def of(cls, text: str, encoded: bytes | None = None) -> _Structure | None:
        """The structure, or None when the pre-pass cannot vouch for it (see module doc).
        ``encoded``: the text as latin-1 bytes, one per character (ASCII case aside).

        Only the positions of brackets, braces and semicolons are looked at (numpy over the
        characters once, then arrays as long as those lists)."""
        if encoded is None:
            encoded = text.encode("latin-1", "replace")
        codes = np.frombuffer(encoded, dtype=np.uint8)
        marks = (codes == 123) | (codes == 125) | (codes == 59)  # { } ;
        marks |= (codes == 40) | (codes == 41) | (codes == 91) | (codes == 93)  # ( ) [ ]
        found = np.flatnonzero(marks)
        kinds = codes[found]
        is_brace = (kinds == 123) | (kinds == 125)
        braces = found[is_brace]
        if braces.size == 0:
            return None
        depth = np.cumsum(np.where(kinds[is_brace] == 123, 1, -1))
        if depth.min() < 0:
            return None
        if depth[-1]:  # blocks open at the end: closed by "}"s after the text
            unclosed = int(depth[-1])
            braces = np.concatenate((braces, np.arange(len(text), len(text) + unclosed)))
            depth = np.concatenate((depth, np.arange(unclosed - 1, -1, -1)))
        is_bracket = (kinds != 59) & ~is_brace
        brackets = found[is_bracket]
        if brackets.size:
            opens = kinds[is_bracket]
            level = np.cumsum(np.where((opens == 40) | (opens == 91), 1, -1))
            if level.min() < 0 or level[-1] != 0:
                return None
            # no { } ; inside brackets
            stops = found[~is_bracket]  # { } ;
            before = np.searchsorted(brackets, stops) - 1
            if (level[before[before >= 0]] != 0).any():
                return None
        return cls(text, braces, depth)

    def depth(self, position: int) -> int:
        """How many blocks are open after ``position``."""
        k = bisect_right(self._braces, position) - 1
        return self._depth[k] if k >= 0 else 0

    def enclosing(self, position: int) -> int:
        """The ``{`` of the innermost block around ``position`` (-1: the top level)."""
        return self._last_open(position, self.depth(position))

    def parent(self, brace: int) -> int:
        """The ``{`` of the block around the block opened at ``brace`` (-1: none)."""
        return self._last_open(brace, self.depth(brace) - 1)

    def _last_open(self, position: int, depth: int) -> int:
        if depth <= 0:
            return -1
        opens = self._opens[depth]
        k = bisect_left(opens, position) - 1
        return opens[k] if k >= 0 else -1

    def close(self, brace: int) -> int:
        """The ``}`` that closes the block opened at ``brace``."""
        closes = self._closes[self.depth(brace) - 1]
        return closes[bisect_left(closes, brace)]

    def prelude_start(self, brace: int) -> int:
        """Where the prelude of the block opened at ``brace`` starts.

        In a list of rules (the top level, an at-rule's block) a ``;`` ends only an at-rule
        statement (``@import ...;``): a style rule's prelude runs from the last block to the
        ``{``, semicolons included (such a selector is invalid, and the rule is dropped).
        ``<!--`` and ``-->`` at the top level are skipped (CSS Syntax 3 §5.4.1).
        """
        text, braces = self._text, self._braces
        k = bisect_left(braces, brace)
        if k < len(braces) and braces[k] == brace:  # (the brace before it ends the last block)
            start = braces[k - 1] + 1 if k else 0
            top = self._depth[k] == 1
        else:
            start = 1 + max(text.rfind("{", 0, brace), text.rfind("}", 0, brace))
            top = self.depth(brace) == 1
        while True:
            start = _LEADING_SPACES.match(text, start, brace).end()  # type: ignore[union-attr]
            if top and text.startswith(("<!--", "-->"), start, brace):
                start += 4 if text[start] == "<" else 3
                continue
            if text.startswith("@", start, brace):
                semi = text.find(";", start, brace)
                if semi >= 0:
                    start = semi + 1
                    continue
            return start

    def prelude_end(self, position: int) -> int:
        """The ``{`` or ``;`` that ends the prelude running at ``position`` (-1: none)."""
        text = self._text
        ends = [k for k in (text.find("{", position), text.find(";", position)) if k >= 0]
        closing = text.find("}", position)
        end = min(ends) if ends else -1
        return -1 if closing >= 0 and (end < 0 or closing < end) else end


def _tokens(text: str) -> list[Any]:
    """Component values of a prelude, comments dropped, ends stripped of whitespace."""
    return _clean(tinycss2.parse_component_value_list(text, skip_comments=True))


def _clean(tokens: Sequence[Any]) -> list[Any]:
    values = _strip_comments(tokens)
    while values and values[0].type == "whitespace":
        values.pop(0)
    while values and values[-1].type == "whitespace":
        values.pop()
    return values


def _strip_comments(tokens: Sequence[Any]) -> list[Any]:
    return [t for t in tokens if t.type != "comment"]


def _layer_names(prelude: Sequence[Any]) -> list[str]:
    """Layer names of an ``@layer`` prelude (``a.b, c`` -> ``["a.b", "c"]``)."""
    names: list[str] = []
    current: list[str] = []
    for token in prelude:
        if isinstance(token, ast.IdentToken):
            current.append(token.value)
        elif isinstance(token, ast.LiteralToken) and token.value == ",":
            if current:
                names.append(".".join(current))
            current = []
    if current:
        names.append(".".join(current))
    return names


def _join(outer: str, name: str) -> str:
    return f"{outer}.{name}" if outer else name


def _layer_ranks(layers: Sequence[str]) -> dict[str, int]:
    """Rank of every layer, unlayered last (CSS Cascade 5 §6.4.3: sub-layers come before
    their parent's own rules, siblings in order of first declaration)."""
    children: dict[str, list[str]] = {UNLAYERED: []}
    for name in layers:
        parts = name.split(".")
        for k in range(1, len(parts) + 1):
            full, outer = ".".join(parts[:k]), ".".join(parts[: k - 1])
            if full not in children:
                children[full] = []
                children[outer].append(full)
    ranks: dict[str, int] = {}
    todo: list[tuple[str, bool]] = [(UNLAYERED, False)]  # (a nested function calling itself
    while todo:  # would be a reference cycle, made by every page's build)
        name, visited = todo.pop()
        if visited:
            ranks[name] = len(ranks)
        else:
            todo.append((name, True))
            todo.extend((child, False) for child in reversed(children[name]))
    return ranks


# -- selectors -------------------------------------------------------------------------------

_LEGACY_PSEUDO_ELEMENTS: Final[frozenset[str]] = frozenset(
    {"before", "after", "first-line", "first-letter"}
)
_MOST_SPECIFIC_ARGUMENT: Final[frozenset[str]] = frozenset({"is", "not", "has", "matches"})
_NTH_OF: Final[frozenset[str]] = frozenset({"nth-child", "nth-last-child"})


def selectors(prelude: Sequence[Any]) -> Iterator[Selector]:
    """The complex selectors of a selector list's tokens, each with its specificity."""
    for part in _split(prelude):
        text = tinycss2.serialize(part).strip()
        if text:
            yield Selector(text, _specificity(part))


def specificity(selector: str) -> Specificity:
    """(ids, classes/attributes/pseudo-classes, types) of a selector (Selectors 4 §17); of a
    selector list, the most specific of its selectors."""
    tokens = _tokens(selector)
    return max((_specificity(part) for part in _split(tokens)), default=(0, 0, 0))


# Possessive: a name is never split, so matching cannot backtrack.
_SIMPLE_TOKEN: Final[str] = r"[.#]?-?[A-Za-z_][\w-]*+|#[\w-]++|::?-?[A-Za-z_][\w-]*+|[ \t\n>+~*,&;]"
_SIMPLE: Final[re.Pattern[str]] = re.compile(rf"(?:{_SIMPLE_TOKEN})*+", re.ASCII)
"""A selector list of type, class, id and pseudo selectors (no arguments) and combinators
only, in ASCII: how most rules are written. Also ``&`` and ``;``, which count for nothing
(a ``>`` written as ``&gt;`` in a page's HTML: the ``gt`` counts as a type)."""
_SIMPLE_TOKENS: Final[re.Pattern[str]] = re.compile(_SIMPLE_TOKEN, re.ASCII)


def _simple_selectors(prelude: str) -> tuple[Selector, ...] | None:
    """:func:`selectors` of a prelude that :data:`_SIMPLE` matches, read without tinycss2
    (the same texts and specificities: such tokens serialise as written); None for any other
    prelude."""
    if not _SIMPLE.fullmatch(prelude):
        return None
    found = []
    for part in prelude.split(","):
        text = part.strip(" \t\n")
        if not text:
            continue
        ids = classes = types = 0
        for token in _SIMPLE_TOKENS.findall(text):
            first = token[0]
            if first == "#":
                ids += 1
            elif first == ".":
                classes += 1
            elif first == ":":
                if token[1] == ":" or token[1:].lower() in _LEGACY_PSEUDO_ELEMENTS:
                    types += 1
                else:
                    classes += 1
            elif first not in " \t\n>+~*&;":
                types += 1
        found.append(Selector(text, (ids, classes, types)))
    return tuple(found)


def _split(tokens: Sequence[Any]) -> list[list[Any]]:
    """A selector list's tokens split at its top-level commas (empty parts dropped)."""
    parts: list[list[Any]] = [[]]
    for token in tokens:
        if isinstance(token, ast.LiteralToken) and token.value == ",":
            parts.append([])
        elif token.type != "comment":
            parts[-1].append(token)
    return [_clean(p) for p in parts if any(t.type != "whitespace" for t in p)]


def _specificity(tokens: Sequence[Any]) -> Specificity:
    ids = classes = types = 0
    previous: Any = None
    colons = 0
    n = len(tokens)
    for k, token in enumerate(tokens):
        kind = token.type
        if kind == "literal" and token.value == ":":
            colons += 1
            previous = token
            continue
        after_colon, colons = colons, 0
        if after_colon == 2:  # a pseudo-element
            types += 1
            if isinstance(token, ast.FunctionBlock) and token.lower_name == "slotted":
                a, b, c = _argument_max(token.arguments)
                ids, classes, types = ids + a, classes + b, types + c
        elif after_colon == 1:
            if isinstance(token, ast.IdentToken):
                if token.lower_value in _LEGACY_PSEUDO_ELEMENTS:
                    types += 1
                else:
                    classes += 1
            elif isinstance(token, ast.FunctionBlock):
                name = token.lower_name
                if name == "where":
                    pass
                elif name in _MOST_SPECIFIC_ARGUMENT:
                    a, b, c = _argument_max(token.arguments)
                    ids, classes, types = ids + a, classes + b, types + c
                elif name in _NTH_OF:
                    a, b, c = _nth_of(token.arguments)
                    ids, classes, types = ids + a, classes + 1 + b, types + c
                else:
                    classes += 1
        elif isinstance(token, ast.HashToken):
            ids += 1
        elif isinstance(token, ast.SquareBracketsBlock):
            classes += 1
        elif isinstance(token, ast.IdentToken):
            if isinstance(previous, ast.LiteralToken) and previous.value == ".":
                classes += 1
            elif not (
                k + 1 < n
                and isinstance(tokens[k + 1], ast.LiteralToken)
                and tokens[k + 1].value == "|"
            ):  # (a namespace prefix counts for nothing)
                types += 1
        previous = token
    return (ids, classes, types)


def _argument_max(arguments: Sequence[Any]) -> Specificity:
    return max((_specificity(part) for part in _split(arguments)), default=(0, 0, 0))


def _nth_of(arguments: Sequence[Any]) -> Specificity:
    """The selector list after ``of`` in ``:nth-child(An+B of S)`` (none: zero)."""
    for k, token in enumerate(arguments):
        if isinstance(token, ast.IdentToken) and token.lower_value == "of":
            return _argument_max(arguments[k + 1 :])
    return (0, 0, 0)


# -- which rules can select anything ---------------------------------------------------------

_NAME: Final[str] = r"[-\w\u0080-\U0010ffff]+"
"""Name code points (CSS Syntax 3 §4.2: letters, digits, ``_``, ``-`` and non-ASCII)."""
_GROUP: Final[re.Pattern[str]] = re.compile(r"\([^()\[\]]*\)|\[[^()\[\]]*\]")
"""An innermost ``( )`` or ``[ ]`` group: what is inside never names the subject."""
_COMPOUNDS: Final[re.Pattern[str]] = re.compile(r"[^\s>+~]+")
"""The compounds of a complex selector (what separates them, whitespace and ``>``, ``+``,
``~``, is left out)."""
_COMPOUND: Final[re.Pattern[str]] = re.compile(
    rf"(?P<type>{_NAME}|\*)?(?:[.#]{_NAME}|::?{_NAME}(?:\(\))?|\[\])*"
)
"""A compound selector once groups are emptied: an optional type, then classes, ids,
pseudo-classes and pseudo-elements (their arguments gone) and attribute tests."""
_PLAIN_COMPOUND: Final[str] = string.ascii_letters + string.digits + "_-.#"
"""The characters of a compound :meth:`Subjects._plain_state` reads."""
_KEYS: Final[re.Pattern[str]] = re.compile(rf"([.#])({_NAME})")
"""Classes and ids of a compound that :data:`_COMPOUND` matches."""
_LACKING: Final[int] = 1
_UNKNOWN: Final[int] = -1
_UNREAD: Final[re.Pattern[str]] = re.compile(r"[\x00;|&{}/\\]")
"""Characters the subject test does not interpret (escapes, namespaces, nesting, comments):
a selector holding one is assumed to match."""
_READ_BYTES: Final[bytes] = bytes(c for c in range(256) if not _UNREAD.match(chr(c)))
"""Every byte but those of :data:`_UNREAD`'s characters, to delete from a prelude's UTF-8:
something is left exactly when the prelude holds one of them (they are ASCII, and in UTF-8
an ASCII byte stands only for itself). One C pass; the pattern's search steps per character."""


class Subjects:
    """The tags, classes and ids a page has, lower-cased, to rule out style rules that
    cannot select any of its elements. The sets are made on first use (most pages have no
    stylesheet rule worth the test).

    Lower-casing both sides only keeps more rules (class and id names compare
    case-sensitively in no-quirks documents, ASCII case-insensitively in quirks ones).

    Parameters
    ----------
    tags, attrs:
        Every element's tag and attributes.
    """

    def __init__(self, tags: Sequence[str], attrs: Sequence[Mapping[str, str] | None]) -> None:
        self._tags = tags
        self._attrs = attrs
        self._known: dict[str, int] = {}  # compound -> its state (see _state)

    @cached_property
    def tags(self) -> frozenset[str]:
        """Tags of the page's elements."""
        return frozenset(tag.lower() for tag in set(self._tags))

    @cached_property
    def _classes_and_ids(self) -> tuple[frozenset[str], frozenset[str]]:
        classes: set[str] = set()
        ids: set[str] = set()
        for element in self._attrs:
            if not element:
                continue
            names = element.get("class")
            if names:
                names = names.lower()
                # Class names are separated by ASCII whitespace only (HTML §2.3.7).
                classes.update(names.split() if names.isascii() else _ASCII_WS.split(names))
            element_id = element.get("id")
            if element_id:
                ids.add(element_id.lower())
        return frozenset(classes), frozenset(ids)

    @property
    def classes(self) -> frozenset[str]:
        """Class names of the page's elements."""
        return self._classes_and_ids[0]

    @property
    def ids(self) -> frozenset[str]:
        """IDs of the page's elements."""
        return self._classes_and_ids[1]

    def may_match(self, prelude: str, sheet: str = "", start: int = 0) -> bool:
        """Whether any selector of a style rule's ``prelude`` (blanked as by the pre-pass;
        ``sheet[start:]`` holds its original text) could select an element of the page.

        False only when every selector has a compound that names a type, class or id no
        element has (with descendant, child and sibling combinators, every compound of a
        complex selector matches some element); anything not understood counts as a
        possible match.
        """
        if (
            prelude.encode("utf-8", "surrogatepass").translate(None, _READ_BYTES)
            or sheet.find("/*", start, start + len(prelude)) >= 0
        ):
            return True
        text = prelude
        if "(" in text or "[" in text:
            while True:
                emptied = _GROUP.sub(_emptied, text)
                if emptied == text:
                    break
                text = emptied
            if "(" in text.replace("()", "") or "[" in text.replace("[]", ""):
                return True  # unbalanced: leave it to the parsers
        known = self._known
        for complex_selector in text.split(","):
            if ">" in complex_selector or "+" in complex_selector or "~" in complex_selector:
                compounds = _COMPOUNDS.findall(complex_selector)
            else:
                compounds = complex_selector.split()  # (str.split's whitespace is \s)
            lacking = False
            for compound in compounds:
                state = known.get(compound)
                if state is None:
                    state = known[compound] = self._state(compound)
                if state == _UNKNOWN:
                    return True
                lacking = lacking or state == _LACKING
            if not lacking:
                return True
        return False

    def _state(self, compound: str) -> int:
        """:data:`_LACKING` when a compound names a type, class or id that no element of the
        page has, :data:`_UNKNOWN` when it is not understood, else 0."""
        if not compound.strip(_PLAIN_COMPOUND):
            return self._plain_state(compound)
        return self._parsed_state(compound)

    def _plain_state(self, compound: str) -> int:
        """:meth:`_state` of a compound of ASCII names, ``.`` and ``#`` only, read by
        splitting it at those marks rather than with :data:`_COMPOUND`."""
        parts = compound.replace("#", ".#").split(".")  # a type, then "class" or "#id"s
        keys = parts[1:]
        if "" in keys or "#" in keys:
            return _UNKNOWN  # a mark without a name: _COMPOUND does not match
        kind = parts[0]
        if kind and kind.lower() not in self.tags:
            return _LACKING
        classes, ids = self.classes, self.ids
        for key in keys:
            if key[0] == "#":
                if key[1:].lower() not in ids:
                    return _LACKING
            elif key.lower() not in classes:
                return _LACKING
        return 0

    def _parsed_state(self, compound: str) -> int:
        parsed = _COMPOUND.fullmatch(compound)
        if parsed is None:
            return _UNKNOWN
        kind = parsed.group("type")
        if kind is not None and kind != "*" and kind.lower() not in self.tags:
            return _LACKING
        classes, ids = self.classes, self.ids
        for mark, name in _KEYS.findall(compound):
            if name.lower() not in (classes if mark == "." else ids):
                return _LACKING
        return 0


def _emptied(group: re.Match[str]) -> str:
    text = group.group()
    return text[0] + text[-1]


# -- how much a selector can cost to match ----------------------------------------------------

MAX_MATCH_COST: Final[float] = 1e7
"""Selectors whose :class:`MatchCost` is above this are not given to the selector engine."""
MAX_PAGE_MATCH_COST: Final[float] = 1e8
"""... nor any selector once the costs of those given reach this, per page. The most costly
selector the corpus pages declare for the properties read is about 2e5, the most costly
page about 1e6 in all."""
_STEP: Final[re.Pattern[str]] = re.compile(r"(\s*[>+~]\s*|\s+)")
_ID_KEY: Final[re.Pattern[str]] = re.compile(rf"#({_NAME})")
_CLASS_KEY: Final[re.Pattern[str]] = re.compile(rf"\.({_NAME})")
_TYPE_KEY: Final[re.Pattern[str]] = re.compile(rf"({_NAME})")
_MAX_GROUP_NESTING: Final[int] = 32


class MatchCost:
    """An upper bound on the work of matching a selector against a page, for refusing the
    selectors that would take the engine minutes (a chain of 30 ``div`` compounds on 50
    nested ``div``s: the engine tries every way of picking the ancestors).

    Matching right to left, each descendant (``␣``) or following-sibling (``~``) step tries
    every ancestor (or earlier sibling) that fits the next compound: at most the page's depth
    (or widest row of siblings), and at most the number of elements its most selective key
    (id, class, tag) names. The bound is the elements the subject compound names times those
    factors; a combinator inside a functional pseudo-class (``:has(a b)``) counts as a
    factor of the depth. Counts are made on first use.

    Parameters
    ----------
    tags, attrs, parent:
        Every element's tag, attributes and parent.
    """

    def __init__(
        self, tags: Sequence[str], attrs: Sequence[Mapping[str, str] | None], parent: Sequence[int]
    ) -> None:
        self._tags, self._attrs, self._parent = tags, attrs, parent
        self._named_by: dict[str, int] = {}  # compound -> _named(compound)
        self.spent = 0.0
        """The costs of the selectors let through so far (see :meth:`allow`)."""

    @cached_property
    def _counts(self) -> tuple[dict[str, int], dict[str, int], dict[str, int], int, int]:
        tags: dict[str, int] = {}
        for tag, count in Counter(self._tags).items():
            tags[tag.lower()] = tags.get(tag.lower(), 0) + count
        attrs = [element for element in self._attrs if element]
        classes = Counter(
            chain.from_iterable(set(a["class"].split()) for a in attrs if "class" in a)
        )
        ids = Counter(a["id"] for a in attrs if a.get("id"))
        depth = [0] * len(self._parent)
        for i, p in enumerate(self._parent):
            if p >= 0:
                depth[i] = depth[p] + 1
        siblings = Counter(self._parent).most_common(1)[0][1] if self._parent else 0
        return tags, dict(classes), dict(ids), max(depth, default=0) + 1, siblings

    def _named(self, compound: str) -> int:
        """How many elements the compound's most selective key can match (each compound
        counted once)."""
        named = self._named_by.get(compound)
        if named is None:
            named = self._named_by[compound] = self._count_named(compound)
        return named

    def _count_named(self, compound: str) -> int:
        tags, classes, ids, _, _ = self._counts
        found = _ID_KEY.search(compound)
        if found:
            return ids.get(found.group(1), 0)
        names = _CLASS_KEY.findall(compound)
        if names:
            return min(classes.get(name, 0) for name in names)
        found = _TYPE_KEY.match(compound)
        if found:
            return tags.get(found.group(1).lower(), 0)
        return len(self._tags)  # "*", a pseudo-class alone, an attribute test

    def __call__(self, selector: str) -> float:
        """The bound for one complex selector (``inf`` when it nests absurdly)."""
        _, _, _, depth, siblings = self._counts
        text = selector.strip()
        inner = 0  # combinators inside functional pseudo-classes
        for _ in range(_MAX_GROUP_NESTING):
            if "(" not in text and "[" not in text:
                break
            emptied = _GROUP.sub(_emptied, text)
            if emptied == text:
                break
            groups = _GROUP.findall(text)
            inner += sum(len(_STEP.findall(g[1:-1].strip())) for g in groups if g[0] == "(")
            text = emptied
        else:
            return math.inf
        parts = _STEP.split(text)
        compounds, steps = parts[0::2], [step.strip() or " " for step in parts[1::2]]
        cost = float(self._named(compounds[-1])) * float(depth) ** inner
        for compound, step in zip(compounds[:-1], steps, strict=True):
            if step in (" ", "~"):
                reach = depth if step == " " else siblings
                cost *= max(1, min(reach, self._named(compound)))
        return cost

    def allow(self, selector: str) -> bool:
        """Whether a selector may go to the engine: its cost is within
        :data:`MAX_MATCH_COST`, and the costs of such selectors let through on this page stay
        within :data:`MAX_PAGE_MATCH_COST`. A selector with at most one descendant or
        sibling step anywhere (most of them) costs at most the elements times the depth and
        is let through without counting."""
        if len(_STEP.findall(selector.strip())) < 2:
            return True
        cost = self(selector)
        if cost > MAX_MATCH_COST or self.spent + cost > MAX_PAGE_MATCH_COST:
            return False
        self.spent += cost
        return True


# -- media queries ---------------------------------------------------------------------------

_MEDIA_FEATURE: Final[re.Pattern[str]] = re.compile(
    r"\(\s*(min|max)-(width|height)\s*:\s*([\d.]+)\s*(px|em|rem)?\s*\)", re.IGNORECASE
)
_ASSUMED_FEATURE: Final[re.Pattern[str]] = re.compile(
    r"prefers-color-scheme\s*:\s*light|hover\s*:\s*hover|pointer\s*:\s*fine"
)


def media_applies(query: str, viewport: tuple[float, float]) -> bool:
    """Whether a media query list (``@media`` prelude, ``media=`` attribute) holds on a
    screen of ``viewport`` CSS px.

    Evaluated: media types ``screen``/``all`` (others are false), ``min-``/``max-``
    ``width``/``height`` in px, em or rem, ``orientation``, ``not`` and ``only``; assumed
    true: a light colour scheme, a fine pointer that can hover; any other feature is false.
    """
    return _media_list_applies(_tokens(query), viewport)


def _media_list_applies(tokens: Sequence[Any], viewport: tuple[float, float]) -> bool:
    width, height = viewport
    for part in _split(tokens):
        q = " ".join(tinycss2.serialize(part).lower().split())
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
            if _ASSUMED_FEATURE.search(feature):
                pass
            elif "orientation" in feature:
                ok = ok and ("landscape" in feature) == (width >= height)
            else:
                ok = False
        for kind, axis, number, unit in _MEDIA_FEATURE.findall(q):
            px = float(number) * (16.0 if unit in ("em", "rem") else 1.0)
            size = width if axis == "width" else height
            if (kind == "min" and size < px) or (kind == "max" and size > px):
                ok = False
        if ok != negate:
            return True
    return False
