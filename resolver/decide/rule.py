"""What a rule is: :class:`Rule`, the :class:`Context` every rule reads, and the
:class:`Decision` it may change.

A rule has one signature, ``check(ctx, decision) -> Decision | None``: it reads the reference,
the table, the ranked rows and the configuration from ``ctx``, and returns a new decision when
it changes the one it was given (``None`` when it does not apply). The engine
(:mod:`resolver.decide.registry`) stamps the rule's id on what it returns, so a decision always
names the rule that made it (:attr:`Decision.rule`) and every rule that changed it on the way
(:attr:`Decision.rules`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final, Literal

from ..config import MatchConfig
from ..matcher import Scored
from ..models import SemanticElementRef
from ..results import Candidate
from ..table import CandidateTable

__all__ = [
    "ABSENCES",
    "KINDS",
    "STAGES",
    "Absence",
    "Check",
    "Context",
    "Decision",
    "Kind",
    "Rule",
    "Stage",
    "Status",
    "fired",
    "overruled",
    "revised",
    "stamped",
    "taken",
]

Status = Literal["pending", "accepted", "ambiguous", "not_found"]
"""A decision's state; ``pending`` only inside the engine, before the judge stage has
spoken. Every decision the engine returns is ``accepted``, ``ambiguous`` or ``not_found``."""

Kind = Literal["accepts", "refuses", "doubts", "prefers", "scopes"]
"""What a rule does when it fires: makes an answer, refuses one (``not_found``), doubts one
(``ambiguous``), puts one row before another (the ranking, not the verdict), or narrows
what the reference says to what a source can check (the later rules judge that)."""
KINDS: Final[tuple[Kind, ...]] = ("accepts", "refuses", "doubts", "prefers", "scopes")

Stage = Literal["select", "judge", "review", "final", "chain", "catalog"]
"""Where a rule is asked (in this order):

- ``select``: before the rows are judged. A recorded selector that is verified answers at
  once; a label is replaced by the control around it.
- ``judge``: the undecided (``pending``) ranking becomes a verdict by threshold and margin.
- ``review``: each rule looks at a verdict of the status it names (``on``) and may change
  it: a refusal of an answer that may be what a removed target left, an answer under the
  threshold that nothing else could be, a tie broken by evidence only one row has. A
  decision made in the ``select`` stage skips this stage.
- ``final``: the last word on every answer (``min_confidence``).
- ``chain``: what the chain records for a source it could not ask or for its recorded
  coordinates; these rules have no check over a table.
- ``catalog``: what a catalog checks when an index it rendered is used on a changed page
  (:mod:`resolver.catalog`), after the decision found the entry's element again.
"""
STAGES: Final[tuple[Stage, ...]] = ("select", "judge", "review", "final", "chain", "catalog")

Absence = Literal["", "gone", "twins"]
"""Whether a refusal or doubt is *evidence of absence*, which a weaker source of the chain
does not overrule (:func:`resolver.decide.shows_absence`):

- ``"gone"``: the rule fires only on a sign, read from the page, that the target went: its
  recorded record, slot, neighbourhood or look-alike is still there without it, or a
  recorded neighbour's name is on the answer; or that it cannot be reached (it lies under a
  dialog, which is what another source would see there). Another source sees the same page.
- ``"twins"``: the doubt is evidence only between *twins*, rows of one role and name, for a
  reference that recorded nothing another source could tell them apart by.
- ``""`` (most rules): no such evidence. A refusal for lack of evidence (nothing to judge,
  nothing to judge by, a score under the threshold, an unsure estimate) says only that
  this source could not find the target; a later source may.
"""
ABSENCES: Final[tuple[Absence, ...]] = ("", "gone", "twins")

ROUNDING: Final[float] = 1e-9
"""Slack in comparisons of scores and signals for floating-point rounding (a score is a
weighted mean: one that is exactly a threshold on paper may come out a rounding error under
it). Not a threshold: no decision moves with it."""


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
    rule: str = ""
    """The id of the rule that made this decision (:data:`resolver.decide.RULES`)."""
    rules: tuple[str, ...] = ()
    """Every rule that changed the decision, in order; the last is :attr:`rule`."""
    ranking: Scored | None = field(default=None, repr=False, compare=False)
    """The rows still to judge, while the decision is ``pending`` (a ``prefers`` rule may
    reorder them); ``None`` once judged."""

    @property
    def best(self) -> Candidate | None:
        """The top row, if any."""
        return self.candidates[0] if self.candidates else None


_DECISION_FIELDS: Final[frozenset[str]] = frozenset(f.name for f in fields(Decision))


@dataclass(frozen=True)
class Context:
    """Everything a rule reads: the reference, the table, the ranked rows (best first, as the
    judge saw them) and the configuration."""

    ref: SemanticElementRef
    table: CandidateTable
    scored: Scored
    config: MatchConfig
    answer: int | None = None
    """The table row a rule took instead of the best ranked row (a tie-breaker, a
    selector), so that the rules after it review that row; ``None``: the best ranked row."""

    @property
    def first(self) -> int:
        """The table row of the answer under review: the best ranked row, or the row a rule
        before took instead (:attr:`answer`)."""
        return int(self.scored.rows[0]) if self.answer is None else self.answer

    def following(self, decision: Decision) -> Context:
        """This context with :attr:`answer` set to ``decision``'s best row when that is not
        the best ranked row (rows are found by their ids)."""
        best = decision.best
        if best is None or not self.scored.rows.size or best.id == self.table.ids[self.first]:
            return self
        ids = self.table.ids
        row = next((int(r) for r in self.scored.rows if ids[int(r)] == best.id), None)
        if row is None:
            row = next((r for r in range(len(ids)) if ids[r] == best.id), None)
        return self if row is None else replace(self, answer=row)

    def screen_height(self) -> float:
        """The table's screen height, or ``config.screen_height`` when it gives none."""
        size = self.table.screen_size
        return size[1] if size else self.config.screen_height


Check = Callable[[Context, Decision], "Decision | None"]
"""A rule's test: a new decision when the rule fires, ``None`` when it does not apply."""


@dataclass(frozen=True)
class Rule:
    """One named rule of the decision.

    Attributes
    ----------
    id:
        Stable id, ``<verb>.<name>`` (``refuse.stray``): what traces, errors, reports and
        benchmarks name. It never changes with the wording of a reason.
    kind:
        What it does when it fires (:data:`Kind`).
    stage:
        When it is asked (:data:`Stage`).
    description:
        One line a person reads in the rules table.
    on:
        The statuses of the decisions it looks at (in the ``review`` and ``final`` stages).
    params:
        The :class:`~resolver.config.MatchConfig` fields it reads.
    check:
        The test (``None`` for ``chain`` rules, which the chain applies itself).
    absence:
        Whether its refusal or doubt is evidence that the target is gone (:data:`Absence`):
        then the chain asks no weaker source after it.
    """

    id: str
    kind: Kind
    stage: Stage
    description: str
    check: Check | None = field(default=None, repr=False, compare=False)
    on: tuple[Status, ...] = ()
    params: tuple[str, ...] = ()
    absence: Absence = ""

    def apply(self, ctx: Context, decision: Decision) -> Decision:
        """``decision`` after this rule: changed and stamped with the rule's id when it fires,
        else the same decision."""
        if self.check is None:
            return decision
        out = self.check(ctx, decision)
        if out is None:
            return decision
        return fired(decision, out, self.id)


def revised(decision: Decision, **changes: Any) -> Decision:
    """``dataclasses.replace(decision, **changes)`` for fields of :class:`Decision`, without
    its ``__init__`` (what the engine does to every decision a rule makes; a field
    :class:`Decision` lacks is an error, as with ``replace``)."""
    unknown = changes.keys() - _DECISION_FIELDS
    if unknown:
        raise TypeError(f"Decision has no field {sorted(unknown)[0]!r}")
    made = object.__new__(Decision)
    fields_of = made.__dict__
    fields_of.update(decision.__dict__)
    fields_of.update(changes)
    return made


def fired(decision: Decision, out: Decision, rule: str) -> Decision:
    """``out``, what rule ``rule`` made of ``decision``, stamped with its id after the rules
    that changed ``decision`` before it."""
    return stamped(out, rule, (*decision.rules, rule))


def stamped(decision: Decision, rule: str, rules: tuple[str, ...]) -> Decision:
    """``decision`` naming ``rule`` as the rule that made it and ``rules`` as every rule that
    changed it (:func:`revised`)."""
    return revised(decision, rule=rule, rules=rules)


def overruled(decision: Decision, status: Status, why: str) -> Decision:
    """``decision`` turned to ``status`` by a later rule, its reason saying ``why``."""
    return replace(decision, status=status, reason=f"{decision.reason}, but {why}")


def taken(decision: Decision, kept: Candidate, other: Candidate, reason: str) -> Decision:
    """``decision`` accepted for ``kept`` over ``other`` (its runner-up), the rest after."""
    ranked = (kept, other, *(c for c in decision.candidates if c is not kept and c is not other))
    margin = round(kept.score - other.score, 4)
    return replace(
        decision, status="accepted", reason=reason, candidates=ranked, runner_up=other,
        margin=margin,
    )  # fmt: skip
