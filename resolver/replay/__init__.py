"""Replay: read recordings and captured observations, resolve their targets again, report.

:mod:`.captures` reads captured page versions (a folder, or the demo bundle shipped with the
package) and :mod:`.trials` pairs them into relocation scenarios (the demo). For recordings:
:mod:`.recording` reads recording_v1 and openadapt-style files, :mod:`.sources` turns paths
into tasks, :mod:`.run` replays them here and stores results per recording,
:mod:`.cluster` replays them on Dask (imported only for a cluster run), :mod:`.report` and
:mod:`.html` write the JSON and HTML reports; :mod:`.heal` writes a healed copy of a
recording, its elements recorded again on the current page; :mod:`.annotate` gives
coordinate-only actions the element under their point.

>>> from resolver.replay import ReplayOptions, discover, replay_local, build_report
>>> tasks = discover(["fixtures/recordings"])  # doctest: +SKIP
>>> build_report(replay_local(tasks, ReplayOptions()))["overall"]["accuracy"]  # doctest: +SKIP
1.0
"""

from __future__ import annotations

from .annotate import AnnotateReport, annotate_recording
from .captures import Capture, demo_captures, folder_captures, load_capture, read_capture
from .heal import HealedStep, HealReport, heal_recording
from .model import (
    MissingExtraError,
    Recording,
    RecordingError,
    ReplayError,
    ReplayOptions,
    Step,
    Task,
)
from .recording import read_recording
from .report import build_report
from .run import ResultStore, comparable, replay_local, replay_task
from .sources import discover, load_task
from .trials import Outcome, Trial, iter_trials, run_trials, summarize

__all__ = [
    "AnnotateReport",
    "Capture",
    "HealReport",
    "HealedStep",
    "MissingExtraError",
    "Outcome",
    "Recording",
    "RecordingError",
    "ReplayError",
    "ReplayOptions",
    "ResultStore",
    "Step",
    "Task",
    "Trial",
    "annotate_recording",
    "build_report",
    "comparable",
    "demo_captures",
    "discover",
    "folder_captures",
    "heal_recording",
    "iter_trials",
    "load_capture",
    "load_task",
    "read_capture",
    "read_recording",
    "replay_local",
    "replay_task",
    "run_trials",
    "summarize",
]
