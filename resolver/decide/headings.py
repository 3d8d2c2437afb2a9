"""Elements of one role and name told apart by the heading before each: a product card's
"Add to cart" under the card's title, a list entry's "Reply" under its author's.

A grid of cards or a list of blocks repeats its controls, and the blocks are often unnamed
``div`` elements no table keeps, so neither a container nor a record says which block a
control was in; the heading before it does. A reference records it (``heading``, the
nearest heading before the element in reading order, see
:attr:`~resolver.index.TableIndex.headings`); a positional selector or a place that now
points at another block's control is contradicted by it, the one namesake under the
recorded heading breaks a tie, and a recorded heading gone from a page whose namesakes each
have a heading of their own says the block went with it.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Final

from ..index import heading_key, index_of
from ..models import SemanticElementRef
from ..table import CandidateTable, Derived
from ..text import normalize
from .facts import decided_row, namesake_rows, namesakes
from .rule import Context, Decision, Rule, overruled, taken

__all__ = [
    "HEADING_FINAL_RULES",
    "HEADING_TIE_RULES",
    "Titles",
    "headed_there",
    "heading_elsewhere",
    "heading_gone",
    "heading_moved",
    "heading_there",
    "namesake_headed_there",
]


class Titles(Derived):
    """A table's headings in comparison form, made once per table
    (``table.derived(Titles)``): how many headings read each text, every word a heading
    holds, and the comparison form of the heading before each row asked about."""

    def __init__(self, table: CandidateTable) -> None:
        super().__init__(table)
        texts = [heading_key(table.names[r]) for r in index_of(table).heading_rows.tolist()]
        self.counts: Counter[str | None] = Counter(texts)
        self.words: frozenset[str] = frozenset(
            w for text in texts if text for w in _WORD.findall(text)
        )
        self._before: dict[int, str | None] = {}

    def before(self, row: int) -> str | None:
        """The comparison form of the heading before ``row``."""
        if row not in self._before:
            self._before[row] = heading_key(index_of(self.table).heading_of(row))
        return self._before[row]


def _titled(ref: SemanticElementRef, table: CandidateTable) -> tuple[list[int], list[str]]:
    """The rows of the ref's role and name and their headings, when each has a heading of
    its own (named, none shared): only then do headings tell them apart, as a card's title
    does. Rows under one heading (a menu's links under "Navigation") are not told apart by
    it, even when a page's edit gives one of them another heading. Empty lists otherwise,
    and for a reference with no name or no heading."""
    if ref.heading is None or not (ref.name or "").strip() or namesakes(ref, table) < 2:
        return [], []
    rows = namesake_rows(ref, table)
    titles = table.derived(Titles)
    keys = [titles.before(r) for r in rows]
    if len(rows) < 2 or None in keys or len(set(keys)) != len(keys):
        return [], []
    return rows, [k for k in keys if k is not None]


def _elsewhere(ref: SemanticElementRef, table: CandidateTable, row: int) -> bool:
    """Whether ``row`` is under another heading than the recorded one (a reference with a
    heading): the quick test before the namesakes are read."""
    return table.derived(Titles).before(row) != heading_key(ref.heading)


def headed_there(ref: SemanticElementRef, table: CandidateTable) -> list[int]:
    """The row of the ref's role and name under the recorded heading, where each such row
    has a heading of its own (:func:`_titled`) and one heading of the page reads the
    recorded one (two would be two blocks of one title); none otherwise."""
    rows, keys = _titled(ref, table)
    recorded = heading_key(ref.heading)
    there = [r for r, key in zip(rows, keys, strict=True) if key == recorded]
    return there if there and table.derived(Titles).counts[recorded] == 1 else []


def namesake_headed_there(ref: SemanticElementRef, table: CandidateTable, row: int) -> bool:
    """Whether ``row`` is under another heading than the recorded one while exactly one
    other row of the recorded role and name is under it: reordered or shifted blocks,
    where a positional selector or a place followed the slot, not the element."""
    if ref.heading is None or not _elsewhere(ref, table, row):
        return False
    there = headed_there(ref, table)
    return len(there) == 1 and there[0] != row


def heading_there(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.heading_there``: a tie or a doubt among rows of the recorded role and name,
    one of which, among the ranked rows, is the only such row on the page under the recorded
    heading (:func:`headed_there`): cards reordered or shifted carry their titles with
    them, and the title says which card's control was recorded."""
    ref, table = ctx.ref, ctx.table
    if ref.heading is None or len(decision.candidates) < 2:
        return None
    there = headed_there(ref, table)
    if len(there) != 1:
        return None
    kept = next((c for c in decision.candidates if c.id == table.ids[there[0]]), None)
    if kept is None:
        return None
    other = next(c for c in decision.candidates if c is not kept)
    reason = (
        f"{kept.executor_id}, of the recorded role and name, is the only one under the "
        f"recorded heading {(ref.heading or '')[:80]!r}"
    )
    return taken(decision, kept, other, reason)


def heading_moved(ctx: Context, decision: Decision) -> Decision | None:
    """``accept.heading_moved``: the answer is under another heading than the recorded one,
    while exactly one other row of the recorded role and name, among the ranked rows, is
    under it (:func:`namesake_headed_there`): the recorded block moved (cards reordered, one
    before it removed) and another block's control took its place; the one under the
    recorded heading is taken instead. Asked of every answer, however it was made."""
    ref, table = ctx.ref, ctx.table
    if ref.heading is None or len(decision.candidates) < 2:
        return None
    row = decided_row(ctx, decision)
    if row is None or not namesake_headed_there(ref, table, row):
        return None
    (there,) = headed_there(ref, table)
    kept = next((c for c in decision.candidates if c.id == table.ids[there]), None)
    if kept is None or decision.best is None:
        return None  # (not ranked: the doubt below says so)
    reason = (
        f"{kept.executor_id}, of the recorded role and name, is the only one under the "
        f"recorded heading {(ref.heading or '')[:80]!r}; {decision.best.executor_id}, in "
        "the recorded place or slot, is under another"
    )
    return taken(decision, kept, decision.best, reason)


def heading_elsewhere(ctx: Context, decision: Decision) -> Decision | None:
    """``ambiguous.heading_elsewhere``: the answer is under another heading than the recorded
    one, while exactly one other row of the recorded role and name is under it
    (:func:`namesake_headed_there`), and that row was not ranked (so
    ``accept.heading_moved`` could not take it): the answer is another block's control, in
    the place or slot the recorded one had. Asked of every answer, however it was made."""
    ref, table = ctx.ref, ctx.table
    if ref.heading is None:
        return None
    row = decided_row(ctx, decision)
    if row is None or not namesake_headed_there(ref, table, row):
        return None
    (there,) = headed_there(ref, table)
    own = (index_of(table).heading_of(row) or "")[:80]
    why = (
        f"the answer is under the heading {own!r}, and "
        f"{table.executor_id(there)}, of the recorded role and name, is under the recorded "
        f"heading {ref.heading[:80]!r}"
    )
    return overruled(decision, "ambiguous", why)


def heading_gone(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.heading_gone``: no heading of the page keeps a word of the recorded one
    (:func:`_kept_words`), and the answer is one of several rows of the recorded role and
    name, each under a heading of its own (:func:`_titled`), its own at most ``title_rows``
    rows above it. Such rows are told apart by their headings (a card's
    title), and the recorded one went with its block: the answer is a neighbour in its
    place."""
    ref, table = ctx.ref, ctx.table
    row = decided_row(ctx, decision)
    if ref.heading is None or row is None or not _elsewhere(ref, table, row):
        return None
    rows, _ = _titled(ref, table)
    if row not in rows:
        return None  # (rows without a heading, or sharing one: headings tell them not apart)
    if row - int(index_of(table).headings[row]) > ctx.config.title_rows:
        return None  # a section's heading far above, not a block's title: it may have gone
    if _kept_words(ref.heading or "", table):
        return None  # the recorded heading is on the page, or one renamed from it may be
    why = (
        f"no heading reads {(ref.heading or '')[:80]!r} any more, and each element of the recorded "
        f"role and name is under a heading of its own: the answer, {table.executor_id(row)}, "
        "is a neighbour in the place of one that went"
    )
    return overruled(decision, "not_found", why)


def _kept_words(heading: str, table: CandidateTable) -> bool:
    """Whether a heading of the page keeps a word (of three letters or more) of ``heading``:
    the same heading, or one an edit renamed ("... uvedl Hamáček" cut to "... uvedl")."""
    words = {w for w in _WORD.findall(normalize(heading)) if len(w) >= 3}
    return not words.isdisjoint(table.derived(Titles).words)


_WORD: Final = re.compile(r"\w+")
"""A word of a heading, its punctuation aside ("References[edit]": references, edit)."""


HEADING_TIE_RULES: Final = (
    Rule(
        "accept.heading_there", "accepts", "review",
        "Tied or doubted between elements of the recorded role and name, and one of them is "
        "the only one on the page under the recorded heading: blocks reordered or shifted "
        "carry their titles.", heading_there, ("ambiguous",),
    ),
)  # fmt: skip
"""The tie-breaker by heading, in the registry's order (the last before the learned model)."""

HEADING_FINAL_RULES: Final = (
    Rule(
        "accept.heading_moved", "accepts", "final",
        "The answer is under another heading than the recorded one, while exactly one other "
        "ranked element of the recorded role and name is under it: the recorded block "
        "moved, and that element is taken.", heading_moved, ("accepted",),
    ),
    Rule(
        "ambiguous.heading_elsewhere", "doubts", "final",
        "The answer is under another heading than the recorded one, while exactly one other "
        "element of the recorded role and name is under it: another block's control took "
        "the recorded place or slot.", heading_elsewhere, ("accepted",), absence="gone",
    ),
    Rule(
        "refuse.heading_gone", "refuses", "final",
        "No heading of the page keeps a word of the recorded one, and the answer is one of "
        "several elements of the recorded role and name each under a heading of its own: "
        "the recorded block went, a neighbour took its place.",
        heading_gone, ("accepted",), ("title_rows",), absence="gone",
    ),
)  # fmt: skip
"""The final rules by heading, in the registry's order (after the one by link address)."""
