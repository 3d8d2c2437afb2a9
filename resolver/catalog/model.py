"""The catalog's data: one :class:`CatalogEntry` per element, and the JSON view of the whole.

Entries are pydantic models, so ``Catalog.to_json()`` round-trips through
:meth:`CatalogView.model_validate_json` and :meth:`CatalogView.model_json_schema` documents it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..models import BBox, SemanticElementRef

__all__ = ["CatalogEntry", "CatalogView", "SelectorKind"]

SelectorKind = Literal["css", "role", "text", "xpath"]


class CatalogEntry(BaseModel):
    """One element of the catalog.

    Attributes
    ----------
    index:
        Its position in the catalog's order (top to bottom, left to right).
    executor_id:
        What an executor acts on (``a11y:7``, ``xpath:/html[1]/...``, ``vision:3``).
    role, name, value:
        Canonical role, accessible name, current value (secrets masked).
    bbox:
        ``[left, top, right, bottom]`` in the observation's coordinates, when known.
    region:
        The innermost landmark or dialog around it (``navigation "Main"``, ``form``,
        ``page``).
    visible, enabled, focused:
        State, when the source knows it (``None`` otherwise).
    href:
        A link's target, when the DOM is known.
    selectors:
        Ranked ``(kind, selector)`` pairs, each selecting exactly this element on the page it
        was built from (empty without a DOM).
    ref:
        The reference the entry was built from: what the catalog re-resolves on a later
        observation.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    index: int = Field(ge=0)
    row: int = Field(ge=0, description="row of the source's candidate table")
    executor_id: str
    role: str
    name: str
    value: str = ""
    bbox: BBox | None = None
    region: str = "page"
    visible: bool | None = None
    enabled: bool | None = None
    focused: bool | None = None
    href: str | None = None
    selectors: tuple[tuple[SelectorKind, str], ...] = ()
    ref: SemanticElementRef

    @property
    def interactable(self) -> bool:
        """Neither reported hidden nor disabled."""
        return self.visible is not False and self.enabled is not False


class CatalogView(BaseModel):
    """The whole catalog as JSON (``Catalog.to_json`` writes it, ``Catalog.from_json`` reads it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    version: str = Field(pattern=r"^[0-9a-f]{12}$")
    source: Literal["a11y", "dom", "vision"]
    url: str | None = None
    title: str | None = None
    viewport: tuple[float, float] | None = None
    entries: tuple[CatalogEntry, ...] = ()
