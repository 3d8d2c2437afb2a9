import pytest

from resolver import InvalidTargetError, Observation
from resolver.adapters.dom.elements import ElementFacts
from resolver.catalog.targets import parse_target, rows_for_selector, rows_for_text


@pytest.mark.parametrize(
    ("raw", "kind", "value"),
    [("index=3", "index", "3"), (3, "index", "3"), (" 3 ", "index", "3"),
     ("CSS=#a", "css", "#a"), ("xpath=/html[1]", "xpath", "/html[1]"),
     ("text= Sign in", "text", " Sign in")],
)  # fmt: skip
def test_parse(raw: object, kind: str, value: str) -> None:
    parsed = parse_target(raw, 5)
    assert (parsed.kind, parsed.value) == (kind, value)


@pytest.mark.parametrize("raw", ["index=5", "index=-1", "index=1.5", "role=button", "text=",
                                 True, 1.5, None, "x" * 5000])  # fmt: skip
def test_parse_refuses(raw: object) -> None:
    with pytest.raises(InvalidTargetError):
        parse_target(raw, 5)


def test_rows_for_text_and_selectors() -> None:
    table = Observation(dom_html="<button id=a>Go</button><a href=#>Go</a><p>Go</p>").candidates(
        "dom"
    )
    assert len(rows_for_text(table, "go")) == 2  # the paragraph is not actionable
    facts = ElementFacts(table, None)
    assert [table.names[r] for r in rows_for_selector(table, facts, "css", "#a")] == ["Go"]
    assert rows_for_selector(table, facts, "css", "#missing") == []
    tree = Observation(accessibility_tree={"id": "1", "role": "button", "name": "Go",
                                           "xpath": "/html[1]/body[1]/button[1]"})  # fmt: skip
    t = tree.candidates("a11y")
    assert rows_for_selector(t, ElementFacts(t, None), "xpath", "/html/body/button") in ([0], [])
