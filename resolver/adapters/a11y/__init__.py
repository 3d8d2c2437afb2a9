"""Accessibility-tree formats: detection, dispatch, and the safe parsing they share.

Each format is one module exposing ``FORMAT``, a :class:`TreeFormat` with a ``detect`` and a
``build`` function. Raw input (dict, list, JSON/XML/text as ``str`` or ``bytes``, or a
``pathlib.Path``) is parsed once into a :class:`TreeInput`; the formats in :data:`FORMATS` are
asked in order whether they recognise it, and the first that does builds the table. Callers
can skip detection with ``Observation(tree_format="cdp")``.

To add a platform: write ``resolver/adapters/a11y/<name>.py`` with a ``FORMAT`` and add it to
``_MODULES`` below (more specific formats first).
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

from lxml import etree

from ...errors import InvalidObservationError, UnsupportedFormatError
from ..base import SourceInput

if TYPE_CHECKING:
    from ...table import CandidateTable

__all__ = [
    "FORMATS",
    "SourceInput",
    "TreeFormat",
    "TreeInput",
    "build_table",
    "detect_format",
    "format_names",
    "parse_input",
]

MAX_INPUT_BYTES: Final[int] = 200 * 1024 * 1024

InputKind = Literal["json", "xml", "text"]


@dataclass(frozen=True)
class TreeInput:
    """Raw tree input, parsed once: JSON value, lxml root element, or text."""

    kind: InputKind
    data: Any


@dataclass(frozen=True)
class TreeFormat:
    """One accessibility-tree format: its name, a detector and a table builder."""

    name: str
    detect: Callable[[TreeInput], bool]
    build: Callable[[TreeInput, SourceInput], CandidateTable]
    """Reads the parsed tree; the :class:`SourceInput` gives limits and screen size."""


def _xml_parser() -> etree.XMLParser:
    """An lxml parser that loads nothing from outside the document."""
    # No DTD loading, no entity expansion, no network; libxml2's own size limits stay on.
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )


def parse_xml(text: str | bytes) -> Any:
    """Parse XML safely; raise :class:`InvalidObservationError` on any problem."""
    raw = text.encode("utf-8") if isinstance(text, str) else text
    if b"<!ENTITY" in raw[:65536]:
        raise InvalidObservationError("the XML declares entities; resolver does not expand them")
    try:
        return etree.fromstring(raw, _xml_parser())
    except etree.XMLSyntaxError as exc:
        raise InvalidObservationError(
            f"the accessibility tree is not well-formed XML: {exc}"
        ) from exc


def parse_input(raw: Any) -> TreeInput:
    """Parse ``raw`` into a :class:`TreeInput`, or raise :class:`InvalidObservationError`."""
    if isinstance(raw, (dict, list)):
        return TreeInput("json", raw)
    if isinstance(raw, os.PathLike):
        try:
            with open(raw, "rb") as handle:
                raw = handle.read(MAX_INPUT_BYTES + 1)
        except OSError as exc:
            raise InvalidObservationError(
                f"cannot read the accessibility tree file: {exc}"
            ) from exc
    if isinstance(raw, (bytes, bytearray, memoryview)):
        raw = bytes(raw)
        if len(raw) > MAX_INPUT_BYTES:
            raise InvalidObservationError(
                f"the accessibility tree is larger than {MAX_INPUT_BYTES // 2**20} MiB"
            )
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise InvalidObservationError("the accessibility tree is not UTF-8 text") from exc
    if not isinstance(raw, str):
        raise InvalidObservationError(
            "accessibility_tree must be a dict, a list, JSON/XML/text as str or bytes, or a "
            f"path; got {type(raw).__name__}"
        )
    if len(raw) > MAX_INPUT_BYTES:
        raise InvalidObservationError(
            f"the accessibility tree is larger than {MAX_INPUT_BYTES // 2**20} MiB"
        )
    stripped = raw.lstrip("\ufeff \t\r\n")
    if not stripped:
        raise InvalidObservationError("the accessibility tree is empty")
    if "\x00" in stripped[:4096]:
        raise InvalidObservationError("the accessibility tree looks binary (NUL bytes)")
    first = stripped[0]
    if first in "{[":
        try:
            return TreeInput("json", json.loads(stripped))
        except (json.JSONDecodeError, RecursionError) as exc:
            if first == "{":
                raise InvalidObservationError(
                    f"the accessibility tree is not valid JSON: {exc}"
                ) from exc
            # "[12] button 'OK'" lines (WebArena, BrowserGym) start with a bracket too.
            return TreeInput("text", stripped)
    if first == "<":
        return TreeInput("xml", parse_xml(stripped))
    return TreeInput("text", stripped)


_MODULES: Final[tuple[str, ...]] = (
    "snapshot_v1",
    "browsergym",
    "cdp",
    "webarena",
    "droidbot",
    "ax",
    "uia",
    "atspi",
    "uiautomator",
    "osworld_table",
    "pywinauto",
    "aria_snapshot",
    "playwright",
    "nested",
)


def _load_formats() -> tuple[TreeFormat, ...]:
    """The ``FORMAT`` of every module in :data:`_MODULES`, in order."""
    return tuple(importlib.import_module(f"{__name__}.{module}").FORMAT for module in _MODULES)


FORMATS: Final[tuple[TreeFormat, ...]] = _load_formats()


def format_names() -> tuple[str, ...]:
    """Names accepted by ``Observation(tree_format=...)``."""
    return tuple(f.name for f in FORMATS)


def detect_format(tree: TreeInput) -> TreeFormat:
    """The first format that recognises ``tree``, or :class:`UnsupportedFormatError`."""
    for fmt in FORMATS:
        try:
            if fmt.detect(tree):
                return fmt
        except (AttributeError, TypeError, KeyError, IndexError, ValueError):
            continue  # a detector must never crash detection; it simply does not match
    shape = type(tree.data).__name__
    raise UnsupportedFormatError(
        f"no adapter recognises this accessibility tree ({tree.kind}, top-level {shape}); "
        f"pass tree_format= one of {', '.join(format_names())}",
        details={"formats": list(format_names())},
    )


def build_table(source: SourceInput) -> CandidateTable:
    """The a11y source: parse, detect (or take ``tree_format``), build, and link to the DOM
    when the observation carries a ``dom_node_map`` (from a ``DOM.getDocument`` result, the
    linked rows also get their element's tag and web evidence)."""
    tree = parse_input(source.raw)
    fmt = _format(tree, source.tree_format)
    try:
        table = fmt.build(tree, source)
    except RecursionError as exc:
        raise InvalidObservationError(f"the {fmt.name} tree is nested too deeply") from exc
    except (InvalidObservationError, UnsupportedFormatError):
        raise
    except (AttributeError, TypeError, KeyError, IndexError, ValueError) as exc:
        raise InvalidObservationError(
            f"the {fmt.name} tree is malformed: {type(exc).__name__}: {exc}"
        ) from exc
    links = source.dom_node_map
    if links and "backend_node_id" in table.platform_ids:
        from ..dom.link import backend_web, backend_xpaths, cross_link

        web = None
        if "root" in links:  # a DOM.getDocument result: its attributes are web evidence
            web = backend_web(links, source.url)
            links = backend_xpaths(links)
        table = cross_link(
            table, backend_map={str(k): str(v) for k, v in links.items()}, backend_web=web
        )
    return table


def _format(tree: TreeInput, name: str | None) -> TreeFormat:
    """The format called ``name``, or the detected one when no name is given."""
    if name is None:
        return detect_format(tree)
    for fmt in FORMATS:
        if fmt.name == name:
            return fmt
    raise UnsupportedFormatError(
        f"unknown tree_format {name!r}; known: {', '.join(format_names())}"
    )
