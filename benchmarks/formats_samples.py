"""Development check: read every real format sample, time it, and resolve a few refs in each.

Usage (from the repository root)::

    python benchmarks/formats_samples.py [--refs 5] [SAMPLES_DIR]

The samples live outside the project (``../shared/formats`` next to the repository, or the
directory in ``RESOLVER_FORMAT_SAMPLES``); when they are absent the script says so and exits
cleanly. Samples that wrap an observation (a prompt, a SQL fixture, a Markdown report) are
unwrapped first; a prompt file with several observations yields one entry per observation.

For each observation it prints the detected format, the number of rows, the parse time and
the table build time (medians of 5), and how many of a few recorded refs (named rows spread
over the tree, recorded with :func:`resolver.capture.ref_from_row`) resolve back to the same
row on a fresh observation: ``ok`` / abstained / ``wrong``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from resolver import Observation, ResolutionError, resolve
from resolver.adapters.a11y import FORMATS, SourceInput, detect_format, parse_input
from resolver.capture import ref_from_row

ROOT = Path(__file__).resolve().parents[1]
ENV = "RESOLVER_FORMAT_SAMPLES"
SKIP_SUFFIXES = {".md"}  # README and notes; Markdown snapshots are read by name below


def samples_dir(arg: str | None) -> Path | None:
    for candidate in (arg, os.environ.get(ENV), str(ROOT.parent / "shared" / "formats")):
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    return None


def _openadapt_sql(text: str) -> Iterator[Any]:
    """The ``state`` JSON of each ``window_event`` row of an OpenAdapt fixture."""
    for match in re.finditer(r"'(\{\"title\".*?\})'\s*,", text, re.S):
        yield json.loads(match.group(1))


def _prompt_observations(text: str) -> Iterator[str]:
    """WebArena / VisualWebArena prompt JSON: the ``OBSERVATION:`` block of each example."""
    for example in json.loads(text).get("examples", []):
        first = example[0] if isinstance(example, list) and example else ""
        match = re.search(r"OBSERVATION:\n(.*?)\nURL:", first, re.S)
        if match:
            yield match.group(1)


def _agentlab_prompt(text: str) -> Iterator[str]:
    """AgentLab prompt: the ``## AXTree:`` section."""
    section = text.split("## AXTree:", 1)[-1].split("\n## ", 1)[0]
    yield section


def observations(path: Path) -> Iterator[tuple[str, Any]]:
    """(label, raw accessibility_tree) for each observation inside one sample file."""
    text = path.read_text(encoding="utf-8")
    unwrap: Callable[[str], Iterator[Any]] | None = None
    if path.suffix == ".sql":
        unwrap = _openadapt_sql
    elif "agent_prompts_jsons" in path.name:
        unwrap = _prompt_observations
    elif "AgentLab" in path.name and "## AXTree:" in text:
        unwrap = _agentlab_prompt
    if unwrap is None:
        yield path.name, text
        return
    for n, raw in enumerate(unwrap(text)):
        yield f"{path.name}#{n}", raw


def _median_ms(func: Callable[[], Any], rounds: int = 5) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def resolve_some(raw: Any, refs: int) -> tuple[int, int, int]:
    """Record up to ``refs`` named rows and resolve them on a fresh observation."""
    table = Observation(accessibility_tree=raw).candidates("a11y")
    named = [i for i in range(len(table)) if table.names[i] and table.roles[i] != "generic"]
    step = max(1, len(named) // refs) if named else 1
    ok = abstained = wrong = 0
    for row in named[::step][:refs]:
        ref = ref_from_row(table, row)
        try:
            found = resolve(ref, Observation(accessibility_tree=raw))
        except ResolutionError:
            abstained += 1
            continue
        if found.executor_id == table.executor_ids[row]:
            ok += 1
        else:
            wrong += 1
    return ok, abstained, wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("samples", nargs="?", help=f"samples directory (or ${ENV})")
    parser.add_argument("--refs", type=int, default=5, help="refs resolved per observation")
    args = parser.parse_args(argv)
    root = samples_dir(args.samples)
    if root is None:
        print(f"format samples not found (../shared/formats or ${ENV}); nothing to check")
        return 0
    print("| sample | format | rows | parse ms | build ms | refs ok / abstained / wrong |")
    print("|---|---|---:|---:|---:|---|")
    failures = 0
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        if path.suffix in SKIP_SUFFIXES and "error-context" not in path.name:
            continue
        for label, raw in observations(path):
            name = f"{path.parent.name}/{label}"
            try:
                parse_ms = _median_ms(lambda raw=raw: parse_input(raw))
                tree = parse_input(raw)
                fmt = detect_format(tree)
                source = SourceInput(raw=raw, max_nodes=500_000)
                build_ms = _median_ms(
                    lambda fmt=fmt, tree=tree, source=source: fmt.build(tree, source)
                )
                rows = len(fmt.build(tree, source))
                ok, abstained, wrong = resolve_some(raw, args.refs)
            except ResolutionError as exc:
                failures += 1
                print(f"| {name} | error | | | | {exc.code.value}: {exc.message[:60]} |")
                continue
            failures += wrong
            print(
                f"| {name} | {fmt.name} | {rows} | {parse_ms:.2f} | {build_ms:.2f} "
                f"| {ok} / {abstained} / {wrong} |"
            )
    print(f"\nformats known: {', '.join(f.name for f in FORMATS)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
