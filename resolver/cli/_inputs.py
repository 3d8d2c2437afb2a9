"""What the single-reference commands (``resolve``, ``explain``) read: a reference and the
files of one observation."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..errors import InvalidObservationError
from ..observation import Observation

__all__ = ["add_inputs", "read_inputs"]


def add_inputs(parser: Any) -> None:
    """Add ``--ref``, ``--tree``, ``--dom``, ``--screenshot``, ``--format``, ``--screen-size``."""
    parser.add_argument("--ref", required=True, help="the reference: JSON text or a JSON file")
    parser.add_argument("--tree", help="accessibility tree file (any supported format)")
    parser.add_argument("--dom", help="HTML file")
    parser.add_argument("--screenshot", help="PNG or JPEG screenshot")
    parser.add_argument("--format", help="tree format (skips detection)")
    parser.add_argument("--screen-size", help="WIDTHxHEIGHT the boxes are measured in")


def _screen(text: str | None) -> tuple[float, float] | None:
    if not text:
        return None
    width, _, height = text.lower().partition("x")
    try:
        return (float(width), float(height))
    except ValueError as exc:
        raise InvalidObservationError(f"--screen-size must be WIDTHxHEIGHT, got {text!r}") from exc


def read_inputs(args: argparse.Namespace) -> tuple[str, Observation]:
    """The reference's JSON text and the observation (``OSError`` for unreadable files,
    ``ValueError`` and typed errors for bad values)."""
    text = args.ref if args.ref.lstrip().startswith("{") else Path(args.ref).read_text()
    obs = Observation(
        accessibility_tree=Path(args.tree) if args.tree else None,
        dom_html=Path(args.dom).read_bytes() if args.dom else None,
        screenshot=Path(args.screenshot).read_bytes() if args.screenshot else None,
        tree_format=args.format,
        screen_size=_screen(args.screen_size),
    )
    return text, obs
