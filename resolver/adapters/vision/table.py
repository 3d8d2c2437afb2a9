"""The vision candidate table: one row per element, one more per plausible further role.

Columns are those of every table (:mod:`resolver.table`), so the matcher and the decision
are the same code as for trees:

- ``ids`` ``"<i>"``, ``executor_ids`` ``vision:<i>``: ``i`` is the element's index in
  reading order, stable for one screenshot. A table of a hint window numbers its own
  elements and names the window: ``<i>@<left>,<top>,<width>x<height>`` (screenshot pixels).
- ``roles``: the best role hypothesis (:mod:`resolver.adapters.vision.roles`). Where
  appearance allows a second role (grey text may be a link; a box may be a field or a
  button), that hypothesis is one more row, child of the first, with the same executor ID:
  the decision treats the two as one target, and a recorded ``link`` finds the text the
  same way a recorded ``text`` does.
- ``raw_roles``: what vision saw (``text``, ``rect``, ``checkbox``, ``radio``, ``icon``,
  ``glyph``, ``detected:<class>``, ``row``); ``names``: OCR text (a control's caption, a
  field's label); ``values``: a field's content, a glyph icon's glyph.
- ``bboxes``: in the observation's ``screen_size`` units when it has one (screenshot pixels
  scaled), else in screenshot pixels; ``screen_size`` accordingly. ``coord_space`` is
  ``unknown``: a screenshot shows the screen in whatever units its runtime measures boxes
  in (CSS px for a browser at scale 1, device px on Android), so a recorded box of any
  space is compared at full weight, after rescaling by the two screen sizes.
- after the elements, one row per mark of the whole screen that no text and no widget
  touches (:mod:`resolver.adapters.vision.marks`: something drawn apart from the rest that
  nothing took for a text or a shape, a logo, a tiny empty button): ``m<k>``, raw role
  ``mark``, role ``generic``, no name, no parent; only rules that compare a recorded box
  with marks answer one (``accept.mark_in_box``, ``accept.drawn_at_place``).
- ``visible`` 1 (it is on the screenshot); ``enabled`` and ``focused`` unknown.
- ``platform_ids["role_confidence"]``: the confidence of the row's role, ``"0.80"``.

``table.native`` is a :class:`VisionNative`: the analysis (OCR lines and words, widgets,
elements, timings), the scale, and per row its element and role confidence (the mark
rows, last, have none).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from itertools import pairwise
from typing import Final

import numpy as np
import numpy.typing as npt

from ...geometry import Box, CoordSpace
from ...table import CandidateTable, TableBuilder
from ...text import CUT_NAME_CHARS, close_unspaced, collapse, normalize, unspaced
from .analysis import Analysis
from .layout import Element, name_tokens, union_box, words_box, words_run
from .ocr import Word
from .pictures import pictures_in_run

LABEL_NAMED_ROLES: Final[frozenset[str]] = frozenset(
    {"textbox", "searchbox", "combobox", "checkbox", "radio", "spinbutton", "slider", "switch"}
)
"""Roles a screenshot names by the label attached beside them rather than by text of their
own (:attr:`~resolver.table.CandidateTable.label_named_roles`)."""

__all__ = ["MIN_SECOND_ROLE", "VisionNative", "answer_box", "find_text", "focus_table", "to_table"]

_DECLARED: Final[dict[str, object]] = {
    "label_named_roles": LABEL_NAMED_ROLES,
    "groups_by_title": True,
    "names_read": True,
}
"""What the vision source declares of its tables (see :class:`~resolver.table.CandidateTable`)."""

FIELD_ROLES: Final[frozenset[str]] = frozenset({"textbox", "searchbox", "combobox"})
"""Fields a page may name by their placeholder: such a field with a label and other text
inside gets one more row named by that text (``<i>~inner``, after the text's row)."""
ALT_GAP: Final[float] = 0.5
"""Most space, in text heights, between an icon and the text after it for the two to be an
image drawn as its alternative text (a browser draws an image that did not load as a
broken-image icon with the ``alt`` text just after it)."""
ALT_ICON_HEIGHT: Final[tuple[float, float]] = (0.5, 1.5)
"""Least and most height of that icon, in heights of the text after it (a broken-image
icon is as tall as a line)."""
WRAP_LINES: Final[int] = 3
"""Most lines of one heading read together (:func:`_wrapped`)."""
WRAP_AHEAD: Final[int] = 5
"""How many elements after a heading line, in reading order, its next line is sought among
(an icon or a short run read between the two lines)."""
WRAP_GAP: Final[float] = 0.6
"""Most space between two lines of one heading, in line heights."""
WRAP_INDENT: Final[float] = 0.5
"""Most difference between the left sides of two lines of one heading, in line heights."""
WRAP_HEIGHT: Final[float] = 0.25
"""Most difference between the heights of two lines of one heading, as a share."""
LINK_WRAP_LEFT: Final[float] = 2.0
"""How far left of a link-coloured run's start, in line heights, the next line's link must
start for the two to be one link broken over the line end (:func:`_wrapped_links`): links
listed one per line start where the one above starts."""
JOIN_GAP: Final[float] = 1.0
"""Most space between two runs of one line, in line heights, for the name a reference
records to be read across them (:func:`_joined_runs`): a link whose words the layout read as
runs of their own ("Powered" "by" "Tumblr" in small faint text)."""
JOIN_INDENT: Final[float] = 1.5
"""... or the next line's run starts this near (in line heights) where the run above starts,
at most :data:`JOIN_GAP` line heights below it (a link around a headline and the
alternative text of its picture that did not load, which repeats the headline)."""
JOIN_RUNS: Final[int] = 4
"""Most runs one name is read across."""
JOIN_AHEAD: Final[int] = 12
"""How many texts after a run, in reading order, may hold the next run of one name: lines
of another column read between them are passed over (:func:`_joined_runs`)."""
ALT_RUNS: Final[int] = 6
"""Most runs an image's alternative text is read across (:func:`_alt_runs`)."""
ALT_SHARED: Final[float] = 0.5
"""Least share of a further run's words that the recorded name holds for the run to be read
as more of that name's alternative text (:func:`_alt_runs`)."""
ALT_CONFIDENCE: Final[float] = 0.5
"""The role confidence of an image read from its alternative text."""
MIN_SECOND_ROLE: Final[float] = 0.25
"""A second (or third) role hypothesis at least this confident gets its own row."""
MAX_ROLES: Final[int] = 3
"""Most rows one element gets, one per role hypothesis (bold text: text, heading, link)."""
_VISIBLE: Final[tuple[int, int, int]] = (-1, 1, -1)


@dataclass(frozen=True, eq=False)
class VisionNative:
    """The vision source's own model of a table (``CandidateTable.native``).

    Attributes
    ----------
    analysis:
        What was seen (:class:`~resolver.adapters.vision.analysis.Analysis`).
    scale:
        Table units per screenshot pixel, ``(x, y)``.
    row_elements:
        Per row, the index of its element in ``analysis.elements``.
    role_confidence:
        Per row, the confidence of its role.
    """

    analysis: Analysis
    scale: tuple[float, float]
    row_elements: tuple[int, ...]
    role_confidence: tuple[float, ...]


def _scaled(
    box: tuple[float, float, float, float], scale: tuple[float, float]
) -> tuple[float, float, float, float]:
    sx, sy = scale
    return (box[0] * sx, box[1] * sy, box[2] * sx, box[3] * sy)


def to_table(
    analysis: Analysis,
    screen_size: tuple[float, float] | None,
    *,
    max_rows: int = 1_000_000,
    focus: str = "",
) -> CandidateTable:
    """The candidate table of one analysed window (see the module docstring); a ``focus``
    name adds rows of its own words inside longer link runs (:func:`focus_table`)."""
    width, height = analysis.image_size
    size = screen_size or (float(width), float(height))
    scale = (size[0] / width, size[1] / height)
    left, top, right, bottom = analysis.window
    suffix = "" if analysis.full else f"@{left},{top},{right - left}x{bottom - top}"
    builder = _new_builder(max_rows, len(analysis.elements))
    row_of: dict[int, int] = {}
    wraps = _wrapped(analysis.elements)
    link_wraps = {i: k for i, k in _wrapped_links(analysis.elements).items() if i not in wraps}
    joined = _joined_runs(analysis.elements, focus, cut=True) if focus else {}
    alt_focus = "" if _read_whole(analysis.elements, focus) else focus
    alt_of = _alt_of(analysis.elements, alt_focus)
    rereadings: list[int] = []
    owners: list[int] = []
    confidence: list[float] = []
    for i, element in enumerate(analysis.elements):
        ident = f"{i}{suffix}"
        row_of[i] = len(builder.rows)
        parent = row_of.get(element.parent, -1)
        added = _add_roles(builder, element, ident, parent, _scaled(element.box, scale))
        owners += [i] * len(added)
        confidence += added
        for owner, conf in _add_extra_rows(builder, analysis, i, row_of[i], suffix, scale,
                                           alt_of.get(i), focus, alt_focus,
                                           rereadings):  # fmt: skip
            owners.append(owner)
            confidence.append(conf)
        for role, found in (("heading", wraps), ("link", link_wraps)):
            if i in found:
                conf = _add_wrap_row(builder, analysis, found[i], ident, row_of[i], role, scale)
                owners.append(i)
                confidence.append(conf)
        if i in joined:
            for conf in _add_joined_rows(builder, analysis, joined[i], ident, row_of[i], scale):
                owners.append(i)
                confidence.append(conf)
    _add_mark_rows(builder, analysis, scale)
    native = VisionNative(analysis, scale, tuple(owners), tuple(confidence))
    window = None if analysis.full else _scaled((left, top, right, bottom), scale)
    return builder.build(
        coord_space=CoordSpace.UNKNOWN,
        screen_size=size,
        native=native,
        window=window,
        text_finder=find_text,
        marks=tuple(_scaled(box, scale) for box in analysis.marks),
        rereadings=frozenset(rereadings),
        **_DECLARED,
    )


def _new_builder(max_rows: int, rows: int) -> TableBuilder:
    """An empty vision table's builder with room for ``rows`` rows."""
    builder = TableBuilder(
        "vision",
        "screenshot",
        id_columns=("role_confidence",),
        executor_prefix="vision:",
        max_rows=max_rows,
    )
    builder.reserve(rows)
    return builder


def _add_mark_rows(builder: TableBuilder, analysis: Analysis, scale: tuple[float, float]) -> None:
    """One row per mark that no text line and no widget touches (see the module
    docstring)."""
    if not analysis.marks:
        return
    for k in np.flatnonzero(~_touched(analysis)).tolist():
        row = len(builder.rows)
        builder.rows.append(
            (f"m{k}", "mark", "", -1, _scaled(analysis.marks[k], scale), "", _VISIBLE, "0.00")
        )  # fmt: skip
        builder.roles[row] = "generic"
        builder.executor_ids[row] = f"vision:m{k}"


MARKS_AT_ONCE: Final[int] = 1024
"""Marks compared with every text and widget in one array operation (bounds its memory)."""


def _touched(analysis: Analysis) -> npt.NDArray[np.bool_]:
    """Per mark of ``analysis``, whether a text or a widget touches its box. A text counts
    by its element's box, not by its OCR line's, which reaches a few pixels past the ink
    on either side: a logo drawn just after a word ("beta" beside a site's logo) is apart
    from it."""
    marks = np.asarray(analysis.marks, np.float64).reshape(-1, 4)
    texts = [e.box for e in analysis.elements if e.kind == "text"]
    seen = np.asarray(texts + [w.box for w in analysis.widgets], np.float64).reshape(-1, 4)
    out = np.zeros(len(marks), dtype=bool)
    for start in range(0, len(marks), MARKS_AT_ONCE):
        m = marks[start : start + MARKS_AT_ONCE, :, None]
        out[start : start + MARKS_AT_ONCE] = (
            (seen[:, 0] <= m[:, 2]) & (m[:, 0] <= seen[:, 2])
            & (seen[:, 1] <= m[:, 3]) & (m[:, 1] <= seen[:, 3])
        ).any(axis=1)  # fmt: skip
    return out


def _add_extra_rows(
    builder: TableBuilder,
    analysis: Analysis,
    i: int,
    row: int,
    suffix: str,
    scale: tuple[float, float],
    icon: _AltOf | None,
    focus: str,
    alt_focus: str,
    rereadings: list[int],
) -> list[tuple[int, float]]:
    """The rows element ``i`` (at row ``row``) adds beyond its role hypotheses: its field
    named by it (``~inner``), the images it is the alternative text of (``~alt``,
    :func:`_alt_rows`; ``icon``: the icon before it, the first word read so and the further
    runs that text goes on in; the rows of a row of pictures read as one run are appended
    to ``rereadings``) and its words reading ``focus`` (``.w``); per row added, the element
    that owns it and its role confidence."""
    element = analysis.elements[i]
    out: list[tuple[int, float]] = []
    field = _field_shown(analysis.elements, element)
    if field is not None:
        owner = analysis.elements[field]
        _add_inner_row(builder, f"{field}{suffix}", row, owner, _scaled(owner.box, scale))
        out.append((field, owner.roles[0][1]))
    if icon is not None:
        pictures = _alt_rows(analysis.elements, i, icon, alt_focus)
        for k, name, box in pictures:
            if len(pictures) > 1:  # parts of one run: one text in reading order
                rereadings.append(len(builder.rows))
            _add_alt_row(builder, f"{k}{suffix}", row, name, _scaled(box, scale))
            out.append((k, ALT_CONFIDENCE))
    part = _linked_words(element, focus)
    if part is not None:
        _add_words_row(builder, f"{i}{suffix}", row, part, scale, element.roles[0][1])
        out.append((i, element.roles[0][1]))
    return out


def _alt_rows(
    elements: tuple[Element, ...], i: int, icon: _AltOf, alt_focus: str
) -> tuple[tuple[int, str, Box], ...]:
    """The pictures text ``i`` is the alternative text of, ``(icon, name, box)``: one per
    icon of a row of pictures read as one run (:func:`_row_pictures`), else the one whose
    icon comes first (named by the words reading ``alt_focus`` when the text begins with
    them, :func:`_alt_words`, and the further runs it goes on in)."""
    element = elements[i]
    k, first, more, inner = icon
    if inner and not more:
        row = _row_pictures(elements, i, (k, *inner))
        if row:
            return row
    further = tuple(w for r in more for w in elements[r].words)
    words = _alt_words(element, first, alt_focus, further)
    name = close_unspaced(" ".join(w.text for w in words)) if words else element.name
    box = union_box([elements[k].box, *(w.box for w in words or (element,))])
    return ((k, name, box),)


def _row_pictures(
    elements: tuple[Element, ...], i: int, icons: tuple[int, ...]
) -> tuple[tuple[int, str, Box], ...]:
    """Pictures side by side that OCR read as one run, text ``i`` (:mod:`.pictures`): each
    of ``icons`` (the first picture's, then those inside the run) named by the text between
    it and the next."""
    text = elements[i]
    found = pictures_in_run(text.words, text.box, [elements[k].box for k in icons])
    return tuple((icons[j], name, box) for j, name, box in found)


def _add_roles(
    builder: TableBuilder, element: Element, ident: str, parent: int, box: Box
) -> list[float]:
    """The rows of ``element``: one per role hypothesis (:data:`MAX_ROLES`, the second and
    third from :data:`MIN_SECOND_ROLE`), the first a child of row ``parent``, the others of
    the first; their confidences."""
    first = len(builder.rows)
    added: list[float] = []
    for k, (role, conf) in enumerate((element.roles or (("unknown", 0.0),))[:MAX_ROLES]):
        if k and conf < MIN_SECOND_ROLE:
            continue
        row = len(builder.rows)
        builder.rows.append(
            (ident if k == 0 else f"{ident}~{role}", element.raw_role, element.name,
             parent if k == 0 else first, box, element.value, _VISIBLE, f"{conf:.2f}")
        )  # fmt: skip
        builder.roles[row] = role
        builder.executor_ids[row] = f"vision:{ident}"
        added.append(conf)
    return added


FOUND_MIN_CHARS: Final[int] = 3
"""Fewest letters and digits a text must have to be looked for among a run's words
(:func:`find_text`): a number or a letter ("8", "11") is read in too many places."""
FOUND_MIN_WORDS: Final[int] = 2
"""Fewest words a text must have to be looked for among a run's words: a single word
("People") is read inside sentences that are not the recorded neighbour, and one anchor
found there moves the whole page's estimated shift by hundreds of pixels."""


def find_text(table: CandidateTable, text: str, across: bool = False) -> Box | None:
    """The vision tables' :attr:`~resolver.table.CandidateTable.text_finder`: the box (in
    table units) of the words reading ``text`` inside the one text run that holds it among
    other words (whole words, case and the punctuation around them aside:
    :func:`~resolver.adapters.vision.layout.words_run`); ``None`` when no run or several
    hold it, or it has fewer than :data:`FOUND_MIN_WORDS` words or :data:`FOUND_MIN_CHARS`
    letters and digits. A recorded neighbour ("Oct 18, 2019") is often read with the text
    beside it ("Oct 18, 2019 · 8 min read"). With ``across``, when no run holds it, the runs
    that read it together (:func:`_joined_runs`: a headline wrapped over two lines is read
    as one run per line), boxed around them, when exactly one group of runs does."""
    native = table.native
    if not isinstance(native, VisionNative) or len(name_tokens(text)) < FOUND_MIN_WORDS:
        return None
    if sum(c.isalnum() for c in text) < FOUND_MIN_CHARS:
        return None
    elements = native.analysis.elements
    found: Box | None = None
    for element in elements:
        part = words_run(element, text) if element.kind == "text" else None
        if part is None:
            continue
        if found is not None:
            return None
        found = part[1]
    if found is None and across:
        groups = list(_joined_runs(elements, text).values())
        if len(groups) != 1:
            return None
        found = union_box([elements[k].box for k in groups[0]])
    return None if found is None else _scaled(found, native.scale)


def answer_box(table: CandidateTable, row: int, name: str) -> Box | None:
    """Where an answer on row ``row`` is: the box of the words that read ``name`` when the
    row's text run is longer than it, the first line of a row read over several lines
    (``~wrap``), in table units; else ``None`` (the row's own box)."""
    native = table.native
    if not isinstance(native, VisionNative) or not 0 <= row < len(native.row_elements):
        return None
    element = native.analysis.elements[native.row_elements[row]]
    if table.ids[row].endswith("~wrap"):
        return _scaled(element.box, native.scale)
    box = words_box(element, name)
    return None if box is None else _scaled(box, native.scale)


def _add_words_row(
    builder: TableBuilder,
    ident: str,
    parent: int,
    part: tuple[str, Box],
    scale: tuple[float, float],
    conf: float,
) -> None:
    """One more row, a link, for the words ``part`` of row ``parent``'s run (``<i>.w``)."""
    builder.rows.append(
        (f"{ident}.w", "text", part[0], parent, _scaled(part[1], scale), "", _VISIBLE,
         f"{conf:.2f}")
    )  # fmt: skip
    builder.roles[len(builder.rows) - 1] = "link"
    builder.executor_ids[len(builder.rows) - 1] = f"vision:{ident}.w"


def _field_shown(elements: tuple[Element, ...], element: Element) -> int | None:
    """The field whose inside text ``element`` is, when that field is named by a label
    beside it (:func:`_named_twice`), else ``None``."""
    if element.kind != "text" or element.parent < 0:
        return None
    field = elements[element.parent]
    if not _named_twice(field) or field.value.strip() != element.name.strip():
        return None
    return element.parent


def _named_twice(element: Element) -> bool:
    """Whether ``element`` is a field named by a label beside it that shows other text
    inside (see :data:`FIELD_ROLES`). A page names a field without a label by its
    placeholder, and the text above a field is not always its label (a headline above a
    search field), so both names are hypotheses."""
    if element.kind != "control" or not element.roles or not element.value.strip():
        return False
    return element.roles[0][0] in FIELD_ROLES and element.value.strip() != element.name.strip()


def _add_inner_row(
    builder: TableBuilder, ident: str, parent: int, element: Element, box: Box
) -> None:
    """One more row for field ``element``, named by the text inside it and with the
    field's box and executor ID, child of row ``parent``: the row of that text, so that the
    two rows are one text read once (an anchor, a neighbour in reading order), not two."""
    role, conf = element.roles[0]
    builder.rows.append(
        (f"{ident}~inner", element.raw_role, element.value, parent, box, element.value,
         _VISIBLE, f"{conf:.2f}")
    )  # fmt: skip
    builder.roles[len(builder.rows) - 1] = role
    builder.executor_ids[len(builder.rows) - 1] = f"vision:{ident}"


_AltOf = tuple[int, int, tuple[int, ...], tuple[int, ...]]
"""A text read as an image's alternative text: the icon before it, the first word read so,
the further runs it goes on in (:func:`_alt_runs`) and the icons inside its run after the
first (:func:`_row_pictures`)."""


def _alt_of(elements: tuple[Element, ...], focus: str) -> dict[int, _AltOf]:
    """Per text read as an image's alternative text (:func:`_alt_texts`), the icon before
    it, the first word read so, the further runs it goes on in (:func:`_alt_runs`) and the
    icons inside its run after that one."""
    alt_of = _alt_texts(elements)
    runs = _alt_runs(elements, alt_of, focus)
    icons = [k for k, e in enumerate(elements) if e.kind == "icon" and e.raw_role == "icon"]
    out: dict[int, _AltOf] = {}
    for i, (icon, first) in alt_of.items():
        after = elements[icon].box[2] - 1.0
        inner = tuple(
            k for k in icons
            if k != icon and elements[k].box[0] > after
            and _alt_icon(elements[k].box, elements[i].box, True)
        )  # fmt: skip
        out[i] = (icon, first, runs.get(i, ()), inner)
    return out


def _alt_texts(elements: tuple[Element, ...]) -> dict[int, tuple[int, int]]:
    """The texts that read as an image's alternative text, each with the icon just before
    it and the index of the first word read so (0: the whole text). The icon is a blob (not a
    glyph OCR read), a line tall (:data:`ALT_ICON_HEIGHT`), its middle within the text's
    height, its right side at most :data:`ALT_GAP` text heights before the text's left side
    (or just inside it), or before one of the text's words when OCR read the image into the
    line ("Kuhn [icon] [RSS of Blog]": the words from that one on)."""
    icons = sorted(
        (e.box[2], k) for k, e in enumerate(elements) if e.kind == "icon" and e.raw_role == "icon"
    )
    if not icons:
        return {}
    rights = [r for r, _ in icons]
    out: dict[int, tuple[int, int]] = {}
    for i, text in enumerate(elements):
        if text.kind != "text" or not text.name.strip():
            continue
        left, top, right, bottom = text.box
        gap = ALT_GAP * (bottom - top)
        for r, k in icons[bisect_left(rights, left - gap) :]:
            if r > right:
                break
            first = _word_after(text, r, gap) if r > left + gap else 0
            if first is not None and _alt_icon(elements[k].box, text.box, first > 0):
                out[i] = (k, first)
                break
    return out


def _alt_words(
    element: Element, first: int, focus: str, further: tuple[Word, ...] = ()
) -> tuple[Word, ...]:
    """The words of ``element`` from its ``first``, then the ``further`` words of the runs
    it goes on in, that read an image's alternative text (none: the whole text); cut where
    ``focus`` shows it was read in one run with the text after the image
    (:func:`_alt_cut`)."""
    words = element.words[first:] + further
    cut = _alt_cut(words, focus)
    if cut is not None:
        return words[:cut]
    return words if first or further else ()


def _alt_cut(words: tuple[Word, ...], focus: str) -> int | None:
    """How many of ``words`` read an image's alternative text that OCR read in one run with
    the text after the image, by the name sought: those that read ``focus`` when they begin
    with it and go on (the alternative text "Avatar lemonde.fr" and "@lemondefr Suivre"
    after it), or those before ``focus`` read further on when they are its start cut short
    (a small image's box clips its alternative text, "Vinc", and the author's name "Vincent
    Vallet" beside it is read with it: the name is the text after the image's; a name that
    gained a word in front, "Great Vincent Vallet", is not cut); else ``None``."""
    if _alt_prefix(words, focus):
        return len(name_tokens(focus))
    wanted = name_tokens(focus) if focus else []
    size = len(wanted)
    if not wanted or len(words) <= size:
        return None
    tokens = [name_tokens(w.text) for w in words]
    whole = " ".join(wanted)
    return next(
        (k for k in range(1, len(words) - size + 1)
         if [t for ts in tokens[k : k + size] for t in ts] == wanted
         and _clipped_start(" ".join(t for ts in tokens[:k] for t in ts), whole)),
        None,
    )  # fmt: skip


def _clipped_start(read: str, name: str) -> bool:
    """Whether ``read`` is the start of ``name`` cut short (not empty, not the whole)."""
    return bool(read) and read != name and name.startswith(read)


def _alt_focused(elements: tuple[Element, ...], name: str) -> bool:
    """Whether an image's alternative text reads differently with ``name`` to look for: a
    text beside an icon is cut by it (:func:`_alt_cut`), or goes on in further runs
    (:func:`_alt_runs`)."""
    alt_of = _alt_texts(elements)
    return any(
        _alt_cut(elements[i].words[first:], name) is not None for i, (_, first) in alt_of.items()
    ) or bool(_alt_runs(elements, alt_of, name))


def _shared(tokens: list[str], vocabulary: set[str]) -> bool:
    """Whether at least :data:`ALT_SHARED` of ``tokens`` (and one) are in ``vocabulary``."""
    shared = sum(t in vocabulary for t in tokens)
    return shared > 0 and shared >= ALT_SHARED * len(tokens)


def _alt_runs(
    elements: tuple[Element, ...], alt_of: dict[int, tuple[int, int]], focus: str
) -> dict[int, tuple[int, ...]]:
    """Per text read as an image's alternative text (``alt_of``), the runs after it that
    read more of it, when ``focus`` (the recorded name) is longer than the text: a broken
    image draws a long alternative text (a photo's caption) inside the image's box, wrapped
    over lines that start at the icon's left side, and the layout may read the word next to
    the icon as a run of its own. Each further run is the next text in reading order, as tall
    as the one before (:data:`WRAP_HEIGHT`), on its line just after it (:data:`JOIN_GAP`) or
    on the next line starting at the icon's left side (:data:`JOIN_INDENT`), and at least
    :data:`ALT_SHARED` of its words, as of the text's own, are words of ``focus``, or it
    reads on past the end of a long ``focus`` cut in its last word (:func:`_cut_read`); at
    most :data:`ALT_RUNS` runs in all, none once as many words as ``focus`` has are read."""
    wanted = name_tokens(focus)
    if len(wanted) < 2:
        return {}
    vocabulary = set(wanted)
    cut = len(normalize(collapse(focus))) >= CUT_NAME_CHARS
    texts = [i for i, e in enumerate(elements) if e.kind == "text" and e.name.strip()]
    at = {i: k for k, i in enumerate(texts)}
    out: dict[int, tuple[int, ...]] = {}
    for start, (icon, first) in alt_of.items():
        read = name_tokens(" ".join(w.text for w in elements[start].words[first:]))
        if not _shared(read, vocabulary):
            continue
        count, run, last = len(read), [], elements[start]
        for k in texts[at[start] + 1 : at[start] + ALT_RUNS]:
            tokens = name_tokens(elements[k].name)
            if count >= len(wanted) or not _runs_on(last, elements[k], elements[icon].box[0]):
                break
            if not (_shared(tokens, vocabulary) or (cut and _cut_read(tokens, wanted[count:]))):
                break
            run.append(k)
            count += len(tokens)
            last = elements[k]
        if run:
            out[start] = tuple(run)
    return out


def _read_whole(elements: tuple[Element, ...], focus: str) -> bool:
    """Whether some text reads ``focus`` word for word: then no alternative text is cut to
    it (twins "An image", some renamed "An image (61)", are not all made "An image")."""
    wanted = name_tokens(focus) if focus else []
    return bool(wanted) and any(
        e.kind == "text" and name_tokens(e.name) == wanted for e in elements
    )


def _alt_prefix(words: tuple[Word, ...], focus: str) -> bool:
    """Whether ``words`` begin with the words of ``focus`` (case and the punctuation around
    words aside), and go on."""
    wanted = name_tokens(focus) if focus else []
    if not wanted or len(words) <= len(wanted):
        return False
    return name_tokens(" ".join(w.text for w in words[: len(wanted)])) == wanted


def _word_after(text: Element, right: float, gap: float) -> int | None:
    """The index of the first word of ``text`` (not its first word) that starts within
    ``gap`` after ``right``, an icon's right side inside the text's run."""
    for j, word in enumerate(text.words[1:], start=1):
        if right - 2.0 <= word.box[0] <= right + gap:
            return j
    return None


def _alt_icon(icon: Box, text: Box, inside: bool = False) -> bool:
    """Whether ``icon`` has a line's height and sits beside ``text`` (see :func:`_alt_texts`),
    or within its run when ``inside``."""
    height, tall = text[3] - text[1], icon[3] - icon[1]
    middle = (icon[1] + icon[3]) / 2.0
    low, high = ALT_ICON_HEIGHT
    return (
        low * height <= tall <= high * height
        and text[1] <= middle <= text[3]
        and (text[0] < icon[0] if inside else icon[0] < text[0])
    )


def _wrapped(elements: tuple[Element, ...]) -> dict[int, list[int]]:
    """The headings read over more than one line: per first line, the lines of one heading
    (at most :data:`WRAP_LINES`), each the next heading line in reading order within the
    next :data:`WRAP_AHEAD` elements (passing over those of another column,
    :func:`_beside`, among the next :data:`JOIN_AHEAD`), as tall as the one before
    (:data:`WRAP_HEIGHT`), starting at its left side (:data:`WRAP_INDENT`) and just below it
    (:data:`WRAP_GAP`)."""
    out: dict[int, list[int]] = {}
    taken: set[int] = set()
    for i, element in enumerate(elements):
        if i in taken or not _heading_line(element):
            continue
        lines = [i]
        while len(lines) < WRAP_LINES:
            last = lines[-1]
            after = range(last + 1, min(len(elements), last + 1 + JOIN_AHEAD))
            # Another column's lines, read between two of this heading's, are passed over.
            near = [k for k in after if not _beside(elements, lines, elements[k])]
            found = (k for k in near[:WRAP_AHEAD] if _next_line(elements[last], elements[k]))
            nxt = next(found, None)
            if nxt is None:
                break
            lines.append(nxt)
        if len(lines) > 1:
            out[i] = lines
            taken.update(lines)
    return out


def _heading_line(element: Element) -> bool:
    """Whether ``element`` is text that may be a heading (its first hypothesis or another:
    bold text of body size)."""
    return element.kind == "text" and any(role == "heading" for role, _ in element.roles)


def _next_line(above: Element, below: Element) -> bool:
    """Whether ``below`` continues heading ``above`` on the next line (see :func:`_wrapped`)."""
    height = _line_below(above, below)
    return (
        height is not None
        and _heading_line(below)
        and abs(below.box[0] - above.box[0]) <= WRAP_INDENT * height
    )


def _line_below(above: Element, below: Element) -> float | None:
    """``above``'s height when ``below`` is as tall (:data:`WRAP_HEIGHT`) and just below it
    (:data:`WRAP_GAP`): the next line of one text; else ``None``."""
    height = above.box[3] - above.box[1]
    if height <= 0 or abs((below.box[3] - below.box[1]) - height) > WRAP_HEIGHT * height:
        return None
    gap = below.box[1] - above.box[3]
    return height if -WRAP_GAP * height <= gap <= WRAP_GAP * height else None


def _link_run(element: Element) -> bool:
    return element.kind == "text" and bool(element.roles) and element.roles[0][0] == "link"


def _wrapped_links(elements: tuple[Element, ...]) -> dict[int, list[int]]:
    """The links broken over a line end: ``[a run, the next]`` when both are link-coloured
    runs, the next text in reading order after the first is on the next line
    (:func:`_line_below`) and starts well left of where the first starts
    (:data:`LINK_WRAP_LEFT`: the first ended its line, the second starts one). Such a pair
    is read as one link besides its two parts; an answer on it points at its first part
    (:func:`answer_box`)."""
    out: dict[int, list[int]] = {}
    texts = [i for i, e in enumerate(elements) if e.kind == "text" and e.name.strip()]
    for i, k in pairwise(texts):
        first, second = elements[i], elements[k]
        if not (_link_run(first) and _link_run(second)):
            continue
        height = _line_below(first, second)
        if height is not None and second.box[0] < first.box[0] - LINK_WRAP_LEFT * height:
            out[i] = [i, k]
    return out


def _add_wrap_row(
    builder: TableBuilder,
    analysis: Analysis,
    lines: list[int],
    ident: str,
    parent: int,
    role: str,
    scale: tuple[float, float],
) -> float:
    """One more row, a heading or a link named by its ``lines`` read together (``<i>~wrap``,
    box around them, the first line's executor ID), child of the first line's row
    ``parent``; its role confidence (the first line's for that role)."""
    name, box = _read_across(analysis, lines, scale)
    conf = max((c for r, c in analysis.elements[lines[0]].roles if r == role), default=0.0)
    builder.rows.append(
        (f"{ident}~wrap", "text", name, parent, box, "", _VISIBLE, f"{conf:.2f}")
    )  # fmt: skip
    builder.roles[len(builder.rows) - 1] = role
    builder.executor_ids[len(builder.rows) - 1] = f"vision:{ident}"
    return conf


def _read_across(
    analysis: Analysis, parts: list[int], scale: tuple[float, float]
) -> tuple[str, Box]:
    """The name and box (in table units) of elements ``parts`` read together, in order."""
    elements = [analysis.elements[k] for k in parts]
    box = _scaled(union_box([e.box for e in elements]), scale)
    return close_unspaced(" ".join(e.name.strip() for e in elements)), box


def _add_alt_row(builder: TableBuilder, ident: str, parent: int, name: str, box: Box) -> None:
    """One more row, an image named ``name``, for icon ``ident`` and the text after it
    (``<icon>~alt``, box around both), child of row ``parent``: the text's row, so that the
    text is still read once as an anchor and a neighbour."""
    builder.rows.append(
        (f"{ident}~alt", "icon", name, parent, box, "", _VISIBLE, f"{ALT_CONFIDENCE:.2f}")
    )  # fmt: skip
    builder.roles[len(builder.rows) - 1] = "img"
    builder.executor_ids[len(builder.rows) - 1] = f"vision:{ident}"


def _joined_runs(
    elements: tuple[Element, ...], focus: str, *, cut: bool = False
) -> dict[int, list[int]]:
    """Runs that read ``focus`` together and no run alone does: ``[first, ...]`` by the first
    run, when each follows the one before in reading order, as tall (:data:`WRAP_HEIGHT`),
    on its line within :data:`JOIN_GAP` line heights of its end, or on the next line
    (:data:`JOIN_INDENT`). The layout splits a line where its words change colour or stand
    apart, and a link in small faint text ("Powered by Tumblr") or a heading set in two
    colours ("Tag Cloud") is then read as one run per word; a link around a headline and
    its picture's alternative text is read as two lines. A reference that recorded the
    whole name finds it across them; with ``cut``, a name of at least
    :data:`~resolver.text.CUT_NAME_CHARS` cut in its last word too, as recorders that keep
    a long name's first characters write it (:func:`_cut_read`: the runs are read on to
    their end). Only with a name to look for: runs are not joined otherwise."""
    wanted = _join_tokens(focus)
    if len(wanted) < 2:
        return {}
    cut = cut and len(normalize(collapse(focus))) >= CUT_NAME_CHARS
    texts = [i for i, e in enumerate(elements) if e.kind == "text" and e.name.strip()]
    out: dict[int, list[int]] = {}
    for at, start in enumerate(texts):
        tokens = _join_tokens(elements[start].name)
        if not tokens or wanted[: len(tokens)] != tokens or tokens == wanted:
            continue
        run = [start]
        for k in texts[at + 1 : at + JOIN_AHEAD]:
            if not _runs_on(elements[run[-1]], elements[k]):
                if _beside(elements, run, elements[k]):
                    continue  # another column's line, read between two of this one's
                break
            tokens += _join_tokens(elements[k].name)
            run.append(k)
            if len(run) == JOIN_RUNS or wanted[: len(tokens)] != tokens or tokens == wanted:
                break
        if tokens == wanted or (cut and _cut_read(tokens, wanted)):
            out[start] = run
    return out


def _join_tokens(text: str) -> list[str]:
    """:func:`name_tokens` of ``text``, a word of a script written without spaces (Chinese,
    Japanese) split into its characters: OCR reads such a link as several runs wherever its
    characters stand apart ("网易" "科" "学人"), and they join character by character.

    >>> _join_tokens("Powered by"), _join_tokens("网易 科学人")
    (['powered', 'by'], ['网', '易', '科', '学', '人'])
    """
    return [c for t in name_tokens(text) for c in (t if all(map(unspaced, t)) else (t,))]


def _beside(elements: tuple[Element, ...], run: list[int], other: Element) -> bool:
    """Whether ``other`` lies wholly left or right of the runs ``run`` and below the first
    one's top: a line of another column, which reading order puts between two lines of a
    text wrapped in a narrow one (a sidebar's headline between two lines of the article
    beside it)."""
    left = min(elements[k].box[0] for k in run)
    right = max(elements[k].box[2] for k in run)
    beside = other.box[2] <= left or other.box[0] >= right
    return beside and other.box[1] >= elements[run[0]].box[1]


def _cut_read(tokens: list[str], wanted: list[str]) -> bool:
    """Whether ``tokens`` begin with ``wanted`` cut in the middle of its last word: the
    words before it the same, then a longer word it begins ("comprehe", "comprehensively")."""
    last = len(wanted) - 1
    if len(tokens) <= last or tokens[:last] != wanted[:last]:
        return False
    read = tokens[last]
    return len(read) > len(wanted[last]) and read.startswith(wanted[last])


def _runs_on(first: Element, then: Element, left: float | None = None) -> bool:
    """Whether run ``then`` continues run ``first``: on its line just after it, or on the
    next line starting near where it starts (see :func:`_joined_runs`), or near ``left``
    when given (an image's alternative text, wrapped from the icon's left side)."""
    height = first.box[3] - first.box[1]
    if height <= 0 or abs((then.box[3] - then.box[1]) - height) > WRAP_HEIGHT * height:
        return False
    overlap = min(first.box[3], then.box[3]) - max(first.box[1], then.box[1])
    if overlap > 0.5 * height:
        return -0.1 * height <= then.box[0] - first.box[2] <= JOIN_GAP * height
    below = then.box[1] - first.box[3]
    return (
        -WRAP_GAP * height <= below <= JOIN_GAP * height
        and abs(then.box[0] - (first.box[0] if left is None else left)) <= JOIN_INDENT * height
    )


def _add_joined_rows(
    builder: TableBuilder,
    analysis: Analysis,
    runs: list[int],
    ident: str,
    parent: int,
    scale: tuple[float, float],
) -> list[float]:
    """The rows of a name read across ``runs`` (``<i>.j``, one per role hypothesis of the
    first run, box around them all, the first run's executor ID), children of the first
    run's row ``parent``; their role confidences."""
    name, box = _read_across(analysis, runs, scale)
    added: list[float] = []
    for role, conf in analysis.elements[runs[0]].roles[:MAX_ROLES]:
        if added and conf < MIN_SECOND_ROLE:
            continue
        builder.rows.append(
            (f"{ident}.j~{role}", "text", name, parent, box, "", _VISIBLE, f"{conf:.2f}")
        )  # fmt: skip
        builder.roles[len(builder.rows) - 1] = role
        builder.executor_ids[len(builder.rows) - 1] = f"vision:{ident}"
        added.append(conf)
    return added


def _linked_words(element: Element, focus: str) -> tuple[str, Box] | None:
    """The words reading ``focus`` inside a longer link-coloured run (a link read together
    with the link-coloured text after it), else ``None``. Plain text is never split so:
    a word of a sentence is not a link."""
    if not focus or element.kind != "text" or not element.roles:
        return None
    if element.roles[0][0] != "link":
        return None
    return words_run(element, focus)


def focus_table(table: CandidateTable, name: str) -> CandidateTable:
    """``table`` with one more row per link-coloured run that holds ``name`` inside longer
    text: those words alone, as a link (``<i>.w``), so that a recorded link read together
    with its neighbours is matched by its own words; rows for ``name`` read across runs
    (``<i>.j``, :func:`_joined_runs`); and images whose alternative text ``name`` cuts or
    goes on in further runs (:func:`_alt_focused`). ``table`` itself when none is found."""
    native = table.native
    if not name.strip() or not isinstance(native, VisionNative):
        return table
    elements = native.analysis.elements
    if (
        not any(_linked_words(e, name) for e in elements)
        and not _joined_runs(elements, name, cut=True)
        and (_read_whole(elements, name) or not _alt_focused(elements, name))
    ):
        return table
    return to_table(native.analysis, table.screen_size, focus=name)
