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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

from lxml import etree

from ...errors import (
    InvalidObservationError,
    ResolutionError,
    UnsupportedFormatError,
    shorten,
)
from ...limits import DEFAULT_LIMITS, Limits
from .._common import no_cyclic_gc
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
    depth_checked: bool = False
    """Whether ``build`` refuses rows nested deeper than ``limits.max_depth`` itself, as its
    walk meets them: then the table's depth is not made to check it again (it is made when
    first read)."""


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
    """Parse XML safely; raise :class:`InvalidObservationError` on any problem.

    Entities are never expanded: a document that declares any (wherever the declaration
    is, in whatever encoding) is refused after parsing, before its text is read. Lone
    surrogates in ``str`` input (not valid Unicode) are read as U+FFFD.
    """
    if isinstance(text, str):
        try:
            raw = text.encode("utf-8")
        except UnicodeEncodeError:
            fixed = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
            raw = fixed.encode("utf-8", "replace")
    else:
        raw = text
    if b"<!ENTITY" in raw[:65536]:
        raise InvalidObservationError("the XML declares entities; resolver does not expand them")
    try:
        root = etree.fromstring(raw, _xml_parser())
    except etree.XMLSyntaxError as exc:
        if "depth" in str(exc).lower():
            raise InvalidObservationError(
                f"the XML tree nests more than {_XML_DEPTH} levels (the XML reader's limit): {exc}",
                details={"limit": "xml_depth", "allowed": _XML_DEPTH},
            ) from exc
        raise InvalidObservationError(
            f"the accessibility tree is not well-formed XML: {exc}"
        ) from exc
    except ValueError as exc:  # e.g. a str with an encoding declaration
        raise InvalidObservationError(f"the accessibility tree cannot be read: {exc}") from exc
    dtd = root.getroottree().docinfo.internalDTD
    if dtd is not None and any(True for _ in dtd.iterentities()):
        raise InvalidObservationError("the XML declares entities; resolver does not expand them")
    return root


_XML_DEPTH: Final[int] = 256
"""Levels of nesting the XML reader takes (libxml2's limit without its "huge" option)."""

_PATH_SUFFIXES: Final[tuple[str, ...]] = (".json", ".xml", ".txt", ".yaml", ".yml", ".html")


def _as_path(raw: str) -> str | None:
    """``raw`` when it names a file (a one-line ``str`` that is an existing file, or ends in
    a tree file's suffix), else ``None`` (it is the tree's own text)."""
    if len(raw) > 4096 or "\n" in raw or "\x00" in raw or raw[:1] in ("{", "[", "<", " "):
        return None
    if raw.lower().endswith(_PATH_SUFFIXES):
        return raw
    try:
        return raw if os.path.isfile(raw) else None
    except (OSError, ValueError):
        return None


def _read_file(path: str | os.PathLike[str], limits: Limits) -> bytes:
    """The bytes of a tree file, its size checked before it is read."""
    size = 0
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            data = b"" if size > limits.max_tree_bytes else handle.read(limits.max_tree_bytes + 1)
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise InvalidObservationError(
            f"cannot read the accessibility tree file {shorten(os.fspath(path), 200)!r}: {reason}"
        ) from exc
    if size > limits.max_tree_bytes:
        raise limits.refuse("max_tree_bytes", size, "the accessibility tree file")
    if len(data) > limits.max_tree_bytes:  # grew while read, or not a regular file
        raise limits.refuse("max_tree_bytes", None, "the accessibility tree file")
    return data


def parse_input(raw: Any, limits: Limits = DEFAULT_LIMITS) -> TreeInput:
    """Parse ``raw`` into a :class:`TreeInput`, or raise :class:`InvalidObservationError`.

    ``raw`` is a dict or list, JSON/XML/text as ``str`` or ``bytes``, or a path
    (``os.PathLike``, or a one-line ``str`` naming an existing file or ending in ``.json``,
    ``.xml``, ``.txt``...). Sizes are checked against ``limits.max_tree_bytes`` before the
    text is parsed (a file's before it is read).
    """
    if isinstance(raw, (dict, list)):
        return TreeInput("json", raw)
    if isinstance(raw, str) and (path := _as_path(raw)) is not None:
        raw = _read_file(path, limits)
    elif isinstance(raw, os.PathLike):
        raw = _read_file(raw, limits)
    if isinstance(raw, (bytes, bytearray, memoryview)):
        raw = bytes(raw)
        if len(raw) > limits.max_tree_bytes:
            raise limits.refuse("max_tree_bytes", len(raw), "the accessibility tree")
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise InvalidObservationError(
                f"the accessibility tree is not UTF-8 text (byte {exc.start} is not UTF-8)"
            ) from exc
    if not isinstance(raw, str):
        raise InvalidObservationError(
            "accessibility_tree must be a dict, a list, JSON/XML/text as str or bytes, or a "
            f"path; got {type(raw).__name__}"
        )
    if len(raw) > limits.max_tree_bytes:
        raise limits.refuse("max_tree_bytes", len(raw), "the accessibility tree text")
    return _parse_text(raw)


def _parse_text(raw: str) -> TreeInput:
    """The tree in ``raw``: JSON, XML or the text of an outline format."""
    stripped = raw.lstrip("\ufeff \t\r\n")
    if not stripped:
        raise InvalidObservationError("the accessibility tree is empty")
    if "\x00" in stripped[:4096]:
        raise InvalidObservationError("the accessibility tree looks binary (NUL bytes)")
    first = stripped[0]
    if first in "{[":
        try:
            return TreeInput("json", json.loads(stripped))
        except RecursionError as exc:
            raise InvalidObservationError(
                "the accessibility tree's JSON nests deeper than the JSON reader takes (about "
                "1,000 brackets); pass the tree as a parsed dict, whose depth limit is "
                "Limits.max_depth",
                details={"limit": "json_depth"},
            ) from exc
        except json.JSONDecodeError as exc:
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
    with no_cyclic_gc():
        return _build(source)


def _build(source: SourceInput) -> CandidateTable:
    tree = parse_input(source.raw, source.limits)
    fmt = _format(tree, source.tree_format)
    try:
        table = fmt.build(tree, source)
    except RecursionError as exc:
        raise InvalidObservationError(f"the {fmt.name} tree is nested too deeply") from exc
    except (InvalidObservationError, UnsupportedFormatError):
        raise
    except (AttributeError, TypeError, KeyError, IndexError, ValueError, ArithmeticError) as exc:
        raise InvalidObservationError(
            f"the {fmt.name} tree is malformed: {type(exc).__name__}: {shorten(str(exc), 300)}"
        ) from exc
    if not fmt.depth_checked and len(table) and int(table.depth.max()) >= source.limits.max_depth:
        raise source.limits.refuse("max_depth", int(table.depth.max()) + 1, f"the {fmt.name} tree")
    links = source.dom_node_map
    if links and "backend_node_id" in table.platform_ids:
        table = _linked(table, links, source)
    return table


def _linked(table: CandidateTable, links: Mapping[str, Any], source: SourceInput) -> CandidateTable:
    """``table`` with its rows linked to their elements by ``dom_node_map`` (a
    ``backendDOMNodeId -> xpath`` map, or a ``DOM.getDocument`` result), read within the
    source's limits; a map that cannot be read is an :class:`InvalidObservationError`."""
    from ..dom.link import checked_root, cross_link, root_web, root_xpaths

    limits = source.limits
    try:
        web = None
        if "root" in links:  # a DOM.getDocument result: its attributes are web evidence
            root = checked_root(links, limits)  # a tree within the limits: walked once each
            web = root_web(root, source.url)
            backends = table.platform_ids["backend_node_id"]
            links = root_xpaths(root, {b for b in backends if b is not None})
        elif len(links) > limits.max_nodes:
            raise limits.refuse("max_nodes", len(links), "dom_node_map")
        backend_map = {str(k): str(v) for k, v in links.items()}
    except ResolutionError:
        raise
    except RecursionError as exc:
        raise InvalidObservationError("dom_node_map is nested too deeply") from exc
    except (AttributeError, TypeError, KeyError, IndexError, ValueError, ArithmeticError) as exc:
        raise InvalidObservationError(
            f"dom_node_map is malformed: {type(exc).__name__}: {shorten(str(exc), 300)}"
        ) from exc
    return cross_link(table, backend_map=backend_map, backend_web=web)


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
