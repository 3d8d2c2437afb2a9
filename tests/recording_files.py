"""Small recording_v1 and openadapt-style files for the replay and CLI tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RECORDINGS = ROOT / "fixtures" / "recordings"
CAPTURED = ROOT / "fixtures" / "captured"


def snapshot(sid: str, ok_name: str = "OK", *, with_ok: bool = True) -> dict[str, Any]:
    """An axtree_v1-style snapshot: a dialog with a Cancel and (optionally) an OK button."""
    nodes: list[dict[str, Any]] = [
        {"node_id": "root", "role": "dialog", "name": "Settings", "children": ["c", "o"]},
        {"node_id": "c", "role": "button", "name": "Cancel", "children": [],
         "properties": {"bbox": [10, 10, 60, 30]}},
    ]  # fmt: skip
    if with_ok:
        nodes.append({"node_id": "o", "role": "button", "name": ok_name, "children": [],
                      "properties": {"bbox": [70, 10, 120, 30]}})  # fmt: skip
    else:
        nodes[0]["children"] = ["c"]
    return {"snapshot_id": sid, "axtree_v1": {"root_id": "root", "nodes": nodes}}


OK_REF = {"role": "button", "name": "OK", "container_path": ["Settings"],
          "bbox": [70, 10, 120, 30]}  # fmt: skip
CANCEL_REF = {"role": "button", "name": "Cancel", "container_path": ["Settings"]}


def timeline() -> list[dict[str, Any]]:
    """Two snapshots; the second one lost the OK button."""
    return [
        {"kind": "navigation", "url": "https://example.test/settings"},
        {"kind": "ax_snapshot", "snapshot_id": "s0", "snapshot": snapshot("s0")},
        {"kind": "decision", "step": 1, "action": {"type": "click", "element": OK_REF},
         "target_node": "o", "expected": {"s1": None}},
        {"kind": "action_result", "step": 1, "status": "ok", "executor_id": "a11y:o"},
        {"kind": "decision", "step": 2, "action": {"type": "click", "element": CANCEL_REF}},
        {"kind": "action_result", "step": 2, "status": "ok", "executor_id": "a11y:c"},
        {"kind": "decision", "step": 3, "action": {"type": "key", "key": "Enter"}},
        {"kind": "ax_snapshot", "snapshot_id": "s1", "snapshot": snapshot("s1", with_ok=False)},
        {"kind": "human_action", "step": 4, "target_node": "c",
         "action": {"type": "click", "x": 35, "y": 20, "element": CANCEL_REF}},
        {"kind": "some_future_kind", "payload": 1},
    ]  # fmt: skip


def write_document(folder: Path, name: str = "a.json") -> Path:
    path = folder / name
    doc = {"recording_version": 1, "mode": "agent", "timeline": timeline()}
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def write_jsonl(folder: Path, name: str = "b.jsonl") -> Path:
    path = folder / name
    header = {"kind": "recording", "recording_version": 1, "mode": "human"}
    lines = [header, *timeline()]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def write_openadapt(folder: Path, name: str = "c.jsonl") -> Path:
    path = folder / name
    lines = [
        {"type": "click", "x": 95, "y": 20, "element": OK_REF, "target_node": "o",
         "snapshot": snapshot("s0")},
        {"type": "click", "x": 35, "y": 20, "element": CANCEL_REF, "target_node": "c"},
        {"type": "scroll"},
    ]  # fmt: skip
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def write_corrupt(folder: Path) -> list[Path]:
    """A truncated document, a truncated JSONL file, an empty file and a non-recording."""
    good = json.dumps({"recording_version": 1, "timeline": timeline()})
    files = {
        "cut.json": good[: len(good) // 2],
        "cut.jsonl": json.dumps(timeline()[0]) + "\n" + json.dumps(timeline()[1])[:40],
        "empty.jsonl": "",
        "other.json": json.dumps({"hello": "world"}),
    }
    paths = []
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
        paths.append(folder / name)
    return paths
