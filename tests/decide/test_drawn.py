"""A control drawn without readable text, taken on a screenshot by its recorded place."""

import dataclasses

from resolver import MatchConfig, SemanticElementRef
from resolver.decide import decide
from resolver.decide.drawn import anchors_in_place, drawn_rows, stem_mates
from resolver.table import CandidateTable, TableBuilder

ICON = (8.0, 8.0, 24.0, 29.0)
"""Where the icon button "Sections Navigation & Search" was recorded."""


def _header(
    *,
    closed_up: float = 0.0,
    second_icon: bool = False,
    named: str | None = None,
    read: bool = True,
    mark: bool = False,
) -> CandidateTable:
    """A screenshot's header: an icon button at :data:`ICON`, the caption "Sections" and
    the link "SEARCH" below it, the title further right. ``closed_up`` moves what is below
    the icon up by that much (the icon removed, the page closed up); ``second_icon`` draws
    another icon over the same place; ``named`` reads that text further down the page;
    ``read`` False makes it a tree's table (names not read from pixels); ``mark`` draws the
    icon as a mark that nothing took for a shape (a row of raw role ``mark``)."""
    b = TableBuilder("vision" if read else "a11y", "test")
    up = closed_up
    if mark:
        b.add("0", raw_role="mark", role="generic", bbox=ICON)
    else:
        b.add("0", raw_role="icon", role="button", bbox=ICON)
    b.add("1", raw_role="rect", role="button", name="Sections", bbox=(10, 31 - up, 74, 103 - up))
    b.add("2", raw_role="text", role="link", name="SEARCH", bbox=(15, 104 - up, 72, 124 - up))
    b.add("3", raw_role="text", role="heading", name="The Daily", bbox=(300, 10, 700, 60))
    if second_icon:
        b.add("4", raw_role="icon", role="button", bbox=(9.0, 9.0, 25.0, 30.0))
    if named is not None:
        b.add("5", raw_role="text", role="link", name=named, bbox=(40, 600, 300, 620))
    extra = {"names_read": True} if read else {}
    return b.build(screen_size=(1280.0, 800.0), **extra)


REF = SemanticElementRef(
    role="button", name="Sections Navigation & Search", bbox=ICON, screen_size=(1280, 800),
    anchors=(("Sections", (16.0, 32.0, 68.0, 47.0)), ("SEARCH", (8.0, 104.0, 80.0, 184.0)),
             ("The Daily", (300.0, 12.0, 700.0, 58.0))),
)  # fmt: skip


def _assert_taken(ref: SemanticElementRef, table: CandidateTable, rule: str, row: str) -> None:
    """``ref`` is answered on ``table`` by ``rule``, with the row ``row``."""
    decision = decide(ref, table, MatchConfig())
    assert decision.status == "accepted" and decision.rule == rule
    assert decision.best is not None and decision.best.id == row


def test_an_icon_button_whose_name_is_not_drawn_is_taken_at_its_place() -> None:
    _assert_taken(REF, _header(), "accept.drawn_at_place", "0")


def test_the_icon_is_not_taken_when_the_page_closed_up_over_its_place() -> None:
    # The icon went and what was below it moved up: what is at its place now is not it.
    closed = decide(REF, _header(closed_up=22.0), MatchConfig())
    assert closed.status != "accepted"
    assert anchors_in_place(REF, _header(closed_up=22.0), ICON, 8.0) is None
    assert anchors_in_place(REF, _header(), ICON, 8.0) == 3


def test_a_caption_grazing_the_edge_of_the_box_does_not_read_the_name_there() -> None:
    # Recorded at zoom 1.25 by another tool: as a resized window would have left it, the
    # box reaches 5 px into the caption "Sections" under the icon. A text overlapping a
    # reading by no more than ``drawn_slack`` screen heights stands beside it, not in it.
    zoomed = SemanticElementRef(
        role="button", name="Sections Navigation & Search",
        bbox=tuple(v * 1.25 for v in ICON), screen_size=(1600, 1000),
        nearby_text=("Sections", "SEARCH", "The Daily"),
    )  # fmt: skip
    _assert_taken(zoomed, _header(), "accept.drawn_in_box", "0")
    # The caption moved up over the place the icon left: it reads the name there.
    assert decide(zoomed, _header(closed_up=22.0), MatchConfig()).status != "accepted"


def test_an_icon_seen_only_as_a_mark_is_taken_at_its_place_as_a_shape_would_be() -> None:
    decision = decide(REF, _header(mark=True), MatchConfig())
    assert decision.status == "accepted" and decision.rule == "accept.drawn_at_place"
    assert decision.best is not None and decision.best.id == "0"
    assert decision.best.signals["name"] == 0.0 and decision.best.score > 0.0
    assert decide(REF, _header(mark=True, closed_up=40.0), MatchConfig()).status != "accepted"


def test_anchors_only_before_the_target_do_not_vouch_for_its_place() -> None:
    # Removing a control lets what comes after it move in, not what comes before: a title
    # right of the icon, on its line, comes after it; below the title, it does not.
    title = REF.model_copy(update={"anchors": (("The Daily", (300.0, 12.0, 700.0, 58.0)),)})
    assert anchors_in_place(title, _header(), ICON, 8.0) == 1
    assert anchors_in_place(title, _header(), (300.0, 70.0, 316.0, 91.0), 8.0) is None


def test_fewer_anchors_in_place_than_asked_do_not_vouch_for_it() -> None:
    config = MatchConfig(drawn_anchors=4)
    assert decide(REF, _header(), config).rule != "accept.drawn_at_place"


def test_two_shapes_at_the_place_or_the_name_read_elsewhere_leave_it_to_the_ranking() -> None:
    assert len(drawn_rows(_header(second_icon=True), "button", ICON, 0.5)) == 2
    assert decide(REF, _header(second_icon=True), MatchConfig()).status != "accepted"
    named = decide(REF, _header(named="Sections Navigation & Search"), MatchConfig())
    assert named.rule != "accept.drawn_at_place"


def test_only_where_names_are_read_from_pixels() -> None:
    # A tree names its icon buttons: one left unnamed there is something else.
    assert decide(REF, _header(read=False), MatchConfig()).rule != "accept.drawn_at_place"


def test_a_checkbox_drawn_without_its_name_is_taken_at_its_place() -> None:
    # A menu's toggle, a bare checkbox beside a "☰" glyph, recorded as "Toggle Menu".
    b = TableBuilder("vision", "test")
    b.add("0", raw_role="text", role="link", name="Features", bbox=(50, 61, 103, 82))
    b.add("1", raw_role="text", role="link", name="Pricing", bbox=(48, 77, 96, 101))
    b.add("2", raw_role="checkbox", role="checkbox", bbox=(25, 28, 41, 44))
    table = b.build(screen_size=(1280.0, 800.0), names_read=True)
    ref = SemanticElementRef(
        role="checkbox", name="Toggle Menu", bbox=(26.3, 29.0, 39.3, 42.0), screen_size=(1280, 800),
        anchors=(("Features", (48.0, 62.0, 102.2, 79.0)), ("Pricing", (48.0, 80.0, 94.2, 97.0))),
    )  # fmt: skip
    _assert_taken(ref, table, "accept.drawn_at_place", "2")
    # Not a checkbox of another place.
    away = ref.model_copy(update={"bbox": (226.3, 29.0, 239.3, 42.0)})
    assert decide(away, table, MatchConfig()).status != "accepted"


def test_a_link_drawn_as_its_picture_is_taken_at_its_place() -> None:
    # A site's logo link, "Homepage": a dark square with a letter, which the screen draws as
    # a picture (an image, or an icon button); the link's name is its alt text.
    def logo(role: str, bottom: float = 51.0) -> CandidateTable:
        b = TableBuilder("vision", "test")
        b.add("0", raw_role="rect", role="button", bbox=(64, 15, 100, bottom))
        b.add("0~img", raw_role="rect", role=role, bbox=(64, 15, 100, bottom))
        b.add("1", raw_role="text", role="text", name="Oct 18, 2019", bbox=(362, 237, 450, 257))
        b.add("2", raw_role="text", role="text", name="I work at", bbox=(302, 379, 376, 405))
        return b.build(screen_size=(1280.0, 800.0), names_read=True)

    ref = SemanticElementRef(
        role="link", name="Homepage", bbox=(64.0, 15.0, 99.0, 50.0), screen_size=(1280, 800),
        anchors=(("Oct 18, 2019", (360.0, 239.4, 450.5, 256.4)),
                 ("I work at", (300.0, 378.3, 379.8, 402.3))),
    )  # fmt: skip
    _assert_taken(ref, logo("img"), "accept.drawn_at_place", "0~img")
    assert drawn_rows(logo("img"), "link", (64.0, 15.0, 99.0, 50.0), 0.5, 24.0) == [1]
    assert drawn_rows(logo("img"), "link", (64.0, 15.0, 99.0, 50.0), 0.5) == []
    # A shape only a button may be is no link's picture; nor is a picture a button's.
    assert decide(ref, logo("checkbox"), MatchConfig()).status != "accepted"
    assert drawn_rows(logo("img"), "button", (64.0, 15.0, 99.0, 50.0), 0.5) == [0]
    # A shape a line tall may be a word the screen's reading missed (two CJK characters).
    low = ref.model_copy(update={"bbox": (64.0, 15.0, 99.0, 30.0)})
    assert decide(low, logo("img", bottom=31.0), MatchConfig()).status != "accepted"
    assert drawn_rows(logo("img", bottom=31.0), "link", (64.0, 15.0, 99.0, 30.0), 0.5, 24.0) == []
    assert decide(ref, logo("img"), MatchConfig(drawn_picture=0.05)).status != "accepted"


def _menu_bar(
    *,
    toggle: float = 25.0,
    twin: float | None = None,
    caption: str = "",
    also: str = "",
    twin_kind: str = "checkbox",
    twin_top: float = 28.0,
) -> CandidateTable:
    """A screenshot's menu bar: a bare checkbox drawn at ``toggle`` px from the left
    (recorded at 26.3), the links "Features" and "Pricing" below it; ``twin`` draws
    another shape of its size (a ``twin_kind``) that far from the left, ``twin_top`` px
    from the top (on its line by default); ``caption`` is read inside the checkbox's shape;
    ``also`` is read further down the page."""
    b = TableBuilder("vision", "test")
    if also:
        b.add("9", raw_role="text", role="text", name=also, bbox=(50, 400, 400, 420))
    b.add("0", raw_role="text", role="link", name="topicseed", bbox=(50, 26, 140, 46))
    b.add("1", raw_role="checkbox", role="checkbox", name=caption,
          bbox=(toggle, 28, toggle + 16, 44))  # fmt: skip
    b.add("2", raw_role="text", role="link", name="Features", bbox=(50, 61, 103, 82))
    b.add("3", raw_role="text", role="link", name="Pricing", bbox=(48, 77, 96, 101))
    if twin is not None:
        box = (twin, twin_top, twin + 16, twin_top + 16)
        b.add("4", raw_role=twin_kind, role="checkbox", bbox=box)
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


TOGGLE_BOX_ONLY = SemanticElementRef(
    role="checkbox", name="Toggle Menu", bbox=(26.3, 29.0, 39.3, 42.0), screen_size=(1280, 800),
    container_path=("Navigation",), nearby_text=("topicseed", "Features", "Pricing"),
)  # fmt: skip
"""Another tool's reference to the toggle: role, name, box, containers and the texts
around it, no anchors."""


def test_another_tools_box_takes_the_one_shape_filling_it_among_its_neighbours() -> None:
    _assert_taken(TOGGLE_BOX_ONLY, _menu_bar(), "accept.drawn_in_box", "1")
    # The same shape a little away from the box fills it no more.
    assert decide(TOGGLE_BOX_ONLY, _menu_bar(toggle=31.0), MatchConfig()).status != "accepted"


def test_another_tools_box_takes_no_shape_beside_a_like_one_or_away_from_its_texts() -> None:
    # A row of like checkboxes: the next one would slide into a removed one's place.
    for twin in (60.0, 100.0):
        beside = decide(TOGGLE_BOX_ONLY, _menu_bar(twin=twin), MatchConfig())
        assert beside.status != "accepted"
    wide = MatchConfig(drawn_row_gap=1.0)
    assert decide(TOGGLE_BOX_ONLY, _menu_bar(twin=600.0), wide).status != "accepted"
    # Its recorded neighbour texts are not read around it.
    elsewhere = TOGGLE_BOX_ONLY.model_copy(update={"nearby_text": ("Sign up", "Log in", "Blog")})
    assert decide(elsewhere, _menu_bar(), MatchConfig()).status != "accepted"
    # A shape showing a caption is a control with a name of its own (the next one, moved
    # into a removed one's place).
    shown = decide(TOGGLE_BOX_ONLY, _menu_bar(caption="Log in"), MatchConfig())
    assert shown.status != "accepted"
    # Its name read on the screen (in a text, which could be its label) leaves the
    # decision to the ranking.
    named = TOGGLE_BOX_ONLY.model_copy(update={"name": "Delete forever"})
    read = decide(named, _menu_bar(also="Delete forever"), MatchConfig())
    assert read.rule != "accept.drawn_in_box"


def test_a_box_that_recorded_no_neighbour_texts_takes_the_one_shape_filling_it() -> None:
    # Role, name and box alone: nothing recorded of the neighbourhood speaks against the
    # shape; the like shape beside it still does.
    bare = TOGGLE_BOX_ONLY.model_copy(update={"nearby_text": (), "container_path": ()})
    _assert_taken(bare, _menu_bar(), "accept.drawn_in_box", "1")
    assert decide(bare, _menu_bar(twin=60.0), MatchConfig()).status != "accepted"
    assert decide(bare, _menu_bar(caption="Log in"), MatchConfig()).status != "accepted"


def _search_bar(elsewhere: tuple[str, str] | None) -> CandidateTable:
    """A screenshot's header: an empty field, the button "Search Web" beside it, the links
    "Home" and "Video" below; ``elsewhere`` reads ``(raw role, role)`` "Search" further
    down the page (the word of a link "News Search", a label)."""
    b = TableBuilder("vision", "test")
    b.add("0", raw_role="text", role="heading", name="Yahoo! News", bbox=(50, 290, 230, 322))
    b.add("1", raw_role="rect", role="textbox", bbox=(58, 344, 238, 368))
    b.add("2", raw_role="rect", role="button", name="Search Web", bbox=(239, 344, 331, 368))
    b.add("3", raw_role="text", role="link", name="Home", bbox=(40, 380, 90, 400))
    b.add("4", raw_role="text", role="link", name="Video", bbox=(70, 405, 130, 425))
    if elsewhere is not None:
        b.add("5", raw_role=elsewhere[0], role=elsewhere[1], name="Search",
              bbox=(130, 599, 173, 620))  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


def test_a_name_read_on_an_element_of_another_kind_does_not_place_the_target() -> None:
    # A search field named by a hidden label: its name is read only in a link further
    # down, which a text field never is; the empty field fills the recorded box.
    ref = SemanticElementRef(
        role="textbox", name="Search", bbox=(58.5, 344.8, 235.5, 365.8),
        screen_size=(1280, 800), nearby_text=("Yahoo! News", "Search Web", "Home"),
    )  # fmt: skip
    for elsewhere in (None, ("text", "link")):
        _assert_taken(ref, _search_bar(elsewhere), "accept.drawn_in_box", "1")
    # Read as a text (a label, which may stand beside the field where it moved), it may
    # be the target's: the ranking decides.
    label = decide(ref, _search_bar(("text", "text")), MatchConfig())
    assert label.rule != "accept.drawn_in_box"


def test_a_box_recorded_on_another_screen_is_read_as_a_zoom_or_a_resized_window() -> None:
    # The toggle recorded at zoom 1.25 (box and screen scaled), or in a 1440 px window
    # with the page centred (the box 80 px to the right): one reading fills the shape.
    box = TOGGLE_BOX_ONLY.bbox
    assert box is not None
    zoomed = TOGGLE_BOX_ONLY.model_copy(
        update={"bbox": tuple(v * 1.25 for v in box), "screen_size": (1600, 1000)}
    )
    _assert_taken(zoomed, _menu_bar(), "accept.drawn_in_box", "1")
    wide = TOGGLE_BOX_ONLY.model_copy(
        update={"bbox": (box[0] + 80, box[1], box[2] + 80, box[3]), "screen_size": (1440, 900)}
    )
    _assert_taken(wide, _menu_bar(), "accept.drawn_in_box", "1")
    # Where the two readings each fill a shape of the role, which one was recorded is not
    # known: no answer by the box.
    ref = SemanticElementRef(
        role="checkbox", name="Keep me signed in", bbox=(500, 500, 520, 520),
        screen_size=(1600, 1000), nearby_text=("Remember me",),
    )  # fmt: skip
    for shown in ("zoom", "window"):
        _assert_taken(ref, _two_boxes(shown), "accept.drawn_in_box", shown)
    assert decide(ref, _two_boxes("zoom", "window"), MatchConfig()).status != "accepted"


def _two_boxes(*shown: str) -> CandidateTable:
    """Checkboxes, each beside a caption "Remember me": ``zoom`` at (400, 400), where a box
    recorded at (500, 500) at zoom 1.25 lies, ``window`` at (500, 500), where it lies when
    the window was resized instead (16 and 20 px: the box's size in each reading)."""
    b = TableBuilder("vision", "test")
    b.add("h", raw_role="text", role="heading", name="Sign in", bbox=(300, 300, 420, 330))
    for key, left, side in (("zoom", 400, 16), ("window", 500, 20)):
        if key in shown:
            b.add(key, raw_role="checkbox", role="checkbox",
                  bbox=(left, left, left + side, left + side))  # fmt: skip
            b.add(f"{key} text", raw_role="text", role="text", name="Remember me",
                  bbox=(left + 30, left, left + 150, left + side))  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


def test_a_like_shape_far_along_its_line_or_column_or_of_another_kind_is_no_row() -> None:
    # An unstyled page draws its icon buttons down one column, hundreds of pixels apart;
    # a shape of another kind beside it (an icon, not a box) is not its like either.
    for twin, top, kind in ((600.0, 28.0, "checkbox"), (25.0, 500.0, "checkbox"),
                            (60.0, 28.0, "icon"), (25.0, 48.0, "icon")):  # fmt: skip
        table = _menu_bar(twin=twin, twin_top=top, twin_kind=kind)
        _assert_taken(TOGGLE_BOX_ONLY, table, "accept.drawn_in_box", "1")
    # Next to it down its column, a box of its kind and size is a row of like boxes.
    below = decide(TOGGLE_BOX_ONLY, _menu_bar(twin=25.0, twin_top=48.0), MatchConfig())
    assert below.status != "accepted"


def test_a_pictogram_read_as_one_or_two_cjk_characters_shows_no_caption() -> None:
    # The OCR model reads a moon and a sun drawn in a button as "し楽": on a screen that
    # reads no Chinese or Japanese text, the shape still shows no caption of its own.
    for glyphs in ("し楽", "三", "し 楽"):
        _assert_taken(TOGGLE_BOX_ONLY, _menu_bar(caption=glyphs), "accept.drawn_in_box", "1")
    # On a page in Chinese, two characters in a button are its caption; three characters
    # or letters are a caption anywhere.
    for caption, also in (("注册", "网易科学人"), ("登录注", ""), ("Go", ""), ("三 Log in", "")):
        found = decide(TOGGLE_BOX_ONLY, _menu_bar(caption=caption, also=also), MatchConfig())
        assert found.status != "accepted", (caption, also)
    # Text in Latin letters elsewhere changes nothing.
    _assert_taken(
        TOGGLE_BOX_ONLY, _menu_bar(caption="三", also="Sign up today"), "accept.drawn_in_box", "1"
    )


MENU = (60.0, 45.0, 76.0, 51.0)
"""Where another tool recorded the button "Menu", drawn as an empty pill."""


def _masthead(
    *,
    icon: float = 59.0,
    like: tuple[float, float] | None = None,
    inside: str = "",
    texts_at: float = 75.0,
    window: bool = False,
) -> CandidateTable:
    """A screenshot's masthead: the menu icon seen only as a mark nothing else covers (a
    row of raw role ``mark``), ``icon`` px from the left (recorded at 60); the section
    links "Domácí" and "Zahraničí" at ``texts_at`` px down, each a mark too. ``like`` draws
    a mark of the icon's size at that ``(left, top)``; ``inside`` is a text read on the
    icon's mark (which is then no mark row); ``window`` makes the table a hint window's."""
    b = TableBuilder("vision", "test")
    links = ((40.0, texts_at, 92.0, texts_at + 15), (40.0, texts_at + 15, 106.0, texts_at + 30))
    b.add("0", raw_role="text", role="link", name="Domácí", bbox=links[0])
    b.add("1", raw_role="text", role="link", name="Zahraničí", bbox=links[1])
    b.add("2", raw_role="text", role="heading", name="Aktuálně", bbox=(300, 30, 560, 70))
    mark = (icon, 44.0, icon + 18.0, 52.0)
    if inside:
        b.add("3", raw_role="text", role="text", name=inside, bbox=mark)
    else:
        b.add("m0", raw_role="mark", role="generic", bbox=mark)
    marks = [mark, *links, (300.0, 30.0, 560.0, 70.0)]
    if like is not None:
        marks.append((like[0], like[1], like[0] + 18.0, like[1] + 8.0))
    extra = {"window": (0.0, 0.0, 640.0, 400.0)} if window else {}
    return b.build(screen_size=(1280.0, 800.0), names_read=True, marks=tuple(marks), **extra)


MENU_BOX_ONLY = SemanticElementRef(
    role="button", name="Menu", bbox=MENU, screen_size=(1280, 800),
    nearby_text=("Domácí", "Zahraničí"),
)  # fmt: skip
"""Another tool's reference to the menu icon: role, name (its ``aria-label``), box and
the texts around it."""


def test_another_tools_box_takes_the_one_mark_filling_it_when_no_row_stands_for_it() -> None:
    decision = decide(MENU_BOX_ONLY, _masthead(), MatchConfig())
    assert decision.status == "accepted" and decision.rule == "accept.mark_in_box"
    best = decision.best
    assert best is not None and best.bbox == (59.0, 44.0, 77.0, 52.0)
    assert best.id == "m0" and best.name == "" and best.role == "generic"
    assert best.signals["name"] == 0.0 and best.signals["web:nearby"] == 1.0
    # The same mark a little away from the box fills it no more.
    assert decide(MENU_BOX_ONLY, _masthead(icon=66.0), MatchConfig()).status != "accepted"


def test_no_mark_is_taken_beside_a_like_one_showing_text_or_away_from_its_texts() -> None:
    # A mark of its size on its line or in its column could slide into its place.
    for like in ((400.0, 45.0), (58.0, 600.0)):
        assert decide(MENU_BOX_ONLY, _masthead(like=like), MatchConfig()).status != "accepted"
    # One of another size there, or of its size elsewhere, is no such mark.
    for like in ((400.0, 200.0), (200.0, 600.0)):
        assert decide(MENU_BOX_ONLY, _masthead(like=like), MatchConfig()).status == "accepted"
    # A text read inside it: a control with a caption of its own.
    assert decide(MENU_BOX_ONLY, _masthead(inside="Log in"), MatchConfig()).status != "accepted"
    # Its recorded neighbour texts are not read near it, or other texts were recorded.
    assert decide(MENU_BOX_ONLY, _masthead(texts_at=300.0), MatchConfig()).status != "accepted"
    other = MENU_BOX_ONLY.model_copy(update={"nearby_text": ("Sport", "Video")})
    assert decide(other, _masthead(), MatchConfig()).status != "accepted"


def test_a_reference_that_recorded_no_neighbour_texts_takes_the_mark_alone() -> None:
    # Role, name and box alone: nothing recorded of the neighbourhood speaks against the
    # one mark filling the box; a mark like it on its line or in its column still does.
    bare = MENU_BOX_ONLY.model_copy(update={"nearby_text": ()})
    decision = decide(bare, _masthead(texts_at=300.0), MatchConfig())
    assert decision.status == "accepted" and decision.rule == "accept.mark_in_box"
    assert decision.best is not None and decision.best.id == "m0"
    assert "web:nearby" not in decision.best.signals
    for like in ((400.0, 45.0), (58.0, 600.0)):
        assert decide(bare, _masthead(like=like), MatchConfig()).status != "accepted"


def test_no_mark_is_taken_for_a_name_read_in_a_window_or_without_marks() -> None:
    named = MENU_BOX_ONLY.model_copy(update={"name": "Domácí"})
    assert decide(named, _masthead(), MatchConfig()).rule != "accept.mark_in_box"
    assert decide(MENU_BOX_ONLY, _masthead(window=True), MatchConfig()).status != "accepted"
    anchored = MENU_BOX_ONLY.model_copy(update={"anchors": (("Aktuálně", (300, 30, 560, 70)),)})
    assert decide(anchored, _masthead(), MatchConfig()).status != "accepted"
    bare = dataclasses.replace(_masthead(), marks=())
    assert decide(MENU_BOX_ONLY, bare, MatchConfig()).status != "accepted"


def test_a_pictures_alternative_text_read_elsewhere_does_not_stop_the_mark() -> None:
    # A logo named by its alt text, which the page also writes as its heading further
    # right: a picture that loaded never shows its alt text, so the heading is another
    # element, and the one mark filling the recorded box is the logo.
    logo = MENU_BOX_ONLY.model_copy(update={"role": "image", "name": "Aktuálně"})
    decision = decide(logo, _masthead(), MatchConfig())
    assert decision.status == "accepted" and decision.rule == "accept.mark_in_box"
    assert decision.best is not None and decision.best.id == "m0"
    # A control's name read elsewhere is its caption there: not taken.
    control = logo.model_copy(update={"role": "button"})
    assert decide(control, _masthead(), MatchConfig()).rule != "accept.mark_in_box"
    # The alt text read on the box itself: a picture drawn as its text, no empty mark.
    drawn = logo.model_copy(update={"name": "Log in"})
    assert decide(drawn, _masthead(inside="Log in"), MatchConfig()).rule != "accept.mark_in_box"


REPLY = (20.0, 300.0, 140.0, 330.0)
"""Where the button "Reply" was recorded, under a comment."""


def _comment_bar(
    *, caption: str = "3 Replies", left: float = 21.0, twin: bool = False, named: str = ""
) -> CandidateTable:
    """A screenshot of a comment: its author and date above, its text, and under it a
    bordered button showing ``caption`` ``left`` px from the left (the recorded box's edge
    at 20), the link "Share" further right, the page's footer at the bottom; ``twin`` draws
    a like bordered button beside it, ``named`` reads that text further down the page."""
    b = TableBuilder("vision", "test")
    b.add("0", raw_role="text", role="text", name="Dana Whitfield", bbox=(20, 200, 180, 220))
    b.add("1", raw_role="text", role="text", name="March 3", bbox=(20, 222, 90, 240))
    b.add("2", raw_role="text", role="text", name="Lovely walk along the canal today.",
          bbox=(20, 250, 400, 270))  # fmt: skip
    b.add("3", raw_role="rect", role="button", name=caption,
          bbox=(left, 301, left + 118, 331))  # fmt: skip
    b.add("4", raw_role="text", role="link", name="Share", bbox=(300, 305, 350, 325))
    if twin:
        b.add("5", raw_role="rect", role="button", name="Report", bbox=(150, 301, 268, 331))
    if named:
        b.add("6", raw_role="text", role="text", name=named, bbox=(20, 700, 200, 720))
    b.add("7", raw_role="text", role="heading", name="Most read", bbox=(20, 740, 140, 760))
    b.add("8", raw_role="text", role="link", name="Newsletter", bbox=(20, 765, 120, 785))
    b.add("9", raw_role="text", role="link", name="Contact", bbox=(20, 788, 90, 800))
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


REPLY_BOX_ONLY = SemanticElementRef(
    role="button", name="Reply", bbox=REPLY, screen_size=(1280, 800),
    nearby_text=("Most read", "Newsletter"),
)  # fmt: skip
"""Another tool's reference to the button: role, name (its ``aria-label``), box and the
texts its recorder found around it (in the page's order, which puts the page's footer
next to it; the screen reads them far below), no anchors."""


def test_a_shape_filling_the_box_and_saying_the_name_in_another_form_is_taken() -> None:
    _assert_taken(REPLY_BOX_ONLY, _comment_bar(), "accept.stem_in_box", "3")
    # The count after the word, an icon read as a character before it.
    _assert_taken(REPLY_BOX_ONLY, _comment_bar(caption="Replies (3)"), "accept.stem_in_box", "3")
    _assert_taken(REPLY_BOX_ONLY, _comment_bar(caption="三 3 replies"), "accept.stem_in_box", "3")
    bare = REPLY_BOX_ONLY.model_copy(update={"nearby_text": ()})
    _assert_taken(bare, _comment_bar(), "accept.stem_in_box", "3")


def test_no_shape_is_taken_for_another_caption_away_from_the_box_or_beside_a_like_one() -> None:
    def answered(table: CandidateTable, config: MatchConfig | None = None) -> bool:
        decision = decide(REPLY_BOX_ONLY, table, config or MatchConfig())
        return decision.status == "accepted" and decision.rule == "accept.stem_in_box"

    # Another control's caption (the one after a removed button, moved into its place).
    assert not answered(_comment_bar(caption="Report"))
    assert not answered(_comment_bar(caption="Repost replies"))
    # The shape a little away from the recorded box; a like shape beside it.
    assert not answered(_comment_bar(left=40.0))
    assert not answered(_comment_bar(twin=True))
    # The name read elsewhere is the ranking's to judge; 0 turns the rule off.
    assert not answered(_comment_bar(named="Reply"))
    assert not answered(_comment_bar(), MatchConfig(stem_chars=0))


def test_stem_mates_want_a_shared_beginning_and_nothing_else_worded() -> None:
    assert stem_mates(["reply"], ["3", "replies"], 4)
    assert not stem_mates(["reply"], ["report"], 4)  # "rep": too short a beginning
    assert not stem_mates(["art"], ["arts"], 4)  # a short word: its beginning says little
    assert not stem_mates(["reply"], ["replies", "below"], 4)


def _moved_bar(
    down: float, *, across: float = 0.0, again: float | None = None, unseen: float | None = None
) -> CandidateTable:
    """:func:`_menu_bar`'s logo, toggle and links moved ``down`` px (a banner inserted
    above them) and the toggle ``across`` px sideways; ``again`` draws a second toggle of its
    size in its column that far down the page, ``unseen`` one that only a mark stands for
    (the detectors did not take it for a shape)."""
    b = TableBuilder("vision", "test")
    b.add("0", raw_role="text", role="link", name="topicseed", bbox=(50, 26 + down, 140, 46 + down))
    b.add("1", raw_role="checkbox", role="checkbox",
          bbox=(25 + across, 28 + down, 41 + across, 44 + down))  # fmt: skip
    b.add("2", raw_role="text", role="link", name="Features", bbox=(50, 61 + down, 103, 82 + down))
    b.add("3", raw_role="text", role="link", name="Pricing", bbox=(48, 77 + down, 96, 101 + down))
    if again is not None:
        b.add("4", raw_role="checkbox", role="checkbox", bbox=(25, again, 41, again + 16))
    marks = [(25 + across, 28 + down, 41 + across, 44 + down)]  # the toggle's own ink
    if unseen is not None:
        marks.append((25.0, unseen, 41.0, unseen + 16.0))
    return b.build(screen_size=(1280.0, 800.0), names_read=True, marks=tuple(marks))


def test_a_shape_moved_down_its_column_with_its_neighbours_is_taken() -> None:
    _assert_taken(TOGGLE_BOX_ONLY, _moved_bar(250.0), "accept.drawn_in_column", "1")
    # At its box, the shape filling it is taken as before.
    _assert_taken(TOGGLE_BOX_ONLY, _moved_bar(0.0), "accept.drawn_in_box", "1")


def test_no_shape_moved_away_from_its_column_or_among_like_ones_or_its_neighbours() -> None:
    def taken(ref: SemanticElementRef, table: CandidateTable) -> bool:
        decision = decide(ref, table, MatchConfig())
        return decision.status == "accepted" and decision.rule == "accept.drawn_in_column"

    assert not taken(TOGGLE_BOX_ONLY, _moved_bar(250.0, across=12.0))
    assert not taken(TOGGLE_BOX_ONLY, _moved_bar(250.0, again=600.0))
    assert not taken(TOGGLE_BOX_ONLY, _moved_bar(250.0, unseen=600.0))
    elsewhere = TOGGLE_BOX_ONLY.model_copy(update={"nearby_text": ("Sign up", "Log in", "Blog")})
    assert not taken(elsewhere, _moved_bar(250.0))
    # Role, name and box alone: nothing vouches for the move.
    bare = TOGGLE_BOX_ONLY.model_copy(update={"nearby_text": (), "container_path": ()})
    assert not taken(bare, _moved_bar(250.0))


def _address_fields(*, caption_between: bool = True) -> CandidateTable:
    """Two fields holding an address, each with an empty copy button (16 x 8 px) beside it,
    under the captions "Fetch over web" and "Fetch over ssh", one block below the other;
    ``caption_between`` False moves the second caption beside its field, leaving nothing
    between the two buttons."""
    b = TableBuilder("vision", "test")
    second = (9.0, 630.0, 216.0, 650.0) if caption_between else (220.0, 670.0, 427.0, 690.0)
    b.add("c1", raw_role="text", role="heading", name="Fetch over web", bbox=(9, 550, 216, 570))
    b.add("f1", raw_role="rect", role="textbox", name="web://example.org/repo",
          bbox=(7, 589, 187, 613))  # fmt: skip
    b.add("b1", raw_role="icon", role="button", bbox=(190, 601, 206, 609))
    b.add("c2", raw_role="text", role="heading", name="Fetch over ssh", bbox=second)
    b.add("f2", raw_role="rect", role="textbox", name="ssh://example.org/repo",
          bbox=(7, 670, 187, 694))  # fmt: skip
    b.add("b2", raw_role="icon", role="button", bbox=(190, 682, 206, 690))
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


COPY_WEB = SemanticElementRef(
    role="button", name="Copy the address", bbox=(189.0, 602.3, 205.0, 608.3),
    screen_size=(1280, 800), nearby_text=("Fetch over web", "Fetch over ssh"),
)  # fmt: skip
"""Another tool's reference to the first copy button, named by a ``title`` the screen does
not show."""


def test_like_shapes_with_a_text_between_them_are_no_column_of_like_ones() -> None:
    # A caption stands between the two buttons: each sits beside its own field, and the
    # second cannot move up into the first's place alone.
    _assert_taken(COPY_WEB, _address_fields(), "accept.drawn_in_box", "b1")
    second = COPY_WEB.model_copy(update={"bbox": (189.0, 682.7, 205.0, 688.7)})
    _assert_taken(second, _address_fields(), "accept.drawn_in_box", "b2")
    # With nothing read between them they are a column of like buttons, as before.
    stacked = decide(COPY_WEB, _address_fields(caption_between=False), MatchConfig())
    assert stacked.status != "accepted"


def _logo_header(*, logo: float = 36.0, second: bool = False) -> CandidateTable:
    """A screenshot's masthead: a square logo picture (``logo`` px a side) at (64, 15)
    showing a letter the screen reads beside it as a large text, then the site's name and
    a menu link; ``second`` draws another picture of the logo's size right of it."""
    b = TableBuilder("vision", "test")
    b.add("0", raw_role="text", role="heading", name="Q", bbox=(59, 8, 105, 57))
    b.add("1", raw_role="rect", role="img", bbox=(64, 15, 64 + logo, 15 + logo))
    b.add("2", raw_role="text", role="link", name="Quill Works", bbox=(131, 30, 235, 54))
    b.add("3", raw_role="text", role="link", name="Stories", bbox=(300, 30, 360, 54))
    if second:
        b.add("4", raw_role="rect", role="img", bbox=(110, 15, 110 + logo, 15 + logo))
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


HOME_LOGO = SemanticElementRef(
    role="link", name="Homepage", bbox=(64.0, 15.0, 99.0, 50.0), screen_size=(1280, 800),
    nearby_text=("Quill Works", "Stories"),
)  # fmt: skip
"""Another tool's reference to a link drawn as its logo, named by its label."""


def test_another_tools_box_takes_the_one_logo_picture_filling_it_for_a_link() -> None:
    _assert_taken(HOME_LOGO, _logo_header(), "accept.drawn_in_box", "1")
    # A picture too small for a logo (a word the screen did not read), or one beside a
    # picture like it (a row of avatars: the next slides into a removed one's place).
    assert decide(HOME_LOGO, _logo_header(logo=12.0), MatchConfig()).status != "accepted"
    assert decide(HOME_LOGO, _logo_header(second=True), MatchConfig()).status != "accepted"
