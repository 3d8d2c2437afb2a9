"""Two checkouts of the library timed in one process, alternately: ``resolve`` and
``resolve_many`` on the 10k-node synthetic tree, and a new agent step (a fresh observation
and one resolve) on 10k-node nested and CDP trees (``--step-nodes`` for other sizes).

Usage (from the repository root)::

    python -m benchmarks.ab_speed OLD_CHECKOUT NEW_CHECKOUT [--rounds 40] [--json out.json]
                                  [--chrome N] [--step-nodes N] [--both-orders]

A shared machine's speed drifts by 2-4x within minutes, so timings taken in separate runs
compare badly. Here both checkouts are imported into this process (each as its own copy of
``resolver`` and ``benchmarks.synth``), each builds the same workload
(``synth.workload(10_000, k=20, seed=0)``; 100 references of ``synth.make_refs(...,
seed=7)`` for ``resolve_many``; the workload's targets one by one for ``resolve``;
``step_speed.step`` of the nested and CDP cases of ``step_speed.cases(10_000)``
(``--step-nodes``) for the steps, whose references hold a role and a name, and
``step_speed.build`` of the same cases for their table builds alone; and, for
``recorded``, a step as an agent replaying a recording takes it: a fresh observation of the
workload's CDP list and one resolve of a recorded target (box, containers, nearby texts,
anchors, look-alikes), the next of the 20 at each call), and every round times both, the
order swapped every round. Printed: the median of each and the median of the per-round
ratios new / old (below 1: the new checkout is faster). The checkout loaded second runs some
calls slower whatever its code (up to 15% on the CDP step, the same checkout against
itself); ``--both-orders`` runs the comparison twice in fresh processes, each checkout
loaded first once, and reports both ratios and their geometric mean. ``--chrome N`` adds a
step on each of Chromium's N largest lists of the render cache
(:mod:`benchmarks.chrome_step`): with the role and name of a link or button, with the
reference each checkout records of the list's middle named link or button
(``capture.ref_from_row``), and with that reference at each list's first sight (the
checkout's ``resolver.web.forget_pages`` asked first, where it has one: what it remembers
from one observation of a page to the next is forgotten)."""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import json
import math
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

Modules = dict[str, Any]
Timed = tuple[dict[str, Callable[[], object]], Modules]
"""Per call name (:data:`CALLS`), the call (``one``: every target's ``resolve``, timed per
target); and the checkout's modules."""
CALLS = ("many", "one", "nested", "cdp", "recorded", "nested_build", "cdp_build")
CHROME_CALLS = ("chrome", "chrome_recorded", "chrome_first")
"""With ``--chrome``: steps on Chromium's lists with role-and-name references, with the
references the checkout records, and with those at each list's first sight."""
_OURS = ("resolver", "benchmarks")


def _forget() -> Modules:
    """Take the library's modules out of ``sys.modules``, returning them."""
    return {
        name: sys.modules.pop(name) for name in list(sys.modules) if name.split(".")[0] in _OURS
    }


def _install(modules: Modules) -> None:
    """Make ``modules`` the library's modules (an import inside a function finds its own
    checkout's)."""
    _forget()
    sys.modules.update(modules)


def load(checkout: Path, chrome: list[Any] | None = None, step_nodes: int = 10_000) -> Timed:
    """The timed calls of one checkout, warmed up, and its modules (with ``chrome``, the
    :class:`~benchmarks.chrome_step.ChromeCase` lists a ``chrome`` step resolves on; the
    nested and CDP steps on trees of ``step_nodes`` nodes)."""
    _forget()
    sys.path.insert(0, str(checkout))
    try:
        resolver: Any = importlib.import_module("resolver")
        synth: Any = importlib.import_module("benchmarks.synth")
        speed: Any = importlib.import_module("benchmarks.step_speed")
    finally:
        sys.path.remove(str(checkout))
    work = synth.workload(10_000, k=20, seed=0)
    refs = [t.ref for t in synth.make_refs(work.table, 100, seed=7)]
    observation, targets = work.observation, work.targets
    nested, cdp = speed.cases(step_nodes, kinds=["nested", "cdp"])

    def singles() -> object:
        for target in targets:
            with contextlib.suppress(resolver.ResolutionError):
                resolver.resolve(target.ref, observation)
        return len(targets)

    turn = [0]

    def recorded() -> object:
        target = targets[turn[0] % len(targets)]
        turn[0] += 1
        fresh = resolver.Observation(accessibility_tree=work.tree)
        with contextlib.suppress(resolver.ResolutionError):
            resolver.resolve(target.ref, fresh)
        return target

    calls: dict[str, Callable[[], object]] = {
        "many": lambda: resolver.resolve_many(refs, observation),
        "one": singles,
        "nested": lambda: speed.step(nested),
        "cdp": lambda: speed.step(cdp),
        "recorded": recorded,
        "nested_build": lambda: speed.build(nested),
        "cdp_build": lambda: speed.build(cdp),
    }
    if chrome:  # (each checkout's own reference class)
        refs_ = [resolver.SemanticElementRef(role=c.ref.role, name=c.ref.name) for c in chrome]
        calls["chrome"] = _steps(resolver, chrome, refs_)
        recorded_refs = _recorded_refs(resolver, chrome)
        calls["chrome_recorded"] = _steps(resolver, chrome, recorded_refs)
        forget = getattr(importlib.import_module("resolver.web"), "forget_pages", None)
        calls["chrome_first"] = _steps(resolver, chrome, recorded_refs, forget)
    for _ in range(3):
        for call in calls.values():
            call()
    return calls, _forget()


def _steps(
    resolver: Any, chrome: list[Any], refs: list[Any], forget: Callable[[], None] | None = None
) -> Callable[[], object]:
    """A step on each list (a fresh observation and one resolve of its reference); with
    ``forget``, the checkout's :func:`resolver.web.forget_pages` first, so that each list is
    read as if for the first time (a checkout without it remembers nothing)."""

    def steps() -> object:
        for case, ref in zip(chrome, refs, strict=True):
            if forget is not None:
                forget()
            observation = resolver.Observation(accessibility_tree=case.nodes)
            with contextlib.suppress(resolver.ResolutionError):
                resolver.resolve(ref, observation)
        return len(chrome)

    return steps


def _recorded_refs(resolver: Any, chrome: list[Any]) -> list[Any]:
    """Per list, the reference the checkout records (``capture.ref_from_row``) of the middle
    named link or button of its table: what a recording made with the library holds."""
    capture = importlib.import_module("resolver.capture")
    refs = []
    for case in chrome:
        table = resolver.Observation(accessibility_tree=case.nodes).candidates("a11y")
        named = [row for row, (role, name) in enumerate(zip(table.roles, table.names, strict=True))
                 if role in ("link", "button") and name]  # fmt: skip
        refs.append(capture.ref_from_row(table, named[len(named) // 2]))
    return refs


def _chrome_cases(count: int) -> list[Any]:
    """The ``count`` largest Chromium lists of the render cache (read with this checkout's
    :mod:`benchmarks.chrome_step`; the same data for both checkouts)."""
    if count <= 0:
        return []
    from benchmarks.chrome_step import chrome_cases
    from benchmarks.relocation.render import cache_root

    cases = chrome_cases(cache_root(), count) if cache_root().is_dir() else []
    _forget()  # (each checkout then imports its own library)
    return cases


def _ms(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1e3


def compare(old: Timed, new: Timed, rounds: int, count: int = 1) -> dict[str, float]:
    """Medians (ms) of each call on each checkout and of the per-round ratios new / old
    (``one`` divided by ``count``, the number of targets it resolves)."""
    names = [name for name in (*CALLS, *CHROME_CALLS) if name in old[0]]
    times: dict[str, list[float]] = {f"{t}_{c}": [] for t in ("old", "new") for c in names}
    gc.collect()
    for i in range(rounds):
        order = [("old", old), ("new", new)] if i % 2 == 0 else [("new", new), ("old", old)]
        for tag, (calls, modules) in order:
            _install(modules)
            for name in names:
                ms = _ms(calls[name])
                times[f"{tag}_{name}"].append(ms / count if name == "one" else ms)
    out = {key: statistics.median(values) for key, values in times.items()}
    for name in names:
        pairs = zip(times[f"old_{name}"], times[f"new_{name}"], strict=True)
        out[f"ratio_{name}"] = statistics.median(b / a for a, b in pairs)
    return out


def both_orders(old: Path, new: Path, options: list[str]) -> dict[str, float]:
    """The comparison run twice, each in a fresh process: ``old`` loaded first, then ``new``
    first (the checkout loaded second runs some calls measurably slower: up to 15% on the
    10k CDP step). Per call, ``forward_*`` is new / old from the first run, ``backward_*``
    the same from the second (the inverse of its ratio), and ``ratio_*`` their geometric
    mean."""
    runs: list[dict[str, float]] = []
    root = Path(__file__).resolve().parents[1]
    for first, second in ((old, new), (new, old)):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "figures.json"
            command = [sys.executable, "-m", "benchmarks.ab_speed", str(first), str(second)]
            subprocess.run([*command, "--json", str(out), *options], cwd=root, check=True)
            runs.append(json.loads(out.read_text(encoding="utf-8")))
    forward, backward = runs
    figures: dict[str, float] = {}
    for key, value in forward.items():
        if key.startswith("ratio_") and key in backward:
            name = key.removeprefix("ratio_")
            figures[f"forward_{name}"] = value
            figures[f"backward_{name}"] = 1 / backward[key]
            figures[key] = math.sqrt(value / backward[key])
    return figures


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ab_speed")
    parser.add_argument("old", type=Path, help="the checkout timed as 'old'")
    parser.add_argument("new", type=Path, help="the checkout timed as 'new'")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--chrome", type=int, default=0, metavar="N",
        help="also time a step on each of the N largest Chromium lists of the render cache "
        "(benchmarks.chrome_step), all N in one call",
    )  # fmt: skip
    parser.add_argument(
        "--step-nodes", type=int, default=10_000, metavar="N",
        help="the nodes of the nested and CDP trees the new-step calls build (default 10k)",
    )  # fmt: skip
    parser.add_argument(
        "--both-orders", action="store_true",
        help="run twice in fresh processes, each checkout loaded first once, and report "
        "both ratios and their geometric mean",
    )  # fmt: skip
    args = parser.parse_args(argv)
    for checkout in (args.old, args.new):
        if not (checkout / "resolver" / "__init__.py").is_file():
            parser.error(f"{checkout} is not a checkout of the library")
    if args.both_orders:
        options = ["--rounds", str(args.rounds), "--chrome", str(args.chrome)]
        options += ["--step-nodes", str(args.step_nodes)]
        figures = both_orders(args.old.resolve(), args.new.resolve(), options)
        for key in (k for k in figures if k.startswith("ratio_")):
            name = key.removeprefix("ratio_")
            print(
                f"{name:12} new / old: {figures[f'forward_{name}']:.3f} (old loaded first), "
                f"{figures[f'backward_{name}']:.3f} (new loaded first), "
                f"geometric mean {figures[key]:.3f}"
            )
        if args.json is not None:
            args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
        return 0
    chrome = _chrome_cases(args.chrome)
    old = load(args.old.resolve(), chrome, args.step_nodes)
    new = load(args.new.resolve(), chrome, args.step_nodes)
    _install(old[1])
    count = int(old[0]["one"]())  # (the number of targets resolved one by one)
    figures = compare(old, new, args.rounds, count)
    size = f"{args.step_nodes // 1000}k" if args.step_nodes % 1000 == 0 else str(args.step_nodes)
    labels = {"many": "resolve_many (100 refs)", "one": "resolve (per target)",
              "nested": f"step, nested {size}", "cdp": f"step, CDP {size}",
              "recorded": "step, recorded ref",
              "nested_build": f"build, nested {size}", "cdp_build": f"build, CDP {size}",
              "chrome": f"steps, {len(chrome)} Chromium lists",
              "chrome_recorded": "the same, recorded refs",
              "chrome_first": "the same, first sight"}  # fmt: skip
    for name in labels:
        if f"ratio_{name}" not in figures:
            continue
        print(
            f"{labels[name]:24} old {figures[f'old_{name}']:8.3f} ms, new "
            f"{figures[f'new_{name}']:8.3f} ms, median ratio {figures[f'ratio_{name}']:.3f}"
        )
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
