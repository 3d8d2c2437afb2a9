"""Recording a click: the coordinates always, the element when it can be found."""

from __future__ import annotations

import logging
import math
from typing import Any

from ..models import ActionType, ActionWithElement
from ..observation import Observation
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
        element = element_at_point(Observation.from_any(observation), fx, fy, source=source)
    except Exception as exc:  # a recorder's loop must keep running whatever the page held
        log.debug("record_click: no element at (%s, %s): %s", fx, fy, exc)
        element = None
    return ActionWithElement(type=action, x=fx, y=fy, element=element)
