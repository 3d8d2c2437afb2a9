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


def test_scripts_without_a_font_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """``fc-list :lang=zh`` listing nothing names Chinese; a listed family covers the script."""

    class Listed:
        def __init__(self, stdout: str) -> None:
            self.stdout = stdout

    def run(argv: list[str], **_: object) -> Listed:
        return Listed("Noto Sans CJK JP\n" if argv[1] == ":lang=ja" else "")

    monkeypatch.setattr(render.shutil, "which", lambda _: "/usr/bin/fc-list")
    monkeypatch.setattr(render.subprocess, "run", run)
    render.uncovered_scripts.cache_clear()
    try:
        assert render.uncovered_scripts() == ("Chinese",)
    finally:
        render.uncovered_scripts.cache_clear()
    warning = render.uncovered_warning(("Chinese",))
    assert "Chinese" in warning and "fonts-noto-cjk" in warning
    assert render.uncovered_warning(()) == ""


def test_nothing_is_known_without_fc_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render.shutil, "which", lambda _: None)
    render.uncovered_scripts.cache_clear()
    try:
        assert render.uncovered_scripts() == ()
    finally:
        render.uncovered_scripts.cache_clear()
