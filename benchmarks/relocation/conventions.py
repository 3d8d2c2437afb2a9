"""Other tools' conventions for a reference: the ``varied`` recorder's transformations.

The ``foreign`` recorder writes one convention (every named AX ancestor, the box in a
1280x800 window, the full name, selectors and a content script's facts). Another tool may
record the same element otherwise; each function here turns a ``foreign`` reference into
what one such tool would have written (pure: the reference in, a new one out):

``nearest_container``
    ``container_path`` keeps only the innermost named ancestor.
``landmarks``
    ``container_path`` from the landmark ancestors only (:data:`LANDMARK_ROLES`), each
    written as its name when it has one, else as its role, outermost first (the recorder
    reads them from the base render's AX tree: ``ForeignRecorder.landmark_path``).
``other_viewport``
    Recorded at zoom 1.25: the box and the screen size both scaled by 1.25.
``wide_viewport``
    Recorded in a 1440x900 window with the page centred: the box 80 px to the right,
    ``screen_size=(1440, 900)``.
``name_cut``
    The name cut to its first :data:`NAME_CUT` characters.
``name_case``
    The name lower-cased or upper-cased (:attr:`Drawn.variant`).
``bare``
    Role, name and box only: no selectors, containers, nearby texts or web fields.
``no_containers``
    Everything but ``container_path``.

One more convention is never drawn, only asked for (``--varied-convention``, which writes
every ``varied`` reference in one convention):

``selectors_only``
    What a test script keeps: role, name, selectors, web fields and nearby texts; no box,
    no screen size, no containers.

The ``foreign`` reference has no look-alikes, no anchors and no occurrence to begin with,
so no convention drops those. One convention is drawn per target (:func:`draw`), from an
RNG seeded with the page name and the target key, so a run is repeatable and every target
keeps its convention across the changed versions and both sources.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from resolver import SemanticElementRef

__all__ = [
    "ALL_CONVENTIONS",
    "CONVENTIONS",
    "LANDMARK_ROLES",
    "NAME_CUT",
    "Drawn",
    "bare",
    "draw",
    "landmarks",
    "name_case",
    "name_cut",
    "nearest_container",
    "no_containers",
    "other_viewport",
    "selectors_only",
    "wide_viewport",
]

LANDMARK_ROLES: Final[frozenset[str]] = frozenset(
    {"banner", "navigation", "main", "contentinfo", "complementary", "region", "form", "search"}
)
"""Chromium AX roles of the landmarks the ``landmarks`` convention keeps."""
NAME_CUT: Final[int] = 30
"""Characters of the name the ``name_cut`` convention keeps."""
ZOOM: Final[float] = 1.25
WIDE_SCREEN: Final[tuple[int, int]] = (1440, 900)
WIDE_SHIFT: Final[float] = 80.0
"""(1440 - 1280) / 2: the page centred in the wider window."""


def nearest_container(ref: SemanticElementRef) -> SemanticElementRef:
    """Only the innermost named ancestor in ``container_path``."""
    return ref.model_copy(update={"container_path": ref.container_path[-1:]})


def landmarks(ref: SemanticElementRef, path: tuple[str, ...]) -> SemanticElementRef:
    """``container_path`` replaced by ``path``, the landmark ancestors (name, else role)."""
    return ref.model_copy(update={"container_path": tuple(path)})


def other_viewport(ref: SemanticElementRef) -> SemanticElementRef:
    """The box and the screen size as measured at zoom 1.25."""
    box = None if ref.bbox is None else tuple(v * ZOOM for v in ref.bbox)
    screen = ref.screen_size
    scaled = None if screen is None else (round(screen[0] * ZOOM), round(screen[1] * ZOOM))
    return ref.model_copy(update={"bbox": box, "screen_size": scaled})


def wide_viewport(ref: SemanticElementRef) -> SemanticElementRef:
    """The box as measured in a 1440x900 window with the page centred."""
    box = ref.bbox
    moved = None if box is None else (box[0] + WIDE_SHIFT, box[1], box[2] + WIDE_SHIFT, box[3])
    return ref.model_copy(update={"bbox": moved, "screen_size": WIDE_SCREEN})


def name_cut(ref: SemanticElementRef) -> SemanticElementRef:
    """The name cut to its first :data:`NAME_CUT` characters."""
    if ref.name is None or len(ref.name) <= NAME_CUT:
        return ref
    return ref.model_copy(update={"name": ref.name[:NAME_CUT]})


def name_case(ref: SemanticElementRef, upper: bool) -> SemanticElementRef:
    """The name upper-cased (``upper``) or lower-cased."""
    if ref.name is None:
        return ref
    return ref.model_copy(update={"name": ref.name.upper() if upper else ref.name.lower()})


def bare(ref: SemanticElementRef) -> SemanticElementRef:
    """Role, name and box only."""
    return SemanticElementRef(role=ref.role, name=ref.name, bbox=ref.bbox)


def no_containers(ref: SemanticElementRef) -> SemanticElementRef:
    """Everything but ``container_path``."""
    return ref.model_copy(update={"container_path": ()})


def selectors_only(ref: SemanticElementRef) -> SemanticElementRef:
    """No box, screen size or containers: selectors, web fields and nearby texts kept."""
    return ref.model_copy(update={"bbox": None, "screen_size": None, "container_path": ()})


_PLAIN: Final[dict[str, Callable[[SemanticElementRef], SemanticElementRef]]] = {
    "nearest_container": nearest_container,
    "other_viewport": other_viewport,
    "wide_viewport": wide_viewport,
    "name_cut": name_cut,
    "bare": bare,
    "no_containers": no_containers,
    "selectors_only": selectors_only,
}

CONVENTIONS: Final[tuple[str, ...]] = (
    "nearest_container",
    "landmarks",
    "other_viewport",
    "wide_viewport",
    "name_cut",
    "name_case",
    "bare",
    "no_containers",
)
"""The conventions :func:`draw` chooses from, in a fixed order."""

ALL_CONVENTIONS: Final[tuple[str, ...]] = (*CONVENTIONS, "selectors_only")
"""Every convention, those only asked for included (``draw(..., only=...)``)."""


@dataclass(frozen=True)
class Drawn:
    """One target's convention, and its variant (``upper`` / ``lower`` for ``name_case``)."""

    name: str = ""
    variant: str = ""

    def apply(
        self, ref: SemanticElementRef, landmark_path: tuple[str, ...] = ()
    ) -> SemanticElementRef:
        """``ref`` as this convention writes it (``landmark_path``: the element's landmark
        ancestors, for ``landmarks``)."""
        if self.name == "landmarks":
            return landmarks(ref, landmark_path)
        if self.name == "name_case":
            return name_case(ref, upper=self.variant == "upper")
        plain = _PLAIN.get(self.name)
        if plain is None:
            raise ValueError(f"unknown convention {self.name!r}")
        return plain(ref)


def draw(page: str, key: str, only: str = "") -> Drawn:
    """The convention of target ``key`` of ``page`` (the same on every run), or ``only``
    for every target when given (one of :data:`ALL_CONVENTIONS`)."""
    if only and only not in ALL_CONVENTIONS:
        raise ValueError(f"unknown convention {only!r}")
    rng = random.Random(f"varied:{page}:{key}")
    name = only or rng.choice(CONVENTIONS)
    variant = rng.choice(("lower", "upper")) if name == "name_case" else ""
    return Drawn(name, variant)
