"""Playwright aria snapshots: the YAML of ``locator.ariaSnapshot()``, ``error-context.md`` and
Playwright MCP's ``browser_snapshot``.

Input: text. Each node is a YAML list item ``- role "name" [attr] ...``, followed either by
``: inline text`` or by ``:`` and more-indented children; an item containing ``:`` in its
name is single-quoted as a whole (``- 'option "Name: A–Z" [selected]'``). ``- text: ...`` is
a text node; ``- /url: ...`` and other ``/``-keys are properties of their parent, not nodes.
A Markdown page with the snapshot in a fenced ``yaml`` block (``error-context.md``) is read
from the fence. The parser is a small line reader of this subset, not a YAML library.

Names: the quoted name, else the inline text (``- paragraph: Hello`` is named ``Hello``);
with both, the inline text is the value. Attributes: ``[ref=e12]`` (the "ai" snapshot mode)
fills ``ref`` and is the executor ID (``a11y:e12``), ``[disabled]`` clears ``enabled``,
``[active]`` sets ``focused``. Rows without a ref get their child-index path (``a11y:0.3.1``).
Aria snapshots carry no geometry (``coord_space="none"``).
"""

from __future__ import annotations

import json
import re
from typing import Final

from ...errors import InvalidObservationError
from ...geometry import CoordSpace
from ...table import CandidateTable, TableBuilder
from . import SourceInput, TreeFormat, TreeInput
from ._walk import Outline

_ITEM: Final[re.Pattern[str]] = re.compile(r"^(?P<indent> *)- (?P<body>.*?)\s*$")
_FIRST: Final[re.Pattern[str]] = re.compile(r"^- ['\"]?[a-zA-Z][\w-]*(?:[ :]|$)")
_ROLE: Final[re.Pattern[str]] = re.compile(r"[/\w-]+")
_ATTR: Final[re.Pattern[str]] = re.compile(r"\[([^\]=]+)(?:=([^\]]*))?\]")
_FENCE: Final[re.Pattern[str]] = re.compile(r"^```ya?ml\s*$(.*?)^```\s*$", re.M | re.S)
_BLOCK: Final[frozenset[str]] = frozenset({"|", "|-", "|+", ">", ">-", ">+"})


def _unfence(text: str) -> str:
    """The body of the first fenced ``yaml`` block, or the whole text."""
    if "```" in text:
        match = _FENCE.search(text)
        if match is not None:
            return match.group(1)
    return text


def detect(tree: TreeInput) -> bool:
    """Text whose first item is ``- role ...`` (optionally inside a fenced yaml block)."""
    if tree.kind != "text" or not isinstance(tree.data, str):
        return False
    for line in _unfence(tree.data).splitlines()[:20]:
        if line.strip():
            return _FIRST.match(line.strip()) is not None
    return False


def _quoted(text: str, start: int) -> tuple[str, int]:
    """Read a quoted scalar at ``start``: JSON-style for ``"``, doubled ``''`` for ``'``."""
    quote = text[start]
    j = start + 1
    while j < len(text):
        if quote == '"' and text[j] == "\\":
            j += 2
            continue
        if text[j] == quote:
            if quote == "'" and text[j + 1 : j + 2] == "'":
                j += 2
                continue
            break
        j += 1
    raw = text[start : j + 1]
    if quote == "'":
        return raw[1:-1].replace("''", "'"), j + 1
    if "\\" not in raw:
        return raw[1:-1], j + 1
    try:
        value = json.loads(raw)
    except ValueError:
        value = raw[1:-1]
    return value if isinstance(value, str) else raw[1:-1], j + 1


def _scalar(text: str) -> str:
    """A YAML scalar: quoted (unescaped) or plain (stripped)."""
    text = text.strip()
    if text[:1] in ("'", '"'):
        return _quoted(text, 0)[0]
    return text


_PLAIN: Final[re.Pattern[str]] = re.compile(
    r'(?P<indent> *)- (?P<role>[/\w-]+)(?:\s*"(?P<name>[^"\\]*)")?'
    r"(?P<attrs>(?:\s*\[[^\]=]+(?:=[^\]]*)?\])*)"
)
"""The usual item line, read by one match: a role, a quoted name without escapes, attributes
(then nothing, or ``:`` and inline text)."""

_Item = tuple[int, str, str, dict[str, str], str | None]
"""``(indent, role, name, attributes, inline text)`` of an item line."""


def _read_line(line: str) -> _Item | None:
    """``(indent, role, name, attrs, inline)`` of an item line (``None``: not an item)."""
    plain = _PLAIN.match(line)
    after = line[plain.end() :].strip() if plain is not None else "?"
    if plain is not None and (not after or after[0] == ":"):
        # (anything else after it, an escaped or a regex name, is left to the general reading)
        found = plain.group("attrs")
        attrs = {k.strip(): v.strip() for k, v in _ATTR.findall(found)} if found else {}
        value = after[1:].strip()
        role, name = plain.group("role"), plain.group("name") or ""
        return len(plain.group("indent")), role, name, attrs, _scalar(value) if value else None
    item = _ITEM.match(line)
    if item is None:
        return None  # a block scalar's continuation or a stray line
    return (len(item.group("indent")), *_parse_item(item.group("body")))


def _parse_item(body: str) -> tuple[str, str, dict[str, str], str | None]:
    """``(role, name, attrs, inline)`` of one item; ``inline`` is None when children follow."""
    if body[:1] in ("'", '"'):  # the whole key was quoted because it holds ':'
        key, end = _quoted(body, 0)
        tail = body[end:].strip()
    else:
        key, tail = body, ""
    match = _ROLE.match(key)
    role = match.group(0) if match else ""
    pos = match.end() if match else 0
    name = ""
    rest = key[pos:].lstrip()
    if rest[:1] == '"':
        name, end = _quoted(rest, 0)
        rest = rest[end:]
    elif rest[:1] == "/" and not role.startswith("/"):  # a regex name in a template
        end = rest.find("/", 1)
        name, rest = rest[1:end] if end > 0 else rest[1:], rest[end + 1 :] if end > 0 else ""
    attrs: dict[str, str] = {}
    rest = rest.lstrip()
    attr = _ATTR.match(rest)
    while attr is not None:  # attributes come before the ':'; brackets after it are text
        attrs[attr.group(1).strip()] = (attr.group(2) or "").strip()
        rest = rest[attr.end() :].lstrip()
        attr = _ATTR.match(rest)
    after = tail or rest
    inline: str | None = None
    if after.startswith(":"):
        value = after[1:].strip()
        inline = _scalar(value) if value else None
    return role, name, attrs, inline


def build(tree: TreeInput, source: SourceInput) -> CandidateTable:
    """One row per node item; parents from indentation."""
    builder = TableBuilder(
        "a11y", "aria_snapshot", platform="cdp", id_columns=("ref",), max_rows=source.max_nodes
    )
    outline = Outline(builder)
    append = builder.rows.append
    for line in _unfence(str(tree.data)).splitlines():
        item = _read_line(line)
        if item is None:
            continue
        indent, role, name, attrs, inline = item
        if not role or role.startswith("/"):
            continue  # /url, /placeholder: properties of the parent
        parent, path = outline.place(indent)
        ref = attrs.get("ref") or None
        value = "" if inline is None or inline in _BLOCK else inline
        if not name:
            name, value = value, ""
        enabled = 0 if "disabled" in attrs and attrs["disabled"] != "false" else -1
        states = (enabled, -1, 1 if "active" in attrs else -1)
        append((ref or path, role, name, parent, None, value, states, ref))
    if not builder.rows:
        raise InvalidObservationError("no '- role \"name\"' items found in the aria snapshot")
    return builder.build(coord_space=CoordSpace.NONE, screen_size=source.screen_size)


FORMAT = TreeFormat("aria_snapshot", detect, build)
