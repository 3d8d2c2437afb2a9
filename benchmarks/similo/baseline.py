"""A Similo-style baseline: weighted property similarity, always answering the best candidate.

As in Similo (Nass, Alégroth, Feldt et al., TOSEM 2023; its replication package's
``WidgetLocator``), fourteen properties are compared, each where both widgets have a value,
and their similarities summed with these weights:

=============  ======  ===========================================================
property       weight  similarity
=============  ======  ===========================================================
tag            1.5     equal (case-insensitive)
class          0.5     Levenshtein
name           1.5     equal
id             1.5     equal
href           0.5     Levenshtein
alt            0.5     Levenshtein
xpath          0.5     Levenshtein
idxpath        0.5     Levenshtein
is_button      0.5     equal
location       0.5     ``max(100 - distance of the top-left corners in px, 0) / 100``
area           0.5     ``(max - |a - b|) / max``
shape          0.5     ``(max - |a - b|) / max``
visible_text   1.5     Levenshtein
neighbor_text  1.5     share of the characters of one side's words found in the other's
=============  ======  ===========================================================

Levenshtein similarity is ``(len(longer) - distance) / len(longer)``, the distance taken over
the letters and digits of the lower-cased values; two empty values score 0. ``visible_text``
is the property where the corpus has it, else Similo's fallback (the text, else the value,
else the placeholder). Ties go to the first candidate in the corpus' order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Final

from rapidfuzz.distance import Levenshtein

from .data import Widget

__all__ = ["WEIGHTS", "similo_best", "similo_score"]

Similarity = Callable[[Widget, Widget], float | None]


def _value(widget: Widget, key: str) -> str | None:
    value = widget.get(key)
    return value.lower() if value else None


def _visible_text(widget: Widget) -> str | None:
    for key in ("visible_text", "text", "value", "placeholder"):
        value = _value(widget, key)
        if value:
            return value
    return None


def _equal_text(a: str, b: str) -> float:
    return 1.0 if a == b else 0.0


def _levenshtein(a: str, b: str) -> float:
    if not a or not b:
        return 0.0
    if a == b:
        return 1.0
    longer = max(len(a), len(b))
    stripped_a = "".join(c for c in a if c.isalnum())
    stripped_b = "".join(c for c in b if c.isalnum())
    distance = Levenshtein.distance(stripped_a, stripped_b)
    return max(longer - distance, 0) / longer


def _contains_word(word: str, words: Sequence[str]) -> bool:
    """A word found in the other side: equal, or one a prefix or suffix of the other."""
    for other in words:
        if word == other:
            return True
        shorter, longer = (word, other) if len(word) < len(other) else (other, word)
        if len(shorter) < len(longer) and (longer.startswith(shorter) or longer.endswith(shorter)):
            return True
    return False


def _neighbour_text(a: str, b: str) -> float:
    if not a or not b:
        return 0.0
    words_a, words_b = a.split(), b.split()
    found = sum(len(w) for w in words_a if _contains_word(w, words_b))
    letters = max(len(a) - len(words_a) + 1, len(b) - len(words_b) + 1)
    return min(found / letters, 1.0) if letters > 0 else 0.0


def _integer(a: float, b: float) -> float:
    top = max(a, b)
    if top <= 0:
        return 1.0 if a == b else 0.0
    return max(top - abs(a - b), 0.0) / top


def _text(key: str, compare: Callable[[str, str], float]) -> Similarity:
    def similarity(target: Widget, candidate: Widget) -> float | None:
        a, b = _value(target, key), _value(candidate, key)
        return compare(a, b) if a is not None and b is not None else None

    return similarity


def _visible(target: Widget, candidate: Widget) -> float | None:
    a, b = _visible_text(target), _visible_text(candidate)
    return _levenshtein(a, b) if a is not None and b is not None else None


def _size(key: str) -> Similarity:
    def similarity(target: Widget, candidate: Widget) -> float | None:
        a, b = target.number(key), candidate.number(key)
        return _integer(a, b) if a is not None and b is not None else None

    return similarity


def _location(target: Widget, candidate: Widget) -> float | None:
    xa, ya = target.number("x"), target.number("y")
    xb, yb = candidate.number("x"), candidate.number("y")
    if xa is None or ya is None or xb is None or yb is None:
        return None
    return max(100.0 - math.hypot(xa - xb, ya - yb), 0.0) / 100.0


WEIGHTS: Final[tuple[tuple[str, float, Similarity], ...]] = (
    ("tag", 1.5, _text("tag", _equal_text)),
    ("class", 0.5, _text("class", _levenshtein)),
    ("name", 1.5, _text("name", _equal_text)),
    ("id", 1.5, _text("id", _equal_text)),
    ("href", 0.5, _text("href", _levenshtein)),
    ("alt", 0.5, _text("alt", _levenshtein)),
    ("xpath", 0.5, _text("xpath", _levenshtein)),
    ("idxpath", 0.5, _text("idxpath", _levenshtein)),
    ("is_button", 0.5, _text("is_button", _equal_text)),
    ("location", 0.5, _location),
    ("area", 0.5, _size("area")),
    ("shape", 0.5, _size("shape")),
    ("visible_text", 1.5, _visible),
    ("neighbor_text", 1.5, _text("neighbor_text", _neighbour_text)),
)
"""``(property, weight, similarity)``: Similo's properties and weights (module docstring)."""


def similo_score(target: Widget, candidate: Widget) -> float:
    """The weighted similarity of a candidate to the target (a property either lacks adds 0)."""
    total = 0.0
    for _, weight, similarity in WEIGHTS:
        value = similarity(target, candidate)
        if value is not None:
            total += weight * value
    return total


def similo_best(target: Widget, candidates: Sequence[Widget]) -> tuple[int, float] | None:
    """``(index, score)`` of the highest-scoring candidate (the first of equals), or None
    when there are no candidates."""
    best: tuple[int, float] | None = None
    for index, candidate in enumerate(candidates):
        score = similo_score(target, candidate)
        if best is None or score > best[1]:
            best = (index, score)
    return best
