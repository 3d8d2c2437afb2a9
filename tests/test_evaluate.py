from typing import Any

import pytest

from resolver import ActionWithElement, InvalidReferenceError, Observation, SemanticElementRef
from resolver.evaluate import Step, evaluate_episode, same_target, target_at

TREE = {"id": "d", "role": "dialog", "name": "Save changes?", "children": [
    {"id": "ok", "role": "button", "name": "OK", "bbox": [10, 10, 60, 30], "children": [
        {"id": "okt", "role": "text", "name": "OK", "bbox": [20, 14, 50, 26]}]},
    {"id": "cancel", "role": "button", "name": "Cancel", "bbox": [70, 10, 130, 30]},
    {"id": "name", "role": "textbox", "name": "Name", "bbox": [10, 50, 200, 70]},
]}  # fmt: skip
MOVED = {"id": "d", "role": "dialog", "name": "Save changes?", "children": [
    {"id": "cancel2", "role": "button", "name": "Cancel", "bbox": [10, 110, 70, 130]},
    {"id": "ok2", "role": "button", "name": "OK", "bbox": [80, 110, 130, 130]},
]}  # fmt: skip
OBS, LATER = Observation(accessibility_tree=TREE), Observation(accessibility_tree=MOVED)


def click(x: float, y: float) -> ActionWithElement:
    return ActionWithElement(type="click", x=x, y=y)


def test_target_at_is_the_deepest_element_under_the_point() -> None:
    ref = target_at(OBS, click(30, 20))  # the label inside the button gives way to it
    assert ref is not None and (ref.role, ref.name) == ("button", "OK")
    field = target_at(OBS, click(100, 60))
    assert field is not None and field.role == "textbox"
    assert target_at(OBS, {"type": "key", "key": "Enter"}) is None
    assert target_at(OBS, click(900, 900)) is None


def test_same_observation() -> None:
    assert same_target(OBS, click(30, 20), OBS, click(12, 12)).same  # button padding vs its text
    verdict = same_target(OBS, click(30, 20), OBS, click(100, 20))
    assert not verdict.same and verdict.predicted == "a11y:cancel"


def test_changed_observation_follows_the_element() -> None:
    verdict = same_target(OBS, click(15, 15), LATER, click(100, 120))
    assert verdict.same and verdict.reference == "a11y:ok2"
    assert not same_target(OBS, click(15, 15), LATER, click(20, 120)).same


def test_predicted_element_without_a_point() -> None:
    predicted = ActionWithElement(type="click", element=SemanticElementRef(role="button",
                                                                           name="OK"))  # fmt: skip
    assert same_target(OBS, click(15, 15), LATER, predicted).same


def test_keyboard_and_typing() -> None:
    key = ActionWithElement(type="key", key="Control+A")
    assert same_target(OBS, key, OBS, {"type": "key", "key": "ctrl+a"}).same
    assert not same_target(OBS, key, OBS, {"type": "key", "key": "ctrl+c"}).same
    typed = ActionWithElement(type="type", text="Ada", x=20, y=60)
    assert same_target(
        OBS, typed, OBS, ActionWithElement(type="type", text="Ada", x=150, y=55)
    ).same
    assert not same_target(OBS, typed, OBS, ActionWithElement(type="type", text="Bob")).same
    assert same_target(OBS, typed, OBS, ActionWithElement(type="type", text="Ada")).same
    assert not same_target(OBS, click(15, 15), OBS, key).same  # other action type


def test_uploads_compare_their_files_then_their_targets() -> None:
    def upload(files: list[str], x: float) -> ActionWithElement:
        return ActionWithElement(type="upload", files=files, x=x, y=20)

    reference = upload(["a.pdf", "b.png"], 30)
    assert same_target(OBS, reference, OBS, upload(["b.png", "a.pdf"], 12)).same  # any order
    verdict = same_target(OBS, reference, OBS, upload(["a.pdf"], 30))
    assert not verdict.same and verdict.reason == "other files"
    assert not same_target(OBS, reference, OBS, upload(["a.pdf", "b.png"], 100)).same
    assert not same_target(OBS, reference, OBS, click(30, 20)).same


def test_episode_report() -> None:
    report = evaluate_episode([
        (OBS, click(15, 15), click(40, 20)),
        Step(OBS, click(15, 15), click(20, 120), LATER),
        (OBS, {"type": "key", "key": "Enter"}, {"type": "key", "key": "Return"}),
    ])  # fmt: skip
    assert [r.same for r in report.results] == [True, False, True]
    assert report.step_accuracy == pytest.approx(2 / 3)
    assert report.by_type["click"] == {"steps": 2, "same": 1, "accuracy": 0.5}
    assert "| all | 3 | 2 | 66.7% |" in report.markdown()
    assert report.to_dict()["steps"][1]["same"] is False


def test_bad_input() -> None:
    with pytest.raises(InvalidReferenceError):
        same_target(OBS, "click", OBS, click(1, 1))
    with pytest.raises(InvalidReferenceError):
        evaluate_episode([(OBS,)])


@pytest.mark.parametrize("steps", [None, 5, "steps", {"a": 1}])
def test_an_episode_that_is_no_list_of_steps_is_a_typed_refusal(steps: Any) -> None:
    with pytest.raises(InvalidReferenceError, match="iterable of steps"):
        evaluate_episode(steps)


def test_a_single_step_given_as_the_episode_is_refused() -> None:
    obs = Observation(accessibility_tree={"role": "button", "name": "OK", "bbox": [0, 0, 9, 9]})
    click = {"type": "click", "x": 5, "y": 5}
    with pytest.raises(InvalidReferenceError, match="got Step"):
        evaluate_episode(Step(obs, click, click))  # type: ignore[arg-type]
    assert evaluate_episode([Step(obs, click, click)]).step_accuracy == 1.0
