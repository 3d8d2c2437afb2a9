"""Generate many recording_v1 files from the captured fixture pages.

Recording ``i`` takes page ``PAGES[i % 6]``, a seeded choice of its labelled elements as
agent decisions on the base page's snapshot, then the v2 snapshot (the page changed), and
``expected`` answers there, so a replay ``--against next`` relocates every step. Snapshots
are written inline, as a runtime logs them, so every recording is read on its own.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "fixtures"))

from make_recordings import PAGES, Page  # noqa: E402

STEPS = 10


def _recording(page: Page, rng: random.Random, index: int) -> dict[str, Any]:
    keys = sorted(k for k in page.captures[0].labels if page.node(0, k))
    chosen = rng.sample(keys, min(STEPS, len(keys)))
    timeline: list[dict[str, Any]] = [
        {"kind": "navigation", "url": page.captures[0].meta.get("url")},
        {"kind": "ax_snapshot", "snapshot_id": "s0", "snapshot": page.snapshots[0]},
    ]
    for step, key in enumerate(chosen, 1):
        node = str(page.node(0, key))
        timeline.append({
            "kind": "decision", "step": step, "key": key, "target_node": node,
            "action": page.action(0, key, node),
            "expected": {k: v for k, v in page.expected(0, key).items() if k == "s1"},
        })  # fmt: skip
    timeline.append({"kind": "ax_snapshot", "snapshot_id": "s1", "snapshot": page.snapshots[1]})
    return {"recording_version": 1, "recording_id": f"gen-{index}", "mode": "agent",
            "timeline": timeline}  # fmt: skip


def generate(out: Path, count: int, *, seed: int = 13) -> list[Path]:
    """Write ``count`` recordings under ``out``; returns their paths."""
    out.mkdir(parents=True, exist_ok=True)
    pages = [Page(ROOT / "fixtures" / "captured", name) for name in PAGES]
    rng = random.Random(seed)
    paths = []
    for i in range(count):
        path = out / f"gen-{i:05d}.json"
        path.write_text(json.dumps(_recording(pages[i % len(pages)], rng, i)), encoding="utf-8")
        paths.append(path)
    return paths
