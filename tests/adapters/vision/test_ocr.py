"""OCR with the models bundled in the rapidocr wheel: offline, native resolution."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from resolver.adapters.vision import ocr
from resolver.errors import SourceUnavailableError


def _text_image(text: str, scale: float = 1.0) -> np.ndarray:
    image = np.full((80, 400, 3), 255, dtype=np.uint8)
    cv2.putText(image, text, (20, 50), cv2.FONT_HERSHEY_SIMPLEX, scale, (30, 30, 30), 2)
    return image


def test_models_are_the_bundled_files() -> None:
    paths = ocr.model_paths()
    assert set(paths) == {"det", "rec"}
    for path in paths.values():
        assert path.is_file()
        assert path.parent.name == "models"
        assert path.parent.parent.name == "rapidocr"


def test_a_missing_model_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(ocr.MODEL_FILES, "det", "no-such-model.onnx")
    with pytest.raises(SourceUnavailableError, match=r"no-such-model\.onnx.*never downloaded"):
        ocr.model_paths()


def test_engine_is_built_once_per_process() -> None:
    assert ocr.engine() is ocr.engine()
    assert Path(ocr.engine().paths["rec"]).name == ocr.MODEL_FILES["rec"]


def test_reads_lines_and_words_in_image_pixels() -> None:
    lines = ocr.engine().read(_text_image("Save changes"))
    assert [line.text for line in lines] == ["Save changes"]
    (line,) = lines
    left, top, right, bottom = line.box
    assert 10 <= left <= 30 and 18 <= top <= 34 and 200 <= right <= 240 and 52 <= bottom <= 66
    assert [w.text for w in line.words] == ["Save", "changes"]
    assert line.words[0].box[2] <= line.words[1].box[0] + 1
    assert 0.5 <= line.score <= 1.0


def test_odd_sizes_are_padded_not_scaled() -> None:
    image = _text_image("Cancel")[:, :333]  # not a multiple of 32 wide
    (line,) = ocr.engine().read(np.ascontiguousarray(image))
    assert line.text == "Cancel"
    assert line.box[2] <= 333


def test_blank_image_has_no_text() -> None:
    assert ocr.engine().read(np.full((64, 64, 3), 255, dtype=np.uint8)) == []


def test_threads_default_to_one_and_follow_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(ocr.THREADS_ENV, raising=False)
    assert ocr.threads() == 1
    monkeypatch.setenv(ocr.THREADS_ENV, "2")
    assert ocr.threads() == 2
    for bad in ("0", "-1", "two", ""):
        monkeypatch.setenv(ocr.THREADS_ENV, bad)
        assert ocr.threads() == 1


def _chars(text: str) -> tuple[ocr.Word, ...]:
    """One word per character, boxes 10 px apart, as RapidOCR gives a line it takes for
    Chinese."""
    chars = [c for c in text if not c.isspace()]
    return tuple(
        ocr.Word(c, (10.0 * i, 0.0, 10.0 * i + 8, 20.0), 0.9 - 0.01 * i)
        for i, c in enumerate(chars)
    )


def test_a_line_read_a_character_at_a_time_gets_its_words_back() -> None:
    # A nested list's ◦ bullet read as "。": the whole line came one character at a time.
    words = ocr.regrouped("。Cloud Help Desk", _chars("。Cloud Help Desk"))
    assert [w.text for w in words] == ["。", "Cloud", "Help", "Desk"]
    assert words[1].box == (10.0, 0.0, 58.0, 20.0)
    assert words[1].score == pytest.approx(0.85)
    # Chinese stays one word per character; a mixed line splits where the script changes.
    assert [w.text for w in ocr.regrouped("经济 新闻", _chars("经济新闻"))] == list("经济新闻")
    mixed = ocr.regrouped("新闻News", _chars("新闻News"))
    assert [w.text for w in mixed] == ["新", "闻", "News"]
    # Words that are words already, or that do not spell the text, are left as they are.
    whole = (ocr.Word("Cloud", (0.0, 0.0, 50.0, 20.0), 0.9),)
    assert ocr.regrouped("Cloud", whole) == whole
    odd = _chars("Clod")
    assert ocr.regrouped("Cloud", odd) == odd
