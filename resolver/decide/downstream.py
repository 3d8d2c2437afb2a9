"""What a stronger source's refusal asks of a weaker source's answer in the chain
(``refuse.scored_downstream``, applied by :mod:`resolver.chain`).

A source that looked among rows of the reference's role and found none similar enough has
judged the page with the evidence it reads; a weaker source that then finds a row similar
enough by its own score mostly adds what look-alikes share (a tag, a class, an attribute)
and leaves out what it cannot read (containers, for a document without landmarks; boxes,
without a layout). Its answer overrules the stronger source only when a recorded identifier
(a selector, an XPath, a platform ID) selects it.
"""

from __future__ import annotations

from typing import Final

from ..models import SemanticElementRef
from ..roles import canonical_role
from ..table import CandidateTable
from ..text import normalize
from .rule import Decision

__all__ = [
    "UNMATCHED",
    "looked_for_role",
    "scored_alone",
    "shows_no_match",
    "table_roles",
    "twins_alike",
]

UNMATCHED: Final = frozenset({"refuse.threshold", "refuse.stray"})
"""The refusals that say a source found no row similar enough to the reference (as opposed
to evidence of absence, or a tie)."""


def table_roles(table: CandidateTable) -> frozenset[str]:
    """The canonical roles of ``table``'s rows (cached on the table by
    :meth:`~resolver.table.CandidateTable.derived`)."""
    return frozenset(table.roles)


def looked_for_role(ref: SemanticElementRef, table: CandidateTable) -> bool:
    """Whether ``table`` has a row of ``ref``'s role (or ``ref`` records none): whether a
    source's refusal on it was made where the target would be. A source without one
    (another role vocabulary, a pruned tree) has not looked there."""
    return not ref.role or canonical_role(ref.role) in table.derived(table_roles)


def shows_no_match(ref: SemanticElementRef, table: CandidateTable, decision: Decision) -> bool:
    """Whether ``decision``, one source's refusal of ``ref`` on ``table``, says that no row
    of the reference's role there is similar enough (:data:`UNMATCHED`, and
    :func:`looked_for_role`)."""
    if decision.status == "accepted" or decision.rule not in UNMATCHED:
        return False
    return looked_for_role(ref, table)


def scored_alone(decision: Decision) -> bool:
    """Whether an accepted ``decision`` rests on its score alone (``accept.score``), no
    recorded identifier (an ``id:`` signal: selector, XPath, platform ID) selecting its
    answer.

    Parameters
    ----------
    decision:
        A source's decision.

    Returns
    -------
    bool
        ``False`` for a refusal, a doubt, or an answer another rule made.
    """
    if decision.status != "accepted" or decision.rule != "accept.score":
        return False
    signals = decision.candidates[0].signals
    return not any(value > 0.0 for key, value in signals.items() if key.startswith("id:"))


DOM_FIELDS: Final = ("css_selector", "xpath", "dom_id", "test_id", "href", "classes", "attributes")
"""The fields only a document's source reads: what may tell twins apart there."""


def twins_alike(ref: SemanticElementRef, decision: Decision) -> bool:
    """Whether the tied rows of ``decision`` are twins (one role, one name) and ``ref``
    recorded nothing a document's source reads (:data:`DOM_FIELDS`) that might tell them
    apart there: a weaker source cannot tell them apart either."""
    best, other = decision.best, decision.runner_up
    if best is None or other is None or best.role != other.role:
        return False
    if normalize(best.name) != normalize(other.name):
        return False
    return not any(getattr(ref, name) for name in DOM_FIELDS)
