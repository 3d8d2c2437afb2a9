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

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...errors import InvalidObservationError
from ...table import CandidateTable
from .._common import as_str, box_from_ltrb
from . import BuildContext, TreeFormat, TreeInput
from ._android import LABELLED_BY_CONTENT, android_role, descendant_label, pick_name
from ._columns import Columns, tri


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
    if (
        isinstance(value, Sequence)
        and len(value) == 2
        and all(isinstance(p, Sequence) and not isinstance(p, str) and len(p) == 2 for p in value)
    ):
        return box_from_ltrb([value[0][0], value[0][1], value[1][0], value[1][1]])
    return None


def _index(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


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
        if isinstance(view, Mapping):
            temp_id = _index(view.get("temp_id"))
            by_id.setdefault(position if temp_id is None else temp_id, view)

    def kids(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        listed = view.get("children")
        if not isinstance(listed, list):
            return []
        return [by_id[i] for i in listed if _index(i) is not None and i in by_id]

    def label(view: Mapping[str, Any]) -> str:
        return as_str(view.get("text")) or as_str(view.get("content_description"))

    roots = [i for i, v in by_id.items() if _index(v.get("parent")) not in by_id]
    cols = Columns(
        ("automation_id", "accessibility_id", "class_name", "temp_id"), context.max_nodes
    )
    cache: dict[tuple[str, bool, bool, bool], str] = {}
    visited: set[int] = set()
    screen = context.screen_size
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
            row, box = _add(cols, view, view_id, parent_row, path, cache, kids, label)
            if screen is None and parent_row < 0 and box is not None and box[:2] == (0.0, 0.0):
                screen = (box[2], box[3])
            listed = view.get("children")
            if isinstance(listed, list):
                for n in range(len(listed) - 1, -1, -1):
                    kid = _index(listed[n])
                    if kid is not None and kid in by_id and kid not in visited:
                        stack.append((kid, row, f"{path}.{n}"))
    return cols.build("droidbot", "android", coord_space="device_px", screen_size=screen)


def _add(
    cols: Columns,
    view: Mapping[str, Any],
    view_id: int,
    parent_row: int,
    path: str,
    cache: dict[tuple[str, bool, bool, bool], str],
    kids: Callable[[Mapping[str, Any]], list[Mapping[str, Any]]],
    label: Callable[[Mapping[str, Any]], str],
) -> tuple[int, tuple[float, float, float, float] | None]:
    """Add one view's row; returns the row and the view's box."""
    get = view.get
    cls = get("class")
    cls = cls if type(cls) is str else as_str(cls)
    clickable = get("clickable") is True or get("long_clickable") is True
    role = android_role(
        cls,
        clickable=clickable,
        checkable=get("checkable") is True,
        editable=get("editable") is True,
        cache=cache,
    )
    desc = get("content_description")
    desc = desc if type(desc) is str else as_str(desc)
    text = get("text")
    name, value = pick_name(role, text if type(text) is str else as_str(text), desc, "")
    if not name and role in LABELLED_BY_CONTENT:
        name = descendant_label(view, kids, label)
    box = _box(get("bounds"))
    states = (tri(get("enabled")), tri(get("visible")), tri(get("focused")))
    mapped = android_role(cls, clickable=False, checkable=False, editable=False, cache=cache)
    row = cols.row(
        path, cls, name, parent_row, box, value, states, role=None if role == mapped else role
    )
    resource_id = get("resource_id")
    cols.platform_ids["automation_id"].append(resource_id if type(resource_id) is str else None)
    cols.platform_ids["accessibility_id"].append(desc or None)
    cols.platform_ids["class_name"].append(cls or None)
    cols.platform_ids["temp_id"].append(str(view_id))
    return row, box


FORMAT = TreeFormat("droidbot", detect, build)
