"""An explain picture: what a resolution saw, drawn on the screenshot, for people debugging.

:func:`explain` resolves a reference like :func:`resolver.resolve` does, then draws on the
observation's screenshot (or, without one, on a blank canvas of its screen size) the rows of
the table that decided (thin grey), the alternatives it ranked (blue), the runner-up (orange)
and the chosen element (green, thick), each ranked one labelled with its role, name and
score, and writes a PNG. With OpenCV (the ``vision`` extra) the labels are text; without it
the boxes are drawn alone and the PNG is written by the standard library.

What building a source's table repaired or dropped (boxes not finite, names not text...)
is in its trace entry; :func:`diagnostic_lines` words it, one line per source, as the
command prints it.

Command line: ``resolver explain --ref REF --screenshot SHOT.png --out explain.png``.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from .adapters import SOURCES
from .chain import resolve
from .errors import Evidence, InvalidReferenceError, ResolutionError, SourceUnavailableError
from .geometry import Box
from .models import SemanticElementRef
from .observation import Observation
from .results import Resolution, TraceEntry
from .table import CandidateTable, describe_diagnostics

__all__ = ["diagnostic_lines", "explain"]

Pixels = npt.NDArray[np.uint8]

DEFAULT_CANVAS: Final[tuple[int, int]] = (1280, 800)
GREY: Final[tuple[int, int, int]] = (170, 170, 170)  # BGR
BLUE: Final[tuple[int, int, int]] = (200, 120, 30)
ORANGE: Final[tuple[int, int, int]] = (0, 140, 255)
GREEN: Final[tuple[int, int, int]] = (40, 170, 40)
MAX_DRAWN: Final[int] = 5000


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


def _rect(pixels: Pixels, box: Box, scale: tuple[float, float], color: Any, thick: int) -> None:
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


def _label(pixels: Pixels, box: Box, scale: tuple[float, float], text: str, color: Any) -> None:
    cv2 = _cv2()
    if cv2 is None or not text:
        return
    x = int(max(0, box[0] * scale[0]))
    y = int(box[1] * scale[1]) - 4
    y = y if y > 12 else int(box[3] * scale[1]) + 14
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.42, 1)
    cv2.rectangle(pixels, (x, y - h - 3), (x + w + 2, y + 3), (255, 255, 255), -1)
    cv2.putText(pixels, text, (x + 1, y), cv2.FONT_HERSHEY_SIMPLEX, 0.42, color, 1, cv2.LINE_AA)


def _write_png(pixels: Pixels, path: Path) -> None:
    cv2 = _cv2()
    if cv2 is not None:
        ok, encoded = cv2.imencode(".png", pixels)
        if ok:
            path.write_bytes(encoded.tobytes())
            return
    rgb = np.ascontiguousarray(pixels[:, :, ::-1])
    height, width = rgb.shape[:2]
    raw = b"".join(b"\x00" + rgb[y].tobytes() for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6))
    path.write_bytes(png + chunk(b"IEND", b""))


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


def _ranked(result: Resolution | Evidence) -> tuple[list[dict[str, Any]], Any, Any]:
    """Alternatives, runner-up and winner as dicts with role, name, bbox, score."""
    if isinstance(result, Resolution):
        runner = next(
            (t.runner_up for t in reversed(result.trace) if t.source == result.source), None
        )
        alternatives = [c.to_dict() for c in result.alternatives]
        return (
            alternatives,
            None if runner is None else runner.to_dict(),
            result.candidate.to_dict(),
        )
    candidates = [c.to_dict() for c in result.candidates]
    return candidates[1:], candidates[1] if len(candidates) > 1 else None, None


def _draw(
    pixels: Pixels, scale: tuple[float, float], tables: Iterable[CandidateTable], ranked: Any
) -> None:
    for table in tables:
        for i in range(min(len(table), MAX_DRAWN)):
            box = table.box(i)
            if box is not None:
                _rect(pixels, box, scale, GREY, 1)
    alternatives, runner, winner = ranked
    styled: Sequence[tuple[Any, Any, int]] = [
        *((c, BLUE, 1) for c in alternatives),
        (runner, ORANGE, 2),
        (winner, GREEN, 3),
    ]
    for candidate, color, thick in styled:
        if candidate is None or candidate.get("bbox") is None:
            continue
        box = tuple(candidate["bbox"])
        _rect(pixels, box, scale, color, thick)
        text = f"{candidate['role']} {candidate['name'][:30]!r} {candidate['score']:.2f}"
        _label(pixels, box, scale, text, color)


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
    _draw(pixels, scale, tables, _ranked(result))
    _write_png(pixels, Path(out_path))
    return result
