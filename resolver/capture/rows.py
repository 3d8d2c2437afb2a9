"""The reference a recorder stores for one row of any candidate table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

import numpy as np

from ..errors import InvalidReferenceError
from ..index import heading_key, index_of
from ..models import ID_FIELDS, MAX_ANCHORS, BBox, SemanticElementRef
from ..table import CandidateTable, Derived
from ..web import (
    ATTRIBUTE_NAMES,
    MAX_ATTRIBUTE,
    MAX_CLASS_CHARS,
    MAX_CLASSES,
    MAX_HREF,
    MAX_TAG,
    nearby_texts,
)

__all__ = ["panel_of_row", "ref_from_row"]


def ref_from_row(
    table: CandidateTable,
    row: int,
    *,
    screen_size: tuple[int, int] | None = None,
    with_ids: bool = True,
) -> SemanticElementRef:
    """The reference a recorder would store for ``table``'s row ``row``.

    Parameters
    ----------
    table:
        Any candidate table (``Observation.candidates(...)``).
    row:
        Row index.
    screen_size:
        The screen or viewport size the bbox was measured in (defaults to the table's).
    with_ids:
        Also record the platform IDs the table has for the row (``automation_id``,
        ``accessibility_id``, ``xpath``, ``css_selector``; see
        :data:`resolver.models.ID_FIELDS`) and its web evidence (``tag``, ``classes``,
        ``href``, ``attributes``). Its neighbours' texts, heading and panel always are.

    Raises
    ------
    InvalidReferenceError
        ``row`` is outside the table.

    Examples
    --------
    >>> from resolver import Observation
    >>> obs = Observation(accessibility_tree={"id": "1", "role": "dialog", "name": "Settings",
    ...     "children": [{"id": "2", "role": "button", "name": "OK", "bbox": [5, 5, 45, 25]}]})
    >>> ref = ref_from_row(obs.candidates("a11y"), 1)
    >>> (ref.role, ref.name, ref.container_path)
    ('button', 'OK', ('Settings',))
    """
    row = _checked_row(table, row)
    box = table.bboxes[row]
    bbox = None if np.isnan(box).any() else tuple(float(v) for v in box)
    if screen_size is None and table.screen_size is not None:
        screen_size = (round(table.screen_size[0]), round(table.screen_size[1]))
    ids: dict[str, Any] = {**_ids(table, row), **_web(table, row)} if with_ids else {}
    enabled = int(table.enabled[row])
    return SemanticElementRef(
        role=table.roles[row] if table.roles[row] != "unknown" else table.raw_roles[row] or None,
        name=table.names[row] or None,
        bbox=bbox,
        container_path=table.containers[row],
        enabled=None if enabled < 0 else bool(enabled),
        screen_size=screen_size,
        coord_space=table.coord_space if table.coord_space.known else None,
        occurrence=_occurrence(table, row),
        anchors=_anchors(table, row) if bbox is not None else (),
        lookalikes=_lookalikes(table, row) if bbox is not None else (),
        nearby_text=nearby_texts(table, row),
        heading=_heading(table, row),
        panel=panel_of_row(table, row),
        **ids,
    )


def panel_of_row(table: CandidateTable, row: int) -> tuple[str, str] | None:
    """``(kind, name)`` of the nearest dialog, alert dialog, tab panel or disclosure section
    above ``row`` (:meth:`~resolver.table.CandidateTable.panel_above`), or ``None`` (the
    reference's ``panel``)."""
    above = table.panel_above(row)
    return None if above is None else above[1:]


def _ids(table: CandidateTable, row: int) -> dict[str, str]:
    """The reference's platform-ID fields the table has a value for, for this row."""
    ids: dict[str, str] = {}
    for field, column in ID_FIELDS:
        value = table.platform_ids.get(column, (None,) * len(table))[row]
        if value:
            ids[field] = value
    return ids


def _web(table: CandidateTable, row: int) -> dict[str, Any]:
    """The reference's web fields (tag, classes, link target, attributes) the table has a
    value for, for this row, cut to the reference's size limits."""
    columns = table.platform_ids
    web: dict[str, Any] = {}
    tag = _cell(columns, "tag", row)
    if tag and not tag.startswith("#"):
        web["tag"] = tag[:MAX_TAG]
    classes = _cell(columns, "class", row)
    if classes:
        tokens = [t for t in dict.fromkeys(classes.split()) if len(t) <= MAX_CLASS_CHARS]
        web["classes"] = tuple(tokens[:MAX_CLASSES])
    href = _cell(columns, "href", row)
    if href:
        web["href"] = href[:MAX_HREF]
    attributes = {
        name: value[:MAX_ATTRIBUTE]
        for name in ATTRIBUTE_NAMES
        if (value := _cell(columns, f"attr:{name}", row))
    }
    if attributes:
        web["attributes"] = attributes
    return web


def _cell(columns: Mapping[str, tuple[str | None, ...]], column: str, row: int) -> str | None:
    """One platform-ID column's value for ``row`` (``None`` when the table lacks the column)."""
    values = columns.get(column)
    return values[row] if values is not None else None


def _occurrence(table: CandidateTable, row: int) -> tuple[int, int] | None:
    """``(k, n)`` when the row is the ``k``-th of ``n >= 2`` look-alikes (same role, name and
    container path), else ``None``."""
    group = index_of(table).look_alikes(
        table.names_norm[row], int(table.role_codes[row]), table.containers[row]
    )
    if group.size < 2:
        return None
    return (int(np.flatnonzero(group == row)[0]), int(group.size))


LOOKALIKES: Final[int] = MAX_ANCHORS
"""Look-alike boxes recorded per reference: the nearest rows with the same role and name."""


def _heading(table: CandidateTable, row: int) -> str | None:
    """The heading before a named row (:attr:`~resolver.index.TableIndex.headings`) when it
    tells the row from its namesakes: there are other rows of its role and name, and none
    is under a heading of that text (a menu's links under one "Navigation" heading are not
    told apart by it). A row without namesakes records none (a namesake added later is
    not told from it by a heading it may share), nor does a heading row (the heading
    before a heading is no title of it)."""
    name = table.names[row]
    if not name.strip() or table.roles[row] == "heading":
        return None
    own = index_of(table).heading_of(row)
    if own is None:
        return None
    size, counts = table.derived(_GroupTitles).of(name, int(table.role_codes[row]))
    return own if size >= 2 and counts[heading_key(own)] == 1 else None


class _GroupTitles(Derived):
    """Per name and role of a table, how many rows bear them and how many of those are
    under a heading of each text (made once per group: a catalog records every row)."""

    def __init__(self, table: CandidateTable) -> None:
        super().__init__(table)
        self._groups: dict[tuple[str, int], tuple[int, Counter[str | None]]] = {}

    def of(self, name: str, code: int) -> tuple[int, Counter[str | None]]:
        """The group's size and its heading texts counted (:func:`heading_key`)."""
        found = self._groups.get((name, code))
        if found is None:
            table = self.table
            index = index_of(table)
            rows = index.namesakes(name)
            rows = rows[table.role_codes[rows] == code].tolist()
            counts = Counter(heading_key(index.heading_of(r)) for r in rows)
            found = self._groups[(name, code)] = (len(rows), counts)
        return found


def _lookalikes(table: CandidateTable, row: int) -> tuple[BBox, ...]:
    """The boxes of the nearest few other rows with the row's role and name, anywhere on the
    page (in any container), leaving out rows nested in it or around it (its own text). An
    unnamed row's look-alikes are the other unnamed rows of its role."""
    index = index_of(table)
    if table.names[row].strip():
        rows = index.namesakes(table.names[row])
        rows = rows[(table.role_codes[rows] == table.role_codes[row]) & (rows != row)]
    else:
        rows = index.unnamed(int(table.role_codes[row]))
        rows = rows[rows != row]
    rows = rows[~np.isnan(table.bboxes[rows]).any(axis=1)]
    if rows.size == 0:
        return ()
    geometry = index.geometry
    dist = np.hypot(geometry.cx[rows] - geometry.cx[row], geometry.cy[rows] - geometry.cy[row])
    nearest: list[int] = []
    for other in rows[np.argsort(dist, kind="stable")].tolist():
        # Nearest first, so only the few kept are checked for nesting (a page of thousands
        # of look-alikes costs a sort, not thousands of ancestor walks).
        if table.is_ancestor(other, row) or table.is_ancestor(row, other):
            continue
        nearest.append(other)
        if len(nearest) == LOOKALIKES:
            break
    return tuple(table.box(r) for r in nearest)  # type: ignore[misc]


def _checked_row(table: object, row: object) -> int:
    """``row`` as an int inside ``table``, else an :class:`InvalidReferenceError`."""
    if not isinstance(table, CandidateTable):
        raise InvalidReferenceError(f"rows are of a CandidateTable, not {type(table).__name__}")
    if isinstance(row, bool) or not isinstance(row, int | np.integer):
        raise InvalidReferenceError(f"a row is an int, not {type(row).__name__}")
    if not 0 <= int(row) < len(table):
        raise InvalidReferenceError(f"row {row} is outside the table (0..{len(table) - 1})")
    return int(row)


ANCHORS: Final[int] = 4
"""Anchors recorded per reference: the nearest uniquely named elements."""


def _anchors(table: CandidateTable, row: int) -> tuple[tuple[str, BBox], ...]:
    """The nearest few rows whose names are unique on the page and whose boxes have an area,
    with their boxes. A row drawn with no area (a hidden frame, a collapsed skip link) is no
    anchor: it often stays where it is while the page scrolls or moves around it."""
    index = index_of(table)
    geometry = index.geometry
    candidates = np.flatnonzero(index.unique_named)
    candidates = candidates[candidates != row]
    candidates = candidates[(geometry.width[candidates] > 0) & (geometry.height[candidates] > 0)]
    if candidates.size == 0:
        return ()
    dist = np.hypot(
        geometry.cx[candidates] - geometry.cx[row], geometry.cy[candidates] - geometry.cy[row]
    )
    nearest = candidates[np.argsort(dist, kind="stable")[:ANCHORS]]
    return tuple((table.names[r], table.box(r)) for r in nearest.tolist())  # type: ignore[misc]
