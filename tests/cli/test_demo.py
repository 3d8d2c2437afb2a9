"""``resolver demo``: the bundled captures, a folder, and its errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import ROOT, one_line_error, run


def test_demo_runs_on_the_bundled_fixtures(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "--sources", "a11y")
    assert code == 0 and "wrong answers 0.0% of answers" in out
    assert "Example: settings.display.ok" in out


def test_demo_reads_a_folder_and_refuses_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        capsys, "demo", str(ROOT / "fixtures" / "captured"), "--sources", "a11y", "-v"
    )
    assert code == 0 and "accuracy on present targets" in out and "correct " in out
    code, _, err = run(capsys, "demo", str(tmp_path / "absent"))
    assert code == 2 and "no captured fixtures" in one_line_error(err)
    code, _, err = run(capsys, "demo", str(tmp_path))
    assert code == 2 and "holds no capture folders" in one_line_error(err)
    code, _, err = run(capsys, "demo", "--sources", "a11y,ocr")
    assert code == 2 and "unknown source(s) ocr" in one_line_error(err)
