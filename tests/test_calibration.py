import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from resolver import ElementNotFoundError, Observation, SemanticElementRef, resolve
from resolver.calibration import COEFFICIENTS, MARGIN_CAP, SIGNALS, confidence, features


def test_probability_grows_with_score_and_margin() -> None:
    scores = [0.6, 0.7, 0.8, 0.9, 1.0]
    for margin in (0.06, 0.1, 0.5):
        values = [confidence(s, margin) for s in scores]
        assert values == sorted(values) and all(0.0 <= v <= 1.0 for v in values)
    for score in (0.6, 0.8, 1.0):
        values = [confidence(score, m) for m in (0.0, 0.03, 0.06, 0.12)]
        assert values == sorted(values)


def test_margins_past_the_cap_count_as_the_cap() -> None:
    assert confidence(0.9, 0.5) == confidence(0.9, MARGIN_CAP)
    assert features(0.9, -0.2)[1] == 0.0
    assert confidence(math.nan, 0.1) == 0.0 and confidence(0.9, math.inf) == 0.0
    assert len(COEFFICIENTS) == 1 + len(features(0.9, 0.1)) == 1 + 4 + 2 * len(SIGNALS)


def test_min_confidence_refuses_narrow_answers() -> None:
    tree = {"id": "r", "role": "form", "name": "F", "children": [
        {"id": "a", "role": "button", "name": "Save draft", "bbox": [0, 0, 80, 20]},
        {"id": "b", "role": "button", "name": "Save", "bbox": [100, 0, 160, 20]}]}  # fmt: skip
    obs = Observation(accessibility_tree=tree)
    ref = SemanticElementRef(role="link", name="Save draft")
    found = resolve(ref, obs)
    assert found.confidence == pytest.approx(
        confidence(found.score, found.margin, found.candidate.signals)
    )
    assert resolve(ref, obs, min_confidence=found.confidence - 1e-3).executor_id == "a11y:a"
    with pytest.raises(ElementNotFoundError) as err:
        resolve(ref, obs, min_confidence=min(1.0, found.confidence + 0.01), sources=("a11y",))
    assert err.value.evidence.rule == "refuse.low_confidence"


def test_min_confidence_holds_for_an_answer_a_selector_verified() -> None:
    html = '<html><body><form id="f"><button>Save</button><button>Send</button></form></body>'
    obs = Observation(dom_html=html)
    ref = SemanticElementRef(role="button", name="Save", css_selector="#f > button:nth-of-type(1)")
    found = resolve(ref, obs, sources=("dom",))
    assert found.rule == "accept.verified_selector"
    # Every answer given carries at least the probability asked for, whichever way it came.
    assert resolve(ref, obs, min_confidence=found.confidence - 1e-3, sources=("dom",))
    with pytest.raises(ElementNotFoundError) as err:
        resolve(ref, obs, min_confidence=min(1.0, found.confidence + 1e-3), sources=("dom",))
    assert err.value.evidence.rule == "refuse.min_confidence"


def test_the_signals_behind_a_score_change_how_sure_it_is() -> None:
    # One score and margin, reached at the recorded place with the recorded name, or by a
    # changed name far from the recorded box: the second is less likely the element.
    here = {"role": 1.0, "name": 1.0, "bbox": 1.0}
    far = {"role": 1.0, "name": 0.7, "bbox": 0.2}
    assert confidence(0.8, 0.1, here) > confidence(0.8, 0.1, far)
    assert features(0.8, 0.1, here) != features(0.8, 0.1, far)
    assert features(0.8, 0.1)[3] == 1.0 and features(0.8, 0.1, here)[3] == 0.0  # vouched


def test_a_coordinate_fallback_is_not_taken_for_a_vouched_answer() -> None:
    # No signals means "a selector vouched" only for an answer that agrees in something.
    obs = Observation(screen_size=(1280, 800))
    ref = SemanticElementRef(
        role="button", name="OK", bbox=(10, 10, 50, 30), screen_size=(1280, 800)
    )
    found = resolve(ref, obs)
    assert found.source == "coords" and found.score == 0.0
    assert found.confidence == 0.0 == confidence(0.0, 0.0)
    assert confidence(0.62, 0.07) > 0.5  # the same empty signals with a score: vouched


@settings(max_examples=200, deadline=None)
@given(
    score=st.floats(allow_nan=True, allow_infinity=True),
    margin=st.floats(allow_nan=True, allow_infinity=True),
    signals=st.dictionaries(
        st.sampled_from((*SIGNALS, "web:other")), st.floats(allow_nan=True, allow_infinity=True)
    ),
)
def test_the_estimate_is_a_probability_whatever_it_is_given(
    score: float, margin: float, signals: dict[str, float]
) -> None:
    value = confidence(score, margin, signals)
    assert 0.0 <= value <= 1.0
    read = [v for k, v in signals.items() if k in SIGNALS]  # others are not read
    if not all(math.isfinite(v) for v in (score, margin, *read)):
        assert value == 0.0
