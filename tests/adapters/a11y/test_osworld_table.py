import math
from pathlib import Path

from resolver import Observation

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "formats"
HEADER = "tag\tname\ttext\tclass\tdescription\tposition (top-left x&y)\tsize (w&h)\n"


def test_fixture_rows_are_flat_with_boxes() -> None:
    t = Observation(
        accessibility_tree=(FIXTURES / "osworld_table" / "invoice.tsv").read_text()
    ).candidates("a11y")
    assert t.format == "osworld_table" and t.coord_space == "screen_px"
    assert set(t.parent.tolist()) == {-1}
    ok = t.names.index("OK")
    assert t.roles[ok] == "button" and t.bboxes[ok].tolist() == [920.0, 646.0, 1019.0, 679.0]
    assert t.executor_ids[ok] == f"a11y:{ok}"
    name = t.names.index("Customer name")
    assert t.roles[name] == "textbox" and t.values[name] == "Ada Lovelace"


def test_quoting_truncation_and_bad_cells() -> None:
    text = (
        HEADER
        + 'label\t\t"say ""hi"""\t\t\t(1, 2)\t(3, 4)\n'
        + 'push-button\tGo\t""\t\t\t(x, y)\t(3, 4)\n'
        + "push-button\tShort\n"
        + "[...]\n"
    )
    t = Observation(accessibility_tree=text).candidates("a11y")
    assert t.names == ('say "hi"', "Go", "Short")
    assert t.bboxes[0].tolist() == [1.0, 2.0, 4.0, 6.0]
    assert math.isnan(t.bboxes[1][0]) and math.isnan(t.bboxes[2][0])


def test_set_of_marks_variant_uses_the_mark_index() -> None:
    t = Observation(accessibility_tree="index\ttag\tname\ttext\n7\tpush-button\tOK\t\n").candidates(
        "a11y"
    )
    assert t.executor_ids == ("a11y:7",) and t.roles == ("button",)
