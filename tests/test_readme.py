"""The README's example runs and says what the README says it does."""

import re
from pathlib import Path

import pytest

from resolver import AmbiguousMatchError, Candidate

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
RESULTS = ROOT / "benchmarks" / "RESULTS.md"
PACKAGE = ROOT / "resolver"
MAX_README_LINES = 600


def test_thirty_second_example() -> None:
    text = README.read_text()
    block = re.search(r"## 30-second example\s+```python\n(.*?)```", text, re.S)
    assert block is not None
    code = block.group(1)
    first, _, last = code.rpartition("\nresolve(SemanticElementRef(")
    namespace: dict[str, object] = {}
    exec(first, namespace)
    res = namespace["res"]
    assert res.executor_id == "a11y:ok2"  # type: ignore[attr-defined]
    assert res.alternatives[0].executor_id == "a11y:ok1"  # type: ignore[attr-defined]
    with pytest.raises(AmbiguousMatchError):
        exec("resolve(SemanticElementRef(" + last.split("\n")[0], namespace)


def test_every_outcome_names_its_rule() -> None:
    """The block after the example runs, and the rules it names are the ones reported."""
    text = README.read_text()
    section = re.search(r"## 30-second example\s+```python\n(.*?)```(.*?)\n## ", text, re.S)
    assert section is not None
    first = section.group(1).rpartition("\nresolve(SemanticElementRef(")[0]
    second = re.search(r"```python\n(.*?)```", section.group(2), re.S)
    assert second is not None
    namespace: dict[str, object] = {}
    exec(first, namespace)
    exec(second.group(1), namespace)
    assert "'accept.score'" in second.group(1) and "'ambiguous.margin'" in second.group(1)
    res = namespace["res"]
    assert res.trace[0].rule == "accept.score"  # type: ignore[attr-defined]
    with pytest.raises(AmbiguousMatchError) as caught:
        exec('resolve(SemanticElementRef(role="button", name="OK"), obs)', namespace)
    evidence = caught.value.evidence
    assert evidence.rule == "ambiguous.margin"
    assert isinstance(evidence.candidates[0], Candidate)
    assert {c.executor_id for c in evidence.candidates[:2]} == {"a11y:ok1", "a11y:ok2"}


def test_readme_is_short() -> None:
    lines = README.read_text().splitlines()
    assert len(lines) <= MAX_README_LINES, f"README.md has {len(lines)} lines"


def _section(text: str, title: str) -> str:
    """The body of the level-2 section ``## title``, up to the next level-2 heading."""
    match = re.search(rf"^## {re.escape(title)}[ \t]*\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert match is not None, f"no '## {title}' section"
    return match.group(1)


def _modules() -> set[str]:
    """What the Architecture section must name: every module and package directly under
    ``resolver/`` and every module of ``resolver/decide/``."""
    wanted = {
        f"resolver/{path.name}" for path in PACKAGE.glob("*.py") if path.name != "__init__.py"
    }
    wanted |= {
        f"resolver/{path.name}/"
        for path in PACKAGE.iterdir()
        if path.is_dir() and (path / "__init__.py").is_file()
    }
    decide = PACKAGE / "decide"
    wanted.add("resolver/decide/")
    wanted |= {
        f"resolver/decide/{path.name}" for path in decide.glob("*.py") if path.name != "__init__.py"
    }
    return wanted


def test_architecture_matches_code() -> None:
    section = _section(README.read_text(), "Architecture")
    named = set(re.findall(r"`(resolver/[^`\s]*(?:\.py|/))`", section))
    assert named, "the Architecture section names no module"
    gone = sorted(path for path in named if not (ROOT / path).exists())
    assert not gone, f"the Architecture section names paths that do not exist: {gone}"
    assert (PACKAGE / "decide" / "__init__.py").is_file(), "resolver/decide/ is not a package"
    unnamed = sorted(_modules() - named)
    assert not unnamed, f"the Architecture section does not name: {unnamed}"


def _anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, markup and punctuation other than hyphens
    and underscores dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def _anchors(markdown: str) -> set[str]:
    """Every heading anchor of a Markdown document (repeated headings get ``-1``, ``-2``...);
    headings inside fenced code blocks are not headings."""
    anchors: set[str] = set()
    seen: dict[str, int] = {}
    fenced = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        heading = re.match(r"#{1,6} (.+?)#*\s*$", line)
        if fenced or heading is None:
            continue
        anchor = _anchor(heading.group(1))
        count = seen.get(anchor, 0)
        seen[anchor] = count + 1
        anchors.add(anchor if count == 0 else f"{anchor}-{count}")
    return anchors


def test_anchor_rules() -> None:
    assert _anchor("Against the seed baseline, and speed") == "against-the-seed-baseline-and-speed"
    assert _anchor("The chain and `coords`") == "the-chain-and-coords"
    assert _anchors("# A\n```\n# not a heading\n```\n## A\n") == {"a", "a-1"}


def test_links_to_results() -> None:
    text = README.read_text()
    assert "](benchmarks/RESULTS.md" in text, "the README does not link to benchmarks/RESULTS.md"
    anchors = _anchors(RESULTS.read_text())
    links = re.findall(r"\]\(benchmarks/RESULTS\.md#([^)\s]+)\)", text)
    assert links, "the README links to no section of benchmarks/RESULTS.md"
    broken = sorted({link for link in links if link not in anchors})
    assert not broken, f"README links to missing RESULTS.md sections: {broken}"
