import random
from typing import Any

import numpy as np
import pytest

from resolver import InvalidObservationError
from resolver.adapters.a11y._forest import MAX_LEVELS, IdLookup, _numbers, forest_rows
from resolver.adapters.a11y.cdp import _SKIP_ROLES, _raw_roles, kept_nodes
from resolver.limits import DEFAULT_LIMITS, Limits

ID_STYLES = ("number", "padded", "word", "mixed", "chrome", "signed", "sparse")


def _id(i: int, style: str, rng: random.Random) -> str:
    if style == "number":
        return str(i * 7 + 3)
    if style == "padded":  # "07" is not the number 7: the lookup must not confuse them
        return f"0{i}" if i % 3 == 0 else str(i)
    if style == "word":
        return f"n{i}"
    if style == "chrome":  # Chrome's: small numbers, and some far below zero
        return str(-1_000_000_000 - i) if i % 5 == 0 else str(i + 1)
    if style == "signed":  # "-3" and "3" differ, and "-03" is no number
        return (f"-0{i}" if i % 4 == 1 else f"-{i}") if i % 2 else str(i)
    if style == "sparse":  # numbers too far apart for a direct table
        return str(i * 10**12 - 5 * 10**17)
    return str(i) if rng.random() < 0.5 else f"x{i}"


def random_forest(seed: int, size: int) -> list[dict[str, Any]]:
    """A shuffled CDP-like list of a forest: ignored and InlineTextBox nodes, unknown
    children, several roots, IDs in one of several styles."""
    rng = random.Random(seed)
    style = ID_STYLES[seed % len(ID_STYLES)]
    ids = [_id(i, style, rng) for i in range(size)]
    nodes: list[dict[str, Any]] = []
    for i in range(size):
        role = rng.choice(["button", "link", "generic", "StaticText", "InlineTextBox"])
        nodes.append({
            "nodeId": ids[i], "role": {"type": "role", "value": role},
            "name": {"type": "computedString", "value": f"name {i}"},
            "childIds": [], "ignored": rng.random() < 0.2,
        })  # fmt: skip
    for i in range(1, size):
        if rng.random() < 0.1:
            continue  # another root
        up = rng.randrange(0, i)
        nodes[i]["parentId"] = ids[up]
        kids = nodes[up]["childIds"]
        kids.insert(rng.randint(0, len(kids)), ids[i])
    for node in rng.sample(nodes, max(1, size // 10)):
        node["childIds"].append("404404")  # a child the list does not hold
    rng.shuffle(nodes)
    return nodes


def walked(nodes: list[dict[str, Any]], limits: Limits = DEFAULT_LIMITS) -> list[tuple[str, int]]:
    return [(node_id, parent) for node_id, _, _, parent in kept_nodes(nodes, limits)]


def fast(
    nodes: list[dict[str, Any]], limits: Limits = DEFAULT_LIMITS
) -> list[tuple[str, int]] | None:
    ids = [node["nodeId"] for node in nodes]
    raw = _raw_roles(nodes)
    pairs = zip(nodes, raw, strict=True)
    kept = np.array([not n.get("ignored") and r not in _SKIP_ROLES for n, r in pairs])
    found = forest_rows(nodes, ids, kept.astype(bool), limits)
    if found is None:
        return None
    order, parents = found
    return [(ids[i], int(p)) for i, p in zip(order, parents.tolist(), strict=True)]


@pytest.mark.parametrize("seed", range(42))
def test_rows_and_parents_are_the_walks(seed: int) -> None:
    nodes = random_forest(seed, random.Random(seed).randint(1, 300))
    assert fast(nodes) == walked(nodes)


def test_a_deep_chain_is_ordered_as_the_walk() -> None:
    nodes = [{"nodeId": str(i + 1), "role": {"value": "group"}, "childIds": [str(i + 2)]}
             for i in range(500)]  # fmt: skip
    for i, node in enumerate(nodes[1:], start=1):
        node["parentId"] = str(i)
    nodes[-1]["childIds"] = []
    random.Random(1).shuffle(nodes)
    assert fast(nodes) == walked(nodes)


def test_too_deep_is_refused_as_by_the_walk() -> None:
    nodes = [{"nodeId": str(i + 1), "role": {"value": "group"}, "childIds": [str(i + 2)]}
             for i in range(20)]  # fmt: skip
    for i, node in enumerate(nodes[1:], start=1):
        node["parentId"] = str(i)
    limits = Limits(max_depth=10)
    with pytest.raises(InvalidObservationError):
        fast(nodes, limits)
    with pytest.raises(InvalidObservationError):
        walked(nodes, limits)


def _pair() -> list[dict[str, Any]]:
    return [
        {"nodeId": "1", "role": {"value": "group"}, "childIds": ["2"]},
        {"nodeId": "2", "role": {"value": "button"}, "parentId": "1", "childIds": []},
    ]


@pytest.mark.parametrize(
    "break_it",
    [
        lambda n: n[1]["childIds"].append("1"),  # a cycle
        lambda n: n[0]["childIds"].append("2"),  # a child listed twice
        lambda n: n[1].pop("parentId"),  # listed as a child, but a root by its parent
        lambda n: n[0]["childIds"].clear(),  # names a parent that does not list it
        lambda n: n.append(dict(n[1])),  # two nodes with one ID
        lambda n: n[1].update(nodeId="07", parentId="1") or n[0].update(childIds=["7"]),
        lambda n: n[0].update(childIds="2"),  # childIds not a list
        lambda n: n[0].update(childIds=[2]),  # a child ID not text
        lambda n: n[1].update(parentId=1),  # a parent ID not text
    ],
)
def test_lists_that_are_no_plain_forest_are_left_to_the_walk(break_it: Any) -> None:
    nodes = _pair()
    assert fast(nodes) == walked(nodes)
    break_it(nodes)
    assert fast(nodes) is None


@pytest.mark.parametrize(
    "bend_it",
    [
        lambda n: n[0].update(parentId="99"),  # a root naming an unknown parent
        lambda n: (
            n.append({"nodeId": "3", "role": {"value": "link"}, "childIds": []})
            or n[1].update(parentId="3")
        ),  # a listed child naming a known node that is not its lister
    ],
)
def test_parent_ids_that_still_agree_keep_the_forest(bend_it: Any) -> None:
    nodes = _pair()
    bend_it(nodes)
    assert fast(nodes) is not None
    assert fast(nodes) == walked(nodes)


@pytest.mark.parametrize(
    ("ids", "numbers"),
    [
        (["3", "-3", "0", "-1000000007"], [3, -3, 0, -1000000007]),
        (["-0"], None),
        (["-07"], None),
        (["07"], None),
        (["-"], None),
        (["--5"], None),
        (["5-3"], None),
        (["", "5"], None),
        (["1" * 18, "-" + "9" * 18], [int("1" * 18), -int("9" * 18)]),
        (["1" * 19], None),
    ],
)
def test_ids_read_as_numbers(ids: list[str], numbers: list[int] | None) -> None:
    found = _numbers(ids * 40)  # (long lists are parsed another way)
    assert (found is None) == (numbers is None)
    if numbers is not None:
        assert found is not None and found.tolist() == numbers * 40
        assert _numbers(ids) is not None and _numbers(ids).tolist() == numbers  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "ids", [["5", "-5", "6", "-1000000001"], ["1", str(10**15), "-" + str(10**15)]]
)
def test_ids_are_found_by_number_or_not_at_all(ids: list[str]) -> None:
    lookup = IdLookup(ids)
    assert lookup.unique and lookup.index is None
    keys = [*ids, "7", "-6", "-05", "x", "-1000000000", str(10**14)]
    assert lookup.find(keys).tolist() == [*range(len(ids)), *[-1] * 6]  # type: ignore[union-attr]
    assert not IdLookup([*ids, ids[1]]).unique


def test_padded_and_plain_numbers_are_different_ids() -> None:
    nodes = [
        {"nodeId": "7", "role": {"value": "group"}, "childIds": ["07"]},
        {"nodeId": "07", "role": {"value": "button"}, "parentId": "7", "childIds": []},
    ]
    assert fast(nodes) == walked(nodes) == [("7", -1), ("07", 0)]


def test_lists_deeper_than_the_level_bound_are_left_to_the_walk() -> None:
    size = MAX_LEVELS + 20
    nodes = [{"nodeId": str(i + 1), "role": {"value": "group"}, "childIds": [str(i + 2)]}
             for i in range(size)]  # fmt: skip
    for i, node in enumerate(nodes[1:], start=1):
        node["parentId"] = str(i)
    nodes[-1]["childIds"] = []
    assert fast(nodes) is None
    assert len(walked(nodes)) == size
