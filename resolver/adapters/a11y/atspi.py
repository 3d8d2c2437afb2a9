"""AT-SPI accessibility XML as OSWorld and WindowsAgentArena return it.

Input: the XML string of ``{"AT": xml}`` (OSWorld's ``/accessibility`` endpoint), parsed into
an lxml root. Three dialects share one shape and are all read here:

- **Linux (AT-SPI)**: root ``<desktop-frame>``; the tag is the AT-SPI role with ``-`` for
  spaces (``push-button``, ``page-tab``); states are ``st:<state>="true"`` and *present only
  when set* (a node with states but no ``st:enabled``/``st:sensitive`` is disabled).
- **Windows** (OSWorld's server and WindowsAgentArena, via pywinauto): root ``<desktop>``; the
  tag is the lower-cased Win32 class name (``button``, ``edit``, ``tag-32770``); states are
  written ``"true"``/``"false"``.
- **macOS** (OSWorld's server): ``role:AXRole``/``role:AXSubrole`` attributes name the role.

Attributes are matched by *local name* within a namespace family, so both URI generations
work: ``https://accessibility.<os>.example.org/ns/state`` and ``uri:deskat:state.at-spi.gnome.org``
(likewise ``attributes``, ``component``, ``value``, ``action``, ``uia``/``class``/``role``).

Columns: ``name`` is ``@name``; the element text (AT-SPI Text content) is the value, and the
name of static text with an empty ``@name``. Boxes come from ``cp:screencoord="(x, y)"`` and
``cp:size="(w, h)"`` in screen pixels (``coord_space="screen_px"``); OSWorld writes them only
for nodes that are visible and showing, so other rows have NaN boxes. ``attr:id`` (a
toolkit or DOM ID, or a UIA AutomationId when a producer writes one) fills ``automation_id``;
the Win32 class or ``attr:class`` fills ``class_name``. Row IDs and executor IDs are the
element's child-index path from the root (``a11y:0.0.1.3``); they are valid for one
observation only (OSWorld walks applications in parallel, so their order is not stable).
"""

from __future__ import annotations

from typing import Final

from ...roles import canonical_role
from ...table import CandidateTable, TableBuilder
from .._common import as_bool
from . import BuildContext, TreeFormat, TreeInput
from ._xml import local_name, pair, walk_xml

# Namespace family from a URI: ".../ns/<family>" or "uri:deskat:<family>.<host>".
_FAMILY_ALIASES: Final[dict[str, str]] = {
    "state": "st", "attributes": "attr", "component": "cp", "value": "val", "action": "act",
    "uia": "win", "win": "win", "class": "class", "role": "role", "id": "id",
}  # fmt: skip

# (family, local name) -> the field it feeds; everything else is ignored.
_FIELDS: Final[dict[tuple[str, str], str]] = {
    ("st", "enabled"): "enabled", ("st", "sensitive"): "sensitive",
    ("st", "showing"): "showing", ("st", "visible"): "visible",
    ("st", "focused"): "focused", ("st", "keyboard_focused"): "focused",
    ("st", "has_keyboard_focus"): "focused", ("st", "axenabled"): "enabled",
    ("st", "axfocused"): "focused",
    ("cp", "screencoord"): "coord", ("cp", "size"): "size",
    ("val", "value"): "value", ("attr", "id"): "automation_id",
    ("id", "automation_id"): "automation_id", ("win", "automation_id"): "automation_id",
    ("attr", "axidentifier"): "automation_id", ("attr", "class"): "class_name",
    ("class", "class_name"): "class_name", ("win", "class_name"): "class_name",
    ("role", "axrole"): "ax_role", ("role", "axsubrole"): "ax_subrole",
    ("attr", "axtitle"): "ax_title", ("attr", "axdescription"): "ax_description",
}  # fmt: skip

# Canonical roles whose element text is their name when @name is empty.
_TEXT_NAMED: Final[frozenset[str]] = frozenset(
    {"text", "label", "heading", "paragraph", "cell", "link", "listitem", "caption",
     "status", "alert", "columnheader", "rowheader", "menuitem", "tab", "button"}
)  # fmt: skip

_STATE_KINDS: Final[frozenset[str]] = frozenset(
    {"state", "enabled", "sensitive", "showing", "visible", "focused"}
)
_ROOTS: Final[dict[str, str]] = {"desktop-frame": "atspi", "desktop": "uia"}
_MAX_COORD: Final[float] = 1e7  # AT-SPI reports INT_MIN for nodes it cannot place


def _family(uri: str) -> str:
    if uri.startswith("uri:deskat:"):
        head = uri[len("uri:deskat:") :].split(".", 1)[0]
    elif "/ns/" in uri:
        head = uri.split("/ns/", 1)[1].strip("/")
    else:
        head = uri
    return _FAMILY_ALIASES.get(head.lower(), head.lower())


def _classify(key: str) -> str:
    if not key.startswith("{"):
        return {"name": "name", "automation_id": "automation_id"}.get(key, "")
    uri, _, local = key[1:].partition("}")
    family = _family(uri)
    return _FIELDS.get((family, local.lower()), "state" if family == "st" else "")


def detect(tree: TreeInput) -> bool:
    """An XML root ``desktop-frame``/``desktop``, or one using OSWorld/deskat namespaces."""
    if tree.kind != "xml" or not isinstance(tree.data.tag, str):
        return False
    if local_name(tree.data.tag) in _ROOTS:
        return True
    uris = [u for u in (tree.data.nsmap or {}).values() if isinstance(u, str)]
    return any(u.startswith("uri:deskat:") or "/ns/state" in u for u in uris)


def _box(fields: dict[str, str]) -> tuple[float, float, float, float] | None:
    origin, size = pair(fields.get("coord")), pair(fields.get("size"))
    if origin is None or size is None:
        return None
    x, y = origin
    w, h = size
    if max(abs(x), abs(y), w, h) >= _MAX_COORD or w < 0 or h < 0:
        return None
    return (x, y, x + w, y + h)


def _presence_states(
    fields: dict[str, str], has_states: bool
) -> tuple[bool | None, bool | None, bool | None]:
    """Linux: a state is set when written; a node with states but without one lacks it."""
    if not has_states:
        return None, None, None
    enabled = "enabled" in fields or "sensitive" in fields
    visible = "showing" in fields and "visible" in fields
    return enabled, visible, "focused" in fields


def _explicit_states(fields: dict[str, str]) -> tuple[bool | None, bool | None, bool | None]:
    """Windows: states are written ``"true"``/``"false"``; absent means unknown."""
    enabled = as_bool(fields.get("enabled", fields.get("sensitive")))
    return enabled, as_bool(fields.get("visible")), as_bool(fields.get("focused"))


def _ax_role(ax_role: str, subrole: str | None, tag: str) -> str:
    if subrole:
        sub = canonical_role(subrole, "ax")
        if sub not in ("unknown", "generic"):
            return sub
    role = canonical_role(ax_role, "ax")
    return role if role != "unknown" else canonical_role(tag, "ax")


def build(tree: TreeInput, context: BuildContext) -> CandidateTable:
    """One row per element, in document order."""
    root = tree.data
    platform = _ROOTS.get(local_name(root.tag) if isinstance(root.tag, str) else "", "atspi")
    presence_only = platform == "atspi"
    builder = TableBuilder(
        "a11y", "atspi", platform=platform, id_columns=("automation_id", "class_name"),
        max_rows=context.max_nodes,
    )  # fmt: skip
    keymap: dict[str, str] = {}
    roles: dict[tuple[str, str, str], str] = {}
    for element, parent, path in walk_xml(root, max_nodes=context.max_nodes):
        fields: dict[str, str] = {}
        has_states = False
        for key, value in element.attrib.items():
            kind = keymap.get(key)
            if kind is None:
                kind = keymap[key] = _classify(key)
            if kind:
                fields[kind] = value
                has_states = has_states or kind in _STATE_KINDS
        tag = local_name(element.tag)
        ax_role, subrole = fields.get("ax_role", ""), fields.get("ax_subrole", "")
        role_key = (tag, ax_role, subrole)
        role = roles.get(role_key)
        if role is None:
            role = _ax_role(ax_role, subrole, tag) if ax_role else canonical_role(tag, platform)
            roles[role_key] = role
        text = (element.text or "").strip()
        name = fields.get("name") or fields.get("ax_title") or fields.get("ax_description") or ""
        if not name and role in _TEXT_NAMED:
            name = text
        if presence_only:
            enabled, visible, focused = _presence_states(fields, has_states)
        else:
            enabled, visible, focused = _explicit_states(fields)
        builder.add(
            path,
            raw_role=ax_role or tag,
            role=role,
            name=name,
            parent=parent,
            bbox=_box(fields),
            value=text or fields.get("value", ""),
            enabled=enabled,
            visible=visible,
            focused=focused,
            automation_id=fields.get("automation_id") or None,
            class_name=fields.get("class_name") or (tag if platform == "uia" else None),
        )
    return builder.build(coord_space="screen_px", screen_size=context.screen_size)


FORMAT = TreeFormat("atspi", detect, build)
