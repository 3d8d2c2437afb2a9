"""One window, analysed once: caching, and things cut by the window's edge left out."""

from __future__ import annotations

from vision_images import fixture_png

from resolver.adapters.vision import analysis
from resolver.adapters.vision.analysis import analyze
from resolver.adapters.vision.image import load_screenshot
from resolver.adapters.vision.marks import find_marks


def test_a_window_is_analysed_once_and_shared() -> None:
    shot = load_screenshot(fixture_png("settings"))
    window = (640, 250, 1040, 550)
    first = analyze(shot, window)
    assert analyze(shot, window) is first
    assert not first.full and first.window == window
    assert set(first.timings) >= {"ocr", "widgets", "layout"}


def test_boxes_are_in_screenshot_pixels_and_cut_things_are_dropped() -> None:
    shot = load_screenshot(fixture_png("settings"))
    window = (640, 250, 1040, 550)
    result = analyze(shot, window)
    for element in result.elements:
        left, top, right, bottom = element.box
        assert window[0] < left and right < window[2] and window[1] < top and bottom < window[3]
    names = {e.name for e in result.elements}
    assert "OK" in names and "Cancel" in names


def test_clear_cache_forgets() -> None:
    shot = load_screenshot(fixture_png("settings"))
    window = (0, 0, 200, 100)
    first = analyze(shot, window)
    analysis.clear_cache()
    assert analyze(shot, window) is not first


def test_once_the_screen_is_read_a_window_is_taken_from_it_without_ocr() -> None:
    shot = load_screenshot(fixture_png("settings"))
    window = (640, 250, 1040, 550)
    analysis.clear_cache()
    read_alone = analyze(shot, window)
    assert not analysis.screen_read(shot)
    analysis.clear_cache()
    whole = analyze(shot)
    assert analysis.screen_read(shot)
    derived = analyze(shot, window)
    assert "ocr" not in derived.timings  # laid out from the whole screen's lines
    assert derived.window == window and not derived.full
    # The same things, in screenshot pixels, none cut by the window's edge.
    assert {e.name for e in derived.elements if e.name} == {
        e.name for e in read_alone.elements if e.name
    }
    for element in derived.elements:
        left, top, right, bottom = element.box
        assert window[0] < left and right < window[2] and window[1] < top and bottom < window[3]
    assert {ln.text for ln in derived.lines} <= {ln.text for ln in whole.lines}
    for element in derived.elements:  # words moved with their elements
        for word in element.words:
            assert element.box[0] - 1 <= word.box[0] and word.box[2] <= element.box[2] + 1


def test_a_read_screen_outlives_its_windows_in_the_cache() -> None:
    shot = load_screenshot(fixture_png("settings"))
    analysis.clear_cache()
    analyze(shot)
    for k in range(80):  # more windows than the cache holds
        analyze(shot, (10 * k, 0, 10 * k + 200, 150))
    assert analysis.screen_read(shot)


def test_windows_alone_overflow_the_cache_without_error() -> None:
    shot = load_screenshot(fixture_png("settings"))
    analysis.clear_cache()
    for k in range(70):  # no whole screen read: the oldest windows go
        analysis._cache[("d", (k, 0, k + 10, 10), "")] = analysis.Analysis(
            "d", (100, 100), (k, 0, k + 10, 10), (), (), ()
        )
    analyze(shot, (0, 0, 300, 200))
    assert len(analysis._cache) <= 64
    analysis.clear_cache()


def test_the_whole_screen_has_its_marks_and_a_window_none() -> None:
    shot = load_screenshot(fixture_png("settings"))
    whole = analyze(shot)
    assert whole.full and whole.marks and "marks" in whole.timings
    assert whole.marks == find_marks(shot.pixels)
    assert analyze(shot, (640, 250, 1040, 550)).marks == ()
