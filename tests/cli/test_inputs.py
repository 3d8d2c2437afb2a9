"""Shared options: references, observations, sources, resolve options."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import NETWORK_OK, SETTINGS_TREE, one_line_error, run

from resolver.cli._inputs import (
    Coords,
    checked_path,
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


def test_a_file_name_with_a_nul_is_an_option_error(tmp_path: Path) -> None:
    with pytest.raises(CliError, match=r"--ref: a file name cannot contain a NUL character"):
        read_ref("a\x00b")
    for option in ("tree", "dom", "screenshot"):
        with pytest.raises(CliError, match=f"--{option}: a file name cannot contain a NUL"):
            read_observation(**{option: tmp_path / "a\x00b"})  # type: ignore[arg-type]
    assert checked_path(tmp_path / "t.json", "--tree") == tmp_path / "t.json"
    with pytest.raises(CliError, match="--out"):
        checked_path("x\x00", "--out")


TREE = str(SETTINGS_TREE)
NUL = "a\x00b.json"


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("resolve", "--ref", NUL, "--tree", TREE), "--ref"),
        (("resolve", "--ref", NETWORK_OK, "--tree", NUL), "--tree"),
        (("resolve", "--ref", NETWORK_OK, "--dom", NUL), "--dom"),
        (("resolve", "--ref", NETWORK_OK, "--screenshot", NUL), "--screenshot"),
        (("explain", "--ref", NUL, "--tree", TREE), "--ref"),
        (("explain", "--ref", NETWORK_OK, "--tree", TREE, "--out", NUL), "--out"),
        (("complete", "--ref", NUL, "--tree", TREE), "--ref"),
        (("catalog", "--tree", NUL), "--tree"),
        (("snapshot", "--dom", NUL), "--dom"),
        (("snapshot", "--tree", TREE, "--out", NUL), "--out"),
        (("replay", NUL), "PATH"),
        (("replay", TREE, "--out", NUL), "--out"),
        (("replay", TREE, "--observation", NUL), "--observation"),
        (("formats", NUL), "PATH"),
        (("demo", NUL), "FIXTURES"),
    ],
)
def test_every_path_option_refuses_a_nul_with_a_usage_error(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], option: str
) -> None:
    code, out, err = run(capsys, *args)
    line = one_line_error(err)
    assert code == 2 and out == "" and "internal error" not in line
    assert option.lower() in line.lower()  # Typer names an argument in lower case
