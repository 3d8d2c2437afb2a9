"""``resolver resolve``: the table, --json, every option, and every error path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import NETWORK_OK, SETTINGS_TREE, one_line_error, run

TREE = str(SETTINGS_TREE)


def test_summary_table_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "resolve", "--ref", NETWORK_OK, "--tree", TREE)
    assert code == 0 and err == ""
    assert "resolved a11y:87" in out and "candidates" in out and "a11y:65" in out
    assert "rule accept." in out  # the rule that answered


def test_json_is_all_there_is_on_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "resolve", "--ref", NETWORK_OK, "--tree", TREE, "--json")
    assert code == 0 and json.loads(out)["executor_id"] == "a11y:87"
    assert json.loads(out)["rule"].startswith("accept.")


def test_every_option(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    ref = tmp_path / "ref.json"
    ref.write_text(NETWORK_OK)
    code, out, _ = run(
        capsys,
        "resolve",
        "--ref",
        str(ref),
        "--tree",
        TREE,
        "--json",
        "--format",
        "cdp",
        "--screen-size",
        "1280x800",
        "--url",
        "file:///x",
        "--sources",
        "a11y,coords",
        "--threshold",
        "0.7",
        "--margin",
        "0.1",
        "--coords",
        "never",
    )
    assert code == 0 and json.loads(out)["source"] == "a11y"
    # a threshold nothing reaches: not resolved
    code, out, _ = run(
        capsys,
        "resolve",
        "--ref",
        '{"role": "button", "name": "Okay"}',
        "--tree",
        TREE,
        "--threshold",
        "1",
        "--json",
    )
    assert code == 3 and json.loads(out)["code"] == "ELEMENT_NOT_FOUND"
    # a minimum confidence the answer does not reach: not resolved, and the trace says why
    code, out, _ = run(
        capsys, "resolve", "--ref", NETWORK_OK, "--tree", TREE, "--sources", "a11y",
        "--min-confidence", "1", "--json",
    )  # fmt: skip
    assert code == 3 and "min_confidence" in out


def test_ref_from_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(NETWORK_OK))
    code, out, _ = run(capsys, "resolve", "--ref", "-", "--tree", TREE, "--json")
    assert code == 0 and json.loads(out)["executor_id"] == "a11y:87"
    assert json.loads(out)["rule"].startswith("accept.")


def test_not_resolved_exits_3_with_the_evidence(capsys: pytest.CaptureFixture[str]) -> None:
    ref = '{"role": "button", "name": "OK"}'
    code, out, _ = run(capsys, "resolve", "--ref", ref, "--tree", TREE)
    assert code == 3 and "AMBIGUOUS" in out and "trace" in out
    assert "(rule ambiguous.margin)" in out and "rule" in out.split("trace", 1)[1]
    code, out, _ = run(capsys, "resolve", "--ref", ref, "--tree", TREE, "--json")
    data = json.loads(out)
    assert code == 3 and data["code"] == "AMBIGUOUS" and data["rule"] == "ambiguous.margin"
    assert data["trace"][0]["rule"] == "ambiguous.margin"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--ref", '{"role":', "--tree", TREE], "--ref is not valid JSON"),
        (["--ref", "missing.json", "--tree", TREE], "--ref: no such file"),
        (["--ref", '{"bbox": [5, 5, 1, 1]}', "--tree", TREE], "not a valid reference"),
        (["--ref", "{}", "--tree", TREE], "not a valid reference"),
        (["--ref", NETWORK_OK], "give an observation"),
        (["--ref", NETWORK_OK, "--tree", "missing.json"], "--tree: no such file"),
        (["--ref", NETWORK_OK, "--tree", TREE, "--format", "nope"], "unknown --format"),
        (["--ref", NETWORK_OK, "--tree", TREE, "--screen-size", "wide"], "--screen-size"),
        (["--ref", NETWORK_OK, "--tree", TREE, "--sources", "a11y,ocr"], "unknown source(s) ocr"),
        (["--ref", NETWORK_OK, "--tree", TREE, "--sources", ","], "unknown source(s)"),
        (["--ref", NETWORK_OK, "--tree", TREE, "--threshold", "2"], "--threshold"),
        (["--ref", NETWORK_OK, "--tree", TREE, "--min-confidence", "-1"], "--min-confidence"),
        (["--ref", NETWORK_OK, "--tree", TREE, "--coords", "sometimes"], "--coords"),
        (["--tree", TREE], "Missing option '--ref'"),
        (["--ref", NETWORK_OK, "--tree", TREE, "--bogus"], "No such option: --bogus"),
    ],
)
def test_input_errors_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, "resolve", *args)
    assert code == 2 and out == ""
    assert message in one_line_error(err)


def test_unreadable_observation_contents_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for name, content in (("bad.json", "{not json"), ("empty.json", ""), ("odd.json", "{}")):
        (tmp_path / name).write_text(content)
        code, _, err = run(capsys, "resolve", "--ref", NETWORK_OK, "--tree", str(tmp_path / name))
        assert code == 2, name
        one_line_error(err)
    shot = tmp_path / "shot.png"
    shot.write_bytes(b"not an image")
    code, _, err = run(
        capsys, "resolve", "--ref", NETWORK_OK, "--screenshot", str(shot), "--sources", "vision"
    )
    assert code == 2 and "not a PNG or JPEG" in one_line_error(err)
