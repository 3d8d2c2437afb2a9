"""``resolver explain``: resolve one ref and draw what was seen on the screenshot (a PNG)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..chain import DEFAULT_SOURCES
from ..errors import Evidence, ResolutionError
from ..explain import explain
from ._inputs import add_inputs, read_inputs

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    """Add the ``explain`` sub-command."""
    one = sub.add_parser(
        "explain", help="resolve one ref and draw the candidates on the screenshot (PNG)"
    )
    add_inputs(one)
    one.add_argument("--sources", default=",".join(DEFAULT_SOURCES), help="sources, in order")
    one.add_argument("--out", default="explain.png", help="the PNG to write")
    one.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the Resolution (exit 0) or the evidence (exit 3); 2 for bad input."""
    try:
        text, obs = read_inputs(args)
        result = explain(text, obs, args.out, sources=tuple(args.sources.split(",")))
    except OSError as exc:
        print(f"cannot read {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    except ValueError as exc:  # invalid ref, observation or option (typed errors included)
        print(f"resolver explain: {exc}", file=sys.stderr)
        return 2
    except ResolutionError as exc:
        print(f"resolver explain: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}", file=sys.stderr)
    if isinstance(result, Evidence):
        evidence = {"candidates": list(result.candidates), "trace": list(result.trace)}
        print(json.dumps(evidence, indent=1, default=str))
        return 3
    print(json.dumps(result.to_dict(), indent=1))
    return 0
