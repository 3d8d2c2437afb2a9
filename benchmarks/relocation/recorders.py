"""The references two recorders would store for each target of a base render.

``ours``
    :func:`resolver.capture.ref_from_row` on the base render's candidate table: the a11y
    table row of the target's AX node for the a11y source, the DOM table row at the
    target's XPath for the DOM source (role, name, box, container path, state, platform IDs).
``foreign``
    What a Chrome extension or a plain CDP shim would write, and nothing else: Chromium's
    role and name, the border box, ``screen_size=(1280, 800)``, the absolute XPath, a CSS
    selector (``#id`` when the element has an id, else a ``tag:nth-of-type(n)`` path),
    ``container_path``: the names of all named ancestors in Chromium's AX tree, outermost
    first, whatever their role; and what a content script reads from the element: its tag,
    ``id``, class list, ``href`` (resolved, as ``element.href`` gives it), the ``name``/
    ``type``/``placeholder``/``title``/``alt`` attributes, and the two visible text nodes
    before and after it in document order (:func:`_dom_facts`, from the base page's parsed
    DOM, not from resolver's tables). The same reference is resolved with either source.
``completed``
    The ``foreign`` reference completed from the base render, as a recording that kept the
    page allows (:func:`resolver.capture.complete_ref` with the trial's source): the
    element found again on its own page and recorded with ``ref_from_row``. Where the
    element is not found with certainty there, the ``foreign`` reference as it is;
    :attr:`Recorded.completion` says which element each completion found.
``varied``
    The ``foreign`` reference as another tool's convention writes it: one convention per
    target, drawn from :data:`~benchmarks.relocation.conventions.CONVENTIONS` with an RNG
    seeded from the page name and the target key (:attr:`Recorded.convention`); the same
    reference is resolved with either source. Like ``foreign``, it has no look-alikes and no
    anchors.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

from resolver import ResolutionError, SemanticElementRef, resolve
from resolver.adapters.dom import DomAnalysis, document_base_url
from resolver.capture import complete_ref, ref_from_row
from resolver.capture.complete import answer_row
from resolver.replay.captures import Capture

from .conventions import LANDMARK_ROLES, Drawn, draw

__all__ = ["RECORDERS", "ForeignRecorder", "Recorded", "css_from_xpath", "record_targets"]

RECORDERS = ("ours", "foreign", "completed", "varied")

COMPLETIONS = ("element", "other", "refused")
"""What a completion found on the base render: the target, another element, or nothing
certain (the ``foreign`` reference is then kept)."""
SCREEN = (1280, 800)
_STEP = re.compile(r"^([^\[\]]+)\[(\d+)\]$")
_PLAIN_ID = re.compile(r"^[A-Za-z_][\w-]*$")


@dataclass(frozen=True)
class Recorded:
    """One target as recorded on the base render."""

    key: str
    role: str | None
    name: str | None
    twin: bool  # another node of the base AX tree has the same role and name
    refs: dict[tuple[str, str], SemanticElementRef] = field(default_factory=dict)
    # (recorder, source) -> reference
    completion: dict[str, str] = field(default_factory=dict)
    # source -> one of COMPLETIONS, for the ``completed`` recorder
    convention: Drawn = field(default_factory=Drawn)
    # the ``varied`` recorder's convention for this target


def css_from_xpath(xpath: str) -> str | None:
    """``/html[1]/body[1]/div[2]/a[1]`` -> ``body > div:nth-of-type(2) > a:nth-of-type(1)``."""
    parts = []
    for step in xpath.strip("/").split("/"):
        m = _STEP.match(step)
        if m is None:
            return None
        tag, n = m.group(1), m.group(2)
        if tag == "html":
            continue
        parts.append(tag if tag == "body" else f"{tag}:nth-of-type({n})")
    return " > ".join(parts) or None


def _css(element_id: str | None, xpath: str | None) -> str | None:
    if element_id:
        if _PLAIN_ID.match(element_id):
            return f"#{element_id}"
        return '[id="' + element_id.replace("\\", "\\\\").replace('"', '\\"') + '"]'
    return css_from_xpath(xpath) if xpath else None


def _value(node: Mapping[str, Any], field_name: str) -> str:
    value = (node.get(field_name) or {}).get("value")
    return value if isinstance(value, str) else ""


def _ancestors(node_id: str, by_id: Mapping[str, Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """The AX ancestors of a node, innermost first (a cycle or a missing node ends them)."""
    seen = {node_id}
    parent = by_id.get(node_id, {}).get("parentId")
    while parent is not None and parent not in seen:
        seen.add(parent)
        node = by_id.get(parent)
        if node is None:
            break
        yield node
        parent = node.get("parentId")


def _named_ancestors(node_id: str, by_id: Mapping[str, Mapping[str, Any]]) -> tuple[str, ...]:
    names: list[str] = []
    for node in _ancestors(node_id, by_id):
        name = _value(node, "name").strip()
        if name and not node.get("ignored"):
            names.append(name)
    return tuple(reversed(names))


def _landmark_ancestors(node_id: str, by_id: Mapping[str, Mapping[str, Any]]) -> tuple[str, ...]:
    """The landmark ancestors of a node (:data:`LANDMARK_ROLES`), outermost first, each as
    its name when it has one, else as its role."""
    path: list[str] = []
    for node in _ancestors(node_id, by_id):
        role = _value(node, "role")
        if role in LANDMARK_ROLES and not node.get("ignored"):
            path.append(_value(node, "name").strip() or role)
    return tuple(reversed(path))


_NEARBY_SIDE = 2
_NEARBY_CHARS = 80


def _text_stream(analysis: DomAnalysis) -> tuple[list[tuple[int, str]], list[int]]:
    """The page's visible text nodes in document order, as ``(element, text)``, and per
    element the number of text nodes before its start."""
    texts: list[tuple[int, str]] = []
    before = [0] * len(analysis.doc)
    if len(analysis.doc):
        _walk_into(analysis.doc, analysis, 0, texts, before)
    return texts, before


def _walk_into(
    doc: Any, analysis: DomAnalysis, element: int, texts: list[tuple[int, str]], before: list[int]
) -> None:
    """Append the visible text nodes of ``element``'s subtree, in order (iteratively)."""
    rendered, hidden = analysis.states.rendered, analysis.states.hidden
    stack: list[tuple[int, int]] = [(element, 0)]
    while stack:
        e, at = stack.pop()
        if at == 0:
            before[e] = len(texts)
            if not rendered[e] or hidden[e] or doc.tags[e] in ("script", "style"):
                continue
        content = doc.content[e]
        while at < len(content):
            child = content[at]
            at += 1
            if isinstance(child, str):
                text = " ".join(child.split())
                if text:
                    texts.append((e, text))
            else:
                stack.append((e, at))
                stack.append((child, 0))
                break


def _dom_facts(
    analysis: DomAnalysis,
    stream: tuple[list[tuple[int, str]], list[int]],
    xpath: str,
    url: str | None,
) -> dict[str, Any]:
    """What a content script reads from the element at ``xpath`` (see the module doc)."""
    found = analysis.xpath(xpath)
    if len(found) != 1:
        return {}
    e = found[0]
    attrs = analysis.doc.attrs[e] or {}
    facts: dict[str, Any] = {"tag": analysis.doc.tags[e]}
    if attrs.get("id", "").strip():
        facts["dom_id"] = attrs["id"]
    classes = list(dict.fromkeys(attrs.get("class", "").split()))
    if classes:
        facts["classes"] = tuple(c for c in classes if len(c) <= 128)[:32]
    href = attrs.get("href", "").strip()
    if href:
        facts["href"] = (urljoin(url, href) if url else href)[:2048]
    facts["attributes"] = {
        k: attrs[k][:256] for k in ("name", "type", "placeholder", "title", "alt")
        if attrs.get(k, "").strip()
    }  # fmt: skip
    texts, before = stream
    end = before[analysis.states.end[e]] if analysis.states.end[e] < len(before) else len(texts)
    own = " ".join((analysis.name(e) or "").split()).lower()
    nearby: list[str] = []
    for indices in (range(before[e] - 1, -1, -1), range(end, len(texts))):
        taken = 0
        for i in indices:
            if taken >= _NEARBY_SIDE:
                break
            text = texts[i][1]
            if text.lower() != own and text[:_NEARBY_CHARS] not in nearby:
                nearby.append(text[:_NEARBY_CHARS])
                taken += 1
    facts["nearby_text"] = tuple(nearby)
    return facts


class ForeignRecorder:
    """The ``foreign`` recorder on one render: the reference it writes for any element."""

    def __init__(self, capture: Capture) -> None:
        tree = capture.observation.accessibility_tree
        nodes: list[Mapping[str, Any]] = tree.get("nodes", []) if isinstance(tree, Mapping) else []
        by_id = {str(n.get("nodeId")): n for n in nodes}
        for n in nodes:  # older Chromium builds give childIds only
            for child in n.get("childIds", ()):
                if child in by_id and "parentId" not in by_id[child]:
                    by_id[child] = {**by_id[child], "parentId": str(n.get("nodeId"))}
        self.nodes = nodes
        self.by_id = by_id
        html, url = capture.observation.dom_html, capture.observation.url
        self.analysis = DomAnalysis(html) if html else None
        # element.href resolves against the document base URL (a <base href> if any)
        self.url = document_base_url(self.analysis.doc, url) if self.analysis else url
        self.stream = _text_stream(self.analysis) if self.analysis is not None else ([], [])

    def ref(
        self,
        ax_id: str,
        xpath: str | None,
        bbox: Any,
        role: str | None,
        name: str | None,
        element_id: str | None,
    ) -> SemanticElementRef:
        """The reference of the element with AX node ``ax_id`` (at ``xpath``, with its
        border box, Chromium's role and name, and its ``id`` attribute)."""
        analysis = self.analysis
        facts = _dom_facts(analysis, self.stream, xpath, self.url) if xpath and analysis else {}
        return SemanticElementRef(
            role=role,
            name=name,
            bbox=tuple(bbox) if bbox else None,
            screen_size=SCREEN,
            xpath=xpath,
            css_selector=_css(element_id, xpath),
            container_path=_named_ancestors(ax_id, self.by_id),
            **facts,
        )

    def landmark_path(self, ax_id: str) -> tuple[str, ...]:
        """The landmark ancestors of AX node ``ax_id`` (the ``landmarks`` convention)."""
        return _landmark_ancestors(ax_id, self.by_id)

    def varied(self, foreign: SemanticElementRef, ax_id: str, drawn: Drawn) -> SemanticElementRef:
        """The ``foreign`` reference of AX node ``ax_id`` as convention ``drawn`` writes it."""
        return drawn.apply(foreign, self.landmark_path(ax_id))


def record_targets(
    base: Capture,
    sources: tuple[str, ...],
    element_ids: Mapping[str, str | None],
    page: str = "",
    convention: str = "",
) -> dict[str, Recorded]:
    """Every labelled target exposed in the base render's a11y tree, with its references.

    ``element_ids`` maps target keys to the element's ``id`` attribute in the page (the
    pages are rendered without scripts, so the render has the same ids); ``page`` (the page
    name) seeds the ``varied`` recorder's choice of convention per target, unless
    ``convention`` names the one every ``varied`` reference is written in.
    """
    foreign_recorder = ForeignRecorder(base)
    pairs = Counter(
        (_value(n, "role"), _value(n, "name").strip())
        for n in foreign_recorder.nodes
        if not n.get("ignored") and _value(n, "name").strip()
    )
    a11y = base.observation.candidates("a11y")
    a11y_row = {node_id: i for i, node_id in enumerate(a11y.ids)}
    dom = base.observation.candidates("dom") if "dom" in sources else None
    dom_row = {xp: i for i, xp in enumerate(dom.ids)} if dom is not None else {}

    out: dict[str, Recorded] = {}
    for key, label in sorted(base.labels.items(), key=lambda kv: int(kv[0][1:])):
        ax_id = label.get("ax_node_id")
        row = a11y_row.get(str(ax_id)) if ax_id is not None else None
        if row is None:
            continue  # not exposed on the base page: nothing a person could have recorded
        role, name = label.get("role"), (label.get("name") or "").strip() or None
        twin = name is not None and pairs[(role or "", name)] >= 2
        refs: dict[tuple[str, str], SemanticElementRef] = {}
        if "a11y" in sources:
            refs[("ours", "a11y")] = ref_from_row(a11y, row)
        xpath = label.get("xpath")
        drow = dom_row.get(xpath) if xpath else None
        if dom is not None and drow is not None:
            refs[("ours", "dom")] = ref_from_row(dom, drow)
        foreign = foreign_recorder.ref(
            str(ax_id), xpath, label.get("bbox"), role, name, element_ids.get(key)
        )
        if "a11y" in sources:
            refs[("foreign", "a11y")] = foreign
        if drow is not None:  # a DOM-source trial needs the target in the base DOM table
            refs[("foreign", "dom")] = foreign
        completion: dict[str, str] = {}
        target_rows = {"a11y": row, "dom": drow}
        for source in [s for s in sources if ("foreign", s) in refs]:
            refs[("completed", source)], completion[source] = _completed(
                foreign, base, source, target_rows[source]
            )
        drawn = draw(page, key, convention)
        varied = foreign_recorder.varied(foreign, str(ax_id), drawn)
        for source in [s for s in sources if ("foreign", s) in refs]:
            refs[("varied", source)] = varied
        out[key] = Recorded(key, role, name, twin, refs, completion, drawn)
    return out


def _completed(
    foreign: SemanticElementRef,
    base: Capture,
    source: str,
    row: int | None,
) -> tuple[SemanticElementRef, str]:
    """The ``completed`` reference on ``source`` and which element the completion found
    (``row`` is the target's row of the source's base table)."""
    try:
        found = resolve(foreign, base.observation, sources=(source,), coords_fallback="never")
        completed = complete_ref(foreign, base.observation, sources=(source,))
    except ResolutionError:
        return foreign, "refused"
    table = base.observation.candidates(source)
    return completed, "element" if answer_row(table, found) == row else "other"
