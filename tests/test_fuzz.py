"""Fuzzing in CI: a few thousand generated cases over every kind of input (references, each
accessibility-tree format, HTML, screenshots, recordings, SnapshotV1 documents, the command
line). Each case must return its documented type or raise a ``ResolutionError`` subclass,
within a generous time bound; the command line must exit with a documented code and print no
traceback. ``python -m benchmarks.fuzz`` runs the same properties on many more cases."""

from __future__ import annotations

from typing import Any

import pytest
from fuzz_strategies import KINDS, Bound, fixture_bytes, input_size, run_case
from hypothesis import HealthCheck, Phase, given, settings

CI_BOUND = Bound(base=20.0, per_unit=200e-6, hard=0.0)
"""Generous: CI machines are slow and shared; pytest-timeout catches a hang."""
CI_HUGE = 5_000
"""Longest generated name in CI (the dedicated command goes to a few MB)."""

EXAMPLES: dict[str, int] = {
    "reference": 400,
    **{kind: 100 for kind in KINDS if kind.startswith("a11y:")},
    "dom": 300,
    "linked": 200,
    "vision": 60,
    "recording": 200,
    "snapshot": 200,
    "cli": 120,
    "action": 300,
}
KNOWN_BUGS: dict[str, str] = {}
"""Kinds whose property a library bug breaks today (kind -> the bug); marked xfail, not
strict, until it is fixed."""


def _check(kind: str, case: Any) -> None:
    checked = run_case(kind, case, CI_BOUND)
    assert checked.failure is None, f"{kind}: {checked.failure}"


def _params() -> list[Any]:
    params = []
    for kind in KINDS:
        marks = []
        if kind in KNOWN_BUGS:
            marks.append(pytest.mark.xfail(reason=KNOWN_BUGS[kind], strict=False))
        params.append(pytest.param(kind, id=kind, marks=marks))
    return params


@pytest.fixture(scope="module", autouse=True)
def _ocr_loaded() -> None:
    """The first vision call loads the OCR models; do it once, outside any case's bound."""
    run_case("vision", fixture_bytes("vision/login/screenshot.png")[0], Bound(600.0, 0, 0))


@pytest.mark.filterwarnings("ignore:Generating overly large repr")
@pytest.mark.parametrize("kind", _params())
def test_fuzz(kind: str) -> None:
    @settings(
        max_examples=EXAMPLES[kind],
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.explicit, Phase.generate],
    )
    @given(case=KINDS[kind].strategy(CI_HUGE))
    def check(case: Any) -> None:
        _check(kind, case)

    check()


def test_every_kind_has_a_budget() -> None:
    assert set(EXAMPLES) == set(KINDS)


def test_a_screenshot_counts_its_pixels_toward_the_time_bound() -> None:
    # 1280 x 800 pixels in 48 KB: the decoding and OCR follow the pixels, as for an array.
    png = fixture_bytes("vision/settings/screenshot.png")[0]
    assert input_size(png) == 3 * 1280 * 800 // 4 > len(png)
    frame = b"\xff\xc0\x00\x11\x08" + (600).to_bytes(2, "big") + (800).to_bytes(2, "big")
    jpeg = b"\xff\xd8" + frame + b"\x00" * 12 + b"\xff\xd9"
    assert input_size(jpeg) == 3 * 600 * 800 // 4
    assert input_size(b"\x00" * 1000) == 1000 and input_size(png[:20]) == 20
    # A header claiming more pixels than any screenshot may have counts as the limit.
    claims = png[:16] + (2**32 - 1).to_bytes(4, "big") * 2 + png[24:]
    assert input_size(claims) == 3 * 40_000_000 // 4
