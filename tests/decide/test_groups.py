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
