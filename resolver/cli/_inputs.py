"""Options the commands share (the reference, the observation's files, sources, threshold,
margin, minimum confidence, screen size, coords policy, format, input limits) and reading
them into checked values.

Every failure here is a :class:`~._output.CliError` with one line saying what is wrong.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import fields
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from ..adapters.a11y import format_names
from ..chain import DEFAULT_SOURCES
from ..errors import ConfigError, ResolutionError, shorten
from ..limits import DEFAULT_LIMITS, Limits, parse_limit
from ..models import SemanticElementRef
from ..observation import Observation
from ._output import EXIT_INPUT, CliError

__all__ = [
    "ALL_SOURCES",
    "ConfidenceOpt",
    "Coords",
    "CoordsOpt",
    "DomOpt",
    "FormatOpt",
    "JsonOpt",
    "LimitOpt",
    "MarginOpt",
    "RecordDirOpt",
    "RefOpt",
    "ScreenSizeOpt",
    "ScreenshotOpt",
    "SourcesOpt",
    "ThresholdOpt",
    "TreeOpt",
    "UploadDirOpt",
    "UrlOpt",
    "check_executable",
    "checked_path",
    "limits_kwargs",
    "read_limits",
    "read_observation",
    "read_ref",
    "read_sources",
    "resolve_options",
]


ALL_SOURCES = ",".join(DEFAULT_SOURCES)
"""The default of every ``--sources`` option: all of them, in the chain's order."""


class Coords(StrEnum):
    """When the recorded box centre may answer (``coords_fallback``)."""

    unobserved = "unobserved"
    always = "always"
    never = "never"


def _complete_formats(incomplete: str) -> list[str]:
    return [name for name in format_names() if name.startswith(incomplete)]


def _complete_sources(incomplete: str) -> list[str]:
    head, _, last = incomplete.rpartition(",")
    prefix = f"{head}," if head else ""
    return [prefix + s for s in DEFAULT_SOURCES if s.startswith(last)]


RefOpt = Annotated[
    str,
    typer.Option("--ref", help="The recorded reference: JSON text, a JSON file, or '-' for stdin."),
]
TreeOpt = Annotated[
    Path | None,
    typer.Option(help="Accessibility tree file, any supported format (see 'resolver formats')."),
]
DomOpt = Annotated[Path | None, typer.Option(help="The page's HTML file (the dom source).")]
ScreenshotOpt = Annotated[
    Path | None, typer.Option(help="PNG or JPEG screenshot (the vision source).")
]
FormatOpt = Annotated[
    str | None,
    typer.Option(
        "--format", help="Tree format name; skips detection.", autocompletion=_complete_formats
    ),
]
ScreenSizeOpt = Annotated[
    str | None, typer.Option(help="WIDTHxHEIGHT the observation's boxes are measured in.")
]
UrlOpt = Annotated[str | None, typer.Option(help="The page URL, when the input has none.")]
SourcesOpt = Annotated[
    str,
    typer.Option(
        help=f"Sources to try, in order, comma-separated (of {', '.join(DEFAULT_SOURCES)}).",
        autocompletion=_complete_sources,
    ),
]
ThresholdOpt = Annotated[
    float | None,
    typer.Option(min=0.0, max=1.0, help="Minimum score to answer (default 0.60)."),
]
MarginOpt = Annotated[
    float | None,
    typer.Option(
        "--margin", min=0.0, max=1.0, help="Minimum lead over the best other target (0.06)."
    ),
]
ConfidenceOpt = Annotated[
    float | None,
    typer.Option(
        "--min-confidence", min=0.0, max=1.0,
        help="Minimum estimated probability of being right (default off; 0.9 where a wrong "
        "click costs more than a stop).",
    ),
]  # fmt: skip
CoordsOpt = Annotated[
    Coords,
    typer.Option(
        "--coords",
        help="When the recorded box centre may answer: only if no source could look "
        "(unobserved), also after sources failed (always), or never.",
    ),
]
JsonOpt = Annotated[
    bool, typer.Option("--json", help="Print JSON only (for machines and jq), no table.")
]
LimitOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--limit", metavar="NAME=VALUE",
        help="Change an input limit (repeatable), NAME one of "
        f"{', '.join(f.name for f in fields(Limits))}; e.g. --limit max_nodes=2000000.",
    ),
]  # fmt: skip


def _first_error(exc: Exception) -> str:
    """A one-line summary of a validation error."""
    if isinstance(exc, ResolutionError):
        return exc.message
    errors = getattr(exc, "errors", None)
    if callable(errors):
        try:
            first = errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ())) or "reference"
            return f"{where}: {first.get('msg', exc)}"
        except (IndexError, TypeError, AttributeError):
            pass
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def checked_path(path: str | Path, option: str) -> Path:
    """``path`` as a :class:`~pathlib.Path`; a :class:`CliError` (exit 2) naming ``option``
    when no file can have that name (it holds a NUL character, which the OS refuses)."""
    text = str(path)
    if "\x00" in text:
        shown = shorten(repr(text), 200)
        raise CliError(f"{option}: a file name cannot contain a NUL character, got {shown}")
    return Path(text)


def _text_of(value: str, what: str) -> str:
    """JSON text given inline, read from stdin (``-``) or from a file."""
    if value == "-":
        return sys.stdin.read()
    if value.lstrip().startswith(("{", "[")):
        return value
    path = checked_path(value, what)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise CliError(f"{what}: no such file: {value}") from exc
    except (OSError, ValueError) as exc:  # ValueError: not UTF-8
        raise CliError(f"{what}: cannot read {value}: {exc}") from exc


def read_ref(value: str) -> SemanticElementRef:
    """The reference from ``--ref`` (inline JSON, a file, or ``-``)."""
    text = _text_of(value, "--ref")
    try:
        json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise CliError(f"--ref is not valid JSON: {exc}") from exc
    try:
        return SemanticElementRef.model_validate_json(text)  # type: ignore[no-any-return]
    except (ValueError, ResolutionError) as exc:
        raise CliError(f"--ref is not a valid reference: {_first_error(exc)}") from exc


def _screen(text: str | None) -> tuple[float, float] | None:
    if not text:
        return None
    width, _, height = text.lower().partition("x")
    try:
        size = (float(width), float(height))
    except ValueError:
        size = (0.0, 0.0)
    if not all(0 < v < 1e6 for v in size):
        raise CliError(f"--screen-size must be WIDTHxHEIGHT (e.g. 1280x800), got {text!r}")
    return size


def _read_bytes(
    path: Path | None, option: str, limits: Limits, limit: str | None = None
) -> bytes | None:
    """The file's bytes; refused before it is read when its size is over the byte limit
    named ``limit``."""
    if path is None:
        return None
    path = checked_path(path, option)
    try:
        size = path.stat().st_size
        if limit is not None and size > getattr(limits, limit):
            raise CliError(limits.refuse(limit, size, f"{option} {path}").message)
        return path.read_bytes()
    except FileNotFoundError as exc:
        raise CliError(f"{option}: no such file: {path}") from exc
    except OSError as exc:
        raise CliError(f"{option}: cannot read {path}: {exc.strerror or exc}") from exc


def read_limits(values: Sequence[str] | None) -> Limits | None:
    """The limits the ``--limit NAME=VALUE`` options make up (``None``: none given)."""
    if not values:
        return None
    limits = DEFAULT_LIMITS
    for value in values:
        try:
            limits = parse_limit(value, limits)
        except ConfigError as exc:
            message = exc.message  # parse_limit's own start with --limit; Limits' do not
            if not message.startswith("--limit"):
                message = f"--limit {shorten(value, 80)}: {message}"
            raise CliError(message) from exc
    return limits


def limits_kwargs(limits: Limits | None) -> dict[str, Any]:
    """``{"limits": limits}`` for :class:`Observation` when ``--limit`` was given, else
    nothing (the library's defaults)."""
    return {} if limits is None else {"limits": limits}


def read_observation(
    tree: Path | None = None,
    dom: Path | None = None,
    screenshot: Path | None = None,
    *,
    tree_format: str | None = None,
    screen_size: str | None = None,
    url: str | None = None,
    limits: Sequence[str] | None = None,
) -> Observation:
    """The observation the files make up (at least one of them), read within the
    ``--limit`` options."""
    checked_limits = read_limits(limits)
    if tree is None and dom is None and screenshot is None:
        raise CliError("give an observation: --tree, --dom and/or --screenshot")
    if tree_format is not None and tree_format not in format_names():
        known = ", ".join(format_names())
        raise CliError(f"unknown --format {tree_format!r}; known: {known}")
    within = checked_limits or DEFAULT_LIMITS
    raw_tree = _read_bytes(tree, "--tree", within, "max_tree_bytes")
    raw_dom = _read_bytes(dom, "--dom", within)
    shot = _read_bytes(screenshot, "--screenshot", within, "max_image_bytes")
    try:
        return Observation(
            accessibility_tree=raw_tree, dom_html=raw_dom, screenshot=shot,
            tree_format=tree_format, screen_size=_screen(screen_size), url=url,
            **limits_kwargs(checked_limits),
        )  # fmt: skip
    except (ValueError, ResolutionError) as exc:
        raise CliError(f"the observation cannot be read: {_first_error(exc)}") from exc


def read_sources(text: str) -> tuple[str, ...]:
    """``a11y,dom`` as a checked tuple of source names."""
    sources = tuple(s.strip() for s in text.split(",") if s.strip())
    unknown = [s for s in sources if s not in DEFAULT_SOURCES]
    if unknown or not sources:
        shown = ", ".join(unknown) or "(none)"
        raise CliError(f"unknown source(s) {shown}; known: {', '.join(DEFAULT_SOURCES)}")
    return sources


def resolve_options(
    sources: str,
    threshold: float | None,
    margin: float | None,
    coords: Coords,
    min_confidence: float | None = None,
) -> dict[str, Any]:
    """Keyword arguments for :func:`resolver.resolve` from the shared options."""
    options: dict[str, Any] = {"sources": read_sources(sources), "coords_fallback": coords.value}
    if threshold is not None:
        options["threshold"] = threshold
    if margin is not None:
        options["min_margin"] = margin
    if min_confidence is not None:
        options["min_confidence"] = min_confidence
    return options


ChromiumOpt = Annotated[
    str | None,
    typer.Option(
        help="Chromium executable (default /usr/bin/chromium if present, else Playwright's "
        "own browser)."
    ),
]
HeadedOpt = Annotated[bool, typer.Option(help="Show the browser window.")]
IndexModeOpt = Annotated[
    bool,
    typer.Option(
        envvar="INDEX_MODE",
        help="Act on index=N targets; --no-index-mode (or INDEX_MODE=false) leaves only css=, "
        "xpath= and text= targets.",
    ),
]
UploadDirOpt = Annotated[
    Path | None,
    typer.Option(
        exists=True,
        file_okay=False,
        dir_okay=True,
        resolve_path=True,
        help="Let upload actions send the page files from this folder (paths relative to it, "
        "never outside it); without it uploads are refused.",
    ),
]


RecordDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--record",
        file_okay=False,
        dir_okay=True,
        resolve_path=True,
        help="Record the session as recording_v1 in this folder (made if missing): every "
        "navigation and every action execute located, with the page it was located on; "
        "written when the server stops, replayable with 'resolver replay'.",
    ),
]


def require_modules(modules: Sequence[str], message: str) -> None:
    """Exit 2 with ``message`` (an install line) unless every one of ``modules`` imports."""
    try:
        for module in modules:
            importlib.import_module(module)
    except ImportError as exc:
        raise CliError(f"{message} ({exc})", EXIT_INPUT) from exc


def check_executable(path: str | None, option: str) -> None:
    """Exit 2 (a usage error) when ``path``, given with ``option``, is no executable file."""
    if path is not None and not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise CliError(f"{option}: no executable at {path}", EXIT_INPUT)
