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
``searchbox``); the deciding spelling is the row's raw role. Names: ``AXTitle``, then
``AXDescription``, then (for static text, headings and cells) ``AXValue``; ``AXValue`` is the
value otherwise. Boxes are global display points
with a top-left origin (``coord_space="screen_points"``): multiply by the backing scale factor
for Retina screenshot pixels. ``AXIdentifier`` (or ``AXDOMIdentifier`` in web areas) fills
``automation_id``. AX has no stable element IDs in a dump: row and executor IDs are the
child-index path (``a11y:0.3.1``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ...geometry import CoordSpace
from ...roles import canonical_role
from ...table import CandidateTable, TableBuilder
from .._common import as_str, box_from_xywh, tri
from . import SourceInput, TreeFormat, TreeInput
from ._walk import walk_nested

_MARKERS: Final[tuple[str, ...]] = (
    "AXRole", "AXChildren", "AXFrame", "AXTitle", "AXRoleDescription", "AXSubrole",
    "AXChildrenInNavigationOrder", "AXPosition", "AXIdentifier", "AXDescription",
)  # fmt: skip
# Spellings whose AXValue is their name (static text, headings, cells).
_VALUE_NAMED_SPELLINGS: Final[frozenset[str]] = frozenset(
    {"AXStaticText", "AXHeading", "AXCell", "text", "heading", "cell"}
)
_WEAK: Final[frozenset[str]] = frozenset({"unknown", "generic"})


def _is_ax(node: Any) -> bool:
    """Whether ``node`` is a dict with AX attribute keys."""
    return isinstance(node, Mapping) and any(k in node for k in _MARKERS)


def _roots(data: Any) -> list[Any]:
    """The root elements: the window state's ``data``, a list, or the dict itself."""
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
    """``AXChildren``, or ``AXChildrenInNavigationOrder`` when that is absent or empty."""
    kids = node.get("AXChildren")
    if isinstance(kids, list) and kids:
        return kids
    return node.get("AXChildrenInNavigationOrder")


def _role_spelling(ax_role: str, subrole: str, description: str) -> str:
    """The AX string that decides the role: the subrole when it is telling, else the role,
    else the role description (the table maps it with the ``ax`` spellings)."""
    if subrole and canonical_role(subrole, "ax") not in _WEAK:
        return subrole
    if ax_role and canonical_role(ax_role, "ax") != "unknown":
        return ax_role
    return description or ax_role


def _box(node: Mapping[str, Any]) -> tuple[float, float, float, float] | None:
    """``AXFrame``, or ``AXPosition`` with ``AXSize`` (dicts or pairs), as ``(l, t, r, b)``."""
    frame = node.get("AXFrame")
    if frame is not None:
        return box_from_xywh(frame)
    position, size = node.get("AXPosition"), node.get("AXSize")
    if isinstance(position, Mapping) and isinstance(size, Mapping):
        return box_from_xywh({**size, "x": position.get("x"), "y": position.get("y")})
    if isinstance(position, Sequence) and isinstance(size, Sequence):
        return box_from_xywh([*position, *size]) if len(position) == len(size) == 2 else None
    return None


def build(tree: TreeInput, source: SourceInput) -> CandidateTable:
    """One row per AX element, in pre-order."""
    builder = TableBuilder(
        "a11y", "ax", platform="ax", id_columns=("automation_id",), max_rows=source.max_nodes
    )
    append = builder.rows.append
    spellings: dict[tuple[Any, Any, Any], str] = {}
    for node, parent, path in walk_nested(
        _roots(tree.data),
        children_key=_children,
        max_nodes=source.max_nodes,
        max_depth=source.limits.max_depth,
    ):
        get = node.get
        key = (get("AXRole"), get("AXSubrole"), get("AXRoleDescription"))
        spelling = spellings.get(key)
        if spelling is None:
            spelling = spellings[key] = _role_spelling(*(as_str(k) for k in key))
        value = get("AXValue")
        value = value if type(value) is str else as_str(value)
        name = get("AXTitle")
        if not name or type(name) is not str:
            name = as_str(get("AXDescription"))
            if not name and spelling in _VALUE_NAMED_SPELLINGS:
                name, value = value, ""
        frame = get("AXFrame")
        if type(frame) is dict and "w" in frame:
            # The usual {x, y, w, h}, read without the general checks (the table stores a
            # box that is not four finite numbers as unknown).
            box: Any = (frame.get("x"), frame.get("y"), frame.get("w"), frame.get("h"))
            try:
                box = (box[0], box[1], box[0] + box[2], box[1] + box[3])
            except TypeError:
                box = None
        else:
            box = _box(node)
        hidden = tri(get("AXHidden"))
        states = (tri(get("AXEnabled")), -1 if hidden < 0 else 1 - hidden, tri(get("AXFocused")))
        identifier = get("AXIdentifier") or get("AXDOMIdentifier")
        append((
            path, spelling, name, parent, box, value, states,
            identifier if type(identifier) is str and identifier else None,
        ))  # fmt: skip
    return builder.build(coord_space=CoordSpace.SCREEN_POINTS, screen_size=source.screen_size)


FORMAT = TreeFormat("ax", detect, build)
