"""Tree walks the formats share: nested ``children`` dicts, and outlines of indented lines.

Both are iterative (no recursion) and bounded by the row limit; the refusal itself is the
table's (:func:`resolver.table.check_rows`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from ...errors import InvalidObservationError
from ...table import TableBuilder, check_rows

__all__ = ["Outline", "walk_nested"]


def walk_nested(
    roots: Sequence[Any],
    *,
    children_key: str | Callable[[Mapping[str, Any]], Any] = "children",
    max_nodes: int,
) -> Iterator[tuple[Mapping[str, Any], int, str]]:
    """Yield ``(node, parent_position, path)`` in pre-order.

    ``parent_position`` is the pre-order position of the parent (-1 for roots); ``path`` is
    the dotted child-index path from the root (``"0.2.1"``), usable as an ID where the format
    has none. Non-dict children are skipped; a node met twice (a cycle, or one object shared
    by two parents) and trees over ``max_nodes`` raise :class:`InvalidObservationError`.
    """
    seen: set[int] = set()
    stack: list[tuple[Any, int, str]] = [
        (root, -1, str(i)) for i, root in reversed(list(enumerate(roots)))
    ]
    position = 0
    while stack:
        node, parent, path = stack.pop()
        if not isinstance(node, Mapping):
            continue
        key = id(node)
        if key in seen:
            raise InvalidObservationError(
                f"the tree is cyclic or shares a node between parents (at {path})"
            )
        seen.add(key)
        if position >= max_nodes:
            check_rows(position + 1, max_nodes)
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
