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

from typing import Any, Final

from ...roles import canonical_role
from ...table import CandidateTable
from . import BuildContext, TreeFormat, TreeInput
from ._columns import Columns, tri
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


def _presence_states(fields: dict[str, str], has_states: bool) -> tuple[int, int, int]:
    """Linux: a state is set when written; a node with states but without one lacks it."""
    if not has_states:
        return (-1, -1, -1)
    enabled = "enabled" in fields or "sensitive" in fields
    visible = "showing" in fields and "visible" in fields
    return (int(enabled), int(visible), int("focused" in fields))


def _explicit_states(fields: dict[str, str]) -> tuple[int, int, int]:
    """Windows: states are written ``"true"``/``"false"``; absent means unknown."""
    enabled = fields.get("enabled", fields.get("sensitive"))
    return (tri(enabled), tri(fields.get("visible")), tri(fields.get("focused")))


def _ax_spelling(ax_role: str, subrole: str | None) -> str:
    """The AX string that decides the role: a telling subrole, else the role."""
    if subrole and canonical_role(subrole, "ax") not in ("unknown", "generic"):
        return subrole
    return ax_role


class _DirectKeys(list[tuple[str, str]]):
    """(field, qualified attribute name) pairs, read with ``element.get`` one by one."""

    extra_states: tuple[str, ...] = ()


# Lower-case attributes OSWorld's Linux and Windows servers write; read by qualified name.
_DIRECT: Final[tuple[tuple[str, str, str], ...]] = (
    ("", "name", "name"), ("st", "enabled", "enabled"), ("st", "sensitive", "sensitive"),
    ("st", "showing", "showing"), ("st", "visible", "visible"), ("st", "focused", "focused"),
    ("st", "keyboard_focused", "focused"), ("cp", "screencoord", "coord"), ("cp", "size", "size"),
    ("val", "value", "value"), ("attr", "id", "automation_id"), ("attr", "class", "class_name"),
    ("class", "class_name", "class_name"), ("win", "class_name", "class_name"),
)  # fmt: skip
_EXTRA_STATES: Final[tuple[str, ...]] = ("focusable", "selectable", "editable", "checked")


def _direct_keys(root: Any) -> _DirectKeys | None:
    """Qualified names of the usual attributes when the root declares the namespaces (the
    fast path); ``None`` sends every element through the generic attribute scan."""
    uris: dict[str, str] = {}
    for uri in (root.nsmap or {}).values():
        if isinstance(uri, str):
            uris.setdefault(_family(uri), uri)
    if "st" not in uris or "cp" not in uris or "role" in uris:
        return None
    keys = _DirectKeys()
    for family, local, field in _DIRECT:
        if not family:
            keys.append((field, local))
        elif family in uris:
            keys.append((field, f"{{{uris[family]}}}{local}"))
    keys.extra_states = tuple(f"{{{uris['st']}}}{local}" for local in _EXTRA_STATES)
    return keys


def _read_attributes(element: Any, keymap: dict[str, str]) -> tuple[dict[str, str], bool]:
    """Every attribute, classified by namespace family and local name (the generic path)."""
    fields: dict[str, str] = {}
    has_states = False
    for key, value in element.attrib.items():
        kind = keymap.get(key)
        if kind is None:
            kind = keymap[key] = _classify(key)
        if kind:
            fields[kind] = value
            has_states = has_states or kind in _STATE_KINDS
    return fields, has_states


def build(tree: TreeInput, context: BuildContext) -> CandidateTable:
    """One row per element, in document order."""
    root = tree.data
    platform = _ROOTS.get(local_name(root.tag) if isinstance(root.tag, str) else "", "atspi")
    presence_only = platform == "atspi"
    cols = Columns(("automation_id", "class_name"), context.max_nodes)
    automation_ids, class_names = (
        cols.platform_ids["automation_id"],
        cols.platform_ids["class_name"],
    )
    keymap: dict[str, str] = {}
    spellings: dict[tuple[str, str, str], tuple[str, str]] = {}
    direct = _direct_keys(root)
    for element, parent, path in walk_xml(root, max_nodes=context.max_nodes):
        if direct is not None:
            get = element.get
            fields = {kind: v for kind, key in direct if (v := get(key)) is not None}
            has_states = any(k in fields for k in _STATE_KINDS) or any(
                get(key) is not None for key in direct.extra_states
            )
        else:
            fields, has_states = _read_attributes(element, keymap)
        tag = element.tag
        if tag[0] == "{":
            tag = local_name(tag)
        ax_role, subrole = fields.get("ax_role", ""), fields.get("ax_subrole", "")
        spelled = spellings.get((tag, ax_role, subrole))
        if spelled is None:
            raw = _ax_spelling(ax_role, subrole) if ax_role else tag
            spelled = spellings[(tag, ax_role, subrole)] = (raw, canonical_role(raw, platform))
        raw_role, role = spelled
        text = element.text
        text = text.strip() if text else ""
        name = fields.get("name") or fields.get("ax_title") or fields.get("ax_description") or ""
        if not name and role in _TEXT_NAMED:
            name = text
        states = _presence_states(fields, has_states) if presence_only else _explicit_states(fields)
        cols.row(
            path, raw_role, name, parent, _box(fields), text or fields.get("value", ""), states
        )
        automation_ids.append(fields.get("automation_id") or None)
        class_names.append(fields.get("class_name") or (tag if platform == "uia" else None))
    return cols.build("atspi", platform, coord_space="screen_px", screen_size=context.screen_size)


FORMAT = TreeFormat("atspi", detect, build)
