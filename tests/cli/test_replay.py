"""``resolver replay``: tables, reports, resume, cluster flags, and every error path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import one_line_error, run
from recording_files import RECORDINGS, snapshot, write_corrupt, write_document

from resolver.decide import RULES_BY_ID


def test_local_run_writes_reports(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    write_corrupt(tmp_path)
    out = tmp_path / "out"
    code, text, err = run(
        capsys,
        "replay",
        str(RECORDINGS),
        str(tmp_path),
        "--out",
        str(out),
        "--sources",
        "a11y",
        "--pictures",
        "0",
    )
    assert code == 0 and "per recording" in text and "skipped" in text
    assert "reports in" in err
    report = json.loads((out / "report.json").read_text())
    assert report["overall"]["corrupt"] == 4 and report["overall"]["accuracy"] == 1.0
    assert (out / "report.html").read_text().count("<svg") == 4
    # Every replayed step names the rule that answered or refused it, and the report counts
    # the verdicts per rule.
    assert "by deciding rule" in text
    assert set(report["by_rule"]) <= set(RULES_BY_ID) and report["by_rule"]
    assert all(rule in text for rule in report["by_rule"])
    assert sum(r["steps"] for r in report["by_rule"].values()) == report["overall"]["resolutions"]
    assert len(list((out / "results").glob("*.json"))) == 18


def test_json_and_options(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rec = write_document(tmp_path / "in" if (tmp_path / "in").mkdir() is None else tmp_path)
    other = tmp_path / "other.json"
    other.write_text(json.dumps(snapshot("s1", ok_name="Okay")))
    code, text, _ = run(
        capsys,
        "replay",
        str(rec),
        "--out",
        str(tmp_path / "o"),
        "--json",
        "--no-html",
        "--no-resume",
        "--against",
        "last",
        "--threshold",
        "0.5",
        "--margin",
        "0.05",
        "--coords",
        "never",
        "--sources",
        "a11y,dom",
    )
    report = json.loads(text)
    assert code == 0 and report["meta"]["against"] == "last" and report["overall"]["correct"] > 0
    assert not (tmp_path / "o" / "report.html").exists()
    code, text, _ = run(
        capsys,
        "replay",
        str(rec),
        "--out",
        str(tmp_path / "p"),
        "--json",
        "--observation",
        str(other),
        "--strict",
    )
    assert code == 1 and json.loads(text)["overall"]["false_hit"] == 1
    # a minimum confidence no answer reaches: every step abstains, none is right
    code, text, _ = run(
        capsys, "replay", str(rec), "--out", str(tmp_path / "q"), "--json", "--no-html",
        "--min-confidence", "1",
    )  # fmt: skip
    overall = json.loads(text)["overall"]
    assert code == 0 and overall.get("correct", 0) == 0 and overall["resolutions"] > 0
    # references completed from the snapshot they were recorded on: still every one right
    code, text, _ = run(
        capsys, "replay", str(rec), "--out", str(tmp_path / "r"), "--json", "--no-html",
        "--complete", "--sources", "a11y",
    )  # fmt: skip
    overall = json.loads(text)["overall"]
    assert code == 0 and overall["correct"] == 3 and overall["wrong"] == 0
    stored = json.loads(next((tmp_path / "r" / "results").glob("*.json")).read_text())
    steps = stored["result"]["steps"]
    assert {s["completion"] for s in steps} == {"completed"}


@pytest.mark.timeout(60)
def test_local_cluster_flag(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    code, text, _ = run(
        capsys,
        "replay",
        str(RECORDINGS),
        "--out",
        str(tmp_path),
        "--workers",
        "2",
        "--threads",
        "--json",
        "--no-html",
        "--sources",
        "a11y",
    )
    report = json.loads(text)
    assert code == 0 and report["meta"]["scheduler"] == "LocalCluster(2)"
    assert report["overall"]["correct"] == 170


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{empty}"], "no recordings found"),
        (["{tmp}/absent"], "no such file or folder"),
        (["{rec}", "--sources", "ocr"], "unknown source(s) ocr"),
        (["{rec}", "--workers", "2", "--scheduler", "tcp://127.0.0.1:9"], "not both"),
        (["{rec}", "--observation", "{tmp}/absent.json"], "--observation: no such file"),
        (["{rec}", "--against", "later"], "--against"),
        (["{rec}", "--workers", "0"], "--workers"),
        (["{rec}", "--out", "{rec}"], "cannot write"),
        ([], "Missing argument"),
    ],
)
def test_errors_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], message: str
) -> None:
    (tmp_path / "empty").mkdir()
    rec = write_document(tmp_path)
    values = {"empty": str(tmp_path / "empty"), "tmp": str(tmp_path), "rec": str(rec)}
    filled = [a.format(**values) for a in args]
    code, out, err = run(capsys, "replay", *filled)
    assert code == 2 and out == ""
    assert message in one_line_error(err)


@pytest.mark.timeout(60)
def test_unreachable_scheduler(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    rec = write_document(tmp_path)
    code, _, err = run(
        capsys,
        "replay",
        str(rec),
        "--out",
        str(tmp_path / "o"),
        "--scheduler",
        "tcp://127.0.0.1:9",
        "--connect-timeout",
        "1",
    )
    assert code == 2 and "cannot connect" in one_line_error(err)


def test_missing_dask_is_an_install_hint(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if absent
    rec = write_document(tmp_path)
    code, _, err = run(capsys, "replay", str(rec), "--out", str(tmp_path / "o"), "--workers", "1")
    assert code == 2 and "pip install 'resolver[replay]'" in one_line_error(err)


@pytest.mark.timeout(60)
def test_scheduler_address(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, processes=False, protocol="tcp://", host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:  # fmt: skip
        address = cluster.scheduler_address
        code, text, _ = run(capsys, "replay", str(RECORDINGS), "--out", str(tmp_path),
                            "--scheduler", address, "--chunk", "4", "--json", "--no-html",
                            "--sources", "a11y")  # fmt: skip
    report = json.loads(text)
    assert code == 0 and report["meta"]["scheduler"] == address
    assert report["overall"]["correct"] == 170


def test_only_corrupt_recordings_is_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "bad.json").write_text('{"recording_version": 1, "timeline": [', "utf-8")
    code, text, err = run(capsys, "replay", str(tmp_path / "bad.json"), "--out",
                          str(tmp_path / "o"), "--no-html")  # fmt: skip
    assert code == 2 and "skipped" in text
    assert "every recording given is corrupt (1)" in err.splitlines()[-1]
    assert json.loads((tmp_path / "o" / "report.json").read_text())["overall"]["corrupt"] == 1


def _recording_with_snapshot_files(folder: Path) -> None:
    """A recording whose timeline names its two snapshots by file, kept beside it: one a
    SnapshotV1 document (what ``resolver snapshot`` writes), one axtree_v1."""
    from resolver import Observation
    from resolver.snapshot import to_snapshot_v1

    first = to_snapshot_v1(Observation(accessibility_tree=snapshot("s0")))
    (folder / "s0.snapshot.json").write_text(json.dumps(first), "utf-8")
    (folder / "s1.json").write_text(json.dumps(snapshot("s1", with_ok=False)), "utf-8")
    cancel = {"role": "button", "name": "Cancel", "container_path": ["Settings"]}
    timeline = [
        {"kind": "ax_snapshot", "snapshot_id": "s0", "file": "s0.snapshot.json"},
        {"kind": "decision", "step": 1, "action": {"type": "click", "element": cancel},
         "target_node": "c"},
        {"kind": "ax_snapshot", "snapshot_id": "s1", "file": "s1.json"},
        {"kind": "decision", "step": 2, "action": {"type": "click", "element": cancel},
         "target_node": "c"},
    ]  # fmt: skip
    doc = {"recording_version": 1, "mode": "agent", "timeline": timeline}
    (folder / "rec.json").write_text(json.dumps(doc), "utf-8")


def test_snapshot_files_beside_a_recording_are_not_corrupt(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    _recording_with_snapshot_files(folder)
    code, text, _ = run(capsys, "replay", str(folder), "--out", str(tmp_path / "o"), "--json",
                        "--no-html", "--sources", "a11y")  # fmt: skip
    report = json.loads(text)
    assert code == 0 and report["overall"]["corrupt"] == 0 and report["corrupt"] == []
    assert report["overall"]["recordings"] == 1 and report["meta"]["snapshots"] == 2
    assert report["overall"]["correct"] == 2
    code, text, _ = run(capsys, "replay", str(folder), "--out", str(tmp_path / "p"),
                        "--no-html", "--sources", "a11y")  # fmt: skip
    assert code == 0 and "skipped /" not in text and "2 snapshot files beside them" in text
    # A snapshot file alone is no recording: nothing to replay.
    code, _, err = run(capsys, "replay", str(folder / "s0.snapshot.json"), "--out",
                       str(tmp_path / "q"))  # fmt: skip
    assert code == 2 and "only snapshot files" in one_line_error(err)


def test_limits_apply_to_the_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    rec = str(write_document(tmp_path / "in"))
    code, text, err = run(capsys, "replay", rec, "--out", str(tmp_path / "o"), "--no-html",
                          "--limit", "max_recording_bytes=100")  # fmt: skip
    assert code == 2 and "every recording given is corrupt (1)" in err.splitlines()[-1]
    skipped = " ".join(line for line in text.splitlines() if "skipped" in line or "max_" in line)
    assert "max_recording_bytes=100" in skipped and "--limit max_recording_bytes=N" in skipped
    assert "in Python" not in skipped
    code, text, _ = run(capsys, "replay", rec, "--out", str(tmp_path / "p"), "--no-html", "--json",
                        "--sources", "a11y", "--limit", "max_nodes=1")  # fmt: skip
    assert code == 0 and json.loads(text)["overall"]["invalid"] == 3
    code, text, _ = run(capsys, "replay", rec, "--out", str(tmp_path / "q"), "--no-html", "--json",
                        "--sources", "a11y", "--limit", "max_nodes=3",
                        "--limit", "max_recording_bytes=1000000")  # fmt: skip
    assert code == 0 and json.loads(text)["overall"]["correct"] == 3


@pytest.mark.parametrize("value", ["max_nodes=0", "bogus=1", "max_recording_bytes"])
def test_a_bad_limit_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, value: str
) -> None:
    rec = str(write_document(tmp_path))
    code, out, err = run(capsys, "replay", rec, "--out", str(tmp_path / "o"), "--limit", value)
    assert code == 2 and out == "" and "--limit" in one_line_error(err)


def test_a_recording_named_in_bytes_that_are_not_utf8(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import os

    folder = tmp_path / "in"
    folder.mkdir()
    try:
        write_document(folder, os.fsdecode(b"caf\xe9.json"))
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system refuses names that are not UTF-8")
    out = tmp_path / "o"
    code, text, err = run(capsys, "replay", str(folder), "--out", str(out), "--sources", "a11y",
                          "--pictures", "0")  # fmt: skip
    assert code == 0 and "internal error" not in err and "caf" in text
    report = json.loads((out / "report.json").read_text("utf-8"))
    assert report["recordings"][0]["recording"] == str(folder / os.fsdecode(b"caf\xe9.json"))
    assert "caf" in (out / "report.html").read_text("utf-8")
    code, text, _ = run(capsys, "replay", str(folder), "--out", str(out), "--json", "--no-html")
    assert code == 0 and json.loads(text)["overall"]["correct"] == 3


def test_heal_writes_copies_and_reports(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "healed"
    code, text, err = run(
        capsys, "replay", str(RECORDINGS), "--heal", str(out), "--against", "last", "--json"
    )
    assert code == 0, err
    doc = json.loads(text)
    names = sorted(Path(r["recording"]).name for r in doc["recordings"])
    assert names == sorted(p.name for p in RECORDINGS.iterdir())
    assert all((out / name).is_file() for name in names)
    assert (out / "heal-report.md").is_file() and (out / "heal-report.json").is_file()
    assert sum(r["counts"]["refused"] for r in doc["recordings"]) > 0
    assert all(r["counts"]["wrong"] == 0 for r in doc["recordings"])
    # --strict: a refused step exits 1.
    code, _, _ = run(
        capsys, "replay", str(RECORDINGS), "--heal", str(out), "--against", "last", "--strict"
    )
    assert code == 1


def test_heal_refuses_the_input_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src = write_document(tmp_path)
    before = src.read_bytes()
    code, _, err = run(capsys, "replay", str(tmp_path), "--heal", str(tmp_path))
    assert code == 2 and "overwrite" in one_line_error(err)
    assert src.read_bytes() == before
