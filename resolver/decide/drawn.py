"""Elements a screenshot draws otherwise than the ranking looks for, found by their place.

An icon button ("Menu", "Search", "Switch Theme"), a logo or an avatar is named by an
``aria-label`` or an ``alt`` text that the screen does not show, so a screenshot never reads
its name and the name-led ranking refuses it. A person finds it where it was: the same
shape at the same place, the page around it as it was. :func:`drawn_at_place` answers that,
and only that: the recorded name is read nowhere on the screen; exactly one shape the
vision source drew (an icon, a bordered box, a glyph, a detected widget) of the recorded
role overlaps the recorded box, after the page's shift; and the recorded anchors read on
the screen all lie where they were, after that shift, at least one of them after the
target in reading order (below it, or right of it on its line), where a removed target
would have let the page close up.

Another tool's reference records no anchors: :func:`drawn_in_box` and :func:`mark_in_box`
take the one shape or mark that fills its box instead. Elements whose name the screen does
read, but otherwise than the ranking looks for, are :mod:`resolver.decide.readings`'; the
place helpers both share live here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from ..geometry import Box, box_gap, box_gaps, iou, iou_one, nearest_move
from ..index import index_of
from ..matcher import bbox_scores, box_readings_of, moved_box, page_shift, scored_at
from ..models import SemanticElementRef
from ..results import Candidate
from ..roles import ACTIONABLE_ROLES, COMPAT, canonical_role, role_code
from ..table import CandidateTable
from ..text import UNSPACED_CHARS, words
from ..web import LINE_ROLE, NearbyIndex, WebQuery
from .facts import box_alone, row_box, same_space
from .rule import ROUNDING, Context, Decision

__all__ = [
    "DRAWN_KINDS",
    "PICTURE_LINK",
    "PLAIN_READINGS",
    "accepted_as",
    "anchors_in_place",
    "box_alone_on_screen",
    "box_readings",
    "drawn_at_place",
    "drawn_in_box",
    "drawn_in_column",
    "drawn_rows",
    "enough_anchors",
    "is_drawn",
    "mark_in_box",
    "name_read_at",
    "one_among_neighbours",
    "placed_by_screen",
    "recorded_name_read",
    "row_candidate",
    "same_column_and_size",
    "same_size",
    "stem_in_box",
    "stem_mates",
]

DRAWN_KINDS = frozenset({"icon", "rect", "glyph", "checkbox", "radio"})
"""What the vision source saw (``raw_roles``) for a shape it drew rather than read; a
detected widget (``detected:<class>``) is one as well."""


PICTURE_LINK = "img"
"""The role of a drawn shape that a recorded link may be: a link around a picture (a logo,
an avatar, a social network's icon) is named by the picture's ``alt`` text and drawn as the
picture, which the vision source takes for an image or an icon button."""


PLAIN_READINGS = frozenset({"text", "heading"})
"""The roles of a text the vision source read without a control's look (no border, no
underline, no box glyph): an element of another role read so is drawn otherwise than its
role."""


def drawn_at_place(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.drawn_at_place``: on a screenshot (a table whose names are read), for a
    named reference with a box and anchors whose name no ranked row reads (name agreement
    under ``drawn_name``; under ``name_read`` at the recorded place: "Sections" read below
    an icon recorded as "Sections Navigation & Search" is another control), the one drawn
    shape of the recorded role (:func:`drawn_rows`; where there is none, the one mark that
    nothing took for a text or a shape, a row of raw role ``mark``: a logo, a tiny empty
    button) overlapping the recorded box by ``drawn_iou`` after the page's shift, while
    every recorded anchor read on the screen lies where it was after that shift (within
    ``drawn_slack`` screen heights), ``drawn_anchors`` of them at least and one after the
    target (:func:`anchors_in_place`)."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    if not placed_by_screen(ctx) or not ref.role or ref.bbox is None:
        return None
    shift = page_shift(ref, table)
    place = moved_box(ref.bbox, shift)
    if name_read_at(ctx, decision, (place,)):
        return None  # the ranking judges the text read
    picture = config.drawn_picture * ctx.screen_height()
    rows = drawn_rows(table, canonical_role(ref.role), place, config.drawn_iou, picture)
    rows = rows or _marks_at(table, place, config.drawn_iou)
    if len({table.executor_id(r) for r in rows}) != 1:
        return None
    found = enough_anchors(ctx, place, after=True)
    if found is None:
        return None
    row = rows[0]
    if table.raw_roles[row] == "mark":
        reach = config.mark_reach * ctx.screen_height()
        kept = _mark_candidate(ctx, row, _nearby_around(ctx, row_box(table, row), reach))
        what = "mark drawn apart"
    else:
        kept = row_candidate(ctx, row)
        what = f"{table.raw_roles[row]} of the recorded role"
    reason = (
        f"{decision.reason}; but the recorded name is read nowhere on the screen, one "
        f"{what} lies at the recorded place "
        f"({kept.id!r}, overlap {iou_one(table.box(row) or place, place):.2f}), and {found} "
        "recorded anchors are where they were: the control is drawn without its name"
    )
    return accepted_as(decision, kept, reason)


def drawn_in_box(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.drawn_in_box``: on the whole of a screenshot, for a named reference whose
    box is all it recorded of its place (another tool's: no anchors, no look-alikes) and
    whose name is read nowhere on the screen (as for :func:`drawn_at_place`), the one drawn
    shape of the recorded role that shows no text (:func:`_shows_no_text`) and fits the
    recorded box (each edge within ``drawn_fit`` screen heights; on a screen of another
    size, the box as a zoom or as a resized window would have moved it,
    :func:`box_readings`, one shape over all the readings), when no other shape of the
    role, of its kind and of its size lies next to it on its line or in its column (within
    ``drawn_row_gap`` screen heights, no text read between them: one that could have slid
    into a removed control's place) and the recorded neighbour texts are read around it
    (``web:nearby`` of ``drawn_nearby`` at least) when it recorded any. For one that
    recorded none (role, name and box alone) nothing recorded of its neighbourhood speaks
    against the shape, and the like shapes beside it stay the guard against a successor
    moved into a removed control's place."""
    ref, config = ctx.ref, ctx.config
    places = box_readings(ctx)
    if not ref.role or not places:
        return None
    if name_read_at(ctx, decision, places):
        return None
    fit = config.drawn_fit * ctx.screen_height()
    rows = [r for p in places for r in _fitting(ctx, p, fit) if not _slid_in(ctx, r, fit)]
    kept = one_among_neighbours(ctx, rows)
    if kept is None:
        return None
    nearby = kept.signals.get("web:nearby")
    around = (
        "it recorded no neighbour texts"
        if nearby is None
        else f"its recorded neighbours are read around it (nearby {nearby:.2f})"
    )
    reason = (
        f"{decision.reason}; but the recorded name is read nowhere on the screen, one "
        f"{ctx.table.raw_roles[rows[0]]} of the recorded role fills the recorded box "
        f"({kept.id!r}), none like it beside it, and {around}: the control is drawn "
        "without its name"
    )
    return accepted_as(decision, kept, reason)


def drawn_in_column(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.drawn_in_column``: as :func:`drawn_in_box` (another tool's reference, whose
    box is all it recorded of its place, on the whole of a screenshot of the recorded size,
    its name read nowhere), for a shape moved straight up or down its column: a banner or
    a block inserted above moves what follows down by hundreds of pixels, and an icon button
    no longer fills its box. Taken: the one drawn shape of the recorded role on the screen
    showing no text whose left and right edges and size each lie within ``drawn_fit``
    screen heights of the recorded box's (the column and the size are the place's proof
    that is left), no shape of its kind and size beside it on its line
    (``drawn_row_gap``), no mark of its size on its line or in its column (a twin the
    detectors did not take for a shape), and the recorded neighbour texts read around it
    (``web:nearby`` of ``drawn_nearby`` at least: they moved with it). A reference that
    recorded no neighbour texts is not answered so: nothing vouches for the move."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    if not ref.role or ref.bbox is None or not ref.nearby_text or not box_alone_on_screen(ctx):
        return None
    if name_read_at(ctx, decision, (ref.bbox,)):
        return None
    fit = config.drawn_fit * ctx.screen_height()
    box = ref.bbox
    rows = [
        r
        for r in drawn_rows(table, canonical_role(ref.role), box, 0.0)
        if _shows_no_text(table, r) and same_column_and_size(row_box(table, r), box, fit)
    ]
    if len({table.executor_id(r) for r in rows}) != 1 or _slid_in(ctx, rows[0], fit):
        return None
    found = row_box(table, rows[0])
    # A twin the detectors missed is still a mark of its size in its column or line.
    if _alike_in_line(found, [m for m in table.marks if iou_one(m, found) < 0.5], fit, math.inf):
        return None
    kept = row_candidate(ctx, rows[0])
    nearby = kept.signals.get("web:nearby")
    if nearby is None or nearby < config.drawn_nearby:
        return None
    moved = found[1] - box[1]
    reason = (
        f"{decision.reason}; but the recorded name is read nowhere on the screen, one "
        f"{table.raw_roles[rows[0]]} of the recorded role and the recorded box's size lies in "
        f"its column ({kept.id!r}, {moved:+.0f} px), the only one there, and its recorded "
        f"neighbours are read around it (nearby {nearby:.2f}): the control moved down or up "
        "the page with them"
    )
    return accepted_as(decision, kept, reason)


def one_among_neighbours(ctx: Context, rows: list[int]) -> Candidate | None:
    """The one element ``rows`` are (its first row, as a candidate), when its recorded
    neighbour texts are read around it (``web:nearby`` of ``drawn_nearby`` at least) or the
    reference recorded none; else ``None``."""
    if len({ctx.table.executor_id(r) for r in rows}) != 1:
        return None
    kept = row_candidate(ctx, rows[0])
    nearby = kept.signals.get("web:nearby")
    if ctx.ref.nearby_text and (nearby is None or nearby < ctx.config.drawn_nearby):
        return None
    return kept


def same_column_and_size(box: Box, place: Box, fit: float) -> bool:
    """Whether ``box`` has ``place``'s left and right edges and height, each within
    ``fit``: the same shape moved straight up or down."""
    height, wanted = box[3] - box[1], place[3] - place[1]
    return (
        abs(box[0] - place[0]) <= fit
        and abs(box[2] - place[2]) <= fit
        and (abs(height - wanted) <= fit)
    )


def stem_in_box(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.stem_in_box``: on the whole of a screenshot, for a named reference whose box
    is all it recorded of its place (another tool's: no anchors, no look-alikes) and whose
    name no ranked row reads (under ``drawn_name``), the one drawn shape of the recorded role
    that fits the recorded box (as for :func:`drawn_in_box`: each edge within ``drawn_fit``
    screen heights, at any of the box's readings, none like it beside it) when the text it
    shows is a form of the name: a word of the name and one of the text begin alike
    (:func:`stem_mates`). A control named by an ``aria-label`` shows a caption of its own,
    which often says the name in another form ("Comment" showing "11 Comments", a search
    field "Hledaný výraz" showing "Co hledáte?"); the shape at the place, of the role,
    saying it so, is the control. The control after a removed one, moved into its place,
    shows a name of its own."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    places = box_readings(ctx)
    if not ref.role or not places or not config.stem_chars:
        return None
    if any(c.signals.get("name", 0.0) >= config.drawn_name for c in decision.candidates):
        return None  # the name is read: the ranking and the rules above judge it
    fit = config.drawn_fit * ctx.screen_height()
    role = canonical_role(ref.role)
    rows = [
        r
        for p in places
        for r in drawn_rows(table, role, p, config.drawn_iou)
        if _fits(row_box(table, r), p, fit) and not _slid_in(ctx, r, fit)
    ]
    if len({table.executor_id(r) for r in rows}) != 1:
        return None
    shown = table.names[rows[0]]
    if not stem_mates(words(ref.name or ""), words(shown), config.stem_chars):
        return None
    kept = row_candidate(ctx, rows[0])
    reason = (
        f"{decision.reason}; but one {table.raw_roles[rows[0]]} of the recorded role fills "
        f"the recorded box ({kept.id!r}), none like it beside it, and its caption "
        f"{shown[:60]!r} says the recorded name in another form: the control shows a "
        "caption of its own"
    )
    return accepted_as(decision, kept, reason)


def stem_mates(recorded: Sequence[str], shown: Sequence[str], chars: int) -> bool:
    """Whether the words ``shown`` say the words ``recorded`` in another form: a word of
    each begins with the same ``chars`` characters at least (and over half of the shorter
    of the two), and every other word shown is a number or at most two characters long (a
    count, an icon read as a character, a particle).

    >>> stem_mates(["comment"], ["三", "11", "comments"], 4)
    True
    >>> stem_mates(["hledaný", "výraz"], ["co", "hledáte"], 4)
    True
    >>> stem_mates(["comment"], ["share", "comments"], 4), stem_mates(["log", "in"], ["login"], 4)
    (False, False)
    """
    mates = [
        w
        for w in shown
        if any(_stem(r, w) >= max(chars, min(len(r), len(w)) / 2 + 0.5) for r in recorded)
    ]
    if not mates or chars <= 0:
        return False
    return all(w in mates or w.isdigit() or len(w) <= 2 for w in shown)


def _stem(a: str, b: str) -> int:
    """How many characters ``a`` and ``b`` begin with alike."""
    same = 0
    for x, y in zip(a, b, strict=False):  # (the shorter word ends the comparison)
        if x != y:
            break
        same += 1
    return same


def _fitting(ctx: Context, place: Box, fit: float) -> list[int]:
    """The drawn shapes of the recorded role that show no text and whose every edge lies
    within ``fit`` px of ``place``'s; for a link, a picture too whose shorter side is
    ``drawn_picture`` screen heights at least (a logo or an avatar linking home, named by
    its label: :func:`drawn_rows`). A shape showing a caption is a control with a name of
    its own: the one after a removed control, moved into its place, reads its own."""
    table, config = ctx.table, ctx.config
    role = canonical_role(ctx.ref.role or "")
    picture = config.drawn_picture * ctx.screen_height()
    rows = drawn_rows(table, role, place, config.drawn_iou, picture)
    return [r for r in rows if _shows_no_text(table, r) and _fits(row_box(table, r), place, fit)]


_PICTOGRAM = re.compile(f"[{UNSPACED_CHARS}] ?[{UNSPACED_CHARS}]?")
"""A reading of one or two Chinese or Japanese characters, and nothing else."""
_UNSPACED_WORD = re.compile(f"[{UNSPACED_CHARS}](?: ?[{UNSPACED_CHARS}]){{2}}")
"""Three such characters in one reading: the screen shows text in those scripts."""


def _shows_no_text(table: CandidateTable, row: int) -> bool:
    """Whether a drawn shape shows no text: nothing read in it, or only a pictogram the
    screen's reading took for one or two Chinese or Japanese characters (the OCR model
    reads a moon and a sun as "し楽", three bars as "三") on a screen that reads no
    three such characters together anywhere, where a two-character caption ("注册") is
    a name."""
    name = table.names[row]
    if not name:
        return True
    if not table.names_read or _PICTOGRAM.fullmatch(name) is None:
        return False
    return _UNSPACED_WORD.search("\n".join(table.names)) is None


def _fits(box: Box, place: Box, fit: float) -> bool:
    """Whether every edge of ``box`` lies within ``fit`` of ``place``'s."""
    return all(abs(a - b) <= fit for a, b in zip(box, place, strict=True))


def _slid_in(ctx: Context, row: int, fit: float) -> bool:
    """Whether another drawn shape of the recorded role, of ``row``'s kind (its raw role:
    a bordered box, an icon) and of its size (each side within twice ``fit``) lies next to
    it on its line or in its column (``drawn_row_gap``), with no text read between them
    (:func:`_read_between`): in a row of like icons, the next one moves into a removed
    one's place (a link's pictures too, as :func:`_fitting` takes them)."""
    table = ctx.table
    box = row_box(table, row)
    role = canonical_role(ctx.ref.role or "")
    picture = ctx.config.drawn_picture * ctx.screen_height()
    others = [
        row_box(table, other)
        # every shape of the role, apart or not
        for other in drawn_rows(table, role, box, 0.0, picture)
        if table.executor_id(other) != table.executor_id(row)
        and table.raw_roles[other] == table.raw_roles[row]
    ]
    others = [o for o in others if not _read_between(table, box, o)]
    return _alike_in_line(box, others, 2 * fit, ctx.config.drawn_row_gap * ctx.screen_height())


def _read_between(table: CandidateTable, box: Box, other: Box) -> bool:
    """Whether a text is read between ``box`` and ``other``, one above the other: across
    the column they share, wholly below the upper and above the lower. Shapes with a line
    of text between them are no column of like icons, where the next one moves up into a
    removed one's place; they are each beside text of their own."""
    upper, lower = (box, other) if box[1] <= other[1] else (other, box)
    if lower[1] < upper[3]:
        return False  # side by side on a line
    left, right = max(box[0], other[0]), min(box[2], other[2])
    boxes = table.bboxes
    with np.errstate(invalid="ignore"):
        between = (
            (boxes[:, 1] >= upper[3])
            & (boxes[:, 3] <= lower[1])
            & (boxes[:, 0] < right)
            & (boxes[:, 2] > left)
        )
    return any(table.raw_roles[r] == LINE_ROLE for r in np.flatnonzero(between).tolist())


def _alike_in_line(box: Box, others: Sequence[Box], slack: float, gap: float) -> bool:
    """Whether one of ``others`` has ``box``'s size (each side within ``slack``) and
    shares its line or its column, at most ``gap`` from it along that line or column (the
    next icon of a row of like icons: two icon buttons far apart in the one column of an
    unstyled page are no such row)."""
    for o in others:
        lined = min(o[3], box[3]) > max(o[1], box[1]) or min(o[2], box[2]) > max(o[0], box[0])
        if same_size(o, box, slack) and lined and box_gap(box, o) <= gap:
            return True
    return False


def same_size(box: Box, other: Box, slack: float) -> bool:
    """Whether ``box`` has ``other``'s width and height, each within ``slack``."""
    return (
        abs((box[2] - box[0]) - (other[2] - other[0])) <= slack
        and abs((box[3] - box[1]) - (other[3] - other[1])) <= slack
    )


def mark_in_box(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.mark_in_box``: as :func:`drawn_in_box` (another tool's reference, whose box
    is all it recorded of its place, on the whole of a screenshot, in each of its readings,
    its name read nowhere), for what the screen draws apart from the rest without the vision
    source taking it for a text or a shape (a logo wider than an icon, a button drawn as
    a pill too small for a bordered box: a row of raw role ``mark``): the one mark
    (:attr:`~resolver.table.CandidateTable.marks`) whose every edge lies within
    ``drawn_fit`` screen heights of the recorded box's, when it is such a row (no text is
    read on it: a control showing a caption reads its own name, and so does the one after
    a removed control, moved into its place), no other mark of its size (each side within
    ``drawn_fit``: a mark's box is its ink's, to the pixel) lies on its line or in its
    column, and the recorded neighbour texts are read around it (``web:nearby`` of
    ``drawn_nearby`` at least on a row within ``mark_reach`` screen heights of it) when it
    recorded any. For one that recorded none (role, name and box alone), as for
    :func:`drawn_in_box`, the marks like it beside it stay the guard."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    places = box_readings(ctx)
    if not ref.role or not table.marks or not places:
        return None
    if name_read_at(ctx, decision, places):
        return None
    fit = config.drawn_fit * ctx.screen_height()
    fitting = {m for m in table.marks for p in places if _fits(m, p, fit)}
    rows = sorted(
        {r for r in _mark_rows(table) for p in places if _fits(row_box(table, r), p, fit)}
    )
    if len(fitting) != 1 or len(rows) != 1:
        return None
    box = row_box(table, rows[0])
    # the row's box is its mark's, rescaled the same way: equal, to the bit
    if _alike_in_line(box, [m for m in table.marks if m != box], fit, math.inf):
        return None
    nearby = None
    if ref.nearby_text:
        nearby = _nearby_around(ctx, box, config.mark_reach * ctx.screen_height())
        if nearby is None or nearby < config.drawn_nearby:
            return None
    kept = _mark_candidate(ctx, rows[0], nearby)
    around = (
        "it recorded no neighbour texts"
        if nearby is None
        else f"its recorded neighbours are read around it (nearby {nearby:.2f})"
    )
    reason = (
        f"{decision.reason}; but the recorded name is read nowhere on the screen, one mark "
        f"drawn apart fills the recorded box ({kept.id!r}), nothing read on it, none like it "
        f"beside it, and {around}: the control is drawn without its name"
    )
    return accepted_as(decision, kept, reason)


def _mark_rows(table: CandidateTable) -> list[int]:
    """The rows of raw role ``mark``."""
    return [row for row, raw in enumerate(table.raw_roles) if raw == "mark"]


def _marks_at(table: CandidateTable, place: Box, min_iou: float) -> list[int]:
    """The mark rows overlapping ``place`` by ``min_iou`` at least."""
    return [r for r in _mark_rows(table) if iou_one(row_box(table, r), place) >= min_iou]


def _nearby_around(ctx: Context, box: Box, reach: float) -> float | None:
    """The best ``web:nearby`` agreement (the share of the recorded neighbour texts read
    next to it in reading order) of the rows within ``reach`` of ``box`` that read text;
    ``None`` when the reference recorded none of them or no such row is that near. (A mark
    row has no place in the reading order: it comes after every element.)"""
    query = WebQuery.build(ctx.ref)
    if query is None or not query.nearby:
        return None
    shares = ctx.table.derived(NearbyIndex).near_share(query.nearby, ctx.config.nearby_window)
    if shares is None:
        return None
    with np.errstate(invalid="ignore"):
        near = np.flatnonzero(box_gaps(ctx.table.bboxes, box) <= reach)
    near = near[np.array([bool(ctx.table.names[int(r)]) for r in near], dtype=bool)]
    return float(shares[near].max()) if near.size else None


def _mark_candidate(ctx: Context, row: int, nearby: float | None) -> Candidate:
    """Mark row ``row`` as a candidate: its box agreement with the recorded box (after the
    page's shift), no name, the ``nearby`` agreement around it when known, scored with the
    matcher's weights of those signals (its role, ``generic``, says nothing of what it
    is)."""
    table, config = ctx.table, ctx.config
    assert ctx.ref.bbox is not None
    place = moved_box(ctx.ref.bbox, page_shift(ctx.ref, table))
    agreement = float(bbox_scores(place, np.asarray([row_box(table, row)]), 0.0)[0])
    signals = {"name": 0.0, "bbox": round(agreement, 4)}
    weights = {"name": config.w_name, "bbox": config.w_bbox}
    if nearby is not None:
        signals["web:nearby"] = round(nearby, 4)
        weights["web:nearby"] = config.w_nearby
    score = sum(weights[k] * v for k, v in signals.items()) / sum(weights.values())
    return Candidate.at_row(table, row, score, signals)


def box_readings(ctx: Context) -> tuple[Box, ...]:
    """Where the recorded box may lie on the whole of a screenshot, for a named reference
    whose box is all it recorded of its place (:func:`box_alone_on_screen`, but on a screen
    of any size): the box itself on a screen of the recorded size; on another, the box
    rescaled as by a zoom, then its readings as by a resized window
    (:func:`~resolver.matcher.other_readings`). Empty when the rules placing by the box
    alone do not apply."""
    ref, table = ctx.ref, ctx.table
    if table.window is not None or not box_alone(ref, table) or ref.bbox is None:
        return ()
    if box_alone_on_screen(ctx):
        return (ref.bbox,)
    return box_readings_of(ref, table)


def box_alone_on_screen(ctx: Context) -> bool:
    """Whether the whole of a screenshot of the recorded size is judged for a named
    reference whose box is all it recorded of its place (no anchors, no look-alikes)."""
    ref, table = ctx.ref, ctx.table
    if table.window is not None or not box_alone(ref, table):
        return False
    return page_shift(ref, table)[:2] == (1.0, 1.0)


def placed_by_screen(ctx: Context) -> bool:
    """Whether the place rules apply: a table whose names are read from a screenshot, and a
    named reference with a box in its space and anchors to place it by."""
    ref, table = ctx.ref, ctx.table
    if not table.names_read or not ref.name or ref.bbox is None or not ref.anchors:
        return False
    return same_space(ref, table)


def enough_anchors(ctx: Context, place: Box, *, after: bool) -> int | None:
    """How many recorded anchors are where they were around ``place``
    (:func:`anchors_in_place`, within ``drawn_slack`` screen heights), when that is
    ``drawn_anchors`` at least; else ``None``."""
    slack = ctx.config.drawn_slack * ctx.screen_height()
    found = anchors_in_place(ctx.ref, ctx.table, place, slack, after)
    return found if found is not None and found >= ctx.config.drawn_anchors else None


def row_candidate(ctx: Context, row: int) -> Candidate:
    """``row`` as a candidate, scored for the reference."""
    return Candidate.of(ctx.table, scored_at(ctx.ref, ctx.table, ctx.config, [row]), 0)


def accepted_as(decision: Decision, kept: Candidate, reason: str) -> Decision:
    """``decision`` accepted with ``kept`` as its answer, the other targets ranked after it
    (its margin over the best of them)."""
    others = tuple(c for c in decision.candidates if c.executor_id != kept.executor_id)
    return replace(
        decision, status="accepted", reason=reason, candidates=(kept, *others),
        runner_up=others[0] if others else None,
        margin=round(kept.score - others[0].score, 4) if others else 1.0,
    )  # fmt: skip


def name_read_at(ctx: Context, decision: Decision, places: Sequence[Box]) -> bool:
    """:func:`recorded_name_read` at any of ``places`` (readings of the recorded box), by
    ``name_read`` near a place and ``drawn_name`` anywhere; a text overlapping a place by
    no more than ``drawn_slack`` screen heights counts as beside it. For a picture
    (:data:`PICTURE_LINK`) only near a place: a picture that loaded never shows its
    alternative text, and the same words written elsewhere (the site's name beside its
    logo, an author's name beside the avatar) are another element's."""
    config = ctx.config
    edge = config.drawn_slack * ctx.screen_height()
    anywhere = config.drawn_name
    if canonical_role(ctx.ref.role or "") == PICTURE_LINK:
        anywhere = math.inf
    return any(recorded_name_read(decision, p, config.name_read, anywhere, edge) for p in places)


def recorded_name_read(
    decision: Decision, place: Box, near: float, anywhere: float, edge: float = 0.0
) -> bool:
    """Whether a ranked row reads the recorded name: by ``anywhere`` at least, or by
    ``near`` at least with its box overlapping ``place`` by more than ``edge`` px along
    both axes (a caption whose box grazes the place's edge is beside it). A control of a
    kind the recorded role never is (a link "News Search" for a search field) is another
    element: its reading says nothing of where the target is. A text counts whatever its
    role (a label)."""
    for candidate in decision.candidates:
        fits = candidate.signals.get("role", 1.0)
        if candidate.role in ACTIONABLE_ROLES and fits <= ROUNDING:
            continue
        agreement = candidate.signals.get("name", 0.0)
        if agreement >= anywhere:
            return True
        box = candidate.bbox
        if agreement >= near and box is not None and _overlap_beyond(box, place, edge):
            return True
    return False


def _overlap_beyond(box: Box, place: Box, edge: float) -> bool:
    """Whether ``box`` and ``place`` overlap by more than ``edge`` px along both axes."""
    width = min(box[2], place[2]) - max(box[0], place[0])
    height = min(box[3], place[3]) - max(box[1], place[1])
    return width > edge and height > edge


def is_drawn(raw: str) -> bool:
    """Whether a row of raw role ``raw`` is a shape the vision source drew rather than read
    (:data:`DRAWN_KINDS`, or a detected widget)."""
    return raw in DRAWN_KINDS or raw.startswith("detected:")


def drawn_rows(
    table: CandidateTable, role: str, place: Box, min_iou: float, picture: float | None = None
) -> list[int]:
    """The rows of drawn shapes (:data:`DRAWN_KINDS`, detected widgets) whose role is
    compatible with ``role`` (for a link, with ``picture`` given, a picture too whose
    shorter side is ``picture`` px at least: :data:`PICTURE_LINK`) and whose box overlaps
    ``place`` by ``min_iou`` at least, the most overlapping first (ties in row order)."""
    codes, geometry = table.role_codes, index_of(table).geometry
    with np.errstate(invalid="ignore"):
        overlap = iou(place, geometry)
        fits = COMPAT[role_code(role)][codes] >= 1.0
        if role == "link" and picture is not None:
            side = np.minimum(geometry.width, geometry.height)
            fits |= (codes == role_code(PICTURE_LINK)) & (side >= picture)
        near = (overlap >= min_iou) & fits
    rows = [
        row for row in np.flatnonzero(near).tolist()
        if is_drawn(table.raw_roles[row])
    ]  # fmt: skip
    return sorted(rows, key=lambda row: -float(overlap[row]))


def anchors_in_place(
    ref: SemanticElementRef, table: CandidateTable, place: Box, slack: float, after: bool = True
) -> int | None:
    """How many recorded anchors are read on the screen where they were (found as for the
    page's shift, or read across runs: ``TableIndex.read_box``; their recorded
    box moved by the page's shift: on each axis, the nearer of their starts, ends and
    centres within ``slack``; a recorded block and the ink of its words read on the screen
    share one of them), or ``None`` when one read there lies elsewhere, or (with ``after``)
    none of those in place lies after ``place`` in reading order (below it, or right of it
    on its line)."""
    index = index_of(table)
    shift = page_shift(ref, table)
    kept = 0
    later = not after
    for name, old in ref.anchors:
        new = index.read_box(name)
        if new is None:
            continue
        then = moved_box(old, shift)
        if max(_gap(new, then, 0), _gap(new, then, 1)) > slack:
            return None
        kept += 1
        later = later or _after(then, place)
    return kept if later else None


def _gap(a: Sequence[float], b: Sequence[float], axis: int) -> float:
    """How far apart two boxes are on one axis (0 across, 1 down): the least of the
    distances between their starts, their ends and their centres
    (:func:`~resolver.geometry.nearest_move`)."""
    return abs(nearest_move(a[axis], a[axis + 2], b[axis], b[axis + 2]))


def _after(box: Sequence[float], place: Sequence[float]) -> bool:
    """Whether ``box`` comes after ``place`` in reading order: below it, or right of it and
    overlapping its line."""
    if box[1] >= place[3]:
        return True
    return box[0] >= place[2] and box[1] < place[3] and box[3] > place[1]
