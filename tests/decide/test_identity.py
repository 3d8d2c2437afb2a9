"""Identity: an answer named as a neighbour, dressed otherwise or of another kind is refused."""

from typing import Any

from decide_helpers import _screenshot

from resolver import MatchConfig, SemanticElementRef
from resolver.decide import decide
from resolver.geometry import CoordSpace
from resolver.observation import Observation
from resolver.table import CandidateTable, TableBuilder
from resolver.web import MAX_NEARBY_CHARS


def _teasers(
    *, image: bool, thumb: str = "thumb", title: str = "Sleep better", first: str | None = None
) -> CandidateTable:
    """Two teasers, each an image link (``thumb`` class, named by its title attribute) and a
    title link; ``image`` False removes the first teaser's image link, ``first`` gives it
    another class than the second's."""
    link = f'<a class="{first or thumb}" href="/snore" title="{title}"><img alt=""></a>'
    first = link if image else ""
    html = f"""<html><body><div id="rec">
    <div>{first}<a class="title" href="/snore">Sleep better Snore Clinic</a></div>
    <div><a class="{thumb}" href="/fly" title="Cheap flights"><img alt=""></a>
    <a class="title" href="/fly">Cheap flights Trips</a></div></div></body></html>"""
    return Observation(dom_html=html).candidates("dom")


def test_an_element_of_another_kind_in_the_targets_slot_is_not_the_target() -> None:
    ref = SemanticElementRef(role="link", name="Sleep better", classes=("thumb",), href="/snore",
                             css_selector="#rec > div:nth-of-type(1) > a:nth-of-type(1)",
                             xpath="/html[1]/body[1]/div[1]/div[1]/a[1]")  # fmt: skip
    config = MatchConfig()
    kept = decide(ref, _teasers(image=True), config)
    assert (
        kept.status == "accepted"
        and kept.best is not None
        and kept.rule == "accept.verified_selector"
    )
    # The image link went; the title link slid into its slot, with a longer name and none of
    # the recorded classes, which the other teaser's image link still bears.
    gone = decide(ref, _teasers(image=False), config)
    assert gone.status == "not_found" and gone.rule == "refuse.other_kind"
    # Renamed, keeping its class: still the target. A build that renamed every class: the
    # classes say nothing.
    renamed = decide(ref, _teasers(image=True, title="Sleep much better"), config)
    assert renamed.status == "accepted" and renamed.best is not None
    assert renamed.best.name == "Sleep much better"
    rebuilt = decide(ref, _teasers(image=True, thumb="c-9f2a"), config)
    assert rebuilt.status == "accepted" and rebuilt.best is not None
    assert rebuilt.best.name == "Sleep better"
    # The image link alone restyled, at its place and with its name: the target still.
    restyled = decide(ref, _teasers(image=True, first="tile-card"), config)
    assert restyled.status == "accepted" and restyled.best is not None
    assert restyled.best.name == "Sleep better"


def _menus(
    *, target: bool, copy_class: str | None, menu_class: str = "menu__name"
) -> CandidateTable:
    """A menu of ``menu_class`` links ("Sports" first while ``target``) and, further down,
    a list holding another "Sports" link with ``copy_class`` (no class attribute if None)."""
    item = '<li><a class="{}" href="/{}">{}</a></li>'
    menu = [("sports", "Sports")] * target + [("news", "News"), ("weather", "Weather")]
    links = "".join(item.format(menu_class, path, name) for path, name in menu)
    copy = f' class="{copy_class}"' if copy_class is not None else ""
    html = f"""<html><body><div><ul>{links}</ul></div>
    <div><p>More</p><ul><li><a href="/archive">Archive</a></li>
    <li><a{copy} href="/sports">Sports</a></li></ul></div></body></html>"""
    return Observation(dom_html=html).candidates("dom")


def test_an_answer_without_a_recorded_class_the_page_still_uses_is_not_the_target() -> None:
    ref = SemanticElementRef(role="link", name="Sports", tag="a", href="/sports",
                             classes=("link", "menu__name"),
                             xpath="/html[1]/body[1]/div[1]/ul[1]/li[1]/a[1]")  # fmt: skip
    config = MatchConfig()
    kept = decide(ref, _menus(target=True, copy_class="link"), config)
    assert kept.status == "accepted" and kept.best is not None
    assert kept.best.id == "/html[1]/body[1]/div[1]/ul[1]/li[1]/a[1]"
    # The menu's "Sports" went; the other one lacks "menu__name", which the menu still uses.
    for copy_class in ("link", None):
        gone = decide(ref, _menus(target=False, copy_class=copy_class), config)
        assert gone.status == "not_found" and gone.rule == "refuse.dressed_otherwise"
    # Dressed as the menu's links: nothing in its classes speaks against it.
    dressed = decide(ref, _menus(target=False, copy_class="link menu__name"), config)
    assert dressed.status == "accepted"
    # A build that renamed the menu's class: no element bears the recorded one any more.
    rebuilt = decide(ref, _menus(target=False, copy_class="link", menu_class="nav-item"), config)
    assert rebuilt.status == "accepted"
    # The target restyled where it was: the recorded xpath still selects it.
    restyled = decide(ref, _menus(target=True, copy_class="link", menu_class="nav-item"), config)
    assert restyled.status == "accepted" and restyled.best is not None
    assert restyled.best.id == "/html[1]/body[1]/div[1]/ul[1]/li[1]/a[1]"


def _linked_menu(sports_class: str | None) -> CandidateTable:
    """A CDP tree linked to a ``DOM.getDocument`` result: a menu of two ``menu__name``
    links, and below it a "Sports" link with ``sports_class`` (none if None)."""

    def element(backend: int, tag: str, attrs: list[str], children: list[Any]) -> Any:
        return {"nodeType": 1, "localName": tag, "backendNodeId": backend,
                "attributes": attrs, "children": children}  # fmt: skip

    menu = [element(b, "a", ["class", "menu__name"], []) for b in (4, 5)]
    sports = element(7, "a", ["class", sports_class] if sports_class else [], [])
    body = element(2, "body", [], [element(3, "div", [], menu), element(6, "div", [], [sports])])
    document = {"root": {"nodeType": 9, "children": [element(1, "html", [], [body])]}}
    nodes: list[dict[str, Any]] = [
        {
            "nodeId": "r",
            "role": {"value": "RootWebArea"},
            "childIds": ["n4", "n5", "n7"],
            "backendDOMNodeId": 1,
        }
    ]
    for backend, name in ((4, "News"), (5, "Weather"), (7, "Sports")):
        nodes.append(
            {
                "nodeId": f"n{backend}",
                "role": {"value": "link"},
                "name": {"value": name},
                "parentId": "r",
                "backendDOMNodeId": backend,
            }
        )
    obs = Observation(accessibility_tree={"nodes": nodes}, dom_node_map=document)
    return obs.candidates("a11y")


def test_an_accessibility_tree_linked_to_its_document_knows_classes_too() -> None:
    ref = SemanticElementRef(role="link", name="Sports", classes=("menu__name",),
                             xpath="/html[1]/body[1]/div[1]/a[1]")  # fmt: skip
    gone = decide(ref, _linked_menu(None), MatchConfig())
    assert gone.status == "not_found" and gone.rule == "refuse.dressed_otherwise"
    dressed = decide(ref, _linked_menu("menu__name"), MatchConfig())
    assert dressed.status == "accepted" and dressed.best is not None
    assert dressed.best.id == "n7"


def _quiz_links(*, target: bool, other_title: str | None) -> CandidateTable:
    """Teasers of links each titled by its own article; "Quiz" first while ``target``, and
    a "Quiz" link further down with ``other_title`` (no title attribute if None)."""
    teaser = '<li><a href="/{}" title="{}">{}</a></li>'
    items = [("apple", "Apple quiz: how well do you know it?", "Quiz")] * target + [
        ("news", "Today in brief", "News"), ("mail", "Letters to the editor", "Mail"),
    ]  # fmt: skip
    links = "".join(teaser.format(*item) for item in items)
    title = f' title="{other_title}"' if other_title is not None else ""
    html = f"""<html><body><div><ul>{links}</ul></div>
    <div><p>Games</p><ul><li><a href="/chess">Chess</a></li>
    <li><a{title} href="/quiz">Quiz</a></li></ul></div></body></html>"""
    return Observation(dom_html=html).candidates("dom")


def test_an_answer_without_a_recorded_attribute_value_is_not_the_target() -> None:
    title = "Apple quiz: how well do you know it?"
    ref = SemanticElementRef(role="link", name="Quiz", tag="a", attributes={"title": title},
                             xpath="/html[1]/body[1]/div[1]/ul[1]/li[1]/a[1]")  # fmt: skip
    config = MatchConfig()
    kept = decide(ref, _quiz_links(target=True, other_title="Weekly games quiz"), config)
    assert kept.status == "accepted" and kept.best is not None
    assert kept.best.id == "/html[1]/body[1]/div[1]/ul[1]/li[1]/a[1]"
    # The teaser went; the other "Quiz" link has another title, or none.
    for other in ("Weekly games quiz", None):
        gone = decide(ref, _quiz_links(target=False, other_title=other), config)
        assert gone.status == "not_found" and gone.rule == "refuse.dressed_otherwise"
    # Its title is the recorded one: nothing in its attributes speaks against it.
    same = decide(ref, _quiz_links(target=False, other_title=title), config)
    assert same.status == "accepted"
    # A long value that the recorder capped before normalising still agrees.
    long_title = "Quiz of the week: " + "a very long description " * 12
    capped = ref.model_copy(update={"attributes": {"title": long_title[:254]}})
    assert decide(capped, _quiz_links(target=False, other_title=long_title), config).status == (
        "accepted"
    )


def _share_bars(first: str) -> CandidateTable:
    """Two share bars of unnamed icon links, each to its own address; the first bar's first
    link has class ``first``, every other "icon-btn"."""
    icon = '<a class="{}" href="https://social.example/share?u={}"></a>'
    html = f"""<html><body><div id="top">{icon.format(first, 1)}{icon.format("icon-btn", 2)}
    </div><p>Story</p><div id="end">{icon.format("icon-btn", 3)}{icon.format("icon-btn", 4)}
    </div></body></html>"""
    return Observation(dom_html=html).candidates("dom")


def test_an_unnamed_target_restyled_in_place_is_still_the_target() -> None:
    ref = SemanticElementRef(role="link", classes=("icon-btn",), tag="a",
                             href="https://social.example/share?u=1",
                             css_selector="#top > a:nth-of-type(1)",
                             xpath="/html[1]/body[1]/div[1]/a[1]")  # fmt: skip
    kept = decide(ref, _share_bars("icon-btn"), MatchConfig())
    assert kept.status == "accepted" and kept.best is not None
    # Only its classes changed, while the other icons keep the recorded one: the recorded
    # selector still selects it, and new classes alone do not refuse it.
    restyled = decide(ref, _share_bars("share-icon"), MatchConfig())
    assert restyled.status == "accepted" and restyled.best is not None
    assert restyled.best.id == "/html[1]/body[1]/div[1]/a[1]"


def _headings() -> CandidateTable:
    """Two sections' headings in a page, as a changed version shows them."""
    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Readability Test", bbox=(0, 0, 1280, 800))
    b.add("p", raw_role="paragraph", name="Lorem ipsum", parent=root, bbox=(8, 120, 1271, 156))
    b.add("h2", raw_role="heading", name="Single <figure>", parent=root, bbox=(8, 194, 1272, 221))
    b.add("h3", raw_role="heading", name="List of <img>", parent=root, bbox=(8, 367, 1272, 394))
    return b.build(screen_size=(1280.0, 800.0))


def test_an_answer_named_as_a_recorded_neighbour_is_that_neighbour() -> None:
    table, config = _headings(), MatchConfig()
    box = (8.0, 154.0, 1272.0, 181.0)
    base = SemanticElementRef(role="heading", name="Single <img>", bbox=box)
    kept = decide(base, table, config)  # a renamed heading where the target was: answered
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "h2"
    for ref in (
        base.model_copy(update={"nearby_text": ("Lorem ipsum", "Single <figure>")}),
        base.model_copy(update={"anchors": (("Single <figure>", (8.0, 194.0, 1272.0, 221.0)),)}),
    ):
        refused = decide(ref, table, config)
        assert refused.status == "not_found" and refused.rule == "refuse.neighbour_name"
    # The recorded name itself is never a neighbour's: the exact name is still answered.
    exact = SemanticElementRef(role="heading", name="Single <figure>", bbox=box,
                               nearby_text=("Lorem ipsum",))  # fmt: skip
    assert decide(exact, table, config).status == "accepted"


def test_a_neighbour_text_cut_by_the_recorder_still_names_that_neighbour() -> None:
    # A recorder keeps a nearby text's first MAX_NEARBY_CHARS characters: a teaser's title
    # link, longer than that, still names the neighbour of the image link that went.
    title = "Ekonomika: " + "restaurace nebudou kontrolovat hosty " * 3
    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Zprávy", bbox=(0, 0, 1280, 800))
    b.add("t", raw_role="link", name=title.strip(), parent=root, bbox=(8, 300, 900, 320))
    table = b.build(screen_size=(1280.0, 800.0))
    image_link = SemanticElementRef(role="link", name=title[11:].strip(), bbox=(8, 300, 900, 320))
    assert decide(image_link, table, MatchConfig()).status == "accepted"
    cut = image_link.model_copy(update={"nearby_text": ("před hodinou", title[:MAX_NEARBY_CHARS])})
    refused = decide(cut, table, MatchConfig())
    assert refused.status == "not_found" and refused.rule == "refuse.neighbour_name"
    # A text shorter than the cut is compared whole; and a cut text the recorded name begins
    # with too may be the target's own (a heading around it), not a neighbour's.
    short = image_link.model_copy(update={"nearby_text": (title[:40],)})
    assert decide(short, table, MatchConfig()).status == "accepted"
    own = cut.model_copy(update={"name": title.strip() + " (updated)"})
    assert decide(own, table, MatchConfig()).status == "accepted"


def test_a_vision_field_named_by_its_label_is_not_a_neighbour() -> None:
    # Vision names a text field by the label it reads beside it, which a recorder also keeps
    # as the field's neighbour: the field is answered; a button with that name is not.
    def table(role: str) -> CandidateTable:
        b = TableBuilder("vision", "screenshot", executor_prefix="vision:")
        b.add("f", raw_role="rect", name="Full name", role=role, bbox=(100, 200, 400, 230))
        return _screenshot(b)

    ref = SemanticElementRef(role="textbox", name="Billing Full name", bbox=(100, 200, 400, 230),
                             anchors=(("Full name", (100, 180, 170, 196)),))  # fmt: skip
    assert decide(ref, table("textbox"), MatchConfig()).status == "accepted"
    button = ref.model_copy(update={"role": "button"})
    assert decide(button, table("button"), MatchConfig()).status == "not_found"


def test_the_targets_own_text_is_not_a_neighbour() -> None:
    # A button named "Show password" that shows "Show": a recorder keeps the caption as a
    # nearby text and an anchor inside the button's box. Vision reads only "Show" there; it
    # is the target's own text, not a neighbour's name.
    b = TableBuilder("vision", "screenshot", executor_prefix="vision:")
    b.add("s", raw_role="text", name="Show", role="link", bbox=(762, 322, 793, 340))
    table = _screenshot(b)
    box = (756.0, 317.0, 801.0, 345.0)
    inside = SemanticElementRef(role="button", name="Show password", bbox=box,
                                nearby_text=("Password", "Show"),
                                anchors=(("Show", (762.0, 323.0, 796.0, 338.0)),))  # fmt: skip
    assert decide(inside, table, MatchConfig()).status == "accepted"
    beside = inside.model_copy(update={"anchors": (("Show", (700.0, 323.0, 740.0, 338.0)),)})
    refused = decide(beside, table, MatchConfig())
    assert refused.status == "not_found" and refused.rule == "refuse.neighbour_name"


def _replies(xpath: str) -> CandidateTable:
    """A comment page with one "All replies" link at ``xpath``, far from where a recorded
    "View all 146 replies" was (between "About" and "Help"), to the same address."""
    b = TableBuilder("a11y", "test", id_columns=("xpath", "href"))
    root = b.add("doc", raw_role="RootWebArea", name="Comments", bbox=(0, 0, 1280, 800))
    b.add("all", raw_role="link", name="All replies", parent=root, bbox=(48, 600, 115, 617),
          xpath=xpath, href="https://news.example/thread/9")  # fmt: skip
    texts = ("Reply", "Share", "Report", "Hosts of other people", "About", "Help")
    for k, text in enumerate(texts):
        b.add(f"n{k}", raw_role="link", name=text, parent=root,
              bbox=(215, 640 + 40 * k, 300, 657 + 40 * k),
              xpath=f"/html[1]/body[1]/section[1]/div[4]/a[{k + 1}]")  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_a_renamed_answer_the_recorded_xpath_does_not_select_must_keep_its_place() -> None:
    ref = SemanticElementRef(
        role="link", name="View all 146 replies", bbox=(215, 800, 344, 817),
        screen_size=(1280, 800), xpath="/html[1]/body[1]/section[1]/div[3]/a[1]",
        href="https://news.example/thread/9", nearby_text=("Reply", "Share", "Report", "About"),
    )  # fmt: skip
    config = MatchConfig()
    # Renamed, moved 200 px away into another section, among other neighbours: as likely
    # another link sharing words with a removed target.
    elsewhere = _replies("/html[1]/body[1]/section[2]/a[1]")
    moved = decide(ref, elsewhere, config)
    assert moved.status == "not_found" and moved.rule == "refuse.changed_and_moved"
    # The recorded xpath still selects it: the target renamed in its place.
    kept = decide(ref, _replies("/html[1]/body[1]/section[1]/div[3]/a[1]"), config)
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "all"
    # Renamed but at the recorded place with the recorded neighbours: renamed in place.
    placed = ref.model_copy(update={"bbox": (48, 600, 115, 617), "nearby_text": ()})
    assert decide(placed, elsewhere, config).status == "accepted"
    # Only the box disagrees (its recorded neighbours are all next to it): a redesign may
    # move a control it renames.
    near = ref.model_copy(update={"nearby_text": ("Reply", "Share", "Report")})
    assert decide(near, elsewhere, config).status == "accepted"
    # The rule asks for the rest of the place only of a changed name or role.
    same = ref.model_copy(update={"name": "All replies"})
    assert decide(same, elsewhere, config).status == "accepted"


def _loans(parent: str) -> CandidateTable:
    """A redesigned footer: "Auto loan" linking to the auto-loans page as the second link
    of the paragraph at ``parent``, laid out far from where a "car loan" was recorded, the
    paragraph's third link now "payment calculator"; "Mortgages", which was next to the
    target, is a header link now."""
    b = TableBuilder("a11y", "test", id_columns=("xpath", "href"))
    root = b.add("doc", raw_role="RootWebArea", name="Bank", bbox=(0, 0, 1280, 800))
    for k, text in enumerate(("Mortgages", "Checking", "Savings", "Credit cards", "Help")):
        b.add(f"h{k}", raw_role="link", name=text, parent=root,
              bbox=(100 + 150 * k, 20, 200 + 150 * k, 36),
              xpath=f"/html[1]/body[1]/header[1]/a[{k + 1}]")  # fmt: skip
    links = (("Chase Auto", "https://auto.bank.test/"),
             ("Auto loan", "https://auto.bank.test/auto-loans?offer=2"),
             ("payment calculator", "https://auto.bank.test/auto-loans/calculator"))  # fmt: skip
    for k, (text, href) in enumerate(links):
        b.add(f"a{k}", raw_role="link", name=text, parent=root,
              bbox=(77, 700 + 30 * k, 140, 716 + 30 * k), xpath=f"{parent}/a[{k + 1}]",
              href=href)  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_a_link_renamed_in_its_list_keeps_its_address() -> None:
    # Similo's Chase pair: "car loan" became "auto loan", moved across the footer and its
    # neighbours rewritten; the recorded xpath now selects the paragraph's next link.
    ref = SemanticElementRef(
        role="link", name="car loan", bbox=(937, 560, 981, 577), screen_size=(1280, 800),
        xpath="/html[1]/body[1]/footer[1]/p[1]/a[3]", nearby_text=("Mortgages",),
        href="https://auto.bank.test/auto-loans?offer=2",
    )  # fmt: skip
    config = MatchConfig()
    kept = decide(ref, _loans("/html[1]/body[1]/footer[1]/p[1]"), config)
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "a1"
    assert "refuse.changed_and_moved" not in kept.rules
    # The same link under another element of the page: as likely a copy left behind.
    other = decide(ref, _loans("/html[1]/body[1]/footer[1]/div[2]"), config)
    assert other.status == "not_found"
    # A recorded name sharing no word with the answer's: nothing ties them but the address.
    named = ref.model_copy(update={"name": "vehicle finance"})
    assert decide(named, _loans("/html[1]/body[1]/footer[1]/p[1]"), config).status != "accepted"


def _footnotes(*numbers: str, name: str = "", xpath_of: str = "sup") -> CandidateTable:
    """Footnote links named by their numbers in one paragraph, each under its own xpath."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Book", bbox=(0, 0, 1280, 800))
    for k, number in enumerate(numbers):
        b.add(f"n{number}", raw_role="link", name=f"{name}{number}", parent=root,
              bbox=(100 + 60 * k, 300, 112 + 60 * k, 315),
              xpath=f"/html[1]/body[1]/p[1]/{xpath_of}[{k + 1}]/a[1]")  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_another_member_of_a_numbered_series_is_not_the_target_renumbered() -> None:
    # Recorded: footnote "22" between "21" and "23"; it was removed, and "23" slid left.
    ref = SemanticElementRef(
        role="link", name="22", bbox=(160, 300, 172, 315), screen_size=(1280, 800),
        xpath="/html[1]/body[1]/p[1]/sup[9]/a[1]",
    )  # fmt: skip
    config = MatchConfig()
    series = decide(ref, _footnotes("21", "23"), config)
    assert series.status == "not_found" and series.rule == "refuse.numbered_series"
    # A counter has no second member: "Inbox (3)" became "Inbox (12)".
    counter = ref.model_copy(update={"name": "Inbox (3)"})
    single = decide(counter, _footnotes("(12)", name="Inbox "), config)
    assert single.status == "accepted" and single.best is not None
    # The recorded xpath still selects it: the target renumbered in its place.
    placed = ref.model_copy(update={"xpath": "/html[1]/body[1]/p[1]/sup[2]/a[1]"})
    assert decide(placed, _footnotes("21", "23"), config).status == "accepted"


def _footer_privacy(href: str) -> CandidateTable:
    """A page whose only "Privacy" link is in the footer strip, between "Terms" and "Help"
    (after the story in reading order, drawn 120 px under the header)."""
    b = TableBuilder("a11y", "test", id_columns=("xpath", "href"))
    root = b.add("doc", raw_role="RootWebArea", name="News", bbox=(0, 0, 1280, 800))
    for k, text in enumerate(("Sports", "Weather", "Markets", "Opinion")):
        b.add(f"h{k}", raw_role="link", name=text, parent=root,
              bbox=(20 + 90 * k, 20, 100 + 90 * k, 37), href=f"https://news.example/{text}",
              xpath=f"/html[1]/body[1]/header[1]/a[{k + 1}]")  # fmt: skip
    for k in range(5):  # the article
        b.add(f"p{k}", raw_role="paragraph", name=f"Paragraph {k} of the story", parent=root,
              bbox=(20, 100 + 1000 * k, 1200, 1000 + 1000 * k))  # fmt: skip
    for k, text in enumerate(("Terms", "Privacy", "Help")):
        b.add(f"f{k}", raw_role="link", name=text, parent=root,
              bbox=(20 + 90 * k, 140, 100 + 90 * k, 157),
              xpath=f"/html[1]/body[1]/footer[1]/a[{k + 1}]",
              href=href if text == "Privacy" else f"https://news.example/{text}")  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_a_namesake_that_agrees_on_nothing_but_its_name_is_not_the_target() -> None:
    # Recorded: the header's "Privacy" link (between "Markets" and "Opinion"), since removed.
    ref = SemanticElementRef(
        role="link", name="Privacy", bbox=(380, 20, 460, 37), screen_size=(1280, 800),
        xpath="/html[1]/body[1]/header[1]/a[5]", href="https://news.example/privacy-header",
        nearby_text=("Terms", "Help", "Opinion"),
    )  # fmt: skip
    config = MatchConfig()
    footer = decide(ref, _footer_privacy("https://news.example/privacy"), config)
    assert footer.status == "not_found" and footer.rule == "refuse.name_only"
    # The same link (same address): one of the four agrees, and it is taken.
    same = decide(ref, _footer_privacy("https://news.example/privacy-header"), config)
    assert same.status == "accepted" and same.best is not None and same.best.id == "f1"
    # A link to the same anchor of a page whose own address changed agrees too.
    anchored = ref.model_copy(update={"href": "file:///old/page.html#privacy"})
    moved = decide(anchored, _footer_privacy("file:///new/page.html#privacy"), config)
    assert moved.status == "accepted"


def _login_link(*, href: str | None) -> CandidateTable:
    """A header with a "Log In" link (to ``href``) where a "Log In" button was, the header's
    texts before it in reading order, and "Subscribe" in the footer."""
    b = TableBuilder("a11y", "test", id_columns=("xpath", "href"))
    root = b.add("doc", raw_role="RootWebArea", name="News", bbox=(0, 0, 1280, 800))
    for k, text in enumerate(("World", "Business", "Opinion")):
        b.add(f"t{k}", raw_role="StaticText", name=text, parent=root,
              bbox=(20 + 90 * k, 60, 100 + 90 * k, 77))  # fmt: skip
    b.add("l", raw_role="link", name="Log In", parent=root, bbox=(1160, 12, 1230, 32),
          href=href, xpath="/html[1]/body[1]/header[1]/div[2]/a[1]")  # fmt: skip
    for k in range(12):  # the story, then the footer's "Subscribe"
        b.add(f"p{k}", raw_role="paragraph", name=f"Paragraph {k}", parent=root,
              bbox=(20, 100 + 40 * k, 1200, 130 + 40 * k))  # fmt: skip
    b.add("s", raw_role="StaticText", name="Subscribe", parent=root, bbox=(20, 700, 120, 717))
    return b.build(coord_space=CoordSpace.CSS_PX, screen_size=(1280.0, 800.0))


def test_a_control_recorded_without_a_link_is_not_a_link_of_its_name() -> None:
    # Recorded: the "Log In" button (no link), next to "Subscribe" and "Opinion"; it went,
    # and a "Log In" link of the same header is next to "Opinion" only ("Subscribe" moved
    # to the footer).
    ref = SemanticElementRef(
        role="button", name="Log In", bbox=(1150.0, 10.0, 1222.0, 32.0), screen_size=(1280, 800),
        xpath="/html[1]/body[1]/header[1]/div[2]/button[1]", nearby_text=("Subscribe", "Opinion"),
        coord_space="css_px",
    )  # fmt: skip
    gone = decide(ref, _login_link(href="https://news.example/login"), MatchConfig())
    assert gone.status == "not_found" and gone.rule == "refuse.changed_and_moved"
    # The same element without a link (a table that knows no links for it): only its
    # neighbours differ, and it is taken for the target changed.
    kept = decide(ref, _login_link(href=None), MatchConfig())
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "l"


def _figures(*codes: str) -> CandidateTable:
    """Pictures of a status chart, each named "Anomaly in status code N", above a caption
    that begins with that name; a removed picture leaves its figure (and the others their
    xpaths) in place."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Anomalies", bbox=(0, 0, 1280, 800))
    for code in codes:
        k = 0 if code.startswith("40") else 1
        top = 200.0 + 120.0 * k
        b.add(f"img{code}", raw_role="image", name=f"Anomaly in status code {code}",
              parent=root, bbox=(48, top, 240, top + 80),
              xpath=f"/html[1]/body[1]/figure[{k + 1}]/img[1]")  # fmt: skip
        b.add(f"cap{code}", raw_role="StaticText", name=f"Anomaly in status code {code}: seen",
              parent=root, bbox=(48, top + 84, 400, top + 100))  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_an_answer_heading_a_recorded_neighbours_text_is_that_neighbour() -> None:
    # Recorded: the picture of status code 400, above the figure of status code 500, whose
    # caption the recorder kept as a nearby text. The 400 figure went.
    ref = SemanticElementRef(
        role="img", name="Anomaly in status code 400", bbox=(48, 200, 240, 280),
        screen_size=(1280, 800), xpath="/html[1]/body[1]/figure[1]/img[1]",
        nearby_text=("Anomaly in status code 400: seen", "Anomaly in status code 500: seen"),
    )  # fmt: skip
    config = MatchConfig()
    gone = decide(ref, _figures("500"), config)
    assert gone.status == "not_found" and gone.rule == "refuse.neighbour_name"
    # The target renumbered in its place is still answered: no recorded text is headed by
    # its new name.
    renumbered = decide(ref, _figures("401", "500"), config)
    assert renumbered.status == "accepted" and renumbered.best is not None
    assert renumbered.best.id == "img401"
    # A recorded text that merely goes on after the name in one word is not headed by it.
    joined = ref.model_copy(update={"nearby_text": ("Anomaly in status code 5000 seen",)})
    assert decide(joined, _figures("500"), config).status == "accepted"
    # Nor does a text that heads the recorded name too: the target's own words, shortened.
    own = ref.model_copy(update={"name": "Anomaly in status code 500: seen twice"})
    assert decide(own, _figures("500"), config).status == "accepted"


def _screen_with(name: str, role: str = "button") -> CandidateTable:
    """A screenshot with one control where the target was, reading ``name``."""
    b = TableBuilder("vision", "screenshot", executor_prefix="vision:")
    b.add("b0", raw_role="rect", name=name, role=role, bbox=(600, 300, 700, 330))
    b.add("t0", raw_role="text", name="Welcome back", role="text", bbox=(100, 100, 300, 130))
    return _screenshot(b)


def test_a_screenshot_answer_must_read_the_recorded_name() -> None:
    ref = SemanticElementRef(role="button", name="Subscribe", bbox=(600, 300, 700, 330))
    # Something else now stands where the target was, of its role: not the target.
    lenient = MatchConfig(threshold=0.2, min_margin=0.0)
    refused = decide(ref, _screen_with("Log out"), lenient)
    assert refused.status == "not_found" and refused.rule == "refuse.name_unread"
    assert "not read on the screen" in refused.reason
    # The name as read (case and OCR's small slips aside) answers.
    for read in ("Subscribe", "SUBSCRIBE", "Subscrlbe"):
        accepted = decide(ref, _screen_with(read), MatchConfig())
        assert accepted.status == "accepted", read
    # Trees are not screenshots: the rule does not judge them.
    b = TableBuilder("a11y", "nested")
    b.add("b0", raw_role="button", name="Log out", role="button", bbox=(600, 300, 700, 330))
    tree = decide(ref, b.build(), lenient)
    assert tree.rule != "refuse.name_unread"
    # A reference without a name is told by its place and role alone.
    unnamed = SemanticElementRef(role="button", bbox=(600, 300, 700, 330))
    assert decide(unnamed, _screen_with("Log out"), lenient).rule != "refuse.name_unread"


def test_a_heading_that_repeats_a_neighbour_s_title_is_that_neighbour() -> None:
    # A list of teasers, each heading holding three links with the title (picture, title,
    # "more"): the accessible name says the title three times. The recorded teaser's heading
    # went; the next one's, whose title the reference recorded beside it, is what is left.
    def said(title: str) -> str:
        return " ".join([title] * 3)

    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Blog", bbox=(0, 0, 1280, 6000))
    b.add("next", raw_role="heading", name=said("Use the Stranger Test"), parent=root,
          bbox=(8, 5277, 1272, 5289))  # fmt: skip
    b.add("far", raw_role="heading", name=said("How to Avoid Impulse Buys"), parent=root,
          bbox=(8, 5100, 1272, 5112))  # fmt: skip
    table = b.build(screen_size=(1280.0, 800.0))
    ref = SemanticElementRef(
        role="heading", name=said("Practice the Stranger Method"), bbox=(8, 5277, 1272, 5289),
        nearby_text=("Read more", "Use the Stranger Test"),
    )  # fmt: skip
    refused = decide(ref, table, MatchConfig())
    assert refused.status == "not_found" and refused.rule == "refuse.neighbour_name"
    # The recorded text beside it another one: the heading is not named as a neighbour.
    other = ref.model_copy(update={"nearby_text": ("Read more", "Sign up")})
    assert decide(other, table, MatchConfig()).rule != "refuse.neighbour_name"


def _story_page(title: str) -> CandidateTable:
    """A page whose story heading ``title`` sits lower than recorded (a banner above it), its
    neighbour texts rewritten, and another heading."""
    b = TableBuilder("a11y", "test", id_columns=("xpath", "nearby", "class"))
    root = b.add("doc", raw_role="RootWebArea", name="News", bbox=(0, 0, 1280, 3000))
    b.add("story", raw_role="heading", name=title, parent=root, bbox=(8, 700, 1272, 730),
          xpath="/html[1]/body[1]/main[1]/h2[3]", nearby="Read more",
          **{"class": "story-title"})  # fmt: skip
    b.add("other", raw_role="heading", name="Weather this week", parent=root,
          bbox=(8, 1400, 1272, 1430), xpath="/html[1]/body[1]/main[1]/h2[4]",
          **{"class": "story-title"})  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0))


def test_a_name_cut_by_its_recorder_is_not_a_changed_name() -> None:
    # A recorder that keeps a name's first 30 characters recorded the story heading; the
    # page moved it 600 px down and rewrote the texts around it. Its name begins with the
    # recorded one: cut, not changed, and the heading is the answer.
    title = "Practice the HALT Method to Curb Impulse Purchases"
    ref = SemanticElementRef(
        role="heading", name=title[:30], bbox=(8, 300, 1272, 330), classes=("story-title",),
        xpath="/html[1]/body[1]/main[1]/h2[2]", nearby_text=("Read more", "Shopping"),
    )  # fmt: skip
    found = decide(ref, _story_page(title), MatchConfig())
    assert found.status == "accepted" and found.best is not None and found.best.id == "story"
    # Changed within the recorded characters (another story): renamed and moved, refused as
    # before.
    other = _story_page("Practice the HALT Method for Better Sleep at Night")
    assert decide(ref, other, MatchConfig()).rule == "refuse.changed_and_moved"
    # With the cut off (0), the same heading is refused as renamed and moved.
    off = decide(ref, _story_page(title), MatchConfig(cut_name_chars=0))
    assert off.rule == "refuse.changed_and_moved"


def _named_links(
    names: tuple[str, ...], hrefs: tuple[str, ...] = (), moved: int = -1
) -> CandidateTable:
    """Links named ``names``, one per paragraph 40 px apart, to ``hrefs`` (all to one
    address when empty; the link ``moved`` sits 300 px to the right); an accessibility tree
    that knows each link's XPath."""
    from resolver.adapters._common import XPATH_KEYS

    b = TableBuilder("a11y", "test", id_columns=("xpath", "href"))
    root = b.add("0", raw_role="RootWebArea", name="Links")
    for k, name in enumerate(names):
        y = 100 + 40 * k
        x = 308 if k == moved else 8
        box = (x, y, x + 8 * len(name), y + 17)
        href = hrefs[k] if hrefs else "https://site.test/x"
        b.add(f"a{k}", raw_role="link", name=name, parent=root, bbox=box,
              xpath=f"/html[1]/body[1]/p[{k + 1}]/a[1]", href=href)  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0), id_keys=XPATH_KEYS)


def test_a_namesake_elsewhere_is_not_taken_over_the_target_renamed_in_its_slot() -> None:
    # Recorded: the second of two "link" links. Now the second reads "link here": the
    # first, with the recorded name exactly, leads on the name. The recorded xpath and place
    # hold the renamed one, so the source does not take the namesake on its name.
    ref = SemanticElementRef(role="link", name="link", bbox=(8, 140, 40, 157),
                             xpath="/html[1]/body[1]/p[2]/a[1]", href="https://site.test/x",
                             coord_space="css_px", screen_size=(1280, 800))  # fmt: skip
    renamed = decide(ref, _named_links(("link", "link here", "Next")), MatchConfig())
    assert "ambiguous.slot_renamed" in renamed.rules
    assert renamed.status != "accepted" or (renamed.best is not None and renamed.best.id == "a1")
    # The renamed link reflowed along its line, away from the recorded place: it still
    # links where the target did, and the namesake elsewhere.
    hrefs = ("https://site.test/y", "https://site.test/x", "https://site.test/z")
    reflowed = decide(ref, _named_links(("link", "link here", "Next"), hrefs, moved=1),
                      MatchConfig())  # fmt: skip
    assert "ambiguous.slot_renamed" in reflowed.rules
    assert reflowed.status != "accepted" or (reflowed.best is not None and reflowed.best.id == "a1")
    # A word replaced instead ("Featured Demo" where "Featured Article" was, a series): the
    # rule leaves the namesake to the other rules.
    series = ref.model_copy(update={"name": "Featured Article", "bbox": (8, 140, 136, 157)})
    replaced = decide(series, _named_links(("Featured Article", "Featured Demo", "Next")),
                      MatchConfig())  # fmt: skip
    assert "ambiguous.slot_renamed" not in replaced.rules


def _disclosures(
    first: str, second: str, *, renamed: bool = False, gap: int = 600
) -> CandidateTable:
    """Two "Promoted Links" links on one line, ``gap`` px apart, in a tree linked to its
    document (xpaths, classes, boxes), the first of class ``first``, the second of
    ``second`` (the class names prefixed ``v2-`` when ``renamed``: a build that renamed
    them)."""
    prefix = "v2-" if renamed else ""
    b = TableBuilder("a11y", "test", id_columns=("xpath", "class"))
    root = b.add("0", raw_role="RootWebArea", name="Read next")
    for slot, classes in ((1, first), (2, second)):
        b.add(
            f"a{slot}", raw_role="link", name="Promoted Links", parent=root,
            bbox=(8 + gap * (slot - 1), 900, 120 + gap * (slot - 1), 917),
            xpath=f"/html[1]/body[1]/div[1]/a[{slot}]",
            **{"class": " ".join(prefix + c for c in classes.split())},
        )  # fmt: skip
    return b.build(coord_space=CoordSpace.CSS_PX, screen_size=(1280, 800))


def test_a_selected_namesake_dressed_otherwise_is_doubted_while_its_twin_is_dressed_so() -> None:
    # Recorded: the second link, the disclosure, by its path, box and classes.
    ref = SemanticElementRef(role="link", name="Promoted Links", bbox=(608, 900, 720, 917),
                             classes=("disclosure_link", "position_top"),
                             xpath="/html[1]/body[1]/div[1]/a[2]", coord_space="css_px",
                             screen_size=(1280, 800))  # fmt: skip
    config = MatchConfig()
    kept = decide(ref, _disclosures("promoted_link", "disclosure_link position_top"), config)
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "a2"
    # The two swapped places: the path and the box find the plain link, and the disclosure,
    # which bears the recorded classes, is first. Neither the path nor the ranking is trusted.
    swapped = decide(ref, _disclosures("disclosure_link position_top", "promoted_link"), config)
    assert swapped.status == "ambiguous" and swapped.rule == "ambiguous.dressed_twin"
    assert "accept.verified_selector" not in swapped.rules
    # Closer together, the box leaves the two tied, and the path breaks no tie the classes
    # speak against.
    close = _disclosures("disclosure_link position_top", "promoted_link", gap=120)
    near = decide(ref.model_copy(update={"bbox": (128, 900, 240, 917)}), close, config)
    assert near.status == "ambiguous" and "accept.path_tie" not in near.rules
    # A build that renamed every class: no element bears the recorded ones, and the path
    # decides as before.
    rebuilt = _disclosures("disclosure_link position_top", "promoted_link", renamed=True)
    renamed = decide(ref, rebuilt, config)
    assert renamed.status == "accepted" and renamed.best is not None
    assert renamed.best.id == "a2"
