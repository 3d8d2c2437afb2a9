"""``AgentRecorder``: a Python agent runtime's run (Playwright, either API) as recording_v1.

>>> rec = AgentRecorder("runs")                                    # doctest: +SKIP
>>> rec.start("Sign in as alice", trace_id="t42")                  # doctest: +SKIP
>>> sid = rec.snapshot(page)            # an ax_snapshot of the page   # doctest: +SKIP
>>> res = resolve(ref, rec.observation)  # the observation it was made of  # doctest: +SKIP
>>> rec.decision({"step": "1", "action": {"type": "click", "element": ref},
...               "target_node": res.executor_id})                 # doctest: +SKIP
>>> rec.result("1", "ok", executor_id=res.executor_id)           # doctest: +SKIP
>>> rec.finish("done")                                             # doctest: +SKIP
PosixPath('runs/run-agent-t42-20260101-120000.json')

``snapshot(page)`` observes the page exactly as :func:`resolver.integrations.playwright.observe`
does (one CDP session, no screenshot) and keeps that observation as :attr:`observation`, so the
agent resolves against the very page state the snapshot shows. With Playwright's async API,
``await rec.snapshot(page)``.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Awaitable, Mapping
from typing import Any

from ..models import ActionWithElement
from ..observation import Observation
from ._base import Recorder, RecorderError, as_dict, element_dict

__all__ = ["AgentRecorder"]

_ACTION_FIELDS = ("type", "x", "y", "element", "text", "key", "files")


class AgentRecorder(Recorder):
    """Records an agent's run: snapshots, decisions and their results (module doc).

    Parameters
    ----------
    out_dir:
        Folder of the recording (``<prefix>-agent-<trace_id>-<yyyyMMdd-HHmmss>.json``) and
        its journal while the run lasts.
    prefix:
        The file name's first part.
    clock:
        Returns the current time (an aware ``datetime``); UTC now by default.
    """

    mode = "agent"

    def __init__(self, out_dir: Any, *, prefix: str = "run", clock: Any = None) -> None:
        super().__init__(out_dir, prefix=prefix, clock=clock)
        self.observation: Observation | None = None

    def snapshot(self, page: Any) -> Any:
        """Observe ``page`` and record its SnapshotV1 (redacted) as an ``ax_snapshot`` entry.

        Parameters
        ----------
        page:
            A Playwright page (sync or async API, Chromium).

        Returns
        -------
        str
            The snapshot's ID in the timeline (``s1``, ``s2``, ...); the observation is kept
            as :attr:`observation`. With the async API, an awaitable of it.

        Raises
        ------
        RecorderError
            The run is not started or is finished.
        SourceUnavailableError
            The page is not a Chromium page.
        """
        self._open("snapshot")
        from ..integrations.playwright import observe

        observation = observe(page, screenshot=False)
        if inspect.isawaitable(observation):
            return self._added(observation)
        return self.add_observation(observation)

    async def _added(self, observing: Awaitable[Observation]) -> str:
        """:meth:`add_observation` of an observation still to be made (the async API)."""
        return self.add_observation(await observing)

    def add_observation(self, observation: Observation) -> str:
        """Record the SnapshotV1 of an observation the runtime made itself; its ID.

        Raises
        ------
        RecorderError
            The run is not started or is finished.
        InvalidObservationError
            The observation has no tree and no DOM.
        """
        self._open("snapshot")
        sid = self._snapshot_entry(observation, getattr(observation, "url", None))
        self.observation = observation
        return sid

    def decision(self, step: Any) -> str:
        """Record the agent's decision (a ``decision`` entry).

        Parameters
        ----------
        step:
            A dict (or a model with ``model_dump``): ``step`` (or ``step_id`` / ``id``), the
            step's ID; ``action`` {``type``, ``x``, ``y``, ``element`` (a
            :class:`~resolver.SemanticElementRef` or its dict), ``text``, ``key``} (an
            :class:`~resolver.ActionWithElement` too); optional ``target_node``, the node
            of the preceding snapshot it targets (``"12"`` or an executor ID
            ``"a11y:12"``). Text typed into a secret field is masked.

        Returns
        -------
        str
            The step ID.

        Raises
        ------
        RecorderError
            No step ID, a step ID used before, a target node the preceding snapshot does not
            hold, or the run is not started or finished.
        InvalidReferenceError
            The action or its element is malformed.
        """
        self._open("decision")
        fields = as_dict(step, "decision")
        step_id = _step_id(fields)
        if step_id in self._steps:
            raise RecorderError(f"decision: step {step_id!r} was recorded already")
        action = _action(fields.get("action"))
        node = self._target(fields.get("target_node"))
        action = self._typed(action, node, secret=False)
        entry: dict[str, Any] = {"step": step_id, "snapshot_id": self._current, "action": action}
        if node is not None:
            entry["target_node"] = node
        self._append("decision", entry)
        return step_id

    def result(
        self,
        step_id: Any,
        status: str,
        error: str | None = None,
        duration_ms: float | None = None,
        executor_id: str | None = None,
    ) -> None:
        """Record what came of a decision (an ``action_result`` entry).

        Parameters
        ----------
        step_id:
            The decision's step ID.
        status:
            ``"ok"`` when the action was performed; anything else (``"error"``, ...) when not.
        error:
            What went wrong.
        duration_ms:
            How long the action took.
        executor_id:
            What the executor acted on (``a11y:12``, ``xpath:...``).

        Raises
        ------
        RecorderError
            A step ID no decision has, a status that is no text, a negative or non-finite
            duration, or the run is not started or finished.
        """
        self._open("result")
        label = str(step_id) if step_id is not None else ""
        if label not in self._steps:
            raise RecorderError(f"result: no decision has step {label!r}")
        if not isinstance(status, str) or not status:
            raise RecorderError("result: status must be a non-empty string ('ok', 'error')")
        if duration_ms is not None and not (
            isinstance(duration_ms, (int, float)) and math.isfinite(duration_ms)
            and duration_ms >= 0
        ):  # fmt: skip
            raise RecorderError(f"result: duration_ms must be a number >= 0, got {duration_ms!r}")
        self._append("action_result", {
            "step": label, "status": status, "error": None if error is None else str(error),
            "duration_ms": duration_ms,
            "executor_id": None if executor_id is None else str(executor_id),
        })  # fmt: skip

    def executed(
        self,
        observation: Observation,
        action: Mapping[str, Any],
        *,
        target_node: str | None,
        status: str,
        error: str | None = None,
        duration_ms: float | None = None,
    ) -> str:
        """Record one action an executor performed on an element it located: the
        observation it was located on (an ``ax_snapshot``), the decision under the next
        free step ID, and its result (what :func:`resolver.act.execute` writes when given
        this recorder).

        Parameters
        ----------
        observation:
            The observation the element was located on.
        action:
            The action's fields (``type``, ``element``, ``text``, ``key``) as
            :meth:`decision` takes them.
        target_node:
            The element's node in that observation (an executor ID such as ``a11y:12``),
            or ``None``.
        status, error, duration_ms:
            As :meth:`result` takes them.

        Returns
        -------
        str
            The step ID.
        """
        sid = self.add_observation(observation)
        number = self._counts["actions"] + 1
        while str(number) in self._steps:
            number += 1
        if target_node is not None and target_node.removeprefix("a11y:") not in self._nodes[sid]:
            target_node = None  # (a node the snapshot left out: the element names it)
        step = self.decision({"step": str(number), "action": action, "target_node": target_node})
        self.result(step, status, error=error, duration_ms=duration_ms, executor_id=target_node)
        return step


def _step_id(fields: Mapping[str, Any]) -> str:
    for key in ("step", "step_id", "id"):
        value = fields.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value):
            return str(value)
    raise RecorderError("decision: a step needs an ID ('step', a string or an integer)")


def _action(value: Any) -> dict[str, Any]:
    """The action as a checked dict (its fields in the recording_v1 order)."""
    if value is None:
        raise RecorderError("decision: a step needs an action ({'type': 'click', ...})")
    fields = as_dict(value, "decision.action")
    unknown = set(fields) - set(_ACTION_FIELDS)
    if unknown:
        raise RecorderError(f"decision: unknown action fields {sorted(unknown)}")
    element = element_dict(fields.get("element"))
    ActionWithElement(**{**fields, "element": element})  # checks type, x/y, text, key, files
    out = {k: fields.get(k) for k in _ACTION_FIELDS}
    out["element"] = element
    if out["files"] is None:
        del out["files"]  # (an upload's only)
    else:
        out["files"] = list(out["files"])
    return out
