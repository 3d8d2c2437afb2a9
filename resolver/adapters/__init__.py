"""Sources and adapters: everything that knows a platform lives below this package.

A *source* (``a11y``, ``dom``, ``vision``) turns an :class:`~resolver.observation.Observation`
into a :class:`~resolver.table.CandidateTable`. The a11y source dispatches to one *tree format*
adapter per platform (see :mod:`resolver.adapters.a11y`). Sources whose code or optional
dependencies are absent raise :class:`~resolver.errors.SourceUnavailableError`, which the chain
records in its trace and passes over.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from ..errors import SourceUnavailableError

if TYPE_CHECKING:
    from ..observation import Observation
    from ..table import CandidateTable

__all__ = ["SOURCE_NAMES", "build_source_table"]

SOURCE_NAMES: Final[tuple[str, ...]] = ("a11y", "dom", "vision")


def _a11y(observation: Observation) -> CandidateTable:
    from .a11y import build_table

    table = build_table(observation)
    links = observation.dom_node_map
    if links and "backend_node_id" in table.platform_ids:
        from .dom.link import backend_xpaths, cross_link

        if "root" in links:
            links = backend_xpaths(links)
        table = cross_link(table, backend_map={str(k): str(v) for k, v in links.items()})
    return table


def _dom(observation: Observation) -> CandidateTable:
    try:
        from . import dom
    except ImportError as exc:  # the DOM adapter ships with the package; this guards extras
        raise SourceUnavailableError(f"the DOM source cannot be loaded: {exc}") from exc
    table: CandidateTable = dom.build_table(observation)
    return table


def _vision(observation: Observation) -> CandidateTable:
    raise SourceUnavailableError(
        "the vision source (OCR and widget detection on screenshots) is not in this version; "
        "the screenshot was not used"
    )


_BUILDERS: Final[dict[str, Callable[[Observation], CandidateTable]]] = {
    "a11y": _a11y,
    "dom": _dom,
    "vision": _vision,
}


def build_source_table(source: str, observation: Observation) -> CandidateTable:
    """Build the table for ``source``; the caller (``Observation.candidates``) caches it."""
    return _BUILDERS[source](observation)
