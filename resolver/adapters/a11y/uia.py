"""Windows UI Automation trees as JSON.

Accepted shapes (keys are read through one alias table, so mixtures work too):

- the ``uiautomation`` package's style: ``{"Name", "ControlType" | "ControlTypeName",
  "AutomationId", "ClassName", "BoundingRectangle", "IsEnabled", "HasKeyboardFocus",
  "IsOffscreen", "RuntimeId", "Children": [...]}``; ``ControlType`` may be the numeric UIA
  control type ID (``50000``) or a name (``"ButtonControl"``, ``"Button"``);
- AgentNetTool's ``{"Name", "ControlType", "BoundingRectangle", "Depth", "Children"}``;
- pywinauto ``get_properties()`` trees as OpenAdapt stores them: ``{"class_name",
  "friendly_class_name", "texts", "control_type", "automation_id", "rectangle", "is_visible",
  "is_enabled", "children"}``, and OpenAdapt's window state ``{"title", "left", "top",
  "width", "height", "window_id", "meta", "data"}`` (``data`` is the tree; a state with only
  ``meta`` gives one row for the window).

``BoundingRectangle``/``rectangle`` is ``{left, top, right, bottom}``, ``[l, t, r, b]`` or the
string ``"(l,t,r,b)"``, in screen pixels (``coord_space="screen_px"``); an all-zero rectangle
(what UIA reports for off-screen elements) counts as unknown. ``AutomationId`` fills
``automation_id`` and ``ClassName`` ``class_name``. A window is a dialog when its class is the
Win32 dialog class ``#32770`` or it says so (``IsDialog``, ``IsModal``, ``WindowIsModal``, a
``LocalizedControlType`` of "dialog"), and a plain window when its class is another (pywinauto's
friendly class ``Dialog`` names every top-level window); a pane, group or custom element is a
dialog when it says so (a page's ``role=dialog`` in a browser is a ``Pane`` with
``IsDialog``). Executor IDs are the UIA RuntimeId joined with dots (``a11y:42.1704.4``) when
the dump has one, else the child-index path (``a11y:0.2``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from ...geometry import CoordSpace
from ...roles import WINDOW_SPELLINGS, windows_window_role
from ...table import CandidateTable, TableBuilder
from .._common import as_str, box_from_ltrb, box_from_xywh, first_mapping, tri, tri_not
from . import SourceInput, TreeFormat, TreeInput
from ._walk import walk_nested

# UIA_*ControlTypeId values (UIAutomationClient.h), 50000 + offset.
_CONTROL_TYPES: Final[tuple[str, ...]] = (
    "Button", "Calendar", "CheckBox", "ComboBox", "Edit", "Hyperlink", "Image", "ListItem",
    "List", "Menu", "MenuBar", "MenuItem", "ProgressBar", "RadioButton", "ScrollBar", "Slider",
    "Spinner", "StatusBar", "Tab", "TabItem", "Text", "ToolBar", "ToolTip", "Tree", "TreeItem",
    "Custom", "Group", "Thumb", "DataGrid", "DataItem", "Document", "SplitButton", "Window",
    "Pane", "Header", "HeaderItem", "Table", "TitleBar", "Separator", "SemanticZoom", "AppBar",
)  # fmt: skip
_FIRST_CONTROL_TYPE: Final[int] = 50000

_ALIASES: Final[dict[str, tuple[str, ...]]] = {
    "name": ("Name", "name", "title", "window_text"),
    "type": ("ControlTypeName", "ControlType", "control_type", "friendly_class_name"),
    "automation_id": ("AutomationId", "automation_id", "auto_id"),
    "class_name": ("ClassName", "class_name"),
    "rect": ("BoundingRectangle", "rectangle", "Rect", "rect"),
    "enabled": ("IsEnabled", "is_enabled"),
    "focused": ("HasKeyboardFocus", "has_keyboard_focus", "HasFocus"),
    "visible": ("is_visible", "IsVisible"),
    "runtime_id": ("RuntimeId", "runtime_id"),
    "value": ("Value", "value", "ValueValue"),
}


@dataclass(frozen=True)
class _Keys:
    """The key names of one dump style (a tree uses one style throughout)."""

    enabled: str
    focused: str
    visible: str
    runtime_id: str
    value: str
    automation_id: str
    class_name: str


_UIA: Final[_Keys] = _Keys(
    "IsEnabled", "HasKeyboardFocus", "IsVisible", "RuntimeId", "Value", "AutomationId",
    "ClassName",
)  # fmt: skip
_PYWINAUTO: Final[_Keys] = _Keys(
    "is_enabled", "has_keyboard_focus", "is_visible", "runtime_id", "value", "automation_id",
    "class_name",
)  # fmt: skip
_MARKERS: Final[frozenset[str]] = frozenset(
    {"ControlType", "ControlTypeName", "BoundingRectangle", "AutomationId", "RuntimeId",
     "friendly_class_name", "control_type"}
)  # fmt: skip
_WINDOW_STATE: Final[frozenset[str]] = frozenset({"meta", "title"})
_NUMBERS: Final[re.Pattern[str]] = re.compile(r"-?\d+(?:\.\d+)?")


def _get(node: Mapping[str, Any], field: str) -> Any:
    """The first non-null value of ``field`` under any of its key aliases."""
    for key in _ALIASES[field]:
        value = node.get(key)
        if value is not None:
            return value
    return None


def _is_uia(node: Any) -> bool:
    """Whether ``node`` is a dict with UIA-style keys (and no nested-format ``role``)."""
    return isinstance(node, Mapping) and "role" not in node and any(k in node for k in _MARKERS)


def _window_row(state: Mapping[str, Any]) -> dict[str, Any]:
    """A one-node tree for an OpenAdapt window state that carries no ``data``."""
    meta = state.get("meta")
    meta = meta if isinstance(meta, Mapping) else {}
    rect = meta.get("rectangle")
    if rect is None:
        rect = box_from_xywh(
            [state.get("left"), state.get("top"), state.get("width"), state.get("height")]
        )
    return {
        "name": as_str(state.get("title")),
        "friendly_class_name": as_str(meta.get("friendly_class_name")) or "Window",
        "class_name": meta.get("class_name"),
        "rectangle": rect,
        "is_visible": meta.get("is_visible"),
        "is_enabled": meta.get("is_enabled"),
    }


def _roots(data: Any) -> list[Any]:
    """The roots: a window state's tree (or its one window row), a list, or the dict."""
    if isinstance(data, Mapping) and data.keys() >= _WINDOW_STATE and not _is_uia(data):
        inner = data.get("data")
        if isinstance(inner, Mapping) and not any(k.startswith("AX") for k in inner):
            return [inner]
        meta = data.get("meta")
        if isinstance(meta, Mapping) and ("class_name" in meta or "rectangle" in meta):
            return [_window_row(data)]
        return []
    return list(data) if isinstance(data, list) else [data]


def detect(tree: TreeInput) -> bool:
    """UIA-style keys (``ControlType``, ``BoundingRectangle``, ...) or a Windows window state."""
    root = first_mapping(_roots(tree.data)) if tree.kind == "json" else None
    if root is None:
        return False
    return _is_uia(root) or ("class_name" in root and ("rectangle" in root or "texts" in root))


def _rect(value: Any) -> tuple[float, float, float, float] | None:
    """A rectangle (mapping, list or ``"(l,t,r,b)"`` string); all zeros is unknown."""
    if isinstance(value, str):
        numbers = _NUMBERS.findall(value)[:4]
        value = numbers if len(numbers) == 4 else None
    box = box_from_ltrb(value)
    if box is not None and box == (0.0, 0.0, 0.0, 0.0):
        return None
    return box


def _type_name(value: Any) -> str:
    """The control type's name, from a UIA control type ID or a string."""
    if isinstance(value, int) and not isinstance(value, bool):
        offset = value - _FIRST_CONTROL_TYPE
        return _CONTROL_TYPES[offset] if 0 <= offset < len(_CONTROL_TYPES) else ""
    return as_str(value)


def _name(node: Mapping[str, Any]) -> str:
    """The name, else the first of pywinauto's ``texts``."""
    name = _get(node, "name")
    if name is None:
        texts = node.get("texts")
        if isinstance(texts, list) and texts:
            name = texts[0]
    return as_str(name)


_DIALOG_WORDS: Final[frozenset[str]] = frozenset({"dialog", "dialogcontrol", "alert dialog"})
"""Localized control types (English) and control type names that say "dialog"."""


def says_dialog(read: Callable[[str], Any]) -> bool:
    """Whether a UIA element says it is a dialog, its properties read by ``read`` (a dump's
    ``dict.get``, or a live control's attribute getter): ``IsDialog`` (UIA's property since
    Windows 10 1809), a modal window pattern (``IsModal``, ``WindowIsModal``) or the localized
    control type "dialog" or "alert dialog" (what Windows shows for them in English), also where a
    dump writes that as the control type (pywinauto's friendly class ``Dialog`` is no such
    word: it gives it every top-level window)."""
    if any(read(key) is True for key in ("IsDialog", "IsModal", "WindowIsModal")):
        return True
    for key in ("LocalizedControlType", "ControlTypeName", "ControlType"):
        said = read(key)
        if isinstance(said, str) and said.strip().lower() in _DIALOG_WORDS:
            return True
    return False


def _runtime_id(node: Mapping[str, Any]) -> str:
    """The RuntimeId joined with dots (``42.1704.4``)."""
    value = _get(node, "runtime_id")
    if isinstance(value, (list, tuple)) and value:
        return ".".join(as_str(v) for v in value)
    return as_str(value)


def _children(node: Mapping[str, Any]) -> Any:
    """``Children`` (uiautomation style) or ``children`` (pywinauto)."""
    kids = node.get("Children")
    return kids if kids is not None else node.get("children")


def _keys(roots: list[Any]) -> _Keys:
    """The dump style of the tree, from its first root."""
    if roots and isinstance(roots[0], Mapping) and "class_name" in roots[0]:
        return _PYWINAUTO
    return _UIA


def build(tree: TreeInput, source: SourceInput) -> CandidateTable:
    """One row per element, in pre-order."""
    builder = TableBuilder(
        "a11y", "uia", platform="uia", id_columns=("automation_id", "class_name"),
        max_rows=source.max_nodes,
    )  # fmt: skip
    append = builder.rows.append
    roots = _roots(tree.data)
    keys = _keys(roots)
    for node, parent, path in walk_nested(
        roots, children_key=_children, max_nodes=source.max_nodes, max_depth=source.limits.max_depth
    ):
        get = node.get
        kind = get("ControlTypeName")
        raw_role = kind if type(kind) is str else _type_name(_get(node, "type"))
        name = get("Name")
        if type(name) is not str:
            name = _name(node)
        visible = tri(get(keys.visible))
        if visible < 0 and "IsOffscreen" in node:
            visible = tri_not(get("IsOffscreen"))
        runtime = get(keys.runtime_id)
        runtime = runtime if type(runtime) is str else _runtime_id(node) if runtime else ""
        value = get(keys.value)
        value = value if type(value) is str else "" if value is None else as_str(value)
        automation_id = get(keys.automation_id)
        if type(automation_id) is not str:
            automation_id = as_str(_get(node, "automation_id"))
        class_name = get(keys.class_name)
        if type(class_name) is not str:
            class_name = as_str(_get(node, "class_name"))
        if raw_role in WINDOW_SPELLINGS:
            raw_role = windows_window_role(raw_role, class_name, says_dialog(get))
        rect = get("BoundingRectangle")
        if type(rect) is dict and len(rect) == 4:
            # The usual {left, top, right, bottom}, left for the table to check.
            box: Any = (rect.get("left"), rect.get("top"), rect.get("right"), rect.get("bottom"))
            if box == (0, 0, 0, 0):
                box = None  # what UIA reports for off-screen elements
        else:
            box = _rect(_get(node, "rect"))
        states = (tri(get(keys.enabled)), visible, tri(get(keys.focused)))
        append((
            runtime or path, raw_role, name, parent, box, value, states,
            automation_id or None, class_name or None,
        ))  # fmt: skip
    return builder.build(coord_space=CoordSpace.SCREEN_PX, screen_size=source.screen_size)


FORMAT = TreeFormat("uia", detect, build)
