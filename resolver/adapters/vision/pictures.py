"""Pictures that did not load, drawn side by side in one line, read as one text run.

A page shown without its pictures draws each one as a broken-image icon followed by its
alternative text. A row of them (sharing links: "Print", "Email", "Twitter") is read by OCR
as one run across the icons ("PrintEmail TwitterFacebook"), its words glued where no space
was drawn. :func:`pictures_in_run` cuts such a run at its icons: each icon's picture is named
by the text between it and the next icon. A word an icon lies inside is cut where its
letters reach the icon, each letter taken as wide as the word's ink (its width without the
icon's) shared evenly among its letters, moved to the nearest place where a capital follows
a small letter when one lies within :data:`SNAP_CHARS` letters (links drawn without a space
between them start with a capital, as "Email" in "PrintEmail").
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Final

from ...geometry import Box
from .ocr import Word

__all__ = ["SNAP_CHARS", "pictures_in_run"]

SNAP_CHARS: Final[int] = 2
"""How many letters an estimated cut may move to fall where a capital follows a small
letter."""


def pictures_in_run(
    words: Sequence[Word], run: Box, icons: Sequence[Box]
) -> tuple[tuple[int, str, Box], ...]:
    """Per icon of ``icons`` (boxes, in the run's line, left to right) that the run's text
    follows, ``(index into icons, the text up to the next icon, box of the icon and that
    text)``; empty unless at least two icons are followed by text. ``run`` is the run's box,
    ``words`` its OCR words."""
    order = sorted(range(len(icons)), key=lambda k: icons[k][0])
    letters = _letters(words, [icons[k] for k in order])
    out: list[tuple[int, str, Box]] = []
    for j, k in enumerate(order):
        start = icons[k][2]
        stop = icons[order[j + 1]][0] if j + 1 < len(order) else run[2] + 1.0
        taken = [(char, x) for char, x in letters if start - 1.0 <= x < stop]
        text = "".join(char for char, _ in taken).strip()
        if not text:
            continue
        right = max(x for char, x in taken if not char.isspace())
        box = (icons[k][0], run[1], min(run[2], max(right, icons[k][2])), run[3])
        out.append((k, " ".join(text.split()), box))
    return tuple(out) if len(out) >= 2 else ()


def _letters(words: Sequence[Word], icons: Sequence[Box]) -> list[tuple[str, float]]:
    """Every character of ``words`` with the x of its middle (a space between two words at
    the gap), the icons inside a word taking their width out of its letters'."""
    out: list[tuple[str, float]] = []
    for n, word in enumerate(words):
        if n:
            out.append((" ", word.box[0] - 0.5))
        out += _placed(word, icons)
    return out


def _placed(word: Word, icons: Sequence[Box]) -> list[tuple[str, float]]:
    """The characters of ``word`` with their middles' x. Each icon inside the word cuts it
    where its letters reach the icon (the word's ink, its width less the icons', shared
    evenly), moved to the nearest small-to-capital step within :data:`SNAP_CHARS`; the
    letters of each piece then share the piece's own span evenly."""
    left, right = word.box[0], word.box[2]
    inside = sorted((b for b in icons if left < (b[0] + b[2]) / 2.0 < right), key=lambda b: b[0])
    text = word.text
    if not text:
        return []
    ink = max(right - left - sum(b[2] - b[0] for b in inside), 1.0)
    width = ink / len(text)
    cuts = [_snapped(text, round((b[0] - left - _before(b, inside)) / width)) for b in inside]
    bounds = [0]
    for cut in cuts:  # (in order: two cuts snapped to one place leave an empty piece)
        bounds.append(min(max(cut, bounds[-1]), len(text)))
    bounds.append(len(text))
    spans = [left, *(x for b in inside for x in (b[0], b[2])), right]
    out: list[tuple[str, float]] = []
    for n, (first, last) in enumerate(pairwise(bounds)):
        if last <= first:
            continue
        begin, end = spans[2 * n], spans[2 * n + 1]
        step = max(end - begin, 1.0) / (last - first)
        out += [(text[i], begin + step * (i - first + 0.5)) for i in range(first, last)]
    return out


def _before(icon: Box, inside: Sequence[Box]) -> float:
    """The width of the icons of ``inside`` left of ``icon``."""
    return sum(b[2] - b[0] for b in inside if b[2] <= icon[0])


def _snapped(text: str, cut: int) -> int:
    """``cut`` (a character index) moved to the nearest index within :data:`SNAP_CHARS`
    where a capital follows a small letter, if any."""
    steps = [
        i
        for i in range(max(1, cut - SNAP_CHARS), min(len(text), cut + SNAP_CHARS + 1))
        if text[i].isupper() and text[i - 1].islower()
    ]
    return min(steps, key=lambda i: abs(i - cut)) if steps else max(0, min(cut, len(text)))
