"""The HTML report: one self-contained file (inline CSS, SVG charts, pictures as data URIs)
that opens in any browser from disk, with no server and nothing fetched.

It shows the overall figures, accuracy by answering source and by action type, the latency
histogram, a table per recording, the failures, and the explain pictures of the first few
failures (:func:`resolver.explain.explain` drawn on the snapshot's screen: the candidates,
the runner-up and the answer).
"""

from __future__ import annotations

import base64
import tempfile
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any, Final

from ..errors import ResolutionError
from ..explain import explain
from ..observation import Observation
from .charts import histogram, stacked_bars
from .model import ReplayOptions, Task
from .sources import load_task

__all__ = ["failure_pictures", "render_html"]

_SERIES: Final[tuple[str, ...]] = ("correct", "rejected", "answered", "abstained", "wrong",
                                    "false_hit", "invalid")  # fmt: skip
_CSS: Final[str] = """
body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1200px}
h1{font-size:22px}h2{font-size:17px;margin-top:28px}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 7px}
th{background:#f3f3f3}td.n{text-align:right}.charts{display:flex;flex-wrap:wrap;gap:18px}
.bad{color:#c62828}.pics{display:flex;flex-wrap:wrap;gap:12px}
figure{margin:0;width:380px}figure img{width:380px;border:1px solid #ccc}
figcaption{font-size:12px}
"""


def _pct(value: Any) -> str:
    return "–" if value is None else f"{100 * float(value):.1f}%"


def _bars(title: str, groups: Mapping[str, Mapping[str, Any]]) -> str:
    if not groups:
        return ""
    rows = [(name, counts, _pct(counts.get("accuracy"))) for name, counts in groups.items()]
    return stacked_bars(title, rows, _SERIES)


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = []
    for row in rows:
        cells = "".join(
            f'<td class="n">{c}</td>'
            if isinstance(c, (int, float))
            else f"<td>{escape(str(c))}</td>"
            for c in row
        )
        body.append(f"<tr>{cells}</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def _recordings(report: Mapping[str, Any]) -> str:
    rows = [
        (r["recording"], r.get("format") or "", r.get("mode") or "", r["status"], r["steps"],
         r["correct"], r["wrong"], r["abstained"], r["rejected"], r["false_hit"],
         _pct(r["accuracy"]), "–" if r["median_ms"] is None else f"{r['median_ms']:.2f}")
        for r in report["recordings"]
    ]  # fmt: skip
    headers = ("recording", "format", "mode", "status", "steps", "correct", "wrong",
               "abstained", "rejected", "false hit", "accuracy", "median ms")  # fmt: skip
    return _table(headers, rows)


def _failures(report: Mapping[str, Any], limit: int = 200) -> str:
    rows = [
        (f["recording"], f["step"], f.get("key") or "", f["verdict"], f.get("answer") or "",
         ", ".join(f.get("expected") or []) or "(absent)", f.get("code") or "")
        for f in report["failures"][:limit]
    ]  # fmt: skip
    if not rows:
        return "<p>No failures.</p>"
    headers = ("recording", "step", "key", "verdict", "answer", "expected", "code")
    return _table(headers, rows)


def render_html(report: Mapping[str, Any], pictures: Sequence[tuple[str, bytes]] = ()) -> str:
    """The report as one HTML page.

    Parameters
    ----------
    report:
        :func:`resolver.replay.report.build_report` output.
    pictures:
        ``(caption, PNG bytes)`` pairs, shown under the failures.
    """
    overall = report["overall"]
    meta = report.get("meta", {})
    summary = (
        f"{overall['recordings']} recordings ({overall['corrupt']} corrupt, skipped), "
        f"{overall['resolutions']} resolutions: accuracy {_pct(overall['accuracy'])} on steps "
        f"whose node is known, wrong {_pct(overall['wrong_rate'])} of judged answers, removed "
        f"elements rejected {_pct(overall['rejection'])}, median "
        f"{overall['median_ms'] or 0:.2f} ms, p95 {overall['p95_ms'] or 0:.2f} ms."
    )
    hist = [(b["bin"], b["count"]) for b in report["latency_histogram"]]
    charts = (
        _bars("Verdicts by answering source", report["by_source"])
        + _bars("Verdicts by action type", report["by_action_type"])
        + _bars("Verdicts by deciding rule", report.get("by_rule", {}))
        + _bars("Verdicts by completion of the reference", report.get("by_completion") or {})
        + histogram("Latency per resolution", hist)
    )
    corrupt = "".join(
        f"<li class=bad>{escape(c['recording'])}: {escape(str(c['error']))}</li>"
        for c in report["corrupt"]
    )
    pics = "".join(
        f'<figure><img alt="{escape(caption)}" src="data:image/png;base64,'
        f'{base64.b64encode(png).decode()}"><figcaption>{escape(caption)}</figcaption></figure>'
        for caption, png in pictures
    )
    options = escape(", ".join(f"{k}={v}" for k, v in sorted(meta.items())))
    return (
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
        f"<title>resolver replay report</title><style>{_CSS}</style></head><body>"
        f"<h1>Replay report</h1><p>{escape(summary)}</p><p><small>{options}</small></p>"
        f"<div class=charts>{charts}</div>"
        f"<h2>Recordings</h2>{_recordings(report)}"
        + (f"<h2>Corrupt or unreadable (skipped)</h2><ul>{corrupt}</ul>" if corrupt else "")
        + f"<h2>Failures</h2>{_failures(report)}"
        + (f"<h2>Explain pictures of failures</h2><div class=pics>{pics}</div>" if pics else "")
        + "</body></html>\n"
    )


def _task_of(result: Mapping[str, Any]) -> Task:
    if result["kind"] == "captures":
        return Task("captures", result["path"], str(result["recording"]).split("/", 1)[1])
    return Task("file", result["path"])


def failure_pictures(
    results: Sequence[Mapping[str, Any]], options: ReplayOptions, *, limit: int = 8
) -> list[tuple[str, bytes]]:
    """Explain pictures of the first ``limit`` failed steps (wrong, false hit, abstained).

    The recordings are read again here, where the report is written: the results carry no
    observations, so a cluster run ships none back.
    """
    pictures: list[tuple[str, bytes]] = []
    for result in results:
        failed = [s for s in result["steps"] if s["verdict"] in ("wrong", "false_hit", "abstained")]
        if not failed or len(pictures) >= limit:
            continue
        try:
            recording = load_task(_task_of(result), limits=options.limits)
        except (ValueError, OSError):
            continue
        by_index = {step.index: step for step in recording.steps}
        for row in failed[: limit - len(pictures)]:
            step, sid = by_index.get(row["index"]), row["snapshot"]
            if step is None or sid not in recording.snapshots:
                continue
            png = _picture(step.ref, recording.snapshots[sid], options)
            if png is not None:
                caption = f"{result['recording']} step {row['step']}: {row['verdict']}"
                pictures.append((f"{caption} ({row.get('code') or row.get('answer')})", png))
    return pictures


def _picture(ref: Any, doc: Any, options: ReplayOptions) -> bytes | None:
    obs = (
        doc
        if isinstance(doc, Observation)
        else Observation(accessibility_tree=doc, limits=options.limits)
    )
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "explain.png"
        try:
            explain(ref, obs, out, **options.resolve_options())
        except (ResolutionError, ValueError):
            return None
        return out.read_bytes()
