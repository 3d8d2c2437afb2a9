"""Catalog indexes acted on after a re-render, by ``resolver.act.execute`` and by the index
an index-based tool would reuse.

``fixtures/live/rerender.html`` in headless Chromium (a team table with a "Delete" button
per user, a toolbar, a form; every change re-renders the page from its state, as a framework
does): for each layout (rows without ids, rows keyed by id), each change between reading the
catalog and acting (none, rows sorted, Bob's row removed, "Save" renamed, a modal over the
page, sorted and removed together, sorted and renamed together) and each button of the
catalog, the button's index is clicked

- by ``execute`` with the catalog read before the change (the library: the same element, or
  a documented refusal), and
- by the same index in a catalog read after the change (what a tool that reuses indexes
  without references does).

The page logs which element received each click, so every outcome is ``right`` (the button
indexed got the click), ``refused (gone or covered)`` (a documented code, nothing clicked,
for a removed row's button or a button under the modal, where only a refusal is right),
``refused (present)`` (a documented code though the button could be clicked), ``wrong``
(another element got the click) or ``lost`` (success reported, nothing clicked). Prints
a table per method::

    python -m benchmarks.live.kit [--record DIR]

With ``--record DIR`` the library's clicks are also written as one recording
(``execute(..., recorder=)``, :mod:`resolver.act.recording`), which is then replayed
(``resolver.replay``, each step against the page it was located on) and the verdicts of its
steps printed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from live_browser import browser_missing, chromium  # noqa: E402

from resolver.act import execute, session_for  # noqa: E402
from resolver.catalog import Catalog  # noqa: E402

PAGE = (ROOT / "fixtures" / "live" / "rerender.html").as_uri()
CHANGES: dict[str, tuple[str, ...]] = {
    "none": (),
    "sorted": ("sort",),
    "Bob removed": ("remove",),
    "Save renamed": ("rename",),
    "modal": ("modal",),
    "sorted + removed": ("sort", "remove"),
    "sorted + renamed": ("sort", "rename"),
}
LAYOUTS = {"rows without ids": "", "keyed rows": "?keyed"}
CODES = {"ELEMENT_NOT_FOUND", "AMBIGUOUS", "CATALOG_OUTDATED", "ELEMENT_NOT_INTERACTABLE"}


def _buttons(catalog: Catalog) -> dict[int, str]:
    """The catalog's buttons by index, each with the click-log label it produces."""
    labels = {"Save": "save", "Sort": "sort", "Open dialog": "open", "Close": "close"}
    out: dict[int, str] = {}
    for entry in catalog.entries:
        if entry.role != "button":
            continue
        if entry.name == "Delete":
            out[entry.index] = "delete:" + entry.ref.container_path[-1].split()[0].lower()
        elif entry.name in labels:
            out[entry.index] = labels[entry.name]
    return out


def _expected(label: str, kinds: tuple[str, ...]) -> str | None:
    """The label a right click logs after ``kinds``, or ``None`` when only a refusal is
    right (the row is gone, or a modal covers the page)."""
    if "modal" in kinds or ("remove" in kinds and label == "delete:bob"):
        return None
    return label


def _verdict(success: bool, code: str | None, clicks: list[str], want: str | None) -> str:
    if not success:
        if code not in CODES or clicks:
            return f"error {code}"
        return "refused (gone or covered)" if want is None else "refused (present)"
    if not clicks:
        return "lost"
    return "right" if want is not None and clicks[0] == want else "wrong"


def _trial(
    page: Any, query: str, kinds: tuple[str, ...], index: int, label: str, recorder: Any = None
) -> list[str]:
    """The outcome of clicking ``index`` by execute and by the reused index."""
    page.goto(PAGE + query)
    before = session_for(page).refresh()
    for kind in kinds:
        page.evaluate(f"rerender({kind!r})")
    page.evaluate("window.clicks = []")
    want = _expected(label, kinds)
    action = [{"action": "click", "target": f"index={index}"}]
    ours = execute(page, action, catalog=before, expected_catalog_version=before.version,
                   recorder=recorder)  # fmt: skip
    code = ours.error.code if ours.error else None
    verdicts = [_verdict(ours.success, code, page.evaluate("window.clicks"), want)]
    page.goto(PAGE + query)
    for kind in kinds:
        page.evaluate(f"rerender({kind!r})")
    page.evaluate("window.clicks = []")
    after = session_for(page).refresh()  # a fresh catalog: the index is taken as it is now
    if index >= len(after):
        return [*verdicts, "refused (gone or covered)" if want is None else "refused (present)"]
    naive = execute(page, action, catalog=after, expected_catalog_version=after.version)
    code = naive.error.code if naive.error else None
    return [*verdicts, _verdict(naive.success, code, page.evaluate("window.clicks"), want)]


def _replayed(path: Path) -> Counter[str]:
    """The verdicts of a recording's steps, each resolved against its own page."""
    from resolver.replay import ReplayOptions, discover, replay_local

    (result,) = replay_local(discover([path]), ReplayOptions())
    return Counter(step["verdict"] for step in result["steps"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", type=Path, default=None)
    options = parser.parse_args(argv)
    recorder = None
    if options.record is not None:
        from resolver.record import AgentRecorder

        recorder = AgentRecorder(options.record, prefix="kit")
        recorder.start("click each button by index after each change", trace_id="kit")
    why = browser_missing()
    if why is not None:
        print(f"skipped: {why}")
        return 0
    counts: dict[str, Counter[str]] = {"execute (catalog before)": Counter(),
                                       "same index, catalog after": Counter()}  # fmt: skip
    started = time.perf_counter()
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1000, "height": 700})
        for layout, query in LAYOUTS.items():
            page.goto(PAGE + query)
            buttons = _buttons(session_for(page).refresh())
            for change, kinds in CHANGES.items():
                for index, label in buttons.items():
                    ours, naive = _trial(page, query, kinds, index, label, recorder)
                    counts["execute (catalog before)"][ours] += 1
                    counts["same index, catalog after"][naive] += 1
                    if ours not in ("right", "refused (gone or covered)"):
                        print(f"{layout} / {change} / [{index}] {label}: {ours}")
    kinds = ["right", "refused (gone or covered)", "refused (present)", "wrong", "lost"]
    print("| method | trials | " + " | ".join(kinds) + " |")
    print("|---" * (2 + len(kinds)) + "|")
    for method, c in counts.items():
        print(f"| {method} | {sum(c.values())} | " + " | ".join(str(c[k]) for k in kinds) + " |")
    print(f"({time.perf_counter() - started:.0f} s)")
    if recorder is not None:
        path = recorder.finish("done")
        print(f"recorded {path}; replayed, each step on its page: {dict(_replayed(path))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
