"""What the commands print and how they fail: JSON for machines on stdout alone, people's
tables through rich, messages and progress bars on stderr."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any, Final

__all__ = [
    "EXIT_INPUT",
    "EXIT_INTERRUPTED",
    "EXIT_NOT_RESOLVED",
    "EXIT_OK",
    "EXIT_PIPE",
    "EXIT_WRONG",
    "CliError",
    "console",
    "emit_json",
    "error_line",
    "progress",
]

EXIT_OK: Final[int] = 0
EXIT_WRONG: Final[int] = 1
EXIT_INPUT: Final[int] = 2
EXIT_NOT_RESOLVED: Final[int] = 3
EXIT_INTERRUPTED: Final[int] = 130
EXIT_PIPE: Final[int] = 141


class CliError(Exception):
    """A one-line message for stderr and the exit code to leave with."""

    def __init__(self, message: str, code: int = EXIT_INPUT) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def console(*, stderr: bool = False) -> Any:
    """A rich console on stdout (tables) or stderr (messages); created per call so it
    writes to whatever ``sys.stdout``/``sys.stderr`` is now (a test's capture, a pipe)."""
    from rich.console import Console

    file = sys.stderr if stderr else sys.stdout
    probe = Console(file=file)
    # Piped or captured output has no width of its own: wide enough that tables keep their
    # words, instead of rich's 80 columns.
    width = None if probe.is_terminal else 160
    return Console(file=file, highlight=False, width=width)


def error_line(message: str) -> None:
    """One line on stderr: ``resolver: <message>``."""
    flat = " ".join(str(message).split())
    with suppress(BrokenPipeError, ValueError):  # stderr is gone too: nothing more to say
        print(f"resolver: {flat}", file=sys.stderr)


def emit_json(data: Any) -> None:
    """``data`` as indented JSON on stdout, nothing else (it pipes into ``jq``)."""
    sys.stdout.write(json.dumps(data, indent=1, default=str, ensure_ascii=False) + "\n")


@contextmanager
def progress(total: int, label: str) -> Iterator[Any]:
    """A progress bar on stderr, shown only when stderr is a terminal; yields a function to
    call once per finished item."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    err = console(stderr=True)
    bar = Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
        TimeRemainingColumn(), console=err, transient=True, disable=not err.is_terminal,
    )  # fmt: skip
    with bar:
        task = bar.add_task(label, total=total)
        yield lambda *_: bar.advance(task)
