"""The recorded intent: :class:`SemanticElementRef` and :class:`ActionWithElement`.

Both are pydantic v2 models: they round-trip JSON (``model_dump_json`` /
``model_validate_json``) and export JSON Schema (``model_json_schema``). Invalid input raises
:class:`~resolver.errors.InvalidReferenceError` (a ``ValueError``), never pydantic's own error;
so does a field longer than its limit (:data:`~resolver.limits.REFERENCE_LIMITS`), checked on
the length alone, and an assignment to a field (the models are immutable: make a changed copy
with ``ref.model_copy(update={...})``). A lone surrogate in any text (half of a character a
recorder cut, which JSON cannot carry in UTF-8) is read as U+FFFD, from Python values and from
JSON alike.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sized
from typing import Annotated, Any, ClassVar, Final, Literal, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from .errors import InvalidReferenceError, shorten
from .geometry import CoordSpace
from .index import MAX_HEADING
from .limits import REFERENCE_LIMITS
from .text import valid_unicode
from .web import (
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
    "ID_FIELDS",
    "POSITIONAL_ID_COLUMNS",
    "ActionType",
    "ActionWithElement",
    "BBox",
    "SemanticElementRef",
]

BBox = tuple[float, float, float, float]
"""``[left, top, right, bottom]`` in the coordinate space of the observation it came from."""

MAX_ANCHORS: Final[int] = 8
"""At most this many anchors per reference."""

ID_FIELDS: Final[tuple[tuple[str, str], ...]] = (
    ("automation_id", "automation_id"),
    ("accessibility_id", "accessibility_id"),
    ("xpath", "xpath"),
    ("css_selector", "css"),
    ("dom_id", "dom_id"),
    ("test_id", "testid"),
)
"""Each platform-ID field of :class:`SemanticElementRef` and the table column it matches
(``CandidateTable.platform_ids``): recorders fill the field from the column, the matcher
compares the two."""

POSITIONAL_ID_COLUMNS: Final[frozenset[str]] = frozenset({"xpath", "css"})
"""ID columns that address an element by its position in the document: after a reorder the
old path names the neighbour, so a match is weaker evidence than a platform ID."""

_PATH_ENTRIES: Final[int] = REFERENCE_LIMITS["container_path entries"]
_PATH_ENTRY: Final[int] = REFERENCE_LIMITS["container_path entry"]
_CLASS_ATTRIBUTE: Final[int] = MAX_CLASSES * (MAX_CLASS_CHARS + 1)
"""Characters of the classes as written (a class attribute, or its tokens with a separator
each) at most: longer ones are refused before they are split."""


def _over(what: str, size: int, limit: int, unit: str = "characters") -> InvalidReferenceError:
    """The error for ``what`` (a field) of ``size`` over ``limit``; the value is not quoted."""
    return InvalidReferenceError(
        f"{what} has {size:,} {unit}, over the reference limit of {limit:,}",
        details={"field": what, "found": size, "allowed": limit},
    )


def _check_length(what: str, value: str, limit: int) -> str:
    if len(value) > limit:
        raise _over(what, len(value), limit)
    return value


def _check_path(value: tuple[str, ...]) -> tuple[str, ...]:
    """``container_path`` within its limits: at most so many entries (more are refused), each
    cut to its first ``container_path entry`` characters. A recorder that names ancestors by
    their whole text (a section's content) writes long entries; the matcher compares only an
    entry's beginning (``resolver.table.MAX_ENTRY``), so the cut loses nothing it reads."""
    if len(value) > _PATH_ENTRIES:
        raise _over("container_path", len(value), _PATH_ENTRIES, "entries")
    if any(len(item) > _PATH_ENTRY for item in value):
        return tuple(item[:_PATH_ENTRY] for item in value)
    return value


def _sized_over(value: Any, limit: int) -> int | None:
    """How many items ``value`` has when it is a collection (not text) of more than
    ``limit``, else ``None``: a cheap count before pydantic copies it item by item."""
    if isinstance(value, Sized) and not isinstance(value, (str, bytes, bytearray)):
        return len(value) if len(value) > limit else None
    return None


def _reraise(exc: ValidationError, what: str) -> InvalidReferenceError:
    """Turn pydantic's error into ours, unwrapping one we raised in a nested model."""
    problems = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"])
        inner = (err.get("ctx") or {}).get("error")
        message = inner.message if isinstance(inner, InvalidReferenceError) else err["msg"]
        message = message.removeprefix("Value error, ")
        named = not where or message.startswith((f"{where} ", f"{where}:"))
        problems.append(message if named else f"{where}: {message}")
    text = "; ".join(problems)
    if not text.startswith("invalid "):
        text = f"invalid {what}: {text}"
    return InvalidReferenceError(text, details={"errors": problems})


_SURROGATE_ESCAPE: Final = re.compile(rb"\\u[dD][89a-fA-F]")
"""A JSON escape of a surrogate (half of a pair, or a lone one)."""


_TEXT_FIELDS: Final = (
    "role", "name", "automation_id", "accessibility_id", "class_name", "css_selector", "xpath",
    "dom_id", "test_id", "tag", "href", "heading",
)  # fmt: skip
"""The text fields of a reference."""
_TEXT_COLLECTIONS: Final = (
    "container_path", "classes", "attributes", "nearby_text", "anchors", "panel",
)  # fmt: skip
"""The fields of a reference holding text in tuples or a dict."""


def _escaped(text: str) -> str:
    """``text`` with every character UTF-8 cannot carry (a lone surrogate) written as its
    escape: a validation message holding one could not be reported at all."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _hashable(value: Any) -> Any:
    """``value`` with its dicts as frozensets of their items and lists as tuples."""
    if isinstance(value, dict):
        return frozenset((k, _hashable(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    return value


def _invalid_json(error: ValidationError) -> bool:
    return any(err["type"] == "json_invalid" for err in error.errors())


def _with_surrogates(json_data: str | bytes | bytearray) -> Any:
    """``json_data`` read by the standard parser when it escapes a surrogate, else ``None``
    (its refusal stands); ``None`` too for text that parser cannot read either, or reads as
    a constant JSON has no word for (``NaN``)."""
    raw = json_data.encode("utf-8", "surrogatepass") if isinstance(json_data, str) else json_data
    if _SURROGATE_ESCAPE.search(raw) is None:
        return None
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return None


def _no_constant(word: str) -> Any:
    raise ValueError(f"{word} is not JSON")


class _Model(BaseModel):
    """Shared behaviour: pydantic's errors become :class:`InvalidReferenceError`, and fields
    cannot be assigned or deleted."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)
    _called: ClassVar[tuple[str, str]] = ("references", "ref")

    def __setattr__(self, name: str, value: Any) -> None:
        raise self._immutable(name)

    def __hash__(self) -> int:
        """Equal models hash alike (dicts of text hashed by their items): a frozen reference
        can key a dict or sit in a set."""
        return hash((type(self), _hashable(self.__dict__)))

    def __delattr__(self, name: str) -> None:
        raise self._immutable(name)

    def _immutable(self, name: str) -> InvalidReferenceError:
        field = shorten(name, 80)
        plural, variable = self._called
        return InvalidReferenceError(
            f"cannot change {field!r}: {plural} are immutable; make a changed copy with "
            f"{variable}.model_copy(update={{{field!r}: ...}})",
            details={"field": field},
        )

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise _reraise(exc, type(self).__name__) from exc

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy; with ``update``, the changed copy is validated as a new one would be
        (field rules and reference limits included), so a copy can never hold what the
        constructor refuses.

        Raises
        ------
        InvalidReferenceError
            An updated field is unknown or its value is invalid.
        """
        if not update:
            return super().model_copy(deep=deep)
        data = {name: getattr(self, name) for name in self.model_fields_set}
        data.update(update)
        changed: Self = type(self).model_validate(data)
        return super(_Model, changed).model_copy(deep=True) if deep else changed

    @classmethod
    def model_validate(cls, obj: Any, **kwargs: Any) -> Any:
        try:
            return super().model_validate(obj, **kwargs)
        except ValidationError as exc:
            raise _reraise(exc, cls.__name__) from exc

    @classmethod
    def model_validate_json(cls, json_data: str | bytes | bytearray, **kwargs: Any) -> Any:
        """As pydantic's, and JSON that escapes a lone surrogate (``"\\ud83d"``, which
        JavaScript's ``JSON.stringify`` writes for half an emoji) is read too, each one as
        U+FFFD (pydantic's parser refuses such text)."""
        try:
            return super().model_validate_json(json_data, **kwargs)
        except ValidationError as exc:
            error = exc
        data = _with_surrogates(json_data) if _invalid_json(error) else None
        if data is None:
            raise _reraise(error, cls.__name__) from error
        return cls.model_validate(data, **kwargs)


class SemanticElementRef(_Model):
    """A small, platform-neutral description of the element a person or agent acted on.

    At least one of ``role``, ``name``, ``bbox`` or a platform ID (``automation_id``,
    ``accessibility_id``, ``css_selector``, ``xpath``) must be given.

    Parameters
    ----------
    role:
        The role as recorded, in any platform's spelling (``"button"``, ``"AXButton"``,
        ``"ButtonControl"``, ``"push button"``, ``"android.widget.Button"``).
    name:
        The accessible name (label) as recorded.
    bbox:
        ``[left, top, right, bottom]`` at capture time; finite, with ``right >= left`` and
        ``bottom >= top``.
    container_path:
        Names of the enclosing containers, outermost first (``["Settings", "Display"]``);
        at most 64, each cut to its first 2,000 characters.
    enabled, focused:
        State at capture time, when known.
    automation_id, accessibility_id:
        Platform IDs (UIA AutomationId, Android resource-id, AXIdentifier, DOM id, ...).
    class_name:
        The desktop toolkit's class of the element (UIA ``ClassName``, an AX class, an
        Android widget class), when a desktop recorder saw one; at most 256 characters.
        Recorded for the executor and for people reading a recording; not matched (many
        elements share a class).
    css_selector, xpath:
        Browser selectors recorded with the element; verified before they are trusted.
    dom_id, test_id:
        The element's HTML ``id`` and test ID (``data-testid``, ``data-test``, ...), when a
        web recorder saw them: a match is strong evidence, a difference none (builds rename
        them).
    tag, classes, href, attributes, nearby_text:
        What else a web recorder saw (soft evidence, see :mod:`resolver.web`): the HTML tag
        (lower-cased, at most 64 characters); the class tokens (at most 32, each at most 128
        characters; generated ones such as ``css-1x2y3z`` are ignored when matching); the
        link target as written or resolved (at most 2048 characters); a few attributes,
        only ``name``, ``type``, ``placeholder``, ``title`` and ``alt`` (values at most 256
        characters); and up to 6 texts next to the element in reading order (each at most
        80 characters), nearest first.
    screen_size:
        ``(width, height)`` of the screen or viewport the bbox was measured in.
    coord_space:
        What the bbox is measured in (:class:`~resolver.geometry.CoordSpace`): ``"css_px"``
        (viewport CSS pixels), ``"screen_px"``, ``"screen_points"`` (macOS), ``"device_px"``
        (Android). When it differs from the observation's, box evidence counts for less.
    occurrence:
        ``(k, n)``: the element was the ``k``-th (from 0) of ``n`` elements with its role, name
        and container path, in document order (the 2nd of three "Share" links in the same
        footer). Recorded when ``n >= 2``; it tells look-alikes apart when nothing else does.
    anchors:
        A few elements near this one whose names were unique on the page, with their boxes
        (``(("Sign in", [l, t, r, b]), ...)``): where they are now tells how the page moved
        (a banner pushed it down, a block moved), so the recorded box is compared after the
        same shift.
    heading:
        The text of the nearest heading before the element in reading order (a heading it
        is inside counts), at most 200 characters (a longer one is cut). Recorders write it
        where it tells the element from the others of its role and name (each "Add to cart"
        under its card's title), and replay reads it so (:mod:`resolver.decide.headings`).
    panel:
        ``(kind, name)`` of the nearest dialog, alert dialog or tab panel around the element
        when it was recorded (its role: ``("dialog", "New password")``), or of an HTML
        disclosure section (``("details", "Shipping address")``, named by its summary); the
        name may be empty. ``None`` when it was in none or the recorder did not look. When
        the element's panel is closed, a control of the same role and name outside it (the
        page's own "Save" under a dialog's, another section's "Apply") acts on something
        else, and is refused (``refuse.panel_closed``).
    lookalikes:
        The boxes of other elements with the element's role and name anywhere on the page
        when it was recorded (nearest first, at most 8): an answer that now sits where one of
        them was, rather than where the target was, is taken for that look-alike (after the
        anchors' shift), so a removed target's surviving twin is not answered. An element
        without a name records the other elements of its role without one (a blank text
        field's look-alikes are the other blank text fields).
    confidence:
        How sure the recorder was, in ``[0, 1]``.

    Examples
    --------
    >>> ref = SemanticElementRef(role="button", name="OK", bbox=(100, 200, 160, 230))
    >>> SemanticElementRef.model_validate_json(ref.model_dump_json()) == ref
    True
    """

    role: str | None = None
    name: str | None = None
    bbox: BBox | None = None
    container_path: tuple[str, ...] = ()
    enabled: bool | None = None
    focused: bool | None = None
    automation_id: str | None = None
    accessibility_id: str | None = None
    class_name: str | None = Field(default=None, max_length=MAX_ATTRIBUTE)
    css_selector: str | None = None
    xpath: str | None = None
    dom_id: str | None = None
    test_id: str | None = None
    tag: str | None = Field(default=None, max_length=MAX_TAG)
    classes: tuple[str, ...] = ()
    href: str | None = Field(default=None, max_length=MAX_HREF)
    attributes: dict[str, str] = Field(default_factory=dict)
    nearby_text: tuple[str, ...] = ()
    screen_size: tuple[int, int] | None = None
    coord_space: CoordSpace | None = None
    occurrence: tuple[int, int] | None = None
    anchors: tuple[tuple[str, BBox], ...] = ()
    lookalikes: tuple[BBox, ...] = ()
    heading: str | None = None
    panel: tuple[str, str] | None = None
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)

    @field_validator(
        "role",
        "name",
        "automation_id",
        "accessibility_id",
        "class_name",
        "css_selector",
        "xpath",
        "dom_id",
        "test_id",
        "tag",
        "href",
    )
    @classmethod
    def _blank_is_none(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None:
            return None
        limit = REFERENCE_LIMITS.get(str(info.field_name))
        if limit is not None:
            _check_length(str(info.field_name), value, limit)
        return value if value.strip() else None

    @field_validator("coord_space", mode="before")
    @classmethod
    def _blank_space_is_none(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("bbox")
    @classmethod
    def _check_bbox(cls, value: BBox | None) -> BBox | None:
        if value is None:
            return None
        if not all(math.isfinite(v) for v in value):
            raise ValueError("bbox values must be finite numbers (no NaN or infinity)")
        left, top, right, bottom = value
        if right < left or bottom < top:
            raise ValueError(
                f"bbox {list(value)} is inverted: expected [left, top, right, bottom] "
                "with right >= left and bottom >= top"
            )
        if not math.isfinite((right - left) * (bottom - top)):
            raise ValueError(f"bbox {list(value)} is too large: its area is not a finite number")
        return value

    @field_validator("screen_size")
    @classmethod
    def _check_screen(cls, value: tuple[int, int] | None) -> tuple[int, int] | None:
        if value is not None and (value[0] <= 0 or value[1] <= 0):
            raise ValueError("screen_size must be two positive integers (width, height)")
        return value

    @field_validator("occurrence")
    @classmethod
    def _check_occurrence(cls, value: tuple[int, int] | None) -> tuple[int, int] | None:
        if value is not None and not 0 <= value[0] < value[1]:
            raise ValueError("occurrence must be (k, n) with 0 <= k < n")
        return value

    @field_validator("anchors")
    @classmethod
    def _check_anchors(cls, value: tuple[tuple[str, BBox], ...]) -> tuple[tuple[str, BBox], ...]:
        if len(value) > MAX_ANCHORS:
            raise ValueError(f"at most {MAX_ANCHORS} anchors")
        for _, box in value:
            if not all(math.isfinite(v) for v in box) or box[2] < box[0] or box[3] < box[1]:
                raise ValueError("anchor boxes must be finite [left, top, right, bottom]")
        return value

    @field_validator("lookalikes")
    @classmethod
    def _check_lookalikes(cls, value: tuple[BBox, ...]) -> tuple[BBox, ...]:
        if len(value) > MAX_ANCHORS:
            raise ValueError(f"at most {MAX_ANCHORS} look-alike boxes")
        for box in value:
            if not all(math.isfinite(v) for v in box) or box[2] < box[0] or box[3] < box[1]:
                raise ValueError("look-alike boxes must be finite [left, top, right, bottom]")
        return value

    @field_validator("tag")
    @classmethod
    def _lower_tag(cls, value: str | None) -> str | None:
        return value.strip().lower() if value else None

    @field_validator("classes", mode="before")
    @classmethod
    def _split_classes(cls, value: Any) -> Any:
        # A class attribute as written ("btn primary") is accepted as well as its tokens.
        if isinstance(value, str):
            return _check_length("classes", value, _CLASS_ATTRIBUTE).split()
        count = _sized_over(value, _CLASS_ATTRIBUTE)
        if count is not None:
            raise InvalidReferenceError(
                f"classes has {count:,} entries, more than the {_CLASS_ATTRIBUTE:,} characters "
                "the classes may take written out"
            )
        return value

    @field_validator("classes")
    @classmethod
    def _check_classes(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        written = sum(len(item) + 1 for item in value)
        if written > _CLASS_ATTRIBUTE:
            raise _over("classes", written, _CLASS_ATTRIBUTE)
        tokens = tuple(dict.fromkeys(t for item in value for t in item.split()))
        if len(tokens) > MAX_CLASSES or any(len(t) > MAX_CLASS_CHARS for t in tokens):
            raise ValueError(
                f"classes: at most {MAX_CLASSES} tokens of at most {MAX_CLASS_CHARS} characters"
            )
        return tokens

    @field_validator("attributes")
    @classmethod
    def _check_attributes(cls, value: dict[str, str]) -> dict[str, str]:
        clean = {k.strip().lower(): v for k, v in value.items() if v.strip()}
        unknown = sorted(set(clean) - set(ATTRIBUTE_NAMES))
        if unknown:
            got = ", ".join(_escaped(shorten(name, 40)) for name in unknown[:5])
            got += f" and {len(unknown) - 5:,} more" if len(unknown) > 5 else ""
            raise ValueError(f"attributes may only be {', '.join(ATTRIBUTE_NAMES)}; got {got}")
        if any(len(v) > MAX_ATTRIBUTE for v in clean.values()):
            raise ValueError(f"attribute values are at most {MAX_ATTRIBUTE} characters")
        return clean

    @field_validator("nearby_text")
    @classmethod
    def _check_nearby(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        texts = tuple(t for t in value if t.strip())
        if len(texts) > MAX_NEARBY or any(len(t) > MAX_NEARBY_CHARS for t in texts):
            raise ValueError(
                f"nearby_text: at most {MAX_NEARBY} texts of at most {MAX_NEARBY_CHARS} characters"
            )
        return texts

    @field_validator("heading")
    @classmethod
    def _cut_heading(cls, value: str | None) -> str | None:
        text = " ".join(value.split()) if value else ""
        return text[:MAX_HEADING] or None

    @field_validator("panel")
    @classmethod
    def _check_panel(cls, value: tuple[str, str] | None) -> tuple[str, str] | None:
        if value is None:
            return None
        role, name = value
        if not role.strip():
            raise ValueError("panel: the role of the panel is empty")
        _check_length("panel role", role, REFERENCE_LIMITS["role"])
        return (role.strip(), _check_path((name.strip(),))[0])

    @field_validator("container_path", mode="before")
    @classmethod
    def _count_path(cls, value: Any) -> Any:
        count = _sized_over(value, _PATH_ENTRIES)
        if count is not None:
            raise _over("container_path", count, _PATH_ENTRIES, "entries")
        return value

    @field_validator("container_path")
    @classmethod
    def _clean_path(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(item for item in _check_path(value) if item.strip())

    @model_validator(mode="after")
    def _valid_unicode(self) -> SemanticElementRef:
        """Lone surrogates in any text replaced (:func:`~resolver.text.valid_unicode`);
        text without one, which is nearly all, is looked through once, joined."""
        values = self.__dict__
        texts = [values[name] or "" for name in _TEXT_FIELDS]
        texts += [*self.container_path, *self.classes, *self.nearby_text, *(self.panel or ())]
        texts += [*self.attributes, *self.attributes.values(), *(n for n, _ in self.anchors)]
        joined = "".join(texts)
        if not joined.isascii() and valid_unicode(joined) is not joined:
            for name in (*_TEXT_FIELDS, *_TEXT_COLLECTIONS):
                values[name] = valid_unicode(values[name])
        return self

    @model_validator(mode="after")
    def _not_empty(self) -> SemanticElementRef:
        if not any(
            (
                self.role,
                self.name,
                self.bbox,
                self.automation_id,
                self.accessibility_id,
                self.css_selector,
                self.xpath,
                self.dom_id,
                self.test_id,
            )
        ):
            raise ValueError(
                "an element reference needs at least one of role, name, bbox, automation_id, "
                "accessibility_id, css_selector, xpath, dom_id or test_id"
            )
        return self

    @property
    def center(self) -> tuple[float, float] | None:
        """The bbox centre, or ``None`` without a bbox."""
        if self.bbox is None:
            return None
        left, top, right, bottom = self.bbox
        return ((left + right) / 2.0, (top + bottom) / 2.0)


ActionType = Literal[
    "click", "double_click", "right_click", "hover", "type", "key", "scroll", "drag", "select",
    "upload",
]  # fmt: skip

MAX_ACTION_FILES: Final[int] = 100
"""At most this many file names in one ``upload`` action."""

FileName = Annotated[str, Field(min_length=1, max_length=4096)]


class ActionWithElement(_Model):
    """One recorded action and the element it acted on.

    Examples
    --------
    >>> a = ActionWithElement(type="click", x=130, y=215,
    ...                       element=SemanticElementRef(role="button", name="OK"))
    >>> a.element.name
    'OK'

    An ``upload`` names the files put into its element (their names, not their paths;
    ``[]`` emptied the field):

    >>> ActionWithElement(type="upload", files=["cv.pdf"],
    ...                   element=SemanticElementRef(role="button", name="Attach")).files
    ('cv.pdf',)
    """

    _called: ClassVar[tuple[str, str]] = ("actions", "action")

    type: ActionType
    x: float | None = None
    y: float | None = None
    element: SemanticElementRef | None = None
    text: str | None = None
    key: str | None = None
    files: tuple[FileName, ...] | None = Field(default=None, max_length=MAX_ACTION_FILES)

    @field_validator("text", "key")
    @classmethod
    def _valid_unicode(cls, value: str | None) -> str | None:
        return valid_unicode(value)  # type: ignore[no-any-return]

    @field_validator("files", mode="before")
    @classmethod
    def _valid_names(cls, value: Any) -> Any:
        # (before the length checks, which cannot measure a lone surrogate)
        return valid_unicode(value) if isinstance(value, (list, tuple)) else value

    @model_validator(mode="after")
    def _consistent(self) -> ActionWithElement:
        for value in (self.x, self.y):
            if value is not None and not math.isfinite(value):
                raise ValueError("x and y must be finite numbers")
        if (self.x is None) != (self.y is None):
            raise ValueError("x and y go together: give both or neither")
        if self.type == "type" and self.text is None:
            raise ValueError("a 'type' action needs text")
        if self.type == "key" and not self.key:
            raise ValueError("a 'key' action needs key")
        if (self.type == "upload") != (self.files is not None):
            raise ValueError("files go with an 'upload' action, and an 'upload' needs files")
        return self
