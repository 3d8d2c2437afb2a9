"""Small, defensive readers shared by adapters (raw input is never trusted)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

__all__ = [
    "XPATH_KEYS",
    "as_bool",
    "as_str",
    "box_from_ltrb",
    "box_from_xywh",
    "normalize_xpath",
    "tri",
]


def as_str(value: Any) -> str:
    """A string for a name-like field: str as is, numbers formatted, anything else empty."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None:
        return ""
    if isinstance(value, (int, float)):
        return str(value) if math.isfinite(value) else ""
    return ""


def as_bool(value: Any) -> bool | None:
    """``True``/``False`` from booleans and their common string spellings, else ``None``."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        lowered = value.strip().lower()
        if lowered in ("true", "1", "yes"):
            return True
        if lowered in ("false", "0", "no"):
            return False
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    return None


def tri(value: Any) -> int:
    """1 / 0 / -1 (unknown) from a boolean or its string spellings (a row's state field)."""
    if value is True or value is False:
        return int(value)
    flag = as_bool(value)
    return -1 if flag is None else int(flag)


def _num(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def box_from_ltrb(value: Any) -> tuple[float, float, float, float] | None:
    """Read ``[l, t, r, b]`` or ``{left, top, right, bottom}``; ``None`` when malformed."""
    if isinstance(value, Mapping):
        value = [value.get(k) for k in ("left", "top", "right", "bottom")]
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 4:
        return None
    nums = [_num(v) for v in value]
    if any(v is None or not math.isfinite(v) for v in nums):
        return None
    left, top, right, bottom = (float(v) for v in nums if v is not None)
    return (left, top, right, bottom)


def box_from_xywh(value: Any) -> tuple[float, float, float, float] | None:
    """Read ``[x, y, w, h]`` or ``{x, y, width|w, height|h}`` into ``(l, t, r, b)``."""
    if isinstance(value, Mapping):
        value = [
            value.get("x"),
            value.get("y"),
            value.get("width", value.get("w")),
            value.get("height", value.get("h")),
        ]
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 4:
        return None
    nums = [_num(v) for v in value]
    if any(v is None or not math.isfinite(v) for v in nums):
        return None
    x, y, w, h = (float(v) for v in nums if v is not None)
    return (x, y, x + w, y + h)


def normalize_xpath(xpath: str) -> str:
    """Drop ``[1]`` predicates and a trailing slash so equivalent absolute paths compare equal."""
    return xpath.replace("[1]", "").rstrip("/") or "/"


XPATH_KEYS: Final[dict[str, Callable[[str], str]]] = {"xpath": normalize_xpath}
"""``CandidateTable.id_keys`` for a table with an ``xpath`` column."""
