"""An optional, user-supplied ONNX widget detector (OmniParser-style YOLO output).

OpenCV finds bordered shapes; a trained detector also finds borderless icons and buttons.
None ships with resolver: a user who has one (OmniParser's ``icon_detect``, any YOLOv5/v8
export) registers it with :func:`set_detector` or the ``RESOLVER_VISION_DETECTOR``
environment variable, and its boxes join the OpenCV shapes as widgets of kind
``"detected"`` (same layout, roles and table).

Accepted outputs, batch of one: ``(1, 4 + C, N)`` (YOLOv8: ``cx, cy, w, h`` then ``C`` class
scores per box), its transpose ``(1, N, 4 + C)``, or ``(1, N, 5 + C)`` (YOLOv5: an objectness
score before the class scores). Coordinates are in the model's input pixels; the image is
letterboxed into the input size (from the model, or 640 when it is dynamic), RGB, scaled to
``[0, 1]``, NCHW. Boxes above ``min_score`` are kept after non-maximum suppression at
``iou``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import cv2
import numpy as np
import numpy.typing as npt

from ...errors import InvalidObservationError, SourceUnavailableError
from .widgets import Widget

__all__ = ["ENV_VAR", "Detector", "current_detector", "set_detector"]

Pixels = npt.NDArray[np.uint8]

ENV_VAR: Final[str] = "RESOLVER_VISION_DETECTOR"
DEFAULT_INPUT: Final[int] = 640
MAX_BOXES: Final[int] = 2000


@dataclass(frozen=True)
class _Letterbox:
    scale: float
    pad_x: float
    pad_y: float


class Detector:
    """A YOLO-style ONNX detector run with onnxruntime on the CPU.

    Parameters
    ----------
    model:
        Path to the ``.onnx`` file, or its bytes.
    classes:
        Class names by index (OmniParser's icon detector has one: ``"icon"``).
    min_score, iou:
        Score threshold and non-maximum-suppression overlap.
    """

    def __init__(
        self,
        model: str | os.PathLike[str] | bytes,
        *,
        classes: Sequence[str] = ("icon",),
        min_score: float = 0.3,
        iou: float = 0.5,
    ) -> None:
        import onnxruntime as ort

        source: str | bytes = model if isinstance(model, bytes) else str(Path(model))
        if isinstance(source, str) and not Path(source).is_file():
            raise SourceUnavailableError(
                f"the vision detector model {source} does not exist",
                details={"source": "vision", "detector": source},
            )
        try:
            self.session = ort.InferenceSession(source, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own types: never let them out
            raise SourceUnavailableError(
                f"the vision detector model cannot be loaded: {exc}",
                details={"source": "vision"},
            ) from exc
        self.classes = tuple(classes)
        self.min_score = float(min_score)
        self.iou = float(iou)
        self.input_name = self.session.get_inputs()[0].name
        shape = self.session.get_inputs()[0].shape
        self.size = (
            (int(shape[3]), int(shape[2]))
            if len(shape) == 4 and all(isinstance(v, int) for v in shape[2:])
            else (DEFAULT_INPUT, DEFAULT_INPUT)
        )
        self.key = f"{id(self)}:{self.size}:{self.min_score}:{self.iou}"

    def _prepare(self, pixels: Pixels) -> tuple[npt.NDArray[np.float32], _Letterbox]:
        height, width = pixels.shape[:2]
        target_w, target_h = self.size
        scale = min(target_w / width, target_h / height)
        new_w, new_h = max(1, round(width * scale)), max(1, round(height * scale))
        resized = cv2.resize(pixels, (new_w, new_h), interpolation=cv2.INTER_AREA)
        canvas = np.full((target_h, target_w, 3), 114, dtype=np.uint8)
        pad_x, pad_y = (target_w - new_w) // 2, (target_h - new_h) // 2
        canvas[pad_y : pad_y + new_h, pad_x : pad_x + new_w] = resized
        tensor = cv2.cvtColor(canvas, cv2.COLOR_BGR2RGB).astype(np.float32) / 255.0
        return tensor.transpose(2, 0, 1)[None], _Letterbox(scale, pad_x, pad_y)

    def _rows(self, output: npt.NDArray[Any]) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
        """``(N, 4)`` centre boxes and ``(N, C)`` class scores from the raw output."""
        array = np.asarray(output, dtype=np.float32)
        if array.ndim == 3:
            array = array[0]
        if array.ndim != 2:
            raise InvalidObservationError(f"detector output has shape {array.shape}")
        n_classes = max(1, len(self.classes))
        channels = (4 + n_classes, 5 + n_classes)
        if array.shape[0] in channels and (
            array.shape[1] not in channels or array.shape[0] == 4 + n_classes
        ):
            array = array.T  # (channels, boxes): the YOLOv8 export layout
        if array.shape[1] == 5 + n_classes:
            return array[:, :4], array[:, 5:] * array[:, 4:5]
        if array.shape[1] < 5:
            raise InvalidObservationError(f"detector output has shape {array.shape}")
        return array[:, :4], array[:, 4:]

    def __call__(self, pixels: Pixels) -> list[Widget]:
        """Detected boxes of a BGR image, as ``"detected"`` widgets in its pixels."""
        tensor, box = self._prepare(pixels)
        try:
            output = self.session.run(None, {self.input_name: tensor})[0]
        except Exception as exc:
            raise InvalidObservationError(f"the vision detector failed: {exc}") from exc
        centres, scores = self._rows(output)
        best = scores.argmax(axis=1)
        confidence = scores[np.arange(len(best)), best]
        keep = np.flatnonzero(confidence >= self.min_score)[: MAX_BOXES * 4]
        height, width = pixels.shape[:2]
        boxes = []
        for i in keep:
            cx, cy, w, h = (float(v) for v in centres[i])
            left = (cx - w / 2.0 - box.pad_x) / box.scale
            top = (cy - h / 2.0 - box.pad_y) / box.scale
            boxes.append([left, top, w / box.scale, h / box.scale])
        chosen = cv2.dnn.NMSBoxes(boxes, confidence[keep].tolist(), self.min_score, self.iou)
        widgets = []
        for j in np.asarray(chosen, dtype=np.int64).reshape(-1)[:MAX_BOXES]:
            left, top, w, h = boxes[j]
            right, bottom = min(float(width), left + w), min(float(height), top + h)
            left, top = max(0.0, left), max(0.0, top)
            if right - left >= 4 and bottom - top >= 4:
                label_index = int(best[keep[j]])
                label = self.classes[label_index] if label_index < len(self.classes) else ""
                score = round(float(confidence[keep[j]]), 3)
                widgets.append(Widget("detected", (left, top, right, bottom), score, label=label))
        return widgets


_lock = threading.Lock()
_state: dict[str, Detector | None] = {}


def set_detector(
    model: str | os.PathLike[str] | bytes | Detector | None, **options: Any
) -> Detector | None:
    """Use ``model`` (a path, ONNX bytes or a :class:`Detector`) for every later vision
    table, or no detector with ``None``. ``options`` go to :class:`Detector`."""
    detector = model if isinstance(model, Detector) or model is None else Detector(model, **options)
    with _lock:
        _state["current"] = detector
    return detector


def current_detector() -> Detector | None:
    """The registered detector; on first use, the one ``$RESOLVER_VISION_DETECTOR`` names."""
    with _lock:
        if "current" not in _state:
            path = os.environ.get(ENV_VAR)
            _state["current"] = Detector(path) if path else None
        return _state["current"]
