"""Running the ``resolver`` command in tests: in process (exit code, stdout, stderr) or as a
real process (pipes, signals, completion)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from resolver.cli import main

ROOT = Path(__file__).resolve().parents[1]
SETTINGS_TREE = ROOT / "fixtures" / "captured" / "settings" / "axtree.json"
NETWORK_OK = '{"role": "button", "name": "OK", "container_path": ["Preferences", "Network"]}'


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``resolver ARGS`` in this process: exit code, stdout, stderr."""
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def one_line_error(err: str) -> str:
    """The single ``resolver: ...`` line a failed command writes (no traceback)."""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("resolver: "), err
    assert "Traceback" not in err
    return lines[0]


def process(
    *args: str,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
    shell: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """``python -m resolver ARGS`` as a separate process from the worktree, or a bash
    command line (``shell``) in which ``RESOLVER`` runs it."""
    command = [sys.executable, "-m", "resolver", *args]
    if shell is not None:
        command = ["bash", "-c", shell.replace("RESOLVER", f"{sys.executable} -m resolver")]
    return subprocess.run(
        command,
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={**os.environ, **(env or {})},
        check=False,
    )
