"""The one error tree of resolver.

Every failure that crosses the public API is a :class:`ResolutionError`. Subclasses are split
by what the caller does next, and every error carries a machine-readable :class:`ErrorCode`::

    ResolutionError                     root; .code, .message, .evidence
    ├── InvalidReferenceError           INVALID_REFERENCE   fix the recorded reference
    │   └── InvalidTargetError          VALIDATION_ERROR    fix the target string (catalog)
    ├── InvalidObservationError         INVALID_OBSERVATION fix what the runtime passed in
    │   ├── UnsupportedFormatError      UNSUPPORTED_FORMAT  no adapter reads this tree
    │   ├── LimitExceededError          LIMIT_EXCEEDED      larger than a Limits option allows
    │   └── RecordingError              INVALID_RECORDING   a recording file is corrupt
    ├── ConfigError                     INVALID_OPTION      an option (MatchConfig, Limits, CLI)
    ├── SourceUnavailableError          SOURCE_UNAVAILABLE  an optional extra is not installed
    ├── ElementNotFoundError            ELEMENT_NOT_FOUND   the element is not there: re-plan
    │   └── StaleElementError           ELEMENT_NOT_FOUND   it changed between observe and act
    ├── AmbiguousMatchError             AMBIGUOUS           two or more fit: ask, or refine the ref
    ├── ElementNotInteractableError     ELEMENT_NOT_INTERACTABLE  found, but hidden or disabled
    └── CatalogOutdatedError            CATALOG_OUTDATED    the index came from another catalog:
                                                            render the catalog again

``InvalidReferenceError``, ``InvalidObservationError`` and ``ConfigError`` also derive from
:class:`ValueError`, so code that already guards input with ``except ValueError`` keeps working.

Messages stay short whatever the input: a message is cut to :data:`MAX_MESSAGE` characters, and
values quoted in it (a 50 MB name) are shown cut with their length (:func:`shorten`).

Foreign exceptions (lxml, numpy, pydantic, json) never escape: they are re-raised as one of the
above with ``raise ... from``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .results import Candidate, TraceEntry

__all__ = [
    "MAX_MESSAGE",
    "AmbiguousMatchError",
    "CatalogOutdatedError",
    "ConfigError",
    "ElementNotFoundError",
    "ElementNotInteractableError",
    "ErrorCode",
    "Evidence",
    "InvalidObservationError",
    "InvalidReferenceError",
    "InvalidTargetError",
    "LimitExceededError",
    "RecordingError",
    "ResolutionError",
    "SourceUnavailableError",
    "StaleElementError",
    "UnsupportedFormatError",
    "shorten",
]

MAX_MESSAGE = 2000
"""Characters of an error message at most (``str(error)`` adds the code and a summary of
the nearest candidate, and stays under this too)."""


def shorten(value: object, limit: int = 120) -> str:
    """``value`` as text of at most about ``limit`` characters: a longer one is cut and says
    how long it was (``'aaaa... (50,000,000 characters)'``)."""
    text = value if isinstance(value, str) else repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


class ErrorCode(StrEnum):
    """Stable machine-readable codes; an agent runtime dispatches on these."""

    ELEMENT_NOT_FOUND = "ELEMENT_NOT_FOUND"
    AMBIGUOUS = "AMBIGUOUS"
    INVALID_REFERENCE = "INVALID_REFERENCE"
    INVALID_OBSERVATION = "INVALID_OBSERVATION"
    UNSUPPORTED_FORMAT = "UNSUPPORTED_FORMAT"
    SOURCE_UNAVAILABLE = "SOURCE_UNAVAILABLE"
    CATALOG_OUTDATED = "CATALOG_OUTDATED"
    ELEMENT_NOT_INTERACTABLE = "ELEMENT_NOT_INTERACTABLE"
    VALIDATION_ERROR = "VALIDATION_ERROR"
    LIMIT_EXCEEDED = "LIMIT_EXCEEDED"
    INVALID_RECORDING = "INVALID_RECORDING"
    INVALID_OPTION = "INVALID_OPTION"

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Evidence:
    """What the resolver saw before it gave up.

    ``candidates`` are the best rows over all sources, as the same
    :class:`~resolver.results.Candidate` objects ``Resolution.alternatives`` holds; ``trace``
    says, per source, why it was passed over (:class:`~resolver.results.TraceEntry`, each
    naming its rule); ``rule`` is the id of the rule that refused the element or found the
    tie (:data:`resolver.decide.RULES`), ``""`` for errors of input.
    """

    candidates: tuple[Candidate, ...] = ()
    trace: tuple[TraceEntry, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)
    rule: str = ""


def _typed(
    candidates: Sequence[Candidate | Mapping[str, Any]],
    trace: Sequence[TraceEntry | Mapping[str, Any]],
) -> tuple[tuple[Candidate, ...], tuple[TraceEntry, ...]]:
    """Candidates and trace entries as their classes (mappings are read as their
    ``to_dict`` forms)."""
    if not candidates and not trace:
        return (), ()
    from .results import Candidate, TraceEntry

    return (
        tuple(c if isinstance(c, Candidate) else Candidate.from_dict(c) for c in candidates),
        tuple(t if isinstance(t, TraceEntry) else TraceEntry.from_dict(t) for t in trace),
    )


class ResolutionError(Exception):
    """Root of every error resolver raises.

    Attributes
    ----------
    code:
        An :class:`ErrorCode`.
    message:
        A sentence for a person.
    evidence:
        The best candidates, the per-source trace and the deciding rule (may be empty for
        input errors).
    """

    default_code: ErrorCode = ErrorCode.ELEMENT_NOT_FOUND

    def __init__(
        self,
        message: str,
        *,
        code: ErrorCode | None = None,
        candidates: Sequence[Candidate | Mapping[str, Any]] = (),
        trace: Sequence[TraceEntry | Mapping[str, Any]] = (),
        details: Mapping[str, Any] | None = None,
        rule: str = "",
    ) -> None:
        message = shorten(message, MAX_MESSAGE - 400)
        super().__init__(message)
        self.message = message
        self.code: ErrorCode = code or self.default_code
        typed, steps = _typed(candidates, trace)
        self.evidence = Evidence(typed, steps, dict(details or {}), rule)

    def __str__(self) -> str:
        return f"[{self.code.value}] {self.message}{self._nearest()}"

    def _nearest(self) -> str:
        """The deciding rule and the best candidate with its score, when there is one."""
        evidence = self.evidence
        if not evidence.candidates:
            return f" (rule {evidence.rule})" if evidence.rule else ""
        best = evidence.candidates[0]
        rule = f"rule {evidence.rule}; " if evidence.rule else ""
        if best.name:
            label = f"{best.role or 'element'} {shorten(best.name, 80)!r}"
        else:
            label = f"{best.role or 'element'} {shorten(best.id, 80)}"
        return f" ({rule}nearest: {label}, score {best.score:.2f})"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view for logs and agent prompts."""
        return {
            "code": self.code.value,
            "message": self.message,
            "rule": self.evidence.rule,
            "candidates": [c.to_dict() for c in self.evidence.candidates],
            "trace": [t.to_dict() for t in self.evidence.trace],
            "details": dict(self.evidence.details),
        }


class InvalidReferenceError(ResolutionError, ValueError):
    """The recorded reference is empty, malformed or self-contradictory."""

    default_code = ErrorCode.INVALID_REFERENCE


class InvalidTargetError(InvalidReferenceError):
    """A catalog target string is malformed (``index=x``) or names an index the catalog lacks."""

    default_code = ErrorCode.VALIDATION_ERROR


class InvalidObservationError(ResolutionError, ValueError):
    """The observation cannot be read: malformed, cyclic, too large, or of the wrong type."""

    default_code = ErrorCode.INVALID_OBSERVATION


class UnsupportedFormatError(InvalidObservationError):
    """No adapter recognises the accessibility tree; name one with ``tree_format=``."""

    default_code = ErrorCode.UNSUPPORTED_FORMAT


class LimitExceededError(InvalidObservationError):
    """An input is larger than a :class:`~resolver.limits.Limits` option allows; the message
    names the option and how to raise it, ``evidence.details`` has ``limit``, ``allowed`` and
    ``found``."""

    default_code = ErrorCode.LIMIT_EXCEEDED


class RecordingError(InvalidObservationError):
    """A recording file is corrupt, truncated or not a recording (a replay reports and skips
    it)."""

    default_code = ErrorCode.INVALID_RECORDING


class ConfigError(ResolutionError, ValueError):
    """An option is out of range or of the wrong type (:class:`~resolver.config.MatchConfig`,
    :class:`~resolver.limits.Limits`, a CLI option)."""

    default_code = ErrorCode.INVALID_OPTION


class SourceUnavailableError(ResolutionError):
    """A source needs an optional extra that is not installed (the message names it)."""

    default_code = ErrorCode.SOURCE_UNAVAILABLE


class ElementNotFoundError(ResolutionError):
    """No source found a candidate good enough; the evidence lists the nearest ones."""

    default_code = ErrorCode.ELEMENT_NOT_FOUND


class StaleElementError(ElementNotFoundError):
    """The resolved element changed between the observation and the action (it was removed,
    re-rendered, renamed, or is covered by another element): nothing was touched."""


class AmbiguousMatchError(ResolutionError):
    """Two or more candidates fit about equally well; resolver declines to guess."""

    default_code = ErrorCode.AMBIGUOUS


class ElementNotInteractableError(ResolutionError):
    """The element was found, but it is hidden or disabled: acting on it would do nothing."""

    default_code = ErrorCode.ELEMENT_NOT_INTERACTABLE


class CatalogOutdatedError(ResolutionError):
    """The index was chosen on another version of the catalog: render the catalog again."""

    default_code = ErrorCode.CATALOG_OUTDATED
