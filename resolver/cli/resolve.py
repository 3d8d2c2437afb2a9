"""``resolver resolve``: one reference against one observation, printed as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..chain import resolve
from ..errors import ResolutionError
from ._inputs import add_inputs, read_inputs

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    """Add the ``resolve`` sub-command."""
    one = sub.add_parser(
        "resolve", help="resolve one ref (JSON or file) against a tree, HTML or screenshot file"
    )
    add_inputs(one)
    one.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the Resolution (exit 0) or the error with its evidence (exit 3; 2 for bad input)."""
    try:
        text, obs = read_inputs(args)
        res = resolve(text, obs)
    except OSError as exc:
        print(f"cannot read {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    except ResolutionError as exc:
        print(json.dumps(exc.to_dict(), indent=1, default=str))
        return 3
    print(json.dumps(res.to_dict(), indent=1))
    return 0
