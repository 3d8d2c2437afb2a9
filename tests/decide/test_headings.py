"""Elements of one role and name told apart by the heading before each (product cards)."""

from __future__ import annotations

from dataclasses import replace

from resolver import MatchConfig, SemanticElementRef
from resolver.capture import ref_from_row
from resolver.decide import decide, rule
from resolver.decide.headings import (
    headed_there,
    heading_elsewhere,
    heading_moved,
    heading_there,
    namesake_headed_there,
)
from resolver.decide.rule import Context, Decision
from resolver.index import index_of
from resolver.matcher import score_table
from resolver.table import CandidateTable, TableBuilder

PRODUCTS = ("Blue mug", "Red mug", "Green teapot", "Tea towel", "Oak tray", "Milk jug")


def _shop(shown: tuple[int, ...] = (0, 1, 2, 3, 4, 5), title: str | None = None) -> CandidateTable:
    """A shop: a heading, then a grid of cards (an unnamed block each, which the table does
    not keep) with a title, a price and "Add to cart", in the order ``shown``, three a row;
    ``title`` renames the third product."""
    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Shop", bbox=(0, 0, 1200, 700))
    b.add("h1", raw_role="heading", name="Shop", parent=root, bbox=(20, 20, 1180, 58))
    grid = b.add("grid", raw_role="generic", parent=root, bbox=(20, 80, 780, 400))
    for place, k in enumerate(shown):
        left, top = 20 + 250 * (place % 3), 80 + 150 * (place // 3)
        named = title if title is not None and k == 2 else PRODUCTS[k]
        b.add(f"title-{k}", raw_role="heading", name=named, parent=grid,
              bbox=(left + 10, top + 10, left + 230, top + 32))  # fmt: skip
        b.add(f"price-{k}", raw_role="StaticText", name=f"EUR {10 + k}.00", parent=grid,
              bbox=(left + 10, top + 45, left + 90, top + 63))  # fmt: skip
        b.add(f"add-{k}", raw_role="button", name="Add to cart", parent=grid,
              bbox=(left + 10, top + 80, left + 100, top + 101))  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1200.0, 700.0))


def _event(k: int = 2) -> SemanticElementRef:
    """Product ``k``'s "Add to cart" as a page's click event records it: role, name, box
    (the third card's place) and the heading before it, no look-alikes."""
    table = _shop()
    box = table.box(table.ids.index(f"add-{k}"))
    return SemanticElementRef(role="button", name="Add to cart", bbox=box,
                              heading=PRODUCTS[k])  # fmt: skip


def test_the_heading_before_each_row() -> None:
    table = _shop()
    index = index_of(table)
    assert index.heading_of(table.ids.index("add-2")) == "Green teapot"
    assert index.heading_of(table.ids.index("title-2")) == "Red mug"  # (before it, not itself)
    assert index.heading_of(0) is None and index.heading_of(1) is None
    assert ref_from_row(table, table.ids.index("add-2")).heading == "Green teapot"


def _never_the_wrong_card(found: Decision, want: str | None) -> None:
    if found.status == "accepted":
        assert found.best is not None and found.best.id == want, found.reason


def test_reordered_or_shifted_cards_keep_their_titles() -> None:
    ref = _event()
    for shown in ((5, 4, 3, 2, 1, 0), (0, 1, 3, 4, 5, 2), (0, 2, 1, 3, 4, 5)):
        table = _shop(shown)
        # The card now in the recorded place is another product's.
        assert table.ids[table.ids.index("add-2")] == "add-2"
        found = decide(ref, table, MatchConfig())
        _never_the_wrong_card(found, "add-2")
        assert found.status != "not_found"
    # Without the heading the card in the recorded place was clicked.
    before = decide(ref.model_copy(update={"heading": None}), _shop((0, 1, 3, 2, 4, 5)),
                    MatchConfig())  # fmt: skip
    assert before.status == "accepted" and before.best is not None
    assert before.best.id == "add-3"


def test_the_card_in_the_recorded_place_gives_way_to_the_titled_one() -> None:
    # The recorded box holds the Tea towel's card now: the box picks it, the title does not.
    table = _shop((0, 1, 3, 2, 4, 5))
    found = decide(_event(), table, MatchConfig())
    assert found.status == "accepted" and found.rule == "accept.heading_moved"
    assert found.best is not None and found.best.id == "add-2"
    assert "'Green teapot'" in found.reason
    # Where the titled one is not among the ranked rows, the answer is doubted instead.
    ref = _event()
    plain = decide(ref.model_copy(update={"heading": None}), table, MatchConfig())
    assert plain.best is not None and plain.best.id == "add-3"
    unranked = replace(plain, candidates=tuple(c for c in plain.candidates if c.id != "add-2"))
    ctx = Context(ref, table, score_table(ref, table, MatchConfig()), MatchConfig())
    assert heading_moved(ctx, unranked) is None
    doubted = heading_elsewhere(ctx, unranked)
    assert doubted is not None and doubted.status == "ambiguous"
    assert "'Tea towel'" in doubted.reason and "'Green teapot'" in doubted.reason
    assert rule("ambiguous.heading_elsewhere").absence == "gone"


def test_a_tie_is_broken_by_the_title() -> None:
    # Recorded by role, name and title only: every card's button ties, the title decides.
    ref = SemanticElementRef(role="button", name="Add to cart", heading="Green teapot")
    for shown in ((0, 1, 2, 3, 4, 5), (5, 4, 3, 2, 1, 0)):
        found = decide(ref, _shop(shown), MatchConfig())
        assert found.status == "accepted" and found.rule == "accept.heading_there"
        assert found.best is not None and found.best.id == "add-2"
    untitled = decide(ref.model_copy(update={"heading": None}), _shop(), MatchConfig())
    assert untitled.status == "ambiguous"


def test_a_removed_cards_button_is_refused() -> None:
    found = decide(_event(), _shop((0, 1, 3, 4, 5)), MatchConfig())
    assert found.status == "not_found" and found.rule == "refuse.heading_gone"
    assert "'Green teapot'" in found.reason
    # A title renamed by an edit keeps a word: the card may be the recorded one.
    renamed = decide(_event(), _shop(title="Green teapot, 1 litre"), MatchConfig())
    assert renamed.status == "accepted" and renamed.best is not None
    assert renamed.best.id == "add-2"
    swapped = decide(_event(), _shop((0, 1, 3, 2, 4, 5), title="Teapot (green)"), MatchConfig())
    assert swapped.rule != "refuse.heading_gone"
    # A section's heading far above the answer (more than title_rows rows) is no card's
    # title: an edit may have removed the recorded section heading, the control staying.
    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Book")
    for section in ("Monitoring", "Alerting"):
        b.add(f"h-{section}", raw_role="heading", name=section, parent=root)
        for k in range(MatchConfig().title_rows + 1):
            b.add(f"p-{section}-{k}", raw_role="StaticText", name=f"{section} text {k}",
                  parent=root)  # fmt: skip
        b.add(
            f"add-{section}",
            raw_role="button",
            name="Add to cart",
            parent=root,
            bbox=(10, 10, 100, 30) if section == "Monitoring" else (10, 500, 100, 520),
        )
    far = _event().model_copy(update={"heading": "Definitions", "bbox": (10, 10, 100, 30)})
    assert decide(far, b.build(coord_space="css_px"), MatchConfig()).status == "accepted"
    # Two buttons under one heading are not told apart by it: the rule says nothing.
    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Shop")
    b.add("h", raw_role="heading", name="Mugs", parent=root)
    for k in range(2):
        b.add(f"add-{k}", raw_role="button", name="Add to cart", parent=root,
              bbox=(10 + 100 * k, 50, 100 + 100 * k, 70))  # fmt: skip
    shared = decide(_event(), b.build(coord_space="css_px"), MatchConfig())
    assert shared.rule != "refuse.heading_gone"


def test_the_tie_breaker_and_the_selector_check() -> None:
    table = _shop((0, 1, 3, 2, 4, 5))
    ref = _event()
    assert headed_there(ref, table) == [table.ids.index("add-2")]
    assert namesake_headed_there(ref, table, table.ids.index("add-3"))
    assert not namesake_headed_there(ref, table, table.ids.index("add-2"))
    assert not headed_there(ref.model_copy(update={"heading": "Tea"}), table)
    assert heading_there.__doc__ is not None and "accept.heading_there" in heading_there.__doc__
