"""Which rows a catalog lists, in which order, and in which region of the page.

- **Which**: rows whose role an agent acts on (:data:`resolver.roles.ACTIONABLE_ROLES`), plus,
  where the DOM is known, elements made clickable or editable by hand (``onclick``,
  ``tabindex >= 0``, ``contenteditable``). Hidden and disabled rows stay in the list, marked:
  an agent that knows a control exists but is disabled plans better than one that never saw it.
- **Order**: top to bottom, then left to right. Rows whose vertical centre lies within the
  first box of a line (or whose top is within ``row_tolerance`` of it) share that line, so a
  toolbar reads left to right even when its buttons differ in height. Rows without a box (or
  hidden) follow, in document order. The order depends only on the observation, so an
  unchanged page gives every element the same index.
- **Region**: the innermost landmark or dialog around the row (``navigation "Main"``,
  ``form "Sign in"``, ``dialog "Settings"``, ``main``); ``page`` when none.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np

from ..adapters.dom.elements import ElementFacts
from ..errors import ResolutionError
from ..observation import Observation
from ..roles import ACTIONABLE_ROLES
from ..table import CandidateTable

__all__ = ["REGION_ROLES", "actionable_rows", "order_rows", "page_facts", "regions"]

REGION_ROLES: Final[frozenset[str]] = frozenset(
    {
        "dialog", "alertdialog", "form", "search", "navigation", "banner", "contentinfo",
        "main", "complementary", "region",
    }
)  # fmt: skip
"""Roles that open a region of the catalog (``region`` only when named, as in HTML-AAM)."""

_CLICKABLE_ATTRS: Final[tuple[str, ...]] = ("onclick", "contenteditable")
_SKIP_ROLES: Final[frozenset[str]] = frozenset({"document", "text"})


def page_facts(observation: Observation, table: CandidateTable) -> ElementFacts:
    """HTML facts for ``table``'s rows: its own DOM, or the page's DOM linked by XPath (an
    unreadable DOM only costs the facts)."""
    dom = None
    if table.source != "dom" and observation.has("dom") and any(table.xpaths):
        try:
            dom = observation.candidates("dom")
        except ResolutionError:
            dom = None
    return ElementFacts(table, dom)


def actionable_rows(table: CandidateTable, facts: ElementFacts | None = None) -> list[int]:
    """Rows of ``table`` an agent can act on, in document order."""
    wanted = np.fromiter((r in ACTIONABLE_ROLES for r in table.roles), bool, count=len(table))
    if facts is not None and facts.known:
        for row in np.flatnonzero(~wanted).tolist():
            if table.roles[row] not in _SKIP_ROLES and _clickable(facts, row):
                wanted[row] = True
    return np.flatnonzero(wanted).tolist()


def _clickable(facts: ElementFacts, row: int) -> bool:
    """An element made interactive by its attributes."""
    if facts.table.ids[row].endswith("#text"):
        return False
    attrs = facts.attrs(row)
    if not attrs:
        return False
    if any(a in attrs and attrs[a] != "false" for a in _CLICKABLE_ATTRS):
        return True
    tabindex = attrs.get("tabindex", "").strip()
    return tabindex.lstrip("-").isdigit() and not tabindex.startswith("-")


def order_rows(table: CandidateTable, rows: Sequence[int], row_tolerance: float = 8.0) -> list[int]:
    """``rows`` top to bottom, then left to right within a line; rows without a usable box
    (unknown, empty, or reported invisible) last, in document order."""
    boxes = table.bboxes
    placed: list[int] = []
    rest: list[int] = []
    for row in rows:
        left, top, right, bottom = boxes[row].tolist()
        usable = left == left and right > left and bottom > top and table.visible[row] != 0
        (placed if usable else rest).append(row)
    placed.sort(key=lambda r: (boxes[r, 1], boxes[r, 0], r))
    lines: list[list[int]] = []
    line_top = line_bottom = 0.0
    for row in placed:
        top, bottom = float(boxes[row, 1]), float(boxes[row, 3])
        centre = (top + bottom) / 2.0
        if lines and (line_top <= centre <= line_bottom or top - line_top <= row_tolerance):
            lines[-1].append(row)
            continue
        lines.append([row])
        line_top, line_bottom = top, bottom
    ordered = [r for line in lines for r in sorted(line, key=lambda r: (boxes[r, 0], r))]
    return ordered + rest


def regions(table: CandidateTable) -> list[str]:
    """Per row, the label of its innermost region (``page`` when none)."""
    labels: list[str] = []
    roles, names, parent = table.roles, table.names, table.parent
    for row in range(len(table)):
        p = int(parent[row])
        inherited = labels[p] if p >= 0 else "page"
        role = roles[p] if p >= 0 else ""
        if p >= 0 and role in REGION_ROLES and (role != "region" or names[p]):
            inherited = _label(role, names[p])
        labels.append(inherited)
    return labels


def _label(role: str, name: str) -> str:
    """``form "Sign in"``, or the role alone."""
    if not name:
        return role
    short = name if len(name) <= 40 else name[:39] + "…"
    return f'{role} "{short}"'
