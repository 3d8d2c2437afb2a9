"""Tree walks the formats share: nested ``children`` dicts, and outlines of indented lines.

Both are iterative (no recursion) and bounded by the limits: a nested tree is measured (nodes,
depth, cycles) before any row is built, so an oversized one is refused at the cost of counting
up to the limit (:class:`~resolver.limits.Limits`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import islice
from typing import Any

from ...errors import InvalidObservationError
from ...limits import DEFAULT_LIMITS, Limits
from ...table import TableBuilder

__all__ = ["Outline", "measure_nested", "walk_nested"]


Children = str | Callable[[Mapping[str, Any]], Any]


def _kids(node: Mapping[str, Any], children_key: Children) -> Sequence[Any]:
    kids = node.get(children_key) if isinstance(children_key, str) else children_key(node)
    if isinstance(kids, Sequence) and not isinstance(kids, (str, bytes)):
        return kids
    return ()


def _dicts(items: Iterator[Any]) -> int:
    """How many of ``items`` are mappings."""
    return sum(1 for item in items if type(item) is dict or isinstance(item, Mapping))


def measure_nested(roots: Sequence[Any], children_key: Children, limits: Limits) -> int:
    """Count the dict nodes of a nested tree, refusing it as soon as it has more nodes or
    levels than ``limits`` allow, or meets a node twice (a cycle, or one object shared by two
    parents): the walk stops at the limit, whatever the tree's size."""
    max_nodes, max_depth = limits.max_nodes, limits.max_depth
    seen: set[int] = set()
    # Level by level: a level is refused before the next is gathered, and gathering stops
    # once the nodes counted and gathered pass max_nodes.
    level = [root for root in roots if isinstance(root, Mapping)]
    count = depth = 0
    while level:
        depth += 1
        if depth > max_depth:
            raise limits.refuse("max_depth", None, "the tree")
        count += len(level)
        if count > max_nodes:
            raise limits.refuse("max_nodes", None, "the tree")
        before = len(seen)
        seen.update(map(id, level))
        if len(seen) != before + len(level):
            raise InvalidObservationError(
                "the tree is cyclic or shares a node between parents", details={"depth": depth}
            )
        below = _next_level(level, children_key, max_nodes - count)
        if below is None:
            raise limits.refuse("max_nodes", None, "the tree")
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
    has none. Non-dict children are skipped. The tree is measured first
    (:func:`measure_nested`): a node met twice, and trees over ``max_nodes`` nodes or
    ``max_depth`` levels, raise :class:`InvalidObservationError` before the first node is
    yielded.
    """
    measure_nested(roots, children_key, Limits(max_nodes=max_nodes, max_depth=max_depth))
    stack: list[tuple[Any, int, str]] = [
        (root, -1, str(i)) for i, root in reversed(list(enumerate(roots)))
    ]
    position = 0
    while stack:
        node, parent, path = stack.pop()
        if not isinstance(node, Mapping):
            continue
        yield node, parent, path
        me = position
        position += 1
        kids = node.get(children_key) if isinstance(children_key, str) else children_key(node)
        if isinstance(kids, Sequence) and not isinstance(kids, (str, bytes)):
            for j in range(len(kids) - 1, -1, -1):
                stack.append((kids[j], me, f"{path}.{j}"))


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
