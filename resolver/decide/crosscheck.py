"""When the chain asks the DOM to confirm an accessibility-tree answer among twins
(``ambiguous.sources_disagree``, applied by :mod:`resolver.chain`).

An accessibility tree carries roles, names, boxes and (linked to the page) document paths,
not the classes of the elements. Among twins (rows of one role and name) after a reorder,
the recorded xpath names the neighbour, the box and the neighbour texts move with the slot,
and the recorded classes are what would tell the target from the twin now in its place: the
accessibility tree cannot read them, the DOM can. So when the a11y source answers a row that
has twins, for a reference that recorded classes the a11y table does not carry, and the
chain goes on to the DOM, the DOM judges the same reference: its answer must be the same
element (the same document path). Otherwise the two sources disagree about which twin it
is, and the chain abstains; the DOM's verdict is in the trace.
"""

from __future__ import annotations

from ..config import MatchConfig
from ..models import SemanticElementRef
from ..table import CandidateTable
from .facts import namesake_rows, same_target
from .rule import Decision

__all__ = ["answer_path", "needs_confirmation", "sources_disagree"]


def answer_path(table: CandidateTable, decision: Decision) -> str | None:
    """The document path (xpath) of ``decision``'s answer in ``table``, where the table knows
    its rows' places in the document; ``None`` otherwise."""
    paths = table.document_paths
    best = decision.best
    if paths is None or best is None:
        return None
    row = table.executor_row(best.executor_id)
    if row is None:
        row = table.executor_row(table.executor_prefix + best.id)
    return None if row is None else paths[row]


def needs_confirmation(
    ref: SemanticElementRef, table: CandidateTable, decision: Decision, config: MatchConfig
) -> bool:
    """Whether an accepted answer of the accessibility tree needs the DOM's confirmation:
    the reference recorded classes, the table carries none, the answer has a place in the
    document, and another row of the recorded role and name is another click target."""
    if decision.status != "accepted" or not ref.classes or "class" in table.platform_ids:
        return False
    best = decision.best
    if best is None or answer_path(table, decision) is None:
        return False
    row = table.executor_row(best.executor_id)
    if row is None:
        return False
    return any(
        other != row and not same_target(table, other, row, config.same_target_iou)
        for other in namesake_rows(ref, table)
    )


def sources_disagree(
    table: CandidateTable, decision: Decision, dom: CandidateTable, checked: Decision
) -> str | None:
    """Why the DOM's decision ``checked`` on ``dom`` does not confirm the a11y answer of
    ``decision`` on ``table`` (a reason for the trace), or ``None`` when it answers the
    same element."""
    path = answer_path(table, decision)
    if checked.status == "accepted":
        found = answer_path(dom, checked)
        if found is not None and found == path:
            return None
        other = found or (checked.best.executor_id if checked.best else "another element")
        where = f"answers {other} instead"
    else:
        where = f"does not answer ({checked.rule or checked.status})"
    return (
        f"the answer ({path}) has twins and the reference recorded classes this tree does not "
        f"carry; the DOM source, which reads them, {where}: the sources disagree about which "
        "twin it is"
    )
