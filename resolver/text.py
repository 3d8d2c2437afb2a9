"""Name normalisation and the name-similarity score shared by the matcher and its tests.

Three forms of a name are compared, strictest first:

- ``raw``: whitespace-collapsed, as the platform gave it;
- ``norm``: NFKC, case-folded, zero-width characters and edge punctuation removed;
- ``mask``: ``norm`` with every run of digits replaced by ``#``, so counters and dates that
  change between runs ("Inbox (3)" -> "Inbox (12)") still agree, a little below an exact match.

Below those, names agree by fuzzy string similarity, except names that say the opposite of
each other (:func:`opposite_forms`: "Follow" and "Unfollow", "Log in" and "Log out"), which
share most of their letters and nothing of their meaning: they do not agree at all.

:func:`name_similarity` is the scalar definition; the matcher computes the same numbers for a
whole table at once.
"""

from __future__ import annotations

import json
import operator
import re
import unicodedata
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from itertools import accumulate, compress
from typing import Any, Final, NamedTuple

import numpy as np
import numpy.typing as npt
from rapidfuzz import fuzz, process

__all__ = [
    "CUT_NAME_CHARS",
    "LANDMARK_ENTRY_WEIGHT",
    "NAME_TIERS",
    "UNSPACED_CHARS",
    "Joined",
    "close_unspaced",
    "collapse",
    "collapse_joined",
    "collapse_many",
    "container_similarity",
    "cut_of",
    "entry_weight",
    "forget_forms",
    "fuzzy_many",
    "fuzzy_matrix",
    "fuzzy_pairs",
    "fuzzy_score",
    "item_similarity_many",
    "joined_texts",
    "json_text",
    "mask_digits",
    "mask_digits_joined",
    "mask_digits_many",
    "mask_digits_text",
    "name_similarity",
    "name_similarity_many",
    "normalize",
    "normalize_joined",
    "normalize_many",
    "opposite_forms",
    "unrepeated",
    "unspaced",
    "valid_unicode",
    "words",
]

FloatArray = npt.NDArray[np.float64]

_ZERO_WIDTH = re.compile("[\u200b-\u200f\u2060-\u2064\ufeff\u00ad\ufffc\ufffd]")
_EDGE_PUNCT = re.compile(r"^[\W_]+|[\W_]+$", re.UNICODE)
_TYPOGRAPHIC = str.maketrans(
    {"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
     "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"'}
)  # fmt: skip
"""Typographic quotes and primes as their plain forms: a page sets "Today\u2019s" where a
screen's reading, a test script or another tool writes "Today's"; neither says which."""
UNSPACED_CHARS: Final[str] = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
"""The ranges, for a regular expression's character class, of the scripts written without
spaces between words (Japanese kana, Chinese ideographs)."""
_UNSPACED_GAP = re.compile(f"(?<=[{UNSPACED_CHARS}]) (?=[{UNSPACED_CHARS}])")
"""A space between two characters of a script written without spaces between words (Chinese
ideographs, Japanese kana): letter-spacing, a line break, or a gap OCR reads as a space."""
_UNSPACED_CHAR = re.compile(f"[{UNSPACED_CHARS}]")


def close_unspaced(text: str) -> str:
    """``text`` without the spaces between two characters of a script written without spaces
    between words (Chinese ideographs, Japanese kana): words read one character at a time
    and joined by spaces ("经 济") become the text as written ("经济").

    >>> close_unspaced("经 济 News 新闻")
    '经济 News 新闻'
    """
    return _UNSPACED_GAP.sub("", text) if " " in text else text


def unspaced(char: str) -> bool:
    """Whether ``char`` is of a script written without spaces between words (Chinese
    ideographs, Japanese kana), where a name may start or end inside a run of text."""
    return _UNSPACED_CHAR.fullmatch(char) is not None


_DIGITS = re.compile(r"\d+(?:[.,:/]\d+)*")
_ANY_DIGIT = re.compile(r"\d")

NAME_TIERS: Final[dict[str, float]] = {
    "exact": 1.0,  # same text after collapsing whitespace
    "normalized": 0.97,  # same after case folding, Unicode NFKC and edge punctuation
    "masked": 0.9,  # same once digit runs are masked: counters, dates, prices changed
    "fuzzy_cap": 0.88,  # fuzzy agreement never outranks an exact or masked one
    "token_set_factor": 0.85,  # token_set_ratio rewards added words; count it a little less
}
"""Scores for each agreement tier (data, not code: tune here)."""


_SURROGATE = re.compile(r"[\ud800-\udfff]")


def valid_unicode(value: Any) -> Any:
    """``value`` (text, or the lists, tuples and dicts around text) as valid Unicode: each
    lone surrogate replaced by U+FFFD and a split surrogate pair joined, as the web platform
    makes a string a USVString. A page script or a recorder that cuts text inside a character
    (a JavaScript ``slice`` of an emoji) leaves half of it, which UTF-8, and so JSON, cannot
    carry. Containers come back of their kind (a mapping as a dict); other values as they are.

    >>> valid_unicode({"name": ["a\\ud800b", "\\ud83d\\ude00"]})
    {'name': ['a\ufffdb', '\U0001f600']}
    """
    if isinstance(value, str):
        if value.isascii() or _SURROGATE.search(value) is None:
            return value
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, list):
        return [valid_unicode(item) for item in value]
    if isinstance(value, tuple):
        return tuple(valid_unicode(item) for item in value)
    if isinstance(value, Mapping):
        return {valid_unicode(k): valid_unicode(v) for k, v in value.items()}
    return value


def json_text(value: Any, *, indent: int | None = None, allow_nan: bool = True) -> str:
    """``value`` as JSON text that UTF-8 can carry: non-ASCII characters as they are, but
    when some text is not valid Unicode (a file name's undecodable bytes, half a character a
    recorder cut: a lone surrogate) every non-ASCII character as a JSON escape, which reads
    back as it was (nothing is replaced)."""
    text = json.dumps(value, indent=indent, ensure_ascii=False, allow_nan=allow_nan)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, indent=indent, allow_nan=allow_nan)
    return text


def collapse(text: str) -> str:
    """Collapse internal whitespace and strip the ends; a lone surrogate (half a character)
    becomes U+FFFD (:func:`valid_unicode`), so a name read from a page agrees with the same
    name recorded in a reference, which reads it so.

    ``str.split`` splits on exactly the characters ``\\s`` matches in a ``str`` pattern (both
    use Python's Unicode whitespace test) and is several times cheaper than the regex.
    """
    out = " ".join(text.split())
    return out if out.isascii() else valid_unicode(out)


MAX_COMPARED: Final[int] = 256
"""Names are compared on their first 256 characters: longer ones are paragraphs, not labels,
and fuzzy scoring of very long strings would dominate the cost of a resolve."""


def normalize(text: str) -> str:
    """The comparison form of a name (at most :data:`MAX_COMPARED` characters).

    >>> normalize("  Sign\u00a0IN » "), normalize("Today\u2019s Paper")
    ('sign in', "today's paper")
    """
    text = text[: 2 * MAX_COMPARED]
    if text.isascii():
        # Fast path: ASCII has no compatibility forms and none of the zero-width characters.
        if "  " in text or not text.isprintable() or text != text.strip():
            text = collapse(text)
        text = text.lower()[:MAX_COMPARED]
        if text and text[0].isalnum() and text[-1].isalnum():
            return text
        return _EDGE_PUNCT.sub("", text)
    text = unicodedata.normalize("NFKC", text).translate(_TYPOGRAPHIC)
    text = _ZERO_WIDTH.sub("", text)
    text = collapse(text).casefold()[:MAX_COMPARED]
    return _EDGE_PUNCT.sub("", text)


_WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    """The words of a name in its comparison form (:func:`normalize`), punctuation dropped:
    what stays of a name read with stray dots and brackets ("Blog.(27)." is "blog", "27").

    >>> words("Blog.(27)."), words("(Credit: Nasa) online")
    (['blog', '27'], ['credit', 'nasa', 'online'])
    """
    return _WORD.findall(normalize(text))


def unrepeated(norm: str) -> str:
    """A name that is one phrase said two or more times over, spaced, as that phrase (a
    teaser's heading whose picture link, title link and caption each carry the title: "Use
    the Test Use the Test" is "Use the Test"); any other name as it is.

    >>> unrepeated("use the test use the test use the test"), unrepeated("bye bye")
    ('use the test', 'bye')
    >>> unrepeated("new york new"), unrepeated("ha")
    ('new york new', 'ha')
    """
    words = norm.split(" ")
    for count in range(2, len(words) + 1):
        if len(words) % count:
            continue
        size = len(words) // count
        if words == words[:size] * count:
            return " ".join(words[:size])
    return norm


def mask_digits(norm: str) -> str:
    """Replace digit runs (with their separators) by ``#``.

    >>> mask_digits("inbox (12)"), mask_digits("page 1.5 of 3")
    ('inbox (#)', 'page # of #')
    """
    return _DIGITS.sub("#", norm) if _ANY_DIGIT.search(norm) else norm


def name_similarity(query: str, candidate: str) -> float:
    """Similarity of two names in ``[0, 1]`` (the plain, scalar definition).

    Returns 1.0 for identical text, the tier value for normalised or digit-masked equality,
    and otherwise the best of rapidfuzz's ``ratio`` and a discounted ``token_set_ratio``,
    capped below the masked tier. An empty candidate scores 0.

    >>> name_similarity("OK", "OK"), name_similarity("Inbox (3)", "Inbox (12)")
    (1.0, 0.9)
    """
    q_raw, c_raw = collapse(query), collapse(candidate)
    if not c_raw or not q_raw:
        return 0.0
    if q_raw == c_raw:
        return NAME_TIERS["exact"]
    q_norm, c_norm = normalize(q_raw), normalize(c_raw)
    if q_norm and q_norm == c_norm:
        return NAME_TIERS["normalized"]
    if q_norm and mask_digits(q_norm) == mask_digits(c_norm):
        return NAME_TIERS["masked"]
    return fuzzy_score(q_norm, c_norm)


def fuzzy_score(q_norm: str, c_norm: str) -> float:
    """Fuzzy tier of two normalised strings (see :func:`fuzzy_many`)."""
    if not q_norm or not c_norm:
        return 0.0
    return float(fuzzy_many(q_norm, [c_norm])[0])


def fuzzy_many(q_norm: str, norms: Sequence[str], *, floor: float = 0.0) -> FloatArray:
    """The fuzzy tier of ``q_norm`` against many normalised names, in one rapidfuzz batch
    call per scorer: ``min(max(ratio, factor * token_set_ratio) / 100, fuzzy_cap)``.

    ``token_set_ratio`` rewards added words, so it counts a little less; the cap keeps any
    fuzzy agreement below a digit-masked one. Values under ``floor`` may come back as 0
    (rapidfuzz skips work below a cutoff); empty names are not special-cased here.
    """
    fuzzy: FloatArray = fuzzy_matrix([q_norm], norms, floor=floor)[0]
    return fuzzy


def fuzzy_matrix(queries: Sequence[str], norms: Sequence[str], *, floor: float = 0.0) -> FloatArray:
    """:func:`fuzzy_many` of several normalised queries at once, one row per query: one
    rapidfuzz ``cdist`` call per scorer for all of them.

    Values under ``floor`` may come back lower (as 0); values at or above it are exact.
    """
    return _fuzzy_tier(process.cdist, queries, norms, floor)


def fuzzy_pairs(queries: Sequence[str], norms: Sequence[str], *, floor: float = 0.0) -> FloatArray:
    """:func:`fuzzy_matrix` of the pairs ``(queries[i], norms[i])`` alone, one rapidfuzz
    ``cpdist`` call per scorer (for queries that each need a few names of many)."""
    return _fuzzy_tier(process.cpdist, queries, norms, floor)


def _fuzzy_tier(
    compare: Callable[..., npt.NDArray[np.float64]],
    queries: Sequence[str],
    norms: Sequence[str],
    floor: float,
) -> FloatArray:
    """The fuzzy tier from rapidfuzz's ``compare`` (``cdist`` or ``cpdist``) of ``queries``
    and ``norms``: exact at or above ``floor``."""
    factor = NAME_TIERS["token_set_factor"]
    best = compare(
        queries, norms, scorer=fuzz.ratio, dtype=np.float64, workers=1,
        score_cutoff=100 * floor,
    )  # fmt: skip
    if floor <= factor:
        # Above the factor no token_set_ratio (counted at most ``factor``) reaches the floor.
        tset = compare(
            queries, norms, scorer=fuzz.token_set_ratio, dtype=np.float64, workers=1,
            score_cutoff=min(100.0, 100 * floor / factor),
        )  # fmt: skip
        best = np.maximum(best, factor * tset)
    fuzzy: FloatArray = np.minimum(best / 100.0, NAME_TIERS["fuzzy_cap"])
    _raise_cut(fuzzy, queries, norms)
    _drop_opposites(fuzzy, queries, norms)
    return fuzzy


CUT_NAME_CHARS: Final[int] = 20
"""Least length (normalised) of a name that may have been cut by its recorder in the middle
of a word: recorders that keep a long name's first characters ("A Beautiful Analog Clock
for D")."""


def cut_of(q_norm: str, c_norm: str, min_chars: int = CUT_NAME_CHARS) -> bool:
    """Whether ``q_norm`` (at least ``min_chars`` long; 0: never) is ``c_norm`` cut in the
    middle of a word: it begins ``c_norm``, and the character it ends on and the next one of
    ``c_norm`` are both letters or digits.

    >>> cut_of("a beautiful analog clock for d", "a beautiful analog clock for desks")
    True
    >>> cut_of("a beautiful analog clock for", "a beautiful analog clock for desks")
    False
    """
    size = len(q_norm)
    return (
        0 < min_chars <= size < len(c_norm)
        and c_norm.startswith(q_norm)
        and q_norm[-1].isalnum()
        and c_norm[size].isalnum()
    )


def _raise_cut(fuzzy: FloatArray, queries: Sequence[str], norms: Sequence[str]) -> None:
    """Raise to the fuzzy cap, in place, the values of names that a query is cut from
    (:func:`cut_of`): a name cut to its first characters agrees only fuzzily with the whole,
    less than a few of its words read alone (``token_set_ratio`` of a subset), yet is the
    best fuzzy agreement there is. Same shapes as :func:`_drop_opposites`; the names a long
    query begins are found by searching all of them joined, in C."""
    cap = NAME_TIERS["fuzzy_cap"]
    if fuzzy.ndim == 1:
        asked = {q for q in set(queries) if len(q) >= CUT_NAME_CHARS}
        if asked:
            for j, (q, c) in enumerate(zip(queries, norms, strict=True)):
                if q in asked and cut_of(q, c):
                    fuzzy[j] = cap
        return
    long = [(i, q) for i, q in enumerate(queries) if len(q) >= CUT_NAME_CHARS]
    if not long or not norms:
        return
    joined = "\n" + "\n".join(norms)  # (a line break inside a name is no start)
    starts = list(accumulate((len(c) + 1 for c in norms[:-1]), initial=0))
    for i, q in long:
        at = joined.find("\n" + q)
        while at >= 0:
            j = bisect_left(starts, at)
            if j < len(starts) and starts[j] == at and cut_of(q, norms[j]):
                fuzzy[i, j] = cap
            at = joined.find("\n" + q, at + 1)


OPPOSITE_PREFIXES: Final[tuple[str, ...]] = ("un", "dis", "de", "non")
"""Prefixes that turn a word into its opposite ("follow" / "unfollow", "select" /
"deselect"); a word keeps at least three letters once one is taken off."""

OPPOSITE_WORDS: Final[tuple[tuple[str, str], ...]] = (
    ("in", "out"), ("on", "off"), ("more", "less"), ("show", "hide"), ("open", "close"),
    ("next", "previous"), ("next", "prev"), ("yes", "no"), ("enable", "disable"),
    ("add", "remove"), ("accept", "reject"), ("accept", "decline"), ("allow", "deny"),
    ("expand", "collapse"), ("up", "down"), ("increase", "decrease"), ("first", "last"),
    ("start", "stop"), ("play", "pause"), ("older", "newer"), ("before", "after"),
    ("left", "right"), ("login", "logout"), ("signin", "signout"), ("min", "max"),
    ("minimize", "maximize"), ("upvote", "downvote"), ("upload", "download"),
    ("import", "export"), ("true", "false"), ("zoom-in", "zoom-out"),
)  # fmt: skip
"""English words whose swap makes a control do the opposite ("Show more" / "Show less")."""

_OPPOSITES: Final[dict[str, frozenset[str]]] = {
    word: frozenset(b if a == word else a for a, b in OPPOSITE_WORDS if word in (a, b))
    for pair in OPPOSITE_WORDS
    for word in pair
}

OPPOSITE_FLOOR: Final[float] = 0.5
"""Fuzzy values under this are no agreement anyway; only pairs at or above it are checked
for opposite names."""


@lru_cache(maxsize=4096)
def opposite_forms(norm: str) -> frozenset[str]:
    """The normalised names that say the opposite of ``norm``: the same words with one of
    them turned into its opposite (:data:`OPPOSITE_PREFIXES` added or taken off, or swapped
    by :data:`OPPOSITE_WORDS`).

    A prefix taken off now and then leaves another word rather than an opposite ("details",
    "tails"); such names are different words, and do not agree either.

    >>> "log out" in opposite_forms("log in"), "show less" in opposite_forms("show more")
    (True, True)
    >>> "unfollow" in opposite_forms("follow"), "follow" in opposite_forms("unfollow")
    (True, True)
    """
    words = norm.split(" ")
    forms: set[str] = set()
    for k, word in enumerate(words):
        if not word.isalpha() and "-" not in word:
            continue
        swapped = set(_OPPOSITES.get(word, ()))
        for prefix in OPPOSITE_PREFIXES:
            swapped.add(prefix + word)
            if word.startswith(prefix) and len(word) - len(prefix) >= 3:
                swapped.add(word[len(prefix) :])
        forms.update(" ".join((*words[:k], other, *words[k + 1 :])) for other in swapped)
    return frozenset(forms)


def _drop_opposites(fuzzy: FloatArray, queries: Sequence[str], norms: Sequence[str]) -> None:
    """Set to 0, in place, the fuzzy values of names opposite to their query
    (:func:`opposite_forms`). ``fuzzy`` is ``[len(queries), len(norms)]`` (``cdist``) or,
    for pairs, ``[len(norms)]`` (``cpdist``)."""
    if fuzzy.ndim == 1:
        for j in np.flatnonzero(fuzzy >= OPPOSITE_FLOOR).tolist():
            if norms[j] in opposite_forms(queries[j]):
                fuzzy[j] = 0.0
        return
    rows, cols = np.nonzero(fuzzy >= OPPOSITE_FLOOR)
    forms: dict[int, frozenset[str]] = {}
    for i, j in zip(rows.tolist(), cols.tolist(), strict=True):
        if i not in forms:
            forms[i] = opposite_forms(queries[i])
        if norms[j] in forms[i]:
            fuzzy[i, j] = 0.0


LANDMARK_ENTRY_WEIGHT: Final[float] = 0.5


def _stretch(sim: float) -> float:
    # Fuzzy agreement between container names is weak evidence ("Carol Diaz ... Edit Delete"
    # and "Dave Evans ... Edit Delete" share half their words): stretch and square it so
    # only close variants count.
    if sim >= NAME_TIERS["masked"]:
        return sim
    stretched = max(0.0, (sim - 0.5) / (NAME_TIERS["fuzzy_cap"] - 0.5))
    return min(stretched, 1.0) ** 2 * NAME_TIERS["fuzzy_cap"]


TEXT_ENTRY_WORDS: Final[int] = 6
"""A container entry of this many words or more is text: a block or a layout cell named by
all its content, as Chromium names some. Moving things inside the block reorders its name,
so such an entry is also compared as a bag of words (``token_sort_ratio``, which, unlike
``token_set_ratio``, does not forgive words added or lost)."""


def _is_text_entry(q_norm: str) -> bool:
    return q_norm.count(" ") + 1 >= TEXT_ENTRY_WORDS


def _reordered_many(q_norm: str, norms: Sequence[str]) -> FloatArray:
    """``token_sort_ratio`` of a text entry against many entries, in the fuzzy tier's scale
    (capped at ``fuzzy_cap``); values under 0.5 come back as 0."""
    values = process.cdist(
        [q_norm], norms, scorer=fuzz.token_sort_ratio, dtype=np.float64, workers=1,
        score_cutoff=50.0,
    )[0]  # fmt: skip
    capped: FloatArray = np.minimum(values / 100.0, NAME_TIERS["fuzzy_cap"])
    return capped


def _item_similarity(query: str, candidate: str) -> float:
    """One container entry against another: exact-ish agreement counts, vague does not."""
    sim = name_similarity(query, candidate)
    q_norm, c_norm = normalize(collapse(query)), normalize(collapse(candidate))
    if sim < NAME_TIERS["fuzzy_cap"] and c_norm and _is_text_entry(q_norm):
        sim = max(sim, float(_reordered_many(q_norm, [c_norm])[0]))
    return _stretch(sim)


def name_similarity_many(
    query: str, raw: list[str], norm: list[str], mask: list[str], *, floor: float = 0.0
) -> FloatArray:
    """:func:`name_similarity` of ``query`` against many candidates at once.

    ``raw``, ``norm`` and ``mask`` are the candidates' collapsed, normalised and masked forms
    (as :class:`~resolver.table.CandidateTable` keeps them). One rapidfuzz batch call per scorer.
    """
    n = len(raw)
    q_raw = collapse(query)
    if not q_raw or n == 0:
        return np.zeros(n)
    q_norm = normalize(q_raw)
    if q_norm:
        # Fuzzy values under ``floor`` may come back as 0: callers that pass a floor treat
        # everything under it alike.
        values = fuzzy_many(q_norm, norm, floor=floor)
        q_mask = mask_digits(q_norm)
        values = np.where([m == q_mask for m in mask], NAME_TIERS["masked"], values)
        values = np.where([c == q_norm for c in norm], NAME_TIERS["normalized"], values)
        values = np.where([not c for c in norm], 0.0, values)
    else:
        values = np.zeros(n)
    values = np.where([c == q_raw for c in raw], NAME_TIERS["exact"], values)
    return np.where([not c for c in raw], 0.0, values)


def item_similarity_many(
    query: str, raw: list[str], norm: list[str], mask: list[str]
) -> FloatArray:
    """The container-entry similarity (name similarity, stretched) against many entries."""
    # Below 0.5 the stretched value is 0 anyway: let rapidfuzz cut there.
    sim = name_similarity_many(query, raw, norm, mask, floor=0.5)
    q_norm = normalize(collapse(query))
    if norm and _is_text_entry(q_norm):
        reordered = np.where([not c for c in norm], 0.0, _reordered_many(q_norm, norm))
        sim = np.maximum(sim, reordered)
    stretched = np.minimum(np.maximum((sim - 0.5) / (NAME_TIERS["fuzzy_cap"] - 0.5), 0.0), 1.0)
    return np.where(sim >= NAME_TIERS["masked"], sim, stretched**2 * NAME_TIERS["fuzzy_cap"])


def entry_weight(depth: int, entry: str) -> float:
    """Weight of the ``depth``-th recorded container entry (outermost is 0)."""
    # Unnamed landmarks ("[banner]") are structure, not identity: redesigns move them.
    return float(4**depth) * (LANDMARK_ENTRY_WEIGHT if entry.startswith("[") else 1.0)


def container_similarity(ref_path: tuple[str, ...], path: tuple[str, ...]) -> float:
    """How well a candidate's container path agrees with the recorded one, in ``[0, 1]``.

    Each recorded entry is matched against its best counterpart anywhere in ``path`` (so
    added wrappers do not hurt), and entries weigh ``4 ** depth``: the innermost container
    (the row, the group) decides most.

    >>> container_similarity(("Settings", "Display"), ("Settings", "Display"))
    1.0
    >>> round(container_similarity(("Settings", "Display"), ("Settings", "Network")), 3)
    0.2
    """
    if not ref_path:
        return 1.0
    if not path:
        return 0.0
    total = 0.0
    weight_sum = 0.0
    for depth, item in enumerate(ref_path):
        weight = entry_weight(depth, item)
        total += weight * max(_item_similarity(item, other) for other in path)
        weight_sum += weight
    return total / weight_sum


# -- many names at once ---------------------------------------------------------------------
#
# A table's names are normalised, masked and collapsed once per table: a page has thousands.
# The batch forms below give exactly what the per-name functions give, but do the work of the
# common case (a short, printable ASCII name) for all names at once: the names joined by a
# separator character none of them holds, read as bytes by numpy, then split again. Names the
# fast path does not cover (non-ASCII, control characters, edge punctuation, ...) go through
# the per-name function.

_SEPARATORS: Final[tuple[str, ...]] = ("\x00", "\x01", "\x02", "\x03")
"""Characters that join a batch of names (the first that none of them holds); none is
whitespace, a digit, a letter or punctuation, so no rule of the fast paths can match one."""


def _byte_class(chars: str) -> npt.NDArray[np.bool_]:
    table = np.zeros(256, dtype=bool)
    table[[ord(c) for c in chars]] = True
    return table


_ALNUM: Final = _byte_class("".join(chr(c) for c in range(128) if chr(c).isalnum()))
_PRINTABLE: Final = _byte_class("".join(chr(c) for c in range(128) if chr(c).isprintable()))
_SPACE: Final = _byte_class("".join(chr(c) for c in range(128) if chr(c).isspace()))
_DIGIT: Final = _byte_class("0123456789")
_DIGIT_JOINER: Final = _byte_class(".,:/")  # what _DIGITS lets join two digit runs


class _AsciiBatch:
    """ASCII texts joined by a separator as one byte array, and where each text sits."""

    __slots__ = ("codes", "ends", "joined", "lengths", "sep", "starts", "texts")

    def __init__(self, texts: Sequence[str], joined: str, sep: str) -> None:
        self.texts = texts
        self.joined = joined
        self.sep = sep
        self.codes = np.frombuffer(joined.encode("ascii"), dtype=np.uint8)
        self.ends = np.append(np.flatnonzero(self.codes == ord(sep)), len(self.codes))
        """Per text, the position just after it (its separator, or the end)."""
        self.starts = np.concatenate(([0], self.ends[:-1] + 1))
        self.lengths = self.ends - self.starts

    def texts_at(self, positions: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
        """The texts holding the characters at ``positions`` (no separator among them)."""
        return np.searchsorted(self.ends, positions)

    def rebuilt(self, codes: npt.NDArray[np.uint8], keep: npt.NDArray[np.bool_]) -> Fast:
        """The texts again from ``codes`` (changed in place of the batch's) where ``keep``."""
        joined = codes[keep].tobytes().decode("ascii")
        return joined.split(self.sep), _NONE_LEFT, joined

    def unchanged(self) -> Fast:
        """The batch's texts as they are."""
        return list(self.texts), _NONE_LEFT, self.joined


_NONE_LEFT: Final = np.empty(0, np.intp)
_NONE_LEFT.setflags(write=False)

Fast = tuple[list[str], npt.NDArray[np.intp], str]
"""What a fast path returns: the results for a batch, the texts it leaves to the per-text
function, and the results joined by the batch's separator (those left included as the fast
path saw them)."""

BatchFast = Callable[[_AsciiBatch], Fast]


class Joined(NamedTuple):
    """Texts, and the same texts joined by ``sep`` (a character none of them holds) when the
    batch that made them had them at hand (``None`` otherwise): a look-up that searches the
    joined column need not join them again."""

    texts: list[str]
    joined: str | None
    sep: str


ONE_BY_ONE_KEPT: Final[int] = 1 << 13
"""Texts whose form a batch made one at a time (those its fast path leaves: non-ASCII names,
mostly) are remembered, those of at most :data:`MAX_COMPARED` characters, up to this many
per form, and forgotten all at once past it: an agent's next observation of the same page
holds the same names again."""
_ONE_BY_ONE: dict[Callable[[str], str], dict[str, str]] = {}


def forget_forms() -> None:
    """Forget the forms remembered from batch to batch (:data:`ONE_BY_ONE_KEPT`)."""
    for memo in _ONE_BY_ONE.values():
        memo.clear()


def _batched(
    texts: Sequence[str],
    fast: BatchFast,
    one: Callable[[str], str],
    given: tuple[str, str] | None = None,
) -> Joined:
    """``[one(t) for t in texts]``, the ASCII texts through ``fast`` (which returns its
    results and the texts it leaves to ``one``), the others through ``one`` (once per
    distinct text). ``given`` is ``(sep.join(texts), sep)`` for a ``sep`` none of them holds,
    when the caller has it. The results come joined when every text went the fast way."""
    texts = texts if isinstance(texts, list | tuple) else list(texts)  # (no copy of those)
    memo = _ONE_BY_ONE.setdefault(one, {})
    longer: dict[str, str] = {}  # (texts too long to remember past this batch)

    def each(text: str) -> str:
        done = memo.get(text)
        if done is None:
            done = longer.get(text)
        if done is None:
            done = one(text)
            if len(text) > MAX_COMPARED:
                longer[text] = done
            else:
                if len(memo) >= ONE_BY_ONE_KEPT:
                    memo.clear()
                memo[text] = done
        return done

    joined, sep = given or joined_texts(texts)
    if not sep:  # every separator is in some text (or there is none)
        return Joined([each(t) for t in texts], None, "")
    rows: list[int] | None = None
    if not joined.isascii():
        flags = list(map(str.isascii, texts))
        rows = list(compress(range(len(texts)), flags))
        others = compress(range(len(texts)), map(operator.not_, flags))
        out = list(texts)
        for i in others:
            out[i] = each(texts[i])
        texts = [texts[i] for i in rows]
        joined = sep.join(texts)
        if not texts:
            return Joined(out, None, sep)
    results, left, done = fast(_AsciiBatch(texts, joined, sep))
    for i in left.tolist():
        results[i] = each(texts[i])
    if rows is None:
        return Joined(results, None if left.size else done, sep)
    for i, result in zip(rows, results, strict=True):
        out[i] = result
    return Joined(out, None, sep)


def joined_texts(texts: Sequence[str]) -> tuple[str, str]:
    """``texts`` joined by the first of four control characters none of them holds, and
    it (``("", "")`` when each is held)."""
    for sep in _SEPARATORS:
        joined = sep.join(texts)
        if joined.count(sep) == len(texts) - 1:
            return joined, sep
    return "", ""


def _fast_collapse(batch: _AsciiBatch) -> Fast:
    codes = batch.codes
    space = _SPACE[codes]
    if not space.any():
        return batch.unchanged()
    # A whitespace run becomes one space inside a text and nothing at either end of it.
    text = ~space
    text[batch.ends[:-1]] = False  # separators
    before = np.concatenate(([False], space[:-1]))
    after = np.concatenate((space[1:], [False]))
    first, last = np.flatnonzero(space & ~before), np.flatnonzero(space & ~after)
    inner = np.zeros(len(codes) + 2, dtype=bool)
    inner[1:-1] = text
    keep = text.copy()
    keep[batch.ends[:-1]] = True
    keep[first[inner[first] & inner[last + 2]]] = True
    out = codes.copy()
    out[space] = ord(" ")
    return batch.rebuilt(out, keep)


def collapse_joined(texts: Sequence[str]) -> Joined:
    """:func:`collapse_many`, with the results joined when the batch had them at hand."""
    return _batched(texts, _fast_collapse, collapse)


def collapse_many(texts: Sequence[str]) -> list[str]:
    """:func:`collapse` of each of ``texts`` (the same strings, computed for all at once).

    >>> collapse_many(["  a \\n b", "c", ""])
    ['a b', 'c', '']
    """
    return _batched(texts, _fast_collapse, collapse).texts


def _fast_normalize(batch: _AsciiBatch) -> Fast:
    # normalize() of a printable ASCII text of at most MAX_COMPARED characters, without two
    # spaces in a row, is the text lowered, less any characters before its first letter or
    # digit and after its last.
    codes, starts, ends = batch.codes, batch.starts, batch.ends
    odd = ~_PRINTABLE[codes]
    odd[ends[:-1]] = False  # separators
    odd[:-1] |= (codes[:-1] == ord(" ")) & (codes[1:] == ord(" "))
    left = batch.lengths > MAX_COMPARED
    left[batch.texts_at(np.flatnonzero(odd))] = True
    named = np.flatnonzero(batch.lengths)
    edged = np.zeros(len(starts), dtype=bool)
    edged[named] = ~_ALNUM[codes[starts[named]]] | ~_ALNUM[codes[ends[named] - 1]]
    joined = batch.joined
    lowered = joined.lower()
    edged &= ~left
    # (names already in lower case are kept as they are: no new strings to make)
    texts = list(batch.texts) if lowered == joined else lowered.split(batch.sep)
    if edged.any():  # ('"Quoted"', "82.", "_id_"): their edges go, as _EDGE_PUNCT takes them
        for row in np.flatnonzero(edged).tolist():
            texts[row] = texts[row].strip(_ASCII_EDGES)
        lowered = batch.sep.join(texts)
    return texts, np.flatnonzero(left), lowered


_ASCII_EDGES: Final[str] = "".join(
    c for c in map(chr, range(128)) if c.isprintable() and not c.isalnum()
)
"""The printable ASCII characters ``_EDGE_PUNCT`` takes from a name's edges (``[\\W_]`` is
every character but a letter or a digit)."""


def normalize_many(texts: Sequence[str]) -> list[str]:
    """:func:`normalize` of each of ``texts`` (the same strings, computed for all at once).

    >>> normalize_many(["Sign IN", "« Back", "Caf\\u00e9"])
    ['sign in', 'back', 'café']
    """
    return _batched(texts, _fast_normalize, normalize).texts


def normalize_joined(texts: Sequence[str], given: tuple[str, str] | None = None) -> Joined:
    """:func:`normalize_many`, with the results joined when the batch had them at hand
    (``given``: the texts joined by a separator none holds, and it, when the caller has
    them)."""
    return _batched(texts, _fast_normalize, normalize, given)


def _masked(
    codes: npt.NDArray[np.uint8],
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_]] | None:
    """ASCII texts (joined) with their digit runs masked: the codes with a ``#`` at each
    run's start, and which codes to keep (not the rest of a run); ``None`` without a digit."""
    digit = _DIGIT[codes]
    if not digit.any():
        return None
    # _DIGITS matches a digit run with what joins digit runs (".", ",", ":", "/" between two
    # digits): each maximal stretch of those becomes one "#".
    run = digit.copy()
    run[1:-1] |= _DIGIT_JOINER[codes[1:-1]] & digit[:-2] & digit[2:]
    before = np.concatenate(([False], run[:-1]))
    out = codes.copy()
    out[run & ~before] = ord("#")
    return out, ~(run & before)


def _fast_mask(batch: _AsciiBatch) -> Fast:
    masked = _masked(batch.codes)
    return batch.unchanged() if masked is None else batch.rebuilt(*masked)


def mask_digits_many(norms: Sequence[str]) -> list[str]:
    """:func:`mask_digits` of each of ``norms`` (the same strings, computed for all at once).

    >>> mask_digits_many(["inbox (12)", "page 1.5 of 3", "ok"])
    ['inbox (#)', 'page # of #', 'ok']
    """
    return _batched(norms, _fast_mask, mask_digits).texts


def mask_digits_text(norms: Joined) -> str | None:
    """The texts of :func:`mask_digits_joined`, joined by ``norms.sep``, made from the
    joined form without a string per text, when ``norms`` has one and it is ASCII
    (``None`` otherwise)."""
    if norms.joined is None or not norms.sep or not norms.texts or not norms.joined.isascii():
        return None
    masked = _masked(np.frombuffer(norms.joined.encode("ascii"), dtype=np.uint8))
    if masked is None:
        return norms.joined
    out, keep = masked
    return out[keep].tobytes().decode("ascii")


def mask_digits_joined(norms: Joined) -> Joined:
    """:func:`mask_digits_many` of the texts of ``norms``, reading their joined form when it
    is there, with the results joined when the batch had them at hand."""
    given = None if norms.joined is None else (norms.joined, norms.sep)
    return _batched(norms.texts, _fast_mask, mask_digits, given)
