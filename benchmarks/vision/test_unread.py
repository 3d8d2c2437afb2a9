"""The unread-names tool's sorting of a vision run's unanswered targets."""

import doctest

from benchmarks.vision import unread
from benchmarks.vision.unread import kind_of, unanswered


def test_a_name_is_read_when_the_screen_text_holds_it_case_and_spacing_aside() -> None:
    assert kind_of("Log In", "Home  LOG\nIN Help") == "read"
    assert kind_of("Search Gizmodo", "SSearchGizmodo Lifehacker") == "read"
    assert kind_of("Copy to clipboard", "HTTPS clone URL") == "unread"
    assert kind_of("", "anything") == kind_of(None, "anything") == "unnamed"
    assert doctest.testmod(unread).failed == 0


def test_only_present_targets_in_the_viewport_without_a_right_answer_are_sorted() -> None:
    def outcome(verdict: str, present: bool = True, place: str = "in_view") -> dict[str, object]:
        return {"page": "p", "version": "v0-identity", "verdict": verdict, "present": present,
                "place": place}  # fmt: skip

    run = [
        outcome("abstained"),
        outcome("wrong"),
        outcome("correct"),
        outcome("abstained", present=False),
        outcome("abstained", place="below_fold"),
    ]
    found = unanswered(run)
    assert list(found) == [("p", "v0-identity")]
    assert [o["verdict"] for o in found[("p", "v0-identity")]] == ["abstained", "wrong"]
