from pathlib import Path

import pytest

from resolver.cli import main


def test_demo_runs_on_the_bundled_fixtures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--sources", "a11y"]) == 0
    out = capsys.readouterr().out
    assert "wrong answers 0.0% of answers" in out


def test_demo_reads_a_folder_and_refuses_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = Path(__file__).resolve().parents[2] / "fixtures" / "captured"
    assert main(["demo", str(root), "--sources", "a11y"]) == 0
    assert "accuracy on present targets" in capsys.readouterr().out
    assert main(["demo", str(tmp_path / "absent")]) == 2
    assert "no captured fixtures" in capsys.readouterr().err
    assert main(["demo", "--sources", "a11y,ocr"]) == 2
    assert "unknown source(s) ocr" in capsys.readouterr().err
