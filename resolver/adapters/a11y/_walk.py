"""Iterative, cycle-safe walk over nested ``children`` trees (no recursion, bounded size)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from ...errors import InvalidObservationError

__all__ = ["walk_nested"]


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
            raise InvalidObservationError(
                f"the tree has more than {max_nodes} nodes; raise max_nodes to read it",
                details={"max_nodes": max_nodes},
            )
        yield node, parent, path
        me = position
        position += 1
        kids = node.get(children_key) if isinstance(children_key, str) else children_key(node)
        if isinstance(kids, Sequence) and not isinstance(kids, (str, bytes)):
            for j in range(len(kids) - 1, -1, -1):
                stack.append((kids[j], me, f"{path}.{j}"))
