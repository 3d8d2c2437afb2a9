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

from ...geometry import CoordSpace
from ...roles import canonical_role
from ...table import NO_STATE, CandidateTable, TableBuilder
from .._common import tri
from . import SourceInput, TreeFormat, TreeInput
from ._xml import local_name, pair, xml_rows

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
# (enabled, visible, focused) of a Linux node with states, at enabled + 2 * visible + 4 *
# focused: rows share these instead of each allocating one for the garbage collector to track.
_PRESENCE: Final[tuple[tuple[int, int, int], ...]] = tuple(
    (bits & 1, bits >> 1 & 1, bits >> 2 & 1) for bits in range(8)
)


def _family(uri: str) -> str:
    """The namespace family (``st``, ``cp``, ``attr``, ...) of a namespace URI."""
    if uri.startswith("uri:deskat:"):
        head = uri[len("uri:deskat:") :].split(".", 1)[0]
    elif "/ns/" in uri:
        head = uri.split("/ns/", 1)[1].strip("/")
    else:
        head = uri
    return _FAMILY_ALIASES.get(head.lower(), head.lower())


def _classify(key: str) -> str:
    """The field a qualified attribute name feeds (``""`` for none)."""
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


def _box(coord: str | None, size: str | None) -> tuple[float, float, float, float] | None:
    """The box from ``cp:screencoord`` and ``cp:size``; ``None`` when either is unusable."""
    if coord and size and coord[0] == size[0] == "(" and coord[-1] == size[-1] == ")":
        # The usual "(x, y)" and "(w, h)", read without a call per number (see pair()).
        x_text, comma, y_text = coord[1:-1].partition(",")
        w_text, comma2, h_text = size[1:-1].partition(",")
        try:
            if comma and comma2:
                x, y, w, h = float(x_text), float(y_text), float(w_text), float(h_text)
                if max(abs(x), abs(y), w, h) >= _MAX_COORD or w < 0 or h < 0:
                    return None
                return (x, y, x + w, y + h)
        except ValueError:
            pass
    origin, extent = pair(coord), pair(size)
    if origin is None or extent is None:
        return None
    x, y = origin
    w, h = extent
    if max(abs(x), abs(y), w, h) >= _MAX_COORD or w < 0 or h < 0:
        return None
    return (x, y, x + w, y + h)


def _ax_spelling(ax_role: str, subrole: str | None) -> str:
    """The AX string that decides the role: a telling subrole, else the role."""
    if subrole and canonical_role(subrole, "ax") not in ("unknown", "generic"):
        return subrole
    return ax_role


class _AnyKeys:
    """Reads every attribute, classified by namespace family and local name (the generic
    path, for trees whose root does not declare the usual namespaces)."""

    __slots__ = ("keymap",)

    def __init__(self) -> None:
        self.keymap: dict[str, str] = {}  # qualified name -> field ("" for none)

    def read(self, element: Any) -> tuple[dict[str, str], bool]:
        """The element's fields, and whether it has any state attribute."""
        keymap = self.keymap
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


class _DirectKeys:
    """The usual attributes by qualified name, for the fast path.

    ``fields`` maps a name to the field it alone feeds. Names that share a field (focus,
    class name) are in ``shared`` as ``(field, name)`` in :data:`_DIRECT` order, where the
    last one present wins; ``extra_states`` only tell that a node has states. Both are
    rare, so an element's attributes are looked up in ``fields`` first and in ``rare``
    (their union) only when that misses.
    """

    __slots__ = ("extra_states", "fields", "rare", "shared")

    def __init__(self) -> None:
        self.fields: dict[str, str] = {}
        self.shared: list[tuple[str, str]] = []
        self.extra_states: tuple[str, ...] = ()
        self.rare: frozenset[str] = frozenset()

    def read(self, element: Any) -> tuple[dict[str, str], bool]:
        """The element's fields, and whether it has any state attribute."""
        # One pass over the attributes is cheaper than looking each usual name up in lxml.
        known, unusual = self.fields, self.rare
        fields: dict[str, str] = {}
        rare: dict[str, str] | None = None
        for key, value in element.items():
            field = known.get(key)
            if field is not None:
                fields[field] = value
            elif key in unusual:
                if rare is None:
                    rare = {}
                rare[key] = value
        if rare is None:
            return fields, not _STATE_KINDS.isdisjoint(fields)
        for field, key in self.shared:
            if key in rare:
                fields[field] = rare[key]
        has_states = not _STATE_KINDS.isdisjoint(fields) or any(
            key in rare for key in self.extra_states
        )
        return fields, has_states


# Lower-case attributes OSWorld's Linux and Windows servers write; read by qualified name.
_DIRECT: Final[tuple[tuple[str, str, str], ...]] = (
    ("", "name", "name"), ("st", "enabled", "enabled"), ("st", "sensitive", "sensitive"),
    ("st", "showing", "showing"), ("st", "visible", "visible"), ("st", "focused", "focused"),
    ("st", "keyboard_focused", "focused"), ("cp", "screencoord", "coord"), ("cp", "size", "size"),
    ("val", "value", "value"), ("attr", "id", "automation_id"), ("attr", "class", "class_name"),
    ("class", "class_name", "class_name"), ("win", "class_name", "class_name"),
)  # fmt: skip
_EXTRA_STATES: Final[tuple[str, ...]] = ("focusable", "selectable", "editable", "checked")


def _keys(root: Any) -> _DirectKeys | _AnyKeys:
    """Qualified names of the usual attributes when the root declares the namespaces (the
    fast path); otherwise every element goes through the generic attribute scan."""
    uris: dict[str, str] = {}
    for uri in (root.nsmap or {}).values():
        if isinstance(uri, str):
            uris.setdefault(_family(uri), uri)
    if "st" not in uris or "cp" not in uris or "role" in uris:
        return _AnyKeys()
    named: list[tuple[str, str]] = []
    for family, local, field in _DIRECT:
        if not family:
            named.append((field, local))
        elif family in uris:
            named.append((field, f"{{{uris[family]}}}{local}"))
    feeds: dict[str, int] = {}
    for field, _ in named:
        feeds[field] = feeds.get(field, 0) + 1
    keys = _DirectKeys()
    for field, name in named:
        if feeds[field] > 1:
            keys.shared.append((field, name))
        else:
            keys.fields[name] = field
    keys.extra_states = tuple(f"{{{uris['st']}}}{local}" for local in _EXTRA_STATES)
    keys.rare = frozenset([*(name for _, name in keys.shared), *keys.extra_states])
    return keys


class _Roles:
    """Canonical roles of one tree, each spelling worked out once: ``tags`` (read directly
    in the walk loop) for rows whose tag is the role, :meth:`ax` for macOS rows."""

    __slots__ = ("platform", "spellings", "tags")

    def __init__(self, platform: str) -> None:
        self.platform = platform
        self.tags: dict[str, str] = {}  # local tag -> canonical role
        self.spellings: dict[tuple[str, str, str], tuple[str, str]] = {}

    def tag(self, tag: str) -> str:
        """Work out and keep the canonical role of ``tag``."""
        role = self.tags[tag] = canonical_role(tag, self.platform)
        return role

    def ax(self, tag: str, fields: dict[str, str]) -> tuple[str, str]:
        """``(raw role, canonical role)`` from ``role:AXRole``/``role:AXSubrole``."""
        ax_role, subrole = fields.get("ax_role", ""), fields.get("ax_subrole", "")
        spelled = self.spellings.get((tag, ax_role, subrole))
        if spelled is None:
            raw = _ax_spelling(ax_role, subrole) if ax_role else tag
            spelled = (raw, canonical_role(raw, self.platform))
            self.spellings[(tag, ax_role, subrole)] = spelled
        return spelled


def _explicit_states(fields: dict[str, str]) -> tuple[int, int, int]:
    """Windows: states are written ``"true"``/``"false"``; absent means unknown."""
    enabled = fields.get("enabled", fields.get("sensitive"))
    return (tri(enabled), tri(fields.get("visible")), tri(fields.get("focused")))


def build(tree: TreeInput, source: SourceInput) -> CandidateTable:
    """One row per element, in document order."""
    root = tree.data
    platform = _ROOTS.get(local_name(root.tag) if isinstance(root.tag, str) else "", "atspi")
    presence_only, uia = platform == "atspi", platform == "uia"
    builder = TableBuilder(
        "a11y", "atspi", platform=platform, id_columns=("automation_id", "class_name"),
        max_rows=source.max_nodes,
    )  # fmt: skip
    elements, parents, ids = xml_rows(root, builder)
    read, roles = _keys(root).read, _Roles(platform)
    tag_roles, append = roles.tags, builder.rows.append
    for element, parent, node_id in zip(elements, parents, ids, strict=True):
        fields, has_states = read(element)
        tag = element.tag
        if tag[0] == "{":
            tag = local_name(tag)
        if "ax_role" in fields or "ax_subrole" in fields:
            raw_role, role = roles.ax(tag, fields)
        else:
            raw_role, role = tag, tag_roles.get(tag) or roles.tag(tag)
        text = element.text
        text = text.strip() if text else ""
        name = fields.get("name") or fields.get("ax_title") or fields.get("ax_description") or ""
        if not name and role in _TEXT_NAMED:
            name = text
        if not presence_only:
            states = _explicit_states(fields)
        elif has_states:
            # Linux: a state is set when written; a node with states but without one lacks it.
            states = _PRESENCE[
                ("enabled" in fields or "sensitive" in fields)
                + 2 * ("showing" in fields and "visible" in fields)
                + 4 * ("focused" in fields)
            ]
        else:
            states = NO_STATE
        append((
            node_id, raw_role, name, parent, _box(fields.get("coord"), fields.get("size")),
            text or fields.get("value", ""), states,
            fields.get("automation_id") or None, fields.get("class_name") or (tag if uia else None),
        ))  # fmt: skip
    return builder.build(coord_space=CoordSpace.SCREEN_PX, screen_size=source.screen_size)


FORMAT = TreeFormat("atspi", detect, build)
