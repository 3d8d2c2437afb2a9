"""The benchmark's recorders on captured pages (no browser, no corpus):
``python -m pytest benchmarks/relocation/test_recorders.py``."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from benchmarks.relocation.recorders import record_targets
from resolver import ElementNotFoundError, resolve
from resolver.replay.captures import Capture, read_capture

CAPTURED = Path(__file__).resolve().parents[2] / "fixtures" / "captured"
POSTGRES = "nav.article.postgres.read_more"  # removed in nav.v2; the next one slid up


def _capture(name: str) -> Capture:
    folder = CAPTURED / name
    if not (folder / "chromium_dom.json").is_file():
        pytest.skip(f"captured fixture {name} not found")
    return read_capture(folder)


def _numbered(capture: Capture) -> tuple[Capture, dict[str, str]]:
    """The capture with its labels keyed ``t0``, ``t1``... as the corpus pages' are."""
    keys = sorted(capture.labels)
    labels = {f"t{i}": capture.labels[k] for i, k in enumerate(keys)}
    return dataclasses.replace(capture, labels=labels), {k: f"t{i}" for i, k in enumerate(keys)}


def test_every_foreign_reference_is_completed_from_its_own_element() -> None:
    base, _ = _numbered(_capture("nav"))
    recorded = record_targets(base, ("a11y", "dom"), {})
    assert recorded
    for rec in recorded.values():
        assert rec.completion == {"a11y": "element", "dom": "element"}
        for source in ("a11y", "dom"):
            assert rec.refs[("completed", source)].anchors  # what the foreign one lacks
            assert not rec.refs[("foreign", source)].anchors


@pytest.mark.parametrize("source", ["a11y", "dom"])
def test_a_completed_reference_refuses_the_twin_that_slid_into_its_place(source: str) -> None:
    base, keys = _numbered(_capture("nav"))
    rec = record_targets(base, ("a11y", "dom"), {})[keys[POSTGRES]]
    changed = _capture("nav.v2").observation
    # The foreign reference answers the next article's "Read more".
    assert resolve(rec.refs[("foreign", source)], changed, sources=(source,))
    with pytest.raises(ElementNotFoundError):
        resolve(rec.refs[("completed", source)], changed, sources=(source,))
