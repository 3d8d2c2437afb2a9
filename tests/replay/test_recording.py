"""recording_v1 (document and JSONL) and openadapt-style JSONL, read into steps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from recording_files import (
    CANCEL_REF,
    RECORDINGS,
    snapshot,
    write_corrupt,
    write_document,
    write_jsonl,
    write_openadapt,
)

from resolver.errors import LimitExceededError
from resolver.limits import Limits
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


def test_schema_version_and_id_read_as_recording_version_and_recording_id(
    tmp_path: Path,
) -> None:
    old = read_recording(write_document(tmp_path))
    doc = json.loads((tmp_path / "a.json").read_text())
    del doc["recording_version"]
    new = tmp_path / "new.json"
    new.write_text(json.dumps({"schema_version": 1, "id": "run-7", **doc}))
    rec = read_recording(new)
    assert (rec.recording_id, rec.steps, rec.order) == ("run-7", old.steps, old.order)
    assert old.recording_id is None
    lines = tmp_path / "new.jsonl"
    header = {"kind": "recording", "schema_version": 1, "id": 12, "mode": "human"}
    lines.write_text("\n".join(json.dumps(x) for x in [header, *doc["timeline"]]))
    assert (read_recording(lines).recording_id, read_recording(lines).mode) == ("12", "human")
    named = tmp_path / "named.json"
    named.write_text(json.dumps({"recording_id": "a", "id": "b", **doc}))
    assert read_recording(named).recording_id == "a"
    new.write_text(json.dumps({"schema_version": 2, **doc}))
    with pytest.raises(RecordingError, match="schema_version 2 is not supported"):
        read_recording(new)


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


def test_a_recording_over_max_recording_bytes_is_refused_before_it_is_read(
    tmp_path: Path,
) -> None:
    path = write_document(tmp_path)
    size = path.stat().st_size
    assert read_recording(path, limits=Limits(max_recording_bytes=size)).steps
    with pytest.raises(RecordingError) as info:
        read_recording(path, limits=Limits(max_recording_bytes=size - 1))
    error = info.value
    assert isinstance(error, LimitExceededError) and error.code.value == "LIMIT_EXCEEDED"
    assert "max_recording_bytes" in error.message
    assert "--limit max_recording_bytes=N" in error.message
    assert error.evidence.details["found"] == size


def test_a_snapshot_file_over_max_tree_bytes_is_refused(tmp_path: Path) -> None:
    (tmp_path / "s0.json").write_text(json.dumps(snapshot("s0")), encoding="utf-8")
    timeline = [
        {"kind": "ax_snapshot", "snapshot_id": "s0", "file": "s0.json"},
        {"kind": "decision", "step": 1, "target": CANCEL_REF, "target_node": "c"},
    ]
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"recording_version": 1, "timeline": timeline}))
    assert read_recording(path).snapshots["s0"]
    with pytest.raises(LimitExceededError, match="max_tree_bytes") as info:
        read_recording(path, limits=Limits(max_tree_bytes=50))
    assert isinstance(info.value, RecordingError) and "snapshot s0" in info.value.message


NAN = float("nan")
_ACTION = {"kind": "decision", "step": 1, "target": CANCEL_REF}


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ({"kind": []}, "kind"),
        ({"kind": {"a": 1}}, "kind"),
        ({"kind": NAN}, "kind"),
        ({"kind": "ax_snapshot", "snapshot_id": [], "snapshot": snapshot("s")}, "snapshot_id"),
        ({"kind": "ax_snapshot", "snapshot_id": {}, "snapshot": snapshot("s")}, "snapshot_id"),
        ({"kind": "ax_snapshot", "snapshot_id": True, "snapshot": snapshot("s")}, "snapshot_id"),
        ({"kind": "ax_snapshot", "file": ["s0.json"]}, "file"),
        ({**_ACTION, "step": NAN}, "step"),
        ({**_ACTION, "step": float("inf")}, "step"),
        ({**_ACTION, "step": [1]}, "step"),
        ({**_ACTION, "target_node": {"id": "c"}}, "target_node"),
        ({**_ACTION, "target_node": NAN}, "target_node"),
        ({**_ACTION, "expected": ["s1"]}, "expected"),
        ({**_ACTION, "expected": {"s1": ["c"]}}, "expected['s1']"),
        ({**_ACTION, "expected": {"s1": NAN}}, "expected['s1']"),
        ({**_ACTION, "key": ["Enter"]}, "key"),
        ({**_ACTION, "action_type": {"t": 1}}, "action_type"),
        ({**_ACTION, "target": "the OK button"}, "target"),
        ({**_ACTION, "target": None, "element": [CANCEL_REF]}, "element"),
        ({"kind": "decision", "action": ["click", CANCEL_REF]}, "action"),
        ({"kind": "decision", "action": {"type": [], "element": CANCEL_REF}}, "action: type"),
        ({"kind": "decision", "action": {"element": "Cancel"}}, "action: element"),
        ({"kind": "action_result", "step": {}, "executor_id": "a11y:c"}, "step"),
        ({"kind": "action_result", "executor_id": [], "status": "ok"}, "executor_id"),
        ({"kind": "action_result", "executor_id": "a11y:c", "status": NAN}, "status"),
    ],
)
def test_a_field_of_the_wrong_type_names_its_entry(
    tmp_path: Path, entry: dict[str, Any], field: str
) -> None:
    timeline = [{"kind": "ax_snapshot", "snapshot_id": "s0", "snapshot": snapshot("s0")},
                _ACTION, entry]  # fmt: skip
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"recording_version": 1, "timeline": timeline}), "utf-8")
    with pytest.raises(RecordingError) as info:
        read_recording(path)
    assert f"r.json: timeline entry 2: {field} must be" in info.value.message
    path = tmp_path / "r.jsonl"  # the same entry as line 3 of JSONL, after the header
    lines = [{"kind": "recording", "recording_version": 1}, *timeline]
    path.write_text("".join(json.dumps(line) + "\n\n" for line in lines), "utf-8")
    with pytest.raises(RecordingError) as info:
        read_recording(path)
    assert f"r.jsonl: line 7: {field} must be" in info.value.message


def test_ids_and_labels_may_be_numbers(tmp_path: Path) -> None:
    timeline = [
        {"kind": "ax_snapshot", "snapshot_id": 0, "snapshot": snapshot("s0")},
        {"kind": "decision", "step": 7, "target": CANCEL_REF, "key": 3, "expected": {"0": 5}},
        {"kind": "action_result", "step": 7, "executor_id": "a11y:c", "status": "ok"},
        {"kind": "decision", "step": 1.5, "target": CANCEL_REF, "target_node": 12},
    ]
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"recording_version": 1, "timeline": timeline}), "utf-8")
    first, second = read_recording(path).steps
    assert (first.step, first.key, first.expected) == ("7", "3", {"0": ("a11y:5",)})
    assert (second.step, second.expected) == ("1.5", {"0": ("a11y:12",)})


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ({"recording_version": 1, "mode": ["agent"]}, "mode must be a string"),
        ({"recording_version": True}, "recording_version True is not supported"),
        ({"recording_version": NAN}, "recording_version nan is not supported"),
    ],
)
def test_a_header_of_the_wrong_type_is_refused(
    tmp_path: Path, header: dict[str, Any], message: str
) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps({**header, "timeline": [_ACTION]}), "utf-8")
    with pytest.raises(RecordingError, match=message):
        read_recording(path)


def test_an_openadapt_line_of_the_wrong_type_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "o.jsonl"
    lines = [
        {"type": "click", "element": CANCEL_REF, "snapshot": snapshot("s0")},
        {"type": "click", "element": CANCEL_REF, "target_node": [1, 2]},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    with pytest.raises(RecordingError, match=r"o.jsonl: line 2: target_node must be"):
        read_recording(path)


def test_a_number_too_long_to_read_is_a_recording_error(tmp_path: Path) -> None:
    for name, text in (
        ("long.json", '{"recording_version": 1, "timeline": [{"step": ' + "9" * 5000 + "}]}"),
        ("long.jsonl", '{"kind": "decision", "step": ' + "9" * 5000 + "}\n"),
    ):
        (tmp_path / name).write_text(text, "utf-8")
        with pytest.raises(RecordingError, match="not valid JSON"):
            read_recording(tmp_path / name)


@pytest.mark.parametrize(
    "file", ["../s0.json", "sub/../../s0.json", "..\\s0.json", "/etc/hostname", "C:\\s0.json"]
)
def test_a_snapshot_file_outside_the_recordings_folder_is_refused(
    tmp_path: Path, file: str
) -> None:
    folder = tmp_path / "rec"
    (folder / "sub").mkdir(parents=True)
    (tmp_path / "s0.json").write_text(json.dumps(snapshot("s0")), encoding="utf-8")
    (folder / "sub" / "s0.json").write_text(json.dumps(snapshot("s0")), encoding="utf-8")
    path = folder / "r.json"
    timeline: list[dict[str, Any]] = [{"kind": "ax_snapshot", "snapshot_id": "s0", "file": file}]
    path.write_text(json.dumps({"recording_version": 1, "timeline": timeline}))
    with pytest.raises(RecordingError, match="outside the recording's folder"):
        read_recording(path)
    timeline[0]["file"] = "sub/s0.json"  # a folder below the recording's is fine
    path.write_text(json.dumps({"recording_version": 1, "timeline": timeline}))
    assert read_recording(path).snapshots["s0"]


def test_a_recording_is_read_from_a_path_or_its_text_and_nothing_else(tmp_path: Path) -> None:
    path = write_document(tmp_path)
    assert read_recording(str(path)).steps == read_recording(path).steps
    for bad in (None, 5, bytes(str(path), "utf-8")):
        with pytest.raises(RecordingError, match="read from a path"):
            read_recording(bad)  # type: ignore[arg-type]
