"""The matcher's per-table indexes."""

import contextlib
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from resolver.adapters._common import XPATH_KEYS
from resolver.index import BoundedCache, index_of
from resolver.table import CandidateTable, TableBuilder
from resolver.text import fuzzy_many


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


@given(st.lists(st.sampled_from(["heading", "button", "StaticText"]), max_size=30),
       st.lists(st.booleans(), min_size=30, max_size=30))  # fmt: skip
def test_the_heading_before_each_row_is_the_last_named_one_above_it(
    roles: list[str], named: list[bool]
) -> None:
    b = TableBuilder("a11y", "test")
    for k, role in enumerate(roles):
        b.add(f"n{k}", raw_role=role, name=f"t{k}" if named[k] else "", parent=k - 1)
    table = b.build()
    index = index_of(table)
    for row in range(len(roles)):
        titled = [r for r in range(row) if roles[r] == "heading" and named[r]]
        assert int(index.headings[row]) == (titled[-1] if titled else -1)
        assert index.heading_of(row) == (f"t{titled[-1]}" if titled else None)
    assert index.heading_rows.tolist() == [
        r for r, role in enumerate(roles) if role == "heading" and named[r]]  # fmt: skip


def test_name_lookups() -> None:
    held = _table()  # (an index holds its table weakly)
    index = index_of(held)
    assert index.lookup("raw", "OK").tolist() == [2]
    assert sorted(index.lookup("norm", "ok").tolist()) == [2, 3]
    assert index.table.names_mask[4] == "inbox (#"  # edge punctuation goes, digits are masked
    assert index.lookup("mask", "inbox (#").tolist() == [4]
    assert index.lookup("norm", "nothing").size == 0
    assert index.lookup("raw", "").size == 0


def test_container_vocabulary() -> None:
    held = _table()  # (an index holds its table weakly)
    vocab = index_of(held).containers
    assert vocab.paths[vocab.path_of_row[2]] == ("Settings", "Display")
    assert vocab.raw == ["Settings", "Display"]
    assert vocab.matrix.shape[0] == len(vocab.paths)


def test_id_columns_use_the_tables_key() -> None:
    held = _table()  # (an index holds its table weakly)
    index = index_of(held)
    assert index.id_column("xpath")[2] == "/html/body/button"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([None, "", "/a[1]", "/a[2]", "/b[1]"]), max_size=30))
def test_id_rows_are_the_rows_a_scan_of_the_column_finds(values: list[str | None]) -> None:
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    for i, value in enumerate(values):
        b.add(f"n{i}", raw_role="button", name="b", xpath=value)
    held = b.build()  # (an index holds its table weakly)
    index = index_of(held)
    column = index.id_column("xpath")
    for value in ["", "/a[1]", "/a[2]", "/b[1]", "/c[1]"]:
        rows = index.id_rows("xpath", value)
        assert rows.tolist() == np.flatnonzero(column == value).tolist()
        assert index.id_hits("xpath", value).tolist() == (column == value).astype(float).tolist()
    assert index.id_rows("xpath", None).size == 0
    assert not index.id_rows("xpath", "/a[1]").flags.writeable  # the index keeps them


def test_geometry_and_flags() -> None:
    held = _table()  # (an index holds its table weakly)
    index = index_of(held)
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
    held = b.build()  # (an index holds its table weakly)
    index = index_of(held)
    assert index.repeats_parent.tolist() == [False, False, True, False, False]
    # The heading is the one element named "Pricing"; two links named "Docs" are two.
    assert index.unique_named.tolist() == [True, True, False, False, False]
    assert index.unique_box("Pricing") == (8.0, 40.0, 200.0, 60.0)
    assert index.unique_box("Docs") is None


def test_an_anchor_no_row_bears_is_asked_of_the_tables_text_finder() -> None:
    b = TableBuilder("vision", "test")
    b.add("a", raw_role="text", name="Pricing", bbox=(8, 40, 200, 60))
    b.add("b", raw_role="text", name="Docs and more", bbox=(8, 80, 160, 96))
    asked: list[tuple[str, bool]] = []

    def finder(
        table: CandidateTable, text: str, across: bool
    ) -> tuple[float, float, float, float] | None:
        asked.append((text, across))
        if text == "Docs":
            return (8.0, 80.0, 40.0, 96.0)
        return (8.0, 100.0, 90.0, 140.0) if text == "Blog posts" and across else None

    held = replace(b.build(), text_finder=finder)  # (an index holds its table weakly)
    index = index_of(held)
    assert index.unique_box("Pricing") == (8.0, 40.0, 200.0, 60.0)
    assert index.unique_box("Docs") == (8.0, 80.0, 40.0, 96.0)
    assert index.unique_box("Blog") is None
    assert asked == [("Docs", False), ("Blog", False)]  # never for a name a row bears
    held2 = b.build()  # (an index holds its table weakly)
    assert index_of(held2).unique_box("Docs") is None  # a table without a finder
    # Read across runs: where an anchor is asked to be in place, never for the page's shift.
    assert index.unique_box("Blog posts") is None
    assert index.read_box("Blog posts") == (8.0, 100.0, 90.0, 140.0)
    assert index.read_box("Docs") == (8.0, 80.0, 40.0, 96.0)
    assert index.read_box("Pricing") == (8.0, 40.0, 200.0, 60.0)
    assert asked[2:] == [("Blog posts", False), ("Blog posts", True)]


def _named(names: list[str]):  # type: ignore[no-untyped-def]
    b = TableBuilder("a11y", "test")
    for k, name in enumerate(names):
        b.add(f"e{k}", raw_role="button", name=name)
    return b.build()


_LOOKUP_CHARS = "ab A1 2#.\x00\x01\x02\x03é()"


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.text(alphabet=_LOOKUP_CHARS, max_size=5), max_size=30),
    st.lists(st.text(alphabet=_LOOKUP_CHARS, max_size=5), max_size=12),
)
def test_lookups_find_every_row_with_the_name_before_and_after_indexing(
    names: list[str], keys: list[str]
) -> None:
    """Searched (joined column, object array) or indexed, a look-up gives the rows whose
    name form equals the key, ascending."""
    from resolver.text import mask_digits, normalize

    table = _named(names)
    index = index_of(table)
    forms = {"raw": table.names, "norm": table.names_norm, "mask": table.names_mask}
    queries = [(kind, key) for key in keys for kind in forms]
    queries += [(kind, form) for kind, column in forms.items() for form in column[:4]]
    queries += [("norm", normalize(k)) for k in keys]
    queries += [("mask", mask_digits(normalize(k))) for k in keys]
    for kind, key in queries * 2:  # the first ones searched, the later ones indexed
        expected = [i for i, v in enumerate(forms[kind]) if v == key and (key or kind == "raw")]
        if kind == "raw" and not normalize(key):
            expected = [i for i in expected if table.names[i]]
        assert index.lookup(kind, key).tolist() == expected, (kind, key)


def test_a_name_many_rows_hold_is_compared_with_every_row() -> None:
    from resolver.index import FEW_ROWS, SEARCHES

    names = ["Item 1", "Item 22", "Other"] * (FEW_ROWS + 5) + ["item 3"]
    held = _named(names)  # (an index holds its table weakly)
    index = index_of(held)
    expected = [i for i, n in enumerate(names) if n.startswith(("Item", "item"))]
    for _ in range(SEARCHES + 2):  # searched while few look-ups were made, then indexed
        assert index.lookup("mask", "item #").tolist() == expected
        assert index.lookup("norm", "other").tolist() == list(range(2, len(names) - 1, 3))
        assert index.lookup("norm", "item 3").tolist() == [len(names) - 1]
    assert index.norm_codes[0].size == len(names)


@settings(max_examples=120, deadline=None)
@example(["a", "ab", "ba", "A 1", "a 12"], ["b", "a #"])  # (values that begin or end alike)
@given(
    st.lists(st.text(alphabet=_LOOKUP_CHARS, max_size=4), min_size=1, max_size=6),
    st.lists(st.text(alphabet=_LOOKUP_CHARS, max_size=4), max_size=6),
)
def test_names_many_rows_hold_are_found_by_comparing_characters(
    names: list[str], keys: list[str]
) -> None:
    """A value more than FEW_ROWS rows hold, in an ASCII column or not: the rows whose form
    equals it, ascending, the same as each row compared."""
    from resolver.index import FEW_ROWS
    from resolver.text import mask_digits, normalize

    many = names * (2 * FEW_ROWS + 2)  # (adjacent equal rows count once in a search)
    table = _named(many)
    index = index_of(table)
    forms = {"raw": table.names, "norm": table.names_norm, "mask": table.names_mask}
    queries = [(kind, form) for kind, column in forms.items() for form in column[: len(names)]]
    queries += [
        (kind, f(k)) for k in keys for kind, f in (("norm", normalize), ("mask", mask_digits))
    ]
    for kind, key in queries:
        expected = [i for i, v in enumerate(forms[kind]) if v == key and (key or kind == "raw")]
        if kind == "raw" and not normalize(key):
            expected = [i for i in expected if table.names[i]]
        assert index.lookup(kind, key).tolist() == expected, (kind, key)


def test_a_masked_name_many_rows_hold_is_found_without_a_mask_per_row() -> None:
    from resolver.index import SEARCHES

    names = [f"Order {i}" for i in range(300)] + ["Order 1.5", "order", "Order 7 of 9"]
    table = _named(names)
    index = index_of(table)
    assert index.lookup("mask", "order #").tolist() == list(range(301))
    assert index.lookup("mask", "order # of #").tolist() == [302]
    assert index.lookup("mask", "order ##").tolist() == []
    assert "names_mask" not in vars(table)  # read from the joined masks, not row by row
    for i in range(SEARCHES):  # then indexed: the masks are made, the answers the same
        index.lookup("norm", f"order {i}")
        index.lookup("mask", f"x{i} #")
    assert index.lookup("mask", "order #").tolist() == list(range(301))
    assert len(table.names_mask) == len(names) and table.names_mask[302] == "order # of #"


def test_a_name_column_made_when_a_look_up_needs_it() -> None:
    from resolver.index import FEW_ROWS, NameColumn

    values = ("ab", "a", "b", "ab", "") * FEW_ROWS
    asked: list[int] = []

    def made() -> tuple[str, ...]:
        asked.append(1)
        return values

    column = NameColumn(made, ("\x00".join(values), "\x00"))
    assert column.rows("ab").tolist() == [i for i, v in enumerate(values) if v == "ab"]
    assert [column.rows(v).size for v in ("a", "b", "ba", "abc", "é")] == [FEW_ROWS] * 2 + [0] * 3
    assert not asked  # answered from the joined values
    wide = ("é", "e") * FEW_ROWS  # (not ASCII: compared as objects, the column made)
    other = NameColumn(lambda: wide, ("\x00".join(wide), "\x00"))
    assert other.rows("é").tolist() == list(range(0, len(wide), 2))
    assert column.index.rows("b").size == FEW_ROWS and asked == [1]


def test_a_long_name_many_rows_hold_is_compared_as_strings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from resolver import index as index_module

    monkeypatch.setattr(index_module, "COMPARED_CHARS", 1_000)
    long = "a" * 20  # (more rows hold it than FEW_ROWS; 100 rows x 20 characters to compare)
    names = [long, long + "b", "x"] * 100
    held = _named(names)  # (an index holds its table weakly)
    index = index_of(held)
    column = index._norms
    assert index.lookup("norm", long).tolist() == list(range(0, 300, 3))
    assert column._array is not None  # (compared as strings: past the characters' bound)
    assert index.lookup("norm", "x").tolist() == list(range(2, 300, 3))


def test_a_mask_without_digits_is_looked_up_among_the_names() -> None:
    table = _named(["Save", "Save 2", "save", "a#save"])
    index = index_of(table)
    assert index.lookup("mask", "save").tolist() == [0, 2]
    assert "names_mask" not in vars(table)  # the masks were not needed
    assert index.lookup("mask", "save #").tolist() == [1]
    assert index.lookup("mask", "a#save").tolist() == [3]


def test_lookups_when_every_separator_is_in_some_name() -> None:
    names = ["", "a\x00\x01\x02\x03b", "x", "x"]
    held = _named(names)  # (an index holds its table weakly)
    index = index_of(held)
    assert index.lookup("norm", "\x00").tolist() == []  # (not the empty name)
    assert index.lookup("norm", "x").tolist() == [2, 3]
    assert index.lookup("raw", "a\x00\x01\x02\x03b").tolist() == [1]


def test_name_tiers_are_the_lookups_best_tier_and_are_remembered() -> None:
    held = _table()  # (an index holds its table weakly)
    index = index_of(held)
    hits, tiers = index.name_tiers("OK", "ok", "ok")
    assert hits.tolist() == [2, 3]
    assert tiers.tolist() == [1.0, 0.97]  # exact for "OK", normalised for "ok"
    assert index.name_tiers("OK", "ok", "ok")[0] is hits  # the second ask is the first answer
    assert not hits.flags.writeable and not tiers.flags.writeable
    # The same as looking each form up in turn, the better tier last.
    held2 = _table()  # (an index holds its table weakly)
    fresh = index_of(held2)
    for raw, norm, mask in (("Inbox (12)", "inbox (12", "inbox (#"), ("Nothing", "nothing", "")):
        name = np.full(len(fresh.table), np.nan)
        for kind, key, tier in (("mask", mask, 0.9), ("norm", norm, 0.97), ("raw", raw, 1.0)):
            if key:
                name[fresh.lookup(kind, key)] = tier
        hits, tiers = index.name_tiers(raw, norm, mask)
        assert hits.tolist() == np.flatnonzero(~np.isnan(name)).tolist()
        assert tiers.tolist() == name[hits].tolist()


def test_fuzzy_tiers_kept_are_the_tiers_computed_anew() -> None:
    held = _table()  # (an index holds its table weakly)
    index = index_of(held)
    every = np.arange(len(index.table))
    for query in ("ok", "inbox (3", "display settings", "cancel"):
        want = fuzzy_many(query, index.names_norm.tolist()).tolist()
        assert index.fuzzy_tiers(query, every[::2]).tolist() == want[::2]
        assert index.fuzzy_tiers(query, every[::-1]).tolist() == want[::-1]
        assert index.fuzzy_tiers(query, every[:0]).size == 0


def test_fuzzy_tiers_of_more_names_than_kept_are_computed_anew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import resolver.index as index_module

    monkeypatch.setattr(index_module, "FUZZY_NAMES_EACH", 3)
    held = _table()  # (an index holds its table weakly)
    index = index_of(held)
    every = np.arange(len(index.table))
    want = fuzzy_many("inbox (3", index.names_norm.tolist()).tolist()
    for _ in range(2):
        assert index.fuzzy_tiers("inbox (3", every).tolist() == want
    assert len(index.fuzzy_names.get("inbox (3") or {}) <= 3


def test_a_bounded_cache_is_emptied_past_its_entries_or_its_budget() -> None:
    from resolver.index import BoundedCache

    by_count = BoundedCache(2)
    for key in "abc":
        by_count.room()[key] = 1
    assert list(by_count) == ["c"]
    by_weight = BoundedCache(10, budget=100)
    by_weight.room(60)["a"] = 1
    by_weight.room(30)["b"] = 2
    assert list(by_weight) == ["a", "b"] and by_weight.used == 90
    by_weight.room(20)["c"] = 3  # 110 > 100: emptied first
    assert list(by_weight) == ["c"] and by_weight.used == 20


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "c", "0.1", ""]), max_size=12))
def test_each_row_id_gives_its_first_row(ids: list[str]) -> None:
    b = TableBuilder("a11y", "test")
    for row_id in ids:
        b.add(row_id, raw_role="button", name="x")
    first: dict[str, int] = {}
    for row, row_id in enumerate(ids):
        first.setdefault(row_id, row)
    held = b.build()  # (an index holds its table weakly)
    assert index_of(held).rows_by_id == first


_ENTRY_TEXTS = [
    "Settings", "settings", "Settings 2", "Settings 10", "Setting", "Display",
    "Display settings panel for the whole screen here", "[banner]", "***", "", " Menu ",
]  # fmt: skip


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(_ENTRY_TEXTS), max_size=3).map(tuple), max_size=6),
    st.sampled_from([*_ENTRY_TEXTS, "SETTINGS", "Settings 7", "screen here display settings"]),
)
def test_an_entrys_best_similarity_is_the_best_of_every_entry(
    paths: list[tuple[str, ...]], entry: str
) -> None:
    """Found as an equal entry (as it is, normalised or digit-masked) or by comparing it with
    every entry, the best similarity is the same number."""
    from resolver.index import ContainerVocab
    from resolver.text import item_similarity_many

    vocab = ContainerVocab([tuple(e for e in p if e) for p in paths])
    every = item_similarity_many(entry, vocab.raw, vocab.norm, vocab.mask)
    assert vocab.best_similarity(entry) == (float(every.max()) if every.size else 0.0)


def _random_tree(seed: int) -> CandidateTable:
    import random

    rng = random.Random(seed)
    n = rng.randint(1, 300)
    b = TableBuilder("a11y", "test")
    for i in range(n):
        role = rng.choice(["group", "button", "navigation", "listitem", "text", "dialog", "row",
                           "generic", "list", "cell"])  # fmt: skip
        name = rng.choice(["", "", "Save", "Menu", "Row 1", "row 1", "x" * 250, "Edit"])
        b.add(f"e{i}", raw_role=role, name=name, parent=rng.choice([-1, *range(max(0, i - 20), i)]))
    return b.build()


@pytest.mark.parametrize("seed", range(25))
def test_the_container_vocabulary_read_from_the_labelled_rows_is_the_rows_one(seed: int) -> None:
    """The vocabulary a table's lazy container paths give (from the paths the labelled rows
    hand down) is the one every row's path gives, code for code; so is where a path is
    evidence, and which rows repeat their parent's name."""
    from resolver.index import ContainerVocab, TableIndex

    table = _random_tree(seed)
    index = index_of(table)
    handed = index.containers
    plain = ContainerVocab(tuple(table.containers))
    assert handed.paths == plain.paths
    assert handed.path_of_row.tolist() == plain.path_of_row.tolist()
    assert handed.matrix.tolist() == plain.matrix.tolist()
    assert (handed.raw, handed.norm, handed.mask) == (plain.raw, plain.norm, plain.mask)
    assert handed.landmarks == plain.landmarks
    paths_as_tuple = replace(table, containers=tuple(table.containers))
    as_tuple = TableIndex(paths_as_tuple)
    assert index.has_containers.tolist() == as_tuple.has_containers.tolist()
    norms, parent = table.names_norm, table.parent.tolist()
    repeats = [p >= 0 and bool(norms[i]) and norms[i] == norms[p] for i, p in enumerate(parent)]
    assert index.repeats_parent.tolist() == repeats


def test_named_ancestors_are_read_only_for_an_entry_no_container_has() -> None:
    """A recorded path whose entries are all container entries of the page as they were
    reads as containers whatever the named ancestors say: their vocabulary is not made."""
    from resolver import MatchConfig, SemanticElementRef
    from resolver.matcher import Query

    table = _table()
    ref = SemanticElementRef(role="button", name="OK", container_path=("Settings", "Display"))
    Query.build(ref, table, MatchConfig())
    assert "ancestors" not in vars(index_of(table))
    moved = SemanticElementRef(role="button", name="OK", container_path=("Settings", "Shown"))
    Query.build(moved, table, MatchConfig())
    assert "ancestors" in vars(index_of(table))


def test_a_table_and_its_index_are_freed_when_the_last_reference_goes() -> None:
    # The index referred back to its table (and its masked names' maker closed over it):
    # every table was a reference cycle, freed only by the cyclic collector, which a process
    # making thousands of observations ran as one collection of over a million objects
    # (1.9 s). Freed now as soon as the observation is dropped, the collector off.
    import gc
    import weakref

    from resolver import Observation, ResolutionError, SemanticElementRef, resolve

    tree = {"role": "dialog", "name": "Settings", "children": [
        {"role": "button", "name": f"Item {k}", "bbox": [0, 20 * k, 80, 20 * k + 18]}
        for k in range(40)]}  # fmt: skip
    was_on = gc.isenabled()
    gc.disable()
    try:
        obs = Observation(accessibility_tree=tree)
        for name in ("Item 7", "Item #", "Nothing"):
            with contextlib.suppress(ResolutionError):
                resolve(SemanticElementRef(role="button", name=name), obs)
        table = obs.candidates("a11y")
        assert index_of(table).lookup("mask", "item #").size == 40
        gone, index_gone = weakref.ref(table), weakref.ref(index_of(table))
        del obs, table
        assert gone() is None and index_gone() is None
    finally:
        if was_on:
            gc.enable()


def test_a_table_and_what_is_made_of_it_are_freed_when_the_last_reference_goes() -> None:
    # The web evidence's indexes (classes and links, the texts in reading order) and the
    # records' word counts referred back to their table: each observation whose references
    # carried web evidence or a record was a reference cycle, left to the cyclic collector;
    # a table still held while the next one was built was moved with it to the oldest
    # generation, and a page scrolled a view at a time kept every view's tables.
    import gc
    import weakref

    from resolver import Observation, ResolutionError, SemanticElementRef, resolve
    from resolver.decide.facts import InnerGroups
    from resolver.web import NearbyIndex, WebIndex

    rows = [{"role": "listitem", "name": f"Order {k} Delete", "children": [
        {"role": "StaticText", "name": f"Order {k}", "bbox": [0, 20 * k, 60, 20 * k + 18]},
        {"role": "button", "name": "Delete", "bbox": [80, 20 * k, 140, 20 * k + 18]},
    ]} for k in range(1, 30)]  # fmt: skip
    tree = {"role": "list", "name": "Orders", "children": rows}
    refs = [
        SemanticElementRef(role="button", name="Delete", nearby_text=("Order 7",),
                           classes=("danger",), container_path=("Orders", "Order 7 Delete"),
                           bbox=(80, 140, 140, 158)),
        SemanticElementRef(role="button", name="Delete", bbox=(80, 140, 140, 158),
                           container_path=("Orders", "Order 70 Delete")),
    ]  # fmt: skip
    was_on = gc.isenabled()
    gc.disable()
    try:
        obs = Observation(accessibility_tree=tree)
        for ref in refs:
            with contextlib.suppress(ResolutionError):
                resolve(ref, obs)
        table = obs.candidates("a11y")
        made = [table.derived(kind) for kind in (WebIndex, NearbyIndex, InnerGroups)]
        assert all(m.table is table for m in made)
        gone = [weakref.ref(x) for x in (table, *made)]
        del obs, table, made
        assert [g() for g in gone] == [None] * len(gone)
    finally:
        if was_on:
            gc.enable()


def test_observing_a_page_and_resolving_on_it_makes_no_reference_cycle() -> None:
    # The cascade's layer order was found by a nested function calling itself: a function,
    # its closure cell and the layers' dicts in a cycle, made by every page's DOM build.
    import gc

    from resolver import Observation, ResolutionError, SemanticElementRef, resolve

    html = (
        """<html><head><style>@layer base, theme.dark; @layer base { a { color: red } }
    </style></head><body><ul aria-label="Orders">"""
        + "".join(
            f'<li>Order {k} <button class="danger">Delete</button></li>' for k in range(1, 20)
        )
        + "</ul></body></html>"
    )
    ref = SemanticElementRef(
        role="button",
        name="Delete",
        classes=("danger",),
        tag="button",
        nearby_text=("Order 7",),
        container_path=("Orders", "Order 7 Delete"),
    )
    was_on = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        obs = Observation(dom_html=html)
        for source in ("dom", "a11y"):
            if obs.has(source):
                with contextlib.suppress(ResolutionError):
                    resolve(ref, obs, sources=(source,))
        del obs
        assert gc.collect() == 0
    finally:
        if was_on:
            gc.enable()
