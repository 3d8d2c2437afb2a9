"""The vision source: a screenshot to a candidate table of text, widgets and icons, offline.

Vision is the only source in Citrix/VDI and remote-desktop sessions and the fallback
everywhere else (canvas apps, custom-drawn widgets, a remote desktop inside a browser): the
chain reaches it after a11y and DOM, and its rows carry the same columns, so the matcher and
the decision are the same code.

Pipeline, one module each: :mod:`.image` (PNG/JPEG bytes, a path or an array; checked
before decoding) -> :mod:`.ocr` (RapidOCR with the models bundled in its wheel, on
onnxruntime, CPU) and :mod:`.widgets` (OpenCV: bordered rectangles, checkboxes, radios, icon
blobs) and, when one is registered, :mod:`.detector` (a user's ONNX widget detector) ->
:mod:`.layout` (text into widgets, labels to controls, glyph icons, table rows) with
:mod:`.roles` (role hypotheses from appearance) -> :mod:`.table` (the candidate table).
:mod:`.analysis` runs it for one window of the screenshot and caches the result.

Hint-first: :func:`build_region_table` reads only a window around a reference's recorded
box (the registry's ``region_sizes``: 400x300, then 800x600); the chain judges those tables
first and builds the whole-screen table (:func:`build_table`) only when no window gives a
confident, unambiguous answer.

Needs the ``vision`` extra (``rapidocr``, ``onnxruntime``, ``opencv-python-headless``):
without it, importing this package raises :class:`ImportError`, which the source registry
turns into :class:`~resolver.errors.SourceUnavailableError` and the chain into an
``unavailable`` trace entry.
"""

from __future__ import annotations

import importlib.util

for _module in ("cv2", "onnxruntime", "rapidocr"):
    if importlib.util.find_spec(_module) is None:
        raise ImportError(f"the vision source needs the {_module} package, which is missing")

from ...table import CandidateTable  # noqa: E402
from ..base import Region, SourceInput  # noqa: E402
from .analysis import Analysis, Window, analyze, clear_cache  # noqa: E402
from .detector import Detector, set_detector  # noqa: E402
from .image import MIN_SIDE, Screenshot, at_screen_density, load_screenshot  # noqa: E402
from .table import VisionNative, answer_box, focus_table, to_table  # noqa: E402

__all__ = [
    "Analysis",
    "Detector",
    "VisionNative",
    "answer_box",
    "build_region_table",
    "build_table",
    "clear_cache",
    "focus_table",
    "load_screenshot",
    "pixel_window",
    "screen_frame",
    "set_detector",
]


def _units(shot: Screenshot, screen_size: tuple[float, float] | None) -> tuple[float, float]:
    """Table units per pixel: the observation's screen size over the screenshot's."""
    if screen_size is None:
        return (1.0, 1.0)
    return (screen_size[0] / shot.width, screen_size[1] / shot.height)


def screen_frame(source: SourceInput) -> tuple[float, float]:
    """The screen the screenshot shows, in table units: the observation's ``screen_size``
    when it gives one, else the screenshot's size in pixels."""
    if source.screen_size is not None:
        return source.screen_size
    shot = load_screenshot(source.raw, source.channel_order, source.limits)
    return (float(shot.width), float(shot.height))


def pixel_window(
    shot: Screenshot, region: Region, screen_size: tuple[float, float] | None
) -> Window:
    """The screenshot pixels a region covers: the hint rescaled from the screen it was
    recorded on to this observation, a window of ``region.size`` (at least one and a half
    times the hint) centred on it, clipped to the image."""
    sx, sy = _units(shot, screen_size)
    table_w, table_h = shot.width * sx, shot.height * sy
    left, top, right, bottom = region.hint
    if region.frame is not None and region.frame[0] > 0 and region.frame[1] > 0:
        fx, fy = table_w / region.frame[0], table_h / region.frame[1]
        left, top, right, bottom = left * fx, top * fy, right * fx, bottom * fy
    width = max(region.size[0], 1.5 * (right - left)) / sx
    height = max(region.size[1], 1.5 * (bottom - top)) / sy
    cx, cy = (left + right) / 2.0 / sx, (top + bottom) / 2.0 / sy
    return (
        max(0, min(shot.width, round(cx - width / 2.0))),
        max(0, min(shot.height, round(cy - height / 2.0))),
        max(0, min(shot.width, round(cx + width / 2.0))),
        max(0, min(shot.height, round(cy + height / 2.0))),
    )


def _empty(shot: Screenshot, window: Window, source: SourceInput) -> CandidateTable:
    analysis = Analysis(shot.digest, (shot.width, shot.height), window, (), (), ())
    return to_table(analysis, source.screen_size, max_rows=source.max_nodes)


def _read(source: SourceInput) -> Screenshot:
    """The observation's screenshot as the analysis reads it: decoded, and at the screen's
    size when it comes from a high-density display (:func:`at_screen_density`)."""
    shot = load_screenshot(source.raw, source.channel_order, source.limits)
    return at_screen_density(shot, source.screen_size)


def build_table(source: SourceInput) -> CandidateTable:
    """The whole screenshot's candidate table (see :mod:`resolver.adapters.vision.table`)."""
    shot = _read(source)
    return to_table(analyze(shot), source.screen_size, max_rows=source.max_nodes)


def build_region_table(source: SourceInput, region: Region) -> CandidateTable:
    """The candidate table of the window ``region`` covers (elements cut by its edges are
    left to larger windows); empty when the window falls outside the screenshot."""
    shot = _read(source)
    window = pixel_window(shot, region, source.screen_size)
    if window[2] - window[0] < MIN_SIDE or window[3] - window[1] < MIN_SIDE:
        return _empty(shot, window, source)
    return to_table(analyze(shot, window), source.screen_size, max_rows=source.max_nodes)
