"""OCR: text lines and their words from an image, with RapidOCR on onnxruntime, offline.

The engine runs the PP-OCRv6 detection and recognition models that ship inside the
``rapidocr`` wheel, passed to it by path (:func:`model_paths`): nothing is downloaded, and a
missing model file is a :class:`~resolver.errors.SourceUnavailableError` that names it. The
angle classifier is off (screen text is upright) and the image is read at its native
resolution: it is padded, never scaled, to the multiple of 32 the detector needs. One engine
per process (:func:`engine`), built on first use; calls are serialised by a lock (RapidOCR
keeps per-call state on the engine).
"""

from __future__ import annotations

import importlib.util
import os
import threading
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

import cv2
import numpy as np
import numpy.typing as npt

from ...errors import SourceUnavailableError
from ...geometry import Box

__all__ = [
    "MODEL_FILES",
    "THREADS_ENV",
    "OcrEngine",
    "TextLine",
    "Word",
    "engine",
    "model_paths",
    "regrouped",
    "threads",
]

Pixels = npt.NDArray[np.uint8]

MODEL_FILES: Final[dict[str, str]] = {
    "det": "PP-OCRv6_det_small.onnx",
    "rec": "PP-OCRv6_rec_small.onnx",
}
"""The bundled models used, by task (in ``rapidocr/models/``)."""

THREADS_ENV: Final[str] = "RESOLVER_VISION_THREADS"
"""Environment variable: onnxruntime threads per OCR model (default 1)."""
_PAD: Final[int] = 32  # the detector's stride: inputs are padded to a multiple of it
_MIN_TEXT_SCORE: Final[float] = 0.5


@dataclass(frozen=True)
class Word:
    """One recognised word: its text, box (pixels of the image read) and confidence."""

    text: str
    box: Box
    score: float


@dataclass(frozen=True)
class TextLine:
    """One detected text line, its recognised text, confidence and words."""

    text: str
    box: Box
    score: float
    words: tuple[Word, ...]


def model_paths() -> dict[str, Path]:
    """The bundled model files, by task.

    Raises
    ------
    SourceUnavailableError
        ``rapidocr`` is not installed, or a model file is not in its package.
    """
    spec = importlib.util.find_spec("rapidocr")
    if spec is None or spec.origin is None:
        raise SourceUnavailableError(
            "the vision source needs rapidocr (pip install 'resolver[vision]')",
            details={"source": "vision", "extra": "vision"},
        )
    folder = Path(spec.origin).parent / "models"
    paths = {task: folder / name for task, name in MODEL_FILES.items()}
    missing = [str(path) for path in paths.values() if not path.is_file()]
    if missing:
        raise SourceUnavailableError(
            f"the OCR model {', '.join(missing)} is missing from the rapidocr package "
            "(reinstall rapidocr==3.10.0; models are never downloaded)",
            details={"source": "vision", "missing": missing},
        )
    return paths


def threads() -> int:
    """Threads each OCR model runs on: ``RESOLVER_VISION_THREADS``, else 1.

    One thread by default: a hint window's models run for tens of milliseconds, too short for
    a second thread to pay for its start, and on a machine whose cores other work shares, a
    second spinning thread measured twice as slow as one (RESULTS.md, speed). Set it to the
    core count on an idle machine that reads whole screens.
    """
    value = os.environ.get(THREADS_ENV, "").strip()
    return int(value) if value.isdigit() and int(value) > 0 else 1


def _params(paths: dict[str, Path]) -> dict[str, Any]:
    return {
        "EngineConfig.onnxruntime.intra_op_num_threads": threads(),
        "EngineConfig.onnxruntime.inter_op_num_threads": 1,
        "Global.use_cls": False,
        "Global.log_level": "error",
        "Global.text_score": _MIN_TEXT_SCORE,
        "Global.max_side_len": 1_000_000,  # no downscaling: native resolution
        "Global.min_side_len": 0,
        "Global.model_root_dir": str(paths["det"].parent),
        "Det.model_path": str(paths["det"]),
        "Det.limit_type": "max",
        "Det.limit_side_len": 1_000_000,
        "Rec.model_path": str(paths["rec"]),
        # Pad a line only to its own width, not to 320 px: short words cost less. One line
        # per batch: a batch is padded to its widest line, and on CPU a batch of four lines
        # costs what four single lines do, so a short caption beside a long sentence paid
        # for the sentence's width (a hint window's recognition took 1.6 times as long).
        "Rec.rec_img_shape": [3, 48, 48],
        "Rec.rec_batch_num": 1,
    }


def _box(points: Any) -> Box:
    array = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return (
        float(array[:, 0].min()),
        float(array[:, 1].min()),
        float(array[:, 0].max()),
        float(array[:, 1].max()),
    )


def _clip(box: Box, width: int, height: int) -> Box:
    left, top, right, bottom = box
    return (max(0.0, left), max(0.0, top), min(float(width), right), min(float(height), bottom))


class OcrEngine:
    """RapidOCR with the bundled models, no angle classifier, native resolution."""

    def __init__(self) -> None:
        from rapidocr import RapidOCR

        self.paths = model_paths()
        try:
            self._engine = RapidOCR(params=_params(self.paths))
        except Exception as exc:  # a broken install: say so, never a foreign error
            raise SourceUnavailableError(
                f"the OCR engine cannot start: {type(exc).__name__}: {exc}",
                details={"source": "vision"},
            ) from exc
        self._lock = threading.Lock()

    def read(self, pixels: Pixels) -> list[TextLine]:
        """Text lines of a BGR image (boxes in its pixels), top to bottom."""
        height, width = pixels.shape[:2]
        padded = cv2.copyMakeBorder(
            pixels,
            0,
            -height % _PAD,
            0,
            -width % _PAD,
            cv2.BORDER_REPLICATE,
        )
        with self._lock:
            result: Any = self._engine(padded, return_word_box=True)
        txts = getattr(result, "txts", None)
        if not txts:
            return []
        words = getattr(result, "word_results", None) or ()
        if len(words) != len(txts):  # RapidOCR drops empty word lists: words cannot be paired
            words = ((),) * len(txts)
        lines = []
        for points, text, score, line_words in zip(
            result.boxes, txts, result.scores, words, strict=False
        ):
            parsed = regrouped(
                str(text),
                tuple(
                    Word(str(w[0]), _clip(_box(w[2]), width, height), float(w[1]))
                    for w in line_words or ()
                    if len(w) == 3 and w[2] is not None and str(w[0]).strip()
                ),
            )
            box = _clip(_box(points), width, height)
            if box[2] > box[0] and box[3] > box[1]:
                lines.append(TextLine(str(text).strip(), box, float(score), parsed))
        return lines


def _wide(char: str) -> bool:
    """A character of an East Asian script or its punctuation (``。``, ``、``, ideographs,
    kana, full-width forms): one word of its own when a line is read a character at a time."""
    return unicodedata.east_asian_width(char) in ("W", "F")


def regrouped(text: str, words: tuple[Word, ...]) -> tuple[Word, ...]:
    """``words`` read one character at a time joined back into the words of the line's
    ``text``. RapidOCR gives a line it takes for Chinese (any with a ``。`` in it, as the
    ``◦`` bullet of a nested list is read) one word per character, and "Cloud Help Desk" read
    so would be "C l o u d H e l p D e s k"; characters go together while ``text`` has no
    space between them and neither is East Asian (:func:`_wide`), whose characters stay
    words of their own as before. Other word lists are returned as they are.

    >>> box = (0.0, 0.0, 1.0, 1.0)
    >>> [w.text for w in regrouped("。Cloud Desk", tuple(Word(c, box, 0.9) for c in "。CloudDesk"))]
    ['。', 'Cloud', 'Desk']
    """
    chars = [c for c in text if not c.isspace()]
    if len(words) < 2 or [w.text for w in words] != chars:
        return words
    starts = set()  # positions (among the characters) that a space precedes
    position, spaced = 0, False
    for char in text:
        if char.isspace():
            spaced = True
            continue
        if spaced:
            starts.add(position)
        position, spaced = position + 1, False
    groups: list[list[Word]] = [[words[0]]]
    for i in range(1, len(words)):
        if i in starts or _wide(chars[i - 1]) or _wide(chars[i]):
            groups.append([words[i]])
        else:
            groups[-1].append(words[i])
    if len(groups) == len(words):
        return words
    return tuple(_joined(group) for group in groups)


def _joined(group: list[Word]) -> Word:
    if len(group) == 1:
        return group[0]
    boxes = [w.box for w in group]
    box = (
        min(b[0] for b in boxes), min(b[1] for b in boxes),
        max(b[2] for b in boxes), max(b[3] for b in boxes),
    )  # fmt: skip
    return Word("".join(w.text for w in group), box, min(w.score for w in group))


@lru_cache(maxsize=1)
def engine() -> OcrEngine:
    """The process's OCR engine (built on first use: about a second to load the models)."""
    return OcrEngine()
