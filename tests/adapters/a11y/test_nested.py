import json
import math
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import fields, replace
from types import MappingProxyType
from typing import Any

import numpy as np
import pytest

from resolver import InvalidObservationError, LimitExceededError, Limits, Observation
from resolver.adapters._common import (
    XPATH_KEYS,
    as_str,
    box_from_ltrb,
    boxes_from_ltrb,
    flag_states,
    ltrb_array,
)
from resolver.adapters.a11y import SourceInput, TreeInput
from resolver.adapters.a11y._walk import measure_nested
from resolver.adapters.a11y.nested import build
from resolver.geometry import CoordSpace
from resolver.table import CandidateTable, TableBuilder, _box_array
from resolver.web import NEARBY_COLUMN, WEB_COLUMNS, join_nearby, web_values


def test_nested_rows_and_states() -> None:
    tree = {
        "id": "w",
        "role": "window",
        "name": "Editor",
        "children": [
            {"id": "b1", "role": "button", "name": "Save", "bbox": [0, 0, 50, 20],
             "disabled": True, "automation_id": "save"},
            {"role": "textbox", "name": "Title", "value": "Draft", "focused": True,
             "hidden": "false"},
        ],
    }  # fmt: skip
    t = Observation(accessibility_tree=tree).candidates("a11y")
    assert t.format == "nested"
    assert t.ids == ("w", "b1", "0.1")
    assert t.executor_ids[2] == "a11y:0.1"
    assert list(t.enabled) == [-1, 0, -1]
    assert list(t.focused) == [-1, -1, 1]
    assert list(t.visible) == [-1, -1, 1]
    assert t.values[2] == "Draft"
    assert t.platform_ids["automation_id"][1] == "save"
    assert t.containers[1] == ("Editor",)


def test_forest_and_json_text() -> None:
    forest = [{"id": "a", "role": "button", "name": "A"}, {"id": "b", "role": "link", "name": "B"}]
    t = Observation(accessibility_tree=json.dumps(forest)).candidates("a11y")
    assert t.ids == ("a", "b")
    assert list(t.parent) == [-1, -1]


def test_wrong_types_inside_are_tolerated() -> None:
    tree = {"id": 5, "role": ["x"], "name": {"a": 1}, "bbox": "nope",
            "children": ["str", None, {"id": "k", "role": "button", "name": 3.0}]}  # fmt: skip
    t = Observation(accessibility_tree=tree).candidates("a11y")
    assert t.ids == ("5", "k")
    assert t.roles[0] == "unknown"
    assert t.names == ("", "3.0")


def test_cycle_is_an_error() -> None:
    node: dict[str, object] = {"id": "a", "role": "group"}
    node["children"] = [{"id": "b", "role": "button", "children": [node]}]
    with pytest.raises(InvalidObservationError, match="cyclic"):
        Observation(accessibility_tree=node).candidates("a11y")


def _chain(depth: int) -> dict[str, object]:
    root: dict[str, object] = {"id": "0", "role": "group", "children": []}
    current = root
    for i in range(1, depth):
        child: dict[str, object] = {"id": str(i), "role": "group", "name": f"g{i}", "children": []}
        current["children"] = [child]
        current = child
    return root


def test_deep_tree_has_no_recursion_limit() -> None:
    t = Observation(accessibility_tree=_chain(4000)).candidates("a11y")
    assert len(t) == 4000
    assert len(t.containers[-1]) <= 12
    deeper = Observation(accessibility_tree=_chain(9000), limits=Limits(max_depth=10_000))
    assert len(deeper.candidates("a11y")) == 9000


def test_depth_limit_refuses_before_building() -> None:
    with pytest.raises(LimitExceededError, match=r"max_depth=4096.*--limit max_depth=N") as e:
        Observation(accessibility_tree=_chain(5000)).candidates("a11y")
    assert e.value.evidence.details["limit"] == "max_depth"
    assert isinstance(e.value, InvalidObservationError)


def test_max_nodes() -> None:
    tree = {
        "id": "r",
        "role": "group",
        "children": [{"id": str(i), "role": "button"} for i in range(50)],
    }
    with pytest.raises(InvalidObservationError, match="max_nodes"):
        Observation(accessibility_tree=tree, max_nodes=10).candidates("a11y")


def test_web_attributes_become_columns() -> None:
    tree = {"id": "p", "role": "main", "children": [
        {"id": "a", "role": "link", "name": "Help", "tag": "a",
         "attributes": {"class": "nav help", "href": "/help", "title": "Get help", "x": 1}},
        {"id": "q", "role": "textbox", "name": "Search", "attributes": {"placeholder": "Search"}},
    ]}  # fmt: skip
    t = Observation(accessibility_tree=tree, url="https://shop.example/").candidates("a11y")
    web = t.platform_ids
    assert (web["tag"][1], web["class"][1], web["href"][1]) == (
        "a", "nav help", "https://shop.example/help",
    )  # fmt: skip
    assert web["attr:title"][1] == "Get help" and web["attr:placeholder"][2] == "Search"
    assert web["href"][0] is None and web["tag"][2] is None


def test_html_ids_and_xpaths_become_columns_and_count() -> None:
    from resolver import MatchConfig, SemanticElementRef, resolve
    from resolver.matcher import score_table

    def page(first: str, second: str) -> Observation:
        return Observation(accessibility_tree={"id": "p", "role": "main", "children": [
            {"id": "a", "role": "button", "dom_id": "save", "xpath": f"/html/body/{first}"},
            {"id": "b", "role": "button", "dom_id": "send", "xpath": f"/html/body/{second}"},
        ]})  # fmt: skip

    table = page("button[1]", "button[2]").candidates("a11y")
    assert table.platform_ids["dom_id"][1:] == ("save", "send")
    assert table.document_paths is not None and table.document_paths[1] == "/html/body/button[1]"
    # Two unnamed buttons without boxes are told apart by the recorded HTML id; the recorded
    # xpath (compared in the DOM source's normalised form) is evidence for its row.
    assert (
        resolve({"role": "button", "dom_id": "send"}, page("button[1]", "button[2]")).executor_id
        == "a11y:b"
    )
    by_path = SemanticElementRef(role="button", xpath="/html[1]/body[1]/button[2]")
    scored = score_table(by_path, table, MatchConfig())
    hits = dict(zip(scored.rows.tolist(), scored.signals["id:xpath"].tolist(), strict=True))
    assert hits[table.ids.index("b")] == 1.0 and hits[table.ids.index("a")] == 0.0
    # A tree whose nodes give no xpath claims no document places.
    plain = Observation(accessibility_tree={"id": "p", "role": "main"}).candidates("a11y")
    assert plain.document_paths is None and "xpath" not in plain.platform_ids


def test_recorded_neighbour_texts_become_the_nearby_column() -> None:
    from resolver.web import NEARBY_COLUMN, nearby_texts

    tree = {"id": "r", "role": "document", "children": [
        {"id": "a", "role": "link", "name": "Loans",
         "nearby_text": ["Home  loans", 3, "Rates", "Home loans", ""]},
        {"id": "b", "role": "link", "name": "Cards"},
    ]}  # fmt: skip
    table = Observation(accessibility_tree=tree).candidates("a11y")
    rows = {node: i for i, node in enumerate(table.ids)}
    column = table.platform_ids[NEARBY_COLUMN]
    assert column[rows["b"]] is None
    # collapsed, repeats and non-texts dropped; what a recorder reads back as nearby_text
    assert nearby_texts(table, rows["a"]) == ("Home loans", "Rates")
    # a row without recorded texts gets them from the page's reading order
    assert nearby_texts(table, rows["b"]) == ("Loans",)


def test_no_recorded_neighbour_texts_no_column() -> None:
    from resolver.web import NEARBY_COLUMN

    tree = {"id": "r", "role": "document", "children": [{"id": "a", "role": "link", "name": "x"}]}
    table = Observation(accessibility_tree=tree).candidates("a11y")
    assert NEARBY_COLUMN not in table.platform_ids


# -- the build against a plain reference: the per-node reading it replaced ---------------------


def _reference_walk(
    roots: Sequence[Any], max_nodes: int, max_depth: int
) -> Iterator[tuple[Mapping[str, Any], int, str]]:
    """Measure, then walk with a stack: ``(node, parent, path)`` in pre-order."""
    measure_nested(roots, "children", Limits(max_nodes=max_nodes, max_depth=max_depth))
    stack: list[tuple[Any, int, str]] = [
        (root, -1, str(i)) for i, root in reversed(list(enumerate(roots)))
    ]
    position = 0
    while stack:
        node, parent, path = stack.pop()
        if not isinstance(node, Mapping):
            continue
        yield node, parent, path
        me = position
        position += 1
        kids = node.get("children")
        if isinstance(kids, Sequence) and not isinstance(kids, (str, bytes)):
            for j in range(len(kids) - 1, -1, -1):
                stack.append((kids[j], me, f"{path}.{j}"))


def _reference_web(attributes: Any, url: str | None) -> tuple[str | None, ...]:
    if not attributes or not isinstance(attributes, dict):
        return web_values(None)
    return web_values({str(k): v for k, v in attributes.items() if isinstance(v, str)}, url)


def _reference_build(tree: TreeInput, source: SourceInput) -> CandidateTable:
    """Every field of every node read with its own ``get``, one row at a time."""
    id_columns = ("automation_id", "accessibility_id", "tag", "dom_id", "xpath")
    builder = TableBuilder(
        "a11y", "nested", id_columns=(*id_columns, *WEB_COLUMNS, NEARBY_COLUMN),
        max_rows=source.max_nodes,
    )  # fmt: skip
    roots = tree.data if isinstance(tree.data, list) else [tree.data]
    for node, parent, path in _reference_walk(roots, source.max_nodes, source.limits.max_depth):
        get = node.get
        builder.rows.append((
            as_str(get("id")) or path, as_str(get("role")), get("name"), parent,
            box_from_ltrb(get("bbox")), as_str(get("value")), flag_states(node),
            *(as_str(get(k)) or None for k in id_columns),
            *_reference_web(get("attributes"), source.url), join_nearby(get("nearby_text")),
        ))  # fmt: skip
    table = builder.build(
        coord_space=CoordSpace.UNKNOWN, screen_size=source.screen_size, id_keys=XPATH_KEYS
    )
    empty = [k for k in ("xpath", NEARBY_COLUMN) if not any(table.platform_ids[k])]
    if empty:
        columns = {k: v for k, v in table.platform_ids.items() if k not in empty}
        table = replace(table, platform_ids=columns)
    return table


def _assert_same_table(got: CandidateTable, want: CandidateTable) -> None:
    for f in fields(CandidateTable):
        if f.name == "_derived":
            continue
        a, b = getattr(got, f.name), getattr(want, f.name)
        if isinstance(b, np.ndarray):
            assert a.dtype == b.dtype and a.shape == b.shape, f.name
            assert np.array_equal(a, b, equal_nan=a.dtype.kind == "f"), f.name
        elif f.name in ("platform_ids", "diagnostics", "id_keys"):
            assert list(a.items()) == list(b.items()), f.name
        else:
            assert a == b, f.name


def _outcome(make: Any, tree: TreeInput, source: SourceInput) -> Any:
    """The table, or the error's type, message and details."""
    try:
        return make(tree, source)
    except Exception as exc:  # any difference in what is raised counts
        return (type(exc), str(exc), getattr(getattr(exc, "evidence", None), "details", None))


_TEXTS = ("", " ", "Save", "  Two  words ", "x" * 2100, "ROLE_UNKNOWN", "\u00a0é", "0")
_ODD = (None, 0, 1, -3, 2.5, math.nan, math.inf, True, False, 10**400, [], {}, ["a"], {"k": 1})


def _odd(rng: random.Random) -> Any:
    return rng.choice(_ODD)


def _text(rng: random.Random) -> Any:
    return rng.choice(_TEXTS) if rng.random() < 0.8 else _odd(rng)


def _box(rng: random.Random, plain: bool) -> Any:
    left, top = rng.randint(-5, 900), rng.randint(-5, 700)
    box: list[Any] = [left, top, left + rng.randint(0, 90), top + rng.randint(0, 40)]
    if plain or rng.random() < 0.5:
        return box if rng.random() < 0.7 else [float(v) + 0.5 for v in box]
    kind = rng.randrange(10)
    if kind == 0:
        box[rng.randrange(4)] = rng.choice([math.nan, math.inf, -math.inf, 10**400, 2**70])
    elif kind == 1:
        box[rng.randrange(4)] = rng.choice(["12", "1e3", "x", True, None, [1]])
    elif kind == 2:
        return box[: rng.randrange(6)] if rng.random() < 0.5 else [*box, 1]
    elif kind == 3:
        return tuple(box)
    elif kind == 4:
        return dict(zip(("left", "top", "right", "bottom"), box, strict=True))
    elif kind == 5:
        return [box[2], box[3], box[0], box[1]]  # inverted
    elif kind == 6:
        return [None] * 4
    elif kind == 7:
        return rng.choice(["nope", 5, {}, None, np.array(box[:3])])
    elif kind == 8:
        return [np.float64(v) for v in box]
    return [1e308, 1e308, 1e308, 1e308] if rng.random() < 0.5 else box


_FLAGS = (True, False, "true", "False", "yes", "no", "1", "0", 1, 0, 2, None, "x", 1.0)


def _node(rng: random.Random, plain: bool, keys: Sequence[str]) -> dict[str, Any]:
    node: dict[str, Any] = {}
    for key in keys:
        if plain and rng.random() < 0.1:
            continue
        if key == "id":
            node[key] = f"n{rng.randrange(10**6)}" if plain or rng.random() < 0.6 else _text(rng)
        elif key == "role":
            roles = ("button", "link", "text", "group", "textbox", "ROLE_UNKNOWN", "frob")
            node[key] = rng.choice(roles) if plain or rng.random() < 0.8 else _odd(rng)
        elif key == "bbox":
            node[key] = _box(rng, plain)
        elif key in ("enabled", "disabled", "visible", "hidden", "focused"):
            node[key] = rng.choice(_FLAGS)
        elif key == "attributes":
            attrs = {"class": "a b", "href": "/x?sid=1", "title": " T ", "name": 3, "alt": ""}
            picked = {k: v for k, v in attrs.items() if rng.random() < 0.5}
            node[key] = (
                picked if rng.random() < 0.8 else rng.choice(["str", None, [("class", "a")]])
            )
        elif key == "nearby_text":
            texts = [rng.choice(_TEXTS), rng.choice(_TEXTS), 3, "Near\x1fby"]
            node[key] = texts[: rng.randrange(5)] if rng.random() < 0.8 else _odd(rng)
        else:
            node[key] = _text(rng) if not plain else f"{key}{rng.randrange(5)}"
    return node


_OPTIONAL = ("id", "role", "name", "bbox", "value", "enabled", "disabled", "visible", "hidden",
             "focused", "automation_id", "accessibility_id", "tag", "dom_id", "xpath",
             "attributes", "nearby_text")  # fmt: skip


def _random_tree(rng: random.Random) -> Any:
    plain = rng.random() < 0.4
    keys = [k for k in _OPTIONAL if rng.random() < (0.7 if k in ("role", "name") else 0.3)]
    made: list[dict[str, Any]] = []
    wide = rng.random() < 0.4  # long child lists (walked by runs of childless siblings)
    for _ in range(rng.randint(1, 120 if wide else 60)):
        node = _node(rng, plain, keys)
        if made and rng.random() < 0.9:
            near = rng.randrange(max(0, len(made) - 8), len(made))
            up = made[rng.randrange(min(3, len(made))) if wide and rng.random() < 0.8 else near]
            kids = up.setdefault("children", [])
            if isinstance(kids, list):
                if not plain and rng.random() < 0.15:
                    kids.append(rng.choice(["junk", None, 7, ["x"]]))
                kids.append(node)
        made.append(node)
    if not plain:
        for node in rng.sample(made, min(3, len(made))):
            if "children" not in node and rng.random() < 0.5:
                node["children"] = rng.choice(["abc", None, {"a": 1}, (), 5, []])
            elif isinstance(node.get("children"), list) and rng.random() < 0.3:
                node["children"] = tuple(node["children"])
    attached = {id(k) for m in made if isinstance(m.get("children"), (list, tuple))
                for k in m["children"]}  # fmt: skip
    roots: Any = [n for n in made if id(n) not in attached]
    if rng.random() < 0.2:
        roots.insert(rng.randrange(len(roots) + 1), rng.choice(["junk", None, 3]))
    return roots if len(roots) > 1 or rng.random() < 0.3 else roots[0]


def _proxied(tree: Any) -> Any:
    """The tree with its dicts behind read-only mapping proxies (mappings that are not dicts)."""
    if isinstance(tree, dict):
        kids = tree.get("children")
        out = dict(tree)
        if isinstance(kids, list):
            out["children"] = [_proxied(k) for k in kids]
        return MappingProxyType(out)
    return [_proxied(t) for t in tree] if isinstance(tree, list) else tree


def _compare(data: Any, source: SourceInput) -> None:
    tree = TreeInput("json", data)
    got, want = _outcome(build, tree, source), _outcome(_reference_build, tree, source)
    if isinstance(want, CandidateTable):
        assert isinstance(got, CandidateTable), got
        _assert_same_table(got, want)
    else:
        assert got == want


@pytest.mark.parametrize("seed", range(40))
def test_build_reads_random_trees_as_the_per_node_reference(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(12):
        data = _random_tree(rng)
        url = rng.choice([None, "https://shop.example/a/b"])
        _compare(data, SourceInput(raw=None, url=url, screen_size=(1280.0, 800.0)))
        if rng.random() < 0.3:
            _compare(_proxied(data), SourceInput(raw=None, url=url))
        # tight limits: refused (with the same words) or not alike
        nodes, depth = rng.randint(1, 40), rng.randint(1, 8)
        tight = SourceInput(raw=None, max_nodes=nodes, limits=Limits(max_depth=depth))
        _compare(data, tight)


def _lines(rng: random.Random, size: int) -> dict[str, Any]:
    root: dict[str, Any] = {"role": "group", "name": "root", "children": []}
    made = [root]
    for i in range(1, size):
        kid = {"role": rng.choice(["button", "link"]), "name": f"n{i}", "children": [],
               "bbox": [i, i, i + 20, i + 10]}  # fmt: skip
        made[max(0, i - rng.randint(1, 5))]["children"].append(kid)
        made.append(kid)
    return root


def test_build_refuses_broken_trees_as_the_reference() -> None:
    rng = random.Random(7)
    cyclic = _lines(rng, 30)
    cyclic["children"][0]["children"].append(cyclic)
    shared = _lines(rng, 30)
    shared["children"].append(shared["children"][0])
    deep_share = _lines(rng, 30)
    deep_share["children"].append({"role": "group", "children": [deep_share["children"][0]]})
    self_loop: dict[str, Any] = {"role": "group"}
    self_loop["children"] = ["x", self_loop]
    wide = {"role": "group", "children": [{"role": "button"}] * 3 + ["x"] * 50}
    for data in (cyclic, shared, deep_share, self_loop, wide, [shared, shared], _chain(60)):
        for nodes, depth in ((500_000, 4096), (40, 4096), (10, 5), (4, 50), (2, 1), (1, 1)):
            _compare(data, SourceInput(raw=None, max_nodes=nodes, limits=Limits(max_depth=depth)))
    _compare(_chain(5000), SourceInput(raw=None))


def test_boxes_from_ltrb_reads_each_box_as_box_from_ltrb() -> None:
    rng = random.Random(3)
    for _ in range(300):
        plain = rng.random() < 0.5
        values = [
            None if rng.random() < 0.2 else _box(rng, plain) for _ in range(rng.randint(0, 9))
        ]
        got, want = boxes_from_ltrb(values), [box_from_ltrb(v) for v in values]
        assert len(got) == len(want)
        for a, b in zip(got, want, strict=True):
            assert (a is None) == (b is None)
            if a is not None:  # the same box, as a table builder reads it
                assert np.array_equal(np.asarray(a, dtype=np.float64), b, equal_nan=True)
                assert any(a is v for v in values) or all(type(v) is float for v in a)


def test_ltrb_array_reads_plain_boxes_as_the_table_reads_them_one_by_one() -> None:
    rng = random.Random(5)
    arrays = 0
    for _ in range(400):
        plain = rng.random() < 0.6
        values = [
            None if rng.random() < 0.2 else _box(rng, plain) for _ in range(rng.randint(0, 9))
        ]
        got = ltrb_array(values)
        one_by_one = boxes_from_ltrb(values)
        notes: dict[str, int] = {}
        want = _box_array(one_by_one, notes)
        if got is None:
            continue
        arrays += 1
        mine: dict[str, int] = {}
        assert np.array_equal(_box_array(got, mine), want, equal_nan=True)
        assert mine == notes  # inverted boxes counted alike; nothing else to repair
    assert arrays > 100


def test_a_tree_of_plain_boxes_builds_the_table_of_boxes_read_one_by_one() -> None:
    rng = random.Random(6)
    kids = [{"role": "button", "name": f"b{i}", "bbox": _box(rng, True)} for i in range(300)] + [
        {"role": "text", "name": "no box"},
        {"role": "link", "name": "l", "bbox": (1, 2, 0, 0)},
    ]
    tree = {"id": "r", "role": "window", "name": "w", "children": kids}
    table = Observation(accessibility_tree=tree).candidates("a11y")
    want = _box_array([None, *boxes_from_ltrb([k.get("bbox") for k in kids])])
    assert np.array_equal(table.bboxes, want, equal_nan=True)
    assert table.diagnostics.get("box_inverted") == 1
