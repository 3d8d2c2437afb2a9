"""What a caller names in ``Catalog.resolve``: ``index=N``, ``css=...``, ``xpath=...``,
``text=...``, and the rows a selector or a text selects."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..adapters.dom.elements import ElementFacts
from ..errors import InvalidTargetError
from ..index import index_of
from ..roles import ACTIONABLE_ROLES
from ..table import CandidateTable
from ..text import normalize

__all__ = ["Target", "parse_target", "rows_for_selector", "rows_for_text"]

KINDS: Final[tuple[str, ...]] = ("index", "css", "xpath", "text")
_MAX_TARGET: Final[int] = 4000


@dataclass(frozen=True)
class Target:
    """A parsed target: its kind, its text, and for an index the number."""

    kind: str
    value: str
    index: int = -1


def parse_target(target: object, size: int) -> Target:
    """Parse ``target`` for a catalog of ``size`` entries.

    Raises
    ------
    InvalidTargetError
        Not a string or int, no known ``kind=``, an empty value, a malformed or absent index.

    Examples
    --------
    >>> parse_target("index=3", 5)
    Target(kind='index', value='3', index=3)
    >>> parse_target("css=#go", 5).value
    '#go'
    """
    if isinstance(target, bool) or not isinstance(target, (str, int)):
        raise InvalidTargetError(
            f"a target is 'index=N', 'css=...', 'xpath=...' or 'text=...', not "
            f"{type(target).__name__}"
        )
    text = str(target).strip()
    if len(text) > _MAX_TARGET:
        raise InvalidTargetError(f"the target is longer than {_MAX_TARGET} characters")
    kind, sep, value = text.partition("=")
    if not sep:
        kind, value = "index", text
    kind = kind.strip().lower()
    if kind not in KINDS:
        raise InvalidTargetError(
            f"unknown target kind {kind!r} in {text[:80]!r}; expected one of {', '.join(KINDS)}"
        )
    if kind != "text":
        value = value.strip()
    if not value.strip():
        raise InvalidTargetError(f"the {kind} target is empty")
    if kind != "index":
        return Target(kind, value)
    if not value.isdigit():
        raise InvalidTargetError(f"index must be a whole number, got {value[:40]!r}")
    index = int(value)
    if index >= size:
        raise InvalidTargetError(
            f"index {index} is not in the catalog (it has {size} entries"
            + (f": 0..{size - 1})" if size else ")"),
            details={"index": index, "size": size},
        )
    return Target(kind, value, index)


def rows_for_text(table: CandidateTable, text: str) -> list[int]:
    """Actionable rows whose normalised name is ``text``'s."""
    roles = table.roles
    hits = index_of(table).lookup("norm", normalize(text)).tolist()
    return [row for row in hits if roles[row] in ACTIONABLE_ROLES]


def rows_for_selector(
    table: CandidateTable, facts: ElementFacts, kind: str, selector: str
) -> list[int]:
    """Rows of ``table`` that a ``css`` or ``xpath`` selector selects (through the DOM for a
    table linked to it by XPath; by the ``xpath`` column otherwise)."""
    if table.selector_resolver is not None:
        return sorted(set(table.selector_resolver(kind, selector)))
    dom = facts.dom
    if dom is not None and dom.selector_resolver is not None:
        wanted = {
            dom.id_key("xpath", dom.ids[r].removesuffix("#text"))
            for r in dom.selector_resolver(kind, selector)
        }
        return [r for r, x in enumerate(table.xpaths) if x and table.id_key("xpath", x) in wanted]
    if kind == "xpath":
        key = table.id_key("xpath", selector.removeprefix("xpath:"))
        return [r for r, x in enumerate(table.xpaths) if x and table.id_key("xpath", x) == key]
    return []
