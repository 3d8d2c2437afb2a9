import math
from pathlib import Path

import pytest

from resolver import InvalidObservationError, Observation

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


def test_rows_are_read_by_the_columns_named_not_padded_to_the_header() -> None:
    """A header of many columns (the ones read need not come first) with short rows: each
    row reads the named columns it has, "" for the others."""
    header = "index\ttag\t" + "extra\t" * 3 + "name\t" + "\t".join(["x"] * 500) + "\n"
    t = Observation(accessibility_tree=header + "5\tpush-button\ta\tb\tc\tGo\n" + "\tlabel\n")
    table = t.candidates("a11y")
    assert table.names == ("Go", "") and table.executor_ids == ("a11y:5", "a11y:1")
    assert table.roles == ("button", "text")


def test_a_cell_too_long_for_the_csv_reader_is_a_typed_refusal() -> None:
    text = HEADER + "push-button\t" + "x" * 200_000 + "\n"
    with pytest.raises(InvalidObservationError, match="row cannot be read"):
        Observation(accessibility_tree=text).candidates("a11y")
