"""Roles from appearance: what a shape or a piece of text is, with a confidence.

Vision cannot read a role; it guesses from shape, colour and content. Every guess is a list
of ``(role, confidence)`` hypotheses, best first, confidences summing to at most 1: a grey
word may be text or a link, a blue or underlined one is more likely a link (the underline
is found by :func:`resolver.adapters.vision.layout.underlined`), a bordered box with centred
text is a button, a wide one with text at its left edge a text field. The table keeps the
best hypothesis as the element's row and the second, where it is plausible, as another row
with the same executor ID (see :mod:`resolver.adapters.vision.table`).

Every number is here, as data.
"""

from __future__ import annotations

import colorsys
from collections.abc import Mapping, Sequence
from typing import Final

from ...geometry import Box

__all__ = [
    "BOX_GLYPHS",
    "DISCLOSURES",
    "GLYPH_NAMES",
    "Hypotheses",
    "control_roles",
    "disclosure_roles",
    "glyph_name",
    "icon_roles",
    "is_link_color",
    "saturation",
    "text_roles",
]

Hypotheses = tuple[tuple[str, float], ...]
Color = tuple[float, float, float]

LINK_HUE: Final[tuple[float, float]] = (190.0, 290.0)
"""Hue range (degrees) of link colours: blues to purples."""
LINK_SATURATION: Final[float] = 0.35
LINK_VALUE: Final[float] = 0.3
"""Darker than this, a bluish colour is body text (a dark navy), not a link."""
HEADING_SCALE: Final[float] = 1.3
"""Text at least this much taller than the median line is a heading."""
HEADING_INK_SCALE: Final[float] = 1.5
"""Text whose ink is at least this much taller than the median line's ink is a heading:
the ink (ascender to descender) follows the font size more closely than the OCR box, which
pads short words and small text alike."""
BOLD_STROKE: Final[float] = 1.6
"""Text whose strokes are at least this much wider than the median of the screen's free
text is bold (a regular 15 px face draws 2 px strokes, its bold 4 px)."""
BOLD_TITLE_INK: Final[float] = 1.15
"""A bold link whose ink is at least this much taller than the median (a little larger
than body text) may be a heading too: a post's title, linked to the post, set at about
1.2 times the body's size."""
CENTERED: Final[float] = 0.2
"""Inner text whose centre is within this share of the box width of the box centre is
centred (a button's label); further left it is a field's content."""
LEFT_ALIGNED: Final[float] = 3.0
"""Inner text whose gap to the box's right side is at least this many times its gap to the
left side, and wider than the text is tall, starts where a field's content starts (a long
placeholder: "Search hacks.mozilla.org" 6 px from the left, 26 px from the right), however
near the centre its own centre lies; a button's caption has even gaps."""
FIELD_LEAD: Final[float] = 0.3
"""Inner text that starts at most this many box heights from the left side of a box
:data:`FIELD_WIDE` times wider than tall starts where a field's value starts, however far
it runs (a placeholder or an address filling an unstyled field, 5-7 px in from a 24 px
border); a caption that long on a button is padded more."""
FIELD_WIDE: Final[float] = 6.0
FIELD_ASPECT: Final[float] = 4.0
"""Width/height from which an empty or left-aligned box is a text field."""
FILLED_SATURATION: Final[float] = 0.25
"""A box whose inside is this saturated is a filled (primary) button."""
MAX_CONTROL_HEIGHT: Final[float] = 72.0
"""Boxes taller than this (px) are panels, not controls."""

GLYPH_NAMES: Final[Mapping[str, str]] = {
    "×": "Close", "✕": "Close", "✖": "Close", "X": "Close", "x": "Close",
    "+": "Add", "＋": "Add", "☰": "Menu", "≡": "Menu", "⋮": "More", "⋯": "More",
    "…": "More", "?": "Help", "⚙": "Settings", "🔍": "Search", "<": "Previous",
    "‹": "Previous", "«": "Previous", "←": "Back", ">": "Next", "›": "Next", "»": "Next",
    "→": "Forward", "✓": "Done", "✔": "Done", "▾": "Open", "▼": "Open", "⌄": "Open",
    "v": "Open", "-": "Remove", "−": "Remove", "★": "Favorite", "☆": "Favorite",
    "♡": "Like", "♥": "Like", "🗑": "Delete", "✎": "Edit", "✏": "Edit",
}  # fmt: skip
"""What a lone glyph in an icon-sized box usually means (its accessible name on the web)."""

DISCLOSURES: Final[frozenset[str]] = frozenset("▶▸►▷▹⯈▼▾▽▿⯆")
"""Triangles drawn before a ``<details>`` summary or a tree item: the text after one is a
disclosure control (a button), not plain text."""

CHEVRONS: Final[frozenset[str]] = frozenset({"▾", "▼", "⌄", "v", "V", "˅", "∨"})

BOX_GLYPHS: Final[frozenset[str]] = frozenset("☐□▢◻❑❒☑☒")
"""Box glyphs OCR reads for a checkbox too small or too faint for its outline to be found
(device scale 0.75, JPEG): such a glyph is a checkbox."""


def glyph_name(glyph: str) -> str:
    """The conventional name of a lone glyph (``"×"`` -> ``"Close"``), else the glyph."""
    return GLYPH_NAMES.get(glyph.strip(), glyph.strip())


def _hsv(color: Color) -> tuple[float, float, float]:
    blue, green, red = (max(0.0, min(255.0, c)) / 255.0 for c in color)
    hue, saturation, value = colorsys.rgb_to_hsv(red, green, blue)
    return hue * 360.0, saturation, value


def saturation(color: Color) -> float:
    """HSV saturation of a BGR colour, in ``[0, 1]``."""
    return _hsv(color)[1]


def is_link_color(color: Color | None) -> bool:
    """Whether text of this BGR colour looks like a link (saturated blue to purple)."""
    if color is None:
        return False
    hue, saturation, value = _hsv(color)
    return (
        LINK_HUE[0] <= hue <= LINK_HUE[1] and saturation >= LINK_SATURATION and value >= LINK_VALUE
    )


def text_roles(
    color: Color | None,
    height: float,
    median_height: float,
    ink_scale: float = 0.0,
    stroke_scale: float = 0.0,
    *,
    underlined: bool = False,
) -> Hypotheses:
    """Free text (not inside a control): a link, a heading or plain text. ``ink_scale`` is
    the height of the text's ink over the median of the screen's free text, ``stroke_scale``
    the width of its strokes over theirs (0: unknown). Bold text of body size may be a
    small heading (an ``h3`` or ``h4`` is set bold at about the body's size) as well as a
    label or a link: a third hypothesis. Text in link colour, or underlined in any colour
    (green, grey: a site's own link colour), is a link; large, or bold and a little larger
    than body text, it may be a heading (a post's title, linked to the post)."""
    tall = median_height > 0 and height >= HEADING_SCALE * median_height
    if underlined or is_link_color(color):
        titled = stroke_scale >= BOLD_STROKE and ink_scale >= BOLD_TITLE_INK
        if tall or ink_scale >= HEADING_INK_SCALE or titled:
            return (("link", 0.45), ("heading", 0.3), ("text", 0.25))
        return (("link", 0.7), ("text", 0.3))
    if tall or ink_scale >= HEADING_INK_SCALE:
        return (("heading", 0.6), ("text", 0.4))
    if stroke_scale >= BOLD_STROKE:
        return (("text", 0.45), ("heading", 0.3), ("link", 0.25))
    return (("text", 0.6), ("link", 0.4))


def disclosure_roles() -> Hypotheses:
    """Text after a disclosure triangle: the summary of a ``<details>`` (a button), else
    plain text."""
    return (("button", 0.7), ("text", 0.3))


def icon_roles(inside_control: bool) -> Hypotheses:
    """An icon blob or a lone glyph: an image, or an icon button when it stands alone."""
    if inside_control:
        return (("img", 0.8),)
    return (("button", 0.5), ("img", 0.5))


def _text_centered(box: Box, texts: Sequence[Box]) -> bool:
    left = min(t[0] for t in texts)
    right = max(t[2] for t in texts)
    center = (left + right) / 2.0
    return abs(center - (box[0] + box[2]) / 2.0) <= CENTERED * (box[2] - box[0])


def _left_aligned(box: Box, texts: Sequence[Box]) -> bool:
    """Whether the inner texts start where a field's content starts (see
    :data:`LEFT_ALIGNED`, :data:`FIELD_LEAD` and :data:`FIELD_WIDE`)."""
    lead = min(t[0] for t in texts) - box[0]
    trail = box[2] - max(t[2] for t in texts)
    tall = max(t[3] - t[1] for t in texts)
    width, height = box[2] - box[0], box[3] - box[1]
    if width >= FIELD_WIDE * height and lead <= FIELD_LEAD * height:
        return True
    return trail >= LEFT_ALIGNED * max(lead, 1.0) and trail - lead >= tall


def control_roles(
    kind: str,
    box: Box,
    texts: Sequence[Box],
    fill: Color,
    chevron: bool = False,
) -> Hypotheses:
    """A shape with the text boxes inside it: checkbox, radio, button, text field, combobox.

    ``chevron`` says a down-arrow sits at its right end (a select).
    """
    if kind == "checkbox":
        return (("checkbox", 0.85),)
    if kind == "radio":
        return (("radio", 0.85),)
    width, height = box[2] - box[0], box[3] - box[1]
    aspect = width / height if height > 0 else 0.0
    filled = _hsv(fill)[1] >= FILLED_SATURATION
    if chevron:
        return (("combobox", 0.7), ("button", 0.3))
    if not texts:
        if aspect >= FIELD_ASPECT and not filled:
            return (("textbox", 0.7), ("button", 0.3))
        return (("button", 0.6), ("img", 0.4))
    if filled or (_text_centered(box, texts) and not _left_aligned(box, texts)):
        return (("button", 0.8), ("textbox", 0.2)) if not filled else (("button", 0.9),)
    if aspect >= FIELD_ASPECT:
        return (("textbox", 0.7), ("button", 0.3))
    return (("button", 0.5), ("textbox", 0.5))
