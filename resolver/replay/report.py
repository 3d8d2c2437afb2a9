"""The replay report: counts per recording and overall, by answering source and by action
type, a latency histogram and the failures, as one JSON-ready dict.

The report is computed from the per-recording results alone, so a report made from a cluster
run and one made from a local run differ only in their latency figures.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from ..text import json_text
from .model import VERDICTS, ReplayError

__all__ = ["LATENCY_BINS_MS", "build_report", "counts_of", "write_json"]

LATENCY_BINS_MS: Final[tuple[float, ...]] = (0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 128, 256)
"""Upper edges of the latency histogram's bins; one more bin holds everything slower."""
MAX_FAILURES: Final[int] = 500


def counts_of(steps: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Verdict counts and rates for some steps.

    ``accuracy`` is correct answers over steps whose right node is known and present;
    ``wrong_rate`` is wrong answers (a wrong node, or an answer where the element is gone)
    over all answers the recording can judge.
    """
    items = list(steps)
    counts = Counter(str(s["verdict"]) for s in items)
    row: dict[str, Any] = {"steps": len(items), **{v: counts[v] for v in VERDICTS}}
    present = counts["correct"] + counts["wrong"] + counts["abstained"]
    judged = counts["correct"] + counts["wrong"] + counts["false_hit"]
    removed = counts["rejected"] + counts["false_hit"]
    row["accuracy"] = counts["correct"] / present if present else None
    row["wrong_rate"] = (counts["wrong"] + counts["false_hit"]) / judged if judged else None
    row["rejection"] = counts["rejected"] / removed if removed else None
    times = sorted(float(s["ms"]) for s in items if s["verdict"] not in ("skipped",))
    row["median_ms"] = times[len(times) // 2] if times else None
    row["p95_ms"] = times[min(len(times) - 1, math.ceil(0.95 * len(times)) - 1)] if times else None
    return row


def _grouped(steps: Sequence[Mapping[str, Any]], field: str) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for step in steps:
        if step["verdict"] == "skipped":
            continue
        groups[str(step.get(field) or "none")].append(step)
    return {name: counts_of(items) for name, items in sorted(groups.items())}


def _histogram(steps: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    bins = [0] * (len(LATENCY_BINS_MS) + 1)
    for step in steps:
        if step["verdict"] == "skipped":
            continue
        ms = float(step["ms"])
        bins[next((i for i, edge in enumerate(LATENCY_BINS_MS) if ms <= edge), -1)] += 1
    labels = [f"≤{edge:g}" for edge in LATENCY_BINS_MS] + [f">{LATENCY_BINS_MS[-1]:g}"]
    return [{"bin": label, "count": n} for label, n in zip(labels, bins, strict=True)]


def _failures(results: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for result in results:
        for step in result["steps"]:
            if step["verdict"] in ("wrong", "false_hit", "abstained", "invalid"):
                out.append({"recording": result["recording"], **step})
    return out[:MAX_FAILURES]


def _checked_results(results: object) -> list[Mapping[str, Any]]:
    """``results`` as a list, each a mapping with a recording, a status and a list of steps,
    else a :class:`~resolver.replay.model.ReplayError`."""
    if not isinstance(results, Iterable) or isinstance(results, str | bytes | Mapping):
        raise ReplayError(f"results must be a list of results, not {type(results).__name__}")
    out = list(results)
    for i, result in enumerate(out):
        fields = ("recording", "status", "steps")
        if not isinstance(result, Mapping) or not all(key in result for key in fields):
            raise ReplayError(f"result {i} is no replay result (recording, status, steps)")
        if not isinstance(result["steps"], list):
            raise ReplayError(f"result {i}: its steps are no list")
    return out


def build_report(
    results: Sequence[Mapping[str, Any]], *, meta: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The report of a run.

    Parameters
    ----------
    results:
        One result per recording (:func:`resolver.replay.run.replay_task`).
    meta:
        Anything to keep with it (options, scheduler, elapsed time).

    Returns
    -------
    dict
        ``{meta, overall, recordings: [...], by_source, by_action_type, by_rule (by the rule
        that answered or refused each step, :data:`resolver.decide.RULES`), by_completion
        (empty unless references were completed), latency_histogram, failures, corrupt}``.

    Raises
    ------
    ReplayError
        ``results`` is no list of results.
    """
    results = _checked_results(results)
    steps = [step for result in results for step in result["steps"]]
    recordings = []
    for result in results:
        row = {
            "recording": result["recording"], "format": result.get("format"),
            "mode": result.get("mode"), "status": result["status"],
            "error": result.get("error"), "untargeted": result.get("untargeted", 0),
            **counts_of(result["steps"]),
        }  # fmt: skip
        recordings.append(row)
    overall = counts_of(steps)
    overall["recordings"] = len(results)
    overall["corrupt"] = sum(1 for r in results if r["status"] != "ok")
    overall["resolutions"] = sum(1 for s in steps if s["verdict"] != "skipped")
    return {
        "report_version": 1,
        "meta": dict(meta or {}),
        "overall": overall,
        "recordings": recordings,
        "by_source": _grouped(steps, "source"),
        "by_action_type": _grouped(steps, "action_type"),
        "by_rule": _grouped(steps, "rule"),
        "by_completion": _grouped([s for s in steps if "completion" in s], "completion"),
        "latency_histogram": _histogram(steps),
        "failures": _failures(results),
        "corrupt": [
            {"recording": r["recording"], "error": r.get("error")}
            for r in results
            if r["status"] != "ok"
        ],
    }


def write_json(report: Mapping[str, Any], path: str | Path) -> None:
    """Write the report as indented JSON in UTF-8 (:func:`json_text`)."""
    Path(path).write_bytes(json_text(report, indent=1).encode("utf-8") + b"\n")
