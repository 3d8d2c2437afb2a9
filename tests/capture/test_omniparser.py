import pytest

from resolver import InvalidReferenceError
from resolver.capture import from_omniparser


def test_ratios_become_pixels_with_a_confidence() -> None:
    icon = {"type": "icon", "bbox": [0.1, 0.2, 0.15, 0.25], "interactivity": True,
            "content": "Settings"}  # fmt: skip
    ref = from_omniparser(icon, (1000, 800))
    assert (ref.role, ref.name, ref.confidence) == ("button", "Settings", 0.6)
    assert ref.bbox == pytest.approx((100.0, 160.0, 150.0, 200.0))
    text = from_omniparser({"type": "text", "bbox": [10, 10, 60, 30], "content": "Hi",
                            "interactivity": False, "score": 0.97}, (1000, 800))  # fmt: skip
    assert (text.role, text.bbox, text.confidence) == ("text", (10.0, 10.0, 60.0, 30.0), 0.97)


def test_bad_input() -> None:
    with pytest.raises(InvalidReferenceError):
        from_omniparser({"type": "icon"}, (1000, 800))
    with pytest.raises(InvalidReferenceError):
        from_omniparser({"content": "x"}, (0, 800))
    with pytest.raises(InvalidReferenceError):
        from_omniparser("icon", (10, 10))


@pytest.mark.parametrize(
    "screen", [(float("nan"), 800), (1000, float("inf")), (10**400, 800), (2_000_000, 800)]
)
def test_a_screen_size_that_is_no_size_is_refused(screen: tuple[float, float]) -> None:
    with pytest.raises(InvalidReferenceError, match="screen_size"):
        from_omniparser({"content": "x", "bbox": [0.1, 0.1, 0.2, 0.2]}, screen)
