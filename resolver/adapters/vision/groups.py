"""Groups: panels and headings give vision rows the container paths trees give theirs.

A tree names its groups (a dialog by its title, a fieldset by its legend, a section by its
heading); a screenshot shows only the border and the title. Without them, two "OK" buttons
of two groups differ by position alone, and after a layout change the recorded position
points at the other one. Two steps wrap the top-level elements (after table rows,
:mod:`resolver.adapters.vision.layout` step 5):

1. **Panels.** A bordered shape taller than a control (a dialog, a card), or a frame whose
   top side a legend breaks (a fieldset), holding at least one control is a group, named
   by its title: the legend drawn across its top side, else the first text inside it when
   that text is a short title in its top band. An untitled panel is left out (it names
   nothing).
2. **Headings.** Inside a panel or on the page, a short text that is not a control's label,
   with nothing else on its line nearby, directly followed (within :data:`GAP` text
   heights) by elements not left of it, names the group of those elements; the group runs
   down to the next heading, the next wide gap or a gap much wider than those between its
   members so far (:data:`JUMP`), and exists only when it holds a control.

Groups have the role ``group`` (a panel may also be a ``dialog``: second hypothesis), so
the table's container paths carry their names: ``("Preferences", "Display")`` for the OK
button of the Display fieldset of the Preferences dialog.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import median
from typing import Final

from ...geometry import Box, box_area, share_inside
from .layout import Element, label_gap
from .roles import BOX_GLYPHS, MAX_CONTROL_HEIGHT
from .widgets import Widget

__all__ = ["GAP", "MAX_TITLE_WORDS", "group"]

GAP: Final[float] = 1.4
"""Widest vertical gap inside a heading's group, in typical text heights."""
JUMP: Final[float] = 2.0
"""A gap this many times the widest one between the members so far ends the group (a
fieldset's border, invisible to the reading, leaves such a gap)..."""
JUMP_FLOOR: Final[float] = 0.5
"""... when it is also wider than this many typical text heights."""
SIDE: Final[float] = 12.0
"""A heading has no control on its line within this many of its heights beside it."""
INDENT: Final[float] = 1.0
"""Members start at most this many heading heights left of the heading."""
TITLE_BAND: Final[float] = 3.0
"""A panel's title starts within this many text heights of its top edge."""
PANEL_INSIDE: Final[float] = 0.9
"""Share of an element's box inside a panel for the element to belong to it."""
LINE_MARKS: Final[frozenset[str]] = BOX_GLYPHS | frozenset("■▪▫•●○◦◉◯")
"""Glyphs that open a line that is not a title: a bullet, or a box or radio OCR read as
part of its label (a checked checkbox on a dark theme reads as ``■``)."""
MAX_TITLE_WORDS: Final[int] = 10
MAX_TITLE_CHARS: Final[int] = 60


def _cy(box: Box) -> float:
    return (box[1] + box[3]) / 2.0


def _inside(inner: Box, outer: Box) -> bool:
    return share_inside(inner, outer) >= PANEL_INSIDE


def _has_control(element: Element) -> bool:
    return element.kind == "control" or any(_has_control(c) for c in element.children)


def _controls(elements: Sequence[Element]) -> list[Element]:
    out: list[Element] = []
    for element in elements:
        if element.kind == "control":
            out.append(element)
        out += _controls(element.children)
    return out


def _title_like(element: Element) -> bool:
    name = element.name.strip()
    if element.kind != "text" or not name:
        return False
    if element.roles and element.roles[0][0] == "link":
        return False
    if len(name) > MAX_TITLE_CHARS or len(name.split()) > MAX_TITLE_WORDS:
        return False
    if not any(len(word) > 1 and word.isalpha() for word in name.split()):
        return False  # a number, a time, a glyph: a table cell or an icon, not a title
    if name[0] in LINE_MARKS:
        return False  # a list item, or a checkbox read together with its label
    return not name.endswith((".", ",", ";", ":"))  # a sentence or a field label


def _beside(box: Box, other: Box) -> bool:
    """Whether ``other`` is on ``box``'s line, near it on either side."""
    height = box[3] - box[1]
    same_line = box[1] <= _cy(other) <= box[3] or other[1] <= _cy(box) <= other[3]
    gap = max(other[0] - box[2], box[0] - other[2])
    return same_line and gap <= SIDE * height


def _is_heading(element: Element, controls: Sequence[Element], top: Sequence[Element]) -> bool:
    if not _title_like(element):
        return False
    if any(c.name == element.name and label_gap(element.box, c) is not None for c in controls):
        return False  # a field's or a checkbox's label
    # A heading stands alone on its line: a control beside it makes it a label, text beside
    # it a menu or a sentence.
    others = [*controls, *(e for e in top if e.kind == "text" and e is not element)]
    return not any(_beside(element.box, c.box) for c in others)


def _wrap(
    title: Element, members: Sequence[Element], box: Box | None = None, *, panel: bool = False
) -> Element:
    children = [title, *members]
    if box is None:
        box = (
            min(c.box[0] for c in children),
            min(c.box[1] for c in children),
            max(c.box[2] for c in children),
            max(c.box[3] for c in children),
        )
    roles = (("group", 0.6), ("dialog", 0.4)) if panel else (("group", 0.6),)
    wrapper = Element("group", "group", box, title.name, "", roles)
    wrapper.children = children
    return wrapper


def _subtitles(
    top: Sequence[Element], heads: set[int], below: Sequence[int], typical: float
) -> set[int]:
    """Heading candidates that are a heading's subtitle (an article's date line under its
    title): the first element under a heading, within :data:`GAP` text heights, starting
    where it starts and not taller. The heading names the group and the subtitle is one of
    its members; as a heading of its own it would take the heading's members away."""
    out: set[int] = set()
    for h in sorted(heads, key=lambda k: top[k].box[1]):
        if h in out:
            continue
        box = top[h].box
        height = box[3] - box[1]
        first = next(
            (
                j
                for j in below
                if j != h
                and top[j].box[1] >= box[3] - 2.0
                and top[j].box[0] >= box[0] - INDENT * height
            ),
            None,
        )
        if first is None or first not in heads:
            continue
        sub = top[first].box
        aligned = abs(sub[0] - box[0]) <= INDENT * height
        if aligned and sub[1] - box[3] <= GAP * typical and sub[3] - sub[1] <= height:
            out.add(first)
    return out


def _by_headings(top: list[Element]) -> list[Element]:
    """``top`` (in reading order) with each heading and its members wrapped in a group."""
    controls = _controls(top)
    heads = {i for i, e in enumerate(top) if _is_heading(e, controls, top)}
    if not heads:
        return top
    heights = [e.box[3] - e.box[1] for e in top if e.kind == "text"]
    typical = median(heights)
    below = sorted(range(len(top)), key=lambda k: (top[k].box[1], top[k].box[0]))
    heads -= _subtitles(top, heads, below, typical)
    taken: dict[int, int] = {}
    members: dict[int, list[int]] = {}
    for h in sorted(heads, key=lambda k: top[k].box[1]):
        box = top[h].box
        slack = INDENT * (box[3] - box[1])
        bottom = box[3]
        found: list[int] = []
        widest = 0.0  # the widest gap between members so far
        for j in below:
            element = top[j]
            if j == h or element.box[1] < box[3] - 2.0 or element.box[0] < box[0] - slack:
                continue
            gap = element.box[1] - bottom
            jump = found and gap > max(JUMP_FLOOR * typical, JUMP * widest)
            if gap > GAP * typical or jump or j in heads:
                break
            if j not in taken:
                found.append(j)
                widest = max(widest, gap)
                bottom = max(bottom, element.box[3])
        if any(_has_control(top[j]) for j in found):
            members[h] = found
            taken.update(dict.fromkeys(found, h))
    out: list[Element] = []
    for i, element in enumerate(top):
        if i in members:
            out.append(_wrap(element, [top[j] for j in sorted(members[i])]))
        elif i not in taken:
            out.append(element)
    return out


def _panel_title(inner: Sequence[Element], panel: Box) -> int:
    """Index in ``inner`` of the panel's title, or -1."""
    texts = [(k, e) for k, e in enumerate(inner) if e.kind == "text"]
    if not texts:
        return -1
    typical = median(e.box[3] - e.box[1] for _, e in texts)
    k, first = min(texts, key=lambda pair: (pair[1].box[1], pair[1].box[0]))
    near_top = first.box[1] - panel[1] <= TITLE_BAND * typical
    return k if near_top and _title_like(first) else -1


def _legend(top: Sequence[Element], panel: Box) -> Element | None:
    """The title drawn across the panel's top side (a fieldset's legend), or None."""
    for element in top:
        box = element.box
        across = panel[0] < box[0] and box[2] < panel[2] and box[1] <= panel[1] <= box[3]
        if across and _title_like(element):
            return element
    return None


def group(top: list[Element], widgets: Sequence[Widget]) -> list[Element]:
    """``top`` (top-level elements in reading order, with their children) with panels and
    headings wrapped in named groups (see the module docstring), in reading order."""
    panels = sorted(
        (
            w.box
            for w in widgets
            if (w.kind == "rect" and w.height > MAX_CONTROL_HEIGHT) or w.kind == "frame"
        ),
        key=box_area,
    )
    for panel in panels:  # innermost first: an inner panel is one member of an outer one
        inner = [e for e in top if _inside(e.box, panel) and e.box != panel]
        if not any(_has_control(e) for e in inner):
            continue
        legend = _legend(top, panel)
        if legend is not None:
            inner = [legend, *inner]
        title = 0 if legend is not None else _panel_title(inner, panel)
        if title < 0:
            continue
        members = _by_headings([e for k, e in enumerate(inner) if k != title])
        # A titled border is a dialog too; a fieldset, titled by its legend, a group only.
        wrapped = _wrap(inner[title], members, panel, panel=legend is None)
        ids = {id(e) for e in inner}
        at = next(k for k, e in enumerate(top) if id(e) in ids)
        top = [*top[:at], wrapped, *(e for e in top[at:] if id(e) not in ids)]
    return _by_headings(top)
