"""``resolver`` as a process: exit codes, no traceback ever, closed pipes, interrupts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import NETWORK_OK, SETTINGS_TREE, one_line_error, process, run

from resolver.cli import main


def test_no_arguments_prints_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys)
    assert code == 0 and "Commands" in out and "Exit codes" in out


def test_unknown_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "nope")
    assert code == 2 and "No such command 'nope'" in one_line_error(err)


def test_an_unexpected_error_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("resolver.cli.resolve.resolve", broken)
    code, _, err = run(capsys, "resolve", "--ref", NETWORK_OK, "--tree", str(SETTINGS_TREE))
    assert code == 1 and "internal error: RuntimeError: boom" in one_line_error(err)
    monkeypatch.setenv("RESOLVER_DEBUG", "1")
    with pytest.raises(RuntimeError):
        main(["resolve", "--ref", NETWORK_OK, "--tree", str(SETTINGS_TREE)])


def test_interrupt_exits_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("resolver.cli.resolve.resolve", interrupted)
    code, out, err = run(capsys, "resolve", "--ref", NETWORK_OK, "--tree", str(SETTINGS_TREE))
    assert code == 130 and "Traceback" not in out + err


def test_broken_pipe_in_process(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def closed(*_: object) -> None:
        raise BrokenPipeError

    monkeypatch.setattr("resolver.cli.resolve.emit_json", closed)
    code, _, err = run(
        capsys, "resolve", "--ref", NETWORK_OK, "--tree", str(SETTINGS_TREE), "--json"
    )
    assert code == 141 and err == ""


def test_closed_pipe_prints_nothing() -> None:
    for command in (
        "demo --sources a11y",
        f"resolve --ref '{NETWORK_OK}' --tree {SETTINGS_TREE} --json",
        "formats",
    ):
        done = process(shell=f"RESOLVER {command} | head -c 0; echo ${{PIPESTATUS[0]}} >&2")
        assert "Traceback" not in done.stderr and "Error" not in done.stderr, done.stderr
        assert done.stderr.strip().splitlines()[-1] in ("0", "141")


def test_json_pipes_without_a_banner() -> None:
    done = process("resolve", "--ref", NETWORK_OK, "--tree", str(SETTINGS_TREE), "--json")
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["executor_id"] == "a11y:87"


def test_stdin_reference_in_a_process() -> None:
    done = process(
        "resolve", "--ref", "-", "--tree", str(SETTINGS_TREE), "--json", stdin=NETWORK_OK
    )
    assert done.returncode == 0 and json.loads(done.stdout)["source"] == "a11y"


def test_a_name_holding_half_a_character_is_shown_with_a_replacement(tmp_path: Path) -> None:
    # A lone surrogate (JSON "\ud800") is a valid JSON string but not valid UTF-8 text: the
    # table reads it as U+FFFD, as references do.
    tree = tmp_path / "tree.json"
    tree.write_text('{"role": "list", "children": [{"role": "button", "name": "O\\ud800K"}]}')
    for command in ("catalog", "snapshot"):
        done = process(command, "--tree", str(tree))
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert "O\ufffdK" in process("catalog", "--tree", str(tree)).stdout
