"""Whether a wrong answer could have been told apart from the target, from its reference.

A wrong answer (or an answer for a removed target) is **indistinguishable** when the answer
agrees with everything the reference recorded at least as well as the target does: the
target on the changed page when it is still there, the target on the base page (where the
reference was recorded, so it agrees with every field), moved as the page moved, when it was
removed. Then no method
that sees only this reference and this page can prefer the target (or, for a removed
target, tell the page from one where the answer is the target and something else went).

The evidence of an element is what the same recorder writes for it on the changed page
(``ref_from_row`` for ``ours``, :class:`~benchmarks.relocation.recorders.ForeignRecorder`
for ``foreign``, and that reference in the target's own convention for ``varied``),
compared with the reference field by field; the resolver's scores play no part. Per
recorded field, the answer is at least as good as the target when:

- ``role`` (canonical), ``name`` (whitespace collapsed, case kept), ``tag``, ``href``, the
  platform IDs, ``class_name``, the states, ``heading`` and ``panel``: the answer's value
  equals the recorded one, or the target's does not;
- ``xpath``, ``css_selector``: the recorded selector, run on the changed page, selects the
  answer, or does not select the target;
- ``container_path``, ``nearby_text``, ``classes``, ``attributes``: the recorded entries the
  answer has include those the target has, and the answer's list equals the recorded one
  when the target's does;
- ``bbox``: the answer's box is no farther from the recorded box than the target's, plus
  :data:`BOX_TOLERANCE` (largest difference of the four edges), both as measured and, when
  the reference has anchors, after the page's shift that the anchors show;
- ``lookalikes``: the answer does not sit on a recorded look-alike's box (as measured or
  after the shift), or the target does;
- ``occurrence``: the answer's place among its look-alikes (same role, name and container
  path, in document order; 0 when it has none) is the recorded one, or the target's is not.
  Only the place counts: how many look-alikes remain depends on which one went.

``screen_size``, ``coord_space`` and ``confidence`` describe the recording, not the element;
``anchors`` give only the shift.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any, Final

import numpy as np

from resolver import SemanticElementRef
from resolver.capture import ref_from_row
from resolver.replay.captures import Capture
from resolver.roles import canonical_role
from resolver.table import CandidateTable
from resolver.text import collapse

from .conventions import Drawn
from .recorders import ForeignRecorder

__all__ = [
    "BOX_TOLERANCE",
    "CONTEXT",
    "LISTS",
    "SAME",
    "SELECTORS",
    "Evidence",
    "Page",
    "dominating",
    "evidence",
    "perfect",
    "profile",
    "profile_grid",
    "profile_of",
    "steps_apart",
    "target_better",
]

BOX_TOLERANCE: Final[float] = 4.0
"""CSS pixels: boxes whose edges all lie within this of each other are in the same place."""

SAME: Final[tuple[str, ...]] = (
    "role", "name", "enabled", "focused", "automation_id", "accessibility_id", "class_name",
    "dom_id", "test_id", "tag", "href", "heading", "panel",
)  # fmt: skip
"""Fields compared by equality with the recorded value."""
SELECTORS: Final[tuple[str, ...]] = ("xpath", "css_selector")
"""Fields that hold a selector: run on the changed page, does it select the element?"""
LISTS: Final[tuple[str, ...]] = ("container_path", "nearby_text", "classes", "attributes")
"""Fields compared entry by entry."""
PLACES: Final[tuple[str, ...]] = ("bbox", "lookalikes", "occurrence")
"""Fields about where the element is."""
CONTEXT: Final[tuple[str, ...]] = ("screen_size", "coord_space", "confidence", "anchors")
"""Fields that are not evidence about which element is meant (anchors give the shift)."""

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Evidence:
    """How well one element agrees with a reference, per recorded field."""

    agrees: dict[str, bool] = field(default_factory=dict)
    """Equality, selector, look-alike and occurrence fields: does the element agree?"""
    entries: dict[str, tuple[bool, frozenset[Any]]] = field(default_factory=dict)
    """List fields: (the whole list is the recorded one, the recorded entries it has)."""
    box: tuple[float, float] | None = None
    """Distance of its box from the recorded box, as measured and after the page's shift
    (0 for the second when the page shows no shift)."""


def _distance(a: Sequence[float] | None, b: Sequence[float] | None) -> float:
    """Largest difference of the four edges (infinite when a box is missing)."""
    if a is None or b is None or any(math.isnan(v) for v in (*a, *b)):
        return math.inf
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


def _shifted(box: Sequence[float], shift: tuple[float, float]) -> Box:
    dx, dy = shift
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def _entries(name: str, value: Any) -> tuple[Any, ...]:
    if name == "attributes":
        return tuple(sorted((value or {}).items()))
    return tuple(value or ())


def _same(name: str, recorded: Any, seen: Any) -> bool:
    if name == "role":
        return bool(seen) and canonical_role(str(recorded)) == canonical_role(str(seen))
    if name == "name":
        return seen is not None and collapse(str(recorded)) == collapse(str(seen))
    return bool(recorded == seen)


def recorded_fields(ref: SemanticElementRef) -> list[str]:
    """The fields the reference has a value for."""
    return [f for f in SemanticElementRef.model_fields if getattr(ref, f) not in (None, (), {})]


def _at(
    box: Sequence[float], seen: Sequence[float] | None, shift: tuple[float, float] | None
) -> bool:
    """Is ``seen`` on ``box``, as measured or after the shift?"""
    if _distance(box, seen) <= BOX_TOLERANCE:
        return True
    return shift is not None and _distance(_shifted(box, shift), seen) <= BOX_TOLERANCE


def evidence(
    ref: SemanticElementRef,
    seen: SemanticElementRef,
    selects: Callable[[str, str], bool],
    shift: tuple[float, float] | None,
) -> Evidence:
    """How an element agrees with ``ref``: ``seen`` is what the same recorder writes for it
    on the changed page, ``selects(field, selector)`` whether the recorded selector selects
    it there, ``shift`` the page's move shown by the anchors."""
    out = Evidence()
    box: tuple[float, float] | None = None
    for name in recorded_fields(ref):
        recorded = getattr(ref, name)
        if name in SAME:
            out.agrees[name] = _same(name, recorded, getattr(seen, name))
        elif name in SELECTORS:
            out.agrees[name] = selects(name, recorded)
        elif name in LISTS:
            mine, theirs = _entries(name, recorded), _entries(name, getattr(seen, name))
            out.entries[name] = (mine == theirs, frozenset(mine) & frozenset(theirs))
        elif name == "bbox":
            moved = _distance(_shifted(recorded, shift), seen.bbox) if shift else 0.0
            box = (_distance(recorded, seen.bbox), moved)
        elif name == "lookalikes":
            out.agrees[name] = not any(_at(b, seen.bbox, shift) for b in recorded)
        elif name == "occurrence":
            place = seen.occurrence[0] if seen.occurrence else 0
            out.agrees[name] = place == recorded[0]
    return Evidence(out.agrees, out.entries, box)


def perfect(ref: SemanticElementRef, shift: tuple[float, float] | None = None) -> Evidence:
    """The evidence of the element the reference was recorded from, on its own page, moved
    with the page by ``shift`` (the anchors' move) when there is one: its box is then that
    far from the recorded box as measured, and on it after the shift."""
    out = Evidence()
    recorded = recorded_fields(ref)
    for name in recorded:
        if name in LISTS:
            out.entries[name] = (True, frozenset(_entries(name, getattr(ref, name))))
        elif name in (*SAME, *SELECTORS, "lookalikes", "occurrence"):
            out.agrees[name] = True
    moved = max(abs(shift[0]), abs(shift[1])) if shift else 0.0
    return Evidence(out.agrees, out.entries, (moved, 0.0) if "bbox" in recorded else None)


def target_better(answer: Evidence, target: Evidence) -> tuple[str, ...]:
    """The recorded fields on which the target agrees with the reference better than the
    answer does; empty when the two cannot be told apart."""
    better = [n for n, ok in target.agrees.items() if ok and not answer.agrees.get(n, False)]
    for n, (whole, parts) in target.entries.items():
        a_whole, a_parts = answer.entries.get(n, (False, frozenset()))
        if not (a_parts >= parts and (a_whole or not whole)):
            better.append(n)
    if target.box is not None:
        a_box = answer.box or (math.inf, math.inf)
        if any(a > t + BOX_TOLERANCE for a, t in zip(a_box, target.box, strict=True)):
            better.append("bbox")
    return tuple(better)


# -- elements of a changed render -----------------------------------------------------------


@dataclass
class Page:
    """One changed render, as the recorders and selectors see it (built lazily)."""

    capture: Capture
    _foreign: ForeignRecorder | None = None
    _by_xpath: dict[str, Mapping[str, Any]] | None = None
    _selections: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)
    _named: dict[str, dict[str, list[int]]] = field(default_factory=dict)

    @property
    def foreign(self) -> ForeignRecorder:
        if self._foreign is None:
            self._foreign = ForeignRecorder(self.capture)
        return self._foreign

    def table(self, source: str) -> CandidateTable:
        return self.capture.observation.candidates(source)

    def xpath_of(self, executor_id: str) -> str | None:
        """The XPath of an ``a11y:<node>`` or ``xpath:<path>`` answer."""
        kind, _, ident = executor_id.partition(":")
        if kind == "xpath":
            return ident
        if kind != "a11y":
            return None
        node = self.foreign.by_id.get(ident) or {}
        backend = node.get("backendDOMNodeId")
        links = self.capture.observation.dom_node_map or {}
        return links.get(str(backend)) if backend is not None else None

    def ax_node(self, executor_id: str) -> Mapping[str, Any] | None:
        """The AX node of an answer (for a DOM answer, the one of its element)."""
        kind, _, ident = executor_id.partition(":")
        if kind == "a11y":
            return self.foreign.by_id.get(ident)
        if self._by_xpath is None:
            links = self.capture.observation.dom_node_map or {}
            nodes: dict[str, Mapping[str, Any]] = {}
            for n in sorted(self.foreign.nodes, key=lambda n: not n.get("ignored")):
                nodes[str(n.get("backendDOMNodeId"))] = n  # a shown node over an ignored one
            self._by_xpath = {xp: nodes[b] for b, xp in links.items() if b in nodes}
        return self._by_xpath.get(ident)

    def seen(
        self, executor_id: str, recorder: str, source: str, drawn: Drawn | None = None
    ) -> SemanticElementRef | None:
        """What ``recorder`` writes for the element on this page (``None`` if not found);
        ``drawn`` is the ``varied`` recorder's convention."""
        if recorder == "ours":
            table = self.table(source)
            ident = executor_id.partition(":")[2]
            rows = [i for i, rid in enumerate(table.ids) if rid == ident]
            return ref_from_row(table, rows[0]) if rows else None
        node = self.ax_node(executor_id)
        xpath = self.xpath_of(executor_id)
        if node is None and xpath is None:
            return None
        layout = self.capture.observation.dom_layout or {}
        bbox = layout.get(xpath) if xpath else None
        if bbox is None and node is not None:
            bbox = node.get("bbox")
        role = _value(node, "role") or None
        name = _value(node, "name").strip() or None
        ax_id = str((node or {}).get("nodeId"))
        ref = self.foreign.ref(ax_id, xpath, bbox, role, name, self._element_id(xpath))
        if recorder == "varied" and drawn is not None:
            return self.foreign.varied(ref, ax_id, drawn)
        return ref

    def _element_id(self, xpath: str | None) -> str | None:
        analysis = self.foreign.analysis
        found = analysis.xpath(xpath) if analysis is not None and xpath else []
        if len(found) != 1:
            return None
        return (analysis.doc.attrs[found[0]] or {}).get("id") if analysis else None

    def selects(self, executor_id: str) -> Callable[[str, str], bool]:
        """``(field, selector) -> bool``: does the recorded selector select this element?"""
        xpath = self.xpath_of(executor_id)

        def run(field: str, selector: str) -> bool:
            return xpath is not None and xpath in self._selected(field, selector)

        return run

    def _selected(self, field: str, selector: str) -> frozenset[str]:
        """The XPaths of the elements a recorded selector selects (kept per selector: the
        references of one element share theirs)."""
        kind = "css" if field == "css_selector" else "xpath"
        found = self._selections.get((kind, selector))
        if found is None:
            dom = self.table("dom")
            rows: list[int] = []
            if dom.selector_resolver is not None:
                try:
                    rows = list(dom.selector_resolver(kind, selector))
                except Exception:  # a selector this page's engine cannot run selects nothing
                    rows = []
            found = self._selections[(kind, selector)] = frozenset(dom.ids[r] for r in rows)
        return found

    def shift(self, ref: SemanticElementRef, source: str) -> tuple[float, float] | None:
        """The page's move since recording, as the reference's anchors show it: the median
        move of the anchors whose name one element of the page still has (``None`` when the
        reference has no anchors or none is found)."""
        if not ref.anchors:
            return None
        table = self.table(source)
        named = self._named.get(source)
        if named is None:
            named = self._named[source] = {}
            for i, n in enumerate(table.names):
                named.setdefault(n, []).append(i)
        moves = []
        for name, box in ref.anchors:
            rows = named.get(collapse(name), [])
            now = table.box(rows[0]) if len(rows) == 1 else None
            if now is not None:
                moves.append((now[0] - box[0], now[1] - box[1]))
        if not moves:
            return None
        return (
            float(statistics.median(m[0] for m in moves)),
            float(statistics.median(m[1] for m in moves)),
        )


def _value(node: Mapping[str, Any] | None, field: str) -> str:
    value = ((node or {}).get(field) or {}).get("value")
    return value if isinstance(value, str) else ""


def judge(
    page: Page,
    ref: SemanticElementRef,
    recorder: str,
    source: str,
    answer: str,
    expected: str | None,
    drawn: Drawn | None = None,
) -> tuple[str, ...]:
    """The fields on which the target beats ``answer`` (empty: indistinguishable).
    ``expected`` is the target's executor ID on the page, ``None`` when it was removed;
    ``drawn`` the ``varied`` recorder's convention."""
    shift = page.shift(ref, source)
    seen = page.seen(answer, recorder, source, drawn)
    if seen is None:
        return ("answer not found",)
    mine = evidence(ref, seen, page.selects(answer), shift)
    if expected is None:
        return target_better(mine, perfect(ref, shift))
    target = page.seen(expected, recorder, source, drawn)
    if target is None:
        return ("target not found",)
    return target_better(mine, evidence(ref, target, page.selects(expected), shift))


# -- how far from its reference, across cases ----------------------------------------------


def steps_apart(recorded: str | None, seen: str | None) -> float:
    """Steps of the recorded XPath that the element's own XPath does not share, counted on
    both sides (a renumbered step counts twice, a wrapper once; infinite when the element
    has no XPath)."""
    if not recorded:
        return 0.0
    if not seen:
        return math.inf
    a, b = [s for s in recorded.split("/") if s], [s for s in seen.split("/") if s]
    shared = sum(m.size for m in SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks())
    return float(len(a) + len(b) - 2 * shared)


def profile(ref: SemanticElementRef, ev: Evidence, steps: float) -> dict[str, float]:
    """How far an element is from agreeing with ``ref``, per recorded field, 0 where it
    agrees (``ev`` is its :func:`evidence`): 1 for an equality, selector, look-alike or
    occurrence field it fails; for a list field 1 plus the recorded entries it lacks, when
    its list is not the recorded one; ``bbox`` and ``bbox_moved`` its box's distances (as
    measured, after the anchors' shift); ``xpath_steps`` :func:`steps_apart`. Larger is
    worse on every key, so one element agrees no better than another when it is at least as
    large on every key the other has above 0."""
    out = {name: 0.0 if ok else 1.0 for name, ok in ev.agrees.items()}
    for name, (whole, parts) in ev.entries.items():
        lacking = len(frozenset(_entries(name, getattr(ref, name))) - parts)
        out[name] = 0.0 if whole else 1.0 + lacking
    if ev.box is not None:
        out["bbox"], out["bbox_moved"] = ev.box
    out["xpath_steps"] = steps
    return out


def profile_grid(profiles: Sequence[Mapping[str, float]]) -> tuple[list[str], np.ndarray]:
    """The keys of ``profiles`` and one row per profile (0 where a profile lacks a key: a
    field its reference did not record counts as agreement there)."""
    keys = sorted({k for p in profiles for k in p})
    grid = np.array([[p.get(k, 0.0) for k in keys] for p in profiles], dtype=float)
    return keys, grid.reshape(len(profiles), len(keys))


def dominating(case: Mapping[str, float], keys: Sequence[str], grid: np.ndarray) -> np.ndarray:
    """Which rows of ``grid`` (:func:`profile_grid`) agree with their references no better
    than ``case`` with its own, on every field where ``case`` disagrees. A rule that refuses
    an answer from how it agrees with the reference, and refuses whatever agrees no better,
    refuses all of them when it refuses ``case``."""
    column = {k: i for i, k in enumerate(keys)}
    out = np.ones(len(grid), dtype=bool)
    for k, v in case.items():
        if v > 0 and k not in column:
            return np.zeros(len(grid), dtype=bool)
        if v > 0:
            out &= grid[:, column[k]] >= v
    return out


def profile_of(
    page: Page,
    ref: SemanticElementRef,
    recorder: str,
    source: str,
    answer: str,
    drawn: Drawn | None = None,
) -> dict[str, float] | None:
    """:func:`profile` of ``answer`` against ``ref`` on this page (``None`` if not found;
    ``drawn``: the ``varied`` recorder's convention)."""
    seen = page.seen(answer, recorder, source, drawn)
    if seen is None:
        return None
    ev = evidence(ref, seen, page.selects(answer), page.shift(ref, source))
    return profile(ref, ev, steps_apart(ref.xpath, page.xpath_of(answer)))
