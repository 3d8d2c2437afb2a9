"""Stage ``judge``: the ranked rows become a verdict. The best row is accepted when it reaches
``threshold`` and leads the best row that is a *different target* by ``min_margin`` (a button
and the text inside it are one target). Also here: the review rules that accept an answer
under the threshold when nothing else on the page could be it (``accept.sole_namesake``,
``accept.sole_kindless``, ``accept.sole_cut_name``, ``accept.sole_link``) and the final word
on every answer (``refuse.min_confidence``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from ..calibration import confidence
from ..models import SemanticElementRef
from ..results import Candidate
from ..roles import canonical_role
from ..table import MAX_ENTRY, CandidateTable
from ..text import collapse, normalize
from ..web import WebIndex, href_key
from .facts import (
    bears_cut_name,
    decided_row,
    name_bearers,
    namesake_rows,
    namesakes,
    other_link,
    same_target,
)
from .readings import cut_from, own_words, titled_by
from .rule import ROUNDING, Context, Decision, Rule, overruled, revised, taken

__all__ = [
    "GONE_LINK_RULES",
    "LINK_RULES",
    "keeps_a_word",
    "linking_to",
    "pending",
    "recorded_address",
    "runner_row",
    "sole_address",
]


def runner_row(ctx: Context) -> int | None:
    """The position, among the ranked rows, of the best one that is a different target from
    the first (``None`` if there is none)."""
    scored, table, iou = ctx.scored, ctx.table, ctx.config.same_target_iou
    first = int(scored.rows[0])
    return next(
        (
            j
            for j in range(1, scored.rows.size)
            if not same_target(table, first, int(scored.rows[j]), iou)
        ),
        None,
    )


def pending(ctx: Context, ranked: tuple[Candidate, ...]) -> Decision:
    """The undecided decision over ``ctx``'s ranked rows (``ranked``: their candidates), with
    its runner-up and the best's lead over it."""
    if ctx.scored.rows.size == 0:
        return Decision("pending", "", ranked)
    runner = runner_row(ctx)
    best_score = float(ctx.scored.scores[0])
    runner_score = float(ctx.scored.scores[runner]) if runner is not None else 0.0
    rival = None if runner is None else ranked[runner]
    return Decision("pending", "", ranked, rival, best_score - runner_score)


def _best(ctx: Context) -> float:
    return float(ctx.scored.scores[0])


def no_candidates(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.no_candidates``."""
    if ctx.scored.rows.size:
        return None
    return Decision("not_found", "the source has no candidates")


def role_only(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.role_only``."""
    if ctx.scored.identifying:
        return None
    reason = (
        "the reference has nothing here but its role (its box is in another coordinate "
        "space): too little to tell candidates apart"
    )
    return Decision("not_found", reason, decision.candidates)


def under_threshold(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.threshold``."""
    best = _best(ctx)
    threshold = ctx.config.threshold
    if best >= threshold - ROUNDING:
        return None
    reason = f"best score {best:.3f} is below the threshold {threshold:.2f}"
    return replace(decision, status="not_found", reason=reason)


_NOT_FIELDS = frozenset({"occurrence", "lookalike_gone"})
"""Signals that are not a recorded field's agreement (the look-alike order)."""


def nothing_exact(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.nothing_exact``: the best row agrees exactly (``exact_agreement``) with none of
    the recorded fields it was scored on: its role only compatible, its name only similar,
    its tag, class, link, neighbours or place different. Asked where names are read as
    written (not from pixels, whose reading is never exact); an answer a selector vouched
    for has no signals and is left alone."""
    if ctx.table.names_read or not decision.candidates:
        return None
    best = decision.candidates[0]
    fields = [v for k, v in best.signals.items() if k not in _NOT_FIELDS]
    if not fields or max(fields) >= ctx.config.exact_agreement - ROUNDING:
        return None
    agreed = ", ".join(f"{k} {v:.2f}" for k, v in best.signals.items() if k not in _NOT_FIELDS)
    reason = (
        f"{best.role} {best.name!r} agrees exactly with nothing recorded ({agreed}): a "
        "partial look-alike, not the element"
    )
    return replace(decision, status="not_found", reason=reason)


def under_margin(ctx: Context, decision: Decision) -> Decision | None:
    """``ambiguous.margin``."""
    if decision.margin >= ctx.config.min_margin - ROUNDING:
        return None
    best = _best(ctx)
    runner = best - decision.margin if decision.runner_up is not None else 0.0
    reason = (
        f"best {best:.3f} leads the runner-up {runner:.3f} by {decision.margin:.3f}, "
        f"less than the margin {ctx.config.min_margin:.2f}"
    )
    return replace(decision, status="ambiguous", reason=reason)


def low_confidence(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.low_confidence``."""
    wanted = ctx.config.min_confidence
    if wanted <= 0:
        return None
    best = _best(ctx)
    sure = confidence(best, decision.margin, decision.candidates[0].signals)
    if sure >= wanted:
        return None
    reason = (
        f"estimated probability {sure:.3f} of being right (score {best:.3f}, margin "
        f"{decision.margin:.3f}) is below min_confidence {wanted:.2f}"
    )
    return replace(decision, status="not_found", reason=reason)


def by_score(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.score``."""
    best = _best(ctx)
    reason = f"score {best:.3f}, margin {decision.margin:.3f}"
    return revised(decision, status="accepted", reason=reason, margin=round(decision.margin, 4))


def sole_namesake(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.sole_namesake``: a best row under the threshold that is the reference's sole
    namesake. The reference recorded the page around it (anchors) and no look-alike, the row
    has its role and name exactly, no other row has both, and the row scores at least
    ``sole_threshold`` and leads by ``sole_margin``. A redesign moved it (box, containers,
    neighbours), but nothing else on the page could be it."""
    ref, config, scored = ctx.ref, ctx.config, ctx.scored
    recorded_alone = ref.occurrence is None and not ref.lookalikes and bool(ref.anchors)
    if not recorded_alone or not ref.role or not ref.name:
        return None
    if not decision.candidates or scored.rows.size == 0:
        return None
    best = float(scored.scores[0])
    if best >= config.threshold - ROUNDING:  # refused for another reason (min_confidence)
        return None
    if best < config.sole_threshold or decision.margin < config.sole_margin:
        return None
    signals = decision.candidates[0].signals
    if signals.get("name", 0.0) < 1.0 or signals.get("role", 0.0) < 1.0:
        return None
    if namesakes(ref, ctx.table) != 1:
        return None
    reason = (
        f"score {best:.3f} is under the threshold, but the best is the only row with the "
        f"recorded role and name, and the reference recorded no look-alike (margin "
        f"{decision.margin:.3f})"
    )
    return replace(decision, status="accepted", reason=reason, margin=round(decision.margin, 4))


def sole_kindless(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.sole_kindless``: a best row under the threshold (``refuse.threshold``; from
    ``sole_threshold`` up) for a reference recorded with no kind of element (role
    ``generic``: a ``span`` or ``div`` a page made clickable), which bears the recorded name
    exactly while no other row of any role does, the reference having recorded no
    look-alike. A redesign that turns such an element into a link or a button changes the
    role it is scored by, but the recorded role said nothing of what the element is, and
    nothing else on the page bears its name. Not where names are read from pixels (a text
    read there is no element)."""
    ref, table, config, best = ctx.ref, ctx.table, ctx.config, decision.best
    if decision.rule != "refuse.threshold" or best is None or table.names_read:
        return None
    if canonical_role(ref.role or "") != "generic" or ref.lookalikes:
        return None
    if ref.occurrence is not None and ref.occurrence[1] > 1:
        return None
    if best.score < config.sole_threshold or best.signals.get("name", 0.0) < 1.0:
        return None
    if name_bearers(ref, table) != 1:
        return None
    reason = (
        f"score {best.score:.3f} is under the threshold, but the reference recorded no kind "
        f"of element ({ref.role}), and the best is the only element bearing the recorded name"
    )
    return replace(decision, status="accepted", reason=reason)


def sole_cut_name(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.sole_cut_name``: a best row under the threshold (``refuse.threshold``; from
    ``sole_threshold`` up) of the recorded role whose name begins with the recorded name cut
    by its recorder (:func:`~resolver.decide.facts.bears_cut_name`, ``cut_name_chars``), and
    the only row of the page whose name so begins: a name cut to its first characters agrees
    only fuzzily with the whole, and nothing else on the page starts that way. Where names
    are read from pixels, only a name cut in the middle of a word
    (:func:`~resolver.decide.readings.cut_from`), and the rows that so begin are the best's
    element, words of it (:func:`~resolver.decide.readings.own_words`) or a group it titles
    (:func:`~resolver.decide.readings.titled_by`): a line read there may run on past its
    element (a merged run), which ends the name where a word ends."""
    ref, table, config, best = ctx.ref, ctx.table, ctx.config, decision.best
    if decision.rule != "refuse.threshold" or best is None or not ref.name:
        return None
    if best.score < config.sole_threshold or best.signals.get("role", 0.0) < 1.0:
        return None
    if not bears_cut_name(ref, table, ctx.first, config.cut_name_chars):
        return None
    recorded = normalize(collapse(ref.name))
    rows = [r for r, name in enumerate(table.names_norm) if name.startswith(recorded)]
    if table.names_read:
        if not cut_from(ref.name, best.name, config.cut_name_chars):
            return None
        if not all(own_words(ctx, best, r) or titled_by(table, r, best) for r in rows):
            return None
    elif len(rows) != 1:
        return None
    reason = (
        f"score {best.score:.3f} is under the threshold, but the best's name begins with the "
        "recorded one, cut by its recorder, and no other element's name does"
    )
    return replace(decision, status="accepted", reason=reason)


def sole_link(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.sole_link``: a best row under the threshold (``refuse.threshold``; from
    ``sole_threshold`` up) of the recorded role that links exactly where the recorded link
    did (a path of its own, not the site's root) while no other row does, and whose name
    keeps a word of the recorded one: a link renamed by a redesign ("car loan" to "auto
    loan") keeps its address, and nothing else on the page goes there."""
    ref, table, config, best = ctx.ref, ctx.table, ctx.config, decision.best
    if decision.rule != "refuse.threshold" or best is None or not ref.name or not ref.href:
        return None
    if table.names_read or best.score < config.sole_threshold:
        return None
    if best.signals.get("role", 0.0) < 1.0 or best.signals.get("web:href", 0.0) < 1.0:
        return None
    if not sole_address(ref, table):
        return None
    if not keeps_a_word(ref.name, best.name):
        return None
    reason = (
        f"score {best.score:.3f} is under the threshold, but the best links where the "
        "recorded link did, no other element does, and its name keeps a recorded word"
    )
    return replace(decision, status="accepted", reason=reason)


def link_there(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.link_there``: a tie or a doubt among rows of the recorded role and name, one
    of which, among the ranked rows, is the only element of the page linking to the recorded
    address (a path of its own, not a site's root: :func:`sole_address`): rows of one name
    (product cards' "Details", a list's "Edit") reordered or shifted carry their links with
    them, and the address says which one was recorded, where the recorded place, slot or
    xpath follows another. The row must be in the innermost container the reference
    recorded, where it recorded one: a twin linking to the same address elsewhere on the
    page (a navigation box's copy of an article's link) is what a removed target leaves."""
    ref, table = ctx.ref, ctx.table
    if not ref.href or len(decision.candidates) < 2 or not sole_address(ref, table):
        return None
    host, path = recorded_address(ref)
    (row,) = linking_to(table, host, path)
    kept = next((c for c in decision.candidates if c.id == table.ids[row]), None)
    if kept is None or row not in namesake_rows(ref, table):
        return None
    if not _inner_kept(ref, kept.container_path):
        return None  # (a twin of one address elsewhere, left by the removed target)
    other = next(c for c in decision.candidates if c is not kept)
    reason = (
        f"{kept.executor_id}, of the recorded role and name, is the only element linking "
        "where the recorded link did"
    )
    return taken(decision, kept, other, reason)


def address_gone(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.address_gone``: the reference recorded a link to a path of its own (not a
    site's root); no element of the page links there now, none even with the path moved
    under another section (:func:`~resolver.decide.facts.other_link`); and the answer is one
    of several rows of the recorded role and name that each link to a path no other of them
    links to. Those rows are told apart by their addresses (a product card's "Details"), and
    the recorded one went with its row: the answer is a neighbour in its place."""
    ref, table = ctx.ref, ctx.table
    host, path = recorded_address(ref)
    if path in ("", "/") or not ref.name:
        return None
    if linking_to(table, host, path):
        return None  # the address is still linked from the page
    row = decided_row(ctx, decision)
    rows = namesake_rows(ref, table)
    if row is None or row not in rows or len(rows) < 2:
        return None
    paths = table.derived(WebIndex).hrefs[1]
    own = [paths[r] for r in rows]
    segments = ctx.config.href_moved_segments
    if None in own or len(set(own)) != len(own):
        return None  # rows without a link, or sharing one: addresses tell them not apart
    if not all(other_link(ref, table, r, segments) for r in rows):
        return None
    why = (
        f"no element links to the recorded address {(ref.href or '')[:80]!r} any more, and each "
        f"element of the recorded role and name links somewhere of its own: the answer, "
        f"{table.executor_id(row)}, is a neighbour in the place of one that went"
    )
    return overruled(decision, "not_found", why)


GONE_LINK_RULES: Final = (
    Rule(
        "refuse.address_gone", "refuses", "final",
        "The recorded link's address (a path of its own) is linked from nowhere on the page, "
        "and the answer is one of several elements of the recorded role and name that each "
        "link somewhere of their own: the recorded one went, a neighbour took its place.",
        address_gone, ("accepted",), ("href_moved_segments",), absence="gone",
    ),
)  # fmt: skip
"""The final refusal by link address, in the registry's order (after the records')."""


LINK_RULES: Final = (
    Rule(
        "accept.link_there", "accepts", "review",
        "Tied or doubted between elements of the recorded role and name, and one of them is "
        "the only element of the page linking to the recorded address (a path of its own): "
        "rows of one name reordered or shifted carry their links.", link_there, ("ambiguous",),
    ),
)  # fmt: skip
"""The tie-breaker by link address, in the registry's order (first of the tie-breakers)."""


def _inner_kept(ref: SemanticElementRef, path: tuple[str, ...]) -> bool:
    """Whether the ref's innermost recorded container (a landmark token aside) is one of
    ``path``'s entries, or the ref recorded none."""
    if not ref.container_path or ref.container_path[-1].startswith("["):
        return True
    inner = normalize(ref.container_path[-1][:MAX_ENTRY])
    return not inner or any(normalize(entry[:MAX_ENTRY]) == inner for entry in path)


def keeps_a_word(recorded: str, name: str) -> bool:
    """Whether ``name`` keeps a word of the ``recorded`` name (normalised): "auto loan"
    keeps "loan" of "car loan"."""
    return bool(set(normalize(recorded).split()) & set(normalize(name).split()))


def sole_address(ref: SemanticElementRef, table: CandidateTable) -> bool:
    """Whether exactly one row links to the recorded address (its query aside), a path of
    its own (not a site's root)."""
    host, path = recorded_address(ref)
    if path in ("", "/"):
        return False
    return len(linking_to(table, host, path)) == 1


def recorded_address(ref: SemanticElementRef) -> tuple[str, str]:
    """The host and path (its query aside) of the recorded link target, in the comparison
    form of :func:`~resolver.web.href_key`; ``("", "")`` without one."""
    recorded = href_key(ref.href) if ref.href else None
    return ("", "") if recorded is None else (recorded[0], recorded[1].partition("?")[0])


def linking_to(table: CandidateTable, host: str, path: str) -> list[int]:
    """The rows linking to ``path`` (its query aside) on ``host`` (any host where either
    is relative)."""
    index = table.derived(WebIndex)
    hosts = index.hrefs[0]
    rows = index.bare_path_rows.get(path)
    if rows is None:
        return []
    return [row for row in rows.tolist() if not host or hosts[row] in ("", host)]


def min_confidence(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.min_confidence``: an accepted decision whose estimated probability of being
    right (from its score, margin and signals, :func:`~resolver.calibration.confidence`,
    which ``Resolution.confidence`` reports) is under ``min_confidence`` is refused, however
    it was accepted: by threshold and margin, by a verified selector, or by a rule that took
    a renamed target or broke a tie."""
    wanted = ctx.config.min_confidence
    if wanted <= 0 or not decision.candidates:
        return None
    best = decision.candidates[0]
    sure = confidence(best.score, decision.margin, best.signals)
    if sure >= wanted:
        return None
    why = (
        f"its estimated probability {sure:.3f} of being right is below min_confidence {wanted:.2f}"
    )
    return overruled(decision, "not_found", why)
