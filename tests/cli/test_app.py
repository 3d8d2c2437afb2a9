"""The application: --version, help text on every option, shell completion."""

from __future__ import annotations

import pytest
from cli_helpers import process, run

from resolver import __version__
from resolver.cli.app import build_app


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.strip() == f"resolver {__version__}"


def test_every_option_has_help_text() -> None:
    group = build_app()
    missing = []
    for name, command in group.commands.items():
        assert command.help, name
        for param in command.params:
            if getattr(param, "param_type_name", "") == "option" and not param.help:
                missing.append(f"{name} {param.opts}")
            if getattr(param, "param_type_name", "") == "argument" and not getattr(
                param, "help", None
            ):
                missing.append(f"{name} {param.name}")
    assert missing == []
    assert set(group.commands) == {
        "resolve",
        "explain",
        "complete",
        "catalog",
        "snapshot",
        "replay",
        "annotate",
        "formats",
        "demo",
        "mcp",
        "serve",
    }


def test_every_command_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    for name in (
        "resolve",
        "explain",
        "catalog",
        "snapshot",
        "replay",
        "formats",
        "demo",
        "mcp",
        "serve",
    ):
        code, out, _ = run(capsys, name, "--help")
        assert code == 0 and "Exit" in out, name


def test_shell_completion() -> None:
    # The script itself, whatever shell the tests run under; then --show-completion from a
    # bash parent (it detects the shell from its parent process, not from an argument).
    script = process(env={"_RESOLVER_COMPLETE": "source_bash"})
    assert script.returncode == 0 and "_RESOLVER_COMPLETE" in script.stdout
    script = process(shell="RESOLVER --show-completion; true")
    assert script.returncode == 0 and "_RESOLVER_COMPLETE" in script.stdout
    done = process(
        env={"_RESOLVER_COMPLETE": "complete_bash", "COMP_WORDS": "resolver re", "COMP_CWORD": "1"}
    )
    assert set(done.stdout.split()) == {"resolve", "replay"}
    done = process(
        env={
            "_RESOLVER_COMPLETE": "complete_bash",
            "COMP_WORDS": "resolver resolve --format ui",
            "COMP_CWORD": "3",
        }
    )
    assert set(done.stdout.split()) == {"uia", "uiautomator"}


def test_the_help_documents_the_exit_codes_as_implemented(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from resolver.cli import _output

    code, out, _ = run(capsys, "--help")
    text = " ".join(out.split())
    assert code == 0 and "Exit codes:" in text
    documented = {
        _output.EXIT_OK: "resolved, or done",
        _output.EXIT_NOT_RESOLVED: "not resolved (ambiguous, not found",
        _output.EXIT_INPUT: "usage or input error (",
        _output.EXIT_WRONG: "wrong answers found (demo, replay --strict), or an internal error",
        _output.EXIT_INTERRUPTED: "interrupted",
        _output.EXIT_PIPE: "output pipe closed",
    }
    for number, meaning in documented.items():
        assert f"{number} {meaning}" in text, number
    for cause in ("--limit", "resolver[vision] missing", "every recording given to replay corrupt"):
        assert cause in text, cause


def test_an_internal_error_is_exit_1_as_documented(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from cli_helpers import NETWORK_OK, SETTINGS_TREE, one_line_error

    import resolver.cli.resolve as command

    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.delenv("RESOLVER_DEBUG", raising=False)
    monkeypatch.setattr(command, "resolve", broken)
    code, _, err = run(capsys, "resolve", "--ref", NETWORK_OK, "--tree", str(SETTINGS_TREE))
    assert code == 1 and "internal error: RuntimeError: a bug" in one_line_error(err)
