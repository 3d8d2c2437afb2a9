from resolver import ElementNotFoundError, ErrorCode, InvalidObservationError, ResolutionError


def test_code_message_and_evidence() -> None:
    err = ElementNotFoundError(
        "gone", candidates=[{"id": "1", "score": 0.4}], trace=[{"source": "a11y"}]
    )
    assert err.code is ErrorCode.ELEMENT_NOT_FOUND
    assert str(err) == "[ELEMENT_NOT_FOUND] gone"
    data = err.to_dict()
    assert data["code"] == "ELEMENT_NOT_FOUND"
    assert data["candidates"] == [{"id": "1", "score": 0.4}]
    assert data["trace"] == [{"source": "a11y"}]


def test_code_override_and_root() -> None:
    err = InvalidObservationError("bad", code=ErrorCode.CATALOG_OUTDATED)
    assert err.code is ErrorCode.CATALOG_OUTDATED
    assert isinstance(err, ResolutionError)
    assert isinstance(err, ValueError)
