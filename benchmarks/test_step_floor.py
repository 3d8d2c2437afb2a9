"""The floor of a CDP list read by Python (``python -m benchmarks.step_speed --floor``)."""

from __future__ import annotations

from benchmarks.step_speed import (
    FLOOR_FIELDS,
    cases,
    field_passes,
    floor_table,
    main,
    measure_floor,
)


def test_the_floor_reads_every_field_once_and_the_value_of_roles_and_names() -> None:
    nodes = [
        {"nodeId": "1", "role": {"value": "button"}, "name": {"value": "Save"}, "childIds": []},
        {"nodeId": "2", "role": {"value": "link"}, "ignored": True},
    ]
    columns = field_passes(nodes)
    assert len(columns) == len(FLOOR_FIELDS) + 2
    by_field = dict(zip(FLOOR_FIELDS, columns, strict=False))
    assert by_field["nodeId"] == ["1", "2"] and by_field["ignored"] == [None, True]
    assert columns[-2:] == [["button", "link"], ["Save"]]  # (a node without a name skipped)


def test_the_floor_is_timed_beside_the_naive_loop() -> None:
    case = cases(1_000, kinds=["cdp"])[0]
    row = measure_floor(case, 2)
    assert row["nodes"] == 1_000
    assert all(row[k] > 0 for k in ("one_field_ms", "fields_ms", "naive_ms"))
    lines = floor_table([row]).splitlines()
    assert len(lines) == 3 and lines[2].startswith("| 1,000 |")
    assert main(["--floor", "--sizes", "1000", "--repeat", "1"]) == 0
