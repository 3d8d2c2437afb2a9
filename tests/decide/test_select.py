"""Selection: recorded selectors verified before judging, and the control over its label."""

import pytest
from decide_helpers import _buttons, reordered_links

from resolver import MatchConfig, ResolutionError, SemanticElementRef, resolve
from resolver.decide import decide, prefer_control, verify_selector
from resolver.matcher import score_table
from resolver.observation import Observation
from resolver.table import CandidateTable, TableBuilder


def test_control_preferred_over_its_label() -> None:
    table, config = _buttons(), MatchConfig(min_margin=0.2)
    ref = SemanticElementRef(name="Help", bbox=(10, 10, 30, 30))  # the icon's own box
    scored = score_table(ref, table, config)
    assert table.ids[int(scored.rows[0])] == "li"
    preferred = prefer_control(table, scored, config)
    assert table.ids[int(preferred.rows[0])] == "l"


def _selectable() -> CandidateTable:
    b = TableBuilder("dom", "fake", executor_prefix="xpath:")
    b.add("/b[1]", raw_role="button", name="Save")
    b.add("/b[2]", raw_role="button", name="Save as")
    table = b.build()
    rows = {"#save": [0], "#as": [1]}
    object.__setattr__(table, "selector_resolver", lambda kind, sel: rows.get(sel, []))
    return table


@pytest.mark.parametrize(
    ("ref", "config", "verified"),
    [
        (SemanticElementRef(role="button", name="Save", css_selector="#save"), MatchConfig(), True),
        # the name of the selected element disagrees with the recorded one
        (SemanticElementRef(role="button", name="Save", css_selector="#as"), MatchConfig(), False),
        # ... unless the caller lowers the bar
        (
            SemanticElementRef(role="button", name="Save", css_selector="#as"),
            MatchConfig(selector_name=0.5, threshold=0.5, min_margin=0.5),
            True,
        ),
        # a link is not a button enough when the bar is high
        (
            SemanticElementRef(role="link", name="Save", css_selector="#save"),
            MatchConfig(selector_role=0.9),
            False,
        ),
    ],
)
def test_selector_verification(
    ref: SemanticElementRef, config: MatchConfig, verified: bool
) -> None:
    table = _selectable()
    found = verify_selector(ref, table, config, score_table(ref, table, config))
    assert (found is not None) == verified
    if found is not None:
        assert found[2] == f"css:{ref.css_selector}"


def test_a_label_repeating_its_control_gives_way_even_when_ahead() -> None:
    from resolver import Observation, SemanticElementRef, resolve

    # The link's target changed (evidence only the link carries); its text child, which
    # has no link target, would lead by more than the margin. They are one click target.
    tree = {"id": "r", "role": "document", "name": "P", "children": [
        {"id": "a", "role": "link", "name": "Forgot password?", "bbox": [10, 10, 130, 26],
         "attributes": {"href": "/reset"}, "children": [
            {"id": "t", "role": "text", "name": "Forgot password?", "bbox": [10, 10, 130, 26]}]},
        {"id": "b", "role": "button", "name": "Sign in", "bbox": [10, 40, 90, 60]}]}  # fmt: skip
    ref = SemanticElementRef(name="Forgot password?", href="/forgot", bbox=(10, 10, 130, 26))
    assert resolve(ref, Observation(accessibility_tree=tree)).executor_id == "a11y:a"
    # A reference that asks for the label itself still gets it.
    text = SemanticElementRef(role="text", name="Forgot password?", bbox=(10, 10, 130, 26))
    assert resolve(text, Observation(accessibility_tree=tree)).executor_id in ("a11y:t", "a11y:a")


def _legal_links(*, first: bool) -> CandidateTable:
    """Two "Acuerdo del usuario" links to different pages, one above the other; ``first``
    False removes the upper one, and the lower one moves up to 60 px."""
    upper = '<a href="/acuerdo">Acuerdo del usuario</a>' if first else ""
    html = f"""<html><body><div id="legal"><p>Aviso</p>{upper}
    <a href="/privacidad">Acuerdo del usuario</a></div></body></html>"""
    layout = {"/html/body/div/p": [100, 0, 400, 10]}
    if first:
        layout["/html/body/div/a[1]"] = [100, 10, 240, 30]
        layout["/html/body/div/a[2]"] = [100, 100, 240, 120]
    else:
        layout["/html/body/div/a"] = [100, 60, 240, 80]
    return Observation(dom_html=html, dom_layout=layout).candidates("dom")


def test_a_positional_selector_is_not_trusted_to_a_look_alike_linking_elsewhere() -> None:
    ref = SemanticElementRef(
        role="link", name="Acuerdo del usuario", href="/acuerdo", bbox=(100, 10, 240, 30),
        css_selector="#legal > a:nth-of-type(1)", xpath="/html[1]/body[1]/div[1]/a[1]",
        lookalikes=((100, 100, 240, 120),), occurrence=(0, 2), coord_space="css_px",
    )  # fmt: skip
    config = MatchConfig()
    kept = decide(ref, _legal_links(first=True), config)
    assert kept.status == "accepted" and kept.rule == "accept.verified_selector"
    # The upper link went: the selector now selects the lower one, 50 px off the recorded
    # place and linking elsewhere. With a look-alike gone, the matcher judges it instead.
    gone = decide(ref, _legal_links(first=False), config)
    assert gone.status != "accepted" and "accept.verified_selector" not in gone.rules


def _shared_links() -> CandidateTable:
    from resolver.adapters._common import XPATH_KEYS

    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("0", raw_role="RootWebArea", name="News")
    for k, y in enumerate((100, 130)):
        b.add(f"s{k}", raw_role="link", name="Share", parent=root, bbox=(20, y, 120, y + 20),
              xpath=f"/html[1]/body[1]/p[{k + 1}]/a[1]")  # fmt: skip
    return b.build(coord_space="css_px", id_keys=XPATH_KEYS)


def test_an_accessibility_tree_with_xpaths_breaks_a_tie_with_the_recorded_xpath() -> None:
    # Two "Share" links 30 px apart, the recorded box nearer the second: a tie by the box.
    table, config = _shared_links(), MatchConfig()
    loose = SemanticElementRef(role="link", name="Share", bbox=(20, 116, 120, 136))
    assert decide(loose, table, config).status == "ambiguous"
    recorded = loose.model_copy(update={"xpath": "/html/body/p[2]/a"})
    decision = decide(recorded, table, config)
    assert decision.status == "accepted" and decision.best is not None
    assert decision.best.id == "s1" and decision.rule == "accept.verified_selector"
    # A reference that recorded its look-alikes gets the tie-break while they are all still
    # there (the target and one look-alike: two namesakes), not when one more or one fewer
    # is (the document places moved); and an xpath that selects the row the box puts second
    # does not overturn the ranking.
    ours = recorded.model_copy(update={"lookalikes": ((20, 100, 120, 120),)})
    assert decide(ours, table, config).status == "accepted"
    more = recorded.model_copy(update={"lookalikes": ((20, 100, 120, 120), (20, 300, 120, 320))})
    assert decide(more, table, config).status == "ambiguous"
    nearer_first = recorded.model_copy(update={"bbox": (20, 108, 120, 128)})
    assert decide(nearer_first, table, config).status == "ambiguous"


def test_a_selected_row_whose_number_differs_does_not_agree_while_the_namesake_is_there() -> None:
    from resolver.decide.select import agrees as _agrees

    def page(*names: str) -> CandidateTable:
        b = TableBuilder("a11y", "test")
        root = b.add("0", raw_role="RootWebArea", name="Gallery")
        for k, name in enumerate(names):
            b.add(
                f"i{k}", raw_role="img", name=name, parent=root, bbox=(8, 20 * k, 76, 20 * k + 18)
            )
        return b.build()

    ref = SemanticElementRef(role="image", name="Image 2")
    config = MatchConfig()
    swapped = page("Image 1", "Image 2")  # the two traded places: the slot holds "Image 1"
    assert not _agrees(ref, swapped, 1, config)
    assert _agrees(ref, swapped, 2, config)
    renumbered = page("Image 1", "Image 3")  # the target's number changed: no namesake left
    assert _agrees(ref, renumbered, 1, config)


def _article_pushed_down(
    shift: float, gap: float = 34, second_href: str = "https://blog.example/post/2"
) -> CandidateTable:
    """Four "Read more" links in paragraphs ``gap`` px apart, all to the same post but the
    second to ``second_href``, the whole article pushed down by ``shift``."""
    b = TableBuilder("a11y", "test", id_columns=("xpath", "href"))
    root = b.add("doc", raw_role="RootWebArea", name="Page", bbox=(0, 0, 1280, 800))
    for k in range(4):
        top = 150 + gap * k + shift
        href = second_href if k == 1 else "https://blog.example/post/2"
        b.add(f"a{k + 1}", raw_role="link", name="Read more", parent=root,
              bbox=(8, top, 90, top + 17), xpath=f"/html[1]/body[1]/article[1]/p[{k + 1}]/a[1]",
              href=href)  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_a_recorded_xpath_outweighs_a_page_shift_on_an_accessibility_tree() -> None:
    # A foreign recorder's reference (no look-alikes recorded) to the second of four
    # "Read more" links; a banner then pushed the article down by 80 px.
    ref = SemanticElementRef(
        role="link", name="Read more", bbox=(8, 184, 90, 201), screen_size=(1280, 800),
        xpath="/html[1]/body[1]/article[1]/p[2]/a[1]", href="https://blog.example/post/2",
    )  # fmt: skip
    config = MatchConfig()
    pushed = decide(ref, _article_pushed_down(80), config)
    # Nothing sits at the recorded place: place no longer tells the twins apart, the
    # document place does.
    assert pushed.status == "accepted" and pushed.best is not None and pushed.best.id == "a2"
    # Links 20 px apart pushed by 16 px: the first now sits at the recorded place, which
    # speaks for it, and the xpath does not overturn that (the twins may have been reordered).
    close = ref.model_copy(update={"bbox": (8, 170, 90, 187)})
    held = decide(close, _article_pushed_down(16, gap=20), config)
    assert held.status == "ambiguous" and held.best is not None and held.best.id == "a1"
    # The row under the xpath agrees less on something other than place (its link now has a
    # fragment, the others link exactly where the recorded one did): the xpath does not
    # overturn that, however far the page moved.
    elsewhere = decide(ref, _article_pushed_down(300, second_href="https://blog.example/post/2#top"),
                       config)  # fmt: skip
    assert elsewhere.status == "ambiguous" and elsewhere.best is not None
    assert elsewhere.best.id == "a1"


def _illustrations(*tops: float) -> CandidateTable:
    """Images named "Illustration" at the given tops, each selected by its own css."""
    b = TableBuilder("dom", "fake", executor_prefix="xpath:")
    for k, top in enumerate(tops):
        b.add(f"/html[1]/body[1]/img[{k + 1}]", raw_role="img", name="Illustration",
              bbox=(8, top, 9, top + 1))  # fmt: skip
    table = b.build(coord_space="css_px")
    rows = {f"body > img:nth-of-type({k + 1})": [k] for k in range(len(tops))}
    object.__setattr__(table, "selector_resolver", lambda kind, sel: rows.get(sel, []))
    return table


def test_a_positional_selector_is_not_trusted_to_a_namesake_elsewhere_when_one_is_gone() -> None:
    # Recorded: the first of two 1-px images, at y=21, with its look-alike at y=117.
    ref = SemanticElementRef(
        role="image", name="Illustration", bbox=(8, 21, 9, 22),
        css_selector="body > img:nth-of-type(1)", lookalikes=((8, 117, 9, 118),),
    )  # fmt: skip
    config = MatchConfig()
    both = decide(ref, _illustrations(21, 117), config)
    assert both.status == "accepted" and both.best is not None
    assert both.best.id == "/html[1]/body[1]/img[1]" and both.rule == "accept.verified_selector"
    # The target was removed: its selector now selects the look-alike, far from its place.
    gone = decide(ref, _illustrations(117), config)
    assert "accept.verified_selector" not in gone.rules
    assert gone.status != "accepted"
    # A look-alike gone, the one selected still at the target's place: trusted.
    held = decide(ref, _illustrations(21), config)
    assert held.status == "accepted" and held.rule == "accept.verified_selector"


def _teaser_links(title: str | None) -> CandidateTable:
    """A teaser on an accessibility tree with xpaths: the category link "Football", a title
    link named ``title`` (None: removed, so the links after it move up a slot), then a
    longer link under the teaser's picture."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="News", bbox=(0, 0, 1280, 800))
    links = [("cat", "Football", (8.0, 280.0, 76.0, 297.0))]
    if title is not None:
        links.append(("title", title, (8.0, 300.0, 300.0, 317.0)))
    links.append(("more", "Football Mosquera stood me up", (8.0, 520.0, 400.0, 537.0)))
    for k, (key, name, box) in enumerate(links):
        b.add(key, raw_role="link", name=name, parent=root, bbox=box,
              xpath=f"/html[1]/body[1]/div[1]/a[{k + 1}]")  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_a_renamed_row_a_selector_selects_away_from_the_targets_place_is_not_verified() -> None:
    ref = SemanticElementRef(
        role="link", name="Mosquera stood me up", bbox=(8, 300, 300, 317),
        screen_size=(1280, 800), xpath="/html[1]/body[1]/div[1]/a[2]",
        nearby_text=("Football", "Football Mosquera stood me up"),
        anchors=(("Football", (8.0, 280.0, 76.0, 297.0)),),
    )  # fmt: skip
    config = MatchConfig()
    # The title link went: its slot now holds the link under the picture, 200 px lower, a
    # neighbour recorded beside the target. The selector does not vouch for it.
    gone = decide(ref, _teaser_links(None), config)
    assert gone.status == "not_found" and "accept.verified_selector" not in gone.rules
    # The title renamed in its place keeps the selector's word.
    renamed = decide(ref, _teaser_links("Mosquera stood me up again"), config)
    assert renamed.status == "accepted" and renamed.rule == "accept.verified_selector"
    assert renamed.best is not None and renamed.best.id == "title"
    # Without anchors the page's shift is unknown (a banner may have pushed everything
    # down), so the place is not asked.
    blind = ref.model_copy(update={"anchors": ()})
    assert decide(blind, _teaser_links(None), config).rule == "accept.verified_selector"


def test_a_removed_control_is_not_answered_by_its_opposite() -> None:
    # "Follow" went; the "Unfollow" beside it slid into its nth-of-type slot. By letters the
    # two agree (0.86), by meaning not at all.
    def page(*links: str) -> CandidateTable:
        items = "".join(f'<a class="button" href="#f">{text}</a>' for text in links)
        html = f'<html><body><div id="card">{items}</div></body></html>'
        return Observation(dom_html=html).candidates("dom")

    ref = SemanticElementRef(role="link", name="Follow", tag="a", classes=("button",),
                             href="#f", css_selector="#card > a:nth-of-type(1)",
                             xpath="/html[1]/body[1]/div[1]/a[1]")  # fmt: skip
    config = MatchConfig()
    assert decide(ref, page("Follow", "Unfollow"), config).status == "accepted"
    assert decide(ref, page("Unfollow"), config).status == "not_found"
    # Renamed a little in its slot, it is still the target.
    assert decide(ref, page("Follow us", "Unfollow"), config).status == "accepted"


def _repeated_links(near_target: tuple[str, ...]) -> Observation:
    """Three links named "link" in reading order, with page texts around them: "Alpha" and
    "Beta" before the third, ``near_target`` before the second; fillers keep the texts of
    one link out of another's window. No boxes."""
    base = "/html[1]/body[1]/article[1]"
    nodes: list[dict[str, object]] = []

    def texts(*names: str) -> None:
        nodes.extend({"role": "text", "name": name} for name in names)

    def link(key: str, step: int) -> None:
        nodes.append({"id": key, "role": "link", "name": "link", "xpath": f"{base}/p[{step}]/a[1]"})

    texts("Intro")
    link("a", 2)
    texts(*(f"first filler {k}" for k in range(5)), *near_target)
    link("b", 4)
    texts(*(f"second filler {k}" for k in range(5)), "Alpha", "Beta")
    link("c", 8)
    texts(*(f"last filler {k}" for k in range(5)), "Gamma", "Delta")
    return Observation(accessibility_tree={"role": "document", "name": "", "children": nodes})


def test_a_recorded_xpath_without_a_box_outweighs_nearby_texts_read_otherwise() -> None:
    # A reference without a box (a test script's): its xpath selects the second link, next
    # to one of its four recorded neighbour texts; the third link is next to two of them (a
    # recorder read them otherwise than the page's order has them). The xpath decides, as
    # it does for a reference whose box the page moved away from.
    ref = SemanticElementRef(
        role="link", name="link", xpath="/html[1]/body[1]/article[1]/p[4]/a[1]",
        nearby_text=("Alpha", "Beta", "Gamma", "Delta"),
    )  # fmt: skip
    found = resolve(ref, _repeated_links(("Gamma",)), sources=("a11y",))
    assert found.executor_id == "a11y:b" and found.rule == "accept.verified_selector"
    # None of the recorded texts by the second link, two by the third: the xpath may name
    # a neighbour after a reorder, and it does not decide.
    assert _answer(ref, _repeated_links(())) != "a11y:b"
    # With no slack at all, one text fewer is enough to keep the xpath out.
    strict = MatchConfig(xpath_nearby_slack=0.0)
    assert _answer(ref, _repeated_links(("Gamma",)), strict) != "a11y:b"


def _answer(
    ref: SemanticElementRef, obs: Observation, config: MatchConfig | None = None
) -> str | None:
    """The a11y source's answer, ``None`` for a refusal."""
    try:
        return resolve(ref, obs, sources=("a11y",), config=config).executor_id
    except ResolutionError:
        return None


def test_a_recorded_xpath_selects_a_row_the_ranking_cut_off_in_a_dead_heat() -> None:
    # Twelve unnamed icon links that nothing but the xpath tells apart; the recorded xpath
    # selects the tenth, which a ranking of the first few tied rows leaves out.
    from resolver.adapters._common import XPATH_KEYS

    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Icons")
    for k in range(1, 13):
        b.add(f"i{k}", raw_role="link", name="", parent=root,
              xpath=f"/html[1]/body[1]/nav[1]/a[{k}]")  # fmt: skip
    table = b.build(id_keys=XPATH_KEYS)
    ref = SemanticElementRef(role="link", xpath="/html[1]/body[1]/nav[1]/a[10]")
    config = MatchConfig()
    assert "i10" not in {table.ids[int(r)] for r in score_table(ref, table, config).rows}
    found = decide(ref, table, config)
    assert found.status == "accepted" and found.best is not None and found.best.id == "i10"
    assert found.rule == "accept.verified_selector"


def _menu_bar(
    classes: tuple[str, str, str] = ("menu-item", "menu-item", "menu-search"), search: str = ""
) -> CandidateTable:
    """A site's navigation list after a redesign, with xpaths, classes and boxes: two named
    items and the search item, named ``search`` (none: its label went, it is an icon now).
    ``classes`` are the three items' class attributes."""
    from resolver.adapters._common import XPATH_KEYS

    b = TableBuilder("a11y", "test", id_columns=("xpath", "class"))
    root = b.add("doc", raw_role="RootWebArea", name="Shop", bbox=(0, 0, 1280, 800))
    items = (("music", "Music", 700), ("contact", "Contact us", 800), ("search", search, 997))
    for k, ((key, name, left), cls) in enumerate(zip(items, classes, strict=True)):
        xpath = f"/html[1]/body[1]/nav[1]/ul[2]/li[{k + 7}]"
        b.add(key, raw_role="listitem", name=name, parent=root, bbox=(left, 0, left + 36, 44),
              xpath=xpath, **{"class": f"nav {cls}"})  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0), id_keys=XPATH_KEYS)


def test_a_selected_item_whose_label_went_is_taken_by_its_classes_and_place() -> None:
    # Recorded: the search item, named "Search shop". Its label went in a redesign; its
    # xpath, its own class and its box are as recorded, and nothing else bears that class.
    ref = SemanticElementRef(
        role="listitem", name="Search shop", bbox=(997, 0, 1033, 44),
        xpath="/html[1]/body[1]/nav[1]/ul[2]/li[9]", classes=("nav", "menu-search"),
    )  # fmt: skip
    config = MatchConfig()
    found = decide(ref, _menu_bar(), config)
    assert found.status == "accepted" and found.best is not None and found.best.id == "search"
    assert found.rule == "accept.selected_unnamed"
    # Another item bears the recorded classes too (a sibling dressed alike): no answer.
    alike = _menu_bar(("menu-item", "menu-search", "menu-search"))
    assert decide(ref, alike, config).status != "accepted"
    # The item is elsewhere on the screen than the recorded box: no answer.
    moved = ref.model_copy(update={"bbox": (400.0, 300.0, 436.0, 344.0)})
    assert decide(moved, _menu_bar(), config).status != "accepted"
    # A recorded utility class says nothing of the kind of element: it is not asked for.
    utility = ref.model_copy(update={"classes": ("nav", "menu-search", "font-bold")})
    assert decide(utility, _menu_bar(), config).rule == "accept.selected_unnamed"
    # Only utility classes recorded: nothing says what kind of element the item is.
    plain = ref.model_copy(update={"classes": ("display-block",)})
    assert decide(plain, _menu_bar(), config).status != "accepted"
    # The item named otherwise now (not unnamed): the name contradicts; no answer.
    assert decide(ref, _menu_bar(search="Gift cards"), config).rule != "accept.selected_unnamed"


def _logo_page(
    footer_logo: bool = False,
    second: bool = False,
    tag: str = "a",
    logo: str = "site-logo display-block animated",
) -> CandidateTable:
    """A redesigned page's unnamed links, with xpaths, tags and classes and no boxes: the
    header's logo (``tag``, classes ``logo``: those recorded kept, one added), an icon link
    beside it; with ``footer_logo`` the footer's link bears the logo's class, with
    ``second`` another header link does."""
    from resolver.adapters._common import XPATH_KEYS

    b = TableBuilder("a11y", "test", id_columns=("xpath", "tag", "class"))
    root = b.add("doc", raw_role="RootWebArea", name="Shop")
    head = "/html[1]/body[1]/div[4]/header[1]/div[1]"
    b.add("logo", raw_role="link", name="", parent=root, xpath=f"{head}/a[1]", tag=tag,
          **{"class": logo})  # fmt: skip
    b.add("cart", raw_role="link", name="", parent=root, xpath=f"{head}/a[2]", tag="a",
          **{"class": "icon-link"})  # fmt: skip
    if second:
        b.add("logo2", raw_role="link", name="", parent=root, xpath=f"{head}/a[3]", tag="a",
              **{"class": "site-logo"})  # fmt: skip
    if footer_logo:
        b.add("foot", raw_role="link", name="", parent=root, tag="a",
              xpath="/html[1]/body[1]/div[4]/footer[1]/a[1]", **{"class": "site-logo"})  # fmt: skip
    return b.build(id_keys=XPATH_KEYS)


def test_an_unnamed_target_is_taken_by_the_classes_only_it_bears() -> None:
    # Recorded by a tool that keeps tag, classes and xpath only: the header's logo link. The
    # redesign moved it (the xpath selects nothing) and added a class.
    ref = SemanticElementRef(
        role="link", tag="a", classes=("site-logo", "display-block"),
        xpath="/html[1]/body[1]/div[3]/header[1]/div[1]/div[1]/a[1]",
    )  # fmt: skip
    config = MatchConfig()
    found = decide(ref, _logo_page(), config)
    assert found.status == "accepted" and found.best is not None and found.best.id == "logo"
    assert found.rule == "accept.sole_dressed"
    # Another header link bears the logo's class too: nothing tells them apart.
    assert decide(ref, _logo_page(second=True), config).status != "accepted"
    # The header's logo dressed otherwise now, and the class on the footer's link only:
    # another element, in another region.
    moved = _logo_page(footer_logo=True, logo="brand-link")
    assert decide(ref, moved, config).status != "accepted"
    # Another tag than the recorded one: not the element.
    assert decide(ref, _logo_page(tag="img"), config).status != "accepted"
    # Only a utility class recorded: it does not say what the element is.
    plain = ref.model_copy(update={"classes": ("display-block",)})
    assert decide(plain, _logo_page(), config).status != "accepted"


def test_a_selected_row_linking_elsewhere_is_not_trusted_while_a_namesake_links_there() -> None:
    # Recorded: the first link, to /a, with its path and box.
    ref = SemanticElementRef(
        role="link", name="link", href="https://site.test/a", bbox=(8, 100, 40, 117),
        xpath="/html[1]/body[1]/p[1]/a[1]", coord_space="css_px", screen_size=(1280, 800),
    )  # fmt: skip
    config = MatchConfig()
    kept = decide(ref, reordered_links(("https://site.test/a", "https://site.test/b",
                                          "https://site.test/c")), config)  # fmt: skip
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "a0"
    # The paragraphs were reordered: the path and the box now find the link to /c, while
    # the link to /a is third. Neither the selector nor the ranking is trusted: the only
    # link to /a is taken.
    moved = decide(ref, reordered_links(("https://site.test/c", "https://site.test/b",
                                           "https://site.test/a")), config)  # fmt: skip
    assert "accept.verified_selector" not in moved.rules
    assert moved.rule == "accept.link_there" and moved.best is not None
    assert moved.best.id == "a2"
    # Every address changed (a new session token, say): nothing links where the recorded one
    # did, and the path decides as before.
    renamed = decide(ref, reordered_links(("https://site.test/a?s=2", "https://site.test/b?s=2",
                                             "https://site.test/c?s=2")), config)  # fmt: skip
    assert renamed.status == "accepted" and renamed.best is not None
    assert renamed.best.id == "a0"


def test_an_xpath_does_not_break_a_tie_the_box_read_on_another_screen_settles() -> None:
    from resolver.adapters._common import XPATH_KEYS

    # A picture and a larger copy of it around the same place, far down a long page. The
    # reference was recorded in a wider window (the page centred, 80 px further right): read
    # as the page re-centred, its box lies exactly on the picture; read as a zoom, 1,100 px
    # higher, on neither. Its xpath, from before a change, selects the copy, which trails by
    # less than the margin. The box read as the ranking read it says where the target is,
    # so the xpath does not break the tie for the copy.
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("0", raw_role="RootWebArea", name="Post")
    b.add(
        "s0",
        raw_role="img",
        name="Profile after",
        parent=root,
        bbox=(64, 10000, 1216, 10360),
        xpath="/html[1]/body[1]/figure[1]/img[1]",
    )
    b.add("s1", raw_role="img", name="Profile after", parent=root,
          bbox=(6, 9982, 1274, 10378), xpath="/html[1]/body[1]/figure[2]/img[1]")  # fmt: skip
    table = b.build(coord_space="css_px", screen_size=(1280.0, 800.0), id_keys=XPATH_KEYS)
    ref = SemanticElementRef(role="image", name="Profile after", bbox=(144, 10000, 1296, 10360),
                             screen_size=(1440, 900), xpath="/html[1]/body[1]/figure[2]/img[1]",
                             coord_space="css_px")  # fmt: skip
    decision = decide(ref, table, MatchConfig())
    assert "accept.verified_selector" not in decision.rules
    assert decision.status != "accepted" or (decision.best is not None and decision.best.id == "s0")


def _footer(
    name: str, *, cls: str = "regular-link", above: str = "HELOC calculator"
) -> CandidateTable:
    """A footer: the text ``above``, a link named ``name`` of class ``cls``, another text."""
    html = f"""<html><body><footer><p>{above}</p><p><a class="{cls}" href="/heloc">{name}</a></p>
    <p>Rates today</p></footer></body></html>"""
    layout = {"/html/body/footer/p[1]": [20, 600, 300, 620],
              "/html/body/footer/p[2]/a": [20, 630, 140, 650],
              "/html/body/footer/p[3]": [20, 660, 300, 680]}  # fmt: skip
    return Observation(dom_html=html, dom_layout=layout).candidates("dom")


def test_a_target_renamed_where_it_stood_is_taken_under_the_threshold() -> None:
    # "before you apply" renamed "for a HELOC", its link changed: under the threshold, but
    # its recorded xpath selects it, its recorded neighbour text is beside it, and it bears
    # the recorded class.
    ref = SemanticElementRef(
        role="link", name="before you apply", tag="a", href="/apply",
        xpath="/html[1]/body[1]/footer[1]/p[2]/a[1]", classes=("regular-link",),
        nearby_text=("HELOC calculator",),
    )  # fmt: skip
    config = MatchConfig()
    renamed = decide(ref, _footer("for a HELOC"), config)
    assert renamed.status == "accepted" and renamed.rule == "accept.selected_renamed"
    # Its neighbour text gone, or another class: nothing but the slot says it is the target.
    assert decide(ref, _footer("for a HELOC", above="Auto loans"), config).status != "accepted"
    assert decide(ref, _footer("for a HELOC", cls="promo-link"), config).status != "accepted"
    # The xpath selects nothing: refused as before.
    moved = ref.model_copy(update={"xpath": "/html[1]/body[1]/main[1]/a[1]"})
    assert decide(moved, _footer("for a HELOC"), config).status != "accepted"
