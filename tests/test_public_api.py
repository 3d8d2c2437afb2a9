import resolver


def test_all_is_sorted_and_exported() -> None:
    assert resolver.__all__ == sorted(resolver.__all__)
    for name in resolver.__all__:
        assert hasattr(resolver, name), name


def test_public_surface_is_pinned() -> None:
    assert set(resolver.__all__) == {
        "ActionWithElement",
        "AmbiguousMatchError",
        "Candidate",
        "CandidateTable",
        "CatalogOutdatedError",
        "ConfigError",
        "ElementNotFoundError",
        "ElementNotInteractableError",
        "ErrorCode",
        "InvalidObservationError",
        "InvalidReferenceError",
        "InvalidTargetError",
        "LimitExceededError",
        "Limits",
        "MatchConfig",
        "Observation",
        "RecordingError",
        "Resolution",
        "ResolutionError",
        "SemanticElementRef",
        "SourceUnavailableError",
        "TraceEntry",
        "UnsupportedFormatError",
        "resolve",
        "resolve_element",
        "resolve_many",
    }


def test_error_tree() -> None:
    for name in (
        "AmbiguousMatchError",
        "CatalogOutdatedError",
        "ElementNotFoundError",
        "ElementNotInteractableError",
        "InvalidTargetError",
        "InvalidObservationError",
        "InvalidReferenceError",
        "SourceUnavailableError",
        "UnsupportedFormatError",
        "ConfigError",
        "LimitExceededError",
        "RecordingError",
    ):
        assert issubclass(getattr(resolver, name), resolver.ResolutionError)
    # Option errors are ValueErrors; refusals at a limit and broken recordings are bad input.
    assert issubclass(resolver.ConfigError, ValueError)
    assert issubclass(resolver.LimitExceededError, resolver.InvalidObservationError)
    assert issubclass(resolver.RecordingError, resolver.InvalidObservationError)
    assert str(resolver.ErrorCode.LIMIT_EXCEEDED) == "LIMIT_EXCEEDED"
    assert repr(resolver.ErrorCode.AMBIGUOUS) == "AMBIGUOUS"
    assert issubclass(resolver.InvalidReferenceError, ValueError)
    assert issubclass(resolver.InvalidTargetError, resolver.InvalidReferenceError)
    assert issubclass(resolver.UnsupportedFormatError, resolver.InvalidObservationError)
