"""OmniParser's parsed screen elements as references.

OmniParser lists what it found on a screenshot as ``{"type": "text" | "icon", "bbox":
[x1, y1, x2, y2], "interactivity": bool, "content": str}``, the box as ratios of the image
size. A screen parser reads pixels, not the UI's own structure, so its references carry no
container path or IDs, and a ``confidence``: the parser's own score when it gives one, else
:data:`TEXT_CONFIDENCE` for OCR text and :data:`ICON_CONFIDENCE` for an icon (whose caption
is a model's guess).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ..errors import InvalidReferenceError
from ..geometry import CoordSpace
from ..models import SemanticElementRef
from ._shim import box_ltrb, flag, get, make_ref, text

__all__ = ["ICON_CONFIDENCE", "TEXT_CONFIDENCE", "from_omniparser"]

TEXT_CONFIDENCE: Final[float] = 0.8
ICON_CONFIDENCE: Final[float] = 0.6


_MAX_SIDE: Final[int] = 1_000_000
"""The largest screen side taken, in pixels (a larger one, an infinite one, or NaN is no
screen size)."""


def _screen(screen_size: Any) -> tuple[int, int]:
    if (
        not isinstance(screen_size, Sequence)
        or len(screen_size) != 2
        or any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in screen_size)
        or not all(1 <= v <= _MAX_SIDE for v in screen_size)  # (NaN compares false)
    ):
        raise InvalidReferenceError(
            f"from_omniparser: screen_size must be (width, height) in pixels, got {screen_size!r}"
        )
    return (round(screen_size[0]), round(screen_size[1]))


def _score(element: Mapping[str, Any]) -> float | None:
    value = get(element, "confidence", "score", "prob")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return min(1.0, max(0.0, float(value)))


def from_omniparser(element: Any, screen_size: tuple[int, int]) -> SemanticElementRef:
    """The reference for one OmniParser element.

    Parameters
    ----------
    element:
        ``{"type", "bbox", "interactivity", "content"}``; ``bbox`` as ratios of the image
        (``[0.1, 0.2, 0.3, 0.25]``), or in pixels when any value is above 1.
    screen_size:
        ``(width, height)`` of the parsed screenshot in pixels.

    Returns
    -------
    SemanticElementRef
        Role ``button`` for an interactive element, ``text`` for plain text, ``img`` for a
        non-interactive icon; the box in screen pixels.

    Raises
    ------
    InvalidReferenceError
        ``element`` is no mapping, ``screen_size`` is not two positive numbers, or the
        element has neither content nor a usable box.
    """
    width, height = _screen(screen_size)
    if not isinstance(element, Mapping):
        raise InvalidReferenceError(
            f"from_omniparser: an element is a mapping, got {type(element).__name__}"
        )
    kind = str(element.get("type", "")).lower()
    interactive = flag(element.get("interactivity"))
    box = box_ltrb(element.get("bbox"))
    if box is not None and max(box) <= 1.0:
        box = (box[0] * width, box[1] * height, box[2] * width, box[3] * height)
    role = "button" if interactive else ("img" if kind == "icon" else "text")
    name = text(element.get("content"), 256)
    if name is None and box is None:
        raise InvalidReferenceError("from_omniparser: the element has neither content nor a box")
    default = ICON_CONFIDENCE if kind == "icon" else TEXT_CONFIDENCE
    score = _score(element)
    return make_ref(
        "from_omniparser",
        role=role,
        name=name,
        bbox=box,
        screen_size=(width, height),
        coord_space=CoordSpace.SCREEN_PX,
        confidence=default if score is None else score,
    )
