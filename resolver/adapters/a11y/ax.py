"""macOS Accessibility (AX) trees as JSON: nested dicts keyed by AX attribute names.

Input: one element dict (or a list of them) with ``AXRole``, ``AXSubrole``,
``AXRoleDescription``, ``AXTitle``, ``AXDescription``, ``AXValue``, ``AXIdentifier``,
``AXEnabled``, ``AXFocused``, ``AXFrame {x, y, w, h}`` (or ``AXPosition {x, y}`` with
``AXSize {w, h}``) and children under ``AXChildren`` (or, when that is absent or empty,
``AXChildrenInNavigationOrder``), as OpenAdapt's and atomacos-style ``dump_state`` write them.
Dumps that filter keys may drop ``AXRole``; ``AXRoleDescription`` (English) is used then.
OpenAdapt's window state ``{"title", "left", "top", "width", "height", "window_id", "meta",
"data"}`` is accepted too: ``data`` is the window's AX tree.

Roles: ``AXSubrole`` wins when it maps to something more telling than ``AXRole``
(``AXRow``/``AXOutlineRow`` -> ``treeitem``, ``AXTextField``/``AXSearchField`` ->
``searchbox``). Names: ``AXTitle``, then ``AXDescription``, then (for static text, headings
and cells) ``AXValue``; ``AXValue`` is the value otherwise. Boxes are global display points
with a top-left origin (``coord_space="screen_points"``): multiply by the backing scale factor
for Retina screenshot pixels. ``AXIdentifier`` (or ``AXDOMIdentifier`` in web areas) fills
``automation_id``. AX has no stable element IDs in a dump: row and executor IDs are the
child-index path (``a11y:0.3.1``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ...roles import canonical_role
from ...table import CandidateTable, TableBuilder
from .._common import as_bool, as_str, box_from_xywh
from . import BuildContext, TreeFormat, TreeInput
from ._walk import walk_nested

_MARKERS: Final[tuple[str, ...]] = (
    "AXRole", "AXChildren", "AXFrame", "AXTitle", "AXRoleDescription", "AXSubrole",
    "AXChildrenInNavigationOrder", "AXPosition", "AXIdentifier", "AXDescription",
)  # fmt: skip
_VALUE_NAMED: Final[frozenset[str]] = frozenset({"text", "heading", "cell", "label"})
_WEAK: Final[frozenset[str]] = frozenset({"unknown", "generic"})


def _is_ax(node: Any) -> bool:
    return isinstance(node, Mapping) and any(k in node for k in _MARKERS)


def _roots(data: Any) -> list[Any]:
    if isinstance(data, Mapping) and not _is_ax(data) and _is_ax(data.get("data")):
        return [data["data"]]  # OpenAdapt window state
    return list(data) if isinstance(data, list) else [data]


def detect(tree: TreeInput) -> bool:
    """A dict (or list of dicts) with AX attribute keys, or a window state holding one."""
    if tree.kind != "json":
        return False
    roots = _roots(tree.data)
    return bool(roots) and _is_ax(roots[0])


def _children(node: Mapping[str, Any]) -> Any:
    kids = node.get("AXChildren")
    if isinstance(kids, list) and kids:
        return kids
    return node.get("AXChildrenInNavigationOrder")


def _role(ax_role: str, subrole: str, description: str) -> str:
    role = canonical_role(ax_role, "ax") if ax_role else "unknown"
    if subrole:
        sub = canonical_role(subrole, "ax")
        if sub not in _WEAK:
            role = sub
    if role == "unknown" and description:
        role = canonical_role(description, "ax")
    return role


def _box(node: Mapping[str, Any]) -> tuple[float, float, float, float] | None:
    frame = node.get("AXFrame")
    if frame is not None:
        return box_from_xywh(frame)
    position, size = node.get("AXPosition"), node.get("AXSize")
    if isinstance(position, Mapping) and isinstance(size, Mapping):
        return box_from_xywh({**size, "x": position.get("x"), "y": position.get("y")})
    if isinstance(position, Sequence) and isinstance(size, Sequence):
        return box_from_xywh([*position, *size]) if len(position) == len(size) == 2 else None
    return None


def build(tree: TreeInput, context: BuildContext) -> CandidateTable:
    """One row per AX element, in pre-order."""
    builder = TableBuilder(
        "a11y", "ax", platform="ax", id_columns=("automation_id",), max_rows=context.max_nodes
    )
    roles: dict[tuple[str, str, str], str] = {}
    for node, parent, path in walk_nested(
        _roots(tree.data), children_key=_children, max_nodes=context.max_nodes
    ):
        ax_role = as_str(node.get("AXRole"))
        subrole = as_str(node.get("AXSubrole"))
        description = as_str(node.get("AXRoleDescription"))
        key = (ax_role, subrole, description)
        role = roles.get(key)
        if role is None:
            role = roles[key] = _role(ax_role, subrole, description)
        value = as_str(node.get("AXValue"))
        name = as_str(node.get("AXTitle")) or as_str(node.get("AXDescription"))
        if not name and role in _VALUE_NAMED:
            name, value = value, ""
        hidden = as_bool(node.get("AXHidden"))
        builder.add(
            path,
            raw_role=ax_role or description,
            role=role,
            name=name,
            parent=parent,
            bbox=_box(node),
            value=value,
            enabled=as_bool(node.get("AXEnabled")),
            visible=None if hidden is None else not hidden,
            focused=as_bool(node.get("AXFocused")),
            automation_id=as_str(node.get("AXIdentifier"))
            or as_str(node.get("AXDOMIdentifier"))
            or None,
        )
    return builder.build(coord_space="screen_points", screen_size=context.screen_size)


FORMAT = TreeFormat("ax", detect, build)
