"""Action evaluation: does a predicted action act on the same element as a reference action?

For a pointer action, the element is the one under its point (the deepest row whose box holds
it, :func:`resolver.capture.element_at_point`) or, when the action names its element, that
element. The reference element is found again in the predicted action's observation (the
same observation, or a later one: then through :func:`resolver.resolve`), and the predicted
point must land on it or inside it (on the text inside a button, say). Keyboard actions have
no point: their keys and typed text are compared directly.

>>> from resolver import ActionWithElement, Observation
>>> tree = {"id": "1", "role": "dialog", "name": "Save?", "children": [
...     {"id": "2", "role": "button", "name": "OK", "bbox": [10, 10, 60, 30]},
...     {"id": "3", "role": "button", "name": "Cancel", "bbox": [70, 10, 130, 30]}]}
>>> obs = Observation(accessibility_tree=tree)
>>> ref_click = ActionWithElement(type="click", x=20, y=20)
>>> same_target(obs, ref_click, obs, ActionWithElement(type="click", x=55, y=25)).same
True
>>> same_target(obs, ref_click, obs, ActionWithElement(type="click", x=100, y=20)).same
False
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from .capture.point import element_at_point, row_at_point
from .chain import resolve
from .config import MatchConfig
from .decide import same_target as same_click_target
from .errors import ElementNotFoundError, InvalidReferenceError, ResolutionError
from .models import ActionWithElement, SemanticElementRef
from .observation import Observation
from .table import CandidateTable

__all__ = ["EpisodeReport", "SameTarget", "Step", "evaluate_episode", "same_target", "target_at"]

_KEY_ALIASES: Final[Mapping[str, str]] = {
    "control": "ctrl", "ctl": "ctrl", "cmd": "meta", "command": "meta", "super": "meta",
    "win": "meta", "option": "alt", "return": "enter", "esc": "escape", "del": "delete",
    "arrowup": "up", "arrowdown": "down", "arrowleft": "left", "arrowright": "right",
    " ": "space", "spacebar": "space",
}  # fmt: skip


def _action(value: Any) -> ActionWithElement:
    if isinstance(value, ActionWithElement):
        return value
    if isinstance(value, Mapping):
        action: ActionWithElement = ActionWithElement.model_validate(value)
        return action
    raise InvalidReferenceError(
        f"an action must be an ActionWithElement or a dict, not {type(value).__name__}"
    )


def target_at(
    observation: Observation | Any,
    action: ActionWithElement | Mapping[str, Any],
    *,
    source: str = "a11y",
) -> SemanticElementRef | None:
    """The element under ``action``'s point: the deepest row whose box holds it, as a
    reference; ``None`` for an action without a point (keyboard) or a point on no element.

    Raises
    ------
    InvalidReferenceError
        ``action`` is not an action.
    InvalidObservationError
        The observation cannot be read.
    """
    act = _action(action)
    if act.x is None or act.y is None:
        return None
    try:
        return element_at_point(Observation.from_any(observation), act.x, act.y, source=source)
    except ElementNotFoundError:
        return None


@dataclass(frozen=True)
class SameTarget:
    """The verdict on one predicted action, with what it rests on.

    ``same`` is the verdict; ``reason`` says why in a few words; ``reference`` and
    ``predicted`` are the executor IDs of the two elements in the predicted action's
    observation (``None`` when there is none).
    """

    same: bool
    reason: str
    action_type: str
    reference: str | None = None
    predicted: str | None = None
    evidence: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "same": self.same,
            "reason": self.reason,
            "action_type": self.action_type,
            "reference": self.reference,
            "predicted": self.predicted,
            "evidence": dict(self.evidence),
        }


def _key(key: str | None) -> str:
    """A key chord in one spelling: ``Control+A`` and ``ctrl+a`` agree."""
    parts = [p.strip().lower() for p in (key or "").replace("-", "+").split("+")]
    parts = [_KEY_ALIASES.get(p, p) for p in parts if p] or [" "]
    *mods, last = parts
    return "+".join([*sorted(set(mods)), last])


def _row_of(table: CandidateTable, executor_id: str) -> int | None:
    try:
        return table.executor_ids.index(executor_id)
    except ValueError:
        return None


def _located(
    act: ActionWithElement,
    obs: Observation,
    table: CandidateTable,
    source: str,
    config: MatchConfig | None,
) -> tuple[int | None, str]:
    """The row an action acts on in ``obs`` (its point first, else its element) and, when
    there is none, why."""
    if act.x is not None and act.y is not None:
        try:
            return row_at_point(table, act.x, act.y), ""
        except ElementNotFoundError:
            return None, f"no element at ({act.x:g}, {act.y:g})"
    if act.element is None:
        return None, "the action has neither a point nor an element"
    return _find(act.element, obs, table, source, config)


def _find(
    ref: SemanticElementRef,
    obs: Observation,
    table: CandidateTable,
    source: str,
    config: MatchConfig | None,
) -> tuple[int | None, str]:
    try:
        found = resolve(ref, obs, sources=(source,), config=config, coords_fallback="never")
    except ResolutionError as exc:
        return None, f"{exc.code.value}: {exc.message}"
    return _row_of(table, found.executor_id), ""


def _one_target(table: CandidateTable, a: int, b: int) -> bool:
    """The same row, one inside the other (the text in a button), or nested rows that are
    one click target."""
    return a == b or table.is_ancestor(a, b) or same_click_target(table, a, b, 0.85)


def same_target(
    reference_observation: Observation | Any,
    reference_action: ActionWithElement | Mapping[str, Any],
    observation: Observation | Any,
    predicted_action: ActionWithElement | Mapping[str, Any],
    *,
    source: str = "a11y",
    config: MatchConfig | None = None,
) -> SameTarget:
    """Whether ``predicted_action`` (taken on ``observation``) acts on the element that
    ``reference_action`` (taken on ``reference_observation``) acted on.

    Types must agree; ``key`` actions compare their chords (``Control+A`` = ``ctrl+a``);
    ``type`` actions compare their text, and their targets when both have one; ``upload``
    actions their files (the same names, in any order) and then their targets; pointer
    actions compare targets: the reference element is found in ``observation`` (directly
    when it is the same observation, else by :func:`resolver.resolve`), and the predicted
    point must fall on it or on something inside it.

    Raises
    ------
    InvalidReferenceError
        An action is malformed.
    InvalidObservationError
        An observation cannot be read.
    """
    ref_act, pred_act = _action(reference_action), _action(predicted_action)
    kind = ref_act.type
    if pred_act.type != kind:
        return SameTarget(False, f"a {pred_act.type} action, not a {kind}", kind)
    if kind == "key":
        same = _key(ref_act.key) == _key(pred_act.key)
        return SameTarget(same, "same keys" if same else "other keys", kind)
    has_target = ref_act.x is not None or ref_act.element is not None
    if kind == "type":
        if (ref_act.text or "") != (pred_act.text or ""):
            return SameTarget(False, "other text", kind)
        pred_target = pred_act.x is not None or pred_act.element is not None
        if not (has_target and pred_target):
            return SameTarget(True, "same text", kind)
    if kind == "upload" and sorted(ref_act.files or ()) != sorted(pred_act.files or ()):
        return SameTarget(False, "other files", kind)
    return _pointer(reference_observation, ref_act, observation, pred_act, source, config)


def _pointer(
    reference_observation: Any,
    ref_act: ActionWithElement,
    observation: Any,
    pred_act: ActionWithElement,
    source: str,
    config: MatchConfig | None,
) -> SameTarget:
    """The target comparison of :func:`same_target`."""
    kind = ref_act.type
    ref_obs = Observation.from_any(reference_observation)
    obs = ref_obs if observation is reference_observation else Observation.from_any(observation)
    table = obs.candidates(source)
    if obs is ref_obs:
        ref_row, why = _located(ref_act, obs, table, source, config)
    else:
        element = ref_act.element or target_at(ref_obs, ref_act, source=source)
        if element is None:
            return SameTarget(False, "no element at the reference point", kind)
        ref_row, why = _find(element, obs, table, source, config)
    if ref_row is None:
        return SameTarget(False, f"reference element not found: {why}", kind)
    pred_row, why = _located(pred_act, obs, table, source, config)
    reference = table.executor_id(ref_row)
    if pred_row is None:
        return SameTarget(False, f"predicted element not found: {why}", kind, reference)
    same = _one_target(table, ref_row, pred_row)
    evidence = {"reference": table.row(ref_row), "predicted": table.row(pred_row)}
    reason = "same element" if same else "another element"
    return SameTarget(same, reason, kind, reference, table.executor_id(pred_row), evidence)


class Step(NamedTuple):
    """One step of an episode: the reference action on its observation, and the predicted
    action (on ``observation``; the reference observation when ``None``)."""

    reference_observation: Any
    reference_action: ActionWithElement | Mapping[str, Any]
    predicted_action: ActionWithElement | Mapping[str, Any]
    observation: Any = None


@dataclass(frozen=True)
class EpisodeReport:
    """Verdicts of an episode: per step, overall step accuracy, and per action type."""

    results: tuple[SameTarget, ...]

    @property
    def step_accuracy(self) -> float:
        """Share of steps whose predicted action is the reference's (0 for no steps)."""
        return sum(r.same for r in self.results) / len(self.results) if self.results else 0.0

    @property
    def by_type(self) -> dict[str, dict[str, float]]:
        """``{type: {"steps", "same", "accuracy"}}``, types in order of first appearance."""
        table: dict[str, dict[str, float]] = {}
        for r in self.results:
            row = table.setdefault(r.action_type, {"steps": 0, "same": 0, "accuracy": 0.0})
            row["steps"] += 1
            row["same"] += r.same
        for row in table.values():
            row["accuracy"] = row["same"] / row["steps"]
        return table

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "step_accuracy": self.step_accuracy,
            "by_type": self.by_type,
            "steps": [r.to_dict() for r in self.results],
        }

    def markdown(self) -> str:
        """The per-type table, with a total row."""
        lines = ["| action | steps | same | accuracy |", "|---|---|---|---|"]
        for kind, row in self.by_type.items():
            lines.append(f"| {kind} | {row['steps']:g} | {row['same']:g} | {row['accuracy']:.1%} |")
        same = sum(r.same for r in self.results)
        lines.append(f"| all | {len(self.results)} | {same} | {self.step_accuracy:.1%} |")
        return "\n".join(lines)


def evaluate_episode(
    steps: Iterable[Step | tuple[Any, ...]],
    *,
    source: str = "a11y",
    config: MatchConfig | None = None,
) -> EpisodeReport:
    """:func:`same_target` for every step of an episode.

    Raises
    ------
    InvalidReferenceError
        A step is not ``(reference_observation, reference_action, predicted_action[,
        observation])`` or holds a malformed action.
    """
    if not isinstance(steps, Iterable) or isinstance(steps, (str, bytes, Mapping, Step)):
        raise InvalidReferenceError(
            f"steps must be an iterable of steps (a list, say); got {type(steps).__name__}"
        )
    results = []
    for i, raw in enumerate(steps):
        try:
            step = raw if isinstance(raw, Step) else Step(*raw)
        except TypeError as exc:
            raise InvalidReferenceError(
                f"step {i} is not (reference_observation, "
                "reference_action, predicted_action[, observation])"
            ) from exc
        observation = step.reference_observation if step.observation is None else step.observation
        results.append(
            same_target(
                step.reference_observation,
                step.reference_action,
                observation,
                step.predicted_action,
                source=source,
                config=config,
            )
        )
    return EpisodeReport(tuple(results))
