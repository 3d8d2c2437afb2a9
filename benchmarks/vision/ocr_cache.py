"""The OCR readings of a vision benchmark run kept on disk, for runs that change the rules.

Reading a screenshot's text is most of what a vision benchmark run costs (a few seconds a
window here), and a change to the decision rules, the layout or the shapes does not change
what OCR reads. With ``--ocr-cache DIR``, :mod:`benchmarks.vision.pages` keeps each reading
in ``DIR/<key[:2]>/<key>.json``, keyed by the pixels read and by :func:`fingerprint` (the
OCR module's source, rapidocr's version and the bundled models' names and sizes), so a later
run reads it back instead of running OCR again, and any change to how text is read starts
afresh. Everything after the reading (shapes, layout, marks, the decision) runs as usual.

The per-resolve times such a run reports are not the library's: a window read from the
cache costs nothing. Speed figures come from runs without it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from resolver.adapters.vision import analysis, ocr
from resolver.adapters.vision.ocr import TextLine, Word

__all__ = ["CachedReader", "decode", "encode", "fingerprint", "install"]


class Reader(Protocol):
    """What :func:`resolver.adapters.vision.ocr.engine` gives: ``read(pixels)``."""

    def read(self, pixels: Any) -> list[TextLine]: ...


@cache
def fingerprint() -> str:
    """What the readings depend on besides the pixels: the OCR module's source, rapidocr's
    version, and the bundled model files (names and sizes)."""
    digest = hashlib.sha256(Path(ocr.__file__).read_bytes())
    with contextlib.suppress(metadata.PackageNotFoundError):
        digest.update(metadata.version("rapidocr").encode())
    with contextlib.suppress(Exception):  # no models installed: the engine itself will say so
        for task, path in sorted(ocr.model_paths().items()):
            digest.update(f"{task}:{path.name}:{path.stat().st_size}".encode())
    return digest.hexdigest()


def encode(lines: list[TextLine]) -> str:
    """Text lines as JSON (floats written exactly)."""
    return json.dumps(
        [
            [ln.text, list(ln.box), ln.score, [[w.text, list(w.box), w.score] for w in ln.words]]
            for ln in lines
        ],
        ensure_ascii=False,
    )


def _box(values: list[float]) -> tuple[float, float, float, float]:
    left, top, right, bottom = (float(v) for v in values)
    return (left, top, right, bottom)


def decode(text: str) -> list[TextLine]:
    """The text lines :func:`encode` wrote."""
    return [
        TextLine(
            str(line_text),
            _box(box),
            float(score),
            tuple(Word(str(word), _box(at), float(sure)) for word, at, sure in words),
        )
        for line_text, box, score, words in json.loads(text)
    ]


class CachedReader:
    """``reader`` with its readings kept in ``folder``: a reading is made once per image."""

    def __init__(self, reader: Reader, folder: Path) -> None:
        self.reader = reader
        self.folder = folder
        self.hits = 0
        self.misses = 0

    def key(self, pixels: np.ndarray[Any, Any]) -> str:
        """The key of a reading: the image's shape, type and bytes, and :func:`fingerprint`."""
        digest = hashlib.sha256(fingerprint().encode())
        digest.update(f"{pixels.shape}:{pixels.dtype}".encode())
        digest.update(np.ascontiguousarray(pixels).tobytes())
        return digest.hexdigest()

    def read(self, pixels: np.ndarray[Any, Any]) -> list[TextLine]:
        """The image's text lines, from the folder when read before."""
        key = self.key(pixels)
        path = self.folder / key[:2] / f"{key}.json"
        with contextlib.suppress(FileNotFoundError, ValueError, TypeError, KeyError):
            lines = decode(path.read_text(encoding="utf-8"))
            self.hits += 1
            return lines
        lines = self.reader.read(pixels)
        self.misses += 1
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.part")
        partial.write_text(encode(lines), encoding="utf-8")
        os.replace(partial, path)
        return lines


_installed: dict[str, CachedReader] = {}


def install(folder: str | Path) -> None:
    """Make the vision source read text through a :class:`CachedReader` on ``folder`` in
    this process (a worker's initializer)."""
    root = Path(folder)
    original = ocr.engine

    def cached_engine() -> CachedReader:
        reader = _installed.get(str(root))
        if reader is None:
            reader = _installed[str(root)] = CachedReader(original(), root)
        return reader

    analysis.engine = cached_engine  # type: ignore[assignment]
