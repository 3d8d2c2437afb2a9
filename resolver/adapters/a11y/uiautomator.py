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

from ...geometry import CoordSpace
from ...table import CandidateTable, TableBuilder
from .._common import STATES
from . import SourceInput, TreeFormat, TreeInput
from ._android import LABELLED_BY_CONTENT, AndroidRoles, descendant_label, pick_name, root_screen
from ._xml import local_name, xml_rows

_FLAG: Final[dict[str | None, bool]] = {"true": True, "false": False}
_TRI: Final[dict[str | None, int]] = {"true": 1, "false": 0}
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
    """The ``<node>`` children of an element."""
    return [kid for kid in element if kid.tag == "node"]


def _node_text(element: Any) -> str:
    """The text a node contributes to its ancestor's label."""
    get = element.attrib.get
    return str(get("text") or get("content-desc") or "")


def _nodes(root: Any, builder: TableBuilder) -> tuple[list[Any], list[int], list[str]]:
    """The ``<node>`` elements in pre-order, each one's parent row and its row ID (the
    child-index path below ``<hierarchy>``); any other element is no row, and its children
    hang on its parent."""
    skip = 1 if local_name(root.tag) == "hierarchy" else 0
    elements, parents, paths = xml_rows(root, builder, spare=1)
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


def _name(element: Any, role: str, text: str, desc: str) -> tuple[str, str]:
    """``(name, value)`` when the text and description leave the name empty: the hint,
    then (for controls) the text of the descendants."""
    name, value = pick_name(role, text, desc, element.get("hint") or "")
    if not name and role in LABELLED_BY_CONTENT:
        name = descendant_label(element, _node_children, _node_text)
    return name, value


def build(tree: TreeInput, source: SourceInput) -> CandidateTable:
    """One row per ``<node>``; ``<hierarchy>`` itself is not a row."""
    builder = TableBuilder(
        "a11y", "uiautomator", platform="android",
        id_columns=("automation_id", "accessibility_id", "class_name"),
        max_rows=source.max_nodes,
    )  # fmt: skip
    nodes, parent_rows, ids = _nodes(tree.data, builder)
    roles = AndroidRoles()
    known, overrides, append = roles.known, builder.roles, builder.rows.append
    flag, tri = _FLAG.get, _TRI.get
    for row, (element, parent_row, node_id) in enumerate(zip(nodes, parent_rows, ids, strict=True)):
        get = element.get  # cheaper than building the attrib proxy
        cls = get("class") or ""
        clickable = flag(get("clickable"), False) or flag(get("long-clickable"), False)
        flags = (cls, clickable, flag(get("checkable"), False), False)
        role, explicit = known.get(flags) or roles.learn(flags)
        if explicit is not None:
            overrides[row] = explicit
        desc = get("content-desc") or ""
        text = get("text") or ""
        name, value = pick_name(role, text, desc, "")
        if not name:  # the hint is the last resort, so it is read only then
            name, value = _name(element, role, text, desc)
        append((
            node_id, cls, name, parent_row, parse_bounds(get("bounds")), value,
            STATES[9 * tri(get("enabled"), -1) + tri(get("focused"), -1) + 10],
            get("resource-id") or None, desc or None, cls or None,
        ))  # fmt: skip
    screen = source.screen_size or root_screen(builder.rows)
    return builder.build(coord_space=CoordSpace.DEVICE_PX, screen_size=screen)


FORMAT = TreeFormat("uiautomator", detect, build)
