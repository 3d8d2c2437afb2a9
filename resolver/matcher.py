"""Score one reference against every row of a :class:`~resolver.table.CandidateTable` at once.

Role, state and platform-ID signals are numpy vectors over all rows (shared across refs with
the same role and signal set). Boxes, names and container paths are computed per row, only
where they can still matter: every row has an upper bound (box and container counted as
perfect, the name as its hash-lookup tier or the fuzzy cap); the obvious candidates are scored
first, then the rest best bound first in growing chunks (one rapidfuzz batch call per chunk for
names, one per recorded container level for container entries), until the next bound is under
the floor: the k-th best score, or the best minus :data:`RELEVANT_GAP`. Within that gap the top
rows equal a full evaluation (the tests check this against a plain-Python reference scorer).

:func:`score_table` runs its steps in turn (:func:`seed_rows`, :func:`seeded`, :func:`extend`,
:func:`ranked`); :mod:`resolver.batch` runs the same steps for many references at once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from .config import MatchConfig
from .geometry import (
    Box,
    CoordSpace,
    Edges,
    Geometry,
    box_area,
    nearest_move,
    overlap,
    scale_between,
)
from .index import BoundedCache, ContainerVocab, TableIndex, index_of
from .models import ID_FIELDS, POSITIONAL_ID_COLUMNS, SemanticElementRef
from .roles import COMPAT, canonical_role, role_code
from .table import MAX_ENTRY, CandidateTable
from .text import (
    NAME_TIERS,
    collapse,
    entry_weight,
    item_similarity_many,
    mask_digits,
    normalize,
)
from .web import WebQuery, web_terms, web_vectors

__all__ = [
    "Query", "Scored", "bbox_scores", "group_path", "recorded_group", "recorded_path",
    "score_rows", "score_table", "scored_at", "screen_rank",
]  # fmt: skip

FloatArray = npt.NDArray[np.float64]
Index = npt.NDArray[np.intp]

_MIN_BOUND: Final[float] = 0.05  # rows that cannot reach this are never reported
MAX_NAME_SEEDS: Final[int] = 4096
"""Name-lookup hits scored first at most, best name tier first; the others are reached, best
bound first, by the chunked search."""
NEARBY: Final[str] = "nearby"
"""The key under which a batch's ``shared`` caches hold the nearby agreement of its
references' recorded texts (:func:`resolver.web.nearby_shares`)."""


@dataclass(frozen=True)
class Query:
    """A reference prepared for one table (roles canonicalised, box rescaled and shifted)."""

    name_raw: str
    name_norm: str
    name_mask: str
    role: str | None
    bbox: tuple[float, float, float, float] | None
    bbox_weight: float
    container: tuple[str, ...]
    enabled: bool | None
    focused: bool | None
    ids: tuple[tuple[str, str], ...]
    box_same_space: bool = True
    occurrence: tuple[int, int] | None = None
    recorded_path: tuple[str, ...] = ()
    group_path: tuple[str, ...] | None = ()
    """The container path of the look-alike group the occurrence counts in
    (:func:`group_path`; ``None``: any)."""
    ancestors: bool = False
    """The recorded path names ancestors of any role (as recorders that keep every named
    ancestor write it), not containers: compare it with rows' named-ancestor paths."""
    web: WebQuery | None = None
    """Tag, classes, link target, attributes and nearby texts (:mod:`resolver.web`)."""
    bbox_alts: tuple[tuple[float, float, float, float], ...] = ()
    """Other readings of the recorded box when the screen sizes differ: *not* rescaled, and
    not rescaled with the page re-centred across the width (:func:`other_readings`). A zoom
    scales a page with the screen; a resized window reflows it and leaves its lengths alone,
    a centred page moving by half the change in width; a reference does not say which
    happened, and a row's box agreement is the best of the readings."""

    @property
    def identifying(self) -> bool:
        """Name, container or a same-space box (see :attr:`Scored.identifying`; an ID counts
        only where some row carries it, which the scorer knows)."""
        box = self.bbox is not None and self.box_same_space
        return bool(self.name_raw or self.container or box)

    @classmethod
    def build(cls, ref: SemanticElementRef, table: CandidateTable, config: MatchConfig) -> Query:
        """Prepare ``ref`` for ``table`` (rescales the box when both screen sizes are known)."""
        name_raw = collapse(ref.name) if ref.name else ""
        name_norm = normalize(name_raw) if name_raw else ""
        bbox = ref.bbox
        weight = config.w_bbox
        if bbox is not None:
            bbox = _moved(ref, bbox, table)
        if table.coord_space is CoordSpace.NONE:
            weight = 0.0
        same_space = True
        if ref.coord_space and table.coord_space.known and ref.coord_space != table.coord_space:
            weight *= config.bbox_other_space
            same_space = False
        path = recorded_path(ref)
        container, ancestors = _compared_path(path, name_norm, table, config)
        ids: list[tuple[str, str]] = []
        for ref_field, column in ID_FIELDS:
            value = getattr(ref, ref_field)
            if value and column in table.platform_ids:
                ids.append((column, table.id_key(column, value)))
        return cls(
            name_raw=name_raw,
            name_norm=name_norm,
            name_mask=mask_digits(name_norm) if name_norm else "",
            role=canonical_role(ref.role) if ref.role else None,
            bbox=bbox if weight > 0 else None,
            bbox_weight=weight,
            container=container,
            ancestors=ancestors,
            enabled=ref.enabled,
            focused=ref.focused,
            ids=tuple(ids),
            box_same_space=same_space,
            occurrence=(screen_rank(ref, table) or ref.occurrence) if name_norm else None,
            recorded_path=path,
            group_path=group_path(ref, table),
            web=WebQuery.build(ref),
            bbox_alts=other_readings(ref, table) if bbox is not None and weight > 0 else (),
        )


def recorded_path(ref: SemanticElementRef) -> tuple[str, ...]:
    """The ref's container path as tables keep theirs: each entry cut to ``MAX_ENTRY``."""
    return tuple(entry[:MAX_ENTRY] for entry in ref.container_path)


def recorded_group(ref: SemanticElementRef, table: CandidateTable) -> Index:
    """The rows of ``table`` with the ref's role, name and container path, in document
    order: the look-alike group in which its
    :attr:`~resolver.models.SemanticElementRef.occurrence` counts (as :class:`Query` reads
    it)."""
    name = normalize(collapse(ref.name)) if ref.name else ""
    code = role_code(canonical_role(ref.role)) if ref.role else None
    return index_of(table).look_alikes(name, code, group_path(ref, table))


def group_path(ref: SemanticElementRef, table: CandidateTable) -> tuple[str, ...] | None:
    """The container path a look-alike group shares on ``table``: the recorded one, or any
    (``None``) where names are read from a screenshot, whose rows are grouped by the titles
    drawn above them and never by the landmarks and page title a recorded path names. On a
    screenshot only for a reference that recorded every other member's box (as many
    look-alikes as its occurrence counts, and no other namesake), when the rows of its role
    and name (in reading order) are as many and each lies where the recorded box of the
    same rank lay after the page's shift, within that box's width across and its height
    down, or all after one shift of their own (:func:`_moved_together`): a copy put before
    the target, twins that traded places, or a member off the screen or the window, leave
    the order unsaid."""
    path = recorded_path(ref)
    if not table.names_read or ref.occurrence is None or ref.bbox is None:
        return path
    if screen_rank(ref, table) is not None:
        return None
    if len(ref.lookalikes) != ref.occurrence[1] - 1 or not ref.name:
        return path
    name = normalize(collapse(ref.name))
    code = role_code(canonical_role(ref.role)) if ref.role else None
    rows = index_of(table).look_alikes(name, code, None)
    if rows.size != ref.occurrence[1]:
        return path
    shift = page_shift(ref, table)
    places = sorted((moved_box(b, shift) for b in (ref.bbox, *ref.lookalikes)), key=_reading)
    boxes = [table.box(row) for row in rows.tolist()]
    found = [box for box in boxes if box is not None]
    if len(found) != len(places):
        return path
    if _all_at_place(found, places) or _moved_together(found, places):
        return None
    return path


def screen_rank(ref: SemanticElementRef, table: CandidateTable) -> tuple[int, int] | None:
    """On a screenshot, ``(k, n)``: the target is the ``k``-th of the ``n`` elements of its
    role and name the reference recorded boxes of, in reading order, when it recorded more
    of them than its own group counts (namesakes in other groups: "An image" in a list of
    three, and five more in other lists), the screen shows as many rows of that role and
    name, and each lies at the recorded place of the same rank after the page's shift, or
    all after one shift of their own (:func:`_moved_together`). The rank then counts on the
    whole screen (:func:`group_path` is any path), where the group's own titles may not be
    drawn; else ``None``."""
    occurrence = ref.occurrence
    if not table.names_read or occurrence is None or ref.bbox is None or not ref.name:
        return None
    if len(ref.lookalikes) <= occurrence[1] - 1:
        return None
    count = len(ref.lookalikes) + 1
    code = role_code(canonical_role(ref.role)) if ref.role else None
    rows = index_of(table).look_alikes(normalize(collapse(ref.name)), code, None)
    if rows.size != count:
        return None
    shift = page_shift(ref, table)
    moved = [moved_box(b, shift) for b in (ref.bbox, *ref.lookalikes)]
    order = sorted(range(count), key=lambda i: _reading(moved[i]))
    places = [moved[i] for i in order]
    found = [box for box in (table.box(row) for row in rows.tolist()) if box is not None]
    if len(found) != count:
        return None
    if _all_at_place(found, places) or _moved_together(found, places):
        return order.index(0), count
    return None


def _all_at_place(boxes: list[Box], places: list[Box]) -> bool:
    """Whether each box lies at the place of the same rank (:func:`_at_place`)."""
    return all(_at_place(box, place) for box, place in zip(boxes, places, strict=True))


def _moved_together(boxes: list[Box], places: list[Box]) -> bool:
    """Whether the boxes lie at their places moved by one shift of their own, the median of
    their displacements, each within a quarter of its place's width and height of it: a
    group the page moved on its own (words added above it) while the anchors' shift says
    nothing or something else. Fitted to the boxes themselves, that shift leaves less room
    than the page's (two rows a line apart, their order swapped, would each lie half a line
    from it). A group of one has no such shift: it would move to wherever its one row is."""
    if len(places) < 2:
        return False
    across = np.array([b[0] + b[2] - p[0] - p[2] for b, p in zip(boxes, places, strict=True)])
    down = np.array([b[1] + b[3] - p[1] - p[3] for b, p in zip(boxes, places, strict=True)])
    width = np.array([p[2] - p[0] for p in places])
    height = np.array([p[3] - p[1] for p in places])
    off_across = np.abs(across - np.median(across)) / 2.0
    off_down = np.abs(down - np.median(down)) / 2.0
    return bool(np.all(off_across <= width / 4.0) and np.all(off_down <= height / 4.0))


def _reading(box: Box) -> tuple[float, float]:
    """A box's key in reading order: top, then left."""
    return (box[1], box[0])


def _at_place(box: Box, place: Box) -> bool:
    """Whether ``box``'s centre lies within ``place``'s width across and its height down of
    ``place``'s centre."""
    across = abs(box[0] + box[2] - place[0] - place[2]) / 2.0
    down = abs(box[1] + box[3] - place[1] - place[3]) / 2.0
    return across <= place[2] - place[0] and down <= place[3] - place[1]


def _moved(ref: SemanticElementRef, box: Box, table: CandidateTable) -> Box:
    """The recorded box in the table's space: rescaled when the screen size changed, and
    shifted as the page moved around it (the median displacement of the ref's anchors that
    are still uniquely named here, on a screenshot per axis of those read at about their
    recorded size; none found, no shift)."""
    return moved_box(box, page_shift(ref, table))


def other_readings(ref: SemanticElementRef, table: CandidateTable) -> tuple[Box, ...]:
    """When the screen sizes differ, the recorded box moved by the page's shift but not
    rescaled, and (the widths differing) that box moved across by half the change in width,
    as a page centred in its window moves when the window is resized (see
    :attr:`Query.bbox_alts`); none when the sizes are the same."""
    sx, sy = scale_between(ref.screen_size, table.screen_size)
    if ref.bbox is None or (abs(sx - 1.0) <= 1e-6 and abs(sy - 1.0) <= 1e-6):
        return ()
    unscaled = moved_box(ref.bbox, page_shift(ref, table, rescale=False))
    if ref.screen_size is None or table.screen_size is None:
        return (unscaled,)
    across = (table.screen_size[0] - ref.screen_size[0]) / 2.0
    if abs(across) <= 1e-6:
        return (unscaled,)
    return unscaled, moved_box(unscaled, (1.0, 1.0, across, 0.0))


def box_readings_of(ref: SemanticElementRef, table: CandidateTable) -> tuple[Box, ...]:
    """Every place the recorded box may mean on ``table``: the box under the page's shift
    (rescaled between the screen sizes), then its :func:`other_readings`; none without a
    box."""
    if ref.bbox is None:
        return ()
    return (moved_box(ref.bbox, page_shift(ref, table)), *other_readings(ref, table))


def moved_box(box: Box, shift: tuple[float, float, float, float]) -> Box:
    """A recorded box under :func:`page_shift`'s ``(sx, sy, dx, dy)``."""
    sx, sy, dx, dy = shift
    return (box[0] * sx + dx, box[1] * sy + dy, box[2] * sx + dx, box[3] * sy + dy)


def page_shift(
    ref: SemanticElementRef, table: CandidateTable, rescale: bool = True
) -> tuple[float, float, float, float]:
    """``(sx, sy, dx, dy)``: how a box recorded with ``ref`` maps into the table's space, the
    scale between the screen sizes (none without ``rescale``), then the median displacement
    of the ref's anchors that are still uniquely named here, drawn with an area when
    recorded and now (none found, no shift). On a
    screenshot each anchor moved by the least of the moves of its starts, its ends and its
    centres (:func:`~resolver.geometry.nearest_move`: a block recorded, the ink of its words
    read), and the
    median counts only where most anchors agree with it (:func:`_agreed`).
    Remembered per table: the rules that judge a reference ask for it again."""
    index = index_of(table)
    key = (ref.anchors, ref.screen_size, rescale)
    shift: tuple[float, float, float, float] | None = index.shifts.get(key)
    if shift is None:
        shift = index.shifts.room()[key] = _shift(ref, index, rescale)
    return shift


def _shift(
    ref: SemanticElementRef, index: TableIndex, rescale: bool
) -> tuple[float, float, float, float]:
    """:func:`page_shift`, computed."""
    sx, sy = scale_between(ref.screen_size, index.table.screen_size) if rescale else (1.0, 1.0)
    if abs(sx - 1.0) <= 1e-6 and abs(sy - 1.0) <= 1e-6:
        sx = sy = 1.0  # same screen: keep the recorded numbers exact
    across: list[float] = []
    down: list[float] = []
    read = index.table.names_read  # boxes of words read on a screenshot
    for name, old in ref.anchors:
        new = index.unique_box(name)
        if new is None or box_area(old) <= 0.0 or box_area(new) <= 0.0:
            continue  # (an anchor drawn with no area stays put while the page moves)
        if read:  # a block recorded, the ink of its words read: the nearest of three moves
            across.append(nearest_move(new[0], new[2], old[0] * sx, old[2] * sx))
            down.append(nearest_move(new[1], new[3], old[1] * sy, old[3] * sy))
            continue
        across.append((new[0] + new[2] - (old[0] + old[2]) * sx) / 2.0)
        down.append((new[1] + new[3] - (old[1] + old[3]) * sy) / 2.0)
    if not (across or down):
        return (sx, sy, 0.0, 0.0)
    if read:
        return (sx, sy, _agreed(across), _agreed(down))
    return (sx, sy, _median(across) if across else 0.0, _median(down) if down else 0.0)


ANCHORS_AGREE: Final[float] = 12.0
"""On a table whose names are read from a screenshot, anchors' displacements (px) this close
to their median agree with it; see :func:`_agreed`."""


def _agreed(moves: list[float]) -> float:
    """The median of anchors' displacements along one axis on a screenshot, when more than
    half of them agree with it (:data:`ANCHORS_AGREE`); else no shift. A word read once on
    the screen is not always the recorded anchor (the page's header repeats a name a
    paragraph's link holds, and the paragraph is read as one run): two anchors found
    hundreds of pixels apart in their moves have a median that is neither's, and moved a
    button that stood where it was by both halves of the difference."""
    if not moves:
        return 0.0
    middle = _median(moves)
    agreeing = sum(1 for move in moves if abs(move - middle) <= ANCHORS_AGREE)
    return middle if 2 * agreeing > len(moves) else 0.0


def _median(values: list[float]) -> float:
    """The median (as ``statistics.median`` computes it, without its generality)."""
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2.0


STYLE_AGREES: Final[float] = 0.5
"""Container-entry similarity at which a recorded entry is said to agree with some named
ancestor or container of a table (for :func:`_ancestor_style`). Fuzzy agreement counts: a
named-from-content ancestor (a layout cell named by all its text) changes with any word in
it."""


def _ancestor_style(path: tuple[str, ...], table: CandidateTable) -> bool:
    """Whether a recorded path (its usable entries, :func:`_usable_container`) reads as
    named ancestors of any role rather than containers: more of its entries agree better
    with some named ancestor of the table than with any container entry (at
    :data:`STYLE_AGREES` or better) than the other way round. Entries that agree as well
    with both (a named container is also a named ancestor) do not vote."""
    index = index_of(table)
    tier = STYLE_AGREES
    found = [index.agreement(entry, False) for entry in path]
    if all(c >= NAME_TIERS["exact"] for c in found):
        return False  # no entry can agree better with a named ancestor: none votes for them
    agreements = [(c, index.agreement(e, True)) for c, e in zip(found, path, strict=True)]
    in_containers = sum(c >= tier and c > a for c, a in agreements)
    in_ancestors = sum(a >= tier and a > c for c, a in agreements)
    return in_ancestors > in_containers


def _compared_path(
    path: tuple[str, ...], name_norm: str, table: CandidateTable, config: MatchConfig
) -> tuple[tuple[str, ...], bool]:
    """The recorded path's usable entries (:func:`_usable_container`) and whether they read
    as named ancestors (:func:`_ancestor_style`), remembered per table: the references of
    one page repeat their paths."""
    index = index_of(table)
    key = (path, name_norm, config.outer_container_match, config.group_agrees)
    cached: tuple[tuple[str, ...], bool] | None = index.usable_paths.get(key)
    if cached is None:
        container = _usable_container(path, name_norm, table, config)
        cached = index.usable_paths.room()[key] = (container, _ancestor_style(container, table))
    return cached


def _usable_container(
    path: tuple[str, ...],
    name_norm: str,
    table: CandidateTable,
    config: MatchConfig,
) -> tuple[str, ...]:
    """The recorded container path without the entries that cannot tell candidates apart.

    - An entry equal to the element's own name (a list item or heading around its one
      link) repeats the name; kept, it matches a look-alike's list item as well as the
      target's, and a renamed target's not at all.
    - An outermost entry that nothing in this table resembles, in container paths or named
      ancestors: usually the window or page title, which formats without a named root
      (aria snapshots, Android trees, the DOM) cannot express and a renamed page changes.
      It would only lower every candidate alike.
    - An outermost entry that names the document itself (:attr:`CandidateTable.document_name`,
      the DOM's page title): every row lies inside it, so it tells none apart. It must not
      be read as some row's container because an article's heading repeats the title.
      The level right under it is then the page's outermost named level, and is dropped
      when nothing here resembles it, as above (a layout table's cell, which Chromium
      names by all its text and the DOM source keeps no row for).

    - An unnamed landmark (``"[banner]"``) that no path of the table holds: the page lost
      that landmark (a redesign unwrapped its header), so it is missing for every row alike.

    Inner named entries are otherwise kept: an inner level that matches nothing is how a
    removed row or group shows (the "Edit" of a deleted row).
    """
    if not path:
        return path
    index = index_of(table)
    if name_norm:
        path = tuple(entry for entry in path if index.norm(entry) != name_norm)
    if not path:
        return path
    landmarks = index.containers.landmarks if any(e.startswith("[") for e in path) else ()
    path = tuple(entry for entry in path if not entry.startswith("[") or entry in landmarks)
    if not path:
        return path
    known = index.known(path[0], config.outer_container_match)
    title = bool(table.document_name) and index.norm(path[0]) == index.norm(table.document_name)
    path = path[1:] if title or not known else path
    if title and path and not index.known(path[0], config.outer_container_match):
        path = path[1:]  # the page's outermost named level, under its title: as above
    if table.groups_by_title:
        path = seen_by_title(path, table, config.group_agrees)
    return path


def seen_by_title(path: tuple[str, ...], table: CandidateTable, agrees: float) -> tuple[str, ...]:
    """The recorded entries a table that names groups only by the titles it sees
    (:attr:`CandidateTable.groups_by_title`) can check: never landmarks, and a window may
    cut a heading off. An entry that no group of the table resembles (under ``agrees``) is
    no evidence for or against any row (kept, it would lower every row alike). Groups only:
    such a table's other parents are not containers (a line of text is the parent of the
    words split out of it), and a recorded section named by its text would otherwise be
    "seen" in a paragraph it shares words with."""
    index = index_of(table)
    return tuple(
        entry
        for entry in path
        if not entry.startswith("[") and index.agreement(entry, False) >= agrees
    )


@dataclass(frozen=True)
class Scored:
    """Top rows of one table for one query, best first, with per-signal evidence."""

    rows: Index
    scores: FloatArray
    signals: dict[str, FloatArray] = field(default_factory=dict)
    evaluated: int = 0
    identifying: bool = True
    """Whether the ref carries anything beyond its role that can tell candidates apart here:
    a name, a container path, a platform ID this table has, a box in the same space, or a
    recorded class, link or attribute that some row has in full."""


def bbox_scores(
    ref_box: tuple[float, float, float, float],
    boxes: FloatArray,
    unknown: float,
    geometry: Geometry | None = None,
) -> FloatArray:
    """Box agreement in ``[0, 1]`` for every row: 0.5 centre distance + 0.25 IoU + 0.25 size.

    Distance counts relative to the element's size (``exp(-d / (2 * diagonal + 50))``), so a
    50 px shift of a small button costs more than of a large panel but never everything.
    ``geometry`` is the rows' cached edges, centres and sizes (computed when not given).
    """
    geo = geometry if geometry is not None else Geometry.of(boxes)
    return box_agreement(ref_box, box_diagonal(ref_box), geo, unknown)


def box_diagonal(ref_box: Box) -> float:
    """The length a centre distance is measured against: the box's diagonal, at least 24."""
    return max(math.hypot(ref_box[2] - ref_box[0], ref_box[3] - ref_box[1]), 24.0)


def box_agreement(
    ref: Box | Edges, diag: float | FloatArray, geo: Geometry, unknown: float
) -> FloatArray:
    """:func:`bbox_scores` of the rows of ``geo``; ``ref`` and ``diag`` (its
    :func:`box_diagonal`) may be per row, to score many references' rows in one pass."""
    left, top, right, bottom = ref
    rw, rh = right - left, bottom - top
    rcx, rcy = (left + right) / 2.0, (top + bottom) / 2.0
    cw, ch = geo.width, geo.height
    with np.errstate(invalid="ignore", divide="ignore"):
        dist = np.hypot(geo.cx - rcx, geo.cy - rcy)
        score = np.exp(dist / -(2.0 * diag + 50.0))
        score *= 0.5
        shared = overlap(ref, geo, dist < 1.0)
        if isinstance(rw, float) and isinstance(rh, float):
            # One reference box: max(max(c, r), 1e-9) is max(c, max(r, 1e-9)), exactly.
            size = (np.minimum(cw, rw) / np.maximum(cw, max(rw, 1e-9))) * (
                np.minimum(ch, rh) / np.maximum(ch, max(rh, 1e-9))
            )
            if rw <= 0.0:
                size = np.where(cw <= 0, 1.0, size)
        else:
            size = (np.minimum(cw, rw) / np.maximum(np.maximum(cw, rw), 1e-9)) * (
                np.minimum(ch, rh) / np.maximum(np.maximum(ch, rh), 1e-9)
            )
            flat = np.less_equal(rw, 0.0)
            if flat.any():
                size = np.where(flat & (cw <= 0), 1.0, size)
        score += 0.25 * shared + 0.25 * size
    agreement: FloatArray = np.where(np.isnan(score), unknown, score)
    return agreement


def _state_scores(query: Query, table: CandidateTable) -> FloatArray | None:
    parts: list[FloatArray] = []
    for wanted, column in ((query.enabled, table.enabled), (query.focused, table.focused)):
        if wanted is None:
            continue
        parts.append(np.where(column < 0, 0.5, (column == int(wanted)).astype(np.float64)))
    if not parts:
        return None
    return np.mean(parts, axis=0) if len(parts) > 1 else parts[0]


class Scorer:
    """Holds the per-row vectors of one (query, table) pair and evaluates rows lazily.

    Role, state and ID signals are vectors over all rows; box, name and container are
    computed per row on demand, and bounded from above until then (box and container by 1,
    name by its hash-lookup tier or, failing that, the fuzzy cap).
    """

    def __init__(
        self,
        query: Query,
        table: CandidateTable,
        config: MatchConfig,
        shared: dict[Any, Any] | None = None,
    ) -> None:
        self.query = query
        self.table = table
        self.index = index = index_of(table)
        self.config = config
        n = len(table)
        self.has_box = query.bbox is not None
        self.has_name = bool(query.name_raw)
        self.has_container = bool(query.container)
        self.pruned = self.has_name or self.has_container
        """Whether rows are scored lazily by bound: without a name or container path, a row's
        bound is its score, and every row is scored at once."""
        self.identifying = query.identifying
        self.signals: dict[str, FloatArray] = {}
        state = _state_scores(query, table)
        # Refs that differ only in name, box, container and web evidence share these
        # vectors (and, without web evidence, the order of rows by their bound), so they are
        # computed once per table; a ref's web evidence is added to copies.
        self.cache_key: tuple[Any, ...] | None = None
        cached: tuple[FloatArray, ...] | None = None
        key: tuple[Any, ...] | None = None
        if state is None and not query.ids:
            key = (
                query.role, self.has_box, query.bbox_weight, self.has_name,
                self.has_container, config,
            )  # fmt: skip
            cached = index.shared_vectors.get(key)
            if cached is not None and query.role is not None:
                self.signals["role"] = _role_vectors(index, query.role, config)[0]
        if cached is None:
            cached = self._vectors(state, with_web=key is None)
            if key is not None:
                index.shared_vectors.room()[key] = cached
        self.base_num, self.base_den, self.mult, self.container_weight, den_rows = cached
        self._web = False
        self._web_bound: tuple[tuple[Any, ...], FloatArray, FloatArray] | None = None
        if key is not None and query.web is not None:
            nearby = None if shared is None else shared.get(NEARBY)
            web_num, web_den, web_signals = web_terms(query.web, table, config, nearby)
            self.signals.update(web_signals)
            self._web = web_num is not None
            if web_num is not None:
                plain = self.base_num
                self.base_num = plain + web_num
                self.base_den = self._web_den(key, den_rows, web_den)
                if isinstance(web_den, float):
                    self._web_bound = (("web bound", key, web_den), plain, web_num)
        if key is not None and not self._web:
            self.cache_key = key
        self._shared_key = key
        self.identifying = self.identifying or self._web_identifies()
        self.num, self.den = self._with_occurrence()
        self._init_rows(n, shared)

    def _web_identifies(self) -> bool:
        """Whether a recorded class, link or attribute agrees fully with some row: an element
        recorded with them but no name (an icon link, a search box) is told apart by it."""
        return any(
            bool((values >= 1.0).any())
            for signal, values in self.signals.items()
            if signal.startswith("web:") and signal not in ("web:tag", "web:nearby")
        )

    def _web_den(
        self, key: tuple[Any, ...], den_rows: FloatArray, web_den: FloatArray | float
    ) -> FloatArray:
        """The denominator with the web evidence's weights: the sums ``_vectors`` makes, in
        its order; kept with the shared vectors while the web weights are one number."""
        cache_key = ("web den", key, web_den) if isinstance(web_den, float) else None
        cached: FloatArray | None = None
        if cache_key is not None:
            cached = self.index.shared_vectors.get(cache_key)
        if cached is None:
            den_rows = den_rows + web_den
            if self.has_container:
                den_rows += self.container_weight
            cached = np.where(den_rows > 0, den_rows, 1.0)
            if cache_key is not None:
                self.index.shared_vectors.room()[cache_key] = cached
        return cached

    def _with_occurrence(self) -> tuple[FloatArray, FloatArray]:
        """Numerator and denominator with the look-alike order counted for the rows of the
        ref's look-alike group (copies; the shared vectors stay as they are). The group's rows
        are all name hits, scored exactly, so bounds from the shared vectors stay valid for
        every other row."""
        query, config = self.query, self.config
        if query.occurrence is None:
            return self.base_num, self.base_den
        n = len(self.table)
        group, agree = _occurrence(self.index, query)
        self._occurrence_group = group
        # Vectors made for this scorer alone (no key to share them by, or the numerator with
        # this ref's web evidence added) are changed in place, the shared ones in copies.
        own = self._shared_key is None
        num = self.base_num if own or self._web else self.base_num.copy()
        den = self.base_den if own else self.base_den.copy()
        num[group] += config.w_occurrence * agree
        den[group] += config.w_occurrence
        self.signals["occurrence"] = np.zeros(n)
        self.signals["occurrence"][group] = agree
        if group.size < query.occurrence[1] and not self.table.names_read:
            # Fewer look-alikes than recorded: one is gone, perhaps the target itself (on a
            # screenshot, perhaps off the screen: it says nothing there).
            self.signals["lookalike_gone"] = np.zeros(n)
            self.signals["lookalike_gone"][group] = 1.0
        return num, den

    def _vectors(self, state: FloatArray | None, *, with_web: bool) -> tuple[FloatArray, ...]:
        """Numerator, denominator, gate and container weight of every row from the signals
        that are vectors (role, state, platform IDs, and the web evidence when
        ``with_web``), and the denominator before the container weight."""
        query, config, index = self.query, self.config, self.index
        n = len(self.table)
        num = np.zeros(n, dtype=np.float64)
        den = 0.0
        if query.role is not None:
            compat, mult = _role_vectors(index, query.role, config)
            num += config.w_role * compat
            den += config.w_role
            self.signals["role"] = compat
        else:
            mult = _visibility(index, config)
        if self.has_box:
            den += query.bbox_weight
        if state is not None:
            num += config.w_state * state
            den += config.w_state
            self.signals["state"] = state
        if self.has_name:
            den += config.w_name
        den_rows = np.full(n, den)
        for column, value in query.ids:
            # A matching platform ID is strong evidence. A different or missing one is no
            # evidence against while the recorded ID is nowhere on the page (IDs change
            # between builds); when some row still has it, the rows without it are not
            # that element. A positional path is never held against a row: after a
            # reorder the old path names the neighbour.
            hit = index.id_hits(column, value)
            positional = column in POSITIONAL_ID_COLUMNS
            weight = config.w_path if positional else config.w_id
            num += weight * hit
            den_rows += weight * (hit if positional or not hit.any() else 1.0)
            self.signals[f"id:{column}"] = hit
            self.identifying = self.identifying or bool(hit.any())
        if with_web and query.web is not None:
            web_num, web_den, web_signals = web_vectors(query.web, self.table, config)
            num += web_num
            den_rows += web_den
            self.signals.update(web_signals)
        before_container = den_rows.copy()
        container_weight = np.zeros(n)
        if self.has_container:
            # A row with no containers at all (flat tables, Android roots) has no path to
            # agree or disagree with: the signal is absent for it, not zero.
            container_weight = config.w_container * index.has_containers
            den_rows += container_weight
        return num, np.where(den_rows > 0, den_rows, 1.0), mult, container_weight, before_container

    def _init_rows(self, n: int, shared: dict[Any, Any] | None) -> None:
        """Per-row caches of the computed signals. The name cache depends on the name alone:
        ``shared`` (a batch over one table and config) lends it to every query with the
        same name; without one it is the table's (:attr:`TableIndex.name_rows`), kept for
        later resolves. (A batch keeps its own: below a cutoff its fuzzy values need not be
        exact.) The box cache is made on first use (a batch may never need it); container
        agreement is read from the table's scores per path."""
        query = self.query
        self._box: FloatArray | None = None
        names: tuple[Index, FloatArray] | None
        if shared is None:
            names = self.index.name_rows.get(query.name_raw)
            if names is None:
                names = self.index.name_rows.room(n)[query.name_raw] = self._name_rows(n)
        else:
            names = shared.get(("name", query.name_raw))
            if names is None:
                names = shared[("name", query.name_raw)] = self._name_rows(n)
        self._hits: Index = names[0]
        self.name: FloatArray = names[1]

    def _name_rows(self, n: int) -> tuple[Index, FloatArray]:
        """The rows whose name agrees by lookup, and the name cache, with their tiers."""
        query = self.query
        # Exact, normalised and digit-masked agreement come from hash lookups, once; any
        # other name scores at most the fuzzy cap.
        name = np.full(n, np.nan)
        if not self.has_name:
            return np.empty(0, dtype=np.intp), name
        hits, tiers = self.index.name_tiers(query.name_raw, query.name_norm, query.name_mask)
        name[hits] = tiers
        return hits, name

    @property
    def box(self) -> FloatArray:
        """Box agreement per row, NaN until computed."""
        if self._box is None:
            self._box = np.full(len(self.table), np.nan)
        return self._box

    def box_scores(self, rows: Index) -> FloatArray:
        """Box agreement for ``rows`` (computed once per row)."""
        if self._box is None and self.query.bbox is not None:
            # Nothing computed yet: every row is to do, and its agreement is the answer.
            agree = self._box_agreement(rows)
            self.box[rows] = agree
            return agree
        todo = rows[np.isnan(self.box[rows])]
        if todo.size and self.query.bbox is not None:
            self.box[todo] = self._box_agreement(todo)
        return self.box[rows]

    def _box_agreement(self, rows: Index) -> FloatArray:
        """The recorded box (the best of its readings) against the boxes of ``rows``."""
        assert self.query.bbox is not None
        # The rows' cached geometry is all the comparison reads (not their box array).
        geometry = self.index.geometry.take(rows)
        unknown = self.config.bbox_unknown
        agree = box_agreement(self.query.bbox, box_diagonal(self.query.bbox), geometry, unknown)
        for other in self.query.bbox_alts:
            again = box_agreement(other, box_diagonal(other), geometry, unknown)
            agree = np.maximum(agree, again)
        return agree

    # -- exact parts ----------------------------------------------------------------------

    def name_scores(self, rows: Index) -> FloatArray:
        """Name similarity for ``rows`` (tiers by hash lookup, fuzzy by rapidfuzz batch),
        each value written to the cache once final (another resolve may read it)."""
        todo = rows[np.isnan(self.name[rows])]
        if todo.size:
            if self.query.name_norm:
                self.set_fuzzy(todo, self.index.fuzzy_tiers(self.query.name_norm, todo))
            else:
                self.name[todo] = 0.0  # without a comparable name, no agreement
        return self.name[rows]

    def pending_names(self, rows: Index) -> Index:
        """The rows of ``rows`` whose name still needs a fuzzy score, to be given to
        :meth:`set_fuzzy` next (lookup hits have theirs from the start). For a batch's own
        cache: the rows' values are 0 until then."""
        todo = rows[np.isnan(self.name[rows])]
        if not todo.size:
            return todo
        self.name[todo] = 0.0  # no lookup tier; without a comparable name, nothing more
        pending: Index = todo if self.query.name_norm else todo[:0]
        return pending

    def set_fuzzy(self, rows: Index, fuzzy: FloatArray) -> None:
        """Store the fuzzy name scores of ``rows`` (rows without a name score 0)."""
        fuzzy[self.index.empty_names[rows]] = 0.0
        self.name[rows] = fuzzy

    def container_scores(self, rows: Index) -> FloatArray:
        """Container-path similarity for ``rows`` (against their container paths, or their
        named-ancestor paths for a path of that style), each needed distinct path once, each
        of its entries once, every entry of one recorded level in one rapidfuzz batch; read
        from the table's scores per path (:meth:`path_cache`), no row-long array made."""
        return self._path_scores(*self.vocabulary(), rows)

    def vocabulary(self) -> tuple[ContainerVocab, BoundedCache]:
        """The paths the recorded one is compared with (containers, or named ancestors for a
        path of that style), and the cache of its entries' similarities."""
        index = self.index
        if self.query.ancestors:
            return index.ancestors, index.ancestor_entry_sims
        return index.containers, index.entry_sims

    def _path_scores(self, vocab: ContainerVocab, cache: BoundedCache, todo: Index) -> FloatArray:
        """The recorded path against the paths of ``vocab`` of rows ``todo``; each path's score
        is kept per table (:attr:`TableIndex.path_scores`): the references of one page
        repeat their paths."""
        codes = vocab.path_of_row[todo]
        by_path = self.path_cache(vocab)
        missing = codes[np.isnan(by_path[codes])]
        if missing.size:
            path_codes = distinct_codes(missing, len(vocab.paths))[0]
            by_path[path_codes] = self._scores_of_paths(vocab, cache, path_codes)
        scores: FloatArray = by_path[codes]
        return scores

    def path_cache(self, vocab: ContainerVocab) -> FloatArray:
        """The recorded path's score against each path of ``vocab`` (its vocabulary), NaN
        where not computed yet: kept per table, for every query with this path."""
        key = (self.query.container, self.query.ancestors)
        by_path: FloatArray | None = self.index.path_scores.get(key)
        if by_path is None:
            cells = len(vocab.paths)
            by_path = self.index.path_scores.room(cells)[key] = np.full(cells, np.nan)
        return by_path

    def _scores_of_paths(
        self, vocab: ContainerVocab, cache: BoundedCache, path_codes: Index
    ) -> FloatArray:
        """The recorded path against the paths ``path_codes`` of ``vocab``."""
        sub = vocab.matrix[path_codes]  # paths x entries, -1 padded
        entries = distinct(sub[sub >= 0])
        total = np.zeros(path_codes.size)
        weight_sum = 0.0
        for depth, item in enumerate(self.query.container):
            weight = entry_weight(depth, item)
            sims = entry_sims(item, entries, vocab, cache)
            best = sims[sub].max(axis=1) if sub.size else np.zeros(path_codes.size)
            total += weight * best
            weight_sum += weight
        by_path: FloatArray = total / weight_sum
        return by_path

    def ordered_bound(self) -> tuple[FloatArray, Index | None]:
        """The bound of every row with its name counted at the fuzzy cap (exact for rows
        that are not name-lookup hits), and, where it is shared, the rows in descending
        order of it (``None`` otherwise)."""
        if self.cache_key is None:
            return (self._cap_bound() if self._web_bound is None else self._web_cap()), None
        orders = self.index.bound_orders
        cached = orders.get(self.cache_key)
        if cached is None:
            upper = self._cap_bound(shared=True)
            cached = orders.room()[self.cache_key] = (upper, np.argsort(-upper, kind="stable"))
        return cached

    def _cap_bound(self, *, shared: bool = False) -> FloatArray:
        num, den = (self.base_num, self.base_den) if shared else (self.num, self.den)
        gate, total = self._at_best(num)
        return np.asarray(gate * total / den, dtype=np.float64)

    def _cap_bound_of(self, rows: Index) -> FloatArray:
        """:meth:`_cap_bound` of ``rows`` only (each row's bound is its own sum)."""
        gate, total = self._at_best(self.num[rows], rows)
        return np.asarray(gate * total / self.den[rows], dtype=np.float64)

    def _at_best(self, num: FloatArray, rows: Index | None = None) -> tuple[FloatArray, FloatArray]:
        """The gate and the weighted sum when box, name and container all agree as well as
        they can, on top of the weighted sum ``num`` of the other signals (of every row, or
        of ``rows``)."""
        config = self.config
        total = num + (self.query.bbox_weight if self.has_box else 0.0)
        gate = self.mult if rows is None else self.mult[rows]
        if self.has_name:
            cap = NAME_TIERS["fuzzy_cap"]
            total = total + config.w_name * cap
            gate = gate * (config.name_gate_floor + (1.0 - config.name_gate_floor) * cap)
        if self.has_container:
            total = total + (self.container_weight if rows is None else self.container_weight[rows])
        return gate, total

    def _web_cap(self) -> FloatArray:
        """:meth:`_cap_bound` of a ref with web evidence whose web weights count for every
        row alike: the gate over the denominator and the other signals at their best are
        shared by the refs with the same vectors and web weights, the ref adds its web
        agreement (the rows of its look-alike group are bounded from their own sums)."""
        assert self._web_bound is not None
        key, plain, web_num = self._web_bound
        parts: tuple[FloatArray, FloatArray] | None = self.index.shared_vectors.get(key)
        if parts is None:
            gate, rest = self._at_best(plain)
            parts = self.index.shared_vectors.room()[key] = (gate / self.base_den, rest)
        gain, rest = parts
        upper: FloatArray = rest + web_num
        upper *= gain
        if self.query.occurrence is not None:
            group = self._occurrence_group
            upper[group] = self._cap_bound_of(group)
        return upper

    def name_hits(self) -> Index:
        """Rows whose name agrees exactly, normalised or digit-masked (hash lookups)."""
        return self._hits

    def full(self, rows: Index, parts: dict[str, FloatArray] | None = None) -> FloatArray:
        """Exact scores of ``rows``; ``parts``, when given, receives their box (``"bbox"``), name
        and container agreement, for the ranking to show without asking again."""
        config = self.config
        # ``take`` always makes a new array (updated in place below), as indexing by an
        # index array does.
        total = self.num.take(rows)
        gate = self.mult.take(rows)
        if self.has_box:
            box = self.box_scores(rows)
            if parts is not None:
                parts["bbox"] = box
            total += self.query.bbox_weight * box
            if self.query.box_same_space:
                gate *= config.bbox_gate_floor + (1.0 - config.bbox_gate_floor) * box
        if self.has_name:
            name = self.name_scores(rows)
            if parts is not None:
                parts["name"] = name
            total += config.w_name * name
            gate *= config.name_gate_floor + (1.0 - config.name_gate_floor) * name
        if self.has_container:
            cont = self.container_scores(rows)
            if parts is not None:
                parts["container"] = cont
            weight = self.container_weight[rows]
            total += weight * cont
            floor = config.container_gate_floor
            gate *= np.where(weight > 0, floor + (1.0 - floor) * cont, 1.0)
        return np.asarray(gate * total / self.den[rows], dtype=np.float64)

    def bound(self, rows: Index) -> FloatArray:
        """Upper bound of the scores of ``rows``, whose names must be known: box and
        container counted as perfect."""
        config = self.config
        total = self.num[rows] + (self.query.bbox_weight if self.has_box else 0.0)
        gate = self.mult[rows]
        if self.has_name:
            name = self.name[rows]
            total = total + config.w_name * name
            gate = gate * (config.name_gate_floor + (1.0 - config.name_gate_floor) * name)
        if self.has_container:
            total = total + self.container_weight[rows]
        return np.asarray(gate * total / self.den[rows], dtype=np.float64)


def entry_sims(item: str, entries: Index, vocab: ContainerVocab, cache: BoundedCache) -> FloatArray:
    """Similarity of one recorded container entry to the vocabulary entries ``entries`` (and
    whatever else was asked before), cached on the table: refs of one page share their outer
    containers, so ``resolve_many`` computes them once."""
    sims: FloatArray | None = cache.get(item)
    if sims is None:
        sims = cache.room()[item] = np.full(len(vocab.raw) + 1, np.nan)
        sims[-1] = 0.0  # the padding slot
    missing = entries[np.isnan(sims[entries])]
    if missing.size:
        sims[missing] = item_similarity_many(
            item,
            [vocab.raw[e] for e in missing],
            [vocab.norm[e] for e in missing],
            [vocab.mask[e] for e in missing],
        )
    return sims


def _occurrence(index: TableIndex, query: Query) -> tuple[Index, FloatArray]:
    """The rows sharing the ref's role, name and recorded container path (any path on a
    screenshot, :func:`group_path`), and for each whether
    its ordinal among them agrees with the recorded one. When the group has changed size (a
    look-alike was added,
    or one was removed or renamed: perhaps the target itself), no member's ordinal can be
    trusted, and none agrees."""
    assert query.occurrence is not None
    k, n = query.occurrence
    code = None if query.role is None else role_code(query.role)
    group = index.look_alikes(query.name_norm, code, query.group_path)
    agree = np.zeros(group.size)
    if group.size == n:
        agree[k] = 1.0
    return group, agree


def _visibility(index: TableIndex, config: MatchConfig) -> FloatArray:
    cached = index.visibility.get(config.hidden_factor)
    if cached is None:
        cached = np.where(index.table.visible == 0, config.hidden_factor, 1.0)
        index.visibility[config.hidden_factor] = cached
    return cached


def _role_vectors(
    index: TableIndex, role: str, config: MatchConfig
) -> tuple[FloatArray, FloatArray]:
    """Role compatibility of every row with ``role``, and role gate x visibility (cached)."""
    key = (role, config.role_gate_floor, config.hidden_factor)
    cached = index.role_vectors.get(key)
    if cached is None:
        compat = COMPAT[role_code(role)][index.table.role_codes].astype(np.float64)
        gate = np.minimum(1.0, config.role_gate_floor + compat) * _visibility(index, config)
        cached = index.role_vectors[key] = (compat, gate)
    return cached


def distinct(values: Index, *, runs: bool = False) -> Index:
    """The distinct values, sorted (as ``np.unique``, whose hash-based path is several times
    slower on the few hundred row numbers a query handles). ``runs``: ``values`` are a few
    ascending runs laid end to end, which a stable sort merges (three times faster on a few
    hundred numbers; on shuffled ones it is slower)."""
    ordered = np.sort(values, kind="stable" if runs else None)
    if ordered.size < 2:
        return ordered
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]


def distinct_codes(values: npt.NDArray[np.integer[Any]], size: int) -> tuple[Index, Index]:
    """The distinct values, sorted, of codes in ``range(size)``, and each value's place among
    them (as ``np.unique(values, return_inverse=True)``, with a pass over ``size`` flags
    instead of a sort of ``values``)."""
    present = np.zeros(size, dtype=bool)
    present[values] = True
    places = np.cumsum(present) - 1
    return np.flatnonzero(present), places[values]


def _kth_best(values: FloatArray, k: int) -> float:
    if values.size == 0:
        return _MIN_BOUND
    if values.size < k:
        return _MIN_BOUND
    return max(_kth_value(values, values.size - k), _MIN_BOUND)


def _kth_value(values: FloatArray, kth: int) -> float:
    """``np.partition(values, kth)[kth]``: the value a sort would put at ``kth``."""
    part = values.copy()
    part.partition(kth)
    return float(part[kth])


_PRUNE_K: Final[int] = 4  # exact top rows kept for the decision (best + a different target)
RELEVANT_GAP: Final[float] = 0.12
"""Rows scoring more than this below the best cannot change a decision (margins are far
smaller) and are not scored; a reported margin is therefore at most this."""
_FIRST_CHUNK: Final[int] = 64


def score_table(
    ref: SemanticElementRef, table: CandidateTable, config: MatchConfig, *, k: int | None = None
) -> Scored:
    """The best rows of ``table`` for ``ref``, best first, with exact scores.

    The first ``k`` rows (default 4: enough for the winner, a nested duplicate of it, and the
    best different target) are the exact top ``k`` of a full evaluation, as far as they score
    within :data:`RELEVANT_GAP` of the best. The rest of the returned rows, up to
    ``config.top_k + 1``, are the best among the other rows that were scored: rows are scored
    best-bound first, and a row whose upper bound cannot reach the k-th best exact score (or
    the best minus the gap) is never scored.
    """
    n = len(table)
    k = prune_k(k)
    if n == 0:
        return Scored(np.empty(0, dtype=np.intp), np.empty(0))
    scorer = Scorer(Query.build(ref, table, config), table, config)
    if not scorer.pruned:
        return score_every_row(scorer, k)
    seeds = seeded(scorer, k, seed_rows(scorer, k))
    evaluated, exact, known = extend(scorer, k, seeds)
    return ranked(scorer, evaluated, exact, k, known)


def prune_k(k: int | None) -> int:
    """The number of exact top rows a scoring keeps (``None``: the default)."""
    return max(k if k is not None else _PRUNE_K, 1)


def score_every_row(scorer: Scorer, k: int) -> Scored:
    """Every row scored exactly (a query with neither name nor container path, whose bounds
    would be its scores)."""
    n = len(scorer.table)
    keep = max(k, scorer.config.top_k + 1)
    scores = scorer.full(np.arange(n, dtype=np.intp))
    order = best_first(scores, np.arange(n), keep)
    return _finish(scorer, order, scores[order], n)


def best_first(scores: FloatArray, rows: Index, keep: int) -> Index:
    """Positions of the ``keep`` best ``scores``, best first, ties by ``rows`` ascending:
    ``np.lexsort((rows, -scores))[:keep]``, sorting only the scores at or above the
    ``keep``-th best where there are many."""
    n = scores.size
    if n <= 4 * keep or n < 512:
        return np.lexsort((rows, -scores))[:keep]
    negated = -scores
    kth = _kth_value(negated, keep - 1)
    if np.isnan(kth):
        return np.lexsort((rows, negated))[:keep]
    near = np.flatnonzero(negated <= kth)
    return near[np.lexsort((rows[near], negated[near]))[:keep]]


def ranked(
    scorer: Scorer,
    evaluated: Index,
    exact: FloatArray,
    k: int,
    known: dict[str, FloatArray] | None = None,
) -> Scored:
    """The best of the rows scored, best first (ties in row order), with their signals;
    ``known`` may give the box, name and container scores of all of ``evaluated``."""
    keep = max(k, scorer.config.top_k + 1)
    top_order = best_first(exact, evaluated, keep)
    top = None if known is None else {name: v[top_order] for name, v in known.items()}
    return _finish(scorer, evaluated[top_order], exact[top_order], int(evaluated.size), top)


@dataclass(frozen=True)
class Seeds:
    """The first step of a pruned scoring: the obvious candidates, scored exactly."""

    upper: FloatArray
    """Every row's bound with its name at the fuzzy cap (see :meth:`Scorer.ordered_bound`)."""
    order: Index | None
    """The rows in descending order of :attr:`upper`, where it is shared."""
    rows: Index
    """The seed rows, ascending and distinct (:func:`seed_rows`)."""
    scores: FloatArray
    floor: float
    """The score a further row must reach to matter: the k-th best so far, or the best
    minus :data:`RELEVANT_GAP`."""
    known: dict[str, FloatArray] = field(default_factory=dict)
    """The seed rows' box, name and container agreement, as far as known (``Scorer.full``)."""


def seed_rows(scorer: Scorer, k: int) -> tuple[FloatArray, Index | None, Index]:
    """The rows a pruned scoring scores first (name hits and the best bounds), with the
    bounds it orders the rest by."""
    upper, shared_order = scorer.ordered_bound()
    top = min(k, upper.size)
    # Both ways take equal bounds in document order (the shared order is a stable sort).
    best_bound = shared_order[:top] if shared_order is not None else top_rows(upper, top)
    hits = scorer.name_hits()
    if hits.size > MAX_NAME_SEEDS:
        # The best tiers first (exact, normalised, then digit-masked): among thousands of
        # "Order 17"-like names, the one bearing the recorded name exactly is always a seed.
        hits = hits[np.argsort(-scorer.name[hits], kind="stable")[:MAX_NAME_SEEDS]]
    return (
        upper,
        shared_order,
        distinct(np.concatenate([hits, best_bound.astype(np.intp, copy=False)]), runs=True),
    )


_SAMPLE_STEP: Final[int] = 16
""":func:`top_rows` reads every ``_SAMPLE_STEP``-th value first."""


def top_rows(values: FloatArray, top: int) -> Index:
    """The rows of the ``top`` largest ``values`` (``1 <= top``), ascending; among equal
    values at the cut, the first rows (in document order).

    The choice among equal values is the library's own: ``np.argpartition`` picks among
    them by the processor it runs on (its AVX-512, AVX2 and plain code choose differently),
    and the rows a scoring starts from decide which rows past the ``k`` best a ranking
    shows, which the tie-breaking rules read; so the answers are the same on every machine.

    The ``top``-th largest of every ``_SAMPLE_STEP``-th value is at most the ``top``-th
    largest of all, so every row of the answer reaches it: on a long table the selection
    runs over those rows only, most often a few hundred of ten thousand. (:func:`best_first`
    gives the same rows, best first, for the few rows a ranking keeps; over every row's
    bound it partitions the whole array, four times slower here.)
    """
    n = values.size
    if n <= top:
        return np.arange(n, dtype=np.intp)
    if n >= top * _SAMPLE_STEP * 4:
        sample = values[::_SAMPLE_STEP]
        rows = (values >= _kth_value(sample, sample.size - top)).nonzero()[0]
    else:
        rows = np.arange(n, dtype=np.intp)
    found = values[rows]
    cut = _kth_value(found, found.size - top)
    if np.isnan(cut):  # (bounds are never NaN; kept as a guard)
        return np.sort(np.argsort(-values, kind="stable")[:top]).astype(np.intp)
    above = rows[found > cut]
    out = np.concatenate([above, rows[found == cut][: top - above.size]])
    out.sort()
    return out


def seeded(scorer: Scorer, k: int, start: tuple[FloatArray, Index | None, Index]) -> Seeds:
    """The seed rows of ``start`` (from :func:`seed_rows`) scored, and the floor they set."""
    upper, order, rows = start
    known: dict[str, FloatArray] = {}
    exact = scorer.full(rows, known)
    return Seeds(upper, order, rows, exact, floor_of(exact, k), known)


def floor_of(exact: FloatArray, k: int) -> float:
    """The score a further row must reach to matter, given the exact scores so far."""
    return max(_kth_best(exact, k), float(exact.max()) - RELEVANT_GAP)


def extend(scorer: Scorer, k: int, seeds: Seeds) -> tuple[Index, FloatArray, dict[str, FloatArray]]:
    """Score the other rows that can still matter (see the module docstring); returns every
    row scored, seeds first, their exact scores, and their box, name and container agreement
    as far as :attr:`Seeds.known` had them."""
    upper, floor, evaluated = seeds.upper, seeds.floor, seeds.rows
    # The other rows, best bound first, in growing chunks; the floor rises as better rows
    # are scored, and once a chunk's best bound is under it, every later row is too.
    # (Name hits are all seeds, so every other row's bound is ``upper``.)
    if seeds.order is None:
        reach = upper >= floor
        if not past_seeds(reach, evaluated):
            return evaluated, seeds.scores, seeds.known  # every row that may matter is a seed
        rest = np.flatnonzero(reach)
        order = rest[np.argsort(-upper[rest], kind="stable")]
    else:
        order = seeds.order
    seen = np.zeros(upper.size, dtype=bool)
    seen[evaluated] = True
    done: list[Index] = [evaluated]
    found: list[FloatArray] = [seeds.scores]
    parts: list[dict[str, FloatArray]] = [seeds.known]
    pos, chunk = 0, _FIRST_CHUNK
    while pos < order.size and upper[order[pos]] >= floor:
        block = order[pos : pos + chunk]
        pos += chunk
        chunk = min(chunk * 2, 4096)
        block = block[(upper[block] >= floor) & ~seen[block]]
        if scorer.has_name and block.size:
            scorer.name_scores(block)
            block = block[scorer.bound(block) >= floor]
        if block.size:
            seen[block] = True
            done.append(block)
            parts.append({})
            found.append(scorer.full(block, parts[-1]))
            floor = floor_of(np.concatenate(found), k)
    if len(done) == 1:
        return evaluated, seeds.scores, seeds.known
    known = {
        name: np.concatenate([p[name] for p in parts])
        for name in seeds.known
        if all(name in p for p in parts)
    }
    return np.concatenate(done), np.concatenate(found), known


def past_seeds(reach: npt.NDArray[np.bool_], seeds: Index) -> bool:
    """Whether a row that ``reach`` marks is not among ``seeds`` (distinct rows): two counts,
    where listing the rows, ordering them and looking each up among the seeds costs a
    dozen numpy calls per reference."""
    return bool(np.count_nonzero(reach) > np.count_nonzero(reach[seeds]))


def among(values: Index, ordered: Index) -> npt.NDArray[np.bool_]:
    """Which of ``values`` are in ``ordered`` (sorted, distinct)."""
    at = np.searchsorted(ordered, values)
    inside = at < ordered.size
    found = np.zeros(values.size, dtype=bool)
    found[inside] = ordered[at[inside]] == values[inside]
    return found


def score_rows(
    ref: SemanticElementRef, table: CandidateTable, config: MatchConfig, rows: Index
) -> FloatArray:
    """Exact scores of the given rows (for a row chosen by other means, e.g. a selector)."""
    scorer = Scorer(Query.build(ref, table, config), table, config)
    return scorer.full(np.asarray(rows, dtype=np.intp))


def scored_at(
    ref: SemanticElementRef, table: CandidateTable, config: MatchConfig, rows: Sequence[int]
) -> Scored:
    """The given rows as a :class:`Scored`, in the order given, with their exact scores and
    signals (a row chosen by other means than its rank, which a ranking cut off)."""
    scorer = Scorer(Query.build(ref, table, config), table, config)
    chosen = np.asarray(rows, dtype=np.intp)
    return _finish(scorer, chosen, scorer.full(chosen), int(chosen.size))


def _finish(
    scorer: Scorer,
    rows: Index,
    scores: FloatArray,
    evaluated: int,
    known: dict[str, FloatArray] | None = None,
) -> Scored:
    """The Scored of ``rows``; ``known`` may give their box, name and container scores."""
    signals = {name: values[rows] for name, values in scorer.signals.items()}
    known = known or {}
    if scorer.has_box:
        signals["bbox"] = known["bbox"] if "bbox" in known else scorer.box_scores(rows)
    if scorer.has_name:
        signals["name"] = known["name"] if "name" in known else scorer.name_scores(rows)
    if scorer.has_container:
        cont = known.get("container")
        signals["container"] = cont if cont is not None else scorer.container_scores(rows)
    return Scored(
        rows=rows,
        scores=scores,
        signals=signals,
        evaluated=evaluated,
        identifying=scorer.identifying,
    )
