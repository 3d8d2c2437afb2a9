"""Screenshot input: PNG/JPEG bytes, a path or an array, checked and decoded into one BGR image.

Everything a caller can pass is checked before it costs memory, against the
:class:`~resolver.limits.Limits` passed in (the observation's): a file's size is read before
it is, and no more than ``max_image_bytes`` of it ever; the pixel size of a PNG or JPEG is read
from its header and refused above ``max_image_pixels`` *before* decoding. Over a limit, the
refusal is a :class:`~resolver.errors.LimitExceededError` naming it. A file that does not end
the way its format ends (PNG ``IEND``, JPEG ``EOI``) is truncated; arrays must be ``uint8``
with 1, 3 or 4 channels; a path must name a readable file. Every other refusal is an
:class:`~resolver.errors.InvalidObservationError` that says what was wrong; no OpenCV or OS
error escapes.

Decoded screenshots are cached by content (a BLAKE2 digest), so the several tables built
from one observation (hint windows, the whole screen) decode it once.
"""

from __future__ import annotations

import hashlib
import os
import struct
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import cv2
import numpy as np
import numpy.typing as npt

from ...errors import InvalidObservationError, shorten
from ...limits import DEFAULT_LIMITS, Limits

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_PIXELS",
    "MAX_SIDE",
    "MIN_SIDE",
    "Screenshot",
    "at_screen_density",
    "image_size",
    "load_screenshot",
]

Pixels = npt.NDArray[np.uint8]

MAX_PIXELS: Final[int] = DEFAULT_LIMITS.max_image_pixels
"""The default ``Limits.max_image_pixels`` (a 8K screen is 33 megapixels)."""
MAX_SIDE: Final[int] = 16_384
"""Longest side read."""
MIN_SIDE: Final[int] = 8
"""Shortest side read: below this there is nothing to find."""
MAX_FILE_BYTES: Final[int] = DEFAULT_LIMITS.max_image_bytes
"""The default ``Limits.max_image_bytes``."""

_PNG_MAGIC: Final[bytes] = b"\x89PNG\r\n\x1a\n"
_JPEG_MAGIC: Final[bytes] = b"\xff\xd8\xff"
_SOF_MARKERS: Final[frozenset[int]] = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
_CACHE_SIZE: Final[int] = 4
DENSE: Final[float] = 1.2
"""Pixels per screen unit above which a screenshot comes from a high-density display
(device scale 1.25, 1.5, 2, 3: a 2560x1600 image of a 1280x800 screen). Its text and
widgets are drawn that many times larger than the pixel measures of the analysis expect
(control heights, stroke widths, gaps), so it is read at the screen's size
(:func:`at_screen_density`)."""
SAME_SCALE: Final[float] = 0.05
"""How far the two directions' scales may differ (relatively) for an image to be one
screen drawn at a higher density rather than a screen stretched."""


@dataclass(frozen=True, eq=False)
class Screenshot:
    """A decoded screenshot: read-only ``H x W x 3`` BGR pixels and what identifies them.

    Attributes
    ----------
    pixels:
        The image, BGR, ``uint8``, read-only.
    digest:
        Hex digest of the input's content: the cache key of everything computed from it.
    format:
        ``"png"``, ``"jpeg"`` or ``"array"``.
    """

    pixels: Pixels
    digest: str
    format: str

    @property
    def width(self) -> int:
        """Width in pixels."""
        return int(self.pixels.shape[1])

    @property
    def height(self) -> int:
        """Height in pixels."""
        return int(self.pixels.shape[0])


_cache: OrderedDict[str, Screenshot] = OrderedDict()
_cache_lock = threading.Lock()


def _bad(message: str, **details: Any) -> InvalidObservationError:
    return InvalidObservationError(f"screenshot: {message}", details=details)


def _check_size(width: int, height: int, limits: Limits) -> None:
    if width < MIN_SIDE or height < MIN_SIDE:
        raise _bad(
            f"{width}x{height} pixels is too small (at least {MIN_SIDE}x{MIN_SIDE})",
            width=width,
            height=height,
        )
    if width * height > limits.max_image_pixels:
        raise limits.refuse("max_image_pixels", width * height, f"the {width}x{height} screenshot")
    if width > MAX_SIDE or height > MAX_SIDE:
        raise _bad(
            f"{width}x{height} pixels is too large (at most {MAX_SIDE} per side)",
            width=width,
            height=height,
        )


def _png_size(data: bytes) -> tuple[int, int]:
    if len(data) < 33 or data[12:16] != b"IHDR":
        raise _bad("the PNG header is incomplete or corrupt")
    width, height = struct.unpack(">II", data[16:24])
    if b"IEND" not in data[-64:]:
        raise _bad("the PNG is truncated (no IEND chunk at its end)")
    return int(width), int(height)


def _jpeg_size(data: bytes) -> tuple[int, int]:
    """Width and height from the first start-of-frame segment."""
    pos, n = 2, len(data)
    while pos + 4 <= n:
        if data[pos] != 0xFF:
            raise _bad("the JPEG is corrupt (a segment does not start with a marker)")
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # markers without a length
            pos += 2
            continue
        (length,) = struct.unpack(">H", data[pos + 2 : pos + 4])
        if marker in _SOF_MARKERS:
            if pos + 9 > n:
                break
            height, width = struct.unpack(">HH", data[pos + 5 : pos + 9])
            if b"\xff\xd9" not in data[-64:]:
                raise _bad("the JPEG is truncated (no end-of-image marker)")
            return int(width), int(height)
        pos += 2 + length
    raise _bad("the JPEG header is incomplete or corrupt (no frame size found)")


def image_size(data: bytes) -> tuple[int, int, str]:
    """``(width, height, format)`` of PNG or JPEG bytes, from the header alone.

    Raises
    ------
    InvalidObservationError
        Empty, not PNG/JPEG, a corrupt header, or truncated.
    """
    if not data:
        raise _bad("the image is empty (zero bytes)")
    if data.startswith(_PNG_MAGIC):
        return (*_png_size(data), "png")
    if data.startswith(_JPEG_MAGIC):
        return (*_jpeg_size(data), "jpeg")
    raise _bad("not a PNG or JPEG image (unknown signature)", head=data[:8].hex())


def _decode(data: bytes, digest: str, limits: Limits) -> Screenshot:
    width, height, kind = image_size(data)
    _check_size(width, height, limits)
    buffer = np.frombuffer(data, dtype=np.uint8)
    try:
        decoded = cv2.imdecode(buffer, cv2.IMREAD_COLOR)
    except cv2.error as exc:
        raise _bad(f"the {kind.upper()} cannot be decoded: {exc}") from exc
    if decoded is None or decoded.shape[:2] != (height, width):
        raise _bad(f"the {kind.upper()} is corrupt and cannot be decoded")
    pixels = np.asarray(decoded, dtype=np.uint8)
    pixels.setflags(write=False)
    return Screenshot(pixels, digest, kind)


def _check_array(array: npt.NDArray[Any], limits: Limits) -> npt.NDArray[Any]:
    if array.dtype != np.uint8:
        raise _bad(f"an array screenshot must be uint8, got {array.dtype}", dtype=str(array.dtype))
    if array.ndim == 3 and array.shape[2] == 1:
        array = array[:, :, 0]
    if array.ndim not in (2, 3) or (array.ndim == 3 and array.shape[2] not in (3, 4)):
        raise _bad(
            f"an array screenshot must be H x W, H x W x 3 or H x W x 4; got {array.shape}",
            shape=list(array.shape),
        )
    _check_size(int(array.shape[1]), int(array.shape[0]), limits)
    return np.ascontiguousarray(array)


def _from_array(array: npt.NDArray[Any], channel_order: str, digest: str) -> Screenshot:
    pixels: Pixels
    if array.ndim == 2:
        pixels = np.asarray(cv2.cvtColor(array, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    elif channel_order == "rgb":
        code = cv2.COLOR_RGB2BGR if array.shape[2] == 3 else cv2.COLOR_RGBA2BGR
        pixels = np.asarray(cv2.cvtColor(array, code), dtype=np.uint8)
    else:
        pixels = np.array(array[:, :, :3], dtype=np.uint8, order="C")  # a copy, never a view
    pixels.setflags(write=False)
    return Screenshot(pixels, digest, "array")


def _path_of(raw: str | os.PathLike[Any]) -> Path:
    """``raw`` as a path the OS can be asked about: a NUL character (which no OS path holds)
    is refused here, not left to ``open`` to raise ``ValueError``."""
    try:
        name = os.fsdecode(raw)
    except (TypeError, ValueError) as exc:  # __fspath__ returned junk, undecodable bytes
        raise _bad(f"the screenshot path cannot be read as a path: {exc}") from exc
    if "\0" in name:
        raise _bad(
            f"the screenshot path {shorten(repr(name))} contains a NUL character, which no "
            "file path can hold",
            path=shorten(name),
        )
    return Path(name)


def _read_path(path: Path, limits: Limits) -> bytes:
    """The file's bytes; over ``limits.max_image_bytes`` is refused by its size before it is
    read, and a file that grows (or has no size: a device) is read no further than the limit."""
    allowed, name = limits.max_image_bytes, shorten(str(path))
    try:
        size = path.stat().st_size
        data = b"" if size > allowed else _read_at_most(path, allowed + 1)
    except (OSError, ValueError) as exc:  # ValueError: a path the OS cannot encode
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise _bad(f"cannot read {name}: {reason}", path=name) from exc
    if size > allowed or len(data) > allowed:
        found = size if size > allowed else None
        raise limits.refuse("max_image_bytes", found, f"the screenshot file {name}")
    return data


def _read_at_most(path: Path, size: int) -> bytes:
    with path.open("rb") as file:
        return file.read(size)


def _as_bytes(raw: Any, limits: Limits) -> bytes | None:
    if isinstance(raw, bytes):
        return raw
    if isinstance(raw, (bytearray, memoryview)):
        return bytes(raw)
    if isinstance(raw, (str, os.PathLike)):
        return _read_path(_path_of(raw), limits)
    return None


def load_screenshot(
    raw: Any, channel_order: str = "rgb", limits: Limits = DEFAULT_LIMITS
) -> Screenshot:
    """The screenshot in ``raw`` (PNG/JPEG bytes, a path, or a ``uint8`` array whose colour
    channels are in ``channel_order``), decoded once per content and cached.

    Raises
    ------
    LimitExceededError
        Over ``limits.max_image_bytes`` (a file or bytes) or ``limits.max_image_pixels``.
    InvalidObservationError
        Anything that is not a readable PNG/JPEG or ``uint8`` image within the size limits.
    """
    if channel_order not in ("rgb", "bgr"):
        raise _bad("channel_order must be 'rgb' or 'bgr'")
    if isinstance(raw, np.ndarray):
        array = _check_array(raw, limits)
        hasher = hashlib.blake2b(f"{array.shape}{channel_order}".encode(), digest_size=16)
        hasher.update(array.data)
        key = hasher.hexdigest()
        return _cached(key) or _remember(_from_array(array, channel_order, key))
    if isinstance(raw, (bytes, bytearray, memoryview)):
        size = raw.nbytes if isinstance(raw, memoryview) else len(raw)
        if size > limits.max_image_bytes:  # (before a copy of it is made)
            raise limits.refuse("max_image_bytes", size, "the screenshot")
    data = _as_bytes(raw, limits)
    if data is None:
        raise _bad(
            f"expected PNG/JPEG bytes, a path or a uint8 numpy array; got {type(raw).__name__}"
        )
    key = hashlib.blake2b(data, digest_size=16).hexdigest()
    shot = _cached(key)
    if shot is not None:  # decoded under other limits: these must allow it too
        _check_size(shot.width, shot.height, limits)
        return shot
    return _remember(_decode(data, key, limits))


def _cached(key: str) -> Screenshot | None:
    with _cache_lock:
        cached = _cache.get(key)
        if cached is not None:
            _cache.move_to_end(key)
        return cached


def _remember(shot: Screenshot) -> Screenshot:
    with _cache_lock:
        _cache[shot.digest] = shot
        _cache.move_to_end(shot.digest)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return shot


def at_screen_density(shot: Screenshot, screen_size: tuple[float, float] | None) -> Screenshot:
    """``shot`` scaled down to ``screen_size`` (area averaging) when it comes from a
    high-density display (more than :data:`DENSE` pixels per screen unit in both directions,
    alike within :data:`SAME_SCALE`), else ``shot`` itself; cached as decoded screenshots
    are, under a key of its own.

    >>> dense = Screenshot(np.zeros((1600, 2560, 3), dtype=np.uint8), "d", "array")
    >>> at_screen_density(dense, (1280.0, 800.0)).pixels.shape
    (800, 1280, 3)
    >>> at_screen_density(dense, (2560.0, 1600.0)) is dense, at_screen_density(dense, None) is dense
    (True, True)
    """
    if screen_size is None or screen_size[0] <= 0 or screen_size[1] <= 0:
        return shot
    sx, sy = shot.width / screen_size[0], shot.height / screen_size[1]
    if min(sx, sy) <= DENSE or abs(sx / sy - 1.0) > SAME_SCALE:
        return shot
    width, height = round(screen_size[0]), round(screen_size[1])
    key = f"{shot.digest}@{width}x{height}"
    cached = _cached(key)
    if cached is not None:
        return cached
    pixels = np.asarray(
        cv2.resize(shot.pixels, (width, height), interpolation=cv2.INTER_AREA), dtype=np.uint8
    )
    pixels.setflags(write=False)
    return _remember(Screenshot(pixels, key, shot.format))
