"""Per-element states: rendered, hidden from assistive technology, block-level, enabled.

One pre-order pass (parents come before children) combines the computed styles with the
HTML rules that hide content:

- not rendered: user-agent ``display: none`` tags, the ``hidden`` attribute (unless an author
  rule sets another display), ``display: none`` from author or inline style, ``<input
  type=hidden>``, a ``<dialog>`` without ``open``, the content of a closed ``<details>``
  (everything but its first ``<summary>``), the content of ``content-visibility: hidden``;
  ``<template>`` content is never part of the tree at all;
- hidden (accname "hidden", HTML-AAM): not rendered, ``visibility: hidden``/``collapse``
  (inherited, and undone by ``visible`` on a descendant), ``aria-hidden="true"`` or
  ``inert`` on the element or an ancestor;
- disabled (HTML §4.10.18.5 and ARIA ``aria-disabled``): the ``disabled`` attribute on form
  controls, a disabled ``<fieldset>`` (except inside its first ``<legend>``), a disabled
  ``<optgroup>`` for its options, ``aria-disabled="true"`` on the element or an ancestor.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .parse import Document
from .style import (
    BLOCK_TAGS,
    D_BLOCK,
    D_INHERIT,
    D_INLINE,
    D_NONE,
    UA_HIDDEN_TAGS,
    V_HIDDEN,
    V_UNSET,
    Styles,
)

__all__ = ["States", "compute_states"]

_FORM_CONTROLS: Final[frozenset[str]] = frozenset(
    {"button", "input", "select", "textarea", "optgroup", "option", "fieldset"}
)
_STATE_ATTRS: Final[frozenset[str]] = frozenset(
    {"hidden", "type", "aria-hidden", "inert", "aria-disabled", "disabled"}
)
"""The attributes the states read (besides a ``<dialog>``'s ``open``): an element with none
of them, most elements, skips their tests."""
_SVG_HIDDEN: Final[frozenset[str]] = frozenset(
    {"title", "desc", "style", "script", "defs", "clipPath", "mask", "linearGradient",
     "radialGradient", "pattern", "symbol", "marker", "filter", "metadata"}
)  # fmt: skip


@dataclass(frozen=True)
class States:
    """Per-element facts (indexed like the document)."""

    rendered: list[bool]
    hidden: list[bool]
    """Excluded from the accessibility tree (accname step 2A "hidden")."""
    aria_hidden: list[bool]
    """``aria-hidden="true"`` or ``inert`` on the element or an ancestor (rendered, but not
    exposed to assistive technology)."""
    block: list[bool]
    enabled: list[bool]
    end: list[int]
    """One past the last descendant: the subtree of ``i`` is ``range(i + 1, end[i])``."""


def compute_states(doc: Document, styles: Styles) -> States:
    """Rendered/hidden/block/enabled for every element, in one pass (see module doc)."""
    n = len(doc)
    tags, attrs_of, parent, namespace = doc.tags, doc.attrs, doc.parent, doc.namespace
    display, visibility, content_hidden = styles.display, styles.visibility, styles.content_hidden
    rendered, enabled = [True] * n, [True] * n
    hidden, aria_hidden, block = [False] * n, [False] * n, [False] * n
    vis_hidden = [False] * n
    aria_off = [False] * n  # aria-disabled="true" here or above
    for i in range(n):
        tag = tags[i]
        attrs = attrs_of[i]
        p = parent[i]
        shown = True
        off = False  # aria-hidden / inert
        if p >= 0:
            shown = rendered[p] and not content_hidden[p]
            off = aria_hidden[p]
            aria_off[i] = aria_off[p]
        vis = visibility[i]  # set here, or inherited
        vis_hidden[i] = vis == V_HIDDEN if vis != V_UNSET else (p >= 0 and vis_hidden[p])
        d = display[i]
        if d == D_INHERIT:  # the parent's display (a hidden parent hides the child anyway)
            d = D_BLOCK if p >= 0 and block[p] else D_INLINE
        if shown:
            if namespace[i] == 0:
                if tag in UA_HIDDEN_TAGS and (d not in (D_BLOCK, D_INLINE) or tag == "noscript"):
                    # HTML §15.3.1: noscript is display:none !important only with scripting
                    shown = tag == "noscript" and not doc.scripting
                elif p >= 0 and tags[p] == "details" and "open" not in attrs_of[p]:
                    # Only the first <summary> child of a closed <details> is rendered.
                    shown = tag == "summary" and _first_summary(doc, p) == i
            elif tag in _SVG_HIDDEN:
                shown = False
        if shown and attrs and (tag == "dialog" or not _STATE_ATTRS.isdisjoint(attrs)):
            if (
                ("hidden" in attrs and d not in (D_BLOCK, D_INLINE))
                or (tag == "input" and attrs.get("type", "").lower() == "hidden")
                or (tag == "dialog" and "open" not in attrs)
            ):
                shown = False
            if attrs.get("aria-hidden", "").strip().lower() == "true" or "inert" in attrs:
                off = True
            if attrs.get("aria-disabled", "").strip().lower() == "true":
                aria_off[i] = True
            if tag in _FORM_CONTROLS and "disabled" in attrs:
                enabled[i] = False
        if aria_off[i]:
            enabled[i] = False
        if d == D_NONE:
            shown = False
        rendered[i] = shown
        aria_hidden[i] = off
        hidden[i] = not shown or off or vis_hidden[i]
        if d == D_BLOCK:
            block[i] = True
        elif d != D_INLINE and namespace[i] == 0:
            block[i] = tag in BLOCK_TAGS
    _disabled_groups(doc, enabled)
    return States(rendered, hidden, aria_hidden, block, enabled, _subtree_ends(parent))


def _subtree_ends(parent: list[int]) -> list[int]:
    """Per element, one past the index of its last descendant (from the parent links)."""
    end = list(range(1, len(parent) + 1))
    for i in range(len(parent) - 1, 0, -1):
        p = parent[i]
        if p >= 0 and end[i] > end[p]:
            end[p] = end[i]
    return end


def _first_summary(doc: Document, details: int) -> int:
    for child in doc.content[details]:
        if isinstance(child, int) and doc.tags[child] == "summary":
            return child
    return -1


def _disabled_groups(doc: Document, enabled: list[bool]) -> None:
    """Disable the options of disabled optgroups and the controls of disabled fieldsets."""
    # (HTML: except the controls in a disabled fieldset's first legend)
    tags, attrs, parent = doc.tags, doc.attrs, doc.parent
    if "fieldset" not in tags and "optgroup" not in tags:
        return  # (most pages: two scans in C instead of a loop)
    disabled = [
        i
        for i, t in enumerate(tags)
        if (t == "fieldset" or t == "optgroup") and "disabled" in attrs[i]
    ]
    for group in disabled:
        if tags[group] == "optgroup":
            for child in doc.content[group]:
                if isinstance(child, int) and tags[child] == "option":
                    enabled[child] = False
    disabled_sets = [f for f in disabled if tags[f] == "fieldset"]
    if not disabled_sets:
        return
    exempt: set[int] = set()
    for f in disabled_sets:
        for child in doc.content[f]:
            if isinstance(child, int) and tags[child] == "legend":
                exempt.add(child)
                break
    for i in range(len(tags)):
        if tags[i] not in _FORM_CONTROLS or not enabled[i]:
            continue
        p = parent[i]
        while p >= 0:
            if p in exempt:
                break
            if tags[p] == "fieldset" and "disabled" in attrs[p]:
                enabled[i] = False
                break
            p = parent[p]
