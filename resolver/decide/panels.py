"""Panels shown one at a time (dialogs, tab panels): an answer in another panel than the
one the element was recorded in."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from ..roles import PANEL_ROLES, canonical_role
from ..table import MAX_ENTRY, CandidateTable
from ..text import normalize
from .facts import decided_row
from .rule import Context, Decision, Rule, overruled

__all__ = ["PANEL_RULES", "other_panel", "panel_closed", "panel_of", "under_dialog"]

_SMALL_WORDS: Final[frozenset[str]] = frozenset(
    {"the", "and", "for", "you", "your", "our", "with", "this", "that", "are", "new"}
)
"""Words too common to tell that two container names name one container."""


def panel_of(table: CandidateTable, row: int) -> int | None:
    """The nearest named :data:`~resolver.roles.PANEL_ROLES` row above ``row``, or ``None``."""
    roles, names, parent = table.roles, table.names, table.parent
    up = int(parent[row])
    while up >= 0:
        if roles[up] in PANEL_ROLES and names[up].strip():
            return up
        up = int(parent[up])
    return None


@lru_cache(maxsize=4096)
def _words(entry: str) -> tuple[str, frozenset[str]]:
    """A container name normalised, and its words that can tell it from another's."""
    norm = normalize(entry[:MAX_ENTRY])
    words = {w for w in norm.split() if len(w) >= 3 and w not in _SMALL_WORDS}
    return norm, frozenset(words)


def _accounted(entry: str, others: Sequence[str]) -> bool:
    """Whether a container name stands for one of ``others``: the same text, one of them cut
    from the other (a recorder's length limit), or one word that tells them apart shared (a
    renamed dialog, "Delete file?" and "Delete this file?")."""
    norm, words = _words(entry)
    if not norm:
        return True
    for other in others:
        theirs, their_words = _words(other)
        if theirs and (theirs.startswith(norm) or norm.startswith(theirs)):
            return True
        if words & their_words:
            return True
    return False


def other_panel(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.other_panel``: the answer is inside a named dialog or tab panel
    (:data:`~resolver.roles.PANEL_ROLES`, the nearest above it) that no recorded container
    stands for, while a recorded container stands for none of the answer's containers
    (:func:`_accounted`: the same name, cut, or sharing a word that tells names apart). The
    element was recorded in another panel ("Delete file?"), which the page does not show
    now, and the one shown ("Discard changes?", the "Billing" tab's panel for the "Profile"
    tab's) holds a control of the same role and name that would act on something else. A
    recorder that did not record the panel's place (no recorded container left unaccounted
    for) leaves the answer alone, as does a renamed panel that keeps a telling word. Asked
    of every answer, however it was made."""
    ref, table = ctx.ref, ctx.table
    if not ref.container_path:
        return None
    row = decided_row(ctx, decision)
    if row is None:
        return None
    panel = panel_of(table, row)
    if panel is None:
        return None  # not in a panel shown one at a time
    name = table.names[panel]
    if _accounted(name, ref.container_path):
        return None  # the recorded panel (or renamed)
    path = table.containers[row]
    lost = [entry for entry in ref.container_path if not _accounted(entry, path)]
    if not lost:
        return None  # the panel was not recorded as a container: nothing to compare
    why = (
        f"the answer is in the {table.roles[panel]} {name[:80]!r}, and the element was "
        f"recorded in {lost[-1][:80]!r}, which the page does not show around it: another "
        "panel is shown in its place"
    )
    return overruled(decision, "not_found", why)


def panel_closed(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.panel_closed``: the reference records the dialog, tab panel or disclosure
    section the element was in (``panel``), and the answer is in none (its page has a tree:
    a flat list of elements says nothing of panels), or in one of another name (both named,
    neither standing for the other, :func:`_same_panel`). The recorded panel is closed, and
    the namesake the page still shows (the form's "Save" beneath a password dialog's, the
    open "Invoice address" section's "Apply" for the closed "Shipping address" one's) acts
    on something else. Asked of every answer, however it was made."""
    ref, table = ctx.ref, ctx.table
    if ref.panel is None:
        return None
    kind, recorded = ref.panel
    if kind != "details" and canonical_role(kind) not in PANEL_ROLES:
        return None
    row = decided_row(ctx, decision)
    if row is None or not bool((table.parent >= 0).any()):
        return None
    above = table.panel_above(row)
    said = f"the {_kind(kind)} {recorded[:80]!r}" if recorded else f"a {_kind(kind)}"
    if above is None:
        why = (
            f"the element was recorded in {said}, and the answer is in no dialog, tab panel "
            "or section: that panel is closed, and the answer acts on the page beneath it"
        )
        return overruled(decision, "not_found", why)
    _, their_kind, name = above
    if not recorded or not name.strip() or _same_panel(name, recorded):
        return None
    why = (
        f"the element was recorded in {said}, and the answer is in the "
        f"{_kind(their_kind)} {name[:80]!r}: another panel is shown in its place"
    )
    return overruled(decision, "not_found", why)


def _same_panel(name: str, recorded: str) -> bool:
    """Whether a panel's name stands for the recorded one: the same text, one cut from the
    other, or every word that tells names apart of one among the other's ("Delete file?" and
    "Delete this file?"; not "Shipping address" and "Invoice address")."""
    norm, words = _words(name)
    theirs, their_words = _words(recorded)
    if not norm or not theirs or norm.startswith(theirs) or theirs.startswith(norm):
        return True
    return bool(words and their_words) and (words <= their_words or their_words <= words)


def under_dialog(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.under_dialog``: on a desktop's tree (boxes in screen pixels or points, where
    windows are drawn now), the answer lies under dialogs drawn over its window
    (:meth:`~resolver.table.CandidateTable.dialogs_over`), with no part beside them at least
    ``clear_px`` wide and high (:meth:`~resolver.table.CandidateTable.clear_point`). A click
    there lands on the dialog (its "Yes", for the text field the reference recorded beneath
    it): the dialog must be answered first. A weaker source does not overrule it (what a
    screenshot shows there is the dialog, whose own "Save" may stand where the recorded one
    was). Asked of every answer, however it was made."""
    table = ctx.table
    row = decided_row(ctx, decision) if table.dialogs_over_any() else None
    if row is None or table.box(row) is None or table.clear_point(row, ctx.config.clear_px):
        return None
    over = table.dialogs_over(row)[-1]
    why = (
        f"the answer lies under the {table.roles[over]} {table.names[over][:80]!r} drawn over "
        "it: a click on it would land on the dialog, which must be answered first"
    )
    return overruled(decision, "not_found", why)


def _kind(kind: str) -> str:
    """A panel's kind as the reasons word it."""
    return "section" if kind == "details" else canonical_role(kind)


PANEL_RULES: Final = (
    Rule(
        "refuse.other_panel", "refuses", "final",
        "The answer is inside a dialog or tab panel no recorded container stands for, while "
        "a recorded container is not around it: the element was recorded in another panel, "
        "which is not shown now, and the shown one holds a namesake.",
        other_panel, ("accepted",), absence="gone",
    ),
    Rule(
        "refuse.panel_closed", "refuses", "final",
        "The reference records the dialog, tab panel or disclosure section the element was "
        "in, and the answer is in none, or in one of another name: the recorded panel is "
        "closed, and the namesake shown acts on something else.",
        panel_closed, ("accepted",), absence="gone",
    ),
    Rule(
        "refuse.under_dialog", "refuses", "final",
        "On a desktop's tree, the answer lies under a dialog drawn over its window, with no "
        "part of it beside the dialog: a click on it would land on the dialog, which must be "
        "answered first.",
        under_dialog, ("accepted",), absence="gone", params=("clear_px",),
    ),
)  # fmt: skip
"""The final rules on panels, in the registry's order (after the records')."""
