"""Judging the ranked rows: threshold, margin over a different target, the sole namesake."""

from decide_helpers import _buttons

from resolver import MatchConfig, SemanticElementRef
from resolver.decide import decide
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
