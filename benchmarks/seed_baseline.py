"""The seed's additive scorer: the baseline every benchmark figure is compared to.

This is the reference implementation described in DESIGN.md section 5, kept out of the
library on purpose. For every node of a tree it adds:

- ``+10`` when the node's role equals the recorded role,
- ``+10`` when the node's name equals the recorded name, or else ``+5`` when one name is a
  substring of the other (case-insensitive),
- ``+3`` when the node's bbox centre lies within 50 px of the recorded bbox centre.

The highest score wins; on a tie the node seen first wins; a best score of 0 means "not found".
There is no threshold, no margin and no notion of "this element is gone": whatever scores
highest is the answer.

Two walkers share :func:`seed_score`:

- :func:`find_in_a11y_tree` walks a nested ``{id, role, name, bbox, children}`` tree with a
  plain Python loop (pre-order, as the original recursive version visited it; an explicit
  stack so deep trees do not hit the recursion limit);
- :func:`find_in_cdp_nodes` scores a CDP ``Accessibility.getFullAXTree`` node list in list
  order (``role``/``name`` are ``{"value": ...}`` objects, ``bbox`` is an added
  ``[left, top, right, bottom]``), so the seed can run on ``fixtures/captured/*/axtree.json``.

Two choices the seed left open are fixed here and documented: roles compare case-insensitively
(``"Button"`` equals ``"button"``), and the substring test needs both names non-empty (otherwise
the empty name of every unnamed node would be a "substring" of the recorded name).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from resolver import ElementNotFoundError, Observation, SemanticElementRef

__all__ = [
    "NAME_EXACT_POINTS",
    "NAME_SUBSTRING_POINTS",
    "NEAR_POINTS",
    "NEAR_PX",
    "ROLE_POINTS",
    "cdp_nodes_of",
    "find_in_a11y_tree",
    "find_in_cdp_nodes",
    "seed_resolve_cdp",
    "seed_score",
]

ROLE_POINTS: Final[int] = 10
NAME_EXACT_POINTS: Final[int] = 10
NAME_SUBSTRING_POINTS: Final[int] = 5
NEAR_POINTS: Final[int] = 3
NEAR_PX: Final[float] = 50.0

Box = Sequence[float]


def _centre(box: Box | None) -> tuple[float, float] | None:
    """Centre of an ``[l, t, r, b]`` box, or None when the box is missing or malformed."""
    if box is None or len(box) != 4:
        return None
    try:
        left, top, right, bottom = (float(v) for v in box)
    except (TypeError, ValueError):
        return None
    return ((left + right) / 2.0, (top + bottom) / 2.0)


def seed_score(
    role: str,
    name: str,
    centre: tuple[float, float] | None,
    *,
    ref_role: str | None,
    ref_name: str | None,
    ref_name_lower: str | None,
    ref_centre: tuple[float, float] | None,
) -> int:
    """Score one node the seed's way (see the module docstring).

    Parameters
    ----------
    role, name:
        The node's role and name (empty strings when it has none).
    centre:
        The node's bbox centre, or None.
    ref_role, ref_name:
        The recorded role and name (None when not recorded); ``ref_role`` must be lower case.
    ref_name_lower:
        ``ref_name.lower()``, computed once by the caller.
    ref_centre:
        The recorded bbox centre, or None.

    Returns
    -------
    int
        0 to 23.

    Examples
    --------
    >>> seed_score("button", "OK", (10.0, 10.0), ref_role="button", ref_name="OK",
    ...            ref_name_lower="ok", ref_centre=(30.0, 40.0))
    23
    >>> seed_score("link", "Read more about it", None, ref_role="button", ref_name="Read more",
    ...            ref_name_lower="read more", ref_centre=None)
    5
    """
    score = 0
    if ref_role is not None and role.lower() == ref_role:
        score += ROLE_POINTS
    if ref_name:
        if name == ref_name:
            score += NAME_EXACT_POINTS
        elif name and ref_name_lower is not None:
            lowered = name.lower()
            if lowered in ref_name_lower or ref_name_lower in lowered:
                score += NAME_SUBSTRING_POINTS
    if (
        ref_centre is not None
        and centre is not None
        and math.hypot(centre[0] - ref_centre[0], centre[1] - ref_centre[1]) <= NEAR_PX
    ):
        score += NEAR_POINTS
    return score


def _text(value: Any) -> str:
    """A role/name field as a string: plain strings, or the ``value`` of a CDP AX value."""
    if isinstance(value, Mapping):
        value = value.get("value")
    return value if isinstance(value, str) else ""


def find_in_a11y_tree(
    tree: Mapping[str, Any] | Sequence[Mapping[str, Any]],
    role: str | None,
    name: str | None,
    bbox: Box | None = None,
) -> str | None:
    """The seed's ``find_in_a11y_tree``: best-scoring node ID of a nested dict tree.

    Parameters
    ----------
    tree:
        A root ``{"id", "role", "name", "bbox": [l, t, r, b], "children": [...]}`` or a list
        of roots.
    role, name, bbox:
        The recorded role, name and box (any may be None).

    Returns
    -------
    str or None
        The ``id`` of the best node (ties: first in pre-order), or None when every node
        scores 0.

    Examples
    --------
    >>> tree = {"id": "1", "role": "dialog", "name": "Settings", "children": [
    ...     {"id": "2", "role": "button", "name": "OK", "bbox": [10, 10, 60, 30]},
    ...     {"id": "3", "role": "button", "name": "OK", "bbox": [10, 300, 60, 320]}]}
    >>> find_in_a11y_tree(tree, "button", "OK", (12, 298, 62, 318))
    '3'
    >>> find_in_a11y_tree(tree, "slider", "Volume") is None
    True
    """
    ref_role = role.lower() if role else None
    ref_name_lower = name.lower() if name else None
    ref_centre = _centre(bbox)
    best_id: str | None = None
    best = 0
    stack: list[Any] = list(reversed(tree)) if isinstance(tree, Sequence) else [tree]
    while stack:
        node = stack.pop()
        if not isinstance(node, Mapping):
            continue
        score = seed_score(
            _text(node.get("role")),
            _text(node.get("name")),
            _centre(node.get("bbox")),
            ref_role=ref_role,
            ref_name=name,
            ref_name_lower=ref_name_lower,
            ref_centre=ref_centre,
        )
        if score > best:
            best, best_id = score, str(node.get("id"))
        children = node.get("children")
        if children:
            stack.extend(reversed(children))
    return best_id


def find_in_cdp_nodes(
    nodes: Iterable[Mapping[str, Any]],
    role: str | None,
    name: str | None,
    bbox: Box | None = None,
) -> str | None:
    """The same scoring over a CDP ``getFullAXTree`` node list, in list order.

    Every node is scored, ignored ones and ``InlineTextBox`` included: the seed knows nothing
    about either.

    Parameters
    ----------
    nodes:
        CDP AX nodes (``nodeId``, ``role``/``name`` as ``{"value": ...}``, optional ``bbox``).
    role, name, bbox:
        The recorded role, name and box (any may be None).

    Returns
    -------
    str or None
        The ``nodeId`` of the best node, or None when every node scores 0.

    Examples
    --------
    >>> nodes = [{"nodeId": "1", "role": {"value": "button"}, "name": {"value": "Save"}},
    ...          {"nodeId": "2", "role": {"value": "button"}, "name": {"value": "Save as"}}]
    >>> find_in_cdp_nodes(nodes, "button", "Save as")
    '2'
    """
    ref_role = role.lower() if role else None
    ref_name_lower = name.lower() if name else None
    ref_centre = _centre(bbox)
    best_id: str | None = None
    best = 0
    for node in nodes:
        score = seed_score(
            _text(node.get("role")),
            _text(node.get("name")),
            _centre(node.get("bbox")),
            ref_role=ref_role,
            ref_name=name,
            ref_name_lower=ref_name_lower,
            ref_centre=ref_centre,
        )
        if score > best:
            best, best_id = score, str(node.get("nodeId"))
    return best_id


def cdp_nodes_of(observation: Observation) -> list[Mapping[str, Any]]:
    """The CDP node list of an observation (``{"nodes": [...]}`` or the bare list)."""
    tree = observation.accessibility_tree
    if isinstance(tree, Mapping):
        tree = tree.get("nodes")
    if not isinstance(tree, list):
        raise TypeError("the seed baseline reads CDP node lists only")
    return tree


def seed_resolve_cdp(ref: SemanticElementRef, observation: Observation) -> str:
    """``resolve_element``-shaped adapter of the seed for :func:`resolver.replay.run_trials`.

    Returns ``a11y:<nodeId>`` of the best node; raises
    :class:`~resolver.ElementNotFoundError` only when the best score is 0.
    """
    found = find_in_cdp_nodes(cdp_nodes_of(observation), ref.role, ref.name, ref.bbox)
    if found is None:
        raise ElementNotFoundError("every node scores 0 for the seed")
    return f"a11y:{found}"
