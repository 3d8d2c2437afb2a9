"""What ``resolver.act.execute`` reports when a click opens the page's own dialog.

``fixtures/live/dialogs.html`` in headless Chromium: "Delete Alice" asks ``confirm`` before
removing her row, "Rename Carol" asks ``prompt`` for a new name, "Save" shows an ``alert``,
"Archive all" asks ``confirm`` after its click has returned (``setTimeout``). Each control is
clicked with no answer given, then accepting and dismissing (where the action takes one), each
followed by a click on "Save" in the same call; the page is loaded afresh for each case. Per
case: whether the call reported success, how many actions completed, the error code, the
dialogs listed, and what the page did (rows left, Carol's name, archived, saves). A case is
``silent`` when the call reported success while the page ignored the action (a confirm or
prompt dismissed though the action did not ask for it). Run it on another checkout's library
to compare::

    python benchmarks/live/dialogs.py [--timing 25]
    PYTHONPATH=<checkout> python benchmarks/live/dialogs.py [--timing 25]

``--timing N`` also prints the median time of N ``execute`` calls clicking "Save" on
``fixtures/live/rerender.html`` (no dialog): what listening for dialogs costs a click.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from live_browser import live_tab  # noqa: E402

from resolver.act import execute  # noqa: E402

PAGE = (ROOT / "fixtures" / "live" / "dialogs.html").as_uri()
CONTROLS = ("Delete Alice", "Rename Carol", "Save", "Archive all")
STATE_JS = """[[...document.querySelectorAll('li')].map(li => li.id).join(' '),
  document.getElementById('carol-name').textContent, window.archived ?? null,
  window.saved ?? 0]"""


def cases() -> list[tuple[str, str | None]]:
    """``(control, answer)``: every control with no answer, ``accept`` and ``dismiss``."""
    return [(c, a) for c in CONTROLS for a in (None, "accept", "dismiss")]


def ignored(control: str, state: list[Any]) -> bool:
    """Whether the page did not do what ``control`` asks (the dialog dismissed)."""
    rows, name, archived, _ = state
    if control == "Delete Alice":
        return "alice" in rows.split()
    if control == "Rename Carol":
        return bool(name == "Carol")
    if control == "Archive all":
        return archived is not True
    return False


def run_case(page: Any, control: str, answer: str | None) -> dict[str, Any]:
    """One case on a fresh page: the action, then a click on Save in the same call."""
    page.goto(PAGE)
    first: dict[str, Any] = {"action": "click", "target": f"text={control}"}
    if answer is not None:
        first["dialog"] = answer
    result = execute(page, [first, {"action": "click", "target": "text=Save"}])
    page.wait_for_timeout(50)  # (a dialog opened after the call ends, if any, is dismissed)
    state = list(page.evaluate(STATE_JS))
    dialogs = [f"{d.type}:{d.answer}" for d in getattr(result, "dialogs", ())]
    return {
        "control": control, "answer": answer or "-", "success": result.success,
        "complete": result.complete, "error": result.error.code if result.error else "-",
        "dialogs": " ".join(dialogs) or "-", "state": state,
        "silent": bool(result.success and answer != "dismiss" and ignored(control, state)),
    }  # fmt: skip


def click_ms(page: Any, times: int) -> float:
    """The median time (ms) of ``execute`` clicking "Save" on the re-rendering fixture page
    (``fixtures/live/rerender.html``, no dialog), after five calls not counted."""
    page.goto((ROOT / "fixtures" / "live" / "rerender.html").as_uri())
    took = []
    for _ in range(times + 5):
        start = time.perf_counter()
        result = execute(page, [{"action": "click", "target": "text=Save"}])
        took.append((time.perf_counter() - start) * 1e3)
        if not result.success:
            raise SystemExit(f"the click failed: {result.error}")
    return statistics.median(took[5:])


def main(argv: list[str] | None = None) -> int:
    """Print one line per case, then the silent cases' count (with ``--timing N``, also the
    median of N plain clicks)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timing", type=int, default=0, metavar="N")
    options = parser.parse_args(argv)
    with live_tab(1000, 700) as page:
        if page is None:
            return 0
        rows = [run_case(page, control, answer) for control, answer in cases()]
        timing = click_ms(page, options.timing) if options.timing > 0 else None
    print(f"{'control':<14} {'answer':<8} {'success':<8} {'done':<5} {'error':<18} "
          f"{'dialogs':<38} page (rows, Carol's name, archived, saves)")  # fmt: skip
    for row in rows:
        print(f"{row['control']:<14} {row['answer']:<8} {row['success']!s:<8} "
              f"{row['complete']:<5} {row['error']:<18} {row['dialogs']:<38} {row['state']}"
              + ("  SILENT" if row["silent"] else ""))  # fmt: skip
    print(f"silent: {sum(r['silent'] for r in rows)} of {len(rows)} cases")
    if timing is not None:
        print(f"a plain click: {timing:.1f} ms (median of {options.timing})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
