"""A step on a CDP tree linked to its page, with and without reading the page's classes.

Usage (from the repository root)::

    python -m benchmarks.linked_step [--pages 40 | --largest 8] [--repeat 5]

An observation of a CDP tree, a ``backendDOMNodeId -> xpath`` map and the page's HTML gives
its a11y rows their elements' tag, classes, link target and attributes, built from the page
the first time a reference asks for them (:class:`resolver.table.LazyColumns`). Per page of
the relocation benchmark's render cache (``$RESOLVER_RELOCATION_CACHE``; ``--pages`` drawn
at random with a fixed seed, or the ``--largest`` by size), it times the step (a fresh
``Observation`` of the parsed tree, map and HTML, then one a11y ``resolve`` of a labelled
target) for the target's role, name and box alone, and for the same with a recorded tag and
class, which builds the page's DOM table. Printed: each page's medians and the medians over
pages. Without the cache a one-line note is printed and the exit status is 0.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import random
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.relocation.render import cache_root
from benchmarks.step_speed import seconds
from resolver import Observation, ResolutionError, SemanticElementRef, resolve

__all__ = ["LinkedPage", "linked_pages", "main", "step_ms"]


@dataclass(frozen=True)
class LinkedPage:
    """One cached render: its tree, map, HTML and screen, and a labelled target's reference
    (role, name, box)."""

    key: str
    tree: dict[str, Any]
    links: dict[str, str]
    html: str
    screen: tuple[float, float] | None
    ref: SemanticElementRef

    @property
    def nodes(self) -> int:
        return len(self.tree.get("nodes") or ())

    def observation(self) -> Observation:
        return Observation(
            accessibility_tree=self.tree, dom_html=self.html, dom_node_map=self.links,
            screen_size=self.screen,
        )  # fmt: skip


def _page(path: Path) -> LinkedPage | None:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        files = json.load(handle)
    if not {"axtree.json", "chromium_dom.json", "dom.html", "labels.json"} <= files.keys():
        return None
    records = json.loads(files["chromium_dom.json"])
    links = {
        str(r["backend_node_id"]): r["xpath"]
        for r in records
        if r.get("backend_node_id") is not None
    }
    label = next(
        (v for v in json.loads(files["labels.json"]).values() if v.get("name") and v.get("xpath")),
        None,
    )
    if label is None:
        return None
    meta = json.loads(files.get("meta.json") or "{}")
    box = tuple(label["bbox"]) if label.get("bbox") else None
    ref = SemanticElementRef(role=label["role"], name=label["name"], bbox=box)
    screen = tuple(meta["viewport"]) if meta.get("viewport") else None
    return LinkedPage(
        path.name.split(".")[0], json.loads(files["axtree.json"]), links, files["dom.html"],
        screen, ref,  # type: ignore[arg-type]
    )  # fmt: skip


def linked_pages(root: Path, pages: int, *, largest: bool = False) -> list[LinkedPage]:
    """Up to ``pages`` cached renders with a map, the HTML and a named labelled target: drawn
    at random (seed 1), or the largest files first."""
    files = sorted(root.glob("*/*.json.gz"))
    if largest:
        files.sort(key=lambda p: -p.stat().st_size)
    else:
        random.Random(1).shuffle(files)
    out: list[LinkedPage] = []
    for path in files:
        if len(out) >= pages:
            break
        page = _page(path)
        if page is not None:
            out.append(page)
    return out


def step_ms(page: LinkedPage, ref: SemanticElementRef, repeat: int) -> float:
    """Median milliseconds of a fresh observation and one a11y resolve of ``ref``."""

    def step() -> None:
        with contextlib.suppress(ResolutionError):
            resolve(ref, page.observation(), sources=("a11y",))

    step()
    return statistics.median(seconds(step) * 1e3 for _ in range(repeat))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=40, help="pages drawn at random")
    parser.add_argument("--largest", type=int, default=0, help="the N largest pages instead")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    root = cache_root()
    if not root.is_dir():
        print("no render cache ($RESOLVER_RELOCATION_CACHE): nothing to time")
        return 0
    pages = linked_pages(root, args.largest or args.pages, largest=bool(args.largest))
    print("| page | tree nodes | role, name, box ms | with tag and class ms |")
    print("|---|---:|---:|---:|")
    plain, web = [], []
    for page in pages:
        dressed = page.ref.model_copy(update={"tag": "a", "classes": ("x",)})
        plain.append(step_ms(page, page.ref, args.repeat))
        web.append(step_ms(page, dressed, args.repeat))
        print(f"| {page.key[:10]} | {page.nodes:,} | {plain[-1]:.1f} | {web[-1]:.1f} |")
    if pages:
        print(
            f"| median of {len(pages)} | | {statistics.median(plain):.1f} | "
            f"{statistics.median(web):.1f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
