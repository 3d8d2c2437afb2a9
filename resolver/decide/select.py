"""Stage ``select``: before the rows are judged, a recorded selector that still selects one
agreeing element answers (``accept.verified_selector``), and a label that narrowly beats the
control around it gives way to the control (``prefer.control``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

import numpy as np

from ..config import MatchConfig
from ..errors import ResolutionError
from ..geometry import iou_one
from ..matcher import Scored, moved_box, page_shift, score_rows, scored_at
from ..models import SemanticElementRef
from ..results import Candidate
from ..roles import LABEL_ROLES, canonical_role, role_compat
from ..table import CandidateTable
from ..text import NAME_TIERS, name_similarity
from ..web import WebIndex
from .facts import (
    bears_name,
    class_bearers,
    kind_classes,
    lookalikes_in_place,
    namesake_dressed_there,
    namesake_links_there,
    namesakes,
    other_kind,
    other_link,
    same_space,
    same_target,
    xpath_column_resolver,
)
from .headings import namesake_headed_there
from .paths import landmarks
from .records import namesake_recorded_there
from .rule import ROUNDING, Context, Decision, taken

__all__ = [
    "prefer_control",
    "selected_renamed",
    "selected_unnamed",
    "sole_dressed",
    "verify_selector",
]

Verified = tuple[int, float, str, str]
"""``(row, score, executor_id, reason)`` of a verified recorded selector."""


def prefer_control(table: CandidateTable, scored: Scored, config: MatchConfig) -> Scored:
    """When the winner is the label inside a control (text in a link, an icon in a button)
    and that control scores within the margin, or is one click target with it and has its
    name (the label only repeats it), answer with the control: it is what acts."""
    if scored.rows.size < 2:
        return scored
    best = int(scored.rows[0])
    if table.roles[best] not in LABEL_ROLES:
        return scored
    for j in range(1, scored.rows.size):
        row = int(scored.rows[j])
        close = scored.scores[0] - scored.scores[j] <= config.min_margin
        # A label that repeats its control's name is that control: evidence only the
        # control can carry (a changed link target) must not hand the answer to its text.
        role = scored.signals.get("role")
        repeats = (
            (role is None or role[j] >= role[0])  # the reference does not ask for the label
            and table.names_norm[row] == table.names_norm[best]
            and table.is_ancestor(row, best)
            and same_target(table, row, best, config.same_target_iou)
        )
        if not (close or repeats):
            continue
        if table.roles[row] not in LABEL_ROLES and table.is_ancestor(row, best):
            order = np.asarray([j, *(i for i in range(scored.rows.size) if i != j)])
            signals = {k: v[order] for k, v in scored.signals.items()}
            return Scored(scored.rows[order], scored.scores[order], signals, scored.evaluated)
    return scored


def prefer_control_rule(ctx: Context, decision: Decision) -> Decision | None:
    """``prefer.control``: the rows to judge, with the control first (:func:`prefer_control`)."""
    ranking = decision.ranking if decision.ranking is not None else ctx.scored
    preferred = prefer_control(ctx.table, ranking, ctx.config)
    if preferred is ranking:
        return None
    return replace(decision, ranking=preferred)


def verify_selector(
    ref: SemanticElementRef, table: CandidateTable, config: MatchConfig, scored: Scored
) -> Verified | None:
    """A recorded css/xpath that still selects exactly one row, whose role and name agree
    with the ref, and which the semantic evidence does not contradict: it clears the
    threshold and no other row beats it by the margin (an ``nth-of-type`` selector may now
    point at a sibling that took the old place). Returns ``(row, score, executor_id,
    reason)``.

    A table that cannot run selectors but knows each row's element (an accessibility tree
    linked to the DOM: an ``xpath`` column) verifies a recorded xpath too, by equality, only
    when the row it selects is already the best or trails it by place alone
    (:func:`_best_or_place_only_lead`: the xpath breaks a tie and outweighs a page shift, it
    does not overturn other evidence), and for a reference that recorded look-alikes only
    while the page has as many of them as were recorded (:func:`lookalikes_in_place`).

    With a look-alike gone or added, a selected row away from the target's place
    (:func:`_namesake_elsewhere`) or linking elsewhere than the recorded link
    (:func:`~resolver.decide.facts.other_link`) may be a look-alike in the target's slot,
    and is left to the matcher, as is a selected row linking elsewhere while a namesake
    links where the recorded one did (rows reordered:
    :func:`~resolver.decide.facts.namesake_links_there`), or lacking a recorded class that
    a namesake bears (:func:`~resolver.decide.facts.namesake_dressed_there`), or in another
    record than the recorded one while a namesake is in it
    (:func:`~resolver.decide.records.namesake_recorded_there`), or under another heading
    than the recorded one while a namesake is under it
    (:func:`~resolver.decide.headings.namesake_headed_there`). So is a
    selected row without the recorded name that bears none of the recorded classes or lies
    away from the target's place (:func:`_slid_sibling`), a sibling that slid into the
    slot."""
    in_place = lookalikes_in_place(ref, table)
    run = table.selector_resolver
    tie_only = run is None
    if run is None and in_place:
        run = xpath_column_resolver(table)
    if run is None:
        return None
    best = float(scored.scores[0]) if scored.scores.size else 0.0
    for kind, selector, rows in _selections(ref, run):
        if len(rows) != 1 or not agrees(ref, table, rows[0], config):
            continue
        if _slid_sibling(ref, table, rows[0]):
            continue  # the matcher judges it
        if tie_only and not _best_or_place_only_lead(ref, table, scored, rows[0], config):
            continue
        if not in_place and (
            _namesake_elsewhere(ref, table, scored, rows[0], config)
            or other_link(ref, table, rows[0], config.href_moved_segments)
        ):
            continue
        if _namesake_there(ref, table, rows[0], config):
            continue  # a namesake is where the recorded link, classes, record or heading are
        score = float(score_rows(ref, table, config, np.asarray(rows))[0])
        if score < config.threshold or score < best - config.min_margin:
            continue
        executor = f"css:{selector}" if kind == "css" else table.executor_id(rows[0])
        reason = f"recorded {kind} selector still selects one element that agrees"
        return rows[0], score, executor, reason
    return None


def verified_selector_rule(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.verified_selector``: the decision for a verified recorded selector, its row
    first, then the others as ranked."""
    verified = verify_selector(ctx.ref, ctx.table, ctx.config, ctx.scored)
    if verified is None:
        return None
    table, scored = ctx.table, ctx.scored
    row, score, executor, reason = verified
    one = Scored(np.asarray([row], dtype=np.intp), np.asarray([score]), {}, 1)
    chosen = replace(Candidate.of(table, one, 0), executor_id=executor)
    others = tuple(
        Candidate.of(table, scored, j)
        for j in range(scored.rows.size)
        if int(scored.rows[j]) != row
    )
    rival = max((c.score for c in others), default=0.0)
    return Decision("accepted", reason, (chosen, *others), None, round(score - rival, 4))


def _namesake_there(
    ref: SemanticElementRef, table: CandidateTable, row: int, config: MatchConfig
) -> bool:
    """Whether another row of the recorded role and name is where the recorded link,
    classes, record or heading are, and ``row`` is not."""
    return (
        namesake_links_there(ref, table, row, config.href_moved_segments)
        or namesake_dressed_there(ref, table, row)
        or namesake_recorded_there(ref, table, row)
        or namesake_headed_there(ref, table, row)
    )


def agrees(ref: SemanticElementRef, table: CandidateTable, row: int, config: MatchConfig) -> bool:
    """Whether a selected row's role and name agree with the reference. A name that differs
    from the recorded one only in its numbers does not agree while another element bears
    the recorded name exactly: "Image 1" in the slot of "Image 2", the two swapped."""
    if ref.role and role_compat(canonical_role(ref.role), table.roles[row]) < config.selector_role:
        return False
    if not ref.name:
        return True
    similarity = name_similarity(ref.name, table.names[row])
    if similarity < config.selector_name:
        return False
    return similarity != NAME_TIERS["masked"] or namesakes(ref, table) == 0


def _slid_sibling(ref: SemanticElementRef, table: CandidateTable, row: int) -> bool:
    """Whether a selected ``row`` without the recorded name may be a sibling that slid into
    the target's ``nth-of-type`` slot rather than the target renamed: it is another kind of
    element (:func:`~resolver.decide.facts.other_kind`), or it is away from the target's
    place (:func:`_off_place`)."""
    if not ref.name or bears_name(ref, table, row):
        return False
    return other_kind(ref, table, row) or _off_place(ref, table, row)


def _off_place(ref: SemanticElementRef, table: CandidateTable, row: int) -> bool:
    """Whether ``row``'s box does not even overlap the recorded box moved by the page's shift
    (:func:`~resolver.matcher.page_shift`), for a reference whose anchors give that shift
    (without them a banner pushing the page down would read as a move). The target renamed
    keeps its place; the next link that slid into its slot is where that link was. A
    recorded box of no area overlaps no other box, so such a row is left to the matcher as
    well (which weighs the box with the rest)."""
    if ref.bbox is None or not ref.anchors or not same_space(ref, table):
        return False
    box = table.box(row)
    return box is not None and iou_one(box, moved_box(ref.bbox, page_shift(ref, table))) <= 0.0


def _namesake_elsewhere(
    ref: SemanticElementRef, table: CandidateTable, scored: Scored, row: int, config: MatchConfig
) -> bool:
    """Whether ``row`` bears the recorded name and is not where the target was (unranked,
    or its box under ``stray_box`` after the page's shift): with a look-alike gone or added,
    a positional selector may select a look-alike that took the target's slot."""
    if not bears_name(ref, table, row):
        return False
    at = np.flatnonzero(scored.rows == row)
    boxes = scored.signals.get("bbox")
    if not at.size:
        return True
    return boxes is not None and float(boxes[at[0]]) < config.stray_box


def _best_or_place_only_lead(
    ref: SemanticElementRef, table: CandidateTable, scored: Scored, row: int, config: MatchConfig
) -> bool:
    """Whether ``row`` is the best row (or scores as well: a dead heat, which the ranking
    breaks by document order, or cuts off when many rows tie), or the best leads it by place
    alone, and ``row`` agrees with the reference at least as well on every other signal
    (nearby text within ``xpath_nearby_slack``): for a reference with a box, the best does
    not even overlap the recorded place either (the page moved under both, a banner or a
    block above pushed them down), nor agrees exactly with the recorded box as the ranking
    read it (``exact_agreement``: a box recorded on another screen size, read as the page
    reflowed, may sit on the best); for one without, nothing but the nearby texts, which a
    recorder reads otherwise than the page's order, tells them apart. Then place says
    nothing about which is the target, and the row the recorded xpath selects is it."""
    at = np.flatnonzero(scored.rows == row)
    best = float(scored.scores[0]) - ROUNDING
    if at.size and (at[0] == 0 or scored.scores[at[0]] >= best):
        return True  # the best, or in a dead heat with it that the ranking broke by order
    if not at.size:  # left out of a ranking of many rows in a dead heat?
        return float(score_rows(ref, table, config, np.asarray([row]))[0]) >= best
    if ref.bbox is not None:
        if not same_space(ref, table):
            return False
        boxes = scored.signals.get("bbox")
        if boxes is not None and float(boxes[0]) >= config.exact_agreement - ROUNDING:
            return False  # the best sits at the recorded place as the ranking reads the box
        best_box = table.box(int(scored.rows[0]))
        if best_box is None or iou_one(best_box, moved_box(ref.bbox, page_shift(ref, table))) > 0:
            return False
    j = int(at[0])
    for key, values in scored.signals.items():
        if key in ("bbox", "id:xpath"):
            continue
        slack = config.xpath_nearby_slack if key == "web:nearby" else 0.0
        if float(values[j]) < float(values[0]) - slack:
            return False
    return True


def selected_unnamed(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.selected_unnamed``: refused under the threshold (``refuse.threshold``), a
    named reference whose recorded css or xpath still selects exactly one row, of a
    compatible role (``selector_role``), that has no name at all now (its text or label
    went: nothing contradicts the recorded name, and nothing confirms it), bears every
    recorded class that says what kind of element the target was
    (:func:`~resolver.decide.facts.kind_classes`, one at least) while no other row bears
    them all, and sits where the target was (a recorded box in the table's space, moved by
    the page's shift, overlapping its box by ``stray_box``; a reference without one has its
    selector and classes only). Three independent records agree on it (the place in the
    document, the element's own classes, its place on the screen), and a sibling that slid
    into the slot is dressed like its siblings, so it is not alone in bearing the classes.
    The answer is reviewed like any other."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    kinds = kind_classes(ref)
    if decision.rule != "refuse.threshold" or not ref.name or not kinds:
        return None
    if "class" not in table.platform_ids:
        return None
    row = _selected_row(ref, table)
    if row is None or table.names[row].strip():
        return None
    if ref.role and role_compat(canonical_role(ref.role), table.roles[row]) < config.selector_role:
        return None
    if class_bearers(table, kinds).tolist() != [row] or not _at_recorded_box(ctx, row):
        return None
    return _taken_row(
        ctx, decision, row, "the recorded selector selects {}, which has no name now, is the "
        "only element bearing the recorded classes and stands where the target was",
    )  # fmt: skip


def selected_renamed(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.selected_renamed``: refused under the threshold (``refuse.threshold``; from
    ``sole_threshold`` up), a best row of the recorded role that the recorded css or xpath
    still selects, with every recorded neighbour text around it (one at least) and every
    recorded class (when classes were recorded), and not the recorded name: the target
    renamed where it stood. The place in the document and the texts around it agree; the
    name alone changed. A row bearing the recorded name is not renamed: it may be a
    look-alike's survivor slid into a removed target's slot. The answer is reviewed like any
    other (a neighbour that slid into the slot bears a recorded neighbour's name and is
    refused then)."""
    ref, table, config, best = ctx.ref, ctx.table, ctx.config, decision.best
    if decision.rule != "refuse.threshold" or best is None or not ref.nearby_text:
        return None
    if table.names_read or best.score < config.sole_threshold:
        return None
    signals = best.signals
    if signals.get("role", 0.0) < 1.0 or signals.get("web:nearby", 0.0) < 1.0 - ROUNDING:
        return None
    if ref.classes and signals.get("web:class", 0.0) < 1.0 - ROUNDING:
        return None
    if bears_name(ref, table, ctx.first):
        return None  # not renamed: a look-alike's survivor may have slid into the slot
    if _selected_row(ref, table) != ctx.first:
        return None
    reason = (
        f"score {best.score:.3f} is under the threshold, but the recorded selector selects "
        "the best, which has every recorded neighbour text and class: the target renamed"
    )
    return replace(decision, status="accepted", reason=reason)


def sole_dressed(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.sole_dressed``: a reference without a name, refused for want of evidence
    (rows told apart by nothing but their role, ``refuse.role_only``, or under the
    threshold). When exactly one row bears every recorded class that says what kind of
    element the target was (:func:`~resolver.decide.facts.kind_classes`, one at least), of a
    compatible role (``selector_role``) and the recorded tag, and (a box recorded in the
    table's space) where the target was (``stray_box``), it is taken: an icon or a logo
    restyled and moved by a redesign keeps its own classes, to which it owes its look
    ("logo-dimensions"), and a removed one leaves no row bearing them all. With a recorded
    xpath, the row must lie in its landmark regions (header, nav, footer ...): a brand's
    class on the footer's text link is another element than the header's icon that bore
    it. The answer is reviewed like any other."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    if (ref.name or "").strip() or decision.rule not in ("refuse.role_only", "refuse.threshold"):
        return None
    kinds = kind_classes(ref)
    if not kinds or "class" not in table.platform_ids:
        return None
    rows = class_bearers(table, kinds).tolist()
    if len(rows) != 1:
        return None
    row = rows[0]
    if ref.role and role_compat(canonical_role(ref.role), table.roles[row]) < config.selector_role:
        return None
    tag = table.derived(WebIndex).tags[row] if "tag" in table.platform_ids else None
    if ref.tag and tag is not None and tag != ref.tag.lower():
        return None
    if not _at_recorded_box(ctx, row) or not _in_recorded_regions(ctx, row):
        return None
    return _taken_row(
        ctx, decision, row, "{} is the only element bearing every recorded class that says "
        "what kind of element the target was",
    )  # fmt: skip


def _at_recorded_box(ctx: Context, row: int) -> bool:
    """Whether ``row`` overlaps the recorded box (moved by the page's shift) by ``stray_box``;
    true for a reference without a box in the table's space."""
    ref, table = ctx.ref, ctx.table
    if ref.bbox is None or not same_space(ref, table):
        return True
    box = table.box(row)
    moved = moved_box(ref.bbox, page_shift(ref, table))
    return box is not None and iou_one(box, moved) >= ctx.config.stray_box


def _in_recorded_regions(ctx: Context, row: int) -> bool:
    """Whether ``row`` lies in the landmark regions on the recorded xpath (the same sequence);
    true without a recorded xpath or a document path for the row."""
    xpaths = ctx.table.document_paths
    if not ctx.ref.xpath or xpaths is None or not xpaths[row]:
        return True
    return landmarks(str(xpaths[row])) == landmarks(ctx.ref.xpath)


def _taken_row(ctx: Context, decision: Decision, row: int, why: str) -> Decision | None:
    """``decision`` accepted for ``row`` (scored as it is), its reason ``why`` with the row's
    id put in; ``None`` when no other row was ranked."""
    kept = Candidate.of(ctx.table, scored_at(ctx.ref, ctx.table, ctx.config, [row]), 0)
    other = next((c for c in decision.candidates if c.id != kept.id), None)
    if other is None:
        return None
    return taken(decision, kept, other, f"{decision.reason}; but {why.format(repr(kept.id))}")


def _selected_row(ref: SemanticElementRef, table: CandidateTable) -> int | None:
    """The one row a recorded css or xpath selects (by the table's selector engine, or by
    its xpath column), or ``None``."""
    run = table.selector_resolver or xpath_column_resolver(table)
    if run is None:
        return None
    return next((int(rows[0]) for _, _, rows in _selections(ref, run) if len(rows) == 1), None)


def _selections(
    ref: SemanticElementRef, run: Callable[[str, str], Sequence[int]]
) -> Iterator[tuple[str, str, list[int]]]:
    """``(kind, selector, rows)`` of each recorded selector (css, then xpath) that ``run``
    could run, with the rows it selects."""
    for kind, selector in (("css", ref.css_selector), ("xpath", ref.xpath)):
        if not selector:
            continue
        try:
            rows = list(run(kind, selector))
        except ResolutionError:
            continue
        yield kind, selector, rows
