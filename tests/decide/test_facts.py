"""Facts the rules read: one click target, bearing the recorded name, a table row of its own."""

import random

from decide_helpers import _buttons

from resolver import MatchConfig, SemanticElementRef
from resolver.adapters._common import XPATH_KEYS
from resolver.decide import decide, same_target
from resolver.decide.facts import (
    at_place,
    bears_name,
    class_bearers,
    corner_distance,
    namesakes,
    nearest_moved,
    on_line,
    own_table_row,
    same_entry_read,
    xpath_column_resolver,
    xpath_rows,
)
from resolver.matcher import moved_box
from resolver.table import CandidateTable, TableBuilder


def test_same_target_nested_rows() -> None:
    table = _buttons()
    assert same_target(table, 1, 2, 0.85)  # the button and its own text
    assert not same_target(table, 1, 3, 0.85)  # two different OK buttons
    assert same_target(table, 4, 5, 0.85)  # same name, nested


def test_nearest_moved_is_the_least_corner_distance_to_a_moved_box() -> None:
    rng = random.Random(3)
    for _ in range(200):
        box = tuple(rng.uniform(-50, 900) for _ in range(4))
        boxes = [tuple(rng.uniform(-50, 900) for _ in range(4)) for _ in range(rng.randint(1, 5))]
        shift = (
            rng.uniform(0.5, 2),
            rng.uniform(0.5, 2),
            rng.uniform(-99, 99),
            rng.uniform(-99, 99),
        )
        want = min(corner_distance(box, moved_box(b, shift)) for b in boxes)  # type: ignore[arg-type]
        assert nearest_moved(box, boxes, shift) == want  # type: ignore[arg-type]


def _sorted_rows(*, raw_row: str = "row", label: str = "") -> CandidateTable:
    """A users table sorted since it was recorded: Alice's row went from the top to the
    bottom, 250 px down. Each row (``raw_row``), named by its text or ``label``, holds the
    person's name, "Active", "Edit" and "Delete"."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Users", bbox=(0, 0, 1280, 2000))
    grid = b.add("t", raw_role="table", name="Users", parent=root, bbox=(0, 80, 1280, 420))
    people = ("Grace Kim", "Bob Stone", "Carol Diaz", "David Lee", "Eve Moss", "Alice Johnson")
    cells = ((8, 200), (1000, 1090), (1100, 1150), (1180, 1230))
    for k, person in enumerate(people):
        top, name = 100 + 50 * k, label or f"{person} Active Edit Delete"
        box = (0, top, 1280, top + 40)
        row = b.add(f"r{k}", raw_role=raw_row, name=name, parent=grid, bbox=box)
        for j, text in enumerate((person, "Active", "Edit", "Delete")):
            left, right = cells[j]
            path = f"/html[1]/body[1]/table[1]/tbody[1]/tr[{k + 1}]/td[{j + 1}]/button[1]"
            b.add(f"{text}{k}", raw_role="StaticText" if j < 2 else "button", name=text,
                  parent=row, bbox=(left, top, right, top + 20),
                  xpath=path if j >= 2 else None)  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0))


def test_a_table_row_named_by_its_own_text_is_no_copy_of_the_neighbourhood() -> None:
    ref = SemanticElementRef(
        role="button", name="Edit", bbox=(1100.0, 100.0, 1150.0, 120.0),
        container_path=("Users", "Users", "Alice Johnson Active Edit Delete"),
        xpath="/html[1]/body[1]/table[1]/tbody[1]/tr[1]/td[3]/button[1]",
        nearby_text=("Active", "Delete"),
    )  # fmt: skip
    # Every recorded text has a copy where the target was (another row's), but the
    # recorded row, by its text, tells it apart.
    kept = decide(ref, _sorted_rows(), MatchConfig())
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "Edit5"
    # Only a table row counts so, and only one no other look-alike's container shares.
    table = _sorted_rows()
    assert own_table_row(ref, table, table.ids.index("Edit5"), MatchConfig())
    assert not own_table_row(
        ref, _sorted_rows(raw_row="group"), table.ids.index("Edit5"), MatchConfig()
    )
    alike = ref.model_copy(update={"container_path": ("Users", "Users", "User")})
    assert not own_table_row(
        alike, _sorted_rows(label="User"), table.ids.index("Edit5"), MatchConfig()
    )


def test_an_icon_read_beside_a_caption_does_not_make_a_row_read_from_pixels_another() -> None:
    recorded = "bob smith bob@example.com admin active edit delete"
    assert same_entry_read(recorded, "bob smith bob@example.com admin active • edit x delete")
    assert same_entry_read(recorded, recorded)
    assert not same_entry_read(recorded, "carol diaz carol@example.com active • edit x delete")
    assert not same_entry_read(recorded, "bob smith bob@example.com admin active edit")
    # A character the recording has stays, and a digit alone is never taken for an icon.
    assert same_entry_read("row 1 edit", "row 1 • edit")
    assert not same_entry_read("row 1 edit", "row 2 edit")
    assert not same_entry_read("row 1 edit", "row 1 2 edit")


def _read_rows(people: tuple[str, ...]) -> CandidateTable:
    """A users table read from a screenshot after a redesign: each row's "Edit" and "Delete"
    drawn with an icon before the caption, which OCR reads as a sign or a letter ("• Edit",
    "x Delete"); the rows in another order, 51 px apart from 168 px down."""
    b = TableBuilder("vision", "test")
    root = b.add("doc", raw_role="window", name="", bbox=(0, 0, 1280, 800))
    for k, person in enumerate(people):
        top = 168 + 51 * k
        row = b.add(f"r{k}", raw_role="row", name=f"{person} Active • Edit x Delete",
                    parent=root, bbox=(252, top - 10, 1248, top + 40))  # fmt: skip
        for text, left, right in (("• Edit", 1090, 1152), ("x Delete", 1154, 1231)):
            b.add(f"{text[2:]}{k}", raw_role="button", name=text, parent=row,
                  bbox=(left, top, right, top + 33))  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


def test_a_row_read_with_icons_beside_its_captions_is_still_the_recorded_row() -> None:
    # Recorded from the old page's tree: Bob's "Edit", second of three rows 49 px apart.
    ref = SemanticElementRef(
        role="button", name="Edit", bbox=(1100.0, 253.0, 1148.0, 283.0), screen_size=(1280, 800),
        container_path=("Users", "[main]", "Bob Smith Active Edit Delete"),
        lookalikes=((1100.0, 204.0, 1148.0, 234.0), (1100.0, 302.0, 1148.0, 332.0)),
    )  # fmt: skip
    config = MatchConfig()
    # The rows reversed and Alice's gone: Bob's row, by its text, is Bob's.
    kept = decide(ref, _read_rows(("Carol Diaz", "Bob Smith")), config)
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "Edit1"
    # Bob's row gone: neither neighbour's "Edit" is answered.
    gone = decide(ref, _read_rows(("Carol Diaz", "Alice Johnson")), config)
    assert gone.status != "accepted"


def test_a_name_of_symbols_alone_is_borne_only_by_that_symbol() -> None:
    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Archive")
    for rid, name in (("toggle", " ►"), ("bare", ""), ("other", "»"), ("word", "2013")):
        b.add(rid, raw_role="link", name=name, parent=root)
    table = b.build()
    ref = SemanticElementRef(role="link", name="►")
    borne = [rid for i, rid in enumerate(table.ids) if bears_name(ref, table, i)]
    assert borne == ["toggle"]
    assert bears_name(SemanticElementRef(role="link", name="2013"), table, table.ids.index("word"))


def test_namesakes_asked_again_count_what_a_fresh_table_counts() -> None:
    # Nested rows of one name count once; a count a table remembers is the count made anew.
    refs = [
        SemanticElementRef(role=role, name=name)
        for role in ("button", "StaticText", None)
        for name in ("Edit", "Delete", "Active", "Grace Kim", "Nobody")
    ]
    table = _sorted_rows()
    first = [namesakes(ref, table) for ref in refs]
    assert [namesakes(ref, table) for ref in refs] == first
    assert [namesakes(ref, _sorted_rows()) for ref in refs] == first
    assert first[:5] == [6, 6, 0, 0, 0] and first[10] == 6  # six "Edit" buttons


def test_utility_classes_say_nothing_of_the_kind_of_element() -> None:
    from resolver.decide.facts import kind_classes, lost_class, other_kind

    ref = SemanticElementRef(
        role="button", name="My Account",
        classes=("account-link", "font-bold", "display-block", "css-1x2y3z"),
    )  # fmt: skip
    assert kind_classes(ref) == frozenset({"account-link"})
    # The page still uses "font-bold" on another button, and no longer "account-link": the
    # answer, dressed in the new build's classes, is not another kind for a utility class.
    b = TableBuilder("a11y", "test", id_columns=("class",))
    root = b.add("doc", raw_role="RootWebArea", name="Shop")
    b.add("acc", raw_role="button", name="Account", parent=root, **{"class": "hf-flyout"})
    b.add("pause", raw_role="button", name="Pause", parent=root, **{"class": "font-bold"})
    table = b.build()
    assert not other_kind(ref, table, 1) and lost_class(ref, table, 1) is None
    # A component class the page still uses elsewhere is read as before.
    kept = ref.model_copy(update={"classes": ("account-link", "font-bold", "pager")})
    b = TableBuilder("a11y", "test", id_columns=("class",))
    root = b.add("doc", raw_role="RootWebArea", name="Shop")
    b.add("acc", raw_role="button", name="Account", parent=root, **{"class": "hf-flyout"})
    b.add("pause", raw_role="button", name="Pause", parent=root, **{"class": "pager"})
    assert other_kind(kept, b.build(), 1)


def test_a_line_read_taller_than_its_element_is_on_the_recorded_line() -> None:
    # A heading recorded 18 px high across the page, read as a 22 px ink box of its words.
    place = (26.0, 523.88, 1052.0, 541.88)
    ink = (30.0, 522.0, 297.0, 543.0)
    assert on_line(ink, place, 0.9)
    assert not at_place(ink, place, MatchConfig())  # areas: neither box holds the other
    assert not on_line((30.0, 540.0, 297.0, 561.0), place, 0.9)  # centred on the next line
    assert not on_line((1000.0, 522.0, 1200.0, 543.0), place, 0.9)  # running out of it


def test_xpath_rows_are_the_rows_bearing_the_recorded_xpath_in_the_columns_form() -> None:
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    b.add("a", raw_role="link", name="A", xpath="/html[1]/body[1]/a[1]")
    b.add("b", raw_role="link", name="B", xpath="/html/body/a[2]")
    b.add("c", raw_role="link", name="C")
    b.add("d", raw_role="link", name="D", xpath="/html/body/a")
    table = b.build(id_keys=XPATH_KEYS)
    run = xpath_column_resolver(table)
    assert run is not None
    assert list(run("xpath", "/html/body/a[1]")) == [0, 3]  # [1] is the first step's form
    assert list(run("xpath", "/html[1]/body[1]/a[2]")) == [1]
    assert list(run("xpath", "/html/body/a[3]")) == []
    assert list(run("css", "a")) == []
    ref = SemanticElementRef(role="link", name="B", xpath="/html/body/a[2]")
    assert xpath_rows(ref, table) == [1]
    assert xpath_rows(SemanticElementRef(role="link", name="B"), table) is None
    bare = TableBuilder("a11y", "test")
    bare.add("a", raw_role="link", name="A")
    assert xpath_column_resolver(bare.build()) is None


def test_class_bearers_are_the_rows_wearing_every_token() -> None:
    b = TableBuilder("dom", "test", id_columns=("class",))
    root = b.add("r", raw_role="main")
    b.add("a", raw_role="link", name="Order", parent=root, **{"class": "promo card"})
    b.add("b", raw_role="link", name="Order", parent=root, **{"class": "card"})
    b.add("c", raw_role="link", name="Order", parent=root, **{"class": "card promo wide"})
    table = b.build()
    assert class_bearers(table, frozenset({"promo", "card"})).tolist() == [1, 3]
    assert class_bearers(table, frozenset({"card"})).tolist() == [1, 2, 3]
    # A token no row wears, or none at all: no row.
    assert class_bearers(table, frozenset({"card", "gone"})).size == 0
    assert class_bearers(table, frozenset()).size == 0


def _heading_over_lines(names_read: bool = True) -> CandidateTable:
    """A heading in capitals read over two lines (``7``, ``8``), and the two read together
    (``7~wrap``), as a screenshot's table gives it; and a caption of other words below."""
    b = TableBuilder("vision" if names_read else "a11y", "test")
    first = b.add("7", raw_role="text", role="heading", name="PRODUCTION (IN REAL-TIME",
                  bbox=(300, 151, 846, 190))  # fmt: skip
    b.add("7~wrap", raw_role="text", role="heading", parent=first,
          name="PRODUCTION (IN REAL-TIME WITHOUT DOWNTIME)", bbox=(300, 151, 846, 235))  # fmt: skip
    b.add("8", raw_role="text", role="heading", name="WITHOUT DOWNTIME)",
          bbox=(304, 199, 731, 235))  # fmt: skip
    b.add("9", raw_role="text", role="text", name="WITHOUT DOWNTIME) TODAY",
          bbox=(304, 240, 731, 260))  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0), names_read=names_read)


def test_a_line_of_a_text_read_over_lines_is_the_same_target_on_a_screenshot() -> None:
    table = _heading_over_lines()
    assert same_target(table, 1, 2, 0.85) and same_target(table, 2, 1, 0.85)
    # Words of it elsewhere, or more than its words, are another target.
    assert not same_target(table, 1, 3, 0.85)
    # Not where names are not read from pixels.
    assert not same_target(_heading_over_lines(names_read=False), 1, 2, 0.85)


def _picture_drawn_as_text(names_read: bool = True) -> CandidateTable:
    """A screenshot's table of a picture that did not load inside a link: its text "Harbour
    at dawn" read as a link, a heading and plain text (one element, ``41``), the picture
    (``40~alt``: its broken-image icon and that text, under the text's first row), the
    words of the link run reading the text (``39.w``), and the same words in a caption
    further down (``50``)."""
    b = TableBuilder("vision" if names_read else "a11y", "test")
    run = b.add("39", raw_role="text", role="link", name="Photos Harbour at dawn",
                bbox=(140, 554, 428, 598))  # fmt: skip
    b.add("39.w", raw_role="text", role="link", name="Harbour at dawn", parent=run,
          bbox=(219, 554, 428, 598))  # fmt: skip
    text = b.add("41", raw_role="text", role="link", name="Harbour at dawn",
                 bbox=(219, 554, 428, 598))  # fmt: skip
    for role in ("heading", "text"):
        b.add(f"41~{role}", raw_role="text", role=role, name="Harbour at dawn", parent=text,
              bbox=(219, 554, 428, 598), executor_id="vision:41")  # fmt: skip
    b.add("40~alt", raw_role="icon", role="img", name="Harbour at dawn", parent=text,
          bbox=(199, 554, 428, 598), executor_id="vision:40")  # fmt: skip
    b.add("50", raw_role="text", role="text", name="Harbour at dawn", bbox=(199, 700, 408, 720))
    return b.build(screen_size=(1280.0, 800.0), names_read=names_read)


def test_a_picture_drawn_as_its_text_is_one_target_with_every_reading_of_it() -> None:
    table = _picture_drawn_as_text()
    # The picture and each role its text is read under (heading, plain text: rows under
    # the text's first row, not over the picture's).
    for row in (2, 3, 4):
        assert same_target(table, 5, row, 0.85) and same_target(table, row, 5, 0.85)
    # The words of a longer run reading the same text, inside the picture's box.
    assert same_target(table, 5, 1, 0.85) and same_target(table, 1, 5, 0.85)
    # The same words elsewhere are another target.
    assert not same_target(table, 5, 6, 0.85) and not same_target(table, 3, 6, 0.85)
    # A tree's rows are one target by their ancestry alone.
    tree = _picture_drawn_as_text(names_read=False)
    assert not same_target(tree, 5, 3, 0.85) and not same_target(tree, 5, 1, 0.85)


def test_a_heading_read_over_lines_is_not_tied_with_its_own_last_line() -> None:
    # Its first line read garbled: the two lines read together and the last line alone
    # both agree only fuzzily with the recorded name, a narrow margin apart.
    ref = SemanticElementRef(
        role="heading", screen_size=(1280, 800), bbox=(300, 96, 980, 240),
        name="Node.js and CPU profiling on production (in real-time without downtime)",
    )  # fmt: skip
    found = decide(ref, _heading_over_lines(), MatchConfig())
    assert found.status == "accepted" and found.best is not None
    assert found.best.id == "7~wrap"
