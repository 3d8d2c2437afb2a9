"""Acting on resolved elements: :mod:`.locators` gives durable, verified locators for them.

>>> from resolver.act import durable_locators  # doctest: +SKIP
"""

from __future__ import annotations

from .locators import DurableLocators, durable_locators

__all__ = ["DurableLocators", "durable_locators"]
