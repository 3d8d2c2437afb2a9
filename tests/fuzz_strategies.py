"""Hypothesis strategies for hostile inputs, and the property every public entry point keeps.

The property: a call returns its documented type or raises a
:class:`~resolver.errors.ResolutionError` subclass (whose text is at most ``MAX_MESSAGE``
characters), within ``base + per_unit * size`` seconds
(``size``: characters or bytes of the input, or a screenshot's pixels, see :func:`input_size`).
:func:`run_case` checks it for one generated case of one kind and raises
:class:`PropertyViolationError` when it is broken.

Kinds (:data:`KINDS`): ``reference``, ``a11y:<format>`` for every accessibility-tree format,
``dom``, ``vision``, ``recording``, ``snapshot`` and ``cli``. ``tests/test_fuzz.py`` runs a
few thousand cases in CI; ``python -m benchmarks.fuzz`` runs many more.
"""

from __future__ import annotations

import copy
import functools
import json
import math
import reprlib
import signal
import struct
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np
from hypothesis import strategies as st

from resolver import Observation, Resolution, ResolutionError, SemanticElementRef, resolve
from resolver.adapters.a11y import format_names
from resolver.errors import MAX_MESSAGE
from resolver.limits import DEFAULT_LIMITS

ROOT: Final[Path] = Path(__file__).resolve().parents[1]
FIXTURES: Final[Path] = ROOT / "fixtures"
FORMATS: Final[tuple[str, ...]] = tuple(format_names())

# -- text ----------------------------------------------------------------------------------

RTL: Final[tuple[str, ...]] = (
    "\u202e",
    "\u202d",
    "\u200f",
    "\u200e",
    "\u2067",
    "\u2069",
    "\u061c",
    "שלום",
    "مرحبا",
    "OK\u202eKO",
    "\u202bשמור\u202c",
)
COMBINING: Final[tuple[str, ...]] = (
    "e\u0301",
    "\u0301" * 40,
    "a" + "\u0336" * 12,
    "O\u0338K",
    "\u20dd",
    "Z\u0351\u0362\u0489",
)
HOMOGLYPHS: Final[dict[str, str]] = {
    "O": "\u041e",
    "K": "\u041a",
    "a": "\u0430",
    "e": "\u0435",
    "o": "\u03bf",
    "i": "\u0456",
    "S": "\u0405",
    "n": "\u0578",
    "c": "\u0441",
    "p": "\u0440",
    "l": "\u04cf",
    "g": "\u0261",
}
ZERO_WIDTH: Final[tuple[str, ...]] = (
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
    "\ufeff",
    "\u00ad",
    "\u180e",
    "\u034f",
)
CONTROL: Final[tuple[str, ...]] = (
    "\x00",
    "\x01",
    "\x07",
    "\x08",
    "\x1b[31m",
    "\x7f",
    "\x85",
    "\r",
    "\n",
    "\t",
    "\x0b",
    "\x0c",
    "\u2028",
    "\u2029",
)
OTHER: Final[tuple[str, ...]] = (
    "\ud800",
    "\udfff",
    "\U0001f600",
    "\ufdfa",
    "\uffff",
    "\U0010ffff",
    "'",
    '"',
    "\\",
    "<",
    "&amp;",
    "]]>",
    "{",
    "[",
    "- ",
    ": ",
    " | ",
    "%s",
    "${x}",
    "\\u0000",
    "NaN",
    "null",
)
PIECES: Final[tuple[str, ...]] = (*RTL, *COMBINING, *ZERO_WIDTH, *CONTROL, *OTHER)
REAL_NAMES: Final[tuple[str, ...]] = (
    "OK",
    "Sign in",
    "Save",
    "Cancel",
    "Customer name",
    "Delete",
    "Search",
    "Email",
    "Next",
)
ROLES: Final[tuple[str, ...]] = (
    "button",
    "link",
    "textbox",
    "checkbox",
    "group",
    "dialog",
    "StaticText",
    "generic",
    "none",
    "",
    " ",
    "AXButton",
    "ButtonControl",
    "push button",
    "push-button",
    "android.widget.Button",
    "RootWebArea",
    "WebArea",
    "menuitem",
    "tab",
    "heading",
    "img",
    "row",
    "cell",
    "combobox",
    "BUTTON",
    "buttonn",
    "\u0432utton",
    "button\u200b",
)


def _homoglyph(pair: tuple[str, int]) -> str:
    name, mask = pair
    return "".join(
        HOMOGLYPHS.get(ch, ch) if (mask >> (i % 16)) & 1 else ch for i, ch in enumerate(name)
    )


def _repeat(pair: tuple[int, str]) -> str:
    size, unit = pair
    return (unit * (size // len(unit) + 1))[:size]


def names(max_huge: int = 0) -> st.SearchStrategy[str]:
    """Names a recorder might have written, and names built to hurt."""
    parts = [
        st.just(""),
        st.sampled_from(["   ", "\t\n", "\u00a0", "\u3000"]),
        st.sampled_from(REAL_NAMES),
        st.tuples(st.sampled_from(REAL_NAMES), st.integers(1, 2**16 - 1)).map(_homoglyph),
        st.lists(
            st.one_of(st.sampled_from(PIECES), st.sampled_from(REAL_NAMES), st.text(max_size=4)),
            max_size=8,
        ).map("".join),
        st.text(max_size=30),
    ]
    if max_huge >= 1000:
        units = st.sampled_from(["a", "é", "\u200b", "ש", "\u0301", "OK ", "\U0001f600", "\x00"])
        parts.append(st.tuples(st.integers(1000, max_huge), units).map(_repeat))
    return st.one_of(*parts)


HUGE_INTS: Final[tuple[int, ...]] = (10**400, -(10**400), 2**1024)
"""Integers JSON may hold and Python reads, too large for a float."""

json_scalars: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from(HUGE_INTS),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=10),
)
json_values: st.SearchStrategy[Any] = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
odd_values: st.SearchStrategy[Any] = st.one_of(
    json_values,
    st.binary(max_size=10),
    st.builds(set, st.lists(st.integers(), max_size=3)),
    st.builds(complex, st.floats(), st.floats()),
    st.builds(tuple, st.lists(json_scalars, max_size=5)),
    st.just(object()),
    st.just(b"\xff\xfe"),
)
"""Values no JSON document holds (given to the Python API only)."""

_NUMS: Final[tuple[float, ...]] = (
    math.nan,
    math.inf,
    -math.inf,
    1e308,
    -1e308,
    5e-324,
    0.0,
    -0.0,
    2.0**53 + 1,
    1e16,
)


def bboxes() -> st.SearchStrategy[Any]:
    """Boxes: NaN, infinite, inverted, negative, huge (integers too large for a float too),
    wrong lengths and wrong types."""
    coords = st.one_of(st.integers(-5000, 5000), st.sampled_from(_NUMS))
    return st.one_of(
        st.lists(st.integers(0, 2000), min_size=4, max_size=4),
        st.lists(coords, min_size=4, max_size=4),
        st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=6),
        st.tuples(st.integers(0, 2000), st.integers(0, 2000)).map(
            lambda p: [p[0] + 50, p[1] + 20, p[0], p[1]]
        ),
        st.lists(st.integers(-(2**63), 2**63), min_size=4, max_size=4),
        st.lists(st.sampled_from((*HUGE_INTS, 1, 20)), min_size=4, max_size=4),
        st.lists(st.sampled_from(["1", "2", "x", "", "nan"]), min_size=4, max_size=4),
        st.just([[0, 0], [10, 10]]),
        st.just({"x": 1, "y": 2, "width": 3, "height": 4}),
        st.just([True, False, True, 1]),
        st.just("(0, 0, 10, 10)"),
        json_scalars,
    )


def _field_values(max_huge: int) -> dict[str, st.SearchStrategy[Any]]:
    text = names(max_huge)
    small = names()
    pair = st.tuples(st.integers(-5, 10**7), st.integers(-5, 10**7))
    return {
        "role": st.one_of(st.sampled_from(ROLES), small),
        "name": text,
        "bbox": bboxes(),
        "container_path": st.one_of(st.lists(small, max_size=5), small),
        "enabled": st.booleans(),
        "focused": st.booleans(),
        "automation_id": text,
        "accessibility_id": small,
        "class_name": text,
        "css_selector": st.one_of(small, st.sampled_from(["#ok", "button:nth-child(", "a >> b"])),
        "xpath": st.one_of(small, st.sampled_from(["/html/body/button[1]", "//*[", "/"])),
        "dom_id": small,
        "test_id": small,
        "tag": st.one_of(small, st.sampled_from(["button", "A", "x" * 70])),
        "classes": st.one_of(st.lists(small, max_size=40), small),
        "href": text,
        "attributes": st.dictionaries(
            st.one_of(st.sampled_from(["name", "type", "placeholder", "title", "alt"]), small),
            small,
            max_size=4,
        ),
        "nearby_text": st.lists(small, max_size=8),
        "screen_size": st.one_of(pair, st.lists(st.sampled_from(_NUMS), max_size=3)),
        "coord_space": st.one_of(
            st.sampled_from(["css_px", "screen_px", "screen_points", "device_px", "none", ""]),
            small,
        ),
        "occurrence": st.one_of(pair, st.lists(st.integers(-3, 5), max_size=3)),
        "anchors": st.lists(st.tuples(small, bboxes()), max_size=10),
        "lookalikes": st.lists(bboxes(), max_size=10),
        "heading": st.one_of(small, text),
        "panel": st.one_of(
            st.tuples(st.sampled_from(["dialog", "tabpanel", "details", "AXSheet", ""]), small),
            st.lists(small, max_size=3),
        ),
        "confidence": st.one_of(st.floats(-1, 2), st.sampled_from(_NUMS)),
    }


def reference_dicts(max_huge: int = 0, *, odd: bool = True) -> st.SearchStrategy[dict[str, Any]]:
    """Reference dicts: any field plausible or of the wrong type, and extra keys."""
    wrong = odd_values if odd else json_values
    fields = {
        key: st.one_of(value, value, wrong)
        for key, value in _field_values(max_huge).items()
        if key in SemanticElementRef.model_fields
    }
    base = st.fixed_dictionaries(
        {"role": st.sampled_from(ROLES[:6]), "name": st.sampled_from(REAL_NAMES)},
        optional={k: v for k, v in fields.items() if k not in ("role", "name")},
    )
    extra = st.dictionaries(
        st.one_of(st.text(max_size=10), st.sampled_from(["Role", "bbox ", "id", "children"])),
        json_values,
        max_size=3,
    )
    return st.one_of(
        base,
        st.fixed_dictionaries({}, optional=fields),
        st.tuples(base, extra).map(lambda p: {**p[0], **p[1]}),
    )


def _to_json(value: Any) -> str:
    return json.dumps(value, default=repr)


def references(max_huge: int = 0) -> st.SearchStrategy[Any]:
    """What a caller may pass as ``ref``: dicts, their JSON, bytes, and other types."""
    dicts = reference_dicts(max_huge)
    return st.one_of(
        dicts,
        dicts,
        reference_dicts(max_huge, odd=False).map(_to_json),
        reference_dicts(max_huge, odd=False).map(lambda d: _to_json(d).encode("utf-8")),
        st.text(max_size=40),
        st.binary(max_size=40),
        odd_values,
    )


# -- generic mutation of JSON values and of text ------------------------------------------


def _containers(value: Any, limit: int = 5000) -> list[tuple[Any, list[int]]]:
    """Lists and dicts of ``value`` (each once) with the ids of their ancestors."""
    out: list[tuple[Any, list[int]]] = []
    seen: set[int] = set()
    stack: list[tuple[Any, list[int]]] = [(value, [])]
    while stack and len(out) < limit:
        node, ancestors = stack.pop()
        if not isinstance(node, (dict, list)) or id(node) in seen:
            continue
        seen.add(id(node))
        out.append((node, ancestors))
        kids = node.values() if isinstance(node, dict) else node
        stack.extend((kid, [*ancestors, id(node)]) for kid in kids)
    return out


MutationOp = tuple[str, int, int, Any]
mutation_ops: st.SearchStrategy[list[MutationOp]] = st.lists(
    st.tuples(
        st.sampled_from(
            ["delete", "replace", "duplicate", "rename", "cycle", "share", "empty", "swap_type"]
        ),
        st.integers(0, 10**6),
        st.integers(0, 10**6),
        json_values,
    ),
    min_size=1,
    max_size=6,
)


def mutate_json(doc: Any, ops: list[MutationOp], *, cycles: bool = True) -> Any:
    """A copy of ``doc`` with keys and items deleted, replaced, duplicated or renamed,
    containers emptied, and (with ``cycles``) a container put inside itself or shared."""
    doc = copy.deepcopy(doc)
    for op, where, which, value in ops:
        spots = _containers(doc)
        if not spots:
            return value if op == "replace" else doc
        node, ancestors = spots[where % len(spots)]
        keys: list[Any] = list(node) if isinstance(node, dict) else list(range(len(node)))
        key = keys[which % len(keys)] if keys else None
        if op == "delete" and key is not None:
            del node[key]
        elif op == "replace" and key is not None:
            node[key] = value
        elif op == "duplicate" and key is not None:
            if isinstance(node, list):
                node.insert(key, copy.deepcopy(node[key]))
            else:
                node[f"{key}"] = copy.deepcopy(node[key])
                node[f"{key}_"] = node[key]
        elif op == "rename" and key is not None and isinstance(node, dict):
            node[str(value)[:8] or "_"] = node.pop(key)
        elif op == "empty":
            node.clear()
        elif op == "swap_type" and key is not None:
            item = node[key]
            node[key] = (
                [item] if not isinstance(item, list) else {str(i): v for i, v in enumerate(item)}
            )
        elif op in ("cycle", "share") and cycles:
            by_id = {id(c): c for c, _ in spots}
            target = node
            if op == "cycle" and ancestors:
                target = by_id[ancestors[which % len(ancestors)]]
            elif op == "share":
                target = spots[which % len(spots)][0]
            if isinstance(node, list):
                node.append(target)
            else:
                node[f"k{which % 97}"] = target
    return doc


TextOp = tuple[str, int, int, str]
text_ops: st.SearchStrategy[list[TextOp]] = st.lists(
    st.tuples(
        st.sampled_from(["delete", "duplicate", "insert", "truncate", "swap_lines", "indent"]),
        st.integers(0, 10**7),
        st.integers(0, 400),
        st.one_of(st.sampled_from(PIECES), st.text(max_size=6), st.sampled_from(["\t", "   | "])),
    ),
    min_size=1,
    max_size=6,
)


def mutate_text(text: str, ops: list[TextOp]) -> str:
    """``text`` with spans deleted or repeated, pieces inserted, lines swapped or re-indented,
    or cut short."""
    for op, where, length, piece in ops:
        if not text:
            return piece
        at = where % len(text)
        if op == "delete":
            text = text[:at] + text[at + length :]
        elif op == "duplicate":
            text = text[: at + length] + text[at : at + length] + text[at + length :]
        elif op == "insert":
            text = text[:at] + piece + text[at:]
        elif op == "truncate":
            text = text[:at]
        else:
            lines = text.split("\n")
            i, j = where % len(lines), (where + length) % len(lines)
            if op == "swap_lines":
                lines[i], lines[j] = lines[j], lines[i]
            else:
                lines[i] = piece * (length % 7) + lines[i]
            text = "\n".join(lines)
    return text


def mutate_bytes(data: bytes, ops: list[tuple[int, int, int]]) -> bytes:
    """``data`` with bytes flipped (``kind`` 0), spans deleted (1) or repeated (2), or cut (3)."""
    buf = bytearray(data)
    for kind, where, value in ops:
        if not buf:
            break
        at = where % len(buf)
        if kind == 0:
            buf[at] = value % 256
        elif kind == 1:
            del buf[at : at + value % 64 + 1]
        elif kind == 2:
            buf[at:at] = buf[at : at + value % 64 + 1]
        else:
            del buf[at:]
    return bytes(buf)


byte_ops: st.SearchStrategy[list[tuple[int, int, int]]] = st.lists(
    st.tuples(st.integers(0, 3), st.integers(0, 10**7), st.integers(0, 255)), min_size=1, max_size=8
)

# -- fixtures ------------------------------------------------------------------------------

_FORMAT_FILES: Final[dict[str, tuple[str, ...]]] = {
    "aria_snapshot": ("formats/aria_snapshot/invoice.aria.yml",),
    "atspi": ("formats/atspi/invoice.xml",),
    "ax": ("formats/ax/invoice_window_state.json",),
    "browsergym": ("formats/browsergym/invoice.json",),
    "droidbot": ("formats/droidbot/invoice.json",),
    "osworld_table": ("formats/osworld_table/invoice.tsv",),
    "pywinauto": ("formats/pywinauto/invoice.txt",),
    "uia": ("formats/uia/invoice.json",),
    "uiautomator": ("formats/uiautomator/invoice.xml",),
    "webarena": ("formats/webarena/invoice.json",),
    "cdp": ("captured/login/axtree.json", "captured/hidden/axtree.json"),
    "nested": ("captured/login/chromium_dom.json",),
}
_INLINE_SAMPLES: Final[dict[str, Any]] = {
    "playwright": {
        "role": "WebArea",
        "name": "Form",
        "children": [
            {"role": "textbox", "name": "Email", "value": "a@b.c", "focused": True},
            {"role": "checkbox", "name": "Remember", "checked": False, "disabled": True},
            {"role": "button", "name": "Sign in"},
            {"role": "group", "name": "More", "children": [{"role": "link", "name": "OK"}]},
        ],
    },
    "snapshot": {
        "snapshot_version": 1,
        "ax_tree": {
            "root_id": "n1",
            "nodes": [
                {"node_id": "n1", "role": "window", "name": "App", "children": ["n2", "n3"]},
                {
                    "node_id": "n2",
                    "role": "button",
                    "name": "OK",
                    "properties": {
                        "disabled": False,
                        "bbox": [1, 2, 30, 20],
                        "automation_id": "ok",
                    },
                },
                {
                    "node_id": "n3",
                    "role": "textbox",
                    "name": "Query",
                    "value": "abc",
                    "properties": [{"name": "focused", "value": True}],
                    "bbox": [0, 30, 90, 50],
                    "children": [{"role": "StaticText", "name": "Query"}],
                },
            ],
        },
        "viewport": {"width": 1280, "height": 720},
    },
}


@functools.cache
def fixture_samples(fmt: str) -> tuple[Any, ...]:
    """Real inputs of ``fmt``: parsed JSON documents, or text."""
    if fmt in _INLINE_SAMPLES:
        return (_INLINE_SAMPLES[fmt],)
    out: list[Any] = []
    for rel in _FORMAT_FILES.get(fmt, ()):
        text = (FIXTURES / rel).read_text(encoding="utf-8")
        out.append(json.loads(text) if rel.endswith(".json") else text)
    return tuple(out)


@functools.cache
def fixture_bytes(pattern: str) -> tuple[bytes, ...]:
    """The bytes of every fixture file matching ``pattern`` (sorted by name)."""
    return tuple(p.read_bytes() for p in sorted(FIXTURES.glob(pattern)))


# -- accessibility trees, format by format -----------------------------------------------

ids = st.one_of(
    st.sampled_from(["1", "2", "3", "n1", "root", ""]), st.integers(-2, 6), json_scalars
)
flags = st.one_of(st.booleans(), st.sampled_from(["true", "false", "", 1, 0, None, "True"]))


def _pick(values: Any) -> st.SearchStrategy[Any]:
    """One of ``values`` (large ones, drawn by index so that no repr of them is built)."""
    items = tuple(values)

    def item(index: int) -> Any:
        return items[index]

    return st.integers(0, len(items) - 1).map(item)


def _maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly ``strategy``, sometimes any JSON value in its place."""
    return st.one_of(strategy, strategy, strategy, json_values)


def _nested(
    fields: dict[str, st.SearchStrategy[Any]], children_key: str, *, leaves: int = 30
) -> st.SearchStrategy[Any]:
    node = st.fixed_dictionaries({}, optional={k: _maybe(v) for k, v in fields.items()})
    return st.recursive(
        node,
        lambda inner: st.tuples(node, st.lists(inner, max_size=5)).map(
            lambda p: {**p[0], children_key: p[1]}
        ),
        max_leaves=leaves,
    )


_name = names()
_role = st.sampled_from(ROLES)


def _xywh() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.fixed_dictionaries(
            {
                "x": st.integers(-10, 3000),
                "y": st.integers(-10, 3000),
                "w": st.integers(-10, 800),
                "h": st.integers(-10, 800),
            }
        ),
        st.fixed_dictionaries({}, optional={k: st.sampled_from(_NUMS) for k in "xywh"}),
        bboxes(),
    )


def _cdp_node(extra: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    value = st.fixed_dictionaries(
        {"type": st.sampled_from(["role", "computedString"])},
        optional={"value": st.one_of(_name, _role)},
    )
    prop = st.fixed_dictionaries(
        {"name": st.sampled_from(["disabled", "focused", "hidden", "url", "checked", "x"])},
        optional={"value": st.fixed_dictionaries({"value": json_scalars})},
    )
    fields = {
        "nodeId": ids,
        "role": value,
        "name": value,
        "value": value,
        "childIds": st.lists(ids, max_size=4),
        "parentId": ids,
        "ignored": flags,
        "backendDOMNodeId": st.integers(-1, 10**12),
        "properties": st.lists(prop, max_size=3),
        "bbox": bboxes(),
        **extra,
    }
    return st.fixed_dictionaries({}, optional={k: _maybe(v) for k, v in fields.items()})


def _text_tree(
    line: Callable[[int, Any], str], item: st.SearchStrategy[Any]
) -> st.SearchStrategy[str]:
    """Lines of an indented text tree: each item draws a depth step and its fields."""

    def render(items: list[tuple[int, Any]]) -> str:
        depth, lines = 0, []
        for step, fields in items:
            depth = max(0, depth + step)
            lines.append(line(depth, fields))
        return "\n".join(lines)

    return st.lists(st.tuples(st.integers(-2, 1), item), max_size=25).map(render)


def _quote(value: Any) -> str:
    return repr(value) if isinstance(value, str) else str(value)


def _xml_attr(value: Any) -> str:
    text = str(value)
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def _xml_tree(
    tag: st.SearchStrategy[str], attrs: st.SearchStrategy[dict[str, Any]]
) -> st.SearchStrategy[str]:
    def render(items: list[tuple[int, str, dict[str, Any]]]) -> str:
        out: list[str] = []
        open_tags: list[str] = []
        depth = 0
        for step, name, attributes in items:
            while depth > max(0, depth + step) and open_tags:
                out.append(f"</{open_tags.pop()}>")
                depth -= 1
            text = " ".join(f'{k}="{_xml_attr(v)}"' for k, v in attributes.items())
            out.append(f"<{name} {text}>")
            open_tags.append(name)
            depth += 1
        out.extend(f"</{t}>" for t in reversed(open_tags))
        return "".join(out)

    return st.lists(st.tuples(st.integers(-2, 1), tag, attrs), max_size=25).map(render)


_ATSPI_NS = (
    'xmlns:st="https://accessibility.ubuntu.example.org/ns/state" '
    'xmlns:attr="https://accessibility.ubuntu.example.org/ns/attributes" '
    'xmlns:cp="https://accessibility.ubuntu.example.org/ns/component"'
)
_pair_text = st.one_of(
    st.tuples(st.integers(-100, 3000), st.integers(-100, 3000)).map(lambda p: f"({p[0]}, {p[1]})"),
    st.sampled_from(["(nan, 1)", "(1e999, 2)", "(", "()", "(1,)", "[3, 4]", "", "(-0, -0)"]),
    _name,
)


def _android_bounds() -> st.SearchStrategy[str]:
    n = st.integers(-100, 3000)
    return st.one_of(
        st.tuples(n, n, n, n).map(lambda b: f"[{b[0]},{b[1]}][{b[2]},{b[3]}]"),
        st.sampled_from(
            ["", "[0,0]", "[a,b][c,d]", "[1e9,1][2,2]", "[0,0][99999999999999999999,1]"]
        ),
    )


def synthetic_trees(fmt: str) -> st.SearchStrategy[Any]:
    """Trees of ``fmt``'s shape built from random nodes (JSON values or text)."""
    common = {"name": _name, "bbox": bboxes()}
    if fmt == "nested":
        return _nested(
            {
                "id": ids,
                "role": _role,
                **common,
                "value": _name,
                "enabled": flags,
                "disabled": flags,
                "focused": flags,
                "hidden": flags,
                "visible": flags,
                "automation_id": _name,
                "tag": _name,
                "dom_id": _name,
                "xpath": _name,
                "attributes": st.dictionaries(
                    st.sampled_from(["class", "href", "name", "x"]), _name
                ),
            },
            "children",
        ).map(
            lambda t: (
                t
                if isinstance(t, dict) and "role" in t
                else {"role": "group", "id": "r", "children": [t]}
            )
        )
    if fmt == "playwright":
        return _nested(
            {
                "role": _role,
                "name": _name,
                "value": _name,
                "disabled": flags,
                "focused": flags,
                "checked": st.one_of(flags, st.just("mixed")),
                "pressed": flags,
                "expanded": flags,
            },
            "children",
        ).map(lambda t: {"role": "WebArea", "name": "Page", "children": [t]})
    if fmt == "ax":
        tree = _nested(
            {
                "AXRole": st.one_of(_role, st.sampled_from(["AXButton", "AXGroup", "AXRow"])),
                "AXSubrole": st.sampled_from(["AXTextField", "AXOutlineRow", "", "AXUnknown"]),
                "AXRoleDescription": _name,
                "AXTitle": _name,
                "AXDescription": _name,
                "AXValue": json_scalars,
                "AXIdentifier": _name,
                "AXEnabled": flags,
                "AXFocused": flags,
                "AXFrame": _xywh(),
                "AXPosition": _xywh(),
                "AXSize": _xywh(),
            },
            "AXChildren",
        )
        window = st.fixed_dictionaries(
            {
                "title": _name,
                "left": json_scalars,
                "top": json_scalars,
                "width": json_scalars,
                "height": json_scalars,
                "meta": st.just({"k": 1}),
                "data": tree,
            }
        )
        return st.one_of(tree, window)
    if fmt == "uia":
        rect = st.one_of(
            st.fixed_dictionaries(
                {k: st.integers(-10, 3000) for k in ("left", "top", "right", "bottom")}
            ),
            bboxes(),
            st.sampled_from(["(1,2,3,4)", "(0,0,0,0)", "(a,b)", ""]),
        )
        control = st.one_of(
            st.integers(49990, 50050),
            st.sampled_from(
                ["ButtonControl", "Button", "Bogus", "WindowControl", "Dialog", "PaneControl"]
            ),
        )
        window_class = st.one_of(_name, st.sampled_from(["#32770", "Notepad"]))
        uiautomation = _nested(
            {
                "Name": _name,
                "ControlType": control,
                "ControlTypeName": control,
                "AutomationId": _name,
                "ClassName": window_class,
                "IsDialog": json_scalars,
                "IsModal": json_scalars,
                "LocalizedControlType": st.one_of(json_scalars, st.just("dialog")),
                "BoundingRectangle": rect,
                "IsEnabled": flags,
                "HasKeyboardFocus": flags,
                "IsOffscreen": flags,
                "RuntimeId": st.one_of(st.lists(st.integers(-1, 2**40), max_size=4), _name),
                "Depth": st.integers(-1, 10),
            },
            "Children",
        )
        pywinauto = _nested(
            {
                "class_name": window_class,
                "friendly_class_name": st.one_of(_name, st.just("Dialog")),
                "texts": st.lists(_name, max_size=3),
                "control_type": st.one_of(_name, st.just("Window")),
                "automation_id": _name,
                "rectangle": rect,
                "is_visible": flags,
                "is_enabled": flags,
            },
            "children",
        ).map(lambda t: {"title": "W", "left": 0, "top": 0, "width": 9, "height": 9, "data": t})
        return st.one_of(uiautomation, pywinauto)
    if fmt == "cdp":
        nodes = st.lists(_cdp_node({}), max_size=20)
        return st.one_of(nodes, nodes.map(lambda n: {"nodes": n}))
    if fmt == "browsergym":
        bid = st.one_of(st.sampled_from(["a1", "a2", "12", ""]), json_scalars)
        nodes = st.lists(_cdp_node({"browsergym_id": bid}), max_size=15)
        extra = st.dictionaries(
            st.sampled_from(["a1", "a2", "12", "x"]),
            st.fixed_dictionaries(
                {},
                optional={
                    "visibility": st.one_of(st.floats(allow_nan=True), json_scalars),
                    "bbox": st.one_of(bboxes(), st.none()),
                    "clickable": flags,
                    "set_of_marks": flags,
                },
            ),
            max_size=4,
        )
        obj = st.fixed_dictionaries(
            {"axtree_object": st.one_of(nodes.map(lambda n: {"nodes": n}), json_values)},
            optional={"extra_element_properties": extra, "focused_element_bid": bid},
        )

        def bg_line(depth: int, f: tuple[str, str, str, str]) -> str:
            return "\t" * depth + f"[{f[0]}] {f[1]} {_quote(f[2])}{f[3]}"

        tail = st.sampled_from(
            [
                "",
                ", visible",
                ", clickable, visible",
                ', box="(1,2,3,4)"',
                ", disabled=True",
                ", value='x'",
                ', box="(nan,1,2)"',
                ",",
            ]
        )
        text = _text_tree(bg_line, st.tuples(bid.map(str), _role, _name, tail))
        return st.one_of(
            obj,
            text,
            st.tuples(text, extra).map(
                lambda p: {"axtree_txt": p[0], "extra_element_properties": p[1]}
            ),
        )
    if fmt == "webarena":

        def wa_line(depth: int, f: tuple[str, str, str, str]) -> str:
            return "\t" * depth + f"[{f[0]}] {f[1]} {_quote(f[2])}{f[3]}"

        props = st.sampled_from(
            [
                "",
                " focused: True",
                " disabled: True",
                " required: False",
                " url: http://x",
                " checked: mixed",
                " :",
                " x:",
            ]
        )
        tree = _text_tree(wa_line, st.tuples(st.integers(-1, 99).map(str), _role, _name, props))
        som = st.lists(st.tuples(st.integers(-1, 99), _role, _name), max_size=20).map(
            lambda rows: "\n".join(f"[{i}] [{r}] [{n}]" for i, r, n in rows)
        )
        header = st.sampled_from(["", "Tab 0 (current): Page\n\n"])
        text = st.tuples(header, st.one_of(tree, som)).map("".join)
        return st.one_of(
            text, st.tuples(text, json_values).map(lambda p: {"text": p[0], "obs_nodes_info": p[1]})
        )
    if fmt == "snapshot":
        node = st.fixed_dictionaries(
            {"node_id": ids},
            optional={
                "role": _maybe(_role),
                "name": _maybe(_name),
                "value": _maybe(_name),
                "properties": _maybe(
                    st.one_of(
                        st.fixed_dictionaries(
                            {},
                            optional={
                                "disabled": flags,
                                "bbox": bboxes(),
                                "automation_id": _name,
                                "xpath": _name,
                            },
                        ),
                        st.lists(
                            st.fixed_dictionaries({"name": _name, "value": json_scalars}),
                            max_size=3,
                        ),
                    )
                ),
                "children": _maybe(st.lists(ids, max_size=4)),
                "bbox": bboxes(),
                "state": _maybe(st.fixed_dictionaries({}, optional={"hidden": flags})),
                "domRef": _name,
            },
        )
        nodes = st.one_of(
            st.lists(node, max_size=15),
            st.dictionaries(st.sampled_from(["1", "2", "3", "n1", "root"]), node, max_size=6),
        )
        tree = st.fixed_dictionaries({"nodes": nodes}, optional={"root_id": ids})
        return st.one_of(
            st.fixed_dictionaries(
                {"ax_tree": tree},
                optional={
                    "snapshot_version": json_scalars,
                    "viewport": json_values,
                    "coord_space": st.one_of(st.just("css_px"), json_scalars),
                },
            ),
            tree.map(lambda t: {"axtree_v1": t}),
            tree.map(lambda t: {"format": "axtree_v1", **t}),
        )
    if fmt == "droidbot":
        n = st.integers(-100, 3000)
        bounds = st.one_of(
            st.tuples(n, n, n, n).map(lambda b: [[b[0], b[1]], [b[2], b[3]]]),
            bboxes(),
            st.just([[0, 0]]),
        )
        view = st.fixed_dictionaries(
            {"temp_id": st.integers(-2, 20)},
            optional={
                k: _maybe(v)
                for k, v in {
                    "parent": st.integers(-2, 20),
                    "children": st.lists(st.integers(-2, 20), max_size=4),
                    "class": st.sampled_from(
                        [
                            "android.widget.Button",
                            "android.view.View",
                            "android.widget.TextView",
                            "",
                        ]
                    ),
                    "resource_id": _name,
                    "text": _name,
                    "content_description": _name,
                    "visible": flags,
                    "enabled": flags,
                    "clickable": flags,
                    "checkable": flags,
                    "editable": flags,
                    "focused": flags,
                    "bounds": bounds,
                }.items()
            },
        )
        return st.fixed_dictionaries(
            {"views": st.lists(view, max_size=20)},
            optional={"foreground_activity": json_scalars},
        )
    if fmt == "atspi":
        tag = st.sampled_from(
            [
                "push-button",
                "frame",
                "label",
                "text",
                "page-tab",
                "application",
                "panel",
                "table-cell",
                "x",
            ]
        )
        attrs = st.fixed_dictionaries(
            {},
            optional={
                "name": _name,
                "st:enabled": flags,
                "st:sensitive": flags,
                "st:showing": flags,
                "cp:screencoord": _pair_text,
                "cp:size": _pair_text,
                "attr:id": _name,
                "attr:class": _name,
            },
        )
        body = _xml_tree(tag, attrs)
        return body.map(lambda b: f"<desktop-frame {_ATSPI_NS}>{b}</desktop-frame>")
    if fmt == "uiautomator":
        tag = st.sampled_from(["node", "node", "node", "hierarchy"])
        attrs = st.fixed_dictionaries(
            {},
            optional={
                "index": st.integers(-1, 9),
                "text": _name,
                "resource-id": _name,
                "class": st.sampled_from(["android.widget.Button", "android.view.View", ""]),
                "content-desc": _name,
                "clickable": flags,
                "enabled": flags,
                "checkable": flags,
                "focused": flags,
                "bounds": _android_bounds(),
            },
        )
        body = _xml_tree(tag, attrs)
        return body.map(lambda b: f"<?xml version='1.0'?><hierarchy rotation=\"0\">{b}</hierarchy>")
    if fmt == "osworld_table":
        cell = st.one_of(_name, _pair_text).map(lambda s: str(s).replace("\n", " "))
        marks = st.booleans()

        def table(p: tuple[bool, list[list[str]]]) -> str:
            header = (["index"] if p[0] else []) + [
                "tag",
                "name",
                "text",
                "class",
                "description",
                "position (top-left x&y)",
                "size (w&h)",
            ]
            return "\n".join("\t".join(r) for r in [header, *p[1]])

        return st.tuples(marks, st.lists(st.lists(cell, max_size=9), max_size=15)).map(table)
    if fmt == "pywinauto":

        def pw_line(depth: int, f: tuple[str, str, Any, str]) -> str:
            pad = "   | " * depth
            box = (
                "(L{}, T{}, R{}, B{})".format(*(list(f[2]) + [0] * 4)[:4])
                if isinstance(f[2], list)
                else str(f[2])
            )
            return (
                f"{pad}\n{pad}{f[0]} - {_quote(f[1])}    {box}\n{pad}['{f[1]}{f[0]}']\n"
                f"{pad}child_window(title={json.dumps(f[1])}, {f[3]})"
            )

        spec = st.sampled_from(
            [
                'control_type="Button"',
                'auto_id="1", control_type="Edit"',
                'class_name="#32770"',
                "",
                'title="\\"x',
            ]
        )
        item = st.tuples(
            st.sampled_from(["Button", "Dialog", "Edit", "Static", ""]),
            _name,
            st.one_of(st.lists(st.integers(-10, 3000), max_size=5), _name),
            spec,
        )
        return _text_tree(pw_line, item).map(lambda t: "Control Identifiers:\n\n" + t)
    if fmt == "aria_snapshot":

        def aria_line(depth: int, f: tuple[str, str, str, str]) -> str:
            return "  " * depth + f"- {f[0]} {json.dumps(f[1])}{f[2]}{f[3]}"

        attr = st.sampled_from(
            ["", " [ref=e1]", " [disabled]", " [active]", " [level=2]", " [", " [ref=]"]
        )
        tail = st.sampled_from(["", ":", ": inline text", ": |", ":\n  - /url: /x", ": 'q'"])
        text = _text_tree(aria_line, st.tuples(_role, _name, attr, tail))
        return st.one_of(text, text.map(lambda t: f"# Page\n```yaml\n{t}\n```\n"))
    raise ValueError(f"no generator for format {fmt!r}")


def _deep_json_text(fmt: str, depth: int) -> str | None:
    key = {"nested": "children", "playwright": "children", "ax": "AXChildren", "uia": "Children"}
    if fmt not in key:
        return None
    head = {
        "nested": '{"id":"x","role":"group","children":[',
        "playwright": '{"role":"group","children":[',
        "ax": '{"AXRole":"AXGroup","AXChildren":[',
        "uia": '{"ControlType":"GroupControl","Children":[',
    }[fmt]
    return head * depth + '{"role":"button","name":"OK"}' + "]}" * depth


def deep_tree(fmt: str, depth: int) -> Any:
    """A chain ``depth`` nodes deep in ``fmt``'s shape (a few thousand levels)."""
    if fmt in ("nested", "playwright", "ax", "uia"):
        key = {"ax": "AXChildren", "uia": "Children"}.get(fmt, "children")
        leaf: dict[str, Any] = {"role": "button", "name": "OK", "id": "leaf"}
        node = leaf
        for i in range(depth):
            node = {"id": str(i), "role": "group", "AXRole": "AXGroup", key: [node]}
        return node if fmt != "playwright" else {"role": "WebArea", "children": [node]}
    if fmt in ("cdp", "browsergym"):
        nodes = [
            {
                "nodeId": str(i),
                "role": {"value": "group"},
                "childIds": [str(i + 1)],
                "browsergym_id": str(i),
            }
            for i in range(depth)
        ]
        nodes.append({"nodeId": str(depth), "role": {"value": "button"}, "name": {"value": "OK"}})
        return {"nodes": nodes} if fmt == "cdp" else {"axtree_object": {"nodes": nodes}}
    if fmt == "snapshot":
        flat = [
            {"node_id": str(i), "role": "group", "children": [str(i + 1)]} for i in range(depth)
        ]
        flat.append({"node_id": str(depth), "role": "button", "name": "OK"})
        return {"snapshot_version": 1, "ax_tree": {"root_id": "0", "nodes": flat}}
    if fmt == "droidbot":
        views = [
            {
                "temp_id": i,
                "parent": i - 1,
                "children": [i + 1],
                "class": "android.view.View",
                "bounds": [[0, 0], [10, 10]],
            }
            for i in range(depth)
        ]
        return {"views": views}
    if fmt in ("atspi", "uiautomator"):
        tag, root = (
            ("panel", f"<desktop-frame {_ATSPI_NS}>") if fmt == "atspi" else ("node", "<hierarchy>")
        )
        close = "</desktop-frame>" if fmt == "atspi" else "</hierarchy>"
        return root + f'<{tag} name="g">' * depth + f"</{tag}>" * depth + close
    if fmt == "webarena":
        return "\n".join("\t" * i + f"[{i}] group 'g{i}'" for i in range(depth))
    if fmt == "browsergym_text":
        return "\n".join("\t" * i + f"[a{i}] group 'g{i}'" for i in range(depth))
    if fmt == "pywinauto":
        return "Control Identifiers:\n\n" + "\n".join(
            "   | " * i + f"Pane - 'p{i}'    (L0, T0, R10, B10)" for i in range(depth)
        )
    if fmt == "aria_snapshot":
        return "\n".join("  " * i + f'- group "g{i}":' for i in range(depth))
    if fmt == "osworld_table":
        head = "tag\tname\ttext\tclass\tdescription\tposition (top-left x&y)\tsize (w&h)\n"
        return head + "\n".join(f"push-button\tb{i}\t\t\t\t({i}, 0)\t(5, 5)" for i in range(depth))
    return None


def _serialize(tree: Any, how: int, cut: int) -> Any:
    """``tree`` as is (0), as JSON text (1), as UTF-8 bytes (2), or as cut JSON text (3)."""
    if how == 0 or not isinstance(tree, (dict, list)):
        if how >= 2 and isinstance(tree, str):
            return tree.encode("utf-8", "surrogatepass")[: None if how == 2 else cut]
        return tree
    try:
        text = json.dumps(tree)
    except (ValueError, RecursionError):
        return tree  # cyclic or too deep to write: given as the object itself
    if how == 1:
        return text
    if how == 2:
        return text.encode("utf-8", "surrogatepass")
    return text[: cut % (len(text) + 1)]


@dataclass(frozen=True)
class TreeCase:
    """An accessibility-tree input and the format the observation is told, if any."""

    tree: Any
    tree_format: str | None
    options: dict[str, Any]


observation_options: st.SearchStrategy[dict[str, Any]] = st.one_of(
    st.just({}),
    st.just({}),
    st.fixed_dictionaries(
        {},
        optional={
            "screen_size": st.one_of(
                st.tuples(st.integers(1, 4000), st.integers(1, 4000)), st.lists(json_scalars)
            ),
            "max_nodes": st.integers(-1, 50),
            "url": st.one_of(st.just("https://example.org/x"), json_scalars),
        },
    ),
)


def a11y_trees(fmt: str, *, deep_max: int = 3000) -> st.SearchStrategy[TreeCase]:
    """Inputs of ``fmt``'s shape: synthetic trees, mutated fixtures, deep chains, cycles and
    shared subtrees, as objects, JSON text, bytes or cut text; told the format or not."""
    samples = fixture_samples(fmt)
    synthetic = synthetic_trees(fmt)
    parts: list[st.SearchStrategy[Any]] = [synthetic, synthetic]
    parts.append(st.tuples(synthetic, mutation_ops).map(lambda p: mutate_json(p[0], p[1])))
    if samples:
        sample = _pick(samples)
        parts.append(sample)
        parts.append(
            st.tuples(sample, mutation_ops, text_ops).map(
                lambda p: (
                    mutate_json(p[0], p[1])
                    if not isinstance(p[0], str)
                    else mutate_text(p[0], p[2])
                )
            )
        )
        parts.append(
            st.tuples(sample, text_ops).map(
                lambda p: mutate_text(p[0] if isinstance(p[0], str) else json.dumps(p[0]), p[1])
            )
        )
    deep_fmt = "browsergym_text" if fmt == "browsergym" else fmt
    parts.append(st.integers(100, max(deep_max, 101)).map(lambda d: deep_tree(deep_fmt, d)))
    if fmt in ("nested", "playwright", "ax", "uia"):
        parts.append(st.integers(100, max(deep_max, 101)).map(lambda d: _deep_json_text(fmt, d)))
    trees = st.one_of(*parts)
    told = st.one_of(st.none(), st.none(), st.just(fmt), st.sampled_from(FORMATS))
    serialized = st.tuples(trees, st.integers(0, 3), st.integers(0, 10**6)).map(
        lambda p: _serialize(p[0], p[1], p[2])
    )
    return st.builds(TreeCase, serialized, told, observation_options)


# -- a CDP tree linked to its page (dom_node_map, dom_html) --------------------------------


@dataclass(frozen=True)
class LinkedCase:
    """A CDP tree with the page it came from: a ``backendDOMNodeId -> xpath`` map or a
    ``DOM.getDocument`` result (cut, cyclic, shared, deep or of any JSON), and its HTML."""

    tree: Any
    node_map: Any
    html: Any


LINKED_TREE: Final[dict[str, Any]] = {"nodes": [
    {"nodeId": "1", "role": {"value": "RootWebArea"}, "name": {"value": "Page"},
     "childIds": ["2", "3"], "backendDOMNodeId": 1},
    {"nodeId": "2", "parentId": "1", "role": {"value": "button"}, "name": {"value": "OK"},
     "backendDOMNodeId": 5},
    {"nodeId": "3", "parentId": "1", "role": {"value": "link"}, "name": {"value": "OK"},
     "backendDOMNodeId": 6},
]}  # fmt: skip
"""Two namesakes a web reference tells apart only by what the page says of them."""

_dom_node = st.fixed_dictionaries(
    {},
    optional={
        "nodeType": _maybe(st.sampled_from([1, 1, 1, 3, 9, 11])),
        "localName": _maybe(st.sampled_from(["html", "body", "button", "a", "div", ""])),
        "nodeName": _maybe(st.sampled_from(["HTML", "BUTTON", "#text"])),
        "backendNodeId": _maybe(st.integers(0, 8)),
        "attributes": _maybe(
            st.lists(st.one_of(st.sampled_from(["class", "b", "href", "/x", "id"]), json_scalars),
                     max_size=6)
        ),
    },
)  # fmt: skip


def _document_nodes() -> st.SearchStrategy[Any]:
    return st.recursive(
        _dom_node,
        lambda inner: st.tuples(_dom_node, st.lists(inner, max_size=4)).map(
            lambda p: {**p[0], "children": p[1]}
        ),
        max_leaves=25,
    )


def _wired(root: Any, how: int) -> Any:
    """``root`` made into no tree: a node listed under its own descendant (1) or under two
    parents (2); as it is otherwise."""
    if how == 0 or not isinstance(root, dict):
        return root
    nodes, stack = [], [root]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            nodes.append(node)
            kids = node.get("children")
            stack.extend(kids if isinstance(kids, list) else [])
    last = nodes[-1]
    kids = last.get("children") if isinstance(last.get("children"), list) else []
    last["children"] = [*kids, root if how == 1 else nodes[len(nodes) // 2]]
    if how == 2:
        root.setdefault("children", [])
        if isinstance(root["children"], list):
            root["children"].append(nodes[len(nodes) // 2])
    return root


def _deep_document(depth: int) -> dict[str, Any]:
    node: dict[str, Any] = {"nodeType": 1, "localName": "div", "backendNodeId": depth}
    for level in range(depth - 1, 0, -1):
        node = {"nodeType": 1, "localName": "div", "backendNodeId": level, "children": [node]}
    return {"root": node}


def linked_inputs() -> st.SearchStrategy[LinkedCase]:
    """Linked CDP observations: the tree above (or any CDP-shaped tree) with a map of any
    shape and a page of any text."""
    documents = st.one_of(
        st.tuples(_document_nodes(), st.integers(0, 2)).map(lambda p: {"root": _wired(*p)}),
        st.integers(100, 6000).map(_deep_document),
        json_values,
    )
    flat = st.dictionaries(
        st.one_of(st.sampled_from(["1", "5", "6"]), json_scalars),
        st.one_of(st.sampled_from(["/html[1]/body[1]/button[1]", "/html[1]/body[1]/a[1]"]),
                  json_values),
        max_size=6,
    )  # fmt: skip
    html = st.one_of(
        st.just('<html><body><button class="a">OK</button><a class="b" href="/x">OK</a>'),
        st.text(max_size=200),
        json_scalars,
    )
    trees = st.one_of(st.just(LINKED_TREE), synthetic_trees("cdp"))
    return st.builds(LinkedCase, trees, st.one_of(documents, flat, json_values), html)


# -- DOM -----------------------------------------------------------------------------------

_TAGS: Final[tuple[str, ...]] = (
    "button",
    "input",
    "a",
    "label",
    "div",
    "span",
    "svg",
    "template",
    "noscript",
    "script",
    "style",
    "table",
    "tr",
    "td",
    "select",
    "option",
    "iframe",
    "math",
    "x-custom",
    "form",
    "textarea",
    "img",
    "details",
    "summary",
    "dialog",
    "slot",
    "frameset",
    "b",
    "p",
    "li",
)
_ATTRS: Final[tuple[str, ...]] = (
    "id",
    "class",
    "aria-label",
    "aria-labelledby",
    "aria-describedby",
    "aria-hidden",
    "hidden",
    "role",
    "style",
    "for",
    "type",
    "name",
    "value",
    "title",
    "alt",
    "placeholder",
    "tabindex",
    "data-testid",
    "href",
    "disabled",
    "inert",
    "popover",
    "contenteditable",
    "slot",
    "is",
)
_ATTR_VALUES: Final[tuple[str, ...]] = (
    "ok",
    "a b",
    "a a a",
    "display:none",
    "visibility:hidden",
    "position:absolute;left:-1e309px",
    "width:calc(",
    "font-size:nan",
    "opacity:0",
    "display:contents",
    "clip:rect(0 0 0 0)",
    "transform:scale(0)",
    "button",
    "none",
    "presentation",
    "hidden",
    "-1",
    "99999999999999999999",
    "javascript:alert(1)",
    "#",
    "",
    "true",
    "&quot;",
    "\u202eevil",
    "content:'\\'",
)
_TOKENS: Final[tuple[str, ...]] = (
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "<!DOCTYPE html>",
    "&amp;",
    "&#0;",
    "&#x110000;",
    "&bogus;",
    "&#99999999999;",
    "</",
    "<",
    ">",
    '"',
    "'",
    "=",
    "<br/>",
    "<?xml ?>",
    "<meta charset=bogus>",
    "<base href='x:'>",
    "<style>*{display:none}</style>",
    "<style>@media (x){button{display:none}}</style>",
    "<style>button{content:",
    '<style>@import "http://x";</style>',
    "<body>",
    "</html>",
    "<html>",
    "\x00",
)


def _html_token(p: tuple[int, str, list[tuple[str, str]], str]) -> str:
    kind, tag, attributes, text = p
    attrs = " ".join(f'{k}="{v}"' if i % 3 else f"{k}={v}" for i, (k, v) in enumerate(attributes))
    if kind == 0:
        return f"<{tag} {attrs}>"
    if kind == 1:
        return f"</{tag}>"
    if kind == 2:
        return text
    return f"<{tag} {attrs}>{text}</{tag}>"


html_soup: st.SearchStrategy[str] = st.lists(
    st.one_of(
        st.tuples(
            st.integers(0, 3),
            st.sampled_from(_TAGS),
            st.lists(
                st.tuples(
                    st.sampled_from(_ATTRS),
                    st.one_of(st.sampled_from(_ATTR_VALUES), _name, st.sampled_from(["l1", "l2"])),
                ),
                max_size=4,
            ),
            _name,
        ).map(_html_token),
        st.sampled_from(_TOKENS),
    ),
    max_size=40,
).map("".join)


def _deep_html(p: tuple[int, str]) -> str:
    depth, tag = p
    return f"<{tag}>" * depth + "<button>OK</button>" + f"</{tag}>" * depth


@dataclass(frozen=True)
class DomCase:
    """HTML for the DOM source, with optional layout boxes."""

    html: Any
    layout: Any
    scripting: bool


def dom_inputs(*, deep_max: int = 3000) -> st.SearchStrategy[DomCase]:
    """Malformed HTML: tag soup, mutated fixture pages, deep nesting, bytes in odd encodings."""
    pages = _pick(fixture_bytes("pages/*.html")).map(lambda b: b.decode("utf-8"))
    html = st.one_of(
        html_soup,
        html_soup,
        pages,
        st.tuples(pages, text_ops).map(lambda p: mutate_text(*p)),
        st.tuples(
            st.integers(100, max(deep_max, 101)),
            st.sampled_from(["div", "span", "b", "table", "a"]),
        ).map(_deep_html),
        st.text(max_size=200),
        st.binary(max_size=200),
        html_soup.map(lambda t: t.encode("utf-16", "surrogatepass")),
        html_soup.map(lambda t: b"\xef\xbb\xbf" + t.encode("utf-8", "surrogatepass")),
        st.tuples(pages, st.integers(0, 10**5)).map(lambda p: p[0][: p[1]].encode()),
        odd_values,
    )
    layout = st.one_of(
        st.none(),
        st.none(),
        st.dictionaries(
            st.sampled_from(["/html/body/button[1]", "/html[1]/body[1]/div[1]", "x", ""]),
            bboxes(),
            max_size=3,
        ),
        json_values,
    )
    return st.builds(DomCase, html, layout, st.booleans())


# -- screenshots ---------------------------------------------------------------------------


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def crafted_png(width: int, height: int, depth: int, color: int, body: bytes) -> bytes:
    """A PNG with a valid signature and CRCs whose header claims any size and format."""
    ihdr = struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", ihdr)
        + _png_chunk(b"IDAT", zlib.compress(body))
        + _png_chunk(b"IEND", b"")
    )


def _encoded(p: tuple[int, int, int, str, int]) -> bytes:
    import cv2

    height, width, channels, ext, seed = p
    rng = np.random.default_rng(seed)
    shape = (height, width) if channels == 1 else (height, width, channels)
    image = rng.integers(0, 256, size=shape, dtype=np.uint8)
    ok, data = cv2.imencode(ext, image)
    return data.tobytes() if ok else b""


def _array(p: tuple[tuple[int, ...], str, int]) -> Any:
    """An array of ``shape`` and ``dtype``: NaN where the type holds it, else ``fill``."""
    shape, dtype, fill = p
    value: float = fill % 256 if dtype == "uint8" else fill
    if dtype in ("float64", "object"):
        value = math.nan
    try:
        return np.full(shape, value, dtype=dtype)
    except (ValueError, TypeError, OverflowError):
        return np.zeros((1,), dtype=np.uint8)


def screenshots() -> st.SearchStrategy[Any]:
    """Truncated and corrupt PNG/JPEG, crafted headers, random bytes, odd arrays."""
    images = fixture_bytes("vision/*/screenshot*.*")
    real = _pick(images)
    dims = st.integers(0, 2**31 - 1)
    return st.one_of(
        st.tuples(real, st.integers(0, 40000)).map(lambda p: p[0][: p[1]]),
        st.tuples(real, st.integers(0, 40000)).map(lambda p: p[0][: p[1]] + p[0][-12:]),
        st.tuples(real, byte_ops).map(lambda p: mutate_bytes(*p)),
        st.builds(
            _encoded,
            st.tuples(
                st.integers(1, 120),
                st.integers(1, 160),
                st.sampled_from([1, 3, 4]),
                st.sampled_from([".png", ".jpg"]),
                st.integers(0, 2**32),
            ),
        ).map(lambda p: p),
        st.builds(
            crafted_png,
            st.one_of(dims, st.integers(0, 64)),
            st.one_of(dims, st.integers(0, 64)),
            st.sampled_from([1, 2, 4, 8, 16, 3, 0, 255]),
            st.sampled_from([0, 2, 3, 4, 6, 1, 7]),
            st.binary(max_size=64),
        ),
        st.tuples(
            st.sampled_from([b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF89a", b""]),
            st.binary(max_size=300),
        ).map(lambda p: p[0] + p[1]),
        st.builds(
            _array,
            st.tuples(
                st.lists(st.integers(0, 40), min_size=0, max_size=4).map(tuple),
                st.sampled_from(["uint8", "float64", "int32", "bool", "uint16", "object"]),
                st.integers(0, 300),
            ),
        ),
        st.sampled_from(["no/such/file.png", str(FIXTURES), "", "\x00"]),
        odd_values,
    )


# -- recordings ----------------------------------------------------------------------------


def _small_trees() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.sampled_from([_INLINE_SAMPLES["snapshot"], _INLINE_SAMPLES["playwright"]]),
        synthetic_trees("snapshot"),
        synthetic_trees("nested"),
        json_values,
    )


def timeline_entries() -> st.SearchStrategy[dict[str, Any]]:
    ref = st.one_of(reference_dicts(odd=False), json_values)
    sid = st.one_of(st.sampled_from(["s1", "s2", ""]), json_scalars)
    action = st.fixed_dictionaries(
        {
            "type": st.one_of(
                st.sampled_from(["click", "type", "key", "scroll", "upload"]), json_scalars
            )
        },
        optional={
            "x": json_scalars,
            "y": json_scalars,
            "element": ref,
            "text": json_scalars,
            "key": json_scalars,
            "files": st.one_of(st.lists(st.one_of(st.text(max_size=8), json_scalars)), json_values),
        },
    )
    return st.one_of(
        st.fixed_dictionaries({"kind": st.just("navigation")}, optional={"url": json_scalars}),
        st.fixed_dictionaries(
            {"kind": st.just("ax_snapshot")},
            optional={
                "snapshot_id": sid,
                "snapshot": _small_trees(),
                "file": st.sampled_from(["snap.json", "missing.json", "..", "rec.json", ""]),
                "ax_tree": json_values,
            },
        ),
        st.fixed_dictionaries(
            {"kind": st.sampled_from(["decision", "human_action"])},
            optional={
                "step": json_scalars,
                "action": st.one_of(action, json_values),
                "target": ref,
                "target_node": json_values,
                "element": ref,
                "expected": st.one_of(
                    st.dictionaries(st.sampled_from(["s1", "s2", "x"]), json_scalars), json_values
                ),
                "key": json_scalars,
                "action_type": json_scalars,
            },
        ),
        st.fixed_dictionaries(
            {"kind": st.just("action_result")},
            optional={
                "step": json_scalars,
                "status": st.sampled_from(["ok", "error", None]),
                "executor_id": json_scalars,
            },
        ),
        st.dictionaries(st.text(max_size=6), json_values, max_size=3),
    )


@dataclass(frozen=True)
class RecordingCase:
    """A recording file (its name and bytes) and a snapshot file beside it."""

    name: str
    data: bytes
    beside: bytes


def _jsonl(lines: list[Any]) -> bytes:
    return "\n".join(_to_json(line) for line in lines).encode("utf-8", "surrogatepass")


def _dump(doc: Any) -> bytes:
    try:
        return json.dumps(doc).encode("utf-8", "surrogatepass")
    except (ValueError, RecursionError):
        return b"{"


def recordings() -> st.SearchStrategy[RecordingCase]:
    """Recording files: mutated fixtures, synthetic timelines and JSONL, broken bytes."""
    docs = [json.loads(b) for b in fixture_bytes("recordings/*.json")]
    lines = [b.decode("utf-8").splitlines() for b in fixture_bytes("recordings/*.jsonl")]
    doc = _pick(docs)
    jsonl = _pick(lines)
    header = st.fixed_dictionaries(
        {"recording_version": st.one_of(st.just(1), json_scalars)},
        optional={"kind": st.just("recording"), "mode": json_scalars},
    )
    timeline = st.lists(timeline_entries(), max_size=12)
    openadapt = st.lists(
        st.fixed_dictionaries(
            {"type": st.sampled_from(["click", "type", "key"])},
            optional={
                "x": json_scalars,
                "y": json_scalars,
                "element": reference_dicts(odd=False),
                "snapshot": _small_trees(),
                "target_node": json_scalars,
                "expected": json_values,
                "text": json_scalars,
            },
        ),
        max_size=8,
    )
    json_file = st.one_of(
        st.tuples(doc, mutation_ops).map(lambda p: _dump(mutate_json(p[0], p[1], cycles=False))),
        st.tuples(doc, text_ops).map(
            lambda p: mutate_text(json.dumps(p[0]), p[1]).encode("utf-8", "surrogatepass")
        ),
        st.tuples(header, timeline).map(lambda p: _dump({**p[0], "timeline": p[1]})),
        st.binary(max_size=100),
    )
    jsonl_file = st.one_of(
        st.tuples(jsonl, text_ops).map(
            lambda p: mutate_text("\n".join(p[0]), p[1]).encode("utf-8", "surrogatepass")
        ),
        st.tuples(header, timeline).map(lambda p: _jsonl([p[0], *p[1]])),
        timeline.map(_jsonl),
        openadapt.map(_jsonl),
        st.binary(max_size=100),
    )
    beside = st.one_of(
        st.just(_dump(_INLINE_SAMPLES["snapshot"])), json_values.map(_dump), st.binary(max_size=20)
    )
    return st.one_of(
        st.builds(RecordingCase, st.just("rec.json"), json_file, beside),
        st.builds(RecordingCase, st.just("rec.jsonl"), jsonl_file, beside),
    )


# -- snapshots -----------------------------------------------------------------------------


@functools.cache
def snapshot_documents() -> tuple[dict[str, Any], ...]:
    """SnapshotV1 documents the library writes for a few fixtures."""
    from resolver.snapshot import to_snapshot_v1

    out = []
    for fmt in ("cdp", "uia", "atspi", "droidbot", "aria_snapshot"):
        tree = fixture_samples(fmt)[0]
        out.append(to_snapshot_v1(Observation(accessibility_tree=tree), ts="2026-01-01T00:00:00Z"))
    page = fixture_bytes("pages/login.html")[0].decode("utf-8")
    out.append(to_snapshot_v1(Observation(dom_html=page), include_dom=True, ts="x"))
    return tuple(out)


def snapshots() -> st.SearchStrategy[Any]:
    """Broken SnapshotV1 documents: mutated real ones, synthetic ones, deep ones."""
    real = _pick(snapshot_documents())
    return st.one_of(
        real,
        st.tuples(real, mutation_ops).map(lambda p: mutate_json(p[0], p[1])),
        st.tuples(real, mutation_ops).map(lambda p: mutate_json(p[0], p[1], cycles=False)),
        synthetic_trees("snapshot"),
        st.tuples(synthetic_trees("snapshot"), mutation_ops).map(lambda p: mutate_json(*p)),
        st.integers(100, 3000).map(lambda d: deep_tree("snapshot", d)),
    )


# -- agent-kit actions ----------------------------------------------------------------------

_ACTION_NAMES: Final[tuple[str, ...]] = (
    "click", "type", "select", "press", "upload", "refresh_catalog", "scroll_to_text", "wait",
    "hover", "back", "forward", "reload", "scroll", "drag", "fly", "",
)  # fmt: skip
_ACTION_FIELDS: Final[tuple[str, ...]] = (
    "target", "text", "clear", "value", "label", "key", "files", "dialog", "dialog_text",
    "until", "ms", "selector", "direction", "pages", "to", "extra",
)  # fmt: skip
_PATHS: Final[st.SearchStrategy[Any]] = st.one_of(
    st.text(max_size=20),
    st.sampled_from([
        "a.txt", "sub/../a.txt", "./a.txt", "a\x00b", "x" * 5000, "/" + "a/" * 3000,
        "~no-such-user-x/a", "\udcff", "..", "../a.txt", "../../etc/passwd", "/etc/hostname",
        ".", "", "link.txt",
    ]),
)  # fmt: skip


def actions() -> st.SearchStrategy[Any]:
    """Agent-kit action dicts: every kind with fields right, wrong, of the wrong type and
    unknown; upload paths that leave their folder, name nothing, hold a NUL or are too long."""
    values = st.one_of(
        json_values, _PATHS, st.lists(_PATHS, max_size=25),
        st.sampled_from(["accept", "dismiss", "index=3", "css=#a", "text=OK", "text", "no_text"]),
    )  # fmt: skip
    fields = st.dictionaries(st.sampled_from(_ACTION_FIELDS), values, max_size=6)
    return st.one_of(
        st.tuples(st.sampled_from(_ACTION_NAMES), fields).map(lambda p: {"action": p[0], **p[1]}),
        odd_values,
    )


_UPLOAD_ROOT: list[Path] = []


def _upload_root() -> Path:
    """A folder with ``a.txt`` and a link out of it (made once per process)."""
    if not _UPLOAD_ROOT:
        root = Path(tempfile.mkdtemp(prefix="fuzz-uploads-"))
        (root / "a.txt").write_text("a")
        (root / "sub").mkdir()
        outside = root.parent / f"{root.name}-outside.txt"
        outside.write_text("outside")
        (root / "link.txt").symlink_to(outside)
        _UPLOAD_ROOT.append(root)
    return _UPLOAD_ROOT[0]


def run_action(case: Any) -> None:
    """An action dict is an action or a typed refusal; an upload's paths are files, each
    inside the upload folder when one is set, or a typed refusal."""
    from resolver.act.model import UploadAction, parse_action
    from resolver.act.uploads import upload_paths

    action = _call("parse_action", parse_action, case)
    if not isinstance(action, UploadAction):
        return
    root = _upload_root()
    inside = _call("upload_paths", upload_paths, action.files, allowed=True, root=root)
    for path in inside or ():
        if not Path(path).is_relative_to(root.resolve()):
            raise PropertyViolationError(f"an upload path left its folder: {path!r}", "Escape")
    _call("upload_paths", upload_paths, action.files, allowed=True, root=None)
    if _call("upload_paths", upload_paths, action.files, allowed=False, root=root) is not None:
        raise PropertyViolationError("uploads turned off took files", "UploadsOff")


# -- command line --------------------------------------------------------------------------


@dataclass(frozen=True)
class CliCase:
    """One ``resolver`` command line and the files it names (relative to a temporary
    folder, written before the run)."""

    args: tuple[str, ...]
    files: tuple[tuple[str, bytes], ...]


def _as_bytes(value: Any) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")
    return _dump(value)


def _argument(data: bytes) -> str:
    """``data`` as one command-line argument (which cannot hold a NUL character)."""
    return data.decode("utf-8", "replace").replace("\x00", "")


def cli_cases() -> st.SearchStrategy[CliCase]:
    """``resolve``, ``formats`` and ``replay`` on generated files with odd options."""
    tree = (
        st.sampled_from(FORMATS)
        .flatmap(lambda f: a11y_trees(f, deep_max=500))
        .map(lambda c: _as_bytes(c.tree))
    )
    ref = st.one_of(reference_dicts(odd=False).map(_dump), st.binary(max_size=30))
    limit = st.sampled_from(
        [
            "max_nodes=5",
            "max_nodes=-1",
            "bogus=1",
            "max_depth=x",
            "max_nodes",
            "=",
            "max_tree_bytes=10",
        ]
    )
    options = st.lists(
        st.one_of(
            st.just(("--json",)),
            st.tuples(
                st.just("--format"), st.one_of(st.sampled_from(FORMATS), st.text(max_size=5))
            ),
            st.tuples(
                st.just("--sources"), st.sampled_from(["a11y", "a11y,coords", "dom", "x", ""])
            ),
            st.tuples(
                st.just("--screen-size"),
                st.sampled_from(["1x1", "0x0", "nanxnan", "x", "9" * 30 + "x1"]),
            ),
            st.tuples(st.just("--limit"), limit),
            st.tuples(st.just("--threshold"), st.sampled_from(["0.5", "2", "nan", "-1"])),
            st.tuples(st.just("--coords"), st.sampled_from(["always", "never", "bad"])),
        ),
        max_size=3,
    ).map(lambda groups: tuple(a for g in groups for a in g))
    resolve_case = st.builds(
        lambda r, t, inline, opts, dom: CliCase(
            (
                "resolve",
                "--ref",
                _argument(r) if inline else "ref.json",
                "--tree",
                "tree.json",
                *(("--dom", "page.html") if dom is not None else ()),
                "--sources",
                "a11y,dom,coords",
                *opts,
            ),
            (
                ("ref.json", r),
                ("tree.json", t),
                *((("page.html", dom),) if dom is not None else ()),
            ),
        ),
        ref,
        tree,
        st.booleans(),
        options,
        st.one_of(st.none(), html_soup.map(_as_bytes)),
    )
    suffix = st.sampled_from(
        [".json", ".xml", ".txt", ".html", ".png", ".jpg", ".jsonl", ".yml", ".tsv", ""]
    )
    content = st.one_of(
        tree,
        st.binary(max_size=200),
        html_soup.map(_as_bytes),
        screenshots().filter(lambda s: isinstance(s, bytes)),
    )
    formats_case = st.builds(
        lambda s, c, js, lim: CliCase(("formats", f"input{s}", *js, *lim), ((f"input{s}", c),)),
        suffix,
        content,
        st.sampled_from([(), ("--json",)]),
        st.one_of(st.just(()), limit.map(lambda x: ("--limit", x))),
    )
    replay_case = st.builds(
        lambda rec, js: CliCase(
            (
                "replay",
                "recs",
                "--out",
                "out",
                "--no-html",
                "--no-resume",
                "--sources",
                "a11y",
                *js,
            ),
            ((f"recs/{rec.name}", rec.data), ("recs/snap.json", rec.beside)),
        ),
        recordings(),
        st.sampled_from([(), ("--json",)]),
    )
    return st.one_of(resolve_case, resolve_case, formats_case, replay_case)


# -- the property --------------------------------------------------------------------------

TREE_REFS: Final[tuple[dict[str, Any], ...]] = (
    {"role": "button", "name": "OK", "bbox": [0, 0, 10, 10]},
    {"role": "button", "name": "Save"},
    {"name": "Customer name", "container_path": ["Customer"]},
    {"role": "textbox", "name": "Email", "bbox": [10, 10, 200, 40], "automation_id": "email"},
    {"bbox": [100, 100, 140, 120]},
)
REF_TREE: Final[dict[str, Any]] = {
    "id": "root",
    "role": "dialog",
    "name": "Settings",
    "bbox": [0, 0, 800, 600],
    "children": [
        {"id": "ok", "role": "button", "name": "OK", "bbox": [10, 10, 60, 30]},
        {"id": "ok2", "role": "button", "name": "OK\u200b", "bbox": [10, 300, 60, 320]},
        {"id": "k", "role": "button", "name": "\u041eK", "bbox": [70, 10, 120, 30]},
        {"id": "he", "role": "link", "name": "שלום", "bbox": [0, 500, 90, 520]},
        {"id": "e", "role": "textbox", "name": "Email", "bbox": [10, 40, 200, 60]},
        {"id": "nan", "role": "button", "name": "Save", "bbox": [math.nan, 0, 1, 1]},
    ],
}


class PropertyViolationError(AssertionError):
    """A call broke the property: a foreign exception, a wrong return type, too slow, a bad
    exit code or a traceback on the command line."""

    def __init__(self, message: str, error_type: str) -> None:
        super().__init__(message)
        self.error_type = error_type


class CaseTimeout(BaseException):
    """Raised by the watchdog inside a case that runs far too long (not an ``Exception``, so
    no ``except Exception`` in the library swallows it)."""


@dataclass(frozen=True)
class Bound:
    """Seconds a case may take: ``base + per_unit * size``; after ``hard`` seconds (or three
    times the bound, whichever is longer) a SIGALRM watchdog ends a hung case (``hard=0``: no
    watchdog, for runs under pytest-timeout, which uses the same signal)."""

    base: float = 2.0
    per_unit: float = 20e-6
    hard: float = 120.0


def _image_pixels(data: bytes) -> int:
    """Width times height of PNG or JPEG bytes whose header the vision source accepts (0 for
    anything else: it is refused before any decoding)."""
    try:
        from resolver.adapters.vision.image import image_size
    except ImportError:  # without the [vision] extra nothing is decoded
        return 0
    try:
        width, height, _ = image_size(data)
    except ResolutionError:
        return 0
    return width * height


def input_size(value: Any, limit: int = 2_000_000) -> int:
    """Characters, bytes or elements in ``value`` (each container once; cycles allowed).

    A PNG or JPEG counts as the larger of its bytes and what its decoded pixels would count
    as an RGB array (``3 * pixels // 4``, as arrays count ``nbytes // 4``): a screenshot's
    work (decoding, OCR at native resolution) follows its pixels, which a few kilobytes of
    compressed data can claim by the million (up to ``Limits.max_image_pixels``: more are
    refused from the header).
    """
    total, stack = 0, [value]
    seen: set[int] = set()
    while stack and total < 10**9:
        item = stack.pop()
        if isinstance(item, (bytes, bytearray)):
            pixels = min(_image_pixels(bytes(item)), DEFAULT_LIMITS.max_image_pixels)
            total += max(len(item), 3 * pixels // 4)
        elif isinstance(item, str):
            total += len(item)
        elif isinstance(item, np.ndarray):
            total += int(item.nbytes) // 4
        elif isinstance(item, (dict, list, tuple, set)):
            if id(item) in seen or len(seen) > limit:
                continue
            seen.add(id(item))
            total += 2
            stack.extend(item.items() if isinstance(item, dict) else item)
        elif hasattr(item, "__dataclass_fields__"):
            stack.extend(getattr(item, f) for f in item.__dataclass_fields__)
        else:
            total += 1
    return total


def _call(what: str, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``func(*args, **kwargs)``; ``None`` for a :class:`ResolutionError` whose text is
    within ``MAX_MESSAGE`` characters, a :class:`PropertyViolationError` for a longer one and
    for any other exception."""
    try:
        return func(*args, **kwargs)
    except ResolutionError as exc:
        if len(str(exc)) > MAX_MESSAGE:
            raise PropertyViolationError(
                f"{what} raised {type(exc).__name__} with {len(str(exc)):,} characters: "
                f"{str(exc)[:200]}",
                "LongMessage",
            ) from exc
        return None
    except (PropertyViolationError, CaseTimeout):
        raise
    except Exception as exc:
        raise PropertyViolationError(
            f"{what} raised {type(exc).__name__}: {str(exc)[:300]}", type(exc).__name__
        ) from exc


def _expect(what: str, value: Any, kind: type | tuple[type, ...]) -> None:
    if value is not None and not isinstance(value, kind):
        raise PropertyViolationError(f"{what} returned {type(value).__name__}", "WrongReturnType")


def _resolve(ref: Any, observation: Any, sources: tuple[str, ...]) -> None:
    value = _call("resolve", resolve, ref, observation, sources=sources)
    _expect("resolve", value, Resolution)


def run_reference(case: Any) -> None:
    ref = _call("SemanticElementRef.model_validate", SemanticElementRef.model_validate, case)
    if isinstance(case, (str, bytes)):
        ref = _call(
            "SemanticElementRef.model_validate_json", SemanticElementRef.model_validate_json, case
        )
    if isinstance(case, dict) and all(isinstance(k, str) for k in case):
        _expect(
            "SemanticElementRef(**)",
            _call("SemanticElementRef(**)", lambda: SemanticElementRef(**case)),
            SemanticElementRef,
        )
    _expect("model_validate", ref, SemanticElementRef)
    if isinstance(ref, SemanticElementRef):
        text = _call("model_dump_json", ref.model_dump_json)
        again = _call("model_validate_json", SemanticElementRef.model_validate_json, text)
        if again != ref:
            raise PropertyViolationError(
                "a valid reference does not round-trip through JSON", "RoundTrip"
            )
    _resolve(case, Observation(accessibility_tree=REF_TREE), ("a11y", "coords"))


def run_tree(case: TreeCase) -> None:
    obs = _call(
        "Observation",
        Observation,
        accessibility_tree=case.tree,
        tree_format=case.tree_format,
        **case.options,
    )
    if obs is None:
        return
    for ref in TREE_REFS[:2]:
        _resolve(ref, obs, ("a11y",))
    if input_size(case.tree) <= CATALOG_SIZE:
        _catalog_json(obs)


CATALOG_SIZE: Final[int] = 20_000
"""Trees up to this size (:func:`input_size`) have their catalog checked too: the property
is about the text it writes, and a catalog's entries each cost a reference's recording."""


def _catalog_json(obs: Observation) -> None:
    """The tree's catalog writes as JSON that UTF-8 carries and reads back (half a character
    in a name included)."""
    from resolver.catalog import Catalog, build_catalog

    catalog = _call("build_catalog", build_catalog, obs)
    if catalog is None:
        return
    text = _call("Catalog.to_json", catalog.to_json)
    _expect("Catalog.to_json", text, str)
    if text is not None:
        _call("UTF-8 of Catalog.to_json", text.encode, "utf-8")
        _expect("Catalog.from_json", _call("Catalog.from_json", Catalog.from_json, text), Catalog)


LINKED_REFS: Final[tuple[dict[str, Any], ...]] = (
    {"role": "button", "name": "OK", "classes": ["b"], "tag": "a", "href": "/x"},
    {"role": "link", "name": "OK", "xpath": "/html[1]/body[1]/a[1]", "attributes": {"id": "x"}},
)


def run_linked(case: LinkedCase) -> None:
    obs = _call(
        "Observation", Observation, accessibility_tree=case.tree, dom_node_map=case.node_map,
        dom_html=case.html,
    )  # fmt: skip
    if obs is not None:
        for ref in LINKED_REFS:
            _resolve(ref, obs, ("a11y",))
            _resolve(ref, obs, ("a11y", "dom"))


def run_dom(case: DomCase) -> None:
    obs = _call(
        "Observation",
        Observation,
        dom_html=case.html,
        dom_layout=case.layout,
        scripting=case.scripting,
    )
    if obs is not None:
        _resolve(TREE_REFS[0], obs, ("dom",))
        _resolve({"role": "textbox", "name": "Email"}, obs, ("dom",))


_MARKED: list[Any] = []


def _marked_catalog() -> Any:
    """A small catalog to draw on every fuzzed screenshot (made once per process)."""
    if not _MARKED:
        from resolver.catalog import build_catalog

        kids = [{"id": str(i), "role": "button", "name": f"B{i}",
                 "bbox": [i * 9, i * 7, i * 9 + 30, i * 7 + 12]} for i in range(12)]  # fmt: skip
        tree = {"id": "f", "role": "form", "children": kids}
        _MARKED.append(build_catalog(Observation(accessibility_tree=tree)))
    return _MARKED[0]


def run_vision(case: Any) -> None:
    """A screenshot is read, or refused with a typed error; the same for drawing a
    catalog's indexes on it, at one pixel per unit and squeezed into a small viewport."""
    from resolver.catalog.marks import MarkedScreenshot, mark_screenshot

    obs = _call("Observation", Observation, screenshot=case)
    if obs is not None:
        _resolve({"role": "button", "name": "Sign in", "bbox": [0, 0, 50, 20]}, obs, ("vision",))
    for viewport in (None, (37.0, 23.0)):
        drawn = _call("mark_screenshot", mark_screenshot, case, _marked_catalog(),
                      viewport=viewport)  # fmt: skip
        _expect("mark_screenshot", drawn, MarkedScreenshot)


def run_recording(case: RecordingCase) -> None:
    from resolver.replay import read_recording
    from resolver.replay.model import Recording

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / case.name
        path.write_bytes(case.data)
        (Path(folder) / "snap.json").write_bytes(case.beside)
        recording = _call("read_recording", read_recording, path)
    _expect("read_recording", recording, Recording)
    if recording is None:
        return
    for step in recording.steps[:4]:
        snap = recording.snapshots.get(step.preceding) if step.preceding is not None else None
        if snap is not None:
            _resolve(step.ref, {"accessibility_tree": snap}, ("a11y",))


def run_snapshot(case: Any) -> None:
    from resolver.replay.recording import document_kind
    from resolver.snapshot import to_snapshot_v1

    kind = _call("document_kind", document_kind, case)
    _expect("document_kind", kind, str)
    obs = _call("Observation", Observation, accessibility_tree=case)
    if obs is None:
        return
    _resolve(TREE_REFS[0], obs, ("a11y",))
    snap = _call("to_snapshot_v1", to_snapshot_v1, obs, ts="x")
    _expect("to_snapshot_v1", snap, dict)
    if snap is not None:
        try:
            Observation(accessibility_tree=snap).candidates("a11y")
        except ResolutionError as exc:
            raise PropertyViolationError(
                f"a SnapshotV1 the library wrote cannot be read back: {exc}", "RoundTrip"
            ) from exc
        except Exception as exc:
            raise PropertyViolationError(
                f"reading back a SnapshotV1 raised {type(exc).__name__}: {exc}", type(exc).__name__
            ) from exc


_EXIT_CODES: Final[dict[str, frozenset[int]]] = {
    "resolve": frozenset({0, 2, 3}),
    "formats": frozenset({0, 2}),
    "replay": frozenset({0, 2}),
}


def run_cli(case: CliCase) -> None:
    from typer.testing import CliRunner

    from resolver.cli import main

    with tempfile.TemporaryDirectory() as folder:
        for name, data in case.files:
            path = Path(folder) / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        args = [a if not _is_file(a, case) else str(Path(folder) / a) for a in case.args]
        if case.args[0] == "replay":
            args[args.index("--out") + 1] = str(Path(folder) / "out")
        runner = CliRunner()
        with runner.isolation(env={"RESOLVER_DEBUG": None, "COLUMNS": "100"}) as streams:
            try:
                code = main(args)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
            except (CaseTimeout, PropertyViolationError):
                raise
            except Exception as exc:
                raise PropertyViolationError(
                    f"resolver {case.args[0]} raised {type(exc).__name__}: {exc}",
                    type(exc).__name__,
                ) from exc
            sys.stdout.flush()
            sys.stderr.flush()
            sys_out = streams[2].getvalue().decode("utf-8", "replace")
    command = case.args[0]
    if "Traceback (most recent call last)" in sys_out:
        raise PropertyViolationError(f"resolver {command} printed a traceback", "Traceback")
    if "internal error:" in sys_out:
        line = next(x for x in sys_out.splitlines() if "internal error:" in x)
        raise PropertyViolationError(
            f"resolver {command}: {line[:300]}", f"CliInternalError({command})"
        )
    if code not in _EXIT_CODES[command]:
        raise PropertyViolationError(
            f"resolver {command} exited {code}: {sys_out[-300:]}", f"ExitCode{code}({command})"
        )


def _is_file(arg: str, case: CliCase) -> bool:
    return arg in {name for name, _ in case.files} or arg == "recs"


@dataclass(frozen=True)
class Kind:
    """One kind of case: its inputs (made by ``strategy(scale)``) and the property run."""

    strategy: Callable[[int], st.SearchStrategy[Any]]
    run: Callable[[Any], None]
    weight: float = 1.0


def _tree_strategy(fmt: str, huge: int) -> st.SearchStrategy[TreeCase]:
    return a11y_trees(fmt, deep_max=3000 if huge else 1200)


def _kinds() -> dict[str, Kind]:
    kinds = {"reference": Kind(lambda huge: references(huge), run_reference)}
    for fmt in FORMATS:
        kinds[f"a11y:{fmt}"] = Kind(functools.partial(_tree_strategy, fmt), run_tree)
    kinds["dom"] = Kind(lambda huge: dom_inputs(deep_max=3000 if huge else 1200), run_dom)
    kinds["linked"] = Kind(lambda huge: linked_inputs(), run_linked, weight=0.5)
    kinds["vision"] = Kind(lambda huge: screenshots(), run_vision, weight=0.25)
    kinds["recording"] = Kind(lambda huge: recordings(), run_recording)
    kinds["snapshot"] = Kind(lambda huge: snapshots(), run_snapshot)
    kinds["cli"] = Kind(lambda huge: cli_cases(), run_cli, weight=0.5)
    kinds["action"] = Kind(lambda huge: actions(), run_action, weight=0.5)
    return kinds


KINDS: Final[dict[str, Kind]] = _kinds()


@dataclass(frozen=True)
class Checked:
    """How one case went: seconds taken and the failure, if any."""

    seconds: float
    failure: PropertyViolationError | None


def _alarm(signum: int, frame: Any) -> None:
    raise CaseTimeout()


def run_case(kind: str, case: Any, bound: Bound = Bound()) -> Checked:
    """Run the property of ``kind`` on ``case``; never raises (the failure is returned)."""
    size = input_size(case)
    limit = bound.base + bound.per_unit * size
    watchdog = bound.hard > 0 and hasattr(signal, "setitimer") and _main_thread()
    if watchdog:
        previous = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, max(bound.hard, 3 * limit))
    start = time.perf_counter()
    failure: PropertyViolationError | None = None
    try:
        KINDS[kind].run(case)
    except PropertyViolationError as exc:
        failure = exc
    except CaseTimeout:
        failure = PropertyViolationError(
            f"still running after {max(bound.hard, 3 * limit):.0f} s", "Hang"
        )
    finally:
        if watchdog:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    seconds = time.perf_counter() - start
    if failure is None and seconds > limit:
        failure = PropertyViolationError(
            f"took {seconds:.2f} s, bound {limit:.2f} s for size {size:,}", "TooSlow"
        )
    return Checked(seconds, failure)


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxdict, _REPR.maxlist, _REPR.maxtuple = 4, 6, 6, 6
_REPR.maxstring, _REPR.maxother, _REPR.maxlong = 80, 80, 40


def short_repr(value: Any, limit: int = 300) -> str:
    """A bounded ``repr`` of a case (deep, huge and cyclic values included)."""
    text = _REPR.repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def warm_up() -> Iterator[str]:
    """Load what the first call of a source loads (the OCR models) outside any time bound."""
    for kind, case in (("vision", fixture_bytes("vision/login/screenshot.png")[0]),):
        run_case(kind, case, Bound(base=600.0, hard=600.0))
        yield kind
