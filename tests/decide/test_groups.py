"""Groups: vision rows in groups seen by title, and answers outside the recorded group."""

from decide_helpers import _screenshot

from resolver import MatchConfig, SemanticElementRef
from resolver.decide import decide
from resolver.table import CandidateTable, TableBuilder


def _vision(window: str = "", *, groups: bool = True) -> CandidateTable:
    """Two OK buttons as vision reads them: in the groups "Display" and "Network" when their
    headings are seen, in no group otherwise; ``window`` is a hint window's ID suffix."""
    b = TableBuilder("vision", "screenshot", executor_prefix="vision:")
    parents = [-1, -1]
    if groups:
        parents = [
            b.add(f"g{k}{window}", raw_role="group", name=title, role="group", bbox=box)
            for k, (title, box) in enumerate(
                [("Display", (370, 130, 910, 320)), ("Network", (370, 330, 910, 520))]
            )
        ]
    for k, top in enumerate((284.0, 482.0)):
        b.add(f"ok{k}{window}", raw_role="rect", name="OK", role="button", parent=parents[k],
              bbox=(827, top, 904, top + 31))  # fmt: skip
    return _screenshot(b, window)


def _ok(box: tuple[float, float, float, float], *path: str) -> SemanticElementRef:
    return SemanticElementRef(role="button", name="OK", bbox=box, container_path=path)


DISPLAY_BOX = (827.0, 284.0, 903.0, 314.0)


NETWORK_BOX = (827.0, 482.0, 903.0, 512.0)


def test_vision_groups_outweigh_a_stale_box() -> None:
    # The Display group moved down: the recorded box now points at Network's OK.
    ref = _ok(NETWORK_BOX, "Notes", "Preferences", "Display")
    decision = decide(ref, _vision(), MatchConfig())
    assert decision.status == "accepted" and decision.best is not None
    assert decision.best.id == "ok0" and decision.best.signals["container"] == 1.0


def test_vision_rows_without_a_seen_group_are_not_punished() -> None:
    # Landmarks and titles vision cannot see are no evidence; neither is a missing group.
    for ref in (_ok(DISPLAY_BOX, "Sign in", "[main]", "[form]"), _ok(DISPLAY_BOX)):
        decision = decide(ref, _vision(groups=False), MatchConfig())
        assert decision.status == "accepted" and decision.best is not None
        assert decision.best.id == "ok0" and decision.best.score > 0.9
    unseen = decide(_ok(DISPLAY_BOX, "Notes", "Display"), _vision(groups=False), MatchConfig())
    assert unseen.best is not None and "container" not in unseen.best.signals


def test_vision_twins_that_moved_abstain_without_their_group() -> None:
    config = MatchConfig()
    moved = (827.0, 312.0, 903.0, 342.0)  # near Display's OK, not on it: a stale box
    ungrouped = decide(_ok(moved, "Notes", "Preferences", "Display"), _vision(groups=False), config)
    assert ungrouped.status == "ambiguous" and ungrouped.rule == "ambiguous.group_unseen"
    # Where the target was, or without a recorded group, the box still decides.
    assert decide(_ok(DISPLAY_BOX, "Notes", "Display"), _vision(groups=False), config).status == (
        "accepted"
    )
    assert decide(_ok(moved, "Notes", "[main]"), _vision(groups=False), config).status == (
        "accepted"
    )


def test_landmarks_written_as_their_roles_are_no_group_the_screen_must_show() -> None:
    # Another recorder writes unnamed landmarks as their roles: "banner", "navigation".
    # A screen draws no title for them, so an answer is not doubted for want of it.
    config = MatchConfig()
    moved = (827.0, 312.0, 903.0, 342.0)
    bare = decide(_ok(moved, "banner", "navigation"), _vision(groups=False), config)
    assert bare.status == "accepted" and bare.best is not None and bare.best.id == "ok0"
    # A group named otherwise is still asked of the screen.
    named = decide(_ok(moved, "banner", "Display"), _vision(groups=False), config)
    assert named.status == "ambiguous" and named.rule == "ambiguous.group_unseen"


def test_a_vision_window_without_the_recorded_group_defers() -> None:
    ref = _ok(DISPLAY_BOX, "Notes", "Preferences", "Display")
    window = decide(ref, _vision("@600,150,400x300", groups=False), MatchConfig())
    assert window.status == "ambiguous" and window.rule == "ambiguous.group_unseen"
    assert decide(ref, _vision("@600,150,400x300"), MatchConfig()).status == "accepted"


def test_a_vision_answer_in_another_group_is_not_taken_for_the_target() -> None:
    # The target's group ("Security") is gone; the OK now at its place is Display's.
    config = MatchConfig()
    ref = _ok(DISPLAY_BOX, "Notes", "Preferences", "Security")
    screen = decide(ref, _vision(), config)
    assert screen.status == "ambiguous" and screen.rule == "ambiguous.group_unseen"
    window = decide(ref, _vision("@600,150,400x300"), config)
    assert window.status == "ambiguous" and window.rule == "ambiguous.group_unseen"
    # Shown in no group, or in a group like the recorded one, the box still decides.
    assert decide(ref, _vision(groups=False), config).status == "accepted"
    assert decide(_ok(DISPLAY_BOX, "Notes", "Display settings"), _vision(), config).status == (
        "accepted"
    )


def test_a_lone_vision_answer_far_away_in_another_group_is_refused() -> None:
    b = TableBuilder("vision", "screenshot", executor_prefix="vision:")
    group = b.add("g", raw_role="group", name="Q3 report draft", role="group",
                  bbox=(200, 400, 1070, 520))  # fmt: skip
    b.add("s", raw_role="rect", name="Save", role="button", parent=group,
          bbox=(959, 466, 1021, 500))  # fmt: skip
    table = _screenshot(b)
    ref = SemanticElementRef(role="button", name="Save", bbox=(1115.0, 10.0, 1175.0, 42.0),
                             container_path=("Docs", "Document actions"))  # fmt: skip
    refused = decide(ref, table, MatchConfig())
    assert refused.status == "not_found" and refused.rule == "refuse.other_group"
    near = ref.model_copy(update={"bbox": (950.0, 460.0, 1020.0, 495.0)})
    assert decide(near, table, MatchConfig()).status == "accepted"
    assert decide(ref.model_copy(update={"container_path": ("Docs",)}), table,
                  MatchConfig()).status == "accepted"  # fmt: skip


def test_a_list_item_around_its_one_link_is_no_recorded_group() -> None:
    # "• OK" is the list item around the button, named by its bullet and the button's own
    # name: no group, so another group shown on the screen does not put the answer in doubt.
    config = MatchConfig()
    item = _ok(DISPLAY_BOX, "Notes", "[navigation]", "• OK")
    assert decide(item, _vision(), config).status == "accepted"
    # A group the reference did record still does.
    group = _ok(DISPLAY_BOX, "Notes", "[navigation]", "Security")
    assert decide(group, _vision(), config).rule == "ambiguous.group_unseen"


def _links() -> CandidateTable:
    """Three links named "link" under a text "Links", as a banner pushed them 360 px down."""
    b = TableBuilder("vision", "screenshot", executor_prefix="vision:")
    b.add("h", raw_role="text", name="Links", role="text", bbox=(6, 509, 43, 534))
    for k, top in enumerate((542.0, 576.0, 610.0)):
        b.add(f"l{k}", raw_role="text", name="link", role="link", bbox=(11, top, 29, top + 28))
    return _screenshot(b)


def test_look_alikes_each_at_their_recorded_place_did_not_move() -> None:
    # The recorded section is drawn without a title; its box agrees a little less (OCR boxes
    # are taller), but every look-alike lies at its rank's recorded place after the shift.
    ref = SemanticElementRef(
        role="link", name="link", bbox=(8.0, 183.88, 32.89, 200.88), occurrence=(0, 3),
        lookalikes=((8.0, 217.88, 32.89, 234.88), (8.0, 251.88, 32.89, 268.88)),
        anchors=(("Links", (8.0, 149.88, 44.45, 166.88)),),
        container_path=("Links test", "Lorem ipsum section"),
    )  # fmt: skip
    decision = decide(ref, _links(), MatchConfig())
    assert decision.status == "accepted" and decision.best is not None
    assert decision.best.id == "l0" and decision.best.signals["bbox"] < MatchConfig().lookalike_box
    # Without the look-alikes' boxes the order is unsaid, and without the anchors nothing
    # says the page moved: the stale box still doubts.
    unsaid = decide(
        ref.model_copy(update={"lookalikes": (), "anchors": ()}), _links(), MatchConfig()
    )
    assert unsaid.status == "ambiguous"


def test_a_block_read_as_its_words_at_the_recorded_place_did_not_move() -> None:
    # A heading recorded across the page's width is read as its words at the start of its
    # line; the words "Page Inspector" split out of a link further down are a look-alike.
    b = TableBuilder("vision", "screenshot", executor_prefix="vision:")
    b.add("h", raw_role="text", name="Page Inspector", role="heading", bbox=(49, 666, 202, 690))
    b.add("l", raw_role="text", name="Page Inspector", role="link", bbox=(134, 743, 261, 763))
    ref = SemanticElementRef(
        role="heading", name="Page Inspector", bbox=(48.0, 661.66, 1272.0, 688.66),
        container_path=("Welcome", "[main]", "Screenshot Page Inspector Examine the HTML"),
    )  # fmt: skip
    decision = decide(ref, _screenshot(b), MatchConfig())
    assert decision.status == "accepted" and decision.best is not None
    assert decision.best.id == "h" and decision.best.signals["bbox"] < MatchConfig().lookalike_box
    # Lower on the page than recorded, it has moved, and the look-alike puts it in doubt.
    low = ref.model_copy(update={"bbox": (48.0, 611.66, 1272.0, 638.66)})
    moved = decide(low, _screenshot(b), MatchConfig())
    assert moved.status == "ambiguous" and moved.rule == "ambiguous.group_unseen"


def _side_links(window: str, *, anchor: bool) -> CandidateTable:
    """Links of a side column; ``anchor`` adds the text recorded above the target."""
    b = TableBuilder("vision", "screenshot", executor_prefix="vision:")
    if anchor:
        b.add(f"a{window}", raw_role="text", name="Community links:", role="text",
              bbox=(1081, 430, 1250, 448))  # fmt: skip
    for k, (name, top) in enumerate((("Minecraft.net", 464.0), ("Minecraft Realms", 482.0))):
        b.add(f"l{k}{window}", raw_role="text", name=name, role="link",
              bbox=(1081, top, 1081 + 8 * len(name), top + 20))  # fmt: skip
    return _screenshot(b, window)


def test_a_window_reading_no_anchor_leaves_a_renamed_answer_to_the_screen() -> None:
    # A banner pushed "Minecraft Forums" off the screen; "Minecraft Realms" now stands at its
    # recorded box, and the window around that box reads none of the recorded anchors.
    ref = SemanticElementRef(
        role="link", name="Minecraft Forums", bbox=(1080.0, 479.62, 1204.47, 496.62),
        anchors=(("Community links:", (1080.0, 430.0, 1260.0, 447.0)),
                 ("Try our other games!", (1080.0, 285.81, 1239.16, 302.81))),
    )  # fmt: skip
    config = MatchConfig(threshold=0.5)
    window = decide(ref, _side_links("@942,308,338x300", anchor=False), config)
    assert window.status == "ambiguous" and window.rule == "ambiguous.window_unanchored"
    # An anchor read in the window, or the whole screen, lets the ranking judge as before.
    anchored = decide(ref, _side_links("@942,308,338x300", anchor=True), config)
    assert anchored.rule != "ambiguous.window_unanchored"
    assert decide(ref, _side_links("", anchor=False), config).rule != "ambiguous.window_unanchored"
    # The recorded name read exactly needs no anchor.
    exact = ref.model_copy(update={"name": "Minecraft Realms"})
    assert decide(exact, _side_links("@942,308,338x300", anchor=False), config).status == (
        "accepted"
    )


def test_a_window_answer_that_kept_every_recorded_word_needs_no_anchor() -> None:
    # "Minecraft Realms online" kept the recorded words and added one: the same link.
    ref = SemanticElementRef(
        role="link", name="Minecraft", bbox=(1080.0, 479.62, 1204.47, 496.62),
        anchors=(("Community links:", (1080.0, 430.0, 1260.0, 447.0)),),
    )  # fmt: skip
    decision = decide(ref, _side_links("@942,308,338x300", anchor=False), MatchConfig())
    assert decision.rule != "ambiguous.window_unanchored"


def test_a_heading_is_not_in_another_group_because_it_titles_its_own() -> None:
    # The screen groups what follows "Foo" under it, the heading itself included; a
    # recorded section the screen shows nowhere says nothing against it.
    b = TableBuilder("vision", "screenshot", executor_prefix="vision:")
    group = b.add("g", raw_role="group", name="Foo", role="group", bbox=(9, 200, 1268, 346))
    b.add("h", raw_role="text", name="Foo", role="heading", parent=group, bbox=(10, 200, 46, 229))
    b.add("p", raw_role="text", name="Tempor incididunt ut labore", role="text", parent=group,
          bbox=(10, 265, 1206, 285))  # fmt: skip
    ref = SemanticElementRef(
        role="heading", name="Foo", bbox=(8.0, 153.78, 1272.0, 180.78),
        container_path=("Normalize space test", "Lorem ipsum dolor sit amet"),
    )  # fmt: skip
    decision = decide(ref, _screenshot(b), MatchConfig())
    assert decision.status == "accepted" and decision.best is not None
    assert decision.best.id == "h"


def _sidebar(copy_left: float) -> CandidateTable:
    """A page's links as a screenshot reads them: the sidebar's "Minecraft Realms" under
    its title "Official links:", moved 18 px down by a line inserted above, and a copy of
    the link in the article, ``copy_left`` px from the left (in the article's column at
    182, in the sidebar's at 1082)."""
    b = TableBuilder("vision", "screenshot", executor_prefix="vision:")
    b.add("h", raw_role="text", role="heading", name="Official links:", bbox=(1086, 59, 1232, 83))
    b.add("n", raw_role="text", role="link", name="Minecraft.net", bbox=(1082, 103, 1174, 126))
    b.add("r", raw_role="text", role="link", name="Minecraft Realms", bbox=(1082, 120, 1206, 143))
    b.add("c", raw_role="text", role="link", name="Minecraft Realms",
          bbox=(copy_left, 350, copy_left + 124, 373))  # fmt: skip
    return _screenshot(b)


REALMS = SemanticElementRef(
    role="link", name="Minecraft Realms", bbox=(1080.0, 105.8, 1204.5, 122.8),
    screen_size=(1280, 800),
    container_path=("Minecraft 1.8", "Official links: Minecraft.net Minecraft Realms Merchandise"),
)  # fmt: skip
"""Another tool's reference to the sidebar's link: role, name, box and containers."""


def test_a_look_alike_across_another_tools_column_does_not_doubt_the_answer() -> None:
    # The copy in the article's column cannot be the sidebar's link moved: a move keeps
    # to its column.
    decision = decide(REALMS, _sidebar(182.0), MatchConfig())
    assert decision.status == "accepted" and decision.best is not None
    assert decision.best.id == "r"
    # A copy in the same column could be the target moved down it; with anchors that do
    # not place it, the column says nothing of the move either.
    below = decide(REALMS, _sidebar(1082.0), MatchConfig())
    assert below.status == "ambiguous" and below.rule == "ambiguous.group_unseen"
    anchored = REALMS.model_copy(
        update={"anchors": (("Merchandise", (1080.0, 300.0, 1170.0, 317.0)),)}
    )
    assert decide(anchored, _sidebar(182.0), MatchConfig()).status != "accepted"


def test_the_column_of_a_box_from_another_screen_size_is_the_reading_the_screen_shows() -> None:
    # The same link recorded at zoom 1.25, and in a 1440 px window with the page centred
    # (the box 80 px to the right): the screen shows the link in the column of one reading.
    box = REALMS.bbox
    assert box is not None
    zoomed = REALMS.model_copy(
        update={"bbox": tuple(v * 1.25 for v in box), "screen_size": (1600, 1000)}
    )
    wide = REALMS.model_copy(
        update={"bbox": (box[0] + 80, box[1], box[2] + 80, box[3]), "screen_size": (1440, 900)}
    )
    for ref in (zoomed, wide):
        decision = decide(ref, _sidebar(182.0), MatchConfig())
        assert decision.status == "accepted" and decision.best is not None
        assert decision.best.id == "r"
        # A copy in that column could be the target moved down it.
        assert decide(ref, _sidebar(1082.0), MatchConfig()).status != "accepted"
