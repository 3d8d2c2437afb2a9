"""Agreement of the DOM adapter with Chromium: XPaths, roles and names per element.

Input: capture folders written by ``fixtures/capture.py`` (``dom.html`` + ``chromium_dom.json``
per page). For every element Chromium records, the DOM source's table is asked about the
element at the same XPath (:meth:`resolver.adapters.dom.DomNative.element`, which answers for
elements without a row too):

- **xpath**: the XPath exists in our tree with the same tag (the parse built the same tree);
- **role**, **name**: over *every* element Chromium exposes (in its accessibility tree, not
  ignored, with a role), our role spelled as a browser's ``computedrole``
  (:meth:`~resolver.adapters.dom.DomAnalysis.aria_role`) equals Chromium's (its internal
  roles, ``LayoutTableCell`` ..., mapped through :func:`resolver.roles.canonical_role`), and
  our name equals Chromium's after ASCII whitespace collapsing. An element the adapter does
  not answer for (not found, or not rendered by our reading of the styles) counts as a
  disagreement on both. The same figures over the non-generic elements are kept as well
  (the measure reported before every element was counted).

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
from typing import Any, Final

from resolver.adapters.base import SourceInput
from resolver.adapters.dom import DomNative, build_table
from resolver.adapters.dom.accname import collapse_ascii
from resolver.adapters.dom.roles import ARIA_ROLES
from resolver.roles import canonical_role
from resolver.text import normalize

_SKIP_ROLES = frozenset({"generic", "none", "unknown", "text"})
_ARIA_SPELLINGS: Final[frozenset[str]] = frozenset(ARIA_ROLES) - {"presentation", "img"}
_COUNTS: Final[tuple[str, ...]] = (
    "elements", "xpath_ok", "exposed", "role_ok", "name_ok", "exposed_ng", "role_ok_ng",
    "name_ok_ng",
)  # fmt: skip


def chromium_role(raw: str) -> str:
    """Chromium's role in ``computedrole`` spelling: ARIA roles as they are, its internal
    roles (``LayoutTableCell``, ``LabelText`` ...) through their canonical role, and its
    MathML roles (``MathMLIdentifier`` ...), which have no ARIA counterpart, as generic."""
    if raw in _ARIA_SPELLINGS:
        return raw
    if raw.startswith("MathML"):
        return (
            "math" if raw == "MathMLMath" else "generic"
        )  # MathML-AAM roles have no ARIA counterpart (see .roles)
    role = canonical_role(raw, "cdp")
    return "image" if role == "img" else role


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


def _viewport(folder: Path) -> tuple[float, float]:
    meta_path = folder / "meta.json"
    if meta_path.is_file():
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if isinstance(meta.get("viewport"), list) and len(meta["viewport"]) == 2:
            return (float(meta["viewport"][0]), float(meta["viewport"][1]))
    return (1280.0, 800.0)


def compare_page(folder: Path) -> dict[str, Any]:
    """Counts and disagreements for one captured page."""
    # capture.py writes dom.html as UTF-8 whatever the page's <meta charset> still says, so
    # it is read as UTF-8 text, not sniffed (a stale gb2312 meta would garble the names).
    html = (folder / "dom.html").read_text(encoding="utf-8", errors="replace")
    records = json.loads((folder / "chromium_dom.json").read_text(encoding="utf-8"))
    viewport = _viewport(folder)
    table = build_table(SourceInput(raw=html, screen_size=viewport, max_nodes=10**7))
    native = table.native
    assert isinstance(native, DomNative)
    analysis = native.analysis
    index = {path: e for e, path in enumerate(analysis.paths.layout)}
    out: dict[str, Any] = dict.fromkeys(_COUNTS, 0)
    out.update(page=folder.name, elements=len(records), causes=Counter(), examples=[])
    for record in records:
        e = index.get(record["xpath"])
        if e is not None and analysis.doc.tags[e].lower() == str(record["tag"]).lower():
            out["xpath_ok"] += 1
        role_raw = record.get("role")
        if record.get("ignored") or not role_raw:
            continue
        _compare(out, native, record, str(role_raw), e is not None)
    return out


def _compare(
    out: dict[str, Any], native: DomNative, record: dict[str, Any], raw: str, found: bool
) -> None:
    """Count one exposed element (see the module doc)."""
    theirs_role = chromium_role(raw)
    theirs_name = collapse_ascii(record.get("name") or "")
    non_generic = canonical_role(raw, "cdp") not in _SKIP_ROLES and record.get("tag") != "br"
    out["exposed"] += 1
    out["exposed_ng"] += non_generic
    answer = native.element(record["xpath"]) if found else None
    if answer is None:
        cause = "not listed: " + ("element not found" if not found else "not rendered by us")
        out["causes"][cause] += 2  # a disagreement on the role and on the name
        out["examples"].append((cause, record["xpath"], raw, "-", theirs_name, ""))
        return
    if answer.aria_role == theirs_role:
        out["role_ok"] += 1
        out["role_ok_ng"] += non_generic
    else:
        cause = f"role: chromium {theirs_role} ({raw}) / ours {answer.aria_role}"
        out["causes"][cause] += 1
        out["examples"].append(
            (cause, record["xpath"], raw, answer.aria_role, theirs_name, answer.name)
        )
    if answer.name == theirs_name:
        out["name_ok"] += 1
        out["name_ok_ng"] += non_generic
    else:
        cause = _name_cause(answer.name, theirs_name)
        out["causes"][cause] += 1
        out["examples"].append(
            (cause, record["xpath"], raw, answer.aria_role, theirs_name, answer.name)
        )


def run(root: Path) -> dict[str, Any]:
    """All page folders under ``root`` that have both files."""
    pages = sorted(
        p.parent for p in root.glob("*/chromium_dom.json") if (p.parent / "dom.html").is_file()
    )
    totals: dict[str, Any] = dict.fromkeys(_COUNTS, 0)
    totals.update(pages=0, causes=Counter(), examples=[])
    failures: list[str] = []
    for page in pages:
        try:
            result = compare_page(page)
        except Exception as exc:
            failures.append(f"{page.name}: {type(exc).__name__}: {exc}")
            continue
        totals["pages"] += 1
        for key in _COUNTS:
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
    exposed, non_generic = max(t["exposed"], 1), max(t["exposed_ng"], 1)
    summary = {
        "pages": t["pages"],
        "elements": t["elements"],
        "xpath_agreement": round(t["xpath_ok"] / max(t["elements"], 1), 4),
        "exposed": t["exposed"],
        "role_agreement": round(t["role_ok"] / exposed, 4),
        "name_agreement": round(t["name_ok"] / exposed, 4),
        "exposed_non_generic": t["exposed_ng"],
        "role_agreement_non_generic": round(t["role_ok_ng"] / non_generic, 4),
        "name_agreement_non_generic": round(t["name_ok_ng"] / non_generic, 4),
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
