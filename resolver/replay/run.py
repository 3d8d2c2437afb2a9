"""Replay recordings: resolve every step again and judge the answer; run locally, store
results per recording as they finish, resume an interrupted run.

:func:`replay_task` is the unit of work, a pure function of a task and the options that
returns a JSON-ready dict, so the same function runs in this process or on a Dask worker
(:mod:`resolver.replay.cluster`) and gives the same result. Latencies (``ms``) are the only
fields that differ between runs; :func:`comparable` drops them.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from ..capture.complete import TABLE_SOURCES, complete_ref
from ..chain import resolve
from ..errors import ResolutionError
from ..observation import Observation
from .model import Recording, RecordingError, ReplayError, ReplayOptions, Step, Task
from .recording import observation_file_kind
from .sources import fingerprint, load_task

__all__ = [
    "RESULT_VERSION",
    "ResultStore",
    "comparable",
    "replay_local",
    "replay_task",
    "resolve_step",
]

RESULT_VERSION: Final[int] = 1
Progress = Callable[[dict[str, Any]], None]


class _Observations:
    """Observations of a recording, built once per snapshot (tables are cached on them)."""

    def __init__(
        self, recording: Recording, override: Observation | None, options: ReplayOptions
    ) -> None:
        self._recording = recording
        self._override = override
        self._limits = options.limits
        self._built: dict[str, Observation] = {}

    def get(self, sid: str) -> Observation:
        if self._override is not None:
            return self._override
        return self.recorded(sid)

    def recorded(self, sid: str) -> Observation:
        """The snapshot ``sid`` as recorded (whatever the steps are resolved against)."""
        if sid not in self._built:
            doc = self._recording.snapshots[sid]
            self._built[sid] = (
                doc
                if isinstance(doc, Observation)
                else Observation(accessibility_tree=doc, limits=self._limits)
            )
        return self._built[sid]


def _target_snapshot(recording: Recording, step: Step, options: ReplayOptions) -> str | None:
    """The snapshot a step is resolved against under ``options.against``."""
    if options.observation is not None:
        return _override_id(options.observation)
    if options.against == "next":
        return step.following
    if options.against == "last":
        return recording.order[-1] if recording.order else None
    return step.preceding


def _override_id(path: str) -> str:
    """The snapshot ID of the file every step is resolved against (its ``snapshot_id``)."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ReplayError(f"cannot read the observation {path}: {exc}") from exc
    return str(doc.get("snapshot_id") or Path(path).name) if isinstance(doc, dict) else path


def _verdict(answer: str | None, expected: tuple[str, ...] | None) -> str:
    if expected is None:
        return "abstained" if answer is None else "answered"
    if not expected:
        return "rejected" if answer is None else "false_hit"
    if answer is None:
        return "abstained"
    return "correct" if answer in expected else "wrong"


def resolve_step(
    step: Step, sid: str | None, obs: Observation | None, options: ReplayOptions
) -> dict[str, Any]:
    """Resolve one step against one observation and judge the answer."""
    row: dict[str, Any] = {
        "index": step.index, "step": step.step, "kind": step.kind, "key": step.key,
        "action_type": step.action_type, "snapshot": sid, "verdict": "skipped",
        "answer": None, "expected": None, "source": None, "code": None, "rule": None,
        "score": None, "margin": None, "ms": 0.0,
    }  # fmt: skip
    if sid is None or obs is None:
        row["code"] = "NO_SNAPSHOT"
        return row
    expected = step.expected.get(sid)
    row["expected"] = None if expected is None else list(expected)
    start = time.perf_counter()
    try:
        res = resolve(step.ref, obs, **options.resolve_options())  # type: ignore[arg-type]
    except ResolutionError as exc:
        row["ms"] = round(1000 * (time.perf_counter() - start), 3)
        row["code"] = exc.code.value
        invalid = exc.code.value in ("INVALID_REFERENCE", "INVALID_OBSERVATION", "LIMIT_EXCEEDED")
        row["verdict"] = "invalid" if invalid else _verdict(None, expected)
        row["error"] = exc.message
        row["rule"] = exc.evidence.rule or None
        return row
    row["ms"] = round(1000 * (time.perf_counter() - start), 3)
    row.update(answer=res.executor_id, source=res.source, rule=res.rule or None)
    row.update(score=round(res.score, 4), margin=round(res.margin, 4))
    row["verdict"] = _verdict(res.executor_id, expected)
    return row


def _completed(step: Step, observations: _Observations, options: ReplayOptions) -> tuple[Step, str]:
    """``step`` with its reference completed from the snapshot it was recorded on
    (:attr:`Step.recorded_on`), and ``"completed"``; or ``step`` as it is and why not (``"no
    reference"``, ``"no snapshot"``, ``"no source"``, or the error code of the completion:
    the element was not certain on its own page)."""
    sources = tuple(s for s in options.sources if s in TABLE_SOURCES)
    if step.ref is None:
        return step, "no reference"
    if step.recorded_on is None:
        return step, "no snapshot"
    if not sources:
        return step, "no source"
    try:
        ref = complete_ref(step.ref, observations.recorded(step.recorded_on), sources=sources)
    except ResolutionError as exc:
        return step, exc.code.value
    return dataclasses.replace(step, ref=ref), "completed"


def _replayed(
    recording: Recording, step: Step, observations: _Observations, options: ReplayOptions
) -> dict[str, Any]:
    """One step resolved on the snapshot ``options`` choose for it (completed first with
    ``options.complete``)."""
    sid = _target_snapshot(recording, step, options)
    obs = None if sid is None else observations.get(sid)
    completion = None
    if options.complete:
        step, completion = _completed(step, observations, options)
    row = resolve_step(step, sid, obs, options)
    if completion is not None:
        row["completion"] = completion
    return row


def _check_task(task: object, options: object) -> None:
    if not isinstance(task, Task) or not isinstance(options, ReplayOptions):
        raise ReplayError(
            f"replay_task takes a Task and ReplayOptions, not {type(task).__name__} and "
            f"{type(options).__name__}"
        )


def replay_task(task: Task, options: ReplayOptions) -> dict[str, Any]:
    """Replay one recording; never raises for a bad recording (its result says ``corrupt``).

    Parameters
    ----------
    task:
        The recording (see :func:`resolver.replay.sources.discover`).
    options:
        Sources, threshold, margin, which snapshot to resolve against.

    Returns
    -------
    dict
        ``{result_version, recording, kind, path, format, mode, status ("ok" | "corrupt" |
        "snapshot": the file is an observation a recording names, not a recording; its
        ``format`` says which), error, entries, untargeted, steps: [...], seconds}``; each
        step has ``verdict``, ``answer``, ``expected``, ``source``, ``code``, ``score``,
        ``margin``, ``ms``, and with ``options.complete`` its ``completion``
        (``"completed"``, or why its reference was kept as recorded).

    Raises
    ------
    ReplayError
        ``task`` is no :class:`~resolver.replay.model.Task` or ``options`` no
        :class:`~resolver.replay.model.ReplayOptions`.
    """
    _check_task(task, options)
    start = time.perf_counter()
    result: dict[str, Any] = {
        "result_version": RESULT_VERSION, "recording": task.name, "kind": task.kind,
        "path": task.path, "format": None, "mode": None, "status": "ok", "error": None,
        "entries": 0, "untargeted": 0, "steps": [],
    }  # fmt: skip
    try:
        recording = load_task(task, limits=options.limits)
        override = None
        if options.observation is not None:
            path = Path(options.observation)
            override = Observation(accessibility_tree=path, limits=options.limits)
        observations = _Observations(recording, override, options)
        result.update(format=recording.fmt, mode=recording.mode)
        result.update(entries=recording.entries, untargeted=recording.untargeted)
        result["steps"] = [_replayed(recording, step, observations, options)
                           for step in recording.steps]  # fmt: skip
    except RecordingError as exc:
        kind = None
        if task.kind == "file":
            kind = observation_file_kind(Path(task.path), limits=options.limits)
        if kind is None:
            result.update(status="corrupt", error=str(exc), steps=[])
        else:
            result.update(status="snapshot", format=kind, steps=[])
    except (ValueError, OSError, ResolutionError, ReplayError) as exc:
        result.update(status="corrupt", error=str(exc), steps=[])
    except Exception as exc:  # one recording, however broken, must never end the run
        result.update(status="corrupt", error=f"{type(exc).__name__}: {exc}", steps=[])
    result["seconds"] = round(time.perf_counter() - start, 4)
    return result


def comparable(results: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Results without the fields that measure time (the rest is deterministic)."""
    out = []
    for result in results:
        steps = [{k: v for k, v in s.items() if k != "ms"} for s in result["steps"]]
        out.append({**{k: v for k, v in result.items() if k != "seconds"}, "steps": steps})
    return out


class ResultStore:
    """One JSON file per finished recording under ``folder/results``, written atomically,
    so an interrupted run loses at most the recordings in flight."""

    def __init__(self, folder: str | Path, options: ReplayOptions) -> None:
        self.folder = Path(folder) / "results"
        self.options = options

    def _file(self, task: Task) -> Path:
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in task.name.strip("/"))
        return self.folder / f"{safe[-150:]}.json"

    def key(self, task: Task) -> str:
        """What a stored result must match to be reused: the input files and the options."""
        return f"{fingerprint(task)}-{self.options.digest()}"

    def load(self, task: Task) -> dict[str, Any] | None:
        """The stored result for ``task`` when it was made from the same input and options."""
        try:
            stored = json.loads(self._file(task).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None  # absent, or cut short by the interruption: replay it
        if not isinstance(stored, dict) or stored.get("key") != self.key(task):
            return None
        result: dict[str, Any] = stored["result"]
        return result

    def save(self, task: Task, result: Mapping[str, Any]) -> None:
        """Write one result (temporary file, then rename: never half a file)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        target = self._file(task)
        tmp = target.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(json.dumps({"key": self.key(task), "result": result}), encoding="utf-8")
        tmp.replace(target)


def replay_local(
    tasks: Sequence[Task],
    options: ReplayOptions,
    *,
    store: ResultStore | None = None,
    resume: bool = False,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """Replay ``tasks`` one after the other in this process.

    Parameters
    ----------
    tasks, options:
        What to replay and how.
    store:
        Where each result is written as it finishes (none: kept in memory only).
    resume:
        Reuse results in ``store`` made from the same files and options.
    progress:
        Called with each result as it finishes (a progress bar).

    Returns
    -------
    list of dict
        One result per task, in task order.
    """
    if not isinstance(tasks, Iterable) or isinstance(tasks, Task | str | bytes | Mapping):
        raise ReplayError(
            f"tasks must be an iterable of Task (a list, say), not {type(tasks).__name__}"
        )
    results: list[dict[str, Any]] = []
    for task in tasks:
        result = store.load(task) if (store is not None and resume) else None
        if result is None:
            result = replay_task(task, options)
            if store is not None:
                store.save(task, result)
        results.append(result)
        if progress is not None:
            progress(result)
    return results
