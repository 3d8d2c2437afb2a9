"""Capture shims: turn what a recorder sees into a :class:`~resolver.models.SemanticElementRef`.

One module per way of seeing an element: :mod:`.rows` records any row of a candidate table
(from any adapter), :mod:`.point` the element under a point (a click recorded as
coordinates). Platform shims (UIA, AX, Chrome extension events, CDP, OmniParser, Playwright)
each get a module of their own here. Shims are thin and import nothing heavy.
"""

from __future__ import annotations

from .point import element_at_point
from .rows import ref_from_row

__all__ = ["element_at_point", "ref_from_row"]
