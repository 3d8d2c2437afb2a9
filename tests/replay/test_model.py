"""Options, tasks and the replay's errors."""

from __future__ import annotations

from typing import Any

import pytest

from resolver.replay.model import (
    MissingExtraError,
    RecordingError,
    ReplayError,
    ReplayOptions,
    Task,
)


def test_options_give_resolve_arguments_and_a_stable_digest() -> None:
    options = ReplayOptions(sources=("a11y",), threshold=0.7, min_margin=0.1)
    assert options.resolve_options() == {
        "sources": ("a11y",),
        "coords_fallback": "unobserved",
        "threshold": 0.7,
        "min_margin": 0.1,
    }
    assert "threshold" not in ReplayOptions().resolve_options()
    assert options.digest() == ReplayOptions(("a11y",), 0.7, 0.1).digest()
    assert options.digest() != ReplayOptions(sources=("a11y",), against="next").digest()
    # min_confidence: passed on; unset, it leaves the digest as it was before it existed.
    sure = ReplayOptions(min_confidence=0.9)
    assert sure.resolve_options()["min_confidence"] == 0.9
    assert "min_confidence" not in ReplayOptions().resolve_options()
    assert sure.digest() != ReplayOptions().digest() == "26de72daf92b"
    # complete: unset, the digest is as before it existed too.
    assert ReplayOptions(complete=True).digest() != ReplayOptions(complete=False).digest()


def test_task_names_and_error_tree() -> None:
    assert Task("captures", "/x", "login").name == "captures/login"
    assert Task("file", "/x/a.json").name == "/x/a.json"
    assert issubclass(RecordingError, ValueError) and issubclass(RecordingError, ReplayError)
    assert issubclass(MissingExtraError, ImportError)


def test_limits_are_an_option_with_a_digest_of_their_own() -> None:
    from resolver.limits import DEFAULT_LIMITS, Limits

    assert ReplayOptions().limits is DEFAULT_LIMITS
    # Left at the defaults, the digest is as before limits existed: stored results stay valid.
    assert ReplayOptions(limits=Limits()).digest() == "26de72daf92b"
    assert ReplayOptions(limits=Limits(max_nodes=5)).digest() != ReplayOptions().digest()


def test_a_recording_over_a_limit_is_one_error_of_both_kinds() -> None:
    from resolver.errors import ErrorCode, LimitExceededError, ResolutionError
    from resolver.limits import Limits
    from resolver.replay.model import RecordingTooLargeError

    error = RecordingTooLargeError.refuse(Limits(max_recording_bytes=10), "max_recording_bytes",
                                          99, "r.json")  # fmt: skip
    assert isinstance(error, RecordingError) and isinstance(error, LimitExceededError)
    assert isinstance(error, ResolutionError) and isinstance(error, ReplayError)
    assert error.code is ErrorCode.LIMIT_EXCEEDED
    assert error.evidence.details == {"limit": "max_recording_bytes", "allowed": 10, "found": 99}
    assert "max_recording_bytes" in error.message
    assert "--limit max_recording_bytes=N" in error.message


@pytest.mark.parametrize(
    "options",
    [{"against": "bogus"}, {"sources": 5}, {"sources": ("bogus",)}, {"sources": ()},
     {"threshold": 5}, {"min_margin": -0.1}, {"min_confidence": True},
     {"coords_fallback": "x"}, {"complete": "yes"}, {"limits": {"max_nodes": 5}}],
)  # fmt: skip
def test_a_bad_replay_option_is_refused_at_once(options: dict[str, Any]) -> None:
    """Not as an error on every step, nor as a recording reported corrupt."""
    from resolver.errors import ConfigError

    with pytest.raises(ConfigError):
        ReplayOptions(**options)


def test_replay_sources_may_be_one_name_or_any_iterable() -> None:
    assert ReplayOptions(sources="a11y").sources == ("a11y",)
    assert ReplayOptions(sources=["a11y", "dom"]).sources == ("a11y", "dom")
    assert ReplayOptions(sources=["a11y"]).digest() == ReplayOptions(sources=("a11y",)).digest()
