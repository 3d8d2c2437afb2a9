"""Deterministic synthetic accessibility trees for the benchmarks.

:func:`cdp_tree` builds what ``Accessibility.getFullAXTree`` returns for a large web app (plus
the ``"bbox"`` a capturer adds), with the mix real pages have: mostly ``generic`` wrappers and
``StaticText`` (each with its ``InlineTextBox``), some ignored ``none`` nodes, and the widgets
a runtime targets (buttons, links, textboxes, checkboxes, headings, table rows and cells, list
items), with the names that make resolution hard: many "Edit", "Delete", "Read more", "OK",
"Share", and counters such as "Inbox (12)". Depth is 10 to 30. :func:`nested_tree` gives the
same nodes as a nested ``{id, role, name, bbox, children}`` tree for the seed baseline, and
:func:`make_refs` records references for some of its elements the way a recorder would.

Everything is a function of ``(n, seed)``: the same arguments give the same tree.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from resolver import CandidateTable, Observation, SemanticElementRef
from resolver.capture import ref_from_row

__all__ = [
    "TARGET_ROLES",
    "Target",
    "Workload",
    "cdp_tree",
    "make_refs",
    "nested_tree",
    "workload",
]

VIEWPORT: Final[tuple[int, int]] = (1280, 800)
LINE: Final[int] = 22  # px per text line
CHAR: Final[float] = 7.5  # px per character of body text

TARGET_ROLES: Final[frozenset[str]] = frozenset(
    {"button", "link", "textbox", "checkbox", "heading", "tab", "menuitem", "combobox"}
)
"""Roles :func:`make_refs` picks targets from (what a runtime clicks or types into)."""

_FIRST = (
    "Alice", "Bob", "Carol", "David", "Eva", "Frank", "Grace", "Hannah", "Ivan", "Julia",
    "Karim", "Lena", "Marco", "Nina", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tara",
)  # fmt: skip
_LAST = (
    "Nguyen", "Smith", "Diaz", "Evans", "Kowalski", "Okafor", "Park", "Rossi", "Schmidt",
    "Tanaka", "Walker", "Yilmaz", "Berg", "Costa", "Haddad", "Ivanova", "Moreau", "Singh",
)  # fmt: skip
_WORDS = (
    "release", "pipeline", "account", "billing", "report", "latency", "cluster", "backup",
    "invoice", "schedule", "project", "network", "storage", "policy", "review", "deploy",
    "metrics", "session", "payment", "profile", "update", "archive", "quota", "region",
    "team", "token", "service", "database", "incident", "workflow", "customer", "order",
)  # fmt: skip
_NAV = (
    "Home", "Pricing", "Docs", "Contact", "Blog", "About", "Careers", "Status", "Support",
    "Settings", "Help", "Log out",
)  # fmt: skip
_COUNTED = ("Inbox", "Notifications", "Drafts", "Messages", "Alerts", "Tasks", "Updates")
_FIELDS = (
    "Email", "Password", "First name", "Last name", "Company", "Phone", "City", "Search",
    "Street", "Postal code", "Username", "Display name",
)  # fmt: skip
_OPTIONS = ("Remember me", "Subscribe to newsletter", "Accept terms", "Show password")
_TOOLBAR = ("Bold", "Italic", "Undo", "Redo", "Save", "Print", "Export", "Filter", "Sort")
_STATUS = ("Active", "Pending", "Suspended", "Invited")


def _sentence(rng: random.Random, lo: int, hi: int) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(lo, hi))]
    return " ".join(words).capitalize()


def _prop_type(value: Any) -> str:
    return "booleanOrUndefined" if isinstance(value, bool) else "integer"


def _person(rng: random.Random) -> str:
    return f"{rng.choice(_FIRST)} {rng.choice(_LAST)}"


class _Builder:
    """Appends CDP nodes in pre-order and lays out leaf boxes with a moving cursor."""

    def __init__(self, seed: int, budget: int) -> None:
        self.rng = random.Random(seed)
        self.budget = budget
        self.nodes: list[dict[str, Any]] = []
        self.y = 0.0  # next free line, document coordinates

    @property
    def full(self) -> bool:
        return len(self.nodes) >= self.budget

    def node(
        self,
        role: str,
        parent: int | None,
        name: str = "",
        *,
        ignored: bool = False,
        box: tuple[float, float, float, float] | None = None,
        props: Sequence[tuple[str, Any]] = (),
    ) -> int:
        """Append one node; returns its index (its ``nodeId`` is ``str(index + 1)``)."""
        index = len(self.nodes)
        node: dict[str, Any] = {
            "nodeId": str(index + 1),
            "ignored": ignored,
            "role": {"type": "role", "value": role},
            "childIds": [],
            "backendDOMNodeId": 1000 + index,
        }
        if not ignored:
            node["name"] = {"type": "computedString", "value": name}
            node["properties"] = [
                {"name": key, "value": {"type": _prop_type(value), "value": value}}
                for key, value in props
            ]
        if parent is not None:
            node["parentId"] = self.nodes[parent]["nodeId"]
            self.nodes[parent]["childIds"].append(node["nodeId"])
        if box is not None:
            node["bbox"] = [round(v, 1) for v in box]
        self.nodes.append(node)
        return index

    def text(self, parent: int, text: str, x: float, *, width: float | None = None) -> float:
        """A ``StaticText`` with its ``InlineTextBox`` at ``(x, self.y)``; returns its right."""
        w = width if width is not None else max(8.0, CHAR * len(text))
        box = (x, self.y, x + w, self.y + LINE - 4)
        static = self.node("StaticText", parent, text, box=box)
        self.node("InlineTextBox", static, text, box=box)
        return x + w

    def control(
        self,
        role: str,
        parent: int,
        name: str,
        x: float,
        *,
        with_text: bool = True,
        props: Sequence[tuple[str, Any]] = (("focusable", True),),
    ) -> float:
        """A named widget on the current line (with its label text inside); returns its right."""
        w = max(24.0, CHAR * len(name) + 24.0)
        box = (x, self.y, x + w, self.y + LINE + 6)
        index = self.node(role, parent, name, box=box, props=props)
        if with_text:
            self.text(index, name, x + 12.0)
        return x + w + 8.0

    def wrappers(self, parent: int, count: int) -> int:
        """``count`` nested wrappers (generic or ignored), the way frameworks nest divs."""
        for _ in range(count):
            if self.rng.random() < 0.25:
                parent = self.node("none", parent, ignored=True)
            else:
                parent = self.node("generic", parent)
        return parent

    def newline(self, lines: int = 1) -> None:
        self.y += (LINE + 10) * lines


def _nav(b: _Builder, parent: int, x: float, items: Sequence[str]) -> None:
    nav = b.node("navigation", parent, "")
    lst = b.node("list", b.wrappers(nav, b.rng.randint(0, 2)), "")
    for item in items:
        li = b.node("listitem", lst, "")
        x = b.control("link", b.wrappers(li, b.rng.randint(0, 1)), item, x)


def _table(b: _Builder, parent: int, x0: float) -> None:
    rng = b.rng
    title = f"{rng.choice(_WORDS).capitalize()} users"
    b.node("heading", parent, title, box=(x0, b.y, x0 + 200, b.y + 28), props=(("level", 2),))
    b.newline()
    table = b.node("table", b.wrappers(parent, rng.randint(0, 2)), title)
    group = b.node("rowgroup", table, "")
    header = b.node("row", group, "")
    x = x0
    for col in ("Name", "Email", "Status", "Actions"):
        cell = b.node("columnheader", header, col)
        x = b.text(cell, col, x + 8, width=180)
    b.newline()
    body = b.node("rowgroup", table, "")
    for _ in range(rng.randint(3, 12)):
        if b.full:
            return
        person = _person(rng)
        row = b.node("row", body, "")
        x = x0
        for value in (person, f"{person.split()[0].lower()}@example.com", rng.choice(_STATUS)):
            cell = b.node("cell", row, value)
            x = b.text(cell, value, x + 8, width=180)
        actions = b.node("cell", row, "")
        x = b.control("button", actions, "Edit", x + 8)
        x = b.control("button", actions, "Delete", x)
        b.newline()
    nav = b.node("navigation", parent, "Pagination")
    x = x0
    for label in ("Previous", "1", "2", "3", "Next"):
        x = b.control("button", nav, label, x)
    b.newline()


def _articles(b: _Builder, parent: int, x0: float) -> None:
    rng = b.rng
    feed = b.node("feed", b.wrappers(parent, rng.randint(0, 2)), "")
    for _ in range(rng.randint(3, 10)):
        if b.full:
            return
        article = b.node("article", feed, "")
        inner = b.wrappers(article, rng.randint(1, 3))
        title = _sentence(rng, 3, 7)
        b.node("heading", inner, title, box=(x0, b.y, x0 + CHAR * len(title), b.y + 28))
        b.newline()
        for _ in range(rng.randint(1, 3)):
            para = b.node("paragraph", inner, "")
            for _ in range(rng.randint(1, 3)):
                span = b.node("generic", para) if rng.random() < 0.5 else para
                b.text(span, _sentence(rng, 4, 12), x0, width=760)
            b.newline(2)
        x = b.control("link", inner, "Read more", x0)
        x = b.control("button", inner, "Share", x)
        if rng.random() < 0.5:
            b.control("button", inner, f"Like ({rng.randint(0, 250)})", x)
        b.newline()


def _form(b: _Builder, parent: int, x0: float) -> None:
    rng = b.rng
    title = f"{rng.choice(_WORDS).capitalize()} settings"
    form = b.node("form", b.wrappers(parent, rng.randint(0, 2)), title)
    b.node("heading", form, title, box=(x0, b.y, x0 + 240, b.y + 28), props=(("level", 3),))
    b.newline()
    for label in rng.sample(_FIELDS, rng.randint(2, 6)):
        group = b.wrappers(form, rng.randint(1, 2))
        lab = b.node("LabelText", group, "")
        b.text(lab, label, x0)
        b.control("textbox", group, label, x0 + 160, with_text=False)
        b.newline()
    for label in rng.sample(_OPTIONS, rng.randint(0, 2)):
        b.control("checkbox", form, label, x0, props=(("checked", False),))
        b.newline()
    x = b.control("button", form, "Cancel", x0)
    b.control("button", form, "OK", x)
    b.newline()


def _sidebar(b: _Builder, parent: int, x0: float) -> None:
    rng = b.rng
    side = b.node("complementary", parent, "")
    lst = b.node("list", side, "")
    for label in rng.sample(_COUNTED, rng.randint(3, len(_COUNTED))):
        li = b.node("listitem", lst, "")
        b.control("link", li, f"{label} ({rng.randint(0, 99)})", x0)
        b.newline()


def _toolbar(b: _Builder, parent: int, x0: float) -> None:
    rng = b.rng
    bar = b.node("toolbar", b.wrappers(parent, rng.randint(0, 2)), "Editor")
    x = x0
    for label in rng.sample(_TOOLBAR, rng.randint(3, len(_TOOLBAR))):
        x = b.control("button", bar, label, x)
    b.newline()
    tabs = b.node("tablist", parent, "")
    x = x0
    for label in ("Overview", "Activity", "Settings", "Members"):
        x = b.control("tab", tabs, label, x, props=(("selected", label == "Overview"),))
    b.newline()


def _text_block(b: _Builder, parent: int, x0: float) -> None:
    block = b.wrappers(parent, b.rng.randint(1, 4))
    for _ in range(b.rng.randint(1, 4)):
        line = b.node("generic", block) if b.rng.random() < 0.6 else block
        b.text(line, _sentence(b.rng, 4, 16), x0, width=640)
        b.newline()


_SECTIONS: Final[tuple[tuple[Callable[[_Builder, int, float], None], float], ...]] = (
    (_text_block, 0.36),
    (_articles, 0.22),
    (_table, 0.12),
    (_form, 0.14),
    (_toolbar, 0.08),
    (_sidebar, 0.08),
)


def _fill_boxes(nodes: list[dict[str, Any]]) -> None:
    """Containers get the union of their descendants' boxes (children follow parents)."""
    index = {node["nodeId"]: i for i, node in enumerate(nodes)}
    boxes: list[list[float] | None] = [node.get("bbox") for node in nodes]
    for i in range(len(nodes) - 1, -1, -1):
        box = boxes[i]
        parent_id = nodes[i].get("parentId")
        if box is None or parent_id is None:
            continue
        p = index[parent_id]
        pbox = boxes[p]
        if pbox is None:
            boxes[p] = list(box)
        else:
            pbox[0] = min(pbox[0], box[0])
            pbox[1] = min(pbox[1], box[1])
            pbox[2] = max(pbox[2], box[2])
            pbox[3] = max(pbox[3], box[3])
    for node, box in zip(nodes, boxes, strict=True):
        if box is not None:
            node["bbox"] = [round(v, 1) for v in box]


def cdp_tree(n: int, seed: int = 0) -> dict[str, Any]:
    """A CDP ``getFullAXTree`` result with exactly ``n`` nodes (``n >= 50``).

    Parameters
    ----------
    n:
        Number of nodes, ignored and ``InlineTextBox`` nodes included (as Chromium counts).
    seed:
        Seed of the generator; the same ``(n, seed)`` gives the same tree.

    Returns
    -------
    dict
        ``{"nodes": [...], "viewport": [1280, 800]}``; each node has ``nodeId``,
        ``parentId`` (except the root), ``childIds``, ``role`` ``{"type", "value"}``,
        ``name`` ``{"type": "computedString", "value"}`` and ``properties`` (unless
        ignored), ``ignored``, ``backendDOMNodeId`` and ``bbox`` ``[l, t, r, b]``.

    Examples
    --------
    >>> tree = cdp_tree(1000, seed=1)
    >>> len(tree["nodes"]), tree["nodes"][0]["role"]["value"]
    (1000, 'RootWebArea')
    """
    if n < 50:
        raise ValueError("n must be at least 50")
    b = _Builder(seed, n)
    rng = b.rng
    root = b.node("RootWebArea", None, "Synthetic app")
    shell = b.wrappers(root, rng.randint(2, 5))
    banner = b.node("banner", shell, "")
    b.control("link", banner, "Acme", 16)
    _nav(b, banner, 120, rng.sample(_NAV, 6))
    b.newline()
    main = b.node("main", shell, "")
    weights = [w for _, w in _SECTIONS]
    footer_reserve = 40
    while len(b.nodes) < n - footer_reserve:
        region_name = "" if rng.random() < 0.5 else f"{rng.choice(_WORDS).capitalize()} panel"
        region = b.node("region" if region_name else "generic", main, region_name)
        # Occasional deep framework nesting pushes some subtrees towards depth 30.
        depth = rng.randint(1, 4) if rng.random() < 0.85 else rng.randint(8, 14)
        host = b.wrappers(region, depth)
        (section,) = rng.choices([s for s, _ in _SECTIONS], weights=weights)
        section(b, host, 24.0 + 16.0 * rng.randint(0, 6))
    footer = b.node("contentinfo", shell, "")
    _nav(b, footer, 16, rng.sample(_NAV, 6))
    b.newline()
    while len(b.nodes) < n:
        _text_block(b, footer, 16)
    nodes = b.nodes[:n]
    keep = {node["nodeId"] for node in nodes}
    for node in nodes:
        node["childIds"] = [c for c in node["childIds"] if c in keep]
    _fill_boxes(nodes)
    for node in nodes:
        node.setdefault("bbox", [0.0, 0.0, 0.0, 0.0])
    return {"nodes": nodes, "viewport": list(VIEWPORT)}


def nested_tree(cdp: Mapping[str, Any]) -> dict[str, Any]:
    """The same nodes as one nested ``{id, role, name, bbox, children}`` tree.

    Every CDP node becomes one dict (ignored and ``InlineTextBox`` nodes included), so the
    seed walks exactly as many nodes as there are in the CDP list.
    """
    nodes = cdp["nodes"]
    out: dict[str, dict[str, Any]] = {}
    for node in nodes:
        name = node.get("name")
        out[node["nodeId"]] = {
            "id": node["nodeId"],
            "role": node["role"]["value"],
            "name": name["value"] if isinstance(name, Mapping) else "",
            "bbox": node.get("bbox"),
            "children": [],
        }
    for node in nodes:
        parent = node.get("parentId")
        if parent is not None:
            out[parent]["children"].append(out[node["nodeId"]])
    return out[nodes[0]["nodeId"]]


@dataclass(frozen=True)
class Target:
    """A recorded reference and the node it was recorded from."""

    ref: SemanticElementRef
    node_id: str
    row: int


def make_refs(
    table: CandidateTable, k: int, *, seed: int = 0, jitter_px: float = 3.0
) -> list[Target]:
    """Record ``k`` references from ``table`` with :func:`resolver.capture.ref_from_row`.

    Targets are named rows with an actionable role (:data:`TARGET_ROLES`), chosen at random
    but deterministically; their boxes are shifted by up to ``jitter_px`` px (a re-render
    rarely lands on the same pixel). Each ref carries role, name, bbox and container path.

    Parameters
    ----------
    table:
        The a11y table of a synthetic observation (``Observation(...).candidates("a11y")``).
    k:
        How many targets (fewer when the table has fewer candidates).
    seed:
        Seed for the choice and the jitter.
    jitter_px:
        Largest shift of each box edge pair, in px (0 keeps the recorded box).
    """
    rng = np.random.default_rng(seed)
    rows = [
        i for i, (role, name) in enumerate(zip(table.roles, table.names, strict=True))
        if role in TARGET_ROLES and name
    ]  # fmt: skip
    if not rows:
        return []
    chosen = rng.choice(len(rows), size=min(k, len(rows)), replace=False)
    targets: list[Target] = []
    for pick in chosen:
        row = rows[int(pick)]
        ref = ref_from_row(table, row)
        if ref.bbox is not None and jitter_px > 0:
            dx, dy = (float(v) for v in rng.uniform(-jitter_px, jitter_px, size=2))
            left, top, right, bottom = ref.bbox
            ref = ref.model_copy(update={"bbox": (left + dx, top + dy, right + dx, bottom + dy)})
        targets.append(Target(ref=ref, node_id=table.ids[row], row=row))
    return targets


@dataclass(frozen=True)
class Workload:
    """One synthetic tree in both shapes, its built table and recorded targets."""

    n: int
    tree: dict[str, Any]
    nested: dict[str, Any]
    observation: Observation
    table: CandidateTable
    targets: list[Target]


def workload(n: int, *, k: int = 20, seed: int = 0) -> Workload:
    """A :func:`cdp_tree` of ``n`` nodes, its :func:`nested_tree`, an observation whose a11y
    table is already built, and ``k`` targets from :func:`make_refs`."""
    tree = cdp_tree(n, seed=seed)
    observation = Observation(accessibility_tree=tree)
    table = observation.candidates("a11y")
    targets = make_refs(table, k, seed=seed + 1)
    return Workload(n, tree, nested_tree(tree), observation, table, targets)
