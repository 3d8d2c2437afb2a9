"""Replay on a Dask LocalCluster (loopback, in-process workers): same results as locally."""

from __future__ import annotations

from pathlib import Path

import pytest
from recording_files import CAPTURED, RECORDINGS, write_corrupt, write_document

from resolver.replay.model import ReplayError, ReplayOptions, Task
from resolver.replay.run import ResultStore, comparable, replay_local
from resolver.replay.sources import discover

pytest.importorskip("distributed")

from resolver.replay import cluster
from resolver.replay.cluster import auto_chunk, connect, replay_dask


@pytest.mark.timeout(60)
def test_local_cluster_gives_the_local_results(tmp_path: Path) -> None:
    write_document(tmp_path)
    write_corrupt(tmp_path)
    tasks = discover([RECORDINGS, CAPTURED, tmp_path])
    options = ReplayOptions(sources=("a11y",), against="next")
    local = replay_local(tasks, options)
    store = ResultStore(tmp_path / "out", options)
    seen: list[str] = []
    with connect(workers=2, processes=False) as client:
        remote = replay_dask(
            client, tasks, options, store=store, progress=lambda r: seen.append(r["recording"])
        )
        assert comparable(remote) == comparable(local)
        assert sorted(seen) == sorted(t.name for t in tasks)
        assert sum(r["status"] == "corrupt" for r in remote) == 4
        chunked = replay_dask(client, tasks, options, chunk=3)  # three recordings per task
        assert comparable(chunked) == comparable(local)
        # everything is stored now: a resumed run sends nothing to the cluster
        again = replay_dask(client, tasks, options, store=store, resume=True)
        assert again == remote


@pytest.mark.timeout(60)
def test_an_unreachable_scheduler_is_a_replay_error() -> None:
    with (
        pytest.raises(ReplayError, match="cannot connect"),
        connect("tcp://127.0.0.1:9", timeout=1),
    ):
        pass


def test_auto_chunk_aims_at_a_few_tasks_per_thread() -> None:
    assert auto_chunk(300, 2) == 19  # 16 tasks of at most 19 recordings
    assert auto_chunk(300, 1) == 38
    assert auto_chunk(5, 4) == 1
    assert auto_chunk(1_000_000, 2) == cluster.MOST_PER_TASK
    assert auto_chunk(0, 0) == 1


@pytest.mark.timeout(60)
def test_automatic_chunks_give_the_local_results() -> None:
    tasks = discover([RECORDINGS, CAPTURED])
    options = ReplayOptions(sources=("a11y",), against="next")
    seen: list[str] = []
    with connect(workers=2, processes=False) as client:
        remote = replay_dask(
            client, tasks, options, chunk=None, progress=lambda r: seen.append(r["recording"])
        )
    assert comparable(remote) == comparable(replay_local(tasks, options))
    assert sorted(seen) == sorted(t.name for t in tasks)


FAILING: list[str] = []  # the recording whose task raises
REPLAY_CHUNK = cluster.replay_chunk


def _failing_chunk(tasks: list[Task], options: ReplayOptions) -> list[dict[str, object]]:
    if any(t.name in FAILING for t in tasks):
        raise RuntimeError("worker lost")
    return REPLAY_CHUNK(tasks, options)


@pytest.mark.timeout(60)
def test_a_failed_task_reports_its_recordings_and_the_run_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tasks = discover([RECORDINGS])
    options = ReplayOptions(sources=("a11y",), against="next")
    FAILING[:] = [tasks[0].name]
    monkeypatch.setattr(cluster, "replay_chunk", _failing_chunk)
    with connect(workers=1, processes=False) as client:
        results = replay_dask(client, tasks, options, chunk=2)
    lost = [r for r in results if r["status"] == "corrupt"]
    assert [r["recording"] for r in lost] == [t.name for t in tasks[:2]]
    assert all("worker failed: RuntimeError: worker lost" in r["error"] for r in lost)
    local = comparable(replay_local(tasks[2:], options))
    assert comparable(results[2:]) == local


@pytest.mark.timeout(60)
# Two clusters at once: the second scheduler's HTTP server (on loopback, no dashboard) takes
# another port than the first's, which Dask says in a warning.
@pytest.mark.filterwarnings("ignore:Port 8787 is already in use")
def test_a_client_that_is_not_the_newest_one_gets_its_results() -> None:
    tasks = discover([RECORDINGS])
    options = ReplayOptions(sources=("a11y",), against="next")
    with connect(workers=1) as first, connect(workers=1):  # processes: a loop each
        remote = replay_dask(first, tasks, options, chunk=2)
    assert comparable(remote) == comparable(replay_local(tasks, options))
