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
from collections.abc import Mapping, Sequence
from typing import Any, Final

from ...errors import InvalidObservationError
from ...table import CandidateTable, TableBuilder
from .._common import as_str, box_from_ltrb
from . import BuildContext, TreeFormat, TreeInput
from ._android import LABELLED_BY_CONTENT, android_role, descendant_label, pick_name
from ._columns import tri

_NUMBERS: Final[tuple[type, ...]] = (int, float)
# Every (enabled, visible, focused) of 1 / 0 / -1, at 9 * enabled + 3 * visible + focused + 13:
# rows share these instead of each allocating one for the garbage collector to track.
_STATES: Final[tuple[tuple[int, int, int], ...]] = tuple(
    (enabled, visible, focused)
    for enabled in (-1, 0, 1)
    for visible in (-1, 0, 1)
    for focused in (-1, 0, 1)
)


def _views(tree: TreeInput) -> list[Any] | None:
    data = tree.data
    views = data.get("views") if isinstance(data, Mapping) else None
    return views if isinstance(views, list) else None


def detect(tree: TreeInput) -> bool:
    """A mapping whose ``views`` list holds dicts with ``temp_id`` or ``class``+``bounds``."""
    if tree.kind != "json":
        return False
    views = _views(tree)
    if not views or not isinstance(views[0], Mapping):
        return False
    first = views[0]
    return "temp_id" in first or ("class" in first and "bounds" in first)


def _box(value: Any) -> tuple[float, float, float, float] | None:
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
                box = (float(left), float(top), float(right), float(bottom))
                return box if all(map(math.isfinite, box)) else None
    if (
        isinstance(value, Sequence)
        and len(value) == 2
        and all(isinstance(p, Sequence) and not isinstance(p, str) and len(p) == 2 for p in value)
    ):
        return box_from_ltrb([value[0][0], value[0][1], value[1][0], value[1][1]])
    return None


def _index(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _tri(value: Any) -> int:
    return 1 if value is True else 0 if value is False else tri(value)


def _text(value: Any) -> str:
    return value if type(value) is str else as_str(value)


def build(tree: TreeInput, context: BuildContext) -> CandidateTable:
    """One row per view reachable from a root, in pre-order."""
    views = _views(tree)
    if views is None:
        raise InvalidObservationError("a DroidBot state needs a 'views' list")
    if len(views) > context.max_nodes:
        raise InvalidObservationError(
            f"the tree has more than {context.max_nodes} nodes; raise max_nodes to read it",
            details={"max_nodes": context.max_nodes},
        )
    by_id: dict[int, Mapping[str, Any]] = {}
    for position, view in enumerate(views):
        if type(view) is dict or isinstance(view, Mapping):
            temp_id = view.get("temp_id")
            if type(temp_id) is not int:
                temp_id = _index(temp_id)
            by_id.setdefault(position if temp_id is None else temp_id, view)

    def kids(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        listed = view.get("children")
        if not isinstance(listed, list):
            return []
        return [by_id[i] for i in listed if _index(i) is not None and i in by_id]

    def label(view: Mapping[str, Any]) -> str:
        return as_str(view.get("text")) or as_str(view.get("content_description"))

    roots = [i for i, v in by_id.items() if _index(v.get("parent")) not in by_id]
    cache: dict[tuple[str, bool, bool, bool], str] = {}
    # (class, clickable, checkable, editable) -> (role, the role when it differs from the
    # class's own)
    roles: dict[tuple[str, bool, bool, bool], tuple[str, str | None]] = {}
    visited: set[int] = set()
    screen = context.screen_size
    ids: list[str] = []
    raw_roles: list[str] = []
    names: list[str] = []
    parents: list[int] = []
    boxes: list[tuple[float, float, float, float] | None] = []
    values: list[str] = []
    states: list[tuple[int, int, int]] = []
    resource_ids: list[str | None] = []
    descs: list[str | None] = []
    temp_ids: list[str] = []
    overrides: dict[int, str] = {}  # rows whose flags make their role (see _android)
    walks = 0
    # Roots first; then any view never reached (a cycle with no root) starts its own walk.
    for start in [*roots, *by_id]:
        if start in visited:
            continue
        stack: list[tuple[int, int, str]] = [(start, -1, str(walks))]
        walks += 1
        while stack:
            view_id, parent_row, path = stack.pop()
            if view_id in visited:
                continue
            visited.add(view_id)
            view = by_id[view_id]
            get = view.get
            cls = _text(get("class"))
            flags = (
                cls,
                get("clickable") is True or get("long_clickable") is True,
                get("checkable") is True,
                get("editable") is True,
            )
            known = roles.get(flags)
            if known is None:
                role = android_role(
                    cls, clickable=flags[1], checkable=flags[2], editable=flags[3], cache=cache
                )
                mapped = android_role(
                    cls, clickable=False, checkable=False, editable=False, cache=cache
                )
                known = roles[flags] = (role, None if role == mapped else role)
            role, explicit = known
            desc = _text(get("content_description"))
            name, value = pick_name(role, _text(get("text")), desc, "")
            if not name and role in LABELLED_BY_CONTENT:
                name = descendant_label(view, kids, label)
            box = _box(get("bounds"))
            if screen is None and parent_row < 0 and box is not None and box[:2] == (0.0, 0.0):
                screen = (box[2], box[3])
            resource_id = get("resource_id")
            row = len(ids)
            if explicit is not None:
                overrides[row] = explicit
            ids.append(path)
            raw_roles.append(cls)
            names.append(name)
            parents.append(parent_row)
            boxes.append(box)
            values.append(value)
            states.append(
                _STATES[
                    9 * _tri(get("enabled")) + 3 * _tri(get("visible")) + _tri(get("focused")) + 13
                ]
            )
            resource_ids.append(resource_id if type(resource_id) is str else None)
            descs.append(desc or None)
            temp_ids.append(str(view_id))
            listed = get("children")
            if isinstance(listed, list):
                for n in range(len(listed) - 1, -1, -1):
                    kid = listed[n]
                    if type(kid) is not int and _index(kid) is None:
                        continue
                    if kid in by_id and kid not in visited:
                        stack.append((kid, row, f"{path}.{n}"))
    builder = TableBuilder(
        "a11y", "droidbot", platform="android",
        id_columns=("automation_id", "accessibility_id", "class_name", "temp_id"),
        max_rows=context.max_nodes,
    )  # fmt: skip
    builder.extend(
        ids=ids,
        raw_roles=raw_roles,
        names=names,
        parents=parents,
        boxes=boxes,
        values=values,
        states=states,
        platform_ids={
            "automation_id": resource_ids,
            "accessibility_id": descs,
            "class_name": [cls or None for cls in raw_roles],
            "temp_id": temp_ids,
        },
        roles=overrides,
    )
    return builder.build(coord_space="device_px", screen_size=screen)


FORMAT = TreeFormat("droidbot", detect, build)
