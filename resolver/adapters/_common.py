"""Small, defensive readers shared by adapters (raw input is never trusted)."""

from __future__ import annotations

import contextlib
import gc
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import reduce
from itertools import compress, repeat
from operator import iadd, is_
from typing import Any, Final

import numpy as np
import numpy.typing as npt

__all__ = [
    "FROZEN_RECHECK",
    "STATES",
    "UNUSABLE_BOX",
    "XPATH_KEYS",
    "as_bool",
    "as_str",
    "as_str_column",
    "box_from_ltrb",
    "box_from_xywh",
    "boxes_from_ltrb",
    "first_mapping",
    "flag_states",
    "keeps_frozen",
    "ltrb_array",
    "named_values",
    "no_cyclic_gc",
    "node_column",
    "normalize_xpath",
    "tri",
    "tri_not",
]


def as_str(value: Any) -> str:
    """A string for a name-like field: str as is, numbers formatted, anything else empty."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None:
        return ""
    if isinstance(value, float):
        return str(value) if math.isfinite(value) else ""
    if isinstance(value, int):
        try:
            return str(value)
        except ValueError:  # more digits than Python converts
            return ""
    return ""


def as_str_column(raw: list[Any]) -> list[str]:
    """:func:`as_str` of each value of a column read from the nodes (strings kept as they
    are; a column of ``None`` alone, a key no node has, made at once)."""
    if {*map(type, raw)} <= {str}:
        return raw
    if raw.count(None) == len(raw):
        return [""] * len(raw)
    return [v if type(v) is str else as_str(v) for v in raw]


def node_column(nodes: Sequence[Mapping[str, Any]], key: str, dicts: bool) -> list[Any]:
    """``node.get(key)`` of every node, in C when ``dicts`` (every node is a ``dict``: a
    mapping of another type may answer keys it does not list, so it is asked one by one)."""
    if dicts:
        return list(map(dict.get, nodes, repeat(key)))  # type: ignore[arg-type]
    return [node.get(key) for node in nodes]


def as_bool(value: Any) -> bool | None:
    """``True``/``False`` from booleans and their common string spellings, else ``None``."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        lowered = value.strip().lower()
        if lowered in ("true", "1", "yes"):
            return True
        if lowered in ("false", "0", "no"):
            return False
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    return None


def tri(value: Any) -> int:
    """1 / 0 / -1 (unknown) from a boolean or its string spellings (a row's state field)."""
    if value is True or value is False:
        return int(value)
    flag = as_bool(value)
    return -1 if flag is None else int(flag)


def tri_not(value: Any) -> int:
    """:func:`tri` of the negation: a ``hidden`` flag read as ``visible``, ``disabled`` as
    ``enabled``."""
    flag = tri(value)
    return -1 if flag < 0 else 1 - flag


def _either(fields: Mapping[str, Any], positive: str, negative: str) -> int:
    """:func:`tri` of ``fields[positive]``, else of the negation of ``fields[negative]``."""
    if positive in fields:
        return tri(fields[positive])
    if negative in fields:
        return tri_not(fields[negative])
    return -1


def flag_states(fields: Mapping[str, Any]) -> tuple[int, int, int]:
    """``(enabled, visible, focused)`` from ``enabled``/``disabled``, ``visible``/``hidden``
    and ``focused`` flags (the positive spelling wins when both are there)."""
    return (
        _either(fields, "enabled", "disabled"),
        _either(fields, "visible", "hidden"),
        tri(fields.get("focused")),
    )


def first_mapping(items: Any) -> Mapping[str, Any] | None:
    """``items[0]`` when ``items`` is a non-empty list whose first item is a mapping (what
    the JSON detectors look at)."""
    if isinstance(items, list) and items and isinstance(items[0], Mapping):
        return items[0]
    return None


STATES: Final[tuple[tuple[int, int, int], ...]] = tuple(
    (enabled, visible, focused)
    for enabled in (-1, 0, 1)
    for visible in (-1, 0, 1)
    for focused in (-1, 0, 1)
)
"""Every ``(enabled, visible, focused)`` row state, at ``9 * enabled + 3 * visible + focused +
13``: rows share these instead of each allocating one for the garbage collector to track."""


def named_values(items: Any) -> dict[str, Any]:
    """``{name: value}`` from a list of ``{"name", "value"}`` items (CDP properties), where a
    ``{"type", "value"}`` wrapper is unwrapped; anything else gives nothing."""
    out: dict[str, Any] = {}
    if isinstance(items, list):
        for item in items:
            if isinstance(item, Mapping) and isinstance(item.get("name"), str):
                value = item.get("value")
                out[item["name"]] = value.get("value") if isinstance(value, Mapping) else value
    return out


def _num(value: Any) -> float | None:
    """A float for a number or numeric text; ``None`` for anything else, and for an integer
    too large for a float."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float, str)):
        try:
            return float(value)
        except (ValueError, OverflowError):
            return None
    return None


def _four(value: Any) -> tuple[float, float, float, float] | None:
    """Four finite numbers from a sequence of four (not a string); ``None`` otherwise."""
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 4:
        return None
    nums = [_num(v) for v in value]
    if any(v is None or not math.isfinite(v) for v in nums):
        return None
    first, second, third, fourth = (float(v) for v in nums if v is not None)
    return (first, second, third, fourth)


UNUSABLE_BOX: Final[tuple[float, float, float, float]] = (math.nan,) * 4
"""What a box reader returns for a box that is given but is not four finite numbers: the
table drops it and counts it (``box_not_finite`` in ``CandidateTable.diagnostics``)."""


def _given(values: Any) -> bool:
    """Whether a box was given at all (``None``, an empty list and all-``None`` parts are
    "no box", not a broken one)."""
    if values is None:
        return False
    if isinstance(values, Sequence) and not isinstance(values, str):
        return any(v is not None for v in values)
    return True


def box_from_ltrb(value: Any) -> tuple[float, float, float, float] | None:
    """Read ``[l, t, r, b]`` or ``{left, top, right, bottom}``; ``None`` when there is no box,
    :data:`UNUSABLE_BOX` when one is given but malformed."""
    if isinstance(value, Mapping):
        value = [value.get(k) for k in ("left", "top", "right", "bottom")]
    box = _four(value)
    return UNUSABLE_BOX if box is None and _given(value) else box


def boxes_from_ltrb(values: list[Any]) -> list[Sequence[float] | None]:
    """:func:`box_from_ltrb` of each value (the boxes :func:`ltrb_array` cannot read in C)."""
    return list(map(box_from_ltrb, values))


def ltrb_array(values: list[Any]) -> npt.NDArray[np.float64] | None:
    """Every ``[left, top, right, bottom]`` box of ``values`` as an ``N x 4`` float array
    (NaN rows for ``None``), read in C, when every box given is a list (or tuple) of four
    finite ints and floats: the table builder reads it as it reads the boxes
    :func:`boxes_from_ltrb` gives. ``None`` for anything else (left to that function)."""
    n = len(values)
    absent = np.fromiter(map(is_, values, repeat(None)), bool, count=n)
    given = list(compress(values, ~absent)) if absent.any() else values
    if not given or not ({*map(type, given)} <= {list, tuple} and {*map(len, given)} == {4}):
        return None
    # The numbers in one list, read twice (cheaper than two passes over the boxes); the
    # boxes appended a list at a time (``+=`` copies each in C: half the time of a chain).
    numbers: list[Any] = reduce(iadd, given, [])
    kinds = {*map(type, numbers)}
    if not kinds <= {int, float}:
        return None
    flat = _floats(numbers, kinds == {int})
    if flat is None or not np.isfinite(flat).all():
        return None
    boxes = flat.reshape(-1, 4)
    if boxes.shape[0] == n:
        return boxes
    # The rows without a box put back as NaN rows, each before the box that followed it
    # (a copy in a few blocks, not a row-long mask).
    places = np.flatnonzero(absent)
    return np.insert(boxes, places - np.arange(places.size), math.nan, axis=0)


def _floats(numbers: list[Any], ints: bool) -> npt.NDArray[np.float64] | None:
    """``numbers`` (ints and floats) as a float array, ``None`` when an int is too large for
    a float. Ints alone are read as 64-bit integers first (a quarter faster; either way
    each is rounded once, to the nearest float), those past that range as floats."""
    if ints:
        with contextlib.suppress(OverflowError):
            return np.fromiter(numbers, np.int64, count=len(numbers)).astype(np.float64)
    try:
        return np.fromiter(numbers, np.float64, count=len(numbers))
    except OverflowError:
        return None


def box_from_xywh(value: Any) -> tuple[float, float, float, float] | None:
    """Read ``[x, y, w, h]`` or ``{x, y, width|w, height|h}`` into ``(l, t, r, b)``
    (:data:`UNUSABLE_BOX` when given but malformed, as :func:`box_from_ltrb`)."""
    if isinstance(value, Mapping):
        value = [
            value.get("x"),
            value.get("y"),
            value.get("width", value.get("w")),
            value.get("height", value.get("h")),
        ]
    xywh = _four(value)
    if xywh is None:
        return UNUSABLE_BOX if _given(value) else None
    x, y, w, h = xywh
    return (x, y, x + w, y + h)


def normalize_xpath(xpath: str) -> str:
    """Drop ``[1]`` predicates and a trailing slash so equivalent absolute paths compare equal."""
    return xpath.replace("[1]", "").rstrip("/") or "/"


XPATH_KEYS: Final[dict[str, Callable[[str], str]]] = {"xpath": normalize_xpath}
"""``CandidateTable.id_keys`` for a table with an ``xpath`` column."""


FROZEN_RECHECK: Final[int] = 64
"""Once the process was seen keeping frozen objects, :func:`keeps_frozen` counts them again
only every this many calls."""

_frozen_seen: list[int] = [0, 0]  # [whether frozen objects were seen, calls since counted]


def keeps_frozen() -> bool:
    """Whether the process keeps frozen objects of its own (``gc.freeze()``, as a server does
    before it forks), read without counting them on every build.

    ``gc.get_freeze_count()`` walks every frozen object (CPython counts its list: about 7 ms
    for a million), which a build would pay twice. It is asked each time while the answer is
    no (then the list is empty and the walk costs nothing); once it was yes, it is asked again
    only every :data:`FROZEN_RECHECK` calls (the answer is then yes until it is asked).
    """
    seen = _frozen_seen
    if seen[0] and seen[1] < FROZEN_RECHECK:
        seen[1] += 1
        return True
    seen[0], seen[1] = int(gc.get_freeze_count() != 0), 0
    return bool(seen[0])


@contextmanager
def no_cyclic_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while a table is built (or a batch resolved).

    A build allocates a few hundred thousand lists, dicts and tuples that all live as long as
    the table or die by reference counting (no reference cycles are made and dropped), so
    every collection the allocations trigger scans them in vain: about a sixth of a 10k-element
    page's analysis, and about half of a 200k-node CDP tree's build. Reference counting
    still frees everything as usual. A batch of resolutions (:func:`resolver.resolve_many`)
    is alike: thousands of candidates, signals and decisions, most dropped before it returns.

    On the way out, the objects that survived (the table and what it keeps) would all be
    scanned by the first young-generation collection, and again by the middle one, only to
    be found alive. They are moved straight to the oldest generation instead
    (``gc.freeze()`` then ``gc.unfreeze()``), which leaves them to the rare full
    collections. Skipped when the process keeps frozen objects of its own, which
    ``unfreeze`` would release (:func:`keeps_frozen`). So that the move takes no garbage
    with it, the young generations are collected on the way in (also when the move is
    skipped, so that garbage is freed the same way either way): the caller's reference
    cycles (Playwright's sync calls leave each CDP answer in one) would otherwise wait for a
    full collection.
    A collector the caller had turned off stays off.
    """
    enabled = gc.isenabled()
    move = enabled and not keeps_frozen()
    if enabled:
        gc.collect(1)
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if move:
                gc.freeze()
                gc.unfreeze()
            gc.enable()
