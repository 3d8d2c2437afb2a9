"""Observation: what the runtime sees now (an a11y tree, the DOM, a screenshot), immutable.

Tables are built lazily, once per source, and cached on the observation, whose lifetime is
the caller's: one observation per step, many refs resolved against it.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from .adapters import SOURCE_NAMES, SOURCES, Region, SourceInput
from .errors import ConfigError, InvalidObservationError, ResolutionError
from .limits import DEFAULT_LIMITS, Limits
from .table import CandidateTable, LazyColumns

__all__ = ["Observation"]

_FIELDS: Final[tuple[str, ...]] = tuple(source.field for source in SOURCES.values())
_OPTIONS: Final[tuple[str, ...]] = (
    "screen_size", "url", "tree_format", "dom_layout", "dom_node_map", "max_nodes",
    "channel_order", "scripting", "limits",
)  # fmt: skip
_CHANNEL_ORDERS: Final[tuple[str, ...]] = ("rgb", "bgr")
_MEANT: Final[dict[str, str]] = {
    **dict.fromkeys(("dom", "html", "page_html", "raw_html", "cleaned_html", "page_source"),
                    "dom_html"),
    **dict.fromkeys(("a11y", "a11y_tree", "ax_tree", "axtree", "accessibility",
                     "accessibility_tree_text", "tree", "text", "axtree_object"),
                    "accessibility_tree"),
    **dict.fromkeys(("image", "img", "screenshot_png", "png", "pixels"), "screenshot"),
}  # fmt: skip
"""Keys an observation mapping is sometimes given its inputs under (benchmark harnesses,
typos), and the field each means: refused rather than left unread."""
_MAX_REGION_TABLES: Final[int] = 64  # region tables kept per observation (hint-first search)
DEFAULT_MAX_NODES: Final[int] = DEFAULT_LIMITS.max_nodes


def _limits(max_nodes: Any, limits: Any) -> Limits:
    """The limits an observation reads with: ``limits`` with the ``max_nodes`` shortcut."""
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
        raise ConfigError("max_nodes must be a positive int")
    if limits is not None and not isinstance(limits, Limits):
        raise ConfigError(f"limits must be a resolver.Limits, got {type(limits).__name__}")
    chosen: Limits = DEFAULT_LIMITS if limits is None else limits
    if max_nodes != DEFAULT_MAX_NODES:
        chosen = replace(chosen, max_nodes=max_nodes)
    return chosen


def _remade(given: dict[str, Any]) -> Observation:
    """The observation :meth:`Observation.__reduce__` took apart."""
    return Observation(**given)


def _screen(value: Any) -> tuple[float, float] | None:
    if value is None:
        return None
    try:
        width, height = (float(v) for v in value)
    except OverflowError as exc:  # an int too large for a float
        raise InvalidObservationError("screen_size must be two positive, finite numbers") from exc
    except (TypeError, ValueError) as exc:
        raise InvalidObservationError("screen_size must be (width, height)") from exc
    if not (math.isfinite(width) and math.isfinite(height)) or width <= 0 or height <= 0:
        raise InvalidObservationError("screen_size must be two positive, finite numbers")
    return (width, height)


def _check_keys(given: Mapping[Any, Any]) -> None:
    """Refuse an observation mapping whose input would go unread: a key that names an input
    under another name (``"html"`` for ``dom_html``) while that field is empty, or keys none
    of which the observation reads (else a reference with a box would be answered by its
    recorded coordinates, the page never looked at)."""
    known = {*_FIELDS, *_OPTIONS}
    for key, field in _MEANT.items():
        if given.get(key) is not None and given.get(field) is None:
            whole = " (a BrowserGym observation: the whole dict)" if key == "axtree_object" else ""
            raise InvalidObservationError(
                f"the observation's {key!r} is not read: give it as {field!r}{whole} "
                f"(an observation reads {', '.join(_FIELDS)})"
            )
    if given and not any(isinstance(key, str) and key in known for key in given):
        shown = ", ".join(repr(key) for key in list(given)[:8])
        raise InvalidObservationError(
            f"the observation mapping has none of the keys an observation reads "
            f"({', '.join(_FIELDS)}, or the options {', '.join(_OPTIONS)}); it has {shown}"
        )


class Observation:
    """An immutable snapshot of the UI, with per-source candidate tables cached on it.

    Parameters
    ----------
    accessibility_tree:
        Any supported tree: a dict or list, JSON/XML/text as ``str``/``bytes``, or a path
        (``pathlib.Path``, or a ``str`` naming an existing ``.json``/``.xml``/``.txt`` file).
    dom_html:
        The page's HTML (``str`` or ``bytes``).
    screenshot:
        PNG or JPEG bytes, a path to such a file, or a ``uint8`` array (``H x W`` gray,
        ``H x W x 3`` or ``H x W x 4``, channels in ``channel_order``), for the vision source.
    screen_size:
        ``(width, height)`` of the screen or viewport that bboxes are measured in.
    url:
        The page URL, when there is one.
    tree_format:
        Skip detection and read the tree as this format (see
        :func:`resolver.adapters.a11y.format_names`).
    dom_layout:
        Optional ``{xpath: [l, t, r, b]}`` boxes for DOM elements, from the capture.
    dom_node_map:
        Optional link from a CDP tree to the DOM: ``{backendDOMNodeId: xpath}``, or the result
        of CDP ``DOM.getDocument`` (``{"root": ...}``). With it, a11y rows carry the ``xpath``
        of their DOM element, so references recorded from them can be checked in the DOM, and
        the element's tag, classes, link target and attributes (from the ``DOM.getDocument``
        result, or else from ``dom_html`` when given), which the tree does not hold.
    max_nodes:
        Trees larger than this are refused with :class:`~resolver.errors.LimitExceededError`
        (a shortcut for ``limits=Limits(max_nodes=...)``).
    limits:
        How much of each input is read before it is refused (:class:`~resolver.limits.Limits`:
        nodes, depth, bytes, HTML size, elements, image pixels); checked while reading.
    channel_order:
        ``"rgb"`` (default; PIL, most screenshot libraries) or ``"bgr"`` (OpenCV): the order of
        the colour channels of a screenshot given as an array (a fourth channel is alpha).
    scripting:
        How the DOM source reads ``dom_html``: ``True`` (default) as a browser running
        scripts, where ``<noscript>`` content is one text node and not rendered; ``False`` as
        a browser with JavaScript disabled, where the elements inside ``<noscript>`` are
        parsed, rendered and get rows, and its ``<style>`` sheets apply.

    Examples
    --------
    >>> obs = Observation(accessibility_tree={"id": "1", "role": "button", "name": "OK"})
    >>> len(obs.candidates("a11y"))
    1
    """

    __slots__ = (
        "_lock",
        "_regions",
        "_tables",
        "accessibility_tree",
        "channel_order",
        "dom_html",
        "dom_layout",
        "dom_node_map",
        "limits",
        "max_nodes",
        "screen_size",
        "screenshot",
        "scripting",
        "tree_format",
        "url",
    )

    accessibility_tree: Any
    dom_html: str | bytes | None
    screenshot: Any
    screen_size: tuple[float, float] | None
    url: str | None
    tree_format: str | None
    dom_layout: Mapping[str, Any] | None
    dom_node_map: Mapping[str, Any] | None
    max_nodes: int
    limits: Limits
    channel_order: str
    scripting: bool
    _tables: dict[str, CandidateTable]
    _regions: dict[tuple[str, Region], CandidateTable]
    _lock: threading.RLock

    def __init__(
        self,
        accessibility_tree: Any = None,
        dom_html: str | bytes | None = None,
        screenshot: Any = None,
        *,
        screen_size: tuple[float, float] | None = None,
        url: str | None = None,
        tree_format: str | None = None,
        dom_layout: Mapping[str, Any] | None = None,
        dom_node_map: Mapping[str, Any] | None = None,
        max_nodes: int = DEFAULT_MAX_NODES,
        channel_order: str = "rgb",
        scripting: bool = True,
        limits: Limits | None = None,
    ) -> None:
        if dom_html is not None and not isinstance(dom_html, (str, bytes)):
            raise InvalidObservationError(
                f"dom_html must be str or bytes, got {type(dom_html).__name__}"
            )
        if tree_format is not None and not isinstance(tree_format, str):
            raise InvalidObservationError("tree_format must be a format name (str)")
        if url is not None and not isinstance(url, str):
            raise InvalidObservationError("url must be a str")
        if dom_layout is not None and not isinstance(dom_layout, Mapping):
            raise InvalidObservationError("dom_layout must map xpaths to [l, t, r, b] boxes")
        if dom_node_map is not None and not isinstance(dom_node_map, Mapping):
            raise InvalidObservationError(
                "dom_node_map must map backendDOMNodeId to xpath, or be a DOM.getDocument result"
            )
        limits = _limits(max_nodes, limits)
        if channel_order not in _CHANNEL_ORDERS:
            raise InvalidObservationError("channel_order must be 'rgb' or 'bgr'")
        if not isinstance(scripting, bool):
            raise InvalidObservationError("scripting must be True or False")
        values = {
            "accessibility_tree": accessibility_tree,
            "dom_html": dom_html,
            "screenshot": screenshot,
            "screen_size": _screen(screen_size),
            "url": url,
            "tree_format": tree_format,
            "dom_layout": dom_layout,
            "dom_node_map": dom_node_map,
            "max_nodes": limits.max_nodes,
            "limits": limits,
            "channel_order": channel_order,
            "scripting": scripting,
            "_tables": {},
            "_regions": {},
            "_lock": threading.RLock(),
        }
        for key, value in values.items():
            object.__setattr__(self, key, value)

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("Observation is immutable; build a new one for a new UI state")

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        """Pickled and copied as what it was made of (its tables are built again where it
        is read, as for a new observation): a process pool or a cluster can take it."""
        given = {key: getattr(self, key) for key in (*_FIELDS, *_OPTIONS)}
        return (_remade, ({**given, "max_nodes": DEFAULT_MAX_NODES},))

    def __repr__(self) -> str:
        have = [f for f in _FIELDS if getattr(self, f) is not None]
        return f"Observation({', '.join(have) or 'empty'}, tree_format={self.tree_format!r})"

    @classmethod
    def from_any(cls, obj: Any) -> Observation:
        """Accept an :class:`Observation`, a mapping, or any object with the attributes
        ``accessibility_tree`` / ``dom_html`` / ``screenshot`` (benchmark harnesses)."""
        if isinstance(obj, Observation):
            return obj
        if isinstance(obj, Mapping):
            _check_keys(obj)
            get = obj.get
        elif any(hasattr(obj, f) for f in _FIELDS):

            def get(key: str, default: Any = None) -> Any:
                return getattr(obj, key, default)

        else:
            raise InvalidObservationError(
                "an observation must be an Observation, a mapping, or an object with "
                f"accessibility_tree / dom_html / screenshot attributes; got {type(obj).__name__}"
            )
        given: dict[str, Any] = {key: get(key) for key in (*_FIELDS, *_OPTIONS)}
        if given["max_nodes"] is None:
            given["max_nodes"] = DEFAULT_MAX_NODES
        if given["channel_order"] is None:
            given["channel_order"] = "rgb"
        if given["scripting"] is None:
            given["scripting"] = True
        return cls(**given)

    def has(self, source: str) -> bool:
        """Whether the observation carries the input ``source`` reads."""
        entry = SOURCES.get(source)
        return entry is not None and getattr(self, entry.field) is not None

    def candidates(self, source: str) -> CandidateTable:
        """The :class:`~resolver.table.CandidateTable` for ``"a11y"``, ``"dom"`` or ``"vision"``.

        Built on first use and cached on this observation.

        Raises
        ------
        InvalidObservationError
            The observation lacks that input, or the input cannot be read.
        SourceUnavailableError
            The source needs an optional extra that is not installed.
        """
        if source not in SOURCE_NAMES:
            raise InvalidObservationError(
                f"unknown source {source!r}; expected one of {', '.join(SOURCE_NAMES)}"
            )
        with self._lock:
            cached = self._tables.get(source)
            if cached is None:
                cached = self._build(source)
                if source == "a11y" and self.dom_html is not None:
                    cached = self._with_page_evidence(cached)
                self._tables[source] = cached
            return cached

    def _with_page_evidence(self, table: CandidateTable) -> CandidateTable:
        """The a11y ``table`` with the tag and web evidence of its rows' DOM elements, read
        from this observation's HTML by their linked xpaths the first time one of those
        columns is asked for (:class:`~resolver.table.LazyColumns`,
        :func:`~resolver.adapters.dom.link.evidence_columns`): a reference that recorded no
        web evidence never builds the DOM. As it is when no row is linked or the tree gave
        the columns already; every row reads ``None`` where the HTML cannot be read (the DOM
        source then says why)."""
        if "xpath" not in table.platform_ids or "tag" in table.platform_ids:
            return table
        from .adapters.dom.link import evidence_columns
        from .web import WEB_COLUMNS

        eager = table.platform_ids

        def make() -> dict[str, tuple[Any, ...]]:
            try:
                dom = self.candidates("dom")
            except ResolutionError:
                dom = None
            return evidence_columns(eager, dom)

        return replace(table, platform_ids=LazyColumns(eager, ("tag", *WEB_COLUMNS), make))

    def region_candidates(self, source: str, region: Region) -> CandidateTable:
        """The table of the part of ``source``'s input inside ``region`` (hint-first search;
        see :class:`~resolver.adapters.base.Region`), built once per region and cached.

        Raises the same errors as :meth:`candidates`; a source without a region builder
        answers with its whole table.
        """
        if SOURCES.get(source) is None or SOURCES[source].region_builder is None:
            return self.candidates(source)
        key = (source, region)
        with self._lock:
            cached = self._regions.get(key)
            if cached is None:
                cached = self._build(source, region)
                if len(self._regions) >= _MAX_REGION_TABLES:
                    self._regions.pop(next(iter(self._regions)))
                self._regions[key] = cached
            return cached

    def visible_frame(self, source: str) -> tuple[float, float] | None:
        """``(width, height)`` of the screen ``source`` sees, in its table's units, for a
        source that sees only the screen (vision: the ``screen_size``, else the screenshot's
        pixels); ``None`` for the sources that see off-screen elements too.

        Raises the same errors as :meth:`candidates`.
        """
        entry = SOURCES.get(source)
        if entry is None or entry.frame_reader is None:
            return None
        if self.screen_size is not None:
            return self.screen_size
        reader = entry.load_frame()
        return None if reader is None else reader(self._input(source))

    def _input(self, source: str) -> SourceInput:
        raw = getattr(self, SOURCES[source].field)
        if raw is None:
            raise InvalidObservationError(f"the observation has no input for the {source} source")
        return SourceInput(
            raw, self.screen_size, self.max_nodes, self.tree_format, self.url,
            self.dom_layout, self.dom_node_map, self.channel_order, self.scripting,
            self.limits,
        )  # fmt: skip

    def _build(self, source: str, region: Region | None = None) -> CandidateTable:
        entry = SOURCES[source]
        given = self._input(source)
        try:
            if region is not None:
                build_region = entry.load_region()
                if build_region is not None:
                    return build_region(given, region)
            return entry.load()(given)
        except ResolutionError:
            raise
        except RecursionError as exc:
            raise InvalidObservationError(f"the {source} input is nested too deeply") from exc
        except MemoryError as exc:
            raise InvalidObservationError(f"the {source} input is too large to read") from exc
