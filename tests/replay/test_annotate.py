"""Annotating coordinate-only actions with the element under their point."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from resolver.replay import ReplayOptions, Task, read_recording, replay_task
from resolver.replay.annotate import annotate_recording, vision_available
from resolver.replay.model import RecordingError, ReplayError


def _tree() -> dict[str, Any]:
    kids = [
        {"id": "name", "role": "textbox", "name": "Display name", "bbox": [420, 180, 860, 210]},
        {"id": "cancel", "role": "button", "name": "Cancel", "bbox": [600, 300, 700, 330]},
        {"id": "save", "role": "button", "name": "Save", "bbox": [720, 300, 860, 330],
         "children": [{"id": "label", "role": "text", "name": "Save",
                       "bbox": [760, 305, 800, 325]}]},
        {"id": "note", "role": "paragraph", "name": "Changes are public",
         "bbox": [420, 240, 860, 260]},
    ]  # fmt: skip
    dialog = {"id": "d", "role": "dialog", "name": "Profile", "bbox": [400, 100, 880, 360],
              "children": kids}  # fmt: skip
    return {"id": "root", "role": "document", "name": "Profile", "bbox": [0, 0, 1280, 800],
            "children": [dialog]}  # fmt: skip


KEPT = {"role": "button", "name": "Cancel", "container_path": ["Profile", "Profile"]}


def _write(path: Path) -> Path:
    timeline = [
        {"kind": "human_action", "step": 0, "action": {"type": "click", "x": 700, "y": 310}},
        {"kind": "navigation", "url": "https://example.test/profile"},
        {"kind": "human_action", "step": 1, "action": {"type": "click", "x": 10, "y": 10}},
        {"kind": "ax_snapshot", "snapshot_id": "p", "snapshot": _tree()},
        {"kind": "human_action", "step": 2, "action": {"type": "click", "x": 780, "y": 315},
         "target_node": "save"},
        {"kind": "human_action", "step": 3, "action": {"type": "type", "x": 500, "y": 195,
                                                       "text": "Ada"}, "target_node": "name"},
        {"kind": "human_action", "step": 4, "action": {"type": "click", "x": 650, "y": 310,
                                                       "element": KEPT}},
        {"kind": "human_action", "step": 5, "action": {"type": "key", "key": "Enter"}},
        {"kind": "human_action", "step": 6, "action": {"type": "click", "x": 5000, "y": 5}},
        {"kind": "human_action", "step": 7, "action": {"type": "click", "x": 500, "y": 250}},
    ]  # fmt: skip
    path.write_text(json.dumps({"recording_version": 1, "mode": "human", "timeline": timeline}))
    return path


def test_coordinate_actions_get_the_element_under_the_point(tmp_path: Path) -> None:
    src = _write(tmp_path / "old.json")
    before = src.read_bytes()
    report = annotate_recording(src)
    assert src.read_bytes() == before
    assert report.output == str(tmp_path / "old.annotated.json")
    assert report.annotated == {"a11y_point": 3}
    assert report.skipped == {
        "no snapshot or screenshot before it": 2,  # before any snapshot; after a navigation
        "has an element already": 1,
        "no point (x, y)": 1,
        "no element at the point": 1,
    }
    doc = json.loads(Path(report.output).read_text())
    actions = {e["step"]: e["action"] for e in doc["timeline"] if e["kind"] == "human_action"}
    save = actions[2]
    assert (save["element"]["role"], save["element"]["name"]) == ("button", "Save")
    assert save["element_source"] == "a11y_point" and save["element_confidence"] == 0.9
    assert actions[3]["element"]["name"] == "Display name"
    assert actions[7]["element"]["role"] == "paragraph" and actions[7]["element_confidence"] == 0.5
    assert actions[4]["element"] == KEPT and "element_source" not in actions[4]
    assert "element" not in actions[0] and "element" not in actions[6]


def test_the_annotated_recording_replays(tmp_path: Path) -> None:
    src = _write(tmp_path / "old.json")
    assert len(read_recording(src).steps) == 1  # only the step that had an element
    report = annotate_recording(src, tmp_path / "out" / "new.json")
    result = replay_task(Task("file", str(report.output)), ReplayOptions(sources=("a11y",)))
    verdicts = {s["step"]: s["verdict"] for s in result["steps"]}
    assert verdicts["2"] == "correct" and verdicts["3"] == "correct"
    assert len(result["steps"]) == 4


def test_openadapt_lines_and_in_place(tmp_path: Path) -> None:
    src = tmp_path / "o.jsonl"
    lines = [
        {"type": "click", "x": 650, "y": 310, "snapshot": _tree()},
        {"type": "click", "x": 780, "y": 315, "element": KEPT},
    ]
    src.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(ReplayError, match="in-place"):
        annotate_recording(src, src)
    report = annotate_recording(src, in_place=True)
    assert report.output == str(src) and report.annotated == {"a11y_point": 1}
    written = [json.loads(line) for line in src.read_text().splitlines()]
    assert written[0]["element"]["name"] == "Cancel" and written[1]["element"] == KEPT
    assert [s.ref["name"] for s in read_recording(src).steps] == ["Cancel", "Cancel"]  # type: ignore[index]


def test_a_screenshot_outside_the_folder_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "r.jsonl"
    src.write_text(json.dumps({"kind": "screenshot", "file": "../x.png"}) + "\n")
    with pytest.raises(RecordingError, match="outside"):
        annotate_recording(src)


@pytest.mark.skipif(not vision_available(), reason="the vision extra is not installed")
def test_screenshot_only_uses_the_vision_source(tmp_path: Path) -> None:
    from vision_images import form, png

    image, boxes = form()
    (tmp_path / "shot.png").write_bytes(png(image))
    left, top, right, bottom = boxes["button_a"]
    timeline = [
        {"kind": "screenshot", "file": "shot.png"},
        {"kind": "human_action", "step": 1,
         "action": {"type": "click", "x": (left + right) / 2, "y": (top + bottom) / 2}},
    ]  # fmt: skip
    src = tmp_path / "v.jsonl"
    src.write_text("".join(json.dumps(e) + "\n" for e in timeline))
    report = annotate_recording(src)
    assert report.annotated == {"vision": 1}
    action = json.loads(Path(str(report.output)).read_text().splitlines()[1])["action"]
    assert action["element_source"] == "vision" and 0 < action["element_confidence"] <= 1
    bbox = action["element"]["bbox"]
    assert bbox[0] <= (left + right) / 2 <= bbox[2] and bbox[1] <= (top + bottom) / 2 <= bbox[3]


def test_a_recording_holding_half_a_character_is_annotated(tmp_path: Path) -> None:
    """A recorder that cut a name inside an emoji wrote a lone surrogate (``\\ud83d``):
    the annotated copy keeps it as it was, escaped, and reads back."""
    tree = _tree()
    tree["children"][0]["children"][1]["name"] = "Cancel \ud83d"
    timeline = [
        {"kind": "ax_snapshot", "snapshot_id": "p", "snapshot": tree},
        {"kind": "human_action", "step": 0, "action": {"type": "click", "x": 650, "y": 310}},
    ]
    src = tmp_path / "cut.json"
    src.write_text(json.dumps({"recording_version": 1, "mode": "human", "timeline": timeline}))
    report = annotate_recording(src)
    doc = json.loads(Path(report.output or "").read_text(encoding="utf-8"))
    assert doc["timeline"][0]["snapshot"]["children"][0]["children"][1]["name"] == "Cancel \ud83d"
    assert doc["timeline"][1]["action"]["element"]["name"] == "Cancel \ufffd"
