"""What every platform shim shares: reading a field from a dict or an object, cutting values
to the reference's limits, and building the reference with one kind of error.

A shim runs inside a recorder's event loop, so it must never raise anything but
:class:`~resolver.errors.InvalidReferenceError`: malformed pieces of evidence are dropped
(a box that is not four finite numbers, a class list that is not strings) and only an input
that says nothing at all about an element is refused.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from ..errors import InvalidReferenceError, ResolutionError
from ..models import MAX_ACTION_FILES, BBox, SemanticElementRef
from ..roles import (
    CONTAINER_ROLES,
    CONTENT_NAMED_CONTAINERS,
    LANDMARK_ROLES,
    PANEL_ROLES,
    canonical_role,
)
from ..web import (
    ATTRIBUTE_NAMES,
    MAX_ATTRIBUTE,
    MAX_CLASS_CHARS,
    MAX_CLASSES,
    MAX_HREF,
    MAX_NEARBY,
    MAX_NEARBY_CHARS,
    MAX_TAG,
)

__all__ = [
    "MAX_PATH",
    "attributes_of",
    "box_ltrb",
    "box_xywh",
    "classes_of",
    "container_entry",
    "file_names",
    "flag",
    "get",
    "make_ref",
    "nearby_of",
    "panel_from",
    "path_of",
    "text",
]

MAX_PATH: Final[int] = 32
"""At most this many container levels (a deeper ancestor chain is cut at the outer end)."""
MAX_TEXT: Final[int] = 1024
"""Names and IDs are cut to this many characters (a text area's whole content is no name)."""

_MISSING: Final[object] = object()


def get(obj: Any, *names: str) -> Any:
    """The first of ``names`` that ``obj`` has (a mapping key or an attribute) and that is not
    ``None``; ``None`` when it has none. An attribute that raises (a stale COM element, a
    dead AX reference) counts as absent."""
    for name in names:
        if isinstance(obj, Mapping):
            value = obj.get(name)
        else:
            try:
                value = getattr(obj, name, None)
            except Exception:  # a platform proxy may raise anything on a stale element
                value = None
        if value is not None:
            return value
    return None


def text(value: Any, limit: int = MAX_TEXT) -> str | None:
    """A non-blank string cut to ``limit`` characters (numbers are written out), else
    ``None``."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        value = str(value)
    if not isinstance(value, str):
        return None
    value = " ".join(value.split())
    return value[:limit] if value else None


def flag(value: Any) -> bool | None:
    """``True``/``False`` from a bool, 0/1 or ``"true"``/``"false"``; ``None`` otherwise."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "1", "0"):
        return value.strip().lower() in ("true", "1")
    return None


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def _four(values: Any) -> tuple[float, float, float, float] | None:
    if not isinstance(values, Sequence) or isinstance(values, str) or len(values) != 4:
        return None
    numbers = [_number(v) for v in values]
    if any(n is None for n in numbers):
        return None
    a, b, c, d = (float(n) for n in numbers if n is not None)
    return (a, b, c, d)


def box_ltrb(value: Any) -> BBox | None:
    """``(l, t, r, b)`` from ``[l, t, r, b]``, ``{left, top, right, bottom}`` or an object
    with those attributes (a ``uiautomation`` Rect); ``None`` when malformed, inverted or all
    zero (an element off screen)."""
    if value is None:
        return None
    if not isinstance(value, Sequence) or isinstance(value, str):
        value = [get(value, k) for k in ("left", "top", "right", "bottom")]
    box = _four(value)
    if box is None or box[2] < box[0] or box[3] < box[1] or box == (0.0, 0.0, 0.0, 0.0):
        return None
    return box


def box_xywh(value: Any) -> BBox | None:
    """``(l, t, r, b)`` from ``[x, y, w, h]``, ``{x, y, width|w, height|h}`` or such an
    object; ``None`` when malformed or of negative size."""
    if value is None:
        return None
    if not isinstance(value, Sequence) or isinstance(value, str):
        value = [get(value, "x"), get(value, "y"), get(value, "width", "w"),
                 get(value, "height", "h")]  # fmt: skip
    xywh = _four(value)
    if xywh is None or xywh[2] < 0 or xywh[3] < 0:
        return None
    x, y, w, h = xywh
    return (x, y, x + w, y + h)


def classes_of(value: Any) -> tuple[str, ...]:
    """Class tokens from a class attribute (``"btn primary"``) or a list, within the
    reference's limits (over-long tokens dropped, at most :data:`MAX_CLASSES`)."""
    if isinstance(value, str):
        items: Iterable[Any] = value.split()
    elif isinstance(value, Sequence):
        items = (t for item in value if isinstance(item, str) for t in item.split())
    else:
        return ()
    tokens = [t for t in dict.fromkeys(items) if isinstance(t, str) and len(t) <= MAX_CLASS_CHARS]
    return tuple(tokens[:MAX_CLASSES])


def attributes_of(value: Any) -> dict[str, str]:
    """The attributes a reference keeps (:data:`resolver.web.ATTRIBUTE_NAMES`) from a mapping
    or CDP's flat ``[name, value, ...]`` list, values cut to the limit."""
    if isinstance(value, list):
        value = dict(zip(value[0::2], value[1::2], strict=False))
    if not isinstance(value, Mapping):
        return {}
    out: dict[str, str] = {}
    for name in ATTRIBUTE_NAMES:
        item = text(value.get(name), MAX_ATTRIBUTE)
        if item:
            out[name] = item
    return out


def nearby_of(value: Any) -> tuple[str, ...]:
    """Up to :data:`resolver.web.MAX_NEARBY` non-blank texts, each cut to the limit."""
    if isinstance(value, str) or not isinstance(value, Sequence):
        return ()
    texts = (text(v, MAX_NEARBY_CHARS) for v in value)
    return tuple(t for t in texts if t)[:MAX_NEARBY]


def path_of(names: Iterable[Any]) -> tuple[str, ...]:
    """A container path from ancestor names, outermost first: blanks and non-strings
    dropped, cut to the innermost :data:`MAX_PATH` levels."""
    path = tuple(t for t in (text(n, 256) for n in names) if t)
    return path[-MAX_PATH:]


def container_entry(
    raw_role: Any, name: Any, platform: str | None = None, content: Any = None
) -> str | None:
    """The entry an ancestor adds to a container path, by the rule the tables use: its name
    when its role is a container (dialog, group, form, ...); for an unnamed row, list item
    or article its text ``content`` (its first texts, as the recorder read them); ``[role]``
    for an unnamed landmark; else ``None``."""
    role = canonical_role(text(raw_role, 128), platform)
    label = text(name, 200)
    if label and role in CONTAINER_ROLES:
        return label
    if not label and role in CONTENT_NAMED_CONTAINERS and text(content):
        return text(content, 120)
    if not label and role in LANDMARK_ROLES:
        return f"[{role}]"
    return None


def panel_from(
    ancestors: Iterable[tuple[Any, Any]], platform: str | None = None
) -> tuple[str, str] | None:
    """The reference's ``panel`` from ancestors' ``(raw role, name)``, outermost first: the
    innermost dialog, alert dialog or tab panel (:data:`~resolver.roles.PANEL_ROLES`) as
    ``(role, name)``, or disclosure section (raw role ``"details"``, named by its summary)
    as ``("details", name)``; ``None`` when there is none."""
    panel = None
    for raw_role, name in ancestors:
        kind = "details" if raw_role == "details" else canonical_role(text(raw_role, 128), platform)
        if kind == "details" or kind in PANEL_ROLES:
            panel = (kind, text(name, 200) or "")
    return panel


def make_ref(shim: str, **fields: Any) -> SemanticElementRef:
    """The reference from the fields a shim read, leaving out empty ones and cutting the web
    fields to their limits.

    Raises
    ------
    InvalidReferenceError
        Nothing identifies the element (no role, name, box or ID); the message names the shim.
    """
    clean = {k: v for k, v in fields.items() if v is not None and v != () and v != {}}
    if isinstance(clean.get("tag"), str):
        clean["tag"] = clean["tag"][:MAX_TAG]
    if isinstance(clean.get("href"), str):
        clean["href"] = clean["href"][:MAX_HREF]
    try:
        return SemanticElementRef(**clean)
    except ResolutionError as exc:
        raise InvalidReferenceError(f"{shim}: {exc.message}", details={"shim": shim}) from exc


def file_names(values: Sequence[Any]) -> tuple[str, ...]:
    """The names of the files an upload chose, as a page or an extension reported them
    (names, or objects with a ``name``): the first :data:`~resolver.models.MAX_ACTION_FILES`,
    blank and non-text ones dropped, each cut to 4,096 characters."""
    names = (get(f, "name") if isinstance(f, Mapping) else f for f in values[:MAX_ACTION_FILES])
    return tuple(n[:4096] for n in names if isinstance(n, str) and n.strip())
