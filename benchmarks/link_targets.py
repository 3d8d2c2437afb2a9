"""Link targets of real pages read the plain way and by ``urlsplit``: the same keys.

Usage (from the repository root)::

    python -m benchmarks.link_targets [--cache DIR]

:func:`resolver.web.href_key` reads a target of the plain form most pages write (printable
ASCII, no user, port or query) by one regular-expression match, and any other by
``urlsplit``. Here every distinct link target of the relocation benchmark's renders (its
cache folder, ``$RESOLVER_RELOCATION_CACHE``: the ``url`` property of Chromium's link nodes
and the ``href`` attributes of the saved DOM) is read both ways. Printed: how many targets,
how many of them are plain, and how many give another key (0 is the expectation). Without
the cache a one-line note is printed and the exit status is 0.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks.relocation.render import cache_root
from resolver.web import _PLAIN_HREF, _href_key, _parsed_href_key

__all__ = ["compare", "main", "targets"]

_DOM_HREF = re.compile(r"""\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')""")


def _urls(node: Any) -> Iterator[str]:
    """The ``url`` property values of one CDP node."""
    for prop in node.get("properties") or () if isinstance(node, dict) else ():
        value = prop.get("value") if isinstance(prop, dict) else None
        text = value.get("value") if isinstance(value, dict) else None
        if isinstance(prop, dict) and prop.get("name") == "url" and isinstance(text, str):
            yield text


def targets(root: Path) -> set[str]:
    """Every distinct link target of the renders under ``root``."""
    found: set[str] = set()
    for path in sorted(root.glob("*/*.json.gz")):
        try:
            with gzip.open(path, "rt", encoding="utf-8") as handle:
                bundle = json.load(handle)
        except (OSError, ValueError):
            continue
        if not isinstance(bundle, dict):
            continue
        tree = bundle.get("axtree.json")
        nodes = json.loads(tree) if isinstance(tree, str) else tree
        nodes = nodes.get("nodes") if isinstance(nodes, dict) else nodes
        for node in nodes if isinstance(nodes, list) else ():
            found.update(_urls(node))
        html = bundle.get("dom.html")
        if isinstance(html, str):
            found.update(a or b for a, b in _DOM_HREF.findall(html))
    return found


def compare(hrefs: set[str]) -> tuple[int, int, list[str]]:
    """How many of ``hrefs`` are plain, and those whose key differs read both ways."""
    plain, differ = 0, []
    for href in sorted(hrefs):
        stripped = href.strip()
        said = stripped and stripped != "#" and stripped[:11].lower() != "javascript:"
        plain += bool(said and _PLAIN_HREF.fullmatch(stripped))
        want = _parsed_href_key(stripped, None) if said else None
        if _href_key(href, None) != want:
            differ.append(href)
    return plain, len(differ), differ


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.link_targets")
    parser.add_argument("--cache", type=Path, help="the render cache (default: the benchmark's)")
    args = parser.parse_args(argv)
    root = args.cache or cache_root()
    hrefs = targets(root) if root.is_dir() else set()
    if not hrefs:
        print(f"no rendered pages under {root}: nothing to compare", file=sys.stderr)
        return 0
    plain, count, differ = compare(hrefs)
    print(f"{len(hrefs):,} distinct link targets, {plain:,} of the plain form; "
          f"{count} read differently by urlsplit")  # fmt: skip
    for href in differ[:20]:
        print(f"  {href!r}")
    return 1 if count else 0


if __name__ == "__main__":
    raise SystemExit(main())
