"""Relocation on the captured fixture pages: record on the base page, resolve on changed ones."""

from pathlib import Path

import pytest

from resolver import AmbiguousMatchError, ElementNotFoundError, resolve, resolve_element
from resolver.replay import (
    Trial,
    folder_captures,
    iter_trials,
    read_capture,
    run_trials,
    summarize,
)

CAPTURED = Path(__file__).resolve().parents[2] / "fixtures" / "captured"


@pytest.fixture(scope="module")
def trials() -> list[Trial]:
    return list(iter_trials(folder_captures(CAPTURED)))


def _a11y(ref, obs):  # type: ignore[no-untyped-def]
    return resolve_element(ref, obs, sources=("a11y",))


def test_fixture_set_is_substantial(trials: list[Trial]) -> None:
    assert len(trials) >= 150
    assert sum(t.expected is None for t in trials) >= 8  # removed targets


def test_no_wrong_answers_and_high_accuracy(trials: list[Trial]) -> None:
    outcomes = run_trials(trials, _a11y)
    summary = summarize(outcomes)
    wrong = [(o.trial.scenario, o.trial.key, o.answer) for o in outcomes if o.verdict == "wrong"]
    false_hits = [
        (o.trial.scenario, o.trial.key, o.answer) for o in outcomes if o.verdict == "false_hit"
    ]
    assert wrong == []
    assert false_hits == []
    assert summary["accuracy_present"] >= 0.85
    assert summary["rejection_removed"] == 1.0


def _trial(trials: list[Trial], scenario: str, key: str) -> Trial:
    return next(t for t in trials if t.scenario == scenario and t.key == key)


def test_two_ok_buttons_told_apart_by_container(trials: list[Trial]) -> None:
    # settings.v2 puts Network first: the Display OK now sits lower; a Privacy group adds an OK.
    trial = _trial(trials, "settings->settings.v2", "settings.display.ok")
    res = resolve(trial.ref, trial.changed.observation, sources=("a11y",))
    assert res.executor_id == trial.expected
    assert res.candidate.container_path[-1] == "Display"
    assert any(alt.name == "OK" for alt in res.alternatives)


def test_two_ok_buttons_told_apart_by_bbox() -> None:
    capture = read_capture(CAPTURED / "settings")
    table = capture.observation.candidates("a11y")
    oks = [
        i
        for i, (r, n) in enumerate(zip(table.roles, table.names, strict=True))
        if r == "button" and n == "OK"
    ]
    assert len(oks) == 2
    for row in oks:
        box = tuple(float(v) + 3 for v in table.bboxes[row])
        res = resolve({"role": "button", "name": "OK", "bbox": box}, capture.observation)
        assert res.candidate.id == table.ids[row]


def test_removed_row_button_abstains(trials: list[Trial]) -> None:
    trial = _trial(trials, "table->table.v2", "table.row.david.edit")
    assert trial.expected is None
    with pytest.raises((ElementNotFoundError, AmbiguousMatchError)) as info:
        resolve(trial.ref, trial.changed.observation, sources=("a11y",))
    # the other rows' Edit buttons are the evidence, and none is good enough
    assert any(c.name == "Edit" for c in info.value.evidence.candidates)


def test_per_row_buttons_follow_their_row(trials: list[Trial]) -> None:
    for key in ("table.row.alice.edit", "table.row.bob.delete", "table.row.grace.edit"):
        trial = _trial(trials, "table->table.v2", key)
        assert _a11y(trial.ref, trial.changed.observation) == trial.expected


def test_the_pages_are_read_within_the_limits() -> None:
    from resolver.errors import InvalidObservationError
    from resolver.limits import Limits

    captures = folder_captures(CAPTURED)
    first = next(iter_trials(captures, limits=Limits(max_depth=4096)))
    assert first.changed.observation.limits.max_depth == 4096
    with pytest.raises(InvalidObservationError, match="max_nodes"):
        next(iter_trials(captures, limits=Limits(max_nodes=5)))
