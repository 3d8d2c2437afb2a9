"""Name normalisation and the name-similarity score shared by the matcher and its tests.

Three forms of a name are compared, strictest first:

- ``raw``: whitespace-collapsed, as the platform gave it;
- ``norm``: NFKC, case-folded, zero-width characters and edge punctuation removed;
- ``mask``: ``norm`` with every run of digits replaced by ``#``, so counters and dates that
  change between runs ("Inbox (3)" -> "Inbox (12)") still agree, a little below an exact match.

:func:`name_similarity` is the scalar definition; the matcher computes the same numbers for a
whole table at once.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from rapidfuzz import fuzz

__all__ = [
    "NAME_TIERS",
    "collapse",
    "container_similarity",
    "fuzzy_score",
    "mask_digits",
    "name_similarity",
    "normalize",
]

_WS = re.compile(r"\s+")
_ZERO_WIDTH = re.compile("[\u200b-\u200f\u2060-\u2064\ufeff\u00ad\ufffc\ufffd]")
_EDGE_PUNCT = re.compile(r"^[\W_]+|[\W_]+$", re.UNICODE)
_DIGITS = re.compile(r"\d+(?:[.,:/]\d+)*")

NAME_TIERS: Final[dict[str, float]] = {
    "exact": 1.0,  # same text after collapsing whitespace
    "normalized": 0.97,  # same after case folding, Unicode NFKC and edge punctuation
    "masked": 0.9,  # same once digit runs are masked: counters, dates, prices changed
    "fuzzy_cap": 0.88,  # fuzzy agreement never outranks an exact or masked one
    "token_set_factor": 0.85,  # token_set_ratio rewards added words; count it a little less
}
"""Scores for each agreement tier (data, not code: tune here)."""


def collapse(text: str) -> str:
    """Collapse internal whitespace and strip the ends."""
    return _WS.sub(" ", text).strip()


def normalize(text: str) -> str:
    """The comparison form of a name.

    >>> normalize("  Sign\u00a0IN » ")
    'sign in'
    """
    text = unicodedata.normalize("NFKC", text)
    text = _ZERO_WIDTH.sub("", text)
    text = collapse(text).casefold()
    return _EDGE_PUNCT.sub("", text)


def mask_digits(norm: str) -> str:
    """Replace digit runs (with their separators) by ``#``.

    >>> mask_digits("inbox (12)"), mask_digits("page 1.5 of 3")
    ('inbox (#)', 'page # of #')
    """
    return _DIGITS.sub("#", norm)


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
    """Fuzzy tier on normalised strings: max(ratio, factor * token_set_ratio), capped."""
    if not q_norm or not c_norm:
        return 0.0
    best = max(
        fuzz.ratio(q_norm, c_norm),
        NAME_TIERS["token_set_factor"] * fuzz.token_set_ratio(q_norm, c_norm),
    )
    return min(best / 100.0, NAME_TIERS["fuzzy_cap"])


LANDMARK_ENTRY_WEIGHT: Final[float] = 0.5


def _item_similarity(query: str, candidate: str) -> float:
    """One container entry against another: exact-ish agreement counts, vague does not."""
    sim = name_similarity(query, candidate)
    if sim >= NAME_TIERS["masked"]:
        return sim
    # Fuzzy agreement between container names is weak evidence ("Carol Diaz ... Edit Delete"
    # and "Dave Evans ... Edit Delete" share half their words): stretch and square it so
    # only close variants count.
    stretched = max(0.0, (sim - 0.5) / (NAME_TIERS["fuzzy_cap"] - 0.5))
    return min(stretched, 1.0) ** 2 * NAME_TIERS["fuzzy_cap"]


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
        # Unnamed landmarks ("[banner]") are structure, not identity: redesigns move them.
        weight = float(4**depth) * (LANDMARK_ENTRY_WEIGHT if item.startswith("[") else 1.0)
        total += weight * max(_item_similarity(item, other) for other in path)
        weight_sum += weight
    return total / weight_sum
