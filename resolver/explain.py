"""An explain picture: what a resolution saw, drawn on the screenshot, for people debugging.

:func:`explain` resolves a reference like :func:`resolver.resolve` does, then draws on the
observation's screenshot (or, without one, on a blank canvas of its screen size) and writes
a PNG:

* the rows of the table that decided (thin grey), the alternatives it ranked (blue), the
  runner-up (orange) and the answer (green, thick) with a marker on its click point;
* on a refusal, the best candidate in red and a red banner across the top naming the
  deciding rule and why (:func:`refusal_text`);
* the reference's recorded box, rescaled to the observation's screen (magenta, dashed);
  when it lies outside the picture (``refuse.off_screen``), an arrow at the picture's edge
  points toward it (:func:`edge_marker`);
* a legend of the colours (:data:`LEGEND`) in the corner farthest from the answer and the
  recorded box (:func:`legend_corner`).

Each ranked box is labelled with its rank, role, name, score and, for the best one, the
deciding rule (:func:`label_text`), above the box or below it when there is no room. With
OpenCV (the ``vision`` extra) the labels, the banner and the legend carry text; without it
the boxes, markers, banner strip and legend swatches are drawn alone and the PNG is written
by the standard library.

What building a source's table repaired or dropped (boxes not finite, names not text...)
is in its trace entry; :func:`diagnostic_lines` words it, one line per source, as the
command prints it.

Command line: ``resolver explain --ref REF --screenshot SHOT.png --out explain.png``.
"""

from __future__ import annotations

import math
import struct
import zlib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, NamedTuple

import numpy as np
import numpy.typing as npt

from .adapters import SOURCES
from .chain import resolve
from .errors import Evidence, InvalidReferenceError, ResolutionError, SourceUnavailableError
from .geometry import Box, scale_between
from .models import SemanticElementRef
from .observation import Observation
from .results import Resolution, TraceEntry
from .table import CandidateTable, describe_diagnostics

__all__ = [
    "LEGEND",
    "diagnostic_lines",
    "draw_rect",
    "draw_text",
    "edge_marker",
    "explain",
    "label_text",
    "legend_corner",
    "png_bytes",
    "refusal_text",
    "text_size",
]

Pixels = npt.NDArray[np.uint8]
Color = tuple[int, int, int]
Point = tuple[int, int]

DEFAULT_CANVAS: Final[tuple[int, int]] = (1280, 800)
GREY: Final[Color] = (170, 170, 170)  # BGR
BLUE: Final[Color] = (200, 120, 30)
ORANGE: Final[Color] = (0, 140, 255)
GREEN: Final[Color] = (40, 170, 40)
MAGENTA: Final[Color] = (200, 40, 200)
RED: Final[Color] = (40, 40, 215)
DARK: Final[Color] = (32, 32, 32)
WHITE: Final[Color] = (255, 255, 255)
MAX_DRAWN: Final[int] = 5000
NAME_CUT: Final[int] = 24
REASON_CUT: Final[int] = 80
BANNER_HEIGHT: Final[int] = 24
FONT_SCALE: Final[float] = 0.42
CORNERS: Final[tuple[str, ...]] = ("bottom-right", "bottom-left", "top-right", "top-left")

#: What each colour of the picture means, in the order the legend lists them.
LEGEND: Final[tuple[tuple[str, Color], ...]] = (
    ("table rows", GREY),
    ("ranked alternatives", BLUE),
    ("runner-up", ORANGE),
    ("answer + click point", GREEN),
    ("recorded box", MAGENTA),
    ("refusal", RED),
)
_SWATCH: Final[tuple[int, int]] = (14, 10)
_ROW: Final[int] = 16
_PAD: Final[int] = 6


class _Mark(NamedTuple):
    """A ranked box to draw: its rank, candidate dict, colour, thickness and rule."""

    rank: int
    candidate: Mapping[str, Any]
    color: Color
    thick: int
    rule: str


def _cv2() -> Any | None:
    try:
        import cv2
    except ImportError:
        return None
    return cv2


def _canvas(observation: Observation) -> tuple[Pixels, tuple[float, float]]:
    """The picture to draw on (BGR) and its pixels per table unit."""
    screen = observation.screen_size
    if observation.screenshot is not None and _cv2() is not None:
        try:
            from .adapters.vision.image import load_screenshot

            shot = load_screenshot(
                observation.screenshot, observation.channel_order, limits=observation.limits
            )
        except (ImportError, ResolutionError):
            shot = None
        if shot is not None:
            pixels = np.array(shot.pixels, copy=True)
            if screen is None:
                return pixels, (1.0, 1.0)
            return pixels, (shot.width / screen[0], shot.height / screen[1])
    width, height = (round(v) for v in screen) if screen else DEFAULT_CANVAS
    return np.full((max(height, 1), max(width, 1), 3), 255, dtype=np.uint8), (1.0, 1.0)


# -- pure layout ---------------------------------------------------------------------------


def _cut(text: str, size: int) -> str:
    return text if len(text) <= size else text[: max(size - 3, 0)] + "..."


def label_text(rank: int, candidate: Mapping[str, Any], rule: str = "") -> str:
    """The label of a ranked box: rank, role, name (cut to :data:`NAME_CUT` characters),
    score and, when given, the rule that decided.

    Parameters
    ----------
    rank
        1 for the answer (or a refusal's best candidate), 2 for the next, and so on.
    candidate
        A candidate as :meth:`resolver.results.Candidate.to_dict` writes it (``role``,
        ``name``, ``score``); missing fields are left out.
    rule
        The deciding rule's id, or ``""``.

    Returns
    -------
    str

    Examples
    --------
    >>> label_text(1, {"role": "button", "name": "OK", "score": 0.99}, "accept.score")
    "#1 button 'OK' 0.99 accept.score"
    >>> label_text(3, {"role": "link", "name": "x" * 40, "score": 0.1})
    "#3 link 'xxxxxxxxxxxxxxxxxxxxx...' 0.10"
    """
    parts = [f"#{rank}", str(candidate.get("role") or "?")]
    parts.append(repr(_cut(str(candidate.get("name") or ""), NAME_CUT)))
    score = candidate.get("score")
    if isinstance(score, (int, float)) and not isinstance(score, bool):
        parts.append(f"{score:.2f}")
    if rule:
        parts.append(rule)
    return " ".join(parts)


def refusal_text(evidence: Evidence) -> str:
    """The banner of a refusal: the deciding rule and, from the trace entry that made it,
    the reason in short (its last clause, cut to :data:`REASON_CUT` characters).

    Examples
    --------
    >>> from resolver.errors import Evidence
    >>> from resolver.results import TraceEntry
    >>> entry = TraceEntry("vision", "not_found", "the box lies outside: not visible here",
    ...                    rule="refuse.off_screen")
    >>> refusal_text(Evidence(trace=(entry,), rule="refuse.off_screen"))
    'refused: refuse.off_screen - not visible here'
    """
    rule = evidence.rule
    entry = next((t for t in evidence.trace if rule and t.rule == rule), None)
    verb = "ambiguous" if entry is not None and entry.status == "ambiguous" else "refused"
    head = f"{verb}: {rule or 'no rule'}"
    if entry is None or not entry.reason:
        return head
    return f"{head} - {_cut(entry.reason.rsplit(': ', 1)[-1], REASON_CUT)}"


def _distance(point: tuple[float, float], box: Box) -> float:
    dx = max(box[0] - point[0], 0.0, point[0] - box[2])
    dy = max(box[1] - point[1], 0.0, point[1] - box[3])
    return math.hypot(dx, dy)


def legend_corner(image_size: tuple[int, int], avoid: Iterable[Box]) -> str:
    """The corner for the legend: the one farthest from the boxes to keep clear (the
    answer, the recorded box; in picture pixels), ``"bottom-right"`` when there are none
    or on a tie, then ``"bottom-left"``, ``"top-right"``, ``"top-left"``.

    Examples
    --------
    >>> legend_corner((1280, 800), [])
    'bottom-right'
    >>> legend_corner((1280, 800), [(1100, 700, 1200, 760)])
    'top-left'
    """
    width, height = image_size
    at = {
        "bottom-right": (float(width), float(height)),
        "bottom-left": (0.0, float(height)),
        "top-right": (float(width), 0.0),
        "top-left": (0.0, 0.0),
    }
    boxes = list(avoid)
    if not boxes:
        return CORNERS[0]
    return max(CORNERS, key=lambda c: min(_distance(at[c], b) for b in boxes))


def _legend_rect(
    image_size: tuple[int, int], size: tuple[int, int], corner: str, top: int
) -> tuple[int, int]:
    """The legend's top-left pixel in ``corner`` (below a banner ``top`` pixels high)."""
    width, height = image_size
    x = width - size[0] - _PAD if corner.endswith("right") else _PAD
    y = height - size[1] - _PAD if corner.startswith("bottom") else top + _PAD
    return max(x, 0), max(y, 0)


def edge_marker(
    box: Box, image_size: tuple[int, int], length: int = 36
) -> tuple[Point, Point] | None:
    """Where to point at a box that lies wholly outside the picture: ``(tail, tip)`` of an
    arrow whose tip is on the picture's edge, nearest the box's centre, and whose tail is
    ``length`` pixels inward; ``None`` when some of the box is in the picture.

    Examples
    --------
    >>> edge_marker((300, 1200, 370, 1230), (1280, 800))
    ((335, 759), (335, 795))
    >>> edge_marker((10, 10, 50, 50), (1280, 800)) is None
    True
    """
    width, height = image_size
    if box[2] >= 0 and box[0] < width and box[3] >= 0 and box[1] < height:
        return None
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    tip_x = min(max(cx, 4.0), width - 5.0)
    tip_y = min(max(cy, 4.0), height - 5.0)
    dx, dy = cx - tip_x, cy - tip_y
    norm = math.hypot(dx, dy) or 1.0
    tail = (round(tip_x - dx / norm * length), round(tip_y - dy / norm * length))
    tail = (min(max(tail[0], 0), width - 1), min(max(tail[1], 0), height - 1))
    return tail, (round(tip_x), round(tip_y))


def _place(
    box: Box, text: tuple[int, int], image_size: tuple[int, int], top: int, taken: list[Box]
) -> tuple[int, int]:
    """The baseline origin of a label ``text`` (width, height) pixels big: just above
    ``box``, or just below it when there is no room there; when both are ``taken``, the next
    free row above, then below; kept in the picture."""
    width, height = image_size
    w, h = text
    x = int(min(max(box[0], 0), max(width - w - 3, 0)))
    step = h + 7
    rows = [int(box[1]) - 7, int(box[3]) + h + 8]
    rows += [y for k in range(1, 4) for y in (rows[0] - k * step, rows[1] + k * step)]
    options = [y for y in rows if y - h - 3 >= top and y + 3 < height]
    free = [y for y in options if not any(_overlaps((x, y - h - 3, x + w + 2, y + 3), t)
                                          for t in taken)]  # fmt: skip
    y = (free or options or [min(max(rows[0], top + h + 3), height - 4)])[0]
    taken.append((x, y - h - 3, x + w + 2, y + 3))
    return x, y


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


# -- drawing -------------------------------------------------------------------------------


def _px(box: Box, scale: tuple[float, float]) -> Box:
    return (box[0] * scale[0], box[1] * scale[1], box[2] * scale[0], box[3] * scale[1])


def draw_rect(pixels: Pixels, box: Box, scale: tuple[float, float], color: Any, thick: int) -> None:
    """The outline of ``box`` (table units; ``scale`` pixels per unit), ``thick`` pixels
    wide, kept in the picture."""
    height, width = pixels.shape[:2]
    left = int(max(0, min(width - 1, box[0] * scale[0])))
    top = int(max(0, min(height - 1, box[1] * scale[1])))
    right = int(max(0, min(width - 1, box[2] * scale[0])))
    bottom = int(max(0, min(height - 1, box[3] * scale[1])))
    for t in range(thick):
        pixels[max(0, top - t), left : right + 1] = color
        pixels[min(height - 1, bottom + t), left : right + 1] = color
        pixels[top : bottom + 1, max(0, left - t)] = color
        pixels[top : bottom + 1, min(width - 1, right + t)] = color


def _dashed_rect(pixels: Pixels, box: Box, color: Color, dash: int = 6, gap: int = 4) -> None:
    """The parts of ``box`` (pixels) that lie in the picture, dashed; nothing is clamped."""
    height, width = pixels.shape[:2]
    left, top, right, bottom = (round(v) for v in box)
    xs = np.arange(max(left, 0), min(right, width - 1) + 1)
    xs = xs[(xs - left) % (dash + gap) < dash]
    ys = np.arange(max(top, 0), min(bottom, height - 1) + 1)
    ys = ys[(ys - top) % (dash + gap) < dash]
    for y in (top, bottom):
        if 0 <= y < height:
            pixels[y, xs] = color
    for x in (left, right):
        if 0 <= x < width:
            pixels[ys, x] = color


def _line(pixels: Pixels, start: Point, end: Point, color: Color, thick: int = 2) -> None:
    height, width = pixels.shape[:2]
    steps = max(abs(end[0] - start[0]), abs(end[1] - start[1]), 1)
    for i in range(steps + 1):
        x = round(start[0] + (end[0] - start[0]) * i / steps)
        y = round(start[1] + (end[1] - start[1]) * i / steps)
        rows = slice(max(y - thick // 2, 0), max(min(y + (thick + 1) // 2, height), 0))
        cols = slice(max(x - thick // 2, 0), max(min(x + (thick + 1) // 2, width), 0))
        pixels[rows, cols] = color


def _arrow(pixels: Pixels, tail: Point, tip: Point, color: Color) -> None:
    _line(pixels, tail, tip, color, 3)
    angle = math.atan2(tip[1] - tail[1], tip[0] - tail[0])
    for turn in (math.pi * 5 / 6, -math.pi * 5 / 6):
        end = (
            round(tip[0] + 12 * math.cos(angle + turn)),
            round(tip[1] + 12 * math.sin(angle + turn)),
        )
        _line(pixels, tip, end, color, 3)


def _click_marker(pixels: Pixels, point: tuple[float, float], color: Color) -> None:
    """A filled dot ringed in white, with a crosshair, centred on ``point`` (pixels)."""
    height, width = pixels.shape[:2]
    cx, cy = round(point[0]), round(point[1])
    ys, xs = np.ogrid[:height, :width]
    near = (xs - cx) ** 2 + (ys - cy) ** 2
    pixels[near <= 36] = WHITE
    pixels[near <= 16] = color
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        _line(pixels, (cx + 7 * dx, cy + 7 * dy), (cx + 13 * dx, cy + 13 * dy), color, 2)


def draw_text(
    pixels: Pixels, origin: Point, text: str, color: Color, back: Color,
    scale: float = FONT_SCALE,
) -> None:  # fmt: skip
    """``text`` with its baseline at ``origin`` on a strip of ``back``, ``scale`` times
    OpenCV's font size (OpenCV only)."""
    cv2 = _cv2()
    if cv2 is None or not text:
        return
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
    x, y = origin
    cv2.rectangle(pixels, (x, y - h - 3), (x + w + 2, y + 3), back, -1)
    cv2.putText(pixels, text, (x + 1, y), cv2.FONT_HERSHEY_SIMPLEX, scale, color, 1,
                cv2.LINE_AA)  # fmt: skip


def text_size(text: str, scale: float = FONT_SCALE) -> tuple[int, int]:
    """The width and height, in pixels, :func:`draw_text` gives ``text`` (0, 0 without
    OpenCV)."""
    cv2 = _cv2()
    if cv2 is None:
        return 0, 0
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
    return int(w), int(h)


def _labels(pixels: Pixels, scale: tuple[float, float], marks: Sequence[_Mark], top: int) -> None:
    """Each mark's label, kept off the ranked boxes and the labels placed before it (best
    rank first), drawn best rank last so it stays on top."""
    if _cv2() is None:
        return
    height, width = pixels.shape[:2]
    boxes = [_px(tuple(m.candidate["bbox"]), scale) for m in marks]
    taken: list[Box] = [(b[0] - 3, b[1] - 3, b[2] + 3, b[3] + 3) for b in boxes]
    placed = []
    for mark in sorted(marks, key=lambda m: m.rank):
        text = label_text(mark.rank, mark.candidate, mark.rule)
        box = _px(tuple(mark.candidate["bbox"]), scale)
        placed.append((text, _place(box, text_size(text), (width, height), top, taken), mark))
    for text, origin, mark in reversed(placed):
        draw_text(pixels, origin, text, mark.color, DARK)


def _banner(pixels: Pixels, text: str) -> None:
    pixels[:BANNER_HEIGHT] = RED
    draw_text(pixels, (6, BANNER_HEIGHT - 8), text, WHITE, RED)


def _legend(pixels: Pixels, avoid: Sequence[Box], top: int) -> None:
    """The legend in the corner :func:`legend_corner` picks; left out when it would take
    more than half the picture's width or height."""
    height, width = pixels.shape[:2]
    words = max(text_size(w)[0] for w, _ in LEGEND)
    size = (_PAD * 2 + _SWATCH[0] + (words + _PAD if words else 0), _PAD * 2 + _ROW * len(LEGEND))
    if size[0] * 2 > width or size[1] * 2 > height - top:
        return
    x, y = _legend_rect((width, height), size, legend_corner((width, height), avoid), top)
    pixels[y : y + size[1], x : x + size[0]] = WHITE
    draw_rect(pixels, (x, y, x + size[0] - 1, y + size[1] - 1), (1.0, 1.0), DARK, 1)
    for i, (words_, color) in enumerate(LEGEND):
        row = y + _PAD + i * _ROW
        pixels[row + 3 : row + 3 + _SWATCH[1], x + _PAD : x + _PAD + _SWATCH[0]] = color
        draw_text(pixels, (x + _PAD * 2 + _SWATCH[0], row + 12), words_, DARK, WHITE)


def png_bytes(pixels: Pixels) -> bytes:
    """``pixels`` (BGR) as a PNG file's bytes: by OpenCV, else by the standard library."""
    cv2 = _cv2()
    if cv2 is not None:
        ok, encoded = cv2.imencode(".png", pixels)
        if ok:
            return bytes(encoded.tobytes())
    rgb = np.ascontiguousarray(pixels[:, :, ::-1])
    height, width = rgb.shape[:2]
    raw = b"".join(b"\x00" + rgb[y].tobytes() for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6))
    return png + chunk(b"IEND", b"")


def _decided_table(
    observation: Observation, source: str, executor_id: str, ref: SemanticElementRef
) -> CandidateTable:
    """The table the answer came from: a hint window's (cached) or the whole input's."""
    for region in SOURCES[source].regions(ref.bbox, ref.screen_size):
        table = observation.region_candidates(source, region)
        if executor_id in table.executor_ids:
            return table
    return observation.candidates(source)


def _tables(
    observation: Observation, result: Resolution | Evidence, ref: SemanticElementRef
) -> list[CandidateTable]:
    if isinstance(result, Resolution):
        if result.source not in SOURCES:
            return []
        return [_decided_table(observation, result.source, result.executor_id, ref)]
    tables = []
    for entry in result.trace:
        if entry.status in ("not_found", "ambiguous"):
            try:
                tables.append(observation.candidates(entry.source))
            except (ResolutionError, KeyError):
                continue
    return tables


def _marks(result: Resolution | Evidence) -> list[_Mark]:
    """The ranked boxes: the answer (or a refusal's best candidate, in red) carrying the
    deciding rule, the runner-up and the other alternatives, with their ranks."""
    if isinstance(result, Evidence):
        found = [c.to_dict() for c in result.candidates]
        marks = [_Mark(1, found[0], RED, 2, result.rule)] if found else []
        marks += [
            _Mark(i, c, ORANGE if i == 2 else BLUE, 2 if i == 2 else 1, "")
            for i, c in enumerate(found[1:], 2)
        ]
        return [m for m in marks if m.candidate.get("bbox") is not None]
    entry = next((t for t in reversed(result.trace) if t.source == result.source), None)
    runner = None if entry is None else entry.runner_up
    rule = entry.rule if entry is not None and entry.rule else result.rule
    marks = [_Mark(1, result.candidate.to_dict(), GREEN, 3, rule)]
    ids = [a.executor_id for a in result.alternatives]
    for i, alt in enumerate(result.alternatives, 2):
        if runner is not None and alt.executor_id == runner.executor_id:
            marks.append(_Mark(i, alt.to_dict(), ORANGE, 2, ""))
        else:
            marks.append(_Mark(i, alt.to_dict(), BLUE, 1, ""))
    if runner is not None and runner.executor_id not in ids:
        marks.append(_Mark(len(ids) + 2, runner.to_dict(), ORANGE, 2, ""))
    return [m for m in marks if m.candidate.get("bbox") is not None]


def _recorded_box(
    ref: SemanticElementRef, result: Resolution | Evidence, observation: Observation
) -> Box | None:
    """The reference's recorded box on the observation's screen (table units)."""
    if isinstance(result, Evidence):
        shown = result.details.get("recorded_box_on_screen")
        if isinstance(shown, (tuple, list)) and len(shown) == 4:
            return (float(shown[0]), float(shown[1]), float(shown[2]), float(shown[3]))
    if ref.bbox is None:
        return None
    sx, sy = scale_between(ref.screen_size, observation.screen_size)
    box = ref.bbox
    return (box[0] * sx, box[1] * sy, box[2] * sx, box[3] * sy)


def _draw(
    pixels: Pixels,
    scale: tuple[float, float],
    tables: Iterable[CandidateTable],
    result: Resolution | Evidence,
    recorded: Box | None,
) -> None:
    height, width = pixels.shape[:2]
    for table in tables:
        for i in range(min(len(table), MAX_DRAWN)):
            box = table.box(i)
            if box is not None:
                draw_rect(pixels, box, scale, GREY, 1)
    on_picture = None if recorded is None else _px(recorded, scale)
    if on_picture is not None:
        _dashed_rect(pixels, on_picture, MAGENTA)
    marks = _marks(result)
    for mark in reversed(marks):
        draw_rect(pixels, tuple(mark.candidate["bbox"]), scale, mark.color, mark.thick)
    refused = isinstance(result, Evidence)
    top = BANNER_HEIGHT if refused else 0
    _labels(pixels, scale, marks, top)
    if isinstance(result, Resolution) and result.point is not None:
        _click_marker(pixels, (result.point[0] * scale[0], result.point[1] * scale[1]), GREEN)
    arrow = None if on_picture is None else edge_marker(on_picture, (width, height))
    if arrow is not None:
        _arrow(pixels, *arrow, MAGENTA)
        note = f"recorded box ({', '.join(f'{v:g}' for v in recorded or ())}) is off the picture"
        w, h = text_size(note)
        x = min(max(arrow[0][0] - w // 2, 0), max(width - w - 3, 0))
        y = min(max(arrow[0][1] - 8 if arrow[1][1] > arrow[0][1] else arrow[0][1] + h + 8,
                    top + h + 3), height - 4)  # fmt: skip
        draw_text(pixels, (x, y), note, MAGENTA, DARK)
    if isinstance(result, Evidence):
        _banner(pixels, refusal_text(result))
    avoid = [_px(tuple(m.candidate["bbox"]), scale) for m in marks if m.rank == 1]
    _legend(pixels, avoid + ([] if on_picture is None else [on_picture]), top)


def diagnostic_lines(trace: Iterable[TraceEntry]) -> list[str]:
    """One line per source whose table was repaired in the making, in trace order:
    ``"a11y table: 3 boxes not finite (dropped), 2 names not text (converted)"``.

    Examples
    --------
    >>> from resolver import Observation, resolve
    >>> tree = {"id": "1", "role": "frame", "name": "App", "children": [
    ...     {"id": "2", "role": "button", "name": "OK", "bbox": [10, 10, 60, 30]},
    ...     {"id": "3", "role": "button", "name": "Undo", "bbox": [90, 10, 40, 30]}]}
    >>> found = resolve({"role": "button", "name": "OK"}, {"accessibility_tree": tree})
    >>> diagnostic_lines(found.trace)
    ['a11y table: 1 box inverted (dropped)']
    """
    return [
        f"{entry.source} table: {describe_diagnostics(entry.diagnostics)}"
        for entry in trace
        if entry.diagnostics
    ]


def _as_ref(ref: Any) -> SemanticElementRef:
    if isinstance(ref, SemanticElementRef):
        return ref
    if isinstance(ref, (str, bytes)):
        return SemanticElementRef.model_validate_json(ref)  # type: ignore[no-any-return]
    if isinstance(ref, Mapping):
        return SemanticElementRef.model_validate(dict(ref))  # type: ignore[no-any-return]
    raise InvalidReferenceError(
        f"ref must be a SemanticElementRef, a mapping or JSON; got {type(ref).__name__}"
    )


def explain(
    ref: Any, observation: Observation | Any, out_path: str | Path, **resolve_options: Any
) -> Resolution | Evidence:
    """Resolve ``ref`` in ``observation`` (options as for :func:`resolver.resolve`), draw the
    candidates, the runner-up and the chosen element on the screenshot, and write a PNG to
    ``out_path``.

    Returns
    -------
    Resolution | Evidence
        The resolution, or the evidence of the error it raised (candidates and trace).

    Raises
    ------
    InvalidReferenceError, InvalidObservationError
        As :func:`resolver.resolve` does for invalid input.
    """
    obs = Observation.from_any(observation)
    checked = _as_ref(ref)
    result: Resolution | Evidence
    try:
        result = resolve(checked, obs, **resolve_options)
    except ResolutionError as exc:
        if exc.code.value in ("INVALID_REFERENCE", "INVALID_OBSERVATION", "UNSUPPORTED_FORMAT"):
            raise
        result = exc.evidence
    pixels, scale = _canvas(obs)
    try:
        tables = _tables(obs, result, checked)
    except SourceUnavailableError:
        tables = []
    _draw(pixels, scale, tables, result, _recorded_box(checked, result, obs))
    Path(out_path).write_bytes(png_bytes(pixels))
    return result
