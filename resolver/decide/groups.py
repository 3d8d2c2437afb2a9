"""Review rules for tables whose groups are named only by the titles the source sees
(:attr:`~resolver.table.CandidateTable.groups_by_title`): a title may be out of view, or cut
off by a hint window (:attr:`~resolver.table.CandidateTable.window`), so an answer the table
does not show in the recorded group is judged by whether it has look-alikes and moved."""

from __future__ import annotations

from ..models import SemanticElementRef
from ..text import collapse, item_similarity_many, mask_digits, name_similarity, normalize
from .facts import same_target
from .rule import Context, Decision, overruled

__all__ = ["group_unseen", "other_group"]


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
    if box >= ctx.config.stray_box or not _other_group(ctx, ctx.table.containers[first]):
        return None
    why = (
        f"the best is not where the target was (box {box:.2f}) and "
        f"the screen shows it in another group ({ctx.table.containers[first][-1]!r}): perhaps "
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
    or is in another named group: only a stale box would tell them apart."""
    if not _outside_group(ctx, decision):
        return None
    table, config, first = ctx.table, ctx.config, ctx.first
    window = table.window is not None
    box = decision.candidates[0].signals.get("bbox", 0.0)
    moved = box < config.lookalike_box or _other_group(ctx, table.containers[first])
    if not (window and moved) and not _lookalikes(ctx, first):
        return None
    if not window and not moved:
        return None
    where = "this window" if window else "the screen"
    why = f"look-alikes exist and {where} does not show it in the recorded group"
    return overruled(decision, "ambiguous", why)


def _other_group(ctx: Context, path: tuple[str, ...]) -> bool:
    """Whether a row's innermost group (``path[-1]``) resembles none of the groups the
    reference recorded (see :func:`_groups_recorded`), by the container-entry similarity the
    matcher weighs container paths with (under ``group_agrees``)."""
    if not path:
        return False
    ref = ctx.ref
    name = (ref.name or "").strip().lower()
    recorded = [
        entry
        for entry in ref.container_path[1:]
        if not entry.startswith("[") and entry.strip().lower() != name
    ]
    inner = collapse(path[-1])
    norm = normalize(inner)
    agrees = ctx.config.group_agrees
    return all(
        item_similarity_many(entry, [inner], [norm], [mask_digits(norm)])[0] < agrees
        for entry in recorded
    )


def _groups_recorded(ref: SemanticElementRef) -> bool:
    """Whether the recorded container path names a group inside the page: an entry past the
    outermost (the page or window title) that is not a landmark nor the element's own name."""
    name = (ref.name or "").strip().lower()
    return any(
        not entry.startswith("[") and entry.strip().lower() != name
        for entry in ref.container_path[1:]
    )


def _lookalikes(ctx: Context, row: int) -> bool:
    """Whether another target of the table has nearly ``row``'s name (``lookalike_name``
    up; any role)."""
    table, config = ctx.table, ctx.config
    name = table.names[row]
    if not name:
        return False
    return any(
        j != row
        and name_similarity(name, table.names[j]) >= config.lookalike_name
        and not same_target(table, row, j, config.same_target_iou)
        for j in range(len(table))
    )
