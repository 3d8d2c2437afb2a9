from pathlib import Path

import pytest

from resolver import InvalidObservationError, Observation

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "formats"


def table(text: str):  # type: ignore[no-untyped-def]
    return Observation(accessibility_tree=text).candidates("a11y")


def test_fixture_refs_states_and_text() -> None:
    t = table((FIXTURES / "aria_snapshot" / "invoice.aria.yml").read_text())
    assert t.format == "aria_snapshot" and t.coord_space == "none"
    ok = t.names.index("OK")
    assert t.executor_ids[ok] == "a11y:e18" and t.platform_ids["ref"][ok] == "e18"
    assert t.enabled[t.names.index("Delete")] == 0
    field = next(i for i in range(len(t)) if t.roles[i] == "textbox")
    assert t.focused[field] == 1 and t.values[field] == "Ada Lovelace"
    assert t.containers[field] == ("Customer",)


def test_quoting_props_and_markdown_fence() -> None:
    text = (
        "# Page snapshot\n\n```yaml\n"
        '- link "Docs":\n'
        "  - /url: /docs\n"
        "- 'option \"Name: A–Z\" [selected]'\n"
        '- paragraph: see [1] and "quotes"\n'
        '- text: "3"\n'
        '- button "Say \\"hi\\"" [pressed]: Hi\n'
        '- heading "Title" [level=2]\n'
        "```\n"
    )
    t = table(text)
    assert t.roles == ("link", "option", "paragraph", "text", "button", "heading")
    assert t.names == ("Docs", "Name: A–Z", 'see [1] and "quotes"', "3", 'Say "hi"', "Title")
    assert t.values[4] == "Hi" and t.executor_ids[0] == "a11y:0"


def test_nesting_by_indentation() -> None:
    t = table('- navigation "Main":\n  - list:\n    - listitem:\n      - link "A"\n- main\n')
    assert t.parent.tolist() == [-1, 0, 1, 2, -1]
    assert t.containers[3][0] == "Main"


def test_not_a_snapshot_is_typed() -> None:
    with pytest.raises(InvalidObservationError):
        table("- \n-  \n")
