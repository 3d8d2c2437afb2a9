"""The Similo corpus: where it is, its ``.properties`` files, its apps and their pairs.

Layout (``apps/<App>/``): ``target_widgets/*.properties`` (an element recorded on the old
version of the site), ``candidate_widgets/*.properties`` (every candidate element of the new
version) and ``N.properties`` (one ground-truth pair: ``old_xpath`` -> ``new_xpath``). A pair
is kept only when its old xpath names exactly one target and its new xpath exactly one
candidate.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from benchmarks.dom.corpora import corpora_dir

__all__ = [
    "HELDOUT_APPS",
    "KEYS",
    "SPLITS",
    "TUNE_APPS",
    "App",
    "Pair",
    "Widget",
    "apps_of_split",
    "corpus_dir",
    "load_app",
    "load_apps",
    "parse_properties",
    "read_properties",
    "split_of",
]

CORPUS_NAME: Final[str] = "similo-tune"
ENV_VAR: Final[str] = "RESOLVER_SIMILO"

KEYS: Final[frozenset[str]] = frozenset(
    {
        "tag", "id", "class", "name", "type", "href", "alt", "title", "placeholder", "value",
        "text", "visible_text", "xpath", "idxpath", "x", "y", "width", "height", "area",
        "shape", "is_button", "neighbor_text_above", "neighbor_text_below",
        "neighbor_text_left", "neighbor_text_right", "neighbor_text", "widget_id",
        "old_xpath", "new_xpath",
    }
)  # fmt: skip
"""The keys the corpus writes. An indented line that does not start with one of them
continues the value before it (the corpus' writer left raw line breaks inside a few class
attributes)."""

# The split of the 20 apps, fixed once: the apps sorted by the SHA-1 hex digest of their name
# (UTF-8), the first ten tune, the other ten held out. Listed literally so that a new app or a
# renamed folder cannot move an app from one half to the other; ``split_rule`` recomputes it.
TUNE_APPS: Final[tuple[str, ...]] = (
    "Chase", "Intuit", "Instructure", "Etsy", "Google",
    "Hulu", "Fidelity", "Apple", "Instagram", "Walmart",
)  # fmt: skip
HELDOUT_APPS: Final[tuple[str, ...]] = (
    "Wikipedia", "Facebook", "Cnn", "Wellsfargo", "Zoom",
    "Zillow", "Netflix", "Twitch", "Espn", "Okta",
)  # fmt: skip
SPLITS: Final[Mapping[str, tuple[str, ...]]] = {"tune": TUNE_APPS, "heldout": HELDOUT_APPS}

_PAIR_FILE: Final[re.Pattern[str]] = re.compile(r"^(\d+)\.properties$")
_ESCAPES: Final[Mapping[str, str]] = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}
_SEPARATORS: Final[frozenset[str]] = frozenset("=:")
_BLANKS: Final[str] = " \t\f"


def split_rule(apps: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The rule :data:`TUNE_APPS` and :data:`HELDOUT_APPS` were made with: ``apps`` sorted
    by the SHA-1 hex digest of the name, the first half tune, the rest held out."""
    ordered = sorted(apps, key=lambda a: hashlib.sha1(a.encode("utf-8")).hexdigest())
    half = (len(ordered) + 1) // 2
    return tuple(ordered[:half]), tuple(ordered[half:])


def split_of(app: str) -> str | None:
    """``"tune"``, ``"heldout"``, or None for an app of neither half."""
    for name, apps in SPLITS.items():
        if app in apps:
            return name
    return None


def apps_of_split(split: str) -> tuple[str, ...]:
    """The apps of ``"tune"``, ``"heldout"`` or ``"all"`` (tune first)."""
    if split == "all":
        return TUNE_APPS + HELDOUT_APPS
    return SPLITS[split]


def corpus_dir() -> Path | None:
    """The corpus folder (the one holding ``apps/``): ``$RESOLVER_SIMILO``, else
    ``similo-tune`` in the shared corpora; None when it is not on this machine."""
    env = os.environ.get(ENV_VAR)
    candidates = [Path(env)] if env else []
    shared = corpora_dir()
    if shared is not None:
        candidates.append(shared / CORPUS_NAME)
    for path in candidates:
        if (path / "apps").is_dir():
            return path
    return None


# --- .properties -----------------------------------------------------------------------------


def _logical_lines(text: str) -> Iterator[tuple[str, bool]]:
    """``(line, indented)`` for each logical line: comments and blank lines dropped, lines
    ending in an odd number of backslashes joined with the next (its leading blanks
    dropped)."""
    pending: str | None = None
    indented = False
    for raw in text.splitlines():
        line = raw.lstrip(_BLANKS) if pending is not None else raw
        if pending is None:
            stripped = line.lstrip(_BLANKS)
            if not stripped or stripped[0] in "#!":
                continue
            indented = stripped != line
            line = stripped
        trailing = len(line) - len(line.rstrip("\\"))
        if trailing % 2 == 1:
            pending = (pending or "") + line[:-1]
            continue
        yield (pending or "") + line, indented
        pending = None
    if pending is not None:
        yield pending, indented


def _unescape(text: str) -> str:
    """Resolve ``\\uXXXX``, ``\\t``-style and ``\\X`` (X itself) escapes."""
    if "\\" not in text:
        return text
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char != "\\" or i + 1 >= n:
            out.append(char)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt == "u":
            digits = text[i + 2 : i + 6]
            if len(digits) == 4 and all(c in "0123456789abcdefABCDEF" for c in digits):
                out.append(chr(int(digits, 16)))
                i += 6
                continue
            out.append("u")  # a malformed \u escape: keep the letter, as \X gives X
            i += 2
            continue
        out.append(_ESCAPES.get(nxt, nxt))
        i += 2
    return "".join(out)


def _split_entry(line: str) -> tuple[str, str, bool]:
    """``(key, value, had_separator)`` of a logical line, as Java's ``Properties.load``
    splits it: the key ends at the first unescaped ``=``, ``:`` or blank; blanks and one
    ``=``/``:`` after it are skipped."""
    i, n = 0, len(line)
    while i < n:
        char = line[i]
        if char == "\\":
            i += 2
            continue
        if char in _SEPARATORS or char in _BLANKS:
            break
        i += 1
    key = line[:i]
    j = i
    while j < n and line[j] in _BLANKS:
        j += 1
    separated = j < n and line[j] in _SEPARATORS
    if separated:
        j += 1
        while j < n and line[j] in _BLANKS:
            j += 1
    return _unescape(key), _unescape(line[j:]), separated


def parse_properties(text: str) -> dict[str, str]:
    """A Java ``.properties`` text as a dict (the last of repeated keys wins).

    Handles ``#``/``!`` comments, blank lines, ``\\``-continued lines and the ``\\:``,
    ``\\=``, ``\\\\``, ``\\t``... and ``\\uXXXX`` escapes. An indented line that names no key
    of :data:`KEYS` continues the previous value after a space: the corpus has a few values
    written with raw line breaks.

    >>> parse_properties("# c\\na=1\\nb\\\\:c = x\\\\u0041\\n  more\\n")
    {'a': '1', 'b:c': 'xA more'}
    """
    result: dict[str, str] = {}
    last: str | None = None
    for line, indented in _logical_lines(text):
        key, value, separated = _split_entry(line)
        if indented and last is not None and key not in KEYS:
            continuation = line.strip()
            result[last] = f"{result[last]} {continuation}".strip()
            continue
        if not key and not separated:
            continue
        result[key] = value
        last = key
    return result


def read_properties(path: Path) -> dict[str, str]:
    """:func:`parse_properties` of a file read as UTF-8 (undecodable bytes replaced)."""
    return parse_properties(path.read_bytes().decode("utf-8", errors="replace"))


# --- apps and pairs --------------------------------------------------------------------------


@dataclass(frozen=True)
class Widget:
    """One element of the corpus: its file name and properties."""

    file: str
    props: Mapping[str, str]

    def get(self, key: str) -> str | None:
        """The property stripped, None when missing or blank; a neighbour text of ``0``
        (none) is None too."""
        value = self.props.get(key)
        if value is None:
            return None
        value = value.strip()
        if not value or (key.startswith("neighbor_text") and value == "0"):
            return None
        return value

    def number(self, key: str) -> float | None:
        """The property as a finite number, None when missing or not one."""
        value = self.get(key)
        if value is None:
            return None
        try:
            number = float(value)
        except ValueError:
            return None
        return number if math.isfinite(number) else None


@dataclass(frozen=True)
class Pair:
    """A ground-truth pair joined to its target and to its candidate's index."""

    file: str
    target: Widget
    candidate: int


@dataclass(frozen=True)
class App:
    """One app: its candidates (sorted by file name: a candidate's index is its node id),
    the pairs that joined, and the pair files skipped (with the reason)."""

    name: str
    candidates: tuple[Widget, ...]
    pairs: tuple[Pair, ...]
    skipped: tuple[tuple[str, str], ...] = field(default=())


def _widgets(folder: Path) -> tuple[Widget, ...]:
    if not folder.is_dir():
        return ()
    files = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix == ".properties")
    return tuple(Widget(p.name, read_properties(p)) for p in files)


def load_app(folder: Path) -> App:
    """Read one app folder and join its pairs (a pair that names zero or several targets,
    or zero or several candidates, is skipped)."""
    targets = _widgets(folder / "target_widgets")
    candidates = _widgets(folder / "candidate_widgets")
    by_old: dict[str, list[Widget]] = {}
    for target in targets:
        xpath = target.get("xpath")
        if xpath is not None:
            by_old.setdefault(xpath, []).append(target)
    by_new: dict[str, list[int]] = {}
    for index, candidate in enumerate(candidates):
        xpath = candidate.get("xpath")
        if xpath is not None:
            by_new.setdefault(xpath, []).append(index)
    numbered = []
    for path in folder.iterdir() if folder.is_dir() else ():
        match = _PAIR_FILE.match(path.name)
        if match and path.is_file():
            numbered.append((int(match.group(1)), path))
    pairs: list[Pair] = []
    skipped: list[tuple[str, str]] = []
    for _, path in sorted(numbered):
        props = read_properties(path)
        old, new = props.get("old_xpath", "").strip(), props.get("new_xpath", "").strip()
        olds, news = by_old.get(old, []), by_new.get(new, [])
        if len(olds) != 1 or len(news) != 1:
            skipped.append((path.name, f"{len(olds)} targets, {len(news)} candidates"))
            continue
        pairs.append(Pair(path.name, olds[0], news[0]))
    return App(folder.name, candidates, tuple(pairs), tuple(skipped))


def load_apps(root: Path, names: tuple[str, ...] | None = None) -> list[App]:
    """The apps under ``root/apps`` (those named, in that order, when ``names`` is given;
    a named app that is missing is left out)."""
    base = root / "apps"
    if names is None:
        names = tuple(sorted(p.name for p in base.iterdir() if p.is_dir()))
    return [load_app(base / name) for name in names if (base / name).is_dir()]
