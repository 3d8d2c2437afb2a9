import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest

from resolver import InvalidObservationError, Observation, SemanticElementRef, resolve
from resolver.adapters._common import as_str
from resolver.adapters.a11y import SourceInput, parse_input
from resolver.adapters.a11y.cdp import _SKIP_ROLES, FORMAT, dict_ids, kept_nodes
from resolver.geometry import CoordSpace
from resolver.limits import DEFAULT_LIMITS, Limits

from .test_forest import random_forest


def _node(node_id: str, role: str, name: str = "", parent: str | None = None,
          children: tuple[str, ...] = (), **extra: Any) -> dict[str, Any]:  # fmt: skip
    node: dict[str, Any] = {
        "nodeId": node_id,
        "role": {"type": "role", "value": role},
        "name": {"type": "computedString", "value": name},
        "childIds": list(children),
        "ignored": False,
    }
    if parent is not None:
        node["parentId"] = parent
    node.update(extra)
    return node


NODES = [
    _node("1", "RootWebArea", "Shop", children=("2", "5")),
    _node("2", "generic", parent="1", children=("3",), ignored=True),
    _node("3", "button", "Buy", parent="2", children=("4",), backendDOMNodeId=30,
          bbox=[10, 10, 60, 30],
          properties=[{"name": "disabled", "value": {"type": "boolean", "value": True}},
                      {"name": "focused", "value": {"type": "booleanOrUndefined", "value": True}}]),
    _node("4", "StaticText", "Buy", parent="3", children=("6",)),
    _node("5", "link", "Help", parent="1", bbox=[0, 0, 1]),
    _node("6", "InlineTextBox", "Buy", parent="4"),
]  # fmt: skip


def test_cdp_rows_skip_ignored_and_inline_text() -> None:
    t = Observation(accessibility_tree={"nodes": NODES}).candidates("a11y")
    assert t.format == "cdp" and t.coord_space == "css_px"
    assert t.ids == ("1", "3", "4", "5")
    assert t.roles == ("document", "button", "text", "link")
    assert list(t.parent) == [-1, 0, 1, 0]  # ignored generic is skipped, button hangs on root
    assert t.platform_ids["backend_node_id"][1] == "30"
    assert list(t.enabled)[1] == 0 and list(t.focused)[1] == 1
    assert t.bboxes[1].tolist() == [10, 10, 60, 30]
    assert all(v != v for v in t.bboxes[3])  # malformed bbox: unknown


def test_cdp_link_url_fills_href() -> None:
    url = {"name": "url", "value": {"type": "string", "value": "https://shop.example/help"}}
    nodes = [*NODES[:4], {**NODES[4], "properties": [url]}, NODES[5]]
    t = Observation(accessibility_tree={"nodes": nodes}).candidates("a11y")
    assert t.platform_ids["href"] == (None, None, None, "https://shop.example/help")


def test_cdp_viewport_becomes_screen_size() -> None:
    obs = Observation(accessibility_tree={"nodes": NODES, "viewport": [1280, 800]})
    t = obs.candidates("a11y")
    assert t.screen_size == (1280.0, 800.0)


def test_cdp_cycle_and_orphans_terminate() -> None:
    nodes = [
        _node("a", "group", parent="b", children=("b",)),
        _node("b", "button", "x", parent="a", children=("a",)),
        _node("c", "link", "orphan", parent="zzz"),
    ]
    t = Observation(accessibility_tree=nodes).candidates("a11y")
    assert sorted(t.ids) == ["a", "b", "c"]


def test_cdp_garbage_nodes() -> None:
    weird = {"nodeId": "2", "parentId": "1", "role": "weird", "name": None, "childIds": "x"}
    nodes = [_node("1", "RootWebArea", children=("2", "9")), "junk", 5, weird]
    t = Observation(accessibility_tree=nodes).candidates("a11y")
    assert t.ids == ("1", "2")


def test_cdp_too_many_nodes() -> None:
    nodes = [_node(str(i), "button") for i in range(20)]
    with pytest.raises(InvalidObservationError, match="raise max_nodes") as info:
        Observation(accessibility_tree=nodes, max_nodes=5).candidates("a11y")
    assert info.value.evidence.details == {"max_nodes": 5}


def test_cdp_refuses_a_long_list_before_reading_it() -> None:
    # builder.reserve counts the input: entries that would make no row still count.
    nodes: list[Any] = [_node("1", "RootWebArea"), *range(10)]
    with pytest.raises(InvalidObservationError, match="more than 5 nodes; raise max_nodes"):
        Observation(accessibility_tree=nodes, max_nodes=5).candidates("a11y")
    table = Observation(accessibility_tree=nodes, max_nodes=11).candidates("a11y")
    assert table.ids == ("1",)


def test_cdp_build_direct() -> None:
    tree = parse_input({"nodes": NODES, "viewport": [1280, 800]})
    table = FORMAT.build(tree, SourceInput(raw=None, screen_size=(640.0, 480.0)))
    assert table.screen_size == (640.0, 480.0)  # the runtime's size wins over the viewport
    assert table.coord_space is CoordSpace.CSS_PX


def test_kept_nodes_rows_follow_the_yields() -> None:
    rows = [(node_id, parent) for node_id, _, _, parent in kept_nodes(NODES)]
    assert rows == [("1", -1), ("3", 0), ("4", 1), ("5", 0)]


def _columns_of(table: Any) -> dict[str, Any]:
    import numpy as np

    out = {f: getattr(table, f) for f in ("ids", "executor_ids", "roles", "raw_roles", "names",
                                          "values", "containers", "diagnostics")}  # fmt: skip
    for f in ("role_codes", "depth", "parent", "enabled", "visible", "focused", "bboxes"):
        out[f] = np.nan_to_num(getattr(table, f), nan=-7.5).tolist()
    out["platform_ids"] = dict(table.platform_ids)
    return out


@pytest.mark.parametrize("seed", range(12))
def test_the_column_build_gives_the_walks_table(seed: int, monkeypatch: Any) -> None:
    from resolver.adapters.a11y import cdp

    rng = random.Random(seed)
    nodes = random_forest(seed, rng.randint(1, 200))
    for node in nodes:
        if rng.random() < 0.5:
            node["bbox"] = [rng.randint(0, 99), 5, rng.choice([120, -1]), 40]
        if rng.random() < 0.3:
            node["properties"] = [{"name": rng.choice(["disabled", "focused", "hidden", "url"]),
                                   "value": {"value": rng.choice([True, "/a"])}}]  # fmt: skip
        if rng.random() < 0.2:
            node["value"] = rng.choice([{"value": "v  x"}, None, 7, {"value": None}])
            node["backendDOMNodeId"] = rng.randint(1, 9)
    monkeypatch.setattr(cdp, "MIN_COLUMN_NODES", 0)
    read = cdp._fast_columns
    taken: list[bool] = []

    def counted(*args: Any) -> Any:
        later = read(*args)
        taken.append(later is not None)
        return later

    monkeypatch.setattr(cdp, "_fast_columns", counted)
    fast = _columns_of(Observation(accessibility_tree=nodes).candidates("a11y"))
    assert taken == [True]
    monkeypatch.setattr(cdp, "_fast_columns", lambda *_: None)
    assert fast == _columns_of(Observation(accessibility_tree=nodes).candidates("a11y"))


def test_short_lists_are_walked_and_long_ones_read_by_columns(monkeypatch: Any) -> None:
    from resolver.adapters.a11y import cdp

    read = cdp._fast_columns
    taken: list[bool] = []
    monkeypatch.setattr(cdp, "_fast_columns", lambda *a: taken.append(read(*a) is not None) or None)
    Observation(accessibility_tree=random_forest(0, 50)).candidates("a11y")
    Observation(accessibility_tree=random_forest(4, cdp.MIN_COLUMN_NODES)).candidates("a11y")
    assert taken == [False, True]


def test_a_list_repeating_an_id_is_walked_before_any_column_is_read(monkeypatch: Any) -> None:
    """Chrome lists some inline text boxes twice: such a list goes to the walk at once,
    without reading its roles by columns first."""
    from resolver.adapters.a11y import cdp

    def unread(*_: Any) -> Any:
        raise AssertionError("roles read by columns")

    monkeypatch.setattr(cdp, "MIN_COLUMN_NODES", 0)
    monkeypatch.setattr(cdp, "_raw_roles", unread)
    nodes = [*NODES, dict(NODES[-1])]  # the inline text box again
    table = Observation(accessibility_tree=nodes).candidates("a11y")
    assert table.ids == ("1", "3", "4", "5")


# The walk against a plain per-node walk kept here as the reference: the same rows, in the
# same order, with the same parents, or the same refusal.


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


class _Counted(dict[str, Any]):
    """A node that counts how often its parent is asked for."""

    asked = 0

    def get(self, key: str, default: Any = None) -> Any:
        if key == "parentId":
            _Counted.asked += 1
        return super().get(key, default)


def test_a_list_its_first_root_reaches_is_asked_for_no_other_parent() -> None:
    # Chromium lists the document first, and it reaches every node: the walk asks the
    # document for its parent and no other node. A node the walk has not reached is asked
    # (the orphan naming a parent the list lacks is a root of its own, walked after).
    kids = [_Counted(_node(str(i), "button", f"b{i}", parent="0")) for i in range(1, 50)]
    doc = _Counted(_node("0", "RootWebArea", "Page", children=tuple(str(i) for i in range(1, 50))))
    _Counted.asked = 0
    rows = kept_nodes([doc, *kids])
    assert len(rows) == 50 and _Counted.asked == 1
    orphan = _Counted(_node("99", "link", "orphan", parent="404"))
    _Counted.asked = 0
    rows = kept_nodes([doc, *kids, orphan])
    assert [r[0] for r in rows][-1] == "99" and rows[-1][3] == -1 and _Counted.asked == 2


def test_ids_read_by_the_caller_give_the_same_walk() -> None:
    for seed in range(20):
        nodes: list[Any] = random_forest(seed, random.Random(seed).randint(1, 80))
        ids = dict_ids(nodes)
        assert ids == [n["nodeId"] for n in nodes]
        assert kept_nodes(nodes, DEFAULT_LIMITS, ids) == kept_nodes(nodes)
    assert dict_ids([{"nodeId": "1"}, "junk"]) is None
    assert dict_ids([{"nodeId": 1}]) is None
    assert dict_ids([]) is None


def test_a_column_build_reads_backend_ids_and_links_only_when_asked(monkeypatch: Any) -> None:
    """Only a reference that recorded a backend node ID or a link reads those columns: a
    resolve by role and name leaves them unread, and reading them gives the walk's."""
    from resolver.adapters.a11y import cdp
    from resolver.table import LazyColumns

    monkeypatch.setattr(cdp, "MIN_COLUMN_NODES", 0)
    nodes = [
        {"nodeId": "1", "role": {"value": "RootWebArea"}, "name": {"value": "Shop"},
         "childIds": ["2", "3"]},
        {"nodeId": "2", "parentId": "1", "role": {"value": "button"}, "name": {"value": "Buy"},
         "backendDOMNodeId": 41},
        {"nodeId": "3", "parentId": "1", "role": {"value": "link"}, "name": {"value": "Help"},
         "backendDOMNodeId": 42,
         "properties": [{"name": "url", "value": {"value": "https://shop.example/help"}}]},
    ]  # fmt: skip
    observation = Observation(accessibility_tree=nodes)
    table = observation.candidates("a11y")
    assert isinstance(table.platform_ids, LazyColumns)
    assert resolve(SemanticElementRef(role="button", name="Buy"), observation).executor_id == (
        "a11y:2"
    )
    assert not table.platform_ids.made
    assert set(table.platform_ids) == {"backend_node_id", "href"}  # (known, still unread)
    assert not table.platform_ids.made
    link = SemanticElementRef(role="link", name="Help", href="https://shop.example/help")
    assert resolve(link, observation).executor_id == "a11y:3"
    assert table.platform_ids.made
    assert table.platform_ids["backend_node_id"] == (None, "41", "42")
    assert table.platform_ids["href"] == (None, None, "https://shop.example/help")
