"""Hostile inputs refused at the limits: the time and memory a refusal costs.

Usage (from the repository root)::

    python -m benchmarks.limits [--root CHECKOUT] [--cases wide deep doc-comb ...] [--timeout 120]

Each case runs in its own Python process (so one case's memory is not another's): the input
is built first, then the call is timed and the growth of the process's peak resident memory
over the call is read from ``getrusage``. A command-line case times the whole ``python -m
resolver`` process and reports its peak memory. ``--root`` runs the cases against another
checkout of the package (an older commit, for a before/after table); a case that does not
finish within ``--timeout`` seconds or passes 6 GiB is reported as such.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_PRELUDE = """
import json, resource, sys, time
def peak():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
def chain(depth, key="children"):
    root = {"role": "group", "name": "g0"}
    node = root
    for i in range(1, depth):
        kid = {"role": "group", "name": f"g{i}"}
        node[key] = [kid]
        node = kid
    return root
def run(call):
    before = peak()
    start = time.perf_counter()
    try:
        call()
        outcome = "answered"
    except BaseException as exc:
        outcome = type(exc).__name__ + ": " + str(exc)[:160]
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "grew_mb": peak() - before, "outcome": outcome}))
"""

_LINKED = """
from resolver import Observation, SemanticElementRef, resolve
tree = {"nodes": [
    {"nodeId": "1", "role": {"value": "RootWebArea"}, "childIds": ["2"], "backendDOMNodeId": 1},
    {"nodeId": "2", "parentId": "1", "role": {"value": "button"}, "name": {"value": "OK"},
     "backendDOMNodeId": 5}]}
html = {"nodeType": 1, "localName": "html", "backendNodeId": 1, "children": []}
def linked(root):
    document = {"root": {"nodeType": 9, "children": [root]}}
    obs = Observation(accessibility_tree=tree, dom_node_map=document)
    resolve(SemanticElementRef(role="button", name="OK"), obs, sources=("a11y",))
"""
"""A CDP tree whose page is given as a ``DOM.getDocument`` result (the cases build ``html``)."""

_API_CASES: dict[str, tuple[str, str]] = {
    "wide": (
        "a dict tree of 2,000,001 nodes (one root, 2M children)",
        """
from resolver import Observation
tree = {"role": "list", "children": [{"role": "button", "name": f"b{i}"} for i in range(2_000_000)]}
run(lambda: Observation(accessibility_tree=tree).candidates("a11y"))
""",
    ),
    "deep": (
        "a dict tree 200,000 levels deep",
        """
from resolver import Observation
tree = chain(200_000)
run(lambda: Observation(accessibility_tree=tree).candidates("a11y"))
""",
    ),
    "cdp-deep": (
        "a CDP AX node list 200,000 levels deep",
        """
from resolver import Observation
n = 200_000
nodes = [{"nodeId": str(i), "role": {"type": "role", "value": "group"},
          "childIds": [str(i + 1)] if i + 1 < n else []} for i in range(n)]
run(lambda: Observation(accessibility_tree={"nodes": nodes}).candidates("a11y"))
""",
    ),
    "build": (
        "a legal 200,000-node dict tree (depth <= 40): median of 5 table builds (the cost of "
        "the limits to a tree they admit)",
        """
import random, statistics
from resolver import Observation
rng = random.Random(1)
nodes = [{"role": "group", "name": "root", "children": []}]
depth, parent = [0], [0]
for i in range(1, 200_000):
    j = max(0, i - rng.randint(1, 30))
    while depth[j] >= 40:
        j = parent[j]
    kid = {"role": rng.choice(["button", "link", "text", "group"]), "name": f"n{i}",
           "children": [], "bbox": [i % 1000, i % 700, i % 1000 + 20, i % 700 + 10]}
    nodes[j]["children"].append(kid)
    nodes.append(kid)
    depth.append(depth[j] + 1)
    parent.append(j)
times = []
for _ in range(5):
    start = time.perf_counter()
    Observation(accessibility_tree=nodes[0]).candidates("a11y")
    times.append(time.perf_counter() - start)
print(json.dumps({"seconds": statistics.median(times), "outcome": "built"}))
""",
    ),
    "doc-cycle": (
        "a CDP tree linked by a DOM.getDocument result in which a node is its own descendant",
        _LINKED
        + """
html["children"] = [{"nodeType": 1, "localName": "body", "backendNodeId": 2,
                     "children": [html]}]
run(lambda: linked(html))
""",
    ),
    "doc-comb": (
        "a CDP tree linked by a DOM.getDocument result 4,000 levels deep with 25 spans a level "
        "(100,001 elements)",
        _LINKED
        + """
node, b = html, 10
for d in range(4000):
    kids = [{"nodeType": 1, "localName": "span", "backendNodeId": b + i} for i in range(25)]
    b += 26
    child = {"nodeType": 1, "localName": "div", "backendNodeId": b - 1, "children": []}
    node["children"] = [*kids, child]
    node = child
run(lambda: linked(html))
""",
    ),
    "osworld-wide": (
        "an OSWorld table (tab-separated text, 400 KB) whose header has 200,000 columns, with "
        "100,000 one-cell rows",
        """
from resolver import Observation
head = "tag\\tname\\ttext\\tclass\\tdescription\\tposition (top-left x&y)\\tsize (w&h)"
text = head + "\\t" * 200_000 + "\\n" + "label\\n" * 100_000
run(lambda: Observation(accessibility_tree=text).candidates("a11y"))
""",
    ),
    "ref-name": (
        "a reference whose name is 50,000,000 characters, resolved; the message's length",
        """
from resolver import Observation, SemanticElementRef, resolve
tree = {"role": "button", "name": "OK", "bbox": [0, 0, 10, 10]}
def call():
    try:
        resolve(SemanticElementRef(role="button", name="a" * 50_000_000), Observation(tree))
    except Exception as exc:
        raise type(exc)(f"str(error) has {len(str(exc)):,} characters") from None
run(call)
""",
    ),
}

_CLI_CASES: dict[str, str] = {
    "cli-wide": "resolver resolve --tree of a 2,000,001-node JSON file (the whole process)",
    "cli-ref-name": "resolver resolve --json, a reference whose name is 50 MB (the whole process)",
    "cli-ref-name-table": "resolver resolve (a table), a reference whose name is 10 MB",
}


def _python(root: Path) -> list[str]:
    return [sys.executable, "-c"]


def _env(root: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(root)
    return env


def _limit_memory() -> None:
    import resource

    cap = 6 * 2**30
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def _run_api(case: str, root: Path, timeout: float) -> dict[str, object]:
    code = _PRELUDE + textwrap.dedent(_API_CASES[case][1])
    try:
        done = subprocess.run(
            [*_python(root), code], capture_output=True, text=True, timeout=timeout,
            env=_env(root), cwd=root, preexec_fn=_limit_memory,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"outcome": f"no answer within {timeout:.0f} s"}
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return {"outcome": f"process ended with {done.returncode}: {done.stderr[-200:]!r}"}
    result: dict[str, object] = json.loads(lines[-1])
    return result


def _cli_inputs(case: str, folder: Path) -> list[str]:
    tree = folder / "tree.json"
    ref = folder / "ref.json"
    if case == "cli-wide":
        kids = [{"role": "button", "name": f"b{i}"} for i in range(2_000_000)]
        tree.write_text(json.dumps({"role": "list", "children": kids}))
        ref.write_text(json.dumps({"role": "button", "name": "b7"}))
        return ["resolve", "--ref", str(ref), "--tree", str(tree)]
    tree.write_text(json.dumps({"role": "button", "name": "OK", "bbox": [0, 0, 10, 10]}))
    if case == "cli-ref-name-table":
        ref.write_text(json.dumps({"role": "button", "name": "a" * 10_000_000}))
        return ["resolve", "--ref", str(ref), "--tree", str(tree)]
    ref.write_text(json.dumps({"role": "button", "name": "a" * 50_000_000}))
    return ["resolve", "--ref", str(ref), "--tree", str(tree), "--json"]


def _run_cli(case: str, root: Path, timeout: float) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        args = _cli_inputs(case, Path(tmp))
        wrapper = (
            "import resource, runpy, sys, time\n"
            "start = time.perf_counter()\n"
            f"sys.argv = ['resolver', *{args!r}]\n"
            "code = 0\n"
            "try:\n    runpy.run_module('resolver', run_name='__main__')\n"
            "except SystemExit as exit:\n    code = exit.code\n"
            "sys.stdout.flush()\n"
            "print('\\nBENCH', time.perf_counter() - start, "
            "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, code, file=sys.stderr)\n"
        )
        try:
            done = subprocess.run(
                [*_python(root), wrapper], capture_output=True, timeout=timeout,
                env=_env(root), cwd=root, preexec_fn=_limit_memory,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            return {"outcome": f"no answer within {timeout:.0f} s"}
    marks = [line for line in done.stderr.decode(errors="replace").splitlines() if "BENCH" in line]
    if not marks:
        return {"outcome": f"process ended with {done.returncode}"}
    _, seconds, peak_mb, code = marks[-1].split()
    return {
        "seconds": float(seconds),
        "peak_mb": float(peak_mb),
        "outcome": f"exit {code}",
        "stdout_bytes": len(done.stdout),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure")
    parser.add_argument("--cases", nargs="*", default=[*_API_CASES, *_CLI_CASES])
    parser.add_argument("--repeat", type=int, default=1, help="runs of each case")
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args(argv)
    root = args.root.resolve()
    print(f"checkout: {root}")
    for case in args.cases:
        for _ in range(args.repeat):
            if case in _API_CASES:
                what, result = _API_CASES[case][0], _run_api(case, root, args.timeout)
            else:
                what, result = _CLI_CASES[case], _run_cli(case, root, args.timeout)
            print(f"{case:13} {what}")
            print(f"{'':13} {json.dumps(result)}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
