"""``resolver explain``: exit codes, JSON out, the PNG written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from vision_images import VISION_FIXTURES

from resolver.cli import main

SHOT = VISION_FIXTURES / "settings" / "screenshot.png"


def test_resolves_and_writes_the_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ok.png"
    ref = json.dumps({"role": "button", "name": "OK", "bbox": [827, 482, 903, 512]})
    code = main(["explain", "--ref", ref, "--screenshot", str(SHOT), "--out", str(out),
                 "--screen-size", "1280x800", "--sources", "vision"])  # fmt: skip
    assert code == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["source"] == "vision" and answer["candidate"]["name"] == "OK"
    assert out.read_bytes().startswith(b"\x89PNG")


def test_not_resolved_prints_the_evidence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "none.png"
    ref = json.dumps({"role": "button", "name": "OK"})
    code = main(["explain", "--ref", ref, "--screenshot", str(SHOT), "--out", str(out),
                 "--sources", "vision"])  # fmt: skip
    assert code == 3
    assert json.loads(capsys.readouterr().out)["trace"][0]["status"] == "ambiguous"
    assert out.is_file()


def test_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = json.dumps({"role": "button", "name": "OK"})
    assert main(["explain", "--ref", ref, "--screenshot", str(tmp_path / "none.png")]) == 2
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"not an image")
    assert main(["explain", "--ref", ref, "--screenshot", str(bad), "--out",
                 str(tmp_path / "o.png")]) == 2  # fmt: skip
    assert "screenshot" in capsys.readouterr().err
