"""Exit codes as documented (resolver/cli/__init__.py): a missing optional extra and an
option error are bad input (2), with the hint printed as it is; codes print as names."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from cli_helpers import NETWORK_OK, SETTINGS_TREE, one_line_error, run
from vision_images import VISION_FIXTURES

import resolver.cli.resolve as resolve_command
from resolver.errors import ConfigError

SCREENSHOT = str(VISION_FIXTURES / "settings" / "screenshot.png")
HINT = "pip install 'resolver[vision]'"


@pytest.fixture
def no_vision_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """The vision source's module cannot be imported, as without ``resolver[vision]``: the
    source raises SourceUnavailableError naming the extra."""
    monkeypatch.setitem(sys.modules, "resolver.adapters.vision", None)


@pytest.mark.usefixtures("no_vision_extra")
@pytest.mark.parametrize("as_json", [False, True])
def test_resolve_without_the_extra_is_exit_2_with_the_hint(
    capsys: pytest.CaptureFixture[str], as_json: bool
) -> None:
    extra = ("--json",) if as_json else ()
    code, _, err = run(capsys, "resolve", "--ref", NETWORK_OK, "--screenshot", SCREENSHOT, *extra)
    assert code == 2
    assert HINT in one_line_error(err)


@pytest.mark.usefixtures("no_vision_extra")
def test_explain_and_catalog_without_the_extra(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = str(tmp_path / "e.png")
    code, _, err = run(
        capsys, "explain", "--ref", NETWORK_OK, "--screenshot", SCREENSHOT, "--out", out
    )
    assert code == 2 and HINT in one_line_error(err)
    code, _, err = run(capsys, "catalog", "--source", "vision", "--screenshot", SCREENSHOT)
    assert code == 2 and HINT in one_line_error(err)


@pytest.mark.usefixtures("no_vision_extra")
def test_a_source_that_looked_keeps_exit_3_and_shows_the_hint_unmangled(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ref = '{"role": "button", "name": "Nothing like this"}'
    code, out, _ = run(
        capsys, "resolve", "--ref", ref, "--tree", str(SETTINGS_TREE), "--screenshot", SCREENSHOT
    )
    assert code == 3
    compact = "".join(out.split()).replace("│", "")  # the table may wrap the reason
    assert "pipinstall'resolver[vision]'" in compact


def test_an_option_error_from_the_library_is_exit_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*_: object, **__: object) -> None:
        raise ConfigError("threshold must be in [0, 1]")

    monkeypatch.setattr(resolve_command, "resolve", refuse)
    code, _, err = run(capsys, "resolve", "--ref", NETWORK_OK, "--tree", str(SETTINGS_TREE))
    assert code == 2 and "threshold must be in [0, 1]" in one_line_error(err)


def test_codes_print_as_names(capsys: pytest.CaptureFixture[str]) -> None:
    ref = '{"role": "button", "name": "Nothing like this"}'
    code, out, _ = run(capsys, "resolve", "--ref", ref, "--tree", str(SETTINGS_TREE))
    assert code == 3 and "[ELEMENT_NOT_FOUND]" in out and "ErrorCode" not in out
