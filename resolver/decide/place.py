"""Review rules about place: where the answer is on the screen, among the recorded neighbours
and in the document, against where the target was. An answer that agrees with the reference
on its name alone, away from all of that, may be what a removed target left."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..geometry import Box, box_gap, box_gaps, iou_one
from ..matcher import box_readings_of, moved_box, other_readings, page_shift
from ..models import SemanticElementRef
from ..results import Candidate
from ..table import CandidateTable
from ..text import NAME_TIERS, name_similarity, normalize
from ..web import NearbyIndex, nearby_key
from .facts import (
    at_place,
    box_alone,
    in_column,
    keeps_left,
    namesake_rows,
    own_table_row,
    row_box,
    same_inner_container,
    same_space,
    same_target,
    xpath_rows,
    xpath_selects_best,
)
from .paths import landmarks, parent_kept, path_changes, region_kept, tag_path_similarity
from .rule import ROUNDING, Context, Decision, overruled, taken

__all__ = [
    "far_in_document",
    "left_behind",
    "other_region",
    "slot_kept",
    "stray",
    "torn",
    "twin_at_place",
    "twin_moved",
]


def stray(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.stray``: an answer that is not where the target was (box under
    ``stray_box``), not among its recorded neighbours (nearby texts at most
    ``stray_nearby``) and not at its place in the document (the tags of the recorded xpath,
    positions ignored, agreeing under ``stray_path`` with the row's) has only its name and
    role for it: it may be a look-alike left by a removed target, and the source abstains.
    Each of the three must be known, except the box of a reference that recorded none (then
    its neighbours and its xpath are all it says of its place); an answer in the recorded
    innermost named container has that for it too (exempt)."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    signals = decision.candidates[0].signals
    box, nearby = signals.get("bbox"), signals.get("web:nearby")
    xpaths = table.document_paths
    if nearby is None or not ref.xpath or xpaths is None:
        return None
    if box is None and ref.bbox is not None:
        return None  # a box recorded in a space the table's boxes are not in: unknown
    if (box is not None and box >= config.stray_box) or nearby > config.stray_nearby:
        return None
    row = ctx.first
    xpath = xpaths[row]
    if not xpath or same_inner_container(ref, table.containers[row]):
        return None
    path = tag_path_similarity(ref.xpath, xpath)
    if path >= config.stray_path:
        return None
    where = "no box recorded" if box is None else f"box {box:.2f}"
    why = (
        f"the best is not where the target was ({where}), not "
        f"among its recorded neighbours (nearby {nearby:.2f}) and not at its place in the "
        f"document (tag path {path:.2f}): perhaps a look-alike left by a removed target"
    )
    return overruled(decision, "not_found", why)


def left_behind(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.left_behind``: the target went and left its neighbours behind. A recorded
    nearby text that is unique on the page still lies within ``left_near`` screen heights of
    where the target was (after the page's shift), the recorded xpath selects nothing, and
    the answer lies farther than ``left_far`` screen heights from every such neighbour. The
    answer shares the name but not the place (a footer link of the header's name), and the
    source abstains. A target moved away with its neighbours takes them along; one moved
    alone leaves its xpath to the element that took its slot."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    if not ref.nearby_text or ref.bbox is None or not ref.xpath or not same_space(ref, table):
        return None
    if table.document_paths is None:
        return None
    box = table.box(ctx.first)
    if box is None:
        return None
    places = table.derived(NearbyIndex)
    neighbours = []
    for text in ref.nearby_text:
        at = places.places(nearby_key(text))
        if at is not None and at.size == 1:
            found = table.box(int(places.seq[int(at[0])]))
            if found is not None:
                neighbours.append(found)
    if not neighbours:
        return None
    height = ctx.screen_height()
    target = moved_box(ref.bbox, page_shift(ref, table))
    stayed = min(box_gap(target, n) for n in neighbours)
    away = min(box_gap(box, n) for n in neighbours)
    if stayed > config.left_near * height or away <= config.left_far * height:
        return None
    if xpath_rows(ref, table):
        return None
    why = (
        f"the target's recorded neighbours are still where it was "
        f"({stayed:.0f} px from its place), its xpath selects nothing, and the best is "
        f"{away:.0f} px from all of them: the target is gone from its place"
    )
    return overruled(decision, "not_found", why)


def slot_kept(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.slot_kept``: the target's neighbourhood stayed without it. The answer has
    every recorded nearby text next to it, its box agrees under ``stray_box``, it lies more
    than ``left_near`` screen heights from where the target was (after the page's shift),
    and the recorded xpath does not select it; yet all but one of the recorded nearby texts
    the page still has (two at least) have another copy, not among the answer's neighbours,
    near where the target was (within ``left_near`` screen heights and a third of the
    answer's distance). The page holds that neighbourhood twice and the answer is in the
    other copy: the footer's "Demos" among the footer's copies of the header's links, after
    the header's "Demos" was removed. The source abstains. A target moved with its
    neighbours has them next to it and no second copy at home; one moved alone (a reordered
    heading) leaves them behind, but then it does not have them next to it. Every row of a
    table repeats texts such as "Edit" and "Active", so an answer in the table row the
    reference recorded as its innermost container is exempt
    (:func:`~resolver.decide.facts.own_table_row`)."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    found_off = _beside_elsewhere(ctx, decision, 1.0)
    if found_off is None or table.document_paths is None or xpath_selects_best(decision, 0.0):
        return None
    row, box, recorded = found_off
    if own_table_row(ref, table, row, config):
        return None
    height = ctx.screen_height()
    target = moved_box(recorded, page_shift(ref, table))
    away = box_gap(target, box)
    if away <= config.left_near * height:
        return None
    near = min(config.left_near * height, away / 3.0)
    home, found = _copies_at(ref, table, row, (target, near), config.nearby_window)
    if home < 2 or home < found - 1:
        return None
    why = (
        f"{home} of the {found} recorded neighbours still on the page have a copy where the "
        f"target was, apart from the best's, which lies {away:.0f} px away and is not what "
        "the recorded xpath selects: the neighbourhood stayed without the target"
    )
    return overruled(decision, "not_found", why)


def neighbourhood_twice(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.neighbourhood_twice``: on a screenshot, the neighbourhood the target was
    recorded in is drawn twice, the target is missing from the copy at its place and the
    answer is its namesake in the other copy. The answer has at least half of the recorded
    nearby texts next to it (``web:nearby``) and its box agrees under ``stray_box``, while
    at least two of the recorded nearby texts, and at least half of those the screen shows,
    are read twice: within ``nearby_window`` texts of the answer, and again near where the
    target was (after the page's shift; within ``left_near`` screen heights and a third of
    the answer's distance from it). A page that draws its navigation twice (a fixed
    header over the first one, one menu's entries under two headings) keeps both copies
    when one of its entries goes. A target moved with its neighbours leaves no copy of them
    behind; one moved alone (a reorder) is not among its old neighbours both at its new
    place and at its old one; a text that the page repeats everywhere is read beside the
    answer and at the place alike, hence at least two of them. :func:`slot_kept` is the
    same evidence in a document, where the recorded xpath tells the copies apart."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    found_off = _beside_elsewhere(ctx, decision, 0.5) if table.names_read else None
    if found_off is None:
        return None
    row, box, recorded = found_off
    target = moved_box(recorded, page_shift(ref, table))
    away = box_gap(target, box)
    near = min(config.left_near * ctx.screen_height(), away / 3.0)
    twice, found = _copies_at(ref, table, row, (target, near), config.nearby_window, True)
    if twice < 2 or 2 * twice < found:
        return None
    why = (
        f"{twice} of the {found} recorded neighbours the screen shows are read twice, next "
        f"to the best and again where the target was, {away:.0f} px from it: the "
        "neighbourhood is drawn twice and the target is gone from the copy at its place"
    )
    return overruled(decision, "not_found", why)


def _beside_elsewhere(
    ctx: Context, decision: Decision, least: float
) -> tuple[int, Box, Box] | None:
    """The answer's row and box, and the recorded box, when the reference recorded two
    nearby texts or more and a box in the table's space, the answer has at least ``least``
    of those texts next to it (``web:nearby``) and its box agrees under ``stray_box``: the
    answer :func:`slot_kept` and :func:`neighbourhood_twice` look at; else ``None``."""
    ref, table = ctx.ref, ctx.table
    if len(ref.nearby_text) < 2 or ref.bbox is None or not same_space(ref, table):
        return None
    signals = decision.candidates[0].signals
    if signals.get("web:nearby", 0.0) < least - ROUNDING:
        return None
    if signals.get("bbox", 1.0) >= ctx.config.stray_box:
        return None
    box = table.box(ctx.first)
    return None if box is None else (ctx.first, box, ref.bbox)


def _copies_at(
    ref: SemanticElementRef,
    table: CandidateTable,
    row: int,
    around: tuple[Box, float],
    window: int,
    beside: bool = False,
) -> tuple[int, int]:
    """How many of the ref's nearby texts have a copy within ``around`` (a place and a
    distance in px) that is not one of ``row``'s own neighbours (within ``window`` texts of
    it), and how many the page has at all. With ``beside``, a text counts only when it is
    one of ``row``'s own neighbours as well."""
    place, near = around
    places = table.derived(NearbyIndex)
    answer_at = int(places.position[row])
    found = home = 0
    for key in dict.fromkeys(nearby_key(t) for t in ref.nearby_text):
        at = places.places(key)
        if at is None:
            continue
        found += 1
        apart = np.abs(at - answer_at) > window
        if beside and apart.all():
            continue
        copies = at[apart]
        home += bool(np.any(box_gaps(table.bboxes[places.seq[copies]], place) <= near))
    return home, found


def other_region(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.other_region``: an answer in another region of the page. The landmark
    elements on its document path (:data:`resolver.web.LANDMARK_TAGS`, in order) are not
    those on the recorded xpath's (a footer's navigation for a header's), the recorded xpath
    does not select it, and its box agrees under ``stray_box``, while the recorded region
    (the innermost landmark element on the recorded xpath) is still on the page. Sites
    repeat links and controls across regions (a logo link, a search box, a social link in
    header and footer), so the namesake in the other region is as likely as the target moved
    there, and the source abstains. A block moved within its region keeps the region's
    landmarks; a redesign that moved the footer's links into a navigation bar took the
    footer away."""
    ref, table = ctx.ref, ctx.table
    signals = decision.candidates[0].signals
    if xpath_selects_best(decision, 1.0) or signals.get("bbox", 1.0) >= ctx.config.stray_box:
        return None
    xpaths = table.document_paths
    if not ref.xpath or xpaths is None:
        return None
    answer = xpaths[ctx.first]
    if not answer:
        return None
    recorded, found = landmarks(ref.xpath), landmarks(str(answer))
    if not recorded or recorded == found or not region_kept(ref.xpath, table):
        return None
    why = (
        f"the best lies in another region of the page ({'/'.join(found) or 'none'} for the "
        f"recorded {'/'.join(recorded) or 'none'}), away from the recorded place and not "
        "under the recorded xpath: a namesake the page repeats there is as likely"
    )
    return overruled(decision, "not_found", why)


def far_in_document(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.far_in_document``: an answer whose place in the document differs from the
    recorded xpath at ``far_steps`` steps or more, their tags aligned: steps at another
    position, or, while the element that held the target is still on the page, steps of
    another tag. A target that moved keeps most of its path: a sibling inserted or removed
    before it, a banner at the top of the page or its block reordered each renumber one
    step, a wrapper added or removed adds or drops a level. An answer three steps apart lies
    in another branch of the page (the sidebar's copy of a link of the article, after the
    article's was removed), and only what it shares with every copy speaks for it: the
    source abstains. A redesign that rebuilt the branch (a table turned into rows of
    ``div``, a footer into a navigation bar) took the target's parent with it, and then
    other tags say nothing. Only for an answer more than ``left_near`` screen heights from
    where the target was (after the page's shift): wrappers added around earlier siblings
    renumber steps of a target that stays in its place. Not for an answer the recorded xpath
    selects."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    xpaths = table.document_paths
    if not ref.xpath or xpaths is None or not ref.xpath.startswith("/"):
        return None
    if xpath_selects_best(decision, 1.0):
        return None
    row = ctx.first
    answer, box = xpaths[row], table.box(row)
    if not answer or box is None or ref.bbox is None or not same_space(ref, table):
        return None
    height = ctx.screen_height()
    if box_gap(moved_box(ref.bbox, page_shift(ref, table)), box) <= config.left_near * height:
        return None
    replaced, renumbered = path_changes(ref.xpath, str(answer))
    far = config.far_steps
    if renumbered < far and (replaced < far or not parent_kept(ref.xpath, table)):
        return None
    why = (
        f"the best's place in the document differs from the recorded xpath at "
        f"{renumbered} positions and {replaced} tags: it lies in another part of the page, "
        "perhaps a look-alike left by a removed target"
    )
    return overruled(decision, "not_found", why)


def torn(ctx: Context, decision: Decision) -> Decision | None:
    """``ambiguous.torn``: torn between the best and the row the recorded xpath selects
    (another target of the best's role). The best must lead it by ``torn_margin`` when that
    row bears the recorded name (a look-alike in the target's place in the document, or the
    target itself, moved on screen), or when it bears the recorded name changed a little
    (``renamed_name`` up) and sits at the recorded place (after the page's shift) where the
    best does not (the target renamed, as likely as the best is a namesake elsewhere); for a
    reference that recorded no box, when it is among the recorded neighbours as well as the
    best is (the place it recorded does not speak for the best). A reference that recorded a
    box and no xpath (role, name and box: a recorder that keeps no selector) is torn the
    same way by the one ranked row of the best's role renamed a little at the recorded place
    where the best is not."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    if decision.margin >= config.torn_margin or not ref.name:
        return None
    if ref.bbox is not None and not same_space(ref, table):
        return None
    if not ref.xpath:
        return _torn_by_box(ctx, decision)
    rows = xpath_rows(ref, table)
    best = ctx.first
    if rows is None or len(rows) != 1 or rows[0] == best:
        return None
    other = rows[0]
    if table.role_codes[other] != table.role_codes[best]:
        return None
    similarity = name_similarity(ref.name, table.names[other])
    if similarity < config.renamed_name or same_target(table, best, other, config.same_target_iou):
        return None
    if normalize(table.names[other]) == normalize(ref.name):
        why = (
            f"the recorded xpath selects another element with the "
            f"recorded name, and the best leads it by less than {config.torn_margin:.2f}: "
            "a look-alike in the target's place in the document, or the target"
        )
        return overruled(decision, "ambiguous", why)
    if ref.bbox is None:
        if not _neighbours_as_well(ctx, other):
            return None
        where = "among the recorded neighbours as well as the best"
    else:
        if not _renamed_here(ctx, other):
            return None
        where = "at the target's place while the best is elsewhere"
    why = (
        f"the recorded xpath selects {table.names[other]!r} (name {similarity:.2f}) {where}, "
        f"and the best leads by less than {config.torn_margin:.2f}: renamed target or namesake"
    )
    return overruled(decision, "ambiguous", why)


def _renamed_here(ctx: Context, other: int) -> bool:
    """Whether ``other`` sits at the recorded place (after the page's shift) and the best
    does not."""
    assert ctx.ref.bbox is not None
    place = moved_box(ctx.ref.bbox, page_shift(ctx.ref, ctx.table))
    here, there = ctx.table.box(other), ctx.table.box(ctx.first)
    if here is None or there is None:
        return False
    return at_place(here, place, ctx.config) and not at_place(there, place, ctx.config)


def _torn_by_box(ctx: Context, decision: Decision) -> Decision | None:
    """:func:`torn` for a reference with a box and no xpath: the ranked rows of the best's
    role, not the best's click target, whose names are the recorded one changed a little,
    and of them those at the recorded place where the best is not; torn when exactly one."""
    ref, table, config, best = ctx.ref, ctx.table, ctx.config, ctx.first
    if ref.bbox is None or not ref.name:
        return None
    recorded = normalize(ref.name)
    found = [
        int(r) for r in ctx.scored.rows
        if int(r) != best and table.role_codes[int(r)] == table.role_codes[best]
        and normalize(table.names[int(r)]) != recorded
        and name_similarity(ref.name, table.names[int(r)]) >= config.renamed_name
        and not same_target(table, best, int(r), config.same_target_iou)
        and _renamed_here(ctx, int(r))
    ]  # fmt: skip
    if len(found) != 1:
        return None
    similarity = name_similarity(ref.name, table.names[found[0]])
    why = (
        f"{table.names[found[0]]!r} (name {similarity:.2f}) sits at the target's place while "
        f"the best is elsewhere, and the best leads by less than {config.torn_margin:.2f}: "
        "renamed target or namesake"
    )
    return overruled(decision, "ambiguous", why)


def _neighbours_as_well(ctx: Context, row: int) -> bool:
    """For a reference without a box: whether ranked ``row`` agrees with the recorded nearby
    texts at least as well as the best (both known): the place the reference recorded does
    not speak for the best."""
    own, best = _ranked_signal(ctx, "web:nearby", row), _ranked_signal(ctx, "web:nearby", None)
    return own is not None and best is not None and own >= best - ROUNDING


def _ranked_signal(ctx: Context, signal: str, row: int | None) -> float | None:
    """Ranked ``row``'s value of ``signal`` (``row`` ``None``: the best's); ``None`` when the
    row is not ranked or the ranking has no such signal."""
    values = ctx.scored.signals.get(signal)
    if values is None:
        return None
    if row is None:
        return float(values[0])
    at = np.flatnonzero(ctx.scored.rows == row)
    return float(values[int(at[0])]) if at.size else None


def twin_moved(ctx: Context, decision: Decision) -> Decision | None:
    """``ambiguous.twin_moved``: on a screenshot, a named reference with a box that recorded
    no anchors and no look-alikes (what another tool keeps: role, name, box, containers) has
    only its box to tell twins apart (rows of its role and name), and a box tells them apart
    only where the page has not moved: with no anchor read, the page's shift is unknown, and
    after a banner, a removal or a reorder another twin stands nearer to it. When the screen
    shows a twin that is not the answer's own click target (nor drawn at the answer's
    place, nor told apart by a recorded group the screen shows the answer in and not it),
    the answer is doubted unless it is at the recorded place
    (:func:`~resolver.decide.facts.at_place`, after rescaling to the screen), or within
    ``drawn_slack`` screen heights of it while no twin stands there. A banner, a removal or
    a line inserted above moves what follows up or down its column, never across: when the
    answer shares the recorded box's column, a twin standing wholly outside that column
    (:func:`~resolver.decide.facts.in_column`; a sidebar's link repeated in the article)
    cannot be the target moved, and does not doubt it; nor, when the answer kept the
    recorded left edge (within ``column_slack`` of the box's height), does a twin off that
    edge around which the recorded neighbour texts are read less (:func:`_strayed`: a
    namesake in an indented list). A hint window shows no
    twins beyond it: there an answer away from the recorded place is doubted at once, and
    the whole screen judges. A box recorded on a screen of another size may have been
    rescaled (a zoom) or not (a resized window): in a window an answer at none of its
    readings is doubted, and so is any answer where twins stand at different readings
    (:func:`_shown_readings`: nothing there says which one was recorded); the whole screen
    judges by the reading a twin stands at (:func:`screen_place`), or, where none does, by
    the reading nearest the answer; when readings show different twins, the box does not
    say where the target was, and the ranking decides."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    if not box_alone(ref, table) or ref.bbox is None:
        return None
    row = ctx.first
    answer = table.box(row)
    if answer is None:
        return None
    if table.window is not None:
        if len(_shown_readings(ctx)) > 1:
            return overruled(decision, "ambiguous", _SPLIT)
        return _doubted_in_window(ctx, decision, answer, ref.bbox)
    place = screen_place(ctx, answer)
    if place is None or at_place(answer, place, config):
        return None
    gap = box_gap(answer, place)
    near = gap <= config.drawn_slack * ctx.screen_height()
    twins = _doubting_twins(ctx, row, answer, place)
    taken = [r for r in twins if at_place(row_box(table, r), place, config)]
    if not twins or (near and not taken):
        return None
    where = (
        f"another stands at the recorded place ({table.ids[taken[0]]})"
        if taken
        else f"the answer lies {gap:.0f} px from the recorded box"
    )
    why = (
        f"{len(twins)} twin(s) of the answer on the screen and nothing recorded but the box to "
        f"tell them apart (no anchors, no look-alikes: the page's move is unknown); {where}"
    )
    doubted = overruled(decision, "ambiguous", why)
    twin = table.ids[(taken or twins)[0]]
    shown = next((c for c in decision.candidates[1:] if c.id == twin), None)
    return doubted if shown is None else replace(doubted, runner_up=shown)


def _doubting_twins(ctx: Context, row: int, answer: Box, place: Box) -> list[int]:
    """The twins of the answer (ranked ``row``, at ``answer``) that may be the target moved
    from ``place``: in the answer's recorded group when it stands in one; in the column when
    the answer is (a move keeps to its column), and on its left edge too, or with the
    recorded neighbours read around them as much, when the answer kept that edge."""
    table = ctx.table
    grouped = _in_recorded_group(ctx, row)
    twins = [r for r in _twins_of(ctx, row, answer) if not grouped or _in_recorded_group(ctx, r)]
    if in_column(answer, place):  # a move keeps to its column: twins across it stood apart
        twins = [r for r in twins if in_column(row_box(table, r), place)]
        slack = ctx.config.column_slack * (place[3] - place[1])
        if keeps_left(answer, place, slack):  # the answer moved straight: so did the target
            twins = [r for r in twins if not _strayed(ctx, r, row, place, slack)]
    return twins


def _strayed(ctx: Context, twin: int, row: int, place: Box, slack: float) -> bool:
    """Whether ranked ``twin`` left the recorded box's column edge (its left edge off the
    recorded one by more than ``slack``) while the recorded neighbour texts are read around
    the answer (ranked ``row``) more than around it: not the target moved straight with its
    neighbours."""
    if keeps_left(row_box(ctx.table, twin), place, slack):
        return False
    own, answer = _ranked_signal(ctx, "web:nearby", twin), _ranked_signal(ctx, "web:nearby", row)
    return answer is not None and (own is None or answer > own + ROUNDING)


_SPLIT = (
    "twins of the answer stand at different readings of a box recorded on a screen of "
    "another size (as a zoom and as a resized window would have moved it): the box does "
    "not say which one was recorded"
)


def screen_place(ctx: Context, unshown: Box | None = None) -> Box | None:
    """Where a box-alone reference's recorded box lies on the screen, for the rules that
    tell twins apart by it. On a screen of the recorded size: the box after the page's
    shift. On a screen of another size the box may have been rescaled (a zoom) or left at
    its size (a resized window, the page maybe re-centred:
    :func:`~resolver.matcher.other_readings`), and the screen shows which when the rows of
    the recorded role and name standing at those readings
    (:func:`~resolver.decide.facts.at_place`) all stand at one of them: that reading.
    ``None`` when several show different rows, and when none does; then, given an
    ``unshown`` box (an answer), the reading nearest it: the place it should stand at."""
    ref, table = ctx.ref, ctx.table
    if ref.bbox is None:
        return None
    shift = page_shift(ref, table)
    place = moved_box(ref.bbox, shift)
    if shift[:2] == (1.0, 1.0):
        return place
    shown = _shown_readings(ctx)
    if len(shown) == 1:
        return next(iter(shown.values()))
    if shown or unshown is None:
        return None
    return min(box_readings_of(ref, table), key=lambda reading: box_gap(unshown, reading))


def _shown_readings(ctx: Context) -> dict[frozenset[str], Box]:
    """The readings of a box recorded on a screen of another size (rescaled, then as a
    resized window would have left it) at which rows of the recorded role and name stand
    (:func:`~resolver.decide.facts.at_place`), keyed by the click targets standing there;
    of readings showing the same ones, the first. Empty on a screen of the recorded size."""
    ref, table = ctx.ref, ctx.table
    if ref.bbox is None or page_shift(ref, table)[:2] == (1.0, 1.0):
        return {}
    boxes = [(table.executor_id(r), row_box(table, r)) for r in namesake_rows(ref, table)]
    shown: dict[frozenset[str], Box] = {}
    for reading in box_readings_of(ref, table):
        targets = frozenset(t for t, b in boxes if at_place(b, reading, ctx.config))
        if targets:
            shown.setdefault(targets, reading)
    return shown


def _doubted_in_window(
    ctx: Context, decision: Decision, answer: Box, recorded: Box
) -> Decision | None:
    """:func:`twin_moved` in a hint window, which shows no twins beyond it: an answer away
    from the ``recorded`` box (:func:`_near_reading`) is doubted at once."""
    if _near_reading(ctx, answer, recorded):
        return None
    gap = box_gap(answer, moved_box(recorded, page_shift(ctx.ref, ctx.table)))
    why = (
        f"the answer lies {gap:.0f} px from the recorded box and nothing recorded but the box "
        "places it (no anchors, no look-alikes): the whole screen shows whether twins stand "
        "elsewhere"
    )
    return overruled(decision, "ambiguous", why)


def _near_reading(ctx: Context, answer: Box, recorded: Box) -> bool:
    """In a hint window, whether ``answer`` stands where the ``recorded`` box places it:
    within ``drawn_slack`` screen heights of the box after the page's shift (rescaled to the
    screen), or, from a screen of another size, at one of its other readings."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    shift = page_shift(ref, table)
    place = moved_box(recorded, shift)
    if box_gap(answer, place) <= config.drawn_slack * ctx.screen_height():
        return True
    if shift[:2] == (1.0, 1.0):
        return False
    return any(at_place(answer, other, config) for other in other_readings(ref, table))


def twin_at_place(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.twin_at_place``: the other side of :func:`twin_moved`. On a screenshot of the
    recorded size (or of another, at the reading of the box the screen shows:
    :func:`screen_place`), a named reference that recorded only its box of its place (no
    anchors, no look-alikes) is tied for want of a margin (``ambiguous.margin``, the best
    over the threshold), and exactly one tied row of its role and name fills the recorded box (IoU
    ``renamed_place`` up), while no other row of that role and name stands at it
    (:func:`~resolver.decide.facts.at_place`, a row that is the same click target aside).
    The box is what tells twins apart, and ``ambiguous.twin_moved`` lets an answer at the
    recorded place stand for the same reason, so the twin there is taken. Filling the box is
    asked, not lying inside it: a box recorded for a block (a heading spanning the column)
    marks a line rather than an element, and a copy of the heading on the next line
    (pushing the target down, or pushed down by it) leaves the two tied for good."""
    ref, table, config, best = ctx.ref, ctx.table, ctx.config, decision.best
    if decision.rule != "ambiguous.margin" or best is None or best.score < config.threshold:
        return None
    if not box_alone(ref, table) or ref.bbox is None:
        return None
    place = screen_place(ctx)
    if place is None:
        return None
    tied = [c for c in decision.candidates if c.score >= best.score - config.min_margin]
    fills = config.renamed_place
    there = [c for c in tied if c.bbox is not None and iou_one(c.bbox, place) >= fills]
    if len(there) != 1 or not _twin_named(there[0]):
        return None
    kept = there[0]
    row = next((int(r) for r in ctx.scored.rows if table.ids[int(r)] == kept.id), None)
    if row is None:
        return None
    others = [r for r in namesake_rows(ref, table) if r != row and table.box(r) is not None]
    if any(
        at_place(row_box(table, r), place, config)
        and not same_target(table, r, row, config.same_target_iou)
        for r in others
    ):
        return None
    other = next((c for c in tied if c is not kept), None)
    if other is None:
        return None
    reason = (
        f"{decision.reason}; but {kept.id!r} is the one row of the recorded role and name at "
        "the recorded box, the only record of the target's place"
    )
    return taken(decision, kept, other, reason)


def _twin_named(candidate: Candidate) -> bool:
    """Whether a ranked row bears the recorded role exactly and the recorded name as
    :func:`~resolver.index.TableIndex.namesakes` finds its twins: normalised (a recorder
    may write a name in another case than the screen draws it)."""
    signals = candidate.signals
    named = signals.get("name", 0.0) >= NAME_TIERS["normalized"]
    return named and signals.get("role", 0.0) >= 1.0


def _in_recorded_group(ctx: Context, row: int) -> bool:
    """Whether the screen shows ranked ``row`` in a group the reference recorded (a title it
    reads: container agreement ``group_agrees`` up). Twins the groups tell apart from the
    answer are no twins of it: the answer is in a recorded group and they are not."""
    if not ctx.table.groups_by_title or not ctx.ref.container_path:
        return False
    agrees = _ranked_signal(ctx, "container", row)
    return agrees is not None and agrees >= ctx.config.group_agrees - ROUNDING


def _twins_of(ctx: Context, row: int, answer: Box) -> list[int]:
    """The rows of the recorded role and name that are another click target than ``row``
    (whose box is ``answer``) and are not drawn at its place."""
    table, config = ctx.table, ctx.config
    return [
        r for r in namesake_rows(ctx.ref, table)
        if r != row and table.box(r) is not None
        and not same_target(table, r, row, config.same_target_iou)
        and not at_place(row_box(table, r), answer, config)
    ]  # fmt: skip
