"""WPT role (and HTML-AAM name) tests, run the way :mod:`benchmarks.dom.wpt_accname` runs the
accname files.

The files are read from a web-platform-tests checkout (or any folder holding these paths),
given as ``--wpt DIR`` or ``$RESOLVER_WPT``; the project keeps no copy. Each file marks its
cases in markup, and each case becomes one :class:`~benchmarks.dom.wpt_accname.Outcome`:

- ``html-aam/roles.html``, ``html-aam/roles-contextual.html``, ``html-aam/table-roles.html``:
  class ``ex`` with ``data-expectedrole`` (the exact computed role; ``""`` is an element that
  is not exposed, which the adapter says as ``none``), class ``ex-generic`` (``generic``,
  ``""`` or ``none`` all pass, as the file's ``verifyGenericRolesBySelector`` accepts);
- ``html-aam/names.html``: class ``ex`` with ``data-expectedname``;
- ``wai-aria/role/synonym-roles.html``: the four ``id``\\ s its assertions name.

The role compared is :meth:`resolver.adapters.dom.DomAnalysis.aria_role`, the ARIA 1.3
spelling a browser's ``computedrole`` gives (``image``, ``subscript``, ``sectionheader``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

from resolver.adapters.dom import DomAnalysis, analyze
from resolver.adapters.dom.accname import collapse_ascii

from .wpt_accname import Outcome

ROLE_FILES: Final[tuple[str, ...]] = (
    "html-aam/roles.html",
    "html-aam/roles-contextual.html",
    "html-aam/table-roles.html",
)
NAME_FILES: Final[tuple[str, ...]] = ("html-aam/names.html",)
SYNONYM_FILE: Final[str] = "wai-aria/role/synonym-roles.html"
SYNONYMS: Final[tuple[tuple[str, str], ...]] = (
    ("none", "none"), ("presentation", "none"), ("image", "image"), ("img", "image"),
)  # fmt: skip
"""``(id, expected computedrole)`` as the synonym file's four assertions state them."""
_GENERIC: Final[frozenset[str]] = frozenset({"generic", "", "none"})


def wpt_dir(given: Path | None = None) -> Path | None:
    """The folder holding the WPT role files: ``given``, else ``$RESOLVER_WPT``."""
    if given is not None:
        return given if given.is_dir() else None
    env = os.environ.get("RESOLVER_WPT")
    return Path(env) if env and Path(env).is_dir() else None


def _role(analysis: DomAnalysis, element: int) -> str:
    return analysis.aria_role(element) if analysis.rendered(element) else ""


def _role_cases(file: str, analysis: DomAnalysis) -> list[Outcome]:
    out: list[Outcome] = []
    for e in analysis.css(".ex, .ex-generic"):
        attrs = analysis.doc.attrs[e]
        classes = attrs.get("class", "").split()
        test = attrs.get("data-testname", "")
        actual = _role(analysis, e)
        if "ex" in classes:
            expected = attrs.get("data-expectedrole", "")
            ok = actual == expected or (expected == "" and actual == "none")
            out.append(Outcome(file, test, expected, actual if not ok else expected, kind="role"))
        else:
            shown = actual if actual not in _GENERIC else "generic"
            out.append(Outcome(file, test, "generic", shown, kind="role"))
    return out


def _name_cases(file: str, analysis: DomAnalysis) -> list[Outcome]:
    out: list[Outcome] = []
    for e in analysis.css(".ex[data-expectedname]"):
        attrs = analysis.doc.attrs[e]
        expected = collapse_ascii(attrs.get("data-expectedname", ""))
        out.append(Outcome(file, attrs.get("data-testname", ""), expected, analysis.name(e)))
    return out


def run(root: Path) -> list[Outcome]:
    """Every role and name case of the files under ``root`` that exist (missing files are
    reported as one skipped case each)."""
    outcomes: list[Outcome] = []
    for file in (*ROLE_FILES, *NAME_FILES, SYNONYM_FILE):
        path = root / file
        if not path.is_file():
            outcomes.append(Outcome(file, "*", "", None, f"{file} not found", kind="role"))
            continue
        analysis = analyze(path.read_bytes())
        if file in ROLE_FILES:
            outcomes.extend(_role_cases(file, analysis))
        elif file in NAME_FILES:
            outcomes.extend(_name_cases(file, analysis))
        else:
            for element_id, expected in SYNONYMS:
                found = analysis.css(f'[id="{element_id}"]')
                actual = _role(analysis, found[0]) if found else "<element not found>"
                outcomes.append(Outcome(file, element_id, expected, actual, kind="role"))
    return outcomes
