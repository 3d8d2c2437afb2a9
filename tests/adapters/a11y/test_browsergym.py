import json
import math
from pathlib import Path
from typing import Any

from resolver import Observation

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "formats"


def test_observation_dict() -> None:
    data = json.loads((FIXTURES / "browsergym" / "invoice.json").read_text())
    t = Observation(accessibility_tree=data).candidates("a11y")
    assert t.format == "browsergym" and t.coord_space == "css_px"
    ok = t.names.index("OK")
    assert t.executor_ids[ok] == f"a11y:{t.platform_ids['bid'][ok]}"
    assert t.bboxes[ok].tolist() == [800.0, 560.0, 890.0, 590.0] and t.visible[ok] == 1
    assert t.executor_ids[0] == "a11y:#10"  # the root has no bid
    field = next(i for i in range(len(t)) if t.roles[i] == "textbox")
    assert t.focused[field] == 1 and t.values[field] == "Ada Lovelace"
    assert t.enabled[t.names.index("Delete")] == 0
    # The axtree_object alone is recognised by its bids (and not taken for plain CDP).
    alone = Observation(accessibility_tree=data["axtree_object"]).candidates("a11y")
    assert alone.format == "browsergym" and math.isnan(alone.bboxes[ok][0])


def test_flattened_text_with_extra_properties() -> None:
    text = (
        "RootWebArea 'Shop', focused\n"
        "\t[12] button 'Buy', clickable, visible, disabled=True\n"
        "\t\tStaticText 'Buy'\n"
        "\t[a3] textbox 'Email', visible, value='me@x.org', box=\"(1,2,30,40)\"\n"
        "\t[14] link 'Hidden'\n"
    )
    extra: dict[str, Any] = {"12": {"bbox": [10, 20, 30, 40], "visibility": 1.0},
                             "14": {"bbox": None, "visibility": 0.0}}  # fmt: skip
    t = Observation(
        accessibility_tree={"axtree_txt": text, "extra_element_properties": extra}
    ).candidates("a11y")
    assert t.format == "browsergym"
    assert t.executor_ids == ("a11y:#0", "a11y:12", "a11y:#0.0.0", "a11y:a3", "a11y:14")
    assert t.focused[0] == 1 and t.enabled[1] == 0
    assert t.bboxes[1].tolist() == [10.0, 20.0, 40.0, 60.0]
    assert t.bboxes[3].tolist() == [1.0, 2.0, 30.0, 40.0] and t.values[3] == "me@x.org"
    assert t.visible[4] == 0 and t.visible[2] == 0 and math.isnan(t.bboxes[4][0])


def test_cyclic_child_ids_are_read_once() -> None:
    nodes = [
        {"nodeId": "1", "role": {"value": "button"}, "name": {"value": "A"}, "childIds": ["2"],
         "browsergym_id": "5", "parentId": "2"},
        {"nodeId": "2", "role": {"value": "group"}, "childIds": ["1", "1", 3, None],
         "parentId": "1"},
    ]  # fmt: skip
    t = Observation(accessibility_tree={"axtree_object": {"nodes": nodes}}).candidates("a11y")
    assert len(t) == 2


def test_link_url_fills_href() -> None:
    url = {"name": "url", "value": {"type": "string", "value": "https://shop.example/help"}}
    nodes = [
        {"nodeId": "1", "role": {"value": "RootWebArea"}, "name": {"value": "Shop"},
         "childIds": ["2"], "browsergym_id": "a1"},
        {"nodeId": "2", "role": {"value": "link"}, "name": {"value": "Help"}, "parentId": "1",
         "childIds": [], "browsergym_id": "a2", "properties": [url]},
    ]  # fmt: skip
    t = Observation(accessibility_tree={"axtree_object": {"nodes": nodes}}).candidates("a11y")
    assert t.platform_ids["href"] == (None, "https://shop.example/help")
