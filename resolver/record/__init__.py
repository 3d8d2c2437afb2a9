"""Recorders that write recording_v1: an agent runtime's run (:class:`AgentRecorder`) and what
a person does in a browser (:class:`HumanRecorder`), journaled as they happen and finished
into one JSON document that ``resolver replay`` reads.

Nothing heavy is imported here: the recorders use the Playwright page they are given.
"""

from __future__ import annotations

from ._base import Recorder, RecorderError, read_journal
from .agent import AgentRecorder
from .human import HumanRecorder

__all__ = ["AgentRecorder", "HumanRecorder", "Recorder", "RecorderError", "read_journal"]
