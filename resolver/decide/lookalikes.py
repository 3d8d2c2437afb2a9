"""Review rules about look-alikes (other elements of the target's role and name): when one of
them is gone, the answer may be a survivor rather than the target."""

from __future__ import annotations

import numpy as np

from ..geometry import Box, box_gap, iou, iou_one
from ..index import index_of
from ..matcher import moved_box, other_readings, page_shift, recorded_group
from ..models import MAX_ANCHORS
from ..results import Candidate, center
from ..roles import canonical_role
from .drawn import DRAWN_KINDS
from .facts import (
    at_place,
    corner_distance,
    fewer_lookalikes,
    lookalikes_in_place,
    namesake_links_there,
    namesakes,
    nearest_moved,
    other_link,
    own_table_row,
    same_inner_container,
    same_space,
    shuffled,
    xpath_rows,
    xpath_selects_best,
)
from .rule import ROUNDING, Context, Decision, overruled

__all__ = [
    "lookalike_off",
    "lookalike_path",
    "lookalike_place",
    "namesake_link",
    "shrunk_group",
    "survivor_link",
    "unnamed",
]


def lookalike_place(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.lookalike_place``: when fewer elements with the recorded role and name are
    left than were recorded (the target and its look-alikes), one is gone, perhaps the
    target: an answer then nearer to where a recorded look-alike was than to where the target
    was (both boxes after the anchors' shift; by
    :func:`~resolver.decide.facts.corner_distance`) is taken for that look-alike, its
    survivor, and the source abstains.

    An answer in the recorded innermost container is exempt (a named group, or a table row
    or list item by its text, other than the element's own name) while the recorded xpath
    selects it or another namesake lies nearer to the target's place
    (:func:`~resolver.decide.facts.shuffled`): look-alikes that traded places are told apart
    by their containers (the "Edit" of Alice's table row, after the rows were sorted and one
    deleted); the nearest namesake, at a look-alike's place, is that look-alike's survivor.
    So is the one namesake in the table row the reference recorded as its innermost
    container (:func:`~resolver.decide.facts.own_table_row`): Carol's "Delete", moved up into
    Bob's place after Bob's row was deleted, is still in Carol's row. On a screenshot a row
    whose text differs from the recorded one only by icons read as characters of their own
    beside its captions ("• Edit x Delete") is that row
    (:func:`~resolver.decide.facts.same_entry_read`)."""
    ref, table = ctx.ref, ctx.table
    if not ref.lookalikes or ref.bbox is None or not ref.name or not same_space(ref, table):
        return None
    if not fewer_lookalikes(ref, table):
        return None
    row = ctx.first
    box = table.box(row)
    if box is None:
        return None
    shift = page_shift(ref, table)
    place = moved_box(ref.bbox, shift)
    to_target = corner_distance(box, place)
    to_twin = nearest_moved(box, ref.lookalikes, shift)
    if to_twin >= to_target:
        return None
    selected = xpath_selects_best(decision, 0.0)
    if same_inner_container(ref, table.containers[row], table.names_read) and (
        selected or shuffled(ref, table, row, place)
    ):
        return None
    if own_table_row(ref, table, row, ctx.config):
        return None  # the one namesake in the recorded table row: the row names it
    why = (
        f"the best is where a recorded look-alike was "
        f"({to_twin:.0f} px from it, {to_target:.0f} px from the target's place): the target "
        "is gone or moved"
    )
    return overruled(decision, "not_found", why)


def lookalike_path(ctx: Context, decision: Decision) -> Decision | None:
    """``ambiguous.lookalike_path``: when fewer look-alikes are left than were recorded
    (fewer rows share the recorded role, name and container path, and fewer the role and
    name alone than the target and its recorded look-alikes: one is gone, perhaps the
    target) and the recorded xpath now names no element at all, the target's own place in
    the document went too: a surviving look-alike that slid into its place on screen is as
    likely as the target, and the source abstains. (A reshaped page moves look-alikes between
    containers without removing any: then the count by role and name keeps the answer.)

    An answer outside the recorded group is judged so too when no row of that group is left
    (its container was named by text that went with the target) and fewer rows bear the
    recorded role and name than the group had members."""
    ref, table = ctx.ref, ctx.table
    if not ref.xpath or ref.occurrence is None or not ref.name:
        return None
    if not decision.candidates[0].signals.get("lookalike_gone") and (
        recorded_group(ref, table).size > 0 or namesakes(ref, table) >= ref.occurrence[1]
    ):
        return None  # the best is not of the recorded group, and none may be gone
    if not fewer_lookalikes(ref, table):
        return None
    if xpath_rows(ref, table) != []:
        return None  # no xpath column to look in, or the path still selects something
    why = (
        "fewer look-alikes are left than were recorded and the "
        "recorded xpath selects nothing: the target may be the one that went"
    )
    return overruled(decision, "ambiguous", why)


def survivor_link(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.survivor_link``: with fewer look-alikes left than were recorded (one is gone,
    perhaps the target), an answer of the recorded group that links elsewhere than the
    recorded link is a surviving look-alike: the target, had it stayed, would still link
    where it did. The source abstains."""
    gone = decision.candidates[0].signals.get("lookalike_gone")
    if not gone or not other_link(ctx.ref, ctx.table, ctx.first, ctx.config.href_moved_segments):
        return None
    why = (
        "fewer look-alikes are left than were recorded and the best links elsewhere than "
        "the target did: a surviving look-alike"
    )
    return overruled(decision, "not_found", why)


def namesake_link(ctx: Context, decision: Decision) -> Decision | None:
    """``ambiguous.namesake_link``: the answer links elsewhere than the recorded link while
    another element of the recorded role and name links there
    (:func:`~resolver.decide.facts.namesake_links_there`). Reordered rows of one name carry
    their links with them; the answer's lead, by its place or its path, followed the slot.
    The source cannot tell which one is the target."""
    if not namesake_links_there(ctx.ref, ctx.table, ctx.first, ctx.config.href_moved_segments):
        return None
    why = (
        "the best links elsewhere than the recorded link, and another element of its role "
        "and name links there: rows of one name were reordered"
    )
    return overruled(decision, "ambiguous", why)


def shrunk_group(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.shrunk_group``: fewer elements bear the recorded role and name than the
    reference recorded (the target and its look-alikes: one is gone, perhaps the target),
    and the best is in another container than the recorded one, which the recorded xpath
    does not select: a namesake elsewhere, as likely left by a removed target as the target
    moved. An answer in the recorded innermost container is exempt, as in
    :func:`lookalike_place`."""
    ref, best = ctx.ref, decision.best
    if best is None or not ref.lookalikes or not lookalikes_listed_whole(ctx):
        return None
    signals = best.signals
    if signals.get("container", 1.0) >= 1.0 - ROUNDING or xpath_selects_best(decision, 0.0):
        return None
    if same_inner_container(ref, best.container_path, ctx.table.names_read):
        return None
    if namesakes(ref, ctx.table) >= len(ref.lookalikes) + 1:
        return None
    why = (
        f"{len(ref.lookalikes) + 1} elements bore the recorded role and name and fewer do "
        f"now, and the best is in another container (container {signals['container']:.2f}) "
        "where the recorded xpath does not lead: perhaps a look-alike left by the target"
    )
    return overruled(decision, "not_found", why)


def lookalikes_listed_whole(ctx: Context) -> bool:
    """Whether the reference's look-alike list is every look-alike there was (it keeps at
    most :data:`~resolver.models.MAX_ANCHORS`)."""
    return len(ctx.ref.lookalikes) < MAX_ANCHORS


def _drawn_there(ctx: Context, best: Candidate) -> bool:
    """On a screenshot, whether ``best`` lies wholly off the recorded box (after the page's
    shift; :func:`_wholly_off`) while something else the screen drew covers that box, as
    recorded or after the shift (or another reading of it), by ``drawn_iou``: a shape of
    :data:`~resolver.decide.drawn.DRAWN_KINDS` (an icon, a bordered box) or a text (the
    placeholder of a field whose border went unseen). The control at the place, its look
    not read as the recorded role's, is the target more likely than a neighbour."""
    ref, table = ctx.ref, ctx.table
    place = _wholly_off(ctx, best)
    if place is None or ref.bbox is None:
        return False
    geometry = index_of(table).geometry
    with np.errstate(invalid="ignore"):  # the anchors' shift is a few px off at times
        covered = np.fmax(iou(place, geometry), iou(ref.bbox, geometry))
        for other in other_readings(ref, table):  # from a screen of another size
            covered = np.fmax(covered, iou(other, geometry))
        there = np.flatnonzero(covered >= ctx.config.drawn_iou)
    return any(
        (table.raw_roles[r] in DRAWN_KINDS or table.raw_roles[r] == "text")
        and table.executor_id(r) != best.executor_id
        for r in there.tolist()
    )


def _wholly_off(ctx: Context, best: Candidate) -> Box | None:
    """On a screenshot, the recorded box after the page's shift when ``best`` lies wholly
    off it, else None. From a screen of another size, ``best`` must lie off every reading
    of the box (rescaled, as recorded, re-centred: :func:`~resolver.matcher.other_readings`),
    as the ranking reads it."""
    ref, table = ctx.ref, ctx.table
    box, shift = best.bbox, page_shift(ref, table)
    if not table.names_read or ref.bbox is None or box is None:
        return None
    place = moved_box(ref.bbox, shift)
    if not same_space(ref, table) or iou_one(box, place) > 0.0:
        return None
    if any(iou_one(box, other) > 0.0 for other in other_readings(ref, table)):
        return None
    return place


def _alone_wholly_off(ctx: Context, best: Candidate) -> bool:
    """On a screenshot, whether ``best`` lies wholly off the recorded box (after the page's
    shift) and none of the texts the reference recorded next to it is read on the page
    (no ``web:nearby`` signal): nothing on the screen ties it to the target."""
    if not ctx.ref.nearby_text or "web:nearby" in best.signals:
        return False
    return _wholly_off(ctx, best) is not None


DRAWN_ALIKE = frozenset({"textbox", "searchbox"})
"""Roles a screenshot draws alike (a search field is a text field on the screen)."""


def unnamed(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.unnamed``: a reference without a name is told by its role, its link and its
    place. An answer which the recorded xpath does not select is another element when it has
    another role (a named field for an unnamed one; on a screenshot a search field and a
    text field are one, :data:`DRAWN_ALIKE`) or address, or when it is neither where
    the target was (box under ``stray_box``) nor among its recorded neighbours (nearby texts
    at most ``stray_nearby``): without a name, nothing else speaks for it. Nor, for an
    unnamed answer, when the page does not show that its recorded look-alikes (the other
    unnamed elements of its role) are all still there: one went, perhaps the target, and the
    next blank field slides into its place. (On a page that names its fields, where the
    answer has a name, that count says nothing.) A field found by the placeholder it
    recorded, read at its place (``accept.placeholder_at_place``), is told by that text."""
    ref, config, best = ctx.ref, ctx.config, decision.best
    if best is None or ref.name or decision.rule == "accept.placeholder_at_place":
        return None
    signals = best.signals
    if xpath_selects_best(decision, 0.0):
        return None
    role, link = signals.get("role", 1.0), signals.get("web:href", 1.0)
    box, nearby = signals.get("bbox", 1.0), signals.get("web:nearby", 1.0)
    if ctx.table.names_read and {canonical_role(ref.role or ""), best.role} <= DRAWN_ALIKE:
        role = 1.0  # a screenshot draws them alike: its fields are all textboxes
    if role < 1.0 - ROUNDING or link < 1.0 - ROUNDING:
        why = f"the best differs in role ({role:.2f}) or link ({link:.2f})"
    elif box < config.stray_box and nearby <= config.stray_nearby:
        why = f"the best is neither where it was (box {box:.2f}) nor by its neighbours"
    elif _drawn_there(ctx, best):
        why = "the best lies beside the recorded box, and something else is drawn in it"
    elif _alone_wholly_off(ctx, best):
        why = "the best lies off the recorded box, and none of its recorded neighbours is read"
    elif not (best.name or "").strip() and not lookalikes_in_place(ref, ctx.table):
        why = (
            f"the page does not show its {len(ref.lookalikes)} recorded look-alikes all still "
            "there (one may be gone, the next in the target's place)"
        )
    else:
        return None
    return overruled(
        decision,
        "not_found",
        f"the reference has no name, {why}, and the recorded xpath does not lead there",
    )


def lookalike_off(ctx: Context, decision: Decision) -> Decision | None:
    """``ambiguous.lookalike_off``: on the whole of a screenshot of the recorded size, a named
    reference that recorded look-alikes (elements of its role and name) and boxes for them
    shows fewer of them now than its recorded boxes put on the screen (the target
    included), and no recorded anchor is read to measure how the page moved. One of them
    left the screen, removed or pushed off by something added above it: an answer away from
    the target's recorded place may be the target moved, or a look-alike moved into view,
    and nothing recorded tells which."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    if table.window is not None or not table.names_read or not ref.name or ref.bbox is None:
        return None
    if not ref.lookalikes or not same_space(ref, table) or table.screen_size is None:
        return None
    if page_shift(ref, table)[:2] != (1.0, 1.0):
        return None
    index = index_of(table)
    if any(index.unique_box(name) is not None for name, _ in ref.anchors):
        return None  # the page's move is measured: the look-alike rules judge by it
    width, height = table.screen_size
    shown = [b for b in (ref.bbox, *ref.lookalikes) if _centre_inside(b, width, height)]
    if namesakes(ref, table) >= len(shown):
        return None
    answer = table.box(ctx.first)
    if answer is None or at_place(answer, ref.bbox, config):
        return None
    if box_gap(answer, ref.bbox) <= config.drawn_slack * ctx.screen_height():
        return None
    why = (
        f"{len(shown)} elements of the recorded role and name stood on the recorded screen and "
        "fewer are read now, with no anchor to measure the page's move: the answer, away from "
        "the recorded place, may be a look-alike moved into view"
    )
    return overruled(decision, "ambiguous", why)


def _centre_inside(box: Box, width: float, height: float) -> bool:
    x, y = center(box)
    return 0.0 <= x <= width and 0.0 <= y <= height
