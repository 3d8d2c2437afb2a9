"""``resolver resolve``: one reference against one observation, printed as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..chain import resolve
from ..errors import ResolutionError
from ..observation import Observation

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    """Add the ``resolve`` sub-command."""
    one = sub.add_parser("resolve", help="resolve one ref (JSON or file) against a tree file")
    one.add_argument("--ref", required=True, help="the reference: JSON text or a JSON file")
    one.add_argument("--tree", help="accessibility tree file (any supported format)")
    one.add_argument("--dom", help="HTML file")
    one.add_argument("--format", help="tree format (skips detection)")
    one.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the Resolution (exit 0) or the error with its evidence (exit 3; 2 for bad input)."""
    try:
        text = args.ref if args.ref.lstrip().startswith("{") else Path(args.ref).read_text()
        obs = Observation(
            accessibility_tree=Path(args.tree) if args.tree else None,
            dom_html=Path(args.dom).read_bytes() if args.dom else None,
            tree_format=args.format,
        )
        res = resolve(text, obs)
    except OSError as exc:
        print(f"cannot read {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    except ResolutionError as exc:
        print(json.dumps(exc.to_dict(), indent=1, default=str))
        return 3
    print(json.dumps(res.to_dict(), indent=1))
    return 0
