"""The pre-order of a node list whose nodes name their children (CDP's ``childIds``), in numpy.

A node list as ``Accessibility.getFullAXTree`` returns it is not in tree order, and walking it
node by node costs a few microseconds a node in Python. When the list is a well-formed forest
(unique string IDs, every child listed once by one parent, the nodes that name a known parent
exactly the nodes some parent lists, no cycle), its pre-order follows from a few numbers per
node, found a level at a time for all the level's nodes at once:

- going down from the roots, each level's nodes are the listed children of the level above
  (in listed order), with their parent, nearest kept ancestor and kept depth;
- going up, a subtree's size is one plus its children's (one ``np.add.reduceat`` a level);
- going down again, a root's position is the sizes of the roots before it, a child's is its
  parent's plus one plus the sizes of its earlier siblings.

:func:`forest_rows` gives the rows of the nodes that make one (in pre-order) with the row of
each one's nearest kept ancestor, exactly what the node-by-node walk gives; any other list
(``None``) is left to that walk, which also handles broken ones, as it does lists of more
than :data:`MAX_LEVELS` levels (a level costs a few array operations however few its nodes).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, repeat
from operator import is_not
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ...limits import Limits

__all__ = ["MAX_LEVELS", "IdLookup", "forest_rows"]

Index = npt.NDArray[np.int64]


class IdLookup:
    """Node IDs to list positions: by numbers when every ID is a plain decimal number (as
    Chrome's are: no dict of strings to build), else by a dict."""

    def __init__(self, ids: list[str]) -> None:
        self.numbers = _numbers(ids)
        self.index: dict[str, int] | None = None
        self.parts: tuple[_Part, _Part] | None = None
        if self.numbers is not None:
            below = self.numbers < 0
            at = np.arange(len(ids), dtype=np.int64)
            self.parts = (
                _Part(self.numbers[~below], at[~below]),
                _Part(self.numbers[below], at[below]),
            )
            self.unique = self.parts[0].unique and self.parts[1].unique
        else:
            self.index = dict(zip(ids, range(len(ids)), strict=True))
            self.unique = len(self.index) == len(ids) and "" not in self.index

    def find(self, keys: list[str]) -> Index | None:
        """The position of each key, -1 for an unknown one; ``None`` when a key is not text."""
        if keys and set(map(type, keys)) != {str}:
            return None
        if self.index is not None:
            return np.array(list(map(self.index.get, keys, repeat(-1))), np.int64).reshape(-1)
        numbers = _numbers(keys)
        if numbers is None:  # some key is no plain number: look them up one by one
            return np.array([self._one(k) for k in keys], np.int64).reshape(-1)
        return self._found(numbers)

    def _found(self, numbers: Index) -> Index:
        assert self.parts is not None
        below = numbers < 0
        if not below.any():
            return self.parts[0].find(numbers)
        out = np.empty(len(numbers), dtype=np.int64)
        out[~below] = self.parts[0].find(numbers[~below])
        out[below] = self.parts[1].find(numbers[below])
        return out

    def _one(self, key: str) -> int:
        found = _numbers([key])
        return -1 if found is None else int(self._found(found)[0])


class _Part:
    """Positions of the IDs of one sign: a direct table when their numbers are dense (as
    Chrome numbers its nodes), else the numbers sorted, for a binary search."""

    def __init__(self, numbers: Index, positions: Index) -> None:
        self.low = int(numbers.min()) if len(numbers) else 0
        span = int(numbers.max()) - self.low + 1 if len(numbers) else 0
        self.table: Index | None = None
        if span <= 4 * len(numbers) + 1024:
            self.table = np.full(span, -1, dtype=np.int64)
            self.table[numbers - self.low] = positions
            self.unique = bool((self.table[numbers - self.low] == positions).all())
        else:
            order = np.argsort(numbers, kind="stable")
            self.sorted, self.order = numbers[order], positions[order]
            self.unique = bool((np.diff(self.sorted) > 0).all())

    def find(self, numbers: Index) -> Index:
        """The position of each number, -1 for one that is no ID."""
        if self.table is not None:
            at = numbers - self.low
            inside = (at >= 0) & (at < len(self.table))
            if not len(self.table):
                return np.full(len(numbers), -1, dtype=np.int64)
            return np.where(inside, self.table[np.where(inside, at, 0)], -1)
        at = np.minimum(np.searchsorted(self.sorted, numbers), len(self.sorted) - 1)
        return np.where(self.sorted[at] == numbers, self.order[at], -1).astype(np.int64)


def _numbers(ids: list[str]) -> Index | None:
    """The IDs as integers when each is a decimal number written plainly (ASCII digits after
    an optional minus sign, no leading zero, no "-0", at most 18 digits), else ``None``."""
    if not ids:
        return np.empty(0, dtype=np.int64)
    text = " ".join(ids)
    try:
        data = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    except UnicodeEncodeError:
        return None
    gaps = np.flatnonzero(data == 32)
    starts = np.concatenate(([0], gaps + 1))
    ends = np.concatenate((gaps, [len(data)]))
    digits = (data >= 48) & (data <= 57)
    minus = data == 45
    signed = np.zeros(len(starts), dtype=bool)
    if len(data):
        signed = minus[np.minimum(starts, len(data) - 1)] & (starts < ends)
    first = starts + signed  # each ID's first digit
    count = ends - first
    if (
        len(gaps) != len(ids) - 1  # (an ID with a space in it)
        or int(digits.sum()) + int(signed.sum()) != len(data) - len(gaps)
        or int(minus.sum()) != int(signed.sum())  # a minus sign other than in front
        or int(count.min()) < 1
        or int(count.max()) > 18
        or bool(((data[np.minimum(first, len(data) - 1)] == 48) & ((count > 1) | signed)).any())
    ):  # (the last: a leading zero, or "-0")
        return None
    return np.array(text.split(" "), dtype=np.int64) if len(ids) < 64 else _parse(text, len(ids))


def _parse(text: str, count: int) -> Index:
    """Space-separated decimal numbers (checked) as integers."""
    numbers = np.fromstring(text, dtype=np.int64, sep=" ")
    if len(numbers) != count:  # (never for checked text; kept as a guard)
        return np.array(text.split(" "), dtype=np.int64)
    return numbers


def _kids(nodes: Sequence[Any], lookup: IdLookup) -> tuple[Index, Index] | None:
    """``(owner, kid)`` of every known child listed, in list order, or ``None`` when a
    ``childIds`` is neither a list nor missing, or a child ID is not a string."""
    lists: list[Any] = list(map(dict.get, nodes, repeat("childIds")))
    if set(map(type, lists)) - {list, type(None)}:
        return None
    lens = list(map(len, lists)) if None not in lists else [len(k) if k else 0 for k in lists]
    kid = lookup.find(list(chain.from_iterable(filter(None, lists))))
    if kid is None:
        return None
    owner = np.repeat(np.arange(len(nodes), dtype=np.int64), lens)
    known = kid >= 0
    return owner[known], kid[known]


MAX_LEVELS: Final[int] = 512
"""Lists nested deeper are left to the node walk."""


class _Levels:
    """The forest a level at a time, from the roots down (see the module docstring)."""

    def __init__(self, n: int, owner: Index, kid: Index, kept: npt.NDArray[np.bool_]) -> None:
        self.count = np.bincount(owner, minlength=n).astype(np.int64)
        self.start = np.cumsum(self.count) - self.count  # each node's first listed child
        self.kid = kid
        self.parent = np.full(n + 1, -1, dtype=np.int64)  # [-1] stands for "no parent"
        self.up = np.full(n + 1, -1, dtype=np.int64)  # nearest kept ancestor
        self.depth = np.zeros(n + 1, dtype=np.int64)  # kept levels down to the node
        self.kept = np.append(kept, False)
        self.levels: list[Index] = []

    def walk(self, roots: Index) -> int:
        """Fill the levels; the number of nodes reached."""
        level, reached = roots, 0
        self.depth[roots] = self.kept[roots]
        while len(level):
            if len(self.levels) >= MAX_LEVELS:
                return -1
            self.levels.append(level)
            reached += len(level)
            level = self._below(level)
        return reached

    def _below(self, level: Index) -> Index:
        counts = self.count[level]
        total = int(counts.sum())
        if not total:
            return np.empty(0, dtype=np.int64)
        first = np.cumsum(counts) - counts
        at = np.repeat(self.start[level] - first, counts) + np.arange(total)
        below = self.kid[at]
        above = np.repeat(level, counts)
        self.parent[below] = above
        self.up[below] = np.where(self.kept[above], above, self.up[above])
        self.depth[below] = self.depth[above] + self.kept[below]
        return below

    def positions(self) -> Index:
        """Pre-order positions (roots in list order, children in listed order)."""
        n = len(self.parent) - 1
        size = np.ones(n, dtype=np.int64)
        for level in reversed(self.levels[1:]):  # children are grouped by parent
            owners = self.parent[level]
            first = np.flatnonzero(np.concatenate(([True], owners[1:] != owners[:-1])))
            size[owners[first]] += np.add.reduceat(size[level], first)
        position = np.zeros(n, dtype=np.int64)
        roots = self.levels[0] if self.levels else np.empty(0, dtype=np.int64)
        position[roots] = np.cumsum(size[roots]) - size[roots]
        for level in self.levels[1:]:
            owners = self.parent[level]
            sizes = size[level]
            before = np.cumsum(sizes) - sizes
            group = np.concatenate(([True], owners[1:] != owners[:-1]))
            start = np.maximum.accumulate(np.where(group, np.arange(len(level)), 0))
            position[level] = position[owners] + 1 + before - before[start]
        return position


def forest_rows(
    nodes: Sequence[Any],
    ids: list[str],
    kept: npt.NDArray[np.bool_],
    limits: Limits,
    lookup: IdLookup | None = None,
) -> tuple[list[int], Index] | None:
    """``(node_of_row, parent_row)`` of the nodes ``kept`` marks, in pre-order, or ``None``
    when the list is not a well-formed forest of dict nodes with unique string IDs
    (``lookup``: the IDs' :class:`IdLookup`, when the caller made it already).

    Rows nested deeper than ``limits.max_depth`` kept levels are refused, as the walk does.
    """
    n = len(nodes)
    lookup = IdLookup(ids) if lookup is None else lookup
    if not lookup.unique:
        return None
    kids = _kids(nodes, lookup)
    if kids is None:
        return None
    owner, kid = kids
    listed = np.zeros(n, dtype=bool)
    listed[kid] = True
    if len(kid) != int(listed.sum()) or not _parents_agree(nodes, lookup, kids, ids):
        return None
    levels = _Levels(n, owner, kid, kept)
    if levels.walk(np.flatnonzero(~listed)) != n:  # a cycle, or too many levels
        return None
    if n and int(levels.depth[:n][kept].max(initial=0)) > limits.max_depth:
        raise limits.refuse("max_depth", None, "the AX tree")
    order = np.empty(n, dtype=np.int64)
    order[levels.positions()] = np.arange(n)
    order = order[kept[order]]
    row = np.full(n + 1, -1, dtype=np.int64)  # row[-1] stays -1 for roots
    row[order] = np.arange(len(order))
    return order.tolist(), row[levels.up[order]]


def _parents_agree(
    nodes: Sequence[Any], lookup: IdLookup, kids: tuple[Index, Index], ids: list[str]
) -> bool:
    """Whether the nodes that name a known ``parentId`` are exactly the listed children
    (the walk starts from the others). A listed child naming the node that lists it is
    settled by comparing the two IDs, all at once; only the other nodes (the roots, and any
    child naming someone else) have their ``parentId`` looked up."""
    named: list[Any] = list(map(dict.get, nodes, repeat("parentId")))
    if set(map(type, named)) - {str, type(None)}:
        return False
    n = len(nodes)
    owner, kid = kids
    listed = np.zeros(n, dtype=bool)
    listed[kid] = True
    given = np.fromiter(named, dtype=object, count=n)
    own = np.fromiter(ids, dtype=object, count=n)
    rest = np.ones(n, dtype=bool)
    rest[kid[given[kid] == own[owner]]] = False
    others = np.flatnonzero(rest).tolist()
    keys = [named[i] for i in others]
    has = np.fromiter(map(is_not, keys, repeat(None)), bool, count=len(keys))
    found = lookup.find([k for k in keys if k is not None])
    if found is None:
        return False
    known = np.zeros(len(keys), dtype=bool)
    known[has] = found >= 0
    return bool(np.array_equal(known, listed[others]))
