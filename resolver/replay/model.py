"""What a replay works on: tasks, recordings and their steps, options, and its errors.

Everything here is small and picklable: a :class:`Task` names one recording by path (the
worker that runs it reads the files where they are), and :class:`ReplayOptions` travels with
it. Results are plain JSON-ready dicts (see :mod:`resolver.replay.run`), so a run on a Dask
cluster returns exactly what a local run does.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Final, Literal

from .. import errors as _errors
from ..chain import DEFAULT_SOURCES, _settings
from ..limits import DEFAULT_LIMITS, Limits
from ..models import SemanticElementRef
from ..observation import Observation

__all__ = [
    "AGAINST",
    "VERDICTS",
    "MissingExtraError",
    "Recording",
    "RecordingError",
    "RecordingTooLargeError",
    "ReplayError",
    "ReplayOptions",
    "Step",
    "Task",
]

Against = Literal["preceding", "next", "last"]
AGAINST: Final[tuple[str, ...]] = ("preceding", "next", "last")
"""Which snapshot a step is resolved against: the one before it (as recorded), the first
one after it (the page after the action), or the recording's last one."""

VERDICTS: Final[tuple[str, ...]] = (
    "correct", "wrong", "abstained", "rejected", "false_hit", "answered", "skipped", "invalid",
)  # fmt: skip
"""Per step: right node; another node; present but not answered; absent and not answered
(right); absent but answered; answered where the recording does not know the node; no
snapshot to resolve against; the recorded reference, or the snapshot, is invalid or over a
limit (:class:`~resolver.limits.Limits`)."""


class ReplayError(Exception):
    """A replay cannot start (no recordings, a bad option, an unreachable scheduler)."""


class RecordingError(_errors.RecordingError, ReplayError):
    """One recording is corrupt, truncated or not a recording; the run reports and skips it.

    A :class:`~resolver.errors.ResolutionError` (``INVALID_RECORDING``, and a
    ``ValueError``) like every input error, and a :class:`ReplayError` for the replay."""


class RecordingTooLargeError(RecordingError, _errors.LimitExceededError):
    """A recording, or a snapshot file its timeline names, is larger than a
    :class:`~resolver.limits.Limits` option allows (``max_recording_bytes``,
    ``max_tree_bytes``); the run reports and skips it.

    Both a :class:`RecordingError` and a :class:`~resolver.errors.LimitExceededError`
    (``LIMIT_EXCEEDED``): the message names the limit and how to raise it, and
    ``evidence.details`` has ``limit``, ``allowed`` and ``found``."""

    default_code = _errors.ErrorCode.LIMIT_EXCEEDED

    @classmethod
    def refuse(cls, limits: Limits, name: str, found: int, what: str) -> RecordingTooLargeError:
        """The error for ``what`` (``found`` bytes) over the limit ``name`` of ``limits``."""
        error = limits.refuse(name, found, what)
        return cls(error.message, details=error.evidence.details)


class MissingExtraError(ReplayError, ImportError):
    """An optional dependency is not installed; the message says which extra brings it."""


@dataclass(frozen=True)
class Task:
    """One recording to replay.

    ``kind`` is ``"file"`` (a recording_v1 or openadapt-style JSONL file at ``path``) or
    ``"captures"`` (the base page ``page`` of the capture folders under ``path`` and its
    changed versions).
    """

    kind: Literal["file", "captures"]
    path: str
    page: str | None = None

    @property
    def name(self) -> str:
        """A stable, readable name (also the result file's stem)."""
        if self.kind == "captures":
            return f"captures/{self.page}"
        return self.path


@dataclass(frozen=True)
class ReplayOptions:
    """How every step is resolved; see ``resolver replay --help``."""

    sources: tuple[str, ...] = DEFAULT_SOURCES
    threshold: float | None = None
    min_margin: float | None = None
    against: Against = "preceding"
    observation: str | None = None  # a snapshot file every step is resolved against instead
    coords_fallback: Literal["unobserved", "always", "never"] = "unobserved"
    min_confidence: float | None = None
    complete: bool = False
    """Complete each step's reference from the snapshot it was recorded on
    (:attr:`Step.recorded_on`: a timeline's snapshot before it, a capture folder's base page)
    with :func:`resolver.capture.complete_ref` before resolving it."""
    limits: Limits = DEFAULT_LIMITS
    """How much is read: a recording file (``max_recording_bytes``), a snapshot file beside
    it (``max_tree_bytes``), and every observation the replay builds (nodes, depth, ...)."""

    def __post_init__(self) -> None:
        """Refuse a bad option at once (a :class:`~resolver.errors.ConfigError`, checked as
        :func:`resolver.resolve` checks its own), rather than as an error on every step or a
        recording reported corrupt; ``sources`` may be one name or any iterable of names."""
        try:
            sources, _ = _settings(self.sources, None, self.coords_fallback, self._extra())
        except _errors.ResolutionError as exc:
            raise _errors.ConfigError(exc.message) from exc
        object.__setattr__(self, "sources", sources)
        if self.against not in ("preceding", "next", "last"):
            raise _errors.ConfigError(
                f"against must be one of preceding, next, last; got {self.against!r:.60}"
            )
        if not isinstance(self.complete, bool) or not isinstance(self.limits, Limits):
            raise _errors.ConfigError("complete must be True or False and limits a Limits")

    def _extra(self) -> dict[str, Any]:
        """The options given for :func:`resolver.resolve` beyond sources and fallback."""
        names = ("threshold", "min_margin", "min_confidence")
        return {name: getattr(self, name) for name in names if getattr(self, name) is not None}

    def resolve_options(self) -> dict[str, Any]:
        """Keyword arguments for :func:`resolver.resolve`."""
        return {"sources": self.sources, "coords_fallback": self.coords_fallback, **self._extra()}

    def digest(self) -> str:
        """A short hash of the options; a resumed run reuses only results made with them.
        An option left unset is left out, so results stored before it existed still match."""
        options = asdict(self)
        if options["min_confidence"] is None:
            del options["min_confidence"]
        if not options["complete"]:
            del options["complete"]
        if self.limits == DEFAULT_LIMITS:
            del options["limits"]
        text = json.dumps(options, sort_keys=True)
        return hashlib.sha1(text.encode()).hexdigest()[:12]


@dataclass(frozen=True)
class Step:
    """One decision or human action with a target, as the recording has it.

    ``expected`` maps snapshot IDs to the executor IDs that are right there (an empty tuple:
    the element is absent from that snapshot); a snapshot it does not name is unknown.
    """

    index: int
    step: str
    kind: str
    action_type: str
    ref: Mapping[str, Any] | SemanticElementRef | None
    preceding: str | None
    following: str | None
    expected: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    key: str | None = None
    recorded_on: str | None = None  # the snapshot the reference was recorded on, if known


@dataclass
class Recording:
    """A recording read into steps and the snapshots they refer to (raw documents, or
    observations already built, as capture folders give them)."""

    name: str
    fmt: str
    mode: str
    steps: list[Step]
    snapshots: dict[str, Mapping[str, Any] | Observation]
    order: list[str] = field(default_factory=list)  # snapshot IDs in timeline order
    entries: int = 0
    untargeted: int = 0
    recording_id: str | None = None  # the header's ``recording_id`` (or ``id``)
