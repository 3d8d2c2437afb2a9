from typing import Any

import pytest
from fuzz_strategies import json_scalars, json_values
from hypothesis import given, settings
from hypothesis import strategies as st

from resolver import ActionWithElement, InvalidReferenceError, Observation, resolve
from resolver.capture import action_from_event, from_chrome_event

EVENT = {"type": "click", "x": 420, "y": 230, "viewport": {"width": 1280, "height": 800},
         "element": {"tag": "BUTTON", "innerText": "  Save\n", "bbox": {"x": 380, "y": 214,
                     "width": 64, "height": 32}, "cssSelector": "#save", "xpath":
                     "/html[1]/body[1]/div[1]/button[1]", "id": "save",
                     "className": "btn css-1x2y3z",
                     "attributes": {"type": "submit", "onclick": "x()"}, "data-testid": "save-btn",
                     "nearbyText": ["Cancel", "", "Network"], "disabled": False,
                     "ancestors": [{"tag": "div", "role": "dialog", "name": "Settings"},
                                   {"tag": "form"}, {"tag": "li", "content": "Row one"},
                                   {"tag": "div", "role": "group", "name": ""}]}}  # fmt: skip


def test_every_field_of_the_payload_is_recorded() -> None:
    ref = from_chrome_event(EVENT)
    assert (ref.role, ref.name, ref.tag) == ("button", "Save", "button")
    assert ref.bbox == (380.0, 214.0, 444.0, 246.0) and ref.screen_size == (1280, 800)
    assert (ref.css_selector, ref.dom_id, ref.test_id) == ("#save", "save", "save-btn")
    assert ref.xpath == "/html[1]/body[1]/div[1]/button[1]"
    assert ref.classes == ("btn", "css-1x2y3z") and ref.attributes == {"type": "submit"}
    assert ref.nearby_text == ("Cancel", "Network") and ref.enabled is True
    # Named containers and an unnamed list item by its text; never the XPath's steps.
    assert ref.container_path == ("Settings", "Row one")
    assert ref.panel == ("dialog", "Settings")  # the innermost dialog or tab panel
    assert from_chrome_event({**EVENT["element"], "heading": " Network\n"}).heading == "Network"


def test_the_panel_is_the_innermost_dialog_or_tab_panel() -> None:
    modal = {"tag": "button", "name": "Save", "ancestors": [
        {"tag": "body"}, {"tag": "div", "role": "tabpanel", "name": "Profile"},
        {"tag": "dialog", "role": None, "name": ""}, {"tag": "div"}]}  # fmt: skip
    assert from_chrome_event(modal).panel == ("dialog", "")
    tab = {**modal, "ancestors": modal["ancestors"][:2]}
    assert from_chrome_event(tab).panel == ("tabpanel", "Profile")
    assert from_chrome_event({**modal, "ancestors": [{"tag": "form"}]}).panel is None
    assert from_chrome_event({**modal, "ancestors": "dialog"}).panel is None
    section = {**modal, "ancestors": [{"tag": "details", "summary": "Shipping address"}]}
    assert from_chrome_event(section).panel == ("details", "Shipping address")
    # A details element given another role by its author is read by that role.
    tabbed = {**modal, "ancestors": [{"tag": "details", "role": "tabpanel", "name": "Ship"}]}
    assert from_chrome_event(tabbed).panel == ("tabpanel", "Ship")


def test_roles_from_tags_and_names_only_paths() -> None:
    box = {"tag": "input", "attributes": {"type": "checkbox"}, "name": "Remember me",
           "ancestors": [{"name": "Login"}, {"name": ""}, {"name": "Form"}]}  # fmt: skip
    ref = from_chrome_event(box)
    assert (ref.role, ref.container_path) == ("checkbox", ("Login", "Form"))
    assert from_chrome_event({"role": "menuitem link", "name": "Open"}).role == "menuitem"
    assert from_chrome_event({"tag": "div", "name": "x", "visible": False}).confidence == 0.5


def test_the_reference_resolves_in_the_dom_it_came_from() -> None:
    html = ("<div role=dialog aria-label=Settings><form><button id=other>Save</button></form>"
            "<ul><li>Row one <button id=save>Save</button></li></ul></div>")  # fmt: skip
    event = {**EVENT["element"], "xpath": None, "cssSelector": None, "bbox": None}  # type: ignore[dict-item]
    res = resolve(from_chrome_event(event), Observation(dom_html=html))
    assert res.executor_id == "xpath:/html[1]/body[1]/div[1]/ul[1]/li[1]/button[1]"


def test_actions_and_bad_events() -> None:
    action = action_from_event(EVENT)
    assert (action.type, action.x, action.y) == ("click", 420.0, 230.0)
    # The focus a press gives its element is not recorded as the element's state.
    pressed = {**EVENT, "element": {**EVENT["element"], "focused": True}}
    assert from_chrome_event(pressed).focused is True
    assert action_from_event(pressed).element.focused is None  # type: ignore[union-attr]
    keyed = action_from_event({**pressed, "type": "keydown", "key": "Enter"})
    assert keyed.element is not None and keyed.element.focused is True
    typed = action_from_event({"type": "change", "value": "hello", "element": {"tag": "input"}})
    assert (typed.type, typed.text) == ("type", "hello")
    assert action_from_event({"type": "scroll", "x": 0, "y": 0}).element is None
    for bad in (["click"], {"type": "teleport", "name": "x"}, {"type": "click"},
                {"type": "click", "x": 1, "name": "x"}):  # fmt: skip
        with pytest.raises(InvalidReferenceError):
            action_from_event(bad)
    with pytest.raises(InvalidReferenceError, match="from_chrome_event"):
        from_chrome_event("click")


def test_a_file_fields_choice_is_an_upload_of_the_file_names() -> None:
    field = {"tag": "INPUT", "attributes": {"type": "file"}, "name": "Attachments"}
    from_value = action_from_event({"type": "change", "value": r"C:\fakepath\cv.pdf",
                                    "element": field})  # fmt: skip
    assert (from_value.type, from_value.files, from_value.text) == ("upload", ("cv.pdf",), None)
    listed = action_from_event({"type": "input", "element": field,
                                "files": [{"name": "a.png"}, "b.txt", 7, "  "]})  # fmt: skip
    assert (listed.type, listed.files) == ("upload", ("a.png", "b.txt"))
    emptied = action_from_event({"type": "change", "value": "", "element": field})
    assert (emptied.type, emptied.files) == ("upload", ())
    button = {"tag": "button", "name": "Choose photos"}
    chosen = action_from_event({"type": "upload", "files": ["x.jpg"], "element": button})
    assert (chosen.type, chosen.files, chosen.element.name) == (  # type: ignore[union-attr]
        "upload", ("x.jpg",), "Choose photos",
    )  # fmt: skip
    # Files on an event of another element are not read: a text field's change is typing.
    typed = action_from_event({"type": "change", "value": "a.png", "files": ["a.png"],
                               "element": {"tag": "input"}})  # fmt: skip
    assert (typed.type, typed.files, typed.text) == ("type", None, "a.png")


FILE_FIELD = {"tag": "input", "attributes": {"type": "file"}, "name": "Attachments"}


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["change", "input", "upload", "click", "type"]),
    st.one_of(st.just(FILE_FIELD), json_values),
    st.one_of(st.lists(st.one_of(st.text(max_size=8), json_scalars, json_values)), json_values),
    json_scalars,
)
def test_any_event_is_an_action_or_a_typed_refusal(
    kind: str, element: Any, files: Any, value: Any
) -> None:
    event = {"type": kind, "x": 5, "y": 5, "element": element, "files": files, "value": value}
    try:
        action = action_from_event(event)
    except InvalidReferenceError:
        return
    assert isinstance(action, ActionWithElement)
    assert (action.type == "upload") == (action.files is not None)
