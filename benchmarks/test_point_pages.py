"""The point recorder on real pages (``benchmarks/live/point_pages.py``): its totals, a real
page measured, and a run without the corpus that says so."""

from pathlib import Path
from typing import Any

import pytest
from live_browser import browser_missing, chromium

from benchmarks.live import point_pages
from benchmarks.relocation.run import corpus_pages


def _click(verdict: str, control: bool, ms: float) -> dict[str, Any]:
    return {"verdict": verdict, "control": control, "ms": ms}


def test_the_summary_counts_verdicts_and_times() -> None:
    clicks = {
        "a": [_click("right", True, 40.0), _click("wrong", False, 1.0)],
        "b": [_click("right", True, 20.0), _click("refused", True, 3.0)],
        "c": [],
    }
    got = point_pages.summary(clicks)
    assert (got["pages"], got["clicks"], got["right"], got["wrong"]) == (3, 4, 2, 1)
    assert (got["refused"], got["unrecorded"], got["recorded_a_control"]) == (1, 0, 3)
    assert got["median_ms"] == 11.5 and got["first_click_median_ms"] == 30.0
    assert point_pages.summary({})["clicks"] == 0
    assert "pressed" not in got
    clicks["a"][0]["pressed"] = "right"
    clicks["b"][1]["pressed"] = "moved"
    assert point_pages.summary(clicks)["pressed"] == {"right": 1, "moved": 1}


def test_without_the_corpus_it_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(point_pages, "corpus_pages", list)
    monkeypatch.setattr(point_pages, "browser_missing", lambda: None)
    assert point_pages.main([]) == 0
    assert "corpus not found" in capsys.readouterr().err


@pytest.mark.corpus
@pytest.mark.browser
@pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing()))
@pytest.mark.skipif(not corpus_pages(), reason="needs the readability-pages corpus")
def test_a_card_s_title_inside_its_link_is_recorded_as_the_link() -> None:
    # wikia's rail of related stories: each title a heading inside its link.
    page = next(p for p in corpus_pages() if p.name == "wikia")
    with chromium() as browser:
        clicks = point_pages.measure_page(browser, page, "a11y", 30)
    assert clicks and all(c["verdict"] == "right" for c in clicks)
    assert any(c["role"] == "link" and "Han Solo" in (c["name"] or "") for c in clicks)


def test_press_and_scrolled_are_not_asked_together(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(point_pages, "browser_missing", lambda: None)
    monkeypatch.setattr(point_pages, "corpus_pages", lambda: [Path("x")])
    with pytest.raises(SystemExit):
        point_pages.main(["--press", "--scrolled"])


@pytest.mark.browser
@pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing()))
def test_controls_below_the_first_view_are_scrolled_to_and_recorded(tmp_path: Path) -> None:
    folder = tmp_path / "tall"
    folder.mkdir()
    links = "".join(f'<p><a href="/p{i}">Story number {i}</a></p>' for i in range(6))
    (folder / "source.html").write_text(
        f'<!DOCTYPE html><body><a href="/">Home</a><div style="height: 1500px"></div>{links}'
        "<button>Load more</button></body>",
        encoding="utf-8",
    )
    with chromium() as browser:
        clicks = point_pages.measure_page(browser, folder, "a11y", 30, scrolled=True)
    assert len(clicks) == 7 and all(c["scrolled"] for c in clicks)  # (not Home: in view)
    assert {c["verdict"] for c in clicks} == {"right"}
    assert {c["name"] for c in clicks} >= {"Story number 0", "Load more"}
