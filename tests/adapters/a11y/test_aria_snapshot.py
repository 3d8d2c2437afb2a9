import random
from pathlib import Path

import pytest

from resolver import InvalidObservationError, Observation
from resolver.adapters.a11y.aria_snapshot import _ITEM, _parse_item, _read_line

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


# -- the one-match reading of the usual item against the general reading ----------------------


_PIECES = {
    "role": ["button", "link", "/url", "text", "heading", "a/b", "list-item", "é", ""],
    "name": ['"OK"', '"Say \\"hi\\""', '"a: b"', '"[x]"', '"unterminated', "/re.*x/", "'one'",
             '""', '"x"y', ' "spaced"'],
    "attrs": ["[ref=e1]", "[disabled]", " [level=2] [ref=e9]", "[ a = b ]", "[k=v=w]", "[]",
              "[[x]", "[ref=e1][ref=e2]"],
    "tail": [":", ": Hello", ': "3"', ": 'it''s'", ": |", " : x", "x", ":  ", ': "a\\nb"',
             ": [not attrs]", " stray: text"],
}  # fmt: skip


def _reference_line(line: str) -> tuple[int, str, str, dict[str, str], str | None] | None:
    """The general reading alone (what every line went through before the one-match path)."""
    item = _ITEM.match(line)
    if item is None:
        return None
    return (len(item.group("indent")), *_parse_item(item.group("body")))


@pytest.mark.parametrize("seed", range(20))
def test_usual_items_read_in_one_match_as_the_general_reading(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(300):
        parts = [rng.choice(_PIECES["role"])]
        for kind in ("name", "attrs", "tail"):
            if rng.random() < 0.6:
                parts.append(rng.choice(["", " ", "\t"]) + rng.choice(_PIECES[kind]))
        body = "".join(parts)
        if rng.random() < 0.1:
            body = "'" + body.replace("'", "''") + "'" + rng.choice(["", ": v"])
        indent = " " * rng.choice([0, 2, 4, 7])
        line = (
            indent
            + rng.choice(["- ", "- ", "-", "  ", "-  "])
            + body
            + rng.choice(["", " ", "\t "])
        )
        assert _read_line(line) == _reference_line(line), line
