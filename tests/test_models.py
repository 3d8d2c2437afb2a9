import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from resolver import ActionWithElement, InvalidReferenceError, SemanticElementRef


def test_round_trip_json() -> None:
    ref = SemanticElementRef(
        role="button",
        name="OK",
        bbox=(10, 20, 70, 44),
        container_path=("Settings", "Display"),
        enabled=True,
        automation_id="btnOK",
        css_selector="#ok",
        xpath="/html/body/button",
        screen_size=(1280, 800),
        confidence=0.9,
    )
    again = SemanticElementRef.model_validate_json(ref.model_dump_json())
    assert again == ref
    assert SemanticElementRef.model_validate(json.loads(ref.model_dump_json())) == ref
    assert ref.center == (40.0, 32.0)


def test_json_schema_exports() -> None:
    schema = SemanticElementRef.model_json_schema()
    assert {"role", "name", "bbox", "container_path", "xpath"} <= set(schema["properties"])
    action = ActionWithElement.model_json_schema()
    assert "element" in action["properties"]


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"role": "  ", "name": ""},
        {"bbox": [10, 10, 5, 20]},
        {"bbox": [0, 0, math.nan, 1]},
        {"bbox": [0, 0, math.inf, 1]},
        {"bbox": [0, 0, 1]},
        {"name": 5},
        {"name": "x", "confidence": 1.5},
        {"name": "x", "screen_size": [0, 100]},
        {"name": "x", "unknown_field": 1},
    ],
)
def test_invalid_refs_raise_typed_error(data: dict[str, object]) -> None:
    with pytest.raises(InvalidReferenceError) as info:
        SemanticElementRef.model_validate(data)
    assert info.value.code.value == "INVALID_REFERENCE"
    assert isinstance(info.value, ValueError)


def test_invalid_json_is_typed() -> None:
    with pytest.raises(InvalidReferenceError):
        SemanticElementRef.model_validate_json("{not json")


def test_constructor_errors_are_typed() -> None:
    with pytest.raises(InvalidReferenceError, match="inverted"):
        SemanticElementRef(bbox=(5, 5, 1, 1))


def test_action_with_element() -> None:
    action = ActionWithElement(type="click", x=5, y=6, element=SemanticElementRef(name="OK"))
    assert ActionWithElement.model_validate_json(action.model_dump_json()) == action
    with pytest.raises(InvalidReferenceError):
        ActionWithElement(type="type")
    with pytest.raises(InvalidReferenceError):
        ActionWithElement(type="click", x=1)
    with pytest.raises(InvalidReferenceError, match="element"):
        ActionWithElement.model_validate({"type": "click", "element": {"bbox": [3, 3, 1, 1]}})


@given(
    st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=4, max_size=4),
    st.one_of(st.none(), st.text(max_size=20)),
)
def test_any_bbox_is_valid_or_typed_error(box: list[float], name: str | None) -> None:
    try:
        ref = SemanticElementRef(bbox=tuple(box), name=name)  # type: ignore[arg-type]
    except InvalidReferenceError:
        return
    assert ref.bbox is not None
    assert ref.bbox[2] >= ref.bbox[0] and ref.bbox[3] >= ref.bbox[1]
    assert all(math.isfinite(v) for v in ref.bbox)


def test_web_evidence_round_trips_and_is_cleaned() -> None:
    ref = SemanticElementRef(
        role="link", name="News", tag=" A ", classes="nav  nav active", href="/news?id=3",
        attributes={"Title": "All news", "alt": "  "}, nearby_text=("Sport", " ", "Weather"),
    )  # fmt: skip
    assert ref.tag == "a" and ref.classes == ("nav", "active")
    assert ref.attributes == {"title": "All news"} and ref.nearby_text == ("Sport", "Weather")
    again = SemanticElementRef.model_validate_json(ref.model_dump_json())
    assert again == ref
    schema = SemanticElementRef.model_json_schema()
    assert {"tag", "classes", "href", "attributes", "nearby_text"} <= set(schema["properties"])


@pytest.mark.parametrize(
    "data",
    [
        {"name": "x", "attributes": {"onclick": "go()"}},
        {"name": "x", "attributes": {"title": "t" * 257}},
        {"name": "x", "classes": [f"c{i}" for i in range(33)]},
        {"name": "x", "classes": ["c" * 129]},
        {"name": "x", "nearby_text": ["a", "b", "c", "d", "e", "f", "g"]},
        {"name": "x", "nearby_text": ["t" * 81]},
        {"name": "x", "href": "/" + "a" * 2048},
        {"name": "x", "tag": "t" * 65},
    ],
)
def test_web_evidence_is_bounded(data: dict[str, object]) -> None:
    with pytest.raises(InvalidReferenceError):
        SemanticElementRef.model_validate(data)
