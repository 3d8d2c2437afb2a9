"""Names a screenshot reads edited at the element's place: grown by a count, a word added
or dropped, a button's caption edited."""

from decide_helpers import assert_taken as _assert_taken
from decide_helpers import texts_read as _texts

from resolver import MatchConfig, SemanticElementRef
from resolver.decide import decide
from resolver.decide.edits import edited_in_box
from resolver.decide.rule import Context, Decision
from resolver.matcher import score_table
from resolver.results import Candidate
from resolver.table import CandidateTable, TableBuilder

BLOG = (48.0, 116.0, 79.0, 133.0)
"""Where the menu link "Blog" was recorded, under "Features", "Pricing", "Free SEO Tools"."""


def _menu(blog: str = "Blog.(27).", *, left: float = 51.0, also: str = "") -> CandidateTable:
    """A menu read on a screenshot: three links above ``blog`` read from ``left`` px on the
    recorded line; ``also`` reads another text further down."""
    rows = [
        ("f", "link", "Features", (50, 61, 103, 82)),
        ("p", "link", "Pricing", (50, 77, 92, 101)),
        ("s", "link", "Free SEO Tools", (48, 93, 151, 118)),
        ("b", "link", blog, (left, 113, left + 8.0 * len(blog), 137)),
    ]
    if also:
        rows.append(("a", "link", also, (48, 400, 48 + 8.0 * len(also), 420)))
    return _texts(*rows)


BLOG_REF = SemanticElementRef(
    role="link", name="Blog", bbox=BLOG, screen_size=(1280, 800),
    anchors=(("Pricing", (48.0, 80.0, 94.22, 97.0)), ("Free SEO Tools", (48.0, 98.0, 149.7, 115.0)),
             ("Features", (48.0, 62.0, 102.2, 79.0))),
)  # fmt: skip


def test_a_name_with_a_count_added_is_taken_where_it_grew_from() -> None:
    _assert_taken(BLOG_REF, _menu(), "accept.extended_at_place", "b")


def test_a_grown_name_elsewhere_twice_or_with_words_added_is_not_taken() -> None:
    config = MatchConfig()
    # Starting elsewhere on the line; a second element with the recorded words; words added
    # (not a count) where only anchors before it vouch for the place (a removed "Blog" lets
    # "Blog archive" move up into it).
    for table in (_menu(left=90.0), _menu(also="Blog (3)"), _menu("Blog archive")):
        assert decide(BLOG_REF, table, config).rule != "accept.extended_at_place"


def test_another_tools_box_takes_a_name_grown_by_a_count_read_nowhere_else() -> None:
    box_only = BLOG_REF.model_copy(update={"anchors": ()})
    _assert_taken(box_only, _menu(), "accept.extended_at_place", "b")
    # Words added (not a count), another element reading the recorded words, a start
    # elsewhere on the line: not taken.
    for table in (_menu("Blog archive"), _menu(also="Blog (3)"), _menu(left=90.0)):
        assert decide(box_only, table, MatchConfig()).rule != "accept.extended_at_place"


def test_another_screens_box_takes_a_name_grown_by_a_count_at_one_of_its_readings() -> None:
    # Recorded in a 1440 px window with the page centred (the box 80 px to the right) and
    # at zoom 1.25: the count grew from the box as the screen shows it.
    box_only = BLOG_REF.model_copy(update={"anchors": ()})
    left, top, right, bottom = BLOG
    wide = box_only.model_copy(
        update={"bbox": (left + 80, top, right + 80, bottom), "screen_size": (1440, 900)}
    )
    zoomed = box_only.model_copy(
        update={"bbox": tuple(v * 1.25 for v in BLOG), "screen_size": (1600, 1000)}
    )
    for ref in (wide, zoomed):
        _assert_taken(ref, _menu(), "accept.extended_at_place", "b")
        # Read from a start at none of the readings: not taken.
        assert decide(ref, _menu(left=150.0), MatchConfig()).rule != "accept.extended_at_place"


VIDEOS = (8.0, 153.78, 1272.0, 180.78)
"""Where the heading "Videos" was recorded: a block as wide as the page, its words at the
start of it."""


def _videos(
    heading: str = "Online Videos",
    *,
    line: float = 155.0,
    below: float | None = 0.0,
    also: str = "",
) -> CandidateTable:
    """A screenshot: a title and a paragraph, ``heading`` read as plain text (set in body
    type) on the line starting at ``line`` px, and a link after it, ``below`` px further
    down than it was (None: not read); ``also`` reads another text further down."""
    rows = [
        ("t", "heading", "Lorem", (9, 22, 80, 58)),
        ("p", "text", "Lorem ipsum dolor sit amet", (9, 80, 1250, 133)),
        ("h", "text", heading, (13, line, 13 + 10.0 * len(heading), line + 24)),
    ]
    if below is not None:
        rows.append(("r", "link", "At root", (9, 190 + below, 62, 208 + below)))
    if also:
        rows.append(("a", "text", also, (9, 600, 9 + 8.0 * len(also), 620)))
    return _texts(*rows)


VIDEOS_REF = SemanticElementRef(
    role="heading", name="Videos", bbox=VIDEOS, screen_size=(1280, 800),
    anchors=(("Lorem ipsum dolor sit amet", (8.0, 79.88, 1257.0, 133.88)),
             ("Lorem", (8.0, 21.44, 1272.0, 58.44)), ("At root", (8.0, 190.0, 60.0, 207.0))),
)  # fmt: skip


def test_a_label_with_a_word_added_or_dropped_is_taken_on_its_line() -> None:
    _assert_taken(VIDEOS_REF, _videos(), "accept.edited_at_place", "h")
    two_words = VIDEOS_REF.model_copy(update={"name": "Online Videos"})
    _assert_taken(two_words, _videos("Videos"), "accept.edited_at_place", "h")


def test_an_edited_label_elsewhere_twice_replaced_or_closed_over_is_not_taken() -> None:
    config = MatchConfig()
    for table in (
        _videos(line=300.0),  # on another line
        _videos(also="Videos today"),  # a second element one word from the name
        _videos("Old Online Videos"),  # two words added
        _videos(below=-40.0),  # what followed moved up
        _videos(below=None),  # only the anchors before it vouch for its place
    ):
        assert decide(VIDEOS_REF, table, config).rule != "accept.edited_at_place"
    # A word replaced is another label ("Log In" and "Sign In"), not taken.
    log_in = VIDEOS_REF.model_copy(update={"name": "Log In"})
    assert decide(log_in, _videos("Sign In"), config).rule != "accept.edited_at_place"


LOG_IN = (8.0, 416.0, 46.0, 437.0)
"""Where the button "Log In" was recorded, under the button "Subscribe"."""


def _account_box(
    caption: str = "Log",
    *,
    left: float = 7.0,
    link: tuple[float, float] = (12.0, 458.0),
    raw: str = "text",
) -> CandidateTable:
    """A screenshot's account box: the buttons "Subscribe" and ``caption`` (its border from
    ``left`` px), then the link "Log In" read at ``link`` (drawn as ``raw``: a text, or a
    shape), "Editor's Picks" under it."""
    b = TableBuilder("vision", "test")
    b.add("s", raw_role="rect", role="button", name="Subscribe", bbox=(10, 397, 82, 415))
    width = 41.0 + 5.0 * (len(caption) - 3)
    b.add("b", raw_role="rect", role="button", name=caption, bbox=(left, 417, left + width, 439))
    x, y = link
    b.add("l", raw_role=raw, role="link" if raw == "text" else "button", name="Log In",
          bbox=(x, y, x + 35, y + 21))  # fmt: skip
    b.add("p", raw_role="text", role="link", name="Editor's Picks", bbox=(12, 474, 100, 496))
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


LOG_IN_REF = SemanticElementRef(
    role="button", name="Log In", bbox=LOG_IN, screen_size=(1280, 800),
    nearby_text=("Subscribe", "Editor's Picks"),
)  # fmt: skip
"""Another tool's reference to the button: role, name, box and the texts around it."""


def _tied(ref: SemanticElementRef, table: CandidateTable) -> Decision | None:
    """``accept.edited_in_box`` on the ranking of ``ref`` on ``table`` left tied."""
    config = MatchConfig()
    scored = score_table(ref, table, config, k=8)
    ranked = tuple(Candidate.of(table, scored, k) for k in range(len(scored.rows)))
    tie = Decision("ambiguous", "tied", ranked, runner_up=ranked[1], rule="ambiguous.margin")
    return edited_in_box(Context(ref, table, scored, config), tie)


def test_another_tools_button_is_taken_by_its_caption_edited_at_its_box() -> None:
    # A word dropped: the link "Log In" below is another element, drawn otherwise, and the
    # ranking left the two tied.
    _assert_taken(LOG_IN_REF, _account_box(), "accept.edited_in_box", "b")
    assert decide(LOG_IN_REF, _account_box(), MatchConfig()).rules[0] == "ambiguous.margin"
    # A word added, on a tie.
    taken = _tied(LOG_IN_REF, _account_box("Log In today"))
    assert taken is not None and taken.best is not None and taken.best.id == "b"


def test_an_edited_caption_off_the_box_replaced_or_beside_a_shaped_namesake_is_not_taken() -> None:
    for table in (
        _account_box(left=40.0),  # starting elsewhere on the line
        _account_box("Sign"),  # a word replaced: another button
        _account_box("Log In to your account"),  # three words added
        _account_box(raw="rect"),  # a button reads the name as it is: the ranking judges
    ):
        assert _tied(LOG_IN_REF, table) is None
    # Recorded neighbours not read around it; a field's label edited is not its caption.
    away = LOG_IN_REF.model_copy(update={"nearby_text": ("Weather", "Markets")})
    field = LOG_IN_REF.model_copy(update={"role": "textbox"})
    for ref in (away, field):
        assert _tied(ref, _account_box()) is None
