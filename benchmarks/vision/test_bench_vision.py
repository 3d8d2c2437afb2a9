"""Speed of the vision source on a 1280x800 screenshot (fixtures/vision/settings), CPU only.

Not part of the default test run (``testpaths = ["tests"]``). Run with::

    python -m pytest benchmarks/vision/test_bench_vision.py --benchmark-only \
        --benchmark-columns=min,median,max,rounds --benchmark-sort=name

Every case starts cold for its screenshot (a new observation, the analysis cache cleared),
with the OCR engine already loaded; loading it is measured apart (``warmup``):

- ``warmup``: a new OCR engine's first read (models read, onnxruntime sessions made);
- ``hint_first_resolve``: ``resolve(ref, obs, sources=("vision",))`` for a ref with a box:
  the 400x300 window around it is read and decides;
- ``full_table``: ``obs.candidates("vision")``, the whole screen's table;
- ``full_ocr_every_call``: what resolving costs without hint-first search: the whole-screen
  table built on every call, then the decision;
- ``five_refs_one_screen``: five refs resolved against one observation (windows shared
  through the cache, as an agent step does).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from resolver import Observation, SemanticElementRef, resolve, resolve_many  # noqa: E402
from resolver.adapters.vision import clear_cache  # noqa: E402
from resolver.adapters.vision.ocr import OcrEngine, engine  # noqa: E402
from resolver.config import DEFAULT_CONFIG  # noqa: E402
from resolver.decide import decide  # noqa: E402

SHOT = (REPO / "fixtures" / "vision" / "settings" / "screenshot.png").read_bytes()
SCREEN = (1280.0, 800.0)
REF = SemanticElementRef(role="button", name="OK", bbox=(827, 482, 903, 512))
REFS = [
    REF,
    SemanticElementRef(role="button", name="Cancel", bbox=(743, 482, 819, 512)),
    SemanticElementRef(role="textbox", name="Proxy host", bbox=(527, 404, 903, 434)),
    SemanticElementRef(role="checkbox", name="Use a proxy server", bbox=(381, 380, 394, 393)),
    SemanticElementRef(role="button", name="OK", bbox=(827, 284, 903, 314)),
]


def _cold() -> tuple[tuple[Observation], dict[str, Any]]:
    clear_cache()
    return (Observation(screenshot=SHOT, screen_size=SCREEN),), {}


def _first_read() -> None:
    OcrEngine().read(np.full((64, 256, 3), 255, dtype=np.uint8))  # models load on first use


def test_warmup(benchmark: Any) -> None:
    benchmark.pedantic(_first_read, rounds=3, iterations=1)


@pytest.fixture(autouse=True)
def _engine_loaded() -> None:
    engine()


def test_hint_first_resolve(benchmark: Any) -> None:
    answer = benchmark.pedantic(
        lambda obs: resolve(REF, obs, sources=("vision",)), setup=_cold, rounds=15
    )
    assert answer.candidate.name == "OK"


def test_full_table(benchmark: Any) -> None:
    table = benchmark.pedantic(lambda obs: obs.candidates("vision"), setup=_cold, rounds=8)
    assert len(table) > 20


def test_full_ocr_every_call(benchmark: Any) -> None:
    decision = benchmark.pedantic(
        lambda obs: decide(REF, obs.candidates("vision"), DEFAULT_CONFIG), setup=_cold, rounds=8
    )
    assert decision.status == "accepted"


def test_five_refs_one_screen(benchmark: Any) -> None:
    answers = benchmark.pedantic(
        lambda obs: resolve_many(REFS, obs, sources=("vision",)), setup=_cold, rounds=5
    )
    assert all(not isinstance(a, Exception) for a in answers)
