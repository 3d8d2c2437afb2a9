"""Records named by their texts: which record a row is in, its neighbours' controls, and a
recorded record held by another namesake."""

from decide_helpers import orders_grid, orders_list

from resolver import MatchConfig, SemanticElementRef
from resolver.capture import ref_from_row
from resolver.decide import decide
from resolver.decide.records import (
    listed_namesakes,
    namesake_recorded_there,
    record_in_view,
    record_of,
)
from resolver.table import TableBuilder


def test_a_rows_record_and_its_neighbours_controls() -> None:
    table = orders_list(117, 10)
    button = table.ids.index("d120")
    record = record_of(table, button, 4)
    assert record is not None and table.ids[record] == "i120"
    assert record_of(table, table.ids.index("l"), 4) is None  # the list is in no record
    ref = SemanticElementRef(role="button", name="Delete")
    assert listed_namesakes(ref, table, record)
    assert not listed_namesakes(SemanticElementRef(role="button", name="Edit"), table, record)


def test_a_selected_row_in_another_record_than_a_namesake_in_the_recorded_one() -> None:
    recorded = orders_list(117, 10)
    ref = ref_from_row(recorded, recorded.ids.index("d120"))
    # Scrolled: order 120 is drawn seventh, its old (fourth) place holds order 117's.
    later = orders_list(114, 10)
    assert namesake_recorded_there(ref, later, later.ids.index("d117"))
    assert not namesake_recorded_there(ref, later, later.ids.index("d120"))
    # Records alike in all their texts tell no element apart.
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Posts", bbox=(0, 0, 1000, 700))
    for k, other in enumerate(("Undo", "Undo", "Undo", "Later")):
        item = b.add(f"i{k}", raw_role="listitem", name="", parent=root,
                     bbox=(0, 40 * k, 400, 40 * k + 30))  # fmt: skip
        b.add(f"d{k}", raw_role="link", name="Dismiss", parent=item,
              bbox=(0, 40 * k, 80, 40 * k + 30))  # fmt: skip
        b.add(f"t{k}", raw_role="StaticText", name=other, parent=item,
              bbox=(100, 40 * k, 180, 40 * k + 30))  # fmt: skip
    alike = b.build(coord_space="css_px")
    dismiss = SemanticElementRef(
        role="link", name="Dismiss", container_path=("Posts", "Dismiss Undo")
    )
    assert not namesake_recorded_there(dismiss, alike, alike.ids.index("d3"))
    one = dismiss.model_copy(update={"container_path": ("Posts", "Dismiss Later")})
    assert namesake_recorded_there(one, alike, alike.ids.index("d0"))


def test_a_positional_xpath_that_followed_the_slot_is_not_trusted() -> None:
    # Order 120's Delete, fourth in the list when recorded; scrolled, the fourth place holds
    # order 117's Delete under the same xpath, and order 120's is drawn seventh: the xpath
    # is evidence the recorded record contradicts, and the matcher answers order 120's.
    recorded = orders_list(117, 10)
    ref = ref_from_row(recorded, recorded.ids.index("d120"))
    found = decide(ref, orders_list(114, 10), MatchConfig())
    assert found.status == "accepted" and found.best is not None
    assert found.best.id == "d120" and found.rule != "accept.verified_selector"


def test_a_record_other_but_for_its_numbers_in_the_recorded_place_is_refused() -> None:
    # Order 10's Delete as a page script records it: its box (the fourth place when
    # recorded), its xpath, and the four texts around it. Scrolled, order 7's Delete holds
    # that place and order 10's is drawn further down: the place outweighed "7" for "10".
    recorded = orders_list(7, 10)
    ref = SemanticElementRef(
        role="button", name="Delete", bbox=(380, 135, 430, 155),
        container_path=("Orders", "Orders", "Order 10 Delete"),
        nearby_text=("Order 10", "Order 9", "Order 11", "Order 12"),
        xpath="/html[1]/body[1]/div[1]/div[1]/div[4]/button[1]",
    )  # fmt: skip
    found = decide(ref, recorded, MatchConfig())
    assert found.status == "accepted" and found.best is not None and found.best.id == "d10"
    later = decide(ref, orders_list(4, 12), MatchConfig())
    assert later.status == "ambiguous" and later.rule == "refuse.other_number"
    assert "Order 7 Delete" in later.reason and "Order 10 Delete" in later.reason
    # Order 10 not drawn: no record to point at, the record is gone instead.
    gone = decide(ref, orders_list(30, 12), MatchConfig())
    assert gone.status == "not_found" and gone.rule == "refuse.record_gone"


def test_the_records_rules_index_no_row_id_of_a_fresh_table() -> None:
    # refuse.other_number looked up its answer's row by ID before asking whether a record
    # was recorded: every first resolve indexed every row ID of a fresh table (36 ms of a
    # 200k-node list's first resolve), and wrote the path of every row of a tree whose
    # nodes carry no ID.
    from resolver.index import index_of

    for ref in (
        SemanticElementRef(role="button", name="Delete", container_path=("Orders",)),
        ref_from_row(orders_list(117, 10), orders_list(117, 10).ids.index("d120")),
    ):
        table = orders_list(117, 10)
        decision = decide(ref, table, MatchConfig())
        assert decision.best is not None
        assert "rows_by_id" not in vars(index_of(table))


def _grid_ref(**fields: object) -> SemanticElementRef:
    """Order 70's Delete as another tool records it in a grid scrolled to its last column
    (the fourth row of the view): its box, its xpath and the row's texts."""
    return SemanticElementRef(
        role="button", name="Delete", bbox=(580, 165, 630, 185),
        container_path=("Orders", "Order 70 EUR 202.50 Shipped Parcel Line TRK-8755A Call "
                        "first Delete"),
        xpath="/html[1]/body[1]/div[1]/div[1]/div[5]/div[10]/button[1]", **fields,
    )  # fmt: skip


def test_a_grid_row_sharing_its_columns_values_is_not_the_deleted_row() -> None:
    # Order 70 is not drawn (deleted, or out of view); order 4's row holds the recorded
    # place and shares most of order 70's texts ("Order", "EUR", "Shipped", "Parcel Line",
    # "Call first"), none of them its own alone: its Delete was taken, through the xpath.
    recorded = orders_grid(67, 10)
    for ref in (ref_from_row(recorded, recorded.ids.index("d70")), _grid_ref()):
        gone = decide(ref, orders_grid(1, 10), MatchConfig())
        assert gone.status == "not_found" and gone.rule == "refuse.record_gone"
        assert "Order 4 EUR" in gone.reason
        # Order 70's row with its amount edited keeps its number: still answered.
        edited = decide(ref, orders_grid(67, 10, repriced=70), MatchConfig())
        assert edited.status == "accepted" and edited.best is not None
        assert edited.best.id == "d70"


def test_a_grid_row_drawn_with_other_cells_is_the_recorded_record() -> None:
    # Scrolled across less far, the grid draws each row with its customer and city too:
    # order 70's row is on the page with other texts than recorded, further down, and order
    # 61's holds the recorded place. With the box weighing more, the recorded xpath's
    # element (order 61's Delete) was accepted; the one row bearing "70" and "TRK-8755A"
    # holds a Delete: ambiguous, both named.
    later = decide(_grid_ref(), orders_grid(58, 16, "wide"), MatchConfig(w_bbox=0.5))
    assert later.status == "ambiguous" and later.rule == "refuse.record_elsewhere"
    assert "Order 61 " in later.reason and "Order 70 " in later.reason
    # Where the recorded row is not drawn, the rule has nothing to say (the record is gone).
    gone = decide(_grid_ref(), orders_grid(1, 16, "wide"), MatchConfig(w_bbox=0.5))
    assert gone.rule == "refuse.record_gone"


def test_the_recorded_record_in_view_without_its_element() -> None:
    # Scrolled back to the grid's left: no Delete is drawn, order 70's row is, by "70".
    ref = _grid_ref()
    left = orders_grid(62, 12, "left")
    assert left.ids[record_in_view(ref, left) or 0] == "r70"
    assert record_in_view(ref, orders_grid(1, 12, "left")) is None
    assert record_in_view(ref.model_copy(update={"container_path": ("Orders",)}), left) is None
