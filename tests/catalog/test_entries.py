from resolver import Observation
from resolver.adapters.dom.elements import ElementFacts
from resolver.catalog.entries import actionable_rows, order_rows, regions


def _table(kids: list[dict]) -> object:  # type: ignore[type-arg]
    return Observation(accessibility_tree={"id": "r", "role": "document", "name": "P",
                                           "children": kids}).candidates("a11y")  # fmt: skip


def test_line_order_with_tolerance_and_rows_without_boxes_last() -> None:
    table = _table([
        {"id": "c", "role": "button", "name": "C", "bbox": [300, 12, 340, 40]},  # same line
        {"id": "a", "role": "button", "name": "A", "bbox": [10, 10, 50, 30]},
        {"id": "d", "role": "link", "name": "D", "bbox": [10, 100, 50, 120]},
        {"id": "b", "role": "button", "name": "B", "bbox": [100, 5, 140, 45]},  # taller
        {"id": "h", "role": "button", "name": "H", "bbox": [10, 50, 50, 70], "hidden": True},
        {"id": "n", "role": "button", "name": "N"},
    ])  # fmt: skip
    rows = order_rows(table, actionable_rows(table))  # type: ignore[arg-type]
    # a, b and c share a line (left to right); hidden and box-less rows come last.
    assert [table.ids[r] for r in rows] == ["a", "b", "c", "d", "h", "n"]


def test_regions_are_the_innermost_landmark_or_dialog() -> None:
    table = _table([
        {"id": "nav", "role": "navigation", "name": "Main", "children": [
            {"id": "l", "role": "link", "name": "Home"}]},
        {"id": "m", "role": "main", "children": [
            {"id": "dlg", "role": "dialog", "name": "Confirm", "children": [
                {"id": "ok", "role": "button", "name": "OK"}]},
            {"id": "reg", "role": "region", "children": [
                {"id": "x", "role": "button", "name": "X"}]}]},
        {"id": "y", "role": "button", "name": "Y"},
    ])  # fmt: skip
    labels = dict(zip(table.ids, regions(table), strict=True))  # type: ignore[arg-type]
    assert labels["l"] == 'navigation "Main"'
    assert labels["ok"] == 'dialog "Confirm"'
    assert labels["x"] == "main"  # an unnamed region is no region
    assert labels["y"] == "page"


def test_dom_clickables_join_the_catalog() -> None:
    html = ('<div id="a" onclick="go()">Open</div><span tabindex="0">Focus me</span>'
            '<span tabindex="-1">Not me</span><p>text</p><button>B</button>')  # fmt: skip
    table = Observation(dom_html=html).candidates("dom")
    rows = actionable_rows(table, ElementFacts(table, None))
    assert sorted(table.names[r] for r in rows) == ["B", "Focus me", "Open"]
