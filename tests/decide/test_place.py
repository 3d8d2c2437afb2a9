"""Place: an answer away from the target's place, on screen or in the document, is refused."""

import dataclasses
from typing import Final

import pytest
from decide_helpers import _torn

from resolver import MatchConfig, Observation, ResolutionError, SemanticElementRef, resolve
from resolver.decide import decide
from resolver.decide.place import twin_at_place, twin_moved
from resolver.decide.rule import Context, Decision
from resolver.matcher import score_table
from resolver.results import Candidate
from resolver.table import CandidateTable, TableBuilder


def _footer_survivor(*, tag: str) -> CandidateTable:
    """A page whose header link "Bookmarks" is gone; a "Bookmarks" link is left in the
    ``tag`` element at the bottom, far from the header's texts in reading order."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Works", bbox=(0, 0, 1280, 6000))
    for k, text in enumerate(("Home", "Blog", "News", "About", "Jobs", "Press")):
        b.add(f"x{k}", raw_role="StaticText", name=text, parent=root,
              bbox=(8, 100 + 20 * k, 80, 117 + 20 * k))  # fmt: skip
    b.add("s", raw_role="link", name="Bookmarks", parent=root, bbox=(88, 5000, 160, 5017),
          xpath=f"/html[1]/body[1]/{tag}[1]/div[1]/ul[1]/li[1]/a[1]")  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0))


def test_an_answer_with_only_its_name_and_role_for_it_is_refused() -> None:
    ref = SemanticElementRef(
        role="link", name="Bookmarks", bbox=(88.0, 120.0, 160.0, 137.0), container_path=("Works",),
        xpath="/html[1]/body[1]/header[1]/nav[1]/ul[1]/li[2]/a[1]", nearby_text=("Home", "Blog"),
    )  # fmt: skip
    table = _footer_survivor(tag="footer")
    refused = decide(ref, table, MatchConfig())
    assert refused.status == "not_found" and refused.rule == "refuse.stray"
    # Any one of box, neighbours or document place agreeing is enough to answer (with the
    # neighbours-left-behind rule off: the header's texts are still where the link was).
    apart = {"left_far": 100.0}
    assert decide(ref, table, MatchConfig(stray_box=0.0, **apart)).status == "accepted"
    assert decide(ref, table, MatchConfig(stray_path=0.0, **apart)).status == "accepted"
    near = ref.model_copy(update={"nearby_text": ("Press",)})
    assert decide(near, table, MatchConfig(**apart)).status == "accepted"
    # Without a recorded xpath there is no document place to compare: no refusal.
    assert decide(ref.model_copy(update={"xpath": None}), table, MatchConfig()).status == (
        "accepted"
    )


def test_without_a_recorded_box_neighbours_and_document_place_suffice_to_refuse() -> None:
    # A recorder that keeps selectors and nearby texts, no box: the footer's "Bookmarks" is
    # not among the recorded neighbours nor at the recorded place in the document.
    ref = SemanticElementRef(
        role="link", name="Bookmarks", container_path=("Works",),
        xpath="/html[1]/body[1]/header[1]/nav[1]/ul[1]/li[2]/a[1]", nearby_text=("Home", "Blog"),
    )  # fmt: skip
    table = _footer_survivor(tag="footer")
    refused = decide(ref, table, MatchConfig())
    assert refused.status == "not_found" and refused.rule == "refuse.stray"
    # Either of the two agreeing is enough to answer.
    assert decide(ref, table, MatchConfig(stray_path=0.0)).status == "accepted"
    near = ref.model_copy(update={"nearby_text": ("Press",)})
    assert decide(near, table, MatchConfig()).status == "accepted"


def _left_behind(*, moved_texts: bool = False, slot_taken: bool = False) -> CandidateTable:
    """A page whose "Subscribe" link in a list of three went; another "Subscribe" link is
    left far below, in the last list. ``moved_texts`` moves the list's texts down beside it instead;
    ``slot_taken`` puts another link at the recorded xpath."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Works", bbox=(0, 0, 1280, 6000))
    top = 4000 if moved_texts else 300
    for k, text in enumerate(("Older posts", "Newer posts")):
        b.add(f"x{k}", raw_role="StaticText", name=text, parent=root,
              bbox=(8, top + 40 * k, 120, top + 17 + 40 * k))  # fmt: skip
    if slot_taken:
        b.add("o", raw_role="link", name="Archive", parent=root, bbox=(8, 320, 80, 337),
              xpath="/html[1]/body[1]/main[1]/ul[1]/li[2]/a[1]")  # fmt: skip
    b.add("s", raw_role="link", name="Subscribe", parent=root, bbox=(8, 4020, 90, 4037),
          xpath="/html[1]/body[1]/main[1]/ul[3]/li[1]/a[1]")  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0))


def test_a_target_that_left_its_neighbours_behind_is_gone() -> None:
    ref = SemanticElementRef(
        role="link", name="Subscribe", bbox=(8.0, 320.0, 90.0, 337.0),
        xpath="/html[1]/body[1]/main[1]/ul[1]/li[2]/a[1]",
        nearby_text=("Older posts", "Newer posts"),
    )  # fmt: skip
    config = MatchConfig(stray_box=0.0)  # the older rule would refuse it too: keep it out
    refused = decide(ref, _left_behind(), config)
    assert refused.status == "not_found" and refused.rule == "refuse.left_behind"
    # The texts went along (a reordered block), or another element holds its slot (a list
    # reordered around it): the answer stands.
    assert decide(ref, _left_behind(moved_texts=True), config).status == "accepted"
    assert decide(ref, _left_behind(slot_taken=True), config).status == "accepted"
    # Within a screen of the neighbours: the rule does not apply.
    assert decide(ref, _left_behind(), replace_far(config, 6.0)).status == "accepted"
    # Neighbours that are not where the target was say nothing of it.
    far_ref = ref.model_copy(update={"bbox": (8.0, 2000.0, 90.0, 2017.0)})
    assert decide(far_ref, _left_behind(), config).status == "accepted"


def replace_far(config: MatchConfig, far: float) -> MatchConfig:
    return dataclasses.replace(config, left_far=far)


def test_a_near_namesake_at_the_recorded_xpath_and_place_holds_back_a_narrow_best() -> None:
    ref = SemanticElementRef(
        role="link", name="Friday deals for books", bbox=(8.0, 100.0, 220.0, 117.0),
        xpath="/html[1]/body[1]/main[1]/p[2]/a[1]",
        nearby_text=("Books of the week", "Shipping is free"),
    )  # fmt: skip
    # With its order among look-alikes recorded (the first of one: the recorder looked, and
    # the namesake below came later), the row in the target's slot is not taken for the
    # target renamed (that takes a reference that recorded nothing of its look-alikes):
    # the answer stays open.
    ref = ref.model_copy(update={"occurrence": (0, 1)})
    torn = decide(ref, _torn("Friday deals"), MatchConfig())
    assert torn.status == "ambiguous" and torn.rule == "ambiguous.torn"
    assert torn.best is not None and torn.best.id == "t"
    # A clear lead, a row under the xpath that is not at the place or bears the recorded
    # name exactly, or an xpath selecting nothing: the best stands.
    assert decide(ref, _torn("Friday deals"), MatchConfig(torn_margin=0.05)).status == "accepted"
    moved = ref.model_copy(update={"bbox": (8.0, 400.0, 220.0, 417.0)})
    assert decide(moved, _torn("Friday deals"), MatchConfig()).status == "accepted"
    gone = _torn("Friday deals", xpath="/html[1]/body[1]/main[1]/p[3]/a[1]")
    assert decide(ref, gone, MatchConfig()).status == "accepted"
    assert decide(ref, _torn("Opening hours"), MatchConfig()).status == "accepted"


def test_a_namesake_in_the_recorded_document_place_holds_back_a_narrow_best() -> None:
    # Two "Friday deals for books" links; the recorded xpath names the lower one, the box
    # leans to the upper one by a little: place in the document against place on screen.
    table = _torn("Friday deals for books")
    ref = SemanticElementRef(
        role="link", name="Friday deals for books", bbox=(8.0, 200.0, 220.0, 217.0),
        xpath="/html[1]/body[1]/main[1]/p[7]/a[1]", occurrence=(0, 2),
    )  # fmt: skip
    held = decide(ref, table, MatchConfig())
    assert held.status == "ambiguous" and held.rule == "ambiguous.torn"
    assert decide(ref, table, MatchConfig(torn_margin=0.0)).status == "accepted"


def _twice_listed(*, removed: bool = True, footer_texts: bool = True) -> CandidateTable:
    """A page whose header and footer list the same four links; the header's "Demos" went
    (``removed``). Without ``footer_texts`` the footer holds "Demos" alone."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Works", bbox=(0, 0, 1280, 6000))
    links = ("Hacks", "Videos", "Demos", "About")
    for part, top in (("header", 40), ("footer", 5000)):
        for k, text in enumerate(links):
            if part == "header" and text == "Demos" and removed:
                continue
            if part == "footer" and text != "Demos" and not footer_texts:
                continue
            b.add(f"{part}{k}", raw_role="link", name=text, parent=root,
                  bbox=(8 + 100 * k, top, 80 + 100 * k, top + 17),
                  xpath=f"/html[1]/body[1]/{part}[1]/nav[1]/ul[1]/li[{k + 1}]/a[1]")  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0))


def test_a_namesake_in_a_copy_of_the_neighbourhood_is_not_the_target() -> None:
    ref = SemanticElementRef(
        role="link", name="Demos", bbox=(208.0, 40.0, 280.0, 57.0),
        xpath="/html[1]/body[1]/header[1]/nav[1]/ul[1]/li[3]/a[1]",
        nearby_text=("Videos", "Hacks", "About"),
    )  # fmt: skip
    refused = decide(ref, _twice_listed(), MatchConfig())
    assert refused.status == "not_found"
    assert refused.rule == "refuse.slot_kept"
    # The target still in the header: it is the answer.
    kept = decide(ref, _twice_listed(removed=False), MatchConfig())
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "header2"
    # A footer "Demos" without the header's texts next to it is another rule's matter.
    other = decide(ref, _twice_listed(footer_texts=False), MatchConfig())
    assert "refuse.slot_kept" not in other.rules
    # Within a quarter screen of the target's place: the rule does not apply.
    near = dataclasses.replace(MatchConfig(), left_near=7.0)
    assert "refuse.slot_kept" not in decide(ref, _twice_listed(), near).rules
    # The recorded xpath selecting the answer: it stands.
    footer = "/html[1]/body[1]/footer[1]/nav[1]/ul[1]/li[3]/a[1]"
    footer_xpath = ref.model_copy(update={"xpath": footer})
    assert decide(footer_xpath, _twice_listed(), MatchConfig()).status == "accepted"


def _social_links(region: str, *, header: bool = True) -> CandidateTable:
    """A page whose header's social links went (``header``: its navigation is still there,
    with a sign-in link); ``region`` (``footer[1]/nav[1]`` or ``header[1]/nav[2]``) holds the
    three social links at the bottom."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Works", bbox=(0, 0, 1280, 6000))
    if header:
        nav = b.add("h", raw_role="navigation", parent=root, bbox=(0, 0, 1280, 80),
                    xpath="/html[1]/body[1]/header[1]/nav[1]")  # fmt: skip
        b.add("s", raw_role="link", name="Sign in", parent=nav, bbox=(1100, 40, 1180, 57),
              xpath="/html[1]/body[1]/header[1]/nav[1]/ul[1]/li[4]/a[1]")  # fmt: skip
    b.add("p", raw_role="StaticText", name="An article", parent=root, bbox=(8, 100, 600, 400))
    for k, text in enumerate(("Facebook", "Twitter", "Instagram")):
        b.add(f"l{k}", raw_role="link", name=text, parent=root,
              bbox=(8 + 100 * k, 5000, 80 + 100 * k, 5017), href=f"https://{text.lower()}.com/w",
              xpath=f"/html[1]/body[1]/{region}/ul[1]/li[{k + 1}]/a[1]")  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0))


def test_a_namesake_in_another_region_of_the_page_is_not_the_target() -> None:
    ref = SemanticElementRef(
        role="link", name="Facebook", bbox=(8.0, 40.0, 80.0, 57.0),
        xpath="/html[1]/body[1]/header[1]/nav[1]/ul[1]/li[1]/a[1]",
        href="https://facebook.com/w", nearby_text=("Twitter", "Instagram"),
    )  # fmt: skip
    refused = decide(ref, _social_links("footer[1]/nav[1]"), MatchConfig())
    assert refused.status == "not_found" and refused.rule == "refuse.other_region"
    # The same links moved to the bottom of the same region: the answer stands.
    moved = decide(ref, _social_links("header[1]/nav[2]"), MatchConfig())
    assert moved.status == "accepted" and moved.best is not None and moved.best.id == "l0"
    # Near the recorded place, the region alone is no reason.
    assert (
        decide(ref, _social_links("footer[1]/nav[1]"), MatchConfig(stray_box=0.0)).status
        == "accepted"
    )
    # The header gone altogether: a redesign that moved its links, and the answer stands.
    gone = decide(ref, _social_links("footer[1]/nav[1]", header=False), MatchConfig())
    assert gone.status == "accepted" and gone.best is not None and gone.best.id == "l0"


def _share_links(xpath: str, *, parent_kept: bool = False) -> CandidateTable:
    """A page with one "Share" link, far below the recorded one, at ``xpath``;
    ``parent_kept`` keeps the recorded link's list item, with its text."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Works", bbox=(0, 0, 1280, 6000))
    if parent_kept:
        kept = "/html[1]/body[1]/div[2]/div[1]/ul[1]/li[2]/span[1]"
        b.add("t", raw_role="StaticText", name="3 comments", parent=root,
              bbox=(8, 400, 90, 417), xpath=kept)  # fmt: skip
    b.add("s", raw_role="link", name="Share", parent=root, bbox=(8, 3000, 60, 3017),
          xpath=xpath)  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0))


def test_an_answer_in_another_branch_of_the_document_is_not_the_target() -> None:
    ref = SemanticElementRef(
        role="link", name="Share", bbox=(8.0, 400.0, 60.0, 417.0),
        xpath="/html[1]/body[1]/div[2]/div[1]/ul[1]/li[2]/a[1]",
    )  # fmt: skip
    # Three steps at other positions: the sidebar's "Share", the article's is gone.
    far = _share_links("/html[1]/body[1]/div[3]/div[2]/ul[1]/li[4]/a[1]")
    refused = decide(ref, far, MatchConfig())
    assert refused.status == "not_found" and refused.rule == "refuse.far_in_document"
    # Three steps of other tags, while the recorded link's list item is still there: the same.
    # Without it, the branch was rebuilt (a redesign), and the tags say nothing.
    retagged = "/html[1]/body[1]/div[2]/aside[1]/ol[1]/p[1]/a[1]"
    assert decide(ref, _share_links(retagged, parent_kept=True), MatchConfig()).status == (
        "not_found"
    )
    assert decide(ref, _share_links(retagged), MatchConfig()).status == "accepted"
    # The target moved: its block reordered and a wrapper added (one step renumbered, one
    # level more), or a banner renumbered the top and a sibling went before it (two steps).
    for moved in (
        "/html[1]/body[1]/div[2]/div[1]/ul[1]/li[5]/span[1]/a[1]",
        "/html[1]/body[1]/div[3]/div[1]/ul[1]/li[1]/a[1]",
    ):
        assert decide(ref, _share_links(moved), MatchConfig()).status == "accepted"
    # Without a recorded xpath there is no place in the document to compare; at the recorded
    # place, the target stayed where it was while wrappers renumbered the steps above it.
    unplaced = ref.model_copy(update={"xpath": None})
    assert decide(unplaced, far, MatchConfig()).status == "accepted"
    in_place = ref.model_copy(update={"bbox": (8.0, 3000.0, 60.0, 3017.0)})
    assert decide(in_place, far, MatchConfig()).status == "accepted"


def _renamed_or_namesake(*, story_by_target: bool) -> Observation:
    """The recorded "Share" link renamed "Shares" in its place; another "Share" link further
    down with the text "Story" before it, and before the renamed one too when
    ``story_by_target``. No boxes."""
    base = "/html[1]/body[1]/main[1]"
    nodes: list[dict[str, object]] = [
        {"role": "text", "name": "Story" if story_by_target else "Intro"},
        {"id": "r", "role": "link", "name": "Shares", "xpath": f"{base}/p[2]/a[1]"},
        *({"role": "text", "name": f"filler {k}"} for k in range(5)),
        {"role": "text", "name": "Story"},
        {"id": "n", "role": "link", "name": "Share", "xpath": f"{base}/p[9]/a[1]"},
        *({"role": "text", "name": f"end {k}"} for k in range(5)),
    ]
    return Observation(accessibility_tree={"role": "document", "name": "", "children": nodes})


def test_without_a_box_a_renamed_row_under_the_xpath_keeps_a_namesake_in_doubt() -> None:
    # A reference without a box: the recorded xpath selects the target renamed a little; a
    # namesake elsewhere leads on the name alone, by less than ``torn_margin`` (widened here
    # to the small page's lead), and the recorded neighbour text is by both: torn.
    ref = SemanticElementRef(
        role="link", name="Share", xpath="/html[1]/body[1]/main[1]/p[2]/a[1]",
        nearby_text=("Story",),
    )  # fmt: skip
    config = MatchConfig(torn_margin=0.2)
    with pytest.raises(ResolutionError) as doubt:
        resolve(ref, _renamed_or_namesake(story_by_target=True), sources=("a11y",), config=config)
    assert doubt.value.evidence.rule == "ambiguous.torn"
    # The recorded neighbour is by the namesake only: the place speaks for it.
    moved = resolve(
        ref, _renamed_or_namesake(story_by_target=False), sources=("a11y",), config=config
    )
    assert moved.executor_id == "a11y:n"


def _archive(renamed_at: float = 410.0) -> CandidateTable:
    """A blog's archive list after an edit: the recorded month link "August" gained a word
    ("Today August") and stayed on its line at ``renamed_at``; another "August" (last year's)
    is a few lines further down."""
    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Blog", bbox=(0, 0, 1280, 4000))
    b.add("today", raw_role="link", name="Today August", parent=root,
          bbox=(146, renamed_at, 232, renamed_at + 14))  # fmt: skip
    b.add("last", raw_role="link", name="August", parent=root, bbox=(146, 540, 187, 554))
    b.add("other", raw_role="link", name="About", parent=root, bbox=(146, 900, 187, 914))
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_a_reference_without_an_xpath_is_torn_by_a_renamed_row_at_its_box() -> None:
    # Recorded by a tool that keeps role, name and box only. The namesake further down
    # scores a little better on its name than the renamed target on its place: torn.
    ref = SemanticElementRef(role="link", name="August", bbox=(146, 410, 187, 424))
    torn = decide(ref, _archive(), MatchConfig())
    assert torn.status == "ambiguous" and torn.rule == "ambiguous.torn"
    # The renamed row elsewhere too (not at the recorded place): the namesake is taken.
    moved = decide(ref, _archive(renamed_at=1500.0), MatchConfig())
    assert moved.status == "accepted" and moved.best is not None and moved.best.id == "last"
    # Asked for a lead it has: accepted.
    assert decide(ref, _archive(), MatchConfig(torn_margin=0.01)).status == "accepted"


def _economy_twins(
    *, moved: float = 0.0, read: bool = True, window: tuple[float, float] | None = None
) -> CandidateTable:
    """A screenshot of two "Economy" links, one in the header and one in a list below, with
    a heading over each; ``moved`` pushes everything down by that much (a banner);
    ``read`` False makes it a tree's table (names not read from pixels); ``window`` keeps
    only the rows whose tops lie between those two heights, as a hint window does."""
    b = TableBuilder("vision" if read else "a11y", "test")
    rows = (
        ("h1", "heading", "Markets", (48, 180, 240, 210)),
        ("e1", "link", "Economy", (88, 232, 149, 249)),
        ("h2", "heading", "Sections", (48, 380, 240, 410)),
        ("e2", "link", "Economy", (48, 430, 109, 447)),
    )
    for key, role, name, (x0, y0, x1, y1) in rows:
        if window is None or window[0] <= y0 + moved <= window[1]:
            box = (x0, y0 + moved, x1, y1 + moved)
            b.add(key, raw_role="text", role=role, name=name, bbox=box)
    extra: dict[str, object] = {"names_read": True} if read else {}
    if window is not None:
        extra["window"] = (0.0, window[0], 1280.0, window[1])
    return b.build(screen_size=(1280.0, 800.0), **extra)


SECOND_ECONOMY = SemanticElementRef(
    role="link", name="Economy", bbox=(48.0, 430.0, 109.0, 447.0), screen_size=(1280, 800),
    container_path=("Sections",),
)  # fmt: skip
"""Another tool's reference to the second "Economy": role, name, box, containers."""


def test_a_twin_found_where_it_was_recorded_is_answered() -> None:
    decision = decide(SECOND_ECONOMY, _economy_twins(), MatchConfig())
    assert decision.status == "accepted" and decision.best is not None
    assert decision.best.id == "e2"
    # A few pixels of drift (within drawn_slack screen heights) still answers.
    nudged = decide(SECOND_ECONOMY, _economy_twins(moved=5.0), MatchConfig())
    assert nudged.status == "accepted" and nudged.best is not None and nudged.best.id == "e2"


def test_a_twin_chosen_by_the_box_after_the_page_moved_is_doubted() -> None:
    # A banner pushed the page down by 262 px: the first "Economy" now stands nearest the
    # second's recorded box. Nothing recorded measures the move, so the box cannot choose.
    decision = decide(SECOND_ECONOMY, _economy_twins(moved=262.0), MatchConfig())
    assert decision.status == "ambiguous" and decision.rule == "ambiguous.twin_moved"
    assert decision.best is not None and decision.best.id == "e1"
    # The evidence names the twin it could not tell the answer from.
    assert decision.runner_up is not None and decision.runner_up.id == "e2"


def test_a_moved_page_is_measured_by_anchors_and_the_twin_answered() -> None:
    # The library's own reference records anchors: the shift is known and the answer right.
    anchored = SECOND_ECONOMY.model_copy(
        update={"anchors": (("Sections", (48.0, 380.0, 240.0, 410.0)),)}
    )
    decision = decide(anchored, _economy_twins(moved=262.0), MatchConfig())
    assert "ambiguous.twin_moved" not in decision.rules
    assert decision.status == "accepted" and decision.best is not None
    assert decision.best.id == "e2"


def test_the_twin_rule_is_for_screenshots_and_for_twins_only() -> None:
    tree = decide(SECOND_ECONOMY, _economy_twins(moved=262.0, read=False), MatchConfig())
    assert "ambiguous.twin_moved" not in tree.rules
    alone = SECOND_ECONOMY.model_copy(update={"name": "Markets", "role": "heading",
                                              "bbox": (48.0, 180.0, 240.0, 210.0)})  # fmt: skip
    moved = decide(alone, _economy_twins(moved=262.0), MatchConfig())
    assert "ambiguous.twin_moved" not in moved.rules


def test_a_hint_window_defers_an_answer_away_from_the_recorded_place() -> None:
    # The window around the recorded box shows only the first "Economy", pushed there by a
    # banner; it cannot see the twin below, so it leaves the answer to the whole screen.
    window = _economy_twins(moved=262.0, window=(480.0, 600.0))
    assert [window.ids[r] for r in range(len(window.ids))] == ["e1"]
    decision = decide(SECOND_ECONOMY, window, MatchConfig())
    assert decision.status == "ambiguous" and decision.rule == "ambiguous.twin_moved"
    # At the recorded place the window answers as before.
    unmoved = decide(SECOND_ECONOMY, _economy_twins(window=(300.0, 560.0)), MatchConfig())
    assert unmoved.status == "accepted" and unmoved.best is not None
    assert unmoved.best.id == "e2"


ZOOMED_ECONOMY = SECOND_ECONOMY.model_copy(
    update={"bbox": (60.0, 537.5, 136.25, 558.75), "screen_size": (1600, 1000)}
)
"""The second "Economy" recorded at zoom 1.25: the box and the screen size both scaled."""


def _zoomed_twins(window: tuple[float, float] | None = None) -> CandidateTable:
    """A screenshot of two "Economy" links: ``e2`` where :data:`ZOOMED_ECONOMY`'s box lies
    once rescaled, ``e1`` beside where the same box would lie if it were not (overlapping
    it, not filling it); ``window`` keeps the rows whose tops lie between two heights."""
    b = TableBuilder("vision", "test")
    for key, box in (("e1", (100, 540, 161, 557)), ("e2", (48, 430, 109, 447))):
        if window is None or window[0] <= box[1] <= window[1]:
            b.add(key, raw_role="text", role="link", name="Economy", bbox=box)
    extra: dict[str, object] = (
        {} if window is None else {"window": (0.0, *window[:1], 1280.0, window[1])}
    )
    return b.build(screen_size=(1280.0, 800.0), names_read=True, **extra)


def test_a_twin_near_a_box_from_a_zoomed_screen_read_unscaled_is_doubted_in_a_window() -> None:
    # The window shows only the twin beside the unscaled reading of the box; the rescaled
    # reading, where the target stands, lies outside it. Near no reading, the answer is left
    # to the whole screen, where the target stands exactly at the rescaled box.
    window = _zoomed_twins(window=(500.0, 600.0))
    assert [window.ids[r] for r in range(len(window.ids))] == ["e1"]
    doubted = decide(ZOOMED_ECONOMY, window, MatchConfig())
    assert doubted.status == "ambiguous" and doubted.rule == "ambiguous.twin_moved"
    whole = decide(ZOOMED_ECONOMY, _zoomed_twins(), MatchConfig())
    assert whole.status == "accepted" and whole.best is not None and whole.best.id == "e2"


def test_an_answer_away_from_every_reading_of_a_box_from_another_screen_size_is_doubted() -> None:
    # From a zoomed screen the box may have been rescaled or not; after a banner no twin
    # stands at either reading and the answer at neither: as on a screen of the recorded
    # size, the box cannot tell the twins apart.
    decision = decide(ZOOMED_ECONOMY, _economy_twins(moved=262.0), MatchConfig())
    assert decision.status == "ambiguous" and decision.rule == "ambiguous.twin_moved"
    assert decision.best is not None and decision.best.id == "e1"


def test_readings_of_a_box_that_show_different_twins_are_left_to_the_ranking() -> None:
    # Rescaled, the box is filled by one "Economy"; left unscaled, by the other: the screen
    # does not say which happened, and the rule does not judge by the box.
    b = TableBuilder("vision", "test")
    b.add("e1", raw_role="text", role="link", name="Economy", bbox=(62, 539, 134, 557))
    b.add("e2", raw_role="text", role="link", name="Economy", bbox=(48, 430, 109, 447))
    table = b.build(screen_size=(1280.0, 800.0), names_read=True)
    decision = decide(ZOOMED_ECONOMY, table, MatchConfig())
    assert "ambiguous.twin_moved" not in decision.rules and decision.status != "accepted"


def test_an_answer_beside_a_twin_standing_at_the_recorded_place_is_doubted() -> None:
    # An answer two pixels under the recorded box would pass as the page's drift, but a twin
    # stands exactly where the target was (whatever took the answer instead: here the
    # context names it, as a rule before would).
    b = TableBuilder("vision", "test")
    b.add("e1", raw_role="text", role="link", name="Economy", bbox=(48, 449, 109, 466))
    b.add("e2", raw_role="text", role="link", name="Economy", bbox=(48, 430, 109, 447))
    table = b.build(screen_size=(1280.0, 800.0), names_read=True)
    config = MatchConfig()
    scored = score_table(SECOND_ECONOMY, table, config, k=8)
    ids = [table.ids[int(r)] for r in scored.rows]
    near, at = ids.index("e1"), ids.index("e2")
    ranked = (Candidate.of(table, scored, near), Candidate.of(table, scored, at))
    ctx = Context(SECOND_ECONOMY, table, scored, config, answer=int(scored.rows[near]))
    doubted = twin_moved(ctx, Decision("accepted", "taken", ranked))
    assert doubted is not None and doubted.status == "ambiguous"
    assert doubted.runner_up is not None and doubted.runner_up.id == "e2"
    # The twin at the recorded place is not doubted for the other one.
    kept = Context(SECOND_ECONOMY, table, scored, config, answer=int(scored.rows[at]))
    assert twin_moved(kept, Decision("accepted", "taken", ranked[::-1])) is None


def _sidebar_twins(*, moved: float, sidebar_x: float = 1080.0) -> tuple[Context, Decision]:
    """A screenshot whose sidebar lists "Minecraft Realms" (at ``sidebar_x``) and whose
    article repeats the link in its own column; a line inserted above pushed the sidebar
    down by ``moved``. The ranking answers with the sidebar's, as a rule sees it."""
    b = TableBuilder("vision", "test")
    b.add("main", raw_role="text", role="link", name="Minecraft Realms", bbox=(182, 150, 284, 170))
    top = 106.0 + moved
    side = (sidebar_x, top, sidebar_x + 124.0, top + 17.0)
    b.add("side", raw_role="text", role="link", name="Minecraft Realms", bbox=side)
    table = b.build(screen_size=(1280.0, 800.0), names_read=True)
    config = MatchConfig()
    scored = score_table(SIDEBAR_REALMS, table, config, k=8)
    ids = [table.ids[int(r)] for r in scored.rows]
    first, second = ids.index("side"), ids.index("main")
    ranked = (Candidate.of(table, scored, first), Candidate.of(table, scored, second))
    ctx = Context(SIDEBAR_REALMS, table, scored, config, answer=int(scored.rows[first]))
    return ctx, Decision("accepted", "taken", ranked)


SIDEBAR_REALMS = SemanticElementRef(
    role="link", name="Minecraft Realms", bbox=(1080.0, 106.0, 1204.0, 123.0),
    screen_size=(1280, 800),
)  # fmt: skip
"""Another tool's reference (role, name, box) to the sidebar's "Minecraft Realms"."""


def test_a_twin_across_the_column_does_not_doubt_an_answer_moved_down_its_own() -> None:
    # The sidebar moved down by 38 px, off its recorded place; the article's twin never
    # stood in the sidebar's column, and a move keeps to its column.
    ctx, accepted = _sidebar_twins(moved=38.0)
    assert twin_moved(ctx, accepted) is None
    # Moved as far into another column, the answer is doubted by the twin as before.
    across, moved_across = _sidebar_twins(moved=38.0, sidebar_x=700.0)
    doubted = twin_moved(across, moved_across)
    assert doubted is not None and doubted.status == "ambiguous"
    assert doubted.runner_up is not None and doubted.runner_up.id == "main"


OWN_SECOND_ECONOMY = SECOND_ECONOMY.model_copy(
    update={"lookalikes": ((88.0, 232.0, 149.0, 249.0),), "occurrence": (1, 2)}
)
"""The library's own reference to the second "Economy": it recorded the first as a
look-alike, and its rank among the two."""


def _pushed_off(moved: float, drop: tuple[str, ...] = ()) -> CandidateTable:
    """The two "Economy" links' screenshot after a banner of ``moved`` px: what falls below
    the 800 px screen is not on it; ``drop`` leaves rows out (removed)."""
    whole = _economy_twins(moved=moved)
    b = TableBuilder("vision", "test")
    for row in range(len(whole.ids)):
        box = whole.box(row)
        if box is not None and box[3] <= 800.0 and whole.ids[row] not in drop:
            b.add(whole.ids[row], raw_role="text", role=whole.roles[row],
                  name=whole.names[row], bbox=box)  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


def test_a_lookalike_moved_into_view_is_not_taken_for_the_target() -> None:
    # A 400 px banner pushed the second "Economy" off the screen and brought the first
    # down near its place; no anchor was recorded to measure the move.
    shot = _pushed_off(400.0)
    assert [shot.ids[r] for r in range(len(shot.ids))] == ["h1", "e1"]
    decision = decide(OWN_SECOND_ECONOMY, shot, MatchConfig())
    assert decision.status == "ambiguous" and decision.rule == "ambiguous.lookalike_off"
    # The first "Economy" removed instead: the target, still at its place, is answered.
    kept = decide(OWN_SECOND_ECONOMY, _pushed_off(0.0, drop=("e1",)), MatchConfig())
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "e2"
    # Both still on the screen: the rule is silent.
    both = decide(OWN_SECOND_ECONOMY, _pushed_off(262.0), MatchConfig())
    assert "ambiguous.lookalike_off" not in both.rules


def test_a_lookalike_moved_into_view_is_left_to_the_anchors_when_they_are_read() -> None:
    anchored = OWN_SECOND_ECONOMY.model_copy(
        update={"anchors": (("Markets", (48.0, 180.0, 240.0, 210.0)),)}
    )
    decision = decide(anchored, _pushed_off(400.0), MatchConfig())
    assert "ambiguous.lookalike_off" not in decision.rules
    assert decision.status != "accepted"  # the anchors' shift puts the answer at e1's place


def _stacked_links(*, moved: float = 0.0) -> CandidateTable:
    """A screenshot of a column of links all read "link", one every 34 px (a test page's
    list of links to other tests), pushed down by ``moved``."""
    b = TableBuilder("vision", "test")
    for k in range(6):
        top = 181.0 + 34.0 * k + moved
        b.add(f"l{k}", raw_role="text", role="link", name="link", bbox=(10, top, 33, top + 24))
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


THIRD_LINK = SemanticElementRef(
    role="link", name="link", bbox=(8.0, 250.0, 33.0, 267.0), screen_size=(1280, 800)
)
"""Another tool's reference (role, name, box) to the third link of the column."""


def _tie(ref: SemanticElementRef, table: CandidateTable) -> tuple[Context, Decision]:
    """The judge's tie among the best three ranked rows (as recorded neighbour texts that
    the page now puts beside a neighbour leave it), as a rule sees it."""
    config = MatchConfig()
    scored = score_table(ref, table, config, k=8)
    ranked = tuple(Candidate.of(table, scored, k) for k in range(min(3, len(scored.rows))))
    even = tuple(dataclasses.replace(c, score=ranked[0].score) for c in ranked)
    tie = Decision("ambiguous", "tied", even, runner_up=even[1], rule="ambiguous.margin")
    return Context(ref, table, scored, config), tie


def test_the_one_twin_at_the_recorded_box_is_taken_from_a_tie() -> None:
    ctx, tie = _tie(THIRD_LINK, _stacked_links())
    taken = twin_at_place(ctx, tie)
    assert taken is not None and taken.status == "accepted"
    assert taken.best is not None and taken.best.id == "l2"
    assert taken.runner_up is not None and taken.runner_up.id != "l2"
    # Only a tie for want of a margin is broken.
    assert twin_at_place(ctx, dataclasses.replace(tie, rule="refuse.threshold")) is None


def test_the_twin_at_the_recorded_box_is_taken_for_a_name_written_in_another_case() -> None:
    # Another tool wrote the name upper-cased: the twins it has are the same.
    shouted = THIRD_LINK.model_copy(update={"name": "LINK"})
    taken = twin_at_place(*_tie(shouted, _stacked_links()))
    assert taken is not None and taken.best is not None and taken.best.id == "l2"


def test_no_twin_at_the_recorded_box_leaves_the_tie() -> None:
    # Pushed down by half a line: none stands at the recorded box, and the box cannot say
    # which of the two nearest it was.
    assert twin_at_place(*_tie(THIRD_LINK, _stacked_links(moved=17.0))) is None
    # The library's own reference, with an anchor, is left to the rules that measure the
    # page's move; so is a box from a screen of another size, and a tree's table.
    anchored = THIRD_LINK.model_copy(update={"anchors": (("Tests", (8.0, 100.0, 80.0, 120.0)),)})
    assert twin_at_place(*_tie(anchored, _stacked_links())) is None
    # From a screen of another size, a box at none of its readings leaves the tie too.
    wider = THIRD_LINK.model_copy(
        update={"bbox": (300.0, 250.0, 325.0, 267.0), "screen_size": (1440, 900)}
    )
    assert twin_at_place(*_tie(wider, _stacked_links())) is None
    b = TableBuilder("a11y", "test")
    for k in range(6):
        b.add(f"l{k}", raw_role="link", name="link", bbox=(10, 181 + 34 * k, 33, 205 + 34 * k))
    assert twin_at_place(*_tie(THIRD_LINK, b.build(screen_size=(1280.0, 800.0)))) is None


def test_a_box_from_a_screen_of_another_size_takes_the_twin_at_the_reading_the_screen_shows() -> (
    None
):
    # Recorded at zoom 1.25: rescaled, the box is filled by the third link; left unscaled it
    # lies over the fifth without filling it. The screen shows the zoom: the third is taken.
    zoomed = THIRD_LINK.model_copy(
        update={"bbox": (10.0, 312.5, 41.25, 333.75), "screen_size": (1600, 1000)}
    )
    taken = twin_at_place(*_tie(zoomed, _stacked_links()))
    assert taken is not None and taken.best is not None and taken.best.id == "l2"
    # Recorded in a 1440x900 window with the page centred (80 px further right): the
    # re-centred reading is filled by the third link, the rescaled one by none.
    centred = THIRD_LINK.model_copy(
        update={"bbox": (88.0, 250.0, 113.0, 267.0), "screen_size": (1440, 900)}
    )
    taken = twin_at_place(*_tie(centred, _stacked_links()))
    assert taken is not None and taken.best is not None and taken.best.id == "l2"
    # In a wider window with the page at its left edge, the box as recorded is the reading.
    left = THIRD_LINK.model_copy(update={"screen_size": (1440, 900)})
    taken = twin_at_place(*_tie(left, _stacked_links()))
    assert taken is not None and taken.best is not None and taken.best.id == "l2"


def test_readings_that_show_different_twins_leave_the_tie() -> None:
    # Recorded at 1600x1000, the box rescaled marks the third link and left unscaled the
    # fifth, each filling it: the screen cannot say which happened.
    both = THIRD_LINK.model_copy(
        update={"bbox": (10.0, 318.0, 33.0, 341.0), "screen_size": (1600, 1000)}
    )
    assert twin_at_place(*_tie(both, _stacked_links())) is None


def test_a_twin_at_the_recorded_box_with_a_namesake_drawn_there_too_stays_tied() -> None:
    # Two rows read "link" at the recorded box that are different click targets: the box
    # cannot choose between them.
    b = TableBuilder("vision", "test")
    for k in range(6):
        top = 181.0 + 34.0 * k
        b.add(f"l{k}", raw_role="text", role="link", name="link", bbox=(10, top, 33, top + 24))
    b.add("over", raw_role="text", role="link", name="link", bbox=(9, 251, 31, 268))
    table = b.build(screen_size=(1280.0, 800.0), names_read=True)
    assert twin_at_place(*_tie(THIRD_LINK, table)) is None


def test_twin_headings_on_consecutive_lines_under_a_block_box_stay_tied() -> None:
    # The box recorded for a heading spans the column: it marks a line, and a copy of the
    # heading inserted on the line above pushed the target down. The copy lies inside the
    # recorded box but does not fill it.
    b = TableBuilder("vision", "test")
    b.add("copy", raw_role="text", role="heading", name="Secondary header",
          bbox=(11, 230, 191, 253))  # fmt: skip
    b.add("target", raw_role="text", role="heading", name="Secondary header",
          bbox=(11, 277, 191, 300))  # fmt: skip
    table = b.build(screen_size=(1280.0, 800.0), names_read=True)
    ref = SemanticElementRef(
        role="heading", name="Secondary header", bbox=(8.0, 226.8, 1272.0, 253.8),
        screen_size=(1280, 800),
    )  # fmt: skip
    ctx, tie = _tie(ref, table)
    assert twin_at_place(ctx, tie) is None


def _two_menus(*, removed: bool = True, second: bool = True, moved: float = 0.0) -> CandidateTable:
    """A screenshot of two menus listing "Works", "Bookmarks" and "Tags" one above the
    other (without ``second``, only the first, ``moved`` px down the screen); the
    second menu's "Works" went (``removed``), and the entries under it moved up a line."""
    b = TableBuilder("vision", "test")
    menus = [("Browse", 540.0 + moved, ("Works", "Bookmarks", "Tags", "Collections"))]
    if second:
        menus.append(("Search", 660.0, ("Works", "Bookmarks", "Tags", "People")))
    for title, top, entries in menus:
        b.add(f"{title}-title", raw_role="text", role="text", name=title,
              bbox=(70.0, top, 160.0, top + 17.0))  # fmt: skip
        shown = [e for e in entries if not (removed and title == "Search" and e == "Works")]
        for k, entry in enumerate(shown, start=1):
            y = top + 20.0 * k
            b.add(f"{title}-{entry}", raw_role="text", role="link", name=entry,
                  bbox=(90.0, y, 90.0 + 9.0 * len(entry), y + 17.0))  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


SEARCH_WORKS: Final = SemanticElementRef(
    role="link", name="Works", bbox=(90.0, 680.0, 135.0, 697.0), screen_size=(1280, 800),
    nearby_text=("Search", "Collections", "Bookmarks", "Tags"),
)  # fmt: skip
"""Another tool's reference to the second menu's "Works": role, name, box and the texts
around it in reading order (no look-alikes, no anchors)."""


def test_a_namesake_in_a_second_copy_of_the_neighbourhood_on_a_screenshot_is_refused() -> None:
    refused = decide(SEARCH_WORKS, _two_menus(), MatchConfig())
    assert refused.status == "not_found"
    assert refused.rule == "refuse.neighbourhood_twice"
    assert "read twice" in refused.reason
    # The target still in its menu: it is the answer.
    kept = decide(SEARCH_WORKS, _two_menus(removed=False), MatchConfig())
    assert kept.status == "accepted" and kept.best is not None
    assert kept.best.id == "Search-Works"
    # One menu only, 220 px above the recorded place (the page moved up): the answer is off
    # its place with its neighbours, but nothing of them is read again where it was.
    moved = decide(SEARCH_WORKS, _two_menus(second=False, moved=-100.0), MatchConfig())
    assert moved.status == "accepted" and moved.best is not None
    assert moved.best.signals["bbox"] < MatchConfig().stray_box
    assert moved.best.signals["web:nearby"] == 1.0
    # Without the recorded texts, nothing tells the copies apart: the rule is silent.
    bare = SEARCH_WORKS.model_copy(update={"nearby_text": ()})
    assert "refuse.neighbourhood_twice" not in decide(bare, _two_menus(), MatchConfig()).rules


def test_twins_at_two_readings_of_a_box_from_another_screen_size_are_doubted_in_a_window() -> None:
    # Recorded at zoom 1.25 over the fourth link (285 px once rescaled), the box left
    # unscaled lies on the sixth (352 px): a window around it shows both, and the box
    # cannot say whether the zoom or a resized window moved it.
    zoomed = THIRD_LINK.model_copy(
        update={"bbox": (10.0, 357.35, 41.11, 378.6), "screen_size": (1600, 1000)}
    )
    b = TableBuilder("vision", "test")
    for k in range(6):
        top = 181.0 + 34.0 * k
        b.add(f"l{k}", raw_role="text", role="link", name="link", bbox=(10, top, 33, top + 24))
    window = b.build(screen_size=(1280.0, 800.0), names_read=True, window=(0.0, 0.0, 420.0, 594.0))
    config = MatchConfig()
    scored = score_table(zoomed, window, config, k=8)
    ids = [window.ids[int(r)] for r in scored.rows]
    for answer in ("l3", "l5"):  # the twin at either reading, taken (by its neighbours)
        at = ids.index(answer)
        ranked = (Candidate.of(window, scored, at),)
        ctx = Context(zoomed, window, scored, config, answer=int(scored.rows[at]))
        doubted = twin_moved(ctx, Decision("accepted", "taken", ranked))
        assert doubted is not None and doubted.status == "ambiguous"


def _indented_twins(*, twin_left: float, read_around: bool = True) -> CandidateTable:
    """After a banner of 263 px: the link "Economy" in a list at x 88 with the texts
    "Stocks" and "Bonds" around it, more links below, and another "Economy" further down in
    a list of other links starting at ``twin_left``; ``read_around`` False leaves "Stocks"
    and "Bonds" out."""
    b = TableBuilder("vision", "test")
    b.add("e1", raw_role="text", role="link", name="Economy", bbox=(89, 494, 152, 515))
    if read_around:
        b.add("s", raw_role="text", role="link", name="Stocks", bbox=(89, 474, 140, 492))
        b.add("b", raw_role="text", role="link", name="Bonds", bbox=(89, 516, 138, 534))
    for k, word in enumerate(("Tech", "Media", "Health", "Travel", "Style")):
        b.add(f"w{k}", raw_role="text", role="link", name=word,
              bbox=(89, 560 + 20 * k, 150, 576 + 20 * k))  # fmt: skip
    b.add("e2", raw_role="text", role="link", name="Economy", bbox=(twin_left, 690, 112, 713))
    for k, word in enumerate(("Opinion", "Sport", "Weather", "Science")):
        b.add(f"v{k}", raw_role="text", role="link", name=word,
              bbox=(twin_left, 715 + 20 * k, 120, 731 + 20 * k))  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


LISTED_ECONOMY = SemanticElementRef(
    role="link", name="Economy", bbox=(88.0, 232.0, 149.0, 249.0), screen_size=(1280, 800),
    nearby_text=("Stocks", "Bonds"),
)  # fmt: skip
"""Another tool's reference to the listed "Economy": role, name, box, the texts around it."""


def test_a_twin_off_the_columns_edge_does_not_doubt_an_answer_moved_with_its_neighbours() -> None:
    # The answer kept the recorded left edge and its recorded neighbours; the twin starts
    # 38 px further left (another list), away from them.
    kept = decide(LISTED_ECONOMY, _indented_twins(twin_left=50.0), MatchConfig())
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "e1"
    # A twin on the same edge may be the target moved: doubted, as before.
    same_edge = decide(LISTED_ECONOMY, _indented_twins(twin_left=88.0), MatchConfig())
    assert same_edge.status == "ambiguous" and same_edge.rule == "ambiguous.twin_moved"
    # Neighbours read around neither leave the box alone to choose.
    unread = decide(LISTED_ECONOMY, _indented_twins(twin_left=50.0, read_around=False),
                    MatchConfig())  # fmt: skip
    assert unread.status == "ambiguous"
