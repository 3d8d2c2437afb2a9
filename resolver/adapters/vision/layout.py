"""Layout: OCR lines and widget shapes become the elements of a screen, in reading order.

1. **Text runs.** An OCR line is split where its words change colour (a blue "Create
   account" after grey "Don't have an account?") or where a lone glyph stands apart (a
   logo before "Sign in with Google") or passes from one control's shape into another's
   (the captions of two adjacent buttons read as one line) or passes over a checkbox or
   radio drawn between two words (``☐ Include Unpublished ☐ Include Replies`` is two
   labels), and a short line where the
   blank between two words is much wider than a space (a menu of plain-text links, "News
   Sport Weather", read as one line); each run is one text item with its words.
2. **Text into widgets.** Each text item goes into the smallest control-sized shape that holds
   most of it (a button's caption, a field's value); an icon inside a shape goes with it (an
   icon button, a select's chevron).
   A disclosure triangle before a text (``▶ Advanced options``, a ``<details>`` summary)
   makes the text a disclosure control, named without the triangle; it is not the caption
   of the bordered ``<details>`` box around it.
3. **Icons.** A lone glyph in an icon-sized box (``×``) is an icon, named by what such a glyph
   conventionally means (:data:`~resolver.adapters.vision.roles.GLYPH_NAMES`).
4. **Labels.** Free text names the field or select to its right or below it, and the
   checkbox or radio to its left; the label stays a text element of its own.
5. **Captioned tables.** A line of text alone on its line, directly above three or more
   bands of two or more filled cells whose columns line up under it (a ``<caption>`` over
   its table), is the table's name: a ``table`` element around the caption and the cells
   (their rows wrapped as in step 6), found within the caption's column so that a form
   beside it does not count.
6. **Table rows.** Three or more consecutive bands of elements whose columns line up are a
   table: each band becomes a ``row`` element around its cells, named by their text, so a
   recorded row ("Alice Johnson ... Edit Delete") tells one "Edit" from the next.

The result is a list of :class:`Element` in pre-order (a parent before its children).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise
from statistics import median
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from ...geometry import Box, box_area, share_inside
from ...text import close_unspaced, normalize, unspaced
from .ocr import TextLine, Word
from .roles import (
    BOX_GLYPHS,
    CHEVRONS,
    DISCLOSURES,
    FIELD_ASPECT,
    MAX_CONTROL_HEIGHT,
    Hypotheses,
    control_roles,
    disclosure_roles,
    glyph_name,
    icon_roles,
    is_link_color,
    saturation,
    text_roles,
)
from .widgets import Widget

__all__ = [
    "Element",
    "TextItem",
    "disclosures",
    "ink_height",
    "item_gaps",
    "label_gap",
    "layout",
    "name_tokens",
    "run_underlined",
    "split_line",
    "stroke_width",
    "text_color",
    "underlined",
    "union_box",
    "words_box",
    "words_run",
]

Color = tuple[float, float, float]
Pixels = npt.NDArray[np.uint8]

COLOR_SPLIT: Final[float] = 90.0
"""BGR distance between two words' colours that splits a line into two runs."""
LINK_SPLIT: Final[float] = 0.2
"""Saturation difference that splits a link-coloured word from a word that is not: JPEG
chroma subsampling and small text wash a link's blue out of thin strokes, so its distance
from grey text falls under :data:`COLOR_SPLIT` while its hue still tells."""
GLYPH_GAP: Final[float] = 0.5
"""A one-character word this far (in line heights) from its neighbour is a glyph apart."""
WIDE_GAP: Final[float] = 1.6
"""Words this far apart (in line heights) are separate items the detector joined."""
BETWEEN_SLACK: Final[float] = 2.0
"""How far (px) a checkbox or radio may reach into a word's box and still stand between two
words (OCR word boxes take in a pixel or two of the blank around the ink)."""
ITEM_GAP: Final[float] = 0.65
"""Blank between two words' ink, in ink heights, that separates two items of a short line
(a space is about 0.3-0.6 of the ink height; menu items set apart by a margin, 0.67 up).
A line is split so only when every blank between its words is that wide (a menu of
one-word items: "News Sport Weather Travel"), never at one wide space."""
ITEM_MIN_WORDS: Final[int] = 3
"""Fewest words a line split at :data:`ITEM_GAP` has (a two-word heading is not a menu)."""
ITEM_LINE_WORDS: Final[int] = 6
"""Longest line (in words) split at :data:`ITEM_GAP`: the wide spaces of a justified
paragraph's long lines do not split it."""
ITEM_INK_SHARE: Final[float] = 0.25
"""Share of a line's strongest contrast from which a pixel is ink when blanks between words
are measured: faint small text (grey on a dark theme) keeps its anti-aliased strokes, so a
plain space does not measure as a wide blank."""
ITEM_INK_FLOOR: Final[float] = 24.0
"""Least summed BGR contrast counted as ink there (JPEG noise stays background)."""
INK: Final[float] = 60.0
"""A pixel this far from the background is ink."""
INSIDE: Final[float] = 0.7
"""Share of a text box that must lie inside a shape for the text to belong to it."""
ICON_GLYPH: Final[tuple[float, float]] = (10.0, 48.0)
"""Height range (px) of a lone glyph that is an icon."""
LABEL_LEFT_GAP: Final[float] = 320.0
"""Farthest a label left of a field may be (px)."""
LABEL_ABOVE_GAP: Final[float] = 28.0
"""Farthest a label above a field may be (px)."""
LABEL_ABOVE_INDENT: Final[float] = 48.0
"""Farthest left of a field a label above it may start (px): a definition list draws its
terms ("Password:") at the left and indents the fields under them by 40 px."""
GRID_MIN_BANDS: Final[int] = 3
GRID_MIN_CELLS: Final[int] = 3
COLUMN_SLACK: Final[float] = 8.0
"""Two cells are in one column when their left edges are this close (px)."""
MAX_ROW_NAME: Final[int] = 200
CAPTION_SLACK: Final[float] = 12.0
"""A table's first column starts this close (px) to its caption's left edge."""
CAPTION_GAP: Final[float] = 1.0
"""Farthest (in caption heights) a table's first band may start below the caption, and
each band below the one before."""
INK_HEIGHT_CONTRAST: Final[float] = 150.0
"""Summed BGR distance from the background at which a pixel counts for a text's ink height
(anti-aliased fringes below it do not)."""
INK_RELATIVE: Final[float] = 0.5
"""On text of low contrast (dark text on a dark page, pale text on white) the ink is the
pixels at least this share of the crop's largest distance from its background, where that
is less than :data:`INK_HEIGHT_CONTRAST`."""
INK_FLOOR: Final[float] = 45.0
"""A crop whose pixels are all closer than this (summed BGR) to its background has no ink."""
INK_ROW_SHARE: Final[float] = 0.02
"""Share of a text box's width a pixel row must ink to count for its ink height."""
INK_MARGIN: Final[float] = 0.08
"""Share of a text box's width at either end left out of its ink height."""
LINE: Final[float] = 0.85
"""A row inked over more than this share of the width is a line, not text."""
INK_BAND_GAP: Final[int] = 2
"""Blank rows (more than this many) that part a text's ink from ink of a line above or
below its box took in."""
UNDERLINE: Final[float] = 0.9
"""Share of the columns of a text's letters that a row in the lower half of its box must
cover to underline it, inked or left blank where a descender crosses it (a link's underline
breaks only there; the serifs and round bottoms of plain text ink about half of the
baseline row) ..."""
UNDERLINE_RAW: Final[float] = 0.6
"""... of which this share inked by the row itself (the rest left blank around descenders,
see :data:`SKIP_INK`)."""
UNDERLINE_BELOW: Final[float] = 0.35
"""... and the rows just above and under it ink at most this share (descenders, or
nothing): the flat feet of bold letters on their baseline touch the row above them."""
SKIP_INK: Final[int] = 3
"""Columns (px) on either side of a descender that an underline leaves blank."""
UNDERLINE_SLACK: Final[int] = 2
"""How far (px) an underline may reach past the letters above it; a row that reaches further
is a border or a rule under the text, not its underline."""
UNDERLINE_MAX_INK: Final[float] = 0.5
"""Share of a text's box above which what differs from the box's edges is a fill, not ink
(the box of a caption inside a filled button): no underline is sought there."""
UNDERLINE_MIN_CHARS: Final[int] = 2
"""Fewest letters of an underlined text (a lone ``+`` or bullet has a bar of its own)."""


@dataclass(frozen=True)
class TextItem:
    """A run of words of one colour on one line."""

    text: str
    box: Box
    score: float
    color: Color | None
    disclosure: bool = False
    """A disclosure triangle stood before the text (dropped from ``text``)."""
    words: tuple[Word, ...] = ()
    """The OCR words of the run, with their boxes."""


@dataclass
class Element:
    """One thing on screen.

    Attributes
    ----------
    kind:
        ``"control"``, ``"text"``, ``"icon"`` or ``"row"``.
    raw_role:
        What vision saw: ``text``, ``rect``, ``checkbox``, ``radio``, ``icon``, ``glyph``,
        ``detected:<class>``, ``row``.
    box:
        ``(left, top, right, bottom)`` in pixels of the image read.
    roles:
        Role hypotheses, best first (:mod:`resolver.adapters.vision.roles`).
    parent:
        Index of the parent element, -1 for top-level ones.
    """

    kind: str
    raw_role: str
    box: Box
    name: str = ""
    value: str = ""
    roles: Hypotheses = ()
    score: float = 1.0
    parent: int = -1
    children: list[Element] = field(default_factory=list, repr=False)
    words: tuple[Word, ...] = field(default=(), repr=False)
    """A text element's OCR words with their boxes (a name found inside a longer run is
    pointed at by its own words: :func:`words_box`)."""


def union_box(boxes: Sequence[Box]) -> Box:
    """The smallest box holding every box of ``boxes`` (at least one)."""
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _cy(box: Box) -> float:
    return (box[1] + box[3]) / 2.0


def _crop(pixels: Pixels, box: Box) -> npt.NDArray[np.int16] | None:
    """The pixels of ``box`` (clipped to the image) as signed integers, or ``None`` when
    fewer than three rows or columns remain."""
    height, width = pixels.shape[:2]
    left, top = max(0, int(box[0])), max(0, int(box[1]))
    right, bottom = min(width, int(box[2] + 0.5)), min(height, int(box[3] + 0.5))
    crop = pixels[top:bottom, left:right]
    if crop.shape[0] < 3 or crop.shape[1] < 3:
        return None
    return crop.astype(np.int16)


def text_color(pixels: Pixels, box: Box) -> Color | None:
    """The ink colour of the text in ``box`` (BGR), or None when there is too little ink."""
    crop = _crop(pixels, box)
    if crop is None:
        return None
    edge = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]]).astype(np.float64)
    background = np.median(edge, axis=0)
    flat = crop.reshape(-1, 3).astype(np.float64)
    distance = np.abs(flat - background).sum(axis=1)
    ink = flat[distance > INK]
    if len(ink) < 4:
        return None
    core = ink[distance[distance > INK] >= np.quantile(distance[distance > INK], 0.6)]
    blue, green, red = (float(v) for v in np.median(core, axis=0))
    return (blue, green, red)


def _far(a: Color | None, b: Color | None, *, shade: bool = True) -> bool:
    """Whether two words' colours differ enough to be two runs: far apart (unless ``shade``
    is off), or one a link's colour and the other less saturated by :data:`LINK_SPLIT`."""
    if a is None or b is None:
        return False
    if shade and float(np.linalg.norm(np.subtract(a, b))) > COLOR_SPLIT:
        return True
    return is_link_color(a) != is_link_color(b) and abs(saturation(a) - saturation(b)) >= LINK_SPLIT


def split_line(pixels: Pixels, line: TextLine, shapes: Sequence[Widget] = ()) -> list[TextItem]:
    """The runs of one OCR line (see the module docstring, step 1); a line is also split
    where its words pass from one of ``shapes`` into another (captions of two adjacent
    buttons read as one line)."""
    words = line.words or (Word(line.text, line.box, line.score),)
    colors = [text_color(pixels, w.box) for w in words]
    holders = [_holder(w.box, shapes) if len(words) > 1 else -1 for w in words]
    boxes = _boxes_on(words, shapes) if len(words) > 1 else []
    height = line.box[3] - line.box[1]
    apart = item_gaps(pixels, line) if ITEM_MIN_WORDS <= len(words) <= ITEM_LINE_WORDS else []
    apart = apart if all(apart) else []  # a menu: every blank wide, not a stretched space
    groups: list[list[int]] = [[0]]
    for i in range(1, len(words)):
        gap = words[i].box[0] - words[i - 1].box[2]
        lone = len(words[i].text) == 1 or len(words[i - 1].text) == 1
        if (
            gap >= WIDE_GAP * height
            or (lone and gap >= GLYPH_GAP * height)
            or _far(colors[i], colors[i - 1], shade=not _one_glyph_each(words[i - 1], words[i]))
            or holders[i] != holders[i - 1]
            or _box_between(words[i - 1].box, words[i].box, boxes)
            or (apart and apart[i - 1])
        ):
            groups.append([])
        groups[-1].append(i)
    if len(groups) == 1:  # the words' span: a line box may take in a checkbox or a logo
        box = (
            (words[0].box[0], line.box[1], words[-1].box[2], line.box[3])
            if line.words
            else line.box
        )
        return [TextItem(line.text, box, line.score, _main_color(colors), words=line.words)]
    items = []
    for group in groups:
        box = union_box([words[i].box for i in group])
        text = close_unspaced(" ".join(words[i].text for i in group))
        score = min(words[i].score for i in group)
        items.append(TextItem(text, (box[0], line.box[1], box[2], line.box[3]), score,
                              _main_color([colors[i] for i in group]),
                              words=tuple(words[i] for i in group)))  # fmt: skip
    return items


def _boxes_on(words: Sequence[Word], shapes: Sequence[Widget]) -> list[Box]:
    """The checkboxes and radios whose middle lies within the words' height: the only ones
    :func:`_box_between` can find between two of them."""
    top, bottom = min(w.box[1] for w in words), max(w.box[3] for w in words)
    return [
        s.box
        for s in shapes
        if s.kind in ("checkbox", "radio") and top <= (s.box[1] + s.box[3]) / 2.0 <= bottom
    ]


def _box_between(left: Box, right: Box, boxes: Sequence[Box]) -> bool:
    """Whether one of ``boxes`` (checkboxes, radios) is drawn in the blank between two
    words of a line, at the line's height: the next word is the next control's label."""
    for box in boxes:
        middle = (box[1] + box[3]) / 2.0
        level = left[1] <= middle <= left[3] and right[1] <= middle <= right[3]
        if level and box[0] >= left[2] - BETWEEN_SLACK and box[2] <= right[0] + BETWEEN_SLACK:
            return True
    return False


def _one_glyph_each(a: Word, b: Word) -> bool:
    """Whether two words are single characters of a script written without spaces: OCR
    reads Chinese and Japanese a character at a time, and one glyph's few strokes give its
    shade only roughly (a black character read as grey 61 beside one read as black), so
    only a change of hue splits them."""
    return len(a.text) == 1 == len(b.text) and unspaced(a.text) and unspaced(b.text)


def item_gaps(pixels: Pixels, line: TextLine) -> list[bool]:
    """Per pair of neighbouring words of ``line``, whether the widest blank between their
    ink (searched between the two words' centres) is at least :data:`ITEM_GAP` ink heights."""
    words = line.words
    left = max(0, int(line.box[0]))
    crop = _crop(pixels, line.box)
    if crop is None or len(words) < 2:
        return [False] * max(0, len(words) - 1)
    edge = np.concatenate([crop[0], crop[-1]])
    contrast = np.abs(crop - np.median(edge, axis=0)).sum(axis=2)
    ink = contrast > max(ITEM_INK_FLOOR, ITEM_INK_SHARE * float(contrast.max()))
    rows = np.flatnonzero(ink.any(axis=1))
    tall = float(rows[-1] - rows[0] + 1) if rows.size else 0.0
    columns = ink.any(axis=0)
    out = []
    for a, b in pairwise(words):
        start = max(0, int((a.box[0] + a.box[2]) / 2) - left)
        stop = min(columns.size, int((b.box[0] + b.box[2]) / 2) - left)
        out.append(tall > 0 and _widest_blank(columns[start:stop]) >= ITEM_GAP * tall)
    return out


def _widest_blank(columns: npt.NDArray[np.bool_]) -> int:
    """The longest run of False strictly between True values of ``columns``."""
    inked = np.flatnonzero(columns)
    if inked.size < 2:
        return 0
    return int((np.diff(inked) - 1).max())


def _token(text: str) -> str:
    return text.casefold().strip(".,:;!?\"'()[]{}«»“”‘’")


def name_tokens(text: str) -> list[str]:
    """The words of ``text`` as runs are compared with a name: case folded, the punctuation
    around each word left out, empty words dropped.

    >>> name_tokens("Powered by Tumblr!")
    ['powered', 'by', 'tumblr']
    """
    return [t for t in (_token(w) for w in text.split()) if t]


def words_run(element: Element, name: str, *, unbounded: bool = False) -> tuple[str, Box] | None:
    """The words of a text ``element`` that read ``name`` (their text and box), when its run
    is longer than the name (a name inside a run that merged it with its neighbours: "Sport"
    in "News Sport Weather"); ``None`` when the run is the name or does not hold it word for
    word (case and the punctuation around words aside). ``unbounded`` also finds a name in a
    script written without spaces anywhere inside the run (:func:`_unspaced_run`): where an
    answer already made points, not a reason to make one."""
    wanted = name_tokens(name)
    words = [w for w in element.words if _token(w.text)]
    if not wanted:
        return None
    if len(words) > len(wanted):
        tokens = [_token(w.text) for w in words]
        for start in range(len(tokens) - len(wanted) + 1):
            if tokens[start : start + len(wanted)] == wanted:
                run = words[start : start + len(wanted)]
                left, _, right, _ = union_box([w.box for w in run])
                return " ".join(w.text for w in run), (left, element.box[1], right, element.box[3])
    if len(words) >= len(wanted):  # as many words: one of them may hold the name and more
        found = _touching(element, words, name.strip())
        if found is not None or not unbounded:
            return found
    return _unspaced_run(element, words, name) if unbounded else None


def _touching(element: Element, words: list[Word], name: str) -> tuple[str, Box] | None:
    """``name`` inside the words, bounded by capitals where it touches other letters: links
    drawn without a space between them ("LatestVideoThe Bests" holds "Video" and "The
    Bests"; "all postsSubscribe" holds "all posts", which starts a word), or by
    the one joiner of a word of two parts (:func:`_joined_pair`). Its box
    spans the characters it takes, each word's width shared evenly among its characters (an
    estimate: a proportional face draws them unevenly). The name is found in any case (a
    recorder may have lower- or upper-cased it), and returned as drawn."""
    if len(name) < 2 or not name[0].isalpha():
        return None
    text = " ".join(w.text for w in words)
    seek, sought = text.lower(), name.lower()
    if len(seek) != len(text) or len(sought) != len(name):
        seek, sought = text, name  # (a letter whose lower case is longer: as written)
    at = seek.find(sought)
    while at >= 0:
        end = at + len(name)
        drawn = text[at:end]
        before = text[at - 1] if at else " "
        after = text[end] if end < len(text) else " "
        if _joined_pair(text, at, end) or (
            (before == " " or (drawn[0].isupper() and before.islower()))
            and (after == " " or after.isupper())
            and (before != " " or after != " ")
        ):
            return drawn, _char_box(element, words, at, end)
        at = seek.find(sought, at + 1)
    return None


JOINERS: Final[str] = "/|"
"""Characters that join two links drawn without spaces into one word ("owner/repository")."""


def _joined_pair(text: str, at: int, end: int) -> bool:
    """Whether ``text[at:end]`` is one side of a word made of two parts and one joiner
    (:data:`JOINERS`): "ageitgey/node-unfluff" holds "ageitgey" and "node-unfluff"; an
    address with its many slashes holds no name so."""
    start = text.rfind(" ", 0, at) + 1
    stop = text.find(" ", end)
    stop = len(text) if stop < 0 else stop
    if sum(text.count(j, start, stop) for j in JOINERS) != 1:
        return False
    if at == start and end < stop:
        return text[end] in JOINERS
    return end == stop and at > start and text[at - 1] in JOINERS


def _unspaced_run(element: Element, words: list[Word], name: str) -> tuple[str, Box] | None:
    """``name``, in a script written without spaces between words (Chinese, Japanese), inside
    a longer run (links drawn side by side read as one: "分享 0 博客" holds "博客"); spaces
    between two such characters are not compared (:func:`resolver.text.close_unspaced`). Its box
    spans the characters it takes, as :func:`_touching`'s does."""
    target = close_unspaced(normalize(name))
    if not target or not any(unspaced(c) for c in target):
        return None
    text = " ".join(w.text for w in words)
    kept: list[int] = []
    for k, char in enumerate(text):
        gap = char == " " and 0 < k < len(text) - 1
        if not (gap and unspaced(text[k - 1]) and unspaced(text[k + 1])):
            kept.append(k)
    compact = "".join(text[k] for k in kept).casefold()
    if len(compact) != len(kept) or len(compact) <= len(target):
        return None  # a case fold that changes lengths, or the run is the name
    at = compact.find(target)
    if at < 0:
        return None
    start, end = kept[at], kept[at + len(target) - 1] + 1
    return text[start:end], _char_box(element, words, start, end)


def _char_box(element: Element, words: list[Word], start: int, end: int) -> Box:
    """The box of characters ``start`` to ``end`` of the words joined by single spaces."""
    xs: list[float] = []
    offset = 0
    for word in words:
        last = offset + len(word.text)
        step = (word.box[2] - word.box[0]) / max(len(word.text), 1)
        first, stop = max(start, offset), min(end, last)
        xs += [word.box[0] + step * (k - offset) for k in range(first, stop + 1)]
        offset = last + 1
    return (min(xs), element.box[1], max(xs), element.box[3])


def words_box(element: Element, name: str) -> Box | None:
    """The box of :func:`words_run` (``unbounded``), or ``None``."""
    found = words_run(element, name, unbounded=True)
    return None if found is None else found[1]


def disclosures(items: Sequence[TextItem]) -> list[TextItem]:
    """The runs of one line with disclosure triangles taken off the text they open: a
    triangle read into the first word (``▶Advanced``) or as a run of its own just before
    the next run."""
    out: list[TextItem] = []
    for item in items:
        text = item.text.strip()
        prev = out[-1] if out else None
        if prev is not None and prev.text.strip() in DISCLOSURES and not item.disclosure:
            height = item.box[3] - item.box[1]
            if item.box[0] - prev.box[2] <= WIDE_GAP * height:
                box = (prev.box[0], min(prev.box[1], item.box[1]), item.box[2],
                       max(prev.box[3], item.box[3]))  # fmt: skip
                out[-1] = replace(item, box=box, disclosure=True)
                continue
        if len(text) > 1 and text[0] in DISCLOSURES and text[1:].strip():
            item = replace(item, text=text[1:].strip(), disclosure=True)
        out.append(item)
    return out


def _main_color(colors: Sequence[Color | None]) -> Color | None:
    known = [c for c in colors if c is not None]
    if not known:
        return None
    blue, green, red = (float(v) for v in np.median(np.asarray(known), axis=0))
    return (blue, green, red)


def _is_glyph(item: TextItem) -> bool:
    """A lone non-letter character (or the letter X) in an icon-sized box."""
    glyph = item.text.strip()
    width, height = item.box[2] - item.box[0], item.box[3] - item.box[1]
    return (
        len(glyph) == 1
        and (not glyph.isalnum() or glyph in ("X", "x"))
        and ICON_GLYPH[0] <= height <= ICON_GLYPH[1]
        and 0.4 <= width / max(height, 1.0) <= 2.5
    )


# -- widgets and what is inside them ---------------------------------------------------------


def _is_control(widget: Widget) -> bool:
    if widget.kind == "frame":
        return False
    return widget.kind != "rect" or widget.height <= MAX_CONTROL_HEIGHT


def _holder(box: Box, shapes: Sequence[Widget]) -> int:
    """The smallest control-sized shape holding most of ``box``, or -1."""
    best, best_area = -1, float("inf")
    for i, shape in enumerate(shapes):
        if shape.kind in ("checkbox", "radio", "icon"):
            continue
        area = box_area(shape.box)
        if area < best_area and share_inside(box, shape.box) >= INSIDE and area > box_area(box):
            best, best_area = i, area
    return best


def _chevron(shape: Widget, texts: Sequence[TextItem], icons: Sequence[Widget]) -> bool:
    """A down-arrow at the right end of a shape: a select."""
    right = shape.box[2] - min(40.0, 0.2 * shape.width)
    glyphs = any(t.text.strip() in CHEVRONS and t.box[0] >= right for t in texts)
    return glyphs or any(i.box[0] >= right and i.height <= 0.6 * shape.height for i in icons)


def _control(shape: Widget, texts: list[TextItem], icons: list[Widget]) -> Element:
    """A control element with its caption texts as children."""
    chevron = _chevron(shape, texts, icons)
    captions = [t for t in texts if not (chevron and t.text.strip() in CHEVRONS)]
    roles = control_roles(shape.kind, shape.box, [t.box for t in captions], shape.fill, chevron)
    ordered = sorted(captions, key=lambda t: (round(_cy(t.box) / 8.0), t.box[0]))
    caption = close_unspaced(" ".join(t.text for t in ordered))
    if len(captions) == 1 and _is_glyph(captions[0]):
        caption = glyph_name(captions[0].text)
    raw = f"detected:{shape.label}" if shape.kind == "detected" else shape.kind
    if len(captions) == 1 and _box_glyph(captions[0]) and not icons:
        return _checkbox(captions[0])  # a checkbox whose outline was taken for a box
    element = Element("control", raw, shape.box, caption, caption, roles, shape.score)
    element.children = [
        Element("text", "text", t.box, t.text, "", (("text", 1.0),), t.score) for t in ordered
    ]
    element.children += [
        Element("icon", "icon", i.box, "", "", icon_roles(True), i.score) for i in icons
    ]
    return element


def _box_glyph(item: TextItem) -> bool:
    return item.text.strip() in BOX_GLYPHS


def _checkbox(item: TextItem) -> Element:
    """The checkbox a box glyph (``☐``) stands for, unnamed until its label is attached."""
    return Element("control", "checkbox", item.box, "", "", control_roles("checkbox", item.box,
                   [], (255.0, 255.0, 255.0)), item.score)  # fmt: skip


def _wide(shape: Widget) -> bool:
    return shape.width >= FIELD_ASPECT * max(shape.height, 1.0)


def _assign(
    texts: list[TextItem], widgets: Sequence[Widget]
) -> tuple[list[Element], list[TextItem], list[Widget]]:
    """Controls with their contents, the free texts, and the free icons."""
    shapes = [w for w in widgets if w.kind != "icon" and _is_control(w)]
    inside: dict[int, tuple[list[TextItem], list[Widget]]] = {}
    free_texts: list[TextItem] = []
    free_icons: list[Widget] = []
    for text in texts:
        holder = _holder(text.box, shapes)
        if holder >= 0 and text.disclosure and _wide(shapes[holder]):
            holder = -1  # a summary inside its <details> border: the summary answers
        if holder < 0:
            free_texts.append(text)
        else:
            inside.setdefault(holder, ([], []))[0].append(text)
    for icon in (w for w in widgets if w.kind == "icon"):
        holder = _holder(icon.box, shapes)
        if holder < 0:
            free_icons.append(icon)
        else:
            inside.setdefault(holder, ([], []))[1].append(icon)
    controls = [_control(shape, *inside.get(i, ([], []))) for i, shape in enumerate(shapes)]
    return controls, free_texts, free_icons


# -- labels ----------------------------------------------------------------------------------


def label_gap(label: Box, control: Element) -> float | None:
    """How far ``label`` is from where a label of ``control`` sits, or None if it is not
    there: left of or above a field or select, right of a checkbox or radio."""
    box, role = control.box, control.roles[0][0]
    height = box[3] - box[1]
    same_line = abs(_cy(label) - _cy(box)) <= 0.6 * max(height, label[3] - label[1])
    if role in ("checkbox", "radio"):
        gap = label[0] - box[2]
        return gap if same_line and -2.0 <= gap <= max(3.0 * height, 24.0) else None
    if role not in ("textbox", "combobox"):
        return None
    left_gap = box[0] - label[2]
    if same_line and -4.0 <= left_gap <= LABEL_LEFT_GAP:
        return left_gap
    above_gap = box[1] - label[3]
    aligned = box[0] - LABEL_ABOVE_INDENT <= label[0] <= box[0] + 0.5 * (box[2] - box[0])
    if aligned and -4.0 <= above_gap <= LABEL_ABOVE_GAP:
        return above_gap
    return None


def _attach_labels(controls: list[Element], texts: list[Element]) -> None:
    """Name each field, select, checkbox and radio by its nearest label (one label names one
    control); the caption inside a field stays its value."""
    pairs = []
    for c, control in enumerate(controls):
        for t, text in enumerate(texts):
            gap = label_gap(text.box, control)
            if gap is not None:
                pairs.append((gap, c, t))
    used_controls: set[int] = set()
    used_texts: set[int] = set()
    for _, c, t in sorted(pairs):
        if c in used_controls or t in used_texts:
            continue
        used_controls.add(c)
        used_texts.add(t)
        controls[c].name = texts[t].name


# -- free texts and icons --------------------------------------------------------------------


def ink_height(pixels: Pixels, box: Box) -> float:
    """Rows from the first to the last with ink in ``box`` (the text's size from ascender
    to descender), 0 when there is none. Rows inked nearly across (a border or an
    underline the box took in) and the box's outer columns (a border's sides) do not
    count."""
    crop = _crop(pixels, box)
    if crop is None:
        return 0.0
    edge = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]])
    ink = _ink(crop, edge)
    under = _underline_rows(ink)
    if under is not None:  # keep of its rows only the strokes that cross it (descenders)
        ink = ink.copy()
        ink[under] &= ink[under[0] - 1]
    margin = int(INK_MARGIN * ink.shape[1])
    ink = ink[:, margin : ink.shape[1] - margin]  # a border's sides at the box's ends
    per_row = ink.sum(axis=1)
    width = ink.shape[1]
    rows = np.flatnonzero((per_row >= max(1.0, INK_ROW_SHARE * width)) & (per_row <= LINE * width))
    if not rows.size:
        return 0.0
    # The band of the most ink: an OCR box padded into the line above or below takes in
    # the ends of its descenders or ascenders, a blank band apart.
    bands = np.split(rows, np.flatnonzero(np.diff(rows) > INK_BAND_GAP) + 1)
    band = max(bands, key=lambda b: int(per_row[b].sum()))
    return float(band[-1] - band[0] + 1)


def underlined(pixels: Pixels, box: Box, text: str, color: Color | None = None) -> bool:
    """Whether the text in ``box`` is underlined (see :data:`UNDERLINE`): a link's mark
    whatever its colour (green, grey or the page's text colour). The line is drawn in the
    text's ``color`` (when given): a grey border under black words is a control's edge."""
    if sum(not c.isspace() for c in text) < UNDERLINE_MIN_CHARS:
        return False
    crop = _crop(pixels, box)
    if crop is None:
        return False
    edge = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]])
    ink = _ink(crop, edge)
    rows = _underline_rows(ink)
    if rows is None:
        return False
    drawn = crop[rows][ink[rows]].astype(np.float64)
    line: Color = tuple(float(v) for v in np.median(drawn, axis=0))  # type: ignore[assignment]
    if color is not None and float(np.linalg.norm(np.subtract(line, color))) > COLOR_SPLIT:
        return False
    return not _edge_of_shape(pixels, box, max(0, int(box[1])) + int(rows[0]), line)


def run_underlined(pixels: Pixels, item: TextItem) -> bool:
    """Whether a run is underlined as a whole, or word by word (links side by side, "Login
    Join": each underline stops at the space between them)."""
    if underlined(pixels, item.box, item.text, item.color):
        return True
    words = [w for w in item.words if sum(not c.isspace() for c in w.text) >= UNDERLINE_MIN_CHARS]
    if len(words) < 2:
        return False
    top, bottom = item.box[1], item.box[3]
    return all(
        underlined(pixels, (w.box[0], top, w.box[2], bottom), w.text, item.color) for w in words
    )


def _edge_of_shape(pixels: Pixels, box: Box, row: int, line: Color) -> bool:
    """Whether the line in image row ``row`` under the text of ``box`` goes on past the box
    on both sides by more than :data:`UNDERLINE_SLACK` (the bottom edge of a rounded button
    whose sides the box leaves out); an underline ends with its text, at least on one side."""
    width = pixels.shape[1]
    left, right = max(0, int(box[0])), min(width, int(box[2] + 0.5))
    reach = UNDERLINE_SLACK + 2
    if left - reach < 0 or right + reach > width:
        return False
    near = np.abs(pixels[row].astype(np.float64) - np.asarray(line)).sum(axis=1) <= COLOR_SPLIT
    return bool(near[left - reach : left].all() and near[right : right + reach].all())


def _underline_rows(ink: npt.NDArray[np.bool_]) -> npt.NDArray[np.intp] | None:
    """The rows of a text crop's ink that underline its letters, or ``None``: a band of rows
    in the lower half, each covering :data:`UNDERLINE` of the columns the letters above
    span (:func:`_covered`), the rows just above and under the band sparse (the gap under
    the baseline, and descenders or nothing: :data:`UNDERLINE_BELOW`), and
    reaching no further than :data:`UNDERLINE_SLACK` past the letters (a line that does is a
    border or a rule under the text: ``None``)."""
    height, width = ink.shape
    if float(ink.mean()) > UNDERLINE_MAX_INK:  # the "ink" is a fill behind the text
        return None
    per_row = ink.sum(axis=1)
    text_rows = per_row <= LINE * width
    row = height // 2
    while row < height:
        letters = np.flatnonzero(ink[:row][text_rows[:row]].any(axis=0))
        if letters.size < 2:
            return None
        left, right = int(letters[0]), int(letters[-1])
        band = row
        while band < height and _lines(ink, band, left, right):
            band += 1
        if band == row:
            row += 1
            continue
        drawn = np.flatnonzero(ink[row:band].any(axis=0))
        if drawn[0] < left - UNDERLINE_SLACK or drawn[-1] > right + UNDERLINE_SLACK:
            return None  # a border or a rule under the text
        sparse = UNDERLINE_BELOW * (right - left + 1)
        if per_row[row - 1] <= sparse and (band == height or per_row[band] <= sparse):
            return np.arange(row, band, dtype=np.intp)
        row = band
    return None


def _lines(ink: npt.NDArray[np.bool_], row: int, left: int, right: int) -> bool:
    """Whether ``row`` could be an underline of the letters from ``left`` to ``right``."""
    span = right - left + 1
    inside = int(np.count_nonzero(ink[row, left : right + 1]))
    return inside >= UNDERLINE_RAW * span and _covered(ink, row, left, right) >= UNDERLINE * span


def _covered(ink: npt.NDArray[np.bool_], row: int, left: int, right: int) -> int:
    """Columns ``left`` to ``right`` of ``row`` that are inked, or that a browser leaves
    blank around a descender crossing it (skip ink: the columns of the ink below the row,
    widened by :data:`SKIP_INK` on each side)."""
    below = ink[row + 1 :].any(axis=0).astype(np.int32)
    kernel = np.ones(2 * SKIP_INK + 1, dtype=np.int32)
    skipped = np.convolve(below, kernel, mode="full")[SKIP_INK : SKIP_INK + below.size] > 0
    return int(np.count_nonzero((ink[row] | skipped)[left : right + 1]))


def _ink(crop: npt.NDArray[np.int16], edge: npt.NDArray[np.int16]) -> npt.NDArray[np.bool_]:
    """The ink of a text's crop: the pixels far from the background (the median of
    ``edge``), by :data:`INK_HEIGHT_CONTRAST`, or by :data:`INK_RELATIVE` of the largest
    distance when the text has less contrast than that (none under :data:`INK_FLOOR`).

    >>> dark = np.full((5, 5, 3), 22, dtype=np.int16); dark[2, 1:4] = 0  # black on #161616
    >>> int(_ink(dark, dark[0]).sum())
    3
    """
    distance = np.abs(crop - np.median(edge, axis=0)).sum(axis=2)
    peak = float(distance.max()) if distance.size else 0.0
    if peak < INK_FLOOR:
        return np.zeros(distance.shape, dtype=bool)
    ink: npt.NDArray[np.bool_] = distance > min(INK_HEIGHT_CONTRAST, INK_RELATIVE * peak)
    return ink


def stroke_width(pixels: Pixels, box: Box) -> float:
    """The width of the text's strokes in ``box`` (px): twice the 90th percentile of the
    ink's distance to the background, 0 when there is too little ink."""
    crop = _crop(pixels, box)
    if crop is None:
        return 0.0
    ink = _ink(crop, np.concatenate([crop[0], crop[-1]])).astype(np.uint8)
    if int(ink.sum()) < 10 or bool(ink.all()):  # no ink, or no background to measure from
        return 0.0
    distance = cv2.distanceTransform(ink, cv2.DIST_L2, 3)
    return float(2.0 * np.percentile(distance[ink > 0], 90))


def _free_elements(pixels: Pixels, texts: list[TextItem], icons: list[Widget]) -> list[Element]:
    """Free text (link, heading, text or a disclosure), lone glyphs as icons, and icon
    blobs."""
    heights = [t.box[3] - t.box[1] for t in texts]
    typical = median(heights) if heights else 0.0
    inks = [ink_height(pixels, t.box) for t in texts]
    typical_ink = median([h for h in inks if h > 0] or [0.0])
    strokes = [stroke_width(pixels, t.box) for t in texts]
    typical_stroke = median([w for w in strokes if w > 0] or [0.0])
    out = []
    for text, ink, stroke in zip(texts, inks, strokes, strict=True):
        if _is_glyph(text):
            glyph = text.text.strip()
            roles = icon_roles(False)
            out.append(Element("icon", "glyph", text.box, glyph_name(glyph), glyph, roles))
            continue
        scale = ink / typical_ink if typical_ink > 0 else 0.0
        weight = stroke / typical_stroke if typical_stroke > 0 else 0.0
        roles = text_roles(
            text.color, text.box[3] - text.box[1], typical, scale, weight,
            underlined=run_underlined(pixels, text),
        )  # fmt: skip
        if text.disclosure:
            roles = disclosure_roles()
        out.append(
            Element("text", "text", text.box, text.text, "", roles, text.score, words=text.words)
        )
    out += [Element("icon", "icon", i.box, "", "", icon_roles(False), i.score) for i in icons]
    return out


# -- captioned tables ------------------------------------------------------------------------


def _filled(element: Element) -> bool:
    """A cell of a data table: text, or a shape with text in it that is not a button (an
    empty field is no cell; a table of actions is told apart by its rows, step 6, and a
    hint window that cuts such a table would take a column header for its caption)."""
    if element.kind == "text":
        return True
    role = element.roles[0][0] if element.roles else ""
    return element.kind == "control" and bool(element.value) and role != "button"


def _table_below(caption: Element, elements: Sequence[Element]) -> list[Element]:
    """The cells of a table right below ``caption`` in its column, or none."""
    height = caption.box[3] - caption.box[1]
    left = caption.box[0] - CAPTION_SLACK
    below = [
        e
        for e in elements
        if e is not caption and e.box[0] >= left and e.box[1] >= caption.box[3] - CAPTION_SLACK
    ]
    cells: list[Element] = []
    bottom = caption.box[3]
    previous: list[Element] = []
    for band in _bands(below):
        top = min(e.box[1] for e in band)
        continues = (
            top - bottom <= CAPTION_GAP * height
            and len(band) >= 2
            and all(_filled(e) for e in band)
            and (not previous or _aligned(band, previous) >= 2)
        )
        if not continues:
            break
        cells += band
        previous = band
        bottom = max(e.box[3] for e in band)
    bands = len(_bands(cells)) if cells else 0
    first = min((e.box[0] for e in cells), default=left)
    return cells if bands >= GRID_MIN_BANDS and abs(first - caption.box[0]) <= CAPTION_SLACK else []


def _on_line(caption: Element, table: Box, elements: Sequence[Element]) -> bool:
    """Whether another element shares the caption's line above the table (a header cell is
    no caption)."""
    return any(
        e is not caption
        and caption.box[1] <= _cy(e.box) <= caption.box[3]
        and e.box[0] < table[2]
        and e.box[2] > table[0]
        for e in elements
    )


def _maybe_caption(i: int, boxes: npt.NDArray[np.float64], free: npt.NDArray[np.bool_]) -> bool:
    """Cheap necessary conditions (numpy over all elements) for element ``i`` to caption a
    table: two free elements right under it in its column, and nothing on its line over
    them (most texts of a dense screen are decided here)."""
    left, top, right, bottom = boxes[i]
    slack = CAPTION_SLACK
    under = free & (boxes[:, 0] >= left - slack) & (boxes[:, 1] >= bottom - slack)
    under &= boxes[:, 1] <= bottom + CAPTION_GAP * (bottom - top)
    if np.count_nonzero(under) < 2:
        return False
    reach = max(right, float(boxes[under, 2].max()))
    centre = (boxes[:, 1] + boxes[:, 3]) / 2.0
    line = (centre >= top) & (centre <= bottom) & (boxes[:, 0] < reach) & (boxes[:, 2] > left)
    line[i] = False
    return not bool(line.any())


def _captioned_tables(elements: list[Element]) -> list[Element]:
    """Top-level elements with each captioned table as one ``table`` element (step 5)."""
    if len(elements) < 1 + 2 * GRID_MIN_BANDS:
        return elements
    boxes = np.asarray([e.box for e in elements], dtype=np.float64)
    free = np.ones(len(elements), dtype=bool)
    tables: list[Element] = []
    for i, caption in enumerate(elements):
        if caption.kind != "text" or not caption.name or not free[i]:
            continue
        if not _maybe_caption(i, boxes, free):
            continue
        cells = _table_below(caption, [e for k, e in enumerate(elements) if free[k]])
        if not cells or _on_line(caption, union_box([c.box for c in cells]), elements):
            continue
        roles: Hypotheses = (("table", 0.6), ("group", 0.4))
        table = Element("table", "table", union_box([caption.box, *(c.box for c in cells)]),
                        caption.name, "", roles)  # fmt: skip
        table.children = [caption, *_grid(_bands(cells))]  # rows as elsewhere (step 6)
        tables.append(table)
        used = {id(caption), *(id(c) for c in cells)}
        free &= np.asarray([id(e) not in used for e in elements])
    return [e for k, e in enumerate(elements) if free[k]] + tables


# -- reading order and table rows ------------------------------------------------------------


def _bands(elements: Sequence[Element]) -> list[list[Element]]:
    """Elements grouped into horizontal bands (one visual line each), top to bottom, each
    band left to right: an element joins the band its vertical centre falls in."""
    bands: list[list[Element]] = []
    extent = (0.0, -1.0)
    for element in sorted(elements, key=lambda e: (_cy(e.box), e.box[0])):
        center = _cy(element.box)
        if bands and extent[0] <= center <= extent[1]:
            bands[-1].append(element)
            continue
        bands.append([element])
        extent = (element.box[1], element.box[3])
    return [sorted(band, key=lambda e: e.box[0]) for band in bands]


def _aligned(a: Sequence[Element], b: Sequence[Element]) -> int:
    """How many cells of band ``a`` start in the same column as a cell of ``b``."""
    lefts = [e.box[0] for e in b]
    return sum(1 for e in a if any(abs(e.box[0] - x) <= COLUMN_SLACK for x in lefts))


def _row(band: list[Element]) -> Element:
    parts: list[str] = []
    for element in band:
        if element.name and element.name not in parts[-1:]:
            parts.append(element.name)
    name = " ".join(parts)[:MAX_ROW_NAME]
    row = Element("row", "row", union_box([e.box for e in band]), name, "", (("row", 0.6),))
    row.children = band
    return row


def _grid(bands: list[list[Element]]) -> list[Element]:
    """Top-level elements in reading order, table rows wrapped (see step 5)."""
    table = [False] * len(bands)
    start = 0
    for i in range(1, len(bands) + 1):
        continues = (
            i < len(bands)
            and len(bands[i]) >= GRID_MIN_CELLS
            and _aligned(bands[i], bands[i - 1]) >= GRID_MIN_CELLS
        )
        if not continues:
            if i - start >= GRID_MIN_BANDS and len(bands[start]) >= GRID_MIN_CELLS:
                table[start:i] = [True] * (i - start)
            start = i
    out: list[Element] = []
    for band, in_table in zip(bands, table, strict=True):
        out.extend([_row(band)] if in_table else band)
    return out


def _flatten(elements: Sequence[Element], parent: int, out: list[Element]) -> None:
    for element in elements:
        out.append(replace(element, parent=parent, children=[]))
        _flatten(element.children, len(out) - 1, out)


def layout(
    pixels: Pixels,
    lines: Sequence[TextLine],
    widgets: Sequence[Widget],
    wrap: Callable[[list[Element], Sequence[Widget]], list[Element]] | None = None,
) -> list[Element]:
    """The elements of an image (see the module docstring), in pre-order with parents;
    ``wrap`` rearranges the top level before it is flattened (groups,
    :func:`resolver.adapters.vision.groups.group`)."""
    shapes = [w for w in widgets if w.kind != "icon" and _is_control(w)]
    texts = [
        item
        for line in lines
        for item in disclosures(split_line(pixels, line, shapes))
        if item.text
    ]
    controls, free_texts, free_icons = _assign(texts, widgets)
    controls += [_checkbox(t) for t in free_texts if _box_glyph(t)]
    free_texts = [t for t in free_texts if not _box_glyph(t)]
    free = _free_elements(pixels, free_texts, free_icons)
    _attach_labels(controls, [e for e in free if e.kind == "text"])
    ordered = _grid(_bands(_captioned_tables([*controls, *free])))
    if wrap is not None:
        ordered = wrap(ordered, widgets)
    out: list[Element] = []
    _flatten(ordered, -1, out)
    return out
