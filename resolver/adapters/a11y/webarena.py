"""WebArena / VisualWebArena text observations, with WebArena's ``union_bound`` side table.

Input, as the ``accessibility_tree`` value:

- the text alone: ``"\\t" * depth + "[id] role 'name' prop: value ..."`` lines, optionally
  after a ``Tab 0 (current): <title>`` header (WebArena's ``accessibility_tree``
  observation), or VisualWebArena's set-of-marks lines ``[id] [TAG] [text]``;
- or a dict carrying the side table beside it: ``{"text": <text>, "obs_nodes_info": {id:
  {"backend_id", "union_bound": [x, y, w, h], "text"}}}``. The ``obs_nodes_info`` may also sit
  where WebArena's ``info`` keeps it, ``{"observation_metadata": {"text": {"obs_nodes_info":
  ...}}}``. An optional ``"viewport_size": {"width", "height"}`` gives the screen size.

The ``[id]`` is the CDP AX node ID of that snapshot, so row and executor IDs are it
(``a11y:35``); unmarked set-of-marks lines get ``#`` and their line number (``a11y:#12``),
which no executor mistakes for a mark. ``union_bound`` boxes are
viewport CSS pixels (``coord_space="css_px"``); a zero-size bound (WebArena's value for
nodes without a box) counts as unknown. ``backend_id`` fills ``backend_node_id``. States
read from the text: ``focused: True``, ``disabled: True``. VisualWebArena image texts
``"alt, url: ..."`` keep the alt text as the name and the URL as the value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ...errors import InvalidObservationError
from ...geometry import CoordSpace
from ...table import CandidateTable, TableBuilder
from .._common import as_str, box_from_xywh
from . import SourceInput, TreeFormat, TreeInput
from ._walk import Outline
from ._webtext import dialect, parse_lines

_DIALECTS: Final[frozenset[str]] = frozenset({"webarena", "som"})
_URL_MARK: Final[str] = ", url: "
# (enabled, visible, focused) at disabled + 2 * focused: rows share these instead of each
# allocating one for the garbage collector to track.
_STATES: Final[tuple[tuple[int, int, int], ...]] = (
    (-1, -1, -1),
    (0, -1, -1),
    (-1, -1, 1),
    (0, -1, 1),
)


def _unpack(tree: TreeInput) -> tuple[str, Mapping[str, Any], Any] | None:
    """(text, obs_nodes_info, viewport) or ``None`` when the input is not this shape."""
    if tree.kind == "text" and isinstance(tree.data, str):
        return tree.data, {}, None
    data = tree.data
    if (
        tree.kind != "json"
        or not isinstance(data, Mapping)
        or not isinstance(data.get("text"), str)
    ):
        return None
    info = data.get("obs_nodes_info")
    if info is None:
        meta = data.get("observation_metadata")
        meta = meta.get("text") if isinstance(meta, Mapping) else None
        info = meta.get("obs_nodes_info") if isinstance(meta, Mapping) else None
    return data["text"], info if isinstance(info, Mapping) else {}, data.get("viewport_size")


def detect(tree: TreeInput) -> bool:
    """WebArena or set-of-marks text (alone, or as ``{"text", "obs_nodes_info"}``)."""
    unpacked = _unpack(tree)
    if unpacked is None:
        return False
    if tree.kind == "json" and not unpacked[1] and "observation_metadata" not in tree.data:
        return False  # a bare {"text": ...} dict is too vague to claim
    return dialect(unpacked[0]) in _DIALECTS


def _viewport(value: Any) -> tuple[float, float] | None:
    """``(width, height)`` from ``viewport_size``, when both are positive."""
    if isinstance(value, Mapping):
        box = box_from_xywh({"x": 0, "y": 0, **value})
        if box is not None and box[2] > 0 and box[3] > 0:
            return (box[2], box[3])
    return None


def _bound(info: Any) -> tuple[float, float, float, float] | None:
    """A node's ``union_bound`` ``[x, y, w, h]`` as ``(l, t, r, b)``; zero size is unknown."""
    if type(info) is not dict:
        return None
    bound = info.get("union_bound")
    if type(bound) is list and len(bound) == 4:
        try:
            x, y, w, h = bound
            return (x + 0.0, y + 0.0, x + w + 0.0, y + h + 0.0) if (w or h) else None
        except (TypeError, OverflowError):  # not plain numbers: the general reader decides
            pass
    box = box_from_xywh(bound)
    if box is None or (box[2] == box[0] and box[3] == box[1]):
        return None
    return box


def _rows(text: str, nodes_info: Mapping[str, Any], builder: TableBuilder) -> None:
    """One row per tree line; parents from indentation, boxes from ``obs_nodes_info``."""
    som = dialect(text) == "som"
    outline = Outline(builder)
    append = builder.rows.append
    for indent, node_id, role, name, rest in parse_lines(text, som=som):
        parent, path = outline.place(indent)
        value = ""
        if som and _URL_MARK in name:
            name, _, value = name.partition(_URL_MARK)
        info = nodes_info.get(node_id) if node_id else None
        backend = (
            info.get("backend_id") if type(info) is dict or isinstance(info, Mapping) else None
        )
        append((
            node_id or f"#{path}", role, name, parent, _bound(info), value,
            _STATES[("disabled: True" in rest) + 2 * ("focused: True" in rest)],
            None if backend is None else as_str(backend) or None,
        ))  # fmt: skip


def build(tree: TreeInput, source: SourceInput) -> CandidateTable:
    """One row per tree line (see :func:`_rows`)."""
    unpacked = _unpack(tree)
    if unpacked is None:
        raise InvalidObservationError(
            "a WebArena observation is its text, or {'text': ..., 'obs_nodes_info': {...}}"
        )
    text, nodes_info, viewport = unpacked
    builder = TableBuilder(
        "a11y", "webarena", platform="cdp", id_columns=("backend_node_id",),
        max_rows=source.max_nodes,
    )  # fmt: skip
    _rows(text, nodes_info, builder)
    if not builder.rows:
        raise InvalidObservationError("no tree lines found in the WebArena observation")
    screen = source.screen_size or _viewport(viewport)
    return builder.build(coord_space=CoordSpace.CSS_PX, screen_size=screen)


FORMAT = TreeFormat("webarena", detect, build)
