import json
import math
from pathlib import Path

import pytest

from resolver import InvalidObservationError, Observation

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "formats"


def test_text_with_side_table() -> None:
    data = json.loads((FIXTURES / "webarena" / "invoice.json").read_text())
    t = Observation(accessibility_tree=data).candidates("a11y")
    assert t.format == "webarena" and t.coord_space == "css_px"
    assert t.screen_size == (1280.0, 720.0)
    ok = t.names.index("OK")
    assert t.executor_ids[ok] == "a11y:27" and t.roles[ok] == "button"
    assert t.bboxes[ok].tolist() == [800.0, 560.0, 890.0, 590.0]
    assert t.platform_ids["backend_node_id"][ok] == "527"
    field = t.names.index("Customer name", t.names.index("Customer name") + 1)
    assert t.roles[field] == "textbox" and t.focused[field] == 1
    assert t.enabled[t.names.index("Delete")] == 0
    assert t.containers[ok] == ("Invoice Editor",)
    # The text alone reads the same tree, without boxes.
    bare = Observation(accessibility_tree=data["text"]).candidates("a11y")
    assert bare.ids == t.ids and math.isnan(bare.bboxes[ok][0])


def test_escaped_names_and_metadata_location() -> None:
    text = "[1] RootWebArea 'Shop'\n\t[2] link \"Bob's page\"\n\t[3] button 'a\\nb\\'c'\n"
    meta = {"text": {"obs_nodes_info": {"2": {"union_bound": [1, 2, 3, 4]},
                                        "3": {"union_bound": [0, 0, 0, 0]}}}}  # fmt: skip
    t = Observation(accessibility_tree={"text": text, "observation_metadata": meta}).candidates(
        "a11y"
    )
    assert t.names == ("Shop", "Bob's page", "a b'c")
    assert t.bboxes[1].tolist() == [1.0, 2.0, 4.0, 6.0] and math.isnan(t.bboxes[2][0])


def test_set_of_marks_text() -> None:
    text = "[1] [BUTTON] [Go]\n[] [StaticText] [Hello]\n[2] [IMG] [Logo, url: http://x/y.png]\n"
    t = Observation(accessibility_tree=text).candidates("a11y")
    assert t.roles == ("button", "text", "img")
    assert t.executor_ids == ("a11y:1", "a11y:#1", "a11y:2")
    assert t.names[2] == "Logo" and t.values[2] == "http://x/y.png"


def test_no_tree_lines_is_typed() -> None:
    with pytest.raises(InvalidObservationError):
        Observation(accessibility_tree="Tab 0 (current): x", tree_format="webarena").candidates(
            "a11y"
        )
