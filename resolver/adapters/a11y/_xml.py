"""Pre-order rows of an lxml tree, and coordinate strings shared by XML formats."""

from __future__ import annotations

import re
from typing import Any

from lxml import etree

from ...table import TableBuilder

__all__ = ["local_name", "pair", "xml_rows"]

_PAIR = re.compile(
    r"^\s*[(\[]?\s*(-?[\d.]+(?:e[+-]?\d+)?)\s*,\s*(-?[\d.]+(?:e[+-]?\d+)?)\s*[)\]]?\s*$"
)


def local_name(tag: str) -> str:
    """``{uri}name`` -> ``name``."""
    return tag.rsplit("}", 1)[-1] if tag.startswith("{") else tag


def pair(text: str | None) -> tuple[float, float] | None:
    """Read ``"(x, y)"`` (a Python tuple repr, as OSWorld writes it); ``None`` if malformed."""
    if not text:
        return None
    if text[0] == "(" and text[-1] == ")":
        first, comma, second = text[1:-1].partition(",")
        if comma:
            try:
                return (float(first), float(second))
            except ValueError:
                pass
    match = _PAIR.match(text)
    if match is None:
        return None
    try:
        return (float(match.group(1)), float(match.group(2)))
    except ValueError:
        return None


def xml_rows(
    root: Any, builder: TableBuilder, *, spare: int = 0
) -> tuple[list[Any], list[int], list[str]]:
    """Every element from ``root`` down in pre-order, with its parent's position and its path.

    Returns three lists: the elements, the pre-order position of each one's parent (-1 for
    ``root``), and each one's dotted child-index path (``"0.2.1"``), counting elements only.
    Comments, processing instructions and entity references are skipped. More elements than
    the ``builder`` takes rows (plus ``spare`` elements that make no row) are refused.
    """
    # lxml walks and links the tree in C; Python only numbers what it returns. While the list
    # holds every element, getparent() hands back those same objects, so they key a dict.
    elements = list(root.iter(etree.Element))
    builder.reserve(len(elements) - spare)
    position = {element: i for i, element in enumerate(elements)}
    parents = [-1]
    paths = ["0"]
    counts = [0] * len(elements)
    for element in elements[1:]:
        parent = position[element.getparent()]
        index = counts[parent]
        counts[parent] = index + 1
        parents.append(parent)
        paths.append(f"{paths[parent]}.{index}")
    return elements, parents, paths
