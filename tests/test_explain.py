"""The explain picture: the candidates, the runner-up and the winner drawn on a PNG."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from vision_images import fixture_png

from resolver import InvalidReferenceError, Observation, Resolution
from resolver.errors import Evidence
from resolver.explain import GREEN, ORANGE, diagnostic_lines, explain

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
