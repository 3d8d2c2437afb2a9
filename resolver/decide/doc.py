"""The rules table of the docs (``docs/rules.md``), made from :data:`RULES` and
:class:`~resolver.config.MatchConfig`: ``python -m resolver.decide.doc > docs/rules.md``.

A test compares the file with :func:`rules_markdown`, so the docs cannot drift from the
registry.
"""

from __future__ import annotations

import ast
import inspect
from dataclasses import fields
from itertools import pairwise

from ..config import DEFAULT_CONFIG, MatchConfig
from .registry import RULES
from .rule import STAGES

__all__ = ["config_docs", "rules_markdown"]


def config_docs() -> dict[str, str]:
    """Each :class:`MatchConfig` field's docstring (the string literal after it), first
    sentence-run joined on one line."""
    tree = ast.parse(inspect.getsource(MatchConfig))
    body = tree.body[0]
    assert isinstance(body, ast.ClassDef)
    out: dict[str, str] = {}
    statements = body.body
    for here, after in pairwise(statements):
        if not (isinstance(here, ast.AnnAssign) and isinstance(here.target, ast.Name)):
            continue
        if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
            text = str(after.value.value)
            out[here.target.id] = " ".join(text.split())
    return out


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def rules_markdown() -> str:
    """The whole ``docs/rules.md``."""
    defaults = {f.name: getattr(DEFAULT_CONFIG, f.name) for f in fields(MatchConfig)}
    lines = [
        "# The rules of the decision",
        "",
        "Generated from `resolver.decide.RULES` by `python -m resolver.decide.doc > "
        "docs/rules.md`; a test fails when this file and the registry disagree.",
        "",
        "Every answer, refusal, doubt and preference is made by one of these rules, asked in "
        "this order (the order and why it is so: `resolver/decide/registry.py`). A decision "
        "names the rule that made it: `TraceEntry.rule` for each source, "
        "`Resolution.rule` for the answer, `ResolutionError.evidence.rule` for the refusal or "
        "the tie. Stages: "
        + ", ".join(f"`{s}`" for s in STAGES)
        + ". A review rule looks only at decisions of the status in its *on* column.",
        "",
        "The *absence* column marks the refusals and doubts that are evidence the target is "
        "gone (`gone`: the page shows it went) or that its twins cannot be told apart "
        "(`twins`: only when the tied rows share role and name and the reference recorded no "
        "selector, id, link, class or attribute). In the chain (a11y, dom, vision, coords) a "
        "weaker source does not overrule such a refusal: the later sources are skipped "
        "(`refuse.absent_upstream`), unless the refusing source had no row of the "
        "reference's role. Any other refusal (no candidates, only the role, under the "
        "threshold, unsure) passes on to the next source; after a refusal that found no row "
        "of the role similar enough, that source's answer must rest on more than its score "
        "(`refuse.scored_downstream`).",
        "",
        "| # | id | kind | stage | on | absence | description | parameters (defaults) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for k, rule in enumerate(RULES, 1):
        params = ", ".join(f"`{p}` = {defaults[p]!r}" for p in rule.params)
        on = ", ".join(rule.on)
        lines.append(
            f"| {k} | `{rule.id}` | {rule.kind} | {rule.stage} | {on} | {rule.absence} | "
            f"{_cell(rule.description)} | {params} |"
        )
    docs = config_docs()
    used: dict[str, list[str]] = {}
    for rule in RULES:
        for p in rule.params:
            used.setdefault(p, []).append(rule.id)
    lines += [
        "",
        "## The parameters",
        "",
        "Every number the rules decide with is a `MatchConfig` field, overridable per call "
        "(`resolve(ref, obs, stray_box=0.4)`). The fields the rules read:",
        "",
        "| field | default | read by | meaning |",
        "|---|---|---|---|",
    ]
    for name in sorted(used):
        readers = ", ".join(f"`{r}`" for r in used[name])
        lines.append(f"| `{name}` | {defaults[name]!r} | {readers} | {_cell(docs.get(name, ''))} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(rules_markdown(), end="")
