"""An element's place in its document, read from xpaths: steps, tags, positions, and how two
places differ."""

from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher

from ..index import index_of
from ..table import CandidateTable
from ..web import LANDMARK_TAGS
from .facts import xpath_column_resolver

__all__ = [
    "indexed_steps",
    "landmarks",
    "one_step_apart",
    "parent_kept",
    "path_changes",
    "path_similarity",
    "region_kept",
    "shifted_step",
    "sibling_at_renumbered_step",
    "steps",
    "tag_path_similarity",
    "tags",
]


def steps(xpath: str) -> list[str]:
    """An xpath's steps, lower-cased (``div[2]``)."""
    return [step.lower() for step in xpath.strip("/").split("/") if step]


def tags(xpath: str) -> list[str]:
    """An xpath's tags, positions dropped (``div``)."""
    return [step.split("[", 1)[0] for step in steps(xpath)]


def indexed_steps(xpath: str) -> list[str]:
    """An xpath's steps with every position explicit (``div`` is ``div[1]``)."""
    return [step if step.endswith("]") else f"{step}[1]" for step in steps(xpath)]


def path_similarity(recorded: str, xpath: str) -> float:
    """How alike two xpaths are, step by step (tag and position; difflib's ratio): a sibling
    inserted above a level renumbers that one step and leaves the rest."""
    return SequenceMatcher(None, steps(recorded), steps(xpath), autojunk=False).ratio()


def tag_path_similarity(recorded: str, xpath: str) -> float:
    """How alike two xpaths' tag sequences are (positions ignored; difflib's ratio)."""
    return SequenceMatcher(None, tags(recorded), tags(xpath), autojunk=False).ratio()


def one_step_apart(recorded: list[str], xpath: str | None) -> bool:
    """Whether ``xpath`` is ``recorded`` (:func:`indexed_steps`) with one step's position,
    and nothing else, changed."""
    if not xpath:
        return False
    found = indexed_steps(xpath)
    if len(found) != len(recorded):
        return False
    apart = [(a, b) for a, b in zip(recorded, found, strict=True) if a != b]
    return len(apart) == 1 and apart[0][0].split("[", 1)[0] == apart[0][1].split("[", 1)[0]


def shifted_step(recorded: list[str], xpath: str | None, below: int) -> int | None:
    """The level of the one step at which ``xpath`` differs from ``recorded``
    (:func:`indexed_steps`), renumbered or retagged, when at least ``below`` steps under it
    are as recorded: a wrapper near the top of the page replaced or shifted, the element's
    own place under it kept. ``None`` for any other difference (or none)."""
    if not xpath:
        return None
    found = indexed_steps(xpath)
    if len(found) != len(recorded):
        return None
    apart = [k for k, (a, b) in enumerate(zip(recorded, found, strict=True)) if a != b]
    if len(apart) != 1 or len(recorded) - 1 - apart[0] < below:
        return None
    return apart[0]


def sibling_at_renumbered_step(
    recorded: list[str],
    xpaths: Sequence[str | None],
    namesakes: list[int],
    row: int,
    *,
    alike: bool = False,
) -> bool:
    """Whether another namesake sits under the same steps as ``row`` down to the step that
    was renumbered, and at another position there: look-alikes in sibling list items or
    sections, among which a renumbered step does not tell the target. With ``alike``, only
    one whose steps under that one are ``row``'s too counts (a sibling section built alike:
    for rows that only tie on score, an element elsewhere in another section is not one)."""
    found = indexed_steps(str(xpaths[row]))
    level = next(k for k, (a, b) in enumerate(zip(recorded, found, strict=True)) if a != b)
    for other in namesakes:
        path = indexed_steps(str(xpaths[other] or ""))
        if other == row or len(path) <= level or path[:level] != found[:level]:
            continue
        if alike and path[level + 1 :] != found[level + 1 :]:
            continue
        if path[level] != found[level]:
            return True
    return False


def path_changes(recorded: str, xpath: str) -> tuple[int, int]:
    """``(retagged, renumbered)``: with the two xpaths' tags aligned (difflib), how many
    steps have another tag, and how many the same tag at another position. Levels added or
    removed (a wrapper) count in neither."""
    old, new = indexed_steps(recorded), indexed_steps(xpath)
    tags_old = [step.split("[", 1)[0] for step in old]
    tags_new = [step.split("[", 1)[0] for step in new]
    replaced = renumbered = 0
    matcher = SequenceMatcher(None, tags_old, tags_new, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            renumbered += sum(old[i1 + k] != new[j1 + k] for k in range(i2 - i1))
        elif op == "replace":
            replaced += max(i2 - i1, j2 - j1)
    return replaced, renumbered


def parent_kept(xpath: str, table: CandidateTable) -> bool:
    """Whether the element that held the one at ``xpath`` is still on the page: a row has its
    xpath, or one under it."""
    parent = table.id_key("xpath", "/" + "/".join(steps(xpath)[:-1]))
    below = parent + "/"
    column = index_of(table).id_column("xpath")
    return any(path and (path == parent or path.startswith(below)) for path in column)


def landmarks(xpath: str) -> list[str]:
    """The landmark elements (:data:`resolver.web.LANDMARK_TAGS`) on an xpath, outermost
    first."""
    return [tag for tag in tags(xpath) if tag in LANDMARK_TAGS]


def region_kept(xpath: str, table: CandidateTable) -> bool:
    """Whether the innermost landmark element on ``xpath`` is still on the page (a row has
    its xpath)."""
    found = steps(xpath)
    last = max(i for i, step in enumerate(found) if step.split("[", 1)[0] in LANDMARK_TAGS)
    run = xpath_column_resolver(table)
    return run is not None and bool(run("xpath", "/" + "/".join(found[: last + 1])))
