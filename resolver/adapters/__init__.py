"""Sources and adapters: everything that knows a platform lives below this package.

The registry :data:`SOURCES` names every source (``a11y``, ``dom``, ``vision``), the
:class:`~resolver.observation.Observation` field it reads, its adapter and the optional extra
it needs (and, for a source that can look at part of its input first, its region builder
and the windows it tries). ``Observation``, the chain and the command line read it; adding a
source is one entry here plus one folder. The a11y source dispatches to one *tree format*
module per platform (see :mod:`resolver.adapters.a11y`). A source whose dependencies are
absent raises :class:`~resolver.errors.SourceUnavailableError`, which the chain records and
passes over.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from .base import Region, Source, SourceInput

__all__ = ["SOURCES", "SOURCE_NAMES", "Region", "Source", "SourceInput"]

SOURCES: Final[Mapping[str, Source]] = {
    source.name: source
    for source in (
        Source("a11y", "accessibility_tree", "resolver.adapters.a11y:build_table"),
        Source("dom", "dom_html", "resolver.adapters.dom:build_table"),
        Source(
            "vision",
            "screenshot",
            "resolver.adapters.vision:build_table",
            extra="vision",
            region_builder="resolver.adapters.vision:build_region_table",
            region_sizes=((400.0, 300.0), (800.0, 600.0)),
            frame_reader="resolver.adapters.vision:screen_frame",
            answer_boxer="resolver.adapters.vision:answer_box",
            focuser="resolver.adapters.vision:focus_table",
        ),
    )
}
"""Every source, in the order the chain tries them."""

SOURCE_NAMES: Final[tuple[str, ...]] = tuple(SOURCES)
