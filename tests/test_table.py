import math

import numpy as np
import pytest

from resolver import InvalidObservationError
from resolver.table import TableBuilder


def _table():
    b = TableBuilder("a11y", "test", id_columns=("automation_id",))
    root = b.add("r", raw_role="RootWebArea", name="Page")
    nav = b.add("n", raw_role="navigation", parent=root)
    b.add("l", raw_role="link", name="Home", parent=nav, bbox=(0, 0, 10, 10))
    table_row = b.add("row", raw_role="row", parent=root)
    b.add("c1", raw_role="StaticText", name="Alice", parent=table_row)
    b.add("btn", raw_role="button", name="  Edit \n", parent=table_row, automation_id="e1")
    b.add("bad", raw_role="button", name="x", parent=root, bbox=(5, 5, 1, 1))
    b.add("nan", raw_role="button", name="y", parent=root, bbox=(0, math.nan, 1, 1))
    return b.build(coord_space="css_px", screen_size=(100.0, 100.0))


def test_columns() -> None:
    t = _table()
    assert len(t) == 8
    assert t.roles[:3] == ("document", "navigation", "link")
    assert t.names[5] == "Edit"
    assert t.executor_ids[0] == "a11y:r"
    assert list(t.depth) == [0, 1, 2, 1, 2, 2, 1, 1]
    assert list(t.parent) == [-1, 0, 1, 0, 3, 3, 0, 0]
    assert t.platform_ids["automation_id"][5] == "e1"
    assert np.isnan(t.bboxes[6]).all()  # inverted box counts as unknown
    assert np.isnan(t.bboxes[7]).all()


def test_container_paths_use_names_landmarks_and_row_text() -> None:
    t = _table()
    assert t.containers[2] == ("Page", "[navigation]")
    assert t.containers[5] == ("Page", "Alice Edit")


def test_immutable() -> None:
    t = _table()
    with pytest.raises(ValueError):
        t.bboxes[0, 0] = 1.0
    with pytest.raises(AttributeError):
        t.names = ()  # type: ignore[misc]


def test_lookup_indexes() -> None:
    t = _table()
    assert list(t.lookup("raw", "Edit")) == [5]
    assert list(t.lookup("norm", "edit")) == [5]
    assert t.lookup("norm", "nothing").size == 0


def test_parent_must_come_first() -> None:
    b = TableBuilder("a11y", "test")
    with pytest.raises(InvalidObservationError):
        b.add("a", raw_role="button", parent=0)


def test_row_limit() -> None:
    b = TableBuilder("a11y", "test", max_rows=2)
    b.add("a", raw_role="button")
    b.add("b", raw_role="button")
    with pytest.raises(InvalidObservationError, match="max_nodes"):
        b.add("c", raw_role="button")


def test_is_ancestor() -> None:
    t = _table()
    assert t.is_ancestor(0, 5)
    assert t.is_ancestor(3, 5)
    assert not t.is_ancestor(5, 3)
    assert not t.is_ancestor(1, 5)
