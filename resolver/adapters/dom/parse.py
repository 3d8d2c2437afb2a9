"""HTML text to a flat, index-addressed element tree, parsed the way browsers parse.

Parsing uses Lexbor (through ``selectolax``), an HTML5-conformant parser: the tree it builds is
the one Chromium builds from the same markup (implied ``tbody``, adoption-agency repair of
misnested formatting elements, foster-parented table content), so an absolute XPath computed
here addresses the same element in the browser. Lexbor never fetches anything and knows no
DTDs, so external entities and entity-expansion bombs do not exist for it: ``<!ENTITY>`` is a
bogus doctype and ``&name;`` only expands the fixed HTML character references.

The tree is copied once, in one iterative walk, into parallel lists indexed by element
number (document order, ``0`` is ``<html>``). Everything downstream (roles, names, styles,
selectors) reads these lists and never the parser objects, except CSS selector matching,
which runs in Lexbor and maps its results back through ``mem_ids``.

Limits, read from the :class:`~resolver.limits.Limits` passed in (the observation's), each
reported as :class:`~resolver.errors.LimitExceededError` naming the limit:

- ``max_html_chars`` characters of decoded text (bytes far longer than that are refused
  before they are decoded);
- nesting deeper than ``max_depth`` open elements, estimated from the tags before parsing (an
  HTML5 tree builder spends time quadratic in the depth of such input);
- ``max_elements`` elements, counted while the tree is copied.

Input that is mostly control characters (not text at all) is an
:class:`~resolver.errors.InvalidObservationError`.

Nodes deeper than :data:`MAX_DOM_DEPTH` are re-attached to their grandparent, as Blink's tree
builder does for depths beyond 512, so xpaths agree with Chromium on such pages too.
"""

from __future__ import annotations

import codecs
import functools
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ...errors import InvalidObservationError, LimitExceededError, SourceUnavailableError
from ...limits import DEFAULT_LIMITS, Limits

__all__ = [
    "MAX_DOM_DEPTH",
    "MAX_ELEMENTS",
    "MAX_HTML_CHARS",
    "MAX_PARSE_DEPTH",
    "Document",
    "decode_html",
    "parse_html",
]

MAX_HTML_CHARS: Final[int] = DEFAULT_LIMITS.max_html_chars
"""The default ``Limits.max_html_chars``: no real page a runtime acts on is this big, and the
cost of reading one is not bounded by anything else."""
MAX_ELEMENTS: Final[int] = DEFAULT_LIMITS.max_elements
"""The default ``Limits.max_elements``."""
MAX_PARSE_DEPTH: Final[int] = DEFAULT_LIMITS.max_depth
"""The default ``Limits.max_depth`` (of the nesting estimated before parsing)."""
MAX_DOM_DEPTH: Final[int] = 512  # Blink: kMaximumHTMLParserDOMTreeDepth

SVG: Final[int] = 1
MATHML: Final[int] = 2

# Elements that are never closed (void) or whose end tag may be left out: they do not
# deepen the tree however many there are, so the depth estimate skips them.
_NO_DEPTH: Final[frozenset[str]] = frozenset(
    {
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr", "param", "keygen", "frame", "basefont", "bgsound", "image",
        "p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th", "tbody", "thead",
        "tfoot", "colgroup", "caption", "rb", "rt", "rtc", "rp", "html", "head", "body",
    }
)  # fmt: skip
# A tag that can deepen the tree: ``<x`` opens, ``</x`` closes, unless the tag name (the
# longest run of name characters after ``<`` or ``</``) is one of the above. Tags are read
# with numpy on ASCII-lowered bytes: each name's first bytes are packed into one integer and
# looked up among the packed names of the above.
_NAME_BYTES: Final[npt.NDArray[np.bool_]] = np.zeros(256, dtype=bool)
_NAME_BYTES[np.frombuffer(b"abcdefghijklmnopqrstuvwxyz0123456789:-", dtype=np.uint8)] = True
_PACKED_WIDTH: Final[int] = 8  # bytes of a uint64; the names above are at most 8 long
_DEPTH_CHUNK: Final[int] = 1 << 18  # tags read at once
_PACKED_NO_DEPTH: Final[npt.NDArray[np.uint64]] = np.array(
    sorted(int.from_bytes(tag.encode().ljust(_PACKED_WIDTH, b"\0"), "little") for tag in _NO_DEPTH),
    dtype="<u8",
)
_RAW_OPEN: Final[re.Pattern[bytes]] = re.compile(
    rb"<(script|style|textarea|title|xmp|noembed|noframes|plaintext)\b"
)
"""The start of a raw-text element, whose content holds no tags (on lowered bytes)."""
_TAG_END: Final[re.Pattern[bytes]] = re.compile(rb"\s*>")
_META_CHARSET: Final[re.Pattern[bytes]] = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE
)
_CONTROL: Final[bytes] = bytes((*range(0x09), *range(0x0E, 0x1B), *range(0x1C, 0x20)))
"""C0 controls other than whitespace and ESC: binary data decoded as text is full of them.
(Each is one byte in UTF-8, and no byte of a multi-byte sequence is below 0x80.)"""
# Fragments of these integration points hold HTML again inside SVG/MathML.
_HTML_IN_SVG: Final[frozenset[str]] = frozenset({"foreignObject", "foreignobject", "desc", "title"})
_HTML_IN_MATH: Final[frozenset[str]] = frozenset(
    {"annotation-xml", "mi", "mo", "mn", "ms", "mtext"}
)
_FOREIGN_ROOTS: Final[dict[str, int]] = {"svg": SVG, "math": MATHML}
"""Elements that switch an HTML context to another namespace."""
_TEXT_ID: Final[int] = 2  # Lexbor's LXB_TAG__TEXT
_FIRST_ELEMENT_ID: Final[int] = 6  # ids below are text, document, comment, doctype ...
_MAX_BYTES_PER_CHAR: Final[int] = 4
"""Bytes of the longest encoding of one character (UTF-8, UTF-16 surrogate pairs; a bad
byte becomes one U+FFFD): bytes longer than this many per allowed character hold too many."""

Content = list[int | str]
"""Ordered children of an element: ``int`` (an element) or ``str`` (a text node's data)."""


@dataclass(eq=False)
class Document:
    """A parsed page as parallel lists indexed by element number (document order).

    Attributes
    ----------
    tags:
        Local names; lower case for HTML elements, as written for SVG/MathML ones.
    attrs:
        Attribute dicts (names lower case, boolean attributes map to ``""``).
    parent:
        Index of the parent element, ``-1`` for ``<html>``.
    content:
        Children in order: ``int`` for an element, ``str`` for a text node.
    namespace:
        ``0`` HTML, :data:`SVG` or :data:`MATHML`.
    mem_ids:
        Parser node identity -> element index (maps CSS query results back).
    by_id:
        ``id`` attribute -> first element carrying it (``getElementById``).
    scripting:
        Whether the page was parsed with scripting enabled (see :func:`parse_html`).
    reparented:
        Whether an element deeper than :data:`MAX_DOM_DEPTH` was given its grandparent as
        parent (otherwise :attr:`parent` is the parser's own tree).
    """

    tags: list[str]
    attrs: list[dict[str, str]]
    parent: list[int]
    content: list[Content]
    namespace: list[int]
    mem_ids: dict[int, int]
    parser: Any = field(repr=False)
    by_id: dict[str, int] = field(default_factory=dict)
    quirks: bool = False
    scripting: bool = True
    reparented: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _nodes: list[Any] | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.tags)

    @property
    def nodes(self) -> list[Any]:
        """The parser's element objects by index (for per-element selector tests).

        Made on first use: most pages never need them, and holding one Python object per
        element only makes garbage collection slower.
        """
        if self._nodes is None:
            mem = self.mem_ids
            root = self.parser.root
            found = [n for n in root.traverse() if n.mem_id in mem] if root is not None else []
            self._nodes = found
        return self._nodes

    @staticmethod
    def text(node: Any) -> str:
        """The data of a text item from :attr:`content`."""
        return node if isinstance(node, str) else ""

    def css(self, selector: str) -> list[int]:
        """Elements matching a CSS selector (Lexbor's engine), in document order.

        Raises ``ValueError`` for selectors Lexbor cannot parse.
        """
        with self.lock:  # the parser's selector engine is not thread-safe
            root = self.parser.root
            found = root.css(selector) if root is not None else []
        mem = self.mem_ids
        hits = [mem[n.mem_id] for n in found if n.mem_id in mem]
        hits.sort()
        return hits


def indices_of(items: list[str], value: str) -> Iterator[int]:
    """Positions of ``value`` in ``items``, in order (``list.index`` scans in C: far cheaper
    than a Python loop over every element for the few that are wanted)."""
    at = -1
    while True:
        try:
            at = items.index(value, at + 1)
        except ValueError:
            return
        yield at


def decode_html(data: str | bytes) -> str:
    """Decode page bytes the way a browser picks the encoding (without network hints).

    Byte-order mark first, then a ``<meta charset>`` in the first 1024 bytes, then UTF-8 if
    the bytes are valid UTF-8, else windows-1252 (the web's default for undeclared pages).
    Undecodable bytes become U+FFFD; nothing raises.

    >>> decode_html(b"\\xef\\xbb\\xbfcaf\\xc3\\xa9"), decode_html(b"caf\\xe9")
    ('café', 'café')
    """
    if isinstance(data, str):
        return data
    return _decode(data)[0]


def _decode(data: bytes) -> tuple[str, bool]:
    """:func:`decode_html` of bytes, and whether ``data`` is exactly the text's UTF-8 (so
    the parser can be given the bytes as they are, without encoding the text again)."""
    for bom, name in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                      (codecs.BOM_UTF16_BE, "utf-16-be")):  # fmt: skip
        if data.startswith(bom):
            return data[len(bom) :].decode(name, errors="replace"), False
    declared = _META_CHARSET.search(data[:1024])
    name = "utf-8"
    if declared is not None:
        label = declared.group(1).decode("ascii", "replace").lower()
        try:
            name = codecs.lookup(label).name
        except LookupError:
            name = "utf-8"
        # A <meta> cannot declare UTF-16 (the bytes would not have been readable); HTML
        # treats such pages as UTF-8, and "latin-1"/"ascii" labels mean windows-1252.
        if name.startswith(("utf-16", "utf-32")):
            name = "utf-8"
        elif name in ("latin-1", "iso8859-1", "ascii"):
            name = "cp1252"
    try:
        return data.decode(name), name == "utf-8"
    except UnicodeDecodeError:
        # Undeclared and not UTF-8: windows-1252; declared: that encoding, bad bytes replaced.
        fallback = "cp1252" if declared is None else name
        return data.decode(fallback, errors="replace"), False


def _check_bytes(data: bytes, limits: Limits) -> None:
    """Refuse bytes that must decode to more than ``limits.max_html_chars`` characters (more
    than four bytes per character), before decoding them: the text would cost up to four
    times their size."""
    if len(data) > _MAX_BYTES_PER_CHAR * (limits.max_html_chars + 1):
        raise limits.refuse("max_html_chars", None, f"dom_html ({len(data):,} bytes)")


def _check_text(text: str, limits: Limits) -> None:
    """Refuse input that is far too large or not text at all (before parsing it)."""
    if len(text) > limits.max_html_chars:
        raise limits.refuse("max_html_chars", len(text), "dom_html")
    head = text[:8192]
    data = head.encode("utf-8", "surrogatepass")
    if head and len(data) - len(data.translate(None, _CONTROL)) > len(head) // 10:
        raise InvalidObservationError("dom_html is not HTML text (mostly control characters)")


def _estimated_depth(text: str | bytes, limit: int = MAX_PARSE_DEPTH) -> int:
    """An upper-bound-ish estimate of element nesting from the tag stream (``0`` when there
    are fewer than ``limit`` tags, which cannot nest deeper than ``limit``).

    Raw-text elements (script, style, ...) are cut out first so ``"<div>"`` inside a script
    does not count; void elements and elements with optional end tags do not count at all.
    A stray end tag at depth 0 is ignored, so the depth is the running sum of +1/-1 steps
    reflected at zero: ``S[k] - min(0, min(S[:k + 1]))``, evaluated in numpy.
    """
    if isinstance(text, str):
        if text.count("<") < limit:
            return 0
        data = text.encode("utf-8", "replace").lower()
    else:  # UTF-8 bytes
        if text.count(b"<") < limit:
            return 0
        data = text.lower()
    if b"<script" in data or b"<style" in data:
        data = _cut_raw_text(data)
    steps = _depth_steps(data)
    if not steps.size:
        return 0
    level = np.cumsum(steps, dtype=np.int64)
    return int((level - np.minimum.accumulate(np.minimum(level, 0))).max())


def _cut_raw_text(data: bytes) -> bytes:
    """``data`` without its raw-text elements, each from ``<script`` (``<style``, ...) to the
    first ``</script`` followed by ``>`` (spaces between allowed); an element never closed
    stays. Its end is found with ``bytes.find``: a lazy regex would try the end tag at every
    byte of a long script. The end found for one element serves the unclosed ones before it,
    so a page of unclosed ``<script`` tags is read once, not once per tag."""
    pieces = []
    kept = search = 0
    ends: dict[bytes, tuple[int, int, int]] = {}  # name -> (searched from, end tag at, its end)
    while (opening := _RAW_OPEN.search(data, search)) is not None:
        name = opening.group(1)
        start = opening.end()
        known = ends.get(name)
        if known is not None and known[0] <= start and (known[1] < 0 or start <= known[1]):
            end = known[2]
        else:
            closer, look, end, at = b"</" + name, start, -1, -1
            while (at := data.find(closer, look)) >= 0:
                tail = _TAG_END.match(data, at + len(closer))
                if tail is not None:
                    end = tail.end()
                    break
                look = at + 1
            ends[name] = (start, at, end)
        if end < 0:  # never closed: keep it, look for the next one after its "<"
            search = opening.start() + 1
            continue
        pieces.append(data[kept : opening.start()])
        kept = search = end
    pieces.append(data[kept:])
    return b"".join(pieces)


def _depth_steps(data: bytes) -> npt.NDArray[np.int8]:
    """+1 per tag of ``data`` that opens an element deepening the tree, -1 per such end tag,
    in order (``data`` ASCII-lowered, raw text cut out). Tags are read in chunks, so memory
    stays a few times the input's size."""
    codes = np.frombuffer(data + b"\0" * (_PACKED_WIDTH + 2), dtype=np.uint8)
    at = np.flatnonzero(codes[: len(data)] == 0x3C)  # "<"
    closing = codes[at + 1] == 0x2F  # "/"
    start = at + 1 + closing
    first = codes[start]
    tag = (first >= 0x61) & (first <= 0x7A)  # a name starts with a letter
    start, closing = start[tag], closing[tag]
    keep = np.empty(start.size, dtype=bool)
    # The 8 bytes from each offset as one little-endian integer: a view of the same memory,
    # one unaligned read per element.
    words = np.ndarray((codes.size - _PACKED_WIDTH + 1,), dtype="<u8", buffer=codes, strides=(1,))
    for k in range(0, start.size, _DEPTH_CHUNK):
        begin = start[k : k + _DEPTH_CHUNK]
        head = words[begin]
        # The name is the bytes before the first one that is not a name character. With
        # that byte's lowest bit marked (``cut``), the bits below it cover the name.
        cut = (~_NAME_BYTES[head.view(np.uint8)]).view("<u8")  # (bytes of 1 or 0 per tag)
        first_cut = cut & ~(cut - np.uint64(1))  # its lowest set bit (0 when none)
        key = head & (first_cut - np.uint64(1))  # (no cut: all 8 bytes, as it wraps)
        longer = (cut == 0) & _NAME_BYTES[codes[begin + _PACKED_WIDTH]]
        slot = np.searchsorted(_PACKED_NO_DEPTH, key).clip(max=_PACKED_NO_DEPTH.size - 1)
        keep[k : k + _DEPTH_CHUNK] = longer | (_PACKED_NO_DEPTH[slot] != key)
    return np.where(closing[keep], -1, 1).astype(np.int8)


@functools.cache
def _lexbor() -> Any:
    try:
        from selectolax.lexbor import LexborHTMLParser
    except ImportError as exc:  # pragma: no cover - selectolax is a dependency
        raise SourceUnavailableError(
            "the DOM source needs selectolax (pip install 'selectolax>=0.3.21')"
        ) from exc
    return LexborHTMLParser


def _parse(parser_class: Any, text: str | bytes, scripting: bool) -> Any:
    """Parse with the HTML "scripting flag" (HTML §13.2.3.5) set or not: set, as in a browser
    running scripts, ``<noscript>`` holds one text node, so a ``<noscript>`` in ``<head>``
    cannot push later head elements into ``<body>`` (which would shift their XPaths); unset,
    its content is parsed as elements."""
    try:
        return parser_class(text, scripting=scripting)
    except TypeError:  # selectolax before the scripting flag
        return parser_class(text)


def parse_html(
    data: str | bytes, *, scripting: bool = True, limits: Limits = DEFAULT_LIMITS
) -> Document:
    """Parse a page into a :class:`Document`.

    ``scripting=False`` parses the page as a browser with JavaScript disabled does: the
    elements inside ``<noscript>`` are elements (which :mod:`.style` then renders).
    ``limits`` bounds what is read (``max_html_chars``, ``max_depth``, ``max_elements``).

    Raises
    ------
    LimitExceededError
        The input is over one of ``limits``: too large, nested too deep, too many elements.
    InvalidObservationError
        The input is not text, or the parser cannot read it.
    """
    if isinstance(data, bytes):
        _check_bytes(data, limits)
        text, exact = _decode(data)
    else:
        text, exact = data, False
    _check_text(text, limits)
    source: str | bytes = data if exact else text  # (the parser reads UTF-8 bytes as they are)
    depth = _estimated_depth(source, limits.max_depth)
    if depth > limits.max_depth:
        raise _too_deep(depth, limits)
    parser_class = _lexbor()
    try:
        parser = _parse(parser_class, source, scripting)
    except (UnicodeError, ValueError, MemoryError) as exc:
        try:  # lone surrogates in a str cannot be encoded for the parser: replace them
            parser = _parse(
                parser_class, text.encode("utf-8", "replace").decode("utf-8"), scripting
            )
        except Exception as again:  # anything the parser raises is bad input
            raise InvalidObservationError(f"dom_html cannot be parsed: {again}") from exc
    except Exception as exc:  # anything the parser raises is bad input
        raise InvalidObservationError(f"dom_html cannot be parsed: {exc}") from exc
    doc = _flatten(
        parser, quirks=not text.lstrip()[:9].lower().startswith("<!doctype"), limits=limits
    )
    doc.scripting = scripting
    return doc


def _flatten(parser: Any, *, quirks: bool, limits: Limits = DEFAULT_LIMITS) -> Document:
    """Copy the parser's tree into flat lists in one pre-order walk.

    The walk keeps a stack of child iterators (Lexbor's own, one per open element), so every
    node's parent is the element whose children are being read: no node is asked for its
    parent. Text is kept as str, not as parser nodes: fewer live objects for the garbage
    collector to scan, and every reader wants the string. Node kinds are told apart by
    Lexbor's tag id. An element's namespace follows its parent's, switching at
    ``<svg>``/``<math>`` and back to HTML inside their integration points
    (``foreignObject``, ``annotation-xml`` ...). More than ``limits.max_elements`` elements
    are refused as soon as the one over the limit is reached."""
    doc = Document([], [], [], [], [], {}, parser, {}, quirks)
    root = parser.root
    if root is None:
        raise InvalidObservationError("dom_html has no elements")
    _copy_tree(doc, root, limits)
    if not doc.tags:
        raise InvalidObservationError("dom_html has no elements")
    return doc


def _copy_tree(doc: Document, root: Any, limits: Limits) -> None:
    """Append the elements and texts of ``root``'s tree to ``doc`` (see :func:`_flatten`)."""
    tags, attrs, parent, content = doc.tags, doc.attrs, doc.parent, doc.content
    namespace, mem_ids, by_id, depth = doc.namespace, doc.mem_ids, doc.by_id, list[int]()
    add_tag, add_attrs, add_parent = tags.append, attrs.append, parent.append
    add_content, add_namespace, add_depth = content.append, namespace.append, depth.append
    index, max_elements = 0, limits.max_elements
    nodes: Iterator[Any] = iter((root,))  # the children being read ...
    at = -1  # ... of this element (the parser's parent of each)
    own: Content = []  # content[at]
    stack: list[tuple[Iterator[Any], int]] = []  # the same for the enclosing elements
    while True:
        for node in nodes:
            kind = node.tag_id
            if kind < _FIRST_ELEMENT_ID:
                if kind == _TEXT_ID:
                    value = node.text_content
                    own.append(value if value is not None else "")
                continue  # comments, doctype
            if index >= max_elements:
                raise limits.refuse("max_elements", None, "dom_html")
            tag, up = node.tag, at
            if up >= 0:
                level = depth[up] + 1
                if level > MAX_DOM_DEPTH:  # follows Blink's tree builder (see module doc)
                    up = parent[up]
                    level -= 1
                    doc.reparented = True
                ns = namespace[up]
                if ns and tags[up] in (_HTML_IN_SVG if ns == SVG else _HTML_IN_MATH):
                    ns = 0
                content[up].append(index)
            else:
                level = ns = 0
            if not ns and tag in _FOREIGN_ROOTS:
                ns = _FOREIGN_ROOTS[tag]
            add_tag(tag if ns else tag.lower())
            raw = node.attributes
            if raw:
                values = raw.values()
                if not all(values) and None in values:  # (a scan of truth values is cheap)
                    raw = {k: ("" if v is None else v) for k, v in raw.items()}
                element_id = raw.get("id")
                if element_id and element_id not in by_id:
                    by_id[element_id] = index
            add_attrs(raw)
            add_parent(up)
            add_content(own := [])
            add_namespace(ns)
            add_depth(level)
            mem_ids[node.mem_id] = index
            stack.append((nodes, at))
            nodes = node.iter(include_text=True)
            at, index = index, index + 1
            break
        else:  # no children left: back to the enclosing element's
            if not stack:
                return
            nodes, at = stack.pop()
            own = content[at]


def _too_deep(depth: int, limits: Limits) -> LimitExceededError:
    """The error for a page whose nesting, estimated from its tags, is over
    ``limits.max_depth`` (browsers flatten anything beyond :data:`MAX_DOM_DEPTH` anyway)."""
    return limits.refuse("max_depth", depth, "dom_html (nesting estimated from its tags)")
