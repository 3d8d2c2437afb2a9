"""The decision for one source: from ranked rows to "this one", "ambiguous" or "not here".

The matcher only ranks (:func:`resolver.matcher.score_table`). Here the ranked rows are judged
by named rules (:class:`Rule`), asked in the order of one registry, :data:`RULES`: a recorded
selector that still selects one agreeing element answers first; a label that narrowly beats
the control around it gives way to the control; the best row is accepted when it reaches
``threshold`` **and** leads the best row that is a *different target* by ``min_margin``; then
review rules may refuse an answer that could be what a removed target left, or break a tie
with evidence only one row has; ``min_confidence`` has the last word. Every decision names
the rule that made it (:attr:`Decision.rule`), and every number a rule uses is a
:class:`~resolver.config.MatchConfig` field (:attr:`Rule.params`).

Modules: :mod:`~resolver.decide.rule` (what a rule is), :mod:`~resolver.decide.facts` and
:mod:`~resolver.decide.paths` (what rules read), one module per stage or theme
(:mod:`~resolver.decide.select`, :mod:`~resolver.decide.judge`,
:mod:`~resolver.decide.lookalikes`, :mod:`~resolver.decide.place`,
:mod:`~resolver.decide.identity`, :mod:`~resolver.decide.ties`,
:mod:`~resolver.decide.groups`), :mod:`~resolver.decide.registry` (the order and the
engine), :mod:`~resolver.decide.outside` (the chain's and the catalog's rules) and
:mod:`~resolver.decide.doc` (the rules table of the docs).
"""

from .downstream import scored_alone, shows_no_match
from .facts import same_target
from .registry import RULES, RULES_BY_ID, decide, decide_many, rule, shows_absence
from .rule import ABSENCES, KINDS, STAGES, Absence, Context, Decision, Kind, Rule, Stage, Status
from .select import prefer_control, verify_selector

__all__ = [
    "ABSENCES",
    "KINDS",
    "RULES",
    "RULES_BY_ID",
    "STAGES",
    "Absence",
    "Context",
    "Decision",
    "Kind",
    "Rule",
    "Stage",
    "Status",
    "decide",
    "decide_many",
    "prefer_control",
    "rule",
    "same_target",
    "scored_alone",
    "shows_absence",
    "shows_no_match",
    "verify_selector",
]
