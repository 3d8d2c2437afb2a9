"""Agreement of the DOM adapter with Chromium: XPaths, roles and names per element.

Input: capture folders written by ``fixtures/capture.py`` (``dom.html`` + ``chromium_dom.json``
per page). For every element Chromium records, the element at the same XPath in the DOM
adapter's parse of ``dom.html`` is compared:

- **xpath**: the XPath exists in our tree with the same tag (the parse built the same tree);
- **role**, **name**: over elements Chromium exposes (not ignored) with a role that is not
  ``generic``/``none``/static text/line break, our canonical role equals Chromium's (mapped
  through :func:`resolver.roles.canonical_role`) and our name equals Chromium's after
  whitespace collapsing.

Disagreements are grouped by cause. Usage::

    python -m benchmarks.dom.agreement fixtures/captured            # project fixtures
    python -m benchmarks.dom.agreement /tmp/readability-capture      # corpus capture
    python -m benchmarks.dom.agreement DIR --examples 5 --json out.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from resolver.adapters.dom import analyze
from resolver.roles import canonical_role
from resolver.text import collapse, normalize

_SKIP_ROLES = frozenset({"generic", "none", "unknown", "text"})


def _name_cause(ours: str, theirs: str) -> str:
    if not ours:
        return "name: ours empty"
    if not theirs:
        return "name: chromium empty"
    if normalize(ours) == normalize(theirs):
        return "name: case/punctuation/unicode only"
    if theirs in ours:
        return "name: ours has extra text"
    if ours in theirs:
        return "name: chromium has extra text"
    return "name: different text"


def compare_page(folder: Path) -> dict[str, Any]:
    """Counts and disagreements for one captured page."""
    html = (folder / "dom.html").read_bytes()
    records = json.loads((folder / "chromium_dom.json").read_text(encoding="utf-8"))
    meta_path = folder / "meta.json"
    viewport = (1280.0, 800.0)
    if meta_path.is_file():
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if isinstance(meta.get("viewport"), list) and len(meta["viewport"]) == 2:
            viewport = (float(meta["viewport"][0]), float(meta["viewport"][1]))
    analysis = analyze(html, viewport)
    index = {path: e for e, path in enumerate(analysis.paths.layout)}
    out: dict[str, Any] = {
        "page": folder.name, "elements": len(records), "xpath_ok": 0, "exposed": 0,
        "role_ok": 0, "name_ok": 0, "causes": Counter(), "examples": [],
    }  # fmt: skip
    for record in records:
        e = index.get(record["xpath"])
        if e is not None and analysis.doc.tags[e].lower() == str(record["tag"]).lower():
            out["xpath_ok"] += 1
        else:
            e = None
        role_raw = record.get("role")
        if record.get("ignored") or not role_raw or record.get("tag") == "br":
            continue
        theirs_role = canonical_role(role_raw, "cdp")
        if theirs_role in _SKIP_ROLES:
            continue
        out["exposed"] += 1
        theirs_name = collapse(record.get("name") or "")
        if e is None:
            out["causes"]["xpath: element not found"] += 1
            continue
        ours_role = analysis.roles[e]
        if not analysis.states.rendered[e]:
            cause = "hidden: not rendered by our styles"
            out["causes"][cause] += 1
            out["examples"].append((cause, record["xpath"], role_raw, ours_role, theirs_name, ""))
            continue
        ours_name = analysis.name(e)
        if ours_role == theirs_role:
            out["role_ok"] += 1
        else:
            cause = f"role: chromium {theirs_role} ({role_raw}) / ours {ours_role}"
            out["causes"][cause] += 1
            out["examples"].append(
                (cause, record["xpath"], role_raw, ours_role, theirs_name, ours_name)
            )
        if ours_name == theirs_name:
            out["name_ok"] += 1
        else:
            cause = _name_cause(ours_name, theirs_name)
            out["causes"][cause] += 1
            out["examples"].append(
                (cause, record["xpath"], role_raw, ours_role, theirs_name, ours_name)
            )
    return out


def run(root: Path) -> dict[str, Any]:
    """All page folders under ``root`` that have both files."""
    pages = sorted(
        p.parent for p in root.glob("*/chromium_dom.json") if (p.parent / "dom.html").is_file()
    )
    totals: dict[str, Any] = {"pages": 0, "elements": 0, "xpath_ok": 0, "exposed": 0,
                              "role_ok": 0, "name_ok": 0, "causes": Counter(),
                              "examples": []}  # fmt: skip
    failures: list[str] = []
    for page in pages:
        try:
            result = compare_page(page)
        except Exception as exc:
            failures.append(f"{page.name}: {type(exc).__name__}: {exc}")
            continue
        totals["pages"] += 1
        for key in ("elements", "xpath_ok", "exposed", "role_ok", "name_ok"):
            totals[key] += result[key]
        totals["causes"].update(result["causes"])
        totals["examples"].extend((page.name, *ex) for ex in result["examples"])
    totals["failures"] = failures
    return totals


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", type=Path, help="folder of captured pages")
    parser.add_argument("--examples", type=int, default=3, help="examples per cause")
    parser.add_argument("--json", type=Path, help="write the summary here")
    args = parser.parse_args(argv)
    if not args.root.is_dir():
        print(f"{args.root} not found; skipped")
        return 0
    t = run(args.root)
    exposed = max(t["exposed"], 1)
    summary = {
        "pages": t["pages"],
        "elements": t["elements"],
        "xpath_agreement": round(t["xpath_ok"] / max(t["elements"], 1), 4),
        "exposed_non_generic": t["exposed"],
        "role_agreement": round(t["role_ok"] / exposed, 4),
        "name_agreement": round(t["name_ok"] / exposed, 4),
        "disagreements": dict(t["causes"].most_common()),
        "failures": t["failures"],
    }
    print(json.dumps(summary, indent=2, ensure_ascii=False))
    shown: Counter[str] = Counter()
    for page, cause, xpath, raw, ours_role, theirs, ours in t["examples"]:
        if shown[cause] < args.examples:
            shown[cause] += 1
            print(
                f"[{cause}] {page} {xpath} ({raw}/{ours_role})\n"
                f"   chromium={theirs[:90]!r}\n   ours    ={ours[:90]!r}"
            )
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
