"""Command line: ``resolver`` (also ``python -m resolver``), built on Typer with rich output.

Commands: ``resolve``, ``explain``, ``catalog``, ``snapshot``, ``replay``, ``formats``,
``demo``; ``resolver --version``; ``resolver --install-completion`` for shell completion.
One module per command, each with a ``register(app)``; :mod:`.app` puts them together.

Exit codes (printed by name where a command names them: ``AMBIGUOUS``, not a number):
0 resolved (or done), 3 not resolved (ambiguous, not found, no source could answer the
input it had), 2 usage or input error (bad option or ``--limit``, bad JSON, missing or
unreadable file, unknown source or format, an input over a limit, an optional extra such as
``resolver[vision]`` missing where no other source could look, nothing to replay, every
recording given to ``replay`` corrupt), 1 wrong answers where a command checks them
(``demo``, ``replay --strict``) or an internal error (``resolver: internal error: ...``), 130
interrupted, 141 output pipe closed (:data:`.app.EXIT_CODES` says the same in ``resolver
--help``). Errors are one line on stderr, cut to 1,500 characters and worded for the command
line (``--format``, ``--limit max_nodes=N``); long values in tables and JSON are cut and say
their length; no traceback reaches the terminal (``RESOLVER_DEBUG=1`` shows it).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence

from ._output import (
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_NOT_RESOLVED,
    EXIT_PIPE,
    CliError,
    error_line,
)

__all__ = ["main"]


def _silence_stdout() -> None:
    """After a closed pipe, point stdout at /dev/null so the interpreter's final flush does
    not fail again on the way out."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass  # stdout is not a real file (a test's capture): nothing will flush to a pipe


def _default_sigpipe() -> None:
    """Let a closed output pipe end the process quietly, as it ends ``cat`` (exit 141 in the
    shell), instead of raising on the next write."""
    import signal

    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)


def _escape_unencodable() -> None:
    """Write text the terminal's encoding cannot hold (a lone surrogate in a name read from a
    tree) as a backslash escape instead of failing on it."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(OSError, ValueError):
                reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``resolver`` command with ``argv`` (default: the process arguments) and return
    its exit code; never raises, never prints a traceback."""
    import typer

    from ..errors import ResolutionError
    from .app import build_app
    from .resolve import INPUT_CODES

    command = build_app()
    if argv is None:  # the process's own command line, not a caller in Python
        _default_sigpipe()
        _escape_unencodable()
    args = list(sys.argv[1:] if argv is None else argv) or ["--help"]
    try:
        code = command.main(args=args, prog_name="resolver", standalone_mode=False)
        sys.stdout.flush()
    except CliError as exc:
        error_line(exc.message)
        return exc.code
    except ResolutionError as exc:  # an option (ConfigError) or input a command let through
        error_line(exc.message)
        return EXIT_INPUT if exc.code.value in INPUT_CODES else EXIT_NOT_RESOLVED
    except typer.Abort:
        return EXIT_INTERRUPTED
    except typer.TyperException as exc:  # usage errors: unknown option, bad value, ...
        text = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        ctx = getattr(exc, "ctx", None)
        where = getattr(ctx, "command_path", None) or "resolver"
        error_line(f"{text} (see '{where} --help')")
        return EXIT_INPUT
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_PIPE
    except Exception as exc:  # nothing unexpected reaches the terminal as a traceback
        if os.environ.get("RESOLVER_DEBUG"):
            raise
        error_line(f"internal error: {type(exc).__name__}: {exc} (RESOLVER_DEBUG=1 shows more)")
        return 1
    return int(code or 0)
