import math
import pickle
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from resolver import InvalidObservationError
from resolver.geometry import CoordSpace
from resolver.table import (
    MAX_TEXT,
    NO_STATE,
    CandidateTable,
    LazyColumns,
    TableBuilder,
    _clean_values,
    _state_rows,
    ancestor_sums,
    check_rows,
)


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
    return b.build(coord_space=CoordSpace.CSS_PX, screen_size=(100.0, 100.0))


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
    assert t.diagnostics == {"box_not_finite": 1, "box_inverted": 1}


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


def test_parent_must_come_first() -> None:
    b = TableBuilder("a11y", "test")
    b.add("a", raw_role="button", parent=0)
    with pytest.raises(InvalidObservationError, match="earlier row"):
        b.build()


def test_rows_as_tuples_with_overrides() -> None:
    b = TableBuilder("a11y", "test", id_columns=("automation_id", "class_name"))
    b.rows.append(("1", "View", "Send", -1, [0, 0, 10, 10], "", (1, 1, -1), "send", None))
    b.rows.append(("2", "View", "", 0, None, "x" * 3000, NO_STATE, None, "Icon"))
    b.roles[0] = "button"
    b.executor_ids[1] = "a11y:other"
    t = b.build()
    assert t.roles == ("button", "generic")
    assert t.executor_ids == ("a11y:1", "a11y:other")
    assert t.platform_ids == {"automation_id": ("send", None), "class_name": (None, "Icon")}
    assert list(t.enabled) == [1, -1] and len(t.values[1]) == 2000


def test_malformed_rows_are_refused() -> None:
    b = TableBuilder("a11y", "test", id_columns=("automation_id",))
    b.rows.append(("1", "button", "OK", -1, None, "", NO_STATE))  # one field short
    with pytest.raises(InvalidObservationError, match="numbers of fields"):
        b.build()
    b = TableBuilder("a11y", "test")
    b.add("1", raw_role="button", role="no-such-role")
    with pytest.raises(InvalidObservationError, match="unknown canonical role"):
        b.build()


def test_row_limit() -> None:
    b = TableBuilder("a11y", "test", max_rows=2)
    b.add("a", raw_role="button")
    b.add("b", raw_role="button")
    with pytest.raises(InvalidObservationError, match="max_nodes"):
        b.add("c", raw_role="button")
    with pytest.raises(InvalidObservationError, match="raise max_nodes"):
        b.reserve(1)
    b.rows.append(("c", "button", "", -1, None, "", NO_STATE))
    with pytest.raises(InvalidObservationError, match="more than 2 nodes"):
        b.build()
    check_rows(2, 2)


def test_derived_is_made_once_per_table() -> None:
    t = _table()
    made: list[int] = []

    class Counted:
        def __init__(self, table: object) -> None:
            made.append(1)

    assert t.derived(Counted) is t.derived(Counted)
    assert made == [1]


def test_is_ancestor() -> None:
    t = _table()
    assert t.is_ancestor(0, 5)
    assert t.is_ancestor(3, 5)
    assert not t.is_ancestor(5, 3)
    assert not t.is_ancestor(1, 5)


def test_the_panel_above_a_row() -> None:
    b = TableBuilder("a11y", "test")
    root = b.add("r", raw_role="RootWebArea", name="Account")
    dialog = b.add("d", raw_role="dialog", name="Addresses", parent=root)
    section = b.add("s", raw_role="group", parent=dialog)
    b.add("sum", raw_role="DisclosureTriangle", name="Shipping address", parent=section)
    apply = b.add("a", raw_role="button", name="Apply", parent=section)
    plain = b.add("g", raw_role="group", name="Plain", parent=dialog)
    ok = b.add("ok", raw_role="button", name="OK", parent=plain)
    outside = b.add("o", raw_role="button", name="Help", parent=root)
    t = b.build()
    assert t.panel_above(apply) == (section, "details", "Shipping address")
    assert t.summary_of(section) == section + 1 and t.summary_of(plain) is None
    assert t.panel_above(ok) == (dialog, "dialog", "Addresses")  # a group is no panel
    assert t.panel_above(outside) is None and t.panel_above(root) is None


def test_ascii_collapsed_names_are_only_cut() -> None:
    """With ``ascii_collapsed`` an ASCII name is taken as it is (cut at MAX_TEXT); any other
    name is still collapsed, Unicode spaces included; without it every name is collapsed."""
    from resolver.table import MAX_TEXT

    names = ["Sign in", "x" * (MAX_TEXT + 50), "Prix\u00a0 total", "a  b"]
    for flag in (True, False):
        b = TableBuilder("dom", "test", ascii_collapsed=flag)
        for k, name in enumerate(names):
            b.add(f"e{k}", raw_role="button", name=name)
        got = b.build().names
        assert got[0] == "Sign in"
        assert got[1] == "x" * MAX_TEXT
        assert got[2] == "Prix total"
        # (the flag is a promise: an ASCII name is trusted to be collapsed already)
        assert got[3] == ("a  b" if flag else "a b")


def test_boxes_given_as_arrays_and_no_boxes_at_all() -> None:
    b = TableBuilder("a11y", "test")
    b.add("a", raw_role="button", name="x", bbox=np.array([1.0, 2.0, 3.0, 4.0]))
    b.add("b", raw_role="button", name="y")
    boxes = b.build().bboxes
    assert boxes[0].tolist() == [1.0, 2.0, 3.0, 4.0] and np.isnan(boxes[1]).all()
    none = TableBuilder("a11y", "test")
    none.add("a", raw_role="button", name="x")
    assert none.build().bboxes.shape == (1, 4)


@pytest.mark.parametrize("rows", [3, 64, 65, 500])
def test_parents_are_checked_on_small_and_large_tables(rows: int) -> None:
    for bad in (rows - 1, -2):  # a row that is its own parent; a negative index
        b = TableBuilder("a11y", "test")
        for k in range(rows):
            b.add(f"r{k}", raw_role="button", parent=k - 1 if k < rows - 1 else bad)
        with pytest.raises(InvalidObservationError, match="earlier row"):
            b.build()
    good = TableBuilder("a11y", "test")
    for k in range(rows):
        good.add(f"r{k}", raw_role="button", parent=k - 1)
    assert good.build().parent.tolist() == list(range(-1, rows - 1))


def test_document_paths_are_offered_only_by_sources_that_know_them() -> None:
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    b.add("a", raw_role="link", name="Home", xpath="/html[1]/body[1]/a[1]")
    b.add("b", raw_role="StaticText", name="text")
    assert b.build().document_paths == ("/html[1]/body[1]/a[1]", None)
    desktop = TableBuilder("uia", "test")
    desktop.add("w", raw_role="Window", name="Works")
    assert desktop.build().document_paths is None


class Text(str):
    """A string of a subclass (as XML libraries hand out)."""


def _dirty() -> TableBuilder:
    """One row of every repair the build makes, and rows it must not count."""
    from resolver.table import MAX_TEXT

    b = TableBuilder("a11y", "test")
    root = b.add("r", raw_role="window", name="App", bbox=(0, 0, 100, 100))
    b.rows += [
        ("nan", "button", "x", root, (0, math.nan, 1, 1), "", NO_STATE),
        ("inf", "button", "y", root, [0, 0, math.inf, 1], "", NO_STATE),
        ("inv", "button", "z", root, (5, 5, 1, 1), "", NO_STATE),
        ("flat", "button", "w", root, (5, 5, 5, 9), "", NO_STATE),  # zero width: kept
        ("num", "button", 42, root, None, "", NO_STATE),
        ("list", "button", ["a"], root, None, "", NO_STATE),
        ("none", "button", None, root, None, "", NO_STATE),  # no name: not a repair
        ("sub", "button", Text("Sub"), root, None, "", NO_STATE),  # a str is text
        ("odd", "frobnicator", "v", root, None, "", NO_STATE),
        ("odd2", "frobnicator", "u", root, None, "", NO_STATE),
        ("said", "ROLE_UNKNOWN", "t", root, None, "", NO_STATE),  # honest: not counted
        ("blank", "", "s", root, None, "", NO_STATE),  # no role: not counted
        ("long", "text", "  " + "n" * (MAX_TEXT + 1), root, None, "v" * (MAX_TEXT + 1), NO_STATE),
        ("full", "text", "m" * MAX_TEXT, root, None, "q" * MAX_TEXT, NO_STATE),  # not cut
    ]
    return b


def test_diagnostics_count_every_repair_of_the_build() -> None:
    t = _dirty().build()
    assert t.diagnostics == {
        "box_not_finite": 2,
        "box_inverted": 1,
        "name_not_text": 2,
        "name_cut": 1,
        "value_cut": 1,
        "role_unknown": 2,
    }
    assert list(t.diagnostics) == ["box_not_finite", "box_inverted", "name_not_text",
                                   "name_cut", "value_cut", "role_unknown"]  # fmt: skip
    assert [t.box(i) for i in range(1, 5)] == [None, None, None, (5.0, 5.0, 5.0, 9.0)]
    assert t.names[5:9] == ("42", "", "", "Sub")
    assert t.roles[9:13] == ("unknown",) * 4


def test_malformed_boxes_are_counted_apart_from_missing_ones() -> None:
    b = TableBuilder("a11y", "test")
    for k, box in enumerate([(0, 0, 1, 1), "1234", [1, 2, 3], None, {"left": 0}, (2, 1, 0, 3)]):
        b.add(f"b{k}", raw_role="button", name="x", bbox=box)  # type: ignore[arg-type]
    t = b.build()
    assert t.diagnostics == {"box_malformed": 3, "box_inverted": 1}
    assert t.box(0) == (0.0, 0.0, 1.0, 1.0) and all(t.box(i) is None for i in range(1, 6))


@pytest.mark.parametrize("rows", [3, 1000])
def test_box_counts_on_small_and_large_tables(rows: int) -> None:
    b = TableBuilder("a11y", "test")
    for k in range(rows):
        box = None if k % 3 == 0 else (k, 0, k - 1, 5) if k % 3 == 1 else (k, 0, math.nan, 5)
        b.add(f"b{k}", raw_role="button", name="x", bbox=box)
    want = {"box_not_finite": rows // 3, "box_inverted": (rows + 1) // 3}
    assert b.build().diagnostics == {k: v for k, v in want.items() if v}


def test_a_clean_table_has_no_diagnostics() -> None:
    b = TableBuilder("a11y", "test")
    root = b.add("r", raw_role="window", name="App", bbox=(0, 0, 100, 100))
    b.add("a", raw_role="button", name=" OK ", parent=root, bbox=(1, 1, 9, 9), value="v")
    b.add("b", raw_role="StaticText", name="", parent=root)
    assert b.build().diagnostics == {}
    assert TableBuilder("a11y", "test").build().diagnostics == {}


def test_role_overrides_and_adapter_notes() -> None:
    b = TableBuilder("a11y", "test")
    b.add("a", raw_role="frobnicator", role="button")  # the adapter knows better
    b.add("b", raw_role="frobnicator")
    b.note("box_not_finite", 4)  # dropped by the adapter before the builder saw it
    b.note("row_skipped")
    assert b.build().diagnostics == {"box_not_finite": 4, "role_unknown": 1, "row_skipped": 1}


def test_ascii_collapsed_names_cut_are_counted() -> None:
    from resolver.table import MAX_TEXT

    b = TableBuilder("dom", "test", ascii_collapsed=True)
    for k, name in enumerate(["x" * (MAX_TEXT + 1), "é" * (MAX_TEXT + 1), "ok", "x" * MAX_TEXT]):
        b.add(f"e{k}", raw_role="button", name=name)
    assert b.build().diagnostics == {"name_cut": 2}


@pytest.mark.parametrize("ascii_collapsed", [False, True])
def test_names_holding_half_a_character_are_read_with_a_replacement(
    ascii_collapsed: bool,
) -> None:
    """A lone surrogate (a page script cut an emoji) is read as U+FFFD, as references read
    it, so a recorded name still agrees exactly; a split pair across two names is two halves."""
    b = TableBuilder("dom", "test", ascii_collapsed=ascii_collapsed)
    for k, name in enumerate(["Buy \ud83d", "caf\u00e9", "a\ud83d", "\ude00b", "OK"]):
        b.add(f"e{k}", raw_role="button", name=name)
    t = b.build()
    assert t.names == ("Buy \ufffd", "caf\u00e9", "a\ufffd", "\ufffdb", "OK")
    assert t.names_norm[0] == "buy" and t.diagnostics == {}


def test_diagnostics_in_words() -> None:
    from resolver.table import DIAGNOSTICS, describe_diagnostics

    assert describe_diagnostics({"box_not_finite": 3, "name_not_text": 1}) == (
        "3 boxes not finite (dropped), 1 name not text (converted)"
    )
    assert describe_diagnostics({"row_skipped": 2}) == "row_skipped: 2"
    assert describe_diagnostics({}) == ""
    assert all(f"{key}:" not in describe_diagnostics({key: 2}) for key in DIAGNOSTICS)


def _structure_by_rows(
    roles: list[str], names: list[str], parents: list[int]
) -> tuple[list[int], list[tuple[str, ...]]]:
    """Depth and container paths row by row, as the table defines them: a row's path is its
    parent's, plus the parent's label (its name for a container, its text leaves when an
    unnamed list item, article or the like, ``[role]`` for an unnamed landmark)."""
    from resolver.roles import CONTAINER_ROLES, LANDMARK_ROLES
    from resolver.table import MAX_CONTAINER_DEPTH, MAX_ENTRY, _content_labels

    content = _content_labels(roles, names, parents)
    depth = [0] * len(parents)
    paths: list[tuple[str, ...]] = [()] * len(parents)
    for i, p in enumerate(parents):
        if p < 0:
            continue
        depth[i] = depth[p] + 1
        label = names[p] if roles[p] in CONTAINER_ROLES else ""
        label = (
            label or content.get(p, "") or (f"[{roles[p]}]" if roles[p] in LANDMARK_ROLES else "")
        )
        path = paths[p]
        paths[i] = (*path[-(MAX_CONTAINER_DEPTH - 1) :], label[:MAX_ENTRY]) if label else path
    return depth, paths


@pytest.mark.parametrize("seed", range(30))
def test_depth_and_containers_follow_the_row_by_row_definition(seed: int) -> None:
    import random

    from resolver.table import ContainerPaths, _container_paths

    rng = random.Random(seed)
    n = rng.randint(1, 400)
    roles = [rng.choice(["group", "button", "navigation", "listitem", "text", "dialog",
                         "article", "generic"]) for _ in range(n)]  # fmt: skip
    names = [rng.choice(["", "", "Save", "x" * 250, "Menu"]) for _ in range(n)]
    parents = [-1] + [rng.choice([-1, *range(max(0, i - 30), i)]) for i in range(1, n)]
    deep = [-1, *range(n - 1)]  # a chain deeper than the kept path length
    for ups in (parents, deep):
        b = TableBuilder("a11y", "test")
        for i, (role, name, up) in enumerate(zip(roles, names, ups, strict=True)):
            b.add(f"e{i}", raw_role=role, name=name, parent=up)
        table = b.build()
        want_depth, want_paths = _structure_by_rows(roles, names, ups)
        assert table.depth.tolist() == want_depth
        codes, parent = table.role_codes, table.parent
        assert list(_container_paths(roles, codes, names, parent)) == want_paths
        # A row at a time, in any order (past ``EAGER_AFTER`` rows, every path at once).
        order = rng.sample(range(n), n)
        one_by_one = ContainerPaths(roles, codes, names, parent)
        assert [one_by_one[i] for i in order] == [want_paths[i] for i in order]
        assert one_by_one[-1] == want_paths[-1] and one_by_one[1:3] == tuple(want_paths[1:3])
        assert table.containers == tuple(want_paths) and list(table.containers) == want_paths


def test_container_paths_read_one_row_make_only_its_ancestors_paths() -> None:
    """A row's path is made from its labelled ancestors alone: reading one row of a long
    list leaves the other rows' paths unmade, and the paths behave as a tuple (indexes out
    of range, equality, a copy)."""

    b = TableBuilder("a11y", "test")
    main = b.add("m", raw_role="main")
    group = b.add("g", raw_role="group", name="Orders", parent=main)
    rows = [b.add(f"r{i}", raw_role="link", name=f"Order {i}", parent=group) for i in range(500)]
    table = b.build()
    paths = table.containers
    assert paths[rows[250]] == ("[main]", "Orders")
    assert paths[main] == () and paths[group] == ("[main]",)
    assert len(paths) == 502 and repr(paths) == "ContainerPaths(rows=502)"
    assert paths._all is None  # type: ignore[attr-defined]  # (no row but these was made)
    _acts_as_a_tuple(paths)


def _acts_as_a_tuple(column: Sequence[Any]) -> tuple[Any, ...]:
    """A lazy column indexes, compares and pickles as a tuple does; returns its copy."""
    with pytest.raises(IndexError):
        column[len(column)]
    with pytest.raises(TypeError):
        column["1"]  # type: ignore[call-overload]
    copy = pickle.loads(pickle.dumps(column))
    assert type(copy) is tuple and copy == column and column == copy
    return copy  # type: ignore[no-any-return]


def _row_paths_by_rows(parents: list[int], places: list[int]) -> list[str]:
    """Child-index paths as defined: a root's place, else its parent's path, a dot, and its
    place."""
    paths: list[str] = []
    for up, place in zip(parents, places, strict=True):
        paths.append(str(place) if up < 0 else f"{paths[up]}.{place}")
    return paths


@pytest.mark.parametrize("seed", range(20))
def test_row_paths_follow_the_row_by_row_definition(seed: int) -> None:
    import random

    from resolver.table import RowPaths

    rng = random.Random(seed)
    n = rng.randint(1, 700)
    parents = [-1] + [rng.choice([-1, *range(max(0, i - 20), i)]) for i in range(1, n)]
    places = [rng.choice([0, 1, 2, 7, 15, 16, 300]) for _ in range(n)]
    want = _row_paths_by_rows(parents, places)
    texts = lambda k: [str(i) for i in range(k)]  # noqa: E731
    whole = RowPaths(parents, places, texts)
    assert list(whole) == want and whole == tuple(want) and tuple(want) == whole
    # A row at a time, in any order (past ``EAGER_AFTER`` rows, every path at once).
    order = rng.sample(range(n), n)
    one_by_one = RowPaths(parents, places, texts)
    assert [one_by_one[i] for i in order] == [want[i] for i in order]
    assert one_by_one[-1] == want[-1] and one_by_one[1:3] == tuple(want[1:3])
    # Rows read count towards writing every path at once; their ancestors do not.
    want_deep = _row_paths_by_rows([-1, *range(299)], [0] * 300)
    deep = RowPaths([-1, *range(299)], [0] * 300, texts)
    assert [deep[299 - i] for i in range(10)] == [want_deep[299 - i] for i in range(10)]
    assert deep._all is None and len(deep._rows) == 10  # type: ignore[attr-defined]


@pytest.mark.parametrize("boxes", [False, True])  # a Playwright snapshot, a nested tree
def test_row_paths_read_one_row_write_only_its_ancestors_paths(boxes: bool) -> None:
    """Reading one row of a long list writes its path and its ancestors' alone; the paths
    behave as a tuple (indexes out of range, equality, a copy), and a tree's table holds
    them as they are."""
    from resolver import Observation
    from resolver.table import RowPaths

    leaves = [{"role": "link", "name": f"Order {i}"} for i in range(500)]
    if boxes:
        for i, leaf in enumerate(leaves):
            leaf["bbox"] = [0, 20 * i, 100, 20 * i + 18]
    tree = {"role": "WebArea", "name": "", "children": [{"role": "list", "children": leaves}]}
    table = Observation(accessibility_tree=tree).candidates("a11y")
    assert table.format == ("nested" if boxes else "playwright")
    ids = table.ids
    assert isinstance(ids, RowPaths) and len(ids) == 502 and repr(ids) == "RowPaths(rows=502)"
    assert ids[301] == "0.0.299" and ids[0] == "0"
    assert ids._all is None and set(ids._known) == {0, 1, 301}  # type: ignore[attr-defined]
    assert set(ids._rows) == {0, 301}  # type: ignore[attr-defined]  # (the rows read)
    assert table.executor_id(301) == "a11y:0.0.299"
    assert _acts_as_a_tuple(ids) == ("0", "0.0", *(f"0.0.{i}" for i in range(500)))


def test_ancestor_sums_add_along_the_chain_and_see_cycles() -> None:
    up = np.array([-1, 0, 1, 1, -1])
    assert ancestor_sums(up, np.array([1, 2, 3, 4, 5])).tolist() == [1, 3, 6, 7, 5]
    assert ancestor_sums(np.array([1, 0, -1]), np.ones(3, dtype=np.int64)) is None


_NAME_CHARS = "ab A1 2.\t\n\xa0\u2003é\x00\x01\x02\x03«»()-_#"
_table_names = st.lists(
    st.one_of(
        st.text(alphabet=_NAME_CHARS, max_size=10),
        st.text(max_size=6),
        st.text(alphabet="x y", min_size=1990, max_size=2010),
        st.none(),
        st.integers(),
    ),
    max_size=16,
)


@settings(max_examples=150, deadline=None)
@given(_table_names, st.booleans())
def test_clean_names_are_the_per_name_definition(names: list[object], flag: bool) -> None:
    """Names collapsed (only the non-ASCII ones under ``ascii_collapsed``), cut at
    MAX_TEXT, counted: as written name by name."""
    from resolver.table import MAX_TEXT, _as_text, _clean_names
    from resolver.text import collapse

    notes: dict[str, int] = {}
    got = _clean_names(names, flag, notes)
    texts = [n if isinstance(n, str) else _as_text(n) for n in names]
    full = [t if flag and t.isascii() else collapse(t) for t in texts]
    assert got == [t[:MAX_TEXT] for t in full]
    expected = {
        "name_not_text": sum(not isinstance(n, str | None) for n in names),
        "name_cut": sum(len(t) > MAX_TEXT for t in full),
    }
    assert {k: v for k, v in notes.items() if v} == {k: v for k, v in expected.items() if v}


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(alphabet=_NAME_CHARS, max_size=10), max_size=16))
def test_name_columns_are_the_per_name_forms(names: list[str]) -> None:
    from resolver.text import collapse, mask_digits, normalize

    b = TableBuilder("a11y", "test")
    for k, name in enumerate(names):
        b.add(f"e{k}", raw_role="button", name=name)
    table = b.build()
    assert table.names == tuple(collapse(n) for n in names)
    if table._joined_names is not None:  # (kept by the build for the normalised names)
        kept, joined, sep = table._joined_names
        assert kept is table.names and sep and joined.split(sep) == list(table.names)
    assert table.names_norm == tuple(normalize(n) for n in table.names)
    assert table.names_mask == tuple(mask_digits(n) for n in table.names_norm)


def test_a_build_keeps_its_names_joined_where_they_were_collapsed_whole() -> None:
    from resolver.text import normalize

    def built(names: list[str], ascii_collapsed: bool = False) -> CandidateTable:
        b = TableBuilder("a11y", "test", ascii_collapsed=ascii_collapsed)
        for k, name in enumerate(names):
            b.add(f"e{k}", raw_role="button", name=name)
        return b.build()

    plain = built([" Save  now", "Order 12", ""])
    assert plain._joined_names == (plain.names, "Save now\x00Order 12\x00", "\x00")
    assert plain.names_norm == ("save now", "order 12", "")
    long = built(["Read  more " + "x" * MAX_TEXT, "OK"])  # (cut: the joined names were not)
    assert long._joined_names is None
    assert long.names_norm == tuple(normalize(n) for n in long.names)
    assert built(["a", "b"], ascii_collapsed=True)._joined_names is None
    assert built(["Café", "b"])._joined_names is None  # (collapsed one by one)
    other = replace(plain, names=("Sign in", "Order 3", "x"))  # (its own names joined)
    assert other.names_norm == ("sign in", "order 3", "x")
    assert other.names_mask == ("sign in", "order #", "x")
    same = replace(plain, platform_ids={})
    assert same._joined_names is plain._joined_names and same.names_norm == plain.names_norm


def test_boxes_handed_over_as_an_array_are_checked_like_boxes_handed_one_by_one() -> None:
    from resolver.table import _box_array

    nan, inf = math.nan, math.inf
    rows = [
        None, (0.0, 0.0, 10.0, 5.0), (10.0, 0.0, 0.0, 5.0), (0.0, inf, 1.0, 2.0),
        (nan, 1.0, 2.0, 3.0),
    ]  # fmt: skip
    as_array = np.array([(nan,) * 4 if r is None else r for r in rows])
    mine: dict[str, int] = {}
    theirs: dict[str, int] = {}
    got = _box_array(as_array, mine)
    assert np.array_equal(got, _box_array(rows, theirs), equal_nan=True)
    assert mine == theirs == {"box_not_finite": 2, "box_inverted": 1}
    assert np.isfinite(as_array[3]).sum() == 3  # the adapter's array is left as it was


def test_a_box_too_large_for_its_area_to_be_a_float_is_unknown() -> None:
    # Finite coordinates whose size or area overflows: stored as unknown, counted, and no
    # overflow is met when rows are compared with a box.
    from resolver.table import _box_array

    rows = [(0.0, 0.0, 1e200, 1e200), (-1e308, 0.0, 1e308, 5.0), (0.0, 0.0, 10.0, 5.0)]
    for raw in (rows, np.array(rows)):
        notes: dict[str, int] = {}
        got = _box_array(raw, notes)
        assert np.isnan(got[:2]).all() and np.isfinite(got[2]).all()
        assert notes == {"box_not_finite": 2}


_EDGES = st.sampled_from([0.0, -0.0, 1.0, -3.5, 1e-310, 1e154, -1e200, 1e308, -1e308])
_ODD = st.sampled_from([math.nan, math.inf, -math.inf])


@settings(max_examples=300)
@given(st.lists(st.tuples(*[st.one_of(_EDGES, _ODD, st.floats())] * 4), max_size=30))
def test_finite_boxes_read_from_the_area_equal_every_number_checked(
    rows: list[tuple[float, float, float, float]],
) -> None:
    # The check reads the area alone; it must equal the check of all four edges, both
    # extents and the area, on edges that overflow, vanish or are not numbers.
    from resolver.table import _finite_boxes

    boxes = np.array(rows, dtype=np.float64).reshape(len(rows), 4)
    with np.errstate(over="ignore", invalid="ignore"):
        width, height = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
        area = np.abs(width * height)
    want = (
        np.isfinite(boxes).all(axis=1) & np.isfinite(width) & np.isfinite(height)
        & np.isfinite(area)
    )  # fmt: skip
    assert np.array_equal(_finite_boxes(boxes), want)


@given(st.lists(st.sampled_from([NO_STATE, (-1, -1, -1), (1, 0, -1), (0, 1, 1)]), max_size=40))
def test_state_rows_equal_the_plain_conversion(states: list[tuple[int, int, int]]) -> None:
    # Rows stating nothing are filled at once; the array is what numpy makes of the list.
    got = _state_rows(states, len(states))
    assert got.dtype == np.int8
    assert got.tolist() == np.asarray(states, dtype=np.int8).reshape(len(states), 3).tolist()


def test_states_given_for_some_rows_reach_the_table() -> None:
    b = TableBuilder("a11y", "test")
    for i in range(6):
        b.add(f"n{i}", raw_role="button", name=f"B{i}", states=(0, 1, 1) if i == 4 else NO_STATE)
    table = b.build()
    assert table.enabled.tolist() == [-1, -1, -1, -1, 0, -1]
    assert table.visible.tolist() == [-1, -1, -1, -1, 1, -1]
    assert table.focused.tolist() == [-1, -1, -1, -1, 1, -1]


@given(st.lists(st.sampled_from([None, "", "12", "x" * (MAX_TEXT + 3)]), max_size=30))
def test_clean_values_equal_the_plain_cut(values: list[str | None]) -> None:
    # Trees stating no value at all are answered at once; the rest are cut one by one.
    notes: dict[str, int] = {}
    assert _clean_values(values, notes) == tuple(v[:MAX_TEXT] if v else "" for v in values)
    assert notes.get("value_cut", 0) == sum(1 for v in values if v and len(v) > MAX_TEXT)


def test_name_forms_come_joined_for_a_search_when_made_the_fast_way() -> None:
    b = TableBuilder("a11y", "test")
    for name in ("Order 12", "SAVE", "", "page 1.5 of 3"):
        b.add(name or "x", raw_role="button", name=name)
    table = b.build()
    assert table.names_joined("norm") == ("\x00".join(table.names_norm), "\x00")
    assert table.names_joined("mask") == ("order #\x00save\x00\x00page # of #", "\x00")
    b = TableBuilder("a11y", "test")
    b.add("c", raw_role="button", name="Café")  # (normalised one by one: not joined)
    assert b.build().names_joined("norm") is None


def test_one_column_handed_over_for_several_ids_gives_each_its_values() -> None:
    b = TableBuilder("a11y", "test", id_columns=("automation_id", "dom_id", "tag"))
    nothing: list[str | None] = [None, None]
    b.set_columns(
        ["a", "b"], ["button", "link"], ["A", "B"], [-1, 0], [None, None], ["", ""],
        [NO_STATE, NO_STATE], nothing, ["x", None], nothing,
    )  # fmt: skip
    ids = b.build().platform_ids
    assert ids == {"automation_id": (None, None), "dom_id": ("x", None), "tag": (None, None)}
    assert ids["automation_id"] is ids["tag"]  # (one tuple made for the shared column)


def test_an_executor_id_is_made_for_one_row_or_for_all_alike() -> None:
    b = TableBuilder("a11y", "test", executor_prefix="dom:")
    for i in range(4):
        b.add(f"n{i}", raw_role="button", name=f"B{i}", executor_id="css:#x" if i == 2 else None)
    table = b.build()
    one_by_one = [table.executor_id(row) for row in (*range(4), -1, -2)]
    assert "executor_ids" not in vars(table)  # (asking for rows made no column)
    assert one_by_one == ["dom:n0", "dom:n1", "css:#x", "dom:n3", "dom:n3", "css:#x"]
    assert table.executor_ids == ("dom:n0", "dom:n1", "css:#x", "dom:n3")
    assert [table.executor_id(row) for row in range(4)] == list(table.executor_ids)
    for outside in (4, -5):
        with pytest.raises(IndexError):
            table.executor_id(outside)


def test_lazy_columns_are_made_once_when_first_read() -> None:
    calls: list[int] = []

    def make() -> dict[str, tuple[str | None, ...]]:
        calls.append(1)
        return {"tag": ("a", None), "href": ("tree", "page")}

    columns = LazyColumns({"xpath": ("/a", None), "href": ("tree", None)}, ("tag", "href"), make)
    # Membership, length and order need nothing made.
    assert "tag" in columns and "href" in columns and "class" not in columns
    assert list(columns) == ["xpath", "href", "tag"] and len(columns) == 3
    assert columns["xpath"] == ("/a", None) and not columns.made and not calls
    # A lazy name is make's, even where an eager column had it.
    assert columns["href"] == ("tree", "page") and columns["tag"] == ("a", None)
    assert columns.made and calls == [1]
    with pytest.raises(KeyError):
        columns["class"]
    copied = pickle.loads(pickle.dumps(columns))
    assert type(copied) is dict and copied == dict(columns.items()) and calls == [1]


def test_a_table_pickles_and_copies_without_what_was_derived_from_it() -> None:
    # What a table derives (its index: caches, a maker of its masked names, a reference to
    # the table) was pickled with it and refused ("cannot pickle"); a copy shared it.
    import copy
    import pickle

    from resolver import Observation, SemanticElementRef, resolve
    from resolver.index import index_of

    tree = {"role": "dialog", "name": "Orders", "children": [
        {"role": "button", "name": f"Order {k}", "bbox": [0, 20 * k, 80, 20 * k + 18]}
        for k in range(12)]}  # fmt: skip
    obs = Observation(accessibility_tree=tree)
    table = obs.candidates("a11y")
    assert index_of(table).lookup("mask", "order #").size == 12
    resolve(SemanticElementRef(role="button", name="Order 7"), obs)
    for other in (pickle.loads(pickle.dumps(table)), copy.deepcopy(table), copy.copy(table)):
        assert list(other.ids) == list(table.ids) and index_of(other).table is other
        assert index_of(other) is not index_of(table)
        assert index_of(other).lookup("norm", "order 7").tolist() == [8]
    again = pickle.loads(pickle.dumps(obs))
    seven = SemanticElementRef(role="button", name="Order 7")
    assert resolve(seven, again).executor_id == resolve(seven, obs).executor_id


def _desktop(coord_space: str = "screen_px") -> CandidateTable:
    """A desktop: Notepad with a dialog drawn over its text field, and another application's
    window beside (behind or in front, the tree does not say) under the dialog's box."""
    b = TableBuilder("a11y", "test")
    desk = b.add("desk", raw_role="pane", name="Desktop", bbox=(0, 0, 1600, 900))
    main = b.add("main", raw_role="window", name="Untitled - Notepad", parent=desk,
                 bbox=(0, 0, 800, 600))  # fmt: skip
    b.add("edit", raw_role="textbox", name="Text Editor", parent=main, bbox=(0, 50, 800, 600))
    b.add("small", raw_role="textbox", name="Find what", parent=main, bbox=(350, 250, 550, 270))
    dialog = b.add("dlg", raw_role="dialog", name="Confirm Save As", parent=main,
                   bbox=(300, 220, 660, 360))  # fmt: skip
    b.add("yes", raw_role="button", name="Yes", parent=dialog, bbox=(400, 320, 470, 345))
    other = b.add("other", raw_role="window", name="Mail", parent=desk, bbox=(200, 200, 900, 700))
    b.add("send", raw_role="button", name="Send", parent=other, bbox=(400, 300, 480, 330))
    return b.build(coord_space=coord_space)


def test_the_dialogs_drawn_over_a_row_and_where_a_click_lands_on_it() -> None:
    t = _desktop()
    row = {ident: i for i, ident in enumerate(t.ids)}
    assert t.dialogs_over_any()
    assert t.dialogs_over(row["edit"]) == [row["dlg"]] == t.dialogs_over(row["small"])
    # Not over its own controls, itself, its window (which holds it), or another window's.
    for ident in ("yes", "dlg", "main", "send", "desk"):
        assert t.dialogs_over(row[ident]) == [], ident
    assert t.clear_point(row["edit"], 4.0) == (400.0, 480.0)  # below the dialog
    assert t.clear_point(row["small"], 4.0) is None  # wholly under it
    assert t.clear_point(row["send"], 4.0) == (440.0, 315.0)
    # A dialog said to be hidden covers nothing.
    b = TableBuilder("a11y", "test")
    main = b.add("main", raw_role="window", name="w", bbox=(0, 0, 800, 600))
    b.add("edit", raw_role="textbox", name="e", parent=main, bbox=(350, 250, 550, 270))
    b.add("dlg", raw_role="dialog", name="d", parent=main, bbox=(300, 220, 660, 360),
          states=(1, 0, -1))  # fmt: skip
    hidden = b.build(coord_space="screen_px")
    assert not hidden.dialogs_over_any() and hidden.clear_point(1, 4.0) == (450.0, 260.0)
    # A page's boxes scroll with it (a fixed dialog's box says nothing of what it covers).
    page = _desktop("css_px")
    assert not page.dialogs_over_any() and page.dialogs_over(row["edit"]) == []
    assert page.clear_point(row["small"], 4.0) == (450.0, 260.0)


def test_a_desktop_row_off_the_screen_has_no_click_point() -> None:
    # UIA reports a list item scrolled out of view with the box it would have: over the
    # status bar, or outside the window. A page's row keeps its centre (pages scroll).
    def table(coord_space: str) -> CandidateTable:
        b = TableBuilder("a11y", "test")
        main = b.add("main", raw_role="window", name="Files", bbox=(0, 0, 400, 320))
        b.add("shown", raw_role="listitem", name="a.txt", parent=main, bbox=(10, 60, 300, 80))
        b.add("gone", raw_role="listitem", name="mu.h", parent=main, bbox=(10, 280, 300, 300),
              states=(1, 0, -1))  # fmt: skip
        return b.build(coord_space=coord_space)

    desktop, page = table("screen_px"), table("css_px")
    assert desktop.click_point(2, 4.0) is None and desktop.click_point(1, 4.0) == (155.0, 70.0)
    assert page.click_point(2, 4.0) == (155.0, 290.0)
    assert table("screen_points").click_point(2, 4.0) is None


def test_a_dialog_beside_another_covers_nothing_in_it_its_own_message_box_does() -> None:
    # Notepad with "Replace" open and "Find" beside it, overlapping: which is on top the tree
    # does not say. A message box that "Replace" owns is drawn over "Replace".
    b = TableBuilder("a11y", "test")
    main = b.add("main", raw_role="window", name="Untitled - Notepad", bbox=(0, 0, 800, 600))
    replace = b.add("replace", raw_role="dialog", name="Replace", parent=main,
                    bbox=(100, 100, 500, 400))  # fmt: skip
    b.add("go", raw_role="button", name="Replace All", parent=replace, bbox=(380, 300, 480, 330))
    find = b.add("find", raw_role="dialog", name="Find", parent=main, bbox=(350, 250, 700, 450))
    b.add("next", raw_role="button", name="Find Next", parent=find, bbox=(400, 280, 480, 310))
    box = b.add("box", raw_role="dialog", name="Notepad", parent=replace,
                bbox=(150, 150, 350, 250))  # fmt: skip
    b.add("ok", raw_role="button", name="OK", parent=box, bbox=(250, 210, 330, 240))
    b.add("field", raw_role="textbox", name="Find what", parent=replace, bbox=(160, 160, 340, 180))
    t = b.build(coord_space="screen_px")
    row = {ident: i for i, ident in enumerate(t.ids)}
    assert t.dialogs_over(row["go"]) == [] and t.dialogs_over(row["next"]) == []
    assert t.dialogs_over(row["field"]) == [row["box"]]  # its own dialog's message box
    assert t.clear_point(row["field"], 4.0) is None
