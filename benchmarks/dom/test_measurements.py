"""The DOM source against reality: WPT accname, Chromium agreement, DOM-only relocation.

Measurements, not unit tests: they run the whole source over corpora and captured pages, so
they are not part of the default test run (``testpaths = ["tests"]``). Run them with::

    pytest benchmarks/dom/test_measurements.py -p no:cacheprovider

The WPT run needs the shared corpora (skipped when absent); the others read the project's
own captured fixtures.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:  # the measurement scripts live in benchmarks/, not the package
    sys.path.insert(0, str(REPO))

from benchmarks.dom import agreement, relocation, wpt_accname, wpt_roles  # noqa: E402
from benchmarks.dom.corpora import corpora_dir  # noqa: E402

CAPTURED = REPO / "fixtures" / "captured"
HAVE_FIXTURES = any(CAPTURED.glob("*/chromium_dom.json"))
CORPORA = corpora_dir()


@pytest.mark.corpus
@pytest.mark.skipif(
    CORPORA is None or not (CORPORA / "wpt-accname" / "cases.json").is_file(),
    reason="../shared/corpora/wpt-accname is not on this machine",
)
def test_wpt_accname_conformance() -> None:
    assert CORPORA is not None
    outcomes = wpt_accname.run(CORPORA / "wpt-accname")
    summary = wpt_accname.summary(outcomes)
    assert summary["pass_rate"] >= 0.95, summary
    assert all(o.skipped for o in outcomes if o.skipped is not None)  # every skip has a reason


@pytest.mark.skipif(wpt_roles.wpt_dir() is None, reason="no WPT checkout in $RESOLVER_WPT")
def test_wpt_role_files() -> None:
    root = wpt_roles.wpt_dir()
    assert root is not None
    outcomes = wpt_roles.run(root)
    summary = wpt_accname.summary(outcomes)
    by_kind = summary["by_kind"]
    assert isinstance(by_kind, dict)
    assert by_kind["role"]["ran"] >= 100, summary
    assert by_kind["role"]["pass_rate"] >= 0.9, summary


@pytest.mark.skipif(not HAVE_FIXTURES, reason="fixtures/captured has no chromium_dom.json")
def test_agreement_with_chromium_on_fixture_pages() -> None:
    totals = agreement.run(CAPTURED)
    assert not totals["failures"]
    assert totals["xpath_ok"] == totals["elements"]
    assert totals["role_ok"] / totals["exposed"] >= 0.97
    assert totals["name_ok"] / totals["exposed"] >= 0.95


@pytest.mark.skipif(not HAVE_FIXTURES, reason="fixtures/captured has no chromium_dom.json")
def test_dom_only_relocation_never_answers_wrongly_from_semantics() -> None:
    summary = relocation.evaluate(CAPTURED)
    semantic = summary["semantic"]
    assert semantic.get("wrong", 0) == 0, summary
    assert semantic["accuracy"] >= 0.85, summary


def test_speed_samples_are_scaled_by_the_factor_measured_with_them(tmp_path: Path) -> None:
    from benchmarks.dom import speed

    page = tmp_path / "page" / "source.html"
    page.parent.mkdir()
    page.write_text("<main><h1>Title</h1>" + "<p><a href=/x>link</a> text</p>" * 20 + "</main>")
    factors = iter([1.0, 4.0, 4.0, 4.0, 4.0])
    row = speed.measure(page, 5, min_ms=1.0, speed=lambda: next(factors))
    assert row["factor"] == 4.0
    assert row["elements"] == 45  # html, head, body, main, h1 and 20 p with an a each
    # each sample is divided by its own factor: four of five by 4, so the median is a quarter
    assert row["normalised_ms"] < row["build_ms"] / 2
    assert abs(row["normalised_per_100"] - 100 * row["normalised_ms"] / 45) < 0.01
