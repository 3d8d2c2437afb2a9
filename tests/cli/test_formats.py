"""``resolver formats``: the list, detection of each input kind, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import ROOT, SETTINGS_TREE, one_line_error, run
from recording_files import RECORDINGS, write_corrupt
from vision_images import VISION_FIXTURES


def test_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "formats", "--json")
    names = [row["name"] for row in json.loads(out)]
    assert code == 0 and {"cdp", "uia", "recording_v1", "html"} <= set(names)
    code, out, _ = run(capsys, "formats")
    assert code == 0 and "uiautomator" in out


@pytest.mark.parametrize(
    ("path", "fmt"),
    [
        (SETTINGS_TREE, "cdp"),
        (ROOT / "fixtures" / "formats" / "uia" / "invoice.json", "uia"),
        (ROOT / "fixtures" / "formats" / "atspi" / "invoice.xml", "atspi"),
        (ROOT / "fixtures" / "captured" / "settings" / "dom.html", "html"),
        (VISION_FIXTURES / "settings" / "screenshot.png", "png"),
        (RECORDINGS / "settings.agent.json", "recording_v1"),
        (RECORDINGS / "table.openadapt.jsonl", "openadapt_jsonl"),
    ],
)
def test_detects(capsys: pytest.CaptureFixture[str], path: Path, fmt: str) -> None:
    code, out, _ = run(capsys, "formats", str(path), "--json")
    assert code == 0 and json.loads(out)["format"] == fmt
    code, out, _ = run(capsys, "formats", str(path))
    assert code == 0 and fmt in out


def test_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "formats", str(tmp_path / "absent.json"))
    assert code == 2 and "no such file" in one_line_error(err)
    (tmp_path / "odd.json").write_text('{"hello": 1}')
    code, _, err = run(capsys, "formats", str(tmp_path / "odd.json"))
    assert code == 2 and "no adapter recognises" in one_line_error(err)
    write_corrupt(tmp_path)
    code, _, err = run(capsys, "formats", str(tmp_path / "cut.jsonl"))
    assert code == 2 and "line 2" in one_line_error(err)
    code, _, err = run(capsys, "formats", str(tmp_path))
    assert code == 2
    one_line_error(err)
