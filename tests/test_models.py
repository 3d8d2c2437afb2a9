import json
import math
import time
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from resolver import ActionWithElement, InvalidReferenceError, ResolutionError, SemanticElementRef
from resolver.limits import REFERENCE_LIMITS


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
        {"name": "x", "panel": [" ", "Settings"]},
        {"name": "x", "panel": ["dialog" * 40, "Settings"]},
        {"name": "x", "panel": ["dialog"]},
    ],
)
def test_invalid_refs_raise_typed_error(data: dict[str, object]) -> None:
    with pytest.raises(InvalidReferenceError) as info:
        SemanticElementRef.model_validate(data)
    assert info.value.code.value == "INVALID_REFERENCE"
    assert isinstance(info.value, ValueError)


def test_the_panel_is_trimmed_cut_and_kept_through_json() -> None:
    ref = SemanticElementRef(name="Save", panel=("dialog ", " New password\n"))
    assert ref.panel == ("dialog", "New password")
    assert SemanticElementRef.model_validate_json(ref.model_dump_json()) == ref
    long = SemanticElementRef(name="Save", panel=("dialog", "x" * 5000))
    assert long.panel is not None and len(long.panel[1]) == 2000
    assert SemanticElementRef(name="Save", panel=("dialog", "a\ud800")).panel == (
        "dialog", "a\ufffd")  # fmt: skip


def test_the_heading_is_collapsed_and_cut() -> None:
    assert SemanticElementRef(name="Add", heading=" Green\n teapot ").heading == "Green teapot"
    assert SemanticElementRef(name="Add", heading="  ").heading is None
    long = SemanticElementRef(name="Add", heading="x" * 5000).heading
    assert long is not None and len(long) == 200


def test_invalid_json_is_typed() -> None:
    with pytest.raises(InvalidReferenceError):
        SemanticElementRef.model_validate_json("{not json")


def test_constructor_errors_are_typed() -> None:
    with pytest.raises(InvalidReferenceError, match="inverted"):
        SemanticElementRef(bbox=(5, 5, 1, 1))


def test_a_box_whose_area_is_no_finite_number_is_refused() -> None:
    # Every coordinate a float, the area not: compared with a row, it would overflow.
    with pytest.raises(InvalidReferenceError, match="too large"):
        SemanticElementRef(bbox=(0, 0, 1e200, 1e200))
    assert SemanticElementRef(bbox=(0, 0, 1e100, 1e100)).bbox is not None


def test_action_with_element() -> None:
    action = ActionWithElement(type="click", x=5, y=6, element=SemanticElementRef(name="OK"))
    assert ActionWithElement.model_validate_json(action.model_dump_json()) == action
    with pytest.raises(InvalidReferenceError):
        ActionWithElement(type="type")
    with pytest.raises(InvalidReferenceError):
        ActionWithElement(type="click", x=1)
    with pytest.raises(InvalidReferenceError, match="element"):
        ActionWithElement.model_validate({"type": "click", "element": {"bbox": [3, 3, 1, 1]}})


def test_an_upload_names_its_files() -> None:
    action = ActionWithElement(type="upload", files=["cv.pdf", "a\ud800.png"])
    assert action.files == ("cv.pdf", "a\ufffd.png")  # (a lone surrogate replaced)
    assert ActionWithElement.model_validate_json(action.model_dump_json()) == action
    assert ActionWithElement(type="upload", files=[]).files == ()  # the field emptied
    for bad in (
        {"type": "upload"},  # no files
        {"type": "click", "files": ["a.pdf"]},  # files on another action
        {"type": "upload", "files": [""]},
        {"type": "upload", "files": ["a"] * 101},
        {"type": "upload", "files": "a.pdf"},
    ):
        with pytest.raises(InvalidReferenceError):
            ActionWithElement.model_validate(bad)


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


def test_an_unknown_attribute_named_with_a_lone_surrogate_is_reported_escaped() -> None:
    """A message naming the attribute could not be reported with the raw surrogate in it."""
    with pytest.raises(InvalidReferenceError, match=r"got on\\ud800click"):
        SemanticElementRef(role="button", attributes={"on\ud800click": "go()"})
    with pytest.raises(InvalidReferenceError):
        SemanticElementRef.model_validate({"role": "button", "attributes": {"\udfff": "x"}})


def test_lone_surrogates_in_a_reference_are_read_as_replacement_characters() -> None:
    """A recorder that cuts a name inside an emoji leaves half of it: every text of the
    reference holds U+FFFD there instead (a split pair is joined), so it writes as JSON."""
    half = "\ud83d"
    ref = SemanticElementRef(
        role="button", name=f"Buy {half}", xpath=f"/a{half}", container_path=[f"Cart {half}"],
        nearby_text=["\ud83d\ude00 ok"], attributes={"title": f"t{half}"},
        anchors=[(f"Home{half}", [0, 0, 9, 9])], classes=[f"c{half}"],
    )  # fmt: skip
    assert ref.name == "Buy \ufffd" and ref.xpath == "/a\ufffd"
    assert ref.container_path == ("Cart \ufffd",) and ref.nearby_text == ("\U0001f600 ok",)
    assert ref.attributes == {"title": "t\ufffd"} and ref.anchors[0][0] == "Home\ufffd"
    assert ref.classes == ("c\ufffd",)
    assert SemanticElementRef.model_validate_json(ref.model_dump_json()) == ref
    assert ref.model_copy(update={"name": half}).name == "\ufffd"
    action = ActionWithElement(type="type", text=f"hi {half}", element=ref)
    assert action.text == "hi \ufffd"
    assert ActionWithElement.model_validate_json(action.model_dump_json()) == action


def test_references_and_actions_are_hashable_as_they_compare() -> None:
    one = SemanticElementRef(role="button", name="OK", attributes={"title": "x", "alt": "y"})
    same = SemanticElementRef(role="button", name="OK", attributes={"alt": "y", "title": "x"})
    other = SemanticElementRef(role="button", name="OK", attributes={"alt": "z", "title": "x"})
    assert one == same and hash(one) == hash(same) and len({one, same, other}) == 2
    click = ActionWithElement(type="click", element=one)
    assert {click: 1}[ActionWithElement(type="click", element=same)] == 1
    assert ActionWithElement(type="click", element=other) not in {click}


def test_json_escaping_a_lone_surrogate_is_read() -> None:
    """``JSON.stringify`` writes half an emoji as ``\\ud83d``; pydantic's parser refuses
    it, the models read it (as U+FFFD); other invalid JSON stays refused."""
    text = '{"role": "link", "name": "Menu \\ud83d", "bbox": [0, 0, 5, 5]}'
    assert SemanticElementRef.model_validate_json(text).name == "Menu \ufffd"
    assert SemanticElementRef.model_validate_json(text.encode()).name == "Menu \ufffd"
    pair = '{"role": "link", "name": "\\ud83d\\ude00"}'
    assert SemanticElementRef.model_validate_json(pair).name == "\U0001f600"
    action = '{"type": "click", "element": {"role": "link", "name": "\\udc00"}}'
    assert ActionWithElement.model_validate_json(action).element.name == "\ufffd"
    for bad in (
        '{"role": "link", "name": "\\ud83d"',  # cut short
        '{"role": "link", "name": "\\ud83d", "bbox": [NaN, 0, 1, 1]}',
        "[" * 100_000 + '"\\ud83d"' + "]" * 100_000,
    ):
        with pytest.raises(InvalidReferenceError):
            SemanticElementRef.model_validate_json(bad)


def _sized(key: str, size: int) -> dict[str, Any]:
    """A reference dict whose field ``key`` (of REFERENCE_LIMITS) has ``size`` characters or
    entries."""
    if key == "container_path entries":
        return {"role": "button", "container_path": [f"c{k}" for k in range(size)]}
    if key == "container_path entry":
        return {"role": "button", "container_path": ["Settings", "p" * size]}
    assert key in SemanticElementRef.model_fields, key
    return {"role": "button", key: "a" * size}


def test_a_long_container_entry_is_cut_not_refused() -> None:
    # A recorder that names an ancestor by its whole text (an article's section).
    limit = REFERENCE_LIMITS["container_path entry"]
    long = _sized("container_path entry", 3 * limit)
    for ref in (
        SemanticElementRef(**long),
        SemanticElementRef.model_validate(long),
        SemanticElementRef.model_validate_json(json.dumps(long)),
    ):
        assert ref.container_path == ("Settings", "p" * limit)
    huge = SemanticElementRef(role="button", container_path=["x" * 50_000_000])
    assert huge.container_path == ("x" * limit,)


@pytest.mark.parametrize("key", sorted(k for k in REFERENCE_LIMITS if k != "container_path entry"))
def test_reference_limits_are_enforced(key: str) -> None:
    limit = REFERENCE_LIMITS[key]
    at_limit = SemanticElementRef.model_validate(_sized(key, limit))
    assert SemanticElementRef.model_validate_json(at_limit.model_dump_json()) == at_limit
    assert SemanticElementRef(**_sized(key, limit)) == at_limit
    over = _sized(key, limit + 1)
    field = {"container_path entries": "container_path", "container_path entry": "container_path"}
    for build in (
        lambda: SemanticElementRef(**over),
        lambda: SemanticElementRef.model_validate(over),
        lambda: SemanticElementRef.model_validate_json(json.dumps(over)),
    ):
        with pytest.raises(InvalidReferenceError) as info:
            build()
        message = str(info.value)
        assert len(message) < 300
        assert field.get(key, key) in message
        assert f"{limit + 1:,}" in message and f"reference limit of {limit:,}" in message


def test_a_50_mb_name_is_refused_at_once_with_a_short_message() -> None:
    name = "a" * 50_000_000
    document = json.dumps({"role": "button", "name": name})
    for build in (
        lambda: SemanticElementRef(role="button", name=name),
        lambda: SemanticElementRef.model_validate({"role": "button", "name": name}),
        lambda: SemanticElementRef.model_validate_json(document),
        lambda: SemanticElementRef.model_validate_json(document.encode()),
        lambda: ActionWithElement.model_validate({"type": "click", "element": {"name": name}}),
    ):
        start = time.perf_counter()
        with pytest.raises(InvalidReferenceError) as info:
            build()
        assert time.perf_counter() - start < 2.0
        message = str(info.value)
        assert len(message) < 2000 and "a" * 200 not in message
        assert "name has 50,000,000 characters, over the reference limit of 10,000" in message


@pytest.mark.parametrize(
    "data",
    [
        {"classes": "a " * 25_000_000},
        {"classes": ["a"] * 1_000_000},
        {"classes": ["b" * 50_000_000]},
        {"container_path": ["x"] * 1_000_000},
        {"container_path": (item for item in ["x"] * 1_000_000)},
        {"attributes": {"k" * 50_000_000: "v"}},
    ],
)
def test_huge_collections_are_refused_quickly(data: dict[str, Any]) -> None:
    start = time.perf_counter()
    with pytest.raises(InvalidReferenceError) as info:
        SemanticElementRef(role="button", **data)
    assert time.perf_counter() - start < 2.0
    assert len(str(info.value)) < 300


def test_classes_within_the_limit_are_kept() -> None:
    tokens = [f"{k:02d}" + "c" * 126 for k in range(32)]
    assert SemanticElementRef(role="button", classes=" ".join(tokens)).classes == tuple(tokens)
    assert SemanticElementRef(role="button", classes=tokens).classes == tuple(tokens)


def test_references_are_immutable_with_a_typed_error() -> None:
    ref = SemanticElementRef(role="button", name="OK", container_path=("Dialog",))
    for change in (
        lambda: setattr(ref, "name", "Cancel"),
        lambda: setattr(ref, "unknown", 1),
        lambda: delattr(ref, "role"),
    ):
        with pytest.raises(InvalidReferenceError) as info:
            change()
        assert isinstance(info.value, ResolutionError)
        assert "immutable" in info.value.message
        assert "ref.model_copy(update={" in info.value.message
    assert ref.name == "OK" and ref.role == "button"
    changed = ref.model_copy(update={"name": "Cancel"})
    assert changed.name == "Cancel" and changed.container_path == ("Dialog",)
    assert ref.name == "OK"
    assert SemanticElementRef.model_validate_json(changed.model_dump_json()) == changed
    action = ActionWithElement(type="click", element=ref)
    with pytest.raises(InvalidReferenceError, match=r"action\.model_copy"):
        action.type = "hover"


@pytest.mark.parametrize(
    ("update", "words"),
    [
        ({"name": "x" * 50_000_000}, "50,000,000 characters"),
        ({"bbox": (float("nan"), 0, 1, 1)}, "finite"),
        ({"nmae": "Cancel"}, "nmae"),
        ({"role": None, "name": None}, "needs at least one of"),
    ],
)
def test_a_changed_copy_is_validated_as_a_new_reference(
    update: dict[str, object], words: str
) -> None:
    ref = SemanticElementRef(role="button", name="OK")
    with pytest.raises(InvalidReferenceError, match=words) as info:
        ref.model_copy(update=update)
    assert len(str(info.value)) < 2_000


def test_a_copy_keeps_which_fields_were_set() -> None:
    ref = SemanticElementRef(role="button", name="OK", bbox=(1, 2, 3, 4))
    changed = ref.model_copy(update={"name": "Cancel"})
    assert changed.model_fields_set == {"role", "name", "bbox"}
    assert changed.model_dump(exclude_unset=True) == {
        "role": "button", "name": "Cancel", "bbox": (1.0, 2.0, 3.0, 4.0),
    }  # fmt: skip
    assert ref.model_copy() == ref and ref.model_copy(deep=True) == ref
    action = ActionWithElement(type="click", x=1, y=2)
    with pytest.raises(InvalidReferenceError, match="go together"):
        action.model_copy(update={"y": None})
