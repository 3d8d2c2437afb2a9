"""Widgets from pixels: rectangles, checkboxes, radios, icons; robust to JPEG."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from vision_images import form, jpeg

from resolver.adapters.vision.widgets import Widget, detect_widgets
from resolver.geometry import iou_one


def _found(widgets: list[Widget], kind: str, box: tuple[int, int, int, int]) -> bool:
    return any(w.kind == kind and iou_one(w.box, tuple(map(float, box))) > 0.7 for w in widgets)


@pytest.mark.parametrize("degrade", [False, True])
def test_shapes_of_a_drawn_form(degrade: bool) -> None:
    image, boxes = form()
    if degrade:  # JPEG at quality 30: ringing around every edge
        image = cv2.imdecode(np.frombuffer(jpeg(image, 30), np.uint8), cv2.IMREAD_COLOR)
    widgets = detect_widgets(image, [])
    assert _found(widgets, "rect", boxes["field"])
    assert _found(widgets, "rect", boxes["button_a"])
    assert _found(widgets, "rect", boxes["button_b"])
    assert _found(widgets, "checkbox", boxes["checkbox"])
    assert _found(widgets, "radio", boxes["radio"])
    assert _found(widgets, "icon", boxes["icon"])
    # one widget per border: no duplicates of the field's outer and inner edge
    assert sum(iou_one(w.box, tuple(map(float, boxes["field"]))) > 0.5 for w in widgets) == 1


def test_text_is_not_a_widget() -> None:
    image, boxes = form()
    # Pretend the OCR read a line exactly where the field is, and a word over the icon.
    field = tuple(map(float, boxes["field"]))
    icon = tuple(map(float, boxes["icon"]))
    widgets = detect_widgets(image, [(field, [field]), (icon, [icon])])
    assert not any(iou_one(w.box, field) > 0.6 for w in widgets)
    assert not any(w.kind == "icon" for w in widgets)


def test_blank_and_noisy_images_have_no_widgets() -> None:
    assert detect_widgets(np.full((100, 100, 3), 250, np.uint8), []) == []
    noise = np.random.default_rng(1).integers(120, 136, (100, 100, 3), dtype=np.uint8)
    assert [w for w in detect_widgets(noise, []) if w.kind == "rect"] == []


def test_widget_sizes() -> None:
    widget = Widget("rect", (10.0, 20.0, 50.0, 30.0), 1.0)
    assert (widget.width, widget.height) == (40.0, 10.0)
