"""Relocation scenarios from captured page versions: record on one version, resolve on another.

A scenario pairs a base page with a changed version (``<page>`` and ``<page>.vN``): every
labelled element of the base is recorded as a reference (with
:func:`resolver.capture.ref_from_row`) and resolved in the changed version, where the same
label key names the right answer, or is missing because the element was removed.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..capture import ref_from_row
from ..errors import ResolutionError
from ..limits import DEFAULT_LIMITS, Limits
from ..models import SemanticElementRef
from ..observation import Observation
from .captures import Capture, load_capture

__all__ = ["Outcome", "Trial", "iter_trials", "run_trials", "summarize"]


@dataclass(frozen=True)
class Trial:
    """One reference recorded on ``base`` and the expected answer in ``changed``."""

    scenario: str
    key: str
    ref: SemanticElementRef
    changed: Capture
    expected: str | None  # the a11y executor ID, or None when the element was removed
    expected_xpath: str | None = None  # the same element as the DOM source names it
    base: Capture | None = None  # the page the reference was recorded on

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


def iter_trials(
    captures: Mapping[str, Mapping[str, str]], *, limits: Limits = DEFAULT_LIMITS
) -> Iterator[Trial]:
    """All trials of every ``<page>`` / ``<page>.vN`` pair among ``captures`` (capture name ->
    its files' texts, as :func:`~resolver.replay.captures.folder_captures` or
    :func:`~resolver.replay.captures.demo_captures` return them); the pages' observations
    read within ``limits``."""
    cache: dict[str, Capture] = {}

    def get(name: str) -> Capture:
        if name not in cache:
            cache[name] = load_capture(name, captures[name], limits=limits)
        return cache[name]

    for name in sorted(captures):
        if ".v" in name:
            continue
        base = get(name)
        for version in sorted(v for v in captures if v.startswith(name + ".v")):
            yield from _pair(base, get(version), f"{name}->{version}")


def _pair(base: Capture, changed: Capture, scenario: str) -> Iterator[Trial]:
    """The trials of one base page against one changed version."""
    table = base.observation.candidates("a11y")
    row_of = {node_id: i for i, node_id in enumerate(table.ids)}
    for key, label in sorted(base.labels.items()):
        row = row_of.get(str(label.get("ax_node_id")))
        if row is None:
            continue  # not exposed in the base tree: nothing to record
        new = changed.labels.get(key) or {}
        node = new.get("ax_node_id")
        expected = None if node is None else f"a11y:{node}"
        xpath = new.get("xpath") if expected is not None else None
        yield Trial(scenario, key, ref_from_row(table, row), changed, expected, xpath, base)


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
