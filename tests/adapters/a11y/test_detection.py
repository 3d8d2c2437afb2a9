import pytest

from resolver import InvalidObservationError, Observation, UnsupportedFormatError


@pytest.mark.parametrize(
    "raw",
    [
        "{broken",
        b"\xff\xfe\x00garbage",
        "<root><unclosed></root>",
        '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]><x>&a;&a;</x>',
        "   ",
        12345,
        3.5,
        object(),
        "[" * 100_000 + "]" * 100_000,
    ],
)
def test_bad_input_is_typed(raw: object) -> None:
    with pytest.raises(InvalidObservationError):
        Observation(accessibility_tree=raw).candidates("a11y")


def test_unknown_json_shape() -> None:
    with pytest.raises(UnsupportedFormatError) as info:
        Observation(accessibility_tree={"foo": 1}).candidates("a11y")
    assert info.value.code.value == "UNSUPPORTED_FORMAT"
