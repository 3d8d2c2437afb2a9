"""The ``resolver`` Typer application: the commands, ``--version`` and shell completion."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .. import __version__
from . import (
    annotate,
    catalog,
    complete,
    demo,
    explain,
    formats,
    mcp,
    replay,
    resolve,
    serve,
    snapshot,
)
from ._output import (
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_NOT_RESOLVED,
    EXIT_OK,
    EXIT_PIPE,
    EXIT_WRONG,
)

__all__ = ["EXIT_CODES", "build_app"]

_COMMANDS = (
    resolve,
    explain,
    complete,
    catalog,
    snapshot,
    replay,
    annotate,
    formats,
    demo,
    mcp,
    serve,
)
EXIT_CODES = (
    f"Exit codes: {EXIT_OK} resolved, or done; "
    f"{EXIT_NOT_RESOLVED} not resolved (ambiguous, not found, or no source could answer; the "
    "evidence is printed); "
    f"{EXIT_INPUT} usage or input error (an unknown or bad option or --limit value, bad JSON, "
    "a missing or unreadable file, an input over a limit, an unknown source or format, an "
    "optional extra such as resolver[vision] missing where no other source could look, "
    "nothing to replay or every recording given to replay corrupt); "
    f"{EXIT_WRONG} wrong answers found (demo, replay --strict), or an internal error; "
    f"{EXIT_INTERRUPTED} interrupted (Ctrl-C); {EXIT_PIPE} output pipe closed."
)
"""The exit codes as :func:`resolver.cli.main` and the commands return them (the top-level
help's last paragraph)."""
_HELP = (
    "Find a recorded UI element again in an accessibility tree, DOM or screenshot, or say "
    f"with evidence that it cannot.\n\n{EXIT_CODES}"
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
