"""Command line: ``python -m resolver demo`` and ``python -m resolver resolve``."""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from .chain import resolve, resolve_element
from .errors import ResolutionError
from .fixtures import Outcome, iter_trials, run_trials, summarize
from .observation import Observation

__all__ = ["main"]

_DEFAULT_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "captured"


def _demo(args: argparse.Namespace) -> int:
    root = Path(args.fixtures)
    if not root.is_dir():
        print(f"no captured fixtures at {root}", file=sys.stderr)
        return 2
    sources = tuple(args.sources.split(","))
    trials = list(iter_trials(root))
    outcomes = run_trials(trials, lambda ref, obs: resolve_element(ref, obs, sources=sources))
    by_scenario: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        by_scenario[outcome.trial.scenario].append(outcome)
    print(f"Recorded on each base page, resolved on its changed versions (sources: {args.sources})")
    print()
    header = (
        f"{'scenario':<26} {'refs':>4} {'correct':>7} {'wrong':>5} {'abstain':>7} "
        f"{'removed ok':>10} {'false hit':>9}"
    )
    print(header)
    print("-" * len(header))
    for scenario, items in by_scenario.items():
        s = summarize(items)
        print(
            f"{scenario:<26} {s['trials']:>4} {s['correct']:>7} {s['wrong']:>5} "
            f"{s['abstained']:>7} {s['rejected']:>10} {s['false_hit']:>9}"
        )
    total = summarize(outcomes)
    print("-" * len(header))
    print(
        f"{'all':<26} {total['trials']:>4} {total['correct']:>7} {total['wrong']:>5} "
        f"{total['abstained']:>7} {total['rejected']:>10} {total['false_hit']:>9}"
    )
    print()
    print(
        f"accuracy on present targets {total['accuracy_present']:.1%}, "
        f"wrong answers {total['wrong_rate_answered']:.1%} of answers, "
        f"removed targets rejected {total['rejection_removed']:.1%}, "
        f"median {total['median_ms']:.2f} ms per resolve (first call per page builds its table)"
    )
    if args.verbose:
        print()
        for outcome in outcomes:
            t = outcome.trial
            print(
                f"{outcome.verdict:<9} {t.scenario:<26} {t.key:<36} "
                f"expected={t.expected} answer={outcome.answer} {outcome.error_code or ''}"
            )
    else:
        print()
        print("Not answered or not right (abstentions are by design when evidence is thin):")
        for outcome in outcomes:
            if outcome.verdict in ("wrong", "false_hit", "abstained"):
                t = outcome.trial
                print(
                    f"  {outcome.verdict:<9} {t.scenario:<24} {t.key:<34} "
                    f"{outcome.error_code or outcome.answer}"
                )
    example = next(
        (t for t in trials if t.key.endswith("display.ok") and ".v2" in t.scenario), None
    )
    if example is not None:
        res = resolve(example.ref, example.changed.observation, sources=sources)
        print()
        print(f"Example: {example.key} recorded as")
        print("  " + example.ref.model_dump_json(exclude_none=True))
        print(
            f"resolved in {example.changed.name} to {res.executor_id} "
            f"(score {res.score:.3f}, margin {res.margin:.3f}); runner-up:"
        )
        if res.alternatives:
            alt = res.alternatives[0]
            print(
                f"  {alt.executor_id} {alt.role} {alt.name!r} in {list(alt.container_path)} "
                f"score {alt.score:.3f}"
            )
    return 0 if total["wrong"] == 0 else 1


def _resolve(args: argparse.Namespace) -> int:
    try:
        text = args.ref if args.ref.lstrip().startswith("{") else Path(args.ref).read_text()
        obs = Observation(
            accessibility_tree=Path(args.tree) if args.tree else None,
            dom_html=Path(args.dom).read_bytes() if args.dom else None,
            tree_format=args.format,
        )
        res = resolve(text, obs)
    except OSError as exc:
        print(f"cannot read {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    except ResolutionError as exc:
        print(json.dumps(exc.to_dict(), indent=1, default=str))
        return 3
    print(json.dumps(res.to_dict(), indent=1))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``resolver`` command."""
    parser = argparse.ArgumentParser(prog="resolver", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="resolve the bundled captured fixtures and print results")
    demo.add_argument("fixtures", nargs="?", default=str(_DEFAULT_FIXTURES))
    demo.add_argument("--sources", default="a11y,dom,vision,coords")
    demo.add_argument("-v", "--verbose", action="store_true")
    demo.set_defaults(func=_demo)
    one = sub.add_parser("resolve", help="resolve one ref (JSON or file) against a tree file")
    one.add_argument("--ref", required=True)
    one.add_argument("--tree")
    one.add_argument("--dom")
    one.add_argument("--format")
    one.set_defaults(func=_resolve)
    args = parser.parse_args(argv)
    return int(args.func(args))
