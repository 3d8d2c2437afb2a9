"""Render cache keys (no browser): ``python -m pytest benchmarks/relocation/test_render.py``."""

from __future__ import annotations

import pytest

from benchmarks.relocation import render


def test_a_page_is_rendered_again_when_the_fonts_change(monkeypatch: pytest.MonkeyPatch) -> None:
    html = "<p>\u65b0\u95fb</p>"
    monkeypatch.setattr(render, "font_set", lambda: ("DejaVu Sans",))
    before = render.html_key(html)
    assert render.html_key(html) == before
    assert render.html_key("<p>other</p>") != before
    monkeypatch.setattr(render, "font_set", lambda: ("DejaVu Sans", "Noto Sans CJK SC"))
    assert render.html_key(html) != before


def test_the_font_set_is_sorted_and_without_repeats() -> None:
    fonts = render.font_set()
    assert list(fonts) == sorted(set(fonts))
