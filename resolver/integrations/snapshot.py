"""From a live page's CDP answers to an :class:`~resolver.observation.Observation`, with no
browser in sight: the pure half of :func:`resolver.integrations.playwright.observe`.

:func:`observe_steps` is a generator that yields the CDP calls ``(method, params)`` one
observation needs and receives their results (``None`` for a call that failed), so the same
plan runs over Playwright's sync and async CDP sessions. The calls are batched: one
``Accessibility.getFullAXTree`` per frame, one ``DOMSnapshot.captureSnapshot`` for every
element box of every document (frames and shadow roots included), one ``Runtime.evaluate``
for the HTML and the viewport, one screenshot; never one call per node. A frame another
process draws (a cross-site frame under site isolation) is read the same way on its own
session (:class:`RemoteFrame`) and hung under its frame element's node, its boxes offset by
that element's content box.

Boxes are in viewport CSS pixels at the time of the observation (what the screenshot shows
and where ``page.mouse`` clicks); frame contents are offset by their frame's position.
"""

from __future__ import annotations

import base64
import contextlib
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from ..errors import InvalidObservationError, SourceUnavailableError
from ..observation import Observation

__all__ = [
    "WORLD",
    "Call",
    "FramePath",
    "PageNavigatedError",
    "PageObservation",
    "PageSnapshot",
    "RemoteFrame",
    "observe_steps",
    "observed",
    "remote_key",
    "top_frame_id",
]

T = TypeVar("T")
Call = tuple[str, dict[str, Any]]
"""One CDP call: method and parameters."""
Box = list[float]

PAGE_JS: Final[str] = (
    "({html: document.documentElement ? document.documentElement.outerHTML : '',"
    " width: innerWidth, height: innerHeight, url: location.href})"
)
WORLD: Final[str] = "resolver"
"""The isolated world (one per frame, ``Page.createIsolatedWorld``) every function the
library runs in a page runs in: it shares the page's DOM but none of its scripts' globals,
so a page that replaced ``getBoundingClientRect``, ``elementFromPoint``, a property setter
or the timers (a fake clock, paused) changes nothing the library measures or waits for."""
_FRAGMENT: Final[int] = 11  # a DocumentFragment (the snapshot flattens shadow roots away)


FramePath = tuple[tuple[str, ...], str | None]
"""Where a node inside a frame is: the XPaths of the frame elements to enter, from the top
document down (each in its own document; a frame element inside shadow trees as a
Playwright selector, ``"xpath=<its shadow host> >> css=iframe"``), and the node's XPath in
its frame's document (``None`` inside a shadow tree)."""


class PageObservation(Observation):
    """An :class:`~resolver.observation.Observation` of a live page that also knows which
    DOM node each executor ID names (``backend_ids``: ``a11y:<id>`` and ``xpath:<xpath>`` ->
    backendNodeId), so an executor can check and act on exactly that node, and where each
    node inside a frame is (``frame_paths``: ``a11y:<id>`` -> :data:`FramePath`), so a
    locator can enter its frames. A node of a cross-site frame (another process) has its
    backend ID in that process: ``targets`` names its :class:`RemoteFrame` (a key of
    ``remote_frames``). ``unread_frames``: the URLs of cross-site frames that did not answer
    in time (their script running on), whose elements are not in the observation.
    ``unlocatable``: the ``a11y:`` IDs of nodes inside frames no selector enters (a frame
    element beside another inside one shadow host): ``act`` reaches them, locators do not.
    ``in_shadow``: the ``a11y:`` IDs of nodes inside shadow trees of the tab's own process,
    which the page's HTML (what the DOM source reads) does not hold, as it holds no frame's
    document."""

    __slots__ = (
        "backend_ids",
        "frame_paths",
        "in_shadow",
        "remote_frames",
        "targets",
        "unlocatable",
        "unread_frames",
    )
    backend_ids: Mapping[str, int]
    frame_paths: Mapping[str, FramePath]
    targets: Mapping[str, str]
    remote_frames: Mapping[str, RemoteFrame]
    unread_frames: tuple[str, ...]
    unlocatable: frozenset[str]
    in_shadow: frozenset[str]

    def __init__(
        self,
        *args: Any,
        backend_ids: Mapping[str, int],
        frame_paths: Mapping[str, FramePath] | None = None,
        targets: Mapping[str, str] | None = None,
        remote_frames: Mapping[str, RemoteFrame] | None = None,
        unread_frames: tuple[str, ...] = (),
        unlocatable: frozenset[str] = frozenset(),
        in_shadow: frozenset[str] = frozenset(),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        object.__setattr__(self, "backend_ids", dict(backend_ids))
        object.__setattr__(self, "frame_paths", dict(frame_paths or {}))
        object.__setattr__(self, "targets", dict(targets or {}))
        object.__setattr__(self, "remote_frames", dict(remote_frames or {}))
        object.__setattr__(self, "unread_frames", tuple(unread_frames))
        object.__setattr__(self, "unlocatable", frozenset(unlocatable))
        object.__setattr__(self, "in_shadow", frozenset(in_shadow))

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        """Pickled and copied as what it was made of, its node links included (not the
        live frames of cross-site frames: a copy acts on those after a new observation)."""
        _, (given,) = super().__reduce__()
        links = {"backend_ids": self.backend_ids, "frame_paths": self.frame_paths,
                 "targets": self.targets, "unread_frames": self.unread_frames,
                 "unlocatable": self.unlocatable, "in_shadow": self.in_shadow}  # fmt: skip
        return (_page_remade, ({**given, **links},))


def _page_remade(given: dict[str, Any]) -> PageObservation:
    """The page observation :meth:`PageObservation.__reduce__` took apart."""
    return PageObservation(**given)


@dataclass
class _Doc:
    """One document of a DOMSnapshot, read into plain lists."""

    parent: list[int]
    kind: list[int]
    names: list[str]
    backend: list[int]
    attributes: list[list[int]]
    shadow: frozenset[int] = frozenset()  # nodes inside a shadow tree (not in outerHTML)
    boxes: dict[int, Box] = field(default_factory=dict)
    frame_id: str = ""
    owner: tuple[int, int] | None = None  # (document, node) of the frame element holding it


@dataclass
class PageSnapshot:
    """What :func:`observe_steps` collected, before it becomes an observation."""

    ax_nodes: list[dict[str, Any]]
    docs: list[_Doc]
    strings: list[str]
    page: Mapping[str, Any]
    screenshot: bytes | None
    remotes: list[RemoteFrame] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)
    """The URLs of cross-site frames that did not answer (left out)."""


@dataclass
class RemoteFrame:
    """A frame another process draws (a cross-site frame under site isolation), read on its
    own CDP session: the tab's own session does not see into it."""

    key: str
    """Its nodes' IDs begin with ``key + "."`` (IDs are per process)."""
    snapshot: PageSnapshot
    """What :func:`observe_steps` collected on its session."""
    owner: int
    """The backendNodeId of its frame element, in the process of ``parent``."""
    offset: tuple[float, float]
    """Its content box's top left corner in the tab's viewport."""
    parent: str | None = None
    """The ``key`` of the remote frame its frame element is in (``None``: the tab's own)."""
    handle: Any = None
    """The CDP session it was read on, through which its nodes are acted on later (``None``
    once closed: an observation made with the async API, or a copy)."""


def top_frame_id(tree: Any) -> str | None:
    """The top frame's ID in a ``Page.getFrameTree`` answer (``None`` for none)."""
    frame_id = _top_frame(tree).get("id")
    return frame_id if isinstance(frame_id, str) else None


def _top_frame(tree: Any) -> Mapping[str, Any]:
    top = ((tree or {}).get("frameTree") or {}).get("frame")
    return top if isinstance(top, Mapping) else {}


def remote_key(frame_id: str) -> str:
    """The :attr:`RemoteFrame.key` of the cross-site frame with this frame ID."""
    return frame_id[:8]


def _frame_ids(tree: Any) -> list[str]:
    """Every child frame's id in a ``Page.getFrameTree`` result, parents first."""
    out: list[str] = []
    stack = list(tree.get("frameTree", {}).get("childFrames", [])) if tree else []
    while stack:
        item = stack.pop(0)
        frame_id = item.get("frame", {}).get("id")
        if isinstance(frame_id, str):
            out.append(frame_id)
        stack.extend(item.get("childFrames", []))
    return out


def observe_steps(
    *, screenshot: bool = True, document: bool = True
) -> Generator[Call, Any, PageSnapshot]:
    """The CDP calls of one observation (send each result back; ``None`` for a failure);
    without ``document``, not the page's HTML, size and URL (a cross-site frame's, which the
    observation does not keep)."""
    tree = yield ("Page.getFrameTree", {})
    main = yield ("Accessibility.getFullAXTree", {})
    if not main or not isinstance(main.get("nodes"), list):
        raise InvalidObservationError("the page gave no accessibility tree")
    frames: list[tuple[str, list[dict[str, Any]]]] = []
    for frame_id in _frame_ids(tree):
        # Out-of-process (cross-site) frames answer only on their own target: left out.
        result = yield ("Accessibility.getFullAXTree", {"frameId": frame_id})
        if result and isinstance(result.get("nodes"), list):
            frames.append((frame_id, result["nodes"]))
    snap = yield ("DOMSnapshot.captureSnapshot", {"computedStyles": []})
    page: Any = {"result": {"value": {}}}
    if document:
        top = top_frame_id(tree)
        world = yield ("Page.createIsolatedWorld", {"frameId": top, "worldName": WORLD})
        where = {"contextId": world["executionContextId"]} if _context(world) else {}
        page = yield ("Runtime.evaluate", {"expression": PAGE_JS, "returnByValue": True,
                                           **where})  # fmt: skip
    png = None
    if screenshot:
        shot = yield ("Page.captureScreenshot", {"format": "png"})
        png = base64.b64decode(shot["data"]) if shot and "data" in shot else None
    value = (page or {}).get("result", {}).get("value")
    if not snap or not isinstance(value, Mapping):  # (a navigation destroys the world too)
        if _loader((yield ("Page.getFrameTree", {}))) not in (_loader(tree), None):
            raise PageNavigatedError("the page navigated while it was observed")
        raise InvalidObservationError("the page gave no DOM snapshot or no document")
    origins: dict[int, tuple[float, float]] = {}
    for k, owner in _owners(snap).items():  # where each frame draws its document
        model = yield ("DOM.getBoxModel", {"backendNodeId": owner})
        quad = ((model or {}).get("model") or {}).get("content")
        if isinstance(quad, list) and len(quad) >= 2:
            origins[k] = (float(quad[0]), float(quad[1]))
    if _loader((yield ("Page.getFrameTree", {}))) not in (_loader(tree), None):
        raise PageNavigatedError("the page navigated while it was observed")
    docs = _read_docs(snap, origins)
    return PageSnapshot(_merge_frames(main["nodes"], frames, docs), docs, snap["strings"],
                        value, png)  # fmt: skip


class PageNavigatedError(InvalidObservationError):
    """The page's top document changed (a navigation committed) between the first and the
    last call of an observation: what was read mixes two documents (the old page's tree
    with the new page's DOM), so it is read again (:func:`observed`)."""


NAVIGATION_TRIES: Final[int] = 3
"""How many times an observation is taken while the page keeps navigating under it."""


def observed(take: Callable[[], T]) -> T:
    """``take()``, taken again while the page navigated under it (:class:`PageNavigatedError`),
    up to :data:`NAVIGATION_TRIES` times; then a :class:`SourceUnavailableError`."""
    for _ in range(NAVIGATION_TRIES - 1):
        with contextlib.suppress(PageNavigatedError):
            return take()
    try:
        return take()
    except PageNavigatedError as exc:
        raise SourceUnavailableError(
            f"the page navigated under each of {NAVIGATION_TRIES} observations in a row"
        ) from exc


def _loader(tree: Any) -> str | None:
    """The top frame's loader ID in a ``Page.getFrameTree`` answer (a new one with each
    document the frame loads)."""
    loader = _top_frame(tree).get("loaderId")
    return loader if isinstance(loader, str) else None


def _context(world: Any) -> bool:
    """Whether ``Page.createIsolatedWorld`` gave a context (else the page's main world)."""
    return isinstance(world, Mapping) and isinstance(world.get("executionContextId"), int)


def _rare(values: Any, n: int) -> dict[int, Any]:
    """A DOMSnapshot "rare data" column (``{"index": [...], "value": [...]}``) as a dict."""
    if not isinstance(values, Mapping):
        return {}
    return dict(zip(values.get("index", []), values.get("value", []), strict=False))


def _owners(snap: Mapping[str, Any]) -> dict[int, int]:
    """The backendNodeId of each frame document's frame element, by document."""
    owners: dict[int, int] = {}
    for raw in snap.get("documents", []):
        nodes = raw.get("nodes", {})
        for node, child in _rare(nodes.get("contentDocumentIndex"), 0).items():
            backends = nodes.get("backendNodeId", [])
            if isinstance(child, int) and isinstance(node, int) and 0 <= node < len(backends):
                owners[child] = backends[node]
    return owners


def _read_docs(
    snap: Mapping[str, Any], origins: Mapping[int, tuple[float, float]] | None = None
) -> list[_Doc]:
    """Every document of the snapshot with its element boxes, offset into the viewport: a
    frame's document by its frame element's content box (``origins``, by document, in the
    viewport), else by that element's border box (without its border and padding)."""
    strings: list[str] = snap.get("strings", [])
    docs: list[_Doc] = []
    owners: dict[int, tuple[int, int]] = {}
    for k, raw in enumerate(snap.get("documents", [])):
        nodes = raw["nodes"]
        names = [strings[i].lower() if i >= 0 else "" for i in nodes["nodeName"]]
        doc = _Doc(nodes["parentIndex"], nodes["nodeType"], names, nodes["backendNodeId"],
                   nodes.get("attributes", [[] for _ in names]),
                   frozenset(_rare(nodes.get("shadowRootType"), len(names))))  # fmt: skip
        frame = raw.get("frameId", -1)
        doc.frame_id = strings[frame] if isinstance(frame, int) and frame >= 0 else ""
        for node, child in _rare(nodes.get("contentDocumentIndex"), len(names)).items():
            owners[int(child)] = (k, int(node))
        layout = raw.get("layout", {})
        scroll = (raw.get("scrollOffsetX", 0.0), raw.get("scrollOffsetY", 0.0))
        for node, (x, y, w, h) in zip(layout.get("nodeIndex", []), layout.get("bounds", []),
                                      strict=False):  # fmt: skip
            doc.boxes[node] = [x - scroll[0], y - scroll[1], x - scroll[0] + w, y - scroll[1] + h]
        docs.append(doc)
    for k, doc in enumerate(docs):  # parents come before their frames' documents
        doc.owner = owners.get(k)
        if doc.owner is not None:
            frame_box = docs[doc.owner[0]].boxes.get(doc.owner[1])
            origin = (origins or {}).get(k) or (frame_box[:2] if frame_box else None)
            if origin is not None:
                dx, dy = origin[0], origin[1]
                doc.boxes = {i: [b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy]
                             for i, b in doc.boxes.items()}  # fmt: skip
    return docs


def _merge_frames(
    main: list[dict[str, Any]], frames: list[tuple[str, list[dict[str, Any]]]], docs: list[_Doc]
) -> list[dict[str, Any]]:
    """One node list: each frame's tree hung under its frame element's node."""
    nodes = list(main)
    by_backend = {n.get("backendDOMNodeId"): n for n in nodes if not n.get("ignored")}
    owner_of = {d.frame_id: docs[d.owner[0]].backend[d.owner[1]] for d in docs if d.owner}
    taken = {n.get("nodeId") for n in nodes}
    for frame_id, frame_nodes in frames:
        clash = any(n.get("nodeId") in taken for n in frame_nodes)
        prefix = f"{frame_id[:8]}." if clash else ""  # ids are per document; rarely shared
        holder = by_backend.get(owner_of.get(frame_id))
        for node in frame_nodes:
            node = dict(node)
            if prefix:
                node["nodeId"] = prefix + str(node.get("nodeId"))
                node["childIds"] = [prefix + str(c) for c in node.get("childIds", [])]
                if "parentId" in node:
                    node["parentId"] = prefix + str(node["parentId"])
            if "parentId" not in node and holder is not None:
                node["parentId"] = holder["nodeId"]
                holder["childIds"] = [*holder.get("childIds", []), node["nodeId"]]
            taken.add(node.get("nodeId"))
            nodes.append(node)
            by_backend.setdefault(node.get("backendDOMNodeId"), node)
    return nodes


def _outside(doc: _Doc) -> list[bool]:
    """Per node, whether it is inside a shadow tree (not in the HTML the DOM source reads,
    and no XPath reaches it)."""
    outside = [False] * len(doc.parent)
    for i, p in enumerate(doc.parent):
        outside[i] = i in doc.shadow or doc.kind[i] == _FRAGMENT or (p >= 0 and outside[p])
    return outside


def _xpaths(doc: _Doc, outside: list[bool]) -> dict[int, str]:
    """Each element's XPath in its document, by node index (none inside a shadow tree)."""
    xpaths: dict[int, str] = {}
    counts: dict[tuple[int, str], int] = {}
    for i in range(1, len(doc.parent)):
        p = doc.parent[i]
        if doc.kind[i] != 1 or outside[i] or p < 0:
            continue
        key = (p, doc.names[i])
        counts[key] = counts.get(key, 0) + 1
        xpaths[i] = f"{xpaths.get(p, '')}/{doc.names[i]}[{counts[key]}]"
    return xpaths


def _light_tree(doc: _Doc, strings: Sequence[str]) -> tuple[dict[str, Any], dict[int, str]]:
    """The main document's light DOM as a ``DOM.getDocument``-style tree (what
    ``Observation(dom_node_map=...)`` reads: xpaths and attributes by backendNodeId), and
    each element's xpath by node index."""
    outside = _outside(doc)
    items: list[dict[str, Any]] = []
    for i, p in enumerate(doc.parent):
        attrs = doc.attributes[i] if i < len(doc.attributes) else []
        items.append({"nodeType": doc.kind[i], "localName": doc.names[i],
                      "backendNodeId": doc.backend[i], "children": [],
                      "attributes": [strings[a] for a in attrs]})  # fmt: skip
        if p >= 0 and not outside[i]:
            items[p]["children"].append(items[i])
    return {"root": items[0] if items else {}}, _xpaths(doc, outside)


def _frame_places(
    docs: Sequence[_Doc],
    main: dict[int, str],
    *,
    top: bool = True,
    sealed: set[int] | None = None,
) -> dict[int, FramePath]:
    """For each node of a frame (by backendNodeId): the frame elements' XPaths from the top
    document down, and its own XPath in its document; with ``top``, the top document's own
    nodes too (no frame to enter). A frame element inside shadow trees is entered by a
    selector (:func:`_shadow_holder`); one none reaches is left out, and so are the frames
    inside it (their nodes' backend IDs go to ``sealed``)."""
    entered: list[tuple[str, ...] | None] = [()]
    places: dict[int, FramePath] = {}
    if docs and top:
        for i, backend in enumerate(docs[0].backend):
            places.setdefault(backend, ((), main.get(i)))
    paths = [main]
    for doc in docs[1:]:
        paths.append(_xpaths(doc, _outside(doc)))
        route: tuple[str, ...] | None = None
        if doc.owner is not None and doc.owner[0] < len(entered):
            above, holder = entered[doc.owner[0]], paths[doc.owner[0]].get(doc.owner[1])
            if holder is None:  # (a frame element inside shadow trees)
                holder = _shadow_holder(docs[doc.owner[0]], paths[doc.owner[0]], doc.owner[1])
            route = None if above is None or holder is None else (*above, holder)
        entered.append(route)
        if route is not None:
            for i, backend in enumerate(doc.backend):
                places.setdefault(backend, (route, paths[-1].get(i)))
        elif sealed is not None:
            sealed.update(doc.backend)
    return places


_FRAME_TAGS: Final[frozenset[str]] = frozenset({"iframe", "frame"})


def _shadow_holder(doc: _Doc, xpaths: Mapping[int, str], owner: int) -> str | None:
    """A Playwright selector for a frame element inside shadow trees (no XPath reaches it):
    the XPath of the shadow host it is under, then ``css=iframe``, which Playwright looks
    for inside open shadow roots too; only when nothing else under that host is a frame
    element (else ``None``: the selector would not tell them apart)."""
    host = doc.parent[owner] if doc.names[owner] in _FRAME_TAGS else -1
    while host >= 0 and host not in xpaths:
        host = doc.parent[host]
    if host < 0:
        return None
    under = 0
    for i, name in enumerate(doc.names):
        if name in _FRAME_TAGS:
            up = doc.parent[i]
            while up >= 0 and up != host:
                up = doc.parent[up]
            under += up == host
    return f"xpath={xpaths[host]} >> css={doc.names[owner]}" if under == 1 else None


def to_observation(snapshot: PageSnapshot, **options: Any) -> PageObservation:
    """The observation of a collected page (``options`` go to the observation)."""
    backend_box: dict[int, Box] = {}
    for doc in snapshot.docs:
        for i, box in doc.boxes.items():
            backend_box.setdefault(doc.backend[i], box)
    backend_ids: dict[str, int] = {}
    for node in snapshot.ax_nodes:
        backend = node.get("backendDOMNodeId")
        if backend is not None:
            backend_ids[f"a11y:{node.get('nodeId')}"] = int(backend)
            if backend in backend_box:
                node["bbox"] = backend_box[backend]
    document, xpaths = (_light_tree(snapshot.docs[0], snapshot.strings) if snapshot.docs
                        else ({"root": {}}, {}))  # fmt: skip
    main = snapshot.docs[0] if snapshot.docs else None
    layout = {}
    if main is not None:
        for i, xpath in xpaths.items():
            backend_ids[f"xpath:{xpath}"] = main.backend[i]
            if i in main.boxes:
                layout[xpath] = main.boxes[i]
    # (the top document's nodes are looked up only to place cross-site frames' elements)
    sealed: set[int] = set()
    places = _frame_places(snapshot.docs, xpaths, top=bool(snapshot.remotes), sealed=sealed)
    frame_paths = {
        f"a11y:{node.get('nodeId')}": places[backend]
        for node in snapshot.ax_nodes
        if (backend := node.get("backendDOMNodeId")) in places and places[backend][0]
    }
    remote = _Remotes(snapshot.ax_nodes, places, backend_ids, frame_paths)
    nodes = [*snapshot.ax_nodes, *remote.join(snapshot.remotes)]
    page = snapshot.page
    size = (float(page.get("width") or 0), float(page.get("height") or 0))
    return PageObservation(
        {"nodes": nodes}, "<!DOCTYPE html>\n" + str(page.get("html") or ""),
        snapshot.screenshot,
        screen_size=size if min(size) > 0 else None, url=page.get("url") or None,
        tree_format="cdp", dom_layout=layout, dom_node_map=document,
        backend_ids=backend_ids, frame_paths=frame_paths, targets=remote.targets,
        remote_frames={r.key: r for r in snapshot.remotes},
        unread_frames=tuple(snapshot.unread), unlocatable=remote.unlocatable(sealed),
        in_shadow=_in_shadow(snapshot), **options,
    )  # fmt: skip


def _in_shadow(snapshot: PageSnapshot) -> frozenset[str]:
    """The ``a11y:`` IDs of the tab's own nodes inside shadow trees."""
    inside = {
        doc.backend[i]
        for doc in snapshot.docs
        if doc.shadow
        for i, out in enumerate(_outside(doc))
        if out and i < len(doc.backend)
    }
    if not inside:
        return frozenset()
    return frozenset(
        f"a11y:{node.get('nodeId')}"
        for node in snapshot.ax_nodes
        if node.get("backendDOMNodeId") in inside
    )


class _Remotes:
    """Remote frames' nodes hung under their frame elements' nodes, with their boxes
    offset into the tab's viewport, their backend IDs (in their own process: ``targets``
    says which) and their frame paths."""

    def __init__(
        self,
        top: list[dict[str, Any]],
        places: dict[int, FramePath],
        backend_ids: dict[str, int],
        frame_paths: dict[str, FramePath],
    ) -> None:
        self.backend_ids, self.frame_paths = backend_ids, frame_paths
        self.targets: dict[str, str] = {}
        self.top = top
        self.sealed: set[str] = set()  # (remote frames' nodes no selector reaches)
        # Per process (None: the tab's own): its nodes by backend ID, and their places.
        self.parts: dict[str | None, tuple[dict[Any, dict[str, Any]], dict[int, FramePath]]] = {
            None: (_by_backend(top), places)
        }

    def join(self, remotes: Sequence[RemoteFrame]) -> list[dict[str, Any]]:
        """The remote frames' nodes (each frame after the one its element is in)."""
        out: list[dict[str, Any]] = []
        for remote in remotes:
            if remote.parent not in self.parts or not remote.snapshot.docs:
                continue  # (its parent was not read: nowhere to hang it)
            nodes = self._one(remote)
            out.extend(nodes)
        return out

    def _one(self, remote: RemoteFrame) -> list[dict[str, Any]]:
        parent_nodes, parent_places = self.parts[remote.parent]
        holder = parent_nodes.get(remote.owner)
        above = parent_places.get(remote.owner)
        route = None if above is None or above[1] is None else (*above[0], above[1])
        docs, (dx, dy) = remote.snapshot.docs, remote.offset
        boxes: dict[int, Box] = {}
        for doc in docs:
            for i, b in doc.boxes.items():
                boxes.setdefault(doc.backend[i], [b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy])
        own = _frame_places(docs, _xpaths(docs[0], _outside(docs[0])))
        places: dict[int, FramePath] = {}
        nodes, mine = [], _by_backend(remote.snapshot.ax_nodes)
        for raw in remote.snapshot.ax_nodes:
            node = _prefixed(raw, remote.key + ".")
            if "parentId" not in node and holder is not None:
                node["parentId"] = holder["nodeId"]
                holder["childIds"] = [*holder.get("childIds", []), node["nodeId"]]
            executor = f"a11y:{node['nodeId']}"
            self.targets[executor] = remote.key
            # Its backend ID is of another process: kept for acting (``backend_ids``), not
            # in the tree, where the page's own DOM would be linked to it by that number.
            backend = node.pop("backendDOMNodeId", None)
            if backend is not None:
                self.backend_ids[executor] = int(backend)
                if backend in boxes:
                    node["bbox"] = boxes[backend]
                if route is not None and backend in own:
                    places[backend] = ((*route, *own[backend][0]), own[backend][1])
                    self.frame_paths[executor] = places[backend]
                else:
                    self.sealed.add(executor)
            nodes.append(node)
            if mine.get(backend) is raw:
                mine[backend] = node
        self.parts[remote.key] = (mine, places)
        return nodes

    def unlocatable(self, sealed: set[int]) -> frozenset[str]:
        """The ``a11y:`` IDs of the nodes no selector reaches: the tab's own nodes whose
        backend IDs are ``sealed``, and the remote frames' ones (after :meth:`join`)."""
        if not sealed:  # (no loop over every node of the page when no frame is sealed)
            return frozenset(self.sealed)
        own = {f"a11y:{n.get('nodeId')}" for n in self.top if n.get("backendDOMNodeId") in sealed}
        return frozenset(own | self.sealed)


def _by_backend(nodes: list[dict[str, Any]]) -> dict[Any, dict[str, Any]]:
    """Nodes by backend ID, the first node not ignored for each."""
    found: dict[Any, dict[str, Any]] = {}
    for node in nodes:
        if not node.get("ignored"):
            found.setdefault(node.get("backendDOMNodeId"), node)
    return found


def _prefixed(node: Mapping[str, Any], prefix: str) -> dict[str, Any]:
    """A copy of a node whose IDs (its own, its children's, its parent's) begin with
    ``prefix``."""
    out = dict(node)
    out["nodeId"] = prefix + str(node.get("nodeId"))
    out["childIds"] = [prefix + str(c) for c in node.get("childIds") or []]
    if "parentId" in node:
        out["parentId"] = prefix + str(node["parentId"])
    return out
