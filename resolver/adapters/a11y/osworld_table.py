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
from ...geometry import CoordSpace
from ...roles import canonical_role
from ...table import NO_STATE, CandidateTable, TableBuilder
from . import SourceInput, TreeFormat, TreeInput
from ._xml import pair

_POSITION: Final[str] = "position (top-left x&y)"
_SIZE: Final[str] = "size (w&h)"
# Roles whose text is their name when the name column is empty (as in the XML adapter).
_TEXT_NAMED: Final[frozenset[str]] = frozenset(
    {"text", "label", "heading", "paragraph", "cell", "link", "listitem", "caption"}
)


def _header(text: str) -> list[str] | None:
    """The header's column names, or ``None`` when the first line is no header."""
    first = text.split("\n", 1)[0].rstrip("\r")
    columns = [c.strip() for c in first.split("\t")]
    if len(columns) >= 3 and (columns[:2] == ["tag", "name"] or columns[:2] == ["index", "tag"]):
        return columns
    return None


def detect(tree: TreeInput) -> bool:
    """Tab-separated text with OSWorld's ``tag  name ...`` or ``index  tag ...`` header."""
    return tree.kind == "text" and isinstance(tree.data, str) and _header(tree.data) is not None


def build(tree: TreeInput, source: SourceInput) -> CandidateTable:
    """One row per table line."""
    text = str(tree.data)
    header = _header(text)
    if header is None:
        raise InvalidObservationError("an OSWorld table needs a 'tag<TAB>name...' header")
    where = {column: i for i, column in enumerate(header)}
    builder = TableBuilder(
        "a11y", "osworld_table", platform="atspi", id_columns=("class_name",),
        max_rows=source.max_nodes,
    )  # fmt: skip
    append = builder.rows.append
    roles: dict[str, str] = {}
    at = [where.get(c, -1) for c in ("tag", "index", "name", "text", "class", _POSITION, _SIZE)]
    try:
        for number, cells in enumerate(csv.reader(text.splitlines()[1:], delimiter="\t")):
            if cells and cells != ["[...]"]:
                append(_row(number, [cells[i].strip() if 0 <= i < len(cells) else "" for i in at],
                            roles))  # fmt: skip
    except csv.Error as exc:  # (a cell over the csv module's 131,072 characters)
        raise InvalidObservationError(f"an OSWorld table row cannot be read: {exc}") from exc
    return builder.build(coord_space=CoordSpace.SCREEN_PX, screen_size=source.screen_size)


def _row(number: int, read: list[str], roles: dict[str, str]) -> tuple[object, ...]:
    """The table row of line ``number`` from its cells (tag, index, name, text, class,
    position, size; ``""`` where the table has no such column); ``roles`` caches the roles
    of the tags seen."""
    tag, index, name, value, cls, position, size = read
    role = roles.get(tag)
    if role is None:
        role = roles[tag] = canonical_role(tag, "atspi")
    if not name and role in _TEXT_NAMED:
        name = value
    origin, extent = pair(position), pair(size)
    box = None
    if origin is not None and extent is not None and extent[0] >= 0 and extent[1] >= 0:
        box = (origin[0], origin[1], origin[0] + extent[0], origin[1] + extent[1])
    return (index or str(number), tag, name, -1, box, value, NO_STATE, cls or None)


FORMAT = TreeFormat("osworld_table", detect, build)
