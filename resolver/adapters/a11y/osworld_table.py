"""OSWorld's linearised accessibility table (the ``a11y_tree`` prompt observation).

Input: tab-separated text whose header is
``tag  name  text  class  description  position (top-left x&y)  size (w&h)``, one row per
node kept by OSWorld's filter; or the set-of-marks variant whose header starts with
``index`` (``index  tag  name  text``), where the index is the mark drawn on the screenshot.
Text containing ``"`` is CSV-quoted and empty text is written ``""``; a trimmed table ends
with ``[...]``.

The table is flat: rows have no parents, so container paths are empty. Roles come from the
tag as AT-SPI spells it (``push-button``); names from ``name``, or from ``text`` for static
text; positions are ``"(x, y)"`` and ``"(w, h)"`` in screen pixels
(``coord_space="screen_px"``). Row and executor IDs are the mark index when the table has one,
else the 0-based row number (``a11y:7``). ``class`` (always empty on Ubuntu, a quirk of
OSWorld's namespace map) fills ``class_name``.
"""

from __future__ import annotations

import csv
from typing import Final

from ...errors import InvalidObservationError
from ...roles import canonical_role
from ...table import CandidateTable
from . import BuildContext, TreeFormat, TreeInput
from ._columns import Columns
from ._xml import pair

_UNKNOWN: Final[tuple[int, int, int]] = (-1, -1, -1)
_POSITION: Final[str] = "position (top-left x&y)"
_SIZE: Final[str] = "size (w&h)"
# Roles whose text is their name when the name column is empty (as in the XML adapter).
_TEXT_NAMED: Final[frozenset[str]] = frozenset(
    {"text", "label", "heading", "paragraph", "cell", "link", "listitem", "caption"}
)


def _header(text: str) -> list[str] | None:
    first = text.split("\n", 1)[0].rstrip("\r")
    columns = [c.strip() for c in first.split("\t")]
    if len(columns) >= 3 and (columns[:2] == ["tag", "name"] or columns[:2] == ["index", "tag"]):
        return columns
    return None


def detect(tree: TreeInput) -> bool:
    """Tab-separated text with OSWorld's ``tag  name ...`` or ``index  tag ...`` header."""
    return tree.kind == "text" and isinstance(tree.data, str) and _header(tree.data) is not None


def build(tree: TreeInput, context: BuildContext) -> CandidateTable:
    """One row per table line."""
    text = str(tree.data)
    header = _header(text)
    if header is None:
        raise InvalidObservationError("an OSWorld table needs a 'tag<TAB>name...' header")
    where = {column: i for i, column in enumerate(header)}
    cols = Columns(("class_name",), context.max_nodes)
    roles: dict[str, str] = {}
    width = len(header)
    at = [where.get(c, width) for c in ("tag", "name", "text", "class", _POSITION, _SIZE)]
    at_index = where.get("index", width)
    classes = cols.platform_ids["class_name"]
    for number, cells in enumerate(csv.reader(text.splitlines()[1:], delimiter="\t")):
        if not cells or cells == ["[...]"]:
            continue
        if len(cells) <= width:
            cells = [*cells, *[""] * (width + 1 - len(cells))]
        tag, name, value, cls, position, size = (cells[i].strip() for i in at)
        role = roles.get(tag)
        if role is None:
            role = roles[tag] = canonical_role(tag, "atspi")
        if not name and role in _TEXT_NAMED:
            name = value
        origin, extent = pair(position), pair(size)
        box = None
        if origin is not None and extent is not None and extent[0] >= 0 and extent[1] >= 0:
            box = (origin[0], origin[1], origin[0] + extent[0], origin[1] + extent[1])
        cols.row(cells[at_index].strip() or str(number), tag, name, -1, box, value, _UNKNOWN)
        classes.append(cls or None)
    return cols.build(
        "osworld_table", "atspi", coord_space="screen_px", screen_size=context.screen_size
    )


FORMAT = TreeFormat("osworld_table", detect, build)
