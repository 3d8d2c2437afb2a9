"""Layout: text runs, text into widgets, glyph icons, labels, table rows, pre-order."""

from __future__ import annotations

import cv2
import numpy as np
from vision_images import VISION_FIXTURES

from resolver.adapters.vision.layout import (
    ITEM_LINE_WORDS,
    Element,
    TextItem,
    disclosures,
    ink_height,
    item_gaps,
    layout,
    run_underlined,
    split_line,
    stroke_width,
    text_color,
    underlined,
    words_box,
    words_run,
)
from resolver.adapters.vision.ocr import TextLine, Word
from resolver.adapters.vision.widgets import Widget

WHITE = np.full((200, 600, 3), 255, dtype=np.uint8)


def _line(text: str, box: tuple[float, float, float, float], words: list[Word] = ()) -> TextLine:  # type: ignore[assignment]
    return TextLine(text, box, 0.99, tuple(words))


def _by_name(elements: list[Element], name: str) -> list[Element]:
    return [e for e in elements if e.name == name]


def test_text_color_reads_the_ink() -> None:
    image = WHITE.copy()
    cv2.putText(image, "Link", (10, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (200, 60, 20), 2)
    color = text_color(image, (5, 10, 90, 50))
    assert color is not None and color[0] > 150 and color[2] < 80
    assert text_color(WHITE, (5, 10, 90, 50)) is None


def test_a_line_splits_where_its_colour_changes() -> None:
    image = WHITE.copy()
    cv2.putText(image, "Have an account?", (10, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (90, 90, 90), 2)
    cv2.putText(image, "Sign in", (240, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (210, 70, 20), 2)
    words = [Word("Have", (10, 22, 60, 46), 0.99), Word("an", (66, 22, 90, 46), 0.99),
             Word("account?", (96, 22, 225, 46), 0.99), Word("Sign", (240, 22, 290, 46), 0.99),
             Word("in", (296, 22, 320, 46), 0.99)]  # fmt: skip
    items = split_line(image, _line("Have an account? Sign in", (8, 20, 322, 48), words))
    assert [i.text for i in items] == ["Have an account?", "Sign in"]
    assert items[1].box[0] == 240


def test_a_washed_out_link_still_splits_from_grey_text() -> None:
    # A link blue that JPEG chroma subsampling has washed out is nearer to the grey text
    # before it than the colour distance that splits, but its hue still tells.
    image = WHITE.copy()
    grey, washed = (118, 113, 112), (112, 76, 69)  # BGR
    assert np.linalg.norm(np.subtract(grey, washed)) < 90
    cv2.putText(image, "Have an account?", (10, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.7, grey, 2)
    cv2.putText(image, "Sign in", (240, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.7, washed, 2)
    words = [Word("account?", (96, 22, 225, 46), 0.99), Word("Sign", (240, 22, 290, 46), 0.99),
             Word("in", (296, 22, 320, 46), 0.99)]  # fmt: skip
    items = split_line(image, _line("account? Sign in", (94, 20, 322, 48), words))
    assert [i.text for i in items] == ["account?", "Sign in"]
    # Two greys as far apart as that are one run (set a space apart: a wider blank would
    # split a short line by itself).
    image = WHITE.copy()
    cv2.putText(image, "Have an account?", (10, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.7, grey, 2)
    cv2.putText(image, "Sign in", (188, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (70, 70, 70), 2)
    words = [Word("account?", (96, 22, 180, 46), 0.99), Word("Sign", (188, 22, 238, 46), 0.99),
             Word("in", (244, 22, 268, 46), 0.99)]  # fmt: skip
    assert len(split_line(image, _line("account? Sign in", (94, 20, 270, 48), words))) == 1


def test_runs_of_chinese_read_a_character_at_a_time_are_joined_without_spaces() -> None:
    # One OCR line over a navigation bar, its words one character each: the runs are split
    # at the wide blank between links, and each reads as written ("经济", not "经 济").
    image = WHITE.copy()
    boxes = {"经": 10, "济": 23, "生": 80, "活": 93}
    for x in boxes.values():
        cv2.rectangle(image, (x + 2, 24), (x + 10, 40), (30, 30, 30), -1)
    words = [Word(c, (x, 22, x + 13, 42), 0.99) for c, x in boxes.items()]
    items = split_line(image, _line("经济生活", (8, 20, 108, 44), words))
    assert [i.text for i in items] == ["经济", "生活"]


def test_one_colour_line_keeps_its_text_and_the_words_span() -> None:
    words = [Word("Remember", (40, 20, 120, 44), 0.99), Word("me", (126, 20, 150, 44), 0.99)]
    (item,) = split_line(WHITE, _line("Remember me", (10, 18, 152, 46), words))
    assert item.text == "Remember me"
    assert item.box == (40, 18, 150, 46)  # the checkbox the line box took in is left out


def test_text_goes_into_the_smallest_widget_and_labels_name_controls() -> None:
    lines = [
        _line("OK", (130, 108, 160, 126)),
        _line("Email", (20, 20, 70, 38)),
        _line("Remember me", (44, 150, 160, 170)),
        _line("×", (560, 10, 576, 28)),
    ]
    widgets = [
        Widget("rect", (100.0, 100.0, 190.0, 134.0), 0.95, fill=(250.0, 120.0, 20.0)),
        Widget("rect", (0.0, 90.0, 600.0, 200.0), 0.95),  # a panel around everything
        Widget("rect", (20.0, 42.0, 320.0, 74.0), 0.95),
        Widget("checkbox", (20.0, 152.0, 36.0, 168.0), 0.9),
    ]
    elements = layout(WHITE, lines, widgets)
    (button,) = [e for e in elements if e.roles and e.roles[0][0] == "button" and e.name == "OK"]
    caption = elements[elements.index(button) + 1]
    assert caption.name == "OK" and elements[caption.parent] is not None
    assert elements[caption.parent].name == "OK"
    field = next(e for e in elements if e.roles and e.roles[0][0] == "textbox")
    assert field.name == "Email"  # the label above it
    box = next(e for e in elements if e.raw_role == "checkbox")
    assert box.name == "Remember me"  # the label to its right
    icon = next(e for e in elements if e.raw_role == "glyph")
    assert (icon.name, icon.value) == ("Close", "×")
    assert _by_name(elements, "Email")  # the label stays a text element
    for i, element in enumerate(elements):
        assert element.parent < i


def test_a_line_read_over_a_checkbox_between_its_words_is_two_labels() -> None:
    # "[ ] Include Unpublished [ ] Include Replies": OCR reads the two labels as one line
    # and skips the second box; each box is named by the words after it.
    words = [Word("Include", (164, 34, 214, 57), 0.99),
             Word("Unpublished", (218, 34, 299, 57), 0.99),
             Word("Include", (318, 34, 368, 57), 0.99),
             Word("Replies", (373, 34, 421, 57), 0.99)]  # fmt: skip
    line = _line("Include Unpublished Include Replies", (143, 34, 421, 57), words)
    boxes = [Widget("checkbox", (147.0, 37.0, 163.0, 53.0), 0.9),
             Widget("checkbox", (301.0, 37.0, 317.0, 53.0), 0.9)]  # fmt: skip
    assert [i.text for i in split_line(WHITE, line, boxes)] == [
        "Include Unpublished",
        "Include Replies",
    ]
    elements = layout(WHITE, [line], boxes)
    named = sorted((e.box[0], e.name) for e in elements if e.raw_role == "checkbox")
    assert named == [(147.0, "Include Unpublished"), (301.0, "Include Replies")]
    # a box off the line, or one the words overlap, splits nothing
    for other in ((301.0, 70.0, 317.0, 86.0), (290.0, 37.0, 306.0, 53.0)):
        off = [boxes[0], Widget("checkbox", other, 0.9)]
        assert len(split_line(WHITE, line, off)) == 1


def test_a_label_above_a_field_indented_under_it_names_the_field() -> None:
    # A definition list: the term at the left, the field indented 40 px on the line below.
    lines = [_line("User name:", (9, 160, 84, 180)), _line("Password:", (9, 200, 75, 220))]
    widgets = [
        Widget("rect", (48.0, 178.0, 225.0, 199.0), 0.95),
        Widget("rect", (48.0, 218.0, 225.0, 239.0), 0.95),
    ]
    elements = layout(WHITE, lines, widgets)
    fields = [e for e in elements if e.roles and e.roles[0][0] == "textbox"]
    assert [f.name for f in fields] == ["User name:", "Password:"]
    # A text farther left than a list's indent names nothing.
    far_field = [Widget("rect", (60.0, 218.0, 225.0, 239.0), 0.95)]
    far = layout(WHITE, [_line("Password:", (0, 200, 40, 220))], far_field)
    assert [e.name for e in far if e.roles and e.roles[0][0] == "textbox"] == [""]


def test_chinese_characters_read_one_at_a_time_split_on_hue_not_on_shade() -> None:
    # One glyph's few strokes give its shade only roughly: black beside grey 61 is one run;
    # a link's blue beside black is two.
    def run(first: tuple[int, int, int], second: tuple[int, int, int]) -> list[str]:
        image = WHITE.copy()
        cv2.rectangle(image, (12, 24), (20, 40), first, -1)
        cv2.rectangle(image, (25, 24), (33, 40), second, -1)
        words = [Word("电", (10, 22, 22, 42), 0.99), Word("视", (23, 22, 35, 42), 0.99)]
        return [i.text for i in split_line(image, _line("电视", (8, 20, 37, 44), words))]

    assert run((0, 0, 0), (61, 61, 61)) == ["电视"]
    assert run((200, 60, 20), (0, 0, 0)) == ["电", "视"]


def test_a_letter_spaced_chinese_caption_names_its_button_as_written() -> None:
    # "登录" drawn with wide letter-spacing: OCR reads two runs, one character each.
    lines = [_line("登", (60, 98, 72, 116)), _line("录", (82, 98, 94, 116))]
    widgets = [Widget("rect", (51.0, 93.0, 104.0, 120.0), 0.95, fill=(240.0, 240.0, 240.0))]
    elements = layout(WHITE, lines, widgets)
    (button,) = [e for e in elements if e.kind == "control"]
    assert button.name == "登录"


def test_a_box_glyph_is_a_checkbox_named_by_its_label() -> None:
    # A small checkbox OCR reads as "☐": free, or inside the shape its outline made.
    glyph = Word("☐", (20, 150, 30, 172), 0.9)
    label = Word("Remember", (44, 150, 120, 172), 0.99), Word("me", (126, 150, 150, 172), 0.99)
    line = _line("☐ Remember me", (18, 150, 152, 172), [glyph, *label])
    for widgets in ([], [Widget("rect", (18.0, 149.0, 32.0, 173.0), 0.9)]):
        elements = layout(WHITE, [line], widgets)
        (box,) = [e for e in elements if e.roles and e.roles[0][0] == "checkbox"]
        assert (box.name, box.raw_role) == ("Remember me", "checkbox")
        assert box.box[0] <= 25 <= box.box[2]
        assert not [e for e in elements if e.name == "☐"]
    # Another glyph is no checkbox.
    star = _line("★ Remember me", (18, 150, 152, 172), [Word("★", glyph.box, 0.9), *label])
    assert not [e for e in layout(WHITE, [star], []) if e.roles[0][0] == "checkbox"]


def test_aligned_bands_become_named_table_rows() -> None:
    lines = []
    for i, person in enumerate(["Alice Johnson", "Bob Smith", "Carol Diaz"]):
        top = 20 + 40 * i
        lines += [
            _line(person, (10, top, 120, top + 20)),
            _line("Active", (200, top, 250, top + 20)),
            _line("Edit", (400, top, 430, top + 20)),
        ]
    lines.append(_line("Footer note", (10, 180, 100, 196)))
    elements = layout(WHITE, lines, [])
    rows = [e for e in elements if e.kind == "row"]
    assert [r.name for r in rows] == [
        "Alice Johnson Active Edit",
        "Bob Smith Active Edit",
        "Carol Diaz Active Edit",
    ]
    edits = _by_name(elements, "Edit")
    assert len(edits) == 3 and all(elements[e.parent].kind == "row" for e in edits)
    assert elements[elements.index(_by_name(elements, "Footer note")[0])].parent == -1


def test_a_disclosure_triangle_makes_its_text_a_button_outside_the_details_border() -> None:
    lines = [_line("▶Advanced options", (20, 60, 180, 84)), _line("Notes", (20, 120, 80, 140))]
    details = Widget("rect", (10.0, 52.0, 590.0, 92.0), 0.95)  # the <details> border
    elements = layout(WHITE, lines, [details])
    (summary,) = _by_name(elements, "Advanced options")
    assert summary.roles[0][0] == "button" and summary.parent == -1
    assert not _by_name(elements, "▶Advanced options")
    assert _by_name(elements, "Notes")[0].roles[0][0] != "button"


def test_a_triangle_read_apart_joins_the_text_it_opens() -> None:
    items = disclosures(
        [
            TextItem("▸", (20, 60, 30, 84), 0.9, None),
            TextItem("More", (36, 60, 80, 84), 0.9, None),
            TextItem("▶", (300, 60, 310, 84), 0.9, None),
        ]
    )
    assert [(i.text, i.disclosure) for i in items] == [("More", True), ("▶", False)]
    assert items[0].box[0] == 20  # the triangle is part of what is clicked


def test_ink_height_follows_the_font_size() -> None:
    image = WHITE.copy()
    cv2.putText(image, "Heading", (10, 60), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (40, 40, 40), 2)
    cv2.putText(image, "body text", (10, 140), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (40, 40, 40), 1)
    big = ink_height(image, (5, 20, 200, 75))
    small = ink_height(image, (5, 122, 200, 150))
    assert big >= 2 * small > 0
    assert ink_height(WHITE, (5, 20, 200, 75)) == 0.0


def _underlined_word(image: np.ndarray, word: str, x: int, y: int, under: bool) -> None:
    """``word`` in green (a site's own link colour) with its baseline at ``y``, underlined
    one pixel below it, with breaks where descenders cross, as browsers draw it."""
    cv2.putText(image, word, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (40, 160, 60), 2)
    if under:
        (width, _), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_SIMPLEX, 0.7, 2)
        row = image[y + 2 : y + 4, x : x + width]
        keep = ~(row != 255).any(axis=(0, 2))  # skip ink: no line where a descender is
        row[:, keep] = (40, 160, 60)


def test_an_underline_marks_a_link_in_any_colour() -> None:
    image = WHITE.copy()
    _underlined_word(image, "SpiceWorld", 10, 40, under=True)
    _underlined_word(image, "Newsletters", 10, 100, under=True)
    _underlined_word(image, "SpiceWorld", 210, 40, under=False)
    _underlined_word(image, "Newsletters", 210, 100, under=False)
    assert underlined(image, (6, 20, 150, 52), "SpiceWorld")
    assert underlined(image, (6, 80, 160, 112), "Newsletters")
    assert not underlined(image, (206, 20, 350, 52), "SpiceWorld")
    assert not underlined(image, (206, 80, 360, 112), "Newsletters")
    # A border under the whole box, wider than the letters, is no underline, nor is a grey
    # border under black words that a tight box cuts to their width; nor is the bar of a
    # lone glyph.
    boxed = WHITE.copy()
    cv2.putText(boxed, "Log In", (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (40, 40, 40), 2)
    boxed[46:48, 8:120] = 60
    assert not underlined(boxed, (10, 20, 110, 48), "Log In")
    columns = np.flatnonzero((boxed[20:46] < 128).any(axis=(0, 2)))
    tight = (float(columns[0]), 20.0, float(columns[-1] + 1), 48.0)
    boxed[46:48, 8:120] = 255
    boxed[46:48, columns[0] : columns[-1] + 1] = 150  # grey, as wide as the black words
    assert underlined(boxed, tight, "Log In")  # (no colour to tell it by)
    assert not underlined(boxed, tight, "Log In", (40.0, 40.0, 40.0))
    assert underlined(image, (6, 20, 150, 52), "SpiceWorld", (40.0, 160.0, 60.0))
    # The bottom edge of a button drawn in the caption's colour, which goes on past the
    # caption's box on both sides (its rounded sides left out of the box).
    button = WHITE.copy()
    cv2.putText(button, "Follow", (30, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (60, 60, 60), 2)
    button[45:47, 16:128] = 60
    columns = np.flatnonzero((button[20:44] < 128).any(axis=(0, 2)))
    caption = (float(columns[0]), 20.0, float(columns[-1] + 1), 47.0)
    assert not underlined(button, caption, "Follow", (60.0, 60.0, 60.0))
    button[45:47, 16 : int(caption[0])] = 255  # an underline that ends with its text
    assert underlined(button, caption, "Follow", (60.0, 60.0, 60.0))
    plus = WHITE.copy()
    cv2.putText(plus, "+", (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (40, 40, 40), 2)
    assert not underlined(plus, (16, 20, 40, 44), "+")


def test_links_side_by_side_are_underlined_word_by_word() -> None:
    # "Login Join": two links in one run; each underline stops at the space between them,
    # and breaks around the descender of the "g".
    image = WHITE.copy()
    _underlined_word(image, "Login", 10, 40, under=True)
    _underlined_word(image, "Join", 90, 40, under=True)
    words = (
        Word("Login", (8.0, 20.0, 80.0, 50.0), 0.9),
        Word("Join", (88.0, 20.0, 145.0, 50.0), 0.9),
    )
    run = TextItem("Login Join", (6.0, 20.0, 150.0, 50.0), 0.9, (40.0, 160.0, 60.0), words=words)
    assert not underlined(image, run.box, run.text, run.color)
    assert run_underlined(image, run)
    plain = WHITE.copy()
    _underlined_word(plain, "Login", 10, 40, under=False)
    _underlined_word(plain, "Join", 90, 40, under=False)
    assert not run_underlined(plain, run)


def test_neither_an_underline_nor_the_line_above_makes_text_taller() -> None:
    image = WHITE.copy()
    _underlined_word(image, "SpiceWorld", 10, 60, under=True)
    _underlined_word(image, "SpiceWorld", 210, 60, under=False)
    alone = ink_height(image, (206, 40, 350, 72))
    assert ink_height(image, (6, 40, 150, 72)) == alone > 0
    # The box of a link taken in the underline and descenders of the link above it.
    _underlined_word(image, "Happy gyp", 10, 34, under=True)
    assert ink_height(image, (6, 36, 150, 72)) == alone


def test_ink_of_low_contrast_text_is_measured_against_its_background() -> None:
    # Black text on a #161616 page (a page whose style sheet did not load over a dark
    # theme's background): 66 apart, under the fixed contrast, and still the text's ink.
    dark = np.full((200, 600, 3), 22, dtype=np.uint8)
    cv2.putText(dark, "Heading", (10, 60), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (0, 0, 0), 4)
    cv2.putText(dark, "body text", (10, 140), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1)
    big, small = ink_height(dark, (5, 20, 200, 75)), ink_height(dark, (5, 122, 200, 150))
    assert big >= 2 * small > 0
    bold, regular = stroke_width(dark, (5, 20, 200, 75)), stroke_width(dark, (5, 122, 200, 150))
    assert bold >= 1.6 * regular > 0
    # Noise a few levels off the background is no ink.
    noisy = np.full((200, 600, 3), 22, dtype=np.uint8)
    noisy[30:50, 20:120] += np.uint8(10)
    assert ink_height(noisy, (5, 20, 200, 75)) == 0.0
    assert stroke_width(noisy, (5, 20, 200, 75)) == 0.0


def test_large_free_text_is_a_heading() -> None:
    image = WHITE.copy()
    cv2.putText(image, "Sign in", (10, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (40, 40, 40), 2)
    lines = [_line("Sign in", (8, 10, 160, 46))]  # OCR boxes of one height: only the ink
    for k, word in enumerate(("Email", "Password", "Remember")):
        top = 60 + 40 * k
        cv2.putText(image, word, (10, top + 24), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (40, 40, 40), 1)
        lines.append(_line(word, (8, top, 120, top + 36)))
    elements = layout(image, lines, [])
    assert _by_name(elements, "Sign in")[0].roles[0][0] == "heading"
    assert _by_name(elements, "Email")[0].roles[0][0] == "text"


def _cell(name: str, box: tuple[float, float, float, float]) -> Element:
    return Element("text", "text", box, name, "", (("text", 0.6),))


def test_a_caption_over_aligned_cells_names_a_table() -> None:
    image = np.full((400, 900, 3), 255, dtype=np.uint8)
    lines = [_line("Opening hours", (500, 100, 640, 124))]
    for k, (day, hours) in enumerate((("Mon", "8-18"), ("Sat", "9-13"), ("Sun", "Closed"))):
        top = 130 + 28 * k
        lines += [_line(day, (502, top, 560, top + 22)), _line(hours, (660, top, 740, top + 22))]
    # a form at the left, on the same lines: not part of the table
    lines += [_line("City", (20, 130, 60, 152)), _line("Phone", (20, 158, 70, 180))]
    elements = layout(image, lines, [Widget("rect", (120.0, 128.0, 400.0, 154.0), 0.9)])
    (table,) = [e for e in elements if e.raw_role == "table"]
    assert table.name == "Opening hours" and table.roles[0][0] == "table"
    inside = {e.name for e in elements if e.parent == elements.index(table)}
    assert inside == {"Opening hours", "Mon", "8-18", "Sat", "9-13", "Sun", "Closed"}


def test_an_empty_field_is_no_table_cell() -> None:
    lines = [_line("Billing", (20, 10, 100, 34))]
    widgets = []
    for k, label in enumerate(("Name", "Company", "City")):
        top = 40 + 34 * k
        lines.append(_line(label, (20, top, 90, top + 22)))
        widgets.append(Widget("rect", (120.0, top - 2.0, 420.0, top + 26.0), 0.9))
    elements = layout(WHITE, lines, widgets)
    assert not [e for e in elements if e.raw_role == "table"]


def test_a_column_header_over_buttons_names_no_table() -> None:
    lines = [_line("Status", (300, 10, 360, 32))]
    widgets = []
    for k in range(3):
        top = 40 + 34 * k
        lines += [
            _line("Active", (300, top, 360, top + 22)),
            _line("Edit", (440, top, 470, top + 22)),
        ]
        widgets.append(Widget("rect", (425.0, top - 4.0, 485.0, top + 26.0), 0.9))
    elements = layout(WHITE, lines, widgets)
    assert [e.name for e in elements if e.kind == "control"] == ["Edit"] * 3
    assert not [e for e in elements if e.raw_role == "table"]


def _drawn_line(texts: list[str], gap: int, scale: float = 0.6) -> tuple[np.ndarray, TextLine]:
    """``texts`` drawn in one grey, ``gap`` pixels of blank between them, and the OCR line
    that reads them as one (word boxes as OCR gives them: a little wider than the ink)."""
    image = np.full((80, 1200, 3), 255, dtype=np.uint8)
    x, words = 20, []
    for text in texts:
        (width, _), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        cv2.putText(image, text, (x, 45), cv2.FONT_HERSHEY_SIMPLEX, scale, (40, 40, 40), 1)
        words.append(Word(text, (x - 2, 28, x + width + 2, 50), 0.99))
        x += width + gap
    return image, _line(" ".join(texts), (16, 26, x - gap + 4, 52), words)


def test_a_menu_of_plain_links_read_as_one_line_splits_into_its_items() -> None:
    # "News Sport Weather Travel": four links set a margin apart, OCR reads one line.
    image, line = _drawn_line(["News", "Sport", "Weather", "Travel"], gap=13)
    assert item_gaps(image, line) == [True, True, True]
    items = split_line(image, line)
    assert [i.text for i in items] == ["News", "Sport", "Weather", "Travel"]
    assert items[1].box[0] < items[1].box[2] < items[2].box[0]  # each its own box


def test_words_a_space_apart_stay_one_run() -> None:
    image, line = _drawn_line(["Accept", "all", "cookies"], gap=5)
    assert item_gaps(image, line) == [False, False]
    assert [i.text for i in split_line(image, line)] == ["Accept all cookies"]


def test_a_long_lines_wide_spaces_do_not_split_it() -> None:
    # A justified paragraph stretches its spaces; its lines are long.
    texts = ["The", "committee", "met", "on", "Monday", "to", "review", "the", "plan"]
    assert len(texts) > ITEM_LINE_WORDS
    image, line = _drawn_line(texts, gap=13)
    assert len(split_line(image, line)) == 1


def test_a_name_inside_a_longer_run_is_boxed_by_its_own_words() -> None:
    words = (
        Word("Read", (10, 20, 50, 40), 0.99),
        Word("the", (55, 20, 80, 40), 0.99),
        Word("full", (85, 20, 115, 40), 0.99),
        Word("forecast.", (120, 20, 190, 40), 0.99),
    )
    run = Element("text", "text", (10, 18, 190, 42), "Read the full forecast.", words=words)
    assert words_box(run, "Full Forecast") == (85, 18, 190, 42)  # case and stop ignored
    assert words_box(run, "forecast") == (120, 18, 190, 42)
    assert words_box(run, "Read the full forecast") is None  # the run is the name
    assert words_box(run, "weather forecast") is None  # not word for word
    assert words_box(run, "") is None
    assert words_box(Element("text", "text", (0, 0, 9, 9), "x"), "x") is None  # no words


def test_stroke_width_tells_bold_from_regular() -> None:
    # The pitfalls page: a dialog's bold title over its regular sentence.
    image = cv2.imread(str(VISION_FIXTURES / "pitfalls" / "screenshot.png"))
    title = stroke_width(image, (66, 146, 167, 170))  # "Delete file?"
    sentence = stroke_width(image, (62, 173, 346, 200))  # "The file report.pdf will be ..."
    assert sentence > 0 and title >= 1.6 * sentence
    assert stroke_width(np.full((60, 400, 3), 255, dtype=np.uint8), (5, 15, 190, 50)) == 0.0
    # A box across a white-to-black boundary is ink from edge to edge: nothing to measure.
    split = np.full((60, 400, 3), 255, dtype=np.uint8)
    split[30:] = 0
    assert stroke_width(split, (5, 15, 190, 50)) == 0.0


def test_links_drawn_without_spaces_are_found_between_their_capitals() -> None:
    # Unstyled navigation: "Latest", "Video", "The Bests" ... drawn touching, read as words
    # that run the links together.
    words = (
        Word("LatestVideoThe", (8, 70, 148, 86), 0.9),
        Word("BestsSplitscreen", (152, 70, 312, 86), 0.9),
        Word("ReviewShop", (316, 70, 416, 86), 0.9),
    )
    run = Element("text", "text", (8, 68, 416, 88), "LatestVideoThe BestsSplitscreen ReviewShop",
                  "", (("link", 0.7),), words=words)  # fmt: skip
    assert words_run(run, "Video") == ("Video", (68.0, 68, 118.0, 88))
    assert words_run(run, "The Bests") == ("The Bests", (118.0, 68, 202.0, 88))
    assert words_run(run, "Shop") == ("Shop", (376.0, 68, 416.0, 88))
    # Not inside a word's lower-case letters: a capital drawn starts it.
    assert words_run(run, "atest") is None and words_run(run, "Est") is None


def test_a_name_recorded_in_another_case_is_found_between_capitals_as_drawn() -> None:
    # A recorder that lower- or upper-cases names: the words are found as drawn, bounded by
    # the capitals the screen shows, and returned as drawn.
    words = (
        Word("LatestVideoThe", (8, 70, 148, 86), 0.9),
        Word("ReviewShop", (152, 70, 252, 86), 0.9),
    )
    run = Element("text", "text", (8, 68, 252, 88), "LatestVideoThe ReviewShop",
                  "", (("link", 0.7),), words=words)  # fmt: skip
    assert words_run(run, "video") == ("Video", (68.0, 68, 118.0, 88))
    assert words_run(run, "SHOP") == ("Shop", (212.0, 68, 252.0, 88))
    # Lower-case letters inside a drawn word still bound nothing.
    assert words_run(run, "ATEST") is None and words_run(run, "eview") is None


def test_two_links_joined_by_a_slash_are_found_on_either_side_of_it() -> None:
    # A repository's heading: "ageitgey" / "node-unfluff", two links read as one word.
    joined = Element("text", "text", (24, 337, 395, 376), "public ageitgey/node-unfluff", "",
                     (("link", 0.7),), words=(Word("public", (24, 337, 98, 376), 0.9),
                     Word("ageitgey/node-unfluff", (104, 337, 395, 376), 0.9)))  # fmt: skip
    owner = words_run(joined, "ageitgey")
    assert owner is not None and owner[0] == "ageitgey"
    assert abs(owner[1][0] - 104.0) < 1e-9 and abs(owner[1][2] - (104.0 + 291.0 * 8 / 21)) < 1e-9
    assert words_run(joined, "node-unfluff") is not None
    # Not a part of a word with more joiners (an address), nor a name that is no whole part.
    url = "github.com/ageitgey/node"
    address = Element("text", "text", (8, 590, 186, 611), url, "", (("text", 1.0),),
                      words=(Word(url, (8, 590, 186, 611), 0.9),))  # fmt: skip
    assert words_run(address, "ageitgey") is None and words_run(address, "node") is None
    assert words_run(joined, "geitgey") is None and words_run(joined, "node") is None


def test_a_link_read_in_one_word_with_the_button_after_it_is_found_by_its_capitals() -> None:
    # "Tags" and the bordered button "Share" beside it, read as the one word "TagsShare".
    glued = Element("text", "text", (90, 700, 169, 723), "TagsShare", "", (("link", 0.7),),
                    words=(Word("TagsShare", (90, 700, 169, 723), 0.9),))  # fmt: skip
    found = words_run(glued, "Tags")
    assert found is not None and found[0] == "Tags"
    assert abs(found[1][0] - 90.0) < 1e-9 and abs(found[1][2] - (90.0 + 79.0 * 4 / 9)) < 1e-9
    assert words_run(glued, "Share") is not None
    # The run that is the name, or a name inside a word's lower-case letters, is not split.
    assert words_run(glued, "TagsShare") is None and words_run(glued, "agsS") is None
    # A name in lower case is found where it starts a word and a capital ends it.
    pieces = (
        Word("all", (275, 538, 291, 556), 0.9),
        Word("postsSubscribe", (295, 538, 357, 556), 0.9),
    )
    posts = Element("text", "text", (275, 538, 357, 556), "all postsSubscribe", "",
                    (("link", 0.7),), words=pieces)  # fmt: skip
    found = words_run(posts, "all posts")
    assert found is not None and found[0] == "all posts"
    assert words_run(posts, "posts") is not None and words_run(posts, "ostsS") is None
    assert words_run(posts, "ll posts") is None  # not inside a word
    alone = Element("text", "text", (90, 700, 125, 723), "Tags", "", (("link", 0.7),),
                    words=(Word("Tags", (90, 700, 125, 723), 0.9),))  # fmt: skip
    assert words_run(alone, "Tags") is None


def test_a_name_without_spaces_inside_a_run_points_at_its_own_characters() -> None:
    # Two links of a Chinese navigation read as one spaced-out run: "分享 0" and "博客".
    words = tuple(
        Word(text, (x, 144, x + 10, 164), 0.9)
        for text, x in (("分", 904), ("享", 918), ("0", 932), ("博", 945), ("客", 959))
    )
    run = Element("text", "text", (904, 144, 969, 164), "分 享 0 博 客", "",
                  (("link", 0.7),), words=words)  # fmt: skip
    assert words_box(run, "博客") == (945.0, 144, 969.0, 164)  # where an answer points
    assert words_box(run, "分享") == (904.0, 144, 928.0, 164)
    assert words_box(run, "分享 0 博客") is None  # the run is the name
    assert words_box(run, "新闻") is None
    # It is no reason to read the characters as a link of their own: no boundary tells
    # "博客" from the start of "博客中心".
    assert words_run(run, "博客") is None
    one = Element("text", "text", (904, 144, 964, 164), "分享0博客", "", (("link", 0.7),),
                  words=(Word("分享0博客", (904, 144, 964, 164), 0.9),))  # fmt: skip
    assert words_box(one, "博客") == (940.0, 144, 964.0, 164)
