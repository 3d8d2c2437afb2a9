"""Resolutions per second: one process against a Dask LocalCluster, on generated recordings.

Usage::

    python -m benchmarks.replay --recordings 300 --workers 1 2 --chunks auto 10 --rounds 4
    python -m benchmarks.replay --recordings 1000 --workers 1 2 --chunks 1 10 --json out.json

Each configuration replays the same recordings ``--against next`` (every step relocated on
the changed page) and must give the same results as the local run (checked). The
configurations run in rounds: in every round the local run and each worker count in turn
(every chunk size on it), so a ratio compares runs made under the same load on a shared
machine. All clusters start first and stay up (an idle cluster costs a few per cent of a
core); the order of the worker counts alternates from round to round. Chunks are
recordings per task, or ``auto`` (:func:`resolver.replay.cluster.auto_chunk`). Every
worker is warmed first (resolver imported, a few recordings replayed) with ``client.run``,
outside the timed runs.

Reported per configuration and round: wall time without the cluster's start-up,
resolutions per second, speed-up over one process and, for two or more workers, over one
worker with the same chunk in the same round; and where the time goes: the CPU seconds the
workers spent (and how busy that kept them: CPU over workers × wall time), the CPU seconds
of this process (client and scheduler), cluster start-up, the scheduler's cost per task (an
empty task mapped over as many tasks), and the bytes each task and result cost to serialise.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import tempfile
import time
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from resolver.replay.cluster import auto_chunk, connect, replay_dask
from resolver.replay.model import ReplayOptions, Task
from resolver.replay.run import comparable, replay_local
from resolver.replay.sources import discover

from .generate import generate

Chunk = int | None  # None: auto


def _noop(task: Task) -> int:
    return 0


def _warm(tasks: Sequence[Task], options: ReplayOptions) -> int:
    """Run on every worker: import and replay a few recordings (first-use caches)."""
    return len(replay_local(tasks, options))


def _cpu() -> float:
    """CPU seconds of the calling process (run on the workers with ``client.run``)."""
    return time.process_time()


def _local(tasks: list[Task], options: ReplayOptions) -> tuple[float, float, list[Any]]:
    cpu, start = time.process_time(), time.perf_counter()
    results = replay_local(tasks, options)
    return time.perf_counter() - start, time.process_time() - cpu, results


def _timed(client: Any, tasks: list[Task], options: ReplayOptions, chunk: Chunk) -> dict[str, Any]:
    """One timed cluster run: wall time, CPU of the workers and of this process."""
    workers_before = client.run(_cpu)
    cpu, start = time.process_time(), time.perf_counter()
    results = replay_dask(client, tasks, options, chunk=chunk)
    seconds = time.perf_counter() - start
    main_cpu = time.process_time() - cpu
    workers_after = client.run(_cpu)
    worker_cpu = [workers_after[w] - workers_before[w] for w in workers_after]
    return {"seconds": seconds, "results": results, "main_cpu_s": main_cpu,
            "worker_cpu_s": sum(worker_cpu), "worker_cpu_each_s": sorted(worker_cpu),
            "busy": sum(worker_cpu) / (len(worker_cpu) * seconds)}  # fmt: skip


def _open(stack: ExitStack, workers: int, tasks: list[Task], options: ReplayOptions) -> Any:
    """A LocalCluster of ``workers`` single-threaded worker processes, every worker warmed;
    the client, with the start-up seconds as ``startup_s``."""
    start = time.perf_counter()
    client = stack.enter_context(connect(workers=workers, processes=True, timeout=60))
    client.wait_for_workers(workers, timeout=60)
    client.startup_s = time.perf_counter() - start
    client.run(_warm, tasks[:6], options)
    return client


def _scheduler_ms(client: Any, tasks: list[Task]) -> float:
    """The scheduler's cost per task: an empty task mapped over as many tasks."""
    start = time.perf_counter()
    client.gather(client.map(_noop, tasks, pure=False))
    return 1000 * (time.perf_counter() - start) / len(tasks)


def measure(
    count: int, workers: list[int], chunks: list[Chunk], rounds: int, folder: Path
) -> dict[str, Any]:
    """Generate ``count`` recordings in ``folder`` and time every configuration ``rounds``
    times, interleaved: every cluster stays up for the whole measurement, and the order of
    the worker counts is reversed every other round."""
    generate(folder, count)
    tasks = discover([folder])
    options = ReplayOptions(sources=("a11y",), against="next")
    replay_local(tasks[:6], options)  # this process's first-use caches too
    reference: list[Any] | None = None
    rows: list[dict[str, Any]] = []
    with ExitStack() as stack:
        clients = {n: _open(stack, n, tasks, options) for n in workers}
        for round_ in range(1, rounds + 1):
            seconds, cpu, local = _local(tasks, options)
            reference = reference if reference is not None else comparable(local)
            assert comparable(local) == reference, "the local run changed between rounds"
            rows.append({"round": round_, "workers": 0, "chunk": None, "seconds": seconds,
                         "main_cpu_s": cpu})  # fmt: skip
            for n in workers if round_ % 2 else workers[::-1]:
                for chunk in chunks:
                    run = _timed(clients[n], tasks, options, chunk)
                    assert comparable(run.pop("results")) == reference, "cluster results differ"
                    used = auto_chunk(len(tasks), n) if chunk is None else chunk
                    rows.append({"round": round_, "workers": n,
                                 "chunk": "auto" if chunk is None else chunk, "per_task": used,
                                 "startup_s": clients[n].startup_s, **run})  # fmt: skip
        per_task = {n: _scheduler_ms(client, tasks) for n, client in clients.items()}
    for row in rows:
        if row["workers"]:
            row["scheduler_ms_per_task"] = per_task[row["workers"]]
    resolutions = sum(1 for r in local for s in r["steps"] if s["verdict"] != "skipped")
    _ratios(rows, resolutions)
    return {"recordings": count, "resolutions": resolutions, "rounds": rounds,
            "cores": os.cpu_count(), "rows": rows,
            "task_bytes": statistics.mean(len(pickle.dumps(t)) for t in tasks),
            "result_bytes": statistics.mean(len(pickle.dumps(r)) for r in local),
            "recording_bytes": statistics.mean(Path(t.path).stat().st_size for t in tasks),
            "ms_per_recording_local": 1000 * statistics.median(
                r["seconds"] for r in rows if r["workers"] == 0) / count}  # fmt: skip


def _ratios(rows: list[dict[str, Any]], resolutions: int) -> None:
    """Resolutions per second, speed-up over the same round's local run, and over the same
    round's one-worker run with the same chunk."""
    local = {r["round"]: r["seconds"] for r in rows if r["workers"] == 0}
    one = {(r["round"], r["chunk"]): r["seconds"] for r in rows if r["workers"] == 1}
    for row in rows:
        row["per_second"] = resolutions / row["seconds"]
        row["speedup"] = local[row["round"]] / row["seconds"]
        base = one.get((row["round"], row["chunk"]))
        row["over_one_worker"] = base / row["seconds"] if base and row["workers"] > 1 else None


def _config(row: dict[str, Any]) -> str:
    if row["workers"] == 0:
        return "1 process"
    chunk = f"auto ({row['per_task']})" if row["chunk"] == "auto" else str(row["chunk"])
    return f"LocalCluster, {row['workers']} worker(s), {chunk} per task"


def _table(report: dict[str, Any]) -> str:
    lines = ["| round | configuration | wall time | resolutions/s | speed-up | over 1 worker | "
             "workers busy | worker CPU | client+scheduler CPU | cluster start | "
             "scheduler per task |", "|---|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for row in report["rows"]:
        over = row["over_one_worker"]
        cells = [str(row["round"]), _config(row), f"{row['seconds']:.2f} s",
                 f"{row['per_second']:,.0f}", f"{row['speedup']:.2f}×",
                 "–" if over is None else f"{over:.2f}×"]  # fmt: skip
        if row["workers"] > 0:
            cells += [f"{100 * row['busy']:.0f}%", f"{row['worker_cpu_s']:.1f} s",
                      f"{row['main_cpu_s']:.1f} s", f"{row['startup_s']:.1f} s",
                      f"{row['scheduler_ms_per_task']:.2f} ms"]  # fmt: skip
        else:
            cells += ["–", "–", f"{row['main_cpu_s']:.1f} s", "–", "–"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _summary(report: dict[str, Any]) -> str:
    """Per configuration over the rounds: wall times, median resolutions per second, median
    ratio to one worker, and resolutions per worker CPU second (the work's own cost)."""
    lines = ["| configuration | wall times | resolutions/s (median) | over 1 worker (median) | "
             "resolutions per worker CPU s |", "|---|---|---|---|---|"]  # fmt: skip
    configs: dict[str, list[dict[str, Any]]] = {}
    for row in report["rows"]:
        configs.setdefault(_config(row), []).append(row)
    for config, rows in configs.items():
        overs = [r["over_one_worker"] for r in rows if r["over_one_worker"] is not None]
        cpu = [r.get("worker_cpu_s") or r["main_cpu_s"] for r in rows]
        walls = ", ".join(f"{r['seconds']:.2f} s" for r in rows)
        lines.append(
            f"| {config} | {walls} | "
            f"{statistics.median(r['per_second'] for r in rows):,.0f} | "
            f"{f'{statistics.median(overs):.2f}×' if overs else '–'} | "
            f"{report['resolutions'] / statistics.median(cpu):,.0f} |"
        )
    return "\n".join(lines)


def _chunk(text: str) -> Chunk:
    return None if text == "auto" else max(1, int(text))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--recordings", type=int, default=300)
    parser.add_argument("--workers", type=int, nargs="*", default=[1, 2])
    parser.add_argument("--chunks", type=_chunk, nargs="*", default=[None, 10],
                        help="recordings per task, or auto (default: auto 10)")  # fmt: skip
    parser.add_argument("--rounds", type=int, default=4, help="times every configuration runs")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        report = measure(args.recordings, args.workers, args.chunks, args.rounds, Path(folder))
    print(f"{report['recordings']} recordings, {report['resolutions']} resolutions, "
          f"{report['cores']} cores; {report['ms_per_recording_local']:.1f} ms per recording "
          f"in one process; task {report['task_bytes']:.0f} B, result "
          f"{report['result_bytes']:.0f} B pickled, recording file "
          f"{report['recording_bytes'] / 1024:.0f} KiB; load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} at the end")  # fmt: skip
    print(_table(report))
    print()
    print(_summary(report))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 0
