"""Records named by their texts (a table's rows, a list's entries): which record an element
is in, and what tells a record that was recorded from its neighbours."""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from ..models import SemanticElementRef
from ..table import MAX_ENTRY, CandidateTable
from ..text import mask_digits, normalize
from .facts import (
    InnerGroups,
    bears_name,
    decided_row,
    entry_words,
    namesake_rows,
    record_named,
    recorded_record,
    table_row_of,
)
from .rule import Context, Decision, Rule, overruled

__all__ = [
    "LISTED_RECORDS",
    "RECORD_RULES",
    "in_recorded_record",
    "listed_namesakes",
    "namesake_recorded_there",
    "other_number",
    "record_elsewhere",
    "record_gone",
    "record_in_view",
    "record_of",
    "record_text",
]

LISTED_RECORDS: Final[frozenset[str]] = frozenset({"row", "listitem", "treeitem", "option"})
"""The records one of many alike in a list or table is (an article, also named by its texts
when unnamed, is a page's content rather than one of a list's entries)."""


def listed_namesakes(ref: SemanticElementRef, table: CandidateTable, record: int) -> bool:
    """Whether another entry beside ``record`` (the same parent, the same role) holds a row of
    the ref's role and name: the neighbours of a list's entry carry the same control."""
    parent, roles = table.parent, table.roles
    for r in namesake_rows(ref, table):
        up = int(parent[r])
        while up >= 0 and up != record and roles[up] != roles[record]:
            up = int(parent[up])
        if up >= 0 and up != record and parent[up] == parent[record]:
            return True
    return False


def record_of(table: CandidateTable, row: int, depth: int) -> int | None:
    """The record ``row`` is in: a table row, list item, tree item or option
    (:data:`LISTED_RECORDS`) at most ``depth`` levels above it, or ``None``."""
    return table_row_of(table, row, depth, LISTED_RECORDS)


def namesake_recorded_there(ref: SemanticElementRef, table: CandidateTable, row: int) -> bool:
    """Whether ``row`` is in another record than the one the reference recorded (a table
    row, a list's entry, named by its texts: "Order 10 Delete") while another row of the
    recorded role and name is in that record: reordered or scrolled records, where a
    positional selector followed the slot ("Order 9"'s Delete in the fourth place), not the
    element. Only where that record holds one namesake: records alike in all their texts
    tell no element apart."""
    recorded, paths = recorded_record(ref), table.containers
    if recorded is None or not paths[row] or normalize(paths[row][-1][:MAX_ENTRY]) == recorded:
        return False
    if not bears_name(ref, table, row):
        return False  # (a renamed target: its record's text changed with its name)
    there = [r for r in in_recorded_record(ref, table) if r != row]
    return len(there) == 1  # (records of one text, "Dismiss Undismiss", name no element)


def in_recorded_record(ref: SemanticElementRef, table: CandidateTable) -> list[int]:
    """The rows of the ref's role and name whose innermost container is the record the
    reference recorded (:func:`~.facts.recorded_record`; none when it recorded none)."""
    recorded, paths = recorded_record(ref), table.containers
    if recorded is None:
        return []
    return [
        r for r in namesake_rows(ref, table)
        if paths[r] and normalize(paths[r][-1][:MAX_ENTRY]) == recorded
    ]  # fmt: skip


def record_text(table: CandidateTable, record: int) -> str:
    """A record's text as its descendants' container paths hold it: its name, or, unnamed
    (a DOM row), its cells' texts."""
    label = getattr(table.containers, "label", None)  # (a copied table's paths: a tuple)
    return str(label(record)) if label is not None else table.names[record]


def record_in_view(ref: SemanticElementRef, table: CandidateTable) -> int | None:
    """The record (a table row, a list's entry: :data:`LISTED_RECORDS`) that alone on the page
    bears a word of the recorded record, the element's own name aside ("Order 70 Ada Quinn"
    for "Order 70 EUR 202.50 Shipped Delete": "70"); ``None`` when no record does, or two
    records do, or the reference recorded no record. A grid draws a row's cells for the
    columns in view, so the recorded record may be on the page with other texts than it had,
    and without the recorded element."""
    recorded = recorded_record(ref)
    if recorded is None or not ref.container_path or not ref.name:
        return None
    own = set(normalize(ref.name).split())
    words = _bare_words(ref.container_path[-1], recorded)
    wanted = {w for w in words if any(c.isalnum() for c in w)} - own
    holders: dict[str, list[int]] = {}
    for row, role in enumerate(table.roles):
        if role in LISTED_RECORDS:
            text = record_text(table, row)
            for word in wanted.intersection(_bare_words(text, normalize(text[:MAX_ENTRY]))):
                holders.setdefault(word, []).append(row)
    found = {rows[0] for rows in holders.values() if len(rows) == 1}
    return found.pop() if len(found) == 1 else None


def record_gone(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.record_gone``: the reference recorded the record the element was in (a table
    row, a list's entry: named by its texts, "Bob bob@example.com Delete"), no element of
    the page is in that record any more, and the answer is in another record
    (:func:`record_of`, at most ``table_row_depth`` levels up) that has at most half
    of the recorded record's words (the element's own name aside), or more but each of them
    in other records too while it lacks a recorded word holding a digit that is nowhere on
    the page (a grid's rows share their columns' values, "Shipped", "Parcel Line": "Order 4"
    for "Order 70"), and none of them that only it has on the page ("Carol
    carol@example.com Delete": no word of Bob's row), while some of
    the recorded record's words are on the page no more (a removed row takes its own texts
    with it: "bob"). The record was removed, or a virtualised list has not drawn it, and a
    neighbour's control took its place: a recorded selector, xpath or box that still points
    there names the neighbour's ("Order 180"'s Delete for "Order 120"'s). Asked of every
    answer, however it was made. A record edited (Bob's e-mail changed) keeps a word no other
    record has ("bob"); a layout table's row, whose text holds the rows inside it, keeps most
    of them. Words are read from the page's texts (the rows' names), and the last word of an
    entry cut at its length limit is left out (it may be a piece of one). A list's entry (a
    list item, tree item or option) is judged so only where it shares a word with the
    recorded one ("Order") and its neighbour entries hold namesakes of the answer (a nested
    menu's entries, named by first texts that change when the menu is reordered, do not);
    its words are looked for among the page's entries (a number of a removed order, "10", is
    elsewhere on a page, "Section 10", more often than a name is)."""
    ref, table = ctx.ref, ctx.table
    if not ref.container_path or not ref.name:
        return None
    row = decided_row(ctx, decision)
    if row is None or not table.containers[row]:
        return None
    record = record_of(table, row, ctx.config.table_row_depth)
    if record is None:
        return None  # the answer is not in a record
    recorded = recorded_record(ref)
    groups = table.derived(InnerGroups)
    if recorded is None or recorded in groups.entries:
        return None  # no record recorded, or it is still on the page
    inner = table.containers[row][-1]
    answer = record_named(inner, ref.name)
    if answer is None:
        return None  # the answer is not in a record named by its texts
    own = set(normalize(ref.name).split())
    words = set(entry_words(ref.container_path[-1], recorded)) - own
    listed = table.roles[record] != "row"  # a list's entry: its words among the entries'
    if words <= (groups.words.keys() if listed else groups.page_words):
        return None  # every word of the recorded row is still on the page: not removed
    shared = set(entry_words(inner, answer)) & words
    most = 2 * len(shared) > len(words)
    if not words or (most and not _key_lost(words - shared, shared, groups)):
        return None  # most of the recorded record's words: the record itself, or edited
    if any(groups.words.get(w, 0) == 1 for w in shared):
        return None  # the answer's record alone has a word of the recorded one: edited
    if listed and not (shared and listed_namesakes(ref, table, record)):
        return None  # a list's entry not shaped as the recorded one, or without namesakes
    why = (
        f"no element is in the recorded record {ref.container_path[-1][:80]!r} any more, and "
        f"the answer is in another one, {inner[:80]!r}, which has no word of it that only "
        "it has: the record was removed"
    )
    return overruled(decision, "not_found", why)


def _key_lost(lacked: set[str], shared: set[str], groups: InnerGroups) -> bool:
    """Whether the answer's record lacks a word of the recorded record that holds a digit and
    is nowhere on the page (its key: "70", "TRK-E0VX") while every word it shares with it is
    in other records too: a grid's records share their columns' values ("Shipped", "Parcel
    Line", "EUR"), and the key alone tells one from another."""
    page = groups.page_words
    keyed = any(w not in page and _numbered(w) for w in lacked)
    return keyed and all(groups.words.get(w, 0) > 1 for w in shared)


def _bare_words(entry: str, norm: str) -> set[str]:
    """:func:`entry_words` without the punctuation around each, as :func:`normalize` takes
    it from a name's edges ("12:01" of '"12:01')."""
    return {bare for w in entry_words(entry, norm) if (bare := normalize(w))}


@lru_cache(maxsize=4096)
def _numbers(entry: str, recorded: str, name: str) -> frozenset[str]:
    """The words of a recorded record (``entry``, normalised ``recorded``) holding a digit,
    the element's own name aside (kept: the references of a page repeat their records)."""
    own = set(normalize(name).split())
    return frozenset(w for w in _bare_words(entry, recorded) if _numbered(w) and w not in own)


def _numbered(word: str) -> bool:
    """Whether a word holds a digit: a record's number or code ("130", "TRK-O7I9")."""
    return any(c.isdigit() for c in word)


def other_number(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.other_number``: the answer bears the recorded name in a record whose text is
    the recorded record's but for its numbers ("Order 7 Delete" for "Order 10 Delete"),
    while the recorded record is on the page holding another element of the recorded role
    and name, and no third (:func:`namesake_recorded_there`). Numbered records differ in
    their numbers alone, which a fuzzy comparison of texts barely sees: the recorded box or
    slot, which a scrolled list gives to another record, outweighed them. Ambiguous, both
    records named. Asked of every answer, however it was made."""
    table, ref = ctx.table, ctx.ref
    recorded = recorded_record(ref)
    if recorded is None:
        return None  # (asked first: finding the answer's row indexes every row ID once)
    row = decided_row(ctx, decision)
    if row is None or not table.containers[row]:
        return None
    inner = normalize(table.containers[row][-1][:MAX_ENTRY])
    if inner == recorded or mask_digits(inner) != mask_digits(recorded):
        return None  # the recorded record, or one of other words
    if not namesake_recorded_there(ref, table, row):
        return None
    why = (
        f"its record {table.containers[row][-1][:80]!r} is the recorded one, "
        f"{ref.container_path[-1][:80]!r}, but for its numbers, and that record is on the "
        "page with an element of the recorded role and name in it"
    )
    return overruled(decision, "ambiguous", why)


def record_elsewhere(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.record_elsewhere``: the answer is in a record (a table row, a list's entry)
    that bears no key of the recorded record, while another record holding the one other
    element of the recorded role and name in it does. A key is a word of the recorded
    record holding a digit, the element's own name aside, that one record alone among those
    holding such an element (and the answer's) bears ("130" or "TRK-O7I9" of "Order 130 EUR
    22.50 Shipped TRK-O7I9 Delete"; "22.50" may be another row's too), and the answer's
    record bears none of the recorded record's words holding a digit (a long record's text
    is cut, and may not show its key: a record sharing a number with the recorded one is
    left to the other rules). A grid draws a
    row's cells for the columns in view, so the recorded record may be there with other
    texts than it had, where :func:`other_number` and :func:`namesake_recorded_there` look
    for its recorded text: the recorded box or slot, which the grid gave another row,
    outweighed the few words the rows differ by. Ambiguous, both records named. Asked of
    every answer, however it was made."""
    table, ref = ctx.table, ctx.ref
    recorded = recorded_record(ref)
    if recorded is None:
        return None  # (asked first: finding the answer's row indexes every row ID once)
    wanted = _numbers(ref.container_path[-1], recorded, ref.name or "")
    if not wanted:
        return None  # no number or code recorded to tell records apart
    row = decided_row(ctx, decision)
    if row is None or not table.containers[row]:
        return None
    depth = ctx.config.table_row_depth
    mine = record_of(table, row, depth)
    if mine is None or not bears_name(ref, table, row):
        return None  # (a renamed target: its record's text changed with its name)
    text = record_text(table, mine)
    norm = normalize(text[:MAX_ENTRY])
    if norm == recorded or wanted & _bare_words(text, norm):
        return None  # the recorded record, or one bearing a number of it
    keyed: dict[str, set[int]] = {}
    held: dict[int, list[int]] = {mine: [row]}
    for r in namesake_rows(ref, table):
        record = record_of(table, r, depth)
        if record is None or record == mine or table.roles[record] != table.roles[mine]:
            continue
        held.setdefault(record, []).append(r)
        if len(held[record]) > 1:
            continue
        entry = record_text(table, record)
        for word in wanted.intersection(_bare_words(entry, normalize(entry[:MAX_ENTRY]))):
            keyed.setdefault(word, set()).add(record)
    keys = {next(iter(records)) for records in keyed.values() if len(records) == 1}
    if len(keys) != 1:
        return None
    other = keys.pop()
    if len(held[other]) != 1:
        return None  # (a record of several namesakes tells none of them apart)
    why = (
        f"its record {table.containers[row][-1][:80]!r} bears no word of the recorded one, "
        f"{ref.container_path[-1][:80]!r}, that tells it from the others; another record, "
        f"{record_text(table, other)[:80]!r}, does, and holds an element of the recorded role "
        "and name"
    )
    return overruled(decision, "ambiguous", why)


RECORD_RULES: Final = (
    Rule(
        "refuse.record_gone", "refuses", "final",
        "The recorded record (a table row or a list's entry, named by its texts) is gone from "
        "the page (removed, or not drawn by a virtualised list) and the answer is in another "
        "record: a neighbour took its place.",
        record_gone, ("accepted",), ("table_row_depth",), absence="gone",
    ),
    Rule(
        "refuse.other_number", "refuses", "final",
        "The answer is in a record that is the recorded one but for its numbers (\"Order 7\" "
        "for \"Order 10\"), while the recorded record is on the page with an element of the "
        "recorded role and name in it: the recorded place took a neighbour.",
        other_number, ("accepted",), absence="twins",
    ),
    Rule(
        "refuse.record_elsewhere", "refuses", "final",
        "The answer is in a record that bears no key of the recorded record (a word only one "
        "record bears, \"130\" of \"Order 130\"), while the one record that does holds an "
        "element of the recorded role and name: a grid drew the recorded row with other cells.",
        record_elsewhere, ("accepted",), ("table_row_depth",), absence="twins",
    ),
)  # fmt: skip
"""The final rules on records, in the registry's order (after the look-alikes')."""
