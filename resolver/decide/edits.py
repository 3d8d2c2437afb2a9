"""Names a screenshot reads edited at the element's place.

A name that grew a count ("Blog" read as "Blog (27)") no longer reads as recorded:
:func:`extended_at_place` takes the one text beginning with the recorded words where the
element stood, and :func:`edited_at_place` a label with one word added or dropped, the
place vouched for by the recorded anchors. For another tool's reference, whose box is all it
recorded of its place, :func:`edited_in_box` takes the one button drawn at the recorded box
whose caption is the recorded name with a word added or dropped, when the name itself is
read only on elements drawn otherwise (a link of that name nearby).

The place and the anchors are judged as for shapes drawn without their name
(:mod:`resolver.decide.drawn`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..geometry import Box
from ..index import index_of
from ..matcher import moved_box, page_shift
from ..roles import canonical_role
from ..text import words
from .drawn import (
    accepted_as,
    box_readings,
    drawn_rows,
    enough_anchors,
    one_among_neighbours,
    placed_by_screen,
    row_candidate,
)
from .facts import on_line, row_box
from .readings import CAPTIONED_ROLES, most_like, shaped_namesakes
from .rule import Context, Decision

__all__ = [
    "edited_at_place",
    "edited_in_box",
    "extended_at_place",
    "one_word_edit",
]


def extended_at_place(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.extended_at_place``: on a screenshot, for a reference with a name, a box and
    anchors that no ranked row reads (under ``drawn_name``): the one element whose words
    begin with the recorded name's words and go on (a count or a word added after it: "Blog"
    read as "Blog (27)"), grown from the recorded box after the page's shift along its line
    (:func:`_grown_from`), with ``drawn_anchors`` recorded anchors at least where they
    were, none elsewhere (:func:`anchors_in_place`), and one of them after it unless what
    was added is a number (a removed element lets what follows close up over its place, and
    what follows may begin with the same words; it hardly goes on with a count). A reference
    whose box is all it recorded of its place (no anchors, no look-alikes) is answered so on
    the whole of a screen when what was added is a number: the one element on the screen
    reading the name so, grown from where the target was (from a screen of another size,
    from one of the box's readings)."""
    found = _read_there(ctx, decision, _grows, _grown_from)
    if found is None:
        return None
    rows, place = found
    recorded = words(ctx.ref.name or "")
    counted = all(w.isdigit() for w in words(ctx.table.names_norm[rows[0]])[len(recorded) :])
    if not ctx.ref.anchors:  # its box is all it recorded: only a count, read nowhere else
        if not counted:
            return None
        confirmed = "no other element on the screen reads it so"
    else:
        anchors = enough_anchors(ctx, place, after=not counted)
        if anchors is None:
            return None
        confirmed = f"{anchors} recorded anchors are where they were"
    kept = row_candidate(ctx, most_like(ctx, rows))
    reason = (
        f"{decision.reason}; but one element reads the recorded name with words added after "
        f"it ({kept.name[:60]!r}), inside the recorded box ({kept.id!r}), and {confirmed}: "
        "the name grew"
    )
    return accepted_as(decision, kept, reason)


def edited_at_place(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.edited_at_place``: on a screenshot, for a reference with a name, a box and
    anchors that no ranked row reads (under ``drawn_name``): the one element whose words are
    the recorded name's with one word added or dropped (:func:`one_word_edit`:
    "Videos" read as "Online Videos", "Like this:" as "Like this: online"), on the recorded
    line after the page's shift (:func:`~resolver.decide.facts.on_line`, ``drawn_inside``:
    a block's recorded box is wider than its words' ink), with ``drawn_anchors`` recorded
    anchors at least where they were, none elsewhere, and one of them after it (a removed
    element lets what follows close up over its place, and what follows may share words
    with it)."""
    if not ctx.ref.anchors:
        return None  # a word changed anywhere: only anchors after it vouch for the place
    edited = _read_there(
        ctx, decision, lambda recorded, name: one_word_edit(recorded, words(name)), on_line
    )
    if edited is None:
        return None
    rows, place = edited
    anchors = enough_anchors(ctx, place, after=True)
    if anchors is None:
        return None
    kept = row_candidate(ctx, most_like(ctx, rows))
    reason = (
        f"{decision.reason}; but one element reads the recorded name with one word added or "
        f"dropped ({kept.name[:60]!r}), on the recorded line ({kept.id!r}), and "
        f"{anchors} recorded anchors are where they were, one after it: the label was edited"
    )
    return accepted_as(decision, kept, reason)


def _read_there(
    ctx: Context,
    decision: Decision,
    reads: Callable[[list[str], str], bool],
    there: Callable[[Box, Box, float], bool],
) -> tuple[list[int], Box] | None:
    """:func:`_one_reading`, when that element's box is ``there`` at the recorded place
    (``there(box, place, drawn_inside)``; at the first of its readings where it is, for a
    box from a screen of another size), and that place."""
    found = _one_reading(ctx, decision, reads)
    if found is None:
        return None
    rows, places = found
    box = ctx.table.box(rows[0])
    if box is None:
        return None
    place = next((p for p in places if there(box, p, ctx.config.drawn_inside)), None)
    return None if place is None else (rows, place)


def _one_reading(
    ctx: Context, decision: Decision, reads: Callable[[list[str], str], bool]
) -> tuple[list[int], tuple[Box, ...]] | None:
    """For a reference the screen places (:func:`placed_by_screen`, or the whole of a screen
    for one that recorded only its box) whose name no ranked row reads (under
    ``drawn_name``): the rows of the one element whose name ``reads`` takes for the
    recorded one (``reads(recorded words, normalised name)``), and the recorded box after
    the page's shift (from a screen of another size, each of its readings:
    :func:`~resolver.decide.drawn.box_readings`); ``None`` when no element or more than one
    reads so."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    anchored = placed_by_screen(ctx)
    places = () if anchored or ref.bbox is None else box_readings(ctx)
    if not (anchored or places) or ref.bbox is None:
        return None
    if any(c.signals.get("name", 0.0) >= config.drawn_name for c in decision.candidates):
        return None  # the name is read: the ranking, or accept.read_at_place, judges it
    recorded = words(ref.name or "")
    if not recorded:
        return None
    index = index_of(table)
    rows = [
        r for r, name in enumerate(table.names_norm)
        if not index.repeats_parent[r] and reads(recorded, name)
    ]  # fmt: skip
    if len({table.executor_id(r) for r in rows}) != 1:
        return None
    return rows, places or (moved_box(ref.bbox, page_shift(ref, table)),)


def one_word_edit(recorded: Sequence[str], found: Sequence[str]) -> bool:
    """Whether ``found`` is ``recorded`` with one word added or dropped, anywhere (a word
    replaced makes another label: "Log In" and "Sign In").

    >>> one_word_edit(["videos"], ["online", "videos"]), one_word_edit(["a", "b"], ["b"])
    (True, True)
    >>> one_word_edit(["log", "in"], ["sign", "in"]), one_word_edit(["a"], ["b", "c", "a"])
    (False, False)
    """
    short, long = sorted((list(recorded), list(found)), key=len)
    if not short or len(long) != len(short) + 1:
        return False
    return any(long[:k] + long[k + 1 :] == short for k in range(len(long)))


def _grown_from(box: Box, place: Box, share: float) -> bool:
    """Whether a text read on the screen is the recorded element grown along its line: its
    centre on the recorded line, starting where the element started (within ``1 - share``
    of its width) and covering ``share`` of its width."""
    middle = (box[1] + box[3]) / 2.0
    if not place[1] <= middle <= place[3]:
        return False
    width = place[2] - place[0]
    covered = min(box[2], place[2]) - max(box[0], place[0])
    return (
        width > 0 and abs(box[0] - place[0]) <= (1.0 - share) * width and covered >= share * width
    )


def _grows(recorded: list[str], name: str) -> bool:
    """Whether the normalised ``name`` holds the ``recorded`` words and goes on after them."""
    return recorded[0] in name and _extends(words(name), recorded)


def _extends(found: list[str], start: list[str]) -> bool:
    """Whether ``found`` begins with the words ``start`` and has more."""
    return len(found) > len(start) and found[: len(start)] == start


def edited_in_box(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.edited_in_box``: on the whole of a screenshot, for a reference of a role
    drawn with its name as a caption (:data:`~resolver.decide.readings.CAPTIONED_ROLES`)
    whose box is all it recorded of its place (another tool's: no anchors, no look-alikes),
    the one shape of the recorded role whose caption is the recorded name with one word
    added or dropped (:func:`one_word_edit`: "Log In" showing "Log In today" or "Log") and
    whose start, top and bottom each lie within ``drawn_fit`` screen heights of the recorded
    box's (at one of its readings; the end moves with the caption's length), when no shape
    of the recorded role reads the recorded name as it is (a link reading it, drawn
    otherwise, is another element) and the recorded neighbour texts are read around it
    (``web:nearby`` of ``drawn_nearby`` at least) when it recorded any. The shape after a
    removed control, moved into its place, shows a caption of its own."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    role = canonical_role(ref.role or "")
    places = box_readings(ctx)
    if not table.names_read or role not in CAPTIONED_ROLES or not places:
        return None
    if shaped_namesakes(ctx, role):
        return None  # a shape of the role reads the name as it is: the ranking judges it
    recorded = words(ref.name or "")
    fit = config.drawn_fit * ctx.screen_height()
    rows = [
        r for place in places for r in drawn_rows(table, role, place, 0.0)
        if _starts_at(row_box(table, r), place, fit)
        and one_word_edit(recorded, words(table.names_norm[r]))
    ]  # fmt: skip
    kept = one_among_neighbours(ctx, rows)
    if kept is None:
        return None
    reason = (
        f"{decision.reason}; but the recorded name is read on no {role} drawn as one, and "
        f"the one {role} at the recorded box shows it with one word added or dropped "
        f"({kept.name[:60]!r}, {kept.id!r}): the caption was edited"
    )
    return accepted_as(decision, kept, reason)


def _starts_at(box: Box, place: Box, fit: float) -> bool:
    """Whether ``box`` starts where ``place`` does and has its top and bottom, each within
    ``fit``: a caption edited along its line moves the shape's end only."""
    return all(abs(box[k] - place[k]) <= fit for k in (0, 1, 3))
