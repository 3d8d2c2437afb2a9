"""A catalog on one large page: how long its build and its first look-up after a change take.

Usage (from the repository root, with the relocation renders cached)::

    python -m benchmarks.catalog.large_page [--page archive-of-our-own] [--version 0]
    PYTHONPATH=<other checkout> python -m benchmarks.catalog.large_page   # other code

The page is one of the relocation benchmark's (``benchmarks/relocation``: the readability
corpus, rendered in Chromium). For each source (a11y, dom) a catalog is built on the base
render, and its first entry is looked up by index on a changed version: the first look-up
on a new page resolves every entry of the catalog there once (``Catalog`` checks that no
other entry claims the element found), so it costs what the catalog's size costs. Printed
per source: the page's rows, the catalog's entries, the build's seconds and the first
look-up's (wall time, one run each: the figures are for comparing code, run side by side).
"""

from __future__ import annotations

import argparse
import contextlib
import time

from benchmarks.relocation.mutate import make_versions
from benchmarks.relocation.render import render
from benchmarks.relocation.run import corpus_pages
from benchmarks.relocation.targets import choose_targets, load_page, serialize
from resolver.catalog import build_catalog
from resolver.errors import ResolutionError
from resolver.replay.captures import load_capture

SOURCES = ("a11y", "dom")


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.catalog.large_page")
    parser.add_argument("--page", default="archive-of-our-own")
    parser.add_argument("--version", type=int, default=0, help="which changed version")
    args = parser.parse_args(argv)
    found = [p for p in corpus_pages() if p.name == args.page]
    if not found:
        parser.error(f"no page {args.page!r} in the corpus (is RESOLVER_CORPORA set?)")
    root = load_page(found[0] / "source.html")
    versions = make_versions(root, choose_targets(root, args.page), args.page)
    base = load_capture(f"{args.page}/base", render(serialize(root))[0])
    version = versions[args.version]
    changed = load_capture(f"{args.page}/{version.name}", render(version.html)[0])
    print("| source | rows | entries | build s | first look-up s |\n|---|---:|---:|---:|---:|")
    for source in SOURCES:
        rows = len(base.observation.candidates(source))
        changed.observation.candidates(source)
        started = time.perf_counter()
        catalog = build_catalog(base.observation, source=source)
        built = time.perf_counter() - started
        started = time.perf_counter()
        with contextlib.suppress(ResolutionError):  # a refusal costs the same look-up
            catalog.resolve("index=0", observation=changed.observation)
        looked = time.perf_counter() - started
        print(f"| {source} | {rows:,} | {len(catalog.entries):,} | {built:.2f} | {looked:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
