"""Which catalog entries something else covers on a live page, by one hit test per entry.

A picture of the page marks what an agent may click (:mod:`resolver.catalog.marks`); an
element under a modal dialog's backdrop, a cookie banner or a sticky header is drawn but
cannot be clicked (``execute`` refuses it: ``ELEMENT_NOT_INTERACTABLE``). This asks the
page, in one ``Runtime.evaluate`` in the library's isolated world (the page's scripts cannot
change its answer), what is topmost at each entry's centre: an entry is covered when that is
neither the element (found by its first CSS selector, else its XPath) nor inside it nor
around it. An entry with neither, one whose selector finds nothing in the top document (in
a frame), or whose centre lies outside the viewport is not judged (not reported covered).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Final

from ..catalog.model import CatalogEntry
from ..integrations.cdp import PAGE_TIMEOUT_MS, _bounded, _session, isolated_context

__all__ = ["COVERED_JS", "covered_entries"]

COVERED_JS: Final[str] = """(items) => items.map(([kind, sel, x, y]) => {
  let el = null;
  try {
    el = kind === "css" ? document.querySelector(sel)
      : document.evaluate(sel, document, null, 9, null).singleNodeValue;
  } catch (e) { return null; }
  if (!el || x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return null;
  const hit = document.elementFromPoint(x, y);
  if (!hit) return null;
  return !(hit === el || el.contains(hit) || hit.contains(el));
})"""
_MAX_JUDGED: Final[int] = 2000


def covered_entries(page: Any, entries: Iterable[CatalogEntry]) -> list[int]:
    """The indexes of ``entries`` (of a catalog made of ``page`` as it is now, boxes in its
    viewport's CSS pixels) whose centre something else covers, in order; at most the first
    2,000 entries with a box and a CSS or XPath selector are judged. A page that cannot answer
    covers nothing."""
    judged = []
    for entry in entries:
        found = next(((k, sel) for k, sel in entry.selectors if k == "css"), None) or next(
            ((k, sel) for k, sel in entry.selectors if k == "xpath"), None
        )
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
