"""Screenshot input: PNG/JPEG bytes, paths and arrays in; typed errors for everything else."""

from __future__ import annotations

import struct
import tracemalloc
import zlib
from pathlib import Path

import numpy as np
import pytest
from vision_images import jpeg, png

from resolver import LimitExceededError, Limits, Observation
from resolver.adapters import Region
from resolver.adapters.vision import image
from resolver.adapters.vision.image import (
    MAX_PIXELS,
    MAX_SIDE,
    at_screen_density,
    image_size,
    load_screenshot,
)
from resolver.errors import InvalidObservationError


def _red(height: int = 20, width: int = 30) -> np.ndarray:
    rgb = np.zeros((height, width, 3), dtype=np.uint8)
    rgb[:, :, 0] = 255  # red in RGB order
    return rgb


def _png_header(width: int, height: int) -> bytes:
    """A PNG that claims a size in its header (and ends properly), with no real pixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", b"") + chunk(b"IEND", b"")


def test_png_bytes_decode_to_bgr() -> None:
    bgr = _red()[:, :, ::-1].copy()
    shot = load_screenshot(png(bgr))
    assert (shot.width, shot.height, shot.format) == (30, 20, "png")
    assert shot.pixels[0, 0].tolist() == [0, 0, 255]
    assert not shot.pixels.flags.writeable


def test_jpeg_bytes_and_paths(tmp_path: Path) -> None:
    bgr = np.full((40, 50, 3), 200, dtype=np.uint8)
    path = tmp_path / "shot.jpg"
    path.write_bytes(jpeg(bgr))
    for raw in (jpeg(bgr), path, str(path)):
        shot = load_screenshot(raw)
        assert (shot.width, shot.height, shot.format) == (50, 40, "jpeg")
    assert image_size(jpeg(bgr)) == (50, 40, "jpeg")


def test_array_channel_order_is_stated() -> None:
    assert load_screenshot(_red(), "rgb").pixels[0, 0].tolist() == [0, 0, 255]
    assert load_screenshot(_red(), "bgr").pixels[0, 0].tolist() == [255, 0, 0]
    rgba = np.dstack([_red(), np.full((20, 30), 255, np.uint8)])
    assert load_screenshot(rgba).pixels[0, 0].tolist() == [0, 0, 255]
    gray = np.full((20, 30), 77, dtype=np.uint8)
    assert load_screenshot(gray).pixels[0, 0].tolist() == [77, 77, 77]


def test_array_is_copied_so_later_changes_do_not_leak() -> None:
    array = _red()
    shot = load_screenshot(array, "bgr")
    array[:] = 0
    assert shot.pixels[0, 0].tolist() == [255, 0, 0]


def test_same_content_is_decoded_once() -> None:
    data = png(np.full((16, 16, 3), 9, dtype=np.uint8))
    assert load_screenshot(data) is load_screenshot(bytes(data))


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"", "empty"),
        (b"GIF89a" + b"\x00" * 40, "not a PNG or JPEG"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "header"),
        (_png_header(1, 1), "too small"),
        (_png_header(20000, 20000), "max_image_pixels"),
        (_png_header(MAX_SIDE + 1, 100), "too large"),
        (np.zeros((20, 20, 3), dtype=np.float32), "uint8"),
        (np.zeros((20, 20, 2), dtype=np.uint8), "H x W"),
        (np.zeros((0, 20, 3), dtype=np.uint8), "too small"),
        (12345, "expected PNG/JPEG bytes"),
    ],
)
def test_bad_input_is_a_typed_error(raw: object, message: str) -> None:
    with pytest.raises(InvalidObservationError, match=message):
        load_screenshot(raw)


def test_huge_image_is_refused_before_decoding() -> None:
    # 20000 x 20000 would need 1.2 GB decoded; the header alone refuses it.
    with pytest.raises(LimitExceededError, match="20000x20000") as info:
        load_screenshot(_png_header(20000, 20000))
    assert info.value.evidence.details["found"] == 20000 * 20000
    assert MAX_PIXELS < 20000 * 20000


def _refusal(screenshot: object, limits: Limits) -> LimitExceededError:
    """The error the vision source raises for ``screenshot`` under ``limits``."""
    with pytest.raises(LimitExceededError) as info:
        Observation(screenshot=screenshot, limits=limits).candidates("vision")
    return info.value


def test_max_image_pixels_is_checked_from_the_header(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_decoding(*args: object) -> None:
        raise AssertionError("decoded")

    monkeypatch.setattr(image.cv2, "imdecode", no_decoding)
    for header in (_png_header(100_000, 100_000), _jpeg_header(60_000, 60_000)):
        error = _refusal(header, Limits())
        assert "max_image_pixels=40000000" in error.message
        assert "--limit max_image_pixels=N" in error.message
        assert "Limits(max_image_pixels=...)" in error.message
    assert _refusal(_png_header(100_000, 100_000), Limits()).evidence.details == {
        "limit": "max_image_pixels",
        "allowed": 40_000_000,
        "found": 10_000_000_000,
    }


def test_max_image_pixels_comes_from_the_observation_limits() -> None:
    data = png(np.full((20, 30, 3), 80, dtype=np.uint8))  # 600 pixels
    small = Limits(max_image_pixels=599)
    assert load_screenshot(data).width == 30  # decoded and cached under the default ...
    error = _refusal(data, small)  # ... and refused under a smaller limit all the same
    assert "600 pixels" in error.message and "max_image_pixels=599" in error.message
    with pytest.raises(LimitExceededError, match="max_image_pixels=599"):
        Observation(screenshot=data, limits=small).region_candidates(
            "vision", Region((0, 0, 10, 10), None, (400, 300))
        )
    _refusal(np.zeros((20, 30, 3), np.uint8), small)  # an array, from its shape
    assert load_screenshot(data, limits=Limits(max_image_pixels=600)).height == 20


def test_max_image_bytes_for_bytes_and_files(tmp_path: Path) -> None:
    data = png(np.full((20, 30, 3), 90, dtype=np.uint8))
    path = tmp_path / "shot.png"
    path.write_bytes(data)
    small = Limits(max_image_bytes=len(data) - 1)
    for raw in (data, bytearray(data), memoryview(data), path, str(path)):
        error = _refusal(raw, small)
        assert f"max_image_bytes={len(data) - 1}" in error.message
        assert "--limit max_image_bytes=N" in error.message
        assert error.evidence.details["found"] == len(data)
        enough = Limits(max_image_bytes=len(data))
        assert load_screenshot(raw, limits=enough).width == 30
        assert load_screenshot(raw).width == 30  # the default


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_file_without_a_size_is_read_no_further_than_max_image_bytes() -> None:
    error = _refusal("/dev/zero", Limits(max_image_bytes=1000))
    assert "more than 1,000 bytes" in error.message and error.evidence.details["found"] is None


@pytest.mark.parametrize("path", ["\0", "shot\0.png", Path("dir\0/shot.png")])
def test_a_path_with_a_nul_character_is_a_typed_error(path: object) -> None:
    with pytest.raises(InvalidObservationError, match="NUL character"):
        Observation(screenshot=path).candidates("vision")
    with pytest.raises(InvalidObservationError, match="NUL character"):
        load_screenshot(path)


@pytest.mark.parametrize("path", ["\ud800.png", b"\xff\x00.png"])
def test_paths_the_os_cannot_take_are_typed_errors(path: object) -> None:
    class Given:
        def __fspath__(self) -> object:
            return path

    with pytest.raises(InvalidObservationError, match="screenshot"):
        load_screenshot(Given())


def test_truncated_and_corrupt_images() -> None:
    image = np.random.default_rng(0).integers(0, 255, (64, 64, 3), dtype=np.uint8)
    for data in (png(image), jpeg(image)):
        with pytest.raises(InvalidObservationError, match="truncated"):
            load_screenshot(data[: len(data) // 2])
    whole = bytearray(png(image))
    whole[60:200] = b"\x00" * 140  # pixels destroyed, header and end intact
    with pytest.raises(InvalidObservationError, match="corrupt"):
        load_screenshot(bytes(whole))


def test_missing_file_is_a_typed_error(tmp_path: Path) -> None:
    with pytest.raises(InvalidObservationError, match="cannot read"):
        load_screenshot(tmp_path / "nope.png")


def _png_bomb(width: int, height: int) -> bytes:
    """A real, complete grey PNG of ``width x height`` zeros: a few hundred kilobytes that
    would decode to ``width * height`` bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    packer = zlib.compressobj(9)
    row = b"\x00" * (width + 1)  # filter byte, then the row
    idat = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def _jpeg_header(width: int, height: int) -> bytes:
    """A JPEG whose frame header claims a size, with an end-of-image marker and no scan."""
    sof = struct.pack(">HBHHB", 11, 8, height, width, 1) + b"\x01\x11\x00"
    return b"\xff\xd8" + b"\xff\xc0" + sof + b"\xff\xd9"


def _peak_bytes(call: object) -> int:
    tracemalloc.start()
    try:
        with pytest.raises(InvalidObservationError):
            call()  # type: ignore[operator]
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(
    "raw",
    [
        _png_bomb(7000, 7000),
        _jpeg_header(20000, 20000),
        np.broadcast_to(np.zeros(3, np.uint8), (20000, 20000, 3)),  # 1.2 GB if copied
        np.broadcast_to(np.zeros(1, np.float64), (5000, 5000)),
    ],
    ids=["png-bomb-49Mpx", "jpeg-20000", "array-20000", "array-float64"],
)
def test_huge_input_is_refused_in_bounded_memory(raw: object) -> None:
    # Refusals read the header or the array's shape and dtype: nothing near the decoded size
    # is ever allocated.
    assert _peak_bytes(lambda: load_screenshot(raw)) < 8 * 1024 * 1024


@pytest.mark.parametrize(
    "raw",
    [
        np.zeros((1, 1, 3), np.uint8),
        np.zeros((0, 0, 3), np.uint8),
        np.zeros((0, 5), np.uint8),
        np.zeros((20, 20, 3), np.bool_),
        np.zeros((20, 20, 3), np.int64),
        np.zeros((20, 20, 3), np.float16),
        np.zeros((20, 20, 3, 1), np.uint8),
        np.zeros(20, np.uint8),
        png(np.zeros((1, 1, 3), np.uint8)),
        png(np.zeros((7, 400, 3), np.uint8)),
        _png_header(0, 0),
        _jpeg_header(1, 1),
        b"\xff\xd8\xff",
        b"\x89PNG\r\n\x1a\n",
    ],
)
def test_degenerate_input_is_a_typed_error(raw: object) -> None:
    with pytest.raises(InvalidObservationError):
        load_screenshot(raw)


def test_bad_input_through_resolve_is_a_typed_error_in_bounded_memory() -> None:
    from resolver import Observation, resolve

    for raw in (_png_bomb(7000, 7000), np.broadcast_to(np.zeros(3, np.uint8), (20000, 20000, 3))):
        observation = Observation(screenshot=raw, screen_size=(1280, 800))
        peak = _peak_bytes(
            lambda observation=observation: resolve(
                {"role": "button", "name": "OK", "bbox": [10, 10, 50, 30]},
                observation,
                sources=("vision",),
            )
        )
        assert peak < 16 * 1024 * 1024


def test_a_high_density_screenshot_is_scaled_to_the_screen_once() -> None:
    checker = np.zeros((80, 120, 3), dtype=np.uint8)
    checker[::2, ::2] = checker[1::2, 1::2] = 200  # 2x2 cells of two pixels at 200
    shot = load_screenshot(checker)
    small = at_screen_density(shot, (60.0, 40.0))
    assert small.pixels.shape == (40, 60, 3) and not small.pixels.flags.writeable
    assert (small.pixels == 100).all()  # each screen unit the mean of its four pixels
    assert at_screen_density(shot, (60.0, 40.0)) is small  # made once, then cached
    assert small.digest != shot.digest
    for screen in (None, (110.0, 74.0), (60.0, 80.0), (120.0, 80.0), (240.0, 160.0)):
        # No screen given, a density of 1.1, a screen stretched one way, the same size or
        # a larger one: read as it is.
        assert at_screen_density(shot, screen) is shot
