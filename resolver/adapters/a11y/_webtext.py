"""Line parser for the text accessibility trees of browser benchmarks.

Three dialects, told apart by :func:`dialect`:

- ``webarena``: ``"\\t" * depth + "[id] role 'name'"`` then ``" prop: value"`` pairs
  (WebArena / VisualWebArena ``accessibility_tree`` observations);
- ``browsergym``: ``"\\t" * depth + "[bid] role 'name'"`` then ``", attr"`` / ``", attr=value"``
  items; ``StaticText`` and the root carry no ``[bid]`` (BrowserGym ``flatten_axtree_to_str``);
- ``som``: ``"[id] [TAG] [text]"``, flat, with ``[]`` for unmarked nodes (VisualWebArena's
  set-of-marks text).

Names are Python string literals (``repr``); they are decoded, escapes included. Depth comes
from indentation compared with the enclosing lines (tabs or the spaces a prompt template
turned them into). Lines that are not tree lines (a ``Tab 0 (current): ...`` header, blank
lines, a template's placeholder) are skipped.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import Final, NamedTuple

__all__ = ["WebLine", "dialect", "parse_lines"]

_TREE: Final[re.Pattern[str]] = re.compile(
    r"^(?P<indent>[ \t]*)(?:\[(?P<id>[^\]\s]*)\] )?(?P<role>[A-Za-z][\w-]*) (?P<quote>['\"])"
)
_SOM: Final[re.Pattern[str]] = re.compile(
    r"^\[(?P<id>[^\]\s]*)\] \[(?P<role>[^\]]+)\] \[(?P<name>.*)\]\s*$"
)
_WEBARENA_PROP: Final[re.Pattern[str]] = re.compile(r"^\s+\w+: \S")
_SCAN_LINES: Final[int] = 200


class WebLine(NamedTuple):
    """One parsed tree line."""

    indent: int
    node_id: str
    role: str
    name: str
    rest: str


def _literal(line: str, start: int) -> tuple[str, int]:
    """Decode the Python string literal opening at ``start``; return it and the index after."""
    quote = line[start]
    end = line.find(quote, start + 1)
    if end < 0:
        end = len(line)
    if line.find("\\", start + 1, end) < 0:
        return line[start + 1 : end], end + 1  # no escape before the closing quote
    j = start + 1
    escaped = False
    while j < len(line):
        char = line[j]
        if char == "\\":
            escaped = True
            j += 2
            continue
        if char == quote:
            break
        j += 1
    end = min(j, len(line))
    inner = line[start + 1 : end]
    if escaped:
        try:
            value = ast.literal_eval(line[start : end + 1])
            inner = value if isinstance(value, str) else inner
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            pass
    return inner, end + 1


def parse_lines(text: str, som: bool = False) -> Iterator[WebLine]:
    """Yield the tree lines of ``text`` in order."""
    if som:
        for line in text.splitlines():
            match = _SOM.match(line)
            if match is not None:
                yield WebLine(0, match.group("id"), match.group("role"), match.group("name"), "")
        return
    match_tree = _TREE.match
    for line in text.splitlines():
        match = match_tree(line)
        if match is None:
            continue
        indent, node_id, role, _ = match.groups()
        name, after = _literal(line, match.end() - 1)  # the match ends at the opening quote
        # Depth compares widths: a tab is eight columns, as the text was written.
        yield WebLine(len(indent.expandtabs(8)), node_id or "", role, name, line[after:])


def dialect(text: str) -> str | None:
    """``"webarena"``, ``"browsergym"``, ``"som"`` or ``None`` (not a web text tree)."""
    tree = som = other = 0
    browsergym = webarena = False
    for line in text.splitlines()[:_SCAN_LINES]:
        if not line.strip():
            continue
        if _SOM.match(line):
            som += 1
            continue
        match = _TREE.match(line)
        if match is None:
            other += 1
            continue
        tree += 1
        _, after = _literal(line, match.start("quote"))
        rest = line[after:]
        if match.group("id") is None or rest.startswith(","):
            browsergym = True
        elif _WEBARENA_PROP.match(rest):
            webarena = True
    if tree == 0 and som == 0:
        return None
    if som > tree:
        return "som" if som >= other else None
    if tree < other:  # mostly prose: a prompt, not a tree
        return None
    if browsergym and not webarena:
        return "browsergym"
    return "webarena"
