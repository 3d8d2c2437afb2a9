"""The pre-order of a node list whose nodes name their children (CDP's ``childIds``), in numpy.

A node list as ``Accessibility.getFullAXTree`` returns it is not in tree order, and walking it
node by node costs a few microseconds a node in Python. When the list is a well-formed forest
(unique string IDs, every child listed once by one parent, the nodes that name a known parent
exactly the nodes some parent lists, no cycle), its pre-order follows from three numbers per
node, each found for all nodes at once:

- the parent (the node that lists it) and the depth, by pointer doubling: ``log2(depth)``
  rounds of array indexing;
- the subtree size, summed level by level from the deepest (one ``np.add.at`` a level);
- the position: a root's is the sizes of the roots before it, a child's is its parent's plus
  one plus the sizes of its earlier siblings (again a sum along the path, by doubling).

:func:`forest_rows` gives the rows of the nodes that make one (in pre-order) with the row of
each one's nearest kept ancestor, exactly what the node-by-node walk gives; any other list
(``None``) is left to that walk, which also handles broken ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, compress, repeat
from operator import is_not
from typing import Any

import numpy as np
import numpy.typing as npt

from ...limits import Limits
from ...table import ancestor_sums as path_sums

__all__ = ["forest_rows", "path_sums"]

Index = npt.NDArray[np.int64]


class _Lookup:
    """Node IDs to list positions: by numbers when every ID is a plain decimal number (as
    Chrome's are: no dict of strings to build), else by a dict."""

    def __init__(self, ids: list[str]) -> None:
        self.numbers = _numbers(ids)
        self.index: dict[str, int] | None = None
        if self.numbers is not None:
            self.order = np.argsort(self.numbers, kind="stable")
            self.sorted = self.numbers[self.order]
            self.unique = bool(len(ids) < 2 or (np.diff(self.sorted) > 0).all())
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
        if numbers is None:  # some key is no plain number, so no ID equals it
            return np.array([self._one(k) for k in keys], np.int64).reshape(-1)
        at = np.minimum(np.searchsorted(self.sorted, numbers), max(len(self.sorted) - 1, 0))
        if not len(self.sorted):
            return np.full(len(keys), -1, dtype=np.int64)
        return np.where(self.sorted[at] == numbers, self.order[at], -1).astype(np.int64)

    def _one(self, key: str) -> int:
        found = _numbers([key])
        if found is None or not len(self.sorted):
            return -1
        at = min(int(np.searchsorted(self.sorted, found[0])), len(self.sorted) - 1)
        return int(self.order[at]) if self.sorted[at] == found[0] else -1


def _numbers(ids: list[str]) -> Index | None:
    """The IDs as integers when each is a decimal number written plainly (ASCII digits, no
    leading zero, at most 18 of them), else ``None``."""
    text = "".join(ids)
    if not text.isascii() or not text.isdigit() or not all(ids):
        return None
    lengths = np.fromiter(map(len, ids), np.int64, count=len(ids))
    if int(lengths.max(initial=0)) > 18:
        return None
    numbers = np.array(ids, dtype=np.int64).reshape(len(ids))
    digits = np.ones(len(ids), dtype=np.int64)
    for power in range(1, 18):  # an ID with a leading zero is longer than its number
        digits += numbers >= 10**power
    return numbers if int(digits.sum()) == len(text) else None


def _kids(nodes: Sequence[Any], lookup: _Lookup) -> tuple[Index, Index] | None:
    """``(owner, kid)`` of every known child listed, in list order, or ``None`` when a
    ``childIds`` is neither a list nor missing, or a child ID is not a string."""
    lists = list(map(dict.get, nodes, repeat("childIds")))
    if set(map(type, lists)) - {list, type(None)}:
        return None
    lens = [len(kids) if kids else 0 for kids in lists]
    kid = lookup.find(list(chain.from_iterable(filter(None, lists))))
    if kid is None:
        return None
    owner = np.repeat(np.arange(len(nodes), dtype=np.int64), lens)
    known = kid >= 0
    return owner[known], kid[known]


def _sizes(parent: Index, depth: Index) -> Index:
    """Subtree sizes, from the deepest level up."""
    size = np.ones(len(parent), dtype=np.int64)
    order = np.argsort(depth, kind="stable")
    bounds = np.searchsorted(depth[order], np.arange(int(depth.max(initial=0)) + 2))
    for level in range(len(bounds) - 2, 0, -1):
        at = order[bounds[level] : bounds[level + 1]]
        np.add.at(size, parent[at], size[at])
    return size


def _positions(parent: Index, owner: Index, kid: Index) -> Index | None:
    """Pre-order positions (roots in list order, children in listed order)."""
    depth = path_sums(parent, np.ones(len(parent), dtype=np.int64))
    if depth is None:
        return None
    size = _sizes(parent, depth - 1)
    weight = np.zeros(len(parent), dtype=np.int64)
    roots = np.flatnonzero(parent < 0)
    weight[roots] = np.cumsum(size[roots]) - size[roots]
    if len(kid):
        sizes = size[kid]
        before = np.cumsum(sizes) - sizes  # sizes of the listed children before, over all
        first = np.ones(len(kid), dtype=bool)
        first[1:] = owner[1:] != owner[:-1]
        start = np.maximum.accumulate(np.where(first, np.arange(len(kid)), 0))
        weight[kid] = 1 + before - before[start]
    return path_sums(parent, weight)


def forest_rows(
    nodes: Sequence[Any], ids: list[str], kept: npt.NDArray[np.bool_], limits: Limits
) -> tuple[list[int], Index] | None:
    """``(node_of_row, parent_row)`` of the nodes ``kept`` marks, in pre-order, or ``None``
    when the list is not a well-formed forest of dict nodes with unique string IDs.

    Rows nested deeper than ``limits.max_depth`` kept levels are refused, as the walk does.
    """
    n = len(nodes)
    lookup = _Lookup(ids)
    if not lookup.unique:
        return None
    kids = _kids(nodes, lookup)
    if kids is None:
        return None
    owner, kid = kids
    parent = np.full(n, -1, dtype=np.int64)
    parent[kid] = owner
    listed = np.zeros(n, dtype=bool)
    listed[kid] = True
    named: list[Any] = list(map(dict.get, nodes, repeat("parentId")))
    if set(map(type, named)) - {str, type(None)}:
        return None
    given = np.fromiter(map(is_not, named, repeat(None)), bool, count=n)
    found = lookup.find(list(compress(named, given)))
    if found is None:
        return None
    has_parent = np.zeros(n, dtype=bool)
    has_parent[given] = found >= 0
    if len(kid) != int(listed.sum()) or not np.array_equal(listed, has_parent):
        return None
    position = _positions(parent, owner, kid)
    if position is None:
        return None
    levels = path_sums(parent, kept.astype(np.int64))
    assert levels is not None  # (the same chains ended just above)
    if len(levels) and int(levels[kept].max(initial=0)) > limits.max_depth:
        raise limits.refuse("max_depth", None, "the AX tree")
    return _kept_rows(parent, kept, position)


def _kept_rows(
    parent: Index, kept: npt.NDArray[np.bool_], position: Index
) -> tuple[list[int], Index]:
    """The kept nodes in pre-order and the row of each one's nearest kept ancestor."""
    up = parent.copy()
    skip = np.flatnonzero(up >= 0)
    skip = skip[~kept[up[skip]]]
    while len(skip):
        up[skip] = parent[up[skip]]
        skip = skip[up[skip] >= 0]
        skip = skip[~kept[up[skip]]]
    order = np.argsort(position, kind="stable")
    order = order[kept[order]]
    row = np.full(len(parent) + 1, -1, dtype=np.int64)  # row[-1] stays -1 for roots
    row[order] = np.arange(len(order))
    return order.tolist(), row[up[order]]
