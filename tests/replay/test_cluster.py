"""Replay on a Dask LocalCluster (loopback, in-process workers): same results as locally."""

from __future__ import annotations

from pathlib import Path

import pytest
from recording_files import CAPTURED, RECORDINGS, write_corrupt, write_document

from resolver.replay.model import ReplayError, ReplayOptions
from resolver.replay.run import ResultStore, comparable, replay_local
from resolver.replay.sources import discover

pytest.importorskip("distributed")

from resolver.replay.cluster import connect, replay_dask


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
