"""``resolver explain``: the candidates, the decision, the PNG; exit codes and errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import NETWORK_OK, SETTINGS_TREE, one_line_error, run
from vision_images import VISION_FIXTURES

SHOT = VISION_FIXTURES / "settings" / "screenshot.png"


def test_resolves_and_writes_the_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ok.png"
    code, text, _ = run(
        capsys, "explain", "--ref", NETWORK_OK, "--tree", str(SETTINGS_TREE), "--out", str(out)
    )
    assert code == 0 and "resolved a11y:87" in text and "candidates" in text
    assert "rule accept." in text
    assert out.read_bytes().startswith(b"\x89PNG")


def test_vision_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ok.png"
    ref = json.dumps({"role": "button", "name": "OK", "bbox": [827, 482, 903, 512]})
    code, text, _ = run(
        capsys,
        "explain",
        "--ref",
        ref,
        "--screenshot",
        str(SHOT),
        "--out",
        str(out),
        "--screen-size",
        "1280x800",
        "--sources",
        "vision",
        "--json",
    )
    answer = json.loads(text)
    assert code == 0 and answer["source"] == "vision" and answer["picture"] == str(out)


def test_not_resolved_prints_the_evidence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "none.png"
    ref = json.dumps({"role": "button", "name": "OK"})
    code, text, _ = run(
        capsys, "explain", "--ref", ref, "--tree", str(SETTINGS_TREE), "--out", str(out), "--json"
    )
    data = json.loads(text)
    assert code == 3 and data["trace"][0]["status"] == "ambiguous"
    assert data["rule"] == data["trace"][0]["rule"] == "ambiguous.margin"
    assert out.is_file()
    code, text, _ = run(
        capsys, "explain", "--ref", ref, "--tree", str(SETTINGS_TREE), "--out", str(out)
    )
    assert code == 3 and "not resolved" in text and "ambiguous.margin" in text


def test_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = json.dumps({"role": "button", "name": "OK"})
    code, _, err = run(capsys, "explain", "--ref", ref, "--screenshot", str(tmp_path / "n.png"))
    assert code == 2 and "no such file" in one_line_error(err)
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"not an image")
    code, _, err = run(
        capsys, "explain", "--ref", ref, "--screenshot", str(bad), "--out", str(tmp_path / "o.png")
    )
    assert code == 2 and "screenshot" in one_line_error(err)
    code, _, err = run(
        capsys,
        "explain",
        "--ref",
        NETWORK_OK,
        "--tree",
        str(SETTINGS_TREE),
        "--out",
        str(tmp_path / "absent" / "o.png"),
    )
    assert code == 2 and "cannot write" in one_line_error(err)


def test_prints_what_the_table_repaired(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tree = tmp_path / "tree.json"
    kids = [
        {"id": "2", "role": "button", "name": "Save", "bbox": [10, 10, 90, 40]},
        {"id": "3", "role": "frobnicator", "name": "Knob", "bbox": [120, 10, 100, 40]},
    ]
    tree.write_text(json.dumps({"id": "1", "role": "frame", "name": "App", "children": kids}))
    ref = json.dumps({"role": "button", "name": "Save"})
    args = ("explain", "--ref", ref, "--tree", str(tree), "--out", str(tmp_path / "o.png"))
    code, text, _ = run(capsys, *args)
    assert code == 0 and "resolved a11y:2" in text
    assert "a11y table: 1 box inverted (dropped), 1 role unknown (read as unknown)" in text
    code, text, _ = run(capsys, *args, "--json")
    assert json.loads(text)["trace"][0]["diagnostics"] == {"box_inverted": 1, "role_unknown": 1}
    clean = ("explain", "--ref", NETWORK_OK, "--tree", str(SETTINGS_TREE), "--out",
             str(tmp_path / "c.png"))  # fmt: skip
    code, text, _ = run(capsys, *clean)
    assert code == 0 and "table:" not in text
