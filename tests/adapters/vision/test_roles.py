"""Roles from appearance, as hypotheses with confidences."""

from __future__ import annotations

from resolver.adapters.vision.roles import (
    DISCLOSURES,
    control_roles,
    disclosure_roles,
    glyph_name,
    icon_roles,
    is_link_color,
    text_roles,
)
from resolver.roles import ROLE_INDEX

BLUE_LINK = (200.0, 60.0, 30.0)  # BGR
GREY = (110.0, 100.0, 95.0)
WHITE = (255.0, 255.0, 255.0)
PRIMARY = (245.0, 115.0, 25.0)


def test_link_colour() -> None:
    assert is_link_color(BLUE_LINK)
    assert not is_link_color(GREY)
    assert not is_link_color((40.0, 40.0, 200.0))  # red text is not a link
    assert not is_link_color(None)


def test_text_roles() -> None:
    assert text_roles(BLUE_LINK, 16, 16)[0] == ("link", 0.7)
    assert text_roles(GREY, 30, 16)[0][0] == "heading"
    assert [r for r, _ in text_roles(GREY, 16, 16)] == ["text", "link"]
    # the OCR box says body text, the ink says a larger font
    assert text_roles(GREY, 16, 16, ink_scale=1.8)[0][0] == "heading"
    assert text_roles(GREY, 16, 16, ink_scale=1.1)[0][0] == "text"


def test_a_bold_link_a_little_larger_than_body_text_may_be_a_heading() -> None:
    assert [r for r, _ in text_roles(BLUE_LINK, 16, 16, 1.25, 2.0)] == ["link", "heading", "text"]
    assert [r for r, _ in text_roles(BLUE_LINK, 16, 16, 1.0, 2.0)] == ["link", "text"]
    assert [r for r, _ in text_roles(BLUE_LINK, 16, 16, 1.25, 1.0)] == ["link", "text"]


def test_underlined_text_is_a_link_in_any_colour() -> None:
    assert text_roles(GREY, 16, 16, underlined=True)[0] == ("link", 0.7)
    assert [r for r, _ in text_roles(GREY, 16, 16, ink_scale=1.8, underlined=True)] == [
        "link", "heading", "text",
    ]  # fmt: skip


def test_dark_navy_text_is_not_a_link() -> None:
    assert not is_link_color((51.0, 41.0, 31.0))  # #1f2933
    assert is_link_color((199.0, 70.0, 36.0))  # #2446c7


def test_disclosure_roles() -> None:
    assert disclosure_roles()[0][0] == "button"
    assert "▶" in DISCLOSURES and "▾" in DISCLOSURES


def test_control_roles() -> None:
    assert control_roles("checkbox", (0, 0, 14, 14), [], WHITE)[0][0] == "checkbox"
    assert control_roles("radio", (0, 0, 14, 14), [], WHITE)[0][0] == "radio"
    # centred caption: a button; filled: surely a button
    assert control_roles("rect", (0, 0, 80, 30), [(25, 5, 55, 25)], WHITE)[0][0] == "button"
    assert control_roles("rect", (0, 0, 80, 30), [(5, 5, 40, 25)], PRIMARY) == (("button", 0.9),)
    # wide, text at its left edge or empty: a field; a chevron at its right: a select
    assert control_roles("rect", (0, 0, 300, 30), [(5, 5, 60, 25)], WHITE)[0][0] == "textbox"
    assert control_roles("rect", (0, 0, 300, 30), [], WHITE)[0][0] == "textbox"
    assert control_roles("rect", (0, 0, 300, 30), [], WHITE, chevron=True)[0][0] == "combobox"


def test_a_long_placeholder_starts_where_a_field_starts() -> None:
    # "Search hacks.mozilla.org" fills most of its field: its centre is near the field's,
    # but it starts 6 px from the left border and ends 26 px from the right one.
    assert control_roles("rect", (7, 94, 187, 118), [(13, 98, 161, 115)], WHITE)[0][0] == (
        "textbox"
    )
    # A caption with even gaps is a button's, however wide; one pushed right by an icon at
    # its left ("G  Sign in with Google") too.
    assert control_roles("rect", (0, 0, 200, 30), [(20, 5, 180, 25)], WHITE)[0][0] == "button"
    assert control_roles("rect", (0, 0, 200, 30), [(40, 5, 190, 25)], WHITE)[0][0] == "button"
    # Gaps of a few pixels either way are a button's too (OCR boxes pad unevenly).
    assert control_roles("rect", (0, 0, 120, 30), [(6, 5, 110, 25)], WHITE)[0][0] == "button"


def test_hypotheses_are_known_roles_and_ordered() -> None:
    cases = [
        text_roles(GREY, 16, 16),
        text_roles(GREY, 16, 16, 2.0),
        disclosure_roles(),
        icon_roles(True),
        icon_roles(False),
        control_roles("rect", (0, 0, 40, 40), [], WHITE),
    ]
    for hypotheses in cases:
        assert all(role in ROLE_INDEX for role, _ in hypotheses)
        confidences = [c for _, c in hypotheses]
        assert confidences == sorted(confidences, reverse=True)
        assert sum(confidences) <= 1.0 + 1e-9


def test_glyph_names() -> None:
    assert glyph_name("×") == "Close"
    assert glyph_name(" + ") == "Add"
    assert glyph_name("¶") == "¶"


def test_bold_body_text_may_be_a_small_heading() -> None:
    grey = (60.0, 60.0, 60.0)
    bold = text_roles(grey, 16, 16, 1.0, 2.0)
    assert [role for role, _ in bold] == ["text", "heading", "link"]
    assert sum(conf for _, conf in bold) <= 1.0
    assert "heading" not in dict(text_roles(grey, 16, 16, 1.0, 1.2))  # regular weight
    assert text_roles(BLUE_LINK, 16, 16, 1.0, 2.0)[0][0] == "link"  # a bold link is a link


def test_a_large_link_may_be_a_heading() -> None:
    # A post's title is a heading whose text is a link: large, in link colour.
    title = text_roles(BLUE_LINK, 30, 16)
    assert [role for role, _ in title] == ["link", "heading", "text"]
    assert sum(conf for _, conf in title) <= 1.0 + 1e-9
    assert [role for role, _ in text_roles(BLUE_LINK, 16, 16, ink_scale=1.8)][:2] == [
        "link", "heading"
    ]  # fmt: skip
    assert "heading" not in dict(text_roles(BLUE_LINK, 16, 16))  # a link of body size


def test_a_wide_box_with_its_text_at_a_fields_padding_is_a_field() -> None:
    # An unstyled field whose placeholder, or an address, runs nearly to its right side:
    # the text starts 5 px in from the left of a 180 x 24 box.
    assert control_roles("rect", (0, 0, 180, 24), [(5, 3, 170, 21)], WHITE)[0][0] == "textbox"
    assert control_roles("rect", (0, 0, 180, 24), [(5, 3, 178, 21)], WHITE)[0][0] == "textbox"
    # A button as wide pads its caption more; one less wide keeps even gaps as a button's.
    assert control_roles("rect", (0, 0, 180, 24), [(20, 3, 160, 21)], WHITE)[0][0] == "button"
    assert control_roles("rect", (0, 0, 120, 30), [(6, 5, 110, 25)], WHITE)[0][0] == "button"
