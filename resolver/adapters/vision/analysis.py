"""One screenshot window, analysed once: OCR, widgets, the optional detector, layout.

:func:`analyze` is the whole pipeline for one window (a hint window or the whole screen).
Results are cached per screenshot content, window and detector, so the refs of one step
share the work: a window is read once however many references look in it, and the whole
screen once for all of them. Things cut by the window's edge (a word half inside, a button
whose border leaves the window) are dropped: a larger window sees them whole.

Once the whole screen has been read, a window is not read again: its lines and shapes are
taken from the whole screen's (those wholly inside it) and only the layout runs, a few
milliseconds instead of an OCR pass, so every later reference on the same screenshot costs
the layout of its hint windows.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from ...geometry import Box, iou_one
from .detector import current_detector
from .groups import group
from .image import Screenshot
from .layout import Element, layout
from .marks import find_marks
from .ocr import TextLine, Word, engine
from .widgets import Widget, detect_widgets, edges_of

__all__ = ["Analysis", "Window", "analyze", "clear_cache", "screen_read"]

Window = tuple[int, int, int, int]
"""``(left, top, right, bottom)`` in pixels of the screenshot."""

EDGE: Final[float] = 2.0
"""Things within this many pixels of an inner window edge are cut, and dropped."""
_CACHE_SIZE: Final[int] = 64
_WHOLE_SCREENS: Final[int] = 4
"""Whole-screen analyses kept however many windows come after them: a window of a read
screen costs only its layout, so the screen's reading must outlive its windows."""


@dataclass(frozen=True, eq=False)
class Analysis:
    """What vision saw in one window of one screenshot (boxes in screenshot pixels).

    Attributes
    ----------
    digest:
        The screenshot's content digest.
    image_size:
        ``(width, height)`` of the whole screenshot.
    window:
        The part read, ``(left, top, right, bottom)``.
    lines:
        OCR text lines with their words.
    widgets:
        Shapes, icons and detector boxes.
    elements:
        The layout, in pre-order (see :mod:`resolver.adapters.vision.layout`).
    marks:
        Whatever is drawn apart from the rest (:mod:`resolver.adapters.vision.marks`), for
        the whole screen only (empty for a window).
    timings:
        Seconds spent per stage (``ocr``, ``widgets``, ``detector``, ``layout``,
        ``marks``).
    """

    digest: str
    image_size: tuple[int, int]
    window: Window
    lines: tuple[TextLine, ...]
    widgets: tuple[Widget, ...]
    elements: tuple[Element, ...]
    timings: Mapping[str, float] = field(default_factory=dict)
    marks: tuple[Box, ...] = ()

    @property
    def full(self) -> bool:
        """Whether the window is the whole screenshot."""
        return self.window == (0, 0, *self.image_size)


_cache: OrderedDict[tuple[str, Window, str], Analysis] = OrderedDict()
_cache_lock = threading.Lock()
_window_locks: dict[tuple[str, Window, str], threading.Lock] = {}


def clear_cache() -> None:
    """Forget every analysed window (tests and benchmarks measure cold runs with it)."""
    with _cache_lock:
        _cache.clear()
        _window_locks.clear()


def screen_read(shot: Screenshot) -> bool:
    """Whether the whole of ``shot`` has been read and is cached (its windows then cost only
    their layout)."""
    detector = current_detector()
    key = (shot.digest, (0, 0, shot.width, shot.height), "" if detector is None else detector.key)
    with _cache_lock:
        return key in _cache


def _shift(box: Box, dx: float, dy: float) -> Box:
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def _cut(box: Box, window: Window, image_size: tuple[int, int]) -> bool:
    """Whether ``box`` (window pixels) touches an edge of the window inside the image."""
    left, top, right, bottom = window
    width, height = right - left, bottom - top
    return (
        (left > 0 and box[0] <= EDGE)
        or (top > 0 and box[1] <= EDGE)
        or (right < image_size[0] and box[2] >= width - EDGE)
        or (bottom < image_size[1] and box[3] >= height - EDGE)
    )


def _element_to_image(element: Element, dx: float, dy: float) -> Element:
    words = tuple(Word(w.text, _shift(w.box, dx, dy), w.score) for w in element.words)
    return replace(element, box=_shift(element.box, dx, dy), words=words)


def _line_to_image(line: TextLine, dx: float, dy: float) -> TextLine:
    words = tuple(Word(w.text, _shift(w.box, dx, dy), w.score) for w in line.words)
    return TextLine(line.text, _shift(line.box, dx, dy), line.score, words)


def _run(shot: Screenshot, window: Window) -> Analysis:
    left, top, right, bottom = window
    pixels = shot.pixels[top:bottom, left:right]
    size = (shot.width, shot.height)
    timings: dict[str, float] = {}
    started = time.perf_counter()
    lines = [ln for ln in engine().read(pixels) if not _cut(ln.box, window, size)]
    timings["ocr"] = time.perf_counter() - started
    started = time.perf_counter()
    whole = window == (0, 0, *size)
    edges = edges_of(pixels) if whole else None  # the marks' too
    widgets = detect_widgets(pixels, [(ln.box, [w.box for w in ln.words]) for ln in lines], edges)
    timings["widgets"] = time.perf_counter() - started
    detector = current_detector()
    if detector is not None:
        started = time.perf_counter()
        widgets += _new_boxes(detector(pixels), widgets)
        timings["detector"] = time.perf_counter() - started
    widgets = [w for w in widgets if not _cut(w.box, window, size)]
    started = time.perf_counter()
    elements = layout(pixels, lines, widgets, wrap=group)
    timings["layout"] = time.perf_counter() - started
    analysis = _in_image(shot, window, (lines, widgets, elements), timings)
    if not whole:
        return analysis
    started = time.perf_counter()
    marks = find_marks(pixels, edges)
    timings["marks"] = time.perf_counter() - started
    return replace(analysis, marks=marks)


def _inside(box: Box, window: Window, image_size: tuple[int, int]) -> bool:
    """Whether ``box`` (screenshot pixels) lies in ``window`` and is not cut by it."""
    left, top, right, bottom = window
    if box[0] < left or box[1] < top or box[2] > right or box[3] > bottom:
        return False
    return not _cut(_shift(box, -left, -top), window, image_size)


def _derive(shot: Screenshot, whole: Analysis, window: Window) -> Analysis:
    """The analysis of ``window`` from the whole screen's: its lines and shapes, laid out."""
    left, top, right, bottom = window
    size = (shot.width, shot.height)
    started = time.perf_counter()
    lines = [_line_to_image(ln, -left, -top) for ln in whole.lines if _inside(ln.box, window, size)]
    widgets = [
        replace(w, box=_shift(w.box, -left, -top))
        for w in whole.widgets
        if _inside(w.box, window, size)
    ]
    elements = layout(shot.pixels[top:bottom, left:right], lines, widgets, wrap=group)
    timings = {"layout": time.perf_counter() - started}
    return _in_image(shot, window, (lines, widgets, elements), timings)


def _in_image(
    shot: Screenshot,
    window: Window,
    seen: tuple[Sequence[TextLine], Sequence[Widget], Sequence[Element]],
    timings: dict[str, float],
) -> Analysis:
    """The analysis of ``window`` with what was seen in it (window pixels) moved to
    screenshot pixels."""
    left, top = window[0], window[1]
    lines, widgets, elements = seen
    return Analysis(
        digest=shot.digest,
        image_size=(shot.width, shot.height),
        window=window,
        lines=tuple(_line_to_image(ln, left, top) for ln in lines),
        widgets=tuple(replace(w, box=_shift(w.box, left, top)) for w in widgets),
        elements=tuple(_element_to_image(e, left, top) for e in elements),
        timings=timings,
    )


def _new_boxes(detected: Sequence[Widget], shapes: Sequence[Widget]) -> list[Widget]:
    """Detector boxes that OpenCV did not already find (IoU below 0.7 with every shape)."""
    return [d for d in detected if all(iou_one(d.box, s.box) < 0.7 for s in shapes)]


def _evictable() -> tuple[str, Window, str]:
    """The cache key to drop: the oldest window, or the oldest whole screen when more than
    :data:`_WHOLE_SCREENS` are kept (called with the cache lock held)."""
    whole = [key for key, found in _cache.items() if found.full]
    if len(whole) > _WHOLE_SCREENS:
        return whole[0]
    window = next((key for key, found in _cache.items() if not found.full), None)
    return whole[0] if window is None else window


def analyze(shot: Screenshot, window: Window | None = None) -> Analysis:
    """The analysis of ``window`` of ``shot`` (the whole screenshot by default), cached."""
    full: Window = (0, 0, shot.width, shot.height)
    chosen = full if window is None else window
    detector = current_detector()
    key = (shot.digest, chosen, "" if detector is None else detector.key)
    with _cache_lock:
        cached = _cache.get(key)
        if cached is not None:
            _cache.move_to_end(key)
            return cached
        lock = _window_locks.setdefault(key, threading.Lock())
    with lock:  # two threads asking for one window: the second waits and reuses
        with _cache_lock:
            cached = _cache.get(key)
        if cached is None:
            with _cache_lock:
                whole = None if chosen == full else _cache.get((shot.digest, full, key[2]))
            cached = _run(shot, chosen) if whole is None else _derive(shot, whole, chosen)
            with _cache_lock:
                _cache[key] = cached
                while len(_cache) > _CACHE_SIZE:
                    old = _evictable()
                    del _cache[old]
                    _window_locks.pop(old, None)
    return cached
