"""The OCR readings kept on disk: read once per image, read back exactly, refreshed when
broken."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.vision.ocr_cache import CachedReader, decode, encode
from resolver.adapters.vision.ocr import TextLine, Word


class _Counting:
    """An OCR stand-in that reads the image's mean as text and counts its readings."""

    def __init__(self) -> None:
        self.calls = 0

    def read(self, pixels: Any) -> list[TextLine]:
        self.calls += 1
        word = Word(f"mean {float(pixels.mean()):.3f}", (1.5, 2.25, 40.125, 12.0), 0.9871)
        return [TextLine(word.text, word.box, 0.9871, (word, Word("é", (0.0, 0.0, 1.0, 1.0), 1.0)))]


def test_lines_survive_the_round_trip_exactly() -> None:
    lines = _Counting().read(np.full((4, 4, 3), 7, dtype=np.uint8))
    assert decode(encode(lines)) == lines
    assert decode(encode([])) == []


def test_an_image_is_read_once_and_another_image_again(tmp_path: Path) -> None:
    engine = _Counting()
    reader = CachedReader(engine, tmp_path)
    image = np.zeros((20, 30, 3), dtype=np.uint8)
    first = reader.read(image)
    assert reader.read(image.copy()) == first and engine.calls == 1
    # A second reader on the same folder (a later run) reads it back too.
    later = CachedReader(_Counting(), tmp_path)
    assert later.read(image) == first and later.reader.calls == 0  # type: ignore[attr-defined]
    # One pixel changed, or the same bytes in another shape: another reading.
    changed = image.copy()
    changed[0, 0, 0] = 255
    reader.read(changed)
    reader.read(image.reshape(30, 20, 3))
    assert engine.calls == 3 and (reader.hits, reader.misses) == (1, 3)


def test_a_broken_entry_is_read_again(tmp_path: Path) -> None:
    engine = _Counting()
    reader = CachedReader(engine, tmp_path)
    image = np.ones((8, 8, 3), dtype=np.uint8)
    lines = reader.read(image)
    key = reader.key(image)
    (tmp_path / key[:2] / f"{key}.json").write_text("[[1, 2", encoding="utf-8")
    assert reader.read(image) == lines and engine.calls == 2
    assert reader.read(image) == lines and engine.calls == 2
