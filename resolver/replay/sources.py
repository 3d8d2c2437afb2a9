"""Where recordings come from: files and folders given on the command line, turned into
:class:`~resolver.replay.model.Task` items, and a task read back into a
:class:`~resolver.replay.model.Recording` (by whichever process runs it).

A folder is searched recursively for ``*.json`` and ``*.jsonl`` recordings; a folder of
capture folders (``fixtures/capture.py`` output: each with a ``labels.json``) adds one task
per base page, whose steps are the relocation trials of :mod:`resolver.replay.trials`
(record every labelled element on the base page, resolve it on each changed version).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Final

from ..limits import DEFAULT_LIMITS, Limits
from .captures import bundle_folder
from .model import Recording, RecordingError, ReplayError, Step, Task
from .recording import read_recording
from .trials import iter_trials

__all__ = ["discover", "fingerprint", "load_task"]

_CAPTURE_MARK = "labels.json"


HEAL_REPORT: Final[str] = "heal-report.json"
"""The report ``replay --heal`` writes beside the healed copies: no recording, so a replay
of that folder passes it by."""


def _is_capture_root(folder: Path) -> bool:
    return any((child / _CAPTURE_MARK).is_file() for child in folder.iterdir() if child.is_dir())


def _capture_tasks(root: Path) -> list[Task]:
    pages = sorted(
        child.name
        for child in root.iterdir()
        if (child / _CAPTURE_MARK).is_file() and ".v" not in child.name
    )
    return [Task("captures", str(root), page) for page in pages]


def _folder_tasks(folder: Path, skip: Path | None) -> list[Task]:
    tasks: list[Task] = []
    if _is_capture_root(folder):
        tasks.extend(_capture_tasks(folder))
    for path in sorted(folder.rglob("*")):
        if path.suffix not in (".json", ".jsonl") or not path.is_file():
            continue
        if (path.parent / _CAPTURE_MARK).is_file():
            continue  # a capture folder's own files
        if skip is not None and path.resolve().is_relative_to(skip):
            continue  # results of an earlier run written inside the input folder
        if path.name == HEAL_REPORT:
            continue  # the report written beside healed copies (replay --heal)
        tasks.append(Task("file", str(path)))
    return tasks


def discover(paths: Iterable[str | Path], *, skip: str | Path | None = None) -> list[Task]:
    """The tasks for ``paths`` (files, folders of recordings, folders of capture folders).

    Parameters
    ----------
    paths:
        Recording files and folders (one path alone is taken as a list of one).
    skip:
        A folder whose files are never taken as recordings (the run's output folder).

    Raises
    ------
    ReplayError
        A path does not exist, nothing replayable was found, or ``paths`` is no path or
        iterable of paths.
    """
    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    elif not isinstance(paths, Iterable) or isinstance(paths, bytes | Mapping):
        raise ReplayError(f"paths must be recording files or folders, not {type(paths).__name__}")
    paths = list(paths)
    skip_dir = Path(skip).resolve() if skip is not None else None
    tasks: list[Task] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            tasks.extend(_folder_tasks(path, skip_dir))
        elif path.is_file():
            tasks.append(Task("file", str(path)))
        else:
            raise ReplayError(f"no such file or folder: {path}")
    if not tasks:
        shown = ", ".join(str(p) for p in paths) or "(no paths)"
        raise ReplayError(f"no recordings found in {shown} (looked for *.json, *.jsonl, captures)")
    return list(dict.fromkeys(tasks))  # the same file given twice is replayed once


def fingerprint(task: Task) -> str:
    """A hash of the task's input files (name, size, modification time): a resumed run
    replays a recording again when its files changed."""
    digest = hashlib.sha1(task.name.encode("utf-8", "surrogatepass"))  # any file name
    if task.kind == "file":
        files = [Path(task.path)]
    else:
        root = Path(task.path)
        files = sorted(p for p in root.glob(f"{task.page}*/*") if p.is_file())
    for file in files:
        try:
            stat = file.stat()
        except OSError:
            continue
        digest.update(
            f"{file.name}:{stat.st_size}:{stat.st_mtime_ns}".encode(errors="surrogatepass")
        )
    return digest.hexdigest()[:16]


def load_task(task: Task, *, limits: Limits = DEFAULT_LIMITS) -> Recording:
    """Read the recording a task names, within ``limits`` (its observations too).

    Raises
    ------
    RecordingError
        The recording is corrupt, truncated or not a recording (a
        :class:`~resolver.replay.model.RecordingTooLargeError` when it is over a limit).
    """
    if task.kind == "file":
        return read_recording(Path(task.path), limits=limits)
    return _capture_recording(Path(task.path), str(task.page), limits)


def _capture_recording(root: Path, page: str, limits: Limits = DEFAULT_LIMITS) -> Recording:
    """A base page's relocation trials as a recording: one step per trial, resolved against
    the changed version, where the label key gives the right answer."""
    try:
        files = {
            name: texts
            for name, texts in bundle_folder(root).items()
            if name == page or name.startswith(page + ".v")
        }
        if page not in files:
            raise RecordingError(f"{root}: no capture folder {page!r}")
        recording = Recording(f"captures/{page}", "captures", "agent", [], {})
        for i, trial in enumerate(iter_trials(files, limits=limits)):
            sid = trial.changed.name
            if sid not in recording.snapshots:
                recording.snapshots[sid] = trial.changed.observation
                recording.order.append(sid)
            expected: tuple[str, ...] = ()
            if trial.expected is not None:
                expected = (trial.expected,)
                if trial.expected_xpath:
                    expected += (f"xpath:{trial.expected_xpath}",)
            if trial.base is not None and page not in recording.snapshots:
                recording.snapshots[page] = trial.base.observation  # not on the timeline
            recorded_on = page if trial.base is not None else None
            step = Step(i, trial.key, "trial", "click", trial.ref, sid, sid, {sid: expected},
                        recorded_on=recorded_on)  # fmt: skip
            recording.steps.append(step)
    except (OSError, ValueError) as exc:  # typed observation errors are ValueErrors too
        raise RecordingError(f"captures {page}: {exc}") from exc
    recording.entries = len(recording.steps)
    return recording
