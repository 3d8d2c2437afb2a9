"""Every command's output stays bounded, whatever the size of the values it shows: long
values are cut (saying their length) before rich lays them out and before JSON is written."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import SETTINGS_TREE, run
from recording_files import snapshot

from resolver.cli._output import MAX_JSON_STRING, bounded, cell, cli_wording

TREE = str(SETTINGS_TREE)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _longest(text: str) -> int:
    return max((len(s) for s in _strings(json.loads(text))), default=0)


def _ref(tmp_path: Path, name: str) -> str:
    path = tmp_path / "ref.json"
    path.write_text(json.dumps({"role": "button", "name": name}), encoding="utf-8")
    return str(path)


def _big_tree(tmp_path: Path, length: int) -> str:
    path = tmp_path / "tree.json"
    path.write_text(json.dumps(snapshot("s0", ok_name="O" * length)), encoding="utf-8")
    return str(path)


def test_a_50_mb_name_ends_quickly_with_a_short_message(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    ref = _ref(tmp_path, "x" * 50_000_000)
    for extra in ((), ("--json",)):
        start = time.monotonic()
        code, out, err = run(capsys, "resolve", "--ref", ref, "--tree", TREE, *extra)
        assert time.monotonic() - start < 20
        assert code in (2, 3)  # refused as input, or not found
        assert len(out) + len(err) < 20_000
        first = (err or out).strip().splitlines()[0]
        assert len(first) < 2_000


@pytest.mark.parametrize("command", ["resolve", "explain"])
def test_json_strings_are_cut_and_say_their_length(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    ref = _ref(tmp_path, "y" * 5_000)
    extra = ("--out", str(tmp_path / "e.png")) if command == "explain" else ()
    code, out, _ = run(capsys, command, "--ref", ref, "--tree", TREE, "--json", *extra)
    assert code in (2, 3)
    if out:
        assert _longest(out) <= MAX_JSON_STRING + 40
        assert "y" * 5_000 not in out
    if code == 3 and command == "resolve":
        assert "(5,000 characters)" in out


@pytest.mark.parametrize(
    "args",
    [
        ("resolve", "--ref", '{"role": "button", "name": "OK"}'),
        ("resolve", "--ref", '{"role": "button", "name": "OK"}', "--json"),
        ("catalog",),
        ("catalog", "--json"),
        ("snapshot",),
        ("formats",),
    ],
)
def test_a_tree_with_a_huge_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: tuple[str, ...]
) -> None:
    tree = _big_tree(tmp_path, 1_000_000)
    place = ("--tree", tree) if args[0] != "formats" else (tree,)
    start = time.monotonic()
    code, out, err = run(capsys, *args, *place)
    assert time.monotonic() - start < 20
    assert code in (0, 3), err
    assert len(out) < 60_000 and len(err) < 2_000
    if "--json" in args or args[0] == "snapshot":
        assert _longest(out) <= MAX_JSON_STRING + 40


def test_bounded_keeps_what_is_asked_and_cuts_the_rest() -> None:
    data = {"a": "x" * 3_000, "b": ["y" * 10, {"c": "z" * 2_500}], "html": "h" * 3_000, "n": 1}
    cut = bounded(data, keep=("html",))
    assert cut["a"].endswith("(3,000 characters)") and len(cut["a"]) < 2_100
    assert cut["b"][0] == "y" * 10 and cut["b"][1]["c"].endswith("(2,500 characters)")
    assert cut["html"] == "h" * 3_000 and cut["n"] == 1


def test_cell_cuts_before_layout_and_escapes_markup() -> None:
    start = time.monotonic()
    shown = cell("[bold]" + "w" * 10_000_000)
    assert time.monotonic() - start < 5
    assert len(shown) < 300 and shown.startswith("\\[bold]")
    assert cell("pip install 'resolver[vision]'") == "pip install 'resolver\\[vision]'"
    assert cli_wording("pass tree_format= one of cdp") == "pass --format one of cdp"
