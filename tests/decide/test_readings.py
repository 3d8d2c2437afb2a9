"""Elements a screenshot reads at their place otherwise than the ranking looks for: a
field's placeholder, a heading in body type, a caption other than the name."""

import dataclasses

from decide_helpers import assert_taken as _assert_taken
from decide_helpers import texts_read as _texts

from resolver import MatchConfig, SemanticElementRef
from resolver.decide import decide
from resolver.decide.readings import read_at_place, shaped_at_place
from resolver.decide.rule import Context, Decision
from resolver.matcher import score_table
from resolver.results import Candidate
from resolver.table import CandidateTable, TableBuilder

FIELD = (8.0, 742.0, 185.0, 763.0)
"""Where the borderless search field "Search the site" was recorded."""


def _footer(
    *,
    text_at: float = 14.0,
    twice: bool = False,
    moved: float = 0.0,
    field: float = 0.0,
    twice_role: str = "text",
    twice_at: tuple[float, float, float, float] = (400, 100, 513, 120),
) -> CandidateTable:
    """A screenshot's footer: two links above a search field drawn without a border, whose
    placeholder "Search the site" is read as text starting at ``text_at`` px (inside the
    field from 8 px); ``twice`` reads the same text again (``twice_at``, higher up, as
    ``twice_role``); ``moved`` moves the links down by that much, ``field`` the field."""
    rows = [
        ("0", "link", "Newsletters", (49, 689 + moved, 125, 709 + moved)),
        ("1", "link", "All IT Tools", (89, 669 + moved, 165, 692 + moved)),
        ("2", "text", "Search the site", (text_at, 742 + field, text_at + 113, 762 + field)),
    ]
    if twice:
        rows.append(("3", twice_role, "Search the site", twice_at))
    return _texts(*rows)


FIELD_REF = SemanticElementRef(
    role="textbox", name="Search the site", bbox=FIELD, screen_size=(1280, 800),
    anchors=(("Newsletters", (48.0, 690.0, 124.0, 707.0)),
             ("All IT Tools", (88.0, 672.0, 166.0, 689.0))),
)  # fmt: skip


def test_a_borderless_field_is_taken_by_its_placeholder_inside_its_recorded_box() -> None:
    _assert_taken(FIELD_REF, _footer(), "accept.read_at_place", "2")


def test_a_placeholder_outside_the_box_read_twice_or_with_the_page_moved_is_not_taken() -> None:
    twice_on_line = _footer(twice=True, twice_at=(130, 742, 180, 762))
    for table in (_footer(text_at=200.0), twice_on_line, _footer(moved=40.0)):
        assert decide(FIELD_REF, table, MatchConfig()).rule != "accept.read_at_place"
    # Read again elsewhere as plain text, the reading on the recorded line is the target,
    # its anchors where they were (as for another tool's box, below).
    _assert_taken(FIELD_REF, _footer(twice=True), "accept.read_at_place", "2")
    # A heading set in body type is read as text too, and taken the same way.
    heading = FIELD_REF.model_copy(update={"role": "heading"})
    _assert_taken(heading, _footer(), "accept.read_at_place", "2")


FIELD_BOX_ONLY = SemanticElementRef(
    role="textbox", name="Search the site", bbox=FIELD, screen_size=(1280, 800),
    container_path=("Footer",),
)  # fmt: skip
"""Another tool's reference to the field: role, name, box and containers, no anchors."""


def test_a_name_read_once_on_the_screen_inside_another_tools_box_is_taken() -> None:
    _assert_taken(FIELD_BOX_ONLY, _footer(), "accept.read_at_place", "2")
    # The links above moved: nothing recorded says so, and nothing needs to.
    _assert_taken(FIELD_BOX_ONLY, _footer(moved=40.0), "accept.read_at_place", "2")


def test_another_tools_box_takes_the_name_read_once_up_or_down_its_column() -> None:
    # A line removed above moved the field up by 18 px; a banner moved it down by 40.
    for field in (-18.0, 40.0):
        _assert_taken(FIELD_BOX_ONLY, _footer(field=field), "accept.read_at_place", "2")
    # Across the column it is not taken, nor off its line for a reference whose anchors
    # measure the page's move.
    moved_across = _footer(text_at=200.0, field=-18.0)
    assert decide(FIELD_BOX_ONLY, moved_across, MatchConfig()).rule != "accept.read_at_place"
    off_line = decide(FIELD_REF, _footer(field=-18.0), MatchConfig())
    assert off_line.rule != "accept.read_at_place"


def test_another_tools_box_takes_the_plain_reading_on_its_line_among_several() -> None:
    # The name is read twice as plain text: the reading on the recorded line is the target,
    # as a namesake at the recorded place is among twins.
    _assert_taken(FIELD_BOX_ONLY, _footer(twice=True), "accept.read_at_place", "2")
    # Not when another reading is on the line too, nor when the field left the line.
    for table in (
        _footer(twice=True, twice_at=(130, 742, 180, 762)),
        _footer(twice=True, field=40.0),
    ):
        assert decide(FIELD_BOX_ONLY, table, MatchConfig()).rule != "accept.read_at_place"
    # A heading copied into its own place pushed the heading on: the readings elsewhere
    # with the recorded role's look are the ranking's to judge, and it finds them tied.
    heading = FIELD_BOX_ONLY.model_copy(update={"role": "heading"})
    rows = [
        ("0", "link", "Newsletters", (49, 689, 125, 709)),
        ("2", "text", "Search the site", (14, 742, 127, 762)),
        ("3", "text", "Search the site", (14, 560, 127, 580)),
        ("4", "text", "Search the site", (14, 640, 127, 660)),
    ]
    _assert_taken(heading, _texts(*rows), "accept.read_at_place", "2")
    rows[2:] = [(key, "heading", name, box) for key, _, name, box in rows[2:]]
    assert decide(heading, _texts(*rows), MatchConfig()).rule == "ambiguous.margin"


def test_another_tools_box_does_not_take_a_name_read_off_its_place() -> None:
    assert decide(FIELD_BOX_ONLY, _footer(text_at=200.0), MatchConfig()).rule != (
        "accept.read_at_place"
    )
    # A hint window cannot say the name is read nowhere else.
    b = TableBuilder("vision", "test")
    b.add("2", raw_role="text", role="text", name="Search the site", bbox=(14, 742, 127, 762))
    window = b.build(
        screen_size=(1280.0, 800.0), names_read=True, window=(0.0, 640.0, 400.0, 800.0)
    )
    assert decide(FIELD_BOX_ONLY, window, MatchConfig()).rule != "accept.read_at_place"


def test_a_box_from_another_screen_size_takes_the_name_read_at_one_of_its_readings() -> None:
    # Recorded in a wider window: the box as a zoom puts it (the page's text 80 px up) and
    # as the window left it, where the placeholder is read on the recorded line.
    wider = FIELD_BOX_ONLY.model_copy(update={"screen_size": (1440, 900)})
    _assert_taken(wider, _footer(), "accept.read_at_place", "2")
    # Read off every reading: not taken.
    assert decide(wider, _footer(text_at=200.0), MatchConfig()).rule != "accept.read_at_place"
    # Up or down its column: at the box as a zoom puts it, and at a reading within the
    # screen's width (here the page centred in the wider window) ...
    centred = FIELD_BOX_ONLY.model_copy(
        update={"screen_size": (1440, 900), "bbox": (168.0, 742.0, 345.0, 763.0)}
    )
    table = _texts(("2", "text", "Search the site", (90, 442, 203, 462)))
    _assert_taken(centred, table, "accept.read_at_place", "2")
    # ... but not at a reading a resized window would have moved partly off the screen:
    # recorded at zoom 1.25 at the head of the page (the field removed), the box centred
    # again reaches past the left edge, and its column the "Search" read at the foot.
    zoomed = SemanticElementRef(
        role="textbox", name="Search", bbox=(35.0, 10.0, 256.25, 36.25), screen_size=(1600, 1000)
    )
    foot = _texts(("0", "text", "Search", (12, 783, 54, 799)))
    assert decide(zoomed, foot, MatchConfig()).rule != "accept.read_at_place"


PROFILE = (48.0, 763.0, 105.44, 780.0)
"""Where the button named "Profile" (showing "Sign in") was recorded."""


def _sign_in_footer(
    *, sign_in_at: float = 763.0, twice: bool = False, rail_at: float = 696.0
) -> CandidateTable:
    """A screenshot's footer: "Sign in" read at ``sign_in_at`` (inside the recorded button
    when 763), the links "Skip to Right rail" and "Skip to Main content" above it;
    ``twice`` reads "Sign in" again further up the page."""
    rows = [
        ("s", "link", "Sign in", (61, sign_in_at - 3, 102, sign_in_at + 21)),
        ("r", "link", "Skip to Right rail", (50, rail_at - 2, 160, rail_at + 19)),
        ("m", "link", "Skip to Main content", (50, 676, 184, 697)),
    ]
    if twice:
        rows.append(("t", "link", "Sign in", (61, 100, 102, 124)))
    return _texts(*rows)


SIGN_IN = SemanticElementRef(
    role="button", name="Profile", bbox=PROFILE, screen_size=(1280, 800),
    anchors=(("Sign in", (57.84, 763.0, 105.84, 781.0)),
             ("Skip to Right rail", (48.0, 696.0, 158.67, 713.0)),
             ("Skip to Main content", (48.0, 678.0, 182.66, 695.0))),
)  # fmt: skip


def test_a_button_showing_a_caption_other_than_its_name_is_taken_by_that_caption() -> None:
    _assert_taken(SIGN_IN, _sign_in_footer(), "accept.caption_at_place", "s")


def test_a_caption_moved_read_twice_or_left_alone_is_not_taken() -> None:
    config = MatchConfig()
    # The caption moved away from the box the other anchors still put the button at.
    assert (
        decide(SIGN_IN, _sign_in_footer(sign_in_at=720.0), config).rule != "accept.caption_at_place"
    )
    # Another "Sign in" on the screen: which one is the button's is not said.
    assert decide(SIGN_IN, _sign_in_footer(twice=True), config).rule != "accept.caption_at_place"
    # The other anchors moved (the page changed around it): not vouched for.
    moved = decide(SIGN_IN, _sign_in_footer(rail_at=600.0), config)
    assert moved.rule != "accept.caption_at_place"
    # With the caption as its only anchor, nothing but the caption says where it is.
    alone = SIGN_IN.model_copy(update={"anchors": SIGN_IN.anchors[:1]})
    assert decide(alone, _sign_in_footer(), config).status != "accepted"


def test_a_heading_read_as_text_taller_than_its_line_is_inside_its_box() -> None:
    # The ink box of a line read on the screen is taller than the element's (22 px against
    # 18): its centre on the recorded line and its width inside the box are what count.
    ref = SemanticElementRef(
        role="heading", name="Minecraft 1.8 - The Bountiful Update",
        bbox=(26.0, 523.88, 1052.0, 541.88), screen_size=(1280, 800),
        anchors=(("Minecraft News", (28.0, 412.0, 258.0, 438.0)),
                 ("+ Added Slime Block", (26.0, 557.88, 180.0, 574.88))),
    )  # fmt: skip
    table = _texts(
        ("n", "heading", "Minecraft News", (30, 410, 260, 440)),
        ("h", "text", "Minecraft 1.8 - The Bountiful Update", (30, 522, 297, 543)),
        ("s", "text", "+ Added Slime Block", (27, 556, 180, 577)),
    )
    _assert_taken(ref, table, "accept.read_at_place", "h")
    # Centred on another line, it is not.
    low = _texts(
        ("n", "heading", "Minecraft News", (30, 410, 260, 440)),
        ("h", "text", "Minecraft 1.8 - The Bountiful Update", (30, 540, 297, 561)),
        ("s", "text", "+ Added Slime Block", (27, 556, 180, 577)),
    )
    assert decide(ref, low, MatchConfig()).rule != "accept.read_at_place"


def test_a_name_read_with_the_recorded_look_is_not_taken_up_or_down_the_column() -> None:
    # "Log In" lost a word ("In" stands at the recorded place); the link read "Log In" one
    # line lower is another link, read with the recorded role's look, tied with it: the
    # column alone does not make it the target (only an element drawn otherwise).
    ref = SemanticElementRef(
        role="link", name="Log In", bbox=(8.0, 417.0, 61.0, 434.0), screen_size=(1280, 800)
    )
    rows = (("0", "link", "In", (10, 418, 34, 436)), ("1", "link", "Log In", (12, 458, 47, 479)))
    config = MatchConfig()
    table = _texts(*rows)
    scored = score_table(ref, table, config, k=8)
    ranked = tuple(Candidate.of(table, scored, k) for k in range(len(scored.rows)))
    even = tuple(dataclasses.replace(c, score=ranked[0].score) for c in ranked)
    tie = Decision("ambiguous", "tied", even, runner_up=even[1], rule="ambiguous.margin")
    assert read_at_place(Context(ref, table, scored, config), tie) is None
    # Read as plain text (a heading in body type), the same reading is taken.
    heading = ref.model_copy(update={"role": "heading"})
    plain = _texts(
        ("0", "text", "In", (10, 418, 34, 436)), ("1", "text", "Log In", (12, 458, 47, 479))
    )
    scored = score_table(heading, plain, config, k=8)
    ranked = tuple(Candidate.of(plain, scored, k) for k in range(len(scored.rows)))
    refusal = Decision("not_found", "under the threshold", ranked, rule="refuse.threshold")
    taken = read_at_place(Context(heading, plain, scored, config), refusal)
    assert taken is not None and taken.best is not None and taken.best.id == "1"


def test_another_tools_name_cut_short_is_read_at_its_place() -> None:
    # A recorder kept the first 23 characters of a long heading, read as plain text.
    table = _texts(
        ("n", "heading", "Minecraft News", (30, 410, 260, 440)),
        ("h", "text", "Minecraft 1.8 - The Bountiful Update", (30, 522, 297, 543)),
    )
    cut = SemanticElementRef(
        role="heading", name="Minecraft 1.8 - The Bou", bbox=(26.0, 523.88, 1052.0, 541.88),
        screen_size=(1280, 800),
    )  # fmt: skip
    _assert_taken(cut, table, "accept.read_at_place", "h")
    # A short start, a name the reading does not begin with, or one that ends where a word
    # of the reading ends (another element's whole name) is not a name cut short.
    for name in ("Minecraft 1.8", "Minecraft 1.9 - The Bou", "Minecraft 1.8 - The Bountiful"):
        ref = cut.model_copy(update={"name": name})
        assert decide(ref, table, MatchConfig()).rule != "accept.read_at_place"


def test_a_name_cut_between_two_words_is_read_in_the_words_of_its_run() -> None:
    # A recorder kept the first 30 characters, ending in the blank between two words (an
    # accessible name is trimmed: a blank at its end says where it was cut); the screen
    # reads the heading as text, and the words of it that read the cut name apart (which
    # the ranking left out here).
    table = _texts(
        ("n", "heading", "Minecraft News", (30, 410, 260, 440)),
        ("h", "text", "Minecraft 1.8 - The Bountiful Update", (28, 522, 300, 543)),
        ("h.w", "link", "Minecraft 1.8 - The Bountiful", (28, 522, 243, 543)),
    )
    cut = SemanticElementRef(
        role="heading", name="Minecraft 1.8 - The Bountiful ",
        bbox=(26.0, 523.88, 1052.0, 541.88), screen_size=(1280, 800),
    )  # fmt: skip
    config = MatchConfig()

    def judged(ref: SemanticElementRef) -> Decision | None:
        scored = score_table(ref, table, config, k=8)
        rows = [k for k in range(len(scored.rows)) if table.ids[int(scored.rows[k])] != "h.w"]
        ranked = tuple(Candidate.of(table, scored, k) for k in rows)
        refusal = Decision("not_found", "under the threshold", ranked, rule="refuse.threshold")
        return read_at_place(Context(ref, table, scored, config), refusal)

    taken = judged(cut)
    assert taken is not None and taken.best is not None and taken.best.id == "h"
    # Without the blank, the name may be another element's whole name.
    assert judged(cut.model_copy(update={"name": "Minecraft 1.8 - The Bountiful"})) is None


def test_the_words_reading_the_name_stand_for_their_run_on_the_line() -> None:
    # A number was added after the name; the run and the words of it that read the name are
    # one element on the recorded line, and the name is read again further down.
    name = "Minecraft 1.8 - The Bountiful Update"
    table = _texts(
        ("h", "text", f"{name} (90).", (30, 522, 330, 543)),
        ("h.w", "link", name, (30, 522, 297, 543)),
        ("x", "text", name, (30, 700, 297, 721)),
    )
    ref = SemanticElementRef(
        role="heading", name=name, bbox=(26.0, 523.88, 1052.0, 541.88), screen_size=(1280, 800)
    )
    _assert_taken(ref, table, "accept.read_at_place", "h.w")


def _masthead(raw: str = "rect", twin: bool = False) -> CandidateTable:
    """A search field, its "Search" button under it, and a plain "Search" text below that,
    as a screenshot reads them (another tool's box points at the button); ``raw``: what the
    button was seen as; ``twin``: a second "Search" button further down."""
    b = TableBuilder("vision", "test")
    b.add("f", raw_role="rect", role="textbox", name="", bbox=(10, 28, 184, 46))
    b.add("b", raw_role=raw, role="button", name="Search", bbox=(7, 48, 68, 70))
    b.add("x", raw_role="text", role="text", name="Menu", bbox=(200, 50, 240, 66))
    b.add("s", raw_role="text", role="link", name="Search", bbox=(9, 66, 53, 87))
    b.add("n", raw_role="text", role="link", name="News", bbox=(36, 96, 64, 112))
    b.add("p", raw_role="text", role="link", name="Sports", bbox=(36, 108, 68, 126))
    if twin:
        b.add("t", raw_role="rect", role="button", name="Search", bbox=(7, 90, 68, 112))
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


def test_the_one_shape_of_the_role_reading_the_name_at_the_box_breaks_a_tie() -> None:
    # Recorded in a wider window (the page centred in it): the button's box, 80 px across.
    ref = SemanticElementRef(
        role="button", name="Search", bbox=(88, 47, 146.2, 68), screen_size=(1440, 900),
        nearby_text=("News", "Sports"),
    )  # fmt: skip
    taken = decide(ref, _masthead(), MatchConfig())
    assert taken.status == "accepted" and taken.best is not None and taken.best.id == "b"
    # (The button is read on the line of the box as the window left it, the page centred:
    # ``accept.read_at_place`` takes it first. The tie the ranking leaves is broken by the
    # shape alone too.)
    config = MatchConfig()
    scored = score_table(ref, _masthead(), config, k=8)
    ranked = tuple(Candidate.of(_masthead(), scored, k) for k in range(len(scored.rows)))
    tie = Decision("ambiguous", "tied", ranked, runner_up=ranked[1], rule="ambiguous.margin")
    broken = shaped_at_place(Context(ref, _masthead(), scored, config), tie)
    assert broken is not None and broken.best is not None and broken.best.id == "b"
    # Two buttons reading it: the shape says nothing of which one.
    assert decide(ref, _masthead(twin=True), MatchConfig()).rule != "accept.shaped_at_place"
    # The button read as a text line, not drawn as a shape: no look to go by.
    assert decide(ref, _masthead(raw="text"), MatchConfig()).rule != "accept.shaped_at_place"
    # Too far from the recorded box for the shape to stand for it.
    far = ref.model_copy(update={"bbox": (88, 140, 146.2, 161)})
    assert decide(far, _masthead(), MatchConfig()).rule != "accept.shaped_at_place"


SEARCH_FIELD = (8.0, 684.0, 185.0, 705.0)
"""Where a field named by its ``aria-label`` "Find articles" was recorded."""


def _search_panel(
    *, field_at: float = 684.0, again: bool = False, text: tuple[float, float] = (-2.0, 18.0)
) -> CandidateTable:
    """A screenshot with a bordered field at ``field_at`` showing its placeholder "What are
    you looking for?" (the field's row and the text read inside it, ``text`` its top and
    bottom from the field's top), a heading above it, and, with ``again``, a second field
    showing the same placeholder further up."""
    b = TableBuilder("vision", "test")
    b.add("h", raw_role="text", role="heading", name="Latest news", bbox=(8, 620, 200, 650))
    top = field_at + 2.0
    b.add("f", raw_role="rect", role="textbox", name="What are you looking for?",
          bbox=(10, top, 184, top + 18))  # fmt: skip
    b.add("t", raw_role="text", role="text", name="What are you looking for?",
          bbox=(15, top + text[0], 150, top + text[1]))  # fmt: skip
    if again:
        b.add("g", raw_role="rect", role="textbox", name="What are you looking for?",
              bbox=(10, 202, 184, 220))  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


LABELLED = SemanticElementRef(
    role="textbox", name="Find articles", bbox=SEARCH_FIELD, screen_size=(1280, 800),
    attributes={"type": "text", "placeholder": "What are you looking for?"},
)  # fmt: skip


def test_a_field_named_otherwise_is_taken_by_the_placeholder_it_shows() -> None:
    # Its aria-label is drawn nowhere; the placeholder it recorded is read once, in it.
    _assert_taken(LABELLED, _search_panel(), "accept.placeholder_at_place", "f")
    # Without a name, a field drawn as its placeholder beside a magnifier read as "Q".
    unnamed = SemanticElementRef(
        role="textbox", bbox=(695.0, 16.0, 925.0, 44.0), screen_size=(1280, 800),
        attributes={"placeholder": "Search"},
    )  # fmt: skip
    line = _texts(("q", "text", "Q Search", (684, 16, 744, 40)),
                  ("a", "link", "Your profile", (966, 21, 1043, 41)))  # fmt: skip
    _assert_taken(unnamed, line, "accept.placeholder_at_place", "q")


def test_a_field_recorded_in_a_wider_window_is_taken_by_its_placeholder_at_a_reading() -> None:
    # Recorded in a 1440x900 window with the page centred: the box is 80 px further right
    # and, rescaled to this screen, lies above the field; the placeholder, read once, stands
    # in the box re-centred, as a resized window moves a centred page.
    wide = LABELLED.model_copy(
        update={"bbox": (88.0, 684.0, 265.0, 705.0), "screen_size": (1440, 900)}
    )
    _assert_taken(wide, _search_panel(), "accept.placeholder_at_place", "f")
    # Read twice, or at none of the readings: not taken.
    config = MatchConfig()
    assert decide(wide, _search_panel(again=True), config).status != "accepted"
    assert decide(wide, _search_panel(field_at=740.0), config).status != "accepted"


def test_a_placeholder_read_twice_moved_or_not_recorded_is_not_taken() -> None:
    config = MatchConfig()
    # Two fields show it: which one is the target is not said.
    assert decide(LABELLED, _search_panel(again=True), config).status != "accepted"
    # The field is no longer where it was recorded.
    assert decide(LABELLED, _search_panel(field_at=740.0), config).status != "accepted"
    # Without the placeholder recorded, the name is read nowhere.
    bare = LABELLED.model_copy(update={"attributes": {"type": "text"}})
    assert decide(bare, _search_panel(), config).status != "accepted"


def test_a_field_moved_down_its_column_with_its_neighbours_is_taken_by_its_placeholder() -> None:
    # A block inserted above pushed the field 40 px down its column; the heading recorded
    # as its neighbour text is read just above it, so the two moved together.
    near = LABELLED.model_copy(update={"nearby_text": ("Latest news",)})
    _assert_taken(near, _search_panel(field_at=724.0), "accept.placeholder_at_place", "f")
    config = MatchConfig()
    # Without neighbour texts recorded, nothing vouches for the move (as before).
    assert decide(LABELLED, _search_panel(field_at=724.0), config).status != "accepted"
    # Neighbour texts read nowhere around it: another field now shows that placeholder.
    other = LABELLED.model_copy(update={"nearby_text": ("Weather today",)})
    assert decide(other, _search_panel(field_at=724.0), config).status != "accepted"
    # The placeholder read in two fields: which one moved is not said.
    assert decide(near, _search_panel(field_at=724.0, again=True), config).status != "accepted"
    # Off the recorded column (the box recorded 200 px further right).
    aside = near.model_copy(update={"bbox": (208.0, 684.0, 385.0, 705.0)})
    assert decide(aside, _search_panel(field_at=724.0), config).status != "accepted"


def test_a_placeholder_read_taller_than_its_fields_border_is_that_field() -> None:
    # OCR's box of the placeholder reaches 3 px above and 2 px below the field's border.
    _assert_taken(LABELLED, _search_panel(text=(-3.0, 20.0)), "accept.placeholder_at_place", "f")
    # The same words read as a caption above the field (their middle outside it): two
    # elements read the placeholder, and which is the field is not said.
    above = _search_panel(text=(-24.0, -4.0))
    assert decide(LABELLED, above, MatchConfig()).status != "accepted"


def _dated(band: str | None) -> CandidateTable:
    """A screenshot's blog page: a date heading drawn in body type, read as text, inside a
    shape drawn around it (``band``: the vision source's kind for it; ``None``: no shape)
    that the vision source names by the text inside; then another heading further down."""
    b = TableBuilder("vision", "test")
    b.add("0", raw_role="text", role="heading", name="Silicon Exposed", bbox=(53, 65, 326, 111))
    date = "Sunday, May 8, 2016"
    parent = -1
    if band is not None:
        parent = b.add("1", raw_role=band, role="textbox", name=date, bbox=(60, 217, 232, 240))
    b.add("2", raw_role="text", role="text", name=date, parent=parent, bbox=(63, 218, 228, 238))
    b.add("3", raw_role="text", role="heading", name="So what's a GreenPak?",
          bbox=(63, 395, 300, 419))  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


def test_a_text_read_inside_the_shape_named_by_it_is_read_once() -> None:
    # Another tool's reference (box, name, role): the date heading read as plain text at
    # its box. The band drawn around it bears its name too, but is the same thing drawn.
    ref = SemanticElementRef(role="heading", name="Sunday, May 8, 2016",
                             bbox=(60, 222.72, 816, 234.72), screen_size=(1280, 800),
                             nearby_text=["Silicon Exposed"])  # fmt: skip
    _assert_taken(ref, _dated(None), "accept.read_at_place", "2")
    _assert_taken(ref, _dated("rect"), "accept.read_at_place", "2")
    # A text (not a shape) around it reading the same name is another reading.
    assert decide(ref, _dated("text"), MatchConfig()).status != "accepted"
    # Sought for a control, a shape around the text may be another control (a button
    # beside a removed field): read twice.
    button = ref.model_copy(update={"role": "button"})
    _assert_taken(button, _dated(None), "accept.read_at_place", "2")
    assert decide(button, _dated("rect"), MatchConfig()).status != "accepted"


def _share_row(moved: float = 0.0, footer: bool = False) -> CandidateTable:
    """A screenshot of a row of sharing pictures that did not load, each drawn as a
    broken-image icon and its alternative text in its link's colour (the text 24 px right of
    where the picture starts), ``moved`` down the page by a banner; ``footer`` reads a link
    "Mail" further down as well."""
    rows = [
        ("0", "link", "Print", (160, 212 + moved, 200, 230 + moved)),
        ("1", "link", "Mail", (221, 212 + moved, 259, 230 + moved)),
        ("2", "link", "Forward", (280, 212 + moved, 330, 230 + moved)),
    ]
    if footer:
        rows.append(("3", "link", "Mail", (600, 760, 640, 778)))
    return _texts(*rows)


SHARE_REF = SemanticElementRef(
    role="image", name="Mail", bbox=(197.0, 213.0, 261.0, 231.0), screen_size=(1280, 800)
)
"""Another tool's reference to the "Mail" picture: role, name and box."""


def test_another_tools_picture_is_taken_by_its_alternative_text_read_as_a_link() -> None:
    # A picture inside a link that did not load shows its alternative text in the link's
    # colour: read once, in the recorded column, it is the picture, moved or not.
    for moved in (0.0, 290.0):
        _assert_taken(SHARE_REF, _share_row(moved), "accept.read_at_place", "1")
    # Read twice, off the recorded line: not taken.
    assert decide(SHARE_REF, _share_row(290.0, True), MatchConfig()).rule != (
        "accept.read_at_place"
    )
    # A link starting where the picture did is a caption beside it (a logo and the site's
    # name), which stays when the picture goes: no icon is drawn before it.
    caption = _texts(("1", "link", "Mail", (198, 502, 236, 520)))
    assert decide(SHARE_REF, caption, MatchConfig()).rule != "accept.read_at_place"
    # A link reference is read with its own look: the ranking judges it, not this rule.
    link = SHARE_REF.model_copy(update={"role": "link"})
    assert decide(link, _share_row(290.0), MatchConfig()).rule != "accept.read_at_place"


def _log_in_moved_up(
    *, button_top: float = 394.0, width: float = 56.0, twin: bool = False
) -> CandidateTable:
    """A screenshot after the button above "Log In" went: the button "Log In" (``width`` px
    wide) moved up to ``button_top``, the link "Log In" that was below it now at the
    button's old place; ``twin`` draws a second button "Log In" further down."""
    b = TableBuilder("vision", "test")
    b.add("b", raw_role="rect", role="button", name="Log In",
          bbox=(7, button_top, 7 + width, button_top + 24))  # fmt: skip
    b.add("l", raw_role="text", role="link", name="Log In", bbox=(10, 414, 50, 438))
    b.add("p", raw_role="text", role="link", name="Editor's Picks", bbox=(8, 431, 99, 455))
    if twin:
        b.add("t", raw_role="rect", role="button", name="Log In", bbox=(7, 600, 63, 624))
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


LOG_IN_BUTTON = SemanticElementRef(
    role="button", name="Log In", bbox=(8.0, 416.0, 61.0, 437.0), screen_size=(1280, 800),
    nearby_text=("Subscribe", "Editor\u2019s Picks"),
)  # fmt: skip


def test_a_link_in_a_buttons_place_gives_way_to_the_button_moved_a_line() -> None:
    decision = decide(LOG_IN_BUTTON, _log_in_moved_up(), MatchConfig())
    assert decision.status == "accepted" and decision.best is not None
    assert decision.best.id == "b" and "prefer.shaped" in decision.rules
    # A second button of the name; the button moved further than a line; a shape of
    # another size (a field the screen took for a button, showing the name as its
    # placeholder); a link recorded.
    for table in (
        _log_in_moved_up(twin=True),
        _log_in_moved_up(button_top=300.0),
        _log_in_moved_up(width=264.0),
    ):
        assert "prefer.shaped" not in decide(LOG_IN_BUTTON, table, MatchConfig()).rules
    link = LOG_IN_BUTTON.model_copy(update={"role": "link"})
    assert "prefer.shaped" not in decide(link, _log_in_moved_up(), MatchConfig()).rules
