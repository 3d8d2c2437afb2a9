"""Pictures that did not load, side by side in one line, read by OCR as one run."""

from __future__ import annotations

from resolver.adapters.vision.ocr import Word
from resolver.adapters.vision.pictures import pictures_in_run


def _word(text: str, left: float, right: float) -> Word:
    return Word(text, (left, 3.0, right, 29.0), 0.99)


RUN = (25.0, 3.0, 257.0, 29.0)
"""The run's box: four pictures, their icons at 7, 58, 116 and 181 px."""
ICONS = [(7.0, 7.0, 25.0, 25.0), (58.0, 7.0, 77.0, 25.0), (116.0, 7.0, 138.0, 25.0),
         (181.0, 7.0, 198.0, 25.0)]  # fmt: skip


def test_a_run_across_icons_is_cut_at_each_icon() -> None:
    # "Share" and "Mail" glued into one word around the second icon; a space read where the
    # third icon is; "Forward" and "Donate" glued around the fourth.
    words = [_word("ShareMail", 25, 112), _word("ForwardDonate", 138, 257)]
    found = pictures_in_run(words, RUN, ICONS)
    assert [(k, name) for k, name, _ in found] == [
        (0, "Share"),
        (1, "Mail"),
        (2, "Forward"),
        (3, "Donate"),
    ]
    boxes = [box for _, _, box in found]
    assert boxes[0][0] == 7.0 and boxes[1][0] == 58.0 and boxes[3][2] <= RUN[2]
    assert all(box[1] == RUN[1] and box[3] == RUN[3] for box in boxes)
    # Icons given in any order name the same pictures.
    shuffled = [ICONS[2], ICONS[0], ICONS[3], ICONS[1]]
    names = {name for _, name, _ in pictures_in_run(words, RUN, shuffled)}
    assert names == {"Share", "Mail", "Forward", "Donate"}


def test_a_cut_falls_where_a_capital_follows_a_small_letter() -> None:
    # The letters' widths are an estimate: a wide first name would put the cut inside it,
    # and the nearest small-to-capital step moves it back.
    words = [_word("BookmarksMail", 25, 150)]
    icons = [ICONS[0], (95.0, 7.0, 114.0, 25.0)]
    assert [name for _, name, _ in pictures_in_run(words, RUN, icons)] == ["Bookmarks", "Mail"]


def test_one_picture_or_none_followed_by_text_is_left_to_the_run() -> None:
    assert pictures_in_run([_word("Share", 25, 60)], RUN, ICONS[:1]) == ()
    # An icon after the whole text names nothing: one picture only.
    assert pictures_in_run([_word("Share", 25, 60)], RUN, [ICONS[0], (240.0, 7, 256.0, 25)]) == ()
    assert pictures_in_run([], RUN, ICONS) == ()
