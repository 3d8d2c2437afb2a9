"""WPT conformance of the DOM adapter: accname names and descriptions, HTML-AAM roles.

Reads ``wpt-accname/cases.json`` from the shared corpora (see :mod:`benchmarks.dom.corpora`)
and computes each case's name with :func:`resolver.adapters.dom.analyze`:

- ``data-attr`` cases (``accname/name/*.html``): the n-th element carrying
  ``data-expectedlabel`` in a file is the file's n-th case;
- ``ATTAcomm`` cases (``accname/manual/*.html``): the element with the case's ``id``.

Cases in :data:`SKIP` are not run; each says why (what a static HTML reading cannot know).
With ``--wpt DIR`` (or ``$RESOLVER_WPT``), a web-platform-tests checkout, the HTML-AAM and
WAI-ARIA role files of :mod:`benchmarks.dom.wpt_roles` run too. The summary counts names,
roles and descriptions apart and together. Exit status is 1 when the pass rate of the cases
that ran is below ``--target``.

Usage::

    python -m benchmarks.dom.wpt_accname [--wpt DIR] [--target 0.95] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from resolver.adapters.dom import analyze
from resolver.adapters.dom.accname import collapse_ascii as collapse

from .corpora import corpora_dir

NEEDS_SCRIPT = "needs script execution (the page builds the tested DOM in JavaScript)"
NEEDS_SHADOW = "needs shadow DOM and slot assignment (declarative shadow roots are not read)"
NEEDS_PSEUDO = "needs CSS generated content (::before / ::after / ::marker / counters)"
NEEDS_EXTERNAL_CSS = "needs an external stylesheet or computed layout"
DESCRIPTION = "accessible description, not name (the adapter computes names only)"

NEEDS_DIR = "needs the :dir() pseudo-class, which the CSS engine (Lexbor) does not match"
PSEUDO_DISPLAY = "needs the display type of a pseudo-element (display: block on ::before)"

_RTL = "name from content with ::before and ::after in rtl"
SKIP: Final[dict[tuple[str, str], str]] = {
    ("accname/name/comp_name_from_content.html", f"button {_RTL}"): NEEDS_DIR,
    ("accname/name/comp_name_from_content.html", f"heading {_RTL}"): NEEDS_DIR,
    ("accname/name/comp_name_from_content.html", f"link {_RTL}"): NEEDS_DIR,
    ("accname/manual/name_file-label-inline-block-styles-manual.html", "test"): PSEUDO_DISPLAY,
}
"""``(file, testname or id) -> reason``; a ``*`` testname skips the whole file."""

SKIP_FILES: Final[dict[str, str]] = {
    "accname/name/shadowdom/basic.html": NEEDS_SHADOW,
    "accname/name/shadowdom/slot.html": NEEDS_SHADOW,
}


@dataclass(frozen=True)
class Outcome:
    """One case: what was expected, what came out, or why it did not run."""

    file: str
    test: str
    expected: str
    actual: str | None
    skipped: str | None = None
    kind: str = "name"
    """``name``, ``role`` or ``description``."""

    @property
    def passed(self) -> bool:
        return self.skipped is None and self.actual == self.expected


def _skip_reason(case: dict[str, object]) -> str | None:
    file = str(case["file"])
    if case.get("property") == "description":
        return DESCRIPTION
    if file in SKIP_FILES:
        return SKIP_FILES[file]
    key = (file, str(case.get("testname") or case.get("id") or ""))
    return SKIP.get(key)


def run(root: Path) -> list[Outcome]:
    """All cases under ``root`` (the ``wpt-accname`` folder)."""
    cases = json.loads((root / "cases.json").read_text(encoding="utf-8"))
    by_file: dict[str, list[dict[str, object]]] = {}
    for case in cases:
        by_file.setdefault(str(case["file"]), []).append(case)
    outcomes: list[Outcome] = []
    for file, file_cases in by_file.items():
        html = (root / "wpt" / file).read_bytes()
        analysis = analyze(html)
        marked = analysis.css("[data-expectedlabel]")
        position = 0
        for case in file_cases:
            test = str(case.get("testname") or case.get("id") or "")
            expected = collapse(str(case.get("expected_name", case.get("expected", "")) or ""))
            reason = _skip_reason(case)
            if case["format"] == "data-attr":
                element = marked[position] if position < len(marked) else None
                position += 1
            else:
                found = analysis.css(f'[id="{case["id"]}"]')
                element = found[0] if found else None
            kind = "description" if case.get("property") == "description" else "name"
            if reason is not None:
                outcomes.append(Outcome(file, test, expected, None, reason, kind=kind))
                continue
            actual = analysis.name(element) if element is not None else "<element not found>"
            outcomes.append(Outcome(file, test, expected, actual))
    return outcomes


def _counts(outcomes: list[Outcome]) -> dict[str, object]:
    ran = [o for o in outcomes if o.skipped is None]
    passed = sum(o.passed for o in ran)
    return {
        "cases": len(outcomes),
        "ran": len(ran),
        "passed": passed,
        "skipped": len(outcomes) - len(ran),
        "pass_rate": passed / len(ran) if ran else 0.0,
        "skip_reasons": dict(Counter(o.skipped for o in outcomes if o.skipped)),
    }


def summary(outcomes: list[Outcome]) -> dict[str, object]:
    """Counts and the pass rate over the cases that ran, overall and per kind."""
    result = _counts(outcomes)
    result["by_kind"] = {
        kind: _counts([o for o in outcomes if o.kind == kind])
        for kind in ("name", "role", "description")
    }
    return result


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    from . import wpt_roles  # (it imports Outcome from here)

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target", type=float, default=0.95)
    parser.add_argument("--verbose", action="store_true", help="list every failing case")
    parser.add_argument("--wpt", type=Path, help="a WPT checkout with the role files")
    args = parser.parse_args(argv)
    corpora = corpora_dir()
    if corpora is None or not (corpora / "wpt-accname" / "cases.json").is_file():
        print("wpt-accname corpus not found; skipped")
        return 0
    outcomes = run(corpora / "wpt-accname")
    roles_root = wpt_roles.wpt_dir(args.wpt)
    if roles_root is not None:
        outcomes.extend(wpt_roles.run(roles_root))
    else:
        print("no WPT checkout given (--wpt or $RESOLVER_WPT): role files not run")
    result = summary(outcomes)
    if args.verbose:
        for o in outcomes:
            if o.skipped is None and not o.passed:
                print(
                    f"FAIL [{o.kind}] {o.file} :: {o.test}\n"
                    f"     expected {o.expected!r}\n     got      {o.actual!r}"
                )
    print(json.dumps(result, indent=2))
    return 0 if result["pass_rate"] >= args.target else 1


if __name__ == "__main__":
    sys.exit(main())
