"""``resolver snapshot``: SnapshotV1 on stdout or in a file, options, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import ROOT, SETTINGS_TREE, one_line_error, run


def test_stdout_and_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "snapshot", "--tree", str(SETTINGS_TREE), "--trace-id", "t1")
    snap = json.loads(out)
    assert code == 0 and snap["snapshot_version"] == 1 and snap["trace_id"] == "t1"
    target = tmp_path / "s.json"
    dom = ROOT / "fixtures" / "captured" / "settings" / "dom.html"
    code, out, err = run(
        capsys,
        "snapshot",
        "--tree",
        str(SETTINGS_TREE),
        "--dom",
        str(dom),
        "--no-prune",
        "--no-redact",
        "--include-dom",
        "--out",
        str(target),
    )
    written = json.loads(target.read_text())
    assert code == 0 and out == "" and "wrote" in err
    assert written["quality"]["pruned"] is False and "dom" in written


def test_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "snapshot")
    assert code == 2 and "give an observation" in one_line_error(err)
    code, _, err = run(
        capsys, "snapshot", "--tree", str(SETTINGS_TREE), "--out", str(tmp_path / "no" / "s.json")
    )
    assert code == 2 and "cannot write" in one_line_error(err)
    (tmp_path / "x.json").write_text('"just a string"')
    code, _, err = run(capsys, "snapshot", "--tree", str(tmp_path / "x.json"))
    assert code == 2
    one_line_error(err)


def test_a_tree_with_lone_surrogates_is_written_and_reads_back(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    tree = tmp_path / "t.json"  # JSON escapes for lone surrogates: valid JSON, broken text
    tree.write_text(
        '{"id": "d", "role": "document", "name": "T", "children": [{"id": "b\\ud800", '
        '"role": "button", "name": "a\\ud800b", "bbox": [0, 0, 40, 20]}]}',
        "ascii",
    )
    code, out, err = run(capsys, "snapshot", "--tree", str(tree))
    assert code == 0 and "internal error" not in err
    assert [n["name"] for n in json.loads(out)["ax_tree"]["nodes"]] == ["", "T", "a\ufffdb"]
    target = tmp_path / "s.json"
    code, _, err = run(capsys, "snapshot", "--tree", str(tree), "--out", str(target))
    assert code == 0 and "internal error" not in err
    ref = '{"role": "button", "name": "a\ufffdb"}'
    code, out, _ = run(capsys, "resolve", "--ref", ref, "--tree", str(target), "--json")
    assert code == 0 and json.loads(out)["executor_id"] == "a11y:b\\ud800"
