from typing import Any

import pytest

from resolver import InvalidObservationError, Observation


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
    with pytest.raises(InvalidObservationError):
        Observation(accessibility_tree=nodes, max_nodes=5).candidates("a11y")
