"""The CDP walk (``cdp.kept_nodes``) against a plain per-node walk kept here as the reference:
the same rows, in the same order, with the same parents, or the same refusal."""

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest

from resolver import InvalidObservationError
from resolver.adapters._common import as_str
from resolver.adapters.a11y.cdp import _SKIP_ROLES, kept_nodes
from resolver.limits import DEFAULT_LIMITS, Limits

from .test_forest import random_forest


def reference_walk(
    nodes: Sequence[Any], limits: Limits = DEFAULT_LIMITS
) -> Iterator[tuple[str, Mapping[str, Any], str, int]]:
    """The walk node by node: a set of visited IDs, children looked up before they are
    stacked."""
    by_id: dict[str, Mapping[str, Any]] = {}
    for node in nodes:
        if isinstance(node, Mapping):
            node_id = as_str(node.get("nodeId"))
            if node_id and node_id not in by_id:
                by_id[node_id] = node
    roots = [i for i, n in by_id.items() if as_str(n.get("parentId")) not in by_id]
    visited: set[str] = set()
    rows = 0
    for start in [*roots, *by_id]:
        stack: list[tuple[str, int, int]] = [(start, -1, 0)]
        while stack:
            node_id, parent_row, depth = stack.pop()
            if node_id in visited:
                continue
            visited.add(node_id)
            node = by_id[node_id]
            field = node.get("role")
            raw_role = as_str(field.get("value") if isinstance(field, dict) else field)
            row = parent_row
            if not node.get("ignored") and raw_role not in _SKIP_ROLES:
                depth += 1
                if depth > limits.max_depth:
                    raise limits.refuse("max_depth", None, "the AX tree")
                yield node_id, node, raw_role, parent_row
                row = rows
                rows += 1
            kids = node.get("childIds")
            if kids and isinstance(kids, list):
                for kid in reversed(kids):
                    if as_str(kid) in by_id:
                        stack.append((as_str(kid), row, depth))


def _rows(walk: Any, nodes: list[Any], limits: Limits = DEFAULT_LIMITS) -> Any:
    try:
        return [(i, id(n), r, p) for i, n, r, p in walk(nodes, limits)]
    except InvalidObservationError as exc:
        return ("refused", str(exc))


def _mess(nodes: list[Any], rng: random.Random) -> list[Any]:
    """Some of what real and broken lists hold: an ID listed again, numbers for IDs, a
    cycle, an entry that is no node, an empty or missing ID, odd children and parents."""
    out = list(nodes)
    for _ in range(rng.randint(0, 6)):
        victim = rng.choice(out) if out else None
        kind = rng.randrange(9)
        if kind == 0 and victim is not None:
            out.insert(rng.randint(0, len(out)), dict(victim) if rng.random() < 0.7 else victim)
        elif kind == 1 and isinstance(victim, dict):
            victim["nodeId"] = rng.choice([int(victim["nodeId"]) if victim["nodeId"].isdigit()
                                           else 7, "", None, 3.0])  # fmt: skip
        elif kind == 2 and isinstance(victim, dict) and len(out) > 1:
            other = rng.choice(out)
            if isinstance(other, dict) and isinstance(victim.get("childIds"), list):
                victim["childIds"].append(other.get("nodeId"))
                other["parentId"] = victim.get("nodeId")
        elif kind == 3:
            out.insert(rng.randint(0, len(out)), rng.choice(["junk", 5, None, ["x"]]))
        elif kind == 4 and isinstance(victim, dict):
            victim["childIds"] = rng.choice(["1", None, [], [None, 4, "404"], {"a": 1}])
        elif kind == 5 and isinstance(victim, dict):
            victim["parentId"] = rng.choice([None, 12, "", "nope", ["p"]])
        elif kind == 6 and isinstance(victim, dict):
            victim["role"] = rng.choice([None, "button", {"value": 5}, {"value": "InlineTextBox"}])
        elif kind == 7 and isinstance(victim, dict):
            victim.pop("nodeId", None)
        elif kind == 8 and isinstance(victim, dict):
            victim["ignored"] = rng.choice([1, 0, "yes", None])
    return out


@pytest.mark.parametrize("seed", range(200))
def test_the_walk_is_the_reference_walk(seed: int) -> None:
    rng = random.Random(seed)
    nodes: list[Any] = random_forest(seed, rng.randint(1, 120))
    if seed % 4:
        nodes = _mess(nodes, rng)
    limits = Limits(max_depth=rng.choice([3, 8, 64])) if seed % 5 == 0 else DEFAULT_LIMITS
    assert _rows(kept_nodes, nodes, limits) == _rows(reference_walk, nodes, limits)


def test_a_cycle_without_a_root_is_walked_once_from_its_first_node() -> None:
    nodes = [
        {"nodeId": "a", "role": {"value": "group"}, "parentId": "b", "childIds": ["b"]},
        {"nodeId": "b", "role": {"value": "button"}, "parentId": "a", "childIds": ["a"]},
    ]
    assert [(i, p) for i, _, _, p in kept_nodes(nodes)] == [("a", -1), ("b", 0)]


def test_the_first_node_of_an_id_listed_twice_counts() -> None:
    first = {"nodeId": "1", "role": {"value": "button"}, "name": {"value": "first"}}
    again = {"nodeId": "1", "role": {"value": "link"}, "name": {"value": "again"}}
    assert [n for _, n, _, _ in kept_nodes([first, again])] == [first]


def test_ids_read_by_the_caller_give_the_same_walk() -> None:
    from resolver.adapters.a11y.cdp import dict_ids

    for seed in range(20):
        nodes: list[Any] = random_forest(seed, random.Random(seed).randint(1, 80))
        ids = dict_ids(nodes)
        assert ids == [n["nodeId"] for n in nodes]
        assert kept_nodes(nodes, DEFAULT_LIMITS, ids) == kept_nodes(nodes)
    assert dict_ids([{"nodeId": "1"}, "junk"]) is None
    assert dict_ids([{"nodeId": 1}]) is None
    assert dict_ids([]) is None
