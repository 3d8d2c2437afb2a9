"""recording_v1 (document and JSONL) and openadapt-style JSONL, read into steps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from recording_files import RECORDINGS, write_corrupt, write_document, write_jsonl, write_openadapt

from resolver.replay.model import RecordingError
from resolver.replay.recording import read_recording


def test_document_steps_snapshots_and_expected_answers(tmp_path: Path) -> None:
    rec = read_recording(write_document(tmp_path))
    assert (rec.fmt, rec.mode, rec.order) == ("recording_v1", "agent", ["s0", "s1"])
    assert rec.entries == 10 and rec.untargeted == 1  # the key press has no target
    first, second, human = rec.steps
    assert first.expected == {"s0": ("a11y:o",), "s1": ()}  # target_node, and gone later
    assert (first.preceding, first.following) == ("s0", "s1")
    assert second.expected == {"s0": ("a11y:c",)}  # from the action_result
    assert (human.kind, human.preceding, human.following) == ("human_action", "s1", None)


def test_jsonl_with_header_reads_as_the_document(tmp_path: Path) -> None:
    doc = read_recording(write_document(tmp_path))
    lines = read_recording(write_jsonl(tmp_path))
    assert lines.mode == "human"
    assert lines.steps == doc.steps and lines.order == doc.order


def test_openadapt_lines_reuse_the_last_snapshot(tmp_path: Path) -> None:
    rec = read_recording(write_openadapt(tmp_path))
    assert rec.fmt == "openadapt_jsonl" and rec.untargeted == 1
    ok, cancel = rec.steps
    assert ok.preceding == cancel.preceding == "s0"  # the snapshot's own snapshot_id
    assert cancel.expected == {"s0": ("a11y:c",)}


def test_navigation_leaves_a_step_without_snapshot(tmp_path: Path) -> None:
    path = tmp_path / "nav.jsonl"
    entries = [
        {"kind": "navigation", "url": "a"},
        {"kind": "decision", "step": 1, "target": {"role": "button", "name": "OK"}},
    ]
    path.write_text("".join(json.dumps(e) + "\n" for e in entries))
    (step,) = read_recording(path).steps
    assert step.preceding is None and step.action_type == "click"


def test_snapshot_in_a_file_beside_the_recording(tmp_path: Path) -> None:
    (tmp_path / "s0.json").write_text(
        json.dumps(
            {
                "ax_tree": {
                    "root_id": "1",
                    "nodes": [{"id": "1", "role": "button", "name": "OK", "children": []}],
                }
            }
        )
    )
    path = tmp_path / "r.json"
    path.write_text(
        json.dumps(
            {
                "timeline": [
                    {"kind": "ax_snapshot", "snapshot_id": "s0", "file": "s0.json"},
                    {"kind": "decision", "step": 1, "target": {"name": "OK"}, "target_node": "1"},
                ]
            }
        )
    )
    rec = read_recording(path)
    assert "ax_tree" in rec.snapshots["s0"] and rec.steps[0].expected == {"s0": ("a11y:1",)}
    path.write_text(json.dumps({"timeline": [{"kind": "ax_snapshot", "file": "missing.json"}]}))
    with pytest.raises(RecordingError, match=r"missing\.json"):
        read_recording(path)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("cut.json", "not valid JSON"),
        ("cut.jsonl", "line 2"),
        ("empty.jsonl", "empty"),
        ("other.json", "no timeline"),
    ],
)
def test_corrupt_files_raise_one_typed_error(tmp_path: Path, name: str, message: str) -> None:
    write_corrupt(tmp_path)
    with pytest.raises(RecordingError, match=message):
        read_recording(tmp_path / name)


def test_other_versions_and_unreadable_files_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "v2.json"
    path.write_text(json.dumps({"recording_version": 2, "timeline": []}))
    with pytest.raises(RecordingError, match="not supported"):
        read_recording(path)
    with pytest.raises(RecordingError, match="cannot read"):
        read_recording(tmp_path / "absent.json")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordingError, match="UTF-8"):
        read_recording(tmp_path / "bin.json")


def test_the_fixture_recordings_read() -> None:
    files = sorted(RECORDINGS.glob("*.json*"))
    assert len(files) == 14
    for path in files:
        rec = read_recording(path)
        assert rec.steps and all(s.preceding in rec.snapshots for s in rec.steps)
