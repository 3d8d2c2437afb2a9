"""The package ``__init__``: input parsing, format detection and dispatch.

Every format is recognised as itself, no detector steals another format's input, and bad input
raises a typed error.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from resolver import (
    InvalidObservationError,
    LimitExceededError,
    Limits,
    Observation,
    UnsupportedFormatError,
)
from resolver.adapters.a11y import FORMATS, SourceInput, TreeInput, build_table, parse_input

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "formats"

CDP = [{"nodeId": "1", "role": {"type": "role", "value": "RootWebArea"}, "childIds": []}]
NESTED = {"id": "1", "role": "button", "name": "OK", "bbox": [0, 0, 10, 10], "children": []}
PLAYWRIGHT = {"role": "WebArea", "name": "", "children": [{"role": "button", "name": "OK"}]}
SNAPSHOT = {"ax_tree": {"root_id": "n1", "nodes": [{"node_id": "n1", "role": "button"}]}}
WEBARENA_TEXT = "Tab 0 (current): Shop\n\n[1] RootWebArea 'Shop' focused: True\n\t[2] link 'Home'\n"
BROWSERGYM_TEXT = "RootWebArea 'Shop', focused\n\t[12] link 'Home', clickable, visible\n"
SOM_TEXT = "[1] [BUTTON] [Go]\n[] [StaticText] [Hi]\n"
WAA_XML = '<desktop xmlns:st="uri:deskat:state.at-spi.gnome.org"><button name="OK"/></desktop>'


def _file(name: str) -> Any:
    path = FIXTURES / name
    return path.read_bytes() if path.suffix == ".xml" else path.read_text()


CASES: list[tuple[str, Any]] = [
    ("cdp", CDP),
    ("cdp", {"nodes": CDP}),
    ("nested", NESTED),
    ("playwright", PLAYWRIGHT),
    # Shapes two formats could both claim: a nested tree whose root has no ID or box (only
    # its children have them) is nested, not a Playwright snapshot.
    ("nested", {"role": "document", "children": [{"id": "c7", "role": "link", "name": "A"}]}),
    (
        "nested",
        {
            "role": "WebArea",
            "name": "",
            "children": [
                {
                    "role": "group",
                    "children": [{"role": "button", "name": "B", "bbox": [0, 0, 9, 9]}],
                }
            ],
        },
    ),
    ("nested", [{"role": "button", "name": "C", "children": []}]),
    ("playwright", {"role": "document", "name": "", "children": [{"role": "link", "name": "A"}]}),
    ("snapshot", SNAPSHOT),
    ("uia", _file("uia/invoice.json")),
    ("pywinauto", _file("pywinauto/invoice.txt")),
    ("ax", _file("ax/invoice_window_state.json")),
    ("ax", json.loads(_file("ax/invoice_window_state.json"))["data"]),
    ("atspi", _file("atspi/invoice.xml")),
    ("atspi", WAA_XML),
    ("osworld_table", _file("osworld_table/invoice.tsv")),
    ("uiautomator", _file("uiautomator/invoice.xml")),
    ("droidbot", _file("droidbot/invoice.json")),
    ("browsergym", _file("browsergym/invoice.json")),
    ("browsergym", json.loads(_file("browsergym/invoice.json"))["axtree_object"]),
    ("browsergym", BROWSERGYM_TEXT),
    ("webarena", _file("webarena/invoice.json")),
    ("webarena", WEBARENA_TEXT),
    ("webarena", SOM_TEXT),
    ("aria_snapshot", _file("aria_snapshot/invoice.aria.yml")),
]


@pytest.mark.parametrize(
    ("expected", "raw"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_each_input_goes_to_its_own_adapter(expected: str, raw: Any) -> None:
    tree = parse_input(raw)
    claimed = [fmt.name for fmt in FORMATS if fmt.detect(tree)]
    assert claimed and claimed[0] == expected
    table = Observation(accessibility_tree=raw).candidates("a11y")
    assert table.format == expected and len(table) > 0


@pytest.mark.parametrize(("expected", "raw"), CASES[5:], ids=[c[0] for c in CASES[5:]])
def test_explicit_tree_format(expected: str, raw: Any) -> None:
    table = Observation(accessibility_tree=raw, tree_format=expected).candidates("a11y")
    assert table.format == expected


ODD: list[TreeInput] = [
    TreeInput("json", value)
    for value in (
        None,
        0,
        "x",
        [],
        {},
        [None],
        [[]],
        {"views": None},
        {"views": [1]},
        {"nodes": [1, None]},
        {"axtree_object": None},
        {"text": 5},
        {"data": {"AXRole": None}, "meta": None},
        {"meta": {}, "title": None},
        {"AXRole": "AXButton", "AXChildren": [1, "x", None]},
        {"Children": None, "ControlType": None},
        {"text": "[1] a 'b'", "obs_nodes_info": 3},
    )
] + [TreeInput("text", value) for value in ("", "-", "[", "- 'unterminated", "tag\tname", "\t|")]


@pytest.mark.parametrize("tree", ODD, ids=range(len(ODD)))
def test_detectors_never_raise(tree: TreeInput) -> None:
    for fmt in FORMATS:
        assert fmt.detect(tree) in (True, False)


def test_every_build_takes_the_tree_and_its_source_input() -> None:
    by_name = {fmt.name: fmt for fmt in FORMATS}
    for expected, raw in CASES:
        source = SourceInput(raw=raw, max_nodes=1000, screen_size=(800.0, 600.0))
        table = by_name[expected].build(parse_input(raw), source)
        assert table.format == expected and table.screen_size == (800.0, 600.0)


def test_build_table_reads_the_source_input() -> None:
    table = build_table(SourceInput(raw=CDP, tree_format="cdp"))
    assert table.format == "cdp" and table.ids == ("1",)
    with pytest.raises(UnsupportedFormatError):
        build_table(SourceInput(raw=CDP, tree_format="nope"))


def test_snapshot_format_keeps_its_name() -> None:
    assert "snapshot" in {fmt.name for fmt in FORMATS}
    table = Observation(accessibility_tree=SNAPSHOT, tree_format="snapshot").candidates("a11y")
    assert table.format == "snapshot"


@pytest.mark.parametrize(
    "raw",
    [
        "{broken",
        b"\xff\xfe\x00garbage",
        "<root><unclosed></root>",
        '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]><x>&a;&a;</x>',
        "   ",
        12345,
        3.5,
        object(),
        "[" * 100_000 + "]" * 100_000,
    ],
)
def test_bad_input_is_typed(raw: object) -> None:
    with pytest.raises(InvalidObservationError):
        Observation(accessibility_tree=raw).candidates("a11y")


def test_unknown_json_shape() -> None:
    with pytest.raises(UnsupportedFormatError) as info:
        Observation(accessibility_tree={"foo": 1}).candidates("a11y")
    assert info.value.code.value == "UNSUPPORTED_FORMAT"


def test_nested_tree_without_root_id_keeps_its_ids() -> None:
    tree = {"role": "document", "children": [
        {"id": "c7", "role": "link", "name": "Home", "bbox": [0, 0, 50, 20]},
        {"id": "c29", "role": "link", "name": "News", "bbox": [60, 0, 110, 20]},
    ]}  # fmt: skip
    table = Observation(accessibility_tree=tree).candidates("a11y")
    assert table.format == "nested"
    assert table.executor_ids[1:] == ("a11y:c7", "a11y:c29")
    assert table.box(2) == (60.0, 0.0, 110.0, 20.0)


def test_a_str_path_reads_the_file(tmp_path: Path) -> None:
    path = tmp_path / "tree.json"
    path.write_text(json.dumps(NESTED))
    by_str = Observation(accessibility_tree=str(path)).candidates("a11y")
    by_path = Observation(accessibility_tree=path).candidates("a11y")
    assert list(by_str.names) == list(by_path.names) == ["OK"]
    xml = tmp_path / "tree.xml"
    xml.write_text(WAA_XML)
    assert "OK" in list(Observation(accessibility_tree=str(xml)).candidates("a11y").names)
    with pytest.raises(InvalidObservationError, match=r"cannot read .*missing.json.*No such file"):
        Observation(accessibility_tree=str(tmp_path / "missing.json")).candidates("a11y")


def test_tree_size_is_checked_before_reading(tmp_path: Path) -> None:
    # A sparse 300 MiB file: refused from its size, never read into memory.
    big = tmp_path / "big.json"
    with big.open("wb") as handle:
        handle.truncate(300 * 2**20)
    with pytest.raises(LimitExceededError, match=r"314,572,800 bytes.*max_tree_bytes="):
        Observation(accessibility_tree=big).candidates("a11y")
    small = Limits(max_tree_bytes=20)
    for raw in (json.dumps(NESTED), json.dumps(NESTED).encode()):
        with pytest.raises(LimitExceededError, match="--limit max_tree_bytes=N"):
            Observation(accessibility_tree=raw, limits=small).candidates("a11y")


def test_xml_text_with_a_lone_surrogate_is_read() -> None:
    table = Observation(accessibility_tree=WAA_XML.replace("OK", "O\ud800K")).candidates("a11y")
    assert "O\ufffdK" in list(table.names)


def test_depth_of_flat_and_text_trees() -> None:
    chain = [
        {"nodeId": str(i), "role": {"type": "role", "value": "group"}, "childIds": [str(i + 1)]}
        for i in range(6000)
    ]
    with pytest.raises(LimitExceededError, match="max_depth=4096"):
        Observation(accessibility_tree=chain).candidates("a11y")
    deeper = Observation(accessibility_tree=chain, limits=Limits(max_depth=7000))
    assert len(deeper.candidates("a11y")) == 6000
    outline = "\n".join(" " * i + f'- button "b{i}"' for i in range(60))
    with pytest.raises(LimitExceededError, match="max_depth=50"):
        Observation(accessibility_tree=outline, limits=Limits(max_depth=50)).candidates("a11y")
    with pytest.raises(InvalidObservationError, match="nests more than 256 levels"):
        Observation(accessibility_tree="<a>" * 300 + "</a>" * 300).candidates("a11y")
    with pytest.raises(InvalidObservationError, match="JSON nests deeper"):
        Observation(accessibility_tree='{"children": [' * 2000).candidates("a11y")


def _cdp_chain(levels: int, extra: int = 0) -> list[dict[str, Any]]:
    """A CDP list nesting ``levels`` rows (an ignored node at each level but the first, which
    makes no row and no level), then ``extra`` leaves under the root."""
    nodes: list[dict[str, Any]] = []
    for i in range(levels):
        kids = [f"i{i}"] if i + 1 < levels else []
        if i == 0:
            kids += [f"x{j}" for j in range(extra)]
        nodes.append({"nodeId": str(i), "role": {"value": "group"}, "childIds": kids})
        if i + 1 < levels:
            nodes.append({"nodeId": f"i{i}", "ignored": True, "childIds": [str(i + 1)]})
    nodes += [{"nodeId": f"x{j}", "role": {"value": "button"}} for j in range(extra)]
    return nodes


def _nested_chain(levels: int, ids: bool = True) -> dict[str, Any]:
    node: dict[str, Any] = {"role": "button", "name": "deepest"}
    for level in range(levels - 1):
        node = {"role": "group", "name": "", "children": [node]}
        if ids:
            node["id"] = str(level)
    if not ids:
        node["role"] = "WebArea"
    return node


@pytest.mark.parametrize(
    ("name", "tree_of"),
    [
        ("nested", _nested_chain),
        ("playwright", lambda levels: _nested_chain(levels, ids=False)),
        ("cdp", _cdp_chain),  # walked node by node
        ("cdp", lambda levels: _cdp_chain(levels, extra=5000)),  # read by columns
    ],
)
def test_formats_whose_walk_checks_depth_refuse_as_the_table_would(name: str, tree_of: Any) -> None:
    (fmt,) = [f for f in FORMATS if f.name == name]
    assert fmt.depth_checked
    limits = Limits(max_depth=30)
    table = Observation(accessibility_tree=tree_of(30), limits=limits).candidates("a11y")
    assert table.format == name
    assert "depth" not in vars(table)  # not made for the check
    assert int(table.depth.max()) == 29  # (the deepest row has 29 ancestors)
    with pytest.raises(LimitExceededError, match="max_depth=30"):
        Observation(accessibility_tree=tree_of(31), limits=limits).candidates("a11y")
