"""The matcher's indexes over one :class:`~resolver.table.CandidateTable`, made once per table.

A table is immutable, so everything computed from its columns can be kept with it:
``table.derived(TableIndex)`` returns the one :class:`TableIndex` of that table. Name
look-ups, container vocabularies and geometry are built on first use; per-query vectors that
several references share (same role and signal set) are kept in small bounded caches.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import cached_property, lru_cache
from typing import Any, Final, TypeVar

import numpy as np
import numpy.typing as npt

from .geometry import Box, Geometry
from .roles import role_code as code_of_role
from .table import MAX_ENTRY, CandidateTable, ContainerPaths, Derived, HandedDown, held
from .text import (
    NAME_TIERS,
    collapse,
    collapse_many,
    fuzzy_many,
    item_similarity_many,
    joined_texts,
    mask_digits,
    mask_digits_many,
    normalize,
    normalize_many,
)

__all__ = ["MAX_HEADING", "BoundedCache", "NameColumn", "TableIndex", "heading_key", "index_of"]

FloatArray = npt.NDArray[np.float64]
Index = npt.NDArray[np.intp]
K = TypeVar("K", bound=Hashable)

SHARED_ENTRIES: Final[int] = 16
"""Distinct (role, signals, config) keys a bounded cache keeps per table."""
MAX_ANCESTORS: Final[int] = 12
"""Named ancestors kept per row (the innermost)."""
ENTRY_SIMS: Final[int] = 4096
"""Recorded container entries whose similarities a table keeps."""
MAX_HEADING: Final[int] = 200
"""Characters of a recorded heading kept (a longer one is cut)."""
FUZZY_NAMES: Final[int] = 64
"""Recorded names whose fuzzy agreement with the table's names a table keeps."""
FUZZY_NAMES_EACH: Final[int] = 8_192
"""Row names whose fuzzy agreement a table keeps per recorded name: beyond, they are
compared again when asked (at most :data:`FUZZY_NAMES` x this many numbers are kept)."""
PATH_SCORES: Final[int] = 256
"""Recorded container paths whose scores against every path of the table a table keeps."""
CACHED_CELLS: Final[int] = 1 << 21
"""Array cells a table's name hits, and apart its path scores, keep at most (each cell 8
or 16 bytes): a huge table's queries are remembered for fewer recorded names."""
NAME_ROW_CELLS: Final[int] = 1 << 20
"""Array cells (8 bytes each) a table keeps of its recorded names' agreement with every row
(:attr:`TableIndex.name_rows`): 8 MB, the names of :data:`FUZZY_NAMES` references on a
10k-row table, five on a 200k-row one."""
SEARCHES: Final[int] = 32
"""Name look-ups a column answers by scanning before it is indexed: a scan costs a pass over
the column in C, the index a dict operation per row (about a hundred scans); one resolve
looks up three names."""
SCANNED: Final[int] = 8
"""Values whose scanned rows a column keeps."""
FEW_ROWS: Final[int] = 64
"""A name at most this many rows hold is searched for in the joined column (a loop per row
found); one more rows hold is compared with every row at once."""
COMPARED_CHARS: Final[int] = 1 << 22
"""Characters a look-up compares at most in the joined column (the rows of the value's length
times that length, one numpy pass per character); a longer name many rows hold is compared
as a string with every row's (``NameColumn``)."""


def _codes(column: Sequence[K]) -> dict[K, int]:
    """Each distinct value of ``column`` with its number, in order of first appearance."""
    distinct = dict.fromkeys(column)
    return dict(zip(distinct, range(len(distinct)), strict=True))


def _handed_codes(
    up: npt.NDArray[np.int64], handed: dict[int, tuple[str, ...]]
) -> tuple[dict[tuple[str, ...], int], npt.NDArray[np.int32]]:
    """:func:`_codes` of the rows' paths ``handed[up[r]]`` (in order of first appearance)
    and each row's code, from the labelled rows alone: only the paths they hand down are
    hashed, not a tuple per row."""
    n = len(up)
    values, first = np.unique(up, return_index=True)
    holders = values[np.argsort(first, kind="stable")]  # labelled rows (-1: none), first seen
    held = [handed[row] for row in holders.tolist()]
    seen = _codes(held)
    code_of = np.zeros(n + 1, dtype=np.int32)  # by labelled row + 1 (0: no labelled ancestor)
    code_of[holders + 1] = list(map(seen.__getitem__, held))
    return seen, code_of[up + 1]


class _ValueIndex:
    """Rows by value: one code per row, rows sorted by code, and a slice per value."""

    __slots__ = ("codes", "counts", "order", "row_codes", "starts")

    def __init__(self, column: tuple[str, ...]) -> None:
        self.codes: dict[str, int] = _codes(column)
        self.row_codes = np.fromiter(map(self.codes.__getitem__, column), np.intp, len(column))
        self.order = np.argsort(self.row_codes, kind="stable")
        self.counts = np.bincount(self.row_codes, minlength=len(self.codes))
        self.starts = np.concatenate(([0], np.cumsum(self.counts)))

    def rows(self, value: str) -> Index:
        """Row indices holding ``value`` (empty values are never indexed)."""
        code = self.codes.get(value) if value else None
        if code is None:
            return np.empty(0, dtype=np.intp)
        return self.order[self.starts[code] : self.starts[code + 1]]


class NameColumn:
    """Rows by value of a name column. The first few look-ups scan the column in C, with
    no per-row work in Python: a search of its values joined into one string finds a value
    few rows hold; one many rows hold is found by comparing the joined column's characters
    (when they are ASCII; else its values as an object array) with the value's, a character
    position at a time, for the rows of the value's length. After :data:`SEARCHES` of them,
    or once the codes are asked for, a :class:`_ValueIndex` answers instead.

    ``column`` may be given as a function that makes it, with ``joined``: the values are
    then made only when a look-up needs them (the index, or a column that is not ASCII)."""

    __slots__ = (
        "_array", "_column", "_index", "_joined", "_make", "_plain", "_spans", "found", "searches",
    )  # fmt: skip

    def __init__(
        self,
        column: tuple[str, ...] | Callable[[], tuple[str, ...]],
        joined: tuple[str, str] | None = None,
    ) -> None:
        self._column = column if isinstance(column, tuple) else None
        self._make = None if isinstance(column, tuple) else column
        self.searches = 0
        self.found = BoundedCache(SCANNED)
        """The rows of the last values scanned for (a warm resolve asks for them again)."""
        self._index: _ValueIndex | None = None
        self._joined: tuple[str, str] | None = None
        if joined is not None:  # ``(sep.join(column), sep)``, made with the column
            text, sep = joined
            self._joined = (sep + text + sep, sep)
        self._array: npt.NDArray[np.object_] | None = None
        self._spans: tuple[npt.NDArray[np.uint8], Index, Index] | None = None
        self._plain: bool | None = None  # (whether the joined column is ASCII, once asked)

    @property
    def column(self) -> tuple[str, ...]:
        """The values, one per row (made on first use when given as a function)."""
        if self._column is None:
            assert self._make is not None
            self._column = self._make()
        return self._column

    @property
    def index(self) -> _ValueIndex:
        """The column's :class:`_ValueIndex` (made on first use)."""
        if self._index is None:
            self._index = _ValueIndex(self.column)
        return self._index

    def rows(self, value: str) -> Index:
        """Row indices holding ``value``, ascending (empty values are never indexed)."""
        if not value:
            return np.empty(0, dtype=np.intp)
        if self._index is not None:
            return self.index.rows(value)
        found: Index | None = self.found.get(value)
        if found is not None:
            return found
        if self.searches >= SEARCHES:
            return self.index.rows(value)
        self.searches += 1
        found = self._search(value)
        if found is None:
            found = self._equal(value)
        if found is None:
            if self._array is None:
                self._array = np.array(self.column, dtype=object)
            # (as an object, not a numpy string, which would lose trailing NUL characters)
            scalar = np.empty((), dtype=object)
            scalar[()] = value
            found = np.flatnonzero(self._array == scalar)
        found.setflags(write=False)
        self.found.room()[value] = found
        return found

    def _search(self, value: str) -> Index | None:
        """The rows holding ``value``, found in the joined column (``None`` when more than
        :data:`FEW_ROWS` may hold it, or every separator character is in some value)."""
        if self._joined is None:
            self._joined = _joined(self.column)
        joined, sep = self._joined
        if not sep:
            return None
        if sep in value:  # no value holds the separator
            return np.empty(0, dtype=np.intp)
        needle = sep + value + sep
        if joined.count(needle) > FEW_ROWS:  # (rows side by side count once: a lower bound)
            return None
        rows, row, before = [], 0, 0
        at = joined.find(needle)
        while at >= 0:
            row += joined.count(sep, before, at)  # the separator at ``at`` opens row ``row``
            rows.append(row)
            before = at
            at = joined.find(needle, at + len(needle) - 1)
        return np.asarray(rows, dtype=np.intp)

    def _equal(self, value: str) -> Index | None:
        """The rows holding ``value``, found by comparing characters in the joined column
        (``None`` when it is not at hand or not ASCII, or more than
        :data:`COMPARED_CHARS` characters would be compared)."""
        spans = self._ascii_spans()
        if spans is None:
            return None
        if not value.isascii():
            return np.empty(0, dtype=np.intp)
        codes, starts, lengths = spans
        rows = np.flatnonzero(lengths == len(value))
        if rows.size * len(value) > COMPARED_CHARS:
            return None
        at = starts[rows]
        for position, code in enumerate(value.encode("ascii")):
            same = codes[at + position] == code
            rows, at = rows[same], at[same]
        return rows.astype(np.intp, copy=False)

    def _ascii_spans(self) -> tuple[npt.NDArray[np.uint8], Index, Index] | None:
        """The joined column's characters, and where each row's value starts and how long
        it is; ``None`` when it is not joined or not ASCII."""
        if self._spans is None:
            given = self._joined
            if self._plain is None:
                self._plain = given is not None and bool(given[1]) and given[0].isascii()
            if not self._plain or given is None:
                return None
            joined, sep = given
            codes = np.frombuffer(joined.encode("ascii"), dtype=np.uint8)
            seps = np.flatnonzero(codes == ord(sep))  # (one before each row, one after the last)
            self._spans = (codes, seps[:-1] + 1, np.diff(seps) - 1)
        return self._spans


def _joined(column: tuple[str, ...]) -> tuple[str, str]:
    """``column``'s values each between two separators, and the separator (see
    :func:`~resolver.text.joined_texts`; ``("", "")`` when none fits)."""
    joined, sep = joined_texts(column)
    return (sep + joined + sep, sep) if sep else ("", "")


class BoundedCache(dict[Any, Any]):
    """A dict emptied when it would grow past ``limit`` entries, or past ``budget`` in the
    weights of its entries (the cells of the arrays they hold; per-table query caches)."""

    def __init__(self, limit: int, budget: int | None = None) -> None:
        super().__init__()
        self.limit = limit
        self.budget = limit if budget is None else budget
        self.used = 0

    def room(self, weight: int = 1) -> BoundedCache:
        """This cache, emptied first if an entry of ``weight`` would not fit; the entry is
        counted (the caller stores it next)."""
        if len(self) >= self.limit or self.used + weight > self.budget:
            self.clear()
            self.used = 0
        self.used += weight
        return self


class ContainerVocab:
    """Distinct container paths and entries of a table, for batched path scoring."""

    __slots__ = ("_forms", "landmarks", "mask", "matrix", "norm", "path_of_row", "paths", "raw")

    def __init__(
        self, containers: Sequence[tuple[str, ...]], handed: HandedDown | None = None
    ) -> None:
        if handed is None:
            seen = _codes(containers)
            codes = np.fromiter(map(seen.__getitem__, containers), np.int32, len(containers))
        else:
            seen, codes = _handed_codes(*handed)
        codes.setflags(write=False)
        self.path_of_row = codes
        """Per row, the index of its path in :attr:`paths`."""
        self.paths = tuple(seen)
        index: dict[str, int] = {}
        width = max((len(p) for p in self.paths), default=0)
        matrix = np.full((len(self.paths), max(width, 1)), -1, dtype=np.intp)
        for i, path in enumerate(self.paths):
            for j, entry in enumerate(path):
                matrix[i, j] = index.setdefault(entry, len(index))
        matrix.setflags(write=False)
        self.matrix = matrix
        """Per distinct path, its entry indices padded with -1."""
        self.raw = collapse_many(list(index))
        self.norm = normalize_many(self.raw)
        self.mask = mask_digits_many(self.norm)
        self.landmarks = frozenset(e for e in index if e.startswith("["))
        """The unnamed-landmark tokens (``"[banner]"``) some path holds."""
        self._forms: tuple[frozenset[str], frozenset[str], frozenset[str]] | None = None

    def best_similarity(self, entry: str) -> float:
        """The best container-entry similarity of ``entry`` with any entry here:
        ``item_similarity_many(entry, ...).max()`` (0 without entries).

        An entry here that is the same text, or the same once normalised or digit-masked,
        is a tier no fuzzy agreement reaches (fuzzy values stop at the fuzzy cap, under the
        masked tier): then the best is that tier, known without a fuzzy pass over every
        entry (a page's recorded containers are mostly found as they were)."""
        if not self.raw:
            return 0.0
        q_raw = collapse(entry)
        q_norm = normalize(q_raw)
        if q_norm:  # (an entry of symbols alone is compared in full)
            raw, norm, mask = self._exact_forms()
            if q_raw in raw:
                return NAME_TIERS["exact"]
            if q_norm in norm:
                return NAME_TIERS["normalized"]
            if mask_digits(q_norm) in mask:
                return NAME_TIERS["masked"]
        return float(item_similarity_many(entry, self.raw, self.norm, self.mask).max())

    def _exact_forms(self) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
        """The entries' collapsed, normalised and masked forms, of entries with a
        normalised form (an entry without one agrees with nothing but its equal)."""
        if self._forms is None:
            named = [i for i, n in enumerate(self.norm) if n]
            self._forms = (
                frozenset(self.raw[i] for i in named),
                frozenset(self.norm[i] for i in named),
                frozenset(self.mask[i] for i in named),
            )
        return self._forms


class TableIndex(Derived):
    """Everything the matcher derives from one table's columns (see the module docstring).

    It holds its table weakly (:class:`~resolver.table.Derived`): the table keeps its index
    (:meth:`CandidateTable.derived`), and a reference back would make every table a
    reference cycle, freed only by the cyclic collector (in one long collection, in a
    process that makes many observations) rather than when its last reference goes."""

    def __init__(self, table: CandidateTable) -> None:
        super().__init__(table)
        self.shared_vectors = BoundedCache(SHARED_ENTRIES)
        """Role, state and ID vectors shared by refs with the same signal set."""
        self.bound_orders = BoundedCache(SHARED_ENTRIES)
        """Upper bounds and the row order by them, for the same keys."""
        self.entry_sims = BoundedCache(ENTRY_SIMS)
        """Per recorded container entry, its similarity to every vocabulary entry."""
        self.ancestor_entry_sims = BoundedCache(ENTRY_SIMS)
        """The same against the vocabulary of named ancestors (:attr:`ancestors`)."""
        self.entry_best = (BoundedCache(ENTRY_SIMS), BoundedCache(ENTRY_SIMS))
        """Per recorded container entry, its best agreement with any container entry, and
        with any named ancestor, of the table (see :meth:`agreement`)."""
        self.norms = BoundedCache(ENTRY_SIMS)
        """Recorded names and entries in their comparison form (see :meth:`norm`)."""
        self.symbol_names = BoundedCache(ENTRY_SIMS)
        """Per name of symbols alone, the rows drawn with it (see :meth:`namesakes`)."""
        self.unique_boxes = BoundedCache(ENTRY_SIMS)
        """Per anchor name, the box of the one row with that name (see :meth:`unique_box`)."""
        self.read_boxes = BoundedCache(ENTRY_SIMS)
        """Per anchor name no row bears, where it is read across runs (see :meth:`read_box`)."""
        self.shifts = BoundedCache(ENTRY_SIMS)
        """Per recorded anchors and screen size, how the page moved (``matcher.page_shift``)."""
        self.usable_paths = BoundedCache(ENTRY_SIMS)
        """Per recorded container path and name, the entries that can tell rows apart and
        whether they read as named ancestors (``matcher.Query.build``)."""
        self.fuzzy_names = BoundedCache(FUZZY_NAMES)
        """Per recorded name (normalised), its fuzzy tier against the row names compared
        with it so far (see :meth:`fuzzy_tiers`)."""
        self.path_scores = BoundedCache(PATH_SCORES, CACHED_CELLS)
        """Per recorded container path (and whether it reads as named ancestors), its score
        against each path of the vocabulary it is compared with, NaN until computed."""
        self.namesake_counts = BoundedCache(ENTRY_SIMS)
        """Per recorded name and role, how many elements bear them (``decide.facts``)."""
        self.name_hits = BoundedCache(ENTRY_SIMS, CACHED_CELLS)
        """Per recorded name, the rows that agree with it by lookup (see :meth:`name_tiers`)."""
        self.name_rows = BoundedCache(FUZZY_NAMES, NAME_ROW_CELLS)
        """Per recorded name, its lookup hits and every row's name agreement with it as far
        as resolves have computed it (NaN elsewhere; ``matcher.Scorer``): the references
        of one page repeat their names, and a resolve compares the same rows again. Only
        exact values are stored, each written once it is final."""
        self.role_vectors: dict[tuple[str, float, float], tuple[FloatArray, FloatArray]] = {}
        self.visibility: dict[float, FloatArray] = {}
        self.id_columns: dict[str, npt.NDArray[np.object_]] = {}
        self._id_rows: dict[str, dict[Any, npt.NDArray[np.intp]]] = {}

    def look_alikes(
        self, name_norm: str, role_code: int | None, containers: tuple[str, ...] | None
    ) -> Index:
        """Rows with this normalised name, this role (when given) and exactly this container
        path (any, for ``None``), in document order: the group in which an element's
        :attr:`~resolver.models.SemanticElementRef.occurrence` counts (look-alikes that
        nothing but their order tells apart)."""
        rows = np.sort(self.lookup("norm", name_norm)) if name_norm else np.empty(0, np.intp)
        if role_code is not None and rows.size:
            rows = rows[self.table.role_codes[rows] == role_code]
        if containers is None:
            return rows.astype(np.intp)
        paths = self.table.containers
        return np.asarray([r for r in rows.tolist() if paths[r] == containers], dtype=np.intp)

    def lookup(self, kind: str, key: str) -> Index:
        """Rows whose ``kind`` (``raw``, ``norm`` or ``mask``) name equals ``key``."""
        if kind == "raw":
            # Equal names are equal once normalised: filter the normalised hits.
            norm_key = normalize(key)
            names = self.table.names
            if norm_key:
                rows = self._norms.rows(norm_key)
                return rows[[names[i] == key for i in rows.tolist()]]
            # A name that normalises to nothing equals only names of symbols alone.
            return np.asarray([i for i in self._symbol_rows if names[i] == key], dtype=np.intp)
        if kind == "mask" and "#" not in key and mask_digits(key) == key:
            # A mask without "#" and digits is the mask of no name but itself: the rows
            # with that mask are the rows with that name, and the masks need not be made.
            return self._norms.rows(key)
        return (self._norms if kind == "norm" else self._masks).rows(key)

    def name_tiers(self, raw: str, norm: str, mask: str) -> tuple[Index, FloatArray]:
        """The rows whose name agrees with a recorded one by lookup, sorted, and the tier of
        each (``NAME_TIERS``: exact, else normalised, else digit-masked), remembered: the
        references of one page repeat their names.

        Parameters
        ----------
        raw, norm, mask:
            The recorded name collapsed, normalised and digit-masked (an empty form is not
            looked up).

        Returns
        -------
        tuple of (Index, FloatArray)
            Read-only: the rows, and their tiers.
        """
        cached: tuple[Index, FloatArray] | None = self.name_hits.get((raw, norm, mask))
        if cached is not None:
            return cached
        found: list[tuple[Index, float]] = [
            (self.lookup(kind, key), NAME_TIERS[level])
            for kind, key, level in (
                ("mask", mask, "masked"), ("norm", norm, "normalized"), ("raw", raw, "exact"),
            )
            if key
        ]  # fmt: skip
        marked = np.zeros(len(self.table), dtype=bool)
        for rows, _ in found:
            marked[rows] = True
        hits = np.flatnonzero(marked)  # the rows found, sorted, each once
        tiers = np.empty(hits.size)
        for at, tier in found:  # a better tier's rows are among the worse one's: it wins
            tiers[np.searchsorted(hits, at)] = tier
        hits.setflags(write=False)
        tiers.setflags(write=False)
        self.name_hits.room(max(hits.size, 1))[(raw, norm, mask)] = (hits, tiers)
        return hits, tiers

    def fuzzy_tiers(self, name_norm: str, rows: Index) -> FloatArray:
        """``fuzzy_many(name_norm, names)`` of the normalised names of ``rows`` (exact, no
        floor), each distinct name compared once per table: the references of one page
        repeat their names, and a resolve compares the same rows' names again."""
        known: dict[str, float] | None = self.fuzzy_names.get(name_norm)
        if known is None:
            known = self.fuzzy_names.room()[name_norm] = {}
        names = self.names_norm[rows].tolist()
        todo = [name for name in dict.fromkeys(names) if name not in known]
        if todo:
            found = dict(zip(todo, fuzzy_many(name_norm, todo).tolist(), strict=True))
            if len(known) + len(found) <= FUZZY_NAMES_EACH:
                known.update(found)
            else:  # a huge table's names are compared, not kept
                return np.asarray([known.get(n, found.get(n)) for n in names], np.float64)
        return np.asarray([known[name] for name in names], dtype=np.float64)

    def namesakes(self, name: str) -> Index:
        """Rows with ``name``, compared normalised; a name of symbols alone ("►", "×"), which
        normalises to nothing, is compared as written (whitespace collapsed) with the rows
        whose names are symbols alone too, so that a toggle's look-alikes are the other
        toggles drawn with the same symbol, not every row."""
        norm = self.norm(name)
        if norm:
            return self._norms.rows(norm)
        key = collapse(name)
        if not key:
            return np.empty(0, np.intp)
        rows: Index | None = self.symbol_names.get(key)
        if rows is None:
            names = self.table.names
            rows = np.asarray([r for r in self._symbol_rows if collapse(names[r]) == key], np.intp)
            rows.setflags(write=False)
            self.symbol_names.room()[key] = rows
        return rows

    def unnamed(self, role_code: int) -> Index:
        """Rows of this role without a name, in document order: the look-alikes of an
        unnamed element (a blank text field among blank text fields)."""
        return np.flatnonzero(self._unnamed & (self.table.role_codes == role_code))

    @cached_property
    def rows_by_id(self) -> dict[str, int]:
        """Each row ID's row (the first, should a tree repeat an ID)."""
        ids = self.table.ids
        rows: dict[str, int] = dict(zip(ids, range(len(ids)), strict=True))
        if len(rows) < len(ids):  # a repeated ID: its first row, not its last
            rows = {}
            for row, row_id in enumerate(ids):
                rows.setdefault(row_id, row)
        return rows

    @cached_property
    def headings(self) -> Index:
        """Per row, the nearest named heading before it in reading order (the table's row
        order; a heading the row is inside counts): its row, or -1. A product card's title,
        a section's or a pane's heading: what a block of one kind is about."""
        n = len(self.table)
        if not n:
            return np.empty(0, dtype=np.intp)
        own = np.full(n, -1, dtype=np.intp)
        own[self.heading_rows] = self.heading_rows
        before = np.maximum.accumulate(own)
        return np.concatenate((np.asarray([-1], dtype=np.intp), before[:-1]))

    @cached_property
    def heading_rows(self) -> Index:
        """The rows of role heading with a name, ascending."""
        table = self.table
        mask = (table.role_codes == code_of_role("heading")) & ~self._unnamed
        return np.flatnonzero(mask).astype(np.intp, copy=False)

    def heading_of(self, row: int) -> str | None:
        """The name of the heading before ``row`` (:attr:`headings`), or ``None``."""
        above = int(self.headings[row])
        return self.table.names[above] if above >= 0 else None

    @cached_property
    def _unnamed(self) -> npt.NDArray[np.bool_]:
        return np.asarray([not name.strip() for name in self.table.names], dtype=bool)

    @cached_property
    def _symbol_rows(self) -> list[int]:
        """Rows named by symbols alone (a name that normalises to nothing)."""
        pairs = zip(self.table.names, self.table.names_norm, strict=True)
        return [i for i, (name, norm) in enumerate(pairs) if name and not norm]

    def norm(self, text: str) -> str:
        """``normalize(collapse(text))``, remembered: the references of one page repeat their
        container entries and anchors."""
        cached: str | None = self.norms.get(text)
        if cached is None:
            cached = self.norms.room()[text] = normalize(collapse(text))
        return cached

    def unique_box(self, name: str) -> Box | None:
        """The box of the one row whose normalised name is ``name``'s (``None`` when no row
        or several have it, or its box is unknown): where an anchor is now. When no row has
        it, a table of text read from pixels may find it among other words of one run
        (:attr:`~resolver.table.CandidateTable.text_finder`)."""
        if name in self.unique_boxes:
            found: Box | None = self.unique_boxes[name]
            return found
        rows = self.lookup("norm", self.norm(name))
        rows = rows[~self.repeats_parent[rows]]
        found = self.table.box(int(rows[0])) if rows.size == 1 else None
        finder = self.table.text_finder
        if not rows.size and finder is not None:
            found = finder(self.table, name, False)  # read among other words of one run
        self.unique_boxes.room()[name] = found
        return found

    def read_box(self, name: str) -> Box | None:
        """:meth:`unique_box`, or, when no row bears ``name``, where a table of text read
        from pixels reads it across runs (a text wrapped over lines, read one run per
        line). Not for the page's shift: a text found so is asked only whether it is still
        where it was (``decide.drawn.anchors_in_place``)."""
        found = self.unique_box(name)
        finder = self.table.text_finder
        if found is not None or finder is None:
            return found
        if name not in self.read_boxes:
            rows = self.lookup("norm", self.norm(name))
            self.read_boxes.room()[name] = None if rows.size else finder(self.table, name, True)
        read: Box | None = self.read_boxes[name]
        return read

    @cached_property
    def _norms(self) -> NameColumn:
        return NameColumn(self.table.names_norm, self.table.names_joined("norm"))

    @cached_property
    def _masks(self) -> NameColumn:
        # (the masked names as strings only once a look-up needs them: the joined text
        # answers the first ones; the table is reached through the index, held weakly)
        kept = self._table
        return NameColumn(lambda: held(kept).names_mask, self.table.names_joined("mask"))

    @property
    def _by_norm(self) -> _ValueIndex:
        return self._norms.index

    @cached_property
    def norm_codes(self) -> tuple[Index, tuple[str, ...]]:
        """Per row, a code for its normalised name, and the names by code: each distinct
        name once, for comparing many rows' names without repeats."""
        by_norm = self._by_norm
        return by_norm.row_codes, tuple(by_norm.codes)

    @cached_property
    def repeats_parent(self) -> npt.NDArray[np.bool_]:
        """Rows whose normalised name is their parent's, not empty: the text inside a link, a
        button or a heading of an accessibility tree, one element's name seen twice."""
        names, parent = self.names_norm, self.table.parent
        inside = parent >= 0
        repeats: npt.NDArray[np.bool_] = np.zeros(len(names), dtype=np.bool_)
        repeats[inside] = names[inside] == names[parent[inside]]  # (the strings, compared in C)
        repeats &= ~self.empty_names
        return repeats

    @cached_property
    def unique_named(self) -> npt.NDArray[np.bool_]:
        """Rows whose normalised name is not empty and no other row has (a row repeating
        its parent's name, :attr:`repeats_parent`, is not another), and whose box is known:
        the anchors a recorder can store and find again."""
        by_norm, repeats = self._by_norm, self.repeats_parent
        counts = np.bincount(by_norm.row_codes[~repeats], minlength=len(by_norm.codes))
        unique: npt.NDArray[np.bool_] = counts[by_norm.row_codes] == 1
        unique &= ~repeats
        unique &= ~self.empty_names
        unique &= ~np.isnan(self.table.bboxes[:, 0])
        return unique

    @cached_property
    def containers(self) -> ContainerVocab:
        """Distinct container paths and entries."""
        paths = self.table.containers
        if isinstance(paths, ContainerPaths):  # (each row's path from the labelled rows)
            return ContainerVocab(paths, paths.handed_down())
        return ContainerVocab(paths)

    @cached_property
    def ancestors(self) -> ContainerVocab:
        """Per row, the names of all its named ancestors, whatever their role (outermost first,
        the innermost few kept): the container path as recorders that keep every named
        ancestor (a Chrome extension, a plain CDP shim) write it."""
        table = self.table
        names, parent = table.names, table.parent.tolist()
        paths: list[tuple[str, ...]] = [()] * len(names)
        for i, p in enumerate(parent):
            if p >= 0:
                above = paths[p]
                name = names[p]
                paths[i] = (*above[-(MAX_ANCESTORS - 1) :], name[:MAX_ENTRY]) if name else above
        return ContainerVocab(tuple(paths))

    def agreement(self, entry: str, ancestors: bool) -> float:
        """How well ``entry`` agrees with the table's best container entry, or with
        ``ancestors`` its best named ancestor (container-entry similarity, so vague agreement
        counts for little; the named ancestors' vocabulary is made only when some entry is
        asked of it)."""
        cache = self.entry_best[ancestors]
        cached: float | None = cache.get(entry)
        if cached is None:
            vocab = self.ancestors if ancestors else self.containers
            cached = cache.room()[entry] = vocab.best_similarity(entry)
        return cached

    def known(self, entry: str, level: float) -> bool:
        """Whether ``entry`` agrees at ``level`` or better with a container entry or a named
        ancestor of the table, the named ancestors asked only when no container entry
        does."""
        return self.agreement(entry, False) >= level or self.agreement(entry, True) >= level

    @cached_property
    def geometry(self) -> Geometry:
        """Edges, centres and sizes of every row's box."""
        return Geometry.of(self.table.bboxes)

    @cached_property
    def names_norm(self) -> npt.NDArray[np.object_]:
        """Normalised names as an object array (for fancy indexing)."""
        return np.array(self.table.names_norm, dtype=object)

    @cached_property
    def empty_names(self) -> npt.NDArray[np.bool_]:
        """Rows without a name."""
        names = self.table.names_norm
        return np.fromiter(map(operator.not_, names), bool, count=len(names))

    @cached_property
    def has_containers(self) -> FloatArray:
        """1 where a row's container path is evidence. In a tree where most rows sit in named
        containers, an empty path is evidence too (a top-level element); in a flat one
        (Android views, OSWorld's table, aria snapshots) it only means the format has no
        containers."""
        paths = self.table.containers
        if isinstance(paths, ContainerPaths):  # (a path is empty without a labelled ancestor)
            present = (paths.handed_down()[0] >= 0).astype(np.float64)
        else:
            present = np.fromiter(map(bool, paths), np.float64, count=len(paths))
        if self.table.groups_by_title:
            # Groups named only where their title is seen (a window may cut it off): an
            # empty path there says nothing.
            return present
        return present if present.size and present.mean() < 0.5 else np.ones(present.size)

    def id_column(self, column: str) -> npt.NDArray[np.object_]:
        """A platform-ID column in its comparison form (see ``CandidateTable.id_keys``)."""
        cached = self.id_columns.get(column)
        if cached is None:
            table = self.table
            key = table.id_keys.get(column)
            values = table.platform_ids[column]
            if key is not None:
                values = tuple(key(v) if v else v for v in values)
            cached = self.id_columns[column] = np.array(values, dtype=object)
        return cached

    def id_hits(self, column: str, value: Any) -> npt.NDArray[np.float64]:
        """1.0 for the rows whose ``column`` (in comparison form) equals ``value``, else 0.0
        (the rows by value are made once per column, not compared row by row per ref)."""
        hits = np.zeros(len(self.table))
        hits[self.id_rows(column, value)] = 1.0
        return hits

    def id_rows(self, column: str, value: Any) -> npt.NDArray[np.intp]:
        """The rows whose ``column`` (in comparison form) equals ``value``, in row order
        (none for ``None``), looked up in the column's rows by value, made once per column
        (read-only arrays: the index keeps them)."""
        by_value = self._id_rows.get(column)
        if by_value is None:
            by_value = rows_by_value(self.id_column(column).tolist())
            for found in by_value.values():
                found.flags.writeable = False
            self._id_rows[column] = by_value  # whole, for other threads
        rows = by_value.get(value) if value is not None else None
        return _NO_ROWS if rows is None else rows


_NO_ROWS: npt.NDArray[np.intp] = np.empty(0, dtype=np.intp)
_NO_ROWS.flags.writeable = False


def rows_by_value(values: Iterable[Hashable | None]) -> dict[Any, npt.NDArray[np.intp]]:
    """The rows of each value (``None`` left out), in row order: what a column is looked up
    by, made once, instead of comparing every row with a value per reference.

    >>> {k: v.tolist() for k, v in rows_by_value(["a", None, "b", "a"]).items()}
    {'a': [0, 3], 'b': [2]}
    """
    grouped: dict[Any, list[int]] = {}
    for row, value in enumerate(values):
        if value is not None:
            grouped.setdefault(value, []).append(row)
    return {k: np.asarray(v, dtype=np.intp) for k, v in grouped.items()}


def index_of(table: CandidateTable) -> TableIndex:
    """The :class:`TableIndex` of ``table`` (made on first use, then kept with it)."""
    return table.derived(TableIndex)


@lru_cache(maxsize=4096)
def heading_key(text: str | None) -> str | None:
    """A heading's text in its comparison form, cut as a reference cuts it (remembered: a
    reference's heading is asked of by several rules); what recorders and rules compare."""
    if text is None:
        return None
    return normalize(" ".join(text.split())[:MAX_HEADING]) or None
