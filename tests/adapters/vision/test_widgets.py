"""Widgets from pixels: rectangles, checkboxes, radios, icons; robust to JPEG."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from vision_images import fixture_png, form, jpeg

from resolver.adapters.vision.image import load_screenshot
from resolver.adapters.vision.widgets import Widget, detect_widgets, edges_of
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


def _bordered(image: np.ndarray, box: tuple[int, int, int, int]) -> None:  # type: ignore[type-arg]
    left, top, right, bottom = box
    cv2.rectangle(image, (left, top), (right - 1, bottom - 1), (120, 120, 120), 1)


def test_a_border_snug_around_its_caption_is_a_widget() -> None:
    # A small "Edit" button whose OCR line box nearly fills it: the border encloses the
    # line, so it is the button, not the text's own box.
    image = np.full((80, 200, 3), 255, dtype=np.uint8)
    button = (40, 20, 91, 53)
    _bordered(image, button)
    line = (42.0, 22.0, 90.0, 52.0)
    widgets = detect_widgets(image, [(line, [line])])
    assert iou_one(button, line) >= 0.6
    assert _found(widgets, "rect", button)
    # One widget per border: its inner edge, a few pixels inside, is not another.
    alone = detect_widgets(image, [])
    assert sum(iou_one(w.box, tuple(map(float, button))) > 0.5 for w in alone) == 1
    # A shape that does not hold the line with room to spare is still the line's box.
    tight = (40.0, 20.0, 92.0, 53.0)
    assert not _found(detect_widgets(image, [(tight, [tight])]), "rect", button)


def test_two_buttons_a_pixel_apart_are_two_widgets() -> None:
    # At a small device scale two adjacent buttons' borders touch and close into one
    # contour; the border between them divides it again.
    image = np.full((60, 200, 3), 255, dtype=np.uint8)
    edit, delete = (20, 15, 58, 41), (60, 15, 110, 41)
    _bordered(image, edit)
    _bordered(image, delete)
    widgets = detect_widgets(image, [])
    assert _found(widgets, "rect", edit) and _found(widgets, "rect", delete)
    assert not _found(widgets, "rect", (20, 15, 110, 41))
    # A field with a narrow compartment at its end (a select's chevron) stays one shape.
    field = np.full((60, 260, 3), 255, dtype=np.uint8)
    _bordered(field, (20, 15, 220, 41))
    cv2.line(field, (194, 15), (194, 40), (120, 120, 120), 1)
    assert _found(detect_widgets(field, []), "rect", (20, 15, 220, 41))


def _drawn(
    width: int, boxes: list[tuple[int, int, int, int]], lines: tuple[tuple[int, ...], ...] = ()
) -> list[Widget]:
    """The widgets found on a white image 90 px tall with ``boxes`` bordered and ``lines``
    (``x1, y1, x2, y2``) drawn."""
    image = np.full((90, width, 3), 255, dtype=np.uint8)
    for box in boxes:
        _bordered(image, box)
    for x1, y1, x2, y2 in lines:
        cv2.line(image, (x1, y1), (x2, y2), (120, 120, 120), 1)
    return detect_widgets(image, [])


def test_two_buttons_on_a_shared_border_are_two_widgets() -> None:
    # One button drawn over another, the upper one's bottom border the lower one's top (a
    # page's "Subscribe Now" over "Close search"): one contour, cut again at that border.
    upper, lower = (20, 15, 129, 37), (20, 36, 114, 60)
    widgets = _drawn(200, [upper, lower])
    assert not _found(widgets, "rect", (20, 15, 129, 60))
    assert _found(widgets, "rect", upper) and _found(widgets, "rect", (20, 37, 129, 60))
    # Two rows of a small table (a cell border through both) are not cut into rows that
    # span its columns: a grid's rows are no controls.
    found = _drawn(260, [(20, 15, 220, 37), (20, 36, 220, 60)], ((120, 15, 120, 59),))
    assert not _found(found, "rect", (20, 15, 220, 37))
    assert not _found(found, "rect", (20, 37, 220, 60))
    # A field with a rule across its middle too short to divide it stays one shape.
    field = _drawn(260, [(20, 15, 220, 60)], ((40, 37, 200, 37),))
    assert _found(field, "rect", (20, 15, 220, 60))


def _ink_box(image: np.ndarray, region: tuple[int, int, int, int]) -> tuple[float, ...]:  # type: ignore[type-arg]
    """The box of the dark pixels in ``region``: what OCR reports for a line drawn there."""
    x0, y0, x1, y1 = region
    ys, xs = np.nonzero((image[y0:y1, x0:x1] < 200).all(axis=2))
    return (float(xs.min() + x0), float(ys.min() + y0), float(xs.max() + x0 + 1),
            float(ys.max() + y0 + 1))  # fmt: skip


def test_a_field_whose_outline_text_touches_is_still_a_field() -> None:
    # A 1 px field between two lines of text whose descenders and ascenders touch its top
    # and bottom borders, its placeholder touching it from inside: neither its outer nor
    # its inner contour is a rectangle. With the words' edges erased, it is one again.
    image = np.full((110, 320, 3), 255, dtype=np.uint8)
    field = (10, 40, 230, 66)
    cv2.putText(image, "Newsletter: zpravy", (12, 34), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 0), 2)
    cv2.putText(image, "Odhlasit kdykoliv", (12, 80), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 0), 2)
    above, below = _ink_box(image, (0, 0, 320, 40)), _ink_box(image, (0, 67, 320, 110))
    _bordered(image, field)
    cv2.putText(image, "zadejte e-mail", (14, 60), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (117,) * 3, 1)
    inner = _ink_box(image, (11, 41, 229, 65))
    lines = [(box, [box]) for box in (above, inner, below)]
    widgets = detect_widgets(image, lines)
    assert _found(widgets, "rect", field)
    # Only rectangles come of it: no word leaves a checkbox behind.
    assert not any(w.kind in ("checkbox", "radio") for w in widgets)


def _broken_image_icon(image: np.ndarray, left: int, top: int) -> None:  # type: ignore[type-arg]
    """A 16 px torn picture (half a frame, a hill, a sun), as a browser draws an image that
    did not load."""
    cv2.line(image, (left, top), (left, top + 15), (90, 90, 90), 1)
    cv2.line(image, (left, top + 15), (left + 15, top + 15), (90, 90, 90), 1)
    hill = np.array([[left + 2, top + 14], [left + 7, top + 6], [left + 13, top + 14]], np.int32)
    cv2.fillPoly(image, [hill], (60, 150, 60))
    cv2.circle(image, (left + 11, top + 4), 2, (40, 120, 220), -1)


def test_icons_stacked_a_line_apart_are_one_icon_per_line_beside_them() -> None:
    image = np.full((200, 300, 3), 255, np.uint8)
    for top in (20, 38, 56):  # touching: one blob three icons tall
        _broken_image_icon(image, 40, top)
    lines = [((60.0, y - 3.0, 130.0, y + 19.0), [(60.0, y - 3.0, 130.0, y + 19.0)]) for y in
             (20, 38, 56)]  # fmt: skip
    icons = [w for w in detect_widgets(image, lines) if w.kind == "icon"]
    assert len(icons) == 3
    assert [round((w.box[1] + w.box[3]) / 2) for w in sorted(icons, key=lambda w: w.box[1])] == [
        pytest.approx(27, abs=3),
        pytest.approx(45, abs=3),
        pytest.approx(63, abs=3),
    ]
    # Without a text line beside each, a tall blob is no stack of icons (a scroll bar).
    assert [w for w in detect_widgets(image, []) if w.kind == "icon"] == []


def test_an_icon_between_two_words_of_a_line_is_seen() -> None:
    image = np.full((60, 300, 3), 255, np.uint8)
    _broken_image_icon(image, 100, 20)
    line = (10.0, 17.0, 200.0, 39.0)
    words = [(10.0, 17.0, 95.0, 39.0), (120.0, 17.0, 200.0, 39.0)]
    assert _found(detect_widgets(image, [(line, words)]), "icon", (100, 20, 116, 36))
    # Read as one word over the icon, it is text.
    assert not any(w.kind == "icon" for w in detect_widgets(image, [(line, [line])]))


def test_a_button_under_a_huge_word_box_is_no_letter_of_it() -> None:
    # A logo drawn as text: the OCR box of its word reaches over the small button below.
    image = np.full((300, 400, 3), 255, dtype=np.uint8)
    cv2.rectangle(image, (10, 240), (82, 258), (118, 118, 118), 1)
    cv2.putText(image, "Go", (30, 254), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 1)
    logo = (20.0, 20.0, 380.0, 262.0)
    caption = (28.0, 243.0, 50.0, 256.0)
    widgets = detect_widgets(image, [(logo, [logo]), (caption, [caption])])
    assert _found(widgets, "rect", (10, 240, 83, 259))
    # A small shape inside a word of about its size is still one of its letters.
    letter = (8.0, 236.0, 86.0, 262.0)
    widgets = detect_widgets(image, [(letter, [letter]), (caption, [caption])])
    assert not _found(widgets, "rect", (10, 240, 83, 259))


def test_a_button_whose_caption_box_reaches_above_its_border_is_a_widget() -> None:
    # A small bordered "Follow" button: OCR pads its caption's line box above the border's
    # top, so the border encloses the line only across; it is no letter of the caption.
    image = np.full((80, 200, 3), 255, dtype=np.uint8)
    button = (40, 20, 105, 43)
    _bordered(image, button)
    line = (51.0, 15.0, 90.0, 42.0)
    widgets = detect_widgets(image, [(line, [line])])
    assert _found(widgets, "rect", button)
    # A shape the caption's box reaches past on one side is still one of its letters.
    wide = (45.0, 15.0, 104.0, 42.0)
    assert not _found(detect_widgets(image, [(wide, [wide])]), "rect", button)


def test_a_round_letter_read_alone_is_no_widget() -> None:
    # An "o" read as a word of its own: its square sticks out of the tight OCR box by a
    # pixel or two each side, which is no button's padding.
    image = np.full((60, 80, 3), 255, dtype=np.uint8)
    cv2.putText(image, "o", (30, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 0), 2)
    (alone,) = detect_widgets(image, [])
    left, top, right, bottom = alone.box
    word = (left + 2, top - 6, right - 2, bottom + 4)
    assert detect_widgets(image, [(word, [word])]) == []


def test_a_checkbox_read_as_a_character_is_still_a_checkbox() -> None:
    # OCR reads an unchecked box as the one character "0": the box is what the word was
    # read from, not one of its letters.
    image = np.full((80, 120, 3), 255, dtype=np.uint8)
    cv2.rectangle(image, (26, 29), (39, 42), (118, 118, 118), 1)
    word = (22.0, 23.0, 40.0, 48.0)
    assert _found(detect_widgets(image, [(word, [word])]), "checkbox", (25, 28, 42, 45))
    # A small square inside a longer word is still one of its letters ("口" in a line).
    longer = (22.0, 23.0, 80.0, 48.0)
    assert not _found(detect_widgets(image, [(longer, [longer])]), "checkbox", (25, 28, 42, 45))


def test_an_icon_under_a_letter_sticking_out_of_its_word_box_is_seen() -> None:
    # "Suivre ..." above a broken image: the round side of the "S" sticks out of its OCR
    # box by a pixel, a few pixels above the icon, and must not join it into one blob.
    image = np.full((80, 300, 3), 255, np.uint8)
    cv2.putText(image, "Suivre", (9, 16), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 2)
    _broken_image_icon(image, 8, 20)
    # The word's box, a pixel in from its first stroke, padded down to the icon's top row:
    # the blob of both is centred inside it, and is no icon.
    above = (11.0, 0.0, 80.0, 21.0)
    after = (26.0, 18.0, 120.0, 38.0)
    lines = [(above, [above]), (after, [after])]
    assert _found(detect_widgets(image, lines), "icon", (8, 20, 24, 36))


def _pill(image: np.ndarray, box: tuple[int, int, int, int], grey: int) -> None:  # type: ignore[type-arg]
    """A light border with fully rounded ends (a stadium) around ``box``, anti-aliased."""
    left, top, right, bottom = box
    radius = (bottom - top) // 2
    color, line = (grey, grey, grey), cv2.LINE_AA
    cv2.line(image, (left + radius, top), (right - radius, top), color, 1, line)
    cv2.line(image, (left + radius, bottom), (right - radius, bottom), color, 1, line)
    cv2.ellipse(image, (left + radius, top + radius), (radius, radius), 0, 90, 270, color, 1, line)
    cv2.ellipse(image, (right - radius, top + radius), (radius, radius), 0, -90, 90, color, 1, line)


def test_a_button_with_fully_rounded_ends_is_a_widget() -> None:
    # A "Share" pill twice as wide as tall (a stadium fills 89% of its box) in a pale grey.
    image = np.full((80, 200, 3), 255, dtype=np.uint8)
    _pill(image, (60, 20, 124, 50), 215)
    cv2.putText(image, "Share", (72, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (60, 60, 60), 1)
    assert _found(detect_widgets(image, []), "rect", (60, 20, 125, 51))
    # An ellipse of that size (79% of its box) is no button's border.
    oval = np.full((80, 200, 3), 255, dtype=np.uint8)
    cv2.ellipse(oval, (92, 35), (32, 15), 0, 0, 360, (150, 150, 150), 1, cv2.LINE_AA)
    assert not any(w.kind == "rect" for w in detect_widgets(oval, []))


def test_edges_given_by_the_caller_find_the_same_widgets() -> None:
    pixels = load_screenshot(fixture_png("settings")).pixels
    assert detect_widgets(pixels, [], edges_of(pixels)) == detect_widgets(pixels, [])


@pytest.mark.parametrize("thickness", [1, 2])
def test_an_icon_sized_button_under_a_wider_one_is_a_bordered_box(thickness: int) -> None:
    # An empty 16 x 21 px button drawn right under a wider one, on its bottom border (an
    # unstyled page's icon button): the two outlines close into one L-shaped contour, and
    # the small button is found by the inside of its border alone, a 13 x 18 px contour
    # whose traced polygon encloses 12 x 17 px.
    image = np.full((90, 200, 3), 255, dtype=np.uint8)
    for left, top, right, bottom in ((20, 15, 73, 37), (20, 36, 36, 57)):
        image[top:bottom, left:right] = 240
        cv2.rectangle(image, (left, top), (right - 1, bottom - 1), (118, 118, 118), thickness)
    widgets = detect_widgets(image, [])
    assert _found(widgets, "rect", (20, 15, 73, 37))
    assert _found(widgets, "rect", (22, 38, 35, 56))  # the inside of its border
    assert not any(w.kind == "icon" for w in widgets)
    # A stroke inside such a small outline (letters run together, a glyph) makes it no box
    # by its traced area: only an empty outline is taken so.
    cv2.line(image, (27, 44), (29, 49), (40, 40, 40), 1)
    assert not _found(detect_widgets(image, []), "rect", (22, 38, 35, 56))


def _field_with_value() -> tuple[np.ndarray, tuple[int, int, int, int]]:  # type: ignore[type-arg]
    """A 1 px field border whose value runs into its right side, and an underlined link
    just above that touches its top: the outline closes with both into one contour."""
    image = np.full((120, 320, 3), 255, dtype=np.uint8)
    field = (8, 48, 187, 72)
    _bordered(image, field)
    cv2.putText(image, "https://example.com/ageitg", (13, 66), cv2.FONT_HERSHEY_SIMPLEX,
                0.55, (30, 30, 30), 1, cv2.LINE_AA)  # fmt: skip
    cv2.putText(image, "CONNECT", (10, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (30, 30, 30), 1)
    cv2.line(image, (90, 47), (120, 47), (200, 60, 20), 1)  # a link's underline on the border
    return image, field


def test_a_field_whose_value_runs_into_its_border_is_found_from_its_text() -> None:
    image, field = _field_with_value()
    value = (12.0, 52.0, 190.0, 70.0)
    lines = [(value, [value]), ((9.0, 28.0, 85.0, 44.0), [(9.0, 28.0, 85.0, 44.0)])]
    assert _found(detect_widgets(image, lines), "rect", field)
    # Its text starting no further in than the outline, the outline is the text's own box.
    flush = (8.0, 52.0, 190.0, 70.0)
    assert not _found(detect_widgets(image, [(flush, [flush])]), "rect", field)


def _word_boxes(image: np.ndarray, region: tuple[int, int, int, int]) -> list[tuple[float, ...]]:  # type: ignore[type-arg]
    """The dark runs of ``region`` split at blanks wider than 5 px: what OCR reports as the
    words of a line drawn there."""
    x0, y0, x1, y1 = region
    ink = (image[y0:y1, x0:x1] < 200).all(axis=2)
    columns = np.flatnonzero(ink.any(axis=0))
    cuts = np.flatnonzero(np.diff(columns) > 5)
    starts = [columns[0], *columns[cuts + 1]]
    ends = [*columns[cuts], columns[-1]]
    boxes = []
    for start, end in zip(starts, ends, strict=True):
        rows = np.flatnonzero(ink[:, start : end + 1].any(axis=1))
        boxes.append((float(x0 + start), float(y0 + rows[0]), float(x0 + end + 1),
                      float(y0 + rows[-1] + 1)))  # fmt: skip
    return boxes


def test_a_select_read_in_one_line_with_its_label_and_the_next_word_is_found() -> None:
    # Three unstyled controls stacked, each touching the next (a select above, wider; a
    # field below), and the middle select's value read as one OCR line with the label
    # before it and the word after it: "Size Any size Or". The select's own contour runs
    # into its neighbours' and its value's descender, and no border goes round the whole
    # line; one goes round the run of words between two sides that cross the line.
    image = np.full((90, 360, 3), 255, np.uint8)
    font = cv2.FONT_HERSHEY_SIMPLEX
    for text, x in (("Size", 40), ("Any size", 88), ("Or", 182)):
        cv2.putText(image, text, (x, 46), font, 0.45, (0, 0, 0), 1)
    words = _word_boxes(image, (30, 33, 240, 50))
    assert len(words) == 3
    line = (words[0][0] - 2.0, 31.0, words[-1][2] + 2.0, 50.0)
    plain = detect_widgets(image, [(line, words)])
    select = (81, 32, 173, 50)
    for box in ((96, 13, 256, 32), select, (120, 50, 295, 69)):
        _bordered(image, box)
    assert _found(detect_widgets(image, [(line, words)]), "rect", select)
    # Without the controls, the words of the line are no control.
    assert [w for w in plain if w.kind == "rect"] == []


def test_a_frame_whose_top_side_a_legend_breaks_is_a_frame() -> None:
    # A fieldset: its top side stops a few pixels before its legend and goes on after it,
    # so no contour closes round it; one field inside.
    image = np.full((140, 460, 3), 255, np.uint8)
    _bordered(image, (10, 40, 441, 111))
    image[30:52, 20:112] = 255  # the legend's gap in the top side
    cv2.putText(image, "Find a story", (24, 46), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1)
    _bordered(image, (24, 62, 301, 87))
    legend = _ink_box(image, (21, 28, 111, 56))
    line = (legend[0] - 2, legend[1] - 3, legend[2] + 2, legend[3] + 3)
    widgets = detect_widgets(image, [(line, [legend])])
    assert _found(widgets, "frame", (10, 40, 441, 111))
    assert _found(widgets, "rect", (24, 62, 301, 87))
    # A line crossed by a rule (a heading between two lines) with nothing below: no frame.
    ruled = np.full((140, 460, 3), 255, np.uint8)
    cv2.line(ruled, (10, 40), (440, 40), (160, 160, 160), 1)
    ruled[30:52, 20:112] = 255
    cv2.putText(ruled, "Find a story", (24, 46), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1)
    assert not any(w.kind == "frame" for w in detect_widgets(ruled, [(line, [legend])]))
