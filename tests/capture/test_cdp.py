import pytest

from resolver import InvalidReferenceError, Observation, resolve
from resolver.capture import from_cdp_node

NODES = [
    {"nodeId": "1", "role": {"value": "RootWebArea"}, "name": {"value": "Shop"},
     "childIds": ["2"]},
    {"nodeId": "2", "parentId": "1", "role": {"value": "dialog"}, "name": {"value": "Cart"},
     "childIds": ["3"]},
    {"nodeId": "3", "parentId": "2", "role": {"value": "link"}, "name": {"value": "Checkout"},
     "backendDOMNodeId": 30, "properties": [{"name": "url", "value": {"value": "/pay"}},
                                            {"name": "focused", "value": {"value": True}}]},
]  # fmt: skip


def test_from_cdp_node_with_ancestors_dom_node_and_box_model() -> None:
    flat = ["id", "go", "class", "btn primary", "href", "/pay", "data-testid", "checkout",
            "title", "Pay now"]  # fmt: skip
    dom = {"localName": "a", "attributes": flat}
    box = {"model": {"border": [10, 20, 90, 20, 90, 40, 10, 40]}}
    ref = from_cdp_node(NODES[2], box, ancestors=NODES[:2], dom_node=dom, viewport=(800, 600))
    assert (ref.role, ref.name, ref.bbox) == ("link", "Checkout", (10.0, 20.0, 90.0, 40.0))
    assert ref.container_path == ("Shop", "Cart") and ref.focused is True
    assert ref.panel == ("dialog", "Cart")
    assert from_cdp_node(NODES[2], box, ancestors=NODES[:1]).panel is None
    assert (ref.tag, ref.dom_id, ref.test_id, ref.href) == ("a", "go", "checkout", "/pay")
    assert ref.classes == ("btn", "primary") and ref.attributes == {"title": "Pay now"}
    assert resolve(ref, Observation(accessibility_tree=NODES)).executor_id == "a11y:3"


def test_from_cdp_node_refuses_what_is_no_node() -> None:
    assert from_cdp_node({"role": {"value": "button"}}, [1, 2, "x", 4]).bbox is None
    with pytest.raises(InvalidReferenceError):
        from_cdp_node(["role", "button"])
    with pytest.raises(InvalidReferenceError):
        from_cdp_node({"nodeId": "9"})
