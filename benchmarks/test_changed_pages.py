"""Recorded on a page, pressed on its changed versions (``benchmarks/live/changed_pages.py``):
its totals, a page of its own measured end to end, and a run without the corpus that says
so."""

from pathlib import Path
from typing import Any

import pytest
from live_browser import browser_missing, chromium

from benchmarks.live import changed_pages, point_pages


def _row(key: str, outcome: str, scrolled: bool = False) -> dict[str, Any]:
    return {"key": key, "outcome": outcome, "scrolled": scrolled}


def test_the_summary_counts_present_and_removed_targets_apart() -> None:
    clicks = {
        "a": [_row("t1", "right"), _row("t1", "wrong"), _row("t2", "rejected")],
        "b": [_row("t3", "refused", True), _row("t3", "pressed", True), _row("t3", "lost")],
        "c": [],
    }
    got = changed_pages.summary(clicks)
    assert (got["pages"], got["recorded"], got["present"], got["removed"]) == (3, 3, 4, 2)
    assert (got["right"], got["wrong"], got["refused"], got["lost"]) == (1, 1, 1, 1)
    assert (got["rejected"], got["pressed"], got["right_share"]) == (1, 1, 0.25)
    assert got["scrolled"]["present"] == 1 and got["scrolled"]["pressed"] == 1
    assert changed_pages.summary({})["right_share"] is None


def test_without_the_corpus_it_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(point_pages, "corpus_pages", list)
    monkeypatch.setattr(point_pages, "browser_missing", lambda: None)
    assert changed_pages.main([]) == 0
    assert "corpus not found" in capsys.readouterr().err


class _MovingPage:
    """A page whose target's point is read from ``points`` in turn (``None``: not reached)."""

    def __init__(self, points: list[tuple[float, float] | None]) -> None:
        self.points = points

    def evaluate(self, script: str, arg: Any = None) -> Any:
        assert script == changed_pages.KEYED_REACHED_JS
        point = self.points.pop(0)
        return [] if point is None else [["t1", *point]]


def test_a_click_is_recorded_where_the_page_drew_it_through_the_observation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A picture that fails to load while the page is observed narrows the page and moves
    # the link: the point read before the observation is not where the observation has it.
    monkeypatch.setattr(changed_pages, "observe", lambda page, screenshot: "seen")
    made: list[tuple[float, float]] = []

    def record(x: float, y: float, seen: str, source: str) -> str:
        made.append((x, y))
        return "action"

    monkeypatch.setattr(changed_pages, "record_click", record)
    moved = _MovingPage([(640.0, 400.0), (522.0, 400.0), (522.0, 400.0), (522.0, 400.0)])
    assert changed_pages._recorded_here(moved, "t1", "a11y") == "action"
    assert made == [(522.0, 400.0)]
    # A page that moves it on every observation, or stops drawing it, records nothing.
    restless = _MovingPage([(float(k), 400.0) for k in range(2 * changed_pages.TRIES)])
    assert changed_pages._recorded_here(restless, "t1", "a11y") is None
    assert changed_pages._recorded_here(_MovingPage([None]), "t1", "a11y") is None
    assert made == [(522.0, 400.0)]


_PAGE = """<!DOCTYPE html><html><head><title>Shop</title></head><body>
<header><nav><a href="/">Home</a> <a href="/shop">Shop</a> <a href="/about">About us</a>
<a href="/contact">Contact</a></nav></header>
<main><h1>Our products</h1>
<section><h2>Tea</h2><p>Green tea from the hills.</p><button>Add tea to cart</button>
<a href="/tea">Read more about tea</a></section>
<section><h2>Coffee</h2><p>Dark roast, whole beans.</p><button>Add coffee to cart</button>
<a href="/coffee">Read more about coffee</a></section>
<form><label>Email <input name="email" type="email"></label><button>Subscribe</button></form>
</main><footer><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></footer>
</body></html>"""


def _corpus_page(tmp_path: Path, html: str) -> Path:
    """A folder laid out as a corpus page's, holding ``html``."""
    folder = tmp_path / "shop"
    folder.mkdir()
    (folder / "source.html").write_text(html, encoding="utf-8")
    return folder


live = pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing()))


@pytest.mark.browser
@live
def test_a_page_of_its_own_is_recorded_and_pressed_on_each_changed_version(
    tmp_path: Path,
) -> None:
    folder = _corpus_page(tmp_path, _PAGE)
    with chromium() as browser:
        rows = changed_pages.measure_page(browser, folder, "a11y")
    # Every link, button and field of the page is drawn in the first viewport: each is
    # recorded, and found and pressed on each of the four changed versions.
    assert len({r["version"] for r in rows}) == 4
    assert len({r["key"] for r in rows}) >= 10
    assert {r["outcome"] for r in rows} == {"right"}, [r for r in rows if r["outcome"] != "right"]


@pytest.mark.browser
@live
def test_controls_below_the_first_view_are_recorded_scrolled_and_pressed(
    tmp_path: Path,
) -> None:
    tall = _PAGE.replace("<footer>", '<div style="height: 1600px"></div><footer>')
    folder = _corpus_page(tmp_path, tall)
    with chromium() as browser:
        top = changed_pages.measure_page(browser, folder, "a11y")
        every = changed_pages.measure_page(browser, folder, "a11y", scrolled=True)
    below = {r["key"] for r in every if r["scrolled"]}
    assert below and not below & {r["key"] for r in top}
    assert {r["name"] for r in every if r["scrolled"]} == {"Privacy", "Terms"}
    assert {r["outcome"] for r in every} == {"right"}, [r for r in every if r["outcome"] != "right"]
