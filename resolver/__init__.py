"""resolver: find a recorded UI element again, or say with evidence that it cannot.

>>> from resolver import SemanticElementRef, Observation, resolve_element
>>> tree = {"id": "7", "role": "button", "name": "Sign in", "bbox": [40, 200, 140, 232]}
>>> resolve_element(SemanticElementRef(role="button", name="Sign in"),
...                 Observation(accessibility_tree=tree))
'a11y:7'
"""

from .chain import resolve, resolve_element, resolve_many
from .config import MatchConfig
from .errors import (
    AmbiguousMatchError,
    CatalogOutdatedError,
    ConfigError,
    ElementNotFoundError,
    ElementNotInteractableError,
    ErrorCode,
    InvalidObservationError,
    InvalidReferenceError,
    InvalidTargetError,
    LimitExceededError,
    RecordingError,
    ResolutionError,
    SourceUnavailableError,
    UnsupportedFormatError,
)
from .limits import Limits
from .models import ActionWithElement, SemanticElementRef
from .observation import Observation
from .results import Candidate, Resolution, TraceEntry
from .table import CandidateTable

__version__ = "0.1.0"

__all__ = [
    "ActionWithElement",
    "AmbiguousMatchError",
    "Candidate",
    "CandidateTable",
    "CatalogOutdatedError",
    "ConfigError",
    "ElementNotFoundError",
    "ElementNotInteractableError",
    "ErrorCode",
    "InvalidObservationError",
    "InvalidReferenceError",
    "InvalidTargetError",
    "LimitExceededError",
    "Limits",
    "MatchConfig",
    "Observation",
    "RecordingError",
    "Resolution",
    "ResolutionError",
    "SemanticElementRef",
    "SourceUnavailableError",
    "TraceEntry",
    "UnsupportedFormatError",
    "resolve",
    "resolve_element",
    "resolve_many",
]
