"""Relocation scenarios from captured fixtures: record on one page version, resolve on another.

A capture folder (``fixtures/captured/<page>/``, written by ``fixtures/capture.py``) holds
``axtree.json`` (CDP nodes with boxes), ``dom.html``, ``meta.json`` and ``labels.json``, which
maps stable keys to the labelled element in that version. A scenario pairs a base page with a
changed version: every labelled element of the base is recorded as a reference (with
:func:`resolver.capture.ref_from_row`) and resolved in the changed version, where the same key
names the right answer, or is missing because the element was removed.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .capture import ref_from_row
from .errors import AmbiguousMatchError, ResolutionError
from .models import SemanticElementRef
from .observation import Observation

__all__ = ["Capture", "Outcome", "Trial", "iter_trials", "load_capture", "run_trials", "summarize"]


@dataclass(frozen=True)
class Capture:
    """One captured page version."""

    name: str
    observation: Observation
    labels: dict[str, dict[str, Any]]
    meta: dict[str, Any]


def load_capture(folder: Path, *, with_dom: bool = True) -> Capture:
    """Read a capture folder into an :class:`Observation` (a11y tree, DOM, screen size)."""
    meta = json.loads((folder / "meta.json").read_text())
    tree = json.loads((folder / "axtree.json").read_text())
    dom = (folder / "dom.html").read_text() if with_dom and (folder / "dom.html").exists() else None
    viewport = meta.get("viewport") or tree.get("viewport")
    links: dict[str, str] | None = None
    layout: dict[str, list[float]] | None = None
    if with_dom and (folder / "chromium_dom.json").exists():
        records = json.loads((folder / "chromium_dom.json").read_text())
        links = {
            str(r["backend_node_id"]): r["xpath"]
            for r in records
            if r.get("backend_node_id") is not None
        }
        layout = {r["xpath"]: r["bbox"] for r in records if r.get("bbox")}
    obs = Observation(
        accessibility_tree=tree,
        dom_html=dom,
        screen_size=tuple(viewport) if viewport else None,
        url=meta.get("url"),
        dom_layout=layout,
        dom_node_map=links,
    )
    labels = json.loads((folder / "labels.json").read_text())
    return Capture(folder.name, obs, labels, meta)


@dataclass(frozen=True)
class Trial:
    """One reference recorded on ``base`` and the expected answer in ``changed``."""

    scenario: str
    key: str
    ref: SemanticElementRef
    changed: Capture
    expected: str | None  # the a11y executor ID, or None when the element was removed
    expected_xpath: str | None = None  # the same element as the DOM source names it

    def is_right(self, answer: str) -> bool:
        """Whether an executor ID names the expected element (a11y ID or DOM xpath)."""
        return answer == self.expected or (
            self.expected_xpath is not None and answer == f"xpath:{self.expected_xpath}"
        )


@dataclass(frozen=True)
class Outcome:
    """How a trial went: ``correct``, ``wrong``, ``abstained`` (present but not answered),
    ``rejected`` (removed and not answered: right), ``false_hit`` (removed but answered)."""

    trial: Trial
    verdict: str
    answer: str | None
    error_code: str | None
    seconds: float


def iter_trials(root: Path) -> Iterator[Trial]:
    """All trials of every ``<page>`` / ``<page>.vN`` pair under ``root`` (a captured folder)."""
    folders = {p.name: p for p in sorted(root.iterdir()) if (p / "labels.json").exists()}
    cache: dict[str, Capture] = {}

    def get(name: str) -> Capture:
        if name not in cache:
            cache[name] = load_capture(folders[name])
        return cache[name]

    for name in folders:
        if ".v" in name:
            continue
        base = get(name)
        table = base.observation.candidates("a11y")
        row_of = {node_id: i for i, node_id in enumerate(table.ids)}
        for version in sorted(v for v in folders if v.startswith(name + ".v")):
            changed = get(version)
            for key, label in sorted(base.labels.items()):
                row = row_of.get(str(label.get("ax_node_id")))
                if row is None:
                    continue  # not exposed in the base tree: nothing to record
                new = changed.labels.get(key) or {}
                node = new.get("ax_node_id")
                expected = None if node is None else f"a11y:{node}"
                xpath = new.get("xpath") if expected is not None else None
                ref = ref_from_row(table, row)
                yield Trial(f"{name}->{version}", key, ref, changed, expected, xpath)


def run_trials(
    trials: Iterator[Trial] | list[Trial],
    resolve_fn: Callable[[SemanticElementRef, Observation], str],
) -> list[Outcome]:
    """Resolve every trial with ``resolve_fn`` (returns an executor ID or raises)."""
    outcomes: list[Outcome] = []
    for trial in trials:
        start = time.perf_counter()
        answer: str | None
        code: str | None = None
        try:
            answer = resolve_fn(trial.ref, trial.changed.observation)
        except AmbiguousMatchError as exc:
            answer, code = None, exc.code.value
        except ResolutionError as exc:
            answer, code = None, exc.code.value
        seconds = time.perf_counter() - start
        if trial.expected is None:
            verdict = "rejected" if answer is None else "false_hit"
        elif answer is None:
            verdict = "abstained"
        else:
            verdict = "correct" if trial.is_right(answer) else "wrong"
        outcomes.append(Outcome(trial, verdict, answer, code, seconds))
    return outcomes


def summarize(outcomes: list[Outcome]) -> dict[str, Any]:
    """Counts and rates: accuracy on present targets, wrong-answer rate, rejection of removed."""
    counts = Counter(o.verdict for o in outcomes)
    present = counts["correct"] + counts["wrong"] + counts["abstained"]
    removed = counts["rejected"] + counts["false_hit"]
    answered = counts["correct"] + counts["wrong"] + counts["false_hit"]
    times = sorted(o.seconds for o in outcomes)
    return {
        "trials": len(outcomes),
        "present": present,
        "removed": removed,
        **{k: counts[k] for k in ("correct", "wrong", "abstained", "rejected", "false_hit")},
        "accuracy_present": counts["correct"] / present if present else 0.0,
        "wrong_rate_answered": (counts["wrong"] + counts["false_hit"]) / answered
        if answered
        else 0.0,
        "rejection_removed": counts["rejected"] / removed if removed else 0.0,
        "median_ms": 1000 * times[len(times) // 2] if times else 0.0,
    }
