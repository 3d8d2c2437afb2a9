"""Android DroidBot / AutoDroid state JSON (``states/state_*.json``).

Input: ``{"views": [...], "foreground_activity": ..., ...}``. Each view has ``temp_id``,
``parent`` (a view index, -1 at the root), ``children`` (view indices), ``class``,
``resource_id``, ``text``, ``content_description``, ``visible``, ``enabled``, ``clickable``,
``checkable``, ``editable``, ``focused``, ... (absent strings are ``null``) and
``bounds: [[l, t], [r, b]]`` in device pixels (``coord_space="device_px"``).

Roles, names and platform IDs follow the uiautomator adapter (see :mod:`._android`), so a
DroidBot state and a uiautomator dump of the same screen give the same table; ``temp_id``
is kept as a column. Rows are walked from the roots over ``children`` (a cycle or a view
listed twice is read once). Row and executor IDs are the child-index path (``a11y:0.1.3``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

from ...errors import InvalidObservationError
from ...geometry import CoordSpace
from ...table import CandidateTable, TableBuilder
from .._common import STATES, as_str, box_from_ltrb, first_mapping, tri
from . import SourceInput, TreeFormat, TreeInput
from ._android import LABELLED_BY_CONTENT, AndroidRoles, descendant_label, pick_name, root_screen

_NUMBERS: Final[tuple[type, ...]] = (int, float)


def _views(tree: TreeInput) -> list[Any] | None:
    """The ``views`` list of a state, or ``None``."""
    data = tree.data
    views = data.get("views") if isinstance(data, Mapping) else None
    return views if isinstance(views, list) else None


def detect(tree: TreeInput) -> bool:
    """A mapping whose ``views`` list holds dicts with ``temp_id`` or ``class``+``bounds``."""
    first = first_mapping(_views(tree)) if tree.kind == "json" else None
    if first is None:
        return False
    return "temp_id" in first or ("class" in first and "bounds" in first)


def _box(value: Any) -> tuple[float, float, float, float] | None:
    """``[[l, t], [r, b]]`` as ``(l, t, r, b)``; ``None`` when malformed."""
    if type(value) is list and len(value) == 2:
        first, second = value
        if type(first) is list and type(second) is list and len(first) == len(second) == 2:
            left, top = first
            right, bottom = second
            # Plain numbers, the usual case, read without the general checks below.
            if (
                type(left) in _NUMBERS and type(top) in _NUMBERS
                and type(right) in _NUMBERS and type(bottom) in _NUMBERS
            ):  # fmt: skip
                try:
                    box = (float(left), float(top), float(right), float(bottom))
                except OverflowError:  # an integer too large for a float
                    return None
                return box if all(map(math.isfinite, box)) else None
    if (
        isinstance(value, Sequence)
        and len(value) == 2
        and all(isinstance(p, Sequence) and not isinstance(p, str) and len(p) == 2 for p in value)
    ):
        return box_from_ltrb([value[0][0], value[0][1], value[1][0], value[1][1]])
    return None


def _index(value: Any) -> int | None:
    """``value`` when it is a view index (an int, not a bool), else ``None``."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _text(value: Any) -> str:
    """A string field as is; anything else through :func:`as_str`."""
    return value if type(value) is str else as_str(value)


def _by_id(views: list[Any]) -> dict[int, Mapping[str, Any]]:
    """The views by ``temp_id`` (by position when a view has none; the first of each ID)."""
    by_id: dict[int, Mapping[str, Any]] = {}
    for position, view in enumerate(views):
        if type(view) is dict or isinstance(view, Mapping):
            temp_id = view.get("temp_id")
            if type(temp_id) is not int:
                temp_id = _index(temp_id)
            by_id.setdefault(position if temp_id is None else temp_id, view)
    return by_id


def _walk(
    by_id: Mapping[int, Mapping[str, Any]],
) -> Iterator[tuple[int, Mapping[str, Any], int, str]]:
    """Yield ``(view_id, view, parent_row, path)`` in pre-order, each view once (the caller
    appends one row for each, from row 0): from the roots, then from any view never reached
    (a cycle with no root)."""
    roots = [i for i, v in by_id.items() if _index(v.get("parent")) not in by_id]
    visited: set[int] = set()
    walks = 0
    for start in [*roots, *by_id]:
        if start in visited:
            continue
        stack: list[tuple[int, int, str]] = [(start, -1, str(walks))]
        walks += 1
        while stack:
            view_id, parent_row, path = stack.pop()
            if view_id in visited:
                continue
            row = len(visited)
            visited.add(view_id)
            view = by_id[view_id]
            yield view_id, view, parent_row, path
            listed = view.get("children")
            if isinstance(listed, list):
                for n in range(len(listed) - 1, -1, -1):
                    kid = listed[n]
                    if type(kid) is not int and _index(kid) is None:
                        continue
                    if kid in by_id and kid not in visited:
                        stack.append((kid, row, f"{path}.{n}"))


def _labeller(by_id: Mapping[int, Mapping[str, Any]]) -> Callable[[Mapping[str, Any]], str]:
    """A function that names an unlabeled control by its descendants' texts."""

    def kids(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        """The child views listed by ``view``."""
        listed = view.get("children")
        if not isinstance(listed, list):
            return []
        return [by_id[i] for i in listed if _index(i) is not None and i in by_id]

    def label(view: Mapping[str, Any]) -> str:
        """The text a view contributes to its ancestor's label."""
        return as_str(view.get("text")) or as_str(view.get("content_description"))

    return lambda view: descendant_label(view, kids, label)


def build(tree: TreeInput, source: SourceInput) -> CandidateTable:
    """One row per view reachable from a root, in pre-order."""
    views = _views(tree)
    if views is None:
        raise InvalidObservationError("a DroidBot state needs a 'views' list")
    builder = TableBuilder(
        "a11y", "droidbot", platform="android",
        id_columns=("automation_id", "accessibility_id", "class_name", "temp_id"),
        max_rows=source.max_nodes,
    )  # fmt: skip
    builder.reserve(len(views))
    by_id = _by_id(views)
    content_label = _labeller(by_id)
    roles = AndroidRoles()
    known, overrides, append = roles.known, builder.roles, builder.rows.append
    for row, (view_id, view, parent_row, path) in enumerate(_walk(by_id)):
        get = view.get
        cls = _text(get("class"))
        flags = (
            cls,
            get("clickable") is True or get("long_clickable") is True,
            get("checkable") is True,
            get("editable") is True,
        )
        role, explicit = known.get(flags) or roles.learn(flags)
        if explicit is not None:
            overrides[row] = explicit
        desc = _text(get("content_description"))
        name, value = pick_name(role, _text(get("text")), desc, "")
        if not name and role in LABELLED_BY_CONTENT:
            name = content_label(view)
        resource_id = get("resource_id")
        append((
            path, cls, name, parent_row, _box(get("bounds")), value,
            STATES[9 * tri(get("enabled")) + 3 * tri(get("visible")) + tri(get("focused")) + 13],
            resource_id if type(resource_id) is str else None, desc or None, cls or None,
            str(view_id),
        ))  # fmt: skip
    screen = source.screen_size or root_screen(builder.rows)
    return builder.build(coord_space=CoordSpace.DEVICE_PX, screen_size=screen)


FORMAT = TreeFormat("droidbot", detect, build)
