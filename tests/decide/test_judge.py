"""Judging the ranked rows: threshold, margin over a different target, the sole namesake."""

import pytest
from decide_helpers import _buttons, orders_list

from resolver import MatchConfig, Observation, SemanticElementRef, resolve
from resolver.decide import decide
from resolver.errors import ElementNotFoundError
from resolver.table import CandidateTable, TableBuilder


def test_accepts_clear_winner_and_refuses_twins() -> None:
    table, config = _buttons(), MatchConfig()
    near_second = SemanticElementRef(role="button", name="OK", bbox=(500, 398, 570, 428))
    accepted = decide(near_second, table, config)
    assert accepted.status == "accepted" and accepted.best is not None
    assert accepted.best.id == "ok2" and accepted.margin >= config.min_margin
    twins = decide(SemanticElementRef(role="button", name="OK"), table, config)
    assert twins.status == "ambiguous"
    assert twins.runner_up is not None and {twins.best.id, twins.runner_up.id} == {"ok", "ok2"}  # type: ignore[union-attr]
    absent = decide(SemanticElementRef(role="button", name="Apply"), table, config)
    assert absent.status == "not_found" and absent.rule == "refuse.threshold"


def test_threshold_and_margin_are_config() -> None:
    table = _buttons()
    ref = SemanticElementRef(role="button", name="OK", bbox=(500, 398, 570, 428))
    assert decide(ref, table, MatchConfig(min_margin=0.99)).status == "ambiguous"
    assert decide(ref, table, MatchConfig(threshold=1.0)).status == "not_found"


def test_a_score_that_is_the_threshold_is_accepted_despite_rounding() -> None:
    from resolver import MatchConfig, Observation, SemanticElementRef, resolve

    tree = {"id": "1", "role": "button", "name": "Go", "hidden": True}
    ref = SemanticElementRef(role="button", name="Go")
    found = resolve(ref, Observation(accessibility_tree=tree))
    # Ask for exactly the score it got, plus less than a rounding error.
    again = resolve(ref, Observation(accessibility_tree=tree),
                    config=MatchConfig(threshold=min(1.0, found.score + 1e-12)))  # fmt: skip
    assert again.executor_id == "a11y:1"


def _moved_page(second_namesake: bool) -> CandidateTable:
    b = TableBuilder("a11y", "test")
    root = b.add("0", raw_role="RootWebArea", name="Blog")
    nav = b.add("n", raw_role="navigation", name="Site", parent=root, bbox=(0, 0, 1280, 40))
    b.add("h", raw_role="link", name="Home", parent=nav, bbox=(10, 10, 60, 30))
    side = b.add("s", raw_role="list", name="More", parent=root, bbox=(900, 40, 1280, 800))
    b.add("t", raw_role="link", name="Tools", parent=side, bbox=(950, 700, 1010, 720))
    b.add("o", raw_role="link", name="Toolbox", parent=nav, bbox=(70, 10, 130, 30))
    if second_namesake:
        b.add("t2", raw_role="link", name="Tools", parent=side, bbox=(950, 740, 1010, 760))
    return b.build(coord_space="css_px")


def test_a_sole_namesake_that_moved_is_accepted_under_the_threshold() -> None:
    # "Tools" moved from the navigation to the bottom of the side bar: box, container and
    # place all disagree, but no other row has its name and the recorder saw no look-alike.
    config = MatchConfig(threshold=0.7)  # the moved link scores about 0.61
    ref = SemanticElementRef(
        role="link", name="Tools", bbox=(70, 10, 120, 30), container_path=("Blog", "More tools"),
        anchors=(("Home", (10, 10, 60, 30)),),
    )  # fmt: skip
    decision = decide(ref, _moved_page(False), config)
    assert decision.status == "accepted" and decision.best is not None
    assert decision.best.id == "t" and decision.rule == "accept.sole_namesake"
    assert decision.best.score < config.threshold
    # Not when the page has a second "Tools", nor when the recorder saw look-alikes or
    # wrote nothing of the page around it (it may not have looked).
    assert decide(ref, _moved_page(True), config).status != "accepted"
    twin = ref.model_copy(update={"lookalikes": ((950, 740, 1010, 760),)})
    assert decide(twin, _moved_page(False), config).status != "accepted"
    blind = ref.model_copy(update={"anchors": ()})
    assert decide(blind, _moved_page(False), config).status != "accepted"
    strict = MatchConfig(threshold=0.7, sole_threshold=0.69)
    assert decide(ref, _moved_page(False), strict).status != "accepted"


def _users(*rows: tuple[str, str]) -> CandidateTable:
    """A table of users, each row named by its texts, each with a "Delete" button."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Users", bbox=(0, 0, 1280, 800))
    grid = b.add("t", raw_role="table", name="", parent=root, bbox=(8, 40, 600, 400))
    for k, (name, email) in enumerate(rows):
        top = 60 + 30 * k
        row = b.add(f"r{k}", raw_role="row", name=f"{name} {email} Delete", parent=grid,
                    bbox=(8, top, 600, top + 28))  # fmt: skip
        b.add(f"n{k}", raw_role="cell", name=name, parent=row, bbox=(8, top, 100, top + 28))
        b.add(f"e{k}", raw_role="cell", name=email, parent=row, bbox=(100, top, 400, top + 28))
        path = f"/html[1]/body[1]/table[1]/tbody[1]/tr[{k + 1}]/td[3]/button[1]"
        b.add(f"d{k}", raw_role="button", name="Delete", parent=row,
              bbox=(420, top, 480, top + 28), xpath=path)  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_a_deleted_records_button_is_not_its_neighbours() -> None:
    bob = SemanticElementRef(
        role="button", name="Delete", bbox=(420, 90, 480, 118), screen_size=(1280, 800),
        container_path=("Users", "Bob bob@example.com Delete"), coord_space="css_px",
        xpath="/html[1]/body[1]/table[1]/tbody[1]/tr[2]/td[3]/button[1]",
    )  # fmt: skip
    alice, carol = ("Alice", "alice@example.com"), ("Carol", "carol@example.com")
    config = MatchConfig()
    found = decide(bob, _users(alice, ("Bob", "bob@example.com"), carol), config)
    assert found.status == "accepted" and found.best is not None and found.best.id == "d1"
    # Bob's row deleted: Carol's button took its place and its xpath; refused, saying both.
    gone = decide(bob, _users(alice, carol), config)
    assert gone.status == "not_found" and gone.rule == "refuse.record_gone"
    assert "Bob bob@example.com Delete" in gone.reason and "Carol carol@example.com" in gone.reason
    # Bob's e-mail edited: his row alone still has "bob".
    edited = decide(bob, _users(alice, ("Bob", "bob@new.org"), carol), config)
    assert edited.status == "accepted" and edited.best is not None and edited.best.id == "d1"
    # Rows that differ in a shared word only ("active") do not name each other.
    status = bob.model_copy(update={"container_path": ("Users", "Bob active Delete")})
    left = decide(status, _users(("Alice", "active"), ("Carol", "active")), config)
    assert left.status == "not_found" and left.rule == "refuse.record_gone"
    # Not a record named by its texts ("Links and images" for a link named "link"): no word.
    titled = bob.model_copy(update={"container_path": ("Users", "Deleted users")})
    assert decide(titled, _users(alice, carol), config).rule != "refuse.record_gone"


def test_a_list_items_button_is_not_its_neighbours_when_the_item_is_not_there() -> None:
    # Recorded on order 120's item (the fourth drawn); the list later drew orders 177-188,
    # the fourth of them in the same place under the same xpath: that was answered at 0.999.
    recorded = orders_list(117, 10)
    row = recorded.ids.index("d120")
    from resolver.capture import ref_from_row

    ref = ref_from_row(recorded, row)
    assert ref.container_path[-1] == "Order 120 Delete"
    config = MatchConfig()
    found = decide(ref, recorded, config)
    assert found.status == "accepted" and found.best is not None and found.best.id == "d120"
    later = decide(ref, orders_list(177, 12), config)
    assert later.status == "not_found" and later.rule == "refuse.record_gone"
    assert "Order 120 Delete" in later.reason and "Order 180 Delete" in later.reason
    # Drawn again elsewhere in the list: found there.
    moved = decide(ref, orders_list(115, 12), config)
    assert moved.status == "accepted" and moved.best is not None and moved.best.id == "d120"


def test_a_list_entry_is_judged_gone_only_among_alike_entries_with_the_same_control() -> None:
    config = MatchConfig()
    ref = SemanticElementRef(
        role="button", name="Delete", bbox=(380, 135, 430, 155), screen_size=(1000, 700),
        container_path=("Orders", "Orders", "Order 120 Delete"), coord_space="css_px",
        xpath="/html[1]/body[1]/div[1]/div[1]/div[4]/button[1]",
    )  # fmt: skip
    assert decide(ref, orders_list(177, 12), config).rule == "refuse.record_gone"
    # A recorded entry of another shape (no word in common but the name): not judged.
    other = ref.model_copy(update={"container_path": ("Orders", "Orders", "Weekly digest Delete")})
    assert decide(other, orders_list(177, 12), config).rule != "refuse.record_gone"
    # A menu's entry, named by first texts a reorder changed, its link named as no other.
    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="News", bbox=(0, 0, 1000, 700))
    menu = b.add("m", raw_role="list", name="", parent=root, bbox=(0, 0, 1000, 40))
    for k, (name, rest) in enumerate((("World", "Africa Europe"), ("Sport", "Africa Cup"))):
        item = b.add(f"i{k}", raw_role="listitem", name="", parent=menu,
                     bbox=(100 * k, 0, 100 * k + 90, 40))  # fmt: skip
        b.add(f"l{k}", raw_role="link", name=name, parent=item, bbox=(100 * k, 0, 100 * k + 40, 20))
        b.add(f"t{k}", raw_role="StaticText", name=rest, parent=item,
              bbox=(100 * k, 20, 100 * k + 90, 40))  # fmt: skip
    world = SemanticElementRef(role="link", name="World", bbox=(0, 0, 40, 20),
                               container_path=("News", "World World Home Africa Asia"))  # fmt: skip
    # (Under a lower threshold, as a redesign's container change costs the score.)
    found = decide(world, b.build(coord_space="css_px"), MatchConfig(threshold=0.4))
    assert found.status == "accepted" and found.best is not None and found.best.id == "l0"


def test_a_row_agreeing_exactly_with_nothing_recorded_is_refused() -> None:
    # A redesigned site without the recorded "Open an account" link still has a button whose
    # name only contains it: the role is only compatible, the name only similar, the tag
    # other. Its score clears the threshold; nothing in it agrees exactly.
    tree = {"id": "doc", "role": "RootWebArea", "name": "Bank", "children": [
        {"id": "h", "role": "heading", "name": "Welcome back", "tag": "h1"},
        {"id": "b", "role": "button", "name": "Open an account today", "tag": "button"},
        {"id": "s", "role": "link", "name": "Sign in", "tag": "a"},
    ]}  # fmt: skip
    observation = Observation(accessibility_tree=tree)
    ref = SemanticElementRef(role="link", name="Open an account", tag="a")
    with pytest.raises(ElementNotFoundError) as info:
        resolve(ref, observation, sources=("a11y",))
    evidence = info.value.evidence
    assert evidence.rule == "refuse.nothing_exact"
    best = evidence.trace[0].best
    assert best is not None and best.executor_id == "a11y:b"
    assert best.signals == {"role": 0.8, "web:tag": 0.0, "name": 0.85}
    # The rule's setting turns it off: the score alone would have answered.
    res = resolve(ref, observation, sources=("a11y",), exact_agreement=0.0)
    assert res.executor_id == "a11y:b" and res.rule == "accept.score" and res.score >= 0.6
    # One field agreeing exactly is enough: the recorded name, or the recorded tag.
    for exact in (ref.model_copy(update={"name": "Open an account today"}),
                  ref.model_copy(update={"tag": "button"})):  # fmt: skip
        assert resolve(exact, observation, sources=("a11y",)).executor_id == "a11y:b"


def test_the_only_name_that_begins_with_a_cut_name_is_taken_under_the_threshold() -> None:
    # A recorder that keeps a name's first 30 characters; the heading moved far down the
    # page, and its whole name agrees only fuzzily: under the threshold. No other element's
    # name begins that way.
    from dataclasses import replace as copied

    from resolver.table import TableBuilder

    title = "Practice the HALT Method to Curb Impulse Purchases"

    def page(second: str) -> CandidateTable:
        b = TableBuilder("a11y", "test")
        root = b.add("doc", raw_role="RootWebArea", name="News", bbox=(0, 0, 1280, 3000))
        b.add("story", raw_role="heading", name=title, parent=root, bbox=(8, 2500, 1272, 2530))
        b.add("next", raw_role="heading", name=second, parent=root, bbox=(8, 2900, 1272, 2930))
        return b.build(screen_size=(1280.0, 800.0))

    ref = SemanticElementRef(role="heading", name=title[:30], bbox=(8, 100, 1272, 130))
    config = MatchConfig(threshold=0.7)  # the moved heading scores about 0.66
    found = decide(ref, page("Weather this week"), config)
    assert found.status == "accepted" and found.best is not None and found.best.id == "story"
    assert found.rule == "accept.sole_cut_name"
    # A second name begins the same way: which one was cut is not known.
    twin = page(title[:30] + "mpaign Spending")
    assert decide(ref, twin, config).status != "accepted"
    # Names read from pixels: a line read may run on past its element, so a name ending
    # where a word ends may be a whole name read with the next words: not taken there.
    read = copied(page("Weather this week"), names_read=True)
    whole_words = ref.model_copy(update={"name": title[:32]})  # "... to Curb"
    assert decide(whole_words, page("Weather this week"), config).status == "accepted"
    assert decide(whole_words, read, config).rule != "accept.sole_cut_name"
    # A name cut in the middle of a word is a cut there too.
    assert decide(ref, read, config).rule == "accept.sole_cut_name"
    # Off with cut_name_chars 0.
    off = copied(config, cut_name_chars=0)
    assert decide(ref, page("Weather this week"), off).status != "accepted"


def _bank(
    name: str, second_href: str, first_href: str = "https://bank.test/auto-loans"
) -> CandidateTable:
    """A page of two links: ``name`` to ``first_href``, "Mortgages" to ``second_href``."""
    b = TableBuilder("a11y", "test", id_columns=("href",))
    root = b.add("0", raw_role="RootWebArea", name="Bank", bbox=(0, 0, 1280, 800))
    b.add(
        "a",
        raw_role="link",
        name=name,
        parent=root,
        bbox=(400, 300, 520, 317),
        href="https://bank.test/auto-loans",
    )
    b.add("b", raw_role="link", name="Mortgages", parent=root, bbox=(400, 340, 500, 357),
          href=second_href)  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_the_only_link_to_the_recorded_address_is_taken_under_the_threshold() -> None:
    # "Car loan" renamed "Auto loan rates" and moved by a redesign: under the threshold,
    # but the only link to its address, and its name keeps "loan".
    ref = SemanticElementRef(role="link", name="Car loan", href="https://bank.test/auto-loans",
                             bbox=(20, 100, 90, 117), coord_space="css_px",
                             screen_size=(1280, 800))  # fmt: skip
    config = MatchConfig()
    sole = decide(ref, _bank("Auto loan rates", "https://bank.test/mortgages"), config)
    assert sole.status == "accepted" and sole.rule == "accept.sole_link"
    assert sole.best is not None and sole.best.id == "a"
    # Another link to the same address, a name keeping no recorded word, or a recorded
    # address that is the site's root: nothing singles the row out.
    shared = decide(ref, _bank("Auto loan rates", "https://bank.test/auto-loans"), config)
    assert shared.status == "not_found"
    renamed = decide(ref, _bank("Vehicle finance", "https://bank.test/mortgages"), config)
    assert renamed.status == "not_found"
    root = ref.model_copy(update={"href": "https://bank.test/"})
    home = decide(root, _bank("Auto loan rates", "https://bank.test/mortgages",
                              "https://bank.test/"), config)  # fmt: skip
    assert home.status == "not_found"


def _sign_up_page(*others: dict[str, object]) -> Observation:
    """A redesigned page: the old clickable ``span`` "Sign up" is now a link with a text
    inside it, under other markup, among other links."""
    link = {
        "id": "signup", "role": "link", "name": "Sign up", "tag": "a",
        "xpath": "/html[1]/body[1]/div[1]/main[1]/div[2]/p[1]/a[1]",
        "children": [{"id": "signup-text", "role": "StaticText", "name": "Sign up"}],
    }  # fmt: skip
    links = [
        {"id": f"l{i}", "role": "link", "name": name, "tag": "a",
         "xpath": f"/html[1]/body[1]/div[1]/nav[1]/a[{i + 1}]"}
        for i, name in enumerate(("About", "Help", "Log in", "Privacy"))
    ]  # fmt: skip
    root = {"id": "root", "role": "RootWebArea", "name": "Welcome",
            "children": [*links, link, *others]}  # fmt: skip
    return Observation(accessibility_tree=root)


def test_an_element_recorded_with_no_kind_is_its_sole_namesake_of_any_role() -> None:
    # Recorded as a clickable span (role generic), with classes a rebuild renamed: on the
    # new page the link is the only element bearing the name, but its role and tag differ,
    # and nothing else recorded agrees: under the threshold.
    ref = SemanticElementRef(
        role="generic", name="Sign up", tag="span", classes=("q8Xv1", "_3KdPw"),
        xpath="/html[1]/body[1]/span[1]/section[1]/main[1]/form[1]/div[4]/span[1]",
    )  # fmt: skip
    found = resolve(ref, _sign_up_page(), sources=("a11y",))
    assert found.executor_id == "a11y:signup" and found.rule == "accept.sole_kindless"
    assert found.score < MatchConfig().threshold
    # A second element bears the name: which one the span became is not known.
    button = {"id": "b", "role": "button", "name": "Sign up", "tag": "button"}
    with pytest.raises(ElementNotFoundError) as refused:
        resolve(ref, _sign_up_page(button), sources=("a11y",))
    assert refused.value.evidence.rule == "refuse.threshold"
    # A recorded kind is evidence the rule leaves to the scorer: a heading recorded is not
    # taken for the link so.
    typed = ref.model_copy(update={"role": "heading", "tag": "h2"})
    with pytest.raises(ElementNotFoundError) as other_kind:
        resolve(typed, _sign_up_page(), sources=("a11y",))
    assert other_kind.value.evidence.rule == "refuse.threshold"


def _screen(second: str | None) -> CandidateTable:
    """A screenshot's table: a group titled by a long heading, and ``second`` read lower."""
    from dataclasses import replace as copied

    b = TableBuilder("vision", "test")
    root = b.add("0", raw_role="group", name="", bbox=(0, 0, 1280, 800))
    title = "Chapter 6 - Monitoring Distributed Systems at Google Scale"
    group = b.add("1", raw_role="group", name=title, parent=root, bbox=(7, 47, 542, 581))
    b.add("2", raw_role="heading", name=title, parent=group, bbox=(11, 47, 462, 73))
    b.add("3", raw_role="paragraph", name="Alerts, dashboards and logs", parent=group,
          bbox=(11, 90, 400, 110))  # fmt: skip
    if second is not None:
        b.add("4", raw_role="heading", name=second, parent=root, bbox=(11, 600, 462, 626))
    return copied(b.build(screen_size=(1280.0, 800.0)), names_read=True)


def test_a_cut_name_read_once_on_a_screenshot_is_taken_under_the_threshold() -> None:
    # Recorded as its first 30 characters, the heading moved down a line: under the
    # threshold. The group it titles bears its name too, which is no second reading of it.
    ref = SemanticElementRef(role="heading", name="Chapter 6 - Monitoring Distrib",
                             bbox=(8, 10, 1272, 37))  # fmt: skip
    config = MatchConfig(threshold=0.7)  # the moved heading scores about 0.68
    found = decide(ref, _screen(None), config)
    assert found.rule == "accept.sole_cut_name"
    assert found.best is not None and found.best.id == "2"
    # Another element read lower begins the same way: which one was cut is not known.
    again = decide(ref, _screen("Chapter 6 - Monitoring Distributed Storage Services"), config)
    assert again.rule != "accept.sole_cut_name" and again.status != "accepted"


def _cards(order: list[int], shared: bool = False) -> CandidateTable:
    """Product cards in ``order``: a title, a price, "Add to cart" and a "Details" link to
    the product's page (``shared``: the second and third cards' links go to one page)."""
    b = TableBuilder("a11y", "test", id_columns=("xpath", "href"))
    root = b.add("0", raw_role="RootWebArea", name="Shop", bbox=(0, 0, 1280, 800))
    grid = b.add("g", raw_role="generic", name="", parent=root, bbox=(0, 40, 760, 400),
                 xpath="/html[1]/body[1]/div[1]")  # fmt: skip
    for slot, product in enumerate(order):
        x = 20 + 250 * (slot % 3)
        y = 60 + 130 * (slot // 3)
        card = b.add(f"c{product}", raw_role="generic", name="", parent=grid,
                     bbox=(x, y, x + 220, y + 110))  # fmt: skip
        b.add(f"t{product}", raw_role="heading", name=f"Product {'ABCDEF'[product]}",
              parent=card, bbox=(x, y, x + 200, y + 20))  # fmt: skip
        b.add(f"a{product}", raw_role="button", name="Add to cart", parent=card,
              bbox=(x, y + 60, x + 80, y + 80))  # fmt: skip
        page = 2 if shared and product == 1 else product
        b.add(f"d{product}", raw_role="link", name="Details", parent=card,
              bbox=(x + 100, y + 60, x + 150, y + 80), href=f"https://shop.test/products/{page}",
              xpath=f"/html[1]/body[1]/div[1]/div[{slot + 1}]/a[1]")  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_the_only_namesake_linking_to_the_recorded_address_breaks_the_tie() -> None:
    # The third card's "Details" recorded with its box, its xpath and its link; the cards
    # shown in reverse: the box and the xpath lead to the fourth card's, the link to the
    # third's, the only element linking there.
    from resolver.capture import ref_from_row

    recorded = _cards([0, 1, 2, 3, 4, 5])
    ref = ref_from_row(recorded, recorded.ids.index("d2"))
    assert ref.href == "https://shop.test/products/2"
    found = decide(ref, _cards([5, 4, 3, 2, 1, 0]), MatchConfig())
    assert found.status == "accepted" and found.rule == "accept.link_there"
    assert found.best is not None and found.best.id == "d2"
    # Two namesakes linking to the recorded address: the address tells neither apart.
    both = decide(ref, _cards([5, 4, 3, 2, 1, 0], shared=True), MatchConfig())
    assert both.rule != "accept.link_there" and (both.best is None or both.best.id != "d1")


def test_a_removed_cards_link_is_not_answered_by_the_neighbour_in_its_place() -> None:
    # The third card removed: its address is linked from nowhere, and each other card's
    # "Details" links to a page of its own; the fourth card's, now in the recorded place and
    # slot, is a neighbour.
    from resolver.capture import ref_from_row
    from resolver.decide import rule

    recorded = _cards([0, 1, 2, 3, 4, 5])
    ref = ref_from_row(recorded, recorded.ids.index("d2")).model_copy(
        update={"lookalikes": (), "occurrence": None, "anchors": ()}
    )  # (as a page's click event records it: no look-alikes)
    gone = decide(ref, _cards([0, 1, 3, 4, 5]), MatchConfig())
    assert gone.status == "not_found" and gone.rule == "refuse.address_gone"
    assert "shop.test/products/2" in gone.reason
    assert rule("refuse.address_gone").absence == "gone"
    # Two cards sharing an address: addresses do not tell the rows apart.
    shared = decide(ref, _cards([0, 1, 3, 4, 5], shared=True), MatchConfig())
    assert shared.rule != "refuse.address_gone"
    # A reference that recorded no link: nothing to say.
    plain = ref.model_copy(update={"href": None})
    assert decide(plain, _cards([0, 1, 3, 4, 5]), MatchConfig()).rule != "refuse.address_gone"
