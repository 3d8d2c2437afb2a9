"""Whatever arrives as an observation or a reference, the public API answers or raises one of
its own errors: never a raw traceback, never a hang."""

import contextlib
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from resolver import Observation, Resolution, ResolutionError, resolve

json_values = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=True) | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=30,
)

node_keys = st.sampled_from(
    ["id", "role", "name", "bbox", "children", "nodeId", "childIds", "parentId", "ignored",
     "AXRole", "AXChildren", "ControlType", "Children", "ax_tree", "nodes", "root_id",
     "BoundingRectangle", "AXFrame", "class", "bounds", "text", "value", "properties"]
)  # fmt: skip
tree_like = st.recursive(
    st.none() | st.text(max_size=6) | st.floats(allow_nan=True) | st.integers(-5, 5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(node_keys, inner, max_size=6),
    max_leaves=40,
)


def _check(tree: object, ref: dict[str, object]) -> None:
    try:
        result = resolve(ref, Observation(accessibility_tree=tree))
    except ResolutionError:
        return
    assert isinstance(result, Resolution)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=tree_like)
def test_random_trees_never_crash(tree: object) -> None:
    _check(tree, {"role": "button", "name": "OK", "bbox": [0, 0, 10, 10]})


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=tree_like)
def test_random_trees_as_text_never_crash(tree: object) -> None:
    _check(json.dumps(tree), {"name": "OK"})


@settings(max_examples=200, deadline=None)
@given(ref=st.dictionaries(st.text(max_size=12), json_values, max_size=5))
def test_random_refs_never_crash(ref: dict[str, object]) -> None:
    _check({"id": "1", "role": "button", "name": "OK", "bbox": [0, 0, 10, 10]}, ref)


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=200))
def test_random_text_never_crashes(text: str) -> None:
    _check(text, {"name": "OK"})


@settings(max_examples=100, deadline=None)
@given(data=st.binary(max_size=300))
def test_random_bytes_never_crash(data: bytes) -> None:
    _check(data, {"name": "OK"})
    with contextlib.suppress(ResolutionError):
        resolve({"name": "OK"}, Observation(dom_html=data), sources=("dom",))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=tree_like)
def test_completing_a_reference_on_random_trees_never_crashes(tree: object) -> None:
    from resolver import SemanticElementRef
    from resolver.capture import complete_ref

    for ref in ({"role": "button", "name": "OK", "bbox": [0, 0, 10, 10]}, {"name": "OK"}):
        try:
            completed = complete_ref(ref, Observation(accessibility_tree=tree), sources=("a11y",))
        except ResolutionError:
            continue
        assert isinstance(completed, SemanticElementRef)


ok_button = st.fixed_dictionaries(
    {"role": st.just("button"), "name": st.just("OK")},
    optional={
        "id": st.text(max_size=4),
        "bbox": st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=5),
        "children": st.lists(tree_like, max_size=2),
        "class": st.text(max_size=6),
        "value": json_values,
    },
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(buttons=st.lists(ok_button, min_size=1, max_size=3), noise=st.lists(tree_like, max_size=2))
def test_completing_among_odd_namesakes_never_crashes(
    buttons: list[object], noise: list[object]
) -> None:
    from resolver import SemanticElementRef
    from resolver.capture import complete_ref

    tree = {"id": "root", "role": "dialog", "name": "Settings", "children": [*buttons, *noise]}
    try:
        completed = complete_ref({"role": "button", "name": "OK"}, {"accessibility_tree": tree})
    except ResolutionError:
        return
    assert isinstance(completed, SemanticElementRef) and completed.name == "OK"


def _numbers_replaced(doc: object, by: int) -> object:
    if isinstance(doc, dict):
        return {key: _numbers_replaced(value, by) for key, value in doc.items()}
    if isinstance(doc, list):
        return [_numbers_replaced(value, by) for value in doc]
    if isinstance(doc, int | float) and not isinstance(doc, bool):
        return by
    return doc


def test_integers_too_large_for_a_float_in_every_fixture_tree() -> None:
    # JSON may hold 10**400 and Python's reader returns it as an int, which float() refuses:
    # every format reads such a box as unusable (or refuses the tree), never an OverflowError.
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "fixtures"
    built = 0
    for path in sorted([*root.glob("formats/*/*.json"), *root.glob("captured/*/axtree.json")]):
        doc = _numbers_replaced(json.loads(path.read_text(encoding="utf-8")), 10**400)
        for raw in (doc, json.dumps(doc)):
            try:
                table = Observation(accessibility_tree=raw).candidates("a11y")
            except ResolutionError:
                continue
            built += 1
            assert not bool((abs(table.bboxes) > 1e300).any()), path
    assert built >= 20
