"""Which evidence carries relocation on the captured fixtures: drop one signal at a time.

Usage (from the repository root)::

    python benchmarks/ablation.py [--sources a11y]

Each variant records the same references on the base pages, removes some fields, and resolves
them on the changed versions. Prints one markdown row per variant.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from resolver import SemanticElementRef, resolve_element
from resolver.replay import Trial, folder_captures, iter_trials, run_trials, summarize

ROOT = Path(__file__).resolve().parents[1]

Variant = Callable[[SemanticElementRef], SemanticElementRef]


def _drop(**fields: object) -> Variant:
    def apply(ref: SemanticElementRef) -> SemanticElementRef:
        data = ref.model_dump()
        data.update(fields)
        if not any(data.get(k) for k in ("role", "name", "bbox")):
            data["role"] = ref.role
        return SemanticElementRef.model_validate(data)

    return apply


def _scaled(ref: SemanticElementRef) -> SemanticElementRef:
    # Recorded on a screen half the size: boxes and screen size halve together.
    if ref.bbox is None or ref.screen_size is None:
        return ref
    box = tuple(v / 2 for v in ref.bbox)
    size = (ref.screen_size[0] // 2, ref.screen_size[1] // 2)
    anchors = tuple((name, tuple(v / 2 for v in a)) for name, a in ref.anchors)
    twins = tuple(tuple(v / 2 for v in b) for b in ref.lookalikes)
    update = {"bbox": box, "screen_size": size, "anchors": anchors, "lookalikes": twins}
    return ref.model_copy(update=update)


VARIANTS: dict[str, Variant] = {
    "full reference (role, name, bbox, container)": lambda ref: ref,
    "no bbox": _drop(bbox=None, screen_size=None, anchors=(), lookalikes=()),
    # The order among look-alikes is defined within a container path: it goes with it.
    "no container path": _drop(container_path=(), occurrence=None),
    "role + name only": _drop(
        bbox=None,
        screen_size=None,
        container_path=(),
        occurrence=None,
        anchors=(),
        lookalikes=(),
        heading=None,
        panel=None,
    ),
    "no role": _drop(role=None),
    "recorded at half the screen size": _scaled,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sources", default="a11y")
    parser.add_argument("--fixtures", default=str(ROOT / "fixtures" / "captured"))
    parser.add_argument("--threshold", type=float, help="MatchConfig.threshold (default 0.6)")
    args = parser.parse_args()
    sources = tuple(args.sources.split(","))
    options = {} if args.threshold is None else {"threshold": args.threshold}
    trials: list[Trial] = list(iter_trials(folder_captures(Path(args.fixtures))))
    print(f"sources={args.sources}, {len(trials)} trials, options {options or 'default'}")
    print()
    print("| variant | accuracy (present) | wrong answers | removed rejected | abstained |")
    print("|---|---|---|---|---|")
    for label, variant in VARIANTS.items():
        changed = [replace(t, ref=variant(t.ref)) for t in trials]
        outcomes = run_trials(
            changed, lambda ref, obs: resolve_element(ref, obs, sources=sources, **options)
        )
        s = summarize(outcomes)
        print(
            f"| {label} | {s['accuracy_present']:.1%} ({s['correct']}/{s['present']}) "
            f"| {s['wrong'] + s['false_hit']} | {s['rejected']}/{s['removed']} "
            f"| {s['abstained']} |"
        )


if __name__ == "__main__":
    main()
