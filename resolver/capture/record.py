"""Recording a click: the coordinates always, the element when it can be found."""

from __future__ import annotations

import logging
import math
from typing import Any

from ..geometry import box_area, share_inside
from ..index import index_of
from ..models import ActionType, ActionWithElement, SemanticElementRef
from ..observation import Observation
from ..roles import ACTIONABLE_ROLES
from .point import control_at_point, element_at_point, in_dialog, row_at_point

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
    """The DOM's control under ``(x, y)`` (:func:`~.point.control_at_point`) when the
    accessibility tree left it out: ``found`` (the a11y row under the point) is no control
    and in no dialog (a dialog is drawn over what lies beneath it), and the control, on at
    most half ``found``'s area, has no row of the tree there. Where the tree's rows carry
    XPaths (a live page's), the control is inside ``found``'s element, or no row of the tree
    is its element at all (a control in an ``aria-hidden`` part drawn over the rows under
    the point, as a fixed header is); without them, it is drawn inside ``found``'s box.
    ``None`` otherwise, or without a DOM."""
    if found.role in ACTIONABLE_ROLES or found.bbox is None or not observation.has("dom"):
        return None
    a11y = observation.candidates("a11y")
    if in_dialog(a11y, row_at_point(a11y, x, y)):
        return None
    dom = control_at_point(observation, x, y)
    if dom is None or dom.bbox is None:
        return None
    inner, outer = dom.bbox, found.bbox
    if box_area(inner) > 0.5 * box_area(outer):
        return None
    if dom.xpath and a11y.document_paths is not None:
        inside = bool(found.xpath) and dom.xpath.startswith(f"{found.xpath}/")
        key = a11y.id_key("xpath", dom.xpath)
        if not inside and index_of(a11y).id_rows("xpath", key).size:
            return None
    elif share_inside(inner, outer) < 1.0:
        return None
    return dom
