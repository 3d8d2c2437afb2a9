from resolver import Observation

SNAPSHOT = {
    "role": "WebArea",
    "name": "Form",
    "children": [
        {"role": "textbox", "name": "Email", "value": "a@b.c", "focused": True},
        {"role": "checkbox", "name": "Remember", "checked": False, "disabled": True},
        {"role": "button", "name": "Sign in"},
    ],
}


def test_playwright_snapshot() -> None:
    t = Observation(accessibility_tree=SNAPSHOT).candidates("a11y")
    assert t.format == "playwright"
    assert t.coord_space == "none"
    assert t.ids == ("0", "0.0", "0.1", "0.2")
    assert t.roles == ("document", "textbox", "checkbox", "button")
    assert t.values[1] == "a@b.c"
    assert list(t.enabled) == [-1, -1, 0, -1]
    assert list(t.focused) == [-1, 1, -1, -1]
