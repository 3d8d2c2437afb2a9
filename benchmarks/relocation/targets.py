"""Load a corpus page, clean it, and choose the target elements a recorder will record.

The page is parsed with ``lxml.html``. Before anything else it is cleaned so that the base
and the changed versions differ only by the mutation: ``<script>`` elements and
``<meta http-equiv=refresh>`` are removed (network is off when rendering, and inline scripts
would otherwise rewrite the DOM differently in each render), and the charset is declared
as UTF-8 (the page is written back as UTF-8).

Up to :data:`MAX_TARGETS` targets per page are chosen with an RNG seeded from the page name
(and a draw number, for other sets of targets on the same page):
links, buttons, form fields, headings and images with ``alt``. A mix of kinds is favoured
(round-robin over kinds), and elements with a same-tag same-text twin elsewhere on the page
(navigation repeated in header and footer, "Share", "Read more") are deliberately included
first when the page has them, sometimes both members of a pair. No target contains another.
Each target gets ``data-fixture-key="t<N>"`` (numbered in document order).
"""

from __future__ import annotations

import hashlib
import random
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import lxml.html
from lxml import etree

__all__ = [
    "KEY_ATTR",
    "MAX_TARGETS",
    "Target",
    "choose_targets",
    "element_kind",
    "label_text",
    "load_page",
    "seeded_rng",
    "serialize",
]

KEY_ATTR = "data-fixture-key"
MAX_TARGETS = 25
MAX_TWIN_TARGETS = 8

_SKIP_ANCESTORS = frozenset(
    {"head", "script", "style", "noscript", "template", "svg", "math", "iframe", "object"}
)
_BUTTON_INPUTS = frozenset({"submit", "button", "reset", "image"})
_FIELD_INPUTS = frozenset(
    {"", "text", "search", "email", "password", "tel", "url", "number", "checkbox", "radio"}
)
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
_WS = re.compile(r"\s+")


@dataclass(frozen=True)
class Target:
    """One chosen element (as it is in the source page)."""

    key: str
    kind: str  # link, button, input, heading, image
    tag: str
    text: str
    element_id: str | None
    source_twin: bool  # another element with the same tag and text exists in the source


def seeded_rng(*parts: str) -> random.Random:
    """A ``random.Random`` seeded from the SHA-1 of the joined parts (stable across runs)."""
    digest = hashlib.sha1("\x1f".join(parts).encode("utf-8")).hexdigest()
    return random.Random(int(digest[:16], 16))


def collapse(text: str | None) -> str:
    """Whitespace collapsed and stripped."""
    return _WS.sub(" ", text or "").strip()


def load_page(path: Path) -> etree._Element:
    """The cleaned ``<html>`` element of a corpus page."""
    root = lxml.html.document_fromstring(path.read_bytes())
    for el in list(root.iter("script")):
        el.drop_tree()
    head = root.find("head")
    if head is None:
        head = root.makeelement("head", {})
        root.insert(0, head)
    for meta in list(root.iter("meta")):
        equiv = (meta.get("http-equiv") or "").lower()
        if meta.get("charset") is not None or equiv in {"content-type", "refresh"}:
            meta.drop_tree()
    charset = head.makeelement("meta", {"charset": "utf-8"})
    head.insert(0, charset)
    if root.find("body") is None:
        root.append(root.makeelement("body", {}))
    return root


def serialize(root: etree._Element) -> str:
    """The document as HTML text (written to disk as UTF-8)."""
    return lxml.html.tostring(root, doctype="<!DOCTYPE html>", encoding="unicode", method="html")


def _hidden(el: etree._Element) -> bool:
    """Whether the element or an ancestor is hidden by markup alone, or lies in a skipped part."""
    for node in (el, *el.iterancestors()):
        tag = node.tag if isinstance(node.tag, str) else ""
        if tag in _SKIP_ANCESTORS:
            return True
        if node.get("hidden") is not None or node.get("aria-hidden") == "true":
            return True
        if _HIDDEN_STYLE.search(node.get("style") or ""):
            return True
    return False


def element_kind(el: etree._Element) -> str | None:
    """The target kind of an element, or None when it is not a candidate."""
    tag = el.tag if isinstance(el.tag, str) else ""
    if tag == "a":
        return "link" if el.get("href") is not None else None
    if tag == "button":
        return "button"
    if tag == "input":
        kind = (el.get("type") or "").lower()
        if kind in _BUTTON_INPUTS:
            return "button"
        return "input" if kind in _FIELD_INPUTS else None
    if tag in {"select", "textarea"}:
        return "input"
    if tag in {"h1", "h2", "h3", "h4", "h5", "h6"}:
        return "heading"
    if tag == "img":
        return "image" if collapse(el.get("alt")) else None
    return None


def label_text(el: etree._Element) -> str:
    """The visible label of an element as a recorder's eye would read it from the source."""
    aria = collapse(el.get("aria-label"))
    if aria:
        return aria
    tag = el.tag
    if tag == "img":
        return collapse(el.get("alt"))
    if tag == "input":
        return collapse(el.get("value") or el.get("placeholder") or el.get("title"))
    text = collapse(el.text_content())
    if not text:
        alts = [collapse(img.get("alt")) for img in el.iter("img")]
        text = " ".join(a for a in alts if a)
    return text


def _candidates(root: etree._Element) -> list[tuple[etree._Element, str, str]]:
    body = root.find("body")
    if body is None:
        return []
    out = []
    for el in body.iter(etree.Element):
        kind = element_kind(el)
        if kind is None:
            continue
        text = label_text(el)
        if kind != "input" and not text:
            continue
        if _hidden(el):
            continue
        out.append((el, kind, text))
    return out


def choose_targets(root: etree._Element, page: str, draw: int = 0) -> list[Target]:
    """Choose and mark the targets of a page (``root`` is modified: keys are set); ``draw``
    above 0 draws another set from its own seed (fresh targets on the same pages)."""
    rng = seeded_rng("targets", page, *((f"draw{draw}",) if draw else ()))
    cands = _candidates(root)
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, (el, _kind, text) in enumerate(cands):
        if text:
            groups[(el.tag, text)].append(i)
    twin_of = {i for members in groups.values() if len(members) > 1 for i in members}

    chosen: list[int] = []
    chosen_els: set[etree._Element] = set()

    def take(i: int) -> bool:
        el = cands[i][0]
        if el in chosen_els or any(a in chosen_els for a in el.iterancestors()):
            return False
        if any(el in set(c.iterancestors()) for c in chosen_els):
            return False
        chosen.append(i)
        chosen_els.add(el)
        return True

    twin_groups = [m for m in groups.values() if len(m) > 1]
    rng.shuffle(twin_groups)
    twins_taken = 0
    for members in twin_groups:
        if twins_taken >= MAX_TWIN_TARGETS:
            break
        for i in rng.sample(members, min(len(members), rng.choice((1, 2)))):
            twins_taken += take(i)

    pools: dict[str, list[int]] = defaultdict(list)
    for i, (_el, kind, _text) in enumerate(cands):
        pools[kind].append(i)
    kinds = sorted(pools)
    rng.shuffle(kinds)
    for kind in kinds:
        rng.shuffle(pools[kind])
    while len(chosen) < MAX_TARGETS and any(pools.values()):
        for kind in kinds:
            while pools[kind] and len(chosen) < MAX_TARGETS:
                if take(pools[kind].pop()):
                    break

    order = {el: n for n, el in enumerate(root.iter(etree.Element))}
    chosen.sort(key=lambda i: order[cands[i][0]])
    targets = []
    for n, i in enumerate(chosen):
        el, kind, text = cands[i]
        key = f"t{n}"
        el.set(KEY_ATTR, key)
        targets.append(Target(key, kind, el.tag, text, el.get("id"), i in twin_of))
    return targets


def marked(root: etree._Element) -> dict[str, etree._Element]:
    """The marked elements of a document by key."""
    return {el.get(KEY_ATTR): el for el in root.iter(etree.Element) if el.get(KEY_ATTR) is not None}
