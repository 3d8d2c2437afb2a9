"""What the commands print and how they fail: JSON for machines on stdout alone, people's
tables through rich, messages and progress bars on stderr."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager, suppress
from dataclasses import fields
from typing import Any, Final

from ..errors import shorten
from ..limits import Limits
from ..text import valid_unicode

__all__ = [
    "EXIT_INPUT",
    "EXIT_INTERRUPTED",
    "EXIT_NOT_RESOLVED",
    "EXIT_OK",
    "EXIT_PIPE",
    "EXIT_WRONG",
    "MAX_CELL",
    "MAX_JSON_STRING",
    "MAX_LINE",
    "CliError",
    "bounded",
    "cell",
    "cli_wording",
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

MAX_LINE: Final[int] = 1500
"""Characters of an error line or a message printed for people, at most (plus the length
note of a cut value)."""
MAX_CELL: Final[int] = 200
"""Characters of one table cell (a name, a reason), at most."""
MAX_JSON_STRING: Final[int] = 2000
"""Characters of one string value in JSON output; a longer one is cut and says its length
(``'aaaa... (50,000,000 characters)'``)."""

_LIMIT_NAMES: Final[str] = "|".join(f.name for f in fields(Limits))
_WORDING: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (re.compile(rf"Limits\(({_LIMIT_NAMES})=\.\.\.\) in Python or --limit \1=N on the "
                r"command line"), r"--limit \1=N"),
    (re.compile(rf"Limits\(({_LIMIT_NAMES})=[^)]*\)"), r"--limit \1=N"),
    (re.compile(rf"\braise ({_LIMIT_NAMES}) to read it\b"), r"raise it with --limit \1=N"),
    (re.compile(rf"\braise ({_LIMIT_NAMES})\b(?! ?=)"), r"raise it with --limit \1=N"),
    (re.compile(r"\btree_format=(?!\S)"), "--format"),
    (re.compile(r"\btree_format=(['\"]?)([\w-]+)\1"), r"--format \2"),
    (re.compile(r"\braise max_chars\b"), "raise --max-chars"),
)  # fmt: skip


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


def cli_wording(text: str) -> str:
    """A library message in the command line's words: ``tree_format=`` is ``--format``,
    ``raise max_nodes`` and ``Limits(max_nodes=...)`` are ``--limit max_nodes=N``,
    ``max_chars`` is ``--max-chars``."""
    for pattern, replacement in _WORDING:
        text = pattern.sub(replacement, text)
    return text


def cell(value: object, limit: int = MAX_CELL) -> str:
    """``value`` ready for rich: cut to about ``limit`` characters (saying its length) before
    anything lays it out, in the command line's words, with its ``[...]`` shown as text, not
    read as markup (``resolver[vision]`` stays as it is), and printable: a lone surrogate (a
    file name's undecodable byte, a broken name in a tree) shows as U+FFFD."""
    from rich.markup import escape

    text = value if isinstance(value, str) else str(value)
    return escape(cli_wording(valid_unicode(shorten(text, limit))))


def error_line(message: str) -> None:
    """One line on stderr: ``resolver: <message>``, cut to :data:`MAX_LINE` characters."""
    flat = cli_wording(" ".join(shorten(str(message), MAX_LINE).split()))
    with suppress(BrokenPipeError, ValueError):  # stderr is gone too: nothing more to say
        print(f"resolver: {flat}", file=sys.stderr)


def bounded(
    data: Any,
    limit: int = MAX_JSON_STRING,
    *,
    keep: Collection[str] = (),
    wording: Callable[[str], str] | None = None,
) -> Any:
    """``data`` with every string longer than ``limit`` cut, saying its length (mappings and
    sequences are copied; the values of the keys in ``keep`` are left whole; ``wording`` is
    applied to the strings too)."""
    if isinstance(data, str):
        text = shorten(data, limit)
        return wording(text) if wording is not None else text
    if isinstance(data, dict):
        return {
            key: value if key in keep else bounded(value, limit, keep=keep, wording=wording)
            for key, value in data.items()
        }
    if isinstance(data, (list, tuple)):
        return [bounded(value, limit, keep=keep, wording=wording) for value in data]
    return data


def emit_json(data: Any, *, keep: Collection[str] = ()) -> None:
    """``data`` as indented JSON on stdout, nothing else (it pipes into ``jq``); strings over
    :data:`MAX_JSON_STRING` characters are cut and say their length (but those under the
    keys in ``keep``). Text that is not valid Unicode (a lone surrogate in a name, a file
    name's undecodable bytes) makes the whole document ASCII, with JSON escapes that read back
    as the text was."""
    safe = bounded(data, keep=keep)
    text = json.dumps(safe, indent=1, default=str, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(safe, indent=1, default=str)
    sys.stdout.write(text + "\n")


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
