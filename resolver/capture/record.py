"""Recording a click: the coordinates always, the element when it can be found."""

from __future__ import annotations

import logging
import math
from typing import Any

from ..errors import ResolutionError
from ..geometry import share_inside
from ..models import ActionType, ActionWithElement, SemanticElementRef
from ..observation import Observation
from ..roles import ACTIONABLE_ROLES
from .point import element_at_point

__all__ = ["record_click"]

log = logging.getLogger(__name__)


def record_click(
    x: float,
    y: float,
    observation: Any,
    *,
    source: str = "a11y",
    action: ActionType = "click",
) -> ActionWithElement:
    """The recorded action for a click at ``(x, y)`` on what ``observation`` shows.

    Made to run inside a recorder's event loop: it never raises. The coordinates are always
    kept; the element (:func:`~resolver.capture.element_at_point`) is best-effort and
    ``None`` when no element is under the point or the observation cannot be read (the
    reason is logged at debug level). A non-finite point is dropped with a warning.

    Parameters
    ----------
    x, y:
        The click point, in the observation's coordinates.
    observation:
        An :class:`~resolver.Observation`, or anything :meth:`Observation.from_any` takes.
    source:
        Which source's elements to record (``"a11y"``, ``"dom"``, ``"vision"``).
    action:
        The action type (``"click"``, ``"double_click"``, ``"right_click"``, ``"hover"``).
    """
    try:
        fx, fy = float(x), float(y)
    except (TypeError, ValueError, OverflowError):
        fx = fy = math.nan
    if not (math.isfinite(fx) and math.isfinite(fy)):
        log.warning("record_click: dropped a non-finite point (%r, %r)", x, y)
        return ActionWithElement(type=action)
    try:
        obs = Observation.from_any(observation)
        element = element_at_point(obs, fx, fy, source=source)
        if source == "a11y":
            element = _left_out_control(obs, fx, fy, element) or element
    except Exception as exc:  # a recorder's loop must keep running whatever the page held
        log.debug("record_click: no element at (%s, %s): %s", fx, fy, exc)
        element = None
    return ActionWithElement(type=action, x=fx, y=fy, element=element)


def _left_out_control(
    observation: Observation, x: float, y: float, found: SemanticElementRef
) -> SemanticElementRef | None:
    """The DOM's element under ``(x, y)`` when it is a control that the accessibility tree
    left out: ``found`` (the a11y row under the point) is no control, and the DOM's element
    is one, drawn inside ``found``'s box on at most half its area (and, where both carry
    an XPath, inside its element). ``None`` otherwise, or without a DOM."""
    if found.role in ACTIONABLE_ROLES or found.bbox is None or not observation.has("dom"):
        return None
    try:
        dom = element_at_point(observation, x, y, source="dom")
    except ResolutionError:
        return None
    if dom.role not in ACTIONABLE_ROLES or dom.bbox is None:
        return None
    inner, outer = dom.bbox, found.bbox
    small = (inner[2] - inner[0]) * (inner[3] - inner[1]) <= 0.5 * (outer[2] - outer[0]) * (
        outer[3] - outer[1]
    )
    if share_inside(inner, outer) < 1.0 or not small:
        return None
    if found.xpath and dom.xpath and not dom.xpath.startswith(found.xpath + "/"):
        return None
    return dom
