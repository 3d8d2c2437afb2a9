"""Tasks from files, folders and capture folders; fingerprints; loading a task."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from recording_files import CAPTURED, RECORDINGS, write_document

from resolver.replay.model import RecordingError, ReplayError, Task
from resolver.replay.sources import HEAL_REPORT, discover, fingerprint, load_task


def test_folders_files_and_capture_folders() -> None:
    tasks = discover([RECORDINGS, CAPTURED, RECORDINGS / "login.agent.json"])
    files = [t for t in tasks if t.kind == "file"]
    pages = [t.page for t in tasks if t.kind == "captures"]
    assert len(files) == 14  # the file given twice is one task
    assert pages == ["hidden", "login", "naming", "nav", "settings", "table"]
    assert not any("axtree" in t.path for t in files)  # capture folders' own files


def test_missing_paths_and_empty_folders_are_errors(tmp_path: Path) -> None:
    with pytest.raises(ReplayError, match="no such file"):
        discover([tmp_path / "absent"])
    with pytest.raises(ReplayError, match="no recordings found"):
        discover([tmp_path])


def test_the_output_folder_is_skipped(tmp_path: Path) -> None:
    write_document(tmp_path)
    (tmp_path / "out" / "results").mkdir(parents=True)
    (tmp_path / "out" / "results" / "x.json").write_text("{}")
    assert [Path(t.path).name for t in discover([tmp_path], skip=tmp_path / "out")] == ["a.json"]


def test_a_heal_report_beside_healed_copies_is_no_recording(tmp_path: Path) -> None:
    write_document(tmp_path)
    (tmp_path / HEAL_REPORT).write_text('{"recordings": []}')
    assert [Path(t.path).name for t in discover([tmp_path])] == ["a.json"]


def test_fingerprint_follows_the_files(tmp_path: Path) -> None:
    path = write_document(tmp_path)
    task = Task("file", str(path))
    before = fingerprint(task)
    assert fingerprint(task) == before
    os.utime(path, ns=(1, 1))
    assert fingerprint(task) != before
    assert fingerprint(Task("captures", str(CAPTURED), "login")) != fingerprint(
        Task("captures", str(CAPTURED), "nav")
    )


def test_a_capture_task_is_the_relocation_trials() -> None:
    rec = load_task(Task("captures", str(CAPTURED), "settings"))
    assert rec.fmt == "captures" and rec.order == ["settings.v2", "settings.v3"]
    assert len(rec.steps) == 26
    removed = [s for s in rec.steps if s.expected[s.preceding or ""] == ()]
    assert [s.step for s in removed] == ["settings.network.cancel"]
    with pytest.raises(RecordingError, match="no capture folder"):
        load_task(Task("captures", str(CAPTURED), "absent"))


def test_a_capture_task_is_read_within_the_limits() -> None:
    from resolver.limits import Limits

    with pytest.raises(RecordingError, match="max_nodes"):
        load_task(Task("captures", str(CAPTURED), "settings"), limits=Limits(max_nodes=5))


def _undecodable_name(folder: Path) -> Path:
    """A copy of a recording whose file name is not UTF-8 (Python sees a lone surrogate)."""
    name = os.fsdecode(b"caf\xe9.json")
    path = folder / name
    try:
        write_document(folder, name)
    except (OSError, UnicodeEncodeError):  # a file system that takes only UTF-8 names
        pytest.skip("this file system refuses names that are not UTF-8")
    return path


def test_a_file_name_that_is_not_utf8_is_replayed(tmp_path: Path) -> None:
    from resolver.replay.model import ReplayOptions
    from resolver.replay.run import ResultStore, replay_local

    path = _undecodable_name(tmp_path)
    (task,) = discover([tmp_path])
    assert task.path == str(path) and len(fingerprint(task)) == 16
    options = ReplayOptions(sources=("a11y",))
    (result,) = replay_local([task], options, store=ResultStore(tmp_path / "out", options))
    assert result["status"] == "ok" and result["recording"] == str(path)


def test_discover_takes_one_path_alone_and_refuses_what_is_no_path(tmp_path: Path) -> None:
    path = write_document(tmp_path)
    assert discover(str(path)) == discover([path]) == [Task("file", str(path))]
    for bad in (None, 5, {"a": 1}):
        with pytest.raises(ReplayError, match="recording files or folders"):
            discover(bad)  # type: ignore[arg-type]
