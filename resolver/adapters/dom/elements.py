"""HTML facts about table rows: the element's attributes and its ranked selectors.

Any table whose rows know their DOM element works: the DOM source's own table, or an a11y
table whose rows carry an ``xpath`` (a CDP tree cross-linked to the DOM), read together with
the DOM table of the same page.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ...table import CandidateTable
from . import DomNative, ranked_selectors

__all__ = ["ElementFacts"]

_NO_ATTRS: Final[Mapping[str, str]] = {}


class ElementFacts:
    """Attributes and selectors for the rows of ``table``.

    Parameters
    ----------
    table:
        Any candidate table.
    dom:
        The DOM table of the same page (built by the DOM source), or ``None``; when ``table``
        is itself a DOM table it is used directly.
    """

    def __init__(self, table: CandidateTable, dom: CandidateTable | None) -> None:
        if isinstance(table.native, DomNative):
            dom = table
        self.table = table
        self.dom = dom if dom is not None and isinstance(dom.native, DomNative) else None
        self._rows: dict[int, int | None] = {}
        self._attrs: dict[int, Mapping[str, str]] = {}

    @property
    def known(self) -> bool:
        """Whether any HTML facts are available."""
        return self.dom is not None

    def dom_row(self, row: int) -> int | None:
        """The DOM table's row for ``table``'s row ``row`` (``None`` when not linked)."""
        if self.dom is None:
            return None
        if self.dom is self.table:
            return row
        if row not in self._rows:
            xpath = self.table.xpaths[row]
            run = self.dom.selector_resolver
            found = run("xpath", xpath) if xpath and run is not None else ()
            hits = [h for h in found if not self.dom.ids[h].endswith("#text")]
            self._rows[row] = hits[0] if len(hits) == 1 else None
        return self._rows[row]

    def attrs(self, row: int) -> Mapping[str, str]:
        """The element's HTML attributes (empty when unknown; looked up once per row)."""
        cached = self._attrs.get(row)
        if cached is None:
            cached = self._attrs[row] = self._lookup_attrs(row)
        return cached

    def _lookup_attrs(self, row: int) -> Mapping[str, str]:
        """The attributes of the element behind ``row``, found through its XPath."""
        dom_row = self.dom_row(row)
        if dom_row is None or self.dom is None:
            return _NO_ATTRS
        native = self.dom.native
        assert isinstance(native, DomNative)
        analysis = native.analysis
        element = analysis.xpath(self.dom.ids[dom_row].removesuffix("#text"))
        return analysis.doc.attrs[element[0]] or _NO_ATTRS if len(element) == 1 else _NO_ATTRS

    def selectors(self, row: int) -> list[tuple[str, str]]:
        """Ranked ``(kind, selector)`` pairs, best first (see ``ranked_selectors``); empty
        when the row has no DOM element."""
        dom_row = self.dom_row(row)
        if dom_row is None or self.dom is None:
            return []
        return ranked_selectors(self.dom, dom_row)
