"""An agent-kit run written as a recording.

:func:`~resolver.act.execute` given an :class:`~resolver.record.AgentRecorder`
(``recorder=``, started) writes, for each action it located on the page, the observation it
located it on (an ``ax_snapshot``), a ``decision`` naming the element as the library records
it (:func:`~resolver.capture.ref_from_row`: role, name, box, containers, neighbours, IDs)
and an ``action_result`` (``ok``, or ``error`` with the action's code and message); a
``navigation`` entry when an action moved the page (``back``, ``forward`` and ``reload`` with
their reasons); and after the call, one ``dialog`` entry per dialog the page opened, tied to
its action's step. ``resolver replay`` then re-resolves every step against its own snapshot
or a later page. An ``upload`` has no recording_v1 action type and is not written;
actions without a target (``press`` and ``scroll`` without one, ``wait``,
``scroll_to_text``) name no element and are not either.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ..capture.rows import ref_from_row
from ..models import SemanticElementRef
from ..record import AgentRecorder, RecorderError
from ..results import Resolution
from .model import (
    Action,
    ActionError,
    ClickAction,
    DialogSeen,
    DragAction,
    HistoryAction,
    HoverAction,
    PressAction,
    ScrollAction,
    SelectAction,
    TypeAction,
    UploadAction,
)

__all__ = ["Located", "RunRecording", "recorded_action"]

_REASONS: Final[dict[str, str]] = {"back": "back_forward", "forward": "back_forward",
                                   "reload": "reload"}  # fmt: skip


@dataclass
class Located:
    """What one action located on the page: its element and the observation it was found
    on (both ``None`` until it is located)."""

    resolution: Resolution | None = None
    observation: Any = None


def recorded_action(action: Action, element: SemanticElementRef) -> dict[str, Any] | None:
    """The recording_v1 action (``type``, ``element``, ``text``, ``key``, ``files``) of
    ``action`` on ``element``; ``None`` for an action that names no element."""
    if isinstance(action, ClickAction):
        return {"type": action.kind, "element": element}
    if isinstance(action, HoverAction):
        return {"type": "hover", "element": element}
    if isinstance(action, TypeAction):
        return {"type": "type", "element": element, "text": action.text}
    if isinstance(action, SelectAction):
        chosen = action.label if action.value is None else action.value
        return {"type": "select", "element": element, "text": chosen}
    if isinstance(action, PressAction) and action.target is not None:
        return {"type": "key", "element": element, "key": action.key}
    if isinstance(action, ScrollAction) and action.target is not None:
        return {"type": "scroll", "element": element}
    if isinstance(action, DragAction):  # (recording_v1 names the dragged element only)
        return {"type": "drag", "element": element}
    if isinstance(action, UploadAction):
        return {"type": "upload", "element": element, "files": [Path(f).name for f in action.files]}
    return None


class RunRecording:
    """The entries one :func:`~resolver.act.execute` call writes to ``recorder``.

    Raises
    ------
    RecorderError
        ``recorder`` is no :class:`~resolver.record.AgentRecorder`, or its run is not
        started or is finished (checked before any action runs).
    """

    def __init__(self, recorder: Any) -> None:
        if not isinstance(recorder, AgentRecorder):
            raise RecorderError(
                f"execute: recorder= takes an AgentRecorder, not {type(recorder).__name__}"
            )
        recorder.check_open("execute")
        self.recorder = recorder
        self.steps: dict[int, str] = {}

    def step(
        self, position: int, action: Action, found: Located, error: ActionError | None,
        took_ms: float,
    ) -> None:  # fmt: skip
        """The action at ``position``: its observation, decision and result, when it
        located an element."""
        res, observation = found.resolution, found.observation
        if res is None or observation is None:
            return
        table = observation.candidates(res.source)
        row = table.executor_row(res.executor_id)
        fields = None if row is None else recorded_action(action, ref_from_row(table, row))
        if fields is None:
            return
        self.steps[position] = self.recorder.executed(
            observation, fields, target_node=res.executor_id if res.source == "a11y" else None,
            status="ok" if error is None else "error",
            error=None if error is None else f"{error.code}: {error.message}",
            duration_ms=round(took_ms, 3),
        )  # fmt: skip

    def moved(self, action: Action, url: str) -> None:
        """A ``navigation`` entry: the action moved the page to ``url``."""
        reason = _REASONS.get(action.action, "navigate")
        self.recorder.navigation(url, reason if isinstance(action, HistoryAction) else "navigate")

    def dialogs(self, seen: Sequence[DialogSeen]) -> None:
        """A ``dialog`` entry for each dialog the page opened, tied to its action's step."""
        for dialog in seen:
            self.recorder.dialog(
                self.steps.get(dialog.action_index), dialog.type, dialog.message,
                dialog.answer, default_value=dialog.default_value, text=dialog.text,
            )  # fmt: skip
