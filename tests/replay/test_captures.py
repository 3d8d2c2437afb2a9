"""Captures: read from folders and from the bundle shipped with the package."""

import gzip
import json
from pathlib import Path

import pytest

from resolver.errors import InvalidObservationError
from resolver.replay import demo_captures, folder_captures, load_capture, read_capture
from resolver.replay.captures import bundle_folder, write_bundle

CAPTURED = Path(__file__).resolve().parents[2] / "fixtures" / "captured"


def test_demo_bundle_is_the_captured_fixtures() -> None:
    # The bundle is made from fixtures/captured by fixtures/capture.py; a stale one fails here.
    assert demo_captures() == bundle_folder(CAPTURED)


def test_write_bundle_is_reproducible(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json.gz", tmp_path / "b.json.gz"
    assert write_bundle(CAPTURED, first) == 18
    write_bundle(CAPTURED, second)
    assert first.read_bytes() == second.read_bytes()
    assert set(json.loads(gzip.decompress(first.read_bytes()))) == set(demo_captures())


def test_folder_and_bundle_give_the_same_observation() -> None:
    from_folder = read_capture(CAPTURED / "login")
    from_bundle = load_capture("login", demo_captures()["login"])
    assert from_folder.labels == from_bundle.labels
    a, b = from_folder.observation.candidates("a11y"), from_bundle.observation.candidates("a11y")
    assert a.ids == b.ids and a.names == b.names and a.platform_ids == b.platform_ids


def test_missing_or_empty_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InvalidObservationError, match="no captured fixtures"):
        folder_captures(tmp_path / "absent")
    with pytest.raises(InvalidObservationError, match="no capture folders"):
        folder_captures(tmp_path)


def test_corrupt_capture_is_a_clear_error() -> None:
    with pytest.raises(InvalidObservationError, match="incomplete or corrupt"):
        load_capture("broken", {"meta.json": "{}", "axtree.json": "[", "labels.json": "{}"})


def test_a_capture_is_read_within_the_limits() -> None:
    from resolver.limits import Limits

    capture = load_capture("login", demo_captures()["login"], limits=Limits(max_nodes=5))
    assert capture.observation.limits.max_nodes == 5
    with pytest.raises(InvalidObservationError, match="max_nodes"):
        capture.observation.candidates("a11y")
