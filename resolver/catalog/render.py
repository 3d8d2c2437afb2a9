"""The abbreviated catalog a model reads: one line per element, grouped by region.

::

    page "Sign in" · version 3f2a9c01d4e7 · 5 elements
    banner:
      [0] link: Acme → /
    form "Sign in":
      [1] textbox: Email (#email) = "ada@example.com"
      [2] textbox: Password (#pw) = "[redacted]"
      [3] button: Sign in (#submit-btn)
      [4] checkbox: Remember me [disabled]

Look-alikes (entries of one role and name) are told apart by what surrounds each: the
innermost container whose text differs between them (a table row, a group), else their
region, else a link's target (already on the line), else the nearest text beside it, else
their order::

      [5] button: Delete · in "Bob bob@example.com"
      [6] button: Delete · in "Carol carol@example.com"

Regions appear in the order of their first element; inside a region entries keep the
catalog's order, so an unchanged page reads the same every time. Over the budget, names are
shortened first, then hidden and disabled elements are left out, then the last elements, and
a closing line says how many were left out and how to see them.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Final

from .model import CatalogEntry, CatalogView

__all__ = ["distinctions", "entry_line", "render_catalog"]

_CHARS_PER_TOKEN: Final[int] = 4
_SHORT_NAME: Final[int] = 40
_LONG_NAME: Final[int] = 100
_SHORT_VALUE: Final[int] = 40
_SIMPLE: Final[re.Pattern[str]] = re.compile(r"#[^\s>~+]+|\[[^\]]+\]")
_OPTIONS: Final[int] = 8
"""How many of an entry's surroundings are tried, alone then in pairs, to tell it apart."""
_LABELLED: Final[re.Pattern[str]] = re.compile(r"[a-z0-9]+\[aria-label=[^\]]+\]")


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _hint(entry: CatalogEntry) -> str:
    """The most readable unique selector: an id, a test ID or an aria-label one."""
    for kind, selector in entry.selectors:
        if kind == "css" and (_SIMPLE.fullmatch(selector) or _LABELLED.fullmatch(selector)):
            return selector
    return ""


def _own_text_left_out(text: str, name: str) -> str:
    """A container's text without the element's own name at its end (``Bob bob@… Delete``
    for a row holding a Delete button reads ``Bob bob@…``)."""
    text = " ".join(text.split())
    if name and text.endswith(name) and len(text) > len(name):
        text = text[: -len(name)].rstrip()
    return text


def _context_options(entry: CatalogEntry) -> list[str]:
    """What may tell ``entry`` apart from its look-alikes, best first: its named containers
    from the innermost out, its region (landmark or dialog), its link target, then its
    nearby texts."""
    name = " ".join(entry.name.split())
    containers = [
        f'in "{_own_text_left_out(c, name)}"'
        for c in reversed(entry.ref.container_path)
        if c and not c.startswith("[") and _own_text_left_out(c, name)
    ]
    region = [f"in {entry.region}"] if entry.region != "page" else []
    target = [f"→ {entry.href}"] if entry.href else []
    nearby = [f'near "{" ".join(t.split())}"' for t in entry.ref.nearby_text if t.strip()]
    return containers + region + target + nearby


def distinctions(entries: list[CatalogEntry]) -> dict[int, str]:
    """For each entry that shares its role and name with another, the text that tells it
    apart (by index): the first of its :func:`_context_options` that none of its look-alikes
    has, else the first pair of them no look-alike has both of, else its place among them
    (``2nd of 3``)."""
    groups: dict[tuple[str, str], list[CatalogEntry]] = {}
    for entry in entries:
        groups.setdefault((entry.role, " ".join(entry.name.split()).casefold()), []).append(entry)
    out: dict[int, str] = {}
    for members in groups.values():
        if len(members) < 2:
            continue
        options = [_context_options(e)[:_OPTIONS] for e in members]
        for i, entry in enumerate(members):
            others = [set(opts) for j, opts in enumerate(options) if j != i]
            out[entry.index] = _unique(options[i], others) or (
                f"{_ordinal(i + 1)} of {len(members)}"
            )
    return out


def _unique(mine: list[str], others: list[set[str]]) -> str:
    """The first of ``mine`` that none of ``others`` has, else the first two that none has
    both of (``in "(1) October" · in "2014"``), else ``""``."""
    for option in mine:
        if not any(option in other for other in others):
            return option
    for i, first in enumerate(mine):
        for second in mine[i + 1 :]:
            if not any(first in other and second in other for other in others):
                return f"{first} · {second}"
    return ""


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def entry_line(
    entry: CatalogEntry, *, short: bool = False, context: str = "", covered: bool = False
) -> str:
    """``[3] button: Sign in (#submit-btn)``, with the link target, value and state
    (``covered``: something else is drawn over it on the live page), and ``context`` (what
    tells it apart from its look-alikes, :func:`distinctions`) last."""
    name = _cut(" ".join(entry.name.split()), _SHORT_NAME if short else _LONG_NAME)
    parts = [f"[{entry.index}] {entry.role}: {name}" if name else f"[{entry.index}] {entry.role}"]
    hint = "" if short else _hint(entry)
    if hint:
        parts.append(f"({_cut(hint, 60)})")
    if entry.href and not short:
        parts.append(f"→ {_cut(entry.href, 80)}")
    if entry.value:
        parts.append(f'= "{_cut(entry.value, _SHORT_VALUE)}"')
    states = [
        s
        for s, on in (
            ("hidden", entry.visible is False),
            ("disabled", entry.enabled is False),
            ("covered", covered),
            ("focused", entry.focused is True),
        )
        if on
    ]
    if states:
        parts.append("[" + ", ".join(states) + "]")
    if context and (short or not context.startswith("→ ")):  # (the link target is shown)
        parts.append("· " + _cut(context, _SHORT_NAME + 8 if short else 88))
    return " ".join(parts)


def _header(view: CatalogView) -> str:
    title = f'page "{_cut(view.title, 60)}"' if view.title else "page"
    return f"{title} · version {view.version} · {len(view.entries)} elements"


def _lines(
    view: CatalogView, entries: list[CatalogEntry], short: bool, covered: Collection[int]
) -> list[str]:
    """Header, then each region's name and its entries."""
    groups: dict[str, list[CatalogEntry]] = {}
    for entry in entries:
        groups.setdefault(entry.region, []).append(entry)
    told_apart = distinctions(list(view.entries))
    lines = [_header(view)]
    for region, members in groups.items():
        lines.append(f"{region}:")
        lines.extend(
            "  " + entry_line(e, short=short, context=told_apart.get(e.index, ""),
                              covered=e.index in covered)
            for e in members
        )  # fmt: skip
    return lines


def _size(lines: list[str]) -> int:
    return sum(len(line) + 1 for line in lines)


def render_catalog(
    view: CatalogView,
    *,
    max_chars: int = 6000,
    max_tokens: int | None = None,
    covered: Collection[int] = (),
) -> str:
    """The catalog as text within ``max_chars`` (and ``max_tokens`` x 4) characters; the
    entries of ``covered`` (indexes something else is drawn over on the live page) are
    marked so and, over the budget, left out with the hidden and disabled ones."""
    budget = max_chars if max_tokens is None else min(max_chars, max_tokens * _CHARS_PER_TOKEN)
    budget = max(budget, 80)
    entries = list(view.entries)
    for short in (False, True):
        lines = _lines(view, entries, short, covered)
        if _size(lines) <= budget:
            return "\n".join(lines)
    shown = [e for e in entries if e.interactable and e.index not in covered]
    while True:
        lines = _lines(view, shown, True, covered)
        left_out = [e.index for e in entries if e not in shown]
        if left_out:
            lines.append(_footer(left_out))
        if _size(lines) <= budget or not shown:
            return "\n".join(lines)
        shown = shown[: max(0, len(shown) - max(1, len(shown) // 10))]


def _footer(left_out: list[int]) -> str:
    listed = ", ".join(str(i) for i in left_out[:8]) + (", …" if len(left_out) > 8 else "")
    return (
        f"… {len(left_out)} more elements not shown (index {listed}); raise max_chars to see them"
    )
