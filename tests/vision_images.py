"""Images for the vision tests: the captured fixture screenshots and small drawn screens."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parents[1]
VISION_FIXTURES = ROOT / "fixtures" / "vision"

Pixels = npt.NDArray[np.uint8]


def fixture_png(page: str, variant: str = "screenshot.png") -> bytes:
    """A captured screenshot of ``fixtures/vision/<page>/``."""
    return (VISION_FIXTURES / page / variant).read_bytes()


def truth(page: str) -> dict[str, Any]:
    """``truth.json`` of a captured page."""
    data: dict[str, Any] = json.loads((VISION_FIXTURES / page / "truth.json").read_text())
    return data


def png(pixels: Pixels) -> bytes:
    """PNG bytes of a BGR image."""
    ok, encoded = cv2.imencode(".png", pixels)
    assert ok
    return bytes(encoded.tobytes())


def jpeg(pixels: Pixels, quality: int = 40) -> bytes:
    """JPEG bytes of a BGR image."""
    ok, encoded = cv2.imencode(".jpg", pixels, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return bytes(encoded.tobytes())


def form() -> tuple[Pixels, dict[str, tuple[int, int, int, int]]]:
    """A small drawn form: a bordered field with a label above it, a checkbox with a label,
    a round radio, an icon-like blob and two bordered buttons (no text: widget tests).
    Returns the BGR image and the true boxes by name."""
    image = np.full((240, 420, 3), 255, dtype=np.uint8)
    boxes = {
        "field": (20, 40, 300, 72),
        "checkbox": (20, 100, 36, 116),
        "radio": (19, 139, 38, 158),
        "button_a": (200, 180, 290, 212),
        "button_b": (310, 180, 400, 212),
    }
    left, top, right, bottom = boxes["field"]
    cv2.rectangle(image, (left, top), (right - 1, bottom - 1), (180, 180, 180), 1)
    left, top, right, bottom = boxes["checkbox"]
    cv2.rectangle(image, (left, top), (right - 1, bottom - 1), (90, 90, 90), 1)
    cv2.circle(image, (28, 148), 8, (90, 90, 90), 1, cv2.LINE_AA)
    for name in ("button_a", "button_b"):
        left, top, right, bottom = boxes[name]
        cv2.rectangle(image, (left, top), (right - 1, bottom - 1), (230, 120, 20), -1)
    cv2.line(image, (350, 30), (380, 60), (40, 40, 40), 2)  # a cross: an icon blob
    cv2.line(image, (380, 30), (350, 60), (40, 40, 40), 2)
    boxes["icon"] = (348, 28, 383, 63)
    return image, boxes
