"""The explain picture: the candidates, the runner-up and the winner drawn on a PNG."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from vision_images import fixture_png

from resolver import InvalidReferenceError, Observation, Resolution
from resolver.errors import Evidence
from resolver.explain import (
    BANNER_HEIGHT,
    GREEN,
    LEGEND,
    MAGENTA,
    ORANGE,
    RED,
    WHITE,
    diagnostic_lines,
    edge_marker,
    explain,
    label_text,
    legend_corner,
    refusal_text,
)
from resolver.results import TraceEntry

DISPLAY_OK = (827.0, 284.0, 903.0, 314.0)


def _read(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    assert image is not None
    return image


def _has(image: np.ndarray, color: tuple[int, int, int]) -> bool:
    return bool((image == np.asarray(color, np.uint8)).all(axis=2).any())


def test_draws_the_winner_on_the_screenshot(tmp_path: Path) -> None:
    obs = Observation(screenshot=fixture_png("settings"), screen_size=(1280, 800))
    ref = {"role": "button", "name": "OK", "bbox": list(DISPLAY_OK)}
    out = tmp_path / "explain.png"
    result = explain(ref, obs, out, sources=("vision",))
    assert isinstance(result, Resolution)
    image = _read(out)
    assert image.shape == (800, 1280, 3)
    left, top, right, _ = (int(v) for v in result.candidate.bbox or ())
    assert (image[top, left:right] == np.asarray(GREEN, np.uint8)).all(axis=1).mean() > 0.9


def test_an_error_returns_its_evidence_and_still_draws(tmp_path: Path) -> None:
    obs = Observation(screenshot=fixture_png("settings"), screen_size=(1280, 800))
    out = tmp_path / "ambiguous.png"
    result = explain({"role": "button", "name": "OK"}, obs, out, sources=("vision",))
    assert isinstance(result, Evidence)
    assert result.trace[0].status == "ambiguous"
    assert _has(_read(out), ORANGE)  # the runner-up


def test_without_a_screenshot_draws_on_a_blank_canvas(tmp_path: Path) -> None:
    tree = {"id": "1", "role": "button", "name": "Save", "bbox": [10, 10, 90, 40]}
    out = tmp_path / "tree.png"
    result = explain({"role": "button", "name": "Save"}, Observation(accessibility_tree=tree,
                     screen_size=(200, 100)), out)  # fmt: skip
    assert isinstance(result, Resolution) and result.executor_id == "a11y:1"
    image = _read(out)
    assert image.shape == (100, 200, 3)
    assert _has(image, GREEN)


def test_the_png_is_written_without_opencv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import resolver.explain as module

    monkeypatch.setattr(module, "_cv2", lambda: None)
    tree = {"id": "1", "role": "button", "name": "Save", "bbox": [10, 10, 90, 40]}
    out = tmp_path / "plain.png"
    explain({"role": "button", "name": "Save"}, {"accessibility_tree": tree}, out)
    image = _read(out)
    assert image.shape == (800, 1280, 3) and _has(image, GREEN)


def test_invalid_input_raises(tmp_path: Path) -> None:
    with pytest.raises(InvalidReferenceError):
        explain({}, Observation(accessibility_tree={"id": "1"}), tmp_path / "x.png")


def test_what_the_table_repaired_is_told(tmp_path: Path) -> None:
    tree = {"id": "1", "role": "frame", "name": "App", "bbox": [0, 0, 200, 100], "children": [
        {"id": "2", "role": "button", "name": "Save", "bbox": [10, 10, 90, 40]},
        {"id": "3", "role": "button", "name": "Undo", "bbox": [120, 10, 100, 40]},
        {"id": "4", "role": "frobnicator", "name": "Knob", "bbox": [10, 50, 90, 90]}]}  # fmt: skip
    obs = Observation(accessibility_tree=tree, screen_size=(200, 100))
    result = explain({"role": "button", "name": "Save"}, obs, tmp_path / "a.png")
    want = ["a11y table: 1 box inverted (dropped), 1 role unknown (read as unknown)"]
    assert isinstance(result, Resolution) and diagnostic_lines(result.trace) == want
    missing = explain({"role": "button", "name": "Load"}, obs, tmp_path / "b.png")
    assert isinstance(missing, Evidence) and diagnostic_lines(missing.trace) == want
    clean = {"id": "1", "role": "button", "name": "Save", "bbox": [10, 10, 90, 40]}
    found = explain({"role": "button", "name": "Save"}, {"accessibility_tree": clean},
                    tmp_path / "c.png")  # fmt: skip
    assert diagnostic_lines(found.trace) == []


def _near(image: np.ndarray, color: tuple[int, int, int], x: int, y: int, r: int) -> bool:
    return _has(image[max(y - r, 0) : y + r + 1, max(x - r, 0) : x + r + 1], color)


@pytest.mark.parametrize(
    ("rank", "candidate", "rule", "parts"),
    [
        (1, {"role": "button", "name": "OK", "score": 0.987}, "accept.score",
         ["#1", "button", "'OK'", "0.99", "accept.score"]),
        (4, {"role": "link", "name": "Next page", "score": 0.4321}, "",
         ["#4", "link", "'Next page'", "0.43"]),
        (1, {"role": "row", "name": "", "score": 0.05}, "refuse.threshold",
         ["#1", "row", "''", "0.05", "refuse.threshold"]),
    ],
)  # fmt: skip
def test_label_text_has_rank_score_and_rule(
    rank: int, candidate: dict[str, object], rule: str, parts: list[str]
) -> None:
    assert label_text(rank, candidate, rule) == " ".join(parts)


def test_label_text_cuts_long_names_and_leaves_out_a_missing_score() -> None:
    text = label_text(2, {"role": "text", "name": "word " * 30}, "")
    assert text.startswith("#2 text '") and text.endswith("...'")
    assert len(text) < 45 and "0." not in text


def test_refusal_text_names_the_rule_and_the_reason_in_short() -> None:
    entry = TraceEntry("a11y", "not_found", "best score 0.216 is below the threshold 0.60",
                       rule="refuse.threshold")  # fmt: skip
    other = TraceEntry("dom", "absent", "the observation has no dom input")
    text = refusal_text(Evidence(trace=(entry, other), rule="refuse.threshold"))
    assert text == "refused: refuse.threshold - best score 0.216 is below the threshold 0.60"
    tie = TraceEntry("vision", "ambiguous", "scores too close", rule="ambiguous.margin")
    assert refusal_text(Evidence(trace=(tie,), rule="ambiguous.margin")).startswith(
        "ambiguous: ambiguous.margin"
    )


@pytest.mark.parametrize(
    ("box", "not_there"),
    [
        ((1100.0, 700.0, 1200.0, 760.0), "bottom-right"),
        ((20.0, 700.0, 120.0, 760.0), "bottom-left"),
        ((1100.0, 20.0, 1200.0, 60.0), "top-right"),
        ((0.0, 0.0, 100.0, 100.0), "top-left"),
    ],
)
def test_the_legend_corner_is_the_farthest_from_the_answer(
    box: tuple[float, float, float, float], not_there: str
) -> None:
    corner = legend_corner((1280, 800), [box])
    assert corner != not_there
    opposite = {"bottom": "top", "top": "bottom", "left": "right", "right": "left"}
    assert corner == "-".join(opposite[side] for side in not_there.split("-"))
    assert legend_corner((1280, 800), []) == "bottom-right"


def test_an_edge_marker_points_at_a_box_off_the_picture() -> None:
    tail, tip = edge_marker((300, 1200, 370, 1230), (1280, 800)) or ((0, 0), (0, 0))
    assert tip[1] >= 790 and tail[1] < tip[1] and tip[0] == tail[0] == 335
    left = edge_marker((-200, 100, -100, 140), (1280, 800))
    assert left is not None and left[1][0] <= 5 and left[0][0] > left[1][0]
    assert edge_marker((1270, 790, 1400, 900), (1280, 800)) is None


def test_an_answer_marks_its_click_point_in_screenshot_pixels(tmp_path: Path) -> None:
    tree = {"id": "1", "role": "button", "name": "Send", "bbox": [100, 100, 200, 140]}
    obs = Observation(accessibility_tree=tree, screenshot=fixture_png("settings"),
                      screen_size=(640, 400))  # fmt: skip
    out = tmp_path / "point.png"
    result = explain({"role": "button", "name": "Send"}, obs, out, sources=("a11y",))
    assert isinstance(result, Resolution) and result.point == (150.0, 120.0)
    image = _read(out)
    x, y = 300, 240  # the point, two screenshot pixels per screen unit
    assert (image[y - 2 : y + 3, x - 2 : x + 3] == np.asarray(GREEN, np.uint8)).all()
    assert _near(image, WHITE, x + 5, y, 0)  # the ring around the dot
    assert not _near(image, GREEN, 250, 240, 3)  # inside the box, away from the point


def test_the_labels_carry_the_deciding_rule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import resolver.explain as module

    drawn: list[str] = []
    text = module.draw_text
    monkeypatch.setattr(
        module, "draw_text", lambda p, o, t, c, b: (drawn.append(t), text(p, o, t, c, b))
    )
    tree = {"id": "1", "role": "frame", "name": "App", "children": [
        {"id": "2", "role": "button", "name": "Save", "bbox": [10, 10, 90, 40]},
        {"id": "3", "role": "button", "name": "Save as", "bbox": [110, 10, 190, 40]}]}  # fmt: skip
    obs = Observation(accessibility_tree=tree, screen_size=(400, 300))
    found = explain({"role": "button", "name": "Save"}, obs, tmp_path / "a.png")
    assert isinstance(found, Resolution)
    assert f"#1 button 'Save' {found.score:.2f} {found.rule}" in drawn
    assert any(t.startswith("#2 button 'Save as'") for t in drawn)
    drawn.clear()
    refused = explain({"role": "link", "name": "Load"}, obs, tmp_path / "b.png")
    assert isinstance(refused, Evidence) and refused.rule
    assert any(t.startswith("#1 ") and t.endswith(refused.rule) for t in drawn)
    assert refusal_text(refused) in drawn


def test_a_refusal_draws_a_banner_and_the_rescaled_recorded_box(tmp_path: Path) -> None:
    tree = {"id": "1", "role": "button", "name": "Save", "bbox": [10, 10, 90, 40]}
    obs = Observation(accessibility_tree=tree, screen_size=(400, 300))
    ref = {
        "role": "button",
        "name": "Load",
        "bbox": [200, 300, 300, 360],
        "screen_size": [800, 600],
    }
    out = tmp_path / "refused.png"
    result = explain(ref, obs, out)
    assert isinstance(result, Evidence)
    image = _read(out)
    red = (image[:BANNER_HEIGHT] == np.asarray(RED, np.uint8)).all(axis=2).mean()
    assert red > 0.6  # the banner; the rest is its text
    assert not _has(image[BANNER_HEIGHT + 2 : BANNER_HEIGHT + 8, 100:], RED)  # right of Save
    assert _near(image, MAGENTA, 100, 150, 1) and _near(image, MAGENTA, 150, 180, 1)
    assert not _near(image, MAGENTA, 200, 300, 2)  # not where it was recorded, unscaled


@pytest.fixture(scope="module")
def off_screen(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, np.ndarray]:
    obs = Observation(screenshot=fixture_png("settings"), screen_size=(1280, 800))
    ref = {"role": "button", "name": "OK", "bbox": [300, 1200, 370, 1230]}
    out = tmp_path_factory.mktemp("explain") / "off.png"
    return explain(ref, obs, out, sources=("vision",)), _read(out)


def test_an_off_screen_refusal_points_at_the_recorded_box(
    off_screen: tuple[object, np.ndarray],
) -> None:
    result, image = off_screen
    assert isinstance(result, Evidence) and result.rule == "refuse.off_screen"
    assert _has(image[:BANNER_HEIGHT], RED)
    marker = edge_marker((300, 1200, 370, 1230), (1280, 800))
    assert marker is not None
    (tail_x, tail_y), (tip_x, tip_y) = marker
    assert _near(image, MAGENTA, tip_x, tip_y, 2) and _near(image, MAGENTA, tail_x, tail_y, 2)
    assert _near(image, MAGENTA, tip_x, (tip_y + tail_y) // 2, 2)
    assert not _has(image[200:700], MAGENTA)  # nothing clamped onto the picture


def _corner_region(image: np.ndarray, corner: str) -> np.ndarray:
    height, width = image.shape[:2]
    rows = slice(height // 2, height) if corner.startswith("bottom") else slice(0, height // 2)
    cols = slice(width // 2, width) if corner.endswith("right") else slice(0, width // 2)
    return image[rows, cols]


@pytest.mark.parametrize(
    ("bbox", "corner"),
    [([680, 540, 780, 580], "top-left"), ([20, 20, 120, 60], "bottom-right")],
)
def test_the_legend_swatches_are_in_the_corner_away_from_the_winner(
    tmp_path: Path, bbox: list[int], corner: str
) -> None:
    tree = {"id": "1", "role": "button", "name": "Send", "bbox": bbox}
    obs = Observation(accessibility_tree=tree, screen_size=(800, 600))
    out = tmp_path / "legend.png"
    assert isinstance(explain({"role": "button", "name": "Send"}, obs, out), Resolution)
    image = _read(out)
    region = _corner_region(image, corner)
    assert all(_has(region, color) for _, color in LEGEND)
    assert legend_corner((800, 600), [tuple(bbox)]) == corner
    for other in {"top-left", "top-right", "bottom-left", "bottom-right"} - {corner}:
        assert not _has(_corner_region(image, other), MAGENTA)


def test_without_opencv_the_marks_are_drawn_without_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import resolver.explain as module

    monkeypatch.setattr(module, "_cv2", lambda: None)
    tree = {"id": "1", "role": "button", "name": "Save", "bbox": [10, 10, 90, 40]}
    obs = Observation(accessibility_tree=tree, screen_size=(640, 480))
    found = explain({"role": "button", "name": "Save"}, obs, tmp_path / "a.png")
    assert isinstance(found, Resolution)
    image = _read(tmp_path / "a.png")
    assert _near(image, GREEN, 50, 25, 0) and _has(_corner_region(image, "bottom-right"), MAGENTA)
    ref = {"role": "button", "name": "Load", "bbox": [300, 200, 360, 230]}
    assert isinstance(explain(ref, obs, tmp_path / "b.png"), Evidence)
    image = _read(tmp_path / "b.png")
    assert (image[:BANNER_HEIGHT] == np.asarray(RED, np.uint8)).all()
    assert _near(image, MAGENTA, 300, 200, 0)


def test_the_docstring_examples_run() -> None:
    import doctest

    import resolver.explain as module

    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted >= 6
