"""A reference recorded on one platform resolves on every other, or the resolver abstains.

The same small app ("Invoice Editor", ``fixtures/formats/make_invoice.py``) is written as
Windows UIA, pywinauto text, macOS AX, Linux AT-SPI, OSWorld's table, Android uiautomator and
DroidBot, BrowserGym, WebArena and a Playwright aria snapshot. For every target element, a
ref is recorded from a row of the source table (role, name, box, container path, the way a
recorder would, via :func:`resolver.capture.ref_from_row`) and resolved on every target
observation. The outcome is ``ok``, an abstention, or ``wrong``; wrong must never happen.

Run ``python tests/test_cross_platform.py`` to print the success matrix
(``--with-ids`` records platform IDs too).
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import pytest

from resolver import Observation, ResolutionError, resolve
from resolver.capture import ref_from_row
from resolver.roles import role_compat
from resolver.table import CandidateTable
from resolver.text import normalize

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "formats"

# name -> (fixture file, screen or viewport size in that platform's units)
PLATFORMS: dict[str, tuple[str, tuple[int, int] | None]] = {
    "uia": ("uia/invoice.json", (1920, 1080)),
    "pywinauto": ("pywinauto/invoice.txt", (1920, 1080)),
    "ax": ("ax/invoice_window_state.json", (1440, 900)),
    "atspi": ("atspi/invoice.xml", (1920, 1080)),
    "osworld_table": ("osworld_table/invoice.tsv", (1920, 1080)),
    "uiautomator": ("uiautomator/invoice.xml", (1080, 2400)),
    "droidbot": ("droidbot/invoice.json", (1080, 2400)),
    "browsergym": ("browsergym/invoice.json", (1280, 720)),
    "webarena": ("webarena/invoice.json", (1280, 720)),
    "aria_snapshot": ("aria_snapshot/invoice.aria.yml", None),
}
PRIMARY = ("uia", "ax", "atspi", "uiautomator", "browsergym")
"""One tree per platform family: Windows, macOS, Linux, Android, web."""

# target -> (canonical role, name, value that identifies it where the name is missing)
TARGETS: dict[str, tuple[str, str, str]] = {
    "save": ("button", "Save", ""),
    "print": ("button", "Print", ""),
    "delete": ("button", "Delete", ""),
    "customer name": ("textbox", "Customer name", "Ada Lovelace"),
    "quantity": ("spinbutton", "Quantity", "3"),
    "country": ("combobox", "Country", "Germany"),
    "receipt": ("checkbox", "Send receipt by e-mail", ""),
    "lines tab": ("tab", "Lines", ""),
    "notes tab": ("tab", "Notes", ""),
    "cancel": ("button", "Cancel", ""),
    "ok": ("button", "OK", ""),
}


@cache
def observation(platform: str) -> Observation:
    path, size = PLATFORMS[platform]
    raw = (FIXTURES / path).read_bytes()
    return Observation(accessibility_tree=raw, screen_size=size)


def locate(table: CandidateTable, target: str) -> int | None:
    """The row that *is* ``target`` in ``table``: its name with a compatible role, else (for
    platforms that name the control differently) the compatible row holding its value."""
    role, name, value = TARGETS[target]
    fits = [i for i in range(len(table)) if role_compat(role, table.roles[i]) >= 0.5]
    named = [i for i in fits if table.names_norm[i] == normalize(name)]
    if named:
        return named[0]
    valued = [i for i in fits if value and value in (table.values[i], table.names[i])]
    return valued[0] if len(valued) == 1 else None


def outcome(source: str, target_platform: str, target: str, *, with_ids: bool = False) -> str:
    """``ok``, ``absent`` (not recordable or not present), an error code, or ``wrong``."""
    src = observation(source).candidates("a11y")
    dst = observation(target_platform).candidates("a11y")
    row, expected = locate(src, target), locate(dst, target)
    if row is None or expected is None:
        return "absent"
    ref = ref_from_row(src, row, with_ids=with_ids)
    try:
        found = resolve(ref, observation(target_platform))
    except ResolutionError as exc:
        return exc.code.value
    return "ok" if found.executor_id == dst.executor_ids[expected] else "wrong"


def matrix(platforms: tuple[str, ...], *, with_ids: bool = False) -> dict[tuple[str, str], int]:
    """Successes per (source, target) pair."""
    return {
        (s, t): sum(outcome(s, t, name, with_ids=with_ids) == "ok" for name in TARGETS)
        for s in platforms
        for t in platforms
    }


# Measured floors (successes out of 11). Where a pair falls short, the missing targets are
# abstentions, and the reason is in the README ("Cross-platform resolution").
MIN_OK: dict[tuple[str, str], int] = {
    **{(s, t): 10 for s in ("uia", "ax", "browsergym") for t in ("uia", "ax", "browsergym")},
    **{(s, "atspi"): 10 for s in ("uia", "ax", "browsergym")},
    **{("atspi", t): 10 for t in ("uia", "ax", "atspi", "browsergym")},
    **{("uiautomator", t): 10 for t in PRIMARY},
}


@pytest.mark.parametrize(
    "source",
    PLATFORMS,
)
@pytest.mark.parametrize("with_ids", [False, True])
def test_never_a_wrong_answer(source: str, with_ids: bool) -> None:
    wrong = [
        (target_platform, target)
        for target_platform in PLATFORMS
        for target in TARGETS
        if outcome(source, target_platform, target, with_ids=with_ids) == "wrong"
    ]
    assert wrong == []


@pytest.mark.parametrize(("source", "target_platform"), sorted(MIN_OK))
def test_recorded_refs_resolve_across_platforms(source: str, target_platform: str) -> None:
    results = {t: outcome(source, target_platform, t) for t in TARGETS}
    ok = sum(r == "ok" for r in results.values())
    assert ok >= MIN_OK[(source, target_platform)], results


def test_every_platform_resolves_its_own_refs() -> None:
    for platform in PLATFORMS:
        results = {t: outcome(platform, platform, t) for t in TARGETS}
        recordable = [t for t, r in results.items() if r != "absent"]
        assert all(results[t] == "ok" for t in recordable), (platform, results)


def _print_matrix(with_ids: bool) -> None:
    names = tuple(PLATFORMS)
    counts = matrix(names, with_ids=with_ids)
    short = {"osworld_table": "osw_tsv", "uiautomator": "uiautom", "browsergym": "bgym",
             "aria_snapshot": "aria", "pywinauto": "pywin", "droidbot": "droidbt",
             "webarena": "webarena"}  # fmt: skip
    print("| recorded on \\ resolved on | " + " | ".join(short.get(n, n) for n in names) + " |")
    print("|---|" + "---|" * len(names))
    for s in names:
        cells = " | ".join(str(counts[(s, t)]) for t in names)
        print(f"| {s} | {cells} |")


if __name__ == "__main__":
    _print_matrix(with_ids="--with-ids" in sys.argv)
