"""``accept.pairwise``: the learned model answers where the hand rules had too little."""

from __future__ import annotations

import pytest

from resolver import (
    AmbiguousMatchError,
    ElementNotFoundError,
    Observation,
    SemanticElementRef,
    resolve,
)
from resolver.decide.learned import RESCUED


def _site(header: str = "Sign up free", footer: str = "Sign up today") -> Observation:
    """A redesigned page: the recorded header button's link moved into the header's next
    block (a step just above it renumbered: no xpath tie-breaker of the hand rules reads
    that for a reference without a box), renamed; the header's menu has a link of a similar
    name (one region: the region does not tell them apart either)."""
    links = [
        {"id": "h", "role": "link", "name": header, "tag": "a",
         "xpath": "/html/body/div[2]/header/div[2]/a[2]", "attributes": {"class": "nav-cta"}},
        {"id": "f", "role": "link", "name": footer, "tag": "a",
         "xpath": "/html/body/div[2]/header/ul/li[4]/a", "attributes": {"class": "menu-link"}},
        {"id": "x", "role": "link", "name": "Help", "tag": "a",
         "xpath": "/html/body/footer/ul/li[5]/a"},
    ]  # fmt: skip
    return Observation(accessibility_tree={"id": "root", "role": "document", "children": links})


REF = SemanticElementRef(
    role="link", name="Sign up", tag="a", xpath="/html/body/div[2]/header/div/a[2]",
    classes=("cta",),
)  # fmt: skip
"""Both "Sign up ..." links clear the threshold within the margin of each other (the name
is all the hand score has), but the recorded place in the document points at the header's."""


def test_a_tie_the_hand_rules_leave_is_broken_by_the_model() -> None:
    with pytest.raises(AmbiguousMatchError) as refused:
        resolve(REF, _site(), sources=("a11y",), pairwise_accept=1.0)
    assert refused.value.evidence.rule in RESCUED
    with pytest.raises(AmbiguousMatchError):  # off by default
        resolve(REF, _site(), sources=("a11y",))
    res = resolve(REF, _site(), sources=("a11y",), pairwise_accept=0.5)
    assert res.executor_id == "a11y:h"
    assert res.rule == "accept.pairwise"
    assert any(k.startswith("pairwise:") for k in res.candidate.signals)
    assert "learned pairwise model" in res.trace[-1].reason


def test_look_alikes_tied_stay_a_question() -> None:
    # The same names up to a digit: only places tell them apart, and the model is not asked.
    ref = REF.model_copy(update={"name": "Sign up 1"})
    with pytest.raises(AmbiguousMatchError) as refused:
        resolve(ref, _site("Sign up 2", "Sign up 3"), sources=("a11y",), pairwise_accept=0.5)
    assert refused.value.evidence.rule == "ambiguous.margin"


def test_the_model_does_not_answer_without_web_evidence() -> None:
    ref = SemanticElementRef(role="link", name="Sign up")
    with pytest.raises(AmbiguousMatchError) as refused:
        resolve(ref, _site(), sources=("a11y",), pairwise_accept=0.5)
    assert refused.value.evidence.rule == "ambiguous.margin"


def test_the_model_does_not_answer_where_it_is_unsure() -> None:
    # Nothing but the role and tag: every link is as likely as the next.
    ref = SemanticElementRef(role="link", tag="a", xpath="/html/body/main/p/a")
    with pytest.raises(ElementNotFoundError):
        resolve(ref, _site(), sources=("a11y",), pairwise_accept=0.5)
