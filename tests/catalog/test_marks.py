"""Catalog indexes drawn on a screenshot: which entries, where, in which colour; bad input
refused; and on a live page at two pixels per CSS pixel, each outline on its element."""

from __future__ import annotations

import sys
from typing import Any

import cv2
import numpy as np
import pytest
from live_browser import browser_missing, chromium

from resolver import InvalidObservationError, Observation, SourceUnavailableError
from resolver.catalog import build_catalog
from resolver.catalog.marks import MARK_COLORS, mark_screenshot, marked_entries

BOXES = {"save": [10, 10, 90, 40], "cancel": [100, 10, 190, 40], "below": [10, 900, 90, 940],
         "hidden": [200, 100, 260, 130], "flat": [300, 100, 300, 130]}  # fmt: skip


def _page() -> Observation:
    hidden = {"id": "hidden", "role": "button", "name": "Ghost", "bbox": BOXES["hidden"],
              "visible": False}  # fmt: skip
    children = [
        {"id": key, "role": "button", "name": key.title(), "bbox": box}
        for key, box in BOXES.items()
        if key != "hidden"
    ]
    return Observation(accessibility_tree={"id": "f", "role": "form", "name": "F",
                                           "children": [*children, hidden]})  # fmt: skip


def _png(width: int, height: int, gray: int = 240) -> bytes:
    ok, data = cv2.imencode(".png", np.full((height, width, 3), gray, np.uint8))
    assert ok
    return bytes(data.tobytes())


def _decoded(png: bytes) -> Any:
    return cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)


def test_only_entries_in_view_with_an_area_and_not_hidden_are_marked() -> None:
    catalog = build_catalog(_page())
    names = {e.index: e.name for e in marked_entries(catalog, (400.0, 300.0))}
    assert sorted(names.values()) == ["Cancel", "Save"]
    assert "Below" in {e.name for e in marked_entries(catalog, None)}
    hidden = [e for e in catalog.entries if e.name == "Ghost"]
    assert not hidden or hidden[0].visible is False


@pytest.mark.parametrize("density", [1, 2])
def test_each_outline_is_drawn_in_its_colour_where_its_box_is(density: int) -> None:
    catalog = build_catalog(_page())
    drawn = mark_screenshot(_png(400 * density, 300 * density), catalog, viewport=(400.0, 300.0))
    assert drawn.size == (400 * density, 300 * density)
    assert drawn.scale == (float(density), float(density))
    pixels = _decoded(drawn.png)
    for entry in catalog.entries:
        if entry.index not in drawn.marked:
            continue
        assert entry.bbox is not None
        left, top, right, bottom = (round(v * density) for v in entry.bbox)
        color = MARK_COLORS[entry.index % len(MARK_COLORS)]
        # The outline's left and right sides, halfway down, and the inside untouched.
        middle = (top + bottom) // 2
        assert tuple(pixels[middle, left]) == color
        assert tuple(pixels[middle, right]) == color
        assert tuple(pixels[middle, (left + right) // 2]) == (240, 240, 240)
    assert len(drawn.marked) == 2 and drawn.crowded == ()


def test_labels_with_no_free_place_are_reported_crowded() -> None:
    # Forty 12 x 10 links in rows 11 px apart: no label fits beside its own link.
    kids = [{"id": str(i), "role": "link", "name": f"L{i}",
             "bbox": [(i % 8) * 13, (i // 8) * 11 + 30, (i % 8) * 13 + 12, (i // 8) * 11 + 40]}
            for i in range(40)]  # fmt: skip
    catalog = build_catalog(Observation(accessibility_tree={"id": "r", "role": "list",
                                                            "children": kids}))  # fmt: skip
    drawn = mark_screenshot(_png(400, 300), catalog, viewport=(400.0, 300.0))
    assert len(drawn.marked) == 40
    assert drawn.crowded and set(drawn.crowded) <= set(drawn.marked)


def test_a_label_in_its_colour_goes_below_a_box_at_the_top_edge() -> None:
    catalog = build_catalog(_page())
    plain = _decoded(_png(400, 300))
    pixels = _decoded(mark_screenshot(_png(400, 300), catalog, viewport=(400.0, 300.0)).png)
    changed = np.any(pixels != plain, axis=2)
    # Below each box (no room above it at the top edge), a filled label of the box's colour.
    for entry in catalog.entries:
        if entry.name not in ("Save", "Cancel"):
            continue
        assert entry.bbox is not None
        left, _, _, bottom = (round(v) for v in entry.bbox)
        strip = pixels[bottom + 4 : bottom + 20, left : left + 8].reshape(-1, 3)
        color = MARK_COLORS[entry.index % len(MARK_COLORS)]
        assert sum(tuple(p) == color for p in strip) > 20
    assert changed.sum() < 0.2 * changed.size


def test_a_corrupt_picture_or_a_bad_viewport_is_refused() -> None:
    catalog = build_catalog(_page())
    with pytest.raises(InvalidObservationError):
        mark_screenshot(b"\x89PNG\r\n\x1a\nnot a png", catalog)
    with pytest.raises(InvalidObservationError):
        mark_screenshot(_png(40, 30), catalog, viewport=(float("nan"), 30.0))
    with pytest.raises(InvalidObservationError):
        mark_screenshot(_png(40, 30), catalog, viewport=(0.0, 30.0))
    for viewport in ("ab", (True, 30.0), (40.0,)):
        with pytest.raises(InvalidObservationError, match="viewport"):
            mark_screenshot(_png(40, 30), catalog, viewport=viewport)  # type: ignore[arg-type]


@pytest.mark.parametrize("entries", ["abc", 5, None, [1, 2], [{"index": 0}], {"a": 1}])
def test_what_is_no_catalog_is_refused(entries: Any) -> None:
    with pytest.raises(InvalidObservationError, match="marks are drawn for"):
        mark_screenshot(_png(40, 30), entries)


def test_without_opencv_it_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "resolver.adapters.vision.image", None)
    with pytest.raises(SourceUnavailableError, match="vision"):
        mark_screenshot(_png(40, 30), build_catalog(_page()))


PAGE = """data:text/html,<title>Marks</title><body style="margin:0">
<button style="position:absolute;left:40px;top:60px;width:120px;height:40px">Save</button>
<a href="https://example.org/docs" style="position:absolute;left:300px;top:200px">Docs</a>
<button style="position:absolute;left:40px;top:900px">Far below</button></body>"""


@pytest.mark.browser
@pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing()))
def test_a_live_page_at_two_pixels_per_css_pixel() -> None:
    from resolver.integrations.playwright import observe

    with chromium() as browser:
        page = browser.new_page(viewport={"width": 500, "height": 400}, device_scale_factor=2)
        page.goto(PAGE)
        observation = observe(page, screenshot=False)
        picture = page.screenshot()  # Playwright's: device pixels, two per CSS pixel
    catalog = build_catalog(observation)
    drawn = mark_screenshot(picture, catalog, viewport=observation.screen_size)
    assert drawn.size == (1000, 800) and drawn.scale == (2.0, 2.0)
    names = {e.index: e.name for e in catalog.entries}
    assert sorted(names[i] for i in drawn.marked) == ["Docs", "Save"]
    pixels = _decoded(drawn.png)
    save = next(e for e in catalog.entries if e.name == "Save")
    assert save.bbox is not None
    # The button's CSS box (40, 60, 160, 100) drawn at twice the size.
    assert [round(v) for v in save.bbox] == [40, 60, 160, 100]
    color = MARK_COLORS[save.index % len(MARK_COLORS)]
    assert tuple(pixels[160, 80]) == color and tuple(pixels[160, 320]) == color
