"""The DOM confirming an accessibility-tree answer among twins (``ambiguous.sources_disagree``)."""

from typing import Any

import pytest

from resolver import (
    AmbiguousMatchError,
    InvalidObservationError,
    Limits,
    MatchConfig,
    Observation,
    SemanticElementRef,
    resolve,
    resolve_many,
)
from resolver.decide import decide
from resolver.decide.crosscheck import answer_path, needs_confirmation, sources_disagree

_FIRST = "/html[1]/body[1]/ul[1]/li[1]/a[1]"
_SECOND = "/html[1]/body[1]/ul[1]/li[2]/a[1]"


def _page(first: str, second: str, limits: Limits | None = None) -> Observation:
    """Two "Promoted Links" links in a list, of classes ``first`` and ``second``: a CDP tree
    linked to the page by document paths (no classes in it), and the page's HTML."""
    html = (
        "<html><body><ul>"
        f'<li><a class="{first}" href="#one">Promoted Links</a></li>'
        f'<li><a class="{second}" href="#one">Promoted Links</a></li>'
        "</ul></body></html>"
    )
    nodes: list[dict[str, Any]] = [
        {"nodeId": "1", "role": {"value": "RootWebArea"}, "name": {"value": "Page"},
         "childIds": ["4", "5"], "backendDOMNodeId": 1},
    ]  # fmt: skip
    for backend in (4, 5):
        nodes.append(
            {"nodeId": str(backend), "role": {"value": "link"},
             "name": {"value": "Promoted Links"}, "parentId": "1",
             "backendDOMNodeId": backend}
        )  # fmt: skip
    links = {"1": "/html[1]", "4": _FIRST, "5": _SECOND}
    return Observation(
        accessibility_tree={"nodes": nodes}, dom_html=html, dom_node_map=links,
        limits=limits or Limits(),
    )  # fmt: skip


# The target: the disclosure link, recorded in the first slot of the list.
_REF = SemanticElementRef(
    role="link", name="Promoted Links", xpath=_FIRST, tag="a", classes=("trc_disclosure",)
)


def test_a_reorder_that_puts_a_twin_in_the_recorded_slot_is_refused_by_the_chain() -> None:
    reordered = _page("trc_promo", "trc_disclosure")
    # The accessibility tree alone takes the twin its xpath now names: it cannot read classes.
    alone = resolve(_REF, reordered, sources=("a11y",))
    assert alone.executor_id == "a11y:4"
    with pytest.raises(AmbiguousMatchError) as caught:
        resolve(_REF, reordered, sources=("a11y", "dom"))
    evidence = caught.value.evidence
    assert evidence.rule == "ambiguous.sources_disagree"
    entry = evidence.trace[0]
    assert entry.source == "a11y" and entry.rule == "ambiguous.sources_disagree"
    assert "DOM source" in entry.reason and _FIRST in entry.reason
    # Both sources' picks are in the evidence: the a11y answer and the DOM's best row.
    assert entry.best is not None and entry.best.executor_id == "a11y:4"
    assert entry.runner_up is not None and entry.runner_up.source == "dom"
    assert {c.source for c in evidence.candidates} == {"a11y", "dom"}
    # The DOM is not asked again for an answer of its own: the twins are what it disagreed on.
    assert [t.rule for t in evidence.trace[1:]] == ["refuse.absent_upstream"]
    batch = resolve_many([_REF], reordered, sources=("a11y", "dom"))[0]
    assert isinstance(batch, AmbiguousMatchError) and batch.evidence.rule == evidence.rule


def test_an_answer_the_dom_confirms_stands() -> None:
    kept = _page("trc_disclosure", "trc_promo")
    found = resolve(_REF, kept, sources=("a11y", "dom"))
    assert found.executor_id == "a11y:4" and found.source == "a11y"
    assert [t.rule for t in found.trace] == ["accept.verified_selector"]


def test_a_dom_that_cannot_be_read_confirms_nothing_and_refuses_nothing() -> None:
    # The page's HTML over the limit: the DOM source refuses it, as it would if asked alone.
    unreadable = _page("trc_promo", "trc_disclosure", Limits(max_html_chars=50))
    with pytest.raises(InvalidObservationError):
        resolve(_REF, unreadable, sources=("dom",))
    # The chain's a11y answer is what it was without the check (no error from the DOM).
    assert resolve(_REF, unreadable, sources=("a11y", "dom")).executor_id == "a11y:4"


def test_the_facts_of_the_check() -> None:
    page, config = _page("trc_promo", "trc_disclosure"), MatchConfig()
    a11y, dom = page.candidates("a11y"), page.candidates("dom")
    taken = decide(_REF, a11y, config)
    assert answer_path(a11y, taken) == _FIRST
    assert needs_confirmation(_REF, a11y, taken, config)
    # Nothing to confirm without recorded classes, or in a table that carries them.
    assert not needs_confirmation(_REF.model_copy(update={"classes": ()}), a11y, taken, config)
    assert not needs_confirmation(_REF, dom, decide(_REF, dom, config), config)
    checked = decide(_REF, dom, config)
    why = sources_disagree(a11y, taken, dom, checked)
    assert why is not None and "twin" in why
    same = decide(_REF, _page("trc_disclosure", "trc_promo").candidates("dom"), config)
    kept = _page("trc_disclosure", "trc_promo").candidates("dom")
    assert sources_disagree(a11y, taken, kept, same) is None
