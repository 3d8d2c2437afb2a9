"""The optional ONNX detector, tested with tiny YOLO-shaped models built here with onnx."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from vision_images import png

from resolver import Observation
from resolver.adapters.vision import analysis, detector
from resolver.adapters.vision.detector import Detector, set_detector
from resolver.errors import InvalidObservationError, SourceUnavailableError

SIZE = 64


def _model(output: np.ndarray, *, size: int | None = SIZE) -> bytes:
    """An ONNX model taking ``1x3xSxS`` that answers ``output`` whatever the image (plus zero
    times the image mean, so the input is used)."""
    dims = [1, 3, size, size] if size else [1, 3, "h", "w"]
    image = helper.make_tensor_value_info("images", TensorProto.FLOAT, dims)
    result = helper.make_tensor_value_info("output0", TensorProto.FLOAT, list(output.shape))
    nodes = [
        helper.make_node("ReduceMean", ["images"], ["mean"], keepdims=0),
        helper.make_node("Mul", ["mean", "zero"], ["nothing"]),
        helper.make_node("Add", ["boxes", "nothing"], ["output0"]),
    ]
    graph = helper.make_graph(
        nodes, "tiny", [image], [result],
        initializer=[numpy_helper.from_array(output.astype(np.float32), "boxes"),
                     numpy_helper.from_array(np.zeros((), np.float32), "zero")],
    )  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model.SerializeToString()


def _v8(boxes: list[tuple[float, float, float, float, float]]) -> np.ndarray:
    """YOLOv8 layout ``(1, 5, N)``: cx, cy, w, h, score (one class)."""
    return np.asarray(boxes, dtype=np.float32).T[None]


@pytest.fixture(autouse=True)
def _no_detector_after() -> None:
    yield
    set_detector(None)
    analysis.clear_cache()


def test_yolov8_output_to_widgets_in_image_pixels() -> None:
    # Two overlapping boxes (one suppressed), one low-score box (dropped); the 64x64 input
    # letterboxes a 128x64 image at scale 0.5 with 16 px of padding above and below.
    found = Detector(_model(_v8([(32, 32, 16, 8, 0.9), (33, 32, 16, 8, 0.8), (10, 50, 4, 4, 0.1)])))
    widgets = found(np.full((64, 128, 3), 255, dtype=np.uint8))
    assert len(widgets) == 1
    (widget,) = widgets
    assert widget.kind == "detected" and widget.label == "icon" and widget.score == 0.9
    assert widget.box == pytest.approx((48.0, 24.0, 80.0, 40.0))


def test_transposed_and_yolov5_layouts() -> None:
    transposed = _v8([(32, 32, 16, 8, 0.9)]).transpose(0, 2, 1)
    assert len(Detector(_model(transposed))(np.zeros((64, 64, 3), np.uint8))) == 1
    v5 = np.asarray([[[32, 32, 16, 8, 0.5, 0.9, 0.1]]], dtype=np.float32)  # obj, 2 classes
    found = Detector(_model(v5), classes=("icon", "text"), min_score=0.3)
    (widget,) = found(np.zeros((64, 64, 3), np.uint8))
    assert widget.label == "icon" and widget.score == pytest.approx(0.45)


def test_dynamic_input_size_defaults_to_640() -> None:
    assert Detector(_model(_v8([(1, 1, 1, 1, 0.1)]), size=None)).size == (640, 640)


def test_bad_models_and_outputs_are_typed_errors(tmp_path: Path) -> None:
    with pytest.raises(SourceUnavailableError, match="does not exist"):
        Detector(tmp_path / "none.onnx")
    with pytest.raises(SourceUnavailableError, match="cannot be loaded"):
        Detector(b"not an onnx model")
    flat = Detector(_model(np.zeros((1, 2), np.float32)))
    with pytest.raises(InvalidObservationError, match="shape"):
        flat(np.zeros((64, 64, 3), np.uint8))


def test_a_registered_detector_adds_rows_to_the_table(tmp_path: Path) -> None:
    path = tmp_path / "tiny.onnx"
    # One box at the centre of the letterboxed input: the middle of a 64x64 screenshot.
    path.write_bytes(_model(_v8([(32, 32, 20, 20, 0.95)])))
    shot = png(np.full((64, 64, 3), 255, dtype=np.uint8))
    set_detector(path)
    table = Observation(screenshot=shot).candidates("vision")
    rows = [i for i in range(len(table)) if table.raw_roles[i] == "detected:icon"]
    assert [table.roles[i] for i in rows] == ["button", "img"]  # two hypotheses, one target
    assert len({table.executor_ids[i] for i in rows}) == 1
    assert table.box(rows[0]) == pytest.approx((22.0, 22.0, 42.0, 42.0))
    set_detector(None)
    again = Observation(screenshot=shot).candidates("vision")
    assert "detected:icon" not in again.raw_roles


def test_environment_variable_names_the_detector(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "env.onnx"
    path.write_bytes(_model(_v8([(32, 32, 20, 20, 0.95)])))
    monkeypatch.setenv(detector.ENV_VAR, str(path))
    monkeypatch.setattr(detector, "_state", {})
    found = detector.current_detector()
    assert found is not None and found.size == (SIZE, SIZE)
