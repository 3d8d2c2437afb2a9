"""Ties: a renamed target taken, and a tie broken by the recorded place in the document."""

import dataclasses

from decide_helpers import _torn

from resolver import MatchConfig, SemanticElementRef
from resolver.decide import decide
from resolver.matcher import score_table
from resolver.table import CandidateTable, TableBuilder


def test_a_target_renamed_in_its_slot_is_found_without_recorded_look_alikes() -> None:
    # The reference of another recorder: no look-alikes, no order. The link under the
    # recorded xpath, at the recorded place, gained a word; a namesake sits elsewhere.
    ref = SemanticElementRef(
        role="link", name="Friday deals for books", bbox=(8.0, 100.0, 220.0, 117.0),
        xpath="/html[1]/body[1]/main[1]/p[2]/a[1]",
        nearby_text=("Books of the week", "Shipping is free"),
    )  # fmt: skip
    found = decide(ref, _torn("Friday deals"), MatchConfig())
    assert found.status == "accepted" and found.best is not None and found.best.id == "r"
    assert found.rule == "accept.renamed_in_slot"
    # Only a number changed ("Image 1" for "Image 2"), or the xpath names another element:
    # still torn.
    numbered = ref.model_copy(update={"name": "Friday deals 2"})
    twins = _torn("Friday deals 3", twin="Friday deals 2", right=220)
    assert decide(numbered, twins, MatchConfig()).status == "ambiguous"
    # The same ambiguity with a recorded xpath that selects no row there: not taken.
    from resolver.decide import RULES_BY_ID, Context

    slot = RULES_BY_ID["accept.renamed_in_slot"]
    table = _torn("Friday deals")
    doubt = dataclasses.replace(found, status="ambiguous", reason="tied")

    def judged(reference: SemanticElementRef) -> str:
        ctx = Context(reference, table, score_table(reference, table, MatchConfig()), MatchConfig())
        return slot.apply(ctx, doubt).status

    assert judged(ref) == "accepted"
    other = ref.model_copy(update={"xpath": "/html[1]/body[1]/p[3]/a[1]"})
    assert judged(other) == "ambiguous"


def _renamed_page(third: bool) -> CandidateTable:
    b = TableBuilder("a11y", "test")
    root = b.add("0", raw_role="RootWebArea", name="News")
    art = b.add("a", raw_role="article", name="Story", parent=root, bbox=(0, 0, 800, 900))
    b.add("t", raw_role="link", name="Share this story", parent=art, bbox=(20, 100, 260, 120))
    b.add("w", raw_role="link", name="Share", parent=art, bbox=(20, 130, 120, 150))
    if third:
        b.add("x", raw_role="link", name="Share", parent=art, bbox=(20, 600, 120, 620))
    return b.build(coord_space="css_px")


def test_a_renamed_target_at_its_place_wins_over_its_look_alike_at_the_look_alike_s() -> None:
    # Two "Share" links were recorded (the target first); the target became "Share this
    # story", wider along its line, and stayed where it was; its look-alike kept the name and
    # its own place just below.
    ref = SemanticElementRef(
        role="link", name="Share", bbox=(20, 100, 120, 120), container_path=("News", "Story"),
        occurrence=(0, 2), lookalikes=((20, 130, 120, 150),),
        anchors=(("Story", (0, 0, 800, 900)),),
    )  # fmt: skip
    decision = decide(ref, _renamed_page(False), MatchConfig())
    assert decision.status == "accepted" and decision.best is not None
    assert decision.best.id == "t" and decision.rule == "accept.renamed_target"
    assert decision.runner_up is not None and decision.runner_up.id == "w"
    # A third "Share" now: as many namesakes as were recorded, so the target may still be
    # one of them; and without the recorded look-alike the page cannot be read this way.
    assert not {"accept.renamed_target", "accept.renamed_in_slot"} & set(
        decide(ref, _renamed_page(True), MatchConfig()).rules
    )
    alone = ref.model_copy(update={"lookalikes": ()})
    assert not {"accept.renamed_target", "accept.renamed_in_slot"} & set(
        decide(alone, _renamed_page(False), MatchConfig()).rules
    )


def _two_renamed(target_xpath: str) -> CandidateTable:
    """The target and one of its two recorded look-alikes were renamed; one "Share" is left
    at the other look-alike's place."""
    from resolver.adapters._common import XPATH_KEYS

    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("0", raw_role="RootWebArea", name="News")
    art = b.add("a", raw_role="article", name="Story", parent=root, bbox=(0, 0, 800, 900))
    b.add("t", raw_role="link", name="Share this story", parent=art, bbox=(20, 100, 260, 120),
          xpath=target_xpath)  # fmt: skip
    b.add("w", raw_role="link", name="Share", parent=art, bbox=(20, 130, 120, 150),
          xpath="/html[1]/body[1]/article[1]/p[2]/a[1]")  # fmt: skip
    b.add("x", raw_role="link", name="Share it", parent=art, bbox=(20, 600, 120, 620),
          xpath="/html[1]/body[1]/article[1]/p[9]/a[1]")  # fmt: skip
    return b.build(coord_space="css_px", id_keys=XPATH_KEYS)


def test_a_renamed_target_with_a_renamed_look_alike_needs_its_recorded_xpath() -> None:
    ref = SemanticElementRef(
        role="link", name="Share", bbox=(20, 100, 120, 120), container_path=("News", "Story"),
        occurrence=(0, 3), lookalikes=((20, 130, 120, 150), (20, 600, 120, 620)),
        anchors=(("Story", (0, 0, 800, 900)),), xpath="/html[1]/body[1]/article[1]/p[1]/a[1]",
    )  # fmt: skip
    kept = decide(ref, _two_renamed("/html[1]/body[1]/article[1]/p[1]/a[1]"), MatchConfig())
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "t"
    assert kept.rule == "accept.renamed_target"
    # Fewer namesakes than recorded look-alikes and the recorded xpath names another place:
    # the page does not read as one renamed target.
    moved = decide(ref, _two_renamed("/html[1]/body[1]/div[1]/a[1]"), MatchConfig())
    assert not {"accept.renamed_target", "accept.renamed_in_slot"} & set(moved.rules)


def _pushed_down(footer_xpath: str) -> CandidateTable:
    """A banner pushed a header and a footer "Home" link down and renumbered the page's
    wrapper (``div[2]`` -> ``div[3]``); the two links are nearly tied by their boxes."""
    from resolver.adapters._common import XPATH_KEYS

    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("0", raw_role="RootWebArea", name="Shop", bbox=(0, 0, 1280, 2000))
    b.add("h", raw_role="link", name="Home", parent=root, bbox=(20, 300, 80, 320),
          xpath="/html[1]/body[1]/div[3]/header[1]/nav[1]/a[1]")  # fmt: skip
    b.add("f", raw_role="link", name="Home", parent=root, bbox=(20, 400, 80, 420),
          xpath=footer_xpath)  # fmt: skip
    return b.build(coord_space="css_px", id_keys=XPATH_KEYS, screen_size=(1280.0, 800.0))


def test_a_tie_is_broken_by_the_place_in_the_document_after_a_level_was_renumbered() -> None:
    ref = SemanticElementRef(
        role="link", name="Home", bbox=(20, 100, 80, 120),
        xpath="/html[1]/body[1]/div[2]/header[1]/nav[1]/a[1]",
    )  # fmt: skip
    taken = decide(ref, _pushed_down("/html[1]/body[1]/div[3]/footer[1]/a[1]"), MatchConfig())
    assert taken.status == "accepted" and taken.best is not None and taken.best.id == "h"
    assert taken.rule == "accept.path_tie"
    # The other link's path agrees as well: still a tie.
    alike = _pushed_down("/html[1]/body[1]/div[4]/header[1]/nav[1]/a[1]")
    assert decide(ref, alike, MatchConfig()).status == "ambiguous"
    # A dead heat (the recorded box halfway between them) is not decided by the path's
    # similarity alone (with two steps renumbered; one alone is
    # test_an_xpath_renumbered_at_one_step_breaks_a_tie_between_look_alikes).
    midway = ref.model_copy(
        update={
            "bbox": (20, 350, 80, 370),
            "xpath": "/html[1]/body[1]/div[2]/header[1]/nav[2]/a[1]",
        }
    )
    heat = decide(midway, _pushed_down("/html[1]/body[1]/div[3]/footer[1]/a[1]"), MatchConfig())
    assert heat.status == "ambiguous" and heat.margin < 0.02
    # Without a recorded xpath, or with one the best does not resemble more, no answer.
    assert (
        decide(ref.model_copy(update={"xpath": None}), _pushed_down("/x[1]"), MatchConfig()).status
        == "ambiguous"
    )


def _follow_links(
    level: str, shift: float, extra: tuple[tuple[str, str], ...] = ()
) -> CandidateTable:
    """Three "Follow" links, one per article 300 px apart under ``/html/body/{level}``,
    pushed down by ``shift``; ``extra`` adds a link ``(name, xpath)`` far below."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Thread", bbox=(0, 0, 1280, 800))
    for k in range(3):
        top = 150 + 300 * k + shift
        b.add(f"f{k + 1}", raw_role="link", name="Follow", parent=root,
              bbox=(48, top, 96, top + 17),
              xpath=f"/html[1]/body[1]/{level}/article[{k + 1}]/header[1]/a[1]")  # fmt: skip
    for k, (name, xpath) in enumerate(extra):
        b.add(f"x{k}", raw_role="link", name=name, parent=root,
              bbox=(48, 3000 + 40 * k, 110, 3017 + 40 * k), xpath=xpath)  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_an_xpath_renumbered_at_one_step_breaks_a_tie_between_look_alikes() -> None:
    # Recorded: the second article's link. A banner then renumbered body's div[2] to div[3]
    # and pushed everything down by 150 px: the first and second links are as far from
    # the recorded box, and the recorded xpath selects nothing.
    ref = SemanticElementRef(
        role="link", name="Follow", bbox=(48, 450, 96, 467), screen_size=(1280, 800),
        xpath="/html[1]/body[1]/div[2]/article[2]/header[1]/a[1]",
    )  # fmt: skip
    config = MatchConfig()
    pushed = decide(ref, _follow_links("div[3]", 150), config)
    assert pushed.status == "accepted" and pushed.best is not None and pushed.best.id == "f2"
    assert pushed.rule == "accept.renumbered_tie"
    # Another "Follow" under the same steps down to the renumbered one, at another position
    # there (a sibling section): the renumbered step no longer tells the target.
    sibling = ("Follow", "/html[1]/body[1]/div[4]/article[9]/header[1]/a[1]")
    assert decide(ref, _follow_links("div[3]", 150, (sibling,)), config).status == "ambiguous"
    # Namesakes that differ further down do not stand in the way.
    deeper = ("Follow", "/html[1]/body[1]/div[3]/aside[1]/header[1]/a[1]")
    assert decide(ref, _follow_links("div[3]", 150, (deeper,)), config).status == "accepted"
    # The recorded xpath still selects an element of the recorded role (the target renamed
    # in its place, perhaps): the renumbered step is no evidence.
    renamed = ("Unfollow", ref.xpath or "")
    assert decide(ref, _follow_links("div[3]", 150, (renamed,)), config).status == "ambiguous"
    # Without a box, the step renumbered is the page's top wrapper, three steps above the
    # link: the row is the one the unchanged xpath would select (``accept.shifted_tie``), as
    # the unchanged xpath itself is taken in a dead heat (``accept.verified_selector``).
    boxless = ref.model_copy(update={"bbox": None, "screen_size": None})
    shifted = decide(boxless, _follow_links("div[3]", 150), config)
    assert shifted.rule == "accept.shifted_tie" and shifted.best is not None
    assert shifted.best.id == "f2"
    unchanged = decide(boxless, _follow_links("div[2]", 150), config)
    assert unchanged.rule == "accept.verified_selector" and unchanged.best is not None
    assert unchanged.best.id == "f2"
    # One step lower (the article's own slot renumbered): a want of evidence, no answer.
    low = boxless.model_copy(update={"xpath": "/html[1]/body[1]/div[3]/article[4]/header[1]/a[1]"})
    assert decide(low, _follow_links("div[3]", 150), config).status == "ambiguous"
    # Without the banner's renumbering (look-alikes one list-item step apart): no tie-break.
    listed = ref.model_copy(update={"xpath": "/html[1]/body[1]/div[3]/article[5]/header[1]/a[1]"})
    assert decide(listed, _follow_links("div[3]", 150), config).status == "ambiguous"


def _icon_links(wrapper: str, extra: tuple[tuple[str, str], ...] = ()) -> CandidateTable:
    """A login page's two unnamed icon links (app stores) under ``/html/body/{wrapper}``, a
    named link beside them and an unnamed one in the footer; ``extra`` adds unnamed links
    ``(id, xpath)``. No boxes: a recorder that keeps selectors only."""
    from resolver.adapters._common import XPATH_KEYS

    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Log in")
    top = f"/html[1]/body[1]/{wrapper}/section[1]/main[1]/article[1]/div[3]"
    b.add("ios", raw_role="link", name="", parent=root, xpath=f"{top}/div[1]/a[1]")
    b.add("android", raw_role="link", name="", parent=root, xpath=f"{top}/div[1]/a[2]")
    b.add("help", raw_role="link", name="Help", parent=root, xpath=f"{top}/p[1]/a[1]")
    b.add("logo", raw_role="link", name="", parent=root,
          xpath=f"/html[1]/body[1]/{wrapper}/section[1]/footer[1]/a[1]")  # fmt: skip
    for key, xpath in extra:
        b.add(key, raw_role="link", name="", parent=root, xpath=xpath)
    return b.build(id_keys=XPATH_KEYS)


def test_an_unnamed_target_under_a_replaced_top_wrapper_is_found_by_its_xpath() -> None:
    # Recorded: the second app-store link, by a recorder that keeps xpath and tag only. The
    # page's top wrapper became a div (span[1] -> div[1]); nothing else tells the unnamed
    # links apart.
    recorded = "/html[1]/body[1]/span[1]/section[1]/main[1]/article[1]/div[3]/div[1]/a[2]"
    ref = SemanticElementRef(role="link", xpath=recorded, tag="a")
    config = MatchConfig()
    found = decide(ref, _icon_links("div[1]"), config)
    assert found.status == "accepted" and found.best is not None and found.best.id == "android"
    assert found.rule == "accept.shifted_tie"
    # The wrapper renumbered rather than retagged: the same.
    assert decide(ref, _icon_links("span[2]"), config).rule == "accept.shifted_tie"
    # Before the rule: rows that only their role tells apart.
    assert "refuse.role_only" in found.rules
    # The target removed: no unnamed link is one step from the recorded xpath (its sibling
    # differs at its own step too), and nothing is taken.
    gone = ref.model_copy(update={"xpath": recorded.replace("a[2]", "a[3]")})
    assert decide(gone, _icon_links("div[1]"), config).status != "accepted"
    # The changed step is the element's own or just above it (a list item's slot): no.
    slot = "/html[1]/body[1]/div[1]/section[1]/main[1]/article[1]/div[3]/div[2]/a[2]"
    assert decide(ref.model_copy(update={"xpath": slot}), _icon_links("div[1]"), config).status != (
        "accepted"
    )
    # A second unnamed link one step away at the same level (a sibling section): no.
    twin = ("twin", recorded.replace("span[1]", "div[2]"))
    assert decide(ref, _icon_links("div[1]", (twin,)), config).status != "accepted"
    # The recorded xpath still selects the link: the selector is verified in the dead heat
    # (the ranking put the first icon first, by document order).
    kept = decide(ref, _icon_links("span[1]"), config)
    assert kept.rule == "accept.verified_selector" and kept.best is not None
    assert kept.best.id == "android"
    # Off with ``shifted_below`` beyond the path's length (and ``accept.tail_in_region``,
    # which the same page satisfies, off too).
    assert decide(ref, _icon_links("div[1]"), MatchConfig(tail_steps=20)).rule == (
        "accept.shifted_tie"
    )
    off = MatchConfig(shifted_below=20, tail_steps=20)
    assert decide(ref, _icon_links("div[1]"), off).status != "accepted"


def _brand_links(
    header: str, *, keep: tuple[int, ...] = (1, 2, 3), extra: tuple[str, ...] = ()
) -> CandidateTable:
    """A header's list of three unnamed brand links (items ``keep``) under ``header``, a
    footer list with the same last steps, and unnamed links at ``extra`` xpaths."""
    from resolver.adapters._common import XPATH_KEYS

    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Products")
    for k in keep:
        b.add(f"b{k}", raw_role="link", name="", parent=root,
              xpath=f"{header}/ul[1]/li[{k}]/a[1]")  # fmt: skip
    b.add("f2", raw_role="link", name="", parent=root,
          xpath="/html[1]/body[1]/div[1]/footer[1]/ul[1]/li[2]/a[1]")  # fmt: skip
    for j, xpath in enumerate(extra):
        b.add(f"x{j}", raw_role="link", name="", parent=root, xpath=xpath)
    return b.build(id_keys=XPATH_KEYS)


def test_an_unnamed_target_whose_region_was_rebuilt_is_found_by_its_place_in_it() -> None:
    # Recorded: the second brand link of the header's list. The redesign rebuilt the
    # header's wrappers (sections now divs, another depth) and kept the list; the footer has
    # a list ending alike, in another region.
    recorded = "/html[1]/body[1]/header[1]/section[1]/section[2]/ul[1]/li[2]/a[1]"
    ref = SemanticElementRef(role="link", xpath=recorded, tag="a")
    config = MatchConfig()
    rebuilt = "/html[1]/body[1]/div[1]/div[1]/header[1]/div[2]/div[1]"
    found = decide(ref, _brand_links(rebuilt), config)
    assert found.status == "accepted" and found.best is not None and found.best.id == "b2"
    assert found.rule == "accept.tail_in_region"
    # The target removed (its siblings kept their places): nothing ends as recorded.
    assert decide(ref, _brand_links(rebuilt, keep=(1, 3)), config).status != "accepted"
    # A second list in the header ending alike: no evidence.
    twin = f"{rebuilt.replace('div[2]/div[1]', 'div[3]')}/ul[1]/li[2]/a[1]"
    assert decide(ref, _brand_links(rebuilt, extra=(twin,)), config).status != "accepted"
    # Another region (the list now in a nav inside the header): no.
    moved = f"{rebuilt}/nav[1]"
    assert decide(ref, _brand_links(moved), config).status != "accepted"
    # A recorded path outside every landmark region says too little.
    bare = "/html[1]/body[1]/section[1]/section[2]/ul[1]/li[2]/a[1]"
    unframed = ref.model_copy(update={"xpath": bare})
    assert decide(unframed, _brand_links("/html[1]/body[1]/div[1]/div[2]"), config).status != (
        "accepted"
    )
    # A named reference is not helped by it.
    named = ref.model_copy(update={"name": "TurboTax"})
    assert decide(named, _brand_links(rebuilt), config).rule != "accept.tail_in_region"
    # Off with ``tail_steps`` beyond the path's length.
    assert decide(ref, _brand_links(rebuilt), MatchConfig(tail_steps=20)).status != "accepted"


def _menu_links(wrapper: str, *, alike: bool = False) -> CandidateTable:
    """A shop's top menu under ``/html/body/{wrapper}``, its ninth item renamed "Gifts &
    Gift Cards", and three links elsewhere whose names tie with "Gifts" as closely (a
    gift guide's list in another top-level section); ``alike`` adds a menu built the same
    way in a sibling section. No boxes: a recorder that keeps selectors only."""
    from resolver.adapters._common import XPATH_KEYS

    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Shop")
    menu = f"/html[1]/body[1]/{wrapper}/div[1]/div[1]/ul[1]"
    for k, name in enumerate(("Home", "Jewellery", "Clothing", "Gifts & Gift Cards"), 6):
        b.add(f"m{k}", raw_role="link", name=name, parent=root, xpath=f"{menu}/li[{k}]/a[1]")
    guide = "/html[1]/body[1]/div[6]/div[1]/div[7]/div[1]/ul[1]"
    for k, name in enumerate(("Ready to ship gifts", "Personalized gifts", "Gifts under $30")):
        b.add(f"g{k}", raw_role="link", name=name, parent=root, xpath=f"{guide}/li[{k + 1}]/a[1]")
    if alike:
        b.add("twin", raw_role="link", name="Gifts for him", parent=root,
              xpath="/html[1]/body[1]/div[7]/div[1]/div[1]/ul[1]/li[9]/a[1]")  # fmt: skip
    return b.build(id_keys=XPATH_KEYS)


def test_a_renamed_target_tied_with_others_is_found_under_a_shifted_wrapper() -> None:
    # Recorded: the menu's "Gifts" link at li[9], by a recorder that keeps xpath and tag. A
    # redesign renamed it "Gifts & Gift Cards" and shifted the page's top wrapper (div[4]
    # -> div[5]); no row bears the name, and three other links tie with it on score.
    ref = SemanticElementRef(
        role="link",
        name="Gifts",
        tag="a",
        xpath="/html[1]/body[1]/div[4]/div[1]/div[1]/ul[1]/li[9]/a[1]",
    )
    config = MatchConfig()
    found = decide(ref, _menu_links("div[5]"), config)
    assert found.status == "accepted" and found.best is not None and found.best.id == "m9"
    assert found.rule == "accept.shifted_tie" and "ambiguous.margin" in found.rules
    # A link in a sibling section built alike, one step away at the same level: no answer.
    assert decide(ref, _menu_links("div[5]", alike=True), config).status != "accepted"
    # The menu's wrapper unchanged but the item gone from the recorded slot (li[9] now
    # elsewhere in the list): not the rule's.
    moved = ref.model_copy(
        update={"xpath": "/html[1]/body[1]/div[5]/div[1]/div[1]/ul[1]/li[3]/a[1]"}
    )
    assert decide(moved, _menu_links("div[5]"), config).rule != "accept.shifted_tie"


def _account_links(
    nav: str = "nav[1]", twin_in_nav: bool = False, near: str = "Pricing"
) -> CandidateTable:
    """A redesigned home page with three "Open an Account" links and no boxes: one in the
    navigation's list (its steps above renumbered), two in promotion panels built of divs;
    with ``twin_in_nav`` a fourth in the navigation's list. Each link's neighbour text is
    ``near`` for the navigation's."""
    from resolver.adapters._common import XPATH_KEYS

    b = TableBuilder("a11y", "test", id_columns=("xpath", "nearby"))
    root = b.add("doc", raw_role="RootWebArea", name="Bank")
    top = f"/html[1]/body[1]/div[1]/div[1]/{nav}/div[1]/ul[1]"
    b.add("menu", raw_role="link", name="Open an Account", parent=root,
          xpath=f"{top}/li[3]/a[1]", nearby=near)  # fmt: skip
    if twin_in_nav:
        b.add("menu2", raw_role="link", name="Open an Account", parent=root,
              xpath=f"{top}/li[7]/a[1]", nearby=near)  # fmt: skip
    b.add("skip", raw_role="link", name="Skip to main content", parent=root,
          xpath=f"/html[1]/body[1]/div[1]/div[1]/{nav}/div[1]/a[1]")  # fmt: skip
    for k in (1, 2):
        b.add(f"promo{k}", raw_role="link", name="Open an Account", parent=root,
              xpath=f"/html[1]/body[1]/div[1]/div[2]/div[{k}]/div[1]/div[1]/div[3]/a[1]",
              nearby="Start investing")  # fmt: skip
    return b.build(id_keys=XPATH_KEYS)


def test_a_dead_heat_between_twins_is_broken_by_the_recorded_region_and_tags() -> None:
    # Recorded by a tool that keeps selectors and no box: the navigation's link. The
    # redesign renumbered the steps above it (div[4] -> div[1], li[2] -> li[3]); two twins
    # sit in panels built of divs, outside any navigation.
    ref = SemanticElementRef(
        role="link", name="Open An Account",
        xpath="/html[1]/body[1]/div[4]/div[1]/nav[1]/div[1]/ul[1]/li[2]/a[1]",
    )  # fmt: skip
    config = MatchConfig()
    found = decide(ref, _account_links(), config)
    assert found.status == "accepted" and found.best is not None and found.best.id == "menu"
    assert found.rule == "accept.shape_tie"
    # Two twins in the recorded region (one list): a doubt, whatever the tags say.
    assert decide(ref, _account_links(twin_in_nav=True), config).status == "ambiguous"
    # The navigation gone (its links now in a header): no row in the recorded regions.
    assert decide(ref, _account_links(nav="header[1]"), config).status == "ambiguous"
    # With a box recorded, the box is what tells tied rows apart: not this rule's.
    boxed = ref.model_copy(update={"bbox": (900.0, 10.0, 1010.0, 30.0)})
    assert decide(boxed, _account_links(), config).rule != "accept.shape_tie"
    # Recorded neighbours none of which is next to the row in the region: its twin stayed
    # there after the target went; not taken.
    near = ref.model_copy(update={"nearby_text": ("Checking", "Savings")})
    assert decide(near, _account_links(), config).status == "ambiguous"
    beside = decide(near, _account_links(near="Savings"), config)
    assert beside.status == "accepted" and beside.best is not None and beside.best.id == "menu"
    # The recorded xpath still selects a link (perhaps the target renamed): not taken.
    still = ref.model_copy(update={"xpath": "/html[1]/body[1]/div[1]/div[1]/nav[1]/div[1]/a[1]"})
    assert decide(still, _account_links(), config).rule != "accept.shape_tie"
    # Off when the lead asked of the tags is beyond reach.
    assert decide(ref, _account_links(), MatchConfig(path_tie=1.0)).status == "ambiguous"


def _section_menu(*, longer: str = "Stories & Reviews Home") -> CandidateTable:
    """A screenshot's menu: the link "Stories & Reviews" and, a line below and indented,
    the longer link ``longer``, with its words "Stories & Reviews" read as a link of their
    own inside it (a row under it, as a screenshot's table gives words read inside a run)."""
    b = TableBuilder("vision", "test")
    b.add("home", raw_role="text", role="link", name="Home", bbox=(48, 40, 92, 58))
    b.add("s", raw_role="text", role="link", name="Stories & Reviews", bbox=(48, 59, 170, 79))
    run = b.add("run", raw_role="text", role="link", name=longer, bbox=(92, 77, 241, 97))
    b.add("run.w", raw_role="text", role="link", name="Stories & Reviews", parent=run,
          bbox=(92, 77, 210, 97))  # fmt: skip
    b.add("ai", raw_role="text", role="link", name="Machine Learning", bbox=(92, 98, 220, 116))
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


MENU_LINK = SemanticElementRef(
    role="link", name="Stories & Reviews", bbox=(48.0, 42.0, 166.0, 59.0),
    screen_size=(1280, 800),
    nearby_text=("Home", "Stories & Reviews Home", "Machine Learning"),
)  # fmt: skip
"""Another tool's reference to the menu link: role, name, box and the texts around it, the
longer link below among them; a line since inserted above moved the menu down by 18 px."""


def test_words_inside_a_recorded_neighbours_text_are_no_look_alike() -> None:
    decision = decide(MENU_LINK, _section_menu(), MatchConfig())
    assert decision.status == "accepted" and decision.rule == "accept.neighbour_words"
    assert decision.best is not None and decision.best.id == "s"
    # Inside a text the reference did not record beside it, the words stay a look-alike.
    other = decide(MENU_LINK, _section_menu(longer="Stories & Reviews Archive"), MatchConfig())
    assert other.status == "ambiguous" and other.rule == "ambiguous.margin"
    # The best itself read inside the neighbour's text is not taken, nor the other for it.
    nearer = MENU_LINK.model_copy(update={"bbox": (75.0, 70.0, 195.0, 88.0)})
    inside = decide(nearer, _section_menu(), MatchConfig())
    assert inside.best is not None and inside.best.id == "run.w"
    assert inside.status == "ambiguous" and inside.rule == "ambiguous.margin"
