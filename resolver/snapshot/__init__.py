"""SnapshotV1: an observation flattened, pruned and redacted for logs, readable back as an
a11y source.

>>> from resolver import Observation
>>> from resolver.snapshot import to_snapshot_v1
>>> tree = {"id": "1", "role": "button", "name": "Send", "bbox": [0, 0, 50, 20]}
>>> snap = to_snapshot_v1(Observation(accessibility_tree=tree), ts="2026-01-01T00:00:00Z")
>>> snap["snapshot_version"], [n["id"] for n in snap["ax_tree"]["nodes"]]
(1, ['snapshot-root', '1'])
>>> Observation(accessibility_tree=snap).candidates("a11y").names
('', 'Send')
"""

from __future__ import annotations

from .build import ROOT_ID, SNAPSHOT_VERSION, to_snapshot_v1
from .redact import MASK, is_sensitive, sensitive_label

__all__ = [
    "MASK",
    "ROOT_ID",
    "SNAPSHOT_VERSION",
    "is_sensitive",
    "sensitive_label",
    "to_snapshot_v1",
]
