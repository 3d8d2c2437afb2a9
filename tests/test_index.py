"""The matcher's per-table indexes."""

import numpy as np

from resolver.adapters._common import XPATH_KEYS
from resolver.index import BoundedCache, index_of
from resolver.table import TableBuilder


def _table():  # type: ignore[no-untyped-def]
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("r", raw_role="dialog", name="Settings")
    group = b.add("g", raw_role="group", name="Display", parent=root)
    b.add("ok", raw_role="button", name="OK", parent=group, xpath="/html[1]/body[1]/button[1]/")
    b.add("ok2", raw_role="button", name="ok", parent=root, bbox=(0, 0, 10, 4))
    b.add("inbox", raw_role="link", name="Inbox (12)", parent=root)
    return b.build(id_keys=XPATH_KEYS)


def test_one_index_per_table() -> None:
    table = _table()
    assert index_of(table) is index_of(table)
    assert index_of(_table()) is not index_of(table)


def test_name_lookups() -> None:
    index = index_of(_table())
    assert index.lookup("raw", "OK").tolist() == [2]
    assert sorted(index.lookup("norm", "ok").tolist()) == [2, 3]
    assert index.table.names_mask[4] == "inbox (#"  # edge punctuation goes, digits are masked
    assert index.lookup("mask", "inbox (#").tolist() == [4]
    assert index.lookup("norm", "nothing").size == 0
    assert index.lookup("raw", "").size == 0


def test_container_vocabulary() -> None:
    vocab = index_of(_table()).containers
    assert vocab.paths[vocab.path_of_row[2]] == ("Settings", "Display")
    assert vocab.raw == ["Settings", "Display"]
    assert vocab.matrix.shape[0] == len(vocab.paths)


def test_id_columns_use_the_tables_key() -> None:
    index = index_of(_table())
    assert index.id_column("xpath")[2] == "/html/body/button"


def test_geometry_and_flags() -> None:
    index = index_of(_table())
    assert np.isnan(index.geometry.cx[0]) and index.geometry.cx[3] == 5.0
    assert index.empty_names.tolist() == [False] * 5
    assert index.has_containers.tolist() == [1.0] * 5  # a structured tree: paths are evidence


def test_bounded_cache_empties_when_full() -> None:
    cache = BoundedCache(2)
    cache.room()["a"] = 1
    cache.room()["b"] = 2
    cache.room()["c"] = 3
    assert cache == {"c": 3}


def test_the_text_inside_a_heading_does_not_make_its_name_a_duplicate() -> None:
    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Page", bbox=(0, 0, 800, 600))
    head = b.add("h", raw_role="heading", name="Pricing", parent=root, bbox=(8, 40, 200, 60))
    b.add("ht", raw_role="StaticText", name="Pricing", parent=head, bbox=(8, 40, 200, 60))
    b.add("a", raw_role="link", name="Docs", parent=root, bbox=(8, 80, 60, 96))
    b.add("b", raw_role="link", name="Docs", parent=root, bbox=(8, 500, 60, 516))
    index = index_of(b.build())
    assert index.repeats_parent.tolist() == [False, False, True, False, False]
    # The heading is the one element named "Pricing"; two links named "Docs" are two.
    assert index.unique_named.tolist() == [True, True, False, False, False]
    assert index.unique_box("Pricing") == (8.0, 40.0, 200.0, 60.0)
    assert index.unique_box("Docs") is None
