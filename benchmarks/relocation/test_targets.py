"""Choosing a page's targets (no browser, no corpus):
``python -m pytest benchmarks/relocation/test_targets.py``."""

from __future__ import annotations

import lxml.html

from benchmarks.relocation.targets import MAX_TARGETS, choose_targets, marked


def _page() -> lxml.html.HtmlElement:
    items = "".join(f'<li><a href="/p/{k}">Post number {k}</a></li>' for k in range(80))
    body = f"<body><h1>Blog</h1><ul>{items}</ul></body>"
    html = f"<html><head><title>Blog</title></head>{body}</html>"
    return lxml.html.document_fromstring(html)


def _chosen(draw: int) -> list[str]:
    root = _page()
    targets = choose_targets(root, "blog", draw)
    assert set(marked(root)) == {t.key for t in targets}
    return [t.text for t in targets]


def test_a_draw_is_seeded_and_another_draw_picks_other_targets() -> None:
    usual = _chosen(0)
    assert len(usual) == MAX_TARGETS
    assert _chosen(0) == usual  # the default draw is stable
    assert [t.text for t in choose_targets(_page(), "blog")] == usual
    fresh = _chosen(1)
    assert len(fresh) == MAX_TARGETS and _chosen(1) == fresh
    assert set(fresh) != set(usual)
    assert set(_chosen(2)) not in (set(usual), set(fresh))
