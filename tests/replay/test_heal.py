"""Healing recordings: every step resolved on the current snapshot, a healed copy written
beside a JSON and Markdown report; refused steps kept and reported."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from recording_files import RECORDINGS

from resolver import Observation
from resolver.capture import ref_from_row
from resolver.replay import ReplayError, ReplayOptions, Task, read_recording, replay_task
from resolver.replay.heal import heal_recording


def _page(save_name: str | None) -> dict[str, Any]:
    """A profile dialog; its save button named ``save_name`` (absent when ``None``)."""
    kids: list[dict[str, Any]] = [
        {"id": "h", "role": "heading", "name": "Edit profile", "bbox": [420, 120, 860, 150]},
        {"id": "t", "role": "textbox", "name": "Display name", "bbox": [420, 180, 860, 210]},
        {"id": "e", "role": "textbox", "name": "Email address", "bbox": [420, 230, 860, 260]},
        {"id": "c", "role": "button", "name": "Cancel", "bbox": [600, 300, 700, 330]},
    ]
    if save_name is not None:
        kids.append({"id": "s", "role": "button", "name": save_name,
                     "bbox": [720, 300, 860, 330]})  # fmt: skip
    dialog = {"id": "d", "role": "dialog", "name": "Profile", "bbox": [400, 100, 880, 360],
              "children": kids}  # fmt: skip
    return {"id": "root", "role": "document", "name": "Profile", "bbox": [0, 0, 1280, 800],
            "children": [dialog]}  # fmt: skip


def _ref(node: str) -> dict[str, Any]:
    table = Observation(accessibility_tree=_page("Save")).candidates("a11y")
    ref = ref_from_row(table, table.ids.index(node))
    dumped: dict[str, Any] = ref.model_dump(mode="json", exclude_none=True)
    return dumped


def _recording(path: Path, later: str | None) -> Path:
    """A recording: the save click and a Cancel click on the first page, then the page
    again with the save button named ``later`` (removed when ``None``)."""
    timeline = [
        {"kind": "navigation", "url": "https://example.test/profile"},
        {"kind": "ax_snapshot", "snapshot_id": "before", "snapshot": _page("Save")},
        {"kind": "decision", "step": "save", "target_node": "s",
         "action": {"type": "click", "element": _ref("s")},
         "expected": {"after": None if later is None else "s"}},
        {"kind": "decision", "step": "cancel", "target_node": "c",
         "action": {"type": "click", "element": _ref("c")}, "expected": {"after": "c"}},
        {"kind": "ax_snapshot", "snapshot_id": "after", "snapshot": _page(later)},
    ]  # fmt: skip
    path.write_text(json.dumps({"recording_version": 1, "mode": "agent", "timeline": timeline}))
    return path


def test_renamed_button_is_healed(tmp_path: Path) -> None:
    src = _recording(tmp_path / "profile.json", "Save changes")
    before = src.read_bytes()
    report = heal_recording(src, out_dir=tmp_path / "healed", sources=["a11y"])
    assert src.read_bytes() == before  # the input is never written
    save, cancel = report.steps
    assert save.status == "healed" and save.snapshot == "after" and save.verdict == "correct"
    assert save.changed["name"] == ["Save", "Save changes"]
    assert save.rule and save.confidence is not None and 0.5 < save.confidence <= 1.0
    assert cancel.status == "healed" and "name" not in cancel.changed
    assert report.counts() == {"steps": 2, "healed": 2, "changed": 1, "refused": 0,
                               "skipped": 0, "wrong": 0}  # fmt: skip
    healed = json.loads((tmp_path / "healed" / "profile.json").read_text())
    entry = healed["timeline"][2]
    assert entry["action"]["element"]["name"] == "Save changes"
    assert entry["heal"]["status"] == "healed" and entry["heal"]["changed"]
    # The healed copy is a recording; replayed on the current page, both steps are right.
    result = replay_task(Task("file", report.output or ""), ReplayOptions(against="last"))
    assert [s["verdict"] for s in result["steps"]] == ["correct", "correct"]
    # Reports: JSON and Markdown.
    doc = json.loads((tmp_path / "healed" / "heal-report.json").read_text())
    assert doc["recordings"][0]["steps"][0]["changed"]["name"] == ["Save", "Save changes"]
    markdown = (tmp_path / "healed" / "heal-report.md").read_text()
    assert "'Save' → 'Save changes'" in markdown and "| save | healed |" in markdown


def test_removed_target_is_refused_and_kept(tmp_path: Path) -> None:
    src = _recording(tmp_path / "profile.json", None)
    report = heal_recording(src, out_dir=tmp_path / "healed", sources=["a11y"])
    save = report.steps[0]
    assert save.status == "refused" and save.code == "ELEMENT_NOT_FOUND"
    assert save.verdict == "rejected" and save.message
    healed = json.loads((tmp_path / "healed" / "profile.json").read_text())
    entry = healed["timeline"][2]
    assert entry["action"]["element"] == _ref("s")  # the old element, untouched
    assert entry["heal"] == {"status": "refused", "snapshot": "after",
                             "code": "ELEMENT_NOT_FOUND", "message": save.message,
                             **({"rule": save.rule} if save.rule else {})}  # fmt: skip
    markdown = (tmp_path / "healed" / "heal-report.md").read_text()
    assert "## Refused" in markdown and "ELEMENT_NOT_FOUND" in markdown


def test_against_preceding_heals_on_the_recorded_page(tmp_path: Path) -> None:
    src = _recording(tmp_path / "profile.json", None)
    report = heal_recording(src, out_dir=tmp_path / "out", against="preceding", sources=["a11y"])
    assert [s.snapshot for s in report.steps] == ["before", "before"]
    assert [s.status for s in report.steps] == ["healed", "healed"]


@pytest.mark.parametrize("name", sorted(p.name for p in RECORDINGS.iterdir()))
def test_fixture_recordings_heal_without_wrong_answers(tmp_path: Path, name: str) -> None:
    src = RECORDINGS / name
    report = heal_recording(src, out_dir=tmp_path)
    counts = report.counts()
    assert counts["healed"] + counts["refused"] + counts["skipped"] == counts["steps"] > 0
    assert counts["wrong"] == 0 and counts["healed"] > 0
    healed = read_recording(Path(report.output or ""))
    original = read_recording(src)
    assert healed.fmt == original.fmt and len(healed.steps) == len(original.steps)
    for step, done in zip(healed.steps, report.steps, strict=True):
        if done.status == "healed":
            assert dict(step.ref or {}) == done.element
    replayed = replay_task(Task("file", str(report.output)), ReplayOptions(against="last"))
    verdicts = [s["verdict"] for s in replayed["steps"]]
    assert verdicts.count("wrong") == verdicts.count("false_hit") == 0


def test_never_overwrites_the_input(tmp_path: Path) -> None:
    src = _recording(tmp_path / "profile.json", "Save changes")
    with pytest.raises(ReplayError, match="overwrite"):
        heal_recording(src, out_dir=tmp_path)


def test_snapshot_files_are_copied_beside_the_copy(tmp_path: Path) -> None:
    (tmp_path / "snaps").mkdir()
    (tmp_path / "snaps" / "a.json").write_text(json.dumps(_page("Save changes")))
    timeline = [
        {"kind": "ax_snapshot", "snapshot_id": "a", "file": "snaps/a.json"},
        {"kind": "human_action", "step": 1, "action": {"type": "click", "element": _ref("s")}},
    ]
    src = tmp_path / "r.jsonl"
    src.write_text("\n".join(json.dumps(e) for e in timeline) + "\n")
    report = heal_recording(src, out_dir=tmp_path / "out", sources=["a11y"])
    assert report.steps[0].status == "healed"
    assert (tmp_path / "out" / "snaps" / "a.json").is_file()
    assert read_recording(tmp_path / "out" / "r.jsonl").steps[0].ref["name"] == "Save changes"  # type: ignore[index]


def test_a_recording_holding_half_a_character_is_healed_and_reported(tmp_path: Path) -> None:
    """A lone surrogate (half an emoji a recorder cut) in a snapshot and a step's name: the
    healed copy keeps it as it was, escaped; the Markdown report shows U+FFFD."""
    src = _recording(tmp_path / "cut.json", "Save \ud83d")
    doc = json.loads(src.read_text())
    doc["timeline"][2]["step"] = "save \ud83d"
    src.write_text(json.dumps(doc))
    report = heal_recording(src, out_dir=tmp_path / "healed", sources=["a11y"])
    assert report.counts()["healed"] == 2
    healed = json.loads((tmp_path / "healed" / "cut.json").read_text(encoding="utf-8"))
    assert healed["timeline"][4]["snapshot"]["children"][0]["children"][-1]["name"] == (
        "Save \ud83d"
    )
    assert healed["timeline"][2]["action"]["element"]["name"] == "Save \ufffd"
    markdown = (tmp_path / "healed" / "heal-report.md").read_text(encoding="utf-8")
    assert "| save \ufffd | healed |" in markdown
