import pytest

from resolver import InvalidObservationError, Observation

SNAP_V1 = {
    "ax_tree": {
        "root_id": "n1",
        "nodes": [
            {"node_id": "n1", "role": "window", "name": "App", "children": ["n2", "n3"]},
            {"node_id": "n2", "role": "button", "name": "OK",
             "properties": {"disabled": True, "bbox": [1, 2, 30, 20], "automation_id": "ok"}},
            {"node_id": "n3", "role": "textbox", "name": "Query", "value": "abc",
             "properties": [{"name": "focused", "value": True}], "bbox": [0, 30, 90, 50]},
        ],
    }
}  # fmt: skip

AXTREE_V1 = {
    "format": "axtree_v1",
    "nodes": {
        "a": {"role": "dialog", "name": "Confirm", "children": ["b"]},
        "b": {"role": "button", "name": "Yes", "children": [{"role": "StaticText", "name": "Yes"}]},
    },
}


def test_snapshot_v1() -> None:
    t = Observation(accessibility_tree=SNAP_V1).candidates("a11y")
    assert t.format == "snapshot"
    assert t.ids == ("n1", "n2", "n3")
    assert list(t.enabled) == [-1, 0, -1]
    assert list(t.focused) == [-1, -1, 1]
    assert t.bboxes[1].tolist() == [1, 2, 30, 20]
    assert t.bboxes[2].tolist() == [0, 30, 90, 50]
    assert t.platform_ids["automation_id"][1] == "ok"


def test_axtree_v1_with_mapping_nodes_and_nested_children() -> None:
    t = Observation(accessibility_tree=AXTREE_V1).candidates("a11y")
    assert t.ids[:2] == ("a", "b")
    assert len(t) == 3
    assert t.containers[1] == ("Confirm",)


def test_snapshot_cycle_terminates() -> None:
    data = {"axtree_v1": {"nodes": [
        {"node_id": "a", "role": "group", "children": ["b"]},
        {"node_id": "b", "role": "button", "children": ["a"]},
    ]}}  # fmt: skip
    t = Observation(accessibility_tree=data).candidates("a11y")
    assert sorted(t.ids) == ["a", "b"]


@pytest.mark.parametrize("nodes", ["x", 5, None])
def test_snapshot_bad_nodes(nodes: object) -> None:
    with pytest.raises(InvalidObservationError):
        Observation(accessibility_tree={"ax_tree": {"nodes": nodes}}).candidates("a11y")


def test_snapshot_xpath_compares_normalised() -> None:
    data = {"ax_tree": {"nodes": [
        {"node_id": "a", "role": "button", "properties": {"xpath": "/html[1]/body[1]/button/"}},
    ]}}  # fmt: skip
    t = Observation(accessibility_tree=data).candidates("a11y")
    assert t.platform_ids["xpath"] == ("/html[1]/body[1]/button/",)  # stored as written
    assert t.id_key("xpath", "/html[1]/body[1]/button/") == "/html/body/button"


def test_snapshot_too_many_nodes() -> None:
    nodes = [{"node_id": str(i), "role": "button"} for i in range(6)]
    with pytest.raises(InvalidObservationError, match="raise max_nodes"):
        Observation(accessibility_tree={"ax_tree": {"nodes": nodes}}, max_nodes=5).candidates(
            "a11y"
        )
