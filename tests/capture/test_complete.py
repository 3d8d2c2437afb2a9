import pytest

from resolver import (
    AmbiguousMatchError,
    ElementNotFoundError,
    InvalidObservationError,
    InvalidReferenceError,
    Observation,
    SemanticElementRef,
    resolve,
    resolve_element,
)
from resolver.capture import complete_ref
from resolver.capture.complete import merge_ref


def _page(*, with_header_share: bool = True) -> Observation:
    """A header and a footer that both hold a "Share" link."""
    header = [{"id": "home", "role": "link", "name": "Home", "bbox": [10, 10, 60, 30]}]
    if with_header_share:
        header.append({"id": "s1", "role": "link", "name": "Share", "bbox": [70, 10, 120, 30]})
    x = 130 if with_header_share else 70
    header.append({"id": "about", "role": "link", "name": "About", "bbox": [x, 10, x + 50, 30]})
    tree = {"id": "root", "role": "document", "name": "Page", "children": [
        {"id": "h", "role": "banner", "children": header},
        {"id": "main", "role": "main", "children": [
            {"id": "p", "role": "paragraph", "name": "Body text", "bbox": [10, 50, 600, 400]}]},
        {"id": "f", "role": "contentinfo", "children": [
            {"id": "s2", "role": "link", "name": "Share", "bbox": [70, 700, 120, 720]},
            {"id": "c", "role": "link", "name": "Contact", "bbox": [130, 700, 180, 720]}]},
    ]}  # fmt: skip
    return Observation(accessibility_tree=tree, screen_size=(1280, 800))


# What another tool wrote for the header's "Share": its own facts, nothing around it.
FOREIGN = SemanticElementRef(
    role="link", name="Share", bbox=(70, 10, 120, 30), screen_size=(1280, 800), test_id="share"
)


def test_a_completed_reference_records_the_look_alikes_of_its_page() -> None:
    ref = complete_ref(FOREIGN, _page())
    assert ref.lookalikes == ((70.0, 700.0, 120.0, 720.0),)
    assert ref.occurrence is None  # another container path: not a look-alike of its group
    assert {name for name, _ in ref.anchors} >= {"Home", "About"}
    assert ref.nearby_text[:1] == ("Home",)
    assert ref.test_id == "share"  # kept: the page has no test ids
    assert resolve_element(ref, _page()) == "a11y:s1"


def test_a_completed_reference_refuses_the_look_alike_its_target_left_behind() -> None:
    later = _page(with_header_share=False)
    # The foreign reference cannot tell the footer's "Share" from its target moved there.
    assert resolve(FOREIGN, later, sources=("a11y",)).executor_id == "a11y:s2"
    with pytest.raises(ElementNotFoundError):
        resolve(complete_ref(FOREIGN, _page()), later, sources=("a11y",))


def test_an_element_not_certain_on_its_own_page_is_not_completed() -> None:
    twins = [{"id": i, "role": "button", "name": "OK"} for i in ("a", "b")]
    tree = {"id": "r", "role": "dialog", "children": twins}
    with pytest.raises(AmbiguousMatchError):
        complete_ref({"role": "button", "name": "OK"}, Observation(accessibility_tree=tree))
    with pytest.raises(ElementNotFoundError):
        complete_ref({"role": "button", "name": "Cancel"}, Observation(accessibility_tree=tree))


def test_the_dom_records_what_the_html_holds() -> None:
    html = (
        '<html><body><nav><a href="/s" id="top-share">Share</a></nav><p>Body text</p>'
        '<footer><a href="/s">Share</a></footer></body></html>'
    )
    ref = complete_ref(
        {"role": "link", "name": "Share", "xpath": "/html/body/nav/a", "bbox": [1, 2, 3, 4]},
        {"dom_html": html},
        sources=("dom",),
    )
    assert (ref.dom_id, ref.tag, ref.xpath) == ("top-share", "a", "/html[1]/body[1]/nav[1]/a[1]")
    assert ref.container_path == ("[navigation]",)
    assert ref.nearby_text == ("Body text",)
    assert ref.bbox == (1.0, 2.0, 3.0, 4.0)  # the page has no layout: the recorded box stays


@pytest.mark.parametrize("sources", [(), ("coords",), ("a11y", "nowhere"), "coords"])
def test_sources_without_elements_are_refused(sources: object) -> None:
    with pytest.raises(InvalidReferenceError, match="sources"):
        complete_ref(FOREIGN, _page(), sources=sources)  # type: ignore[arg-type]


def test_bad_input_gets_a_typed_error() -> None:
    with pytest.raises(InvalidReferenceError):
        complete_ref({"role": 5}, _page())
    with pytest.raises(InvalidObservationError):
        complete_ref(FOREIGN, {"accessibility_tree": "<not a tree"})


def test_merge_keeps_the_fresh_structure_and_one_box_with_its_space() -> None:
    fresh = SemanticElementRef(role="link", name="Share", lookalikes=(), container_path=())
    old = SemanticElementRef(
        role="button", name="Old", bbox=(1, 1, 5, 5), screen_size=(100, 100),
        container_path=("Nav",), lookalikes=((1, 50, 5, 55),), href="/s",
    )  # fmt: skip
    merged = merge_ref(fresh, old)
    assert (merged.role, merged.name, merged.href) == ("link", "Share", "/s")
    assert (merged.container_path, merged.lookalikes) == ((), ())
    assert (merged.bbox, merged.screen_size) == ((1.0, 1.0, 5.0, 5.0), (100, 100))
    boxed = SemanticElementRef(name="Share", bbox=(2, 2, 6, 6))
    assert merge_ref(boxed, old).screen_size is None  # its own box, its own (unknown) space


def test_a_snapshot_kept_with_the_recording_completes_it() -> None:
    from resolver.snapshot import to_snapshot_v1

    kept = to_snapshot_v1(_page())  # what a recording stores beside its actions
    ref = complete_ref(FOREIGN, {"accessibility_tree": kept})
    assert ref.lookalikes == complete_ref(FOREIGN, _page()).lookalikes
    with pytest.raises(ElementNotFoundError):
        resolve(ref, _page(with_header_share=False), sources=("a11y",))
