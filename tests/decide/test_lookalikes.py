"""Look-alikes: a survivor left where a removed target's look-alike was is not the target."""

from decide_helpers import reordered_links

from resolver import MatchConfig, SemanticElementRef
from resolver.decide import decide
from resolver.geometry import CoordSpace
from resolver.table import CandidateTable, TableBuilder


def _linked_paragraphs(texts: tuple[str, ...], linked: tuple[int, ...]) -> CandidateTable:
    """Paragraphs named by their text, one below another; those in ``linked`` hold a "link"
    link. Each link's XPath names its paragraph."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Page", bbox=(0, 0, 1280, 800))
    top = 100.0
    for k, text in enumerate(texts):
        par = b.add(f"p{k}", raw_role="group", name=text, parent=root, bbox=(8, top, 600, top + 20))
        if k in linked:
            b.add(f"a{k}", raw_role="link", name="link", parent=par, bbox=(8, top, 40, top + 17),
                  xpath=f"/html[1]/body[1]/p[{k + 1}]/a[1]")  # fmt: skip
        top += 30.0 if k in linked else 0.0
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_a_group_gone_with_its_place_leaves_a_slid_look_alike_unanswered() -> None:
    # Recorded: the 2nd of three "link" links, in a section the page no longer names so.
    ref = SemanticElementRef(
        role="link", name="link", bbox=(8.0, 130.0, 40.0, 147.0), screen_size=(1280, 800),
        container_path=("Links and images",), xpath="/html[1]/body[1]/p[2]/a[1]",
        occurrence=(1, 3), lookalikes=((8.0, 100.0, 40.0, 117.0), (8.0, 160.0, 40.0, 177.0)),
        coord_space="css_px",
    )  # fmt: skip
    # The link went: no row of the recorded group is left (no container signal either),
    # fewer "link" links are, and the recorded xpath selects nothing. The third link slid
    # into the target's place.
    texts = ("Lorem link zero", "Lorem one", "Lorem link two")
    gone = decide(ref, _linked_paragraphs(texts, (0, 2)), MatchConfig())
    assert gone.status == "ambiguous" and gone.rule == "ambiguous.lookalike_path"
    # No link went: the target is answered.
    reworded = ("Lorem link nil", "Lorem link uno", "Lorem link two")
    kept = decide(ref, _linked_paragraphs(reworded, (0, 1, 2)), MatchConfig())
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "a1"
    # Nine links, look-alikes past the recorded list's cap of 8 boxes: the recorded
    # occurrence counts them. All nine left, the page reshaped (the xpath selects nothing):
    # answered.
    many = ref.model_copy(update={
        "occurrence": (1, 9), "xpath": "/html[1]/body[1]/div[1]/p[2]/a[1]",
        "lookalikes": tuple((8.0, y, 40.0, y + 17.0) for y in (100.0, *range(160, 370, 30))),
    })  # fmt: skip
    nine = _linked_paragraphs(tuple(f"Lorem {k}" for k in range(9)), tuple(range(9)))
    assert decide(many, nine, MatchConfig()).status == "accepted"


def test_a_surviving_look_alike_linking_elsewhere_is_not_the_target() -> None:
    # Two "Read" links to different stories; the upper one (the target) went, and the lower
    # one slid into its place: of its group, but linking to the other story.
    b = TableBuilder("a11y", "test", id_columns=("href",))
    root = b.add("doc", raw_role="RootWebArea", name="Page", bbox=(0, 0, 1280, 800))
    b.add("r", raw_role="link", name="Read", parent=root, bbox=(8, 100, 208, 120), href="/b")
    table = b.build(coord_space=CoordSpace.CSS_PX, screen_size=(1280.0, 800.0))
    ref = SemanticElementRef(role="link", name="Read", href="/a", bbox=(8.0, 100.0, 208.0, 120.0),
                             container_path=("Page",), occurrence=(0, 2),
                             lookalikes=((8.0, 400.0, 208.0, 420.0),), coord_space="css_px",
                             screen_size=(1280, 800))  # fmt: skip
    gone = decide(ref, table, MatchConfig())
    assert gone.status == "not_found" and gone.rule == "refuse.survivor_link"
    # The same link: the target, whose look-alike went.
    kept = decide(ref.model_copy(update={"href": "/b"}), table, MatchConfig())
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "r"


def _slid_twins(first: str, *, grouped: bool = False) -> CandidateTable:
    """Two "Read" links left of a row of three: the second slid into the first's place.
    ``first`` is the XPath of the link now on the left; ``grouped`` puts the other link in a
    named group of its own, lower down."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Page", bbox=(0, 0, 1280, 800))
    b.add("t", raw_role="StaticText", name="Intro", parent=root, bbox=(8, 40, 200, 60))
    group = b.add("g", raw_role="group", name="More", parent=root) if grouped else root
    places = ((8, 100, first), (240, 600 if grouped else 100, "/html[1]/body[1]/div[1]/a[1]"))
    for k, (x, y, xpath) in enumerate(places):
        b.add(f"r{k}", raw_role="link", name="Read", parent=group if k else root,
              bbox=(x, y, x + 200, y + 20), xpath=xpath)  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0))


def test_a_gone_look_alike_and_a_gone_path_leave_the_slid_twin_unanswered() -> None:
    ref = SemanticElementRef(
        role="link", name="Read", bbox=(8.0, 100.0, 208.0, 120.0), container_path=("Page",),
        xpath="/html[1]/body[1]/p[1]/span[1]/a[1]", occurrence=(0, 3), screen_size=(1280, 800),
        lookalikes=((240.0, 100.0, 440.0, 120.0), (472.0, 100.0, 672.0, 120.0)),
    )  # fmt: skip
    # The recorded place in the document is gone: the first link may be a survivor.
    slid = _slid_twins("/html[1]/body[1]/p[1]/span[2]/a[1]")
    gone = decide(ref, slid, MatchConfig())
    assert gone.status == "ambiguous" and gone.rule == "ambiguous.lookalike_path"
    # Still there (another look-alike went): answered.
    kept = decide(ref, _slid_twins("/html[1]/body[1]/p[1]/span[1]/a[1]"), MatchConfig())
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "r0"
    # With every look-alike left (the page was reshaped, none removed), a changed path
    # alone refuses nothing.
    whole = ref.model_copy(update={"occurrence": None, "lookalikes": ref.lookalikes[:1]})
    assert decide(whole, slid, MatchConfig()).status == "accepted"
    # ... also when a look-alike left the recorded group for another one.
    pair = ref.model_copy(update={"occurrence": (0, 2), "lookalikes": ref.lookalikes[:1]})
    regrouped = _slid_twins("/html[1]/body[1]/p[1]/span[2]/a[1]", grouped=True)
    assert decide(pair, regrouped, MatchConfig()).status == "accepted"


def _unnamed_links(href: str) -> CandidateTable:
    b = TableBuilder("a11y", "test", id_columns=("xpath", "href"))
    root = b.add("doc", raw_role="RootWebArea", name="Wiki", bbox=(0, 0, 1280, 800))
    b.add("i", raw_role="link", name="", parent=root, bbox=(40, 200, 140, 260),
          xpath="/html[1]/body[1]/article[1]/a[3]", href=href)  # fmt: skip
    b.add("t", raw_role="StaticText", name="Han Solo", parent=root, bbox=(40, 270, 140, 290))
    texts = ("Falcon", "Hoth", "Endor", "Naboo", "Leia", "Luke")  # the last two far below
    for k, text in enumerate(texts):
        b.add(f"s{k}", raw_role="StaticText", name=text, parent=root,
              bbox=(40, 300 + 300 * k, 140, 320 + 300 * k))  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_an_unnamed_reference_is_not_answered_by_a_link_to_another_address() -> None:
    # An image link without a name was removed; the next one slid into its place.
    ref = SemanticElementRef(
        role="link", bbox=(40, 200, 140, 260), screen_size=(1280, 800),
        xpath="/html[1]/body[1]/article[1]/a[4]", href="https://wiki.example/f/solo.png",
    )  # fmt: skip
    config = MatchConfig()
    other = decide(ref, _unnamed_links("https://wiki.example/f/falcon.png"), config)
    assert other.status == "not_found" and other.rule == "refuse.unnamed"
    same = decide(ref, _unnamed_links("https://wiki.example/f/solo.png"), config)
    assert same.status == "accepted" and same.best is not None and same.best.id == "i"
    # No link recorded: its place must speak for it. Recorded 300 px lower, by "Han Solo"
    # and "Leia", the link up here is not it; recorded where it is, it is.
    placeless = ref.model_copy(
        update={
            "href": None, "bbox": (40, 500, 140, 560), "container_path": ("Wiki",),
            "nearby_text": ("Han Solo", "Leia"),
        }
    )  # fmt: skip
    away = decide(placeless, _unnamed_links("https://wiki.example/f/falcon.png"), config)
    assert away.status == "not_found" and away.rule == "refuse.unnamed"
    here = placeless.model_copy(update={"bbox": (40, 200, 140, 260)})
    assert decide(here, _unnamed_links("https://wiki.example/f/falcon.png"), config).status == (
        "accepted"
    )


def _tag_lists(both: bool) -> CandidateTable:
    """Two dated entries, each with a "PostgreSQL" tag link; ``both=False``: the first
    entry's link was removed."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Notes", bbox=(0, 0, 1280, 800))
    for k, date in enumerate(("13 August 2019", "11 May 2017")):
        text = f"{date}: anomaly detection in PostgreSQL with plain SQL"
        item = b.add(f"e{k}", raw_role="listitem", name=text, parent=root,
                     bbox=(40, 100 + 200 * k, 600, 180 + 200 * k))  # fmt: skip
        if both or k:
            b.add(f"p{k}", raw_role="link", name="PostgreSQL", parent=item,
                  bbox=(60, 150 + 200 * k, 150, 165 + 200 * k),
                  xpath=f"/html[1]/body[1]/ul[1]/li[{k + 1}]/a[1]")  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def _search_field(read: bool) -> CandidateTable:
    """A search form: a text field showing "Buscar contenido" and its button, as a
    screenshot reads them (``read``) or as a tree holds them."""
    b = TableBuilder("vision" if read else "a11y", "test")
    b.add("f", raw_role="rect", role="textbox", name="Buscar contenido", bbox=(10, 46, 184, 64))
    b.add("b", raw_role="rect", role="button", name="Buscar", bbox=(188, 46, 240, 64))
    b.add("t", raw_role="text", role="link", name="Deportes", bbox=(10, 20, 80, 38))
    extra = {"names_read": True} if read else {}
    return b.build(screen_size=(1280.0, 800.0), **extra)


def test_an_unnamed_search_field_is_the_text_field_a_screenshot_draws_there() -> None:
    ref = SemanticElementRef(
        role="searchbox", bbox=(8.0, 44.0, 185.0, 65.0), screen_size=(1280, 800),
        nearby_text=("Deportes",),
    )  # fmt: skip
    on_screen = decide(ref, _search_field(read=True), MatchConfig())
    assert on_screen.status == "accepted" and on_screen.best is not None
    assert on_screen.best.id == "f"
    # A tree says which role the field has: a text field is another element there.
    in_tree = decide(ref, _search_field(read=False), MatchConfig())
    assert in_tree.status == "not_found" and in_tree.rule == "refuse.unnamed"


def _radios(read: bool = True) -> CandidateTable:
    """Three radios down a list, the middle one's circle taken for an icon (as a screenshot
    may draw it), each label beside its circle."""
    b = TableBuilder("vision" if read else "a11y", "test")
    b.add("a", raw_role="radio", role="radio", name="Full Archive", bbox=(59, 399, 75, 415))
    b.add("c", raw_role="icon", role="button", bbox=(59, 519, 77, 534))
    b.add("v", raw_role="radio", role="radio", name="Videos", bbox=(59, 539, 75, 555))
    for k, (text, top) in enumerate((("Full Archive", 399), ("Covers", 519), ("Videos", 539))):
        b.add(f"t{k}", raw_role="text", role="text", name=text, bbox=(80, top, 160, top + 16))
    extra = {"names_read": True} if read else {}
    return b.build(screen_size=(1280.0, 800.0), **extra)


def test_an_unnamed_control_is_not_its_neighbour_when_another_shape_fills_its_box() -> None:
    ref = SemanticElementRef(role="radio", bbox=(60, 520, 73, 533), screen_size=(1280, 800))
    beside = decide(ref, _radios(), MatchConfig())
    assert beside.status == "not_found" and beside.rule == "refuse.unnamed"
    assert "something else is drawn" in beside.reason
    # Recorded where "Videos" is drawn, it is "Videos"; a tree's rows are not read so.
    videos = ref.model_copy(update={"bbox": (60, 540, 73, 553)})
    found = decide(videos, _radios(), MatchConfig())
    assert found.status == "accepted" and found.best is not None and found.best.id == "v"
    assert "something else" not in decide(ref, _radios(read=False), MatchConfig()).reason


def _placeholder_above_a_box() -> CandidateTable:
    """A screenshot of a field whose border went unseen (a link above touches it): its
    placeholder read where it was, and a wider box 50 px below, the nearest of its role."""
    b = TableBuilder("vision", "test")
    b.add("p", raw_role="text", role="text", name="keyword, company, ticker",
          bbox=(27, 114, 180, 131))  # fmt: skip
    b.add("x", raw_role="rect", role="textbox", name="", bbox=(9, 162, 408, 213))
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


def _refused_for_what_is_drawn(ref: SemanticElementRef) -> None:
    refused = decide(ref, _placeholder_above_a_box(), MatchConfig())
    assert refused.status == "not_found" and refused.rule == "refuse.unnamed"
    assert "something else is drawn" in refused.reason


def test_an_unnamed_field_is_not_the_box_below_when_its_placeholder_is_read_in_its_box() -> None:
    ref = SemanticElementRef(role="textbox", bbox=(24, 111.6, 201, 132.6), screen_size=(1280, 800))
    _refused_for_what_is_drawn(ref)


def test_an_unnamed_field_from_a_wider_window_is_judged_at_every_reading_of_its_box() -> None:
    # The same field recorded in a 1440x900 window with the page centred: the box is 80 px
    # further right. Re-centred it lies on the placeholder read in it, and the wider box
    # below lies off every reading of it.
    ref = SemanticElementRef(role="textbox", bbox=(104, 111.6, 281, 132.6), screen_size=(1440, 900))
    _refused_for_what_is_drawn(ref)


def test_a_namesake_in_another_container_is_not_taken_when_a_look_alike_is_gone() -> None:
    ref = SemanticElementRef(
        role="link", name="PostgreSQL", bbox=(60, 150, 150, 165), screen_size=(1280, 800),
        container_path=("Notes", "13 August 2019: anomaly detection in PostgreSQL with plain SQL"),
        lookalikes=((900, 700, 990, 715),),  # the look-alike was elsewhere (since moved up)
        xpath="/html[1]/body[1]/ul[1]/li[1]/span[1]/a[1]",
    )  # fmt: skip
    config = MatchConfig()
    gone = decide(ref, _tag_lists(False), config)
    assert gone.status != "accepted"
    assert gone.rule == "refuse.shrunk_group"
    # Both still there: the target, in its container, is answered.
    both = decide(ref, _tag_lists(True), config)
    assert both.status == "accepted" and both.best is not None and both.best.id == "p0"


def _tagged_posts(posts: tuple[tuple[str, float], ...]) -> CandidateTable:
    """Posts ``(year, top)``, each a group named by its year holding a tag list that reads
    alike in every post ("Tags: PostgreSQL, SQL") with one "PostgreSQL" link."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Notes", bbox=(0, 0, 1280, 800))
    for k, (year, top) in enumerate(posts):
        post = b.add(f"g{k}", raw_role="group", name=f"Posts of {year}", parent=root,
                     bbox=(20, top - 40, 700, top + 40))  # fmt: skip
        item = b.add(f"l{k}", raw_role="listitem", name="Tags: PostgreSQL, SQL", parent=post,
                     bbox=(40, top, 600, top + 20))  # fmt: skip
        b.add(f"p{k}", raw_role="link", name="PostgreSQL", parent=item,
              bbox=(90, top, 170, top + 17),
              xpath=f"/html[1]/body[1]/section[{k + 1}]/a[1]")  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_the_survivor_in_a_look_alike_container_is_not_taken_for_a_removed_target() -> None:
    # Recorded: the 2019 post's tag link; its look-alikes in two posts 300 and 600 px lower.
    ref = SemanticElementRef(
        role="link", name="PostgreSQL", bbox=(90, 100, 170, 117), screen_size=(1280, 800),
        container_path=("Notes", "Posts of 2019", "Tags: PostgreSQL, SQL"),
        lookalikes=((90, 400, 170, 417), (90, 700, 170, 717)),
        xpath="/html[1]/body[1]/section[1]/div[1]/a[1]",
    )  # fmt: skip
    config = MatchConfig()
    # The 2019 link removed: the 2017 one, at its recorded place and nearest to where the
    # target was, is its survivor, though its tag list reads the same.
    gone = decide(ref, _tagged_posts((("2017", 400),)), config)
    assert gone.status == "not_found" and gone.rule == "refuse.lookalike_place"
    # The posts were reordered and one went: a namesake lies nearer to the target's place,
    # so the place no longer tells, and the container does.
    moved = decide(ref, _tagged_posts((("Drafts", 250), ("2019", 400))), config)
    assert moved.status == "accepted" and moved.best is not None and moved.best.id == "p1"


def _pictures(boxes: tuple[tuple[float, float, float, float], ...]) -> CandidateTable:
    """Images of one caption at ``boxes`` (a picture and the placeholder drawn around it)."""
    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Profiling", bbox=(0, 0, 1280, 800))
    for k, box in enumerate(boxes):
        b.add(f"i{k}", raw_role="image", name="CPU profile", parent=root, bbox=box)
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_the_placeholder_drawn_around_a_removed_picture_is_not_the_picture() -> None:
    # Recorded: the picture, and its look-alike, the placeholder around it (one centre).
    picture, placeholder = (64.0, 200.0, 1216.0, 700.0), (6.0, 164.0, 1274.0, 736.0)
    ref = SemanticElementRef(role="img", name="CPU profile", bbox=picture, screen_size=(1280, 800),
                             lookalikes=(placeholder,), coord_space="css_px")  # fmt: skip
    gone = decide(ref, _pictures((placeholder,)), MatchConfig())
    assert gone.status == "not_found" and gone.rule == "refuse.lookalike_place"
    # The placeholder went instead: the picture, at its own box, is answered.
    kept = decide(ref, _pictures((picture,)), MatchConfig())
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "i0"


def _replies_left(top: float) -> CandidateTable:
    """One "Reply" link left of two, its top at ``top``, beside the post it answers."""
    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Thread", bbox=(0, 0, 1280, 800))
    b.add("post", raw_role="StaticText", name="First post", parent=root,
          bbox=(100, top - 30, 400, top - 10))  # fmt: skip
    b.add("reply", raw_role="link", name="Reply", parent=root, bbox=(100, top, 160, top + 20))
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_a_target_that_moved_while_its_look_alike_went_is_still_found() -> None:
    # Two "Reply" links were recorded; the second went, and the page above the first grew,
    # so it moved down 40 px. It is nearer to where it was than to where the other was, and
    # the rules that refuse a survivor find none: it is the target.
    ref = SemanticElementRef(
        role="link", name="Reply", bbox=(100, 300, 160, 320), screen_size=(1280, 800),
        container_path=("Thread",), occurrence=(0, 2), lookalikes=((100, 600, 160, 620),),
        nearby_text=("First post",),
    )  # fmt: skip
    moved = decide(ref, _replies_left(340.0), MatchConfig())
    assert moved.status == "accepted" and moved.best is not None and moved.best.id == "reply"
    # Where the other one was, it is that one's survivor.
    there = decide(ref, _replies_left(600.0), MatchConfig())
    assert there.status != "accepted"


def test_an_answer_linking_elsewhere_while_a_namesake_links_there_is_a_tie() -> None:
    # As above, the paragraphs far apart: the recorded path and box put the link to /c well
    # ahead of the link to /a. The ranking followed the slot, not the element.
    ref = SemanticElementRef(
        role="link", name="link", href="https://site.test/a", bbox=(8, 100, 40, 117),
        xpath="/html[1]/body[1]/p[1]/a[1]", coord_space="css_px", screen_size=(1280, 800),
    )  # fmt: skip
    hrefs = ("https://site.test/c", "https://site.test/b", "https://site.test/a")
    moved = decide(ref, reordered_links(hrefs, gap=300.0), MatchConfig())
    assert "ambiguous.namesake_link" in moved.rules
    # The link to /a, the only one linking there, is then taken.
    assert moved.status == "accepted" and moved.rule == "accept.link_there"
    assert moved.best is not None and moved.best.id == "a2"


def _clone_fields() -> CandidateTable:
    """A screen whose banner pushed two address fields below the fold: a search field
    is left where they were, and none of the texts recorded next to them is read."""
    b = TableBuilder("vision", "test")
    b.add("s", raw_role="rect", role="textbox", name="Search or type a command",
          bbox=(7, 544, 187, 568))  # fmt: skip
    b.add("t", raw_role="text", role="text", name="This repository", bbox=(10, 598, 105, 628))
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


def test_an_unnamed_field_is_not_a_field_off_its_box_when_no_neighbour_is_read() -> None:
    ref = SemanticElementRef(
        role="textbox", bbox=(8.0, 590.3, 185.0, 611.3), screen_size=(1280, 800),
        nearby_text=("clone URL", "HTTPS"),
    )  # fmt: skip
    refused = decide(ref, _clone_fields(), MatchConfig())
    assert refused.status == "not_found" and refused.rule == "refuse.unnamed"
    # With a recorded neighbour read on the screen, the neighbours speak for themselves.
    b = TableBuilder("vision", "test")
    b.add("s", raw_role="rect", role="textbox", name="", bbox=(7, 544, 187, 568))
    b.add("h", raw_role="text", role="text", name="HTTPS", bbox=(10, 520, 60, 540))
    b.add("c", raw_role="text", role="text", name="clone URL", bbox=(66, 520, 160, 540))
    read = decide(ref, b.build(screen_size=(1280.0, 800.0), names_read=True), MatchConfig())
    assert read.status == "accepted" and read.rule == "accept.score"
    # Overlapping the recorded box, the field is where the target was.
    near = ref.model_copy(update={"bbox": (8.0, 550.0, 185.0, 571.0)})
    kept = decide(near, _clone_fields(), MatchConfig())
    assert kept.status == "accepted" and kept.rule == "accept.score"
