"""Vision relocation on real pages: the relocation benchmark's pages, from screenshots alone.

Usage::

    python -m benchmarks.vision.pages [--split heldout|tune|all] [--pages N]
                                      [--workers 2] [--recorder ours|foreign|varied]
                                      [--scale S] [--jpeg QUALITY] [--json out.json]
                                      [--removals N] [--restyles N] [--moves N] [--edits N]
                                      [--move-kinds KIND ...] [--draw K] [--ocr-cache DIR]

The pages, targets, changed versions and references are those of
:mod:`benchmarks.relocation` (``readability-pages``, four seeded mutations per page; by
default the ``ours`` reference recorded from the base render's accessibility tree: role,
name, box, container path, anchors, look-alikes; ``--recorder foreign`` takes what another
tool records instead: role, name, box and containers, no anchors or look-alikes;
``--recorder varied`` that reference written in one of eight other conventions per target,
:mod:`benchmarks.relocation.conventions`); ``--removals``, ``--restyles``, ``--moves`` and
``--edits`` add that benchmark's extra seeded versions per page (``--move-kinds`` keeps the
``--moves`` versions to some kinds of move, a banner alone, say), and ``--draw`` picks another
seeded set of targets on each page, for fresh cases). What
differs is what a reference is resolved against: a 1280x800 screenshot of the first screen
of each render, with ``sources=("vision",)``; ``--scale`` draws the screenshots at another
device scale, and ``--jpeg`` hands them over as JPEG images of that quality (as recorders
and runtimes that keep or send JPEG screenshots do).

Screenshots are made on demand with the Chromium driver of ``fixtures/vision/capture.py``
(viewport only, device scale 1, scrollbars hidden) and cached apart from the renders, in
``<render cache>/vision-shots/<key[:2]>/<key>.png`` with ``<key>.json`` (each target's box
and whether it is rendered visibly in the viewport), keyed by the same hash as the render
(:func:`benchmarks.relocation.render.html_key`: the HTML and the machine's fonts); the
renders' cache is read, never changed. The report names the fonts: a page in a script no
installed font covers is drawn as empty boxes that neither a person nor OCR can read.

``--ocr-cache DIR`` keeps every OCR reading in ``DIR`` and reads it back on later runs
(:mod:`benchmarks.vision.ocr_cache`): a run that changes only the rules, the layout or the
shapes then costs a fraction of a cold one, with the same outcomes; its times are not the
library's.

Targets are resolved from three places: ``in_view`` (the recorded box, rescaled to the
screen from the screen size the reference recorded, as the library reads it, lies inside the
first screen and the target is drawn visibly there), ``too_small`` (the same, but drawn under
:data:`MIN_SIDE` px wide or tall: nobody can find a 1 px image on a screenshot; reported
apart, its wrong answers counted) and ``below_fold`` (the recorded box lies wholly below the
first screen: the screenshot cannot show it). Per reference and screenshot the
verdict is ``correct`` (the answer's click point is inside the target's box on that
screenshot), ``wrong`` (elsewhere),
``abstained`` (no answer, the target is on screen), ``false_hit`` (an answer although the
target is not on the screen: removed, or pushed off it) or ``rejected`` (no answer, and the
target is not on screen). Verdicts are reported per mutation kind (the one that touched the
target; ``none`` for untouched targets of a changed page, ``identity`` for the unchanged
page), twins (another node of the base tree has the same role and name) apart, and per
place; the JSON keeps each answer's box, the reference's recorded box, the target's box on
the screenshot, and for a refusal the best row its evidence lists (``nearest``: role, name,
box, score), so a run shows whether the row refused was the target.
:func:`summary` gives the figures the vision targets are stated in: right of the targets
shown in the viewport, wrong answers of every target still in the page (those below the fold
too), removed targets answered.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.relocation.conventions import ALL_CONVENTIONS, CONVENTIONS, draw
from benchmarks.relocation.mutate import KINDS, MOVING_KINDS
from benchmarks.relocation.recorders import record_targets
from benchmarks.relocation.render import (
    DEFAULT_CHROMIUM,
    REPO,
    RenderError,
    cache_root,
    font_set,
    html_key,
    load_script_attribute,
    render,
    uncovered_scripts,
    uncovered_warning,
)
from benchmarks.relocation.run import page_versions, pages_and_browser, split_of
from benchmarks.vision.ocr_cache import install
from resolver import Observation, SemanticElementRef, resolve
from resolver.adapters.vision.analysis import screen_read
from resolver.adapters.vision.image import at_screen_density, load_screenshot
from resolver.errors import ResolutionError
from resolver.geometry import Box, scale_between
from resolver.replay.captures import load_capture

__all__ = [
    "Shot",
    "below_fold",
    "inside_screen",
    "main",
    "place_of",
    "report",
    "screenshot",
    "summary",
    "tally",
    "verdict",
]

SCREEN = (1280.0, 800.0)
SHOT_SCRIPT = REPO / "fixtures" / "vision" / "capture.py"
VERDICTS = ("correct", "wrong", "abstained", "false_hit", "rejected", "error")
SLACK = 2.0
"""Pixels by which a click point may miss the target's box and still count."""
MIN_SIDE = 4.0
"""A target drawn less wide or tall than this (px) is reported apart (``too_small``)."""


@dataclass(frozen=True)
class Shot:
    """A first-screen screenshot and, per target key, its box and whether it is drawn."""

    png: bytes
    keys: dict[str, dict[str, Any]]


def shot_root() -> Path:
    """Where screenshots are kept: beside the renders, in a folder of their own."""
    return cache_root() / "vision-shots"


@cache
def _capture() -> Callable[..., tuple[bytes, dict[str, Any]]]:
    """``capture`` of ``fixtures/vision/capture.py``."""
    found: Callable[..., tuple[bytes, dict[str, Any]]] = load_script_attribute(
        SHOT_SCRIPT, "capture"
    )
    return found


def _write(path: Path, data: bytes) -> None:
    partial = path.with_suffix(f".{os.getpid()}.part")
    partial.write_bytes(data)
    try:
        os.replace(partial, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()


def screenshot(
    html: str, *, chromium: str = DEFAULT_CHROMIUM, timeout: float = 60.0, scale: float = 1.0
) -> tuple[Shot, bool]:
    """The first screen of ``html`` at 1280x800 CSS pixels, drawn at device scale ``scale``
    (a 2560x1600 image at 2: a high-density screen), and whether it came from the cache.
    Target boxes stay in CSS pixels.

    Raises
    ------
    RenderError
        Chromium failed.
    """
    key = html_key(html) if scale == 1.0 else f"{html_key(html)}-x{scale:g}"
    folder = shot_root() / key[:2]
    png_path, keys_path = folder / f"{key}.png", folder / f"{key}.json.gz"
    if png_path.is_file() and keys_path.is_file():
        with contextlib.suppress(OSError, ValueError, EOFError):
            keys = json.loads(gzip.decompress(keys_path.read_bytes()))
            return Shot(png_path.read_bytes(), keys), True
    with tempfile.TemporaryDirectory(prefix="vision-shot-") as tmp:
        page = Path(tmp) / "page.html"
        page.write_text(html, encoding="utf-8")
        try:
            png, truth = _capture()(page, chromium, timeout=timeout, scale=scale)
        except Exception as exc:  # any failure of one page is reported, never fatal
            raise RenderError(f"{type(exc).__name__}: {exc}") from exc
    keys = {k: {"bbox": v["bbox"], "in_view": v["in_view"]} for k, v in truth["keys"].items()}
    folder.mkdir(parents=True, exist_ok=True)
    _write(keys_path, gzip.compress(json.dumps(keys, sort_keys=True).encode(), 6, mtime=0))
    _write(png_path, png)
    return Shot(png, keys), False


# -- bookkeeping ----------------------------------------------------------------------------


def inside_screen(box: Iterable[float] | None, screen: tuple[float, float] = SCREEN) -> bool:
    """Whether a box lies wholly inside the first screen (and is not empty)."""
    if box is None:
        return False
    left, top, right, bottom = box
    return 0 <= left < right <= screen[0] and 0 <= top < bottom <= screen[1]


def below_fold(box: Iterable[float] | None, screen: tuple[float, float] = SCREEN) -> bool:
    """Whether a (non-empty) box lies wholly below the first screen."""
    if box is None:
        return False
    left, top, right, bottom = box
    return left < right and screen[1] <= top < bottom


def screen_box(ref: SemanticElementRef, screen: tuple[float, float] = SCREEN) -> Box | None:
    """The reference's recorded box on the benchmark's screen: rescaled from the screen size
    it recorded (a box recorded at zoom 1.25, or in a wider window, is read on the 1280x800
    screen so, as the library reads it), as recorded without one."""
    if ref.bbox is None:
        return None
    sx, sy = scale_between(ref.screen_size, screen)
    left, top, right, bottom = ref.bbox
    return (left * sx, top * sy, right * sx, bottom * sy)


def place_of(box: Iterable[float] | None, seen: dict[str, Any]) -> str | None:
    """Where a reference was recorded, given its recorded ``box`` and the target as the base
    screenshot shows it (``seen``): ``in_view`` (wholly on the first screen and drawn there),
    ``too_small`` (the same, but drawn less than :data:`MIN_SIDE` px wide or tall: a 1 px
    tracking image that nobody can find on a screenshot), ``below_fold`` (the box, or the
    target as the screenshot shows it, wholly below the first screen: a box recorded on
    another screen size may place a target below the fold on the screen), or None (neither:
    partly on the screen, hidden, or off to a side)."""
    if inside_screen(box) and seen.get("in_view"):
        left, top, right, bottom = seen.get("bbox") or box  # type: ignore[misc]
        return "in_view" if min(right - left, bottom - top) >= MIN_SIDE else "too_small"
    return "below_fold" if below_fold(box) or below_fold(seen.get("bbox")) else None


def verdict(point: tuple[float, float] | None, target: dict[str, Any] | None) -> str:
    """The verdict of one answer (``point`` None: no answer) against the target as the
    screenshot shows it (``None``: not in the page)."""
    box = (target or {}).get("bbox")
    on_screen = bool(target and target.get("in_view") and box)
    if point is None:
        return "abstained" if on_screen else "rejected"
    if not on_screen:
        return "false_hit"
    left, top, right, bottom = box  # type: ignore[misc]
    x, y = point
    inside = left - SLACK <= x <= right + SLACK and top - SLACK <= y <= bottom + SLACK
    return "correct" if inside else "wrong"


def tally(outcomes: Iterable[dict[str, Any]]) -> dict[str, dict[str, Counter[str]]]:
    """Verdict counts per mutation kind and group (``twins``, ``unique``, ``all``)."""
    out: dict[str, dict[str, Counter[str]]] = {}
    for o in outcomes:
        group = "twins" if o["twin"] else "unique"
        for kind in (o["mutation"], "all"):
            for bucket in (group, "all"):
                out.setdefault(kind, {}).setdefault(bucket, Counter())[o["verdict"]] += 1
    return out


def summary(outcomes: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The vision targets' figures: ``in_view`` (right / wrong / abstained of the targets
    recorded in the viewport and shown there), ``present`` (answers not on the target, of
    every target still in the page: below the fold, pushed off screen and shown ones alike)
    and ``removed`` (targets no longer in the page, and how many were answered)."""
    shown: Counter[str] = Counter()
    present: Counter[str] = Counter()
    removed: Counter[str] = Counter()
    for o in outcomes:
        if o["verdict"] == "error":
            continue
        if not o.get("present", True):
            removed[o["verdict"]] += 1
            continue
        present[o["verdict"]] += 1
        if o.get("place", "in_view") == "in_view" and o["verdict"] in (
            "correct",
            "wrong",
            "abstained",
        ):
            shown[o["verdict"]] += 1
    n_shown, n_present, n_removed = (
        sum(shown.values()),
        sum(present.values()),
        sum(removed.values()),
    )
    bad = present["wrong"] + present["false_hit"]
    return {
        "in_view": {"targets": n_shown, **{k: shown[k] for k in ("correct", "wrong", "abstained")},
                    "right_pct": _ratio(shown["correct"], n_shown)},
        "present": {"targets": n_present, "wrong": bad, "wrong_pct": _ratio(bad, n_present)},
        "removed": {"targets": n_removed, "answered": removed["false_hit"],
                    "answered_pct": _ratio(removed["false_hit"], n_removed)},
    }  # fmt: skip


def _ratio(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 2) if whole else None


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}" if whole else "-"


def _row(label: str, c: Counter[str]) -> str:
    present = c["correct"] + c["wrong"] + c["abstained"]
    absent = c["false_hit"] + c["rejected"]
    answers = c["correct"] + c["wrong"] + c["false_hit"]
    return (
        f"| {label} | {present} | {c['correct']} ({_pct(c['correct'], present)} %) "
        f"| {c['wrong']} | {c['abstained']} | {_pct(c['wrong'] + c['false_hit'], answers)} % "
        f"| {absent} | {c['false_hit']} | {c['error']} |"
    )


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2] if ordered else float("nan")


def _timing_lines(outcomes: list[dict[str, Any]]) -> list[str]:
    """Median resolve times of the targets recorded in the viewport (those below the fold
    are refused before anything is read): all of them, the first on each screenshot, and
    those made once the whole screen had been read (its OCR cached)."""
    shown = [o for o in outcomes if o.get("place", "in_view") == "in_view"]
    parts = [
        ("targets in the viewport", [o["ms"] for o in shown]),
        ("the first on a screenshot", [o["ms"] for o in shown if o.get("first")]),
        ("with the screen's OCR cached", [o["ms"] for o in shown if o.get("screen_read")]),
        ("refused below the fold", [o["ms"] for o in outcomes if o.get("place") == "below_fold"]),
    ]
    return [
        f"- Median resolve, {label}: {_median(ms):.0f} ms ({len(ms)} calls)."
        for label, ms in parts
        if ms
    ]


_HEADER = (
    "| mutation | on screen | correct | wrong | abstained | wrong of answers "
    "| absent | answered where absent | errors |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|"
)


def refused_first(outcomes: Iterable[dict[str, Any]]) -> tuple[int, int]:
    """Of the abstentions on targets shown in the viewport, how many ranked the target first
    (the centre of the best row refused inside the target's box, as a click would be
    judged), and how many there are: a refusal for want of certainty rather than of a
    candidate."""
    mine = [
        o for o in outcomes
        if o.get("place", "in_view") == "in_view" and o["verdict"] == "abstained"
    ]  # fmt: skip
    first = 0
    for o in mine:
        box = (o.get("nearest") or {}).get("box")
        if box and o.get("truth_box"):
            centre = ((box[0] + box[2]) / 2.0, (box[1] + box[3]) / 2.0)
            first += verdict(centre, {"bbox": o["truth_box"], "in_view": True}) == "correct"
    return first, len(mine)


def by_convention(outcomes: Iterable[dict[str, Any]]) -> dict[str, Counter[str]]:
    """For ``varied`` references, the verdicts of the targets shown in the viewport per
    convention the recorder drew for them (:func:`benchmarks.relocation.conventions.draw`,
    the same for a target in every version), in the order of
    :data:`~benchmarks.relocation.conventions.CONVENTIONS`."""
    found: dict[str, Counter[str]] = {name: Counter() for name in CONVENTIONS}
    for o in outcomes:
        shown = o.get("place", "in_view") == "in_view" and o.get("present", True)
        if shown and o["verdict"] in ("correct", "wrong", "abstained"):  # as summary() counts
            found[draw(o["page"], o["key"]).name][o["verdict"]] += 1
    return {name: verdicts for name, verdicts in found.items() if verdicts}


def _convention_lines(outcomes: list[dict[str, Any]]) -> list[str]:
    """The table of :func:`by_convention`."""
    lines = [
        "", "### in the viewport, by convention", "",
        "| convention | targets | correct | wrong | abstained | right % |",
        "|---|---:|---:|---:|---:|---:|",
    ]  # fmt: skip
    for name, v in by_convention(outcomes).items():
        n = sum(v.values())
        right = round(100.0 * v["correct"] / n, 1)
        lines.append(
            f"| {name} | {n} | {v['correct']} | {v['wrong']} | {v['abstained']} | {right} |"
        )
    return lines


def report(outcomes: list[dict[str, Any]], config: dict[str, Any]) -> str:
    """The markdown report: one table per group (all, unique, twins), a row per kind."""
    counts = tally(outcomes)
    order = ["identity", "none", *KINDS, "all"]
    figures = summary(outcomes)
    view, present, removed = figures["in_view"], figures["present"], figures["removed"]
    lines = [
        f"Vision relocation on real pages: {config['pages']} pages ({config['split']}), "
        f"references of the {config.get('recorder', 'ours')} recorder, "
        f"{len(outcomes)} resolutions, {config['wall_seconds']} s.",
        f"Rendered with the fonts: {', '.join(config.get('fonts', [])) or 'not listed'}.",
        *filter(None, [uncovered_warning(tuple(config.get("uncovered_scripts", ())))]),
        "",
        f"- In the viewport: {view['correct']} of {view['targets']} right ({view['right_pct']} %),"
        f" {view['wrong']} wrong, {view['abstained']} abstained.",
        f"- Wrong answers: {present['wrong']} of {present['targets']} targets still in the page"
        f" ({present['wrong_pct']} %, below the fold and pushed off screen included).",
        f"- Removed targets answered: {removed['answered']} of {removed['targets']}"
        f" ({removed['answered_pct']} %).",
        "- Abstentions in the viewport that ranked the target first (refused for want of"
        " certainty, not of a candidate): {} of {}.".format(*refused_first(outcomes)),
    ]
    for place in ("in_view", "too_small", "below_fold"):
        mine = [o for o in outcomes if o.get("place", "in_view") == place]
        if mine:
            lines += ["", f"### recorded {place.replace('_', ' ')}", "", _HEADER]
            lines.append(_row("all", tally(mine)["all"]["all"]))
    if config.get("recorder") == "varied":
        lines += _convention_lines(outcomes)
    for group in ("all", "unique", "twins"):
        lines += ["", f"### {group}", "", _HEADER]
        lines += [_row(k, counts[k][group]) for k in order if group in counts.get(k, {})]
    if config.get("ocr_cache"):
        lines += ["", "Text read from the OCR cache where read before: these times are not the"
                  " library's (see benchmarks/vision/ocr_cache.py)."]  # fmt: skip
    lines += ["", *_timing_lines(outcomes)]
    wrong = [o for o in outcomes if o["verdict"] in ("wrong", "false_hit")]
    if wrong:
        lines += ["", "Wrong answers:", ""]
        lines += [
            f"- {o['page']} {o['version']} {o['key']} [{o['mutation']}] {o['role']} "
            f"{o['name']!r} -> {o['answer']}"
            for o in wrong
        ]
    return "\n".join(lines)


# -- one page -------------------------------------------------------------------------------


def _resolve(
    ref: SemanticElementRef, obs: Observation
) -> tuple[Any, str | None, str | None, list[float] | None, dict[str, Any] | None]:
    """``(point, answer description, unexpected error, the answer's box, the nearest row of
    a refusal)``: for a refusal, the best row its evidence lists (role, name, box, score),
    so a run shows whether the row refused was the target."""
    try:
        res = resolve(ref, obs, sources=("vision",))
    except ResolutionError as exc:
        best = exc.evidence.candidates[0] if exc.evidence.candidates else None
        nearest = None if best is None else {
            "role": best.role, "name": best.name[:60], "score": best.score,
            "box": None if best.bbox is None else [round(v, 1) for v in best.bbox],
        }  # fmt: skip
        return None, f"{exc.code.value} [{exc.evidence.rule}]", None, None, nearest
    except Exception as exc:  # a bug in the library must not stop the run: count it
        return None, None, f"{type(exc).__name__}: {exc}"[:300], None, None
    rule = res.trace[-1].rule if res.trace else ""
    found = res.candidate
    box = None if found.bbox is None else [round(v, 1) for v in found.bbox]
    return res.point, f"{found.role} {found.name[:60]!r} [{rule} {found.id}]", None, box, None


def evaluate_page(
    name: str,
    source: str,
    chromium: str,
    timeout: float,
    recorder: str = "ours",
    scale: float = 1.0,
    jpeg: int | None = None,
    extra: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0),
    convention: str = "",
    move_kinds: tuple[str, ...] = MOVING_KINDS,
) -> dict[str, Any]:
    """Targets, versions, screenshots and outcomes of one page (run in a worker process),
    resolving the references ``recorder`` wrote on screenshots drawn at device scale
    ``scale`` (the references recorded at 1280x800 CSS pixels, as before), handed over as
    JPEG images of quality ``jpeg`` when it is given (PNG otherwise). ``extra`` asks for
    more seeded versions, and another set of targets: ``(removals, restyles, moves, edits,
    draw)`` as :func:`benchmarks.relocation.run.page_versions` makes them. ``convention``
    names the one convention every ``varied`` reference is written in (empty: one drawn
    per target); ``move_kinds`` the moving kinds the extra ``moves`` versions are made of."""
    started = time.monotonic()
    result: dict[str, Any] = {"page": name, "split": split_of(name), "outcomes": []}
    targets, base_html, versions = page_versions(source, name, *extra, move_kinds=move_kinds)
    if not targets:
        result["status"] = "no targets"
        return result
    try:
        files, _ = render(base_html, chromium=chromium)
        base_shot, _ = screenshot(base_html, chromium=chromium, timeout=timeout, scale=scale)
    except RenderError as exc:
        result["status"] = f"base render failed: {exc}"
        return result
    base = load_capture(f"{name}/base", files)
    element_ids = {t.key: t.element_id for t in targets}
    recorded = record_targets(base, ("a11y",), element_ids, name, convention)
    refs: dict[str, tuple[Any, SemanticElementRef, str]] = {}
    for key, rec in recorded.items():
        ref = rec.refs.get((recorder, "a11y"))
        seen = base_shot.keys.get(key) or {}
        if ref is None or not seen.get("bbox"):
            continue
        place = place_of(screen_box(ref), seen)
        if place is not None:
            refs[key] = (rec, ref, place)
    result["targets"] = sum(1 for *_, place in refs.values() if place == "in_view")
    result["too_small"] = sum(1 for *_, place in refs.values() if place == "too_small")
    result["below_fold"] = len(refs) - result["targets"] - result["too_small"]
    del base, files
    screens: list[tuple[str, str, dict[str, str], Shot]] = [
        ("v0-identity", "identity", {}, base_shot)
    ]
    for version in versions:
        try:
            shot, _ = screenshot(version.html, chromium=chromium, timeout=timeout, scale=scale)
        except RenderError as exc:
            result.setdefault("failed", []).append(f"{version.name}: {exc}")
            continue
        screens.append((version.name, version.kind, version.touched, shot))
    for version_name, kind, touched, shot in screens:
        image = shot.png if jpeg is None else as_jpeg(shot.png, jpeg)
        obs = Observation(screenshot=image, screen_size=SCREEN)
        decoded = at_screen_density(load_screenshot(image), SCREEN)  # as the source reads it
        looked = False  # whether a target in the viewport was resolved on this screenshot
        for key, (rec, ref, place) in refs.items():
            now = shot.keys.get(key)
            cached = screen_read(decoded)
            t0 = time.perf_counter()
            point, answer, error, box, nearest = _resolve(ref, obs)
            ms = 1000 * (time.perf_counter() - t0)
            first, looked = place == "in_view" and not looked, looked or place == "in_view"
            result["outcomes"].append({
                "page": name, "version": version_name, "kind": kind,
                "mutation": "identity" if kind == "identity" else touched.get(key, "none"),
                "key": key, "twin": rec.twin, "role": ref.role, "name": ref.name,
                "place": place, "present": bool(now and now.get("bbox")),
                "verdict": "error" if error else verdict(point, now),
                "answer": error or answer, "answer_box": box,
                "recorded_box": None if ref.bbox is None else list(ref.bbox),
                "truth_box": (now or {}).get("bbox"), "nearest": nearest,
                "ms": round(ms, 1), "first": first,
                "screen_read": cached,
            })  # fmt: skip
    result["status"] = "ok"
    result["seconds"] = round(time.monotonic() - started, 1)
    return result


def as_jpeg(png: bytes, quality: int) -> bytes:
    """The screenshot re-encoded as a JPEG of ``quality`` (1-100), as recorders and agent
    runtimes that keep or send JPEG screenshots hand it over."""
    import cv2

    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("the screenshot could not be encoded as a JPEG")
    return bytes(data.tobytes())


def _safe_page(
    name: str,
    source: str,
    chromium: str,
    timeout: float,
    recorder: str,
    scale: float,
    jpeg: int | None = None,
    extra: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0),
    convention: str = "",
    move_kinds: tuple[str, ...] = MOVING_KINDS,
) -> dict[str, Any]:
    try:
        return evaluate_page(
            name, source, chromium, timeout, recorder, scale, jpeg, extra, convention, move_kinds
        )
    except Exception as exc:  # one broken page must not stop the run
        return {"page": name, "outcomes": [], "status": f"failed: {type(exc).__name__}: {exc}"}


def _scale(text: str) -> float:
    """A device scale from the command line: a number from 0.5 to 3."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.5 <= value <= 3.0:
        raise argparse.ArgumentTypeError(f"a device scale from 0.5 to 3, not {value:g}")
    return value


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.vision.pages", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--split", choices=("heldout", "tune", "all"), default="heldout")
    parser.add_argument("--pages", type=int, help="only the first N pages (of the split)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM", DEFAULT_CHROMIUM))
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per screenshot")
    parser.add_argument(
        "--recorder", choices=("ours", "foreign", "varied"), default="ours",
        help="whose references are resolved (default: the library's own)",
    )  # fmt: skip
    parser.add_argument(
        "--scale", type=_scale, default=1.0,
        help="device scale of the screenshots (default 1; 2: a high-density screen, the "
        "image twice the CSS size; the references stay recorded at scale 1)",
    )  # fmt: skip
    parser.add_argument(
        "--jpeg", type=int, choices=range(1, 101), metavar="QUALITY",
        help="hand each screenshot over as a JPEG of this quality (1-100) instead of a PNG",
    )  # fmt: skip
    for flag, what in (
        ("--removals", "removal versions"), ("--restyles", "restyle versions"),
        ("--moves", "versions of each moving kind (wrap, unwrap, reorder, banner, label)"),
        ("--edits", "versions of each editing kind (case, words, number, decoys)"),
    ):  # fmt: skip
        parser.add_argument(flag, type=int, default=0, help=f"extra seeded {what} per page")
    parser.add_argument(
        "--move-kinds", nargs="+", choices=MOVING_KINDS, default=list(MOVING_KINDS),
        metavar="KIND",
        help="the moving kinds of the --moves versions (default: all of "
        f"{', '.join(MOVING_KINDS)})",
    )  # fmt: skip
    parser.add_argument(
        "--draw", type=int, default=0,
        help="another seeded set of targets on each page (default 0: the usual set)",
    )  # fmt: skip
    parser.add_argument(
        "--varied-convention", choices=ALL_CONVENTIONS, default="",
        help="write every varied reference in this one convention (default: one drawn per "
        "target)",
    )  # fmt: skip
    parser.add_argument("--json", type=Path, help="write every outcome here")
    parser.add_argument(
        "--ocr-cache", type=Path, metavar="DIR",
        help="keep every OCR reading in DIR and read it back on later runs (for runs that "
        "change the rules; the times reported are then not the library's)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    pages, status = pages_and_browser(args.chromium)
    if status is not None:
        return status
    splits = ("heldout", "tune") if args.split == "all" else (args.split,)
    chosen = [p for p in pages if split_of(p.name) in splits][: args.pages]
    jobs = [
        (
            p.name,
            str(p / "source.html"),
            args.chromium,
            args.timeout,
            args.recorder,
            args.scale,
            args.jpeg,
            (args.removals, args.restyles, args.moves, args.edits, args.draw),
            args.varied_convention,
            tuple(args.move_kinds),
        )
        for p in chosen
    ]
    started = time.monotonic()
    results: list[dict[str, Any]] = []
    cached = (install, (str(args.ocr_cache),)) if args.ocr_cache else (None, ())
    with ProcessPoolExecutor(
        max_workers=max(1, args.workers), initializer=cached[0], initargs=cached[1]
    ) as pool:
        futures = [pool.submit(_safe_page, *job) for job in jobs]
        for future in as_completed(futures):
            r = future.result()
            results.append(r)
            print(
                f"[{len(results):3d}/{len(jobs)}] {r['page']:<40} targets={r.get('targets', 0):<3}"
                f" outcomes={len(r['outcomes']):<4} {r.get('seconds', 0):6.1f}s "
                f"{'' if r.get('status') == 'ok' else r.get('status')}",
                file=sys.stderr,
                flush=True,
            )
    results.sort(key=lambda r: r["page"])
    outcomes = [o for r in results for o in r["outcomes"]]
    config = {
        "pages": len(jobs),
        "split": args.split,
        "workers": args.workers,
        "recorder": args.recorder,
        "varied_convention": args.varied_convention,
        "scale": args.scale,
        "jpeg": args.jpeg,
        "extra": {
            "removals": args.removals,
            "restyles": args.restyles,
            "moves": args.moves,
            "move_kinds": list(args.move_kinds),
            "edits": args.edits,
            "draw": args.draw,
        },
        "fonts": list(font_set()),
        "uncovered_scripts": list(uncovered_scripts()),
        "ocr_cache": str(args.ocr_cache) if args.ocr_cache else None,
        "wall_seconds": round(time.monotonic() - started, 1),
    }
    print(report(outcomes, config))
    if args.json:
        pages_info = [{k: v for k, v in r.items() if k != "outcomes"} for r in results]
        payload = {"config": config, "pages": pages_info, "outcomes": outcomes}
        args.json.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
