"""The ``resolver`` Typer application: the commands, ``--version`` and shell completion."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .. import __version__
from . import catalog, complete, demo, explain, formats, replay, resolve, snapshot

__all__ = ["build_app"]

_COMMANDS = (resolve, explain, complete, catalog, snapshot, replay, formats, demo)
_HELP = (
    "Find a recorded UI element again in an accessibility tree, DOM or screenshot, or say "
    "with evidence that it cannot.\n\n"
    "Exit codes: 0 resolved or done, 3 not resolved, 2 usage or input error, 1 wrong answers "
    "found (demo, replay --strict), 130 interrupted, 141 output pipe closed."
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"resolver {__version__}")
        raise typer.Exit(0)


def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Find a recorded UI element again, or say why not."""


def build_app() -> Any:
    """The click command behind ``resolver`` (built on each call; cheap)."""
    app = typer.Typer(
        name="resolver", help=_HELP, no_args_is_help=True, add_completion=True,
        pretty_exceptions_enable=False, rich_markup_mode=None,
        context_settings={"help_option_names": ["-h", "--help"]},
    )  # fmt: skip
    app.callback()(_root)
    for command in _COMMANDS:
        command.register(app)
    return typer.main.get_command(app)
