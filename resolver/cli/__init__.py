"""Command line: ``resolver demo``, ``resolver resolve`` and ``resolver explain`` (also
``python -m resolver``).

One module per command; each adds its sub-parser with ``register`` and runs with ``run``.
Exit codes: 0 resolved (or the demo gave no wrong answer), 1 the demo gave a wrong answer,
2 usage or input error, 3 not resolved.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from . import demo, explain, resolve

__all__ = ["main"]

_COMMANDS = (demo, resolve, explain)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``resolver`` command."""
    parser = argparse.ArgumentParser(prog="resolver", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for command in _COMMANDS:
        command.register(sub)
    args = parser.parse_args(argv)
    return int(args.run(args))
