"""A slow, obvious scorer: one row at a time, plain Python, straight from the definitions
in resolver.config. The vectorised matcher must agree with it."""

from __future__ import annotations

import math
import statistics

from resolver.config import MatchConfig
from resolver.models import ID_FIELDS, SemanticElementRef
from resolver.roles import canonical_role, role_compat
from resolver.table import CandidateTable
from resolver.text import (
    _item_similarity,
    collapse,
    container_similarity,
    name_similarity,
    normalize,
)
from resolver.web import (
    NEARBY_COLUMN,
    href_key,
    is_generated_class,
    nearby_key,
    paths_agree,
    split_nearby,
)


def bbox_score(ref: tuple[float, float, float, float], box: list[float], unknown: float) -> float:
    if any(math.isnan(v) for v in box):
        return unknown
    left, top, right, bottom = ref
    cl, ct, cr, cb = box
    rw, rh, cw, ch = right - left, bottom - top, cr - cl, cb - ct
    dist = math.hypot((cl + cr) / 2 - (left + right) / 2, (ct + cb) / 2 - (top + bottom) / 2)
    diag = max(math.hypot(rw, rh), 24.0)
    dist_sim = math.exp(-dist / (2 * diag + 50))
    inter = max(0.0, min(cr, right) - max(cl, left)) * max(0.0, min(cb, bottom) - max(ct, top))
    union = cw * ch + rw * rh - inter
    iou = inter / union if union > 0 else float(dist < 1.0)
    if cw <= 0 and rw <= 0:
        size = 1.0
    else:
        size = (min(cw, rw) / max(cw, rw, 1e-9)) * (min(ch, rh) / max(ch, rh, 1e-9))
    return 0.5 * dist_sim + 0.25 * iou + 0.25 * size


def named_ancestors(table: CandidateTable) -> list[tuple[str, ...]]:
    """Every row's named ancestors, any role, outermost first (the innermost 12)."""
    out = []
    for i in range(len(table)):
        names = []
        p = int(table.parent[i])
        while p >= 0:
            if table.names[p]:
                names.append(table.names[p][:200])
            p = int(table.parent[p])
        out.append(tuple(reversed(names))[-12:])
    return out


def _cell(table: CandidateTable, column: str, i: int) -> str | None:
    values = table.platform_ids.get(column)
    return values[i] if values is not None else None


def _stable(tokens: list[str] | tuple[str, ...]) -> set[str]:
    return {t for t in tokens if t and not is_generated_class(t)}


def reading_order(table: CandidateTable) -> list[int]:
    """Named rows in document order, without those repeating their parent's name."""
    norm = table.names_norm
    return [
        i for i in range(len(table))
        if norm[i] and (table.parent[i] < 0 or norm[int(table.parent[i])] != norm[i])
    ]  # fmt: skip


def web_agreement(
    ref: SemanticElementRef, table: CandidateTable, config: MatchConfig
) -> dict[str, tuple[float, list[float | None]]]:
    """Per web signal, its weight and each row's agreement (``None`` where it is absent)."""
    seq = reading_order(table)
    keys = list(dict.fromkeys(k for t in ref.nearby_text if (k := nearby_key(t))))
    places = {k: [p for p, r in enumerate(seq) if nearby_key(table.names[r]) == k] for k in keys}
    found = [k for k in keys if places[k]]
    recorded = any(table.platform_ids.get(NEARBY_COLUMN) or ())
    ref_classes = _stable(ref.classes)
    ref_href = href_key(ref.href) if ref.href else None
    row_hrefs = [href_key(h) if (h := _cell(table, "href", i)) else None for i in range(len(table))]
    # A moved link path counts only where no row links to the recorded path itself.
    moved = 0 if any(h and ref_href and h[1] == ref_href[1] for h in row_hrefs) else None
    ref_attrs = {k: normalize(v) for k, v in ref.attributes.items() if normalize(v)}
    out: dict[str, tuple[float, list[float | None]]] = {
        name: (weight, []) for name, weight in (
            ("tag", config.w_tag), ("class", config.w_class), ("href", config.w_href),
            ("attr", config.w_attribute), ("nearby", config.w_nearby),
        )
    }  # fmt: skip
    for i in range(len(table)):
        tag = _cell(table, "tag", i)
        out["tag"][1].append(float(tag.lower() == ref.tag) if ref.tag and tag else None)
        row_classes = _stable((_cell(table, "class", i) or "").split()[:32])
        out["class"][1].append(
            len(ref_classes & row_classes) / len(ref_classes | row_classes)
            if ref_classes and row_classes else None
        )  # fmt: skip
        row_href = row_hrefs[i]
        agree = None
        if ref_href and row_href:
            segments = config.href_moved_segments if moved is None else moved
            same = paths_agree(ref_href[1], row_href[1], segments) and (
                not ref_href[0] or not row_href[0] or ref_href[0] == row_href[0]
            )
            agree = 0.5 * same + 0.5 * (same and ref_href[2] == row_href[2])
        out["href"][1].append(agree)
        have = [
            normalize(m) == v for k, v in ref_attrs.items() if (m := _cell(table, f"attr:{k}", i))
        ]
        out["attr"][1].append(sum(have) / len(have) if have else None)
        pos = sum(1 for r in seq if r < i)
        hits = sum(any(abs(p - pos) <= config.nearby_window for p in places[k]) for k in found)
        derived = hits / len(found) if found else None
        own = _cell(table, NEARBY_COLUMN, i) if recorded else None
        if own and keys:
            # texts the source recorded for the node: the share of the reference's among them
            mine = {nearby_key(t) for t in split_nearby(own)}
            share = sum(k in mine for k in keys) / len(keys)
            derived = share if derived is None else max(share, derived)
        out["nearby"][1].append(derived)
    return out


def web_terms(
    ref: SemanticElementRef, table: CandidateTable, config: MatchConfig
) -> list[tuple[float, float]]:
    """Per row, the (numerator, denominator) the web evidence adds: each signal where the row
    has a value; classes only while some row shares one."""
    terms = [(0.0, 0.0)] * len(table)
    for name, (weight, agreement) in web_agreement(ref, table, config).items():
        if weight <= 0 or all(a is None for a in agreement):
            continue
        if name == "class" and not any(agreement):  # renamed everywhere: no evidence
            continue
        terms = [
            (num + weight * a, den + weight) if a is not None else (num, den)
            for (num, den), a in zip(terms, agreement, strict=True)
        ]
    return terms


def reference_scores(
    ref: SemanticElementRef, table: CandidateTable, config: MatchConfig
) -> list[float]:
    """The score of every row, by the book."""
    out = []
    ref_box = ref.bbox
    bbox_weight = config.w_bbox if table.coord_space != "none" else 0.0
    spaces_differ = ref.coord_space and table.coord_space not in ("unknown", ref.coord_space)
    if bbox_weight and spaces_differ:
        bbox_weight *= config.bbox_other_space
    sx = sy = 1.0
    if ref_box is not None and ref.screen_size and table.screen_size:
        sx = table.screen_size[0] / ref.screen_size[0]
        sy = table.screen_size[1] / ref.screen_size[1]
    readings = [_placed(ref, table, sx, sy)]
    if ref_box is not None and (abs(sx - 1) > 1e-6 or abs(sy - 1) > 1e-6):
        unscaled = _placed(ref, table, 1.0, 1.0)  # a resized window: not rescaled
        readings.append(unscaled)
        assert ref.screen_size is not None and table.screen_size is not None
        across = (table.screen_size[0] - ref.screen_size[0]) / 2  # a centred page
        if unscaled is not None and abs(across) > 1e-6:
            readings.append((unscaled[0] + across, unscaled[1], unscaled[2] + across, unscaled[3]))
    ref_box = readings[0]
    recorded = tuple(entry[:200] for entry in ref.container_path)  # as the table cuts them
    ids = []
    for field, column in ID_FIELDS:
        value = getattr(ref, field)
        if value and column in table.platform_ids:
            ids.append((column, table.id_key(column, value)))
    ancestors = named_ancestors(table)
    container_entries = {e for path in table.containers for e in path}
    ancestor_entries = {e for path in ancestors for e in path}

    def best(item: str, entries: set[str]) -> float:
        return max((_item_similarity(item, e) for e in entries), default=0.0)

    present = {
        column: any(v and table.id_key(column, v) == value for v in table.platform_ids[column])
        for column, value in ids
    }
    own = normalize(collapse(ref.name)) if ref.name else ""
    container = tuple(e for e in recorded if not own or normalize(collapse(e)) != own)
    container = tuple(  # a landmark no path holds any more is gone for every row
        e for e in container if not e.startswith("[") or e in container_entries
    )
    entries = {entry for path in (*table.containers, *ancestors) for entry in path}

    def unknown(entry: str) -> bool:
        return not any(_item_similarity(entry, e) >= config.outer_container_match for e in entries)

    title = (
        bool(container)
        and bool(table.document_name)
        and (normalize(collapse(container[0])) == normalize(collapse(table.document_name)))
    )
    if container and (title or unknown(container[0])):
        container = container[1:]  # the document itself, or a level nothing here resembles
    if title and container and unknown(container[0]):
        container = container[1:]  # the page's outermost level, under its title
    if table.groups_by_title:  # a screenshot checks only entries some group title resembles
        container = tuple(
            e for e in container
            if not e.startswith("[") and best(e, container_entries) >= config.group_agrees
        )  # fmt: skip
    # Which paths the recorded one names: each entry votes for the vocabulary it agrees with
    # better (at 0.5 or more).
    votes = [(best(item, container_entries), best(item, ancestor_entries)) for item in container]
    style = sum(a >= 0.5 and a > c for c, a in votes) > sum(c >= 0.5 and c > a for c, a in votes)
    occurrence = {}
    if ref.occurrence and ref.name and normalize(collapse(ref.name)):
        k, n = ref.occurrence
        any_path = table.names_read and _group_in_view(ref, table)
        page = _page_rank(ref, table) if table.names_read else None
        if page is not None:  # counted among every namesake on the screen
            (k, n), any_path = page, True
        want = canonical_role(ref.role) if ref.role else None
        group = [
            i for i in range(len(table))
            if table.names_norm[i] == normalize(collapse(ref.name))
            and (want is None or table.roles[i] == want)
            and (any_path or table.containers[i] == recorded)
        ]  # fmt: skip
        m = len(group)
        for j, i in enumerate(group):
            same = m == n and j == k
            occurrence[i] = 1.0 if same else 0.0
    web = web_terms(ref, table, config)
    with_paths = sum(1 for path in table.containers if path)
    flat = len(table) > 0 and with_paths / len(table) < 0.5
    for i in range(len(table)):
        num = 0.0
        den = 0.0
        gate = 1.0
        if ref.role:
            compat = role_compat(canonical_role(ref.role), table.roles[i])
            num += config.w_role * compat
            den += config.w_role
            gate *= min(1.0, config.role_gate_floor + compat)
        if table.visible[i] == 0:
            gate *= config.hidden_factor
        if ref_box is not None and bbox_weight > 0:
            box = [float(v) for v in table.bboxes[i]]
            agreement = max(bbox_score(b, box, config.bbox_unknown) for b in readings if b)
            num += bbox_weight * agreement
            den += bbox_weight
            if not spaces_differ:
                gate *= config.bbox_gate_floor + (1 - config.bbox_gate_floor) * agreement
        states = []
        for wanted, column in ((ref.enabled, table.enabled), (ref.focused, table.focused)):
            if wanted is not None:
                have = int(column[i])
                states.append(0.5 if have < 0 else float(have == int(wanted)))
        if states:
            num += config.w_state * sum(states) / len(states)
            den += config.w_state
        for column, value in ids:
            have = table.platform_ids[column][i]
            if have:
                have = table.id_key(column, have)
            positional = column in ("xpath", "css")
            weight = config.w_path if positional else config.w_id
            if have == value:  # a match counts for
                num += weight
                den += weight
            elif not positional and present[column]:  # someone else has it: not this one
                den += weight
        num += web[i][0]
        den += web[i][1]
        if i in occurrence:
            num += config.w_occurrence * occurrence[i]
            den += config.w_occurrence
        if ref.name:
            sim = name_similarity(ref.name, table.names[i])
            num += config.w_name * sim
            den += config.w_name
            gate *= config.name_gate_floor + (1 - config.name_gate_floor) * sim
        if container and (table.containers[i] or not flat):
            sim = container_similarity(container, ancestors[i] if style else table.containers[i])
            num += config.w_container * sim
            den += config.w_container
            gate *= config.container_gate_floor + (1 - config.container_gate_floor) * sim
        out.append(gate * num / (den or 1.0))
    return out


def reference_top(
    ref: SemanticElementRef, table: CandidateTable, config: MatchConfig, k: int
) -> list[tuple[int, float]]:
    scores = reference_scores(ref, table, config)
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    return [(i, scores[i]) for i in order[:k] if scores[i] >= 0.05]


def _repeats_parent(table: CandidateTable, row: int) -> bool:
    """Whether the row bears its parent's (non-empty) normalised name."""
    parent = int(table.parent[row])
    name = table.names_norm[row]
    return bool(name) and parent >= 0 and table.names_norm[parent] == name


def _group_in_view(ref: SemanticElementRef, table: CandidateTable) -> bool:
    """On a screenshot, whether a look-alike group is counted whatever its path: the
    reference recorded every other member's box, and the rows of its role and name are as
    many, each (in reading order) within the width and height of the recorded box of the
    same rank (moved as the matcher moves recorded boxes)."""
    assert ref.occurrence is not None
    if len(ref.lookalikes) != ref.occurrence[1] - 1:
        return False
    return _rank_on_screen(ref, table) is not None


def _page_rank(ref: SemanticElementRef, table: CandidateTable) -> tuple[int, int] | None:
    """On a screenshot, for a reference that recorded more namesakes than its group counts:
    its rank among all of them and their number, when the screen shows each where it was
    (as :func:`_group_in_view` checks a group)."""
    assert ref.occurrence is not None
    if len(ref.lookalikes) <= ref.occurrence[1] - 1:
        return None
    rank = _rank_on_screen(ref, table)
    return None if rank is None else (rank, len(ref.lookalikes) + 1)


def _rank_on_screen(ref: SemanticElementRef, table: CandidateTable) -> int | None:
    """The recorded box's rank in reading order among itself and its recorded look-alikes,
    when the rows of its role and name are as many and each lies at the place of its rank
    (or all moved by one shift of their own); else None."""
    if ref.bbox is None or not ref.name:
        return None
    key = normalize(collapse(ref.name))
    want = canonical_role(ref.role) if ref.role else None
    rows = [
        i for i in range(len(table))
        if table.names_norm[i] == key and (want is None or table.roles[i] == want)
    ]  # fmt: skip
    if len(rows) != len(ref.lookalikes) + 1:
        return None
    sx = sy = 1.0
    if ref.screen_size and table.screen_size:
        sx = table.screen_size[0] / ref.screen_size[0]
        sy = table.screen_size[1] / ref.screen_size[1]
    placed = _placed(ref, table, sx, sy)
    assert placed is not None
    dx, dy = placed[0] - ref.bbox[0] * sx, placed[1] - ref.bbox[1] * sy
    moved = [
        (b[0] * sx + dx, b[1] * sy + dy, b[2] * sx + dx, b[3] * sy + dy)
        for b in (ref.bbox, *ref.lookalikes)
    ]
    order = sorted(range(len(moved)), key=lambda i: (moved[i][1], moved[i][0]))
    places = [moved[i] for i in order]
    boxes = [[float(v) for v in table.bboxes[row]] for row in rows]
    if any(math.isnan(v) for box in boxes for v in box):
        return None
    if _each_at_place(boxes, places):
        return order.index(0)
    # Or the whole group (two members or more) moved by one shift of its own, the median
    # of the members' displacements, each within a quarter of its box's width and height.
    if len(boxes) < 2:
        return None
    across = [b[0] + b[2] - p[0] - p[2] for b, p in zip(boxes, places, strict=True)]
    down = [b[1] + b[3] - p[1] - p[3] for b, p in zip(boxes, places, strict=True)]
    mid_across, mid_down = statistics.median(across), statistics.median(down)
    together = all(
        abs(a - mid_across) / 2 <= (p[2] - p[0]) / 4 and abs(d - mid_down) / 2 <= (p[3] - p[1]) / 4
        for a, d, p in zip(across, down, places, strict=True)
    )
    return order.index(0) if together else None


def _each_at_place(boxes: list[list[float]], places: list[tuple[float, ...]]) -> bool:
    for box, place in zip(boxes, places, strict=True):
        across = abs(box[0] + box[2] - place[0] - place[2]) / 2.0
        down = abs(box[1] + box[3] - place[1] - place[3]) / 2.0
        if across > place[2] - place[0] or down > place[3] - place[1]:
            return False
    return True


def _least_move(start: float, end: float, was_start: float, was_end: float) -> float:
    moves = [start - was_start, end - was_end, (start + end - was_start - was_end) / 2.0]
    return sorted(moves, key=abs)[0]


def _placed(
    ref: SemanticElementRef, table: CandidateTable, sx: float, sy: float
) -> tuple[float, float, float, float] | None:
    """The recorded box scaled by ``(sx, sy)`` and moved by the median shift of the anchors
    still uniquely named on the page."""
    if ref.bbox is None:
        return None
    b = ref.bbox
    ref_box = (b[0] * sx, b[1] * sy, b[2] * sx, b[3] * sy)
    xs: list[float] = []
    ys: list[float] = []
    for name, old in ref.anchors:
        key = normalize(collapse(name))
        # The text inside a link or button repeats its name: one element, not two.
        rows = [
            i for i in range(len(table))
            if key and table.names_norm[i] == key and not _repeats_parent(table, i)
        ]  # fmt: skip
        if len(rows) == 1 and not math.isnan(float(table.bboxes[rows[0]][0])):
            new = [float(v) for v in table.bboxes[rows[0]]]
            if table.names_read:
                # On a screenshot the ink of the words may be narrower than the recorded
                # block: the least of the moves of the starts, ends and centres.
                xs.append(_least_move(new[0], new[2], old[0] * sx, old[2] * sx))
                ys.append(_least_move(new[1], new[3], old[1] * sy, old[3] * sy))
            else:
                xs.append((new[0] + new[2] - (old[0] + old[2]) * sx) / 2.0)
                ys.append((new[1] + new[3] - (old[1] + old[3]) * sy) / 2.0)
    if xs or ys:
        dx = statistics.median(xs) if xs else 0.0
        dy = statistics.median(ys) if ys else 0.0
        if table.names_read:
            # On a screenshot a median that half of the anchors or fewer lie within 12 px
            # of moves nothing.
            dx = dx if 2 * sum(abs(x - dx) <= 12.0 for x in xs) > len(xs) else 0.0
            dy = dy if 2 * sum(abs(y - dy) <= 12.0 for y in ys) > len(ys) else 0.0
        ref_box = (ref_box[0] + dx, ref_box[1] + dy, ref_box[2] + dx, ref_box[3] + dy)
    return ref_box
