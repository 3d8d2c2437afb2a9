"""Tree walks the formats share: nested ``children`` dicts, and outlines of indented lines.

Both are iterative (no recursion) and bounded by the limits: a nested tree is walked and checked
(nodes, depth, cycles) before any row is built, so an oversized one is refused at the cost of
walking up to the limit (:class:`~resolver.limits.Limits`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import compress, islice, repeat
from typing import Any, NoReturn

import numpy as np

from ...errors import InvalidObservationError
from ...limits import DEFAULT_LIMITS, Limits
from ...table import RowPaths, TableBuilder

__all__ = ["Outline", "collect_nested", "measure_nested", "walk_nested"]


Children = str | Callable[[Mapping[str, Any]], Any]


def _kids(node: Mapping[str, Any], children_key: Children) -> Sequence[Any]:
    kids = node.get(children_key) if isinstance(children_key, str) else children_key(node)
    if isinstance(kids, Sequence) and not isinstance(kids, (str, bytes)):
        return kids
    return ()


def _dicts(items: Iterator[Any]) -> int:
    """How many of ``items`` are mappings."""
    return sum(1 for item in items if type(item) is dict or isinstance(item, Mapping))


def measure_nested(
    roots: Sequence[Any], children_key: Children, limits: Limits, what: str = "the tree"
) -> int:
    """Count the dict nodes of a nested tree, refusing it as soon as it has more nodes or
    levels than ``limits`` allow, or meets a node twice (a cycle, or one object shared by two
    parents): the walk stops at the limit, whatever the tree's size. ``what`` names the tree
    in the errors."""
    max_nodes, max_depth = limits.max_nodes, limits.max_depth
    seen: set[int] = set()
    # Level by level: a level is refused before the next is gathered, and gathering stops
    # once the nodes counted and gathered pass max_nodes.
    level = [root for root in roots if isinstance(root, Mapping)]
    count = depth = 0
    while level:
        depth += 1
        if depth > max_depth:
            raise limits.refuse("max_depth", None, what)
        count += len(level)
        if count > max_nodes:
            raise limits.refuse("max_nodes", None, what)
        before = len(seen)
        seen.update(map(id, level))
        if len(seen) != before + len(level):
            raise InvalidObservationError(
                f"{what} is cyclic or shares a node between parents", details={"depth": depth}
            )
        below = _next_level(level, children_key, max_nodes - count)
        if below is None:
            raise limits.refuse("max_nodes", None, what)
        level = below
    return count


def _next_level(level: list[Any], children_key: Children, room: int) -> list[Any] | None:
    """The dict children of ``level``'s nodes, in order; ``None`` as soon as there are more
    than ``room`` of them."""
    by_key = children_key if isinstance(children_key, str) else None
    below: list[Any] = []
    for node in level:
        kids = node.get(by_key) if by_key is not None else _kids(node, children_key)
        if not kids or not isinstance(kids, Sequence) or isinstance(kids, (str, bytes)):
            continue
        left = room - len(below)
        if len(kids) > left and _dicts(islice(kids, left + 1)) > left:
            return None
        below += [kid for kid in kids if type(kid) is dict or isinstance(kid, Mapping)]
    return below


def walk_nested(
    roots: Sequence[Any],
    *,
    children_key: Children = "children",
    max_nodes: int,
    max_depth: int = DEFAULT_LIMITS.max_depth,
) -> Iterator[tuple[Mapping[str, Any], int, str]]:
    """Yield ``(node, parent_position, path)`` in pre-order.

    ``parent_position`` is the pre-order position of the parent (-1 for roots); ``path`` is
    the dotted child-index path from the root (``"0.2.1"``), usable as an ID where the format
    has none. Non-dict children are skipped. The tree is walked whole first
    (:func:`collect_nested`): a node met twice, and trees over ``max_nodes`` nodes or
    ``max_depth`` levels, raise :class:`InvalidObservationError` (as :func:`measure_nested`
    words it) before the first node is yielded.
    """
    nodes, parents, paths = collect_nested(
        roots, children_key=children_key, max_nodes=max_nodes, max_depth=max_depth
    )
    yield from zip(nodes, parents, paths, strict=True)


Walked = tuple[list[Mapping[str, Any]], list[int], Sequence[str]]


def collect_nested(
    roots: Sequence[Any],
    *,
    children_key: Children = "children",
    max_nodes: int,
    max_depth: int = DEFAULT_LIMITS.max_depth,
) -> Walked:
    """The dict nodes of a nested tree in pre-order, their parents' positions (-1 for roots)
    and child-index paths (``"0.2.1"``: a :class:`~resolver.table.RowPaths`, each written
    when first read), what :func:`walk_nested` yields.

    One walk collects and checks: it stops once the nodes met pass ``max_nodes`` or a node
    lies deeper than ``max_depth`` levels (a cycle does both); a node met twice (a cycle, or
    one shared by two parents) is found after it. A refused tree is handed to
    :func:`measure_nested`, which raises its error for it (worded alike, whichever limit a
    walk in another order meets first). Siblings without children in a long child list are
    taken a run at a time, by list operations.
    """
    limits = Limits(max_nodes=max_nodes, max_depth=max_depth)
    stack: list[tuple[Any, ...]] = [(r, -1, i, 1) for i, r in enumerate(roots) if _is_node(r)]
    if len(stack) > max_nodes or (stack and max_depth < 1):
        _refuse(roots, children_key, limits)
    stack.reverse()
    nodes, parents, places = _started()  # (places: each node's among its parent's children)
    pop, push, add_node, add_parent, add_place = (
        stack.pop, stack.append, nodes.append, parents.append, places.append
    )  # fmt: skip
    by_key = children_key if isinstance(children_key, str) else None
    while stack:
        entry = pop()
        node = entry[0]
        if node is None:  # a run of siblings without children (_push_runs)
            _, parent, kids, start, stop = entry
            nodes += kids[start:stop]
            parents += repeat(parent, stop - start)
            places += range(start, stop)
            if len(nodes) > max_nodes:
                _refuse(roots, children_key, limits)
            continue
        _, parent, place, depth = entry
        me = len(nodes)
        add_node(node)
        add_parent(parent)
        add_place(place)
        kids = node.get(by_key) if by_key is not None else _kids(node, children_key)
        if not kids or (type(kids) is not list and not _is_list(kids)):
            continue
        room = max_nodes - me - 1 - len(stack)  # (a run waiting counts as one)
        if room < 0 or (len(kids) > room and _dicts(islice(kids, room + 1)) > room):
            _refuse(roots, children_key, limits)
        depth += 1
        before = len(stack)
        _push_kids(push, kids, children_key, me, depth)
        if len(stack) > before and (
            depth > max_depth or len(stack) + len(nodes) > max_nodes
        ):  # (the look ahead above sees only the first ``room + 1`` children)
            _refuse(roots, children_key, limits)
    if len(nodes) > max_nodes or _shared(nodes):
        _refuse(roots, children_key, limits)
    return nodes, parents, RowPaths(parents, places, _first_places)


def _started() -> tuple[list[Mapping[str, Any]], list[int], list[int]]:
    return [], [], []


def _first_places(count: int) -> Sequence[str]:
    return _places(0, count)


_PLACES: tuple[str, ...] = ()
"""``str(i)`` for the child places met so far, kept: a child path is its parent's path, a
dot and its place, and the next step's tree has the places this one had. (Replaced, never
changed: a walk in another thread reads a whole tuple.)"""
_MAX_PLACES = 1 << 18
"""Places kept at most (about 16 MB); later ones are written each time."""


def _places(start: int, stop: int) -> Sequence[str]:
    """``[str(i) for i in range(start, stop)]``, from the places kept."""
    global _PLACES
    places = _PLACES
    if stop > len(places):
        if stop > _MAX_PLACES:
            return list(map(str, range(start, stop)))
        places = _PLACES = (*places, *map(str, range(len(places), stop)))
    return places[start:stop]


_LONG = 16
"""Child lists this long (of dicts only) are walked by runs of siblings without children."""


def _push_kids(
    push: Callable[[tuple[Any, ...]], None],
    kids: Sequence[Any],
    children_key: Children,
    parent: int,
    depth: int,
) -> None:
    """Push a node's dict children for the walk, last first."""
    if len(kids) >= _LONG and type(kids) is list and {*map(type, kids)} <= {dict}:
        _push_runs(push, kids, children_key, parent, depth)
        return
    for j in range(len(kids) - 1, -1, -1):
        kid = kids[j]
        if type(kid) is dict or isinstance(kid, Mapping):
            push((kid, parent, j, depth))


def _push_runs(
    push: Callable[[tuple[Any, ...]], None],
    kids: list[Any],
    children_key: Children,
    parent: int,
    depth: int,
) -> None:
    """Push ``kids`` (dicts) for the walk, last first: the runs of those without children as
    ``(None, parent, kids, start, stop)``, each taken whole, the others one by one."""
    if isinstance(children_key, str):
        below = map(dict.get, kids, repeat(children_key))
    else:
        below = map(children_key, kids)
    stop = len(kids)
    for i in reversed(list(compress(range(stop), below))):
        if i + 1 < stop:
            push((None, parent, kids, i + 1, stop))
        push((kids[i], parent, i, depth))
        stop = i
    if stop:
        push((None, parent, kids, 0, stop))


def _shared(nodes: list[Mapping[str, Any]]) -> bool:
    """Whether an object is listed twice (sorted identities: cheaper than a set of them).

    A tree's nodes in pre-order are mostly in the order they were made in memory (a parsed
    JSON text makes them in that order), so their identities come nearly sorted: a stable
    sort (merging the ascending runs it finds) takes a tenth of the time of the default."""
    if len(nodes) < 2:
        return False
    ids = np.fromiter(map(id, nodes), dtype=np.uint64, count=len(nodes))
    ids.sort(kind="stable")
    return bool((ids[1:] == ids[:-1]).any())


def _is_node(item: Any) -> bool:
    return type(item) is dict or isinstance(item, Mapping)


def _is_list(kids: Any) -> bool:
    """Whether a ``children`` value is a sequence of children (not a string)."""
    return isinstance(kids, Sequence) and not isinstance(kids, (str, bytes))


def _refuse(roots: Sequence[Any], children_key: Children, limits: Limits) -> NoReturn:
    """Raise what :func:`measure_nested` raises for a tree a walk refused."""
    measure_nested(roots, children_key, limits)
    raise InvalidObservationError("the tree is cyclic or shares a node between parents")


class Outline:
    """Parents and child-index paths of a tree written as indented lines (one row a line).

    A line's parent is the nearest earlier line indented less; :meth:`place` is called once
    for each row, just before the row is appended to the builder.
    """

    __slots__ = ("_builder", "_counts", "_limit", "_rows", "_stack")

    def __init__(self, builder: TableBuilder) -> None:
        self._builder = builder
        self._rows = builder.rows
        self._limit = builder.max_rows
        self._stack: list[tuple[int, int, str]] = []  # open rows: (indent, row, path)
        self._counts: dict[int, int] = {}  # children placed so far, by parent row

    def place(self, indent: int) -> tuple[int, str]:
        """``(parent, path)`` of the next row, which lines indented more will hang on."""
        stack = self._stack
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if stack:
            _, parent, parent_path = stack[-1]
            index = self._counts.get(parent, 0)
            path = f"{parent_path}.{index}"
        else:
            parent = -1
            index = self._counts.get(-1, 0)
            path = str(index)
        self._counts[parent] = index + 1
        row = len(self._rows)
        if row >= self._limit:
            self._builder.reserve(1)
        stack.append((indent, row, path))
        return parent, path
