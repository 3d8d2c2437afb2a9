"""Which catalog entries something else covers on a live page, by one hit test per entry.

A picture of the page marks what an agent may click (:mod:`resolver.catalog.marks`); an
element under a modal dialog's backdrop, a cookie banner or a sticky header is drawn but
cannot be clicked (``execute`` refuses it: ``ELEMENT_NOT_INTERACTABLE``). This asks the
page, in one ``Runtime.evaluate`` in the library's isolated world (the page's scripts cannot
change its answer), what is topmost at each entry's centre: an entry is covered when that is
neither the element (found by its first CSS selector, else its XPath) nor inside it nor
around it. An entry in a frame (its selectors are of the frame's document, and left out of
the catalog) is judged by the frame element it is drawn in (``frames``, the observation's
``frame_paths``): covered when what is topmost at its centre in the top document is neither
that frame element nor inside it (a modal's backdrop drawn over an embedded form). An entry
with no selector and no frame, one whose selector finds nothing in the top document, or
whose centre lies outside the viewport is not judged (not reported covered).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, Final

from ..catalog.model import CatalogEntry
from ..integrations.cdp import PAGE_TIMEOUT_MS, _bounded, _session, isolated_context

__all__ = ["COVERED_JS", "covered_entries"]

COVERED_JS: Final[str] = """(items) => items.map(([kind, sel, x, y]) => {
  let el = null;
  try {  // ("frame": the XPath of the frame element the entry is drawn in)
    el = kind === "css" ? document.querySelector(sel)
      : document.evaluate(sel, document, null, 9, null).singleNodeValue;
  } catch (e) { return null; }
  if (!el || x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return null;
  const hit = document.elementFromPoint(x, y);
  if (!hit) return null;
  return !(hit === el || el.contains(hit) || hit.contains(el));
})"""
_MAX_JUDGED: Final[int] = 2000


def covered_entries(
    page: Any, entries: Iterable[CatalogEntry], frames: Mapping[str, Any] | None = None
) -> list[int]:
    """The indexes of ``entries`` (of a catalog made of ``page`` as it is now, boxes in its
    viewport's CSS pixels) whose centre something else covers, in order; at most the first
    2,000 entries with a box and a CSS or XPath selector, or a frame in ``frames`` (executor
    ID -> ``FramePath``, :attr:`PageObservation.frame_paths`), are judged. A page that cannot
    answer covers nothing."""
    judged = []
    for entry in entries:
        found = _locator(entry, frames or {})
        if found is None or entry.bbox is None:
            continue
        box = entry.bbox
        judged.append((entry.index, [*found, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2]))
        if len(judged) >= _MAX_JUDGED:
            break
    if not judged:
        return []
    items = json.dumps([item for _, item in judged], ensure_ascii=True)
    try:
        session = _session(page)
        answer = _bounded(session, "Runtime.evaluate", {
            "expression": f"({COVERED_JS})({items})", "returnByValue": True,
            **isolated_context(session),
        }, PAGE_TIMEOUT_MS)  # fmt: skip
    except Exception:  # (no CDP, gone, navigated or too slow: nothing is reported covered)
        return []
    verdicts = (answer or {}).get("result", {}).get("value")
    if not isinstance(verdicts, list) or len(verdicts) != len(judged):
        return []
    return [index for (index, _), covered in zip(judged, verdicts, strict=True) if covered is True]


def _locator(entry: CatalogEntry, frames: Mapping[str, Any]) -> tuple[str, str] | None:
    """How the page finds the entry: its first CSS selector, else its XPath, else (an entry
    in a frame) the XPath of the outermost frame element it is drawn in; ``None``."""
    for kind in ("css", "xpath"):
        found = next((sel for k, sel in entry.selectors if k == kind), None)
        if found is not None:
            return (kind, found)
    place = frames.get(entry.executor_id)
    holders = place[0] if isinstance(place, tuple) and place else ()
    outer = holders[0] if holders else None
    if isinstance(outer, str) and outer.startswith("/"):  # (not a shadow tree's selector)
        return ("xpath", outer)
    return None
