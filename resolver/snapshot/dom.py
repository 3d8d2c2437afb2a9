"""Secrets in the page's HTML, and the DOM excerpt a snapshot may carry.

Parsed with Lexbor (selectolax), which never fetches anything and expands no entities beyond
HTML's own character references.
"""

from __future__ import annotations

from typing import Any, Final

from selectolax.lexbor import LexborHTMLParser, LexborNode

from .redact import MASK, Scrubber, is_sensitive

__all__ = ["dom_excerpt", "dom_secrets"]

_DROPPED: Final[str] = "script, style, template, noscript, iframe, object, embed"
_FIELDS: Final[str] = "input, textarea, select"
_MAX_HTML: Final[int] = 20_000_000


def _parse(html: str | bytes) -> LexborHTMLParser | None:
    if isinstance(html, bytes):
        html = html.decode("utf-8", errors="replace")
    if not html or len(html) > _MAX_HTML:
        return None
    return LexborHTMLParser(html)


def _label_of(tree: LexborHTMLParser, field: LexborNode) -> list[str]:
    """Texts that label ``field``: ``label[for]``, a wrapping label, aria-labelledby, title."""
    attrs = field.attributes
    texts = [attrs.get("title") or ""]
    field_id = attrs.get("id")
    if field_id:
        for label in tree.css("label"):
            if label.attributes.get("for") == field_id:
                texts.append(label.text(strip=True))
    for ref in (attrs.get("aria-labelledby") or "").split():
        found = tree.css_first(f'[id="{ref}"]') if '"' not in ref else None
        if found is not None:
            texts.append(found.text(strip=True))
    node = field.parent
    while node is not None:
        if node.tag == "label":
            texts.append(node.text(strip=True))
            break
        node = node.parent
    return [t for t in texts if t]


def _value(field: LexborNode) -> str:
    if field.tag == "textarea":
        return field.text() or ""
    return field.attributes.get("value") or ""


def _sensitive_fields(tree: LexborHTMLParser) -> list[LexborNode]:
    """Form fields whose value is a secret."""
    found = []
    for field in tree.css(_FIELDS):
        attrs = {k: v or "" for k, v in field.attributes.items()}
        if is_sensitive("textbox", attrs=attrs, labels=_label_of(tree, field)):
            found.append(field)
    return found


def dom_secrets(html: str | bytes, scrubber: Scrubber) -> int:
    """Remember the values of the page's secret fields; returns how many there were."""
    tree = _parse(html)
    if tree is None:
        return 0
    fields = _sensitive_fields(tree)
    for field in fields:
        scrubber.mask(_value(field))
    return len(fields)


def dom_excerpt(html: str | bytes, scrubber: Scrubber | None, limit: int) -> dict[str, Any]:
    """``{"html", "truncated"}``: the page without scripts, styles and embedded documents,
    secret fields' values replaced by the mask and every remembered secret scrubbed."""
    tree = _parse(html)
    if tree is None:
        return {"html": "", "truncated": True}
    for node in tree.css(_DROPPED):
        node.decompose()
    if scrubber is not None:
        for field in _sensitive_fields(tree):
            scrubber.mask(_value(field))
            if field.tag == "textarea":
                field.replace_with(f"<textarea>{MASK}</textarea>")
            elif "value" in field.attributes:
                field.attrs["value"] = MASK
    text = tree.html or ""
    if scrubber is not None:
        text = scrubber.scrub(text)
    return {"html": text[:limit], "truncated": len(text) > limit}
