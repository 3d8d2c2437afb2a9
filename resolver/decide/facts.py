"""What several rules read of a reference against a table: its namesakes, where things sit,
which rows its recorded xpath selects, what a row is dressed in."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ..config import MatchConfig
from ..geometry import Box, CoordSpace, iou_one, share_inside
from ..index import index_of
from ..models import MAX_ANCHORS, SemanticElementRef
from ..results import Candidate
from ..roles import canonical_role, role_code
from ..table import MAX_ENTRY, CandidateTable, Derived
from ..text import collapse, normalize
from ..web import RECORD_ROLES, WebIndex, WebQuery, href_key, is_utility_class, stable_classes
from .rule import Context, Decision

__all__ = [
    "InnerGroups",
    "answer_row",
    "at_place",
    "bears_cut_name",
    "bears_name",
    "box_alone",
    "centre",
    "class_bearers",
    "corner_distance",
    "cut_short",
    "decided_row",
    "entry_words",
    "fewer_lookalikes",
    "gained_link",
    "in_column",
    "keeps_left",
    "kept_over",
    "kind_classes",
    "lookalikes_in_place",
    "lost_attribute",
    "lost_class",
    "name_bearers",
    "namesake_dressed_there",
    "namesake_links_there",
    "namesake_rows",
    "namesakes",
    "on_line",
    "other_kind",
    "other_link",
    "own_table_row",
    "record_named",
    "recorded_record",
    "row_box",
    "same_anchor",
    "same_entry_read",
    "same_inner_container",
    "same_space",
    "same_target",
    "selected_by_xpath",
    "shuffled",
    "table_row_of",
    "xpath_column_resolver",
    "xpath_rows",
    "xpath_selects_best",
]


def same_target(table: CandidateTable, a: int, b: int, iou_min: float) -> bool:
    """Nested rows that are one click target: a button and its label text, a list item and
    its only link, and on a screenshot a text read over lines and one of its lines
    (:func:`_line_of`), two readings of one name one inside the other
    (:func:`_drawn_within`), and a text's role hypotheses with whatever its first reading
    is one with (:func:`_first_reading`). Clicking the inner one activates the outer one."""
    if table.executor_id(a) == table.executor_id(b):
        return True
    if table.names_read:
        if _line_of(table, a, b) or _line_of(table, b, a) or _drawn_within(table, a, b):
            return True
        first_a, first_b = _first_reading(table, a), _first_reading(table, b)
        if (first_a, first_b) != (a, b):
            return same_target(table, first_a, first_b, iou_min)
    if not (table.is_ancestor(a, b) or table.is_ancestor(b, a)):
        return False
    names = table.names_norm
    if not names[a] or not names[b] or names[a] == names[b]:
        return True
    box_a, box_b = table.box(a), table.box(b)
    return box_a is not None and box_b is not None and iou_one(box_a, box_b) >= iou_min


def _first_reading(table: CandidateTable, row: int) -> int:
    """On a screenshot, the row of the element that ``row`` reads under another role
    hypothesis (its parent, acting on the same element: one text read as a link, a heading
    and plain text), else ``row``: the hypotheses are one target with whatever the first
    is one with (a picture drawn as its alternative text, whose row lies under the text's
    first)."""
    parent = int(table.parent[row])
    if parent >= 0 and table.executor_id(parent) == table.executor_id(row):
        return parent
    return row


def _drawn_within(table: CandidateTable, a: int, b: int) -> bool:
    """Whether rows ``a`` and ``b`` of a screenshot read the same name (normalised), one box
    wholly inside the other: one thing drawn, read twice (a picture drawn as its alternative
    text and the words of a run that read that text), as an element and its descendant of
    one name are in a tree."""
    name = table.names_norm[a]
    if not name or table.names_norm[b] != name:
        return False
    box_a, box_b = table.box(a), table.box(b)
    if box_a is None or box_b is None:
        return False
    return share_inside(box_a, box_b) >= 1.0 or share_inside(box_b, box_a) >= 1.0


def _line_of(table: CandidateTable, whole: int, part: int) -> bool:
    """Whether row ``part`` is words of row ``whole`` read apart: its box wholly inside
    ``whole``'s and its name (normalised) some of ``whole``'s words, in order (a heading
    read over lines and its last line, read as a run of its own)."""
    outer, inner = table.box(whole), table.box(part)
    name, words = table.names_norm[whole], table.names_norm[part]
    if outer is None or inner is None or not words or len(words) >= len(name):
        return False
    return share_inside(inner, outer) >= 1.0 and f" {words} " in f" {name} "


def xpath_selects_best(decision: Decision, default: float) -> bool:
    """Whether the recorded xpath selects the decision's best row (its ``id:xpath``
    signal; ``default`` where the reference or the table has no xpath)."""
    return decision.candidates[0].signals.get("id:xpath", default) > 0.0


def bears_name(ref: SemanticElementRef, table: CandidateTable, row: int) -> bool:
    """Whether ``row`` bears the recorded name exactly (as :meth:`TableIndex.namesakes
    <resolver.index.TableIndex.namesakes>` compares names: normalised, and a name of symbols
    alone as written)."""
    return bool(ref.name) and bool((index_of(table).namesakes(ref.name or "") == row).any())


def bears_cut_name(
    ref: SemanticElementRef, table: CandidateTable, row: int, min_chars: int
) -> bool:
    """Whether ``row``'s name begins with the recorded name, which is at least ``min_chars``
    characters long (0: never) and shorter (normalised): the name a recorder that keeps the
    first characters of a long name wrote for it."""
    return cut_short(normalize(collapse(ref.name or "")), table.names_norm[row], min_chars)


def cut_short(recorded: str, name: str, min_chars: int) -> bool:
    """Whether ``recorded`` (normalised), at least ``min_chars`` characters long (0: never),
    begins ``name`` (normalised) and is shorter: a long name a recorder cut."""
    if min_chars <= 0 or len(recorded) < min_chars or len(name) <= len(recorded):
        return False
    return name.startswith(recorded)


def namesake_rows(ref: SemanticElementRef, table: CandidateTable) -> list[int]:
    """The rows with the ref's name and role; for a reference without a name, the rows of
    its role without one."""
    if not (ref.name or "").strip():
        if not ref.role:
            return []
        return [int(r) for r in index_of(table).unnamed(role_code(canonical_role(ref.role)))]
    rows = index_of(table).namesakes(ref.name or "")
    if ref.role:
        rows = rows[table.role_codes[rows] == role_code(canonical_role(ref.role))]
    return [int(r) for r in rows]


def name_bearers(ref: SemanticElementRef, table: CandidateTable) -> int:
    """How many rows bear the ref's name, whatever their role (nested rows of one name, a
    link and the text inside it, counted once)."""
    if not ref.name:
        return 0
    return _outermost([int(r) for r in index_of(table).namesakes(ref.name)], table)


def namesakes(ref: SemanticElementRef, table: CandidateTable) -> int:
    """How many rows have the ref's name and role (nested rows of one name counted once);
    remembered per table, as the references of one page repeat their names and roles."""
    counts = index_of(table).namesake_counts
    key = (ref.name, ref.role)
    count: int | None = counts.get(key)
    if count is None:
        count = counts.room()[key] = _outermost(namesake_rows(ref, table), table)
    return count


def _outermost(rows: list[int], table: CandidateTable) -> int:
    """How many of ``rows`` have none of the others above them."""
    kept, parent = set(rows), table.parent
    count = 0
    for row in kept:
        up = int(parent[row])
        while up >= 0 and up not in kept:
            up = int(parent[up])
        count += up < 0
    return count


def lookalikes_in_place(ref: SemanticElementRef, table: CandidateTable) -> bool:
    """Whether the page has as many elements with the recorded role and name as were
    recorded (the target and each recorded look-alike; none recorded: the reference does not
    say). One gone or one added (a removed target, a duplicated label) moves the others'
    document places, so a recorded xpath may then select a look-alike in the target's slot.
    A reference keeps at most :data:`~resolver.models.MAX_ANCHORS` look-alikes: with that
    many, the list may not be all there were, and counting says nothing."""
    if not ref.lookalikes:
        return True
    if len(ref.lookalikes) >= MAX_ANCHORS:
        return False
    return namesakes(ref, table) == len(ref.lookalikes) + 1


def fewer_lookalikes(ref: SemanticElementRef, table: CandidateTable) -> bool:
    """Whether fewer elements bear the recorded role and name than the reference recorded
    (the target and its look-alikes), as far as the recorded list can tell: one is gone."""
    if len(ref.lookalikes) >= MAX_ANCHORS:
        return True
    return namesakes(ref, table) <= len(ref.lookalikes)


def same_space(ref: SemanticElementRef, table: CandidateTable) -> bool:
    """Whether the ref's boxes are in the table's coordinate space."""
    if table.coord_space is CoordSpace.NONE:
        return False
    space = table.coord_space
    return not (ref.coord_space and space.known and ref.coord_space != space)


def box_alone(ref: SemanticElementRef, table: CandidateTable) -> bool:
    """Whether ``table`` is read from pixels (a screenshot's) and ``ref`` is a named
    reference whose box, in the table's space, is all it recorded of its place (no anchors,
    no look-alikes: what another tool keeps)."""
    if not table.names_read or not ref.name or ref.bbox is None:
        return False
    return not ref.anchors and not ref.lookalikes and same_space(ref, table)


def same_inner_container(
    ref: SemanticElementRef, path: tuple[str, ...], read: bool = False
) -> bool:
    """Whether ``path`` ends in the ref's innermost recorded container, when that names a
    group inside the page (not the outermost entry, the page or window title; not a landmark
    token; not the element's own name). With ``read`` (a table whose texts were read from
    pixels) the entries are compared by :func:`same_entry_read`."""
    if len(ref.container_path) < 2 or not path:
        return False
    inner = normalize(ref.container_path[-1][:MAX_ENTRY])
    if not inner or ref.container_path[-1].startswith("[") or inner == normalize(ref.name or ""):
        return False
    entry = normalize(path[-1])
    return entry == inner or (read and same_entry_read(inner, entry))


def same_entry_read(recorded: str, entry: str) -> bool:
    """Whether a container entry read from pixels (``entry``) is the ``recorded`` one (both
    normalised) but for characters standing alone that the recording does not have: an icon
    drawn before a caption ("✎ Edit", "✕ Delete") is read as a sign or a letter of its own
    ("• Edit", "x Delete"), and a table row's text then holds one per button. A digit alone
    is never dropped: it tells rows apart ("Row 1", "Row 2")."""
    kept = recorded.split(" ")
    own = set(kept)
    words = entry.split(" ")
    if any(len(w) == 1 and w not in own and w.isdigit() for w in words):
        return False
    return [w for w in words if len(w) > 1 or w in own] == kept


def on_line(box: Box, place: Box, share: float) -> bool:
    """Whether a text read on a screenshot lies inside an element's place: its centre on
    the place's line, and ``share`` of its width within the place's (a line's ink box is
    often taller than the element that holds it, so its area may stick out above and
    below)."""
    middle = (box[1] + box[3]) / 2.0
    return place[1] <= middle <= place[3] and in_column(box, place, share)


def row_box(table: CandidateTable, row: int) -> Box:
    """The box of a row known to have one."""
    box = table.box(row)
    assert box is not None
    return box


def in_column(box: Box, place: Box, share: float = 0.0) -> bool:
    """Whether ``box`` lies in the column of ``place``, at any height: more than nothing,
    and ``share`` at least, of its width within the place's. A banner, a removal or a line
    inserted above moves what follows down or up its column, never across into another."""
    width = box[2] - box[0]
    within = min(box[2], place[2]) - max(box[0], place[0])
    return width > 0 and within > 0 and within >= share * width


def keeps_left(box: Box, place: Box, slack: float) -> bool:
    """Whether ``box``'s left edge lies within ``slack`` px of ``place``'s: a block moved up
    or down the page keeps its left edge, where a namesake in an indented list or another
    column starts elsewhere."""
    return abs(box[0] - place[0]) <= slack


def at_place(box: Box, place: Box, config: MatchConfig) -> bool:
    """Whether ``box`` sits at the recorded ``place``: they overlap by ``renamed_place``
    (IoU), or, as a renamed element grows or shrinks along its line, the smaller lies
    ``renamed_inside`` inside the larger and their heights agree within
    ``renamed_height``."""
    if iou_one(box, place) >= config.renamed_place:
        return True
    heights = sorted((box[3] - box[1], place[3] - place[1]))
    if heights[1] <= 0 or heights[1] - heights[0] > config.renamed_height * heights[1]:
        return False
    # The smaller box's share inside the larger is the larger of the two shares.
    return max(share_inside(box, place), share_inside(place, box)) >= config.renamed_inside


def xpath_column_resolver(table: CandidateTable) -> Callable[[str, str], Sequence[int]] | None:
    """``(kind, selector) -> rows`` for a table with an ``xpath`` column and no selector
    engine: the rows whose xpath is the recorded one, compared in the column's form (a css
    selector selects nothing)."""
    if table.document_paths is None:
        return None
    index = index_of(table)

    def run(kind: str, selector: str) -> Sequence[int]:
        if kind != "xpath":
            return ()
        key = table.id_key("xpath", selector)
        return index.id_rows("xpath", key).tolist() if key else ()

    return run


def xpath_rows(ref: SemanticElementRef, table: CandidateTable) -> list[int] | None:
    """The rows whose ``xpath`` is the recorded one (in the column's form), or None when the
    reference recorded no xpath or the table has no such column."""
    run = xpath_column_resolver(table) if ref.xpath else None
    return None if run is None or not ref.xpath else list(run("xpath", ref.xpath))


def selected_by_xpath(ref: SemanticElementRef, table: CandidateTable, row_id: str) -> bool:
    """Whether the recorded xpath selects exactly the row ``row_id``."""
    rows = xpath_rows(ref, table)
    return rows is not None and len(rows) == 1 and table.ids[rows[0]] == row_id


def kind_classes(ref: SemanticElementRef) -> frozenset[str]:
    """The recorded classes that say what kind of element the target is: stable (not
    generated by a build) and not utility classes (:func:`~resolver.web.is_utility_class`:
    ``display-block`` and ``font-bold`` style any kind of element, and a restyle changes
    them first)."""
    return frozenset(t for t in stable_classes(ref.classes) if not is_utility_class(t))


def other_kind(ref: SemanticElementRef, table: CandidateTable, row: int) -> bool:
    """Whether ``row`` is another kind of element than the target: it has stable classes,
    none of them recorded, while other rows still bear one (so the build did not rename
    them). A sibling that slid into the target's ``nth-of-type`` slot (the title link of a
    teaser whose image link went) reads so, as does a namesake built differently elsewhere
    on the page; the target renamed or moved keeps its classes. Utility classes
    (:func:`~resolver.web.is_utility_class`: ``display-block``, ``font-bold``) style any
    kind of element and are not read."""
    recorded = kind_classes(ref)
    if not recorded:
        return False
    by_token, counts = table.derived(WebIndex).classes
    if counts[row] == 0:
        return False
    kept = [by_token[token] for token in recorded if token in by_token]
    return bool(kept) and not any(row in rows for rows in kept)


def other_link(
    ref: SemanticElementRef, table: CandidateTable, row: int, moved_segments: int
) -> bool:
    """Whether ``row`` links elsewhere than the recorded link (another path, or another
    fragment of it; a path moved under another section is the same, where no row links to
    the recorded path: :meth:`~resolver.web.WebIndex.moved_rows`)."""
    recorded = href_key(ref.href) if ref.href else None
    if recorded is None:
        return False
    hosts, paths, fragments = table.derived(WebIndex).hrefs
    if paths[row] is None:
        return False
    host_agrees = not recorded[0] or hosts[row] in ("", recorded[0])
    index = table.derived(WebIndex)
    same_path = paths[row] == recorded[1] or row in index.moved_rows(recorded[1], moved_segments)
    return not (host_agrees and same_path and fragments[row] == recorded[2])


def namesake_links_there(
    ref: SemanticElementRef, table: CandidateTable, row: int, moved_segments: int
) -> bool:
    """Whether ``row`` links elsewhere than the recorded link (:func:`other_link`) while
    another row of the recorded role and name links there: reordered rows, where what
    selects ``row`` (a positional selector, its place) followed the slot, not the element."""
    if not other_link(ref, table, row, moved_segments):
        return False
    paths = table.derived(WebIndex).hrefs[1]
    return any(
        other != row
        and paths[other] is not None
        and not other_link(ref, table, other, moved_segments)
        for other in namesake_rows(ref, table)
    )


def namesake_dressed_there(ref: SemanticElementRef, table: CandidateTable, row: int) -> bool:
    """Whether ``row`` lacks a recorded class the page still uses (:func:`lost_class`) while
    another row of the recorded role and name bears every recorded class
    (:func:`kind_classes`): reordered namesakes, where what selects ``row`` (a positional
    selector, its place) followed the slot, not the element. Only for a named reference,
    where the table knows classes."""
    if not ref.name or lost_class(ref, table, row) is None:
        return False
    dressed = class_bearers(table, kind_classes(ref))
    if not dressed.size:
        return False
    others = np.asarray(namesake_rows(ref, table), dtype=np.intp)
    return bool(np.isin(others[others != row], dressed, assume_unique=True).any())


def class_bearers(table: CandidateTable, tokens: frozenset[str]) -> npt.NDArray[np.intp]:
    """The rows bearing every class token of ``tokens``, ascending (none for no tokens, or
    a token no row bears): one intersection of the class index's rows per token."""
    by_token, _ = table.derived(WebIndex).classes
    if not tokens or not tokens <= by_token.keys():
        return np.empty(0, dtype=np.intp)
    rows = by_token[min(tokens)]
    for token in tokens:
        rows = np.intersect1d(rows, by_token[token], assume_unique=True)
    return rows.astype(np.intp, copy=False)


def same_anchor(ref: SemanticElementRef, table: CandidateTable, row: int) -> bool:
    """Whether the row links to the recorded link's fragment (``#contact``), a non-empty
    one."""
    recorded = href_key(ref.href) if ref.href else None
    if recorded is None or not recorded[2]:
        return False
    return bool(table.derived(WebIndex).hrefs[2][row] == recorded[2])


def gained_link(ref: SemanticElementRef, table: CandidateTable, row: int) -> bool:
    """Whether ``row`` links somewhere while the reference, from a table that records links,
    recorded none (a button, where a link of its name now is)."""
    if ref.href is not None or "href" not in table.platform_ids:
        return False
    return table.derived(WebIndex).hrefs[1][row] is not None


def lost_class(ref: SemanticElementRef, table: CandidateTable, row: int) -> str | None:
    """A recorded stable class that ``row`` lacks while another row of the page still bears
    it (``None`` if there is none): the page kept that style, and the row is not dressed in
    it. Only where the table knows classes; utility classes are not read (see
    :func:`kind_classes`)."""
    recorded = kind_classes(ref)
    if not recorded or "class" not in table.platform_ids:
        return None
    by_token, _ = table.derived(WebIndex).classes
    lost = sorted(t for t in recorded if t in by_token and not (by_token[t] == row).any())
    return lost[0] if lost else None


def lost_attribute(
    ref: SemanticElementRef, table: CandidateTable, row: int, compared: int
) -> str | None:
    """A recorded descriptive attribute (``title``, ``alt``, ``placeholder``, ``name``,
    ``type``) whose value ``row`` does not have, with another value or none (``None`` if it
    has them all), comparing the first ``compared`` characters of the normalised values (a
    recorder caps long values before it normalises them, the table after). Only attributes
    the table knows."""
    query = WebQuery.build(ref)
    if query is None:
        return None
    index = table.derived(WebIndex)
    for name, value in query.attributes:
        if f"attr:{name}" not in table.platform_ids:
            continue
        seen = index.attribute(name)[row]
        if seen is None or seen[:compared] != value[:compared]:
            return name
    return None


def own_table_row(
    ref: SemanticElementRef, table: CandidateTable, row: int, config: MatchConfig
) -> bool:
    """Whether ``row`` lies in a table row (at most ``table_row_depth`` levels up) that is
    the ref's innermost recorded container (:func:`same_inner_container`, or the record the
    reference recorded, :func:`recorded_record`: Alice's row, named by its text) and no other
    row of the recorded role and name is in a container of that name. The text inside a
    button, repeating its name, is the button."""
    paths, read = table.containers, table.names_read
    record = recorded_record(ref)
    named = bool(paths[row]) and _same_entry(record, normalize(paths[row][-1][:MAX_ENTRY]), read)
    if not (same_inner_container(ref, paths[row], read) or named):
        return False
    if table_row_of(table, row, config.table_row_depth) is None:
        return False
    inner, inside = normalize(paths[row][-1]), index_of(table).repeats_parent
    return not any(
        r != row
        and not inside[r]
        and paths[r]
        and _same_entry(inner, normalize(paths[r][-1]), read)
        for r in namesake_rows(ref, table)
    )


def _same_entry(recorded: str | None, entry: str, read: bool) -> bool:
    """Whether the normalised ``entry`` is ``recorded``, or with ``read`` is it but for
    stray characters read (:func:`same_entry_read`)."""
    if recorded is None:
        return False
    return entry == recorded or (read and same_entry_read(recorded, entry))


class InnerGroups(Derived):
    """The innermost container entries of a table's rows (each distinct path once),
    normalised as recorded ones are compared, and how many distinct entries hold each word
    (``table.derived(InnerGroups)``)."""

    def __init__(self, table: CandidateTable) -> None:
        super().__init__(table)
        inner = {p[-1] for p in index_of(table).containers.paths if p}
        normal = {entry: normalize(entry[:MAX_ENTRY]) for entry in inner}
        self.entries = frozenset(normal.values())
        self.words: dict[str, int] = {}
        for entry, norm in normal.items():
            for word in set(entry_words(entry, norm)):
                self.words[word] = self.words.get(word, 0) + 1
        self._page_words: frozenset[str] | None = None

    @property
    def page_words(self) -> frozenset[str]:
        """Every word of every row's name: the texts the page shows (made on first use)."""
        if self._page_words is None:
            self._page_words = frozenset(
                word for name in set(self.table.names_norm) for word in name.split()
            )
        return self._page_words


def entry_words(entry: str, norm: str) -> list[str]:
    """The words of a container entry (``norm``: its normalised form); the last is left out
    of an entry cut at :data:`~resolver.table.MAX_ENTRY` characters (it may be a piece of a
    word)."""
    words = norm.split()
    return words[:-1] if len(entry) >= MAX_ENTRY else words


def table_row_of(
    table: CandidateTable, row: int, depth: int, roles_of: frozenset[str] = RECORD_ROLES
) -> int | None:
    """The table row (:data:`resolver.web.RECORD_ROLES`, or a row of ``roles_of``) at most
    ``depth`` levels above ``row``, or ``None``."""
    parent, roles = table.parent, table.roles
    up = int(parent[row])
    for _ in range(depth):
        if up < 0 or roles[up] in roles_of:
            break
        up = int(parent[up])
    return up if up >= 0 and roles[up] in roles_of else None


def answer_row(table: CandidateTable, decision: Decision) -> int | None:
    """The table row of the decision's answer (its best candidate), or ``None``."""
    best = decision.best
    return None if best is None else index_of(table).rows_by_id.get(best.id)


def decided_row(ctx: Context, decision: Decision) -> int | None:
    """The table row of the decision's answer: the row under review when it bears the
    answer's ID (the rules before have moved :attr:`Context.first` with the answer), else
    looked up by ID (:func:`answer_row`, which indexes every row ID of
    the table once: a fresh table's first resolve pays for it)."""
    best = decision.best
    if best is None:
        return None
    if ctx.scored.rows.size or ctx.answer is not None:
        row = ctx.first
        if ctx.table.ids[row] == best.id:
            return row
    return answer_row(ctx.table, decision)


def recorded_record(ref: SemanticElementRef) -> str | None:
    """The ref's innermost recorded container when it is a record named by its texts
    (:func:`record_named`), normalised; else ``None``."""
    if not ref.container_path or not ref.name:
        return None
    return record_named(ref.container_path[-1], ref.name)


@lru_cache(maxsize=4096)
def record_named(entry: str, name: str) -> str | None:
    """``entry`` normalised when it names a record by its texts (a table row, a list item:
    the entry holds the element's own ``name`` as words, and more), else ``None``."""
    inner = normalize(entry[:MAX_ENTRY])
    own = normalize(name)
    if not own or len(inner) <= len(own):
        return None
    return inner if re.search(rf"(?<!\w){re.escape(own)}(?!\w)", inner) else None


def centre(box: Box) -> tuple[float, float]:
    """A box's centre."""
    return ((box[0] + box[2]) / 2.0, (box[1] + box[3]) / 2.0)


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def corner_distance(a: Box, b: Box) -> float:
    """How far box ``a`` is from box ``b``: the mean of the distances between their top-left
    corners and between their bottom-right corners. For boxes of one size that is the
    distance between their centres; a box drawn around another (a placeholder image behind
    the picture it stands for) shares its centre but not its corners."""
    return (_distance(a[:2], b[:2]) + _distance(a[2:], b[2:])) / 2.0


def nearest_moved(
    box: Box, boxes: Sequence[Box], shift: tuple[float, float, float, float]
) -> float:
    """``min(corner_distance(box, moved_box(b, shift)) for b in boxes)``, each distance
    computed with the same operations in one loop (a review rule asks it of every answer
    whose reference recorded look-alikes)."""
    sx, sy, dx, dy = shift
    left, top, right, bottom = box
    hypot = math.hypot
    return min(
        (
            hypot(left - (b[0] * sx + dx), top - (b[1] * sy + dy))
            + hypot(right - (b[2] * sx + dx), bottom - (b[3] * sy + dy))
        )
        / 2.0
        for b in boxes
    )


def shuffled(ref: SemanticElementRef, table: CandidateTable, row: int, place: Box) -> bool:
    """Whether another row of the recorded role and name than ``row`` lies nearer to the
    target's recorded ``place``: the look-alikes traded places (a table's rows sorted), so
    only their containers tell them apart. A removed target's survivor is the namesake
    nearest to where the target was when nothing took its place."""
    rows = np.asarray([r for r in namesake_rows(ref, table) if r != row], dtype=np.intp)
    if not rows.size:
        return False
    geo, (px, py) = index_of(table).geometry, centre(place)
    picked = np.append(rows, row)
    far = np.hypot(geo.cx[picked] - px, geo.cy[picked] - py)
    others = far[:-1][np.isfinite(far[:-1])]
    return bool(np.isfinite(far[-1]) and others.size and others.min() < far[-1])


def kept_over(
    decision: Decision, fits: Callable[[Candidate, Candidate], bool]
) -> tuple[Candidate, Candidate] | None:
    """``(kept, other)``: the best and its runner-up, in the order ``fits(kept, other)``
    accepts (tried both ways), or None. Both must have a box."""
    best, rival = decision.best, decision.runner_up
    if best is None or rival is None or best.bbox is None or rival.bbox is None:
        return None
    for kept, other in ((best, rival), (rival, best)):
        if fits(kept, other):
            return kept, other
    return None
