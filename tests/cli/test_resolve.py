import json
from pathlib import Path

import pytest

from resolver.cli import main


def test_resolve_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tree = tmp_path / "tree.json"
    tree.write_text(json.dumps({"id": "1", "role": "button", "name": "OK", "bbox": [0, 0, 9, 9]}))
    assert main(["resolve", "--ref", '{"role": "button", "name": "OK"}', "--tree", str(tree)]) == 0
    assert json.loads(capsys.readouterr().out)["executor_id"] == "a11y:1"
    assert main(["resolve", "--ref", '{"role":', "--tree", str(tree)]) == 3
    assert json.loads(capsys.readouterr().out)["code"] == "INVALID_REFERENCE"
    assert main(["resolve", "--ref", str(tmp_path / "missing.json"), "--tree", str(tree)]) == 2


def test_resolve_bad_screen_size_is_a_typed_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tree = tmp_path / "tree.json"
    tree.write_text(json.dumps({"id": "1", "role": "button", "name": "OK"}))
    args = ["resolve", "--ref", '{"name": "OK"}', "--tree", str(tree), "--screen-size", "wide"]
    assert main(args) == 3
    assert json.loads(capsys.readouterr().out)["code"] == "INVALID_OBSERVATION"
