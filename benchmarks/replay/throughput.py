"""Resolutions per second: one process against a Dask LocalCluster, on generated recordings.

Usage::

    python -m benchmarks.replay --recordings 1000 --workers 1 2 --chunks 1 10 [--json out.json]

Each configuration replays the same recordings ``--against next`` (every step relocated on
the changed page) and must give the same results as the local run (checked). Reported per
configuration: wall time without the cluster's start-up, resolutions per second, speed-up
over one process; and where the overhead goes: cluster start-up, the scheduler's cost per
task (an empty task mapped over as many tasks), and the bytes each task and result cost to
serialise.
"""

from __future__ import annotations

import argparse
import json
import pickle
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from resolver.replay.cluster import connect, replay_dask
from resolver.replay.model import ReplayOptions, Task
from resolver.replay.run import comparable, replay_local
from resolver.replay.sources import discover

from .generate import generate


def _noop(task: Task) -> int:
    return 0


def _local(tasks: list[Task], options: ReplayOptions) -> tuple[float, list[dict[str, Any]]]:
    start = time.perf_counter()
    results = replay_local(tasks, options)
    return time.perf_counter() - start, results


def _cluster(tasks: list[Task], options: ReplayOptions, workers: int, chunk: int) -> dict[str, Any]:
    start = time.perf_counter()
    with connect(workers=workers, processes=True, timeout=60) as client:
        client.wait_for_workers(workers, timeout=60)
        started = time.perf_counter() - start
        # warm-up: import resolver and build the first tables on every worker
        replay_dask(client, tasks[: 2 * workers], options)
        t0 = time.perf_counter()
        results = replay_dask(client, tasks, options, chunk=chunk)
        seconds = time.perf_counter() - t0
        t0 = time.perf_counter()
        client.gather(client.map(_noop, tasks, pure=False))
        overhead = time.perf_counter() - t0
    return {"startup_s": started, "seconds": seconds, "results": results,
            "scheduler_ms_per_task": 1000 * overhead / len(tasks)}  # fmt: skip


def measure(count: int, workers: list[int], chunks: list[int], folder: Path) -> dict[str, Any]:
    """Generate ``count`` recordings in ``folder`` and time every configuration."""
    generate(folder, count)
    tasks = discover([folder])
    options = ReplayOptions(sources=("a11y",), against="next")
    seconds, local = _local(tasks, options)
    resolutions = sum(1 for r in local for s in r["steps"] if s["verdict"] != "skipped")
    rows = [{"config": "1 process", "workers": 0, "seconds": seconds,
             "per_second": resolutions / seconds, "speedup": 1.0}]  # fmt: skip
    for n, chunk in ((n, c) for n in workers for c in chunks):
        run = _cluster(tasks, options, n, chunk)
        assert comparable(run.pop("results")) == comparable(local), "cluster results differ"
        rows.append({"config": f"LocalCluster, {n} worker(s), {chunk} per task", "workers": n,
                     **run,
                     "per_second": resolutions / run["seconds"],
                     "speedup": seconds / run["seconds"]})  # fmt: skip
    task_bytes = statistics.mean(len(pickle.dumps(t)) for t in tasks)
    result_bytes = statistics.mean(len(pickle.dumps(r)) for r in local)
    recording_bytes = statistics.mean(Path(t.path).stat().st_size for t in tasks)
    return {"recordings": count, "resolutions": resolutions, "rows": rows,
            "task_bytes": task_bytes, "result_bytes": result_bytes,
            "recording_bytes": recording_bytes,
            "ms_per_recording_local": 1000 * seconds / count}  # fmt: skip


def _table(report: dict[str, Any]) -> str:
    lines = ["| configuration | wall time | resolutions/s | speed-up | cluster start | "
             "scheduler per task |", "|---|---|---|---|---|---|"]  # fmt: skip
    for row in report["rows"]:
        start = f"{row['startup_s']:.1f} s" if "startup_s" in row else "–"
        per_task = (f"{row['scheduler_ms_per_task']:.2f} ms"
                    if "scheduler_ms_per_task" in row else "–")  # fmt: skip
        lines.append(f"| {row['config']} | {row['seconds']:.1f} s | {row['per_second']:,.0f} | "
                     f"{row['speedup']:.2f}× | {start} | {per_task} |")  # fmt: skip
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--recordings", type=int, default=1000)
    parser.add_argument("--workers", type=int, nargs="*", default=[1, 2])
    parser.add_argument("--chunks", type=int, nargs="*", default=[1, 10])
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        report = measure(args.recordings, args.workers, args.chunks, Path(folder))
    print(f"{report['recordings']} recordings, {report['resolutions']} resolutions; "
          f"{report['ms_per_recording_local']:.1f} ms per recording in one process; task "
          f"{report['task_bytes']:.0f} B, result {report['result_bytes']:.0f} B pickled, "
          f"recording file {report['recording_bytes'] / 1024:.0f} KiB")  # fmt: skip
    print(_table(report))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 0
