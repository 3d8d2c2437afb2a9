"""The vision table: columns like every table, executor IDs, role hypotheses, scaling."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from resolver.adapters.vision.analysis import Analysis
from resolver.adapters.vision.layout import Element
from resolver.adapters.vision.ocr import TextLine, Word
from resolver.adapters.vision.table import (
    VisionNative,
    answer_box,
    find_text,
    focus_table,
    to_table,
)
from resolver.adapters.vision.widgets import Widget
from resolver.geometry import Box, CoordSpace
from resolver.index import index_of
from resolver.table import CandidateTable


def _analysis(window: tuple[int, int, int, int] = (0, 0, 200, 100)) -> Analysis:
    elements = (
        Element("control", "rect", (10, 10, 60, 30), "OK", "OK", (("button", 0.9),)),
        Element("text", "text", (20, 12, 50, 28), "OK", "", (("text", 1.0),), parent=0),
        Element("text", "text", (100, 10, 160, 30), "Terms", "", (("text", 0.6), ("link", 0.4))),
        Element("icon", "icon", (170, 10, 190, 30), "", "", (("img", 0.9), ("button", 0.1))),
    )
    return Analysis("d", (200, 100), window, (), (), elements)


def test_rows_columns_and_executor_ids() -> None:
    table = to_table(_analysis(), None)
    assert table.source == "vision" and table.coord_space is CoordSpace.UNKNOWN
    assert table.ids == ("0", "1", "2", "2~link", "3")
    assert table.executor_ids == ("vision:0", "vision:1", "vision:2", "vision:2", "vision:3")
    assert table.roles == ("button", "text", "text", "link", "img")
    assert table.raw_roles[0] == "rect"
    assert table.parent.tolist() == [-1, 0, -1, 2, -1]
    assert table.platform_ids["role_confidence"] == ("0.90", "1.00", "0.60", "0.40", "0.90")
    assert table.values[0] == "OK" and table.visible.tolist() == [1] * 5
    assert table.screen_size == (200.0, 100.0)
    native = table.native
    assert isinstance(native, VisionNative)
    assert native.row_elements == (0, 1, 2, 2, 3)
    assert native.role_confidence[3] == 0.4


def test_boxes_scale_to_the_observation_screen() -> None:
    table = to_table(_analysis(), (100.0, 50.0))
    assert table.box(0) == pytest.approx((5.0, 5.0, 30.0, 15.0))
    assert table.screen_size == (100.0, 50.0)


def test_a_window_table_names_its_window() -> None:
    table = to_table(_analysis((0, 0, 120, 60)), None)
    assert table.ids[0] == "0@0,0,120x60"
    assert table.executor_ids[0] == "vision:0@0,0,120x60"


def _words(*spec: tuple[str, float, float], top: float) -> tuple[Word, ...]:
    return tuple(Word(text, (left, top, right, top + 20), 0.99) for text, left, right in spec)


def _runs() -> Analysis:
    """A blue link read together with the blue text after it, and a grey sentence."""
    linked = _words(("Bradley", 10, 60), ("Kuhn", 64, 100), ("[RSS]", 104, 150), top=10)
    prose = _words(
        ("Read", 10, 40), ("Bradley", 44, 94), ("Kuhn", 98, 134), ("today", 138, 180), top=50
    )
    blue, grey = (("link", 0.7), ("text", 0.3)), (("text", 0.6), ("link", 0.4))
    elements = (
        Element("text", "text", (10, 10, 150, 30), "Bradley Kuhn [RSS]", "", blue, words=linked),
        Element(
            "text", "text", (10, 50, 180, 70), "Read Bradley Kuhn today", "", grey, words=prose
        ),
    )
    return Analysis("d", (200, 100), (0, 0, 200, 100), (), (), elements)


def test_a_focus_name_inside_a_longer_link_run_gets_a_row_of_its_own_words() -> None:
    table = to_table(_runs(), None)
    focused = focus_table(table, "Bradley Kuhn")
    assert len(focused) == len(table) + 1
    (row,) = [i for i in range(len(focused)) if focused.ids[i] == "0.w"]
    assert focused.names[row] == "Bradley Kuhn" and focused.roles[row] == "link"
    assert focused.box(row) == (10, 10, 100, 30)
    assert focused.executor_ids[row] == "vision:0.w"
    assert answer_box(focused, row, "Bradley Kuhn") == focused.box(row)  # clicked on its words
    # Grey prose is never split into a link; a name no run holds leaves the table as it is.
    assert all(focused.ids[i] != "1.w" for i in range(len(focused)))
    assert focus_table(table, "Somebody Else") is table
    assert focus_table(table, "") is table


def test_a_labelled_field_with_other_text_inside_answers_to_both_names() -> None:
    # "Newsletter" above a field whose placeholder reads "your e-mail": a page names a
    # field without a label by its placeholder, and the text above may be no label at all.
    field = (("textbox", 0.7), ("button", 0.3))
    placeholder = (("text", 1.0),)
    elements = (
        Element("text", "text", (10, 10, 120, 28), "Newsletter", "", (("text", 1.0),)),
        Element("control", "rect", (10, 30, 230, 56), "Newsletter", "your e-mail", field),
        Element("text", "text", (14, 34, 110, 52), "your e-mail", "", placeholder, parent=1),
        Element("control", "rect", (240, 30, 300, 56), "Send", "Send", (("button", 0.8),)),
        Element("control", "rect", (10, 60, 230, 86), "Name", "", (("textbox", 0.7),)),
    )
    table = to_table(Analysis("d", (320, 100), (0, 0, 320, 100), (), (), elements), None)
    inner = table.ids.index("1~inner")
    assert table.names[inner] == "your e-mail" and table.roles[inner] == "textbox"
    assert table.executor_ids[inner] == "vision:1" and table.box(inner) == (10, 30, 230, 56)
    # It follows the placeholder's own row, as its child: one text, read once (an anchor
    # named "your e-mail" is still where that text is).
    text = table.ids.index("2")
    assert table.parent[inner] == text and inner == text + 1
    assert index_of(table).unique_box("your e-mail") == table.box(text)
    # A button's caption, an empty field and a field's label alone get no such row.
    assert [i for i in table.ids if i.endswith("~inner")] == ["1~inner"]


def test_a_text_read_among_other_words_of_one_run_is_found_by_its_words() -> None:
    # "Oct 18, 2019 · 8 min read": a recorded neighbour read with the text beside it.
    line = _words(("Oct", 360, 388), ("18,", 392, 414), ("2019", 418, 450), ("·", 454, 460),
                  ("8", 464, 472), ("min", 476, 500), ("read", 504, 538), top=237)  # fmt: skip
    body = _words(("I", 300, 306), ("work", 310, 350), ("at", 354, 370), ("Voodoo,", 374, 440),
                  top=379)  # fmt: skip
    text = (("text", 1.0),)
    elements = (
        Element("text", "text", (360, 237, 538, 257), "Oct 18, 2019 · 8 min read", "", text,
                words=line),
        Element("text", "text", (300, 379, 440, 399), "I work at Voodoo,", "", text, words=body),
        Element("text", "text", (10, 10, 100, 30), "Voodoo", "", text),
    )  # fmt: skip
    table = to_table(Analysis("d", (640, 400), (0, 0, 640, 400), (), (), elements), (1280, 800))
    assert table.text_finder is find_text
    # In table units: the screenshot was half the screen's size.
    assert find_text(table, "Oct 18, 2019") == (720.0, 474.0, 900.0, 514.0)
    assert find_text(table, "work at") == (620.0, 758.0, 740.0, 798.0)
    assert find_text(table, "Voodoo") is None  # one word: read inside too many sentences
    assert find_text(table, "at Voodoo") == (708.0, 758.0, 880.0, 798.0)
    assert find_text(table, "8 min") == (928.0, 474.0, 1000.0, 514.0)
    assert find_text(table, "· 8") is None  # too short to be told apart
    assert find_text(table, "Oct 19") is None
    index = index_of(table)
    assert index.unique_box("Oct 18, 2019") == (720.0, 474.0, 900.0, 514.0)
    # A row bearing the name whole is what the index takes; it asks the finder only when
    # no row bears it.
    assert index.unique_box("Voodoo") == (20.0, 20.0, 200.0, 60.0)
    # Read in two runs: nowhere in particular.
    words = _words(("on", 300, 320), ("Oct", 324, 352), ("18,", 356, 378), ("2019", 382, 414),
                   top=500)  # fmt: skip
    later = Element("text", "text", (300, 500, 414, 520), "on Oct 18, 2019", "", text,
                    words=words)  # fmt: skip
    twice = (*elements[:2], later)
    again = to_table(Analysis("d", (640, 600), (0, 0, 640, 600), (), (), twice), None)
    assert find_text(again, "Oct 18, 2019") is None


def test_a_text_wrapped_over_lines_is_found_across_its_runs() -> None:
    # A list of headlines in a narrow column, each read as one run per line.
    text = (("text", 0.6), ("link", 0.4))
    elements = (
        Element("text", "text", (890, 590, 1142, 610), "Everything We Know About the", "", text),
        Element("text", "text", (893, 610, 1017, 633), "Han Solo Movie", "", text),
        Element("text", "text", (896, 662, 1140, 687), "Woody Harrelson Will Play Han", "", text),
        Element("text", "text", (894, 685, 1002, 708), "Solo's Mentor", "", text),
        Element("text", "text", (891, 740, 1104, 760), "'Game of Thrones' Actress", "", text),
        Element("text", "text", (10, 740, 200, 760), "Han Solo Movie", "", text),
    )
    table = to_table(Analysis("d", (1280, 800), (0, 0, 1280, 800), (), (), elements), None)
    assert find_text(table, "Woody Harrelson Will Play Han Solo's Mentor", True) == (
        894.0, 662.0, 1140.0, 708.0,
    )  # fmt: skip
    index = index_of(table)
    assert index.read_box("Woody Harrelson Will Play Han Solo's Mentor") == (
        894.0, 662.0, 1140.0, 708.0,
    )  # fmt: skip
    # Only when asked: the page's shift takes texts read in one run.
    assert find_text(table, "Woody Harrelson Will Play Han Solo's Mentor") is None
    assert index.unique_box("Woody Harrelson Will Play Han Solo's Mentor") is None
    # Not across a gap, nor from the middle of a run, nor when part of it is missing.
    assert find_text(table, "Han Solo Movie Woody Harrelson Will Play Han", True) is None
    assert find_text(table, "Know About the Han Solo Movie", True) is None
    assert find_text(table, "Woody Harrelson Will Play Han Solo", True) is None
    # Two groups read it: nowhere in particular.
    twice = (*elements[:2], *(replace_box(e, 300) for e in elements[:2]))
    again = to_table(Analysis("d", (1280, 1200), (0, 0, 1280, 1200), (), (), twice), None)
    assert find_text(again, "Everything We Know About the Han Solo Movie", True) is None
    assert find_text(table, "Everything We Know About the Han Solo Movie", True) == (
        890.0, 590.0, 1142.0, 633.0,
    )  # fmt: skip


def replace_box(element: Element, down: float) -> Element:
    """``element`` drawn ``down`` px lower."""
    left, top, right, bottom = element.box
    return dataclasses.replace(element, box=(left, top + down, right, bottom + down))


def _extra_row(
    elements: tuple[Element, ...], suffix: str, size: tuple[int, int] = (1280, 800)
) -> tuple[CandidateTable, int]:
    """The table of ``elements`` read on a whole screen of ``size``, and its one row whose
    ID ends with ``suffix`` (there must be exactly one)."""
    analysis = Analysis("d", size, (0, 0, *size), (), (), elements)
    table = to_table(analysis, None)
    (row,) = [i for i, ident in enumerate(table.ids) if ident.endswith(suffix)]
    return table, row


def test_an_icon_just_before_a_text_is_also_an_image_named_by_that_text() -> None:
    # A browser draws an image that did not load as a broken-image icon and its alt text.
    icon = (("button", 0.5), ("img", 0.5))
    link = (("link", 0.7), ("text", 0.3))
    elements = (
        Element("icon", "icon", (7, 7, 26, 25), "", "", icon),
        Element("text", "text", (26, 5, 125, 28), "Daring Fireball", "", link),
        # a glyph OCR read, a picture taller than the line, an icon too far from the text
        Element("icon", "glyph", (7, 40, 26, 58), "Close", "×", icon),
        Element("text", "text", (26, 38, 90, 61), "Archive", "", link),
        Element("icon", "icon", (7, 70, 107, 170), "", "", icon),
        Element("text", "text", (110, 110, 200, 133), "Portrait", "", link),
        Element("icon", "icon", (7, 180, 26, 198), "", "", icon),
        Element("text", "text", (40, 178, 120, 201), "Contact", "", link),
    )
    table, row = _extra_row(elements, "~alt", (320, 220))
    assert table.ids[row] == "0~alt"
    assert table.roles[row] == "img" and table.names[row] == "Daring Fireball"
    assert table.box(row) == (7, 5, 125, 28) and table.executor_ids[row] == "vision:0"
    # A child of the text's own row: the text is still one anchor.
    assert table.parent[row] == table.ids.index("1")
    native = table.native
    assert isinstance(native, VisionNative) and native.row_elements[row] == 0
    assert index_of(table).unique_box("Daring Fireball") == (26, 5, 125, 28)


def test_an_icon_read_into_a_line_names_an_image_by_the_words_after_it() -> None:
    # "Bradley M. Kuhn [icon][RSS of Whole Site]": OCR reads the link and the alt text of the
    # image after it as one line; the icon between two words starts the image's name.
    link = (("link", 0.7), ("text", 0.3))
    words = _words(("Bradley", 10, 58), ("Kuhn", 66, 121), ("[RSS", 140, 174), ("Site]", 180, 212),
                   top=14)  # fmt: skip
    far = _words(("Contact", 10, 60), ("Blog", 150, 190), top=50)
    elements = (
        Element(
            "text", "text", (10, 14, 212, 34), "Bradley Kuhn [RSS Site]", "", link, words=words
        ),
        Element("icon", "icon", (123, 15, 140, 33), "", "", (("img", 0.5),)),
        # an icon in a line but not just before a word is no image's
        Element("text", "text", (10, 50, 190, 70), "Contact Blog", "", link, words=far),
        Element("icon", "icon", (80, 51, 97, 69), "", "", (("img", 0.5),)),
    )
    table, row = _extra_row(elements, "~alt", (320, 100))
    assert table.ids[row] == "1~alt" and table.names[row] == "[RSS Site]"
    assert table.roles[row] == "img" and table.box(row) == (123, 14, 212, 34)
    assert table.parent[row] == table.ids.index("0")
    # Chinese read a character at a time is joined as written, as every run is.
    cjk = _words(("分享", 10, 40), ("博", 60, 76), ("客", 77, 93), top=14)
    line = Element("text", "text", (10, 14, 93, 34), "分享 博客", "", link, words=cjk)
    icon = Element("icon", "icon", (42, 15, 58, 33), "", "", (("img", 0.5),))
    table, row = _extra_row((line, icon), "~alt", (320, 100))
    assert table.names[row] == "博客"


def test_pictures_side_by_side_read_as_one_run_are_each_named_by_their_own_text() -> None:
    # Three sharing pictures that did not load, each a broken-image icon and its text, read
    # by OCR as one run: "ShareMail" glued around the second icon, "Forward" after a space.
    link = (("link", 0.7), ("text", 0.3))
    words = _words(("ShareMail", 25, 112), ("Forward", 138, 200), top=3)
    elements = (
        Element("icon", "icon", (7, 7, 25, 25), "", "", (("img", 0.5),)),
        Element("text", "text", (25, 3, 200, 23), "ShareMail Forward", "", link, words=words),
        Element("icon", "icon", (58, 7, 77, 25), "", "", (("img", 0.5),)),
        Element("icon", "icon", (116, 7, 138, 25), "", "", (("img", 0.5),)),
    )
    analysis = Analysis("d", (320, 100), (0, 0, 320, 100), (), (), elements)
    table = to_table(analysis, None)
    pictures = {table.ids[r]: r for r in range(len(table)) if table.ids[r].endswith("~alt")}
    assert sorted(pictures) == ["0~alt", "2~alt", "3~alt"]
    names = {key: table.names[row] for key, row in pictures.items()}
    assert names == {"0~alt": "Share", "2~alt": "Mail", "3~alt": "Forward"}
    assert {table.executor_ids[r] for r in pictures.values()} == {
        "vision:0",
        "vision:2",
        "vision:3",
    }
    # Each picture's box starts at its icon; all are children of the run's row.
    assert table.box(pictures["2~alt"])[0] == 58  # type: ignore[index]
    assert {int(table.parent[r]) for r in pictures.values()} == {table.ids.index("1")}
    # They re-read the run's ink: the table declares them so (one text in reading order).
    assert table.rereadings == frozenset(pictures.values())
    # A picture named by a whole run of its own re-reads nothing.
    single = _extra_row(elements[:2], "~alt", (320, 100))[0]
    assert single.rereadings == frozenset()


def test_an_alternative_text_read_with_the_text_after_it_is_cut_at_the_name_sought() -> None:
    # A broken avatar's alternative text "Avatar lemonde.fr" and the text after the image,
    # read as one run: looked for by that name, the image row reads those words only.
    text = (("text", 0.7), ("link", 0.3))
    words = _words(("Avatar", 25, 67), ("lemonde.fr", 71, 144), ("@lemondefr", 148, 228),
                   ("Suivre", 233, 271), top=635)  # fmt: skip
    elements = (
        Element("icon", "icon", (7, 639, 23, 652), "", "", (("img", 0.5),)),
        Element("text", "text", (25, 635, 271, 658), "Avatar lemonde.fr @lemondefr Suivre", "",
                text, words=words),
    )  # fmt: skip
    analysis = Analysis("d", (1280, 800), (0, 0, 1280, 800), (), (), elements)
    plain = to_table(analysis, None)
    assert plain.names[plain.ids.index("0~alt")] == "Avatar lemonde.fr @lemondefr Suivre"
    table = focus_table(plain, "avatar lemonde.fr")
    row = table.ids.index("0~alt")
    assert table.names[row] == "Avatar lemonde.fr" and table.box(row) == (7, 635, 144, 655)
    # Not for the whole text, a name the text does not hold, or one it holds further on
    # after other words (a name that gained a word in front is still the image's).
    for name in ("Avatar lemonde.fr @lemondefr Suivre", "Le Monde", "lemonde.fr"):
        assert focus_table(plain, name) is plain
    # A small image's box clips its text ("Vinc") and OCR reads the name beside it with it:
    # the name read after that start of it is the text after the image.
    words = _words(("Vinc", 25, 50), ("Vincent", 60, 110), ("Vallet", 115, 160), top=635)
    run = Element("text", "text", (25, 635, 160, 658), "Vinc Vincent Vallet", "", text,
                  words=words)  # fmt: skip
    clipped = to_table(
        Analysis("d", (1280, 800), (0, 0, 1280, 800), (), (), (elements[0], run)), None
    )
    cut = focus_table(clipped, "Vincent Vallet")
    assert cut.names[cut.ids.index("0~alt")] == "Vinc"
    assert focus_table(clipped, "Vinc Vincent Vallet") is clipped
    # Nor where a text reads the name word for word: a twin renamed "An image (61)" is
    # not made "An image" beside the one still so named.
    whole = Element("text", "text", (25, 700, 144, 720), "Avatar lemonde.fr", "", text)
    both = Analysis("d", (1280, 800), (0, 0, 1280, 800), (), (), (*elements, whole))
    table = to_table(both, None)
    assert focus_table(table, "Avatar lemonde.fr") is table
    focused = to_table(both, None, focus="Avatar lemonde.fr")
    assert focused.names[focused.ids.index("0~alt")] == "Avatar lemonde.fr @lemondefr Suivre"


def _caption(top: float, last: str) -> tuple[Element, ...]:
    """A broken image drawing its long alternative text over three lines from the icon's
    left side; the word next to the icon read as a run of its own."""
    text = (("text", 0.6), ("link", 0.4))
    first = _words(("photo", 120, 170), ("of", 176, 190), ("the", 196, 222), ("rocket", 228, 280),
                   ("booster", 286, 350), top=top)  # fmt: skip
    second = _words(("on", 89, 110), ("the", 116, 140), ("launch", 146, 200), ("pad", 206, 240),
                    top=top + 18)  # fmt: skip
    third = _words(("before", 89, 140), (last, 146, 220), top=top + 36)
    return (
        Element("icon", "icon", (87, top + 1, 104, top + 18), "", "", (("img", 0.5),)),
        Element("text", "text", (104, top, 117, top + 20), "In", "", text,
                words=_words(("In", 104, 117), top=top)),
        Element("text", "text", (120, top, 350, top + 20), "photo of the rocket booster", "",
                text, words=first),
        Element("text", "text", (89, top + 18, 240, top + 38), "on the launch pad", "", text,
                words=second),
        Element("text", "text", (89, top + 36, 220, top + 56), f"before {last}", "", text,
                words=third),
    )  # fmt: skip


def test_a_long_alternative_text_is_read_over_its_lines_for_a_name_that_goes_on() -> None:
    # Two captions alike but for their last word; looked for by the second's whole name,
    # each image is named by its three lines, not by the one word beside its icon.
    elements = (*_caption(100, "launch"), *_caption(200, "liftoff"))
    analysis = Analysis("d", (1280, 800), (0, 0, 1280, 800), (), (), elements)
    plain = to_table(analysis, None)
    assert plain.names[plain.ids.index("0~alt")] == "In"
    name = "In photo of the rocket booster on the launch pad before liftoff"
    table = focus_table(plain, name)
    first, second = table.ids.index("0~alt"), table.ids.index("5~alt")
    assert table.names[first] == "In photo of the rocket booster on the launch pad before launch"
    assert table.names[second] == name
    assert table.box(second) == (87, 200, 350, 256) and table.roles[second] == "img"
    # A name no longer than what the icon's line reads: the image is named as before.
    assert focus_table(plain, "In photo") is plain
    # A line below of other words is not read as more of the name.
    other = (*_caption(100, "launch")[:3], Element(
        "text", "text", (89, 118, 240, 138), "Lorem ipsum dolor sit", "", (("text", 1.0),),
        words=_words(("Lorem", 89, 130), ("ipsum", 136, 180), ("dolor", 186, 220),
                     ("sit", 226, 240), top=118)))  # fmt: skip
    lorem = focus_table(
        to_table(Analysis("d", (1280, 800), (0, 0, 1280, 800), (), (), other), None), name
    )
    assert lorem.names[lorem.ids.index("0~alt")] == "In photo of the rocket booster"
    # Nor is an image of other words ("Los") read on into the name's lines below it.
    los = (Element("icon", "icon", (87, 101, 104, 118), "", "", (("img", 0.5),)),
           Element("text", "text", (104, 100, 140, 120), "Los", "", (("text", 1.0),),
                   words=_words(("Los", 104, 140), top=100)),
           *_caption(100, "liftoff")[3:])  # fmt: skip
    table = to_table(Analysis("d", (1280, 800), (0, 0, 1280, 800), (), (), los), None, focus=name)
    assert table.names[table.ids.index("0~alt")] == "Los"


def test_a_heading_over_two_lines_is_also_one_row_named_by_both() -> None:
    heading = (("heading", 0.6), ("text", 0.4))
    text = (("text", 0.6), ("link", 0.4))
    elements = (
        Element("text", "text", (304, 101, 964, 144), "Node.js and CPU profiling on", "", heading),
        Element("icon", "icon", (1000, 110, 1020, 130), "", "", (("img", 0.5),)),
        Element("text", "text", (299, 146, 817, 191), "(in real-time)", "", heading),
        # a heading's next paragraph, and a heading further down, are not its lines
        Element("text", "text", (300, 200, 900, 220), "I work at Voodoo.", "", text),
        Element("text", "text", (300, 300, 700, 343), "Why CPU monitoring", "", heading),
        Element("text", "text", (300, 380, 700, 423), "Setting it up", "", heading),
    )
    table, row = _extra_row(elements, "~wrap")
    assert table.ids[row] == "0~wrap"
    assert table.names[row] == "Node.js and CPU profiling on (in real-time)"
    assert table.roles[row] == "heading" and table.executor_ids[row] == "vision:0"
    assert table.box(row) == (299, 101, 964, 191)
    assert table.parent[row] == table.ids.index("0")
    assert answer_box(table, row, table.names[row]) == (304, 101, 964, 144)  # its first line


def test_a_sidebar_heading_over_two_lines_is_one_row_past_the_article_lines_between() -> None:
    heading = (("heading", 0.6), ("text", 0.4))
    body = (("text", 1.0),)
    elements = (
        Element("text", "text", (896, 662, 1140, 687), "Harbour lights return", "", heading),
        # the article's lines beside it, read between its two lines
        *(Element("text", "text", (200 + 60 * k, 677, 250 + 60 * k, 696), f"w{k}", "", body)
          for k in range(6)),
        Element("text", "text", (894, 685, 1002, 708), "for winter", "", heading),
    )  # fmt: skip
    table, row = _extra_row(elements, "~wrap")
    assert table.ids[row] == "0~wrap" and table.names[row] == "Harbour lights return for winter"
    assert table.box(row) == (894, 662, 1140, 708)


def test_a_link_broken_over_a_line_end_is_also_one_row_named_by_both_parts() -> None:
    link = (("link", 0.7), ("text", 0.3))
    text = (("text", 0.8), ("link", 0.2))
    elements = (
        Element("text", "text", (8, 165, 1180, 185), "you are testing your frontend", "", text),
        Element("text", "text", (1194, 165, 1225, 185), "code", "", link),
        Element("text", "text", (11, 181, 68, 204), "coverage", "", link),
        Element("text", "text", (72, 181, 300, 204), "might help.", "", text),
        # links listed one per line are not one link
        Element("text", "text", (40, 300, 160, 320), "Subscriptions", "", link),
        Element("text", "text", (40, 325, 95, 345), "About", "", link),
        Element("text", "text", (40, 350, 95, 370), "Help", "", text),
    )
    table, row = _extra_row(elements, "~wrap")
    assert table.ids[row] == "1~wrap"
    assert table.names[row] == "code coverage" and table.roles[row] == "link"
    assert table.executor_ids[row] == "vision:1" and table.parent[row] == table.ids.index("1")
    assert table.box(row) == (11, 165, 1225, 204)
    # An answer on it points at the first part, not the middle of the paragraph.
    assert answer_box(table, row, "code coverage") == (1194, 165, 1225, 185)


def test_a_name_read_across_runs_of_one_line_gets_rows_of_its_own() -> None:
    # "Powered by Tumblr" in small faint text, read as one run per word, beside a link of
    # its own; and the same words on lines further apart than a line, which are not one
    # name; and a headline with its picture's alternative text on the next line.
    link = (("text", 0.6), ("link", 0.4))
    elements = (
        Element("text", "text", (10, 10, 50, 24), "Powered", "", link),
        Element("text", "text", (54, 10, 64, 24), "by", "", link),
        Element("text", "text", (69, 10, 99, 24), "Tumblr", "", link),
        Element("text", "text", (200, 10, 260, 24), "Minecraft", "", link),
        Element("text", "text", (10, 60, 50, 74), "Powered", "", link),
        Element("text", "text", (10, 90, 20, 104), "by", "", link),
        Element("text", "text", (10, 120, 40, 134), "Tumblr", "", link),
        Element("text", "text", (10, 150, 120, 164), "Police check", "", link),
        Element("icon", "icon", (10, 170, 24, 184), "", "", (("img", 0.5),)),
        Element("text", "text", (26, 170, 136, 184), "Police check", "", link),
    )
    table = to_table(Analysis("d", (300, 200), (0, 0, 300, 200), (), (), elements), None)
    focused = focus_table(table, "Powered by Tumblr")
    rows = [i for i in range(len(focused)) if focused.ids[i].startswith("0.j")]
    assert [focused.roles[i] for i in rows] == ["text", "link"]
    assert {focused.names[i] for i in rows} == {"Powered by Tumblr"}
    assert focused.box(rows[0]) == (10, 10, 99, 24)
    assert {focused.executor_ids[i] for i in rows} == {"vision:0"}
    assert not any(focused.ids[i].startswith("4.j") for i in range(len(focused)))
    twice = focus_table(table, "Police check Police check")
    (row,) = [i for i in range(len(twice)) if twice.ids[i] == "7.j~text"]
    assert twice.box(row) == (10, 150, 136, 184)
    # Runs that read more than the name, or a name one run reads alone, add nothing.
    assert focus_table(table, "Powered by") is not table
    assert focus_table(table, "by Tumblr Minecraft") is table
    assert focus_table(table, "Tumblr") is table


def test_a_chinese_name_read_in_runs_of_a_few_characters_is_joined() -> None:
    # A link written without spaces, read as three runs where its characters stand apart
    # ("新闻" "中" "心人"), after the plain text "出处：" on its line; the runs of another
    # line do not join it.
    link = (("link", 0.8),)
    elements = (
        Element("text", "text", (142, 282, 186, 302), "出处：", "", (("text", 0.9),)),
        Element("text", "text", (193, 282, 216, 302), "新闻", "", link),
        Element("text", "text", (223, 282, 233, 302), "中", "", link),
        Element("text", "text", (240, 282, 263, 302), "心人", "", link),
        Element("text", "text", (193, 400, 216, 420), "新闻", "", link),
        Element("text", "text", (193, 500, 233, 520), "中心人", "", link),
    )
    table = to_table(Analysis("d", (400, 600), (0, 0, 400, 600), (), (), elements), None)
    assert _joined(table, "新闻中心人") == ({"1"}, {"新闻中心人"}, (193, 282, 263, 302))
    # A name one run reads alone adds nothing.
    assert focus_table(table, "出处") is table


def _joined(table: CandidateTable, name: str) -> tuple[set[str], set[str], Box | None]:
    """The rows ``focus_table`` adds to ``table`` for ``name`` read across runs (``.j``):
    the elements they start at, their names and the first one's box."""
    focused = focus_table(table, name)
    rows = [i for i in range(len(focused)) if ".j" in focused.ids[i]]
    first = focused.box(rows[0]) if rows else None
    return {focused.ids[i].split(".")[0] for i in rows}, {focused.names[i] for i in rows}, first


def test_a_name_wrapped_in_a_sidebar_is_read_across_the_article_lines_between() -> None:
    # Reading order puts the article's lines (left) between the two lines of a sidebar's
    # headline (right); the headline is still read whole, and only past lines beside it.
    link = (("text", 0.6), ("link", 0.4))
    body = (("text", 1.0),)
    elements = (
        Element("text", "text", (10, 100, 400, 118), "The bridge reopened on", "", body),
        Element("text", "text", (500, 100, 700, 122), "Harbour lights return", "", link),
        Element("text", "text", (10, 120, 400, 138), "Monday after a year of", "", body),
        Element("text", "text", (10, 140, 300, 158), "repairs to its deck.", "", body),
        Element("text", "text", (498, 124, 640, 146), "for winter", "", link),
        Element("text", "text", (500, 300, 700, 322), "Harbour lights return", "", link),
        Element("text", "text", (450, 326, 760, 344), "A word across both columns", "", body),
        Element("text", "text", (498, 348, 640, 370), "for winter", "", link),
    )
    table = to_table(Analysis("d", (800, 400), (0, 0, 800, 400), (), (), elements), None)
    name = "Harbour lights return for winter"
    assert _joined(table, name) == ({"1"}, {name}, (498, 100, 700, 146))


def test_marks_nothing_touches_are_rows_after_the_elements() -> None:
    """A mark no text and no widget touches (a logo, a tiny empty button that no detector
    took for a shape) is a row, ``m<k>``, raw role ``mark``, role ``generic``; one a text
    (element "Terms") or a widget touches is not; every mark, in table units, is on the
    table."""
    line = TextLine("Terms", (100.0, 10.0, 160.0, 30.0), 0.9, ())
    widget = Widget("rect", (10.0, 10.0, 60.0, 30.0), 0.9)
    marks = ((10.0, 10.0, 60.0, 30.0), (99.0, 9.0, 161.0, 31.0), (20.0, 60.0, 52.0, 90.0))
    analysis = dataclasses.replace(_analysis(), lines=(line,), widgets=(widget,), marks=marks)
    table = to_table(analysis, (400.0, 200.0))
    assert table.marks == tuple(tuple(2.0 * v for v in m) for m in marks)
    assert table.ids[-1] == "m2" and table.ids.count("m2") == 1
    assert not any(i in table.ids for i in ("m0", "m1"))
    last = len(table.ids) - 1
    assert table.raw_roles[last] == "mark" and table.roles[last] == "generic"
    assert table.names[last] == "" and table.parent[last] == -1
    assert table.box(last) == (40.0, 120.0, 104.0, 180.0)
    assert table.executor_id(last) == "vision:m2"
    native = table.native
    assert isinstance(native, VisionNative) and len(native.row_elements) == last
    assert answer_box(table, last, "Logo") is None
    # A window's analysis has no marks, and its table neither.
    assert to_table(_analysis((0, 0, 120, 60)), None).marks == ()


def test_a_mark_beside_a_word_is_apart_from_the_words_line_box() -> None:
    # OCR's box of the line "beta" reaches 9 px past the word's ink, over the logo drawn
    # just after it; the word's element ends before the logo, which stays a mark apart.
    word = Element("text", "text", (300, 59, 346, 93), "beta", "", (("text", 1.0),))
    line = TextLine("beta", (292.0, 59.0, 355.0, 93.0), 0.9, ())
    logo = (353.0, 55.0, 414.0, 98.0)
    analysis = Analysis("d", (500, 200), (0, 0, 500, 200), (line,), (), (word,), marks=(logo,))
    table = to_table(analysis, None)
    assert "m0" in table.ids and table.box(table.ids.index("m0")) == logo
    # A word whose own box reaches the logo touches it: no mark row.
    touching = dataclasses.replace(word, box=(300, 59, 356, 93))
    analysis = dataclasses.replace(analysis, elements=(touching,))
    assert "m0" not in to_table(analysis, None).ids


def test_marks_are_checked_against_every_text_and_widget_in_chunks() -> None:
    rng = np.random.default_rng(5)

    def boxes(n: int, size: float) -> list[tuple[float, float, float, float]]:
        corner = rng.uniform(0, 1000, (n, 2))
        side = rng.uniform(1, size, (n, 2))
        return [(a, b, a + w, b + h) for (a, b), (w, h) in zip(corner, side, strict=True)]

    texts = tuple(Element("text", "text", box, "x", "", (("text", 1.0),)) for box in boxes(40, 80))
    widgets = tuple(Widget("rect", box, 0.9) for box in boxes(30, 60))
    marks = tuple(boxes(2500, 12))  # more than one chunk of marks
    analysis = dataclasses.replace(_analysis(), elements=texts, widgets=widgets, marks=marks)
    table = to_table(analysis, None)
    seen = [*(e.box for e in texts), *(w.box for w in widgets)]
    untouched = [
        f"m{k}"
        for k, m in enumerate(marks)
        if not any(s[0] <= m[2] and m[0] <= s[2] and s[1] <= m[3] and m[1] <= s[3] for s in seen)
    ]
    assert 0 < len(untouched) < len(marks)
    assert [i for i in table.ids if i.startswith("m")] == untouched


def test_a_name_cut_in_its_last_word_is_read_across_runs_to_their_end() -> None:
    # A heading read as two runs of one line ("Content Depth —" and the rest); a recorder
    # kept its first 30 characters, which end inside "Comprehensively".
    heading = (("heading", 0.6), ("text", 0.4))
    elements = (
        Element("text", "text", (16, 245, 235, 278), "Content Depth —", "", heading),
        Element(
            "text",
            "text",
            (264, 245, 919, 278),
            "Write Comprehensively About Your Core Topics",
            "",
            heading,
        ),
    )
    table = to_table(Analysis("d", (1280, 800), (0, 0, 1280, 800), (), (), elements), None)
    focused = focus_table(table, "Content Depth — Write Comprehe")
    rows = [i for i in range(len(focused)) if focused.ids[i].startswith("0.j")]
    assert {focused.names[i] for i in rows} == {
        "Content Depth — Write Comprehensively About Your Core Topics"
    }
    assert focused.box(rows[0]) == (16, 245, 919, 278)
    # Not for a short name, nor for one whose last word is read otherwise.
    assert focus_table(table, "Content Depth — Wr") is table
    assert focus_table(table, "Content Depth — Write Comprehend") is table


def test_an_alternative_text_is_read_on_past_a_long_name_cut_in_its_last_word() -> None:
    # A photo's long caption drawn by its broken image, the word next to the icon read as a
    # run of its own; the name recorded as its first 30 characters, cut inside "Nov": the
    # next run holds few of the name's words, but reads on past the cut.
    text = (("text", 0.6), ("link", 0.4))
    rest = "this photo dated Tuesday, Nov 29, 2016 the rocket booster on the launch pad"
    spans = [(w, 120 + 40 * k, 150 + 40 * k) for k, w in enumerate(rest.split())]
    elements = (
        Element("icon", "icon", (87, 101, 104, 118), "", "", (("img", 0.5),)),
        Element("text", "text", (104, 100, 117, 120), "In", "", text,
                words=_words(("In", 104, 117), top=100)),
        Element("text", "text", (120, 100, spans[-1][2], 120), rest, "", text,
                words=_words(*spans, top=100)),
    )  # fmt: skip
    plain = to_table(Analysis("d", (1280, 800), (0, 0, 1280, 800), (), (), elements), None)
    assert plain.names[plain.ids.index("0~alt")] == "In"
    table = focus_table(plain, "In this photo dated Tuesday, N")
    row = table.ids.index("0~alt")
    assert table.names[row] == f"In {rest}"
    assert table.box(row) == (87, 100, spans[-1][2], 120)
    # A name too short to have been cut: the image is named as before.
    short = focus_table(plain, "In this photo d")
    assert short.names[short.ids.index("0~alt")] == "In"
