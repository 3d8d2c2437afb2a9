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
        "formats",
        "demo",
    }


def test_every_command_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("resolve", "explain", "catalog", "snapshot", "replay", "formats", "demo"):
        code, out, _ = run(capsys, name, "--help")
        assert code == 0 and "Exit" in out, name


def test_shell_completion() -> None:
    script = process("--show-completion", "bash")
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
