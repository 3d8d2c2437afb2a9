"""The shared tree walks: nested ``children`` dicts and outlines of indented lines."""

from typing import Any

import pytest

from resolver import InvalidObservationError, LimitExceededError, Limits
from resolver.adapters.a11y import _walk
from resolver.adapters.a11y._walk import Outline, collect_nested, measure_nested, walk_nested
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
    with pytest.raises(LimitExceededError, match="more than 3 nodes, over the limit max_nodes=3"):
        list(walk_nested([wide], max_nodes=3))
    shared: dict[str, Any] = {}
    with pytest.raises(InvalidObservationError, match="shares a node"):
        list(walk_nested([{"children": [shared, shared]}], max_nodes=9))
    deep: dict[str, Any] = {}
    for _ in range(6):
        deep = {"children": [deep]}
    with pytest.raises(LimitExceededError, match="max_depth=5"):
        list(walk_nested([deep], max_nodes=99, max_depth=5))
    assert len(list(walk_nested([deep], max_nodes=99, max_depth=7))) == 7


def test_measure_stops_at_the_limit_whatever_the_size() -> None:
    # A node with a million children is refused after looking at max_nodes + 1 of them.
    class Counting(list[Any]):
        read = 0

        def __iter__(self) -> Any:
            for item in super().__iter__():
                Counting.read += 1
                yield item

    kids = Counting({} for _ in range(1_000_000))
    with pytest.raises(LimitExceededError):
        measure_nested([{"children": kids}], "children", Limits(max_nodes=100))
    assert Counting.read <= 101


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


def test_collect_nested_stops_at_the_limit_whatever_the_size() -> None:
    # A node with a million children is refused after reading about max_nodes of them (the
    # walk looks ahead, and measure_nested then words the refusal).
    class Counting(list[Any]):
        read = 0

        def __iter__(self) -> Any:
            for item in super().__iter__():
                Counting.read += 1
                yield item

        def __getitem__(self, index: Any) -> Any:
            Counting.read += 1
            return super().__getitem__(index)

    kids = Counting({} for _ in range(1_000_000))
    with pytest.raises(LimitExceededError, match="max_nodes=100"):
        collect_nested([{"children": kids}], max_nodes=100)
    assert Counting.read <= 2 * 101


def test_collect_nested_lists_what_walk_nested_yields() -> None:
    tree = {"n": "a", "children": [{"n": "b", "children": ({"n": "c"}, 5)}, None, {"n": "d"}]}
    nodes, parents, paths = collect_nested(["x", tree, {"n": "e", "children": "str"}], max_nodes=9)
    assert [node["n"] for node in nodes] == ["a", "b", "c", "d", "e"]
    assert (list(parents), list(paths)) == ([-1, 0, 1, 0, -1], ["1", "1.0", "1.0.0", "1.2", "2"])
    walked = list(walk_nested(["x", tree, {"n": "e", "children": "str"}], max_nodes=9))
    assert walked == list(zip(nodes, parents, paths, strict=True))
    nodes, parents, paths = collect_nested([], max_nodes=1)
    assert (nodes, parents, list(paths)) == ([], [], [])
    # a child list that passes the limit after the first children looked at
    kids = [{} if i % 2 else "x" for i in range(20)]
    with pytest.raises(LimitExceededError, match="max_nodes=6"):
        collect_nested([{"children": kids}], max_nodes=6)
    # children read through a function
    callable_kids = collect_nested([tree], children_key=lambda n: n.get("children"), max_nodes=9)
    assert list(callable_kids[2]) == ["0", "0.0", "0.0.0", "0.2"]


def test_long_child_lists_get_their_places_from_the_kept_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_walk, "_PLACES", ())
    monkeypatch.setattr(_walk, "_MAX_PLACES", 40)
    tree = {"children": [*({"n": i} for i in range(30)), {"children": [{}]}, {}, {}, {}, {}, {}]}
    want = ["0", *(f"0.{i}" for i in range(31)), "0.30.0", *(f"0.{i}" for i in range(31, 36))]
    assert list(collect_nested([tree], max_nodes=99)[2]) == want
    kept = _walk._PLACES
    assert kept == tuple(str(i) for i in range(len(kept))) and 30 <= len(kept) <= 40
    # a list past the places kept at most gets its own, and the kept ones stay as they were
    wide = {"children": [{"n": i} for i in range(50)]}
    assert list(collect_nested([wide], max_nodes=99)[2]) == ["0", *(f"0.{i}" for i in range(50))]
    assert _walk._PLACES is kept
