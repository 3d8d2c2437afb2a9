"""Where the shared corpora live: ``$RESOLVER_CORPORA`` or ``../shared/corpora`` from the repo."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def corpora_dir() -> Path | None:
    """The corpora folder, or None when it is not on this machine."""
    env = os.environ.get("RESOLVER_CORPORA")
    candidates = [Path(env)] if env else []
    candidates.append(REPO.parent / "shared" / "corpora")
    for path in candidates:
        if path.is_dir():
            return path
    return None
