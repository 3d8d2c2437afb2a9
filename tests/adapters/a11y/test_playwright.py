import math
import random
from dataclasses import fields
from types import MappingProxyType
from typing import Any

import numpy as np
import pytest

from resolver import InvalidObservationError, Limits, Observation
from resolver.adapters._common import as_str, tri, tri_not
from resolver.adapters.a11y import SourceInput, TreeInput
from resolver.adapters.a11y._walk import walk_nested
from resolver.adapters.a11y.playwright import build
from resolver.geometry import CoordSpace
from resolver.table import CandidateTable, TableBuilder

SNAPSHOT = {
    "role": "WebArea",
    "name": "Form",
    "children": [
        {"role": "textbox", "name": "Email", "value": "a@b.c", "focused": True},
        {"role": "checkbox", "name": "Remember", "checked": False, "disabled": True},
        {"role": "button", "name": "Sign in"},
    ],
}


def test_playwright_snapshot() -> None:
    t = Observation(accessibility_tree=SNAPSHOT).candidates("a11y")
    assert t.format == "playwright"
    assert t.coord_space == "none"
    assert t.ids == ("0", "0.0", "0.1", "0.2")
    assert t.roles == ("document", "textbox", "checkbox", "button")
    assert t.values[1] == "a@b.c"
    assert list(t.enabled) == [-1, -1, 0, -1]
    assert list(t.focused) == [-1, 1, -1, -1]


# -- the build against a plain reference: the per-node reading it replaced ---------------------


def _reference_build(tree: TreeInput, source: SourceInput) -> CandidateTable:
    """Every field of every node read with its own ``get``, one row at a time."""
    builder = TableBuilder("a11y", "playwright", platform="cdp", max_rows=source.max_nodes)
    for node, parent, path in walk_nested(
        [tree.data], max_nodes=source.max_nodes, max_depth=source.limits.max_depth
    ):
        get = node.get
        states = (tri_not(get("disabled")), -1, tri(get("focused")))
        builder.rows.append(
            (path, as_str(get("role")), get("name"), parent, None, as_str(get("value")), states)
        )
    return builder.build(coord_space=CoordSpace.NONE, screen_size=source.screen_size)


def _outcome(make: Any, tree: TreeInput, source: SourceInput) -> Any:
    """The table's fields, or the error's type and message."""
    try:
        table = make(tree, source)
    except Exception as exc:  # any difference in what is raised counts
        return (type(exc), str(exc))
    out = {}
    for f in fields(CandidateTable):
        if f.name != "_derived":
            value = getattr(table, f.name)
            out[f.name] = (
                (value.dtype, value.shape, value.tobytes())
                if isinstance(value, np.ndarray)
                else value
            )
    out["diagnostics"] = list(table.diagnostics.items())
    return out


_ODD = (None, 0, 1, 2.5, math.nan, math.inf, True, False, 10**400, [], {}, ["a"], "x" * 2100)
_FLAGS = (True, False, "true", "False", "yes", "no", "1", "0", 1, 0, 2, None, "x", 1.0)
_ROLES = ("WebArea", "button", "link", "text", "textbox", "ROLE_UNKNOWN", "frob", "")


def _node(rng: random.Random, keys: list[str]) -> dict[str, Any]:
    node: dict[str, Any] = {}
    for key in keys:
        if rng.random() < 0.3:
            continue
        if key in ("disabled", "focused"):
            node[key] = rng.choice(_FLAGS)
        elif key == "role":
            node[key] = rng.choice(_ROLES) if rng.random() < 0.8 else rng.choice(_ODD)
        else:
            node[key] = f"{key} {rng.randrange(9)}" if rng.random() < 0.7 else rng.choice(_ODD)
    return node


def _random_snapshot(rng: random.Random) -> dict[str, Any]:
    keys = [k for k in ("name", "value", "disabled", "focused") if rng.random() < 0.5]
    root: dict[str, Any] = {"role": "WebArea", "name": "Page"}
    made = [root]
    for _ in range(rng.randint(0, 80)):
        node = _node(rng, ["role", *keys])
        up = made[rng.randrange(max(0, len(made) - 6), len(made))]
        kids = up.setdefault("children", [])
        if rng.random() < 0.05:
            kids.append(rng.choice(["junk", None, 7]))
        kids.append(node)
        made.append(node)
    if rng.random() < 0.1:
        rng.choice(made)["children"] = rng.choice(["abc", None, (), 5])
    return root


def _proxied(tree: Any) -> Any:
    """The tree with its dicts behind read-only mapping proxies (mappings that are not dicts)."""
    if isinstance(tree, dict):
        out = dict(tree)
        if isinstance(tree.get("children"), list):
            out["children"] = [_proxied(k) for k in tree["children"]]
        return MappingProxyType(out)
    return tree


@pytest.mark.parametrize("seed", range(30))
def test_build_reads_random_snapshots_as_the_per_node_reference(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(10):
        data = _random_snapshot(rng)
        plain, tight = (
            SourceInput(raw=None),
            SourceInput(
                raw=None, max_nodes=rng.randint(1, 40), limits=Limits(max_depth=rng.randint(1, 8))
            ),
        )
        for tree, source in [(data, plain), (_proxied(data), plain), (data, tight)]:
            got = _outcome(build, TreeInput("json", tree), source)
            assert got == _outcome(_reference_build, TreeInput("json", tree), source)


def test_a_shared_node_is_refused_as_by_the_reference() -> None:
    kid = {"role": "button", "name": "OK"}
    data = {
        "role": "WebArea",
        "name": "Page",
        "children": [kid, {"role": "group", "children": [kid]}],
    }
    got = _outcome(build, TreeInput("json", data), SourceInput(raw=None))
    assert isinstance(got, tuple) and got[0] is InvalidObservationError
    assert got == _outcome(_reference_build, TreeInput("json", data), SourceInput(raw=None))


class _Answering(dict[str, Any]):
    """A mapping that answers for a key it does not list."""

    def __contains__(self, key: object) -> bool:
        return key == "bbox" or super().__contains__(key)


@pytest.mark.parametrize(
    "key", ["id", "bbox", "nodeId", "node_id", "AXRole", "ControlType", "class"]
)
def test_a_tree_with_an_id_or_a_box_below_its_root_is_no_snapshot(key: str) -> None:
    from resolver.adapters.a11y.playwright import detect

    leaves: list[Any] = [{"role": "link", "name": f"l{i}"} for i in range(30)]
    tree = {"role": "WebArea", "name": "", "children": [{"role": "list", "children": leaves}]}
    assert detect(TreeInput("json", tree))
    leaves[17] = {**leaves[17], key: "x"}
    assert not detect(TreeInput("json", tree))
    leaves[17] = MappingProxyType({"role": "link", "name": "l17"})  # a mapping, not a dict
    assert detect(TreeInput("json", tree))
    leaves[17] = _Answering(role="link", name="l17")
    assert not detect(TreeInput("json", tree))
