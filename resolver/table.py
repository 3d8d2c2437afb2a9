"""CandidateTable: the columnar, immutable currency between adapters and the matcher.

Adapters turn raw observations into a table with :class:`TableBuilder`; the matcher reads
tables and knows no platform. Rows are in tree pre-order (a parent comes before its children,
and a subtree is one run of rows).

Columns (N rows):

=================  =====================  ==================================================
column             type                   meaning
=================  =====================  ==================================================
``ids``            tuple[str]             the source's own node ID, as the tree spells it
``executor_ids``   tuple[str]             what an executor acts on (``a11y:7``, ``xpath:/...``)
``roles``          tuple[str]             canonical role (see :mod:`resolver.roles`)
``role_codes``     int32[N]               index of the role in ``roles.ROLES``
``raw_roles``      tuple[str]             the platform's own spelling
``names``          tuple[str]             accessible name, whitespace collapsed
``values``         tuple[str]             current value/text where the platform has one
``bboxes``         float64[N, 4]          ``[left, top, right, bottom]``; NaN where unknown
``depth``          int32[N]               0 for roots
``parent``         int32[N]               row index of the parent; -1 for roots
``enabled``        int8[N]                1 / 0 / -1 (unknown); same for ``visible``, ``focused``
``containers``     tuple[tuple[str]]      named (or landmark) ancestors, outermost first
``platform_ids``   dict[str, tuple]       e.g. ``automation_id``, ``dom_id``, ``xpath``,
                                          ``backend_node_id``; None where a row has none
=================  =====================  ==================================================
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from .errors import InvalidObservationError
from .roles import ROLE_INDEX, canonical_role
from .text import collapse, mask_digits, normalize

__all__ = ["CONTAINER_ROLES", "LANDMARK_ROLES", "CandidateTable", "TableBuilder"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int32]
TriArray = npt.NDArray[np.int8]

CONTAINER_ROLES: Final[frozenset[str]] = frozenset(
    {
        "dialog", "alertdialog", "window", "group", "region", "form", "search", "navigation",
        "banner", "contentinfo", "main", "complementary", "toolbar", "menu", "menubar",
        "tablist", "tabpanel", "list", "listitem", "row", "table", "grid", "treegrid", "tree",
        "radiogroup", "article", "section", "figure", "document", "application", "listbox",
        "rowgroup", "feed", "directory", "treeitem",
    }
)  # fmt: skip
"""Roles whose name enters the container path of their descendants."""

LANDMARK_ROLES: Final[frozenset[str]] = frozenset(
    {"banner", "navigation", "main", "complementary", "contentinfo", "form", "search", "dialog"}
)
"""Roles that enter the container path as ``[role]`` even without a name."""

CONTENT_NAMED_CONTAINERS: Final[frozenset[str]] = frozenset(
    {"row", "listitem", "treeitem", "article", "option"}
)
"""Unnamed containers of these roles enter container paths with their text content: a table
row's other cells, a list item's or an article's text are what tells one "Edit" or one
"Read more" from the next."""

MAX_CONTEXT_LEAVES: Final[int] = 8  # text leaves joined into a content-named container label
MAX_CONTEXT_CHARS: Final[int] = 120  # ... and at most this long
MAX_CONTAINER_DEPTH: Final[int] = 12  # container paths keep the innermost entries
MAX_TEXT: Final[int] = 2000  # names longer than this are cut: they are paragraphs, not labels


class _ValueIndex:
    """Rows by value: one code per row, rows sorted by code, and a slice per value."""

    __slots__ = ("codes", "order", "starts")

    def __init__(self, column: Sequence[str]) -> None:
        self.codes: dict[str, int] = {}
        setdefault = self.codes.setdefault
        row_codes = np.fromiter(
            (setdefault(value, len(self.codes)) for value in column), np.intp, count=len(column)
        )
        self.order = np.argsort(row_codes, kind="stable")
        counts = np.bincount(row_codes, minlength=len(self.codes))
        self.starts = np.concatenate(([0], np.cumsum(counts)))

    def rows(self, value: str) -> npt.NDArray[np.intp]:
        """Row indices holding ``value`` (empty values are never indexed)."""
        code = self.codes.get(value) if value else None
        if code is None:
            return np.empty(0, dtype=np.intp)
        return self.order[self.starts[code] : self.starts[code + 1]]


def _freeze(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    array.setflags(write=False)
    return array


@dataclass(frozen=True, eq=False)
class CandidateTable:
    """One observation seen through one source, as columns. Build it with :class:`TableBuilder`."""

    source: str
    format: str
    ids: tuple[str, ...]
    executor_ids: tuple[str, ...]
    roles: tuple[str, ...]
    role_codes: IntArray
    raw_roles: tuple[str, ...]
    names: tuple[str, ...]
    values: tuple[str, ...]
    bboxes: FloatArray
    depth: IntArray
    parent: IntArray
    enabled: TriArray
    visible: TriArray
    focused: TriArray
    containers: tuple[tuple[str, ...], ...]
    platform_ids: Mapping[str, tuple[str | None, ...]]
    coord_space: str = "unknown"
    screen_size: tuple[float, float] | None = None
    selector_resolver: Callable[[str, str], Sequence[int]] | None = field(
        default=None, repr=False, compare=False
    )
    """Sources that can run selectors (the DOM) set this: ``(kind, selector) -> rows`` with
    ``kind`` ``"css"`` or ``"xpath"``; the chain uses it to verify a ref's recorded selectors."""
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.ids)

    def __repr__(self) -> str:
        return f"CandidateTable(source={self.source!r}, format={self.format!r}, rows={len(self)})"

    # -- derived columns, computed once on first use -----------------------------------------

    @property
    def xpaths(self) -> tuple[str | None, ...]:
        """Absolute XPath per row where the source knows it (``None`` elsewhere)."""
        return self.platform_ids.get("xpath", (None,) * len(self))

    @property
    def names_norm(self) -> tuple[str, ...]:
        """Normalised names (see :func:`resolver.text.normalize`)."""
        cached = self._cache.get("names_norm")
        if cached is None:
            memo: dict[str, str] = {}
            cached = tuple(
                memo[n] if n in memo else memo.setdefault(n, normalize(n)) for n in self.names
            )
            self._cache["names_norm"] = cached
        return cached

    @property
    def names_mask(self) -> tuple[str, ...]:
        """Normalised names with digit runs masked."""
        cached = self._cache.get("names_mask")
        if cached is None:
            memo: dict[str, str] = {}
            cached = tuple(
                memo[n] if n in memo else memo.setdefault(n, mask_digits(n))
                for n in self.names_norm
            )
            self._cache["names_mask"] = cached
        return cached

    def lookup(self, kind: str, key: str) -> npt.NDArray[np.intp]:
        """Rows whose ``kind`` (``raw``, ``norm`` or ``mask``) name equals ``key``."""
        if kind == "raw":
            # Equal names are equal once normalised: filter the normalised hits.
            norm_key = normalize(key)
            names = self.names
            if norm_key:
                rows = self.lookup("norm", norm_key)
                return rows[[names[i] == key for i in rows.tolist()]]
            return np.asarray([i for i, n in enumerate(names) if n and n == key], dtype=np.intp)
        indexes = self._cache.get("name_indexes")
        if indexes is None:
            indexes = {
                "norm": _ValueIndex(self.names_norm),
                "mask": _ValueIndex(self.names_mask),
            }
            self._cache["name_indexes"] = indexes
        found: npt.NDArray[np.intp] = indexes[kind].rows(key)
        return found

    @property
    def container_ids(self) -> tuple[IntArray, tuple[tuple[str, ...], ...]]:
        """Per-row index into the list of distinct container paths, and that list."""
        cached = self._cache.get("container_ids")
        if cached is None:
            seen: dict[tuple[str, ...], int] = {}
            codes = np.fromiter(
                (seen.setdefault(p, len(seen)) for p in self.containers),
                dtype=np.int32,
                count=len(self),
            )
            cached = (_freeze(codes), tuple(seen))
            self._cache["container_ids"] = cached
        return cached

    @property
    def container_vocab(self) -> tuple[list[str], list[str], list[str], npt.NDArray[np.intp]]:
        """Distinct container entries (collapsed, normalised, masked) and, per distinct path
        (see :attr:`container_ids`), its entry indices padded with -1 to a matrix."""
        cached = self._cache.get("container_vocab")
        if cached is None:
            _, paths = self.container_ids
            index: dict[str, int] = {}
            width = max((len(p) for p in paths), default=0)
            matrix = np.full((len(paths), max(width, 1)), -1, dtype=np.intp)
            for i, path in enumerate(paths):
                for j, entry in enumerate(path):
                    matrix[i, j] = index.setdefault(entry, len(index))
            raw = [collapse(e) for e in index]
            norm = [normalize(e) for e in raw]
            mask = [mask_digits(e) if e else e for e in norm]
            cached = (raw, norm, mask, _freeze(matrix))
            self._cache["container_vocab"] = cached
        return cached

    def is_ancestor(self, ancestor: int, row: int) -> bool:
        """Whether ``ancestor`` is a proper ancestor of ``row``."""
        parent = self.parent
        current = int(parent[row])
        while current >= 0:
            if current == ancestor:
                return True
            current = int(parent[current])
        return False

    def row(self, i: int) -> dict[str, Any]:
        """One row as a plain dict (for evidence, logs and tests)."""
        box = self.bboxes[i]
        return {
            "source": self.source,
            "id": self.ids[i],
            "executor_id": self.executor_ids[i],
            "role": self.roles[i],
            "raw_role": self.raw_roles[i],
            "name": self.names[i],
            "bbox": None if math.isnan(float(box[0])) else [float(v) for v in box],
            "container_path": list(self.containers[i]),
        }


_NAN4: Final[tuple[float, float, float, float]] = (math.nan, math.nan, math.nan, math.nan)


def _clean_box(box: Any) -> tuple[float, float, float, float]:
    """One box from whatever an adapter passed, or four NaNs."""
    try:
        left, top, right, bottom = (float(v) for v in box)
    except (TypeError, ValueError):
        return _NAN4
    return (left, top, right, bottom)


def _box_array(raw: list[Any]) -> FloatArray:
    """All boxes as an N x 4 array; malformed, non-finite or inverted boxes become NaN."""
    n = len(raw)
    filled = [_NAN4 if box is None else box for box in raw]
    try:
        boxes = np.array(filled, dtype=np.float64)
    except (TypeError, ValueError):
        boxes = np.empty((0,))
    if boxes.shape != (n, 4):
        boxes = np.array([_clean_box(box) for box in filled], dtype=np.float64).reshape(n, 4)
    bad = (
        ~np.isfinite(boxes).all(axis=1) | (boxes[:, 2] < boxes[:, 0]) | (boxes[:, 3] < boxes[:, 1])
    )
    boxes[bad] = math.nan
    return boxes


class TableBuilder:
    """Collects rows (in pre-order) and freezes them into a :class:`CandidateTable`.

    Parameters
    ----------
    source, format:
        ``"a11y"``/``"dom"``/``"vision"`` and the adapter's format name.
    platform:
        Passed to :func:`resolver.roles.canonical_role` for platform-specific spellings.
    id_columns:
        Names of the platform-ID columns this adapter fills.
    max_rows:
        Refuse trees larger than this with :class:`InvalidObservationError`.
    """

    def __init__(
        self,
        source: str,
        format: str,
        *,
        platform: str | None = None,
        id_columns: Iterable[str] = (),
        executor_prefix: str = "a11y:",
        max_rows: int = 1_000_000,
    ) -> None:
        self.source = source
        self.format = format
        self.platform = platform
        self.executor_prefix = executor_prefix
        self.max_rows = max_rows
        self._ids: list[str] = []
        self._exec: list[str] = []
        self._roles: list[str] = []
        self._raw_roles: list[str] = []
        self._names: list[str] = []
        self._values: list[str] = []
        self._boxes: list[Any] = []
        self._parent: list[int] = []
        self._states: list[tuple[int, int, int]] = []
        self._pids: dict[str, list[str | None]] = {name: [] for name in id_columns}
        self._role_cache: dict[str, str] = {}
        self._name_cache: dict[str, str] = {}

    def __len__(self) -> int:
        return len(self._ids)

    def add(
        self,
        id: str,
        *,
        raw_role: str,
        name: str = "",
        parent: int = -1,
        bbox: Sequence[float] | None = None,
        value: str = "",
        enabled: bool | None = None,
        visible: bool | None = None,
        focused: bool | None = None,
        role: str | None = None,
        executor_id: str | None = None,
        **platform_ids: str | None,
    ) -> int:
        """Append one row and return its index. ``parent`` must be an earlier row or -1.

        ``bbox`` is ``[left, top, right, bottom]``; a malformed, non-finite or inverted box is
        stored as unknown (NaN), never trusted.
        """
        index = len(self._ids)
        if index >= self.max_rows:
            raise InvalidObservationError(
                f"the tree has more than {self.max_rows} nodes; raise max_nodes to read it",
                details={"max_nodes": self.max_rows},
            )
        if parent >= index or parent < -1:
            raise InvalidObservationError(f"node {id!r}: parent row {parent} is not earlier")
        if role is None:
            role = self._role_cache.get(raw_role)
            if role is None:
                role = canonical_role(raw_role, self.platform)
                self._role_cache[raw_role] = role
        if name:
            clean = self._name_cache.get(name)
            if clean is None:
                clean = self._name_cache[name] = collapse(name)[:MAX_TEXT]
            name = clean
        self._ids.append(id)
        self._exec.append(executor_id if executor_id is not None else self.executor_prefix + id)
        self._roles.append(role)
        self._raw_roles.append(raw_role)
        self._names.append(name)
        self._values.append(value[:MAX_TEXT] if value else "")
        self._boxes.append(bbox)
        self._parent.append(parent)
        self._states.append(
            (
                -1 if enabled is None else int(enabled),
                -1 if visible is None else int(visible),
                -1 if focused is None else int(focused),
            )
        )
        if self._pids:
            for column, values in self._pids.items():
                values.append(platform_ids.get(column))
        return index

    def extend(
        self,
        *,
        ids: Sequence[str],
        raw_roles: Sequence[str],
        names: Sequence[str],
        parents: Sequence[int],
        boxes: Sequence[Any],
        values: Sequence[str],
        states: Sequence[tuple[int, int, int]],
        platform_ids: Mapping[str, Sequence[str | None]] | None = None,
        roles: Mapping[int, str] | None = None,
        executor_ids: Sequence[str] | None = None,
    ) -> None:
        """Append many rows at once (the fast path for large trees).

        Same contract as :meth:`add`, column-wise: ``parents`` index rows (earlier ones, or
        -1), ``states`` are ``(enabled, visible, focused)`` as 1/0/-1. ``roles`` maps
        positions in these columns to a canonical role that overrides the role tables'
        reading of their raw role (Android: a clickable generic view is a button).
        ``executor_ids`` replaces the default ``executor_prefix + id`` per row.
        """
        n = len(ids)
        offset = len(self._ids)
        if offset + n > self.max_rows:
            raise InvalidObservationError(
                f"the tree has more than {self.max_rows} nodes; raise max_nodes to read it",
                details={"max_nodes": self.max_rows},
            )
        columns = (raw_roles, names, parents, boxes, values, states)
        if any(len(c) != n for c in columns) or (
            executor_ids is not None and len(executor_ids) != n
        ):
            raise InvalidObservationError("table columns have different lengths")
        check = np.asarray(parents, dtype=np.int64).reshape(n)
        if n and ((check < -1).any() or (check >= np.arange(offset, offset + n)).any()):
            raise InvalidObservationError("a row's parent is not an earlier row")
        role_cache, name_cache, platform = self._role_cache, self._name_cache, self.platform
        for raw in set(raw_roles) - role_cache.keys():
            role_cache[raw] = canonical_role(raw, platform)
        canonical = [role_cache[raw] for raw in raw_roles]
        for position, role in (roles or {}).items():
            if role not in ROLE_INDEX:
                raise InvalidObservationError(f"unknown canonical role {role!r}")
            canonical[position] = role
        self._roles.extend(canonical)
        clean: list[str] = []
        for name in names:
            if name:
                cached = name_cache.get(name)
                if cached is None:
                    cached = name_cache[name] = collapse(name)[:MAX_TEXT]
                name = cached
            clean.append(name)
        prefix = self.executor_prefix
        self._ids.extend(ids)
        if executor_ids is not None:
            self._exec.extend(executor_ids)
        else:
            self._exec.extend([prefix + i for i in ids])
        self._raw_roles.extend(raw_roles)
        self._names.extend(clean)
        self._values.extend([v[:MAX_TEXT] if v else "" for v in values])
        self._boxes.extend(boxes)
        self._parent.extend(parents)
        self._states.extend(states)
        given = platform_ids or {}
        for column, column_values in self._pids.items():
            extra = given.get(column)
            column_values.extend(extra if extra is not None else [None] * n)

    def build(
        self, *, coord_space: str = "unknown", screen_size: tuple[float, float] | None = None
    ) -> CandidateTable:
        """Freeze the rows; computes depth and container paths from the parent links."""
        n = len(self._ids)
        parent = np.asarray(self._parent, dtype=np.int32).reshape(n)
        roles, names, parents = self._roles, self._names, self._parent
        content_labels = self._content_labels()
        depth_list = [0] * n
        containers: list[tuple[str, ...]] = [()] * n
        # The path a row hands to its children, computed once per parent.
        child_paths: dict[int, tuple[str, ...]] = {}
        for i in range(n):
            p = parents[i]
            if p < 0:
                continue
            depth_list[i] = depth_list[p] + 1
            path = child_paths.get(p)
            if path is None:
                path = containers[p]
                role_p = roles[p]
                label = names[p] if role_p in CONTAINER_ROLES else ""
                if not label:
                    label = content_labels.get(p, "")
                    if not label and role_p in LANDMARK_ROLES:
                        label = f"[{role_p}]"
                if label:
                    # Keep the nearest few: enough to disambiguate, bounded on deep trees.
                    path = (*path[-(MAX_CONTAINER_DEPTH - 1) :], label[:200])
                child_paths[p] = path
            containers[i] = path
        depth = np.asarray(depth_list, dtype=np.int32).reshape(n)
        states = np.asarray(self._states, dtype=np.int8).reshape(n, 3)
        return CandidateTable(
            source=self.source,
            format=self.format,
            ids=tuple(self._ids),
            executor_ids=tuple(self._exec),
            roles=tuple(roles),
            role_codes=_freeze(np.fromiter((ROLE_INDEX[r] for r in roles), np.int32, count=n)),
            raw_roles=tuple(self._raw_roles),
            names=tuple(names),
            values=tuple(self._values),
            bboxes=_freeze(_box_array(self._boxes)),
            depth=_freeze(depth),
            parent=_freeze(parent),
            enabled=_freeze(np.ascontiguousarray(states[:, 0])),
            visible=_freeze(np.ascontiguousarray(states[:, 1])),
            focused=_freeze(np.ascontiguousarray(states[:, 2])),
            containers=tuple(containers),
            platform_ids={k: tuple(v) for k, v in self._pids.items()},
            coord_space=coord_space,
            screen_size=screen_size,
        )

    def _content_labels(self) -> dict[int, str]:
        """Text content of unnamed rows/list items/articles: their first text leaves.

        Rows are in pre-order, so a subtree is the run of rows after its root whose parent
        is inside it, and a row is a leaf when the next row is not its child; the scan of
        each subtree stops at the first few leaves.
        """
        n = len(self._ids)
        names, roles, parent = self._names, self._roles, self._parent
        wanted = [i for i in range(n) if not names[i] and roles[i] in CONTENT_NAMED_CONTAINERS]
        labels: dict[int, str] = {}
        for start in wanted:
            leaves: list[str] = []
            members = {start}
            i = start + 1
            while i < n and parent[i] in members:
                members.add(i)
                is_leaf = i + 1 >= n or parent[i + 1] != i
                if is_leaf and names[i]:
                    leaves.append(names[i])
                    if len(leaves) >= MAX_CONTEXT_LEAVES:
                        break
                i += 1
            if leaves:
                labels[start] = " ".join(leaves)[:MAX_CONTEXT_CHARS]
        return labels
