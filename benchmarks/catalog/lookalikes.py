"""How the catalog's LLM view tells look-alikes apart on real pages.

Usage (from the repository root)::

    python -m benchmarks.catalog.lookalikes [--split tune|heldout|all]

Each page of the readability corpus (``../shared/corpora/readability-pages``; skipped when
absent) is read by the DOM source from its HTML alone (no browser), its catalog built, and
every entry that shares its role and name with another entry of the page (a look-alike) is
counted by what :func:`resolver.catalog.render.distinctions` shows beside it: a container
(``in "..."``), its region (``in navigation``), its link target, a nearby text (``near
"..."``), two of these together, or only its place among them (``2nd of 3``).
Pages are split in halves as the relocation benchmark splits them.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from resolver import Observation, ResolutionError
from resolver.catalog import build_catalog
from resolver.catalog.render import distinctions

from ..relocation.run import corpus_pages, split_of


def _kind(text: str) -> str:
    if " · " in text:
        return "two of them"
    if text.startswith('in "'):
        return "container"
    if text.startswith("in "):
        return "region"
    if text.startswith("→ "):
        return "link target"
    return "nearby text" if text.startswith("near ") else "order only"


def count_page(html: str) -> Counter[str]:
    """Entries, look-alikes, and how each look-alike is told apart, on one page."""
    catalog = build_catalog(Observation(dom_html=html), source="dom")
    told = distinctions(list(catalog.entries))
    counts: Counter[str] = Counter(entries=len(catalog), lookalikes=len(told))
    for text in told.values():
        counts["by " + _kind(text)] += 1
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=["tune", "heldout", "all"], default="all")
    args = parser.parse_args(argv)
    pages = [p for p in corpus_pages() if args.split in ("all", split_of(p.name))]
    if not pages:
        print("readability-pages corpus not found; skipped")
        return 0
    totals: dict[str, Counter[str]] = {}
    started = time.perf_counter()
    for page in pages:
        html = (page / "source.html").read_text(encoding="utf-8", errors="replace")
        try:
            counts = count_page(html)
        except ResolutionError as exc:
            print(f"{page.name}: {exc}")
            continue
        totals.setdefault(split_of(page.name), Counter()).update(counts + Counter(pages=1))
    kinds = ["container", "region", "link target", "nearby text", "two of them", "order only"]
    print("| half | pages | entries | look-alikes | " + " | ".join(f"by {k}" for k in kinds) + " |")
    print("|---" * (4 + len(kinds)) + "|")
    for half, c in sorted(totals.items()):
        n = max(1, c["lookalikes"])
        shares = " | ".join(f"{c['by ' + k] / n:.1%}" for k in kinds)
        print(f"| {half} | {c['pages']} | {c['entries']:,} | {c['lookalikes']:,} | {shares} |")
    print(f"({time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
