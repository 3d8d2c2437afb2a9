"""Which unanswered targets of a vision run have a name the screen never reads.

A target in the viewport that the vision source did not find (``abstained``) or found
elsewhere (``wrong``) is one of three kinds: unnamed (its reference records no name), read
(the recorded name, or its letters without spaces, is part of the text OCR reads anywhere on
that screenshot) or unread (nowhere on it: a script the recognition model does not read, a
name drawn nowhere, text drawn over itself). Unread targets are out of reach of any decision
rule; the read ones are what the rules still refuse or miss.

Usage (the corpus and render cache of the run, and its OCR cache, so that nothing is read
again)::

    RESOLVER_CORPORA=C RESOLVER_RELOCATION_CACHE=R \\
        python -m benchmarks.vision.unread RUN.json --ocr-cache D [--list read|unread]

It renders each page version the run resolved on (from the render cache), reads its whole
screen and prints the counts per verdict and kind; ``--list`` prints the targets of a kind.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["KINDS", "kind_of", "main", "unanswered"]

KINDS = ("unnamed", "read", "unread")
"""What :func:`kind_of` says of a target."""

_SPACES = re.compile(r"\s+")


def _plain(text: str) -> str:
    return _SPACES.sub(" ", text.lower()).strip()


def kind_of(name: str | None, screen_text: str) -> str:
    """``unnamed``, ``read`` (``name`` in ``screen_text``, case and spacing aside, or with
    every space dropped on both sides) or ``unread``.

    >>> kind_of("Log In", "Home | LOG IN | Help")
    'read'
    >>> kind_of("Search Gizmodo", "SSearchGizmodo")
    'read'
    >>> kind_of("العالم", "Home")
    'unread'
    """
    wanted = _plain(name or "")
    if not wanted:
        return "unnamed"
    text = _plain(screen_text)
    if wanted in text or wanted.replace(" ", "") in text.replace(" ", ""):
        return "read"
    return "unread"


def unanswered(outcomes: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str], list[Any]]:
    """The run's present targets in the viewport without a right answer (``abstained``,
    ``wrong``), by page and version."""
    found: dict[tuple[str, str], list[Any]] = defaultdict(list)
    for o in outcomes:
        if o["present"] and o["place"] == "in_view" and o["verdict"] in ("abstained", "wrong"):
            found[(o["page"], o["version"])].append(o)
    return dict(found)


def _screen_text(html: str) -> str:
    """Every line OCR reads on the first screen of ``html``."""
    from benchmarks.relocation.render import DEFAULT_CHROMIUM
    from benchmarks.vision.pages import screenshot
    from resolver.adapters.vision.analysis import analyze
    from resolver.adapters.vision.image import load_screenshot

    shot, _ = screenshot(html, chromium=DEFAULT_CHROMIUM, timeout=60.0, scale=1.0)
    return " ".join(line.text for line in analyze(load_screenshot(shot.png)).lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="a benchmarks.vision.pages --json file")
    parser.add_argument("--ocr-cache", type=Path, required=True)
    parser.add_argument("--list", choices=KINDS, help="print the targets of this kind")
    args = parser.parse_args(argv)
    from benchmarks.relocation.run import corpus_pages, page_versions
    from benchmarks.vision.ocr_cache import install

    install(str(args.ocr_cache))
    data = json.loads(args.run.read_text(encoding="utf-8"))
    extra = data["config"].get("extra", {})
    asked = [extra.get(k, 0) for k in ("removals", "restyles", "moves", "edits", "draw")]
    pages = {p.name: p for p in corpus_pages()}
    counts: Counter[tuple[str, str]] = Counter()
    versions: dict[str, tuple[str, dict[str, str]]] = {}
    for (page, version), targets in sorted(unanswered(data["outcomes"]).items()):
        if page not in pages:
            print(f"{page}: not in the corpus", file=sys.stderr)
            return 2
        if page not in versions:
            versions.clear()  # one page's versions at a time
            _, html, made = page_versions(str(pages[page] / "source.html"), page, *asked)
            versions[page] = (html, {v.name: v.html for v in made})
        base, changed = versions[page]
        text = _screen_text(base if version == "v0-identity" else changed[version])
        for o in targets:
            kind = kind_of(o["name"], text)
            counts[(o["verdict"], kind)] += 1
            if kind == args.list:
                print(f"{page} {version} {o['key']} {o['role']} {o['name'][:40]!r} "
                      f"{o['verdict']} {(o['answer'] or '')[-60:]}")  # fmt: skip
    for (verdict, kind), n in sorted(counts.items()):
        print(f"{verdict:10s} {kind:8s} {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
