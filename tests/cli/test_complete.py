"""``resolver complete``: the completed reference as JSON, and every error path."""

from __future__ import annotations

import json

import pytest
from cli_helpers import NETWORK_OK, SETTINGS_TREE, one_line_error, run

TREE = str(SETTINGS_TREE)


def test_the_completed_reference_is_printed_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "complete", "--ref", NETWORK_OK, "--tree", TREE)
    ref = json.loads(out)
    assert code == 0 and (ref["role"], ref["name"]) == ("button", "OK")
    assert ref["anchors"] and len(ref["lookalikes"]) == 1  # the General tab's OK
    code, out, _ = run(capsys, "resolve", "--ref", out, "--tree", TREE, "--json")
    assert code == 0 and json.loads(out)["executor_id"] == "a11y:87"


def test_an_element_not_certain_on_its_page_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "complete", "--ref", '{"role": "button", "name": "OK"}', "--tree", TREE
    )
    assert code == 3 and "AMBIGUOUS" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sources", "coords"], "--sources"),
        (["--sources", ""], "--sources"),
        (["--ref", '{"bbox": [5, 5, 1, 1]}'], "bbox"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    base = ["complete", "--tree", TREE] + ([] if "--ref" in args else ["--ref", NETWORK_OK])
    code, _, err = run(capsys, *base, *args)
    assert code == 2 and message in one_line_error(err)
