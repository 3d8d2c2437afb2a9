"""``resolver explain``: resolve one ref and draw what was seen on the screenshot (a PNG)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..chain import DEFAULT_SOURCES
from ..errors import Evidence, ResolutionError
from ..explain import explain
from ..observation import Observation

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    """Add the ``explain`` sub-command."""
    one = sub.add_parser(
        "explain", help="resolve one ref and draw the candidates on the screenshot (PNG)"
    )
    one.add_argument("--ref", required=True, help="the reference: JSON text or a JSON file")
    one.add_argument("--screenshot", help="PNG or JPEG screenshot")
    one.add_argument("--tree", help="accessibility tree file (any supported format)")
    one.add_argument("--dom", help="HTML file")
    one.add_argument("--format", help="tree format (skips detection)")
    one.add_argument("--screen-size", help="WIDTHxHEIGHT the boxes are measured in")
    one.add_argument("--sources", default=",".join(DEFAULT_SOURCES), help="sources, in order")
    one.add_argument("--out", default="explain.png", help="the PNG to write")
    one.set_defaults(run=run)


def _screen(text: str | None) -> tuple[float, float] | None:
    if not text:
        return None
    width, _, height = text.lower().partition("x")
    return (float(width), float(height))


def run(args: argparse.Namespace) -> int:
    """Print the Resolution (exit 0) or the evidence (exit 3); 2 for bad input."""
    try:
        text = args.ref if args.ref.lstrip().startswith("{") else Path(args.ref).read_text()
        obs = Observation(
            accessibility_tree=Path(args.tree) if args.tree else None,
            dom_html=Path(args.dom).read_bytes() if args.dom else None,
            screenshot=Path(args.screenshot).read_bytes() if args.screenshot else None,
            tree_format=args.format,
            screen_size=_screen(args.screen_size),
        )
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
