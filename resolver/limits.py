"""Input limits: how much the resolver reads before it refuses, as one documented option.

Agent runtimes hand the resolver whatever the page or the OS gives them. Every input is
measured against a :class:`Limits` **while it is read** (a file's size before it is opened, a
tree's nodes and depth before a row is built, an image's pixels before it is decoded), so a
refusal costs time and memory bounded by the limit, not by the input. The refusal is a
:class:`LimitExceededError` that names the limit and how to raise it::

    Observation(tree, limits=Limits(max_nodes=2_000_000))   # Python
    resolver resolve --ref r.json --tree t.json --limit max_nodes=2000000   # CLI

A reference's own fields have fixed limits (a reference must mean the same thing wherever it
is read); they are listed in :data:`REFERENCE_LIMITS` and checked when it is built.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final

from .errors import ConfigError, LimitExceededError

__all__ = [
    "DEFAULT_LIMITS",
    "REFERENCE_LIMITS",
    "LimitExceededError",
    "Limits",
    "parse_limit",
]

_MIB: Final[int] = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """How much of each kind of input is read; anything larger is refused before the work.

    Every field is a positive int. The defaults take the largest real pages and desktops
    comfortably (a 200k-node CDP tree, a 5k-row table, a 4k screenshot) and refuse what
    would take seconds or gigabytes.
    """

    max_nodes: int = 500_000
    """Nodes of an accessibility tree, and rows of the DOM source."""
    max_depth: int = 4_096
    """Nesting depth of any tree: a11y (dicts, lists, XML, outlines) and HTML."""
    max_tree_bytes: int = 200 * _MIB
    """Size of an accessibility tree given as text, bytes or a file."""
    max_html_chars: int = 16_000_000
    """Characters of the HTML the DOM source reads."""
    max_elements: int = 400_000
    """Elements the HTML parser builds (each row is one; text and comments aside)."""
    max_image_pixels: int = 40_000_000
    """Pixels of a screenshot (width times height), checked from its header before decoding."""
    max_image_bytes: int = 256 * _MIB
    """Size of a screenshot file or buffer."""
    max_recording_bytes: int = 512 * _MIB
    """Size of one recording file a replay reads."""

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(
                    f"Limits.{field.name} must be a positive int, got {value!r}",
                    details={"option": field.name},
                )

    def refuse(self, name: str, found: int | None, what: str) -> LimitExceededError:
        """The error for ``what`` exceeding the limit ``name`` (``found`` when it was
        counted: a refusal at the limit says "more than")."""
        allowed = getattr(self, name)
        amount = f"{found:,}" if found is not None and found > allowed else f"more than {allowed:,}"
        return LimitExceededError(
            f"{what} has {amount} {_UNITS[name]}, over the limit {name}={allowed} "
            f"(raise it with Limits({name}=...) in Python or --limit {name}=N on the command line)",
            details={"limit": name, "allowed": allowed, "found": found},
        )

    def to_dict(self) -> dict[str, int]:
        """The limits as ``{name: value}``."""
        return asdict(self)


_UNITS: Final[dict[str, str]] = {
    "max_nodes": "nodes",
    "max_depth": "levels of nesting",
    "max_tree_bytes": "bytes",
    "max_html_chars": "characters",
    "max_elements": "elements",
    "max_image_pixels": "pixels",
    "max_image_bytes": "bytes",
    "max_recording_bytes": "bytes",
}

DEFAULT_LIMITS: Final[Limits] = Limits()

REFERENCE_LIMITS: Final[dict[str, int]] = {
    "role": 200,
    "name": 10_000,
    "container_path entries": 64,
    "container_path entry": 2_000,
    "xpath": 4_096,
    "css_selector": 4_096,
    "automation_id": 2_000,
    "accessibility_id": 2_000,
    "dom_id": 2_000,
    "test_id": 2_000,
}
"""Characters of a reference's text fields (keyed by the field of
:class:`~resolver.models.SemanticElementRef`), and the entries of its ``container_path`` and
characters of each entry. A container entry over its limit is cut to it (a recorder may
name an ancestor by its whole text; the matcher reads only an entry's beginning); any other
longer field is refused with
:class:`~resolver.errors.InvalidReferenceError` when the reference is built or read (the
constructor, ``model_validate``, ``model_validate_json``), on its length alone: a 50 MB name
costs no more than a short one. The web fields' limits (class name, tag, classes, href,
attributes, nearby texts) are in :mod:`resolver.web`."""


def parse_limit(text: str, base: Limits = DEFAULT_LIMITS) -> Limits:
    """``base`` with one ``NAME=VALUE`` (the CLI's ``--limit``) applied."""
    name, equals, value = text.partition("=")
    name = name.strip().replace("-", "_")
    known = [f.name for f in fields(Limits)]
    if not equals or name not in known:
        raise ConfigError(
            f"--limit takes NAME=VALUE with NAME one of {', '.join(known)}; got {text[:80]!r}"
        )
    try:
        number = int(value.strip().replace("_", ""))
    except ValueError as exc:
        raise ConfigError(f"--limit {name} needs a positive integer, got {value[:40]!r}") from exc
    changes: dict[str, Any] = {name: number}
    return replace(base, **changes)
