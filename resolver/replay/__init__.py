"""Replay: read recorded references and captured observations, resolve them again, report.

:mod:`.captures` reads captured page versions (a folder, or the demo bundle shipped with the
package); :mod:`.trials` pairs versions into relocation scenarios and scores the outcomes.
"""

from __future__ import annotations

from .captures import Capture, demo_captures, folder_captures, load_capture, read_capture
from .trials import Outcome, Trial, iter_trials, run_trials, summarize

__all__ = [
    "Capture",
    "Outcome",
    "Trial",
    "demo_captures",
    "folder_captures",
    "iter_trials",
    "load_capture",
    "read_capture",
    "run_trials",
    "summarize",
]
