"""Output helpers: JSON only on stdout, one-line errors, progress off the terminal."""

from __future__ import annotations

import json

import pytest

from resolver.cli._output import CliError, console, emit_json, error_line, progress


def test_json_and_error_lines(capsys: pytest.CaptureFixture[str]) -> None:
    emit_json({"a": [1, 2]})
    error_line("two\nlines   squeezed")
    out, err = capsys.readouterr()
    assert json.loads(out) == {"a": [1, 2]} and err == "resolver: two lines squeezed\n"
    assert CliError("x").code == 2 and CliError("x", 3).code == 3


def test_progress_is_silent_when_not_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    with progress(3, "work") as advance:
        for _ in range(3):
            advance()
    console().print("table")
    out, err = capsys.readouterr()
    assert out == "table\n" and err == ""


def test_json_and_cells_with_text_that_is_not_unicode(capsys: pytest.CaptureFixture[str]) -> None:
    from resolver.cli._output import cell

    data = {"name": "a\ud800b", "file": "caf\udce9.json", "ok": "Café"}
    emit_json(data)
    out, _ = capsys.readouterr()
    out.encode("utf-8")  # writable to any UTF-8 stdout
    assert json.loads(out) == data  # the escapes read back as the text was
    emit_json({"ok": "Café"})
    assert "Café" in capsys.readouterr().out  # valid text stays as it is
    assert cell("caf\udce9.json") == "caf\ufffd.json" and cell("Café 😀") == "Café 😀"
