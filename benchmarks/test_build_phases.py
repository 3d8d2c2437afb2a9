"""Where a CDP build's time goes (``python -m benchmarks.build_phases``): every phase runs."""

from __future__ import annotations

import pytest

from benchmarks.build_phases import chrome_ids, main, phases
from benchmarks.build_speed import cdp_tree, nested_tree


def test_every_phase_is_timed_on_a_list_read_by_columns() -> None:
    nodes = cdp_tree(nested_tree(5_000))["nodes"]
    times = phases(nodes, 1)
    assert {"naive loop", "whole build", "column reading", "TableBuilder.build"} <= set(times)
    assert {"  names", "  values", "  states", "  boxes"} <= set(times)
    assert all(ms >= 0 for ms in times.values())
    assert times["whole build"] > 0 and times["column reading"] > 0


def test_chrome_ids_keep_the_tree() -> None:
    nodes = chrome_ids(cdp_tree(nested_tree(300))["nodes"])
    ids = {n["nodeId"] for n in nodes}
    assert len(ids) == len(nodes) and any(i.startswith("-") for i in ids)
    assert all(kid in ids for n in nodes for kid in n["childIds"])
    assert all(n["parentId"] in ids for n in nodes if "parentId" in n)


def test_the_command_prints_each_phase(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--nodes", "5000", "--repeat", "1"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("naive loop") and any("TableBuilder.build" in x for x in lines)
    assert all(line.endswith("x the naive loop") for line in lines)
