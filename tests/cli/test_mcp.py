"""``resolver mcp``: its options, and a clear exit 2 without the server extra."""

from __future__ import annotations

import subprocess
import sys

import pytest
from cli_helpers import ROOT, one_line_error, run


def test_help_names_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "mcp", "--help")
    assert code == 0
    for option in ("--chromium", "--headed", "--http"):
        assert option in out


def test_a_missing_extra_is_exit_2_with_the_install_line() -> None:
    # The mcp SDK made unimportable in the child (a None entry in sys.modules).
    code = (
        "import sys; sys.modules['mcp'] = None; sys.modules['mcp.server'] = None\n"
        "sys.modules['mcp.server.mcpserver'] = None\n"
        "from resolver.cli import main; sys.exit(main(['mcp']))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
                          timeout=60)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "pip install 'resolver[server]'" in one_line_error(done.stderr)
    assert "Traceback" not in done.stderr


def test_a_bad_port_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "mcp", "--http", "0")
    assert code == 2 and "--http" in err


def test_index_mode_follows_the_option_and_the_environment(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import resolver.server.mcp as server

    seen: list[bool] = []
    monkeypatch.setattr(server, "run_server", lambda *a, **k: seen.append(k["index_mode"]))
    assert run(capsys, "mcp")[0] == 0
    monkeypatch.setenv("INDEX_MODE", "false")
    assert run(capsys, "mcp")[0] == 0
    assert seen == [True, False]


def test_a_chromium_that_is_not_there_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "mcp", "--chromium", "/nonexistent/chromium")
    assert code == 2 and "no executable at /nonexistent/chromium" in one_line_error(err)
