"""CandidateTable: the columnar, immutable currency between adapters and the matcher.

Adapters turn raw observations into a table with :class:`TableBuilder`; the matcher reads
tables and knows no platform. Rows are in tree pre-order (a parent comes before its children).

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

MAX_CONTEXT_LEAVES: Final[int] = 12  # text leaves joined into a content-named container label
MAX_CONTAINER_DEPTH: Final[int] = 12  # container paths keep the innermost entries
MAX_TEXT: Final[int] = 2000  # names longer than this are cut: they are paragraphs, not labels


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
            cached = tuple(mask_digits(n) if n else n for n in self.names_norm)
            self._cache["names_mask"] = cached
        return cached

    def lookup(self, kind: str, key: str) -> npt.NDArray[np.intp]:
        """Rows whose ``kind`` (``raw``, ``norm`` or ``mask``) name equals ``key``."""
        index_name = f"index_{kind}"
        index = self._cache.get(index_name)
        if index is None:
            column = {"raw": self.names, "norm": self.names_norm, "mask": self.names_mask}[kind]
            lists: dict[str, list[int]] = {}
            for i, value in enumerate(column):
                if value:
                    lists.setdefault(value, []).append(i)
            index = {k: np.asarray(v, dtype=np.intp) for k, v in lists.items()}
            self._cache[index_name] = index
        found = index.get(key)
        return found if found is not None else np.empty(0, dtype=np.intp)

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


def _tri(value: bool | None) -> int:
    return -1 if value is None else int(bool(value))


def _clean_box(box: Sequence[float] | None) -> tuple[float, float, float, float]:
    """A valid box or four NaNs (inverted, infinite or malformed boxes count as unknown)."""
    nan = math.nan
    if box is None:
        return (nan, nan, nan, nan)
    try:
        left, top, right, bottom = (float(v) for v in box)
    except (TypeError, ValueError):
        return (nan, nan, nan, nan)
    if not all(map(math.isfinite, (left, top, right, bottom))) or right < left or bottom < top:
        return (nan, nan, nan, nan)
    return (left, top, right, bottom)


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
        self._boxes: list[tuple[float, float, float, float]] = []
        self._parent: list[int] = []
        self._enabled: list[int] = []
        self._visible: list[int] = []
        self._focused: list[int] = []
        self._pids: dict[str, list[str | None]] = {name: [] for name in id_columns}
        self._role_cache: dict[str, str] = {}

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
        """Append one row and return its index. ``parent`` must be an earlier row or -1."""
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
        self._ids.append(id)
        self._exec.append(executor_id if executor_id is not None else self.executor_prefix + id)
        self._roles.append(role)
        self._raw_roles.append(raw_role)
        name = collapse(name) if name else ""
        self._names.append(name[:MAX_TEXT])
        self._values.append(value[:MAX_TEXT] if value else "")
        self._boxes.append(_clean_box(bbox))
        self._parent.append(parent)
        self._enabled.append(_tri(enabled))
        self._visible.append(_tri(visible))
        self._focused.append(_tri(focused))
        for column, values in self._pids.items():
            values.append(platform_ids.get(column))
        return index

    def build(
        self, *, coord_space: str = "unknown", screen_size: tuple[float, float] | None = None
    ) -> CandidateTable:
        """Freeze the rows; computes depth and container paths from the parent links."""
        n = len(self._ids)
        parent = np.asarray(self._parent, dtype=np.int32).reshape(n)
        depth = np.zeros(n, dtype=np.int32)
        containers: list[tuple[str, ...]] = []
        roles, names = self._roles, self._names
        content_labels = self._content_labels()
        for i in range(n):
            p = self._parent[i]
            if p < 0:
                containers.append(())
                continue
            depth[i] = depth[p] + 1
            path = containers[p]
            label = names[p] if roles[p] in CONTAINER_ROLES and names[p] else ""
            if not label:
                label = content_labels.get(p, "")
            if not label and roles[p] in LANDMARK_ROLES:
                label = f"[{roles[p]}]"
            if label:
                # Keep the nearest few: enough to disambiguate, bounded on deep trees.
                path = (*path[-(MAX_CONTAINER_DEPTH - 1) :], label[:200])
            containers.append(path)
        boxes = np.asarray(self._boxes, dtype=np.float64).reshape(n, 4)
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
            bboxes=_freeze(boxes),
            depth=_freeze(depth),
            parent=_freeze(parent),
            enabled=_freeze(np.asarray(self._enabled, dtype=np.int8).reshape(n)),
            visible=_freeze(np.asarray(self._visible, dtype=np.int8).reshape(n)),
            focused=_freeze(np.asarray(self._focused, dtype=np.int8).reshape(n)),
            containers=tuple(containers),
            platform_ids={k: tuple(v) for k, v in self._pids.items()},
            coord_space=coord_space,
            screen_size=screen_size,
        )

    def _content_labels(self) -> dict[int, str]:
        """Text content of unnamed rows/list items/articles (their first text leaves)."""
        n = len(self._ids)
        wanted = [
            i for i in range(n) if not self._names[i] and self._roles[i] in CONTENT_NAMED_CONTAINERS
        ]
        if not wanted:
            return {}
        parent = self._parent
        has_child = [False] * n
        for i in range(n):
            if parent[i] >= 0:
                has_child[parent[i]] = True
        labels: dict[int, str] = {}
        for start in wanted:
            # Pre-order: the subtree of ``start`` is the run of rows deeper than it.
            leaves: list[str] = []
            members = {start}
            i = start + 1
            while i < n and parent[i] in members:
                members.add(i)
                if not has_child[i] and self._names[i] and len(leaves) < MAX_CONTEXT_LEAVES:
                    leaves.append(self._names[i])
                i += 1
            if leaves:
                labels[start] = " ".join(leaves)[:200]
        return labels
