"""What every source adapter receives and provides.

An adapter is a function ``SourceInput -> CandidateTable``. It sees the raw input of its
observation field and the few facts around it (screen size, size limit, layout, links), never
the :class:`~resolver.observation.Observation` itself, and it does nothing but build the
table (with :class:`~resolver.table.TableBuilder`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import SourceUnavailableError

if TYPE_CHECKING:
    from ..table import CandidateTable

__all__ = ["Source", "SourceInput"]


@dataclass(frozen=True)
class SourceInput:
    """The typed input of one adapter call.

    Attributes
    ----------
    raw:
        The observation field the source reads (a tree, HTML, a screenshot).
    screen_size:
        ``(width, height)`` that boxes are measured in, when the runtime said.
    max_nodes:
        Inputs with more nodes than this are refused.
    tree_format:
        For the a11y source: read the tree as this format instead of detecting it.
    url:
        The page URL, when there is one.
    dom_layout:
        ``{xpath: [l, t, r, b]}`` element boxes from the capture (DOM source).
    dom_node_map:
        ``{backendDOMNodeId: xpath}`` or a ``DOM.getDocument`` result (links a CDP tree to the
        DOM).
    """

    raw: Any
    screen_size: tuple[float, float] | None = None
    max_nodes: int = 500_000
    tree_format: str | None = None
    url: str | None = None
    dom_layout: Mapping[str, Any] | None = None
    dom_node_map: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Source:
    """One entry of the source registry.

    Attributes
    ----------
    name:
        ``"a11y"``, ``"dom"``, ``"vision"``.
    field:
        The :class:`~resolver.observation.Observation` attribute it reads.
    builder:
        ``"module:function"`` of the adapter, imported on first use so that a source's
        dependencies load only when it runs.
    extra:
        The ``pip install 'resolver[extra]'`` that provides its optional dependencies.
    """

    name: str
    field: str
    builder: str
    extra: str | None = None

    def load(self) -> Callable[[SourceInput], CandidateTable]:
        """The adapter function; :class:`SourceUnavailableError` when its extra is missing."""
        module_name, _, function = self.builder.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            if self.extra is None:
                raise  # a source without extras always imports: this is a bug, not a choice
            raise SourceUnavailableError(
                f"the {self.name} source cannot be loaded: {exc} "
                f"(pip install 'resolver[{self.extra}]')",
                details={"source": self.name, "extra": self.extra},
            ) from exc
        built: Callable[[SourceInput], CandidateTable] = getattr(module, function)
        return built
