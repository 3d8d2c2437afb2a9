"""Table build time per a11y format on a generated 10k-node tree, against the CDP adapter.

Run: ``python -m pytest benchmarks/bench_formats.py --benchmark-only -q``
(add ``--benchmark-columns=median,min,rounds`` for a short table).

Each format gets the same logical tree (10,000 nodes: nested groups of buttons, text fields,
labels and links with names and boxes), written in that format's own shape. Parsing (JSON,
XML) happens once outside the timed call, as an observation does it once; the timed call is
the adapter's ``build``. ``test_within_twice_cdp`` checks the target: every format within 2x
of CDP's median on the same tree.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from typing import Any

import pytest
from lxml import etree

from resolver.adapters.a11y import FORMATS, SourceInput, TreeInput, parse_input

N = 10_000
FANOUT = 8
KINDS = ("group", "button", "textbox", "label", "link", "checkbox", "tab", "text")

# (index, parent index, kind, name, box l,t,r,b) in pre-order
Node = tuple[int, int, str, str, tuple[int, int, int, int]]


def logical_tree(n: int = N) -> list[Node]:
    """A pre-order tree of ``n`` nodes: every group holds up to FANOUT children."""
    nodes: list[Node] = [(0, -1, "group", "Window", (0, 0, 1920, 1080))]
    open_groups = [0]
    while len(nodes) < n:
        parent = open_groups[0]
        i = len(nodes)
        kind = "group" if i % 5 == 0 else KINDS[1 + i % (len(KINDS) - 1)]
        x, y = (i * 37) % 1800, (i * 53) % 1000
        nodes.append((i, parent, kind, f"{kind.title()} {i}", (x, y, x + 80, y + 24)))
        if kind == "group":
            open_groups.append(i)
        if sum(1 for node in nodes[-FANOUT:] if node[1] == parent) >= FANOUT:
            open_groups.pop(0)
    # pre-order: sort children under parents
    kids: dict[int, list[Node]] = {}
    for node in nodes[1:]:
        kids.setdefault(node[1], []).append(node)
    ordered: list[Node] = []
    stack = [nodes[0]]
    while stack:
        node = stack.pop()
        ordered.append(node)
        stack.extend(reversed(kids.get(node[0], [])))
    return ordered


def _children(tree: list[Node]) -> dict[int, list[Node]]:
    kids: dict[int, list[Node]] = {}
    for node in tree[1:]:
        kids.setdefault(node[1], []).append(node)
    return kids


def _nest(tree: list[Node], make: Callable[[Node], dict[str, Any]], key: str) -> dict[str, Any]:
    made = {node[0]: make(node) for node in tree}
    for node in tree[1:]:
        made[node[1]].setdefault(key, []).append(made[node[0]])
    return made[tree[0][0]]


CDP_ROLES = {"group": "group", "button": "button", "textbox": "textbox",
             "label": "LabelText", "link": "link", "checkbox": "checkbox", "tab": "tab",
             "text": "StaticText"}  # fmt: skip
UIA_TYPES = {"group": "GroupControl", "button": "ButtonControl", "textbox": "EditControl",
             "label": "TextControl", "link": "HyperlinkControl", "checkbox": "CheckBoxControl",
             "tab": "TabItemControl", "text": "TextControl"}  # fmt: skip
AX_ROLES = {"group": "AXGroup", "button": "AXButton", "textbox": "AXTextField",
            "label": "AXStaticText", "link": "AXLink", "checkbox": "AXCheckBox",
            "tab": "AXRadioButton", "text": "AXStaticText"}  # fmt: skip
ATSPI_TAGS = {"group": "panel", "button": "push-button", "textbox": "text",
              "label": "label", "link": "link", "checkbox": "check-box", "tab": "page-tab",
              "text": "label"}  # fmt: skip
ANDROID = {"group": "android.widget.LinearLayout", "button": "android.widget.Button",
           "textbox": "android.widget.EditText", "label": "android.widget.TextView",
           "link": "android.widget.TextView", "checkbox": "android.widget.CheckBox",
           "tab": "com.google.android.material.tabs.TabLayout$TabView",
           "text": "android.widget.TextView"}  # fmt: skip


def cdp(tree: list[Node]) -> Any:
    kids = _children(tree)
    return {"nodes": [
        {"nodeId": str(i), "ignored": False, "role": {"type": "role", "value": CDP_ROLES[k]},
         "name": {"type": "computedString", "value": name}, "backendDOMNodeId": i + 1,
         "childIds": [str(c[0]) for c in kids.get(i, [])], "bbox": list(box),
         **({"parentId": str(p)} if p >= 0 else {})}
        for i, p, k, name, box in tree
    ]}  # fmt: skip


def uia(tree: list[Node]) -> Any:
    def make(node: Node) -> dict[str, Any]:
        i, _, kind, name, (left, top, right, bottom) = node
        return {"Name": name, "ControlTypeName": UIA_TYPES[kind], "AutomationId": f"id{i}",
                "BoundingRectangle": {"left": left, "top": top, "right": right,
                                      "bottom": bottom},
                "IsEnabled": True, "RuntimeId": [42, i]}  # fmt: skip

    return _nest(tree, make, "Children")


def ax(tree: list[Node]) -> Any:
    def make(node: Node) -> dict[str, Any]:
        i, _, kind, name, (left, top, right, bottom) = node
        return {"AXRole": AX_ROLES[kind], "AXTitle": name, "AXIdentifier": f"id{i}",
                "AXEnabled": True, "AXFrame": {"x": left, "y": top, "w": right - left,
                                               "h": bottom - top}}  # fmt: skip

    return _nest(tree, make, "AXChildren")


def atspi(tree: list[Node]) -> Any:
    ns = "https://accessibility.ubuntu.example.org/ns/"
    nsmap = {"st": ns + "state", "cp": ns + "component", "attr": ns + "attributes"}
    root = etree.Element("desktop-frame", nsmap=nsmap)
    made: dict[int, Any] = {-1: root}
    for i, p, kind, name, (left, top, right, bottom) in tree:
        element = etree.SubElement(made[p], ATSPI_TAGS[kind], name=name)
        for state in ("enabled", "sensitive", "showing", "visible"):
            element.set(f"{{{nsmap['st']}}}{state}", "true")
        element.set(f"{{{nsmap['attr']}}}toolkit", "gtk")
        element.set(f"{{{nsmap['cp']}}}screencoord", f"({left}, {top})")
        element.set(f"{{{nsmap['cp']}}}size", f"({right - left}, {bottom - top})")
        made[i] = element
    return etree.tostring(root)


def uiautomator(tree: list[Node]) -> Any:
    root = etree.Element("hierarchy", rotation="0")
    made: dict[int, Any] = {-1: root}
    for i, p, kind, name, (left, top, right, bottom) in tree:
        text = "" if kind == "group" else name
        made[i] = etree.SubElement(made[p], "node", {
            "index": "0", "text": text, "resource-id": f"app:id/v{i}", "class": ANDROID[kind],
            "package": "app", "content-desc": "", "checkable": str(kind == "checkbox").lower(),
            "checked": "false", "clickable": str(kind in ("button", "tab")).lower(),
            "enabled": "true", "focusable": "false", "focused": "false", "scrollable": "false",
            "long-clickable": "false", "password": "false", "selected": "false",
            "bounds": f"[{left},{top}][{right},{bottom}]"})  # fmt: skip
    return etree.tostring(root)


def droidbot(tree: list[Node]) -> Any:
    kids = _children(tree)
    return {"views": [
        {"temp_id": i, "parent": p, "children": [c[0] for c in kids.get(i, [])],
         "class": ANDROID[kind], "text": None if kind == "group" else name,
         "resource_id": f"app:id/v{i}", "content_description": None, "enabled": True,
         "visible": True, "clickable": kind in ("button", "tab"),
         "checkable": kind == "checkbox", "bounds": [[box[0], box[1]], [box[2], box[3]]]}
        for i, p, kind, name, box in tree
    ]}  # fmt: skip


def _depths(tree: list[Node]) -> dict[int, int]:
    depth = {-1: -1}
    for i, p, *_ in tree:
        depth[i] = depth[p] + 1
    return depth


def webarena(tree: list[Node]) -> Any:
    depth = _depths(tree)
    lines = [f"{chr(9) * depth[i]}[{i}] {CDP_ROLES[k]} {name!r}" for i, _, k, name, _ in tree]
    info = {str(i): {"backend_id": i, "union_bound": [b[0], b[1], b[2] - b[0], b[3] - b[1]]}
            for i, *_, b in tree}  # fmt: skip
    return {"text": "\n".join(lines), "obs_nodes_info": info}


def browsergym(tree: list[Node]) -> Any:
    data = cdp(tree)
    for node in data["nodes"]:
        node["browsergym_id"] = node["nodeId"]
    extra = {str(i): {"visibility": 1.0, "bbox": [b[0], b[1], b[2] - b[0], b[3] - b[1]]}
             for i, *_, b in tree}  # fmt: skip
    return {"axtree_object": data, "extra_element_properties": extra}


def aria_snapshot(tree: list[Node]) -> Any:
    depth = _depths(tree)
    lines = [f'{"  " * depth[i]}- {CDP_ROLES[k].lower()} "{name}" [ref=e{i}]'
             + (":" if k == "group" else "") for i, _, k, name, _ in tree]  # fmt: skip
    return "\n".join(lines)


def pywinauto(tree: list[Node]) -> Any:
    depth = _depths(tree)
    lines = ["Control Identifiers:", ""]
    for i, _, kind, name, (left, top, right, bottom) in tree:
        pad = "   | " * depth[i]
        control = UIA_TYPES[kind].removesuffix("Control")
        lines.append(f"{pad}{control} - '{name}'    (L{left}, T{top}, R{right}, B{bottom})")
        lines.append(f"{pad}['{name}', '{control}']")
        lines.append(
            f'{pad}child_window(title="{name}", auto_id="id{i}", control_type="{control}")'
        )
    return "\n".join(lines)


def osworld_table(tree: list[Node]) -> Any:
    rows = ["tag\tname\ttext\tclass\tdescription\tposition (top-left x&y)\tsize (w&h)"]
    for _, _, kind, name, (left, top, right, bottom) in tree:
        rows.append(f'{ATSPI_TAGS[kind]}\t{name}\t""\t\t\t({left}, {top})\t'
                    f"({right - left}, {bottom - top})")  # fmt: skip
    return "\n".join(rows)


GENERATORS: dict[str, Callable[[list[Node]], Any]] = {
    "cdp": cdp, "uia": uia, "pywinauto": pywinauto, "ax": ax, "atspi": atspi,
    "osworld_table": osworld_table, "uiautomator": uiautomator, "droidbot": droidbot,
    "webarena": webarena, "browsergym": browsergym, "aria_snapshot": aria_snapshot,
}  # fmt: skip
BY_NAME = {fmt.name: fmt for fmt in FORMATS}
SOURCE = SourceInput(raw=None, max_nodes=1_000_000)  # builds get the parsed tree beside it


@pytest.fixture(scope="module")
def inputs() -> dict[str, TreeInput]:
    tree = logical_tree()
    out = {}
    for name, make in GENERATORS.items():
        raw = make(tree)
        if isinstance(raw, (dict, list)):
            raw = json.dumps(raw)  # parsed the way an observation parses it
        out[name] = parse_input(raw)
    return out


@pytest.mark.parametrize("name", list(GENERATORS))
def test_build(benchmark: Any, inputs: dict[str, TreeInput], name: str) -> None:
    benchmark.group = "a11y table build, 10k nodes"
    table = benchmark(BY_NAME[name].build, inputs[name], SOURCE)
    assert table.format == name and len(table) >= N * 0.99


def _median(func: Callable[[], Any], rounds: int = 7) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def test_within_twice_cdp(inputs: dict[str, TreeInput]) -> None:
    baseline = _median(lambda: BY_NAME["cdp"].build(inputs["cdp"], SOURCE))
    ratios = {
        name: _median(lambda name=name: BY_NAME[name].build(inputs[name], SOURCE)) / baseline
        for name in GENERATORS
    }
    print({k: round(v, 2) for k, v in ratios.items()}, f"cdp median {baseline * 1000:.1f} ms")
    assert all(ratio <= 2.0 for ratio in ratios.values()), ratios
