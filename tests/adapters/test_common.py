"""``resolver.adapters._common``: the defensive readers every adapter shares."""

import contextlib
import gc
import math
import weakref

import pytest

from resolver import Observation, ResolutionError
from resolver.adapters import _common
from resolver.adapters._common import (
    FROZEN_RECHECK,
    UNUSABLE_BOX,
    as_str,
    box_from_ltrb,
    box_from_xywh,
    no_cyclic_gc,
)


def test_box_readers_tell_no_box_from_a_broken_one() -> None:
    assert box_from_ltrb([1, 2, 3, 4]) == (1.0, 2.0, 3.0, 4.0)
    assert box_from_xywh({"x": 1, "y": 2, "width": 3, "height": 4}) == (1.0, 2.0, 4.0, 6.0)
    for absent in (None, [], [None] * 4, {}):
        assert box_from_ltrb(absent) is None and box_from_xywh(absent) is None
    broken = [[1, 2, 3], [1, math.nan, 3, 4], ["a", 2, 3, 4], 7, [1, 2, math.inf, 4]]
    for box in broken:
        assert box_from_ltrb(box) is UNUSABLE_BOX and box_from_xywh(box) is UNUSABLE_BOX, box
    assert box_from_ltrb({"left": 1}) is UNUSABLE_BOX and box_from_xywh({"x": 1}) is UNUSABLE_BOX


def test_as_str() -> None:
    assert as_str("a") == "a" and as_str(3) == "3" and as_str(2.5) == "2.5"
    assert as_str(None) == as_str(True) == as_str(math.nan) == as_str([1]) == ""


@pytest.mark.parametrize(
    "tree",
    [
        {"role": "list", "children": [
            {"role": "button", "name": 5, "bbox": [0, math.nan, 3, 4]},
            {"role": "button", "name": {"a": 1}, "bbox": [5, 5, 1, 1]},
            {"role": "frobnicator", "name": "x", "bbox": [1, 2, 3]},
        ]},
        {"nodes": [
            {"nodeId": "1", "role": {"value": "list"}, "childIds": ["2", "3", "4"]},
            {"nodeId": "2", "parentId": "1", "role": {"value": "button"}, "name": {"value": 5},
             "bbox": [0, math.nan, 3, 4]},
            {"nodeId": "3", "parentId": "1", "role": {"value": "button"}, "name": {"value": [1]},
             "bbox": [5, 5, 1, 1]},
            {"nodeId": "4", "parentId": "1", "role": {"value": "frobnicator"},
             "name": {"value": "x"}, "bbox": [1, 2, 3]},
        ]},
    ],
    ids=["nested", "cdp"],
)  # fmt: skip
def test_repairs_reach_the_table_diagnostics(tree: object) -> None:
    table = Observation(accessibility_tree=tree).candidates("a11y")
    assert table.diagnostics["box_inverted"] == 1
    assert table.diagnostics["name_not_text"] == 2
    assert table.diagnostics["role_unknown"] == 1
    assert (
        table.diagnostics.get("box_not_finite", 0) + table.diagnostics.get("box_malformed", 0) == 2
    )
    assert "5" in table.names


def _build_or_refuse(tree: object) -> None:
    with contextlib.suppress(ResolutionError):
        Observation(accessibility_tree=tree).candidates("a11y")


@pytest.mark.parametrize("tree", [{"role": "button", "name": "OK"}, {"role": 7, "children": "x"}])
def test_a_build_pauses_the_collector_and_leaves_it_as_it_was(tree: object) -> None:
    seen: list[bool] = []
    with no_cyclic_gc():
        seen.append(gc.isenabled())
    assert seen == [False] and gc.isenabled()
    _build_or_refuse(tree)
    assert gc.isenabled()
    gc.disable()
    try:
        _build_or_refuse(tree)
        assert not gc.isenabled()  # a collector the caller turned off stays off
    finally:
        gc.enable()
    with pytest.raises(ValueError), no_cyclic_gc():
        raise ValueError("the build failed")
    assert gc.isenabled()


class _Linked:
    """An object that refers to itself: freed by the cyclic collector alone."""

    def __init__(self, payload: object) -> None:
        self.me = self
        self.payload = payload


def test_garbage_made_before_a_build_is_not_kept_by_it() -> None:
    # Playwright's sync calls leave each answer (a CDP node list, a DOM snapshot) in a
    # reference cycle with the call's frames. A build moved every object the collector
    # tracked, that garbage too, to the oldest generation, which only a full collection
    # reads: a page observed at every step kept each observation's answers (about 1 MB a
    # view of a small list), and the process grew by gigabytes over a long run.
    _build_or_refuse({"role": "button", "name": "OK"})  # (what a first build imports)
    gc.collect()
    gone = weakref.ref(_Linked([0] * 1000))
    _build_or_refuse({"role": "button", "name": "OK"})
    for _ in range(20_000):  # what a program makes next, dropped at once
        [[]]  # noqa: B018
    assert gone() is None


def test_the_a11y_build_runs_with_the_collector_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    import resolver.adapters.a11y as a11y

    seen: list[bool] = []
    parse = a11y.parse_input

    def watched(*args: object) -> object:
        seen.append(gc.isenabled())
        return parse(*args)

    monkeypatch.setattr(a11y, "parse_input", watched)
    Observation(accessibility_tree={"role": "button", "name": "OK"}).candidates("a11y")
    assert seen == [False] and gc.isenabled()


def test_integers_too_large_for_a_float_are_no_numbers() -> None:
    huge = 10**400
    assert box_from_ltrb([huge, 0, 10, 10]) is UNUSABLE_BOX
    assert box_from_xywh({"x": 0, "y": 0, "width": huge, "height": 1}) is UNUSABLE_BOX
    assert as_str(huge) == str(huge) and as_str(10**5000) == ""  # past Python's digit limit


def test_a_process_that_froze_its_objects_has_them_counted_rarely(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Counting frozen objects walks them all (7 ms for a million); a process that keeps
    them (a server that froze before it forked) has them counted once every
    FROZEN_RECHECK builds, not twice a build, and they are never unfrozen."""
    counted: list[int] = []
    frozen = [1_000_000]

    def count() -> int:
        counted.append(frozen[0])
        return frozen[0]

    def never() -> None:
        raise AssertionError("the process's frozen objects were unfrozen")

    monkeypatch.setattr(_common, "_frozen_seen", [0, 0])
    monkeypatch.setattr(gc, "get_freeze_count", count)
    monkeypatch.setattr(gc, "unfreeze", never)
    for _ in range(FROZEN_RECHECK - 1):
        _build_or_refuse({"role": "button", "name": "OK"})
    gone = weakref.ref(_Linked([0] * 1000))  # garbage is still collected on the way in
    _build_or_refuse({"role": "button", "name": "OK"})
    assert len(counted) == 1 and gc.isenabled() and gone() is None
    # Counted again after FROZEN_RECHECK more; once none are kept, asked each time (free then).
    frozen[0] = 0
    monkeypatch.undo()
    monkeypatch.setattr(_common, "_frozen_seen", [1, FROZEN_RECHECK])
    monkeypatch.setattr(gc, "get_freeze_count", count)
    for _ in range(3):
        _build_or_refuse({"role": "button", "name": "OK"})
    assert counted[1:] == [0, 0, 0] and gc.isenabled()
