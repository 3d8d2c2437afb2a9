"""``resolver serve``: its options, exit 2 without the server extra, and the command's own
process answering over loopback."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import ROOT, one_line_error, run
from live_browser import CHROMIUM, browser_missing

PAGE = (ROOT / "fixtures" / "live" / "rerender.html").as_uri()


def test_help_names_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "serve", "--help")
    assert code == 0
    for option in ("--port", "--chromium", "--headed", "--max-body"):
        assert option in out


def test_a_missing_extra_is_exit_2_with_the_install_line() -> None:
    code = (
        "import sys; sys.modules['uvicorn'] = None\n"
        "from resolver.cli import main; sys.exit(main(['serve']))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
                          timeout=60)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "pip install 'resolver[server]'" in one_line_error(done.stderr)
    assert "Traceback" not in done.stderr


def test_index_mode_follows_the_option_and_the_environment(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import resolver.server.http as http

    seen: list[bool] = []
    monkeypatch.setattr(http, "serve_http", lambda worker, *a, **k: seen.append(worker.index_mode))
    assert run(capsys, "serve")[0] == 0
    assert run(capsys, "serve", "--no-index-mode")[0] == 0
    monkeypatch.setenv("INDEX_MODE", "false")
    assert run(capsys, "serve")[0] == 0
    assert seen == [True, False, False]


def _call(url: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if body is None else "POST",
                                     headers={"Content-Type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


@pytest.mark.browser
@pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing()))
def test_the_command_serves_the_page_on_loopback() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "resolver", "serve", "--port", str(port), "--chromium", CHROMIUM],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.2)
        assert _call(base + "/navigate", {"url": PAGE})["title"] == "Team"
        catalog = _call(base + "/catalog")
        line = next(x for x in catalog["catalog"].splitlines() if "button: Save" in x)
        index = int(line.split("]")[0].split("[")[1])
        click = [{"action": "click", "target": f"index={index}"}]
        version = catalog["version"]
        done = _call(base + "/execute", {"actions": click, "expected_catalog_version": version})
        assert done["success"], done
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_chromium_that_is_not_an_executable_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    plain = tmp_path / "chromium"
    plain.write_text("not a program")
    plain.chmod(0o644)
    code, _, err = run(capsys, "serve", "--chromium", str(plain))
    assert code == 2 and f"no executable at {plain}" in one_line_error(err)


def test_a_record_folder_that_is_a_file_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "file").write_text("not a folder")
    code, _, err = run(capsys, "serve", "--record", str(tmp_path / "file" / "runs"))
    assert code == 2 and "--record: cannot record in" in one_line_error(err)
