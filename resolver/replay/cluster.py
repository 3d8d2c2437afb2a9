"""Replay on a Dask cluster: one task per recording, results gathered as they finish.

Each worker runs :func:`resolver.replay.run.replay_task` on a :class:`~.model.Task`, which
names the recording by path, so the worker reads the recording (and the observations in it)
where the files are; only the small task and its JSON-ready result cross the network. The
client writes each result to the store as it arrives, so an interrupted cluster run resumes
like a local one.

Dask and distributed come with the ``replay`` extra (``pip install 'resolver[replay]'``) and
are imported only here, when a cluster run starts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from .model import MissingExtraError, ReplayError, ReplayOptions, Task
from .run import Progress, ResultStore, replay_task

__all__ = ["auto_chunk", "connect", "replay_chunk", "replay_dask"]

#: tasks per worker thread an automatic chunk size aims at: enough that the last tasks even
#: out a slow worker, few enough that the scheduler's cost per task is small beside the work
TASKS_PER_THREAD = 8
#: the most recordings an automatic chunk holds (results reach the store a chunk at a time)
MOST_PER_TASK = 50


def _distributed() -> Any:
    try:
        import distributed
    except ImportError as exc:
        raise MissingExtraError(
            "a cluster run needs dask and distributed: pip install 'resolver[replay]'"
        ) from exc
    return distributed


@contextmanager
def connect(
    scheduler: str | None = None,
    *,
    workers: int | None = None,
    processes: bool = True,
    timeout: float = 30.0,
) -> Iterator[Any]:
    """A Dask client: on the scheduler at ``scheduler``, or on a new ``LocalCluster`` of
    ``workers`` single-threaded workers bound to loopback (closed on exit).

    The local cluster has no dashboard, so its workers do not run Dask's statistical
    profiler either (it samples the running task's stack every 10 ms, for the dashboard
    only; on replay's pure-Python work that cost a worker about a tenth of its CPU).

    Raises
    ------
    MissingExtraError
        Dask is not installed.
    ReplayError
        The scheduler cannot be reached within ``timeout`` seconds.
    """
    distributed = _distributed()
    import dask.config

    cluster = None
    try:
        if scheduler is None:
            # workers (and worker processes, which get the config at spawn) start in here
            with dask.config.set({"distributed.worker.profile.enabled": False}):
                cluster = distributed.LocalCluster(
                    n_workers=max(1, workers or 1), threads_per_worker=1, processes=processes,
                    protocol="tcp://", host="127.0.0.1", dashboard_address=None,
                    silence_logs=40,
                )  # fmt: skip
            client = distributed.Client(cluster, timeout=timeout)
        else:
            client = distributed.Client(scheduler, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as exc:
        if cluster is not None:
            cluster.close()
        where = scheduler or "a local cluster"
        raise ReplayError(f"cannot connect to {where}: {exc}") from exc
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def replay_dask(
    client: Any,
    tasks: Sequence[Task],
    options: ReplayOptions,
    *,
    store: ResultStore | None = None,
    resume: bool = False,
    progress: Progress | None = None,
    chunk: int | None = 1,
) -> list[dict[str, Any]]:
    """Replay ``tasks`` on the cluster behind ``client``; same arguments and result as
    :func:`resolver.replay.run.replay_local`.

    Every recording is one task by default; ``chunk`` recordings per task spread the
    scheduler's fixed cost per task (a few milliseconds) over more work, and ``chunk=None``
    sizes the chunks from the cluster's threads (:func:`auto_chunk`). Results stored from an
    earlier run (``resume``) are not sent to the cluster at all. Results are fetched in the
    background as tasks finish and handed to ``store`` and ``progress`` in that order.
    """
    distributed = _distributed()
    results: list[dict[str, Any] | None] = [None] * len(tasks)
    pending: list[int] = []
    for i, task in enumerate(tasks):
        stored = store.load(task) if (store is not None and resume) else None
        if stored is None:
            pending.append(i)
            continue
        results[i] = stored
        if progress is not None:
            progress(stored)
    if chunk is None:
        chunk = auto_chunk(len(pending), sum(client.nthreads().values()))
    groups = [pending[k : k + max(1, chunk)] for k in range(0, len(pending), max(1, chunk))]
    # pure=False: a rerun with changed files under the same path must run again
    futures = client.map(replay_chunk, [[tasks[i] for i in g] for g in groups], options=options,
                         pure=False)  # fmt: skip
    where = {future.key: group for future, group in zip(futures, groups, strict=True)}
    # the futures' own loop: as_completed would use the newest client's, which is another
    # client's when several are open, and then it waits forever
    done = distributed.as_completed(
        futures, loop=client.loop, with_results=True, raise_errors=False
    )
    for future, value in done:
        group = where[future.key]
        if future.status == "finished":
            chunk_results: list[dict[str, Any]] = value
        else:  # a worker died: its recordings are reported, the run goes on
            chunk_results = [_lost(tasks[i], _failure(future)) for i in group]
        future.release()
        for i, result in zip(group, chunk_results, strict=True):
            results[i] = result
            if store is not None:
                store.save(tasks[i], result)
            if progress is not None:
                progress(result)
    if any(r is None for r in results):
        raise ReplayError("the cluster returned fewer results than tasks")
    return [r for r in results if r is not None]


def auto_chunk(count: int, threads: int) -> int:
    """Recordings per task for ``count`` recordings on ``threads`` worker threads: about
    :data:`TASKS_PER_THREAD` tasks per thread, at most :data:`MOST_PER_TASK` recordings each.

    Examples
    --------
    >>> auto_chunk(300, 2), auto_chunk(10, 2), auto_chunk(100_000, 2), auto_chunk(0, 0)
    (19, 1, 50, 1)
    """
    per_task = -(-count // (TASKS_PER_THREAD * max(1, threads)))
    return max(1, min(MOST_PER_TASK, per_task))


def replay_chunk(tasks: Sequence[Task], options: ReplayOptions) -> list[dict[str, Any]]:
    """The worker's unit of work: :func:`~resolver.replay.run.replay_task` for a few
    recordings in a row."""
    return [replay_task(task, options) for task in tasks]


def _failure(future: Any) -> BaseException:
    """Why a task did not finish: its exception, or the cancellation."""
    try:
        exc = future.exception()
    except (Exception, asyncio.CancelledError) as cancelled:  # a cancelled future raises
        return cancelled
    return exc if isinstance(exc, BaseException) else RuntimeError(f"task {future.status}")


def _lost(task: Task, exc: BaseException) -> dict[str, Any]:
    """The result of a recording whose worker failed."""
    return {
        "result_version": 1, "recording": task.name, "kind": task.kind, "path": task.path,
        "format": None, "mode": None, "status": "corrupt",
        "error": f"worker failed: {type(exc).__name__}: {exc}",
        "entries": 0, "untargeted": 0, "steps": [], "seconds": 0.0,
    }  # fmt: skip
