"""``resolver catalog``: the abbreviated view, JSON, and errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import ROOT, SETTINGS_TREE, one_line_error, run


def test_view_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "catalog", "--tree", str(SETTINGS_TREE))
    assert code == 0 and "button: OK" in out and out.startswith("page")
    code, out, _ = run(capsys, "catalog", "--tree", str(SETTINGS_TREE), "--json")
    view = json.loads(out)
    assert code == 0 and view["source"] == "a11y" and len(view["entries"]) > 5


def test_dom_source_and_budget(capsys: pytest.CaptureFixture[str]) -> None:
    dom = ROOT / "fixtures" / "captured" / "settings" / "dom.html"
    code, out, _ = run(
        capsys, "catalog", "--dom", str(dom), "--source", "dom", "--max-chars", "300"
    )
    assert code == 0 and len(out) < 600


def test_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "catalog")
    assert code == 2 and "give an observation" in one_line_error(err)
    code, _, err = run(capsys, "catalog", "--tree", str(SETTINGS_TREE), "--source", "dom")
    assert code == 2
    one_line_error(err)
    (tmp_path / "t.json").write_text("[1, 2")
    code, _, err = run(capsys, "catalog", "--tree", str(tmp_path / "t.json"))
    assert code == 2
    one_line_error(err)
    code, _, err = run(capsys, "catalog", "--tree", str(SETTINGS_TREE), "--max-chars", "5")
    assert code == 2 and "--max-chars" in one_line_error(err)


def test_marks_are_drawn_on_the_screenshot(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import cv2

    shot = SETTINGS_TREE.with_name("screenshot.png")
    out = tmp_path / "marks.png"
    code, view, err = run(capsys, "catalog", "--tree", str(SETTINGS_TREE), "--screenshot",
                          str(shot), "--marks", str(out))  # fmt: skip
    assert code == 0 and "button: OK" in view and "indexes drawn" in err
    drawn, plain = cv2.imread(str(out)), cv2.imread(str(shot))
    assert drawn.shape == plain.shape and (drawn != plain).any()
    code, _, err = run(capsys, "catalog", "--tree", str(SETTINGS_TREE), "--marks", str(out))
    assert code == 2 and "--screenshot" in one_line_error(err)
    code, _, err = run(capsys, "catalog", "--tree", str(SETTINGS_TREE), "--screenshot",
                       str(shot), "--marks", str(tmp_path / "no" / "such" / "m.png"))  # fmt: skip
    assert code == 2 and "cannot write" in one_line_error(err)
