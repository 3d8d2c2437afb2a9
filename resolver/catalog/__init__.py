"""The element catalog: an indexed view of what an agent can act on, whose indexes survive
re-renders.

>>> from resolver import Observation
>>> from resolver.catalog import build_catalog
>>> page = Observation(accessibility_tree={"id": "1", "role": "navigation", "name": "Main",
...     "children": [{"id": "2", "role": "link", "name": "Home", "bbox": [0, 0, 40, 20]}]})
>>> catalog = build_catalog(page)
>>> print(catalog.render())  # doctest: +ELLIPSIS
page · version ... · 1 elements
navigation "Main":
  [0] link: Home
>>> catalog.resolve("index=0", expected_version=catalog.version)
'a11y:2'
"""

from __future__ import annotations

from .catalog import REUSE_CONFIG, Catalog, build_catalog, catalog_version
from .model import CatalogEntry, CatalogView

__all__ = [
    "REUSE_CONFIG",
    "Catalog",
    "CatalogEntry",
    "CatalogView",
    "build_catalog",
    "catalog_version",
]
