"""Shared options: references, observations, sources, resolve options."""

from __future__ import annotations

from pathlib import Path

import pytest

from resolver.cli._inputs import (
    Coords,
    read_observation,
    read_ref,
    read_sources,
    resolve_options,
)
from resolver.cli._output import CliError


def test_reference_from_text_and_file(tmp_path: Path) -> None:
    assert read_ref('{"name": "OK"}').name == "OK"
    path = tmp_path / "r.json"
    path.write_text('{"role": "button"}')
    assert read_ref(str(path)).role == "button"
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(CliError, match="cannot read"):
        read_ref(str(path))
    with pytest.raises(CliError, match="valid reference: invalid SemanticElementRef: name"):
        read_ref('{"name": 5}')


def test_observation_and_options(tmp_path: Path) -> None:
    tree = tmp_path / "t.json"
    tree.write_text('{"id": "1", "role": "button", "name": "OK"}')
    obs = read_observation(tree, screen_size="800x600")
    assert obs.screen_size == (800.0, 600.0)
    with pytest.raises(CliError, match="--screen-size"):
        read_observation(tree, screen_size="0x600")
    with pytest.raises(CliError, match="cannot read"):
        read_observation(tmp_path)  # a folder
    assert read_sources(" a11y , dom ") == ("a11y", "dom")
    options = resolve_options("a11y", 0.7, None, Coords.never)
    assert options == {"sources": ("a11y",), "coords_fallback": "never", "threshold": 0.7}
    sure = resolve_options("a11y", None, None, Coords.never, 0.9)
    assert sure == {"sources": ("a11y",), "coords_fallback": "never", "min_confidence": 0.9}
