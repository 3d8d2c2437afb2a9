"""``resolver annotate``: coordinate-only actions get the element under their point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import one_line_error, run

TREE = {"id": "r", "role": "dialog", "name": "Confirm", "bbox": [0, 0, 300, 200], "children": [
    {"id": "ok", "role": "button", "name": "OK", "bbox": [200, 150, 280, 180]},
    {"id": "no", "role": "button", "name": "Cancel", "bbox": [100, 150, 180, 180]}]}  # fmt: skip


def _recording(path: Path) -> Path:
    timeline = [
        {"kind": "ax_snapshot", "snapshot_id": "s", "snapshot": TREE},
        {"kind": "human_action", "step": 1, "action": {"type": "click", "x": 240, "y": 165},
         "target_node": "ok"},
        {"kind": "human_action", "step": 2, "action": {"type": "click", "x": 140, "y": 165,
         "element": {"role": "button", "name": "Cancel"}}},
    ]  # fmt: skip
    path.write_text(json.dumps({"recording_version": 1, "timeline": timeline}))
    return path


def test_annotate_writes_a_copy(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src = _recording(tmp_path / "r.json")
    before = src.read_bytes()
    out = tmp_path / "a.json"
    code, text, err = run(capsys, "annotate", str(src), "-o", str(out), "--json")
    assert code == 0, err
    report = json.loads(text)
    assert report["annotated"] == 1 and report["skipped"] == {"has an element already": 1}
    assert src.read_bytes() == before
    timeline = json.loads(out.read_text())["timeline"]
    assert timeline[1]["action"]["element"]["name"] == "OK"
    assert timeline[2]["action"]["element"] == {"role": "button", "name": "Cancel"}
    code, text, _ = run(capsys, "replay", str(out), "--out", str(tmp_path / "rep"), "--json",
                        "--no-html")  # fmt: skip
    assert code == 0 and json.loads(text)["overall"]["correct"] == 1


def test_annotate_in_place_and_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src = _recording(tmp_path / "r.json")
    code, _, err = run(capsys, "annotate", str(src), "-o", str(src))
    assert code == 2 and "--in-place" in one_line_error(err)
    code, text, _ = run(capsys, "annotate", str(src), "--in-place")
    assert code == 0 and "annotated 1 actions" in text
    assert json.loads(src.read_text())["timeline"][1]["action"]["element_source"] == "a11y_point"
    (tmp_path / "bad.json").write_text("{not json")
    code, _, err = run(capsys, "annotate", str(tmp_path / "bad.json"))
    assert code == 2 and "not valid JSON" in one_line_error(err)
    code, _, err = run(capsys, "annotate", str(tmp_path / "missing.json"))
    assert code == 2 and "no such file" in one_line_error(err)
