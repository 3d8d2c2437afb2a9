"""Web evidence: what a web recorder keeps besides role and name, and how it is compared.

A browser recorder sees an element's tag, classes, link target, a few descriptive attributes
(``name``, ``type``, ``placeholder``, ``title``, ``alt``) and the text around it. None of
these is an identity: builds rename classes, links gain tracking parameters, texts move. So
each is a *soft* signal (:func:`web_vectors`), counted only where both the reference and the
row have a value, and never where only one side has one:

- ``tag``: equality, weak evidence (a ``<div>`` may become a ``<button>``);
- ``classes``: Jaccard overlap of the class tokens that look hand-written: hashed or generated
  names (``css-1x2y3z``, ``sc-AbCd``, ``Button_root__3xYz1``, mostly-digit or long random
  tokens) change with every build and are left out on both sides (:func:`is_generated_class`),
  and when no row shares any recorded class the page was rebuilt: no evidence either way;
- ``href``: host (where both sides have one), path and query (volatile parameters such as
  ``utm_*`` or session tokens dropped) count half, the same fragment the other half
  (:func:`href_key`);
- ``attributes``: equality of each recorded attribute the row also has, after normalisation;
- ``nearby_text``: the texts next to the element in reading order (Similo's neighbour texts):
  the share of the recorded texts, among those the page still has, that are found within
  ``MatchConfig.nearby_window`` named rows of the candidate (:class:`NearbyIndex`). Where the
  source itself recorded each node's neighbour texts (the :data:`NEARBY_COLUMN` of a nested
  tree whose nodes carry ``nearby_text``, as Similo's and Selenium-based recorders keep the
  texts above, below, left and right of every element), a row that has them is compared on
  them instead: the share of the reference's texts among the row's own.

Web sources fill the columns :data:`WEB_COLUMNS` (plus ``tag``) of
``CandidateTable.platform_ids``; nearby texts are derived from any table's names, or read from
the :data:`NEARBY_COLUMN` where a source recorded them per node.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING, Final
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit

import numpy as np
import numpy.typing as npt

from .index import NameColumn, index_of, rows_by_value
from .table import CandidateTable, Derived
from .text import collapse, forget_forms, mask_digits, normalize

if TYPE_CHECKING:
    from .config import MatchConfig
    from .models import SemanticElementRef

__all__ = [
    "ATTRIBUTE_NAMES",
    "LANDMARK_TAGS",
    "NEARBY_COLUMN",
    "NEARBY_SEPARATOR",
    "RECORD_ROLES",
    "WEB_COLUMNS",
    "NearbyIndex",
    "NearbyRuns",
    "WebQuery",
    "forget_pages",
    "href_key",
    "is_generated_class",
    "is_utility_class",
    "join_nearby",
    "nearby_key",
    "nearby_shares",
    "nearby_texts",
    "paths_agree",
    "split_nearby",
    "stable_classes",
    "web_terms",
    "web_values",
    "web_vectors",
]

FloatArray = npt.NDArray[np.float64]
Index = npt.NDArray[np.intp]

ATTRIBUTE_NAMES: Final[tuple[str, ...]] = ("name", "type", "placeholder", "title", "alt")
"""The HTML attributes a reference may carry (``SemanticElementRef.attributes``)."""
WEB_COLUMNS: Final[tuple[str, ...]] = ("class", "href", *(f"attr:{a}" for a in ATTRIBUTE_NAMES))
"""Table columns of web evidence, in the order :func:`web_values` returns them (the DOM
adapter's ``tag`` column is the tag)."""

NEARBY_COLUMN: Final[str] = "nearby"
"""The ``platform_ids`` column of the neighbour texts a source recorded per node, joined by
:data:`NEARBY_SEPARATOR` (``None`` where a node recorded none)."""
NEARBY_SEPARATOR: Final[str] = "\x1f"

MAX_TAG: Final[int] = 64
MAX_CLASSES: Final[int] = 32
MAX_CLASS_CHARS: Final[int] = 128
MAX_HREF: Final[int] = 2048
MAX_ATTRIBUTE: Final[int] = 256
MAX_NEARBY: Final[int] = 6
MAX_NEARBY_CHARS: Final[int] = 80
"""Size limits of the reference's web fields (checked in :mod:`resolver.models`)."""
LANDMARK_TAGS: Final[frozenset[str]] = frozenset(
    {"header", "footer", "nav", "aside", "main", "form", "search"}
)
"""HTML elements that make a region of the page (banner, content info, navigation,
complementary, main, form, search landmarks), as they appear in an xpath."""
RECORD_ROLES: Final[frozenset[str]] = frozenset({"row"})
"""Records (a table's rows): their texts are a row's only neighbours (see
:meth:`NearbyIndex.texts`), and they name a group look-alikes are told apart by."""
NEARBY_REACH: Final[int] = 3
"""Recorded nearby texts are at most this many places away in reading order: as far as the
matcher looks (``MatchConfig.nearby_window``), so a text recorded further off (past
look-alikes of the element that are skipped) cannot point at those look-alikes instead."""
NEARBY_BEFORE: Final[int] = 2
NEARBY_AFTER: Final[int] = 2
"""Texts recorded before and after the element in reading order."""
_NEARBY_KEY_CHARS: Final[int] = 40  # texts are compared on their first characters

_GENERATED_PREFIX: Final[re.Pattern[str]] = re.compile(
    r"^(css|sc|jsx|emotion|svelte|styled|tw|astro|vue|ng-tns|makestyles)-", re.IGNORECASE
)
_SEGMENT: Final[re.Pattern[str]] = re.compile(r"[-_]+")
_CASED_WORDS: Final[re.Pattern[str]] = re.compile(r"^([A-Z]?[a-z]+)([A-Z][a-z]+)*$")
_VOLATILE_PARAMS: Final[frozenset[str]] = frozenset(
    {"fbclid", "gclid", "dclid", "msclkid", "yclid", "mc_cid", "mc_eid", "_ga", "_gl", "ref",
     "ref_src", "referrer", "source", "sessionid", "session", "sid", "phpsessid", "jsessionid",
     "token", "csrf", "nonce", "_", "ts", "timestamp", "cb", "cachebuster", "rand", "random"}
)  # fmt: skip
_RANDOM_VALUE: Final[re.Pattern[str]] = re.compile(r"^(?=.*\d)(?=.*[A-Za-z])[\w-]{20,}$")


def is_generated_class(token: str) -> bool:
    """Whether a class token looks generated by a build (hashed, numbered, random).

    >>> [is_generated_class(t) for t in ("nav-link", "col-md-6", "css-1x2y3z", "sc-AbCd")]
    [False, False, True, True]
    >>> [is_generated_class(t) for t in ("Button_root__3xYz1", "c3a9f01b", "bRkKfw", "x123")]
    [True, True, True, True]
    """
    if len(token) > 40 or _GENERATED_PREFIX.match(token):
        return True
    digits = sum(c.isdigit() for c in token)
    if digits:
        if len(token) >= 4 and 2 * digits > len(token):
            return True  # mostly digits: a counter or an id in disguise
        # A segment mixing letters and digits over five characters is a hash, not a word.
        return any(
            len(seg) >= 5 and not seg.isalpha() and not seg.isdigit()
            for seg in _SEGMENT.split(token)
        )
    # Mixed case that is not camelCase or PascalCase words ("fwjlmD", "kGHfSj"), or that flips
    # on most characters ("bRkKfw"), is random: styled-components and similar name classes so.
    letters = [c for c in token if c.isalpha()]
    if len(letters) < 5 or token.islower() or token.isupper():
        return False
    flips = sum(a.islower() != b.islower() for a, b in pairwise(letters))
    return flips * 2 > len(letters) or not any(
        _CASED_WORDS.match(part) for part in _SEGMENT.split(token) if part
    )


_UTILITY_PROPERTIES: Final[frozenset[str]] = frozenset(
    {"d", "display", "flex", "grid", "float", "pos", "position", "overflow", "visibility",
     "font", "fw", "fs", "text", "bg", "background", "color", "fill", "border", "rounded",
     "shadow", "opacity", "align", "valign", "justify", "items", "gap", "m", "mt", "mb", "ml",
     "mr", "mx", "my", "margin", "p", "pt", "pb", "pl", "pr", "px", "py", "padding", "w", "h",
     "width", "height", "z", "nudge", "pull", "push", "cursor", "leading", "tracking",
     "whitespace", "sr"}
)  # fmt: skip
"""First words of utility classes: one CSS property with its value (``display-block``,
``font-bold``, ``text-center``, ``mt-2``)."""
_UTILITY_VALUES: Final[frozenset[str]] = frozenset(
    {"none", "block", "flex", "grid", "inline", "auto", "full", "screen", "only", "bold",
     "normal", "hidden", "center", "left", "right", "start", "end", "sm", "md", "lg", "xl"}
)  # fmt: skip
"""Values a property abbreviated to one or two letters takes besides numbers (``d-none``,
``sr-only``, ``m-auto``): ``p-name`` (a microformat) or ``m-menu`` name a kind."""


def is_utility_class(token: str) -> bool:
    """Whether a class token is a utility class: a CSS property and its value, after an
    optional namespace of up to three letters (``wt-display-block``); a property abbreviated
    to one or two letters only with a number or a usual value (``mt-2``, ``d-none``). Such
    classes style any kind of element, so they do not say what kind an element is.

    >>> [is_utility_class(t) for t in ("display-block", "font-bold", "wt-nudge-r-3", "mt-2")]
    [True, True, True, True]
    >>> [is_utility_class(t) for t in ("nav-link", "btn-fake-link", "header-Cart", "text")]
    [False, False, False, False]
    >>> [is_utility_class(t) for t in ("d-none", "sr-only", "p-name", "m-menu")]
    [True, True, False, False]
    """
    words = [w.lower() for w in _SEGMENT.split(token) if w]
    if len(words) >= 3 and len(words[0]) <= 3 and words[0] not in _UTILITY_PROPERTIES:
        words = words[1:]
    if len(words) < 2 or words[0] not in _UTILITY_PROPERTIES:
        return False
    value = words[1]
    return len(words[0]) > 2 or value.isdigit() or value in _UTILITY_VALUES


def stable_classes(tokens: Iterable[str]) -> frozenset[str]:
    """The class tokens that are evidence: not generated (:func:`is_generated_class`)."""
    return frozenset(t for t in tokens if t and not is_generated_class(t))


def paths_agree(recorded: str, other: str, moved_segments: int) -> bool:
    """Whether two link targets' ``path?query`` (of :func:`href_key`) name the same page:
    equal, or, with ``moved_segments`` > 0, one path the other with leading segments added or
    dropped, at least ``moved_segments`` segments kept, and the same query or one a part of
    the other, not empty (see ``MatchConfig.href_moved_segments``).

    >>> paths_agree("/mortgage/rates", "/personal/mortgage/rates", 2)
    True
    >>> paths_agree("/car/loans?offer=7&ref=x", "/car/loans?offer=7", 2)
    True
    >>> paths_agree("/loans?offer=7&ref=x", "/loans?offer=7", 2), paths_agree("/a/b", "/c/b", 2)
    (False, False)
    >>> paths_agree("/list", "/list?page=2", 2), paths_agree("/mortgage/rates", "/rates", 2)
    (False, False)
    """
    if recorded == other:
        return True
    if moved_segments <= 0:
        return False
    a_path, a_query = _path_parts(recorded)
    b_path, b_query = _path_parts(other)
    kept = min(len(a_path), len(b_path))
    if kept < moved_segments or a_path[-kept:] != b_path[-kept:]:
        return False
    if a_query == b_query:
        return True
    small, large = sorted((a_query, b_query), key=len)
    return bool(small) and small <= large


def _path_parts(key: str) -> tuple[tuple[str, ...], frozenset[tuple[str, str]]]:
    """A ``path?query`` as its non-empty path segments and its query's pairs."""
    path, _, query = key.partition("?")
    pairs = frozenset(parse_qsl(query, keep_blank_values=True))
    return tuple(s for s in path.split("/") if s), pairs


def forget_pages() -> None:
    """Forget what is remembered from one observation to the next: the forms of link
    targets (:func:`href_key`), of nearby texts (:func:`nearby_key`) and of names made one at
    a time (:func:`resolver.text.forget_forms`). What is remembered decides nothing; after
    this, a page is read as if for the first time (what a benchmark of a first sight wants)."""
    _HREF_KEYS.clear()
    nearby_key.cache_clear()
    forget_forms()


HREF_KEYS: Final[int] = 1 << 13
"""Link targets whose :func:`href_key` is remembered, those of at most
:data:`REMEMBERED_HREF` characters (forgotten all at once past it): a page holds a few
thousand, and an agent's next observation of the same site holds most of them again."""
REMEMBERED_HREF: Final[int] = 512
_HREF_KEYS: dict[str, tuple[str, str, str] | None] = {}


def href_key(href: str, base: str | None = None) -> tuple[str, str, str] | None:
    """``(host, path?query, fragment)`` of a link target, the comparison form of ``href``
    (remembered, without ``base``, for up to :data:`HREF_KEYS` targets).

    Relative targets are resolved against ``base`` when given; the scheme and a leading
    ``www.`` are dropped, as are volatile query parameters (tracking, sessions, cache
    busters), and the rest of the query is sorted. A target without a host (relative, and no
    base) is compared by path alone. ``None`` for targets that say nothing (empty, ``#``,
    ``javascript:``).

    >>> href_key("https://www.example.org/news/?utm_source=x&id=3#top")
    ('example.org', '/news?id=3', 'top')
    """
    if base is not None or len(href) > REMEMBERED_HREF:
        return _href_key(href, base)
    try:
        return _HREF_KEYS[href]
    except KeyError:
        if len(_HREF_KEYS) >= HREF_KEYS:
            _HREF_KEYS.clear()
        key = _HREF_KEYS[href] = _href_key(href, None)
        return key


def _href_key(href: str, base: str | None) -> tuple[str, str, str] | None:
    """:func:`href_key`, computed."""
    href = href.strip()
    if not href or href == "#" or href[:11].lower() == "javascript:":
        return None
    plain = _PLAIN_HREF.fullmatch(href) if base is None else None
    if plain is not None:  # (what urlsplit reads of it, read at once)
        host = (plain["host"] or "").lower().removeprefix("www.")
        path = (plain["path"] or "").rstrip("/") or ("/" if host else "")
        fragment = plain["fragment"] or ""
        return (host, path, fragment) if host or path or fragment else None
    return _parsed_href_key(href, base)


_PLAIN_HREF: Final[re.Pattern[str]] = re.compile(
    r"(?:[A-Za-z][A-Za-z0-9+.\-]*:)?"  # a scheme
    r"(?://(?P<host>[A-Za-z0-9.\-]*))?"  # a host, without user, port or brackets
    r"(?P<path>/(?!/)[\x21\x22\x24-\x3e\x40-\x7e]*)?"  # printable ASCII, no query
    r"(?:#(?P<fragment>[\x21-\x7e]*))?"  # a fragment of printable ASCII
)
"""A link target of the plain form most pages write (printable ASCII, no user, port or
query), whose parts :func:`href_key` reads from this match: what ``urlsplit`` finds in it."""


def _parsed_href_key(href: str, base: str | None) -> tuple[str, str, str] | None:
    """:func:`href_key` of a stripped target that says something, by ``urlsplit``."""
    try:
        parts = urlsplit(urljoin(base, href) if base else href)
        host = (parts.hostname or "").removeprefix("www.")
    except ValueError:
        return None
    path = parts.path.rstrip("/") or ("/" if host else "")
    query = [
        (k, v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if not k.lower().startswith("utm_")
        and k.lower() not in _VOLATILE_PARAMS
        and not _RANDOM_VALUE.match(v)
    ]
    key = path + ("?" + urlencode(sorted(query)) if query else "")
    if not host and not key and not parts.fragment:
        return None
    return (host, key, parts.fragment)


_NO_ROWS: Final[npt.NDArray[np.intp]] = np.empty(0, dtype=np.intp)
_STEP: Final[npt.NDArray[np.int64]] = np.array([-1, 1], dtype=np.int64)
"""The level change at a span's edge, by the edge's last bit: an end, a start."""
_NO_VALUES: Final[tuple[None, ...]] = (None,) * len(WEB_COLUMNS)
_WEB_KEYS: Final[tuple[tuple[str, str], ...]] = tuple(
    (column, column.removeprefix("attr:")) for column in WEB_COLUMNS
)
_WEB_KEY_SET: Final[frozenset[str]] = frozenset(key for _, key in _WEB_KEYS)
_WEB_INDEX: Final[dict[str, int]] = {key: k for k, (_, key) in enumerate(_WEB_KEYS)}
"""Attribute -> the position of its column."""


def web_values(attrs: Mapping[str, str] | None, base: str | None = None) -> tuple[str | None, ...]:
    """An element's web columns (:data:`WEB_COLUMNS`) from its attributes: classes as the
    ``class`` attribute, ``href`` resolved against ``base``, then the attributes; ``None``
    where absent or blank."""
    if not attrs:
        return _NO_VALUES
    present = _WEB_KEY_SET.intersection(attrs)  # (in C: most elements carry one or two)
    if not present:
        return _NO_VALUES
    values: list[str | None] = list(_NO_VALUES)
    for key in present:
        raw = attrs[key]
        value = raw.strip() if raw else None
        if value and key == "href" and base:
            with suppress(ValueError):
                value = urljoin(base, value)
        if value:
            values[_WEB_INDEX[key]] = value[:MAX_HREF]
    return tuple(values)


@lru_cache(maxsize=4096)
def nearby_key(text: str) -> str:
    """The comparison form of a nearby text (normalised, digits masked, its beginning);
    remembered, as the references of one page repeat their neighbours' texts."""
    return mask_digits(normalize(collapse(text)))[:_NEARBY_KEY_CHARS]


LINE_PART_WORDS: Final[int] = 8
"""On a screenshot, a line of at most this many words also stands for each run of its
words (see :func:`_line_parts`)."""
LINE_ROLE: Final[str] = "text"
"""The raw role of a line of text read on a screenshot (not a row or a group, whose name
joins the lines inside it, nor a control's caption)."""


def _line_parts(line: str) -> list[str]:
    """The runs of words of a text read on a screenshot, other than the whole line: the
    texts a page draws on one line (a bold word and the rest of a label, a link inside a
    sentence) are recorded as a tree's separate text nodes, and the screen reads them as
    one line. Only for lines of 2 to :data:`LINE_PART_WORDS` words."""
    words = line.split()
    if not 2 <= len(words) <= LINE_PART_WORDS:
        return []
    parts = {
        " ".join(words[a:b])[:_NEARBY_KEY_CHARS]
        for a in range(len(words))
        for b in range(a + 1, len(words) + 1)
        if b - a < len(words)
    }
    return sorted(parts)


@dataclass(frozen=True)
class NearbyRuns:
    """Per-row values as runs: ``values[i]`` for ``lengths[i]`` rows, run after run."""

    values: FloatArray
    lengths: Index

    def expand(self) -> FloatArray:
        """The value of every row."""
        rows: FloatArray = np.repeat(self.values, self.lengths)
        return rows


class NearbyIndex(Derived):
    """A table's texts in reading order, for neighbour-text evidence.

    The sequence holds every named row except one that repeats its parent's name (the text
    inside a link or button), so a DOM page and its accessibility tree read alike. Use
    ``table.derived(NearbyIndex)``.
    """

    def __init__(self, table: CandidateTable) -> None:
        index, n = index_of(table), len(table)
        super().__init__(table)
        kept = ~index.empty_names & ~index.repeats_parent
        if table.rereadings:
            kept[sorted(table.rereadings)] = False
        self.seq: Index = np.flatnonzero(kept)
        """Rows of the sequence, in document order (without the rows the source declares
        re-read parts of their parent's text: ``CandidateTable.rereadings``)."""
        self.position = np.searchsorted(self.seq, np.arange(n))
        """Per row, its place in the sequence (for a row outside it, the next entry's)."""
        self.first_row = np.concatenate(([0], self.seq + 1, [n]))
        """Per place of the sequence (and one past the row after the last text), the first
        row at that :attr:`position`: the rows at places ``a`` to ``b - 1`` are rows
        ``first_row[a]`` to ``first_row[b] - 1``."""
        masked = table.names_mask  # the same form as nearby_key (names are collapsed already)
        rows = self.seq.tolist()
        keys = tuple(masked[row][:_NEARBY_KEY_CHARS] for row in rows)
        self._keys = NameColumn(keys)
        """Each place's text key: a few keys are found by scanning the column in C, and
        more through an index made then (a resolve asks for its reference's few)."""
        self._parts: dict[str, Index] | None = None
        if table.names_read and LINE_ROLE in table.raw_roles:
            raw = table.raw_roles
            self._parts = _line_places([(masked[row], raw[row]) for row in rows])
        self._spans: dict[tuple[str, int], Index] = {}

    def places(self, key: str) -> Index | None:
        """The places of the sequence holding text key ``key`` (ascending; ``None`` for
        none). A table read from a screen also holds each line's parts (:func:`_line_parts`)
        at the line's place."""
        if self._parts is not None:
            return self._parts.get(key)
        found = self._keys.rows(key)
        return found if found.size else None

    def texts(self, row: int) -> tuple[str, ...]:
        """The texts next to ``row``: up to :data:`NEARBY_BEFORE` before and
        :data:`NEARBY_AFTER` after it, nearest first, without its own name and repeats.

        Inside a table row only that row's texts are taken: the next row's texts say nothing
        about which row this is, and after rows are sorted they point at the row that now
        precedes them."""
        table, seq = self.table, self.seq
        own = nearby_key(table.names[row])
        place = int(self.position[row])
        after_start = place + 1 if place < seq.size and seq[place] == row else place
        low, high = self._record(row)
        seen = {own}
        out: list[str] = []
        for places, count in (
            (range(place - 1, low - 1, -1), NEARBY_BEFORE),
            (range(after_start, high), NEARBY_AFTER),
        ):
            taken = 0
            for p in places:
                if taken >= count or abs(p - place) > NEARBY_REACH:
                    break
                text = table.names[int(seq[p])]
                key = nearby_key(text)
                if key and key not in seen:
                    seen.add(key)
                    out.append(text[:MAX_NEARBY_CHARS])
                    taken += 1
        return tuple(out)

    def _record(self, row: int) -> tuple[int, int]:
        """The places of the sequence inside the table row around ``row`` (the whole
        sequence when there is none, or it holds no other text)."""
        table = self.table
        roles, parent = table.roles, table.parent
        record = int(parent[row])
        while record >= 0 and roles[record] not in RECORD_ROLES:
            record = int(parent[record])
        if record < 0:
            return 0, self.seq.size
        depth = table.depth
        after = np.flatnonzero(depth[record + 1 :] <= depth[record])
        end = record + 1 + int(after[0]) if after.size else len(table)
        low = int(np.searchsorted(self.seq, record))
        high = int(np.searchsorted(self.seq, end))
        others = [p for p in range(low, high) if int(self.seq[p]) != row]
        return (low, high) if others else (0, self.seq.size)

    def near(self, keys: tuple[str, ...], window: int) -> tuple[FloatArray, int]:
        """Per row, how many of ``keys`` have a text within ``window`` places of it in the
        sequence, and how many of ``keys`` the table has at all."""
        spans = self._spans_of(keys, window)
        if not spans:
            return np.zeros(len(self.position)), 0
        return self._covered(spans, 1), len(spans)

    def near_share(self, keys: tuple[str, ...], window: int) -> FloatArray | None:
        """Per row, the share of the ``keys`` the table has that :meth:`near` finds next to
        it; ``None`` when the table has none of them."""
        spans = self._spans_of(keys, window)
        if not spans:
            return None
        return self._covered(spans, len(spans))

    def _covered(self, spans: list[Index], per: int) -> FloatArray:
        """Per row, how many of the spans (edges as in :meth:`_levels`) hold it, divided by
        ``per`` (each distinct count divided once, before it is spread over its rows)."""
        # The few edges sorted (each key's are: a stable sort merges the runs), the level
        # after the last edge at each row spread over the rows up to the next such row, and
        # none before the first: no pass over a row-long array of marks.
        ordered = np.concatenate(spans)
        ordered.sort(kind="stable")
        level = _STEP.take(ordered & 1).cumsum()
        rows = ordered >> 1
        last = np.empty(rows.size, dtype=bool)
        np.not_equal(rows[1:], rows[:-1], out=last[:-1])
        last[-1] = True
        starts = rows[last]
        values = np.empty(starts.size + 1)
        values[0] = 0.0
        np.divide(level[last], per, out=values[1:])
        lengths = np.empty(starts.size + 1, dtype=starts.dtype)
        lengths[0] = starts[0]
        np.subtract(starts[1:], starts[:-1], out=lengths[1:-1])
        lengths[-1] = len(self.position) - starts[-1]
        covered: FloatArray = values.repeat(lengths)
        return covered

    def near_runs(self, keys: Sequence[tuple[str, ...]], window: int) -> list[NearbyRuns | None]:
        """:meth:`near_share` of each tuple of ``keys``, all in one pass, as runs of rows
        with the same share."""
        found, levels, lengths = self._levels(keys, window)
        had = [f for f in found if f is not None]
        if not had:
            return [None] * len(keys)
        # Each run's count over the number of its tuple's keys the table has.
        counts = np.repeat([c for c, _, _ in had], [high - low for _, low, high in had])
        shares: FloatArray = levels / counts
        return [
            None if f is None else NearbyRuns(shares[f[1] : f[2]], lengths[f[1] : f[2]])
            for f in found
        ]

    def _levels(
        self, keys: Sequence[tuple[str, ...]], window: int
    ) -> tuple[list[tuple[int, int, int] | None], npt.NDArray[np.int64], Index]:
        """For all tuples of ``keys`` together (their rows laid end to end, ``len(table)``
        rows each), per row how many of its tuple's keys are near it, as the values and
        lengths of runs of rows with the same count; and per tuple ``None`` when the table
        has none of its keys, else how many it has and the first and one past the last of
        its runs."""
        n = len(self.position)
        found: list[int] = []
        counts: list[int] = []
        edges: list[Index] = []
        sizes: list[int] = []
        for i, one in enumerate(keys):
            spans = self._spans_of(one, window)
            if spans:
                found.append(i)
                counts.append(len(spans))
                edges.extend(spans)
                sizes.append(sum(e.size for e in spans))
        out: list[tuple[int, int, int] | None] = [None] * len(keys)
        if not found:
            return out, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.intp)
        # An edge is ``2 * row + 1`` where a span starts and ``2 * row`` one past its end;
        # moved by ``2 * n`` per tuple, the tuples' rows lie end to end. A start and an end at
        # each tuple's first row make a run begin there.
        firsts = np.arange(len(found)) * (2 * n)
        shift = np.repeat(firsts, sizes)
        # Each key's edges are ascending: a stable sort merges those runs (a tenth of the
        # time of a quicksort on the tens of thousands of edges of a hundred references).
        ordered = np.concatenate((np.concatenate(edges) + shift, firsts, firsts + 1))
        ordered.sort(kind="stable")
        level = _STEP.take(ordered & 1).cumsum()
        rows = ordered >> 1
        last = np.append(rows[1:] != rows[:-1], True)  # the level after every edge at a row
        starts = rows[last]
        lengths = np.diff(starts, append=n * len(found))
        # The runs of each tuple (the last one's up to the end: an empty run may start there).
        bounds = [*np.searchsorted(starts, np.arange(len(found)) * n).tolist(), starts.size]
        for i, count, low, high in zip(found, counts, bounds, bounds[1:], strict=False):
            out[i] = (count, low, high)
        return out, level[last], lengths

    def _spans_of(self, keys: tuple[str, ...], window: int) -> list[Index]:
        """The rows within ``window`` places of each key's places, for the keys the table
        has, as the edges of disjoint spans (see :meth:`_levels`)."""
        size = self.seq.size + 1  # a row after the last text has place seq.size
        out: list[Index] = []
        for key in keys:
            edges = self._spans.get((key, window))
            if edges is None:
                places = self.places(key)
                if places is None:
                    continue
                low, high = _merged(places, window, size)
                edges = np.sort(
                    np.concatenate((2 * self.first_row[low] + 1, 2 * self.first_row[high]))
                )
                self._spans[(key, window)] = edges
            out.append(edges)
        return out


def _line_places(texts: list[tuple[str, str]]) -> dict[str, Index]:
    """Per text key, its places, for the sequence's masked names and raw roles in order:
    each line's parts (:func:`_line_parts`) counted at the line's place after its own key."""
    positions: dict[str, list[int]] = {}
    for place, (masked, raw) in enumerate(texts):
        key = masked[:_NEARBY_KEY_CHARS]
        if key:
            positions.setdefault(key, []).append(place)
        if raw == LINE_ROLE:
            for part in _line_parts(masked):
                positions.setdefault(part, []).append(place)
    return {k: np.asarray(v, dtype=np.intp) for k, v in positions.items()}


def _merged(places: Index, window: int, size: int) -> tuple[Index, Index]:
    """The places of the sequence within ``window`` of any of ``places`` (ascending), as
    ``(starts, ends)`` of disjoint spans, so that each place counts once."""
    low = np.maximum(places - window, 0)
    high = np.minimum(places + window + 1, size)
    first = np.flatnonzero(low[1:] > high[:-1]) + 1
    last = np.empty(first.size + 1, dtype=np.intp)
    last[:-1] = first - 1
    last[-1] = places.size - 1
    return np.concatenate((low[:1], low[first])), high[last]


def nearby_texts(table: CandidateTable, row: int) -> tuple[str, ...]:
    """The texts next to ``row``, as a recorder stores them (``SemanticElementRef.nearby_text``):
    those the source recorded for the node (:data:`NEARBY_COLUMN`) when it did, else those
    next to it in reading order (:meth:`NearbyIndex.texts`)."""
    recorded = table.platform_ids.get(NEARBY_COLUMN)
    value = recorded[row] if recorded is not None else None
    if value:
        return split_nearby(value)
    return table.derived(NearbyIndex).texts(row)


def join_nearby(texts: object) -> str | None:
    """A node's recorded neighbour texts (a list of strings; anything else is ignored) as one
    :data:`NEARBY_COLUMN` cell: collapsed, cut to the reference's limits, repeats dropped;
    ``None`` when none is left."""
    if not isinstance(texts, (list, tuple)):
        return None
    kept: list[str] = []
    for text in texts:
        if isinstance(text, str):
            cut = collapse(text)[:MAX_NEARBY_CHARS].strip().replace(NEARBY_SEPARATOR, " ")
            if cut and cut not in kept:
                kept.append(cut)
    return NEARBY_SEPARATOR.join(kept[:MAX_NEARBY]) or None


def split_nearby(value: str) -> tuple[str, ...]:
    """The texts of a :data:`NEARBY_COLUMN` cell."""
    return tuple(t for t in value.split(NEARBY_SEPARATOR) if t)


class WebIndex(Derived):
    """A table's web columns in comparison form, made once per table
    (``table.derived(WebIndex)``)."""

    def __init__(self, table: CandidateTable) -> None:
        super().__init__(table)
        self.columns = table.platform_ids
        self._attributes: dict[str, npt.NDArray[np.object_]] = {}
        self._tails: dict[int, dict[tuple[str, ...], Index]] = {}

    def _column(self, name: str) -> tuple[str | None, ...]:
        return self.columns.get(name) or (None,) * len(self.table)

    @cached_property
    def tags(self) -> npt.NDArray[np.object_]:
        """Lower-cased tag per row (``None`` where unknown)."""
        return np.array([t.lower() if t else None for t in self._column("tag")], dtype=object)

    @cached_property
    def classes(self) -> tuple[dict[str, Index], FloatArray]:
        """Rows by stable class token, and each row's number of stable tokens."""
        by_token: dict[str, list[int]] = {}
        counts = np.zeros(len(self.table))
        memo: dict[str, frozenset[str]] = {}
        for row, value in enumerate(self._column("class")):
            if not value:
                continue
            tokens = memo.get(value)
            if tokens is None:
                tokens = memo[value] = stable_classes(value.split()[:MAX_CLASSES])
            counts[row] = len(tokens)
            for token in tokens:
                by_token.setdefault(token, []).append(row)
        return {k: np.asarray(v, dtype=np.intp) for k, v in by_token.items()}, counts

    @cached_property
    def hrefs(self) -> tuple[npt.NDArray[np.object_], ...]:
        """Per row, its link target's host, path with query, and fragment (``None`` for a row
        without a target)."""
        keys = [href_key(value) if value else None for value in self._column("href")]
        return tuple(
            np.array([None if key is None else key[part] for key in keys], dtype=object)
            for part in range(3)
        )

    @cached_property
    def href_rows(self) -> tuple[npt.NDArray[np.bool_], dict[str, Index]]:
        """Rows with a link target, and the rows by path with query (so that a reference's
        link is compared with the rows bearing its path, not with every row)."""
        paths = self.hrefs[1]
        return paths != None, rows_by_value(paths.tolist())  # noqa: E711

    @cached_property
    def bare_path_rows(self) -> dict[str, Index]:
        """The rows by link path without its query (``/auto-loans`` for
        ``/auto-loans?offer=2``): a redesign rewrites tracking and offer parameters."""
        return rows_by_value(
            None if path is None else path.partition("?")[0] for path in self.hrefs[1].tolist()
        )

    def moved_rows(self, recorded: str, moved_segments: int) -> Index:
        """Rows whose link path differs from ``recorded`` but agrees with it
        (:func:`paths_agree`), when no row links to ``recorded`` itself: a page the site
        still links to where it was has not moved, and links to other places that share
        its last segments are other links (a page's ``/foo/bar`` and ``/base/foo/bar``)."""
        if moved_segments <= 0 or recorded in self.href_rows[1]:
            return _NO_ROWS
        tails = self._tails.get(moved_segments)
        if tails is None:
            ends = [
                None if path is None or len(s := _path_parts(path)[0]) < moved_segments
                else s[-moved_segments:]
                for path in self.hrefs[1].tolist()
            ]  # fmt: skip
            tails = rows_by_value(ends)
            self._tails[moved_segments] = tails  # whole, for other threads
        segments = _path_parts(recorded)[0]
        if len(segments) < moved_segments:
            return _NO_ROWS
        paths = self.hrefs[1]
        rows = tails.get(segments[-moved_segments:], _NO_ROWS).tolist()
        return np.asarray(
            [r for r in rows if paths[r] != recorded
             and paths_agree(recorded, paths[r], moved_segments)],
            dtype=np.intp,
        )  # fmt: skip

    @cached_property
    def tag_rows(self) -> tuple[npt.NDArray[np.bool_], dict[str, Index]]:
        """Rows with a tag, and the rows by (lower-cased) tag."""
        return self.tags != None, rows_by_value(self.tags.tolist())  # noqa: E711

    @cached_property
    def recorded_nearby(self) -> tuple[npt.NDArray[np.bool_], dict[str, Index]] | None:
        """Rows with neighbour texts of their own (:data:`NEARBY_COLUMN`), and the rows by
        each text's :func:`nearby_key`; ``None`` when no row has any."""
        column = self.columns.get(NEARBY_COLUMN)
        if column is None or not any(column):
            return None
        has = np.zeros(len(self.table), dtype=bool)
        by_key: dict[str, list[int]] = {}
        for row, value in enumerate(column):
            if value:
                has[row] = True
                for key in dict.fromkeys(nearby_key(t) for t in split_nearby(value)):
                    if key:
                        by_key.setdefault(key, []).append(row)
        return has, {k: np.asarray(v, dtype=np.intp) for k, v in by_key.items()}

    def attribute(self, name: str) -> npt.NDArray[np.object_]:
        """Normalised values of attribute ``name`` per row (``None`` where absent)."""
        cached = self._attributes.get(name)
        if cached is None:
            values = self._column(f"attr:{name}")
            cached = np.array([normalize(v) if v else None for v in values], dtype=object)
            self._attributes[name] = cached
        return cached


@dataclass(frozen=True)
class WebQuery:
    """A reference's web evidence in comparison form (empty parts are absent)."""

    tag: str | None = None
    classes: frozenset[str] = frozenset()
    href: tuple[str, str, str] | None = None
    attributes: tuple[tuple[str, str], ...] = ()
    nearby: tuple[str, ...] = ()

    @classmethod
    def build(cls, ref: SemanticElementRef) -> WebQuery | None:
        """The web evidence of ``ref``, or ``None`` when it has none."""
        attributes = tuple(
            (k, normalize(v)) for k, v in sorted(ref.attributes.items()) if normalize(v)
        )
        nearby = tuple(dict.fromkeys(k for t in ref.nearby_text if (k := nearby_key(t))))
        tag = ref.tag.lower() if ref.tag else None
        classes = stable_classes(ref.classes) if ref.classes else _NO_WEB.classes
        href = href_key(ref.href) if ref.href else None
        if tag is None and not classes and href is None and not attributes and not nearby:
            return None  # every part empty: the query would equal ``WebQuery()``
        return cls(tag=tag, classes=classes, href=href, attributes=attributes, nearby=nearby)


_NO_WEB: Final[WebQuery] = WebQuery()


def web_vectors(
    query: WebQuery, table: CandidateTable, config: MatchConfig
) -> tuple[FloatArray, FloatArray, dict[str, FloatArray]]:
    """The numerator and denominator the web evidence adds to every row, and each signal's
    agreement per row (0 where it is absent). A signal counts for a row only where the row
    has a value too; classes only while some row still shares one of them; nearby text only
    when some recorded text is still on the page."""
    n = len(table)
    num, den, signals = web_terms(query, table, config)
    num = np.zeros(n) if num is None else num
    return num, den if isinstance(den, np.ndarray) else np.full(n, den), signals


def web_terms(
    query: WebQuery,
    table: CandidateTable,
    config: MatchConfig,
    nearby: Mapping[tuple[str, ...], NearbyRuns | None] | None = None,
) -> tuple[FloatArray | None, FloatArray | float, dict[str, FloatArray]]:
    """:func:`web_vectors`, with no numerator (``None``) when no signal counts, and the
    denominator as one number while every signal counts for every row. ``nearby`` may hold
    the nearby agreement of the query's texts (:func:`nearby_shares`)."""
    index = table.derived(WebIndex)
    num: FloatArray | None = None
    den: FloatArray | float = 0.0
    signals: dict[str, FloatArray] = {}

    def add(
        signal: str,
        weight: float,
        present: npt.NDArray[np.bool_] | None,
        agree: FloatArray,
        renamed: bool = False,
    ) -> None:
        # ``present`` None: every row has a value. The sums are made in the same order for
        # every row, whichever form they take.
        nonlocal num, den
        if present is not None:
            agree = np.where(present, agree, 0.0)
        if weight <= 0 or (present is not None and not present.any()):
            return
        if renamed and not agree.any():
            return
        term = weight * agree
        num = term if num is None else num + term
        den = den + (weight if present is None else weight * present.astype(np.float64))
        signals[f"web:{signal}"] = agree

    if query.tag is not None:
        has_tag, by_tag = index.tag_rows
        same_tag = np.zeros(len(table))
        same_tag[by_tag.get(query.tag, _NO_ROWS)] = 1.0
        add("tag", config.w_tag, has_tag, same_tag)
    if query.classes:
        # Builds rename classes: when no row shares any recorded class, the page was
        # rebuilt, which says nothing about which row is the element (as with IDs).
        add("class", config.w_class, *_class_overlap(index, query.classes), renamed=True)
    if query.href is not None:
        # Unlike classes, a link target no row has any more still counts against the rows
        # with another one: when the target was removed its link went with it, and the
        # survivors must not gain by that.
        add("href", config.w_href, *_href_agreement(index, query.href, config))
    if query.attributes:
        add("attr", config.w_attribute, *_attribute_agreement(index, query.attributes))
    if query.nearby:
        found = _nearby_agreement(query.nearby, table, index, config, nearby)
        if found is not None:
            add("nearby", config.w_nearby, *found)
    return num, den, signals


def _nearby_agreement(
    keys: tuple[str, ...],
    table: CandidateTable,
    index: WebIndex,
    config: MatchConfig,
    nearby: Mapping[tuple[str, ...], NearbyRuns | None] | None,
) -> tuple[npt.NDArray[np.bool_] | None, FloatArray] | None:
    """The rows the nearby signal counts for (``None``: all) and their agreement: in the
    page's reading order, or, for a row with texts of its own (:data:`NEARBY_COLUMN`), the
    better of that and the share of ``keys`` among its own texts; ``None`` when it counts
    for no row."""
    if nearby is not None and keys in nearby:
        runs = nearby[keys]
        agree = None if runs is None else runs.expand()
    else:
        agree = _nearby(table, keys, config.nearby_window)
    recorded = index.recorded_nearby
    if recorded is None:
        return None if agree is None else (None, agree)
    has, share = _recorded_nearby(recorded, keys)
    if agree is None:
        return has, share
    return None, np.where(has, np.maximum(share, agree), agree)


def _recorded_nearby(
    recorded: tuple[npt.NDArray[np.bool_], dict[str, Index]], keys: tuple[str, ...]
) -> tuple[npt.NDArray[np.bool_], FloatArray]:
    """Rows with recorded neighbour texts, and the share of ``keys`` among each one's."""
    has, by_key = recorded
    share = np.zeros(has.size)
    for key in keys:
        rows = by_key.get(key)
        if rows is not None:
            share[rows] += 1.0
    return has, share / len(keys)


def _class_overlap(
    index: WebIndex, classes: frozenset[str]
) -> tuple[npt.NDArray[np.bool_], FloatArray]:
    """Rows with stable classes, and their Jaccard overlap with ``classes``."""
    by_token, counts = index.classes
    shared = np.zeros(counts.size)
    for token in classes:
        rows = by_token.get(token)
        if rows is not None:
            shared[rows] += 1.0
    present = counts > 0
    union = np.where(present, counts + len(classes) - shared, 1.0)
    return present, shared / union


def _href_agreement(
    index: WebIndex, href: tuple[str, str, str], config: MatchConfig
) -> tuple[npt.NDArray[np.bool_], FloatArray]:
    """Rows with a link target, and their agreement: the same host (where both have one)
    and path with query (or that path moved, :func:`paths_agree`) count half, the same
    fragment on top the other half."""
    hosts, _, fragments = index.hrefs
    present, by_path = index.href_rows
    agree = np.zeros(present.size)
    same = by_path.get(href[1], _NO_ROWS)
    moved = index.moved_rows(href[1], config.href_moved_segments)
    if moved.size:
        same = np.concatenate((same, moved))
    if href[0] and same.size:
        on_host = hosts[same]
        same = same[(on_host == href[0]) | (on_host == "")]
    agree[same] = 0.5
    agree[same[fragments[same] == href[2]]] = 1.0
    return present, agree


def _attribute_agreement(
    index: WebIndex, attributes: tuple[tuple[str, str], ...]
) -> tuple[npt.NDArray[np.bool_], FloatArray]:
    """Rows with any recorded attribute, and the share of those they have that agree."""
    n = len(index.table)
    have, equal = np.zeros(n), np.zeros(n)
    for name, value in attributes:
        column = index.attribute(name)
        have += column != None  # noqa: E711
        equal += column == value
    present = have > 0
    return present, equal / np.maximum(have, 1.0)


def nearby_shares(
    queries: Iterable[WebQuery | None], table: CandidateTable, config: MatchConfig
) -> dict[tuple[str, ...], NearbyRuns | None]:
    """The nearby agreement (see :func:`web_terms`) of every query's recorded texts, each
    distinct tuple of texts once, all in one pass (:meth:`NearbyIndex.near_runs`)."""
    keys = list(dict.fromkeys(q.nearby for q in queries if q is not None and q.nearby))
    if not keys:
        return {}
    index = table.derived(NearbyIndex)
    return dict(zip(keys, index.near_runs(keys, config.nearby_window), strict=True))


def _nearby(table: CandidateTable, keys: tuple[str, ...], window: int) -> FloatArray | None:
    """The share of the recorded texts still on the page that are within ``window`` places
    of each row (``None`` when none of them is on the page)."""
    return table.derived(NearbyIndex).near_share(keys, window)
