"""What the two Android formats share: roles from class and flags, names, the screen."""

from resolver.adapters.a11y._android import AndroidRoles, descendant_label, pick_name, root_screen
from resolver.table import NO_STATE


def test_android_roles_learn_once_and_tell_overrides() -> None:
    roles = AndroidRoles()
    view = ("android.view.View", True, False, False)
    assert roles.learn(view) == ("button", "button")  # a clickable generic view is a button
    button = ("android.widget.Button", False, False, False)
    assert roles.learn(button) == ("button", None)  # the class's own role needs no override
    assert roles.known[view] == ("button", "button")


def test_pick_name_fields_and_controls() -> None:
    assert pick_name("textbox", "Ada", "Customer", "") == ("Customer", "Ada")
    assert pick_name("button", "", "Save", "hint") == ("Save", "")


def test_descendant_label_reads_texts_in_order() -> None:
    tree = {"a": ["b", "c"], "b": ["d"], "c": [], "d": []}
    texts = {"a": "", "b": "One", "c": "Two", "d": "One"}
    assert descendant_label("a", tree.__getitem__, texts.__getitem__) == "One Two"


def test_root_screen_from_the_first_root_at_the_origin() -> None:
    rows = [
        ("0", "x", "", -1, (10.0, 10.0, 50.0, 50.0), "", NO_STATE),
        ("0.0", "x", "", 0, (0.0, 0.0, 5.0, 5.0), "", NO_STATE),
        ("1", "x", "", -1, (0.0, 0.0, 1080.0, 2400.0), "", NO_STATE),
    ]
    assert root_screen(rows) == (1080.0, 2400.0)
    assert root_screen(rows[:2]) is None
