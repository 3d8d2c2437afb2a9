"""Review rules that break a tie (an ``ambiguous`` verdict) with evidence only one of the tied
rows has: the target renamed where it stood, or its place in the document."""

from __future__ import annotations

from dataclasses import replace

from ..geometry import share_inside
from ..matcher import moved_box, page_shift, scored_at
from ..models import MAX_ANCHORS
from ..results import Candidate
from ..roles import canonical_role, role_code
from ..table import CandidateTable
from ..text import NAME_TIERS, normalize
from .facts import (
    at_place,
    kept_over,
    lookalikes_in_place,
    namesake_dressed_there,
    namesake_rows,
    namesakes,
    same_space,
    same_target,
    selected_by_xpath,
    xpath_rows,
)
from .paths import (
    indexed_steps,
    landmarks,
    one_step_apart,
    path_similarity,
    shifted_step,
    sibling_at_renumbered_step,
    tag_path_similarity,
)
from .rule import ROUNDING, Context, Decision, taken

__all__ = [
    "neighbour_words",
    "path_tie",
    "renamed_in_slot",
    "renamed_target",
    "renumbered_tie",
    "shape_tie",
    "shifted_tie",
    "tail_in_region",
]


def renamed_target(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.renamed_target``: ambiguous between two rows, one with the recorded name
    exactly, sitting where a recorded look-alike was and not where the target was, and one
    sitting where the target was, with its role and a name that agrees less (a word added or
    removed, a number changed; ``renamed_name`` up): the target was renamed and its
    look-alike kept the name. When exactly as many rows bear the recorded name as look-alikes
    were recorded (the target no longer does), the row at the target's place is the answer;
    when fewer do (other look-alikes were renamed too), only if the recorded xpath still
    selects it."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    if not ref.lookalikes or len(ref.lookalikes) >= MAX_ANCHORS or ref.bbox is None:
        return None
    if not ref.name or not same_space(ref, table):
        return None
    shift = page_shift(ref, table)
    target = moved_box(ref.bbox, shift)
    twins = [moved_box(b, shift) for b in ref.lookalikes]

    def at_target(c: Candidate) -> bool:
        assert c.bbox is not None
        return at_place(c.bbox, target, config)

    def at_twin(c: Candidate) -> bool:
        assert c.bbox is not None
        return any(at_place(c.bbox, b, config) for b in twins)

    def renamed(c: Candidate) -> bool:
        name, role = c.signals.get("name", 0.0), c.signals.get("role", 0.0)
        return config.renamed_name <= name < 1.0 and role >= 1.0

    def namesake(c: Candidate) -> bool:
        return c.signals.get("name", 0.0) >= 1.0

    pair = kept_over(
        decision,
        lambda kept, other: (
            namesake(other) and at_twin(other) and not at_target(other)
            and renamed(kept) and at_target(kept) and not at_twin(kept)
        ),
    )  # fmt: skip
    if pair is None:
        return None
    kept, other = pair
    count = namesakes(ref, table)
    if count > len(ref.lookalikes) or (
        count < len(ref.lookalikes) and not selected_by_xpath(ref, table, kept.id)
    ):
        return None
    reason = (
        f"{decision.reason}; but {other.name!r} sits where a recorded look-alike was and "
        f"{kept.name!r} where the target was: the target was renamed"
    )
    return taken(decision, kept, other, reason)


def renamed_in_slot(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.renamed_in_slot``: for a reference that recorded nothing of its look-alikes,
    ambiguous between a row with the recorded name exactly, not at the target's place, and a
    row of the recorded role with a word or so changed (``renamed_name`` up; not only a
    number, which tells "Image 1" from "Image 2" when they trade places) that sits at the
    target's place (after the page's shift) and that the recorded xpath still selects. The
    target was renamed where it stood; the other row is a namesake elsewhere."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    if ref.lookalikes or ref.occurrence is not None or ref.bbox is None or not ref.name:
        return None
    if not ref.xpath or not same_space(ref, table):
        return None
    target = moved_box(ref.bbox, page_shift(ref, table))

    def fits(kept: Candidate, other: Candidate) -> bool:
        assert kept.bbox is not None
        assert other.bbox is not None
        name, role = kept.signals.get("name", 0.0), kept.signals.get("role", 0.0)
        return (
            other.signals.get("name", 0.0) >= 1.0 and not at_place(other.bbox, target, config)
            and config.renamed_name <= name < NAME_TIERS["masked"] and role >= 1.0
            and at_place(kept.bbox, target, config)
            and selected_by_xpath(ref, table, kept.id)
        )  # fmt: skip

    pair = kept_over(decision, fits)
    if pair is None:
        return None
    kept, other = pair
    reason = (
        f"{decision.reason}; but {kept.name!r} sits at the target's place and under its "
        f"recorded xpath, and {other.name!r} elsewhere: the target was renamed"
    )
    return taken(decision, kept, other, reason)


def path_tie(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.path_tie``: ambiguous for want of a margin, with the best over the threshold
    (another rule's doubt is not second-guessed) and leading by ``path_tie_lead`` at least
    (the path confirms a lean, it does not decide a dead heat: sorted table rows, whose
    paths trade places). When the best's place in the document agrees with the recorded
    xpath by ``path_tie`` more than every other ranked row's (a banner renumbered one level
    of every path, and the twins differ below it), the best is taken, unless it has another
    link than the recorded one, or lacks a recorded class that a namesake bears
    (:func:`~resolver.decide.facts.namesake_dressed_there`). Only the best: the path breaks
    a tie, it does not overturn the ranking."""
    ref, table, config, scored = ctx.ref, ctx.table, ctx.config, ctx.scored
    xpaths = table.document_paths
    if not ref.xpath or xpaths is None or not scored.rows.size:
        return None
    if not config.path_tie_lead <= decision.margin < config.min_margin:
        return None
    if not lookalikes_in_place(ref, table):
        return None
    first = ctx.first
    best_score = float(scored.scores[0])
    if best_score < config.threshold or not xpaths[first]:
        return None
    if decision.candidates[0].signals.get("web:href", 1.0) <= 0.0:
        return None  # the recorded link is not the best's: no tie to break
    if namesake_dressed_there(ref, table, first):
        return None  # the recorded classes are a namesake's, not the best's
    mine = path_similarity(ref.xpath, str(xpaths[first]))
    rival = 0.0
    for j in range(1, scored.rows.size):
        row = int(scored.rows[j])
        if same_target(table, first, row, config.same_target_iou):
            continue
        rival = max(rival, path_similarity(ref.xpath, str(xpaths[row] or "")))
    if mine - rival < config.path_tie:
        return None
    reason = (
        f"{decision.reason}; but the best's place in the document agrees with the recorded "
        f"xpath better ({mine:.2f} against {rival:.2f})"
    )
    return replace(decision, status="accepted", reason=reason)


def renumbered_tie(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.renumbered_tie``: ambiguous for want of a margin, the best over the
    threshold. When the recorded xpath selects no row of the recorded role and name, and
    exactly one such row has the recorded xpath with one step's position changed (a banner
    or a block inserted above renumbered one level for everything under it; a look-alike
    elsewhere differs in more steps, and look-alikes in one list, each a step apart, make
    more than one), that row is taken if it is tied with the best (within the margin) and
    agrees with the reference as well on everything but place (nearby texts within
    ``xpath_nearby_slack``). Not for a reference whose recorded look-alikes are not all there
    (their rules decide), nor for one without a box: its tie is a want of evidence, where a
    table's sorted rows trade places and a path names a row's slot, not the row."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    best, xpaths = decision.best, table.document_paths
    if best is None or xpaths is None or not ref.xpath or not ref.name or ref.bbox is None:
        return None
    if best.score < config.threshold or decision.margin >= config.min_margin:
        return None
    if not lookalikes_in_place(ref, table):
        return None
    code = role_code(canonical_role(ref.role)) if ref.role else None
    if any(code is None or table.role_codes[r] == code for r in xpath_rows(ref, table) or ()):
        return None
    rows = namesake_rows(ref, table)
    recorded = indexed_steps(ref.xpath)
    renumbered = [r for r in rows if one_step_apart(recorded, xpaths[r])]
    if len(renumbered) != 1 or sibling_at_renumbered_step(recorded, xpaths, rows, renumbered[0]):
        return None
    kept = next((c for c in decision.candidates if c.id == table.ids[renumbered[0]]), None)
    if kept is None or kept.score < best.score - config.min_margin:
        return None
    if not _agrees_but_place(kept, best, config.xpath_nearby_slack):
        return None
    other = decision.runner_up if kept is best else best
    if other is None:
        return None
    reason = (
        f"{decision.reason}; but {kept.id!r} is the one element of the recorded role and name "
        "under the recorded xpath with one step renumbered (a level above it shifted)"
    )
    return taken(decision, kept, other, reason)


def shape_tie(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.shape_tie``: a tie for want of a margin (``ambiguous.margin``, the best over
    the threshold; a dead heat included, which ``accept.path_tie`` leaves alone) that no
    tie-breaker before it broke, for a reference with an xpath and no box. When exactly one
    of the tied rows (within the margin of the best) lies in the recorded xpath's landmark
    regions (header, nav, footer, form ...: the same sequence, one at least) while every
    other tied row lies in other regions, and it lies under the recorded xpath's sequence of
    tags, positions ignored, better by ``path_tie`` than each tied row that is a different
    target, it is taken: a redesign renumbered the steps above the target, and its twins are
    elsewhere on the page, built otherwise (the navigation's "Open an Account" and the one
    in a promotion's panel). Twins within one region (a list, a table, an article's
    paragraphs) stay a doubt: a wrapper added around the target gives a twin beside it the
    recorded shape. A box, where one was recorded, is what tells tied rows apart, so such a
    reference is left to the rules that read it; and while the recorded xpath still selects
    a row of the recorded role, that row may be the target renamed (tied no more, its twin
    beside it keeping the name). A row with another link than the recorded one, or away
    from every recorded neighbour text, is not taken (the target went, and its twin in the
    same region stayed)."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    xpaths, best = table.document_paths, decision.best
    if decision.rule != "ambiguous.margin" or xpaths is None or best is None:
        return None
    if not ref.xpath or ref.bbox is not None or best.score < config.threshold:
        return None
    regions = landmarks(ref.xpath)
    if not regions or not lookalikes_in_place(ref, table) or _selects_role(ctx):
        return None
    by_id = {table.ids[int(r)]: int(r) for r in ctx.scored.rows}
    tied = [
        (c, str(xpaths[by_id[c.id]] or "")) for c in decision.candidates
        if c.id in by_id and c.score >= best.score - config.min_margin
    ]  # fmt: skip
    inside = [(c, path) for c, path in tied if landmarks(path) == regions]
    if len(inside) != 1 or not _not_contradicted(inside[0][0]):
        return None
    kept, row = inside[0][0], by_id[inside[0][0].id]
    iou = config.same_target_iou
    rivals = [c for c, _ in tied if not same_target(table, row, by_id[c.id], iou)]
    if not rivals:
        return None
    mine = tag_path_similarity(ref.xpath, inside[0][1])
    rival = max(tag_path_similarity(ref.xpath, str(xpaths[by_id[c.id]] or "")) for c in rivals)
    if mine - rival < config.path_tie:
        return None
    reason = (
        f"{decision.reason}; but {kept.id!r} is the one tied row in the recorded regions "
        f"({'/'.join(regions)}), under the recorded xpath's tags ({mine:.2f} against "
        f"{rival:.2f})"
    )
    return taken(decision, kept, best if kept is not best else rivals[0], reason)


def _not_contradicted(kept: Candidate) -> bool:
    """Whether a tied row's link and recorded neighbour texts, where the reference recorded
    them, agree at least in part."""
    return kept.signals.get("web:href", 1.0) > 0.0 and kept.signals.get("web:nearby", 1.0) > 0.0


def _selects_role(ctx: Context) -> bool:
    """Whether the recorded xpath selects a row of the recorded role (any row, for a
    reference without a role)."""
    code = role_code(canonical_role(ctx.ref.role)) if ctx.ref.role else None
    rows = xpath_rows(ctx.ref, ctx.table) or ()
    return any(code is None or ctx.table.role_codes[r] == code for r in rows)


_SHIFTED_FROM: tuple[str, ...] = ("refuse.role_only", "ambiguous.margin")
"""The verdicts ``accept.shifted_tie`` and ``accept.tail_in_region`` look at: rows told apart
by nothing but their role, or tied for want of a margin."""


def shifted_tie(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.shifted_tie``: for a reference that recorded an xpath but no box (a
    recorder that keeps selectors, not geometry) or no name (an icon, a search box, a list
    item), tied with other rows of its role and name, or told apart from them by nothing but
    its role. When the recorded xpath selects no row of the recorded role, and exactly one
    row of that role and name (without a name: unnamed; with a name no row bears, renamed:
    one of the rows tied with the best) has the recorded xpath with one step
    changed, renumbered or retagged, at least ``shifted_below`` steps above it (a wrapper
    near the top of the page replaced or shifted, the element's own place under it as
    recorded), and no other such row sits beside it at that step (sibling sections), that
    row is taken if it is tied with the best and agrees with the reference as well as the
    best on everything but place. It is the element the unchanged xpath would have selected,
    which a selector that still selects it is trusted for (``accept.verified_selector``);
    the steps kept under the change name its place in its list or table as they did. A
    named reference with a box is ``accept.renumbered_tie``'s. The answer is then reviewed
    like any other (the rule is asked first in the review stage)."""
    ref, table = ctx.ref, ctx.table
    if (ref.name or "").strip() and ref.bbox is not None:
        return None  # accept.renumbered_tie's
    xpaths = _untold(ctx, decision)
    if xpaths is None or not ref.xpath:
        return None
    rows = namesake_rows(ref, table)
    tied = not rows
    if tied:
        rows = _tied_rows(ctx)
    recorded = indexed_steps(ref.xpath)
    below = ctx.config.shifted_below
    shifted = [r for r in rows if shifted_step(recorded, xpaths[r], below) is not None]
    if len(shifted) != 1 or sibling_at_renumbered_step(
        recorded, xpaths, rows, shifted[0], alike=tied
    ):
        return None
    return _shifted_taken(ctx, decision, shifted[0])


def tail_in_region(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.tail_in_region``: for a reference without a name that recorded an xpath
    inside landmark regions (header, navigation, main ...), tied with other unnamed rows of
    its role or told apart from them by nothing but its role. When the recorded xpath
    selects no row of the recorded role and exactly one unnamed row of that role ends its
    document path with the recorded xpath's last ``tail_steps`` steps (tags and positions:
    its own place in its list and the two levels above) inside the same landmark regions,
    that row is taken if it is tied with the best and agrees as well on everything but
    place: a redesign rebuilt the wrappers of a region (a header's sections now divs) and
    kept the element's own place in it. A region whose unnamed rows of that role share the
    tail (two lists alike) is no evidence, nor is a path outside every region."""
    ref, table = ctx.ref, ctx.table
    if (ref.name or "").strip():
        return None
    xpaths = _untold(ctx, decision)
    regions = landmarks(ref.xpath) if ref.xpath else []
    if xpaths is None or not ref.xpath or not regions:
        return None
    k = ctx.config.tail_steps
    tail = indexed_steps(ref.xpath)[-k:]
    if len(tail) < k:
        return None
    kept = [
        r for r in namesake_rows(ref, table)
        if xpaths[r] and indexed_steps(str(xpaths[r]))[-k:] == tail
        and landmarks(str(xpaths[r])) == regions
    ]  # fmt: skip
    if len(kept) != 1:
        return None
    why = (
        f"is the one unnamed element of the recorded role ending its path with the recorded "
        f"xpath's last {k} steps in the same regions ({' > '.join(regions)})"
    )
    return _tie_taken(ctx, decision, kept[0], why)


def _tied_rows(ctx: Context) -> list[int]:
    """For a named reference no row bears the name of (the target renamed), the ranked rows
    within the margin of the best: those the tie is between. (Nameless: none; the unnamed
    rows of the role are its namesakes.)"""
    if not (ctx.ref.name or "").strip():
        return []
    scored = ctx.scored
    near = scored.scores >= scored.scores[0] - ctx.config.min_margin
    return [int(r) for r in scored.rows[near]]


def _untold(ctx: Context, decision: Decision) -> tuple[str | None, ...] | None:
    """The table's document paths when ``decision`` is one the xpath tie-breakers look at
    (:data:`_SHIFTED_FROM`) for a reference with an xpath and a role, whose recorded
    look-alikes are all there and whose recorded xpath selects no row of its role; else
    ``None``."""
    ref, table = ctx.ref, ctx.table
    xpaths = table.document_paths
    if decision.rule not in _SHIFTED_FROM or xpaths is None or not ref.xpath or not ref.role:
        return None
    if not ctx.scored.rows.size or not lookalikes_in_place(ref, table):
        return None
    code = role_code(canonical_role(ref.role))
    if code is None or any(table.role_codes[r] == code for r in xpath_rows(ref, table) or ()):
        return None
    return xpaths


def _agrees_but_place(kept: Candidate, best: Candidate, nearby_slack: float) -> bool:
    """Whether ``kept`` agrees with the reference as well as ``best`` on every signal but
    place (box and xpath), its nearby texts within ``nearby_slack``."""
    for key, value in best.signals.items():
        slack = nearby_slack if key == "web:nearby" else ROUNDING
        if key not in ("bbox", "id:xpath") and kept.signals.get(key, 0.0) < value - slack:
            return False
    return True


def _shifted_taken(ctx: Context, decision: Decision, row: int) -> Decision | None:
    """:func:`_tie_taken` for :func:`shifted_tie`."""
    why = (
        "is the one element of the recorded role and name under the recorded xpath with one "
        "step well above it changed (a wrapper near the top of the page replaced or shifted)"
    )
    return _tie_taken(ctx, decision, row, why)


def _tie_taken(ctx: Context, decision: Decision, row: int, why: str) -> Decision | None:
    """``decision`` accepted for ``row`` when it is tied with the best (ranked or not) and as
    agreeing on everything but place, the reason saying ``why`` it is the target."""
    scored, config = ctx.scored, ctx.config
    at = (scored.rows == row).nonzero()[0]
    j = int(at[0]) if at.size else -1
    if j >= 0:
        kept = Candidate.of(ctx.table, scored, j)
    else:  # cut off a ranking of rows that only the role tells apart
        kept = Candidate.of(ctx.table, scored_at(ctx.ref, ctx.table, config, [row]), 0)
    best = Candidate.of(ctx.table, scored, 0)
    if kept.score < best.score - config.min_margin:
        return None
    if not _agrees_but_place(kept, best, ROUNDING):
        return None
    other = best if j else (Candidate.of(ctx.table, scored, 1) if scored.rows.size > 1 else None)
    if other is None:
        return None
    return taken(decision, kept, other, f"{decision.reason}; but {kept.id!r} {why}")


def neighbour_words(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.neighbour_words``: on a screenshot, a tie for want of a margin
    (``ambiguous.margin``, the best over the threshold) in which every tied row that is a
    different target than the best is words read inside a longer text (its parent row,
    whose box holds it) that reads one of the recorded neighbour texts whole, and the best
    is not: the recorder saw that longer text as an element of its own beside the target
    ("News & Insights Home" beside the link "News & Insights"), so the words read in it are
    that neighbour's, not a look-alike of the target."""
    ref, table, config, best = ctx.ref, ctx.table, ctx.config, decision.best
    if decision.rule != "ambiguous.margin" or best is None or not table.names_read:
        return None
    if not ref.nearby_text or best.score < config.threshold:
        return None
    own = normalize(ref.name or "")
    texts = {normalize(t) for t in ref.nearby_text} - {"", own}
    by_id = {table.ids[int(r)]: int(r) for r in ctx.scored.rows}
    first = by_id.get(best.id)
    if first is None or _in_neighbour(table, first, texts):
        return None
    iou = config.same_target_iou
    rivals = [
        c for c in decision.candidates[1:]
        if c.score >= best.score - config.min_margin and c.id in by_id
        and not same_target(table, first, by_id[c.id], iou)
    ]  # fmt: skip
    if not rivals or not all(_in_neighbour(table, by_id[c.id], texts) for c in rivals):
        return None
    parent = int(table.parent[by_id[rivals[0].id]])
    reason = (
        f"{decision.reason}; but the tied {rivals[0].id!r} is words read inside "
        f"{table.names[parent][:60]!r}, a recorded neighbour text: that neighbour's, not a "
        "look-alike of the target"
    )
    return taken(decision, best, rivals[0], reason)


def _in_neighbour(table: CandidateTable, row: int, texts: set[str]) -> bool:
    """Whether ``row`` is words read inside its parent row's longer text (the parent's box
    holds it) and that text is one of ``texts`` (normalised recorded neighbour texts)."""
    parent = int(table.parent[row])
    if parent < 0 or table.names_norm[parent] not in texts:
        return False
    if len(table.names_norm[row]) >= len(table.names_norm[parent]):
        return False
    inner, outer = table.box(row), table.box(parent)
    return inner is not None and outer is not None and share_inside(inner, outer) >= 1.0
