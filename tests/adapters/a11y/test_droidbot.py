from pathlib import Path
from typing import Any

import pytest

from resolver import InvalidObservationError, Observation

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "formats"


def view(i: int, parent: int, children: list[int], **extra: Any) -> dict[str, Any]:
    return {"temp_id": i, "parent": parent, "children": children, "class": "android.view.View",
            "bounds": [[0, 0], [10, 10]], **extra}  # fmt: skip


def test_fixture_matches_the_uiautomator_dump() -> None:
    bot = Observation(
        accessibility_tree=(FIXTURES / "droidbot" / "invoice.json").read_text()
    ).candidates("a11y")
    dump = Observation(
        accessibility_tree=(FIXTURES / "uiautomator" / "invoice.xml").read_bytes()
    ).candidates("a11y")
    assert bot.format == "droidbot" and bot.coord_space == "device_px"
    assert bot.ids == dump.ids and bot.roles == dump.roles
    assert bot.bboxes.tolist() == dump.bboxes.tolist()
    # DroidBot keeps no hints: fields are unnamed there, their text is the value.
    field = bot.ids.index(dump.ids[dump.names.index("Customer name")])
    assert bot.names[field] == "" and bot.values[field] == "Ada Lovelace"
    assert bot.platform_ids["temp_id"][0] == "0"


def test_cycles_and_bad_links_are_read_once() -> None:
    views = [
        view(0, -1, [1, 1, 99, "x", True]),
        view(1, 0, [0], text="loop"),
        view(2, 3, [3], text="orphan cycle"),
        view(3, 2, [2], text="other"),
    ]
    t = Observation(accessibility_tree={"views": views}).candidates("a11y")
    assert sorted(t.platform_ids["temp_id"]) == ["0", "1", "2", "3"]


@pytest.mark.parametrize(
    "raw",
    [{"views": "nope"}, {"views": [view(0, -1, [], bounds=[[0, 0]])] * 3}],
)
def test_wrong_types(raw: Any) -> None:
    if isinstance(raw["views"], str):
        with pytest.raises(InvalidObservationError):
            Observation(accessibility_tree=raw, tree_format="droidbot").candidates("a11y")
    else:
        t = Observation(accessibility_tree=raw).candidates("a11y")
        assert len(t) == 1  # one view object listed three times is one view (same temp_id)
