import math

import pytest
from capture_tree import TREE

from resolver import (
    ElementNotFoundError,
    InvalidObservationError,
    InvalidReferenceError,
    Observation,
)
from resolver.capture import element_at_point, record_click


def test_element_at_point_takes_the_smallest_element_under_it() -> None:
    obs = Observation(accessibility_tree=TREE)
    assert element_at_point(obs, 100, 20).name == "Open"
    assert element_at_point(obs, 400, 20).name == "Main"
    assert element_at_point(obs, 400, 300).name == "Body"
    with pytest.raises(ElementNotFoundError):
        element_at_point(obs, 900, 900)
    with pytest.raises(InvalidReferenceError):
        element_at_point(obs, math.nan, 1)


def test_the_deepest_element_wins_and_a_label_gives_way_to_its_control() -> None:
    tree = {"id": "r", "role": "group", "name": "Big", "bbox": [0, 0, 100, 100], "children": [
        {"id": "b", "role": "button", "name": "Go", "bbox": [0, 0, 200, 200], "children": [
            {"id": "t", "role": "text", "name": "Go", "bbox": [5, 5, 30, 20]}]},
        {"id": "s", "role": "text", "name": "note", "bbox": [50, 50, 60, 60]}]}  # fmt: skip
    obs = Observation(accessibility_tree=tree)
    assert element_at_point(obs, 10, 10).name == "Go"
    assert element_at_point(obs, 10, 10).role == "button"
    assert element_at_point(obs, 150, 150).role == "button"  # deeper than the group
    assert element_at_point(obs, 55, 55).name == "note"


def test_a_point_inside_a_dialog_is_on_the_dialog_not_on_the_page_under_it() -> None:
    # A dialog drawn over a form: the form's label under the dialog's OK is deeper in the
    # tree, but hidden there; the click was on OK.
    label = {"id": "t", "role": "text", "name": "Street", "bbox": [20, 239, 440, 261]}
    ok = {"id": "ok", "role": "button", "name": "OK", "bbox": [318, 240, 353, 261]}
    tree = {"id": "r", "role": "document", "name": "Account", "bbox": [0, 0, 1000, 700],
            "children": [
        {"id": "f", "role": "group", "name": "", "bbox": [20, 200, 440, 300], "children": [
            {"id": "l", "role": "generic", "name": "", "bbox": [20, 239, 440, 261],
             "children": [label]}]},
        {"id": "d", "role": "dialog", "name": "Delete file?", "bbox": [300, 120, 524, 279],
         "children": [ok]}]}  # fmt: skip
    obs = Observation(accessibility_tree=tree)
    assert element_at_point(obs, 335, 250).name == "OK"
    assert element_at_point(obs, 310, 250).role == "dialog"  # the dialog's own margin
    assert element_at_point(obs, 100, 250).name == "Street"  # beside the dialog


@pytest.mark.parametrize(
    ("x", "y"), [("5", 5), (5, None), (10**400, 5), (True, 5), (math.inf, 1), (b"5", 5)]
)
def test_a_point_of_anything_but_two_finite_numbers_is_refused(x: object, y: object) -> None:
    obs = Observation(accessibility_tree=TREE)
    with pytest.raises(InvalidReferenceError, match="two finite numbers"):
        element_at_point(obs, x, y)  # type: ignore[arg-type]


def test_a_point_on_no_observation_is_refused_and_numpy_numbers_are_read() -> None:
    import numpy as np

    with pytest.raises(InvalidObservationError):
        element_at_point(None, 5, 5)  # type: ignore[arg-type]
    obs = Observation(accessibility_tree=TREE)
    assert element_at_point(obs, np.float32(100), np.int64(20)).name == "Open"


def _shadowed(**links: object) -> Observation:
    """A list component whose shadow tree holds a Delete button: the accessibility tree has
    the button, the page's HTML only the host (inside a main landmark)."""
    from resolver.integrations.snapshot import PageObservation

    nodes = [
        {"nodeId": "1", "role": {"value": "RootWebArea"}, "childIds": ["2"]},
        {"nodeId": "2", "parentId": "1", "role": {"value": "main"}, "childIds": ["3"],
         "bbox": [0, 0, 400, 300]},
        {"nodeId": "3", "parentId": "2", "role": {"value": "button"},
         "name": {"value": "Delete"}, "bbox": [10, 10, 60, 30]},
    ]  # fmt: skip
    html = "<html><body><main><order-list></order-list></main></body></html>"
    layout = {"/html[1]/body[1]/main[1]": [0, 0, 400, 300]}
    if not links:
        return Observation({"nodes": nodes}, html, tree_format="cdp", dom_layout=layout)
    return PageObservation(
        {"nodes": nodes}, html, tree_format="cdp", dom_layout=layout, backend_ids={}, **links
    )


@pytest.mark.parametrize(
    ("links", "place"),
    [({"in_shadow": frozenset({"a11y:3"})}, "shadow tree"),
     ({"frame_paths": {"a11y:3": (("/html[1]/body[1]/iframe[1]",), None)}}, "frame")],
)  # fmt: skip
def test_the_dom_source_does_not_record_what_the_page_s_html_does_not_hold(
    links: dict[str, object], place: str
) -> None:
    # A click on a button inside a shadow tree (or a frame) was recorded from the DOM source
    # as the landmark around it (role main, no name): a replay would click the landmark's
    # middle. Refused, and the recorded click keeps its coordinates alone.
    plain = element_at_point(_shadowed(), 30, 20, source="dom")
    assert plain.role == "main"  # (what a plain observation can tell: nothing else)
    obs = _shadowed(**links)
    with pytest.raises(ElementNotFoundError, match=place):
        element_at_point(obs, 30, 20, source="dom")
    assert element_at_point(obs, 30, 20).name == "Delete"
    clicked = record_click(30, 20, obs, source="dom")
    assert clicked.element is None and (clicked.x, clicked.y) == (30.0, 20.0)
    assert element_at_point(obs, 300, 200, source="dom").role == "main"  # (outside it)


def test_a_press_on_what_labels_a_control_is_a_press_on_the_control() -> None:
    # The "x" glyph of a Close button and the picture of a logo link: a click there acts on
    # the control, which a replay looks for (its label may change: "x" became an icon).
    tree = {"id": "r", "role": "document", "name": "Page", "bbox": [0, 0, 800, 600],
            "children": [
        {"id": "c", "role": "button", "name": "Close", "bbox": [700, 10, 740, 40], "children": [
            {"id": "x", "role": "text", "name": "\u00d7", "bbox": [712, 14, 728, 36]}]},
        {"id": "home", "role": "link", "name": "Go to homepage", "bbox": [10, 10, 130, 50],
         "children": [{"id": "g", "role": "generic", "name": "", "bbox": [10, 10, 130, 50],
                       "children": [{"id": "logo", "role": "img", "name": "Go to homepage",
                                     "bbox": [12, 12, 128, 48]}]}]},
        {"id": "p", "role": "paragraph", "name": "", "bbox": [10, 100, 400, 140], "children": [
            {"id": "t", "role": "text", "name": "Plain words", "bbox": [10, 100, 200, 120]}]},
        {"id": "big", "role": "button", "name": "Huge", "bbox": [0, 300, 100, 320]},
        {"id": "lab", "role": "text", "name": "Beside", "bbox": [0, 322, 90, 340]}]}  # fmt: skip
    obs = Observation(accessibility_tree=tree)
    assert (element_at_point(obs, 720, 25).role, element_at_point(obs, 720, 25).name) == (
        "button", "Close",
    )  # fmt: skip
    assert element_at_point(obs, 60, 30).role == "link"  # (through the span around the picture)
    assert element_at_point(obs, 50, 110).name == "Plain words"  # no control around it
    assert element_at_point(obs, 50, 330).name == "Beside"  # a control beside it is not it
    assert record_click(720, 25, obs).element.name == "Close"  # type: ignore[union-attr]


def test_a_press_on_a_heading_inside_a_card_s_link_is_a_press_on_the_link() -> None:
    # A card's title drawn as a heading inside its link (a real page's "related" rail): a
    # click on the title follows the link. A landmark or a dialog inside a control is a
    # surface of its own: a press inside it is not sent past it.
    tree = {"id": "r", "role": "document", "name": "Page", "bbox": [0, 0, 800, 600],
            "children": [
        {"id": "card", "role": "link", "name": "Han Solo", "bbox": [10, 10, 300, 60],
         "children": [{"id": "h", "role": "heading", "name": "Han Solo",
                       "bbox": [10, 10, 300, 60], "children": [
                           {"id": "ht", "role": "text", "name": "Han Solo",
                            "bbox": [12, 20, 120, 50]}]}]},
        {"id": "wrap", "role": "button", "name": "Open", "bbox": [0, 100, 400, 400],
         "children": [{"id": "nav", "role": "navigation", "name": "", "bbox": [0, 100, 400, 400],
                       "children": [{"id": "p", "role": "paragraph", "name": "Words",
                                     "bbox": [10, 110, 200, 130]}]}]},
        {"id": "sec", "role": "paragraph", "name": "", "bbox": [400, 400, 600, 500],
         "children": [{"id": "h2", "role": "heading", "name": "Alone",
                       "bbox": [400, 400, 600, 450]}]}]}  # fmt: skip
    obs = Observation(accessibility_tree=tree)
    assert element_at_point(obs, 100, 30).role == "link"  # (on the heading's text)
    assert element_at_point(obs, 200, 30).role == "link"  # (beside it, on the heading)
    assert element_at_point(obs, 50, 120).name == "Words"  # (the landmark stops it)
    assert element_at_point(obs, 500, 420).name == "Alone"  # no control around it


def test_a_link_under_the_point_is_taken_over_a_deeper_picture_link_whose_box_overflows() -> None:
    # A real page's two widgets (breitbart): a sponsored picture link, deep in its widget,
    # whose box (a picture that did not load, drawn 404 px tall) runs over the next widget's
    # text link; the browser sends a click on that text to the text link, drawn over the
    # picture's box. The smaller of the two innermost rows under the point is what a click
    # lands on; a row inside another under the point still wins over it (the label).
    pics = {"id": "w1", "role": "generic", "name": "", "bbox": [8, 170, 412, 670],
            "children": [{"id": "w1a", "role": "generic", "name": "", "bbox": [8, 170, 412, 670],
                          "children": [{"id": "pic", "role": "link", "name": "Worst cars",
                                        "bbox": [8, 174, 412, 578]}]}]}  # fmt: skip
    text = {"id": "w2", "role": "generic", "name": "", "bbox": [8, 380, 412, 420],
            "children": [{"id": "story", "role": "link", "name": "A mystery solved",
                          "bbox": [8, 382, 412, 418], "children": [
                              {"id": "st", "role": "text", "name": "A mystery solved",
                               "bbox": [8, 382, 300, 400]}]}]}  # fmt: skip
    tree = {"id": "r", "role": "document", "name": "Page", "bbox": [0, 0, 1280, 800],
            "children": [pics, text]}  # fmt: skip
    obs = Observation(accessibility_tree=tree)
    assert element_at_point(obs, 350, 410).name == "A mystery solved"
    assert element_at_point(obs, 100, 390).name == "A mystery solved"  # (on its text)
    assert element_at_point(obs, 210, 300).name == "Worst cars"
    action = record_click(350, 410, obs)
    assert action.element is not None and action.element.name == "A mystery solved"
