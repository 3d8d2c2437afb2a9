"""``resolver.limits``: the documented input limits, their refusals and the CLI spelling."""

import pytest

from resolver import ConfigError, InvalidObservationError, LimitExceededError, Limits
from resolver.errors import MAX_MESSAGE, ErrorCode
from resolver.limits import DEFAULT_LIMITS, REFERENCE_LIMITS, parse_limit


def test_defaults_are_documented_values() -> None:
    assert Limits() == DEFAULT_LIMITS
    values = Limits().to_dict()
    assert values["max_nodes"] == 500_000 and values["max_depth"] == 4_096
    assert values["max_tree_bytes"] == 200 * 2**20 and values["max_image_pixels"] == 40_000_000
    assert all(isinstance(v, int) and v > 0 for v in values.values())
    assert REFERENCE_LIMITS["name"] == 10_000


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "10", None])
def test_every_limit_is_a_positive_int(bad: object) -> None:
    for name in Limits().to_dict():
        with pytest.raises(ConfigError, match=f"Limits.{name} must be a positive int"):
            Limits(**{name: bad})  # type: ignore[arg-type]


def test_refusal_names_the_limit_and_both_spellings() -> None:
    err = Limits(max_nodes=10).refuse("max_nodes", None, "the tree")
    assert isinstance(err, LimitExceededError) and isinstance(err, InvalidObservationError)
    assert err.code is ErrorCode.LIMIT_EXCEEDED
    text = str(err)
    assert "the tree has more than 10 nodes, over the limit max_nodes=10" in text
    assert "Limits(max_nodes=...)" in text and "--limit max_nodes=N" in text
    assert err.evidence.details == {"limit": "max_nodes", "allowed": 10, "found": None}
    counted = Limits().refuse("max_tree_bytes", 300_000_000, "the file")
    assert "the file has 300,000,000 bytes" in str(counted) and len(str(counted)) < MAX_MESSAGE


def test_parse_limit_applies_one_name_value() -> None:
    base = Limits(max_depth=7)
    assert parse_limit("max_nodes=2_000_000", base) == Limits(max_depth=7, max_nodes=2_000_000)
    assert parse_limit("max-depth=9").max_depth == 9
    for bad, message in [
        ("max_nodes", "NAME=VALUE"),
        ("nodes=5", "NAME=VALUE"),
        ("max_nodes=lots", "positive integer"),
        ("max_nodes=0", "positive int"),
    ]:
        with pytest.raises(ConfigError, match=message):
            parse_limit(bad)
    with pytest.raises(ConfigError) as caught:
        parse_limit("x" * 100_000)
    assert len(str(caught.value)) < 400
