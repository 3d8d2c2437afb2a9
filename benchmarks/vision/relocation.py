"""Vision-only relocation and reading quality on the fixture screenshots.

References are recorded from the base pages' accessibility trees (``fixtures/captured/<page>``:
role, name, container path, box, viewport size; what a recorder stores), then resolved with
``sources=("vision",)`` against screenshots alone (``fixtures/vision``, made by
``fixtures/vision/capture.py``). Scenarios (the "mutation kind"):

- ``same``: the base page's own screenshot;
- ``v2``, ``v3``: the changed versions of the page (moves, renames, reorders, removals);
- ``jpeg``: the base screenshot as JPEG at quality 50;
- ``x0.75``, ``x1.5``, ``x2``: rendered at device scale factor 0.75 / 1.5 / 2 (boxes
  rescaled by the observation's ``screen_size`` of 1280x800; at 2, a high-density display,
  the screenshot is read at the screen's size);
- ``dark``: a dark stylesheet;
- ``dense``: a 30-row table with an "Edit" and a "Delete" per row (refs from its own capture).

Outcomes per (ref, scenario): ``correct`` (the click point is inside the target's true box),
``wrong`` (anywhere else), ``false_hit`` (an answer although the target is not visible
there), ``abstained_ok`` (no answer, the target is not visible), ``missed`` (no answer
although it is). ``top1`` = correct / visible targets; ``wrong_rate`` = (wrong + false_hit) /
answers. Refs whose name another target of the page shares (OK, Cancel, Edit,
Home ...) are *twins* and are counted apart.

Reading quality on the ``same`` screenshots: ``text_recall`` (share of the words of visible
text nodes read by OCR at their place) and ``label_in_element`` (share of visible named
controls whose vision element, found by box, carries the name).

Usage::

    python -m benchmarks.vision.relocation [--verbose] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from resolver import Observation, SemanticElementRef, resolve
from resolver.capture import ref_from_row
from resolver.errors import ResolutionError
from resolver.text import name_similarity

REPO = Path(__file__).resolve().parents[2]
CAPTURED = REPO / "fixtures" / "captured"
SHOTS = REPO / "fixtures" / "vision"
SCREEN = (1280.0, 800.0)
VARIANTS = {
    "jpeg": "screenshot.q50.jpg",
    "x0.75": "screenshot.x0.75.png",
    "x1.5": "screenshot.x1.5.png",
    "x2": "screenshot.x2.png",
    "dark": "screenshot.dark.png",
}
_WORD = re.compile(r"[0-9A-Za-zÀ-ÿ]+")


def truth(folder: str) -> dict[str, Any]:
    """``truth.json`` of a captured screenshot folder."""
    data: dict[str, Any] = json.loads((SHOTS / folder / "truth.json").read_text())
    return data


def recorded_refs(page: str) -> dict[str, SemanticElementRef]:
    """Per fixture key: the ref a recorder stores from the base page's accessibility tree."""
    folder = CAPTURED / page
    if not (folder / "axtree.json").is_file():  # the dense table: refs from its truth
        return {
            key: SemanticElementRef(
                role=k["role"], name=k["name"], bbox=tuple(k["bbox"]), screen_size=(1280, 800)
            )
            for key, k in truth(page)["keys"].items()
            if k["in_view"] and k["role"]
        }
    table = Observation(accessibility_tree=(folder / "axtree.json").read_bytes()).candidates("a11y")
    rows = {rid: i for i, rid in enumerate(table.ids)}
    labels = json.loads((folder / "labels.json").read_text())
    refs = {}
    for key, label in labels.items():
        row = rows.get(str(label.get("ax_node_id")))
        if row is None or not truth(page)["keys"].get(key, {}).get("in_view"):
            continue  # not on the base screen: nothing a person could have recorded there
        refs[key] = ref_from_row(table, row, screen_size=(1280, 800), with_ids=False)
    return refs


def scenarios(page: str) -> list[tuple[str, Path, dict[str, Any]]]:
    """``(kind, screenshot, truth keys)`` for every screenshot a page's refs meet."""
    out = [("same", SHOTS / page / "screenshot.png", truth(page)["keys"])]
    for version in sorted(SHOTS.glob(page + ".v*")):
        out.append((version.name.split(".")[-1], version / "screenshot.png",
                    truth(version.name)["keys"]))  # fmt: skip
    for kind, name in VARIANTS.items():
        if (SHOTS / page / name).is_file():
            out.append((kind, SHOTS / page / name, truth(page)["keys"]))
    if page == "dense":
        out = [("dense" if kind == "same" else f"dense-{kind}", shot, keys)
               for kind, shot, keys in out]  # fmt: skip
    return out


def twins(refs: dict[str, SemanticElementRef]) -> set[str]:
    """Keys whose recorded name another key of the page shares."""
    names = Counter((r.name or "").lower() for r in refs.values())
    return {k for k, r in refs.items() if r.name and names[r.name.lower()] > 1}


def outcome(point: tuple[float, float] | None, target: dict[str, Any] | None) -> str:
    """``correct``, ``wrong``, ``false_hit`` (an answer where the target is not visible),
    ``abstained_ok`` or ``missed``."""
    visible = target is not None and target.get("in_view") and target.get("bbox")
    if point is None:
        return "missed" if visible else "abstained_ok"
    if not visible:
        return "false_hit"
    left, top, right, bottom = target["bbox"]  # type: ignore[index]
    inside = left - 2 <= point[0] <= right + 2 and top - 2 <= point[1] <= bottom + 2
    return "correct" if inside else "wrong"


def run_page(page: str, counts: dict[str, Counter[str]], log: list[str]) -> list[float]:
    """Resolve every ref of ``page`` in every scenario; returns per-call seconds."""
    refs = recorded_refs(page)
    twin_keys = twins(refs)
    seconds = []
    for kind, shot, keys in scenarios(page):
        obs = Observation(screenshot=shot.read_bytes(), screen_size=SCREEN)
        for key, ref in refs.items():
            started = time.perf_counter()
            try:
                answer = resolve(ref, obs, sources=("vision",))
                point, got = answer.point, f"{answer.candidate.role} {answer.candidate.name!r}"
            except ResolutionError as exc:
                point, got = None, exc.code.value
            seconds.append(time.perf_counter() - started)
            result = outcome(point, keys.get(key))
            group = "twins" if key in twin_keys else "unique"
            for bucket in (kind, f"{kind}/{group}", "all", f"all/{group}"):
                counts[bucket][result] += 1
            if result in ("wrong", "false_hit", "missed"):
                log.append(f"{kind:7s} {result:7s} {page}:{key} {ref.role}:{ref.name!r} -> {got}")
    return seconds


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def reading(page: str) -> tuple[Counter[str], list[str]]:
    """Text recall and label-in-element counts on the page's own screenshot."""
    data = truth(page)
    obs = Observation(screenshot=(SHOTS / page / "screenshot.png").read_bytes(),
                      screen_size=SCREEN)  # fmt: skip
    table = obs.candidates("vision")
    lines = table.native.analysis.lines  # type: ignore[attr-defined]
    counts: Counter[str] = Counter()
    misses: list[str] = []
    for text, rects in data["texts"]:
        near = [w for ln in lines if any(_meets(ln.box, r) for r in rects)
                for w in _words(ln.text)]  # fmt: skip
        for word in _words(text):
            counts["words"] += 1
            if any(name_similarity(word, seen) >= 0.8 for seen in near):
                counts["words_read"] += 1
            else:
                misses.append(f"text  {page}: {word!r} in {text[:40]!r}")
    for key, target in data["keys"].items():
        name = target.get("name") or ""
        if not target.get("in_view") or not name or target.get("role") in (None, "none"):
            continue
        counts["labelled"] += 1
        best = max(
            range(len(table)), key=lambda r: _iou(table.box(r), target["bbox"]), default=None
        )
        found = best is not None and _iou(table.box(best), target["bbox"]) >= 0.5
        if found and name_similarity(name, table.names[best]) >= 0.8:
            counts["label_in_element"] += 1
            continue
        misses.append(f"label {page}:{key} {name!r}")
    return counts, misses


def _meets(a: Any, b: Any) -> bool:
    return bool(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


def _iou(a: Any, b: Any) -> float:
    if a is None or b is None:
        return 0.0
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    return float(inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter))


def summarize(counts: dict[str, Counter[str]]) -> dict[str, dict[str, Any]]:
    """Per bucket: counts, top-1 over visible targets, wrong answers over answers."""
    out = {}
    for bucket, c in sorted(counts.items()):
        visible = c["correct"] + c["missed"] + c["wrong"]
        answered = c["correct"] + c["wrong"] + c["false_hit"]
        out[bucket] = {
            **{k: c[k] for k in ("correct", "wrong", "false_hit", "missed", "abstained_ok")},
            "top1": round(c["correct"] / max(visible, 1), 4),
            "wrong_rate": round((c["wrong"] + c["false_hit"]) / max(answered, 1), 4),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--json", type=Path, help="also write the summary here")
    parser.add_argument("--pages", nargs="*", help="base pages (default: all)")
    args = parser.parse_args(argv)
    bases = args.pages or sorted(
        p.name for p in SHOTS.iterdir() if (p / "truth.json").is_file() and "." not in p.name
    )
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    log: list[str] = []
    reads: Counter[str] = Counter()
    seconds: list[float] = []
    for page in bases:
        seconds += run_page(page, counts, log)
        page_reads, misses = reading(page)
        reads.update(page_reads)
        log += misses
    summary: dict[str, Any] = {
        "relocation": summarize(counts),
        "text_recall": round(reads["words_read"] / max(reads["words"], 1), 4),
        "label_in_element": round(reads["label_in_element"] / max(reads["labelled"], 1), 4),
        "resolve_calls": len(seconds),
        "resolve_seconds_median": round(sorted(seconds)[len(seconds) // 2], 4) if seconds else 0,
    }
    if args.verbose:
        print("\n".join(log))
    print(json.dumps(summary, indent=1))
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
