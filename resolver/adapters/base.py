"""What every source adapter receives and provides.

An adapter is a function ``SourceInput -> CandidateTable``. It sees the raw input of its
observation field and the few facts around it (screen size, size limit, layout, links), never
the :class:`~resolver.observation.Observation` itself, and it does nothing but build the
table (with :class:`~resolver.table.TableBuilder`).

A source may also build tables of one *region* of its input (:class:`Region`, a window around
a reference's recorded box): the chain judges those first, smallest window first, and builds
the whole table only when none of them gives a confident, unambiguous answer (the vision
source: OCR of a 400x300 window is a fraction of the cost of the whole screen).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..errors import SourceUnavailableError
from ..limits import DEFAULT_LIMITS, Limits

if TYPE_CHECKING:
    from ..geometry import Box
    from ..table import CandidateTable

__all__ = ["Region", "RegionBuilder", "Source", "SourceInput"]


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
    channel_order:
        For an image given as an array (vision source): ``"rgb"`` or ``"bgr"``.
    scripting:
        DOM source: read the HTML as a browser with scripting enabled (``True``) or with
        JavaScript disabled (``False``: ``<noscript>`` content is elements, and rendered).
    limits:
        How much of the input is read before it is refused (``limits.max_nodes`` is
        ``max_nodes``).
    """

    raw: Any
    screen_size: tuple[float, float] | None = None
    max_nodes: int = 500_000
    tree_format: str | None = None
    url: str | None = None
    dom_layout: Mapping[str, Any] | None = None
    dom_node_map: Mapping[str, Any] | None = None
    channel_order: str = "rgb"
    scripting: bool = True
    limits: Limits = DEFAULT_LIMITS

    def __post_init__(self) -> None:
        if self.limits.max_nodes != self.max_nodes:
            object.__setattr__(self, "limits", replace(self.limits, max_nodes=self.max_nodes))


@dataclass(frozen=True)
class Region:
    """A window around a recorded box, where a source with a region builder looks first.

    Attributes
    ----------
    hint:
        The reference's ``[left, top, right, bottom]`` as recorded.
    frame:
        ``(width, height)`` of the screen the hint was recorded on, when known: the source
        rescales the hint to its own input when the sizes differ.
    size:
        ``(width, height)`` of the window, centred on the (rescaled) hint, in the units of the
        observation's boxes; the source clips it to its input.
    """

    hint: tuple[float, float, float, float]
    frame: tuple[float, float] | None
    size: tuple[float, float]

    def describe(self) -> str:
        """``"400x300 around the hint"`` for trace entries."""
        return f"{self.size[0]:g}x{self.size[1]:g} around the hint"


RegionBuilder = Callable[[SourceInput, Region], "CandidateTable"]
"""``(input, region) -> table`` of the part of the input inside the region."""


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
    region_builder:
        ``"module:function"`` of a :data:`RegionBuilder`, for sources that can look at part
        of their input first (hint-first search); ``None`` for the others.
    region_sizes:
        The windows tried, smallest first, before the whole input (``(width, height)``).
    frame_reader:
        ``"module:function"`` of ``(input) -> (width, height)``, the visible screen in table
        units, for a source that sees only what is on the screen (a screenshot): a
        reference recorded wholly outside that frame is refused before the input is read
        (``refuse.off_screen``). ``None`` for sources that see off-screen elements too.
    answer_boxer:
        ``"module:function"`` of ``(table, row, name) -> box | None``: where an answer
        really is when its row is more than the recorded name (vision: the words that read
        the name inside a longer text run); the click point is that box's centre.
    focuser:
        ``"module:function"`` of ``(table, name) -> table``: the table a reference with
        that name is judged on, with rows the name singles out (vision: a link read
        together with the text after it gets a row of its own words); ``table`` itself
        when there are none.
    """

    name: str
    field: str
    builder: str
    extra: str | None = None
    region_builder: str | None = None
    region_sizes: tuple[tuple[float, float], ...] = ()
    frame_reader: str | None = None
    answer_boxer: str | None = None
    focuser: str | None = None

    def load(self) -> Callable[[SourceInput], CandidateTable]:
        """The adapter function; :class:`SourceUnavailableError` when its extra is missing."""
        built: Callable[[SourceInput], CandidateTable] = self._function(self.builder)
        return built

    def load_region(self) -> RegionBuilder | None:
        """The region builder, if the source has one (same errors as :meth:`load`)."""
        if self.region_builder is None:
            return None
        built: RegionBuilder = self._function(self.region_builder)
        return built

    def load_frame(self) -> Callable[[SourceInput], tuple[float, float]] | None:
        """The frame reader, if the source sees only the screen (same errors as :meth:`load`)."""
        if self.frame_reader is None:
            return None
        built: Callable[[SourceInput], tuple[float, float]] = self._function(self.frame_reader)
        return built

    def load_answer_boxer(self) -> Callable[[CandidateTable, int, str], Box | None] | None:
        """The answer boxer, if the source has one (same errors as :meth:`load`)."""
        if self.answer_boxer is None:
            return None
        built: Callable[[CandidateTable, int, str], Box | None] = self._function(self.answer_boxer)
        return built

    def load_focuser(self) -> Callable[[CandidateTable, str], CandidateTable] | None:
        """The focuser, if the source has one (same errors as :meth:`load`)."""
        if self.focuser is None:
            return None
        built: Callable[[CandidateTable, str], CandidateTable] = self._function(self.focuser)
        return built

    def regions(
        self, hint: tuple[float, float, float, float] | None, frame: tuple[float, float] | None
    ) -> tuple[Region, ...]:
        """The windows to try around ``hint``, smallest first (none without a hint or a
        region builder)."""
        if hint is None or self.region_builder is None:
            return ()
        return tuple(Region(hint, frame, size) for size in self.region_sizes)

    def _function(self, spec: str) -> Any:
        module_name, _, function = spec.partition(":")
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
        return getattr(module, function)
