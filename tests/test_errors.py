from resolver import ElementNotFoundError, ErrorCode, InvalidObservationError, ResolutionError
from resolver.results import Candidate, TraceEntry


def test_code_message_and_evidence() -> None:
    err = ElementNotFoundError(
        "gone",
        candidates=[{"id": "1", "score": 0.4}],
        trace=[{"source": "a11y", "status": "not_found", "rule": "refuse.threshold"}],
        rule="refuse.threshold",
    )
    assert err.code is ErrorCode.ELEMENT_NOT_FOUND
    # The message names the deciding rule and the nearest candidate with its score.
    assert (
        str(err)
        == "[ELEMENT_NOT_FOUND] gone (rule refuse.threshold; nearest: element 1, score 0.40)"
    )
    # Mappings are read into the same typed objects a Resolution holds.
    assert isinstance(err.evidence.candidates[0], Candidate)
    assert err.evidence.candidates[0].id == "1" and err.evidence.candidates[0].score == 0.4
    assert isinstance(err.evidence.trace[0], TraceEntry)
    assert err.evidence.trace[0].rule == err.evidence.rule == "refuse.threshold"
    data = err.to_dict()
    assert data["code"] == "ELEMENT_NOT_FOUND" and data["rule"] == "refuse.threshold"
    assert data["candidates"][0]["id"] == "1" and data["candidates"][0]["score"] == 0.4
    assert data["trace"][0]["source"] == "a11y" and data["trace"][0]["rule"] == "refuse.threshold"
    # The JSON form reads back to equal objects.
    again = ElementNotFoundError("gone", candidates=data["candidates"], trace=data["trace"])
    assert again.evidence.candidates == err.evidence.candidates
    assert again.evidence.trace == err.evidence.trace


def test_code_override_and_root() -> None:
    err = InvalidObservationError("bad", code=ErrorCode.CATALOG_OUTDATED)
    assert err.code is ErrorCode.CATALOG_OUTDATED
    assert isinstance(err, ResolutionError)
    assert isinstance(err, ValueError)
