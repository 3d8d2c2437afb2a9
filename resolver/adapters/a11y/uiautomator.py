"""Android ``uiautomator dump`` XML.

Input: ``<hierarchy rotation="0">`` with nested ``<node>`` elements whose attributes are
``index text resource-id class package content-desc checkable checked clickable enabled
focusable focused scrollable long-clickable password selected bounds`` (newer releases add
``drawing-order``, ``hint`` and ``display-id``). Booleans are ``"true"``/``"false"``;
``bounds="[l,t][r,b]"`` is in physical device pixels in the current rotation
(``coord_space="device_px"``).

Roles come from ``class`` and the flags (see :mod:`._android`). Names: an editable field is
named by ``content-desc`` or ``hint`` and its ``text`` is the value; anything else is named by
``text``, then ``content-desc``, then ``hint``, then (when clickable or focusable) by the text
of its descendants. Platform IDs: ``resource-id`` -> ``automation_id`` (the developer's ID),
``content-desc`` -> ``accessibility_id`` (what Appium calls the accessibility id on Android),
``class`` -> ``class_name``. Row and executor IDs are the child-index path from the first
window root (``a11y:0.0.2.1``), valid for one dump. Without ``screen_size`` the screen is
taken from the root node's bounds when they start at the origin.
"""

from __future__ import annotations

import re
from typing import Any, Final

from ...table import CandidateTable, TableBuilder
from . import BuildContext, TreeFormat, TreeInput
from ._android import LABELLED_BY_CONTENT, android_role, descendant_label, pick_name
from ._xml import local_name, xml_rows

_FLAG: Final[dict[str | None, bool]] = {"true": True, "false": False}
_TRI: Final[dict[str | None, int]] = {"true": 1, "false": 0}
# (enabled, visible, focused) by enabled and focused reading (-1, 0, 1 at index value + 1):
# rows share these instead of each allocating one for the garbage collector to track.
_STATES: Final[tuple[tuple[tuple[int, int, int], ...], ...]] = tuple(
    tuple((enabled, -1, focused) for focused in (-1, 0, 1)) for enabled in (-1, 0, 1)
)
_BOUNDS: Final[re.Pattern[str]] = re.compile(
    r"^\s*\[\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\]"
    r"\s*\[\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\]\s*$"
)


def detect(tree: TreeInput) -> bool:
    """An XML root ``<hierarchy>`` (or a lone ``<node>`` with ``bounds`` and ``class``)."""
    if tree.kind != "xml" or not isinstance(tree.data.tag, str):
        return False
    tag = local_name(tree.data.tag)
    if tag == "hierarchy":
        return True
    return tag == "node" and "bounds" in tree.data.attrib and "class" in tree.data.attrib


def parse_bounds(text: str | None) -> tuple[float, float, float, float] | None:
    """``"[l,t][r,b]"`` -> ``(l, t, r, b)``; ``None`` when malformed."""
    if not text:
        return None
    if text[0] == "[" and text[-1] == "]":
        parts = text[1:-1].replace("][", ",").split(",")
        if len(parts) == 4:
            try:
                return (float(parts[0]), float(parts[1]), float(parts[2]), float(parts[3]))
            except ValueError:
                return None
    match = _BOUNDS.match(text)
    if match is None:
        return None
    left, top, right, bottom = (float(v) for v in match.groups())
    return (left, top, right, bottom)


def _node_children(element: Any) -> list[Any]:
    return [kid for kid in element if kid.tag == "node"]


def _node_text(element: Any) -> str:
    get = element.attrib.get
    return str(get("text") or get("content-desc") or "")


def _nodes(root: Any, max_nodes: int) -> tuple[list[Any], list[int], list[str]]:
    """The ``<node>`` elements in pre-order, each one's parent row and its row ID (the
    child-index path below ``<hierarchy>``); any other element is no row, and its children
    hang on its parent."""
    skip = 1 if local_name(root.tag) == "hierarchy" else 0
    elements, parents, paths = xml_rows(root, max_nodes=max_nodes + 1)
    if [element.tag for element in elements].count("node") == len(elements) - skip:
        # Every element below <hierarchy> is a node: rows are positions shifted by one.
        ids = [path[2:] for path in paths[1:]] if skip else paths
        return elements[skip:], [parent - skip for parent in parents[skip:]], ids
    nodes: list[Any] = []
    parent_rows: list[int] = []
    ids = []
    rows: list[int] = []  # element position -> its row, or the row its children hang on
    for element, parent, path in zip(elements, parents, paths, strict=True):
        if skip and parent < 0:
            rows.append(-1)
            continue
        parent_row = rows[parent] if parent >= 0 else -1
        if element.tag != "node":
            rows.append(parent_row)
            continue
        rows.append(len(nodes))
        nodes.append(element)
        parent_rows.append(parent_row)
        ids.append(path[2:] if skip else path)
    return nodes, parent_rows, ids


def build(tree: TreeInput, context: BuildContext) -> CandidateTable:
    """One row per ``<node>``; ``<hierarchy>`` itself is not a row."""
    nodes, parent_rows, ids = _nodes(tree.data, context.max_nodes)
    cache: dict[tuple[str, bool, bool, bool], str] = {}
    # (class, clickable, checkable) -> (role, the role when it differs from the class's own)
    roles: dict[tuple[str, bool, bool], tuple[str, str | None]] = {}
    screen = context.screen_size
    flag, tri = _FLAG.get, _TRI.get
    raw_roles: list[str] = []
    names: list[str] = []
    boxes: list[tuple[float, float, float, float] | None] = []
    values: list[str] = []
    states: list[tuple[int, int, int]] = []
    resource_ids: list[str | None] = []
    descs: list[str | None] = []
    overrides: dict[int, str] = {}  # rows whose flags make their role (see _android)
    for row, (element, parent_row) in enumerate(zip(nodes, parent_rows, strict=True)):
        get = element.get  # cheaper than building the attrib proxy
        cls = get("class") or ""
        clickable = flag(get("clickable"), False) or flag(get("long-clickable"), False)
        checkable = flag(get("checkable"), False)
        known = roles.get((cls, clickable, checkable))
        if known is None:
            role = android_role(
                cls, clickable=clickable, checkable=checkable, editable=None, cache=cache
            )
            mapped = android_role(
                cls, clickable=False, checkable=False, editable=False, cache=cache
            )
            known = roles[(cls, clickable, checkable)] = (role, None if role == mapped else role)
        role, explicit = known
        desc = get("content-desc") or ""
        text = get("text") or ""
        name, value = pick_name(role, text, desc, "")
        if not name:  # the hint is the last resort, so it is read only then
            name, value = pick_name(role, text, desc, get("hint") or "")
            if not name and role in LABELLED_BY_CONTENT:
                name = descendant_label(element, _node_children, _node_text)
        box = parse_bounds(get("bounds"))
        if screen is None and parent_row < 0 and box is not None and box[:2] == (0.0, 0.0):
            screen = (box[2], box[3])
        if explicit is not None:
            overrides[row] = explicit
        raw_roles.append(cls)
        names.append(name)
        boxes.append(box)
        values.append(value)
        states.append(_STATES[tri(get("enabled"), -1) + 1][tri(get("focused"), -1) + 1])
        resource_ids.append(get("resource-id") or None)
        descs.append(desc or None)
    builder = TableBuilder(
        "a11y", "uiautomator", platform="android",
        id_columns=("automation_id", "accessibility_id", "class_name"),
        max_rows=context.max_nodes,
    )  # fmt: skip
    builder.extend(
        ids=ids,
        raw_roles=raw_roles,
        names=names,
        parents=parent_rows,
        boxes=boxes,
        values=values,
        states=states,
        platform_ids={
            "automation_id": resource_ids,
            "accessibility_id": descs,
            "class_name": [cls or None for cls in raw_roles],
        },
        roles=overrides,
    )
    return builder.build(coord_space="device_px", screen_size=screen)


FORMAT = TreeFormat("uiautomator", detect, build)
