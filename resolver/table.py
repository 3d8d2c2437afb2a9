"""CandidateTable: the columnar, immutable currency between adapters and the matcher.

Adapters turn raw observations into a table with :class:`TableBuilder`; the matcher reads
tables and knows no platform. Rows are in tree pre-order (a parent comes before its children,
and a subtree is one run of rows).

Columns (N rows):

=================  =====================  ==================================================
column             type                   meaning
=================  =====================  ==================================================
``ids``            sequence[str]          the source's own node ID, as the tree spells it
                                          (a child-index path, :class:`RowPaths`, for a
                                          tree whose nodes name none: a row's made when read)
``executor_ids``   tuple[str]             what an executor acts on (``a11y:7``, ``xpath:/...``)
``roles``          tuple[str]             canonical role (see :mod:`resolver.roles`)
``role_codes``     int32[N]               index of the role in ``roles.ROLES``
``raw_roles``      tuple[str]             the platform's own spelling
``names``          tuple[str]             accessible name, whitespace collapsed
``values``         tuple[str]             current value/text where the platform has one
``bboxes``         float64[N, 4]          ``[left, top, right, bottom]``; NaN where unknown
``depth``          int32[N]               0 for roots (made when first read)
``parent``         int32[N]               row index of the parent; -1 for roots
``enabled``        int8[N]                1 / 0 / -1 (unknown); same for ``visible``, ``focused``
``containers``     sequence[tuple[str]]   named (or landmark) ancestors, outermost first
                                          (:class:`ContainerPaths`: a row's made when read)
``platform_ids``   dict[str, tuple]       e.g. ``automation_id``, ``dom_id``, ``xpath``,
                                          ``backend_node_id``; None where a row has none
=================  =====================  ==================================================

What the builder had to repair or drop to make the columns is counted in
:attr:`CandidateTable.diagnostics` (see :data:`DIAGNOSTICS`).
"""

from __future__ import annotations

import math
import numbers
import operator
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import compress, repeat
from typing import Any, Final, Literal, TypeVar

import numpy as np
import numpy.typing as npt

from .errors import InvalidObservationError
from .geometry import Box, CoordSpace, boxes_overlap, uncovered_point
from .roles import (
    CONTAINER_ROLES,
    CONTENT_NAMED_CONTAINERS,
    DIALOG_ROLES,
    LANDMARK_ROLES,
    PANEL_ROLES,
    ROLE_INDEX,
    ROLES,
    SUMMARY_ROLES,
    canonical_role,
)
from .text import (
    Joined,
    collapse_joined,
    collapse_many,
    mask_digits_joined,
    mask_digits_text,
    normalize_joined,
)

__all__ = [
    "DIAGNOSTICS",
    "NO_STATE",
    "CandidateTable",
    "ContainerPaths",
    "Derived",
    "HandedDown",
    "LazyColumns",
    "RowPaths",
    "TableBuilder",
    "check_rows",
    "describe_diagnostics",
    "held",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int32]
TriArray = npt.NDArray[np.int8]

MAX_CONTEXT_LEAVES: Final[int] = 8  # text leaves joined into a content-named container label
MAX_CONTEXT_CHARS: Final[int] = 120  # ... and at most this long
MAX_CONTAINER_DEPTH: Final[int] = 12  # container paths keep the innermost entries
MAX_TEXT: Final[int] = 2000  # names longer than this are cut: they are paragraphs, not labels
MAX_ENTRY: Final[int] = 200
"""Characters kept of a container entry or a named ancestor; the matcher cuts a recorded
path's entries alike before comparing them, so a long ancestor name agrees with itself."""


States = tuple[int, int, int]
NO_STATE: Final[States] = (-1, -1, -1)
"""``(enabled, visible, focused)`` all unknown."""

T = TypeVar("T")

DIAGNOSTICS: Final[Mapping[str, tuple[str, str, str]]] = {
    "box_malformed": ("box not four numbers", "boxes not four numbers", "dropped"),
    "box_not_finite": ("box not finite", "boxes not finite", "dropped"),
    "box_inverted": ("box inverted", "boxes inverted", "dropped"),
    "name_not_text": ("name not text", "names not text", "converted"),
    "name_cut": (f"name over {MAX_TEXT} characters", f"names over {MAX_TEXT} characters", "cut"),
    "value_cut": (f"value over {MAX_TEXT} characters", f"values over {MAX_TEXT} characters", "cut"),
    "role_unknown": ("role unknown", "roles unknown", "read as unknown"),
}
"""The keys of :attr:`CandidateTable.diagnostics`, in the order they are listed, each with
its words (one, many, what was done) for :func:`describe_diagnostics`."""


def describe_diagnostics(diagnostics: Mapping[str, int]) -> str:
    """The counts in words: ``"3 boxes not finite (dropped), 2 names not text (converted)"``
    (a key outside :data:`DIAGNOSTICS` is shown as ``key: count``; ``""`` when empty)."""
    parts = []
    for key, count in diagnostics.items():
        words = DIAGNOSTICS.get(key)
        if words is None:
            parts.append(f"{key}: {count}")
        else:
            parts.append(f"{count} {words[0] if count == 1 else words[1]} ({words[2]})")
    return ", ".join(parts)


def check_rows(count: int, max_rows: int) -> None:
    """Refuse a tree of more than ``max_rows`` nodes (the one place this limit is checked)."""
    if count > max_rows:
        raise InvalidObservationError(
            f"the tree has more than {max_rows} nodes; raise max_nodes to read it",
            details={"max_nodes": max_rows},
        )


def _freeze(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    array.setflags(write=False)
    return array


class Derived:
    """Something made of a table and kept with it (``table.derived(kind)``), which refers to
    its table weakly: a table and what it keeps that referred back to it made a reference
    cycle, left to the cyclic collector, and an observation held while another was built
    was moved with its tables to the collector's oldest generation (a page scrolled a view
    at a time kept every view's tables until a full collection)."""

    def __init__(self, table: CandidateTable) -> None:
        self._table = weakref.ref(table)

    @property
    def table(self) -> CandidateTable:
        """The table; a ``ReferenceError`` once it is gone (use it through a table you
        hold)."""
        return held(self._table)


def held(table: weakref.ref[CandidateTable]) -> CandidateTable:
    """The table a weak reference holds; a ``ReferenceError`` once it is gone."""
    found = table()
    if found is None:
        raise ReferenceError("the table this was made of is gone: keep the table")
    return found


def _executor_rows(table: CandidateTable) -> dict[str, int]:
    """Each executor ID's first row (see :meth:`CandidateTable.executor_row`)."""
    rows: dict[str, int] = {}
    for row, executor_id in enumerate(table.executor_ids):
        rows.setdefault(executor_id, row)
    return rows


_DESKTOP_SPACES: Final = (CoordSpace.SCREEN_PX, CoordSpace.SCREEN_POINTS)
"""Coordinate spaces whose boxes are where things are drawn on the screen now (a page's
boxes scroll with it)."""


def _desktop_points(table: CandidateTable) -> bool:
    """Whether a click point on this table may differ from a box's centre
    (:meth:`CandidateTable.click_point`): a desktop's tree with a dialog or a row said not
    to be on the screen."""
    if table.coord_space not in _DESKTOP_SPACES:
        return False
    return bool(table.derived(_screen_dialogs)) or bool((table.visible == 0).any())


def _screen_dialogs(table: CandidateTable) -> tuple[int, ...]:
    """The dialog rows with a box, not said to be hidden, of a table whose boxes are where
    things are drawn on the screen now (see :meth:`CandidateTable.dialogs_over`); none for
    any other table."""
    if table.coord_space not in _DESKTOP_SPACES:
        return ()
    dialog = np.isin(table.role_codes, _DIALOG_CODES)
    dialog &= table.bboxes[:, 0] == table.bboxes[:, 0]  # (NaN: no box)
    dialog &= table.visible != 0  # (one said to be hidden covers nothing)
    return tuple(np.flatnonzero(dialog).tolist())


_DIALOG_CODES: Final = np.array(sorted(ROLE_INDEX[r] for r in DIALOG_ROLES), dtype=np.int32)

_OWNER_ROLES: Final[frozenset[str]] = DIALOG_ROLES | {"window", "application"}
"""What a dialog belongs to when it is not the whole tree: the window (or application) it
is drawn over."""

Column = tuple[str | None, ...]


class LazyColumns(Mapping[str, Column]):
    """``platform_ids`` of which some columns are read from elsewhere on first use.

    ``eager`` holds the columns at hand; ``lazy`` names the others, which ``make`` gives
    all at once (a mapping holding each of them) the first time one of them is read. A name
    in both is ``make``'s (it may merge the eager value in). Membership and iteration never
    call ``make``, so a table reports every column it can give; values are the same
    whenever they are read. Copied or pickled, it is a plain ``dict`` (every column read).
    """

    def __init__(
        self,
        eager: Mapping[str, Column],
        lazy: Sequence[str],
        make: Callable[[], Mapping[str, Column]],
    ) -> None:
        self._eager = dict(eager)
        self._lazy = tuple(dict.fromkeys(lazy))
        self._names = frozenset(self._lazy)
        self._make: Callable[[], Mapping[str, Column]] | None = make
        self._made: dict[str, Column] | None = None
        self._lock = threading.Lock()

    @property
    def made(self) -> bool:
        """Whether the lazy columns have been made."""
        return self._made is not None

    def _columns(self) -> Mapping[str, Column]:
        with self._lock:
            if self._made is None:
                assert self._make is not None
                self._made = dict(self._make())
                self._make = None  # (nothing more is kept alive for it)
            return self._made

    def __getitem__(self, key: str) -> Column:
        if key in self._names:
            return self._columns()[key]
        return self._eager[key]

    def __contains__(self, key: object) -> bool:
        return key in self._names or key in self._eager

    def __iter__(self) -> Iterator[str]:
        yield from self._eager
        yield from (name for name in self._lazy if name not in self._eager)

    def __len__(self) -> int:
        return len(self._eager) + sum(name not in self._eager for name in self._lazy)

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self.items()),))


@dataclass(frozen=True, eq=False)
class CandidateTable:
    """One observation seen through one source, as columns. Build it with :class:`TableBuilder`."""

    source: str
    format: str
    ids: Sequence[str]
    executor_prefix: str
    """What an executor ID is made of by default: this prefix and the row's ID."""
    executor_overrides: Mapping[int, str]
    """The rows whose executor ID is not the default one (see :attr:`executor_ids`)."""
    roles: tuple[str, ...]
    role_codes: IntArray
    raw_roles: tuple[str, ...]
    names: tuple[str, ...]
    values: tuple[str, ...]
    bboxes: FloatArray
    parent: IntArray
    enabled: TriArray
    visible: TriArray
    focused: TriArray
    containers: Sequence[tuple[str, ...]]
    platform_ids: Mapping[str, tuple[str | None, ...]]
    coord_space: CoordSpace = CoordSpace.UNKNOWN
    screen_size: tuple[float, float] | None = None
    document_name: str = ""
    """The name of the document or window that holds every row, where no row stands for it
    (the DOM source's page title; an accessibility tree has a root row instead). Recorders
    that write every named ancestor start their container paths with it."""
    id_keys: Mapping[str, Callable[[str], str]] = field(default_factory=dict, repr=False)
    """Per platform-ID column, the function that turns a value into its comparison form
    (the DOM adapter's XPath normalisation); columns not listed compare as they are."""
    selector_resolver: Callable[[str, str], Sequence[int]] | None = field(
        default=None, repr=False, compare=False
    )
    """Sources that can run selectors (the DOM) set this: ``(kind, selector) -> rows`` with
    ``kind`` ``"css"`` or ``"xpath"``; the chain uses it to verify a ref's recorded selectors."""
    window: tuple[float, float, float, float] | None = None
    """The region of the input this table covers when it is a hint window around the
    recorded box (``None``: the whole input). A window may cut off what lies around an
    answer (a group's title, a look-alike), so rules judge it more cautiously."""
    label_named_roles: frozenset[str] = frozenset()
    """Roles this source names by the label beside the element rather than by text of its
    own (a screenshot's text fields, checkboxes): such a row bears a neighbour's name by
    design."""
    groups_by_title: bool = False
    """The source names a row's groups only by the titles and headings it sees (a
    screenshot): a title out of view, or cut off by a window, leaves a row without its
    group. An empty container path is then no evidence, a recorded group that no row shows
    says nothing, and an answer outside the recorded group is judged by whether it has
    look-alikes and moved."""
    names_read: bool = False
    """The names are text the source read from pixels (a screenshot's OCR): an element
    whose text is not drawn has no name here, and an answer for a named reference must bear
    the name as read (``refuse.name_unread``)."""
    text_finder: Callable[[CandidateTable, str, bool], Box | None] | None = field(
        default=None, repr=False, compare=False
    )
    """Sources whose rows are runs of text read from pixels (a screenshot) set this:
    ``(table, text, across) -> box`` finds a text that no row reads whole but one run reads
    among other words (a neighbour's text read together with the line it stands in), and
    gives the box of its own words; with ``across``, also a text that runs read together
    (a headline wrapped over two lines); ``None`` when no run or several do. An anchor is
    looked for so when no row bears its name: in one run for the page's shift
    (:meth:`~resolver.index.TableIndex.unique_box`), across runs too when whether it is
    still in place is asked (:meth:`~resolver.index.TableIndex.read_box`)."""
    marks: tuple[Box, ...] = field(default=(), repr=False, compare=False)
    """Sources that see pixels (a screenshot) set this, for the whole input: the boxes of
    whatever is drawn with a clear gap all around it (an icon, a logo, a button's border
    with its caption), in table units, whether or not a row stands for it
    (:mod:`resolver.adapters.vision.marks`). Rules compare them with a recorded box."""
    rereadings: frozenset[int] = field(default=frozenset(), repr=False, compare=False)
    """Rows that read again, as elements of their own, parts of the text their parent row
    reads (a screenshot's pictures side by side that OCR read as one run, each named by its
    part): one ink, one text in reading order, so neighbour-text evidence leaves them out
    (:class:`~resolver.web.NearbyIndex`)."""
    native: object | None = field(default=None, repr=False, compare=False)
    """The source's own model of the observation, for code of the same source (the DOM
    adapter keeps its page analysis here, for selectors)."""
    diagnostics: Mapping[str, int] = field(default_factory=dict)
    """How many rows the builder had to repair or drop a field of, by kind (only kinds that
    happened; empty for a clean input):

    - ``box_malformed``: a box that is not four numbers; stored as unknown.
    - ``box_not_finite``: a box with a NaN or infinite coordinate, or whose size or area is
      too large for a float; stored as unknown.
    - ``box_inverted``: a box whose right is left of its left or bottom above its top (a
      negative size); stored as unknown, never swapped.
    - ``name_not_text``: a name that is not a string (``None`` is no name and not counted):
      a finite number is written as text, anything else read as no name.
    - ``name_cut``, ``value_cut``: a name (after its whitespace is collapsed) or value longer
      than :data:`MAX_TEXT` characters; cut to that length.
    - ``role_unknown``: a role that no role table knows; read as ``unknown`` (a role spelled
      as unknown, such as ``ROLE_UNKNOWN``, is not counted, nor is a missing one).

    Adapters may add counts of their own (:meth:`TableBuilder.note`). The resolution's trace
    entry for the source carries them and :func:`describe_diagnostics` words them."""
    _joined_names: tuple[tuple[str, ...], str, str] | None = field(
        default=None, repr=False, compare=False
    )
    """``(names, joined, sep)``: the names as the builder cleaned them, joined by a separator
    none of them holds, for their normalised forms; read only while :attr:`names` is that
    same tuple (a table made from this one with other names joins its own)."""
    _derived: dict[type, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.ids)

    @cached_property
    def depth(self) -> IntArray:
        """Per row, its number of ancestors (0 for roots), from :attr:`parent`; made when
        first read."""
        sums = ancestor_sums(self.parent.astype(np.int64), np.ones(len(self), dtype=np.int64))
        assert sums is not None  # (parents are earlier rows: every chain ends)
        return _freeze((sums - 1).astype(np.int32))

    @cached_property
    def executor_ids(self) -> tuple[str, ...]:
        """What an executor acts on, per row (``a11y:7``, ``xpath:/...``): made when first
        asked for; a resolve reads only its answers' (:meth:`executor_id`)."""
        prefix = self.executor_prefix
        made = [prefix + i for i in self.ids]
        for row, executor_id in self.executor_overrides.items():
            made[row] = executor_id
        return tuple(made)

    def executor_id(self, row: int) -> str:
        """The executor ID of one row (without making the whole column)."""
        own = self.ids[row]  # (a row out of range raises IndexError, as an index)
        if self.executor_overrides:
            override = self.executor_overrides.get(row if row >= 0 else row + len(self.ids))
            if override is not None:
                return override
        return self.executor_prefix + own

    def __repr__(self) -> str:
        return f"CandidateTable(source={self.source!r}, format={self.format!r}, rows={len(self)})"

    def executor_row(self, executor_id: str) -> int | None:
        """The first row with this executor ID (a DOM element's text row shares its
        element's), from a map built once per table; ``None`` when no row has it."""
        return self.derived(_executor_rows).get(executor_id)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled and copied without what was derived from the columns (made again when
        asked for; an index refers to its own table, weakly)."""
        return {k: v for k, v in self.__dict__.items() if k != "_derived"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        object.__setattr__(self, "_derived", {})

    def derived(self, kind: Callable[[CandidateTable], T]) -> T:
        """``kind(self)``, made once per table and kept with it (indexes the matcher or a
        source computes from the columns; the table is immutable, so they never go stale)."""
        cached = self._derived.get(kind)  # type: ignore[call-overload]
        if cached is None:
            cached = self._derived[kind] = kind(self)  # type: ignore[index]
        return cached  # type: ignore[no-any-return]

    # -- derived columns, computed once on first use -----------------------------------------

    @property
    def xpaths(self) -> tuple[str | None, ...]:
        """Absolute XPath per row where the source knows it (``None`` elsewhere)."""
        return self.platform_ids.get("xpath", (None,) * len(self))

    @property
    def document_paths(self) -> tuple[str | None, ...] | None:
        """Each row's place in its document (absolute XPath, ``None`` for a row without
        one), where the source knows rows by their element: the DOM, an accessibility tree
        linked to it. ``None`` when the source does not (a desktop tree, a screenshot):
        then nothing can be said of a recorded xpath either way. Sources fill the
        ``xpath`` platform-ID column to offer it."""
        return self.platform_ids.get("xpath")

    @cached_property
    def names_norm(self) -> tuple[str, ...]:
        """Normalised names (see :func:`resolver.text.normalize`)."""
        return tuple(self._norms_joined.texts)

    @cached_property
    def names_mask(self) -> tuple[str, ...]:
        """Normalised names with digit runs masked."""
        text = self._mask_text
        if text is not None:
            return tuple(text.split(self._norms_joined.sep))
        return tuple(self._masks_joined.texts)

    @cached_property
    def _mask_text(self) -> str | None:
        """:attr:`names_mask` joined by the normalised names' separator, when the names
        are ASCII and were joined (a look-up reads it without a string per row)."""
        return mask_digits_text(self._norms_joined)

    @cached_property
    def _norms_joined(self) -> Joined:
        kept = self._joined_names
        given = kept[1:] if kept is not None and kept[0] is self.names else None
        return normalize_joined(self.names, given)

    @cached_property
    def _masks_joined(self) -> Joined:
        return mask_digits_joined(self._norms_joined)

    def names_joined(self, form: Literal["norm", "mask"]) -> tuple[str, str] | None:
        """The ``"norm"`` or ``"mask"`` names joined by a separator none of them holds, and
        it, when making them left that at hand (``None`` otherwise): a search of the joined
        column need not join them again."""
        if form == "mask" and self._mask_text is not None:
            return self._mask_text, self._norms_joined.sep
        done = self._norms_joined if form == "norm" else self._masks_joined
        return None if done.joined is None else (done.joined, done.sep)

    def id_key(self, column: str, value: str) -> str:
        """``value`` in the comparison form of platform-ID ``column``."""
        key = self.id_keys.get(column)
        return key(value) if key is not None else value

    def is_ancestor(self, ancestor: int, row: int) -> bool:
        """Whether ``ancestor`` is a proper ancestor of ``row``."""
        parent = self.parent
        current = int(parent[row])
        while current >= 0:
            if current == ancestor:
                return True
            current = int(parent[current])
        return False

    def panel_above(self, row: int) -> tuple[int, str, str] | None:
        """The nearest panel above ``row`` as ``(row, kind, name)``, or ``None``: a dialog,
        alert dialog or tab panel (:data:`~resolver.roles.PANEL_ROLES`; its role and name),
        or an HTML disclosure section (``"details"``, named by its summary: a group whose
        first row is a disclosure triangle or a ``summary``)."""
        parent, roles = self.parent, self.roles
        current = int(parent[row])
        while current >= 0:
            role = roles[current]
            if role in PANEL_ROLES:
                return current, role, self.names[current]
            summary = self.summary_of(current) if role == "group" else None
            if summary is not None:
                return current, "details", self.names[summary]
            current = int(parent[current])
        return None

    def dialogs_over_any(self) -> bool:
        """Whether :meth:`dialogs_over` can find any dialog on this table (a desktop's tree
        with a dialog that has a box); cheap after the first call."""
        return bool(self.derived(_screen_dialogs))

    def dialogs_over(self, row: int) -> list[int]:
        """The dialogs drawn over ``row``: on a table whose boxes are screen pixels or points
        (where a desktop's windows are drawn now, unlike a page's, which scrolls), each dialog
        that neither holds ``row`` nor is held by it, whose owner (the nearest window, dialog
        or application above it) holds ``row``, and whose box overlaps ``row``'s. A dialog is
        drawn over the window it belongs to: a click inside its box lands on it. A row inside
        a dialog is covered only by dialogs that dialog holds (its own message box), not by
        one beside it, whose stacking the tree does not give."""
        dialogs = self.derived(_screen_dialogs)
        box = self.box(row) if dialogs else None
        if box is None:
            return []
        inside = self.nearest_above(row, DIALOG_ROLES)
        over = []
        for dialog in dialogs:
            if dialog == row or self.is_ancestor(dialog, row) or self.is_ancestor(row, dialog):
                continue
            if inside is not None and not self.is_ancestor(inside, dialog):
                continue  # (two dialogs side by side: which is on top, the tree does not say)
            owner = self.nearest_above(dialog, _OWNER_ROLES)
            theirs = self.box(dialog)
            if owner is None or theirs is None or not self.is_ancestor(owner, row):
                continue
            if boxes_overlap(box, theirs):
                over.append(dialog)
        return over

    def nearest_above(self, row: int, roles: frozenset[str]) -> int | None:
        """The nearest row above ``row`` whose role is one of ``roles``, or ``None``."""
        current = int(self.parent[row])
        while current >= 0 and self.roles[current] not in roles:
            current = int(self.parent[current])
        return None if current < 0 else current

    def clear_point(self, row: int, least: float) -> tuple[float, float] | None:
        """Where a click on ``row`` lands on it: the centre of its box, or of the largest part
        of it that no dialog drawn over it covers (:meth:`dialogs_over`,
        :func:`~resolver.geometry.uncovered_point`, parts at least ``least`` pixels wide and
        high); ``None`` when it has no box or lies under the dialogs."""
        box = self.box(row)
        if box is None:
            return None
        covers = [b for b in map(self.box, self.dialogs_over(row)) if b is not None]
        return uncovered_point(box, covers, least)

    def points_differ(self) -> bool:
        """Whether :meth:`click_point` may differ from a box's centre on this table (a
        desktop's tree with a dialog or a row said not to be on the screen); cheap after the
        first call."""
        return self.derived(_desktop_points)

    def click_point(self, row: int, least: float) -> tuple[float, float] | None:
        """Where a click lands on ``row``: the centre of its box, except on a desktop's tree
        (boxes in screen pixels or points): ``None`` for a row the tree says is not on the
        screen (scrolled out of view, in a collapsed branch, in a minimized window: its box
        is where it would be, over something else), and for one partly under dialogs drawn
        over it the centre of its largest part beside them (:meth:`clear_point`)."""
        box = self.box(row)
        if box is None or not self.derived(_desktop_points):
            return None if box is None else ((box[0] + box[2]) / 2.0, (box[1] + box[3]) / 2.0)
        if int(self.visible[row]) == 0:
            return None
        return self.clear_point(row, least)

    def summary_of(self, row: int) -> int | None:
        """The row of a disclosure section's summary (the first row in ``row``, when its raw
        role is :data:`~resolver.roles.SUMMARY_ROLES`), or ``None``."""
        first = row + 1
        if first < len(self.roles) and int(self.parent[first]) == row:
            return first if self.raw_roles[first] in SUMMARY_ROLES else None
        return None

    def box(self, row: int) -> tuple[float, float, float, float] | None:
        """The row's box, or ``None`` when unknown."""
        left, top, right, bottom = self.bboxes[row].tolist()
        if left != left:  # NaN: unknown boxes are stored as four NaNs
            return None
        return (left, top, right, bottom)

    def row(self, i: int) -> dict[str, Any]:
        """One row as a plain dict (for evidence, logs and tests)."""
        box = self.box(i)
        return {
            "source": self.source,
            "id": self.ids[i],
            "executor_id": self.executor_id(i),
            "role": self.roles[i],
            "raw_role": self.raw_roles[i],
            "name": self.names[i],
            "bbox": None if box is None else list(box),
            "container_path": list(self.containers[i]),
        }


_NAN4: Final[tuple[float, float, float, float]] = (math.nan, math.nan, math.nan, math.nan)
_MALFORMED: Final[tuple[float, float, float, float]] = (math.nan, math.nan, math.nan, math.nan)
"""What :func:`_clean_box` gives for a box that is not four numbers (told apart by identity)."""


def _clean_box(box: Any) -> tuple[float, float, float, float]:
    """One box from whatever an adapter passed, or :data:`_MALFORMED`."""
    if isinstance(box, (str, bytes)):  # four characters are not four numbers
        return _MALFORMED
    try:
        left, top, right, bottom = (float(v) for v in box)
    except OverflowError:  # an integer too large for a float: a number, but not finite
        return _NAN4
    except (TypeError, ValueError):
        return _MALFORMED
    return (left, top, right, bottom)


def _box_array(raw: Sequence[Any], notes: dict[str, int] | None = None) -> FloatArray:
    """All boxes as an N x 4 array; malformed, non-finite or inverted boxes become NaN (and
    are counted in ``notes``: ``box_malformed``, ``box_not_finite``, ``box_inverted``)."""
    n = len(raw)
    if isinstance(raw, np.ndarray):  # read by the adapter, finite where given
        return _plain_box_array(np.asarray(raw, dtype=np.float64).reshape(n, 4), notes)
    if not any(map(operator.is_not, raw, repeat(None))):  # no layout: every box unknown
        return np.full((n, 4), math.nan)
    filled = [_NAN4 if box is None else box for box in raw]
    try:
        boxes = np.array(filled, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        boxes = np.empty((0,))
    malformed = 0
    if boxes.shape != (n, 4):
        cleaned = [_clean_box(box) for box in filled]
        malformed = sum(box is _MALFORMED for box in cleaned)
        boxes = np.array(cleaned, dtype=np.float64).reshape(n, 4)
    finite = _finite_boxes(boxes)
    inverted = (boxes[:, 2] < boxes[:, 0]) | (boxes[:, 3] < boxes[:, 1])
    bad = ~finite | inverted
    if bad.any():
        boxes[bad] = math.nan
        if notes is not None:  # rows without a box are NaN too, and not a repair
            absent = sum(map(operator.is_, raw, repeat(None)))
            _note(notes, "box_malformed", malformed)
            _note(notes, "box_not_finite", n - int(finite.sum()) - absent - malformed)
            _note(notes, "box_inverted", int((inverted & finite).sum()))
    return boxes


def _plain_box_array(boxes: FloatArray, notes: dict[str, int] | None) -> FloatArray:
    """:func:`_box_array` of boxes an adapter read as an array (a float array is not copied
    unless a row is repaired: the table keeps a read-only view of it): all-NaN rows are
    boxes not given; a row with another non-finite value, or inverted, becomes NaN (and is
    counted)."""
    finite = _finite_boxes(boxes)
    inverted = finite & ((boxes[:, 2] < boxes[:, 0]) | (boxes[:, 3] < boxes[:, 1]))
    # Only the rows that are not finite can be broken (most often none, or the few without
    # a box): the NaN test runs over those, not over every row's four numbers.
    unfinite = np.flatnonzero(~finite)
    broken = unfinite[~np.isnan(boxes[unfinite]).all(axis=1)]
    if broken.size or inverted.any():
        boxes = boxes.copy()
        boxes[broken] = math.nan
        boxes[inverted] = math.nan
        if notes is not None:
            _note(notes, "box_not_finite", int(broken.size))
            _note(notes, "box_inverted", int(inverted.sum()))
    return boxes


def _finite_boxes(boxes: FloatArray) -> npt.NDArray[np.bool_]:
    """Per row of an N x 4 array, whether the box's coordinates, extents and area are all
    finite numbers (``1e200`` is a float, its square is not).

    The area alone tells: it is finite only as the product of a finite width and height,
    and a difference of two edges is finite only when both edges are (an infinite or NaN
    edge makes it infinite or NaN)."""
    with np.errstate(over="ignore", invalid="ignore"):
        area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    finite: npt.NDArray[np.bool_] = np.isfinite(area)
    return finite


def _note(notes: dict[str, int], kind: str, count: int) -> None:
    if count:
        notes[kind] = notes.get(kind, 0) + count


_FEW_ROWS: Final[int] = 64
_FIXED: Final[int] = 7
"""Fields of a row before its platform IDs: id, raw role, name, parent, box, value, states."""


class TableBuilder:
    """Collects rows (in pre-order) and freezes them into a :class:`CandidateTable`: the one
    way every adapter makes a table.

    A row is one tuple appended to :attr:`rows` (the fast path for large trees; :meth:`add`
    does the same with keywords)::

        (id, raw_role, name, parent, box, value, states, *platform_ids)

    ``parent`` is an earlier row or -1; ``box`` is ``[left, top, right, bottom]`` or ``None``
    (malformed, non-finite or inverted boxes are stored as unknown, never trusted);
    ``name`` is a string (anything else is converted) or ``None``;
    ``states`` is ``(enabled, visible, focused)`` as 1/0/-1 (:data:`NO_STATE`);
    the platform IDs follow in the order of ``id_columns``. :attr:`roles` overrides the role
    tables' reading of a row's raw role (Android: a clickable generic view is a button) and
    :attr:`executor_ids` the default ``executor_prefix + id``. Sizes, column shapes and parent
    links are checked in :meth:`build`; what it repairs or drops is counted in the table's
    :attr:`~CandidateTable.diagnostics`, with what the adapter reported through :meth:`note`.

    Parameters
    ----------
    source, format:
        ``"a11y"``/``"dom"``/``"vision"`` and the adapter's format name.
    platform:
        Passed to :func:`resolver.roles.canonical_role` for platform-specific spellings.
    id_columns:
        Names of the platform-ID columns this adapter fills.
    executor_prefix:
        Prepended to a row's ID to make its executor ID.
    max_rows:
        Refuse trees larger than this with :class:`InvalidObservationError`.
    ascii_collapsed:
        The adapter's names have their ASCII whitespace collapsed and their ends stripped
        already (the DOM source's are): an ASCII name is then only cut at :data:`MAX_TEXT`.
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
        ascii_collapsed: bool = False,
    ) -> None:
        self.ascii_collapsed = ascii_collapsed
        self.source = source
        self.format = format
        self.platform = platform
        self.id_columns = tuple(id_columns)
        self.executor_prefix = executor_prefix
        self.max_rows = max_rows
        self.rows: list[tuple[Any, ...]] = []
        self.columns: list[Sequence[Any] | npt.NDArray[Any]] | None = None
        self.roles: dict[int, str] = {}
        self.executor_ids: dict[int, str] = {}
        self.diagnostics: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self.rows)

    def reserve(self, count: int) -> None:
        """Refuse early when the input already has more nodes than the limit allows."""
        check_rows(len(self.rows) + count, self.max_rows)

    def set_columns(self, *columns: Sequence[Any] | npt.NDArray[Any]) -> None:
        """Hand over every row at once, as columns in the order of a row's fields (the fast
        path of adapters that read their input by columns): ``parent`` may be an integer
        array, ``states`` an ``N x 3`` array. Used instead of :attr:`rows`, which must be
        empty."""
        if self.rows:
            raise ValueError("set_columns needs a builder without rows")
        self.columns = list(columns)

    def note(self, kind: str, count: int = 1) -> None:
        """Count ``count`` rows the adapter repaired or dropped a field of before handing
        them over (a key of :data:`DIAGNOSTICS`, or a kind of its own); the table's
        :attr:`~CandidateTable.diagnostics` adds them to the builder's own."""
        _note(self.diagnostics, kind, count)

    def add(
        self,
        id: str,
        *,
        raw_role: str,
        name: str = "",
        parent: int = -1,
        bbox: Sequence[float] | None = None,
        value: str = "",
        states: States = NO_STATE,
        role: str | None = None,
        executor_id: str | None = None,
        **platform_ids: str | None,
    ) -> int:
        """Append one row and return its index (see the class docstring for the fields)."""
        index = len(self.rows)
        check_rows(index + 1, self.max_rows)
        ids = tuple(platform_ids.get(column) for column in self.id_columns)
        self.rows.append((id, raw_role, name, parent, bbox, value, states, *ids))
        if role is not None:
            self.roles[index] = role
        if executor_id is not None:
            self.executor_ids[index] = executor_id
        return index

    def build(
        self,
        *,
        coord_space: CoordSpace = CoordSpace.UNKNOWN,
        screen_size: tuple[float, float] | None = None,
        **extra: Any,
    ) -> CandidateTable:
        """Freeze the rows. Depth and container paths follow from the parent links; they are
        made when first read (:attr:`CandidateTable.depth`, :class:`ContainerPaths`), as a
        query of a role and a name reads neither but for the rows it ranks.

        ``extra`` fills the table's optional fields (``id_keys``, ``selector_resolver``,
        ``text_finder``, ``marks``, ``rereadings``, ``native``, and what the source declares
        of itself:
        ``window``, ``label_named_roles``, ``groups_by_title``, ``names_read``).
        """
        columns = self._columns()
        n = len(columns[0])
        ids, raw_roles, names, parents, boxes, values, states = columns[:_FIXED]
        parent = self._parents(parents)
        notes = dict.fromkeys(DIAGNOSTICS, 0)
        roles = self._canonical(raw_roles, notes)
        cleaned = _cleaned_names(names, self.ascii_collapsed, notes)
        codes = np.array(list(map(ROLE_INDEX.__getitem__, roles)), np.int32)
        role_column, name_column = tuple(roles), tuple(cleaned.texts)
        state = _state_rows(states, n)
        joined = None if cleaned.joined is None else (name_column, cleaned.joined, cleaned.sep)
        return CandidateTable(
            source=self.source,
            format=self.format,
            ids=ids if isinstance(ids, RowPaths) else tuple(ids),
            executor_prefix=self.executor_prefix,
            executor_overrides=dict(self.executor_ids),
            roles=role_column,
            role_codes=_freeze(codes),
            raw_roles=tuple(raw_roles),
            names=name_column,
            values=_clean_values(values, notes),
            bboxes=_freeze(_box_array(boxes, notes)),
            parent=_freeze(parent),
            enabled=_freeze(np.ascontiguousarray(state[:, 0])),
            visible=_freeze(np.ascontiguousarray(state[:, 1])),
            focused=_freeze(np.ascontiguousarray(state[:, 2])),
            containers=ContainerPaths(role_column, codes, name_column, parent),
            platform_ids=_id_tuples(self.id_columns, columns[_FIXED:]),
            coord_space=CoordSpace(coord_space),
            screen_size=screen_size,
            diagnostics=self._diagnostics(notes),
            _joined_names=joined,
            **extra,
        )

    def _columns(self) -> list[Any]:
        """The rows as columns (checked for size and width)."""
        width = _FIXED + len(self.id_columns)
        if self.columns is not None:
            columns = self.columns
            if len(columns) != width or len(set(map(len, columns))) > 1:
                raise InvalidObservationError("table columns have different sizes")
            check_rows(len(columns[0]), self.max_rows)
            return columns
        check_rows(len(self.rows), self.max_rows)
        if set(map(len, self.rows)) - {width}:
            raise InvalidObservationError("table rows have different numbers of fields")
        return list(zip(*self.rows, strict=True)) or [()] * width

    def _diagnostics(self, notes: dict[str, int]) -> dict[str, int]:
        """The non-zero counts, the builder's in :data:`DIAGNOSTICS` order, then the
        adapter's own kinds."""
        for kind, count in self.diagnostics.items():
            _note(notes, kind, count)
        return {kind: count for kind, count in notes.items() if count}

    def _parents(self, parents: Sequence[Any]) -> IntArray:
        n = len(parents)
        try:
            parent = np.asarray(parents, dtype=np.int64).reshape(n)
        except (TypeError, ValueError, OverflowError) as exc:
            raise InvalidObservationError("a row's parent is not a row index") from exc
        if n <= _FEW_ROWS:  # (a short loop beats three array operations)
            later = any(p < -1 or p >= i for i, p in enumerate(parent.tolist()))
        else:
            later = bool((parent < -1).any() or (parent >= np.arange(n)).any())
        if later:
            raise InvalidObservationError("a row's parent is not an earlier row")
        return parent.astype(np.int32)

    def _canonical(self, raw_roles: Sequence[str], notes: dict[str, int]) -> list[str]:
        """Canonical roles; rows whose role no table knows are counted (``role_unknown``)."""
        unknown: set[str] = set()
        if len(self.roles) == len(raw_roles):  # every row's role given (the DOM source)
            roles = [""] * len(raw_roles)
        else:
            platform = self.platform
            mapping = {raw: canonical_role(raw, platform) for raw in set(raw_roles)}
            roles = list(map(mapping.__getitem__, raw_roles))
            unknown = {raw for raw, role in mapping.items() if role == "unknown" and _given(raw)}
        for position, role in self.roles.items():
            if role not in ROLE_INDEX:
                raise InvalidObservationError(f"unknown canonical role {role!r}")
            roles[position] = role
        if unknown:  # (rows given a role of the adapter's are not unknown)
            count = sum(map(unknown.__contains__, raw_roles))
            _note(notes, "role_unknown", count - sum(raw_roles[p] in unknown for p in self.roles))
        return roles


def _given(raw_role: Any) -> bool:
    """Whether a raw role says something (not empty, not a spelling of "unknown")."""
    return bool(raw_role) and "unknown" not in str(raw_role).lower()


def _as_text(value: Any) -> str:
    """A name that is not a string as text: a finite number written out, anything else
    empty (``True`` is not the name "True")."""
    if isinstance(value, str):
        return value
    if isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value):
        return str(value)
    return ""


def _clean_names(
    names: Sequence[Any], ascii_collapsed: bool = False, notes: dict[str, int] | None = None
) -> list[str]:
    """Names with whitespace collapsed and cut at :data:`MAX_TEXT` (each distinct name once;
    with ``ascii_collapsed``, ASCII names are only cut). Names that are not strings are
    converted (:func:`_as_text`); ``notes`` counts them (``name_not_text``) and the names cut
    (``name_cut``)."""
    return _cleaned_names(names, ascii_collapsed, notes).texts


def _cleaned_names(
    names: Sequence[Any], ascii_collapsed: bool, notes: dict[str, int] | None
) -> Joined:
    """:func:`_clean_names`, joined when collapsing them left that at hand."""
    notes = {} if notes is None else notes
    if set(map(type, names)) - {str}:  # (one pass in C; the rest only when needed)
        _note(notes, "name_not_text", sum(not isinstance(n, str | None) for n in names))
        names = [n if isinstance(n, str) else _as_text(n) for n in names]
    joined: str | None = None
    sep = ""
    if not ascii_collapsed:
        clean, joined, sep = collapse_joined(names)
    else:  # only the names that are not ASCII need collapsing
        clean = list(names)
        if not "".join(clean).isascii():
            rows = list(compress(range(len(clean)), map(operator.not_, map(str.isascii, clean))))
            for row, name in zip(rows, collapse_many([clean[r] for r in rows]), strict=True):
                clean[row] = name
    if max(map(len, clean), default=0) > MAX_TEXT:
        cut = [row for row, name in enumerate(clean) if len(name) > MAX_TEXT]
        for row in cut:
            clean[row] = clean[row][:MAX_TEXT]
        _note(notes, "name_cut", len(cut))
        joined = None
    return Joined(clean, joined, sep)


def _state_rows(states: Sequence[Any] | npt.NDArray[Any], n: int) -> TriArray:
    """The ``(enabled, visible, focused)`` column as an ``N x 3`` array. Most trees state
    nothing for most rows (:data:`NO_STATE`, one shared tuple): those rows are counted in C
    and filled at once, and only the others are converted."""
    if isinstance(states, list):
        unknown = states.count(NO_STATE)
        if unknown == n:
            return np.full((n, 3), -1, dtype=np.int8)
        if 2 * unknown >= n:
            out = np.full((n, 3), -1, dtype=np.int8)
            given = [i for i, state in enumerate(states) if state != NO_STATE]
            out[given] = np.asarray([states[i] for i in given], dtype=np.int8).reshape(-1, 3)
            return out
    return np.asarray(states, dtype=np.int8).reshape(n, 3)


def _clean_values(values: Sequence[Any], notes: dict[str, int]) -> tuple[str, ...]:
    """Values cut at :data:`MAX_TEXT` (counted in ``notes``: ``value_cut``)."""
    if not any(values):  # (most trees state no value: checked in C)
        return ("",) * len(values)
    clean = tuple([v[:MAX_TEXT] if v else "" for v in values])
    if max(map(len, clean), default=0) == MAX_TEXT:
        _note(notes, "value_cut", sum(1 for v in values if v and len(v) > MAX_TEXT))
    return clean


def ancestor_sums(
    up: npt.NDArray[np.int64], weight: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64] | None:
    """For every node, the sum of ``weight`` over the node and all its ancestors (``up`` is
    each node's parent, -1 for roots), by pointer doubling: ``log2(depth)`` rounds of array
    indexing. ``None`` when some chain of parents never ends (a cycle)."""
    total = weight.astype(np.int64, copy=True)
    anc = up.astype(np.int64, copy=True)
    live = np.flatnonzero(anc >= 0)
    rounds = 0
    limit = max(1, len(up)).bit_length() + 1
    while len(live):
        if rounds > limit:
            return None
        hop = anc[live]
        total[live] += total[hop]
        anc[live] = anc[hop]
        live = live[anc[live] >= 0]
        rounds += 1
    return total


def _container_paths(
    roles: Sequence[str], codes: npt.NDArray[np.int32], names: Sequence[str], parent: IntArray
) -> tuple[tuple[str, ...], ...]:
    """The container path of every row, from the parent links (earlier rows), for all rows
    at once (:class:`ContainerPaths` gives the same a row at a time).

    A row's path is the one its nearest labelled ancestor hands down: that ancestor's own
    path with its label added (a container's name, an unnamed container's text, a
    landmark's role). Only labelled rows build a path; the others share their ancestor's.
    """
    up, handed = _handed_down(roles, codes, names, parent)
    return tuple(map(handed.__getitem__, up.tolist()))


HandedDown = tuple[npt.NDArray[np.int64], dict[int, tuple[str, ...]]]
"""Each row's nearest labelled ancestor (-1 for none), and the path each labelled row hands
down (``-1``: the empty path): row ``r``'s container path is ``handed[up[r]]``."""


def _handed_down(
    roles: Sequence[str], codes: npt.NDArray[np.int32], names: Sequence[str], parent: IntArray
) -> HandedDown:
    """:data:`HandedDown` of every row (see :func:`_container_paths`)."""
    n = len(parent)
    labels = _labels(roles, codes, names, parent)
    labelled = np.zeros(n + 1, dtype=bool)
    labelled[list(labels)] = True
    up = parent.astype(np.int64)
    climb = np.flatnonzero(up >= 0)
    climb = climb[~labelled[up[climb]]]
    while len(climb):  # to the nearest labelled ancestor, doubling the stride each round
        up[climb] = up[up[climb]]
        climb = climb[up[climb] >= 0]
        climb = climb[~labelled[up[climb]]]
    handed: dict[int, tuple[str, ...]] = {-1: ()}
    for row in sorted(labels):  # (an ancestor is an earlier row)
        handed[row] = _handed(handed[int(up[row])], labels[row])
    return up, handed


def _handed(path: tuple[str, ...], label: str) -> tuple[str, ...]:
    """The path a labelled row hands down: its own path with its label added (the innermost
    entries kept, each cut to :data:`MAX_ENTRY`)."""
    return (*path[-(MAX_CONTAINER_DEPTH - 1) :], label[:MAX_ENTRY])


class _LazyRows(Sequence[T]):
    """A column whose rows are made when read: one row at a time (:meth:`_one`), or every
    row at once (:meth:`_whole`) when iterated, compared, sliced, or read more than
    ``EAGER_AFTER`` (256) rows one by one. The rows are the same either way; copied or
    pickled, it is a plain ``tuple``."""

    EAGER_AFTER: Final[int] = 256

    def __init__(self, size: int) -> None:
        self._size = size
        self._all: tuple[T, ...] | None = None
        self._rows: dict[int, T] = {}
        self._lock = threading.RLock()  # (a column may read its own structure under it)

    def _one(self, row: int) -> T:
        raise NotImplementedError

    def _whole(self) -> tuple[T, ...]:
        raise NotImplementedError

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, row: Any) -> Any:
        made = self._all
        if made is not None:
            return made[row]
        if isinstance(row, slice):
            return self.every()[row]
        at = operator.index(row)
        if at < 0:
            at += self._size
        if not 0 <= at < self._size:
            raise IndexError("row out of range")
        value = self._rows.get(at)
        if value is None:
            if len(self._rows) >= self.EAGER_AFTER:
                return self.every()[at]
            value = self._rows[at] = self._one(at)
        return value

    def __iter__(self) -> Iterator[T]:
        return iter(self.every())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (_LazyRows, tuple)):
            return self.every() == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(rows={len(self)})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (tuple, (self.every(),))

    def every(self) -> tuple[T, ...]:
        """Every row (made at once the first time)."""
        with self._lock:
            if self._all is None:
                self._all = self._whole()
            return self._all


class ContainerPaths(_LazyRows[tuple[str, ...]]):
    """``CandidateTable.containers``: every row's container path (:func:`_container_paths`),
    a row's made the first time it is read.

    A query of a role and a name reads the paths of the few rows it ranks, so a table no
    longer makes every row's path when it is built: a row's own comes from its labelled
    ancestors alone (each ancestor's label and the path it hands down kept for the next
    row). Iterating, or reading more than ``EAGER_AFTER`` (256) rows one by one, makes every
    path at once, as the builder did. The paths are the same either way; copied or pickled,
    it is a plain ``tuple``.
    """

    def __init__(
        self,
        roles: Sequence[str],
        codes: npt.NDArray[np.int32],
        names: Sequence[str],
        parent: IntArray,
    ) -> None:
        super().__init__(len(parent))
        self._roles, self._codes, self._names, self._parent = roles, codes, names, parent
        self._handed: dict[int, tuple[str, ...]] = {-1: ()}
        self._labels: dict[int, str] = {}
        self._kids: npt.NDArray[np.bool_] | None = None
        self._up: Sequence[int] | None = None
        self._down: HandedDown | None = None

    def handed_down(self) -> HandedDown:
        """Every row's nearest labelled ancestor and the paths the labelled rows hand down
        (:data:`HandedDown`), made once: what the distinct paths and each row's among them
        are read from without a tuple per row (``TableIndex.containers``)."""
        with self._lock:
            if self._down is None:
                self._down = _handed_down(self._roles, self._codes, self._names, self._parent)
            return self._down

    def _whole(self) -> tuple[tuple[str, ...], ...]:
        up, handed = self.handed_down()
        return tuple(map(handed.__getitem__, up.tolist()))

    def _one(self, row: int) -> tuple[str, ...]:
        """The path of ``row``: the one its nearest labelled ancestor hands down."""
        parent, handed = self._parents(), self._handed
        pending: list[int] = []  # labelled ancestors whose path is not kept yet, nearest first
        at = parent[row]
        while at >= 0 and at not in handed:
            if self._label(at):
                pending.append(at)
            at = parent[at]
        path = handed[at]
        for ancestor in reversed(pending):
            path = handed[ancestor] = _handed(path, self._labels[ancestor])
        return path

    def _parents(self) -> Sequence[int]:
        """The parent links as Python integers, read in place (a view of the array: a
        query reads the links of a few rows' ancestors, not a list of every row's)."""
        if self._up is None:
            self._up = np.ascontiguousarray(self._parent).data
        return self._up

    def label(self, row: int) -> str:
        """What ``row`` hands its descendants as their innermost entry: its name, an unnamed
        record's text, a landmark's role (``""`` for none)."""
        return self._label(row)

    def _label(self, row: int) -> str:
        """What ``row`` hands down (as :func:`_labels` gives it; ``""`` for none)."""
        label = self._labels.get(row)
        if label is None:
            label = self._labels[row] = self._own_label(row)
        return label

    def _own_label(self, row: int) -> str:
        if self._kids is None:
            kids = np.zeros(len(self._parent), dtype=bool)
            kids[self._parent[self._parent >= 0]] = True
            self._kids = kids
        role, name = self._roles[row], self._names[row]
        content = ""
        if role in CONTENT_NAMED_CONTAINERS and not name:
            content = _content_label(row, self._names, self._parents())
        if not content and not (_LABELLING[self._codes[row]] and self._kids[row]):
            return ""
        return _label_of(role, name, content)


class RowPaths(_LazyRows[str]):
    """Row IDs that are child-index paths (``"0.2.1"``: the row's place among its parent's
    children, after its parent's path), for a tree whose nodes name no ID of their own; a
    row's path is written the first time it is read.

    A path is as long as its row is deep, and a table of a deep tree holds many: written for
    every row at build time they cost more than anything else the walk does, while a resolve
    reads the IDs of the few rows it ranks. Iterating, comparing, or reading more than
    ``EAGER_AFTER`` (256) rows one by one writes every path at once. Copied or pickled, it is
    a plain ``tuple``.

    ``parents`` holds each row's parent row (-1 for a root; rows in pre-order, so a parent
    comes before its children), ``places`` each row's place among its parent's children
    (among the roots for a root), and ``texts(k)`` gives ``str(i)`` for ``i < k``.
    """

    def __init__(
        self, parents: list[int], places: list[int], texts: Callable[[int], Sequence[str]]
    ) -> None:
        super().__init__(len(places))
        self._parents, self._places, self._texts = parents, places, texts
        self._known: dict[int, str] = {}
        """The paths written so far: the rows read and their ancestors."""

    def _whole(self) -> tuple[str, ...]:
        return _row_paths(self._parents, self._places, self._texts)

    def _one(self, row: int) -> str:
        """The path of ``row``, and of its ancestors whose paths are not kept yet."""
        parents, places, known = self._parents, self._places, self._known
        pending: list[int] = []
        at = row
        while at >= 0 and at not in known:
            pending.append(at)
            at = parents[at]
        path = known[at] if at >= 0 else ""
        for one in reversed(pending):
            place = str(places[one])
            path = known[one] = f"{path}.{place}" if path else place
        return path


def _row_paths(
    parents: list[int], places: list[int], texts: Callable[[int], Sequence[str]]
) -> tuple[str, ...]:
    """Every row's :class:`RowPaths` path, in one pass (a parent's path and dot made once
    for a run of its children)."""
    if not places:
        return ()
    numbers = texts(max(places) + 1)
    out: list[str] = []
    add = out.append
    last, prefix = -2, ""
    for up, place in zip(parents, places, strict=True):
        if up != last:
            last, prefix = up, ("" if up < 0 else out[up] + ".")
        add(prefix + numbers[place])
    return tuple(out)


_LABELLING: Final = np.array([r in CONTAINER_ROLES or r in LANDMARK_ROLES for r in ROLES])
"""Per role code, whether a row of that role hands its label (name, text or landmark) down."""


def _labels(
    roles: Sequence[str], codes: npt.NDArray[np.int32], names: Sequence[str], parent: IntArray
) -> dict[int, str]:
    """The label each row with one hands to its children (rows without children hand none)."""
    labelled = _LABELLING[codes]
    has_children = np.zeros(len(roles), dtype=bool)
    has_children[parent[parent >= 0]] = True
    rows = np.flatnonzero(labelled & has_children)
    content = _content_labels(roles, names, parent)
    labels: dict[int, str] = {}
    for row in sorted({*rows.tolist(), *content}):
        label = _label_of(roles[row], names[row], content.get(row, ""))
        if label:
            labels[row] = label
    return labels


def _label_of(role: str, name: str, content: str) -> str:
    """What a row that hands a label down hands: a container's name, else its text content,
    else ``[role]`` for a landmark (``""`` for none)."""
    label = name if role in CONTAINER_ROLES else ""
    if not label:
        label = content
    if not label and role in LANDMARK_ROLES:
        label = f"[{role}]"
    return label


def _content_labels(
    roles: Sequence[str], names: Sequence[str], parent: IntArray | list[int]
) -> dict[int, str]:
    """Text content of unnamed rows/list items/articles (:func:`_content_label` of each that
    has some)."""
    n = len(names)
    kinds = {r for r in set(roles) if r in CONTENT_NAMED_CONTAINERS}
    if not kinds:
        return {}
    wanted = np.flatnonzero(
        np.fromiter(map(kinds.__contains__, roles), bool, count=n)
        & np.fromiter(map(operator.not_, names), bool, count=n)
    ).tolist()
    labels: dict[int, str] = {}
    if not wanted:
        return labels
    ups: list[int] = parent.tolist() if isinstance(parent, np.ndarray) else parent
    for start in wanted:
        label = _content_label(start, names, ups)
        if label:
            labels[start] = label
    return labels


def _content_label(start: int, names: Sequence[str], parent: Sequence[int]) -> str:
    """The text content of the row ``start`` (``""`` for none): its first text leaves.

    Rows are in pre-order, so its subtree is the run of rows after it whose parent is inside
    it (not before it), and a row is a leaf when the next row is not its child; the scan stops
    at the first few leaves."""
    n = len(names)
    leaves: list[str] = []
    i = start + 1
    while i < n and parent[i] >= start:
        is_leaf = i + 1 >= n or parent[i + 1] != i
        if is_leaf and names[i]:
            leaves.append(names[i])
            if len(leaves) >= MAX_CONTEXT_LEAVES:
                break
        i += 1
    return " ".join(leaves)[:MAX_CONTEXT_CHARS]


def _id_tuples(names: Sequence[str], columns: Sequence[Any]) -> dict[str, tuple[Any, ...]]:
    """The platform-ID columns as tuples by name; a column handed over for several names (an
    adapter's one list of ``None`` for every field no row has) becomes one tuple they share."""
    made: dict[int, tuple[Any, ...]] = {}
    out: dict[str, tuple[Any, ...]] = {}
    for name, column in zip(names, columns, strict=True):
        done = made.get(id(column))
        if done is None:
            done = made[id(column)] = tuple(column)
        out[name] = done
    return out
