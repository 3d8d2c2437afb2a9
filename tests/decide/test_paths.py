"""Places in the document read from xpaths: which step changed, and how far above the
element it is."""

from resolver.decide.paths import indexed_steps, one_step_apart, shifted_step

RECORDED = "/html[1]/body[1]/span[1]/section[1]/main[1]/div[3]/a[2]"


def test_one_step_changed_well_above_the_element_is_found_with_its_level() -> None:
    steps = indexed_steps(RECORDED)
    # Retagged (span -> div) or renumbered (span[1] -> span[2]) at level 2, four steps above.
    assert shifted_step(steps, RECORDED.replace("span[1]", "div[1]"), 3) == 2
    assert shifted_step(steps, RECORDED.replace("span[1]", "span[2]"), 3) == 2
    assert shifted_step(steps, RECORDED.replace("span[1]", "span[2]"), 4) == 2
    # Unindexed steps are first ones.
    assert shifted_step(steps, "/html/body/div/section/main/div[3]/a[2]", 3) == 2


def test_other_differences_are_not_a_shifted_step() -> None:
    steps = indexed_steps(RECORDED)
    assert shifted_step(steps, RECORDED, 3) is None  # nothing changed
    assert shifted_step(steps, None, 3) is None
    assert shifted_step(steps, "", 3) is None
    # Too close to the element: the list item's or the element's own slot.
    assert shifted_step(steps, RECORDED.replace("a[2]", "a[1]"), 3) is None
    assert shifted_step(steps, RECORDED.replace("div[3]", "div[4]"), 3) is None
    assert shifted_step(steps, RECORDED.replace("main[1]", "main[2]"), 3) is None
    assert shifted_step(steps, RECORDED.replace("span[1]", "span[2]"), 5) is None
    # Two steps changed, or a level added.
    two = RECORDED.replace("span[1]", "div[1]").replace("a[2]", "a[3]")
    assert shifted_step(steps, two, 3) is None
    assert shifted_step(steps, RECORDED.replace("/main[1]", "/div[1]/main[1]"), 3) is None


def test_a_renumbered_step_is_also_one_step_apart_but_a_retagged_one_is_not() -> None:
    steps = indexed_steps(RECORDED)
    assert one_step_apart(steps, RECORDED.replace("span[1]", "span[2]"))
    assert not one_step_apart(steps, RECORDED.replace("span[1]", "div[1]"))
