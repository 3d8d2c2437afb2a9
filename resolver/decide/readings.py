"""Elements a screenshot reads at their place otherwise than the ranking looks for.

A field without a border shows only its placeholder, a heading set in body type reads as
plain text, a picture that did not load shows its alternative text (in its link's colour
inside a link): the name is read, but not with the recorded role's look, and the role
refuses it. :func:`read_at_place` takes the one text reading the name when it lies inside the
recorded box and the anchors are where they were (for another tool's reference, which
records no anchors: the one reading of it in the box's column, or the one plain reading on
the box's line).

A control named by an ``aria-label`` may show another caption ("Profile" showing "Sign
in"): :func:`caption_at_place` takes the caption the reference recorded inside its box. A
name that grew a count or was edited by a word no longer reads as recorded: see
:mod:`resolver.decide.edits`.

A button answered by a text of another role (a link of its name, moved into its place)
gives way to the one button drawn as a shape that reads its name, within a line of its box
(:func:`prefer_shaped`).

A field shows its placeholder, not the ``aria-label`` that names it:
:func:`placeholder_at_place` takes the one element reading the recorded placeholder where the
field was.

The place and the anchors are judged as for shapes drawn without their name
(:mod:`resolver.decide.drawn`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..geometry import Box, box_gap, share_inside
from ..index import index_of
from ..matcher import moved_box, other_readings, page_shift
from ..results import Candidate
from ..roles import COMPAT, canonical_role, role_code
from ..table import CandidateTable
from ..text import collapse, cut_of, normalize
from .drawn import (
    DRAWN_KINDS,
    PLAIN_READINGS,
    accepted_as,
    box_readings,
    enough_anchors,
    is_drawn,
    name_read_at,
    placed_by_screen,
    row_candidate,
    same_column_and_size,
    same_size,
)
from .facts import centre, cut_short, in_column, on_line, row_box, same_space
from .rule import Context, Decision

__all__ = [
    "CAPTIONED_ROLES",
    "SHAPED_ROLES",
    "caption_at_place",
    "cut_from",
    "most_like",
    "own_words",
    "placeholder_at_place",
    "prefer_shaped",
    "read_at_place",
    "shaped_at_place",
    "shaped_namesakes",
    "titled_by",
]

SHAPED_ROLES = frozenset({"button", "textbox", "searchbox", "combobox", "checkbox", "radio"})
"""Roles a screenshot draws as a shape of their own (a border, a box glyph, a circle)."""
FIELD_ROLES = frozenset({"textbox", "searchbox", "combobox"})
"""Roles whose element shows a placeholder while it is empty."""
CAPTIONED_ROLES = frozenset({"button"})
"""Roles whose drawn shape shows the element's name as its caption (a bordered button)."""


def shaped_at_place(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.shaped_at_place``: on a screenshot, for a named reference of a role drawn as
    a shape (:data:`SHAPED_ROLES`) that the ranking left tied: the best is the one shape the
    vision source drew (:data:`~resolver.decide.drawn.DRAWN_KINDS`) of the recorded role
    that reads the recorded name (``drawn_name``), its box agreeing by ``shaped_box`` and
    better than that of every other reading of the name, each of which is read without the
    recorded role's look (plain text, a link). The name read with the recorded role's shape,
    at the recorded place, is the target; a caption read again below it is not."""
    ref, table, config, best = ctx.ref, ctx.table, ctx.config, decision.best
    role = canonical_role(ref.role or "")
    if not table.names_read or not ref.name or role not in SHAPED_ROLES or best is None:
        return None
    rows, raw = index_of(table).rows_by_id, table.raw_roles
    readers = [c for c in decision.candidates if c.signals.get("name", 0.0) >= config.drawn_name]
    shaped = [
        c
        for c in readers
        if c.role == role and rows.get(c.id) is not None and raw[rows[c.id]] in DRAWN_KINDS
    ]
    if len({c.executor_id for c in shaped}) != 1 or shaped[0].executor_id != best.executor_id:
        return None
    box = best.signals.get("bbox", 0.0)
    others = [c for c in readers if c.executor_id != best.executor_id]
    if box < config.shaped_box or any(c.signals.get("bbox", 0.0) >= box for c in others):
        return None
    why = (
        f"the one {role} drawn as one that reads the recorded name, at the recorded box "
        f"(box {box:.2f}); {len(others)} other reading(s) of it without that look"
    )
    return accepted_as(decision, best, why)


def prefer_shaped(ctx: Context, decision: Decision) -> Decision | None:
    """``prefer.shaped``: on a screenshot, for a named reference of a role drawn with its
    name as a caption (a button), an answer (or the best of a tie) read as text of another
    role (a link, no border) gives way to the one shape the vision source drew of the
    recorded role that reads the recorded name as it is (compared normalised), when that
    shape lies within a line of the recorded box (a gap under the box's height, at one of
    its readings) and has its size (each side within twice ``drawn_fit`` screen heights: a
    field the source took for a button, showing the name as its placeholder, is wider): a
    control that moved up a line when the one above it went, its place taken by a link of
    its name that was below it. The caption read with the recorded role's look is the
    target; the refusals after this judge the shape."""
    ref, table, best = ctx.ref, ctx.table, decision.best
    if not table.names_read or best is None or ref.bbox is None:
        return None  # (asked of every answer: the cheap tests first)
    role = canonical_role(ref.role or "")
    if role not in CAPTIONED_ROLES:
        return None
    row = index_of(table).rows_by_id.get(best.id)
    if best.role == role or row is None or is_drawn(table.raw_roles[row]):
        return None
    shaped = shaped_namesakes(ctx, role)
    if len({table.executor_id(r) for r in shaped}) != 1:
        return None
    box = row_box(table, shaped[0])
    places = box_readings(ctx) or (moved_box(ref.bbox, page_shift(ref, table)),)
    size = 2.0 * ctx.config.drawn_fit * ctx.screen_height()
    if not any(box_gap(box, p) < p[3] - p[1] and same_size(box, p, size) for p in places):
        return None
    kept = row_candidate(ctx, shaped[0])
    reason = (
        f"{decision.reason}; but the answer is read as a {best.role}, and the one {role} "
        f"drawn as one reading the recorded name lies within a line of the recorded box "
        f"({kept.id!r}): the control, moved"
    )
    return accepted_as(decision, kept, reason)


def shaped_namesakes(ctx: Context, role: str) -> list[int]:
    """The rows of shapes the vision source drew of ``role`` (as
    :func:`~resolver.decide.drawn.drawn_rows` takes them) that read the recorded name as it
    is (compared normalised)."""
    table = ctx.table
    compat = COMPAT[role_code(role)]
    return [
        r for r in index_of(table).namesakes(ctx.ref.name or "").tolist()
        if is_drawn(table.raw_roles[r]) and compat[table.role_codes[r]] >= 1.0
    ]  # fmt: skip


def read_at_place(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.read_at_place``: on a screenshot, for a reference with a name and a box that
    the ranking refused or left tied, whose element the screen draws otherwise than its role
    (a field without a border, showing its placeholder; a heading in body type): the one
    element reading the recorded name (by ``drawn_name``; of several, the one on the line,
    :func:`_one_at_place`) lies inside the recorded box after the page's shift
    (:func:`~resolver.decide.facts.on_line`: centred on the recorded line, ``drawn_inside``
    of its width inside; a line's ink box is often taller than the element), and the place
    is confirmed. For a reference with anchors, ``drawn_anchors`` recorded anchors at least
    are read where they were, none elsewhere (:func:`anchors_in_place`; a removed element
    takes its text with it, so no anchor need come after it). For one whose box is all it
    recorded of its place (another tool's: no anchors, no look-alikes), on the whole of a
    screen, the text need only lie in the recorded box's column when it is read as plain
    text (:data:`PLAIN_READINGS`, not the recorded role; for a picture, also as a link
    after its broken-image icon, :func:`_drawn_otherwise`;
    :func:`~resolver.decide.facts.in_column`: nothing measures the page's move, and a move
    keeps to its column), and no other element on the screen reads the recorded name: what
    is read once, in the target's column, is the target, drawn otherwise. Where other
    elements read it too, none of them with the recorded role's look, the one on the
    recorded line is taken when no other reading of it is there: a namesake at the place is
    how the ranking itself tells twins apart for such a reference
    (``ambiguous.twin_moved``). On a screen of another size the box is read as a zoom and as
    a resized window would have moved it (:func:`~resolver.decide.drawn.box_readings`), the
    one element found at any reading is taken; a text up or down the column is taken only at
    the first reading (the zoom's) and at readings lying within the screen's width: a
    reading a resized window would have moved partly off the screen is a guess, whose
    column reaches far from the target. A reading that begins with a long recorded name
    cut in the middle of a word reads it too (:func:`cut_from`)."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    places = box_readings(ctx)
    alone = bool(places)
    if not (alone or placed_by_screen(ctx)) or ref.bbox is None:
        return None
    if not alone:
        places = (moved_box(ref.bbox, page_shift(ref, table)),)
    readers = [
        c
        for c in decision.candidates
        if c.signals.get("name", 0.0) >= config.drawn_name
        or cut_from(ref.name or "", c.name, config.cut_name_chars)
    ]
    found: dict[str, tuple[Candidate, str]] = {}
    for at, place in enumerate(places):
        column = alone and (at == 0 or _across_screen(ctx, place))
        read = _read_at(ctx, readers, place, alone, column)
        if read is not None:
            found.setdefault(read[0].executor_id, read)
    if len(found) != 1:
        return None
    kept, confirmed = next(iter(found.values()))
    reason = (
        f"{decision.reason}; but the recorded name is read inside the recorded box "
        f"({kept.id!r}, read as {kept.role}), and {confirmed}: the element is drawn otherwise "
        "than its role"
    )
    return accepted_as(decision, kept, reason)


def _across_screen(ctx: Context, place: Box) -> bool:
    """Whether ``place`` lies within the screen's width (a reading of the box that a
    resized window would have moved partly off the screen is no place a target was seen)."""
    size = ctx.table.screen_size
    return size is not None and place[0] >= 0.0 and place[2] <= size[0]


def _read_at(
    ctx: Context, readers: list[Candidate], place: Box, alone: bool, column: bool
) -> tuple[Candidate, str] | None:
    """:func:`read_at_place` at one reading of the recorded box (``place``): the one reader
    there, and what confirms it. ``alone``: the reference's box is all it recorded of its
    place; ``column``: a plain text in the box's column may answer (not only one on its
    line)."""
    several = len({c.executor_id for c in readers}) > 1
    readers = _one_at_place(ctx, readers, place)
    if not readers or len({c.executor_id for c in readers}) != 1 or readers[0].bbox is None:
        return None
    kept, share = readers[0], ctx.config.drawn_inside
    box = _box_of(kept)
    otherwise = _drawn_otherwise(ctx, kept.role, box, place)
    if not (on_line(box, place, share) or (column and otherwise and in_column(box, place, share))):
        return None
    if alone:
        if not several and _read_once(ctx, kept):
            return kept, "no other element on the screen reads it"
        if _alone_at_place(ctx, kept, place):
            return kept, "no other reading of it is on the recorded line"
        return None
    found = enough_anchors(ctx, place, after=False)
    return None if found is None else (kept, f"{found} recorded anchors are where they were")


def _drawn_otherwise(ctx: Context, read: str, box: Box, place: Box) -> bool:
    """Whether a text read as ``read`` (its box ``box``) is an element of the recorded role
    drawn without its role's look: plain text (:data:`PLAIN_READINGS`) for any other role;
    for a picture, also a link-coloured text starting ``alt_indent`` of its height right of
    the recorded box's left side (``place``): a picture that did not load draws a
    broken-image icon, then its alternative text, in its link's colour when a link holds
    it."""
    role = canonical_role(ctx.ref.role or "")
    if read == role:
        return False
    if read in PLAIN_READINGS:
        return True
    indent = ctx.config.alt_indent * (box[3] - box[1])
    return role == "img" and read == "link" and box[0] - place[0] >= indent


def cut_from(recorded: str, read: str, min_chars: int) -> bool:
    """Whether ``recorded``, at least ``min_chars`` characters long (0: never), is ``read``
    cut short in the middle of a word: recorders keep the start of a long name ("A
    Beautiful Analog Clock for D"; as :func:`~resolver.decide.facts.bears_cut_name`). A
    name that ends where a word of the reading ends may be another element's whole name,
    its text going on (a heading repeated at the start of a paragraph), unless it ends in a
    blank: an accessible name is trimmed, so one recorded with a blank at its end was cut
    there, between two words."""
    short, whole = normalize(collapse(recorded)), normalize(collapse(read))
    if recorded[-1:].isspace():
        return cut_short(short, whole, min_chars)
    return cut_of(short, whole, min_chars)


def _read_once(ctx: Context, kept: Candidate) -> bool:
    """Whether every row of the table bearing the recorded name is ``kept``'s click
    target, or words of it (:func:`own_words`)."""
    rows = index_of(ctx.table).namesakes(ctx.ref.name or "")
    return all(own_words(ctx, kept, int(r)) for r in rows)


def titled_by(table: CandidateTable, row: int, kept: Candidate) -> bool:
    """Whether ``row`` is a group of a screenshot named by ``kept``, its title (``kept``
    lies inside it)."""
    box = table.box(row)
    return (
        table.roles[row] == "group"
        and box is not None
        and kept.bbox is not None
        and share_inside(kept.bbox, box) >= 1.0
    )


def own_words(ctx: Context, kept: Candidate, row: int) -> bool:
    """Whether ``row`` is ``kept``'s click target, words of ``kept`` read apart (its box
    wholly inside ``kept``'s: a name cut by its recorder is read as the first words of the
    text it began), or, for a reference of a role not drawn as a shape (a heading, a link),
    the shape drawn around ``kept`` and named by it: a border or band around a text, which
    the vision source names by the text inside, one thing drawn. (Around the text sought
    for a control, such a shape is a control itself, perhaps another: a button beside a
    removed field.)"""
    table = ctx.table
    if table.executor_id(row) == kept.executor_id:
        return True
    box = table.box(row)
    if box is None:
        return False
    if share_inside(box, _box_of(kept)) >= 1.0:
        return True
    return (
        canonical_role(ctx.ref.role or "") not in SHAPED_ROLES
        and table.raw_roles[row] in DRAWN_KINDS
        and share_inside(_box_of(kept), box) >= 1.0
        and table.names_norm[row] == normalize(collapse(kept.name))
    )


def _one_at_place(ctx: Context, readers: list[Candidate], place: Box) -> list[Candidate]:
    """``readers`` when they are one element; else, when none read off the recorded line
    (``place``: the recorded box after the page's shift) has the recorded role's look (the
    ranking judged those: a copy of the name left at the place and the target pushed on),
    those on the line, a run left out for the words of it that read the name (one element
    either way)."""
    if len({c.executor_id for c in readers}) <= 1:
        return readers
    share = ctx.config.drawn_inside
    role = canonical_role(ctx.ref.role or "")
    there = [c.bbox is not None and on_line(c.bbox, place, share) for c in readers]
    if any(c.role == role and not on for c, on in zip(readers, there, strict=True)):
        return []
    on = [c for c, here in zip(readers, there, strict=True) if here]
    return [c for c in on if not any(_holds(c, o) for o in on)]


def _holds(run: Candidate, part: Candidate) -> bool:
    """Whether ``part`` is words of ``run`` (its box wholly inside a larger box)."""
    outer, inner = _box_of(run), _box_of(part)
    larger = (outer[2] - outer[0]) * (outer[3] - outer[1]) > (inner[2] - inner[0]) * (
        inner[3] - inner[1]
    )
    return larger and share_inside(inner, outer) >= 1.0


def _alone_at_place(ctx: Context, kept: Candidate, place: Box) -> bool:
    """Whether ``kept`` lies on the recorded line (of ``place``) and no other row bearing
    the recorded name does."""
    table, share = ctx.table, ctx.config.drawn_inside
    if not on_line(_box_of(kept), place, share):
        return False
    rows = index_of(table).namesakes(ctx.ref.name or "")
    return not any(
        not own_words(ctx, kept, int(r)) and on_line(row_box(table, int(r)), place, share)
        for r in rows
    )


def _box_of(candidate: Candidate) -> Box:
    """The box of a candidate known to have one."""
    assert candidate.bbox is not None
    return candidate.bbox


def caption_at_place(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.caption_at_place``: on a screenshot, for a named reference with a box and
    anchors whose name no ranked row reads (as for :func:`drawn_at_place`), whose recorded
    anchors include texts inside its own recorded box (``drawn_inside`` of theirs): its
    visible caption, where an ``aria-label`` names it otherwise (a "Profile" button showing
    "Sign in", a "Comment" button showing "11 Comments"). Every caption read on the screen
    is read once, inside the recorded box after the shift the other anchors show (none read:
    the box as recorded), at least one is read, and ``drawn_anchors`` recorded anchors at
    least, captions included, are where they were, none elsewhere
    (:func:`anchors_in_place`). The largest caption read answers."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    if not placed_by_screen(ctx) or ref.bbox is None:
        return None
    recorded = ref.bbox
    inside = config.drawn_inside
    captions = [text for text, box in ref.anchors if share_inside(box, recorded) >= inside]
    if not captions or len(captions) == len(ref.anchors):
        return None
    # The place as the other anchors put it (the captions would carry it along with them).
    others_only = ref.model_copy(
        update={"anchors": tuple(a for a in ref.anchors if a[0] not in captions)}
    )
    place = moved_box(recorded, page_shift(others_only, table))
    if name_read_at(ctx, decision, (place,)):
        return None
    rows = _captions_read(ctx, captions, place)
    if not rows:
        return None
    found = enough_anchors(ctx, place, after=False)
    if found is None:
        return None
    geometry = index_of(table).geometry
    row = max(rows, key=lambda r: float(geometry.width[r] * geometry.height[r]))
    kept = row_candidate(ctx, row)
    reason = (
        f"{decision.reason}; but the recorded name is read nowhere, and the caption recorded "
        f"inside the element's box ({table.names[row][:60]!r}) is read once, inside that box "
        f"({kept.id!r}), with {found} recorded anchors where they were: the element shows a "
        "caption other than its name"
    )
    return accepted_as(decision, kept, reason)


def _captions_read(ctx: Context, captions: Sequence[str], place: Box) -> list[int]:
    """One row per caption read on the screen, of the role most like the recorded one (the
    hypotheses of one text are one element), when each is read by one element only and
    inside ``place`` (:func:`~resolver.decide.facts.on_line`); empty otherwise."""
    table, config = ctx.table, ctx.config
    index = index_of(table)
    rows: list[int] = []
    for text in captions:
        hits = index.lookup("norm", index.norm(text))
        found = hits[~index.repeats_parent[hits]].tolist()  # a word split out of its line
        if not found:
            continue
        if len({table.executor_id(r) for r in found}) != 1:
            return []
        box = table.box(found[0])
        if box is None or not on_line(box, place, config.drawn_inside):
            return []
        rows.append(most_like(ctx, found))
    return rows


def most_like(ctx: Context, rows: list[int]) -> int:
    """Of the rows of one element (its role hypotheses), the first of the role most like
    the recorded one (the first row without a recorded role)."""
    if not ctx.ref.role:
        return rows[0]
    compat = COMPAT[role_code(canonical_role(ctx.ref.role))][ctx.table.role_codes[rows]]
    return rows[int(np.argmax(compat))]  # the first of the best


def placeholder_at_place(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.placeholder_at_place``: on a screenshot, for a reference of a field role
    (:data:`FIELD_ROLES`) that recorded a box and the field's ``placeholder`` attribute,
    whose name (an ``aria-label``: "Site search" on a field showing "What are you after?") no
    ranked row reads, or which has none: the placeholder is read on the screen by one
    element only (its text, or its text after one character, an icon read as a letter: a
    magnifier read as "Q"; a text read inside a field is that field,
    :func:`_holding`), whose centre lies inside the recorded box after the page's shift.
    For a reference with anchors, ``drawn_anchors`` recorded anchors at least are where they
    were; for one whose box is all it recorded of its place, the whole screen is read, on
    a screen of another size than the recorded one the box's other readings (as by a
    resized window) place the field too, and on one of the recorded size a field moved
    straight up or down the box's column with its recorded neighbour texts is taken
    (:func:`_moved_in_column`). A field empty as it was recorded shows what it showed
    then."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    shown = normalize(collapse((ref.attributes or {}).get("placeholder") or ""))
    if not _placeholder_judged(ctx) or not shown or ref.bbox is None:
        return None
    place = moved_box(ref.bbox, page_shift(ref, table))
    if ref.name and name_read_at(ctx, decision, (place,)):
        return None
    rows = [r for r, norm in enumerate(table.names_norm) if _shows(norm, shown)]
    row = _holding(table, rows, config.drawn_inside)
    if row is None:
        return None
    kept = row_candidate(ctx, row)
    proof = _placeholder_proof(ctx, row_box(table, row), kept, place)
    if proof is None:
        return None
    where, confirmed = proof
    reason = (
        f"{decision.reason}; but the recorded placeholder ({shown[:60]!r}) is read {where} "
        f"({kept.id!r}, read as {kept.role}), and {confirmed}: the field shows its "
        "placeholder"
    )
    return accepted_as(decision, kept, reason)


def _placeholder_proof(
    ctx: Context, box: Box, kept: Candidate, place: Box
) -> tuple[str, str] | None:
    """Where the field ``box`` (``kept``) reading the placeholder is and what confirms it
    (see :func:`placeholder_at_place`), or ``None`` when it is not the field: centred in
    the recorded ``place`` with the recorded anchors where they were; for a reference
    without anchors, centred in it or in one of its readings, or moved straight up or down
    its column with its neighbour texts (:func:`_moved_in_column`)."""
    ref = ctx.ref
    if _centred_in(box, place):
        if not ref.anchors:
            return "inside the recorded box", "no other element on the screen reads it"
        found = enough_anchors(ctx, place, after=False)
        if found is None:
            return None
        return "inside the recorded box", f"{found} recorded anchors are where they were"
    if ref.anchors:
        return None
    if _centred_in_reading(ctx, box):
        return "inside the recorded box", "no other element on the screen reads it"
    if not _moved_in_column(ctx, box, kept):
        return None
    return (
        f"in the recorded box's column, at its height ({box[1] - place[1]:+.0f} px)",
        "no other element on the screen reads it, and its neighbour texts moved with it",
    )


def _placeholder_judged(ctx: Context) -> bool:
    """Whether :func:`placeholder_at_place` applies: a table read from a screenshot in the
    reference's space, a reference of a field role; one without anchors on the whole
    screen, with no look-alikes recorded."""
    ref, table = ctx.ref, ctx.table
    if not table.names_read or canonical_role(ref.role or "") not in FIELD_ROLES:
        return False
    if not same_space(ref, table):
        return False
    if ref.anchors:
        return True
    return table.window is None and not ref.lookalikes


def _moved_in_column(ctx: Context, box: Box, kept: Candidate) -> bool:
    """For a reference whose box is all it recorded of its place, on a screen of the
    recorded size: whether the field ``box`` (``kept``) moved straight up or down the page,
    its left and right edges and height each within ``drawn_fit`` screen heights of the
    recorded box's, with the recorded neighbour texts read around it (``web:nearby`` of
    ``drawn_nearby`` at least): a banner or a block inserted above moves the field and them
    down together."""
    ref, config = ctx.ref, ctx.config
    if ref.bbox is None or not ref.nearby_text or page_shift(ref, ctx.table)[:2] != (1.0, 1.0):
        return False
    if not same_column_and_size(box, ref.bbox, config.drawn_fit * ctx.screen_height()):
        return False
    nearby = kept.signals.get("web:nearby")
    return nearby is not None and nearby >= config.drawn_nearby


def _centred_in_reading(ctx: Context, box: Box) -> bool:
    """From a screen of another size than the recorded one, whether ``box`` is centred in
    one of the recorded box's readings as by a resized window (as recorded, or re-centred:
    :func:`~resolver.matcher.other_readings`)."""
    return any(_centred_in(box, other) for other in other_readings(ctx.ref, ctx.table))


def _shows(read: str, shown: str) -> bool:
    """Whether a text read (normalised) is ``shown``, or ``shown`` after one character and
    a space (an icon read as a letter)."""
    if read == shown:
        return True
    head, _, rest = read.partition(" ")
    return len(head) == 1 and rest == shown


def _holding(table: CandidateTable, rows: Sequence[int], share: float) -> int | None:
    """The largest row of ``rows`` when its box holds every other's (one element: a field
    and the text read inside it, a text and the icon run read with it): ``share`` of it,
    or, for a text whose ink box is read taller than the field's border, ``share`` of its
    width with its middle inside (:func:`~resolver.decide.facts.on_line`); ``None`` when
    they are not one element or there are none."""
    boxes = [table.box(r) for r in rows]
    if not rows or any(b is None for b in boxes):
        return None
    known = [b for b in boxes if b is not None]
    areas = [(b[2] - b[0]) * (b[3] - b[1]) for b in known]
    largest = int(np.argmax(areas))
    outer = known[largest]
    if all(share_inside(b, outer) >= share or on_line(b, outer, share) for b in known):
        return int(rows[largest])
    return None


def _centred_in(box: Box, place: Box) -> bool:
    """Whether the centre of ``box`` lies inside ``place``."""
    x, y = centre(box)
    return place[0] <= x <= place[2] and place[1] <= y <= place[3]
