"""DOM-only relocation across changed versions of the fixture pages.

For each base page ``P`` in ``fixtures/captured`` with labelled targets, a reference is
recorded from the base page's DOM table row at the label's XPath (role, name, container
path, box from the capture's layout, viewport size), then resolved with
``sources=("dom",)`` against each changed version ``P.v2``, ``P.v3`` (wrappers added,
siblings reordered, ids/classes renamed, text edited, duplicates inserted, targets removed).

Outcomes per (target, version):

- ``correct``: the executor ID addresses the labelled element of the changed page;
- ``wrong``: it addresses anything else (the costly outcome);
- ``abstained_ok``: no answer, and the target is absent or not rendered in that version;
- ``missed``: no answer although the target is there.

Two reference flavours are measured: ``semantic`` (role, name, container, box) and
``with_selectors`` (the same plus the base page's recorded ``#id``-or-path CSS selector and
absolute XPath, which the chain verifies before trusting).

Usage::

    python -m benchmarks.dom.relocation [fixtures/captured] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from resolver import Observation, SemanticElementRef, resolve
from resolver.errors import ResolutionError

from .corpora import REPO

VIEWPORT = (1280.0, 800.0)


def observation(folder: Path) -> Observation:
    """The DOM observation of a captured page, with Chromium's boxes as layout."""
    records = json.loads((folder / "chromium_dom.json").read_text(encoding="utf-8"))
    layout = {r["xpath"]: r["bbox"] for r in records if r.get("bbox")}
    return Observation(
        dom_html=(folder / "dom.html").read_bytes(), dom_layout=layout, screen_size=VIEWPORT
    )


def labels(folder: Path) -> dict[str, Any]:
    """``labels.json`` of a captured page (empty when absent)."""
    path = folder / "labels.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def refs_for(folder: Path) -> dict[str, tuple[SemanticElementRef, SemanticElementRef]]:
    """Per label key: (semantic ref, ref with recorded selectors) from the base DOM table."""
    table = observation(folder).candidates("dom")
    by_id = {rid: i for i, rid in enumerate(table.ids)}
    out = {}
    for key, label in labels(folder).items():
        row = by_id.get(label["xpath"])
        if row is None:
            continue  # not rendered on the base page: nothing a person could have recorded
        box = table.bboxes[row]
        bbox = None if box[0] != box[0] else tuple(float(v) for v in box)
        fields: dict[str, Any] = {
            "role": table.roles[row],
            "name": table.names[row] or None,
            "bbox": bbox,
            "container_path": table.containers[row],
            "screen_size": (1280, 800),
        }
        semantic = SemanticElementRef(**fields)
        css = table.platform_ids["css"][row]
        recorded = SemanticElementRef(**fields, css_selector=css, xpath=label["xpath"])
        out[key] = (semantic, recorded)
    return out


def evaluate(root: Path, *, verbose: bool = False) -> dict[str, Any]:
    """Run every base page against its versions; counts per flavour."""
    results: dict[str, Counter[str]] = {"semantic": Counter(), "with_selectors": Counter()}
    details: list[str] = []
    bases = sorted(p for p in root.iterdir() if p.is_dir() and "." not in p.name)
    for base in bases:
        refs = refs_for(base)
        for version in sorted(root.glob(base.name + ".v*")):
            obs = observation(version)
            table = obs.candidates("dom")
            present = set(table.ids)
            target_labels = labels(version)
            for key, pair in refs.items():
                label = target_labels.get(key)
                expected = label["xpath"] if label and label["xpath"] in present else None
                for flavour, ref in zip(("semantic", "with_selectors"), pair, strict=True):
                    try:
                        got = resolve(ref, obs, sources=("dom",)).executor_id
                    except ResolutionError:
                        got = None
                    if got is not None and got.startswith("css:"):
                        hits = table.selector_resolver(  # type: ignore[misc]
                            "css", got.removeprefix("css:")
                        )
                        got = table.executor_ids[hits[0]] if len(hits) == 1 else got
                    if got is None:
                        outcome = "abstained_ok" if expected is None else "missed"
                    elif expected is not None and got == "xpath:" + expected:
                        outcome = "correct"
                    else:
                        outcome = "wrong"
                    results[flavour][outcome] += 1
                    if verbose and outcome in ("wrong", "missed"):
                        details.append(f"{flavour:15s} {outcome:7s} {version.name}:{key} -> {got}")
    summary: dict[str, Any] = {}
    for flavour, counts in results.items():
        total = sum(counts.values())
        present_total = counts["correct"] + counts["missed"] + sum(
            1 for _ in ()
        )  # fmt: skip
        answered = counts["correct"] + counts["wrong"]
        summary[flavour] = {
            **dict(counts),
            "cases": total,
            "accuracy": round((counts["correct"] + counts["abstained_ok"]) / max(total, 1), 4),
            "wrong_answer_rate": round(counts["wrong"] / max(answered, 1), 4),
            "wrong_of_all": round(counts["wrong"] / max(total, 1), 4),
        }
        del present_total
    summary["details"] = details
    return summary


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", nargs="?", type=Path, default=REPO / "fixtures" / "captured")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    if not args.root.is_dir():
        print(f"{args.root} not found; skipped")
        return 0
    summary = evaluate(args.root, verbose=args.verbose)
    for line in summary.pop("details"):
        print(line)
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
