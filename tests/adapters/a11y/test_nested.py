import json

import pytest

from resolver import InvalidObservationError, LimitExceededError, Limits, Observation


def test_nested_rows_and_states() -> None:
    tree = {
        "id": "w",
        "role": "window",
        "name": "Editor",
        "children": [
            {"id": "b1", "role": "button", "name": "Save", "bbox": [0, 0, 50, 20],
             "disabled": True, "automation_id": "save"},
            {"role": "textbox", "name": "Title", "value": "Draft", "focused": True,
             "hidden": "false"},
        ],
    }  # fmt: skip
    t = Observation(accessibility_tree=tree).candidates("a11y")
    assert t.format == "nested"
    assert t.ids == ("w", "b1", "0.1")
    assert t.executor_ids[2] == "a11y:0.1"
    assert list(t.enabled) == [-1, 0, -1]
    assert list(t.focused) == [-1, -1, 1]
    assert list(t.visible) == [-1, -1, 1]
    assert t.values[2] == "Draft"
    assert t.platform_ids["automation_id"][1] == "save"
    assert t.containers[1] == ("Editor",)


def test_forest_and_json_text() -> None:
    forest = [{"id": "a", "role": "button", "name": "A"}, {"id": "b", "role": "link", "name": "B"}]
    t = Observation(accessibility_tree=json.dumps(forest)).candidates("a11y")
    assert t.ids == ("a", "b")
    assert list(t.parent) == [-1, -1]


def test_wrong_types_inside_are_tolerated() -> None:
    tree = {"id": 5, "role": ["x"], "name": {"a": 1}, "bbox": "nope",
            "children": ["str", None, {"id": "k", "role": "button", "name": 3.0}]}  # fmt: skip
    t = Observation(accessibility_tree=tree).candidates("a11y")
    assert t.ids == ("5", "k")
    assert t.roles[0] == "unknown"
    assert t.names == ("", "3.0")


def test_cycle_is_an_error() -> None:
    node: dict[str, object] = {"id": "a", "role": "group"}
    node["children"] = [{"id": "b", "role": "button", "children": [node]}]
    with pytest.raises(InvalidObservationError, match="cyclic"):
        Observation(accessibility_tree=node).candidates("a11y")


def _chain(depth: int) -> dict[str, object]:
    root: dict[str, object] = {"id": "0", "role": "group", "children": []}
    current = root
    for i in range(1, depth):
        child: dict[str, object] = {"id": str(i), "role": "group", "name": f"g{i}", "children": []}
        current["children"] = [child]
        current = child
    return root


def test_deep_tree_has_no_recursion_limit() -> None:
    t = Observation(accessibility_tree=_chain(4000)).candidates("a11y")
    assert len(t) == 4000
    assert len(t.containers[-1]) <= 12
    deeper = Observation(accessibility_tree=_chain(9000), limits=Limits(max_depth=10_000))
    assert len(deeper.candidates("a11y")) == 9000


def test_depth_limit_refuses_before_building() -> None:
    with pytest.raises(LimitExceededError, match=r"max_depth=4096.*--limit max_depth=N") as e:
        Observation(accessibility_tree=_chain(5000)).candidates("a11y")
    assert e.value.evidence.details["limit"] == "max_depth"
    assert isinstance(e.value, InvalidObservationError)


def test_max_nodes() -> None:
    tree = {
        "id": "r",
        "role": "group",
        "children": [{"id": str(i), "role": "button"} for i in range(50)],
    }
    with pytest.raises(InvalidObservationError, match="max_nodes"):
        Observation(accessibility_tree=tree, max_nodes=10).candidates("a11y")


def test_web_attributes_become_columns() -> None:
    tree = {"id": "p", "role": "main", "children": [
        {"id": "a", "role": "link", "name": "Help", "tag": "a",
         "attributes": {"class": "nav help", "href": "/help", "title": "Get help", "x": 1}},
        {"id": "q", "role": "textbox", "name": "Search", "attributes": {"placeholder": "Search"}},
    ]}  # fmt: skip
    t = Observation(accessibility_tree=tree, url="https://shop.example/").candidates("a11y")
    web = t.platform_ids
    assert (web["tag"][1], web["class"][1], web["href"][1]) == (
        "a", "nav help", "https://shop.example/help",
    )  # fmt: skip
    assert web["attr:title"][1] == "Get help" and web["attr:placeholder"][2] == "Search"
    assert web["href"][0] is None and web["tag"][2] is None


def test_html_ids_and_xpaths_become_columns_and_count() -> None:
    from resolver import MatchConfig, SemanticElementRef, resolve
    from resolver.matcher import score_table

    def page(first: str, second: str) -> Observation:
        return Observation(accessibility_tree={"id": "p", "role": "main", "children": [
            {"id": "a", "role": "button", "dom_id": "save", "xpath": f"/html/body/{first}"},
            {"id": "b", "role": "button", "dom_id": "send", "xpath": f"/html/body/{second}"},
        ]})  # fmt: skip

    table = page("button[1]", "button[2]").candidates("a11y")
    assert table.platform_ids["dom_id"][1:] == ("save", "send")
    assert table.document_paths is not None and table.document_paths[1] == "/html/body/button[1]"
    # Two unnamed buttons without boxes are told apart by the recorded HTML id; the recorded
    # xpath (compared in the DOM source's normalised form) is evidence for its row.
    assert (
        resolve({"role": "button", "dom_id": "send"}, page("button[1]", "button[2]")).executor_id
        == "a11y:b"
    )
    by_path = SemanticElementRef(role="button", xpath="/html[1]/body[1]/button[2]")
    scored = score_table(by_path, table, MatchConfig())
    hits = dict(zip(scored.rows.tolist(), scored.signals["id:xpath"].tolist(), strict=True))
    assert hits[table.ids.index("b")] == 1.0 and hits[table.ids.index("a")] == 0.0
    # A tree whose nodes give no xpath claims no document places.
    plain = Observation(accessibility_tree={"id": "p", "role": "main"}).candidates("a11y")
    assert plain.document_paths is None and "xpath" not in plain.platform_ids


def test_recorded_neighbour_texts_become_the_nearby_column() -> None:
    from resolver.web import NEARBY_COLUMN, nearby_texts

    tree = {"id": "r", "role": "document", "children": [
        {"id": "a", "role": "link", "name": "Loans",
         "nearby_text": ["Home  loans", 3, "Rates", "Home loans", ""]},
        {"id": "b", "role": "link", "name": "Cards"},
    ]}  # fmt: skip
    table = Observation(accessibility_tree=tree).candidates("a11y")
    rows = {node: i for i, node in enumerate(table.ids)}
    column = table.platform_ids[NEARBY_COLUMN]
    assert column[rows["b"]] is None
    # collapsed, repeats and non-texts dropped; what a recorder reads back as nearby_text
    assert nearby_texts(table, rows["a"]) == ("Home loans", "Rates")
    # a row without recorded texts gets them from the page's reading order
    assert nearby_texts(table, rows["b"]) == ("Loans",)


def test_no_recorded_neighbour_texts_no_column() -> None:
    from resolver.web import NEARBY_COLUMN

    tree = {"id": "r", "role": "document", "children": [{"id": "a", "role": "link", "name": "x"}]}
    table = Observation(accessibility_tree=tree).candidates("a11y")
    assert NEARBY_COLUMN not in table.platform_ids
