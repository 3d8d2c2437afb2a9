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

Regions appear in the order of their first element; inside a region entries keep the
catalog's order, so an unchanged page reads the same every time. Over the budget, names are
shortened first, then hidden and disabled elements are left out, then the last elements, and
a closing line says how many were left out and how to see them.
"""

from __future__ import annotations

import re
from typing import Final

from .model import CatalogEntry, CatalogView

__all__ = ["entry_line", "render_catalog"]

_CHARS_PER_TOKEN: Final[int] = 4
_SHORT_NAME: Final[int] = 40
_LONG_NAME: Final[int] = 100
_SHORT_VALUE: Final[int] = 40
_SIMPLE: Final[re.Pattern[str]] = re.compile(r"#[^\s>~+]+|\[[^\]]+\]")
_LABELLED: Final[re.Pattern[str]] = re.compile(r"[a-z0-9]+\[aria-label=[^\]]+\]")


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _hint(entry: CatalogEntry) -> str:
    """The most readable unique selector: an id, a test ID or an aria-label one."""
    for kind, selector in entry.selectors:
        if kind == "css" and (_SIMPLE.fullmatch(selector) or _LABELLED.fullmatch(selector)):
            return selector
    return ""


def entry_line(entry: CatalogEntry, *, short: bool = False) -> str:
    """``[3] button: Sign in (#submit-btn)``, with the link target, value and state."""
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
            ("focused", entry.focused is True),
        )
        if on
    ]
    if states:
        parts.append("[" + ", ".join(states) + "]")
    return " ".join(parts)


def _header(view: CatalogView) -> str:
    title = f'page "{_cut(view.title, 60)}"' if view.title else "page"
    return f"{title} · version {view.version} · {len(view.entries)} elements"


def _lines(view: CatalogView, entries: list[CatalogEntry], short: bool) -> list[str]:
    """Header, then each region's name and its entries."""
    groups: dict[str, list[CatalogEntry]] = {}
    for entry in entries:
        groups.setdefault(entry.region, []).append(entry)
    lines = [_header(view)]
    for region, members in groups.items():
        lines.append(f"{region}:")
        lines.extend("  " + entry_line(e, short=short) for e in members)
    return lines


def _size(lines: list[str]) -> int:
    return sum(len(line) + 1 for line in lines)


def render_catalog(
    view: CatalogView, *, max_chars: int = 6000, max_tokens: int | None = None
) -> str:
    """The catalog as text within ``max_chars`` (and ``max_tokens`` x 4) characters."""
    budget = max_chars if max_tokens is None else min(max_chars, max_tokens * _CHARS_PER_TOKEN)
    budget = max(budget, 80)
    entries = list(view.entries)
    for short in (False, True):
        lines = _lines(view, entries, short)
        if _size(lines) <= budget:
            return "\n".join(lines)
    shown = [e for e in entries if e.interactable]
    while True:
        lines = _lines(view, shown, True)
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
