"""Review rules for tables whose groups are named only by the titles the source sees
(:attr:`~resolver.table.CandidateTable.groups_by_title`): a title may be out of view, or cut
off by a hint window (:attr:`~resolver.table.CandidateTable.window`), so an answer the table
does not show in the recorded group is judged by whether it has look-alikes and moved; and
an answer a hint window gives by its place alone, with nothing in the window to say the page
stayed where it was, is left to the whole screen."""

from __future__ import annotations

from ..geometry import Box
from ..index import index_of
from ..matcher import group_path, moved_box, page_shift
from ..models import SemanticElementRef
from ..roles import LANDMARK_ROLES
from ..table import CandidateTable
from ..text import (
    collapse,
    item_similarity_many,
    mask_digits,
    name_similarity,
    normalize,
    words,
)
from .facts import at_place, box_alone, in_column, on_line, same_space, same_target
from .place import screen_place
from .rule import Context, Decision, overruled

__all__ = ["group_unseen", "other_group", "window_unanchored"]


def _outside_group(ctx: Context, decision: Decision) -> bool:
    """Whether the rule applies at all: the table names groups by their titles, the
    reference recorded a group inside the page, and the table does not show the answer in
    it (container agreement under ``group_agrees``)."""
    if not ctx.table.groups_by_title or not _groups_recorded(ctx.ref):
        return False
    return decision.candidates[0].signals.get("container", 0.0) < ctx.config.group_agrees


def other_group(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.other_group``: on the whole input (not a hint window), an answer the table
    shows in *another* named group (its innermost group resembles none of the recorded
    ones) that is also not where the target was (its box under ``stray_box``) has only its
    name and role for it: perhaps a look-alike of another group. The source abstains."""
    if ctx.table.window is not None or not _outside_group(ctx, decision):
        return None
    first = ctx.first
    box = decision.candidates[0].signals.get("bbox", 0.0)
    group = _group_of(ctx, first)
    if box >= ctx.config.stray_box or not _other_group(ctx, group):
        return None
    why = (
        f"the best is not where the target was (box {box:.2f}) and "
        f"the screen shows it in another group ({group[-1]!r}): perhaps "
        "a look-alike of another group"
    )
    return overruled(decision, "not_found", why)


def group_unseen(ctx: Context, decision: Decision) -> Decision | None:
    """``ambiguous.group_unseen``: an answer the table does not show in the recorded group.
    In a hint window (which may cut the group's title off, and look-alikes with it), doubted
    when the answer has a look-alike (another target of nearly its name, ``lookalike_name``
    up, any role: a role read from appearance is a guess) or is not where the target was
    (its box under ``lookalike_box``) or in another named group, so that a larger window or
    the whole input judges. On the whole input, doubted when it has a look-alike and moved
    or is in another named group: only a stale box would tell them apart. A box that
    agrees less is no sign of a move when the answer still sits at the recorded place after
    the page's shift (:func:`~resolver.decide.facts.at_place`: a heading recorded across the
    page's width is read as its words at the start of that line), or holds the recorded rank
    among look-alikes that each lie at the recorded place of their rank
    (:func:`~resolver.matcher.group_path`: a banner above them moved them all together).
    For a reference whose box is all it recorded of its place, on the whole of a screen (of
    another size: at the reading of the box the screen shows), an answer in the recorded
    box's column counts only the look-alikes in that column (:func:`_column_kept`: a move
    keeps to its column)."""
    if not _outside_group(ctx, decision):
        return None
    table, config, first = ctx.table, ctx.config, ctx.first
    window = table.window is not None
    box = decision.candidates[0].signals.get("bbox", 0.0)
    stale = box < config.lookalike_box and not (
        _at_recorded_place(ctx, first) or _in_recorded_order(ctx, decision)
    )
    moved = stale or _other_group(ctx, _group_of(ctx, first))
    if not (window and moved) and not _lookalikes(ctx, first, _column_kept(ctx, first)):
        return None
    if not window and not moved:
        return None
    where = "this window" if window else "the screen"
    why = f"look-alikes exist and {where} does not show it in the recorded group"
    return overruled(decision, "ambiguous", why)


def _at_recorded_place(ctx: Context, row: int) -> bool:
    """Whether ``row`` sits at the recorded box after the page's shift
    (:func:`~resolver.decide.facts.at_place`, or, read on the screen with an ink box taller
    than the element, :func:`~resolver.decide.facts.on_line`)."""
    ref, table = ctx.ref, ctx.table
    box = table.box(row)
    if box is None or ref.bbox is None or not same_space(ref, table):
        return False
    place = moved_box(ref.bbox, page_shift(ref, table))
    return at_place(box, place, ctx.config) or on_line(box, place, ctx.config.renamed_inside)


def _in_recorded_order(ctx: Context, decision: Decision) -> bool:
    """Whether the answer holds the recorded rank among its look-alikes, each of them at the
    recorded place of its rank after the page's shift (``occurrence`` agreeing under the
    order :func:`~resolver.matcher.group_path` confirms on a screenshot)."""
    if decision.candidates[0].signals.get("occurrence", 0.0) < 1.0:
        return False
    return group_path(ctx.ref, ctx.table) is None


def _group_of(ctx: Context, row: int) -> tuple[str, ...]:
    """The groups ``row`` lies in, without the one it titles itself (a heading is drawn at
    the top of the group it names: its own name is no group around it)."""
    path = ctx.table.containers[row]
    own = normalize(ctx.table.names[row])
    while path and own and normalize(path[-1]) == own:
        path = path[:-1]
    return path


def _other_group(ctx: Context, path: tuple[str, ...]) -> bool:
    """Whether a row's innermost group (``path[-1]``) resembles none of the groups the
    reference recorded (:func:`_recorded_groups`; none when it recorded only the element's
    own list item), by the container-entry similarity the matcher weighs container paths
    with (under ``group_agrees``)."""
    recorded = _recorded_groups(ctx.ref)
    if not path or not recorded:
        return False
    inner = collapse(path[-1])
    norm = normalize(inner)
    agrees = ctx.config.group_agrees
    return all(
        item_similarity_many(entry, [inner], [norm], [mask_digits(norm)])[0] < agrees
        for entry in recorded
    )


def _recorded_groups(ref: SemanticElementRef) -> list[str]:
    """The recorded container entries that name a group inside the page: past the outermost
    (the page or window title), neither a landmark nor the element's own name, compared in
    the matcher's normal form (a list item "• RSS" around its one link "RSS" is that link's
    own name, not a group)."""
    name = normalize(ref.name or "")
    return [
        entry
        for entry in ref.container_path[1:]
        if not _landmark_entry(entry) and normalize(entry) != name
    ]


def _landmark_entry(entry: str) -> bool:
    """Whether a recorded container entry stands for a landmark, whose name the screen does
    not draw as a group's title: the ``[role]`` token of an unnamed landmark, or a
    landmark's role written out (``navigation``), as other recorders write one."""
    return entry.startswith("[") or entry.strip().lower() in LANDMARK_ROLES


def _groups_recorded(ref: SemanticElementRef) -> bool:
    """Whether the recorded container path names a group inside the page: an entry past the
    outermost (the page or window title) that is not a landmark (:func:`_landmark_entry`)
    nor exactly the element's own name (a list item named by its bullet and its one link
    counts: the reference says where in the page the element stood, which the rule then
    asks the screen)."""
    name = (ref.name or "").strip().lower()
    return any(
        not _landmark_entry(entry) and entry.strip().lower() != name
        for entry in ref.container_path[1:]
    )


def _lookalikes(ctx: Context, row: int, column: Box | None = None) -> bool:
    """Whether another target of the table has nearly ``row``'s name (``lookalike_name``
    up; any role), in ``column`` when one is given (:func:`_column_kept`)."""
    table, config = ctx.table, ctx.config
    name = table.names[row]
    if not name:
        return False
    return any(
        j != row
        and name_similarity(name, table.names[j]) >= config.lookalike_name
        and not same_target(table, row, j, config.same_target_iou)
        and (column is None or _in_column_of(table, j, column))
        for j in range(len(table))
    )


def _column_kept(ctx: Context, row: int) -> Box | None:
    """The recorded box, for a reference whose box is all it recorded of its place
    (:func:`~resolver.decide.facts.box_alone`), on the whole of a screen, when ``row`` lies
    in that box's column: a banner, a removal or a line inserted above moves what follows
    up or down its column, never across, so a look-alike wholly outside the column (a
    sidebar's link repeated in the article) is not the target moved. From a screen of
    another size, the box as the screen shows it (:func:`~resolver.decide.place.screen_place`:
    the reading at which its namesakes stand, or the one nearest ``row``). ``None``
    otherwise."""
    ref, table = ctx.ref, ctx.table
    box = table.box(row)
    if table.window is not None or ref.bbox is None or box is None or not box_alone(ref, table):
        return None
    place = screen_place(ctx, box)
    return place if place is not None and in_column(box, place) else None


def _in_column_of(table: CandidateTable, row: int, column: Box) -> bool:
    """Whether ``row`` has a box in ``column``'s column."""
    box = table.box(row)
    return box is not None and in_column(box, column)


def window_unanchored(ctx: Context, decision: Decision) -> Decision | None:
    """``ambiguous.window_unanchored``: in a hint window, for a reference that recorded
    anchors, an answer that does not read the recorded name (agreement under
    ``window_name``, and some recorded word missing from it: words added to a name keep
    it) while the window reads none of those anchors. The window lies where
    the target was; if the page moved (a banner pushed it down, off the screen) another
    element with a similar name now stands there, and only the anchors would show the move.
    The window abstains, so that a larger one or the whole screen judges."""
    ref, table = ctx.ref, ctx.table
    if table.window is None or not ref.anchors:
        return None
    best = decision.candidates[0]
    if best.signals.get("name", 1.0) >= ctx.config.window_name:
        return None
    if set(words(ref.name or "")) <= set(words(best.name)):
        return None  # every recorded word still read: words added, not another name
    index = index_of(table)
    if any(index.lookup("norm", index.norm(text)).size for text, _ in ref.anchors):
        return None
    why = (
        "the name is not read as recorded and this window reads none of the recorded "
        "anchors: the page may have moved under the recorded box"
    )
    return overruled(decision, "ambiguous", why)
