"""The decision for one source: from ranked rows to "this one", "ambiguous" or "not here".

The matcher only ranks (:func:`resolver.matcher.score_table`). Here the ranked rows are
judged: a recorded selector that still selects one agreeing element is taken first; a label
that narrowly beats the control around it gives way to the control; and the best row is
accepted only when it reaches ``threshold`` **and** leads the best row that is a *different
target* by ``min_margin`` (a button and the text inside it are one target). Every number used
here is a :class:`~resolver.config.MatchConfig` field.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from typing import Final, Literal

import numpy as np

from .batch import score_many
from .calibration import confidence
from .config import MatchConfig
from .errors import ResolutionError
from .geometry import Box, CoordSpace, box_gap, box_gaps, iou_one, share_inside
from .index import index_of
from .matcher import Scored, moved_box, page_shift, recorded_group, score_rows, score_table
from .models import SemanticElementRef
from .results import Candidate
from .roles import LABEL_ROLES, canonical_role, role_code, role_compat
from .table import MAX_ENTRY, CandidateTable
from .text import (
    NAME_TIERS,
    collapse,
    item_similarity_many,
    mask_digits,
    name_similarity,
    normalize,
)
from .web import (
    MAX_NEARBY_CHARS,
    RECORD_ROLES,
    NearbyIndex,
    WebIndex,
    WebQuery,
    href_key,
    nearby_key,
    stable_classes,
)

__all__ = [
    "Decision",
    "decide",
    "decide_many",
    "prefer_control",
    "same_target",
    "verify_selector",
]

Status = Literal["accepted", "ambiguous", "not_found"]

VISION_LOOKALIKE_NAME: Final[float] = 0.9
"""Name similarity at which two vision rows are look-alikes."""
VISION_GROUP_AGREES: Final[float] = 0.5
"""Container similarity at which a vision answer is in the recorded group."""
WINDOW_MARK: Final[str] = "@"
"""Row IDs of a vision hint window's table carry the window after this mark."""
LOOKALIKES_KEPT: Final[int] = 8
"""Look-alike boxes a reference keeps at most (:data:`resolver.models.MAX_ANCHORS`): with
fewer, the recorded list is every look-alike there was, and counting tells one is gone."""
_ROUNDING: Final[float] = 1e-9
"""Slack in the threshold and margin tests for floating-point rounding of the scores."""


@dataclass(frozen=True)
class Decision:
    """What one source concluded, with the rows it weighed (best first)."""

    status: Status
    reason: str
    candidates: tuple[Candidate, ...] = ()
    """The ranked rows as evidence; for ``accepted``, the first one is the answer."""
    runner_up: Candidate | None = None
    """The best row that is a different target from the first."""
    margin: float = 0.0

    @property
    def best(self) -> Candidate | None:
        """The top row, if any."""
        return self.candidates[0] if self.candidates else None


def same_target(table: CandidateTable, a: int, b: int, iou_min: float) -> bool:
    """Nested rows that are one click target: a button and its label text, a list item and
    its only link. Clicking the inner one activates the outer one."""
    if table.executor_ids[a] == table.executor_ids[b]:
        return True
    if not (table.is_ancestor(a, b) or table.is_ancestor(b, a)):
        return False
    names = table.names_norm
    if not names[a] or not names[b] or names[a] == names[b]:
        return True
    box_a, box_b = table.box(a), table.box(b)
    return box_a is not None and box_b is not None and iou_one(box_a, box_b) >= iou_min


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


def verify_selector(
    ref: SemanticElementRef, table: CandidateTable, config: MatchConfig, scored: Scored
) -> tuple[int, float, str, str] | None:
    """A recorded css/xpath that still selects exactly one row, whose role and name agree
    with the ref, and which the semantic evidence does not contradict: it clears the
    threshold and no other row beats it by the margin (an ``nth-of-type`` selector may now
    point at a sibling that took the old place). Returns ``(row, score, executor_id,
    reason)``.

    A table that cannot run selectors but knows each row's element (an accessibility tree
    linked to the DOM: an ``xpath`` column) verifies a recorded xpath too, by equality, only
    when the row it selects is already the best or trails it by place alone
    (:func:`_best_or_place_only_lead`: the xpath breaks a tie and outweighs a page shift, it does
    not overturn other evidence), and for a reference that recorded look-alikes only while
    the page has as many of them as were recorded (:func:`_lookalikes_in_place`).

    With a look-alike gone or added, a selected row away from the target's place
    (:func:`_namesake_elsewhere`) or linking elsewhere than the recorded link
    (:func:`_other_link`) may be a look-alike in the target's slot, and is left to the
    matcher. So is a selected row without the recorded name that bears none of the recorded
    classes or lies away from the target's place (:func:`_slid_sibling`), a sibling that slid
    into the slot."""
    in_place = _lookalikes_in_place(ref, table)
    run = table.selector_resolver
    tie_only = run is None
    if run is None and in_place:
        run = _xpath_column_resolver(table)
    if run is None:
        return None
    best = float(scored.scores[0]) if scored.scores.size else 0.0
    for kind, selector in (("css", ref.css_selector), ("xpath", ref.xpath)):
        if not selector:
            continue
        try:
            rows = list(run(kind, selector))
        except ResolutionError:
            continue
        if len(rows) != 1 or not _agrees(ref, table, rows[0], config):
            continue
        if _slid_sibling(ref, table, rows[0]):
            continue  # the matcher judges it
        if tie_only and not _best_or_place_only_lead(ref, table, scored, rows[0]):
            continue
        if not in_place and (
            _namesake_elsewhere(ref, table, scored, rows[0], config)
            or _other_link(ref, table, rows[0])
        ):
            continue
        score = float(score_rows(ref, table, config, np.asarray(rows))[0])
        if score < config.threshold or score < best - config.min_margin:
            continue
        executor = f"css:{selector}" if kind == "css" else table.executor_ids[rows[0]]
        reason = f"recorded {kind} selector still selects one element that agrees"
        return rows[0], score, executor, reason
    return None


def _slid_sibling(ref: SemanticElementRef, table: CandidateTable, row: int) -> bool:
    """Whether a selected ``row`` without the recorded name may be a sibling that slid into
    the target's ``nth-of-type`` slot rather than the target renamed: it is another kind of
    element (:func:`_other_kind`), or it is away from the target's place
    (:func:`_off_place`)."""
    if not ref.name or _bears_name(ref, table, row):
        return False
    return _other_kind(ref, table, row) or _off_place(ref, table, row)


def _off_place(ref: SemanticElementRef, table: CandidateTable, row: int) -> bool:
    """Whether ``row``'s box does not even overlap the recorded box moved by the page's shift
    (:func:`page_shift`), for a reference whose anchors give that shift (without them a
    banner pushing the page down would read as a move). The target renamed keeps its place;
    the next link that slid into its slot is where that link was. A recorded box of no area
    overlaps no other box, so such a row is left to the matcher as well (which weighs the
    box with the rest)."""
    if ref.bbox is None or not ref.anchors or not _same_space(ref, table):
        return False
    box = table.box(row)
    return box is not None and iou_one(box, moved_box(ref.bbox, page_shift(ref, table))) <= 0.0


def _other_kind(ref: SemanticElementRef, table: CandidateTable, row: int) -> bool:
    """Whether ``row`` is another kind of element than the target: it has stable classes,
    none of them recorded, while other rows still bear one (so the build did not rename
    them). A sibling that slid into the target's ``nth-of-type`` slot (the title link of a
    teaser whose image link went) reads so, as does a namesake built differently elsewhere
    on the page; the target renamed or moved keeps its classes."""
    recorded = stable_classes(ref.classes)
    if not recorded:
        return False
    by_token, counts = table.derived(WebIndex).classes
    if counts[row] == 0:
        return False
    kept = [by_token[token] for token in recorded if token in by_token]
    return bool(kept) and not any(row in rows for rows in kept)


def _other_link(ref: SemanticElementRef, table: CandidateTable, row: int) -> bool:
    """Whether ``row`` links elsewhere than the recorded link (another path, or another
    fragment of it)."""
    recorded = href_key(ref.href) if ref.href else None
    if recorded is None:
        return False
    hosts, paths, fragments = table.derived(WebIndex).hrefs
    if paths[row] is None:
        return False
    host_agrees = not recorded[0] or hosts[row] in ("", recorded[0])
    return not (host_agrees and paths[row] == recorded[1] and fragments[row] == recorded[2])


def _bears_name(ref: SemanticElementRef, table: CandidateTable, row: int) -> bool:
    """Whether ``row`` bears the recorded name exactly (as :meth:`TableIndex.namesakes
    <resolver.index.TableIndex.namesakes>` compares names: normalised, and a name of symbols
    alone as written)."""
    return bool(ref.name) and bool((index_of(table).namesakes(ref.name or "") == row).any())


def _other_kind_check(
    ref: SemanticElementRef, table: CandidateTable, scored: Scored, decision: Decision
) -> Decision:
    """An answer of another kind than the target (:func:`_other_kind`: none of the recorded
    classes, which other elements still bear) is not the target: the source abstains. One
    that the recorded xpath selects and that bears the recorded name (or the reference
    none) is the target restyled: it keeps its place and name, and new classes alone do not
    refuse it."""
    row = int(scored.rows[0])
    selected = decision.candidates[0].signals.get("id:xpath", 0.0) > 0.0
    if selected and (not ref.name or _bears_name(ref, table, row)):
        return decision
    if not _other_kind(ref, table, row):
        return decision
    why = (
        "the best bears none of the recorded classes, which other elements still bear: "
        "another kind of element"
    )
    return _overruled(decision, "not_found", why)


def _lost_class(ref: SemanticElementRef, table: CandidateTable, row: int) -> str | None:
    """A recorded stable class that ``row`` lacks while another row of the page still bears
    it (``None`` if there is none): the page kept that style, and the row is not dressed in
    it. Only where the table knows classes."""
    recorded = stable_classes(ref.classes)
    if not recorded or "class" not in table.platform_ids:
        return None
    by_token, _ = table.derived(WebIndex).classes
    lost = sorted(t for t in recorded if t in by_token and not (by_token[t] == row).any())
    return lost[0] if lost else None


ATTRIBUTE_COMPARED: Final[int] = 200
"""Characters of a normalised attribute value compared: a recorder caps long values (a
picture's ``alt``) before they are normalised, the table after, so the ends differ."""


def _lost_attribute(ref: SemanticElementRef, table: CandidateTable, row: int) -> str | None:
    """A recorded descriptive attribute (``title``, ``alt``, ``placeholder``, ``name``,
    ``type``) whose value ``row`` does not have, with another value or none (``None`` if it
    has them all). Only attributes the table knows."""
    query = WebQuery.build(ref)
    if query is None:
        return None
    index = table.derived(WebIndex)
    for name, value in query.attributes:
        if f"attr:{name}" not in table.platform_ids:
            continue
        seen = index.attribute(name)[row]
        if seen is None or seen[:ATTRIBUTE_COMPARED] != value[:ATTRIBUTE_COMPARED]:
            return name
    return None


def _dressed_otherwise_check(
    ref: SemanticElementRef,
    table: CandidateTable,
    scored: Scored,
    config: MatchConfig,
    decision: Decision,
) -> Decision:
    """An answer that the recorded xpath does not select, dressed otherwise than the
    target: it lacks a recorded class the page still uses (:func:`_lost_class`: a footer
    link without the header's ``nav-link``), or a recorded descriptive attribute's value
    (:func:`_lost_attribute`: another ``title`` on a link of the recorded text). It is
    another element bearing the target's name, and the source abstains. A target that moved
    keeps its classes and attributes; a build that renamed the classes left no row with the
    recorded one; a target restyled or renamed in place (a new ``alt`` with its new name)
    is still selected by its xpath."""
    if decision.candidates[0].signals.get("id:xpath", 1.0) > 0.0:
        return decision
    row = int(scored.rows[0])
    lost = _lost_class(ref, table, row)
    attribute = None if lost is not None else _lost_attribute(ref, table, row)
    if lost is not None:
        why = f"the best lacks the recorded class {lost!r}, which other elements still bear"
    elif attribute is not None:
        why = f"the best's {attribute} attribute is not the recorded one: another element"
    else:
        return decision
    return _overruled(decision, "not_found", why)


def _namesake_elsewhere(
    ref: SemanticElementRef, table: CandidateTable, scored: Scored, row: int, config: MatchConfig
) -> bool:
    """Whether ``row`` bears the recorded name and is not where the target was (unranked,
    or its box under ``stray_box`` after the page's shift): with a look-alike gone or added,
    a positional selector may select a look-alike that took the target's slot."""
    if not _bears_name(ref, table, row):
        return False
    at = np.flatnonzero(scored.rows == row)
    boxes = scored.signals.get("bbox")
    if not at.size:
        return True
    return boxes is not None and float(boxes[at[0]]) < config.stray_box


XPATH_NEARBY_SLACK: Final[float] = 0.26
"""How much less nearby-text agreement a row selected by the recorded xpath may have than
the best row and still take its place (one recorded text of four: a neighbour edited or
removed)."""


def _best_or_place_only_lead(
    ref: SemanticElementRef, table: CandidateTable, scored: Scored, row: int
) -> bool:
    """Whether ``row`` is the best row, or the best leads it by place alone: the best does
    not even overlap the recorded place either (the page moved under both, a banner or a
    block above pushed them down), and ``row`` agrees with the reference at least as well on every
    other signal (nearby text within :data:`XPATH_NEARBY_SLACK`). Then place says nothing
    about which is the target, and the row the recorded xpath selects is it."""
    at = np.flatnonzero(scored.rows == row)
    if at.size and at[0] == 0:
        return True
    if not at.size or ref.bbox is None or not _same_space(ref, table):
        return False
    best_box = table.box(int(scored.rows[0]))
    if best_box is None or iou_one(best_box, moved_box(ref.bbox, page_shift(ref, table))) > 0:
        return False
    j = int(at[0])
    for key, values in scored.signals.items():
        if key in ("bbox", "id:xpath"):
            continue
        slack = XPATH_NEARBY_SLACK if key == "web:nearby" else 0.0
        if float(values[j]) < float(values[0]) - slack:
            return False
    return True


def _lookalikes_in_place(ref: SemanticElementRef, table: CandidateTable) -> bool:
    """Whether the page has as many elements with the recorded role and name as were
    recorded (the target and each recorded look-alike; none recorded: the reference does not
    say). One gone or one added (a removed target, a duplicated label) moves the others'
    document places, so a recorded xpath may then select a look-alike in the target's slot."""
    if not ref.lookalikes:
        return True
    if len(ref.lookalikes) >= LOOKALIKES_KEPT:
        return False
    return _namesakes(ref, table) == len(ref.lookalikes) + 1


def _xpath_column_resolver(table: CandidateTable) -> Callable[[str, str], Sequence[int]] | None:
    """``(kind, selector) -> rows`` for a table with an ``xpath`` column and no selector
    engine: the rows whose xpath is the recorded one, compared in the column's form (a css
    selector selects nothing)."""
    if table.document_paths is None:
        return None
    column = index_of(table).id_column("xpath")

    def run(kind: str, selector: str) -> Sequence[int]:
        if kind != "xpath":
            return ()
        key = table.id_key("xpath", selector)
        return np.flatnonzero(column == key).tolist() if key else ()

    return run


def _agrees(ref: SemanticElementRef, table: CandidateTable, row: int, config: MatchConfig) -> bool:
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
    return similarity != NAME_TIERS["masked"] or _namesakes(ref, table) == 0


def decide(ref: SemanticElementRef, table: CandidateTable, config: MatchConfig) -> Decision:
    """Rank ``table``'s rows for ``ref`` and judge them (see the module docstring)."""
    step = _selected_or_rows(ref, table, config, score_table(ref, table, config))
    return _decisions(table, config, [step], [ref])[0]


def decide_many(
    refs: Sequence[SemanticElementRef], table: CandidateTable, config: MatchConfig
) -> list[Decision]:
    """:func:`decide` for every reference, ranked together (:func:`resolver.batch.score_many`).

    Parameters
    ----------
    refs:
        The references, in order.
    table:
        The one table they are judged against.
    config:
        One configuration for all of them.

    Returns
    -------
    list of Decision
        One per reference, in order, equal to what ``decide`` returns for it.
    """
    ranked = score_many(refs, table, config)
    steps = [_selected_or_rows(ref, table, config, s) for ref, s in zip(refs, ranked, strict=True)]
    return _decisions(table, config, steps, refs)


def _selected_or_rows(
    ref: SemanticElementRef, table: CandidateTable, config: MatchConfig, scored: Scored
) -> Decision | Scored:
    """The decision for a recorded selector that is verified, else the rows to judge."""
    verified = verify_selector(ref, table, config, scored)
    if verified is not None:
        return _selected(table, scored, verified)
    return prefer_control(table, scored, config)


def _decisions(
    table: CandidateTable,
    config: MatchConfig,
    steps: list[Decision | Scored],
    refs: Sequence[SemanticElementRef],
) -> list[Decision]:
    """Each step's decision: made already, or by judging its rows (whose candidates are
    all built in one pass)."""
    candidates = iter(Candidate.ranked_many(table, [s for s in steps if isinstance(s, Scored)]))
    out: list[Decision] = []
    for step, ref in zip(steps, refs, strict=True):
        if isinstance(step, Decision):
            out.append(_confident(step, config))
            continue
        decision = _judge(table, step, config, next(candidates))
        if decision.status == "not_found":
            decision = _sole_namesake(ref, table, step, config, decision)
        if decision.status == "accepted":
            decision = _survivor_checks(ref, table, step, config, decision)
        if decision.status == "accepted" and table.source == "vision":
            decision = _vision_group_check(ref, table, step, config, decision)
        if decision.status == "ambiguous":
            decision = _renamed_target(ref, table, decision)
        if decision.status == "ambiguous":
            decision = _renamed_in_its_slot(ref, table, decision)
        if decision.status == "ambiguous":
            decision = _path_tie(ref, table, step, config, decision)
        if decision.status == "ambiguous":
            decision = _renumbered_tie(ref, table, config, decision)
        out.append(_confident(decision, config))
    return out


def _survivor_checks(
    ref: SemanticElementRef,
    table: CandidateTable,
    step: Scored,
    config: MatchConfig,
    decision: Decision,
) -> Decision:
    """:data:`SURVIVOR_CHECKS` on an accepted answer, until one refuses or doubts it."""
    for check in SURVIVOR_CHECKS:
        if decision.status != "accepted":
            break
        decision = check(ref, table, step, config, decision)
    return decision


def _confident(decision: Decision, config: MatchConfig) -> Decision:
    """An accepted decision whose estimated probability of being right (from its score,
    margin and signals, :func:`confidence`, which ``Resolution.confidence`` reports) is under
    ``min_confidence`` is refused, however it was accepted: by threshold and margin, by a
    verified selector, or by a rule that took a renamed target or broke a tie."""
    if decision.status != "accepted" or config.min_confidence <= 0 or not decision.candidates:
        return decision
    best = decision.candidates[0]
    sure = confidence(best.score, decision.margin, best.signals)
    if sure >= config.min_confidence:
        return decision
    why = (
        f"its estimated probability {sure:.3f} of being right is below min_confidence "
        f"{config.min_confidence:.2f}"
    )
    return _overruled(decision, "not_found", why)


def _sole_namesake(
    ref: SemanticElementRef,
    table: CandidateTable,
    scored: Scored,
    config: MatchConfig,
    decision: Decision,
) -> Decision:
    """A best row under the threshold that is the reference's sole namesake: the reference
    recorded the page around it (anchors) and no look-alike, the row has its role and name
    exactly, no other row has both, and the row scores at least ``sole_threshold`` and
    leads by ``sole_margin``. A redesign moved it (box, containers, neighbours), but nothing
    else on the page could be it."""
    recorded_alone = ref.occurrence is None and not ref.lookalikes and bool(ref.anchors)
    if not recorded_alone or not ref.role or not ref.name:
        return decision
    if not decision.candidates or scored.rows.size == 0:
        return decision
    best = float(scored.scores[0])
    if best >= config.threshold - _ROUNDING:  # refused for another reason (min_confidence)
        return decision
    if best < config.sole_threshold or decision.margin < config.sole_margin:
        return decision
    signals = decision.candidates[0].signals
    if signals.get("name", 0.0) < 1.0 or signals.get("role", 0.0) < 1.0:
        return decision
    if _namesakes(ref, table) != 1:
        return decision
    reason = (
        f"score {best:.3f} is under the threshold, but the best is the only row with the "
        f"recorded role and name, and the reference recorded no look-alike (margin "
        f"{decision.margin:.3f})"
    )
    return replace(decision, status="accepted", reason=reason, margin=round(decision.margin, 4))


RENAMED_PLACE: Final[float] = 0.5
"""Box overlap (IoU, after the page's shift) at which a row is said to sit at a recorded
place: the target's, or a look-alike's. A renamed element grows or shrinks along its line,
so a row also sits at a place when the smaller of the two boxes lies at least
:data:`RENAMED_INSIDE` inside the larger and their heights agree within
:data:`RENAMED_HEIGHT`."""
RENAMED_INSIDE: Final[float] = 0.9
RENAMED_HEIGHT: Final[float] = 0.25


def _at_place(box: Box, place: Box) -> bool:
    """Whether ``box`` sits at the recorded ``place`` (see :data:`RENAMED_PLACE`)."""
    if iou_one(box, place) >= RENAMED_PLACE:
        return True
    heights = sorted((box[3] - box[1], place[3] - place[1]))
    if heights[1] <= 0 or heights[1] - heights[0] > RENAMED_HEIGHT * heights[1]:
        return False
    # The smaller box's share inside the larger is the larger of the two shares.
    return max(share_inside(box, place), share_inside(place, box)) >= RENAMED_INSIDE


RENAMED_NAME: Final[float] = 0.6
"""Name agreement from which a row at the target's place is the target renamed a little."""


def _renamed_target(ref: SemanticElementRef, table: CandidateTable, decision: Decision) -> Decision:
    """Ambiguous between two rows, one with the recorded name exactly, sitting where a
    recorded look-alike was and not where the target was, and one sitting where the target
    was, with its role and a name that agrees less (a word added or removed, a number
    changed): the target was renamed and its look-alike kept the name. When exactly as many
    rows bear the recorded name as look-alikes were recorded (the target no longer does),
    the row at the target's place is the answer; when fewer do (other look-alikes were
    renamed too), only if the recorded xpath still selects it."""
    if not ref.lookalikes or len(ref.lookalikes) >= LOOKALIKES_KEPT or ref.bbox is None:
        return decision
    if not ref.name or not _same_space(ref, table):
        return decision
    shift = page_shift(ref, table)
    target = moved_box(ref.bbox, shift)
    twins = [moved_box(b, shift) for b in ref.lookalikes]

    def at_target(c: Candidate) -> bool:
        assert c.bbox is not None
        return _at_place(c.bbox, target)

    def at_twin(c: Candidate) -> bool:
        assert c.bbox is not None
        return any(_at_place(c.bbox, b) for b in twins)

    def renamed(c: Candidate) -> bool:
        name, role = c.signals.get("name", 0.0), c.signals.get("role", 0.0)
        return RENAMED_NAME <= name < 1.0 and role >= 1.0

    def namesake(c: Candidate) -> bool:
        return c.signals.get("name", 0.0) >= 1.0

    pair = _kept_over(
        decision,
        lambda kept, other: (
            namesake(other) and at_twin(other) and not at_target(other)
            and renamed(kept) and at_target(kept) and not at_twin(kept)
        ),
    )  # fmt: skip
    if pair is None:
        return decision
    kept, other = pair
    count = _namesakes(ref, table)
    if count > len(ref.lookalikes) or (
        count < len(ref.lookalikes) and not _selected_by_xpath(ref, table, kept.id)
    ):
        return decision
    reason = (
        f"{decision.reason}; but {other.name!r} sits where a recorded look-alike was and "
        f"{kept.name!r} where the target was: the target was renamed"
    )
    return _taken(decision, kept, other, reason)


def _kept_over(
    decision: Decision, fits: Callable[[Candidate, Candidate], bool]
) -> tuple[Candidate, Candidate] | None:
    """``(kept, other)``: the best and its runner-up, in the order ``fits`` accepts (tried
    both ways), or None. Both must have a box."""
    best, rival = decision.best, decision.runner_up
    if best is None or rival is None or best.bbox is None or rival.bbox is None:
        return None
    for kept, other in ((best, rival), (rival, best)):
        if fits(kept, other):
            return kept, other
    return None


def _overruled(decision: Decision, status: Status, why: str) -> Decision:
    """``decision`` turned to ``status`` by a later rule, its reason saying ``why``."""
    return replace(decision, status=status, reason=f"{decision.reason}, but {why}")


def _taken(decision: Decision, kept: Candidate, other: Candidate, reason: str) -> Decision:
    """``decision`` accepted for ``kept`` over ``other`` (its runner-up), the rest after."""
    ranked = (kept, other, *(c for c in decision.candidates if c is not kept and c is not other))
    margin = round(kept.score - other.score, 4)
    return replace(decision, status="accepted", reason=reason, candidates=ranked,
                   runner_up=other, margin=margin)  # fmt: skip


def _stray_check(
    ref: SemanticElementRef,
    table: CandidateTable,
    scored: Scored,
    config: MatchConfig,
    decision: Decision,
) -> Decision:
    """An answer that is not where the target was (box under ``stray_box``), not among its
    recorded neighbours (nearby texts at most ``stray_nearby``) and not at its place in the
    document (the tags of the recorded xpath, positions ignored, agreeing under
    ``stray_path`` with the row's) has only its name and role for it: it may be a look-alike
    left by a removed target, and the source abstains. Each of the three must be known, and
    an answer in the recorded innermost named container has that for it too (exempt)."""
    signals = decision.candidates[0].signals
    box, nearby = signals.get("bbox"), signals.get("web:nearby")
    xpaths = table.document_paths
    if box is None or nearby is None or not ref.xpath or xpaths is None:
        return decision
    if box >= config.stray_box or nearby > config.stray_nearby:
        return decision
    row = int(scored.rows[0])
    xpath = xpaths[row]
    if not xpath or _same_inner_container(ref, table.containers[row]):
        return decision
    path = _tag_path_similarity(ref.xpath, xpath)
    if path >= config.stray_path:
        return decision
    why = (
        f"the best is not where the target was (box {box:.2f}), not "
        f"among its recorded neighbours (nearby {nearby:.2f}) and not at its place in the "
        f"document (tag path {path:.2f}): perhaps a look-alike left by a removed target"
    )
    return _overruled(decision, "not_found", why)


SCREEN_HEIGHT: Final[float] = 800.0
"""Screen height (px) assumed for a table that does not give its own."""


PATH_TIE: Final[float] = 0.1
"""Lead in document-place agreement (:func:`_path_similarity`) with which the best of tied
rows is taken ..."""
PATH_TIE_LEAD: Final[float] = 0.02
"""... when its score leads too, by this much at least: the path confirms a lean, it does
not decide a dead heat (sorted table rows, whose paths trade places)."""


def _path_similarity(recorded: str, xpath: str) -> float:
    """How alike two xpaths are, step by step (tag and position; difflib's ratio): a sibling
    inserted above a level renumbers that one step and leaves the rest."""
    return SequenceMatcher(None, _steps(recorded), _steps(xpath), autojunk=False).ratio()


def _path_tie(
    ref: SemanticElementRef,
    table: CandidateTable,
    scored: Scored,
    config: MatchConfig,
    decision: Decision,
) -> Decision:
    """Ambiguous for want of a margin, with the best over the threshold (another rule's
    doubt is not second-guessed): when the best's place in the document agrees with the
    recorded xpath by :data:`PATH_TIE` more than every other ranked row's (a banner
    renumbered one level of every path, and the twins differ below it), the best is taken,
    unless it has another link than the recorded one. Only the best: the path breaks a tie,
    it does not overturn the ranking."""
    xpaths = table.document_paths
    if not ref.xpath or xpaths is None or not scored.rows.size:
        return decision
    if not PATH_TIE_LEAD <= decision.margin < config.min_margin:
        return decision
    if not _lookalikes_in_place(ref, table):
        return decision
    first = int(scored.rows[0])
    best_score = float(scored.scores[0])
    if best_score < config.threshold or not xpaths[first]:
        return decision
    if decision.candidates[0].signals.get("web:href", 1.0) <= 0.0:
        return decision  # the recorded link is not the best's: no tie to break
    mine = _path_similarity(ref.xpath, str(xpaths[first]))
    rival = 0.0
    for j in range(1, scored.rows.size):
        row = int(scored.rows[j])
        if same_target(table, first, row, config.same_target_iou):
            continue
        rival = max(rival, _path_similarity(ref.xpath, str(xpaths[row] or "")))
    if mine - rival < PATH_TIE:
        return decision
    reason = (
        f"{decision.reason}; but the best's place in the document agrees with the recorded "
        f"xpath better ({mine:.2f} against {rival:.2f})"
    )
    return replace(decision, status="accepted", reason=reason)


def _renumbered_tie(
    ref: SemanticElementRef, table: CandidateTable, config: MatchConfig, decision: Decision
) -> Decision:
    """Ambiguous for want of a margin, the best over the threshold: when the recorded xpath
    selects no row of the recorded role and name, and exactly one such row has the recorded
    xpath with one step's position changed (a banner or a block inserted above renumbered
    one level for everything under it; a look-alike elsewhere differs in more steps, and
    look-alikes in one list, each a step apart, make more than one), that row is taken if
    it is tied with the best (within the margin) and agrees with the reference as well on
    everything but place. Not for a reference whose recorded look-alikes are not all there
    (their rules decide), nor for one without a box: its tie is a want of evidence, where a
    table's sorted rows trade places and a path names a row's slot, not the row."""
    best, xpaths = decision.best, table.document_paths
    if best is None or xpaths is None or not ref.xpath or not ref.name or ref.bbox is None:
        return decision
    if best.score < config.threshold or decision.margin >= config.min_margin:
        return decision
    if not _lookalikes_in_place(ref, table):
        return decision
    code = role_code(canonical_role(ref.role)) if ref.role else None
    if any(code is None or table.role_codes[r] == code for r in _xpath_rows(ref, table) or ()):
        return decision
    namesakes = _namesake_rows(ref, table)
    recorded = _indexed_steps(ref.xpath)
    renumbered = [r for r in namesakes if _one_step_apart(recorded, xpaths[r])]
    if len(renumbered) != 1 or _sibling_at_renumbered_step(
        recorded, xpaths, namesakes, renumbered[0]
    ):
        return decision
    kept = next((c for c in decision.candidates if c.id == table.ids[renumbered[0]]), None)
    if kept is None or kept.score < best.score - config.min_margin:
        return decision
    for key, value in best.signals.items():
        slack = XPATH_NEARBY_SLACK if key == "web:nearby" else _ROUNDING
        if key not in ("bbox", "id:xpath") and kept.signals.get(key, 0.0) < value - slack:
            return decision
    other = decision.runner_up if kept is best else best
    if other is None:
        return decision
    reason = (
        f"{decision.reason}; but {kept.id!r} is the one element of the recorded role and name "
        "under the recorded xpath with one step renumbered (a level above it shifted)"
    )
    return _taken(decision, kept, other, reason)


def _sibling_at_renumbered_step(
    recorded: list[str], xpaths: Sequence[str | None], namesakes: list[int], row: int
) -> bool:
    """Whether another namesake sits under the same steps as ``row`` down to the step that
    was renumbered, and at another position there: look-alikes in sibling list items or
    sections, among which a renumbered step does not tell the target."""
    steps = _indexed_steps(str(xpaths[row]))
    level = next(k for k, (a, b) in enumerate(zip(recorded, steps, strict=True)) if a != b)
    for other in namesakes:
        path = _indexed_steps(str(xpaths[other] or ""))
        if other == row or len(path) <= level or path[:level] != steps[:level]:
            continue
        if path[level] != steps[level]:
            return True
    return False


def _namesake_rows(ref: SemanticElementRef, table: CandidateTable) -> list[int]:
    """The rows with the ref's name and role; for a reference without a name, the rows of
    its role without one."""
    if not (ref.name or "").strip():
        if not ref.role:
            return []
        return [int(r) for r in index_of(table).unnamed(role_code(canonical_role(ref.role)))]
    rows = index_of(table).namesakes(ref.name or "")
    if ref.role:
        rows = rows[table.role_codes[rows] == role_code(canonical_role(ref.role))]
    return [int(r) for r in rows]


def _indexed_steps(xpath: str) -> list[str]:
    """An xpath's steps with every position explicit (``div`` is ``div[1]``)."""
    return [step if step.endswith("]") else f"{step}[1]" for step in _steps(xpath)]


def _one_step_apart(recorded: list[str], xpath: str | None) -> bool:
    """Whether ``xpath`` is ``recorded`` (:func:`_indexed_steps`) with one step's position,
    and nothing else, changed."""
    if not xpath:
        return False
    steps = _indexed_steps(xpath)
    if len(steps) != len(recorded):
        return False
    apart = [(a, b) for a, b in zip(recorded, steps, strict=True) if a != b]
    return len(apart) == 1 and apart[0][0].split("[", 1)[0] == apart[0][1].split("[", 1)[0]


def _renamed_in_its_slot(
    ref: SemanticElementRef, table: CandidateTable, decision: Decision
) -> Decision:
    """For a reference that recorded nothing of its look-alikes: ambiguous between a row with
    the recorded name exactly, not at the target's place, and a row of the recorded role
    with a word or so changed (:data:`RENAMED_NAME` up; not only a number, which tells
    "Image 1" from "Image 2" when they trade places) that sits at the target's place
    (after the page's shift) and that the recorded xpath still selects. The target was
    renamed where it stood; the other row is a namesake elsewhere."""
    if ref.lookalikes or ref.occurrence is not None or ref.bbox is None or not ref.name:
        return decision
    if not ref.xpath or not _same_space(ref, table):
        return decision
    target = moved_box(ref.bbox, page_shift(ref, table))

    def fits(kept: Candidate, other: Candidate) -> bool:
        assert kept.bbox is not None
        assert other.bbox is not None
        name, role = kept.signals.get("name", 0.0), kept.signals.get("role", 0.0)
        return (
            other.signals.get("name", 0.0) >= 1.0 and not _at_place(other.bbox, target)
            and RENAMED_NAME <= name < NAME_TIERS["masked"] and role >= 1.0
            and _at_place(kept.bbox, target)
            and _selected_by_xpath(ref, table, kept.id)
        )  # fmt: skip

    pair = _kept_over(decision, fits)
    if pair is None:
        return decision
    kept, other = pair
    reason = (
        f"{decision.reason}; but {kept.name!r} sits at the target's place and under its "
        f"recorded xpath, and {other.name!r} elsewhere: the target was renamed"
    )
    return _taken(decision, kept, other, reason)


def _xpath_rows(ref: SemanticElementRef, table: CandidateTable) -> list[int] | None:
    """The rows whose ``xpath`` is the recorded one (in the column's form), or None when the
    reference recorded no xpath or the table has no such column."""
    run = _xpath_column_resolver(table) if ref.xpath else None
    return None if run is None or not ref.xpath else list(run("xpath", ref.xpath))


def _selected_by_xpath(ref: SemanticElementRef, table: CandidateTable, row_id: str) -> bool:
    """Whether the recorded xpath selects exactly the row ``row_id``."""
    rows = _xpath_rows(ref, table)
    return rows is not None and len(rows) == 1 and table.ids[rows[0]] == row_id


def _left_behind_check(
    ref: SemanticElementRef,
    table: CandidateTable,
    scored: Scored,
    config: MatchConfig,
    decision: Decision,
) -> Decision:
    """The target went and left its neighbours behind: a recorded nearby text that is unique
    on the page still lies within ``left_near`` screen heights of where the target was (after
    the page's shift), the recorded xpath selects nothing, and the answer lies farther than
    ``left_far`` screen heights from every such neighbour. The answer shares the name but
    not the place (a footer link of the header's name), and the source abstains. A target
    moved away with its neighbours takes them along; one moved alone leaves its xpath to
    the element that took its slot."""
    if not ref.nearby_text or ref.bbox is None or not ref.xpath or not _same_space(ref, table):
        return decision
    if table.document_paths is None:
        return decision
    box = table.box(int(scored.rows[0]))
    if box is None:
        return decision
    places = table.derived(NearbyIndex)
    neighbours = []
    for text in ref.nearby_text:
        at = places.positions.get(nearby_key(text))
        if at is not None and at.size == 1:
            found = table.box(int(places.seq[int(at[0])]))
            if found is not None:
                neighbours.append(found)
    if not neighbours:
        return decision
    height = table.screen_size[1] if table.screen_size else SCREEN_HEIGHT
    target = moved_box(ref.bbox, page_shift(ref, table))
    stayed = min(box_gap(target, n) for n in neighbours)
    away = min(box_gap(box, n) for n in neighbours)
    if stayed > config.left_near * height or away <= config.left_far * height:
        return decision
    if _xpath_rows(ref, table):
        return decision
    why = (
        f"the target's recorded neighbours are still where it was "
        f"({stayed:.0f} px from its place), its xpath selects nothing, and the best is "
        f"{away:.0f} px from all of them: the target is gone from its place"
    )
    return _overruled(decision, "not_found", why)


def _slot_kept_check(
    ref: SemanticElementRef,
    table: CandidateTable,
    scored: Scored,
    config: MatchConfig,
    decision: Decision,
) -> Decision:
    """The target's neighbourhood stayed without it. The answer has every recorded nearby
    text next to it, its box agrees under ``stray_box``, it lies more than ``left_near``
    screen heights from where the target was (after the page's shift), and the recorded
    xpath does not select it; yet all but one of the recorded nearby texts the page still
    has (two at least) have another copy, not among the answer's neighbours, near where the
    target was (within ``left_near`` screen heights and a third of the answer's distance).
    The page holds that neighbourhood twice and the answer is in the other copy: the
    footer's "Demos" among the footer's copies of the header's links, after the header's
    "Demos" was removed. The source abstains. A target moved with its neighbours has them
    next to it and no second copy at home; one moved alone (a reordered heading) leaves
    them behind, but then it does not have them next to it. Every row of a table repeats
    texts such as "Edit" and "Active", so an answer in the table row the reference recorded
    as its innermost container is exempt (:func:`_own_table_row`)."""
    if len(ref.nearby_text) < 2 or ref.bbox is None or not _same_space(ref, table):
        return decision
    signals = decision.candidates[0].signals
    if signals.get("web:nearby", 0.0) < 1.0 - _ROUNDING:
        return decision
    if signals.get("bbox", 1.0) >= config.stray_box:
        return decision
    row = int(scored.rows[0])
    box = table.box(row)
    if box is None or table.document_paths is None or signals.get("id:xpath", 0.0) > 0.0:
        return decision
    if _own_table_row(ref, table, row):
        return decision
    height = table.screen_size[1] if table.screen_size else SCREEN_HEIGHT
    target = moved_box(ref.bbox, page_shift(ref, table))
    away = box_gap(target, box)
    if away <= config.left_near * height:
        return decision
    near = min(config.left_near * height, away / 3.0)
    home, found = _copies_at(ref, table, row, (target, near), config.nearby_window)
    if home < 2 or home < found - 1:
        return decision
    why = (
        f"{home} of the {found} recorded neighbours still on the page have a copy where the "
        f"target was, apart from the best's, which lies {away:.0f} px away and is not what "
        "the recorded xpath selects: the neighbourhood stayed without the target"
    )
    return _overruled(decision, "not_found", why)


def _copies_at(
    ref: SemanticElementRef,
    table: CandidateTable,
    row: int,
    around: tuple[Box, float],
    window: int,
) -> tuple[int, int]:
    """How many of the ref's nearby texts have a copy within ``around`` (a place and a
    distance in px) that is not one of ``row``'s own neighbours (within ``window`` texts of
    it), and how many the page has at all."""
    place, near = around
    places = table.derived(NearbyIndex)
    answer_at = int(places.position[row])
    found = home = 0
    for key in dict.fromkeys(nearby_key(t) for t in ref.nearby_text):
        at = places.positions.get(key)
        if at is None:
            continue
        found += 1
        copies = at[np.abs(at - answer_at) > window]
        home += bool(np.any(box_gaps(table.bboxes[places.seq[copies]], place) <= near))
    return home, found


LANDMARK_TAGS: Final[frozenset[str]] = frozenset(
    {"header", "footer", "nav", "aside", "main", "form", "search"}
)
"""HTML elements that make a region of the page (banner, content info, navigation,
complementary, main, form, search landmarks)."""


def _other_region_check(
    ref: SemanticElementRef,
    table: CandidateTable,
    scored: Scored,
    config: MatchConfig,
    decision: Decision,
) -> Decision:
    """An answer in another region of the page: the landmark elements on its document path
    (:data:`LANDMARK_TAGS`, in order) are not those on the recorded xpath's (a footer's
    navigation for a header's), the recorded xpath does not select it, and its box agrees
    under ``stray_box``, while the recorded region (the innermost landmark element on the
    recorded xpath) is still on the page. Sites repeat links and controls across regions (a
    logo link, a search box, a social link in header and footer), so the namesake in the
    other region is as likely as the target moved there, and the source abstains. A block
    moved within its region keeps the region's landmarks; a redesign that moved the footer's
    links into a navigation bar took the footer away."""
    signals = decision.candidates[0].signals
    if signals.get("id:xpath", 1.0) > 0.0 or signals.get("bbox", 1.0) >= config.stray_box:
        return decision
    xpaths = table.document_paths
    if not ref.xpath or xpaths is None:
        return decision
    answer = xpaths[int(scored.rows[0])]
    if not answer:
        return decision
    recorded, found = _landmarks(ref.xpath), _landmarks(str(answer))
    if not recorded or recorded == found or not _region_kept(ref.xpath, table):
        return decision
    why = (
        f"the best lies in another region of the page ({'/'.join(found) or 'none'} for the "
        f"recorded {'/'.join(recorded) or 'none'}), away from the recorded place and not "
        "under the recorded xpath: a namesake the page repeats there is as likely"
    )
    return _overruled(decision, "not_found", why)


FAR_STEPS: Final[int] = 3
"""Steps of the recorded xpath at which an answer's place in the document must differ, all
renumbered or all retagged, for :func:`_far_in_document_check` to refuse it."""


def _far_in_document_check(
    ref: SemanticElementRef,
    table: CandidateTable,
    scored: Scored,
    config: MatchConfig,
    decision: Decision,
) -> Decision:
    """An answer whose place in the document differs from the recorded xpath at
    :data:`FAR_STEPS` steps or more, their tags aligned: steps at another position, or,
    while the element that held the target is still on the page, steps of another tag. A
    target that moved keeps most of its path: a sibling inserted or removed before it, a
    banner at the top of the page or its block reordered each renumber one step, a wrapper
    added or removed adds or drops a level. An answer three steps apart lies in another
    branch of the page (the sidebar's copy of a link of the article, after the article's
    was removed), and only what it shares with every copy speaks for it: the source
    abstains. A redesign that rebuilt the branch (a table turned into rows of ``div``, a
    footer into a navigation bar) took the target's parent with it, and then other tags say
    nothing. Only for an answer more than ``left_near`` screen heights from where the target
    was (after the page's shift): wrappers added around earlier siblings renumber steps of
    a target that stays in its place. Not for an answer the recorded xpath selects."""
    xpaths = table.document_paths
    if not ref.xpath or xpaths is None or not ref.xpath.startswith("/"):
        return decision
    if decision.candidates[0].signals.get("id:xpath", 1.0) > 0.0:
        return decision
    row = int(scored.rows[0])
    answer, box = xpaths[row], table.box(row)
    if not answer or box is None or ref.bbox is None or not _same_space(ref, table):
        return decision
    height = table.screen_size[1] if table.screen_size else SCREEN_HEIGHT
    if box_gap(moved_box(ref.bbox, page_shift(ref, table)), box) <= config.left_near * height:
        return decision
    replaced, renumbered = _path_changes(ref.xpath, str(answer))
    if renumbered < FAR_STEPS and (replaced < FAR_STEPS or not _parent_kept(ref.xpath, table)):
        return decision
    why = (
        f"the best's place in the document differs from the recorded xpath at "
        f"{renumbered} positions and {replaced} tags: it lies in another part of the page, "
        "perhaps a look-alike left by a removed target"
    )
    return _overruled(decision, "not_found", why)


def _parent_kept(xpath: str, table: CandidateTable) -> bool:
    """Whether the element that held the one at ``xpath`` is still on the page: a row has its
    xpath, or one under it."""
    parent = table.id_key("xpath", "/" + "/".join(_steps(xpath)[:-1]))
    below = parent + "/"
    column = index_of(table).id_column("xpath")
    return any(path and (path == parent or path.startswith(below)) for path in column)


def _path_changes(recorded: str, xpath: str) -> tuple[int, int]:
    """``(retagged, renumbered)``: with the two xpaths' tags aligned (difflib), how many
    steps have another tag, and how many the same tag at another position. Levels added or
    removed (a wrapper) count in neither."""
    old, new = _indexed_steps(recorded), _indexed_steps(xpath)
    tags_old = [step.split("[", 1)[0] for step in old]
    tags_new = [step.split("[", 1)[0] for step in new]
    replaced = renumbered = 0
    matcher = SequenceMatcher(None, tags_old, tags_new, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            renumbered += sum(old[i1 + k] != new[j1 + k] for k in range(i2 - i1))
        elif op == "replace":
            replaced += max(i2 - i1, j2 - j1)
    return replaced, renumbered


def _region_kept(xpath: str, table: CandidateTable) -> bool:
    """Whether the innermost landmark element on ``xpath`` is still on the page (a row has
    its xpath)."""
    steps = _steps(xpath)
    last = max(i for i, step in enumerate(steps) if step.split("[", 1)[0] in LANDMARK_TAGS)
    run = _xpath_column_resolver(table)
    return run is not None and bool(run("xpath", "/" + "/".join(steps[: last + 1])))


def _landmarks(xpath: str) -> list[str]:
    """The landmark elements (:data:`LANDMARK_TAGS`) on an xpath, outermost first."""
    return [tag for tag in _tags(xpath) if tag in LANDMARK_TAGS]


def _changed_and_moved_check(
    ref: SemanticElementRef,
    table: CandidateTable,
    scored: Scored,
    config: MatchConfig,
    decision: Decision,
) -> Decision:
    """An answer whose role differs from the recorded one, or whose name differs by more
    than its numbers (a counter, a date), and which the recorded xpath does not select,
    must not disagree on two of the rest of its place: the recorded nearby texts next to
    it, the recorded link, its box (``changed_box``). Renamed and moved both, it is as
    likely another element sharing a word with the target (a shorter "All replies" in
    another section for a removed "View all 146 replies"), and the source abstains. One
    of the three may change with a rename (a redesign moves a button it renames). An answer
    of another role that links somewhere, where the reference (from a table that records
    links) recorded none, disagrees on its link (:func:`_gained_link`: a "Log In" link for
    a removed "Log In" button)."""
    signals = decision.candidates[0].signals
    if signals.get("id:xpath", 1.0) > 0.0 or table.document_paths is None:
        return decision
    name, role = signals.get("name", 1.0), signals.get("role", 1.0)
    if name >= NAME_TIERS["masked"] - _ROUNDING and role >= 1.0 - _ROUNDING:
        return decision
    link = signals.get("web:href", 1.0)
    if role < 1.0 - _ROUNDING and _gained_link(ref, table, int(scored.rows[0])):
        link = 0.0  # a control recorded without a link became one that links somewhere
    moved = [
        what
        for what, value, floor in (
            ("nearby", signals.get("web:nearby", 1.0), 1.0),
            ("link", link, 1.0),
            ("box", signals.get("bbox", 1.0), config.changed_box),
        )
        if value < floor - _ROUNDING
    ]
    if len(moved) < 2:
        return decision
    why = (
        f"the best differs from the reference in name ({name:.2f}) or role ({role:.2f}), the "
        f"recorded xpath does not select it, and its {' and '.join(moved)} disagree: another "
        "element sharing a word is as likely as the target changed"
    )
    return _overruled(decision, "not_found", why)


def _gained_link(ref: SemanticElementRef, table: CandidateTable, row: int) -> bool:
    """Whether ``row`` links somewhere while the reference, from a table that records links,
    recorded none (a button, where a link of its name now is)."""
    if ref.href is not None or "href" not in table.platform_ids:
        return False
    return table.derived(WebIndex).hrefs[1][row] is not None


def _name_only_check(
    ref: SemanticElementRef,
    table: CandidateTable,
    scored: Scored,
    config: MatchConfig,
    decision: Decision,
) -> Decision:
    """An answer that bears the recorded name but agrees on nothing of the target's place
    (the recorded xpath does not select it, and its nearby texts, its link and its box,
    under ``changed_box``, all differ) is a namesake elsewhere: a footer's copy of a
    header link, a look-alike left by a removed target. Each of the four must be known. A
    link to the same anchor of its page (``#contact``) agrees even where the page's own
    address changed (a capture saved elsewhere, a staging host)."""
    best = decision.best
    if best is None:
        return decision
    signals = best.signals
    if signals.get("name", 0.0) < NAME_TIERS["normalized"] - _ROUNDING:
        return decision
    place = [signals.get(k, 1.0) for k in ("id:xpath", "web:nearby", "web:href", "bbox")]
    if place[0] > 0.0 or place[1] >= 1.0 - _ROUNDING or place[2] >= 1.0 - _ROUNDING:
        return decision
    if place[3] >= config.changed_box or _same_anchor(ref, table, int(scored.rows[0])):
        return decision
    why = (
        f"only its name agrees: the recorded xpath does not select it, and its neighbours "
        f"({place[1]:.2f}), link ({place[2]:.2f}) and box ({place[3]:.2f}) differ: a namesake "
        "elsewhere"
    )
    return _overruled(decision, "not_found", why)


def _same_anchor(ref: SemanticElementRef, table: CandidateTable, row: int) -> bool:
    """Whether the row links to the recorded link's fragment (``#contact``), a non-empty
    one."""
    recorded = href_key(ref.href) if ref.href else None
    if recorded is None or not recorded[2]:
        return False
    return bool(table.derived(WebIndex).hrefs[2][row] == recorded[2])


def _numbered_series_check(
    ref: SemanticElementRef, table: CandidateTable, scored: Scored, decision: Decision
) -> Decision:
    """An answer whose name is the recorded one with other numbers, which the recorded
    xpath does not select, while another element of its role shares that pattern (a
    numbered series: footnotes "22", "23", "24", "status code 400" and "500"): the numbers
    name the members, and the answer is another member rather than the target renumbered.
    A counter ("Inbox (3)" become "Inbox (12)") has no second member."""
    best = decision.best
    if best is None or not ref.name or table.document_paths is None:
        return decision
    signals = best.signals
    if signals.get("id:xpath", 1.0) > 0.0:
        return decision
    if abs(signals.get("name", 0.0) - NAME_TIERS["masked"]) > _ROUNDING:
        return decision
    row = int(scored.rows[0])
    members = index_of(table).lookup("mask", table.names_mask[row])
    members = members[table.role_codes[members] == table.role_codes[row]]
    if members.size < 2:
        return decision
    why = (
        f"{best.name!r} differs from the recorded name in its numbers only, the recorded "
        f"xpath does not select it, and {members.size} elements of its role follow that "
        "pattern: another member of a numbered series"
    )
    return _overruled(decision, "not_found", why)


def _shrunk_group_check(
    ref: SemanticElementRef, table: CandidateTable, decision: Decision
) -> Decision:
    """Fewer elements bear the recorded role and name than the reference recorded (the
    target and its look-alikes: one is gone, perhaps the target), and the best is in
    another container than the recorded one, which the recorded xpath does not select: a
    namesake elsewhere, as likely left by a removed target as the target moved. An answer
    in the recorded innermost container is exempt, as in :func:`_lookalike_place_check`."""
    best = decision.best
    if best is None or not ref.lookalikes or len(ref.lookalikes) >= LOOKALIKES_KEPT:
        return decision
    signals = best.signals
    if signals.get("container", 1.0) >= 1.0 - _ROUNDING or signals.get("id:xpath", 0.0) > 0.0:
        return decision
    if _same_inner_container(ref, best.container_path):
        return decision
    if _namesakes(ref, table) >= len(ref.lookalikes) + 1:
        return decision
    why = (
        f"{len(ref.lookalikes) + 1} elements bore the recorded role and name and fewer do "
        f"now, and the best is in another container (container {signals['container']:.2f}) "
        "where the recorded xpath does not lead: perhaps a look-alike left by the target"
    )
    return _overruled(decision, "not_found", why)


def _unnamed_check(
    ref: SemanticElementRef, table: CandidateTable, config: MatchConfig, decision: Decision
) -> Decision:
    """A reference without a name is told by its role, its link and its place: an answer
    which the recorded xpath does not select is another element when it has another role
    (a named field for an unnamed one) or address, or when it is neither where the target
    was (box under ``stray_box``) nor among its recorded neighbours (nearby texts at most
    ``stray_nearby``): without a name, nothing else speaks for it. Nor, for an unnamed
    answer, when the page does not show that its recorded look-alikes (the other unnamed
    elements of its role) are all still there: one went, perhaps the target, and the next
    blank field slides into its place. (On a page that names its fields, where the answer
    has a name, that count says nothing.)"""
    best = decision.best
    if best is None or ref.name:
        return decision
    signals = best.signals
    if signals.get("id:xpath", 0.0) > 0.0:
        return decision
    role, link = signals.get("role", 1.0), signals.get("web:href", 1.0)
    box, nearby = signals.get("bbox", 1.0), signals.get("web:nearby", 1.0)
    if role < 1.0 - _ROUNDING or link < 1.0 - _ROUNDING:
        why = f"the best differs in role ({role:.2f}) or link ({link:.2f})"
    elif box < config.stray_box and nearby <= config.stray_nearby:
        why = f"the best is neither where it was (box {box:.2f}) nor by its neighbours"
    elif not (best.name or "").strip() and not _lookalikes_in_place(ref, table):
        why = (
            f"the page does not show its {len(ref.lookalikes)} recorded look-alikes all still "
            "there (one may be gone, the next in the target's place)"
        )
    else:
        return decision
    return _overruled(
        decision,
        "not_found",
        f"the reference has no name, {why}, and the recorded xpath does not lead there",
    )


def _torn_check(
    ref: SemanticElementRef,
    table: CandidateTable,
    scored: Scored,
    config: MatchConfig,
    decision: Decision,
) -> Decision:
    """Torn between the best and the row the recorded xpath selects (another target of the
    best's role). The best must lead it by ``torn_margin`` when that row bears the recorded
    name (a look-alike in the target's place in the document, or the target itself, moved
    on screen), or when it bears the recorded name changed a little (:data:`RENAMED_NAME`
    up) and sits at the recorded place (after the page's shift) where the best does not
    (the target renamed, as likely as the best is a namesake elsewhere)."""
    if decision.margin >= config.torn_margin or not ref.xpath or not ref.name:
        return decision
    if ref.bbox is None or not _same_space(ref, table):
        return decision
    rows = _xpath_rows(ref, table)
    best = int(scored.rows[0])
    if rows is None or len(rows) != 1 or rows[0] == best:
        return decision
    other = rows[0]
    if table.role_codes[other] != table.role_codes[best]:
        return decision
    similarity = name_similarity(ref.name, table.names[other])
    if similarity < RENAMED_NAME or same_target(table, best, other, config.same_target_iou):
        return decision
    if normalize(table.names[other]) == normalize(ref.name):
        why = (
            f"the recorded xpath selects another element with the "
            f"recorded name, and the best leads it by less than {config.torn_margin:.2f}: "
            "a look-alike in the target's place in the document, or the target"
        )
        return _overruled(decision, "ambiguous", why)
    place = moved_box(ref.bbox, page_shift(ref, table))
    here, there = table.box(other), table.box(best)
    if here is None or there is None or not _at_place(here, place) or _at_place(there, place):
        return decision
    why = (
        f"the recorded xpath selects {table.names[other]!r} at the "
        f"target's place (name {similarity:.2f}) while the best is elsewhere, and the best "
        f"leads by less than {config.torn_margin:.2f}: renamed target or namesake"
    )
    return _overruled(decision, "ambiguous", why)


def _tag_path_similarity(recorded: str, xpath: str) -> float:
    """How alike two xpaths' tag sequences are (positions ignored; difflib's ratio)."""
    return SequenceMatcher(None, _tags(recorded), _tags(xpath), autojunk=False).ratio()


def _steps(xpath: str) -> list[str]:
    """An xpath's steps, lower-cased (``div[2]``)."""
    return [step.lower() for step in xpath.strip("/").split("/") if step]


def _tags(xpath: str) -> list[str]:
    """An xpath's tags, positions dropped (``div``)."""
    return [step.split("[", 1)[0] for step in _steps(xpath)]


def _lookalike_place_check(
    ref: SemanticElementRef, table: CandidateTable, scored: Scored, decision: Decision
) -> Decision:
    """When fewer elements with the recorded role and name are left than were recorded
    (the target and its look-alikes), one is gone, perhaps the target: an answer then nearer
    to where a recorded look-alike was than to where the target was (both boxes after the
    anchors' shift; by :func:`_corner_distance`) is taken for that look-alike, its
    survivor, and the source abstains.
    An answer in the recorded innermost container is exempt (a named group, or a table row
    or list item by its text, other than the element's own name) while the recorded xpath
    selects it or another namesake lies nearer to the target's place (:func:`_shuffled`):
    look-alikes that traded places are told apart by their containers (the "Edit" of
    Alice's table row, after the rows were sorted and one deleted); the nearest namesake,
    at a look-alike's place, is that look-alike's survivor."""
    if not ref.lookalikes or ref.bbox is None or not ref.name or not _same_space(ref, table):
        return decision
    if len(ref.lookalikes) < LOOKALIKES_KEPT and _namesakes(ref, table) > len(ref.lookalikes):
        return decision
    row = int(scored.rows[0])
    box = table.box(row)
    if box is None:
        return decision
    shift = page_shift(ref, table)
    place = moved_box(ref.bbox, shift)
    to_target = _corner_distance(box, place)
    to_twin = min(_corner_distance(box, moved_box(b, shift)) for b in ref.lookalikes)
    if to_twin >= to_target:
        return decision
    selected = decision.candidates[0].signals.get("id:xpath", 0.0) > 0.0
    if _same_inner_container(ref, table.containers[row]) and (
        selected or _shuffled(ref, table, row, place)
    ):
        return decision
    why = (
        f"the best is where a recorded look-alike was "
        f"({to_twin:.0f} px from it, {to_target:.0f} px from the target's place): the target "
        "is gone or moved"
    )
    return _overruled(decision, "not_found", why)


def _shuffled(ref: SemanticElementRef, table: CandidateTable, row: int, place: Box) -> bool:
    """Whether another row of the recorded role and name than ``row`` lies nearer to the
    target's recorded ``place``: the look-alikes traded places (a table's rows sorted), so
    only their containers tell them apart. A removed target's survivor is the namesake
    nearest to where the target was when nothing took its place."""
    rows = np.asarray([r for r in _namesake_rows(ref, table) if r != row], dtype=np.intp)
    if not rows.size:
        return False
    geo, (px, py) = index_of(table).geometry, _centre(place)
    picked = np.append(rows, row)
    far = np.hypot(geo.cx[picked] - px, geo.cy[picked] - py)
    others = far[:-1][np.isfinite(far[:-1])]
    return bool(np.isfinite(far[-1]) and others.size and others.min() < far[-1])


def _lookalike_path_check(
    ref: SemanticElementRef, table: CandidateTable, decision: Decision
) -> Decision:
    """When fewer look-alikes are left than were recorded (fewer rows share the recorded
    role, name and container path, and fewer the role and name alone than the target and its
    recorded look-alikes: one is gone, perhaps the target) and the recorded xpath now names
    no element at all, the target's own place in the document went too: a surviving
    look-alike that slid into its place on screen is as likely as the target, and the source
    abstains. (A reshaped page moves look-alikes between containers without removing any:
    then the count by role and name keeps the answer.)

    An answer outside the recorded group is judged so too when no row of that group is left
    (its container was named by text that went with the target) and fewer rows bear the
    recorded role and name than the group had members."""
    if not ref.xpath or ref.occurrence is None or not ref.name:
        return decision
    if not decision.candidates[0].signals.get("lookalike_gone") and (
        recorded_group(ref, table).size > 0 or _namesakes(ref, table) >= ref.occurrence[1]
    ):
        return decision  # the best is not of the recorded group, and none may be gone
    if len(ref.lookalikes) < LOOKALIKES_KEPT and _namesakes(ref, table) > len(ref.lookalikes):
        return decision
    if _xpath_rows(ref, table) != []:
        return decision  # no xpath column to look in, or the path still selects something
    why = (
        "fewer look-alikes are left than were recorded and the "
        "recorded xpath selects nothing: the target may be the one that went"
    )
    return _overruled(decision, "ambiguous", why)


def _survivor_link_check(
    ref: SemanticElementRef, table: CandidateTable, scored: Scored, decision: Decision
) -> Decision:
    """With fewer look-alikes left than were recorded (one is gone, perhaps the target), an
    answer of the recorded group that links elsewhere than the recorded link is a surviving
    look-alike: the target, had it stayed, would still link where it did. The source
    abstains."""
    gone = decision.candidates[0].signals.get("lookalike_gone")
    if not gone or not _other_link(ref, table, int(scored.rows[0])):
        return decision
    why = (
        "fewer look-alikes are left than were recorded and the best links elsewhere than "
        "the target did: a surviving look-alike"
    )
    return _overruled(decision, "not_found", why)


def _same_inner_container(ref: SemanticElementRef, path: tuple[str, ...]) -> bool:
    """Whether ``path`` ends in the ref's innermost recorded container, when that names a
    group inside the page (not the outermost entry, the page or window title; not a landmark
    token; not the element's own name)."""
    if len(ref.container_path) < 2 or not path:
        return False
    inner = normalize(ref.container_path[-1][:MAX_ENTRY])
    if not inner or ref.container_path[-1].startswith("[") or inner == normalize(ref.name or ""):
        return False
    return normalize(path[-1]) == inner


TABLE_ROW_DEPTH: Final[int] = 4
"""How far above an element its table row may be (cell, a wrapper, the row)."""


def _own_table_row(ref: SemanticElementRef, table: CandidateTable, row: int) -> bool:
    """Whether ``row`` lies in a table row that is the ref's innermost recorded container
    (:func:`_same_inner_container`: Alice's row, named by its text) and no other row of the
    recorded role and name is in a container of that name. The text inside a button,
    repeating its name, is the button."""
    paths = table.containers
    if not _same_inner_container(ref, paths[row]):
        return False
    parent, roles = table.parent, table.roles
    up = int(parent[row])
    for _ in range(TABLE_ROW_DEPTH):
        if up < 0 or roles[up] in RECORD_ROLES:
            break
        up = int(parent[up])
    if up < 0 or roles[up] not in RECORD_ROLES:
        return False
    inner, inside = normalize(paths[row][-1]), index_of(table).repeats_parent
    return not any(
        r != row and not inside[r] and paths[r] and normalize(paths[r][-1]) == inner
        for r in _namesake_rows(ref, table)
    )


def _namesakes(ref: SemanticElementRef, table: CandidateTable) -> int:
    """How many rows have the ref's name and role (nested rows of one name counted once)."""
    kept, parent = set(_namesake_rows(ref, table)), table.parent
    count = 0
    for row in kept:
        up = int(parent[row])
        while up >= 0 and up not in kept:
            up = int(parent[up])
        count += up < 0
    return count


def _same_space(ref: SemanticElementRef, table: CandidateTable) -> bool:
    """Whether the ref's boxes are in the table's coordinate space."""
    if table.coord_space is CoordSpace.NONE:
        return False
    space = table.coord_space
    return not (ref.coord_space and space.known and ref.coord_space != space)


def _centre(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2.0, (box[1] + box[3]) / 2.0)


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _corner_distance(a: Box, b: Box) -> float:
    """How far box ``a`` is from box ``b``: the mean of the distances between their top-left
    corners and between their bottom-right corners. For boxes of one size that is the
    distance between their centres; a box drawn around another (a placeholder image behind
    the picture it stands for) shares its centre but not its corners."""
    return (_distance(a[:2], b[:2]) + _distance(a[2:], b[2:])) / 2.0


_VISION_LABELLED: Final[frozenset[str]] = frozenset(
    {"textbox", "searchbox", "combobox", "checkbox", "radio", "spinbutton", "slider", "switch"}
)
"""Vision roles named by an attached label rather than by text of their own."""


def _neighbour_check(
    ref: SemanticElementRef, table: CandidateTable, scored: Scored, decision: Decision
) -> Decision:
    """An answer that does not bear the recorded name but bears the name of an element
    recorded next to the target (a nearby text or an anchor) is that neighbour: the target
    was beside it, so it is gone or renamed past recognition, and the source abstains. An
    anchor that lay inside the target's recorded box is the target's own text, not a
    neighbour."""
    row = int(scored.rows[0])
    if table.source == "vision" and table.roles[row] in _VISION_LABELLED:
        return decision  # vision names a field by the label beside it: a neighbour's name
    name = table.names_norm[row]
    if not name or not ref.name or name == normalize(collapse(ref.name)):
        return decision
    if not _names_a_neighbour(ref, name) or _own_text(ref, name):
        return decision
    why = (
        f"the best ({table.names[row]!r}) bears the name of an element "
        "recorded next to the target, not the target's: the target is gone"
    )
    return _overruled(decision, "not_found", why)


def _names_a_neighbour(ref: SemanticElementRef, name: str) -> bool:
    """Whether ``name`` (normalised) is the text of an element recorded next to the target: a
    nearby text or an anchor, equal; or a nearby text the recorder cut at
    ``MAX_NEARBY_CHARS``, which ``name`` begins with (unless the recorded name begins with it
    too: then the cut text may be the target's own); or one headed by ``name``
    (:func:`_heads`)."""
    recorded = (*ref.nearby_text, *(anchor for anchor, _ in ref.anchors))
    texts = [normalize(collapse(text)) for text in recorded]
    if name in texts:
        return True
    own = normalize(collapse(ref.name or ""))
    for text in ref.nearby_text:
        if len(text) < MAX_NEARBY_CHARS:
            continue
        cut = normalize(collapse(text))
        if cut and name.startswith(cut) and not own.startswith(cut):
            return True
    return any(_heads(name, text) and not _heads(name, own) for text in texts)


def _heads(name: str, text: str) -> bool:
    """Whether ``name`` heads ``text``: the text begins with it and goes on after a mark that
    is not a letter or digit (a figure's caption "Status code 500: the spike we saw" headed by
    its picture's name "Status code 500"). A recorded text so headed was there beside the
    target, so a row of that name is the element it captions or continues; the recorded name
    headed by it too (the target's own words) does not count."""
    if not name or len(text) <= len(name) or not text.startswith(name):
        return False
    return not text[len(name)].isalnum()


OWN_TEXT: Final[float] = 0.9
"""Share of a recorded anchor's box inside the target's recorded box for the anchor to be
the target's own text (the visible caption of a button named otherwise)."""


def _own_text(ref: SemanticElementRef, name: str) -> bool:
    """Whether a recorded anchor named ``name`` (normalised) lay inside the target's recorded
    box: the target's own text (a "Show" caption of a button named "Show password"), not a
    neighbour."""
    if ref.bbox is None:
        return False
    return any(
        normalize(collapse(text)) == name and share_inside(box, ref.bbox) >= OWN_TEXT
        for text, box in ref.anchors
    )


def _vision_group_check(
    ref: SemanticElementRef,
    table: CandidateTable,
    scored: Scored,
    config: MatchConfig,
    decision: Decision,
) -> Decision:
    """A vision answer for a reference that recorded the group it was in, when this table
    does not show the answer in that group. In a hint window (which may cut the group's
    title off, and look-alikes with it), ``ambiguous`` when the answer has a look-alike
    (another target of nearly its name) or is not where the target was (its box below
    ``lookalike_box``), so that a larger window or the whole screen judges. On the whole
    screen, ``ambiguous`` when it has a look-alike and moved: only a stale box would tell
    them apart. An answer that the table shows in *another* named group (its innermost
    group resembles none of the recorded ones) is judged so even where the target was: in
    a window, ``ambiguous``; on the whole screen, ``ambiguous`` when it has a look-alike
    (the target's group is gone or renamed, and a look-alike of another group took its
    place), and ``not_found`` when it is also not where the target was (its box below
    ``stray_box``): it has only its name and role for it."""
    if not _groups_recorded(ref):
        return decision
    best = decision.candidates[0]
    if best.signals.get("container", 0.0) >= VISION_GROUP_AGREES:
        return decision
    first = int(scored.rows[0])
    window = WINDOW_MARK in table.ids[first]
    box = best.signals.get("bbox", 0.0)
    elsewhere = _other_group(ref, table.containers[first])
    if not window and elsewhere and box < config.stray_box:
        why = (
            f"the best is not where the target was (box {box:.2f}) and "
            f"the screen shows it in another group ({table.containers[first][-1]!r}): perhaps "
            "a look-alike of another group"
        )
        return _overruled(decision, "not_found", why)
    moved = box < config.lookalike_box or elsewhere
    if not (window and moved) and not _lookalikes(table, first, config):
        return decision
    if not window and not moved:
        return decision
    where = "this window" if window else "the screen"
    why = f"look-alikes exist and {where} does not show it in the recorded group"
    return _overruled(decision, "ambiguous", why)


def _other_group(ref: SemanticElementRef, path: tuple[str, ...]) -> bool:
    """Whether a vision row's innermost group (``path[-1]``) resembles none of the groups
    the reference recorded (see :func:`_groups_recorded`), by the container-entry
    similarity the matcher weighs container paths with."""
    if not path:
        return False
    name = (ref.name or "").strip().lower()
    recorded = [
        entry
        for entry in ref.container_path[1:]
        if not entry.startswith("[") and entry.strip().lower() != name
    ]
    inner = collapse(path[-1])
    norm = normalize(inner)
    return all(
        item_similarity_many(entry, [inner], [norm], [mask_digits(norm)])[0] < VISION_GROUP_AGREES
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


def _lookalikes(table: CandidateTable, row: int, config: MatchConfig) -> bool:
    """Whether another target of the table has nearly ``row``'s name (any role: vision's
    role is a guess from appearance)."""
    name = table.names[row]
    if not name:
        return False
    return any(
        j != row
        and name_similarity(name, table.names[j]) >= VISION_LOOKALIKE_NAME
        and not same_target(table, row, j, config.same_target_iou)
        for j in range(len(table))
    )


def _selected(
    table: CandidateTable, scored: Scored, verified: tuple[int, float, str, str]
) -> Decision:
    """The decision for a verified recorded selector: its row first, then the others."""
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


def _judge(
    table: CandidateTable, scored: Scored, config: MatchConfig, ranked: tuple[Candidate, ...]
) -> Decision:
    """Threshold and margin over the best different target (``ranked``: the candidates of
    the scored rows)."""
    if scored.rows.size == 0:
        return Decision("not_found", "the source has no candidates")
    if not scored.identifying:
        reason = (
            "the reference has nothing here but its role (its box is in another coordinate "
            "space): too little to tell candidates apart"
        )
        return Decision("not_found", reason, ranked)
    first = int(scored.rows[0])
    runner = next(
        (
            j
            for j in range(1, scored.rows.size)
            if not same_target(table, first, int(scored.rows[j]), config.same_target_iou)
        ),
        None,
    )
    best_score = float(scored.scores[0])
    runner_score = float(scored.scores[runner]) if runner is not None else 0.0
    margin = best_score - runner_score
    rival = None if runner is None else ranked[runner]
    # A score is a weighted mean: one that is exactly the threshold on paper may come out a
    # rounding error under it (more signals, another summation order).
    if best_score < config.threshold - _ROUNDING:
        reason = f"best score {best_score:.3f} is below the threshold {config.threshold:.2f}"
        return Decision("not_found", reason, ranked, rival, margin)
    if margin < config.min_margin - _ROUNDING:
        reason = (
            f"best {best_score:.3f} leads the runner-up {runner_score:.3f} by {margin:.3f}, "
            f"less than the margin {config.min_margin:.2f}"
        )
        return Decision("ambiguous", reason, ranked, rival, margin)
    sure = confidence(best_score, margin, ranked[0].signals) if config.min_confidence > 0 else 1.0
    if sure < config.min_confidence:
        reason = (
            f"estimated probability {sure:.3f} of being right (score {best_score:.3f}, margin "
            f"{margin:.3f}) is below min_confidence {config.min_confidence:.2f}"
        )
        return Decision("not_found", reason, ranked, rival, margin)
    reason = f"score {best_score:.3f}, margin {margin:.3f}"
    return Decision("accepted", reason, ranked, rival, round(margin, 4))


SurvivorCheck = Callable[
    [SemanticElementRef, CandidateTable, Scored, MatchConfig, Decision], Decision
]
"""A rule that may refuse or doubt an accepted answer: ``(ref, table, ranked rows, config,
decision) -> decision``."""

SURVIVOR_CHECKS: Final[tuple[SurvivorCheck, ...]] = (
    lambda ref, table, step, config, decision: _neighbour_check(ref, table, step, decision),
    lambda ref, table, step, config, decision: _lookalike_place_check(ref, table, step, decision),
    lambda ref, table, step, config, decision: _lookalike_path_check(ref, table, decision),
    lambda ref, table, step, config, decision: _survivor_link_check(ref, table, step, decision),
    _stray_check,
    _left_behind_check,
    _slot_kept_check,
    _other_region_check,
    _torn_check,
    _far_in_document_check,
    _changed_and_moved_check,
    _name_only_check,
    lambda ref, table, step, config, decision: _other_kind_check(ref, table, step, decision),
    _dressed_otherwise_check,
    lambda ref, table, step, config, decision: _numbered_series_check(ref, table, step, decision),
    lambda ref, table, step, config, decision: _shrunk_group_check(ref, table, decision),
    lambda ref, table, step, config, decision: _unnamed_check(ref, table, config, decision),
)
"""The rules that may refuse or doubt an accepted answer, in the order they are asked: each
asks whether the answer could be what a removed target left (a look-alike, a neighbour, a
namesake elsewhere) rather than the target."""
