"""The shared tree walks: nested ``children`` dicts and outlines of indented lines."""

from typing import Any

import pytest

from resolver import InvalidObservationError
from resolver.adapters.a11y._walk import Outline, walk_nested
from resolver.table import NO_STATE, TableBuilder


def test_walk_nested_pre_order_parents_and_paths() -> None:
    tree = {"n": "a", "children": [{"n": "b", "children": [{"n": "c"}]}, "junk", {"n": "d"}]}
    walked = [(node["n"], parent, path) for node, parent, path in walk_nested([tree], max_nodes=9)]
    assert walked == [("a", -1, "0"), ("b", 0, "0.0"), ("c", 1, "0.0.0"), ("d", 0, "0.2")]


def test_walk_nested_refuses_cycles_and_large_trees() -> None:
    node: dict[str, Any] = {"children": []}
    node["children"].append(node)
    with pytest.raises(InvalidObservationError, match="cyclic"):
        list(walk_nested([node], max_nodes=9))
    wide: dict[str, Any] = {"children": [{} for _ in range(5)]}
    with pytest.raises(InvalidObservationError, match="more than 3 nodes; raise max_nodes"):
        list(walk_nested([wide], max_nodes=3))


def _outline(indents: list[int], max_rows: int = 100) -> list[tuple[int, str]]:
    builder = TableBuilder("a11y", "test", max_rows=max_rows)
    outline = Outline(builder)
    placed = []
    for indent in indents:
        parent, path = outline.place(indent)
        builder.rows.append((path, "button", "", parent, None, "", NO_STATE))
        placed.append((parent, path))
    return placed


def test_outline_parents_from_indentation() -> None:
    assert _outline([0, 2, 4, 2, 0, 1]) == [
        (-1, "0"), (0, "0.0"), (1, "0.0.0"), (0, "0.1"), (-1, "1"), (4, "1.0"),
    ]  # fmt: skip


def test_outline_refuses_rows_over_the_limit() -> None:
    assert len(_outline([0, 1, 1], max_rows=3)) == 3
    with pytest.raises(InvalidObservationError, match="more than 3 nodes; raise max_nodes"):
        _outline([0, 1, 1, 1], max_rows=3)
