"""Groups: panel titles and headings name the controls below them; labels, menus and prose
name nothing."""

from __future__ import annotations

from vision_images import fixture_png

from resolver import Observation
from resolver.adapters.vision.groups import group
from resolver.adapters.vision.layout import Element
from resolver.adapters.vision.widgets import Widget

Box = tuple[float, float, float, float]


def _text(name: str, box: Box) -> Element:
    return Element("text", "text", box, name, "", (("text", 0.6),))


def _button(name: str, box: Box) -> Element:
    return Element("control", "rect", box, name, "", (("button", 0.9),))


def _form(title: str, top: float) -> list[Element]:
    return [
        _text(title, (380, top, 450, top + 24)),
        _text("Port", (378, top + 40, 410, top + 64)),
        Element("control", "rect", (526, top + 36, 905, top + 69), "Port", "", (("textbox", 0.7),)),
        _button("OK", (827, top + 76, 904, top + 107)),
    ]


def _panel(box: Box) -> Widget:
    return Widget("rect", box, 0.9, (250.0, 250.0, 250.0))


def test_a_heading_names_the_controls_below_it() -> None:
    out = group(_form("Network", 20) + _form("Display", 200), [])
    assert [(e.kind, e.name) for e in out] == [("group", "Network"), ("group", "Display")]
    assert [c.name for c in out[0].children] == ["Network", "Port", "Port", "OK"]
    assert out[0].box == (378, 20, 905, 127)
    assert out[0].roles[0][0] == "group"


def test_a_panel_is_named_by_its_title_and_holds_the_heading_groups() -> None:
    title = _text("Preferences", (360, 0, 480, 24))
    top = [title, *_form("Network", 40), *_form("Display", 200)]
    out = group(top, [_panel((340, -10, 940, 330))])
    assert [(e.kind, e.name) for e in out] == [("group", "Preferences")]
    panel = out[0]
    assert panel.box == (340, -10, 940, 330)
    assert [r for r, _ in panel.roles] == ["group", "dialog"]
    assert [(c.kind, c.name) for c in panel.children] == [
        ("text", "Preferences"),
        ("group", "Network"),
        ("group", "Display"),
    ]


def test_an_untitled_panel_or_one_without_controls_names_nothing() -> None:
    prose = _text("Changes apply to this device only.", (360, 0, 600, 20))
    inner = [prose, _button("OK", (827, 60, 904, 90))]
    assert group(inner, [_panel((340, -10, 940, 120))]) == inner
    texts = [_text("Notes", (360, 0, 420, 20)), _text("Today", (360, 40, 420, 60))]
    assert group(texts, [_panel((340, -10, 940, 120))]) == texts


def test_a_wide_gap_ends_the_group() -> None:
    out = group([*_form("Network", 20), _text("Restore defaults", (380, 200, 480, 220))], [])
    assert [e.kind for e in out] == ["group", "text"]


def test_a_subtitle_under_a_heading_is_one_of_its_members() -> None:
    # An article: its title, a date line under it, a paragraph and its actions. The date
    # line is title-like too, but it is the title's subtitle, not the group's name.
    def article(title: str, top: float) -> list[Element]:
        return [
            _text(title, (234, top, 508, top + 23)),
            _text("February 9 · 6 min read", (231, top + 27, 382, top + 47)),
            _text("Fewer pages and clearer runbooks.", (230, top + 51, 989, top + 75)),
            _button("Share", (326, top + 85, 394, top + 116)),
        ]

    long = "Version 4.2 is out: faster builds and a new CLI"  # nine words: still a title
    out = group(article("A calmer on-call rotation", 20) + article(long, 200), [])
    assert [(e.kind, e.name) for e in out] == [
        ("group", "A calmer on-call rotation"),
        ("group", long),
    ]
    assert [c.name for c in out[0].children][:2] == [
        "A calmer on-call rotation",
        "February 9 · 6 min read",
    ]
    # A line taller than the heading above it is a heading of its own.
    tall = article("Overview", 20)
    tall[1] = _text("A bigger line here", (231, 47, 382, 77))
    assert [e.name for e in group(tall, []) if e.kind == "group"] == ["A bigger line here"]


def test_labels_menus_numbers_and_prose_are_not_headings() -> None:
    label = _text("Theme", (376, 181, 428, 206))
    select = Element("control", "rect", (526, 178, 905, 211), "Theme", "", (("combobox", 0.7),))
    prose = _text("Changes apply to this device only.", (380, 240, 600, 260))
    time = _text("08:00-18:00", (380, 280, 470, 300))
    button = _button("Save", (380, 310, 450, 340))
    menu = [_text("File", (20, 400, 46, 420)), _text("Edit", (75, 400, 102, 420))]
    below = _button("New", (20, 430, 80, 460))
    top = [label, select, prose, time, button, *menu, below]
    assert group(top, []) == top
    assert group([], []) == []


def test_a_line_opened_by_a_bullet_or_a_box_glyph_is_not_a_heading() -> None:
    """A checked checkbox on a dark theme reads as ``■`` glued to its label, and a list item
    opens with its bullet: neither names the controls below it."""
    for mark in ("■", "•", "☐"):
        out = group(_form(f"{mark}Use a proxy server", 20), [])
        assert all(e.kind != "group" for e in out), mark
    assert group(_form("Use a proxy server", 20), [])[0].kind == "group"


def test_the_settings_screenshot_has_its_dialog_and_fieldsets() -> None:
    obs = Observation(screenshot=fixture_png("settings"), screen_size=(1280.0, 800.0))
    table = obs.candidates("vision")
    ok = [i for i in range(len(table)) if table.names[i] == "OK" and table.roles[i] == "button"]
    assert sorted(table.containers[i][-2:] for i in ok) == [
        ("Preferences", "Display"),
        ("Preferences", "Network"),
    ]
    dialogs = [i for i in range(len(table)) if table.roles[i] == "dialog"]
    assert [table.names[i] for i in dialogs] == ["Preferences"]


def test_a_frame_is_named_by_the_legend_across_its_top_side() -> None:
    # A fieldset one control high: its legend sits on its top side, half outside it, and a
    # date line above would otherwise name the field as a heading.
    date = _text("Wednesday, March 3", (12, 0, 300, 20))
    legend = _text("Find a story", (21, 32, 110, 55))
    field = Element("control", "rect", (23, 58, 440, 82), "", "", (("textbox", 0.7),))
    button = _button("Go", (444, 58, 505, 82))
    out = group([date, legend, field, button], [Widget("frame", (9, 42, 1270, 94), 1.0)])
    outer = out[0]
    assert (outer.kind, outer.name) == ("group", "Wednesday, March 3")
    frame = outer.children[1]
    assert (frame.kind, frame.name) == ("group", "Find a story")
    assert [c.name for c in frame.children] == ["Find a story", "", "Go"]
    # A frame without a legend across its top side names nothing (too low for a panel's
    # title band to matter: its first text is its field's).
    plain = group([date, field, button], [Widget("frame", (9, 42, 1270, 94), 1.0)])
    assert [e.kind for e in plain] == ["text", "control", "control"]
