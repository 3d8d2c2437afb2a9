"""Completing a reference from the page it was recorded on.

A reference written by another tool (a Chrome extension, a CDP shim, a dataset's action
records) carries the element's own facts, not its surroundings: which other elements share
its role and name (its look-alikes), which unique elements sit near it (anchors), which of
its look-alikes it is. Without them a target that moved cannot be told from a look-alike
left behind when the target was removed. When the recording kept the page (the
accessibility tree, the DOM or a snapshot taken as the action was recorded),
:func:`complete_ref` finds the element on that page and records it again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from ..config import MatchConfig
from ..errors import InvalidReferenceError
from ..models import SemanticElementRef
from ..observation import Observation
from ..results import Resolution
from ..table import CandidateTable
from .rows import ref_from_row

__all__ = ["TABLE_SOURCES", "answer_row", "complete_ref", "merge_ref"]

TABLE_SOURCES: Final[tuple[str, ...]] = ("a11y", "dom", "vision")
"""The sources whose elements are rows a reference can be recorded from."""

_STRUCTURE: Final[frozenset[str]] = frozenset(
    {"container_path", "occurrence", "anchors", "lookalikes"}
)
"""Fields read from the page around the element: the fresh reference's value stands even
when it is empty (no look-alikes is itself evidence)."""

_PLACE: Final[tuple[str, ...]] = ("bbox", "screen_size", "coord_space")
"""A box and the space it is measured in: taken together, from one reference."""


def complete_ref(
    ref: SemanticElementRef | Any,
    recorded: Observation | Any,
    *,
    sources: Sequence[str] = ("a11y", "dom"),
    config: MatchConfig | None = None,
    **options: Any,
) -> SemanticElementRef:
    """``ref`` with everything the library records for its element (look-alikes, anchors,
    nearby texts...), read from the observation it was recorded on.

    The element is found there with :func:`~resolver.resolve` and recorded again with
    :func:`~resolver.capture.ref_from_row`. The fresh reference's values stand; a field it
    has no value for keeps ``ref``'s (a test id, an automation id, a box when the page has
    no layout).

    Parameters
    ----------
    ref:
        The reference as recorded (or its dict / JSON form).
    recorded:
        The observation of the page at recording time (an :class:`~resolver.Observation`
        or anything :meth:`Observation.from_any` takes).
    sources:
        Where to look for the element, in order (``"a11y"``, ``"dom"``, ``"vision"``).
        Record from the source the replay will use.
    config, options:
        As for :func:`~resolver.resolve`.

    Raises
    ------
    InvalidReferenceError
        The reference or an option is invalid, or ``sources`` names no source with elements.
    InvalidObservationError
        ``recorded`` cannot be read.
    AmbiguousMatchError, ElementNotFoundError
        The element is not found with certainty on its own page: nothing is completed from
        an element that may be another one. Keep ``ref`` as it is.

    Examples
    --------
    >>> from resolver import Observation, SemanticElementRef
    >>> page = Observation(accessibility_tree={"id": "1", "role": "document", "children": [
    ...     {"id": "2", "role": "link", "name": "Share", "bbox": [10, 10, 60, 30]},
    ...     {"id": "3", "role": "link", "name": "Share", "bbox": [10, 700, 60, 720]}]})
    >>> ref = SemanticElementRef(role="link", name="Share", bbox=(10, 10, 60, 30))
    >>> complete_ref(ref, page).lookalikes
    ((10.0, 700.0, 60.0, 720.0),)
    """
    from ..chain import _coerce_ref, resolve

    checked = _coerce_ref(ref)
    chosen = (sources,) if isinstance(sources, str) else tuple(sources)
    if not chosen or not set(chosen) <= set(TABLE_SOURCES):
        raise InvalidReferenceError(f"complete_ref: sources {list(chosen)} not of {TABLE_SOURCES}")
    obs = Observation.from_any(recorded)
    found = resolve(checked, obs, sources=chosen, config=config, coords_fallback="never", **options)
    row = answer_row(table := obs.candidates(found.source), found)
    return merge_ref(ref_from_row(table, row), checked)


def merge_ref(fresh: SemanticElementRef, old: SemanticElementRef) -> SemanticElementRef:
    """``fresh`` with the fields it has no value for taken from ``old``; the page-structure
    fields (container path, occurrence, anchors, look-alikes) always from ``fresh``, and the
    box with its screen size and space from whichever reference has a box."""
    update: dict[str, Any] = {}
    for name in SemanticElementRef.model_fields:
        if name in _STRUCTURE or name in _PLACE:
            continue
        if _empty(getattr(fresh, name)) and not _empty(getattr(old, name)):
            update[name] = getattr(old, name)
    if fresh.bbox is None and old.bbox is not None:
        update.update({name: getattr(old, name) for name in _PLACE})
    return fresh.model_copy(update=update) if update else fresh


def _empty(value: object) -> bool:
    return value is None or (isinstance(value, tuple | dict | str) and not value)


def answer_row(table: CandidateTable, found: Resolution) -> int:
    """The row of ``table`` that ``found`` (a resolution on it) answered: the row with its
    executor ID, or, for a DOM answer given as ``css:<selector>``, its candidate's row."""
    try:
        return table.executor_ids.index(found.executor_id)
    except ValueError:
        pass
    try:
        return table.ids.index(found.candidate.id)
    except ValueError:
        raise InvalidReferenceError(
            f"complete_ref: the answer {found.executor_id!r} is not a row of the "
            f"{table.source} table"
        ) from None
