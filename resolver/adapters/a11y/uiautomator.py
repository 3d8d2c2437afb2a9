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

from ...table import CandidateTable
from . import BuildContext, TreeFormat, TreeInput
from ._android import LABELLED_BY_CONTENT, android_role, descendant_label, pick_name
from ._columns import Columns
from ._xml import local_name, walk_xml

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
                left, top, right, bottom = (float(v) for v in parts)
            except ValueError:
                return None
            return (left, top, right, bottom)
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


def build(tree: TreeInput, context: BuildContext) -> CandidateTable:
    """One row per ``<node>``; ``<hierarchy>`` itself is not a row."""
    root = tree.data
    skip_root = local_name(root.tag) == "hierarchy"
    cols = Columns(("automation_id", "accessibility_id", "class_name"), context.max_nodes)
    resource_ids = cols.platform_ids["automation_id"]
    descs = cols.platform_ids["accessibility_id"]
    classes = cols.platform_ids["class_name"]
    rows: list[int] = []
    cache: dict[tuple[str, bool, bool, bool], str] = {}
    plain: dict[str, str] = {}
    screen = context.screen_size
    for element, parent, path in walk_xml(root, max_nodes=context.max_nodes + 1):
        if skip_root and parent < 0:
            rows.append(-1)
            continue
        if skip_root:
            path = path[2:]
        parent_row = rows[parent] if parent >= 0 else -1
        if element.tag != "node":
            rows.append(parent_row)  # an unknown wrapper: its children hang on its parent
            continue
        get = element.get  # cheaper than building the attrib proxy
        cls = get("class") or ""
        clickable = _FLAG.get(get("clickable"), False) or _FLAG.get(get("long-clickable"), False)
        checkable = _FLAG.get(get("checkable"), False)
        role = android_role(
            cls, clickable=clickable, checkable=checkable, editable=None, cache=cache
        )
        mapped = plain.get(cls)
        if mapped is None:
            mapped = plain[cls] = android_role(
                cls, clickable=False, checkable=False, editable=False, cache=cache
            )
        desc = get("content-desc") or ""
        name, value = pick_name(role, get("text") or "", desc, get("hint") or "")
        if not name and role in LABELLED_BY_CONTENT:
            name = descendant_label(element, _node_children, _node_text)
        box = parse_bounds(get("bounds"))
        if screen is None and parent_row < 0 and box is not None and box[:2] == (0.0, 0.0):
            screen = (box[2], box[3])
        states = (_TRI.get(get("enabled"), -1), -1, _TRI.get(get("focused"), -1))
        explicit = None if role == mapped else role
        rows.append(cols.row(path, cls, name, parent_row, box, value, states, role=explicit))
        resource_ids.append(get("resource-id") or None)
        descs.append(desc or None)
        classes.append(cls or None)
    return cols.build("uiautomator", "android", coord_space="device_px", screen_size=screen)


FORMAT = TreeFormat("uiautomator", detect, build)
