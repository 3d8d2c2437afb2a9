"""Review rules about what the answer is: its name, role, link, classes and attributes
against what was recorded. An answer that is another element bearing the target's name, or
the target's neighbour, is refused."""

from __future__ import annotations

from ..geometry import share_inside
from ..index import index_of
from ..matcher import moved_box, page_shift
from ..models import SemanticElementRef
from ..text import NAME_TIERS, collapse, normalize, unrepeated
from ..web import MAX_NEARBY_CHARS
from .facts import (
    at_place,
    bears_cut_name,
    bears_name,
    gained_link,
    lost_attribute,
    lost_class,
    namesake_dressed_there,
    other_kind,
    same_anchor,
    same_space,
    xpath_rows,
    xpath_selects_best,
)
from .judge import keeps_a_word, sole_address
from .paths import indexed_steps, tags
from .rule import ROUNDING, Context, Decision, overruled

__all__ = [
    "changed_and_moved",
    "dressed_otherwise",
    "dressed_twin",
    "name_only",
    "name_unread",
    "neighbour_name",
    "numbered_series",
    "other_kind_rule",
    "slot_renamed",
]


def neighbour_name(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.neighbour_name``: an answer that does not bear the recorded name but bears
    the name of an element recorded next to the target (a nearby text or an anchor) is that
    neighbour: the target was beside it, so it is gone or renamed past recognition, and the
    source abstains. An anchor that lay inside the target's recorded box (``own_text``) is
    the target's own text, not a neighbour. Rows of the roles a source names by the label
    beside them (:attr:`~resolver.table.CandidateTable.label_named_roles`) bear a
    neighbour's name by design and are exempt."""
    ref, table = ctx.ref, ctx.table
    row = ctx.first
    if table.roles[row] in table.label_named_roles:
        return None
    name = table.names_norm[row]
    if not name or not ref.name or name == normalize(collapse(ref.name)):
        return None
    if not _names_a_neighbour(ref, name) or _own_text(ref, name, ctx.config.own_text):
        return None
    why = (
        f"the best ({table.names[row]!r}) bears the name of an element "
        "recorded next to the target, not the target's: the target is gone"
    )
    return overruled(decision, "not_found", why)


def _names_a_neighbour(ref: SemanticElementRef, name: str) -> bool:
    """Whether ``name`` (normalised) is the text of an element recorded next to the target: a
    nearby text or an anchor, equal; or a nearby text the recorder cut at
    ``MAX_NEARBY_CHARS``, which ``name`` begins with (unless the recorded name begins with it
    too: then the cut text may be the target's own); or one headed by ``name``
    (:func:`_heads`). A name that repeats one phrase (:func:`~resolver.text.unrepeated`: a
    heading whose links each carry the title) is that phrase."""
    recorded = (*ref.nearby_text, *(anchor for anchor, _ in ref.anchors))
    texts = [normalize(collapse(text)) for text in recorded]
    if name in texts or unrepeated(name) in texts:
        return True
    own = normalize(collapse(ref.name or ""))
    for text in ref.nearby_text:
        if len(text) < MAX_NEARBY_CHARS:
            continue
        cut = normalize(collapse(text))
        if cut and name.startswith(cut) and not own.startswith(cut):
            return True
    return any(_heads(name, text) and not _heads(name, own) for text in texts)


def _heads(name: str, text: str) -> bool:
    """Whether ``name`` heads ``text``: the text begins with it and goes on after a mark that
    is not a letter or digit (a figure's caption "Status code 500: the spike we saw" headed by
    its picture's name "Status code 500"). A recorded text so headed was there beside the
    target, so a row of that name is the element it captions or continues; the recorded name
    headed by it too (the target's own words) does not count."""
    if not name or len(text) <= len(name) or not text.startswith(name):
        return False
    return not text[len(name)].isalnum()


def _own_text(ref: SemanticElementRef, name: str, inside: float) -> bool:
    """Whether a recorded anchor named ``name`` (normalised) lay inside the target's recorded
    box (at least ``inside`` of it): the target's own text (a "Show" caption of a button
    named "Show password"), not a neighbour."""
    if ref.bbox is None:
        return False
    return any(
        normalize(collapse(text)) == name and share_inside(box, ref.bbox) >= inside
        for text, box in ref.anchors
    )


def changed_and_moved(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.changed_and_moved``: an answer whose role differs from the recorded one, or
    whose name differs by more than its numbers (a counter, a date), and which the recorded
    xpath does not select, must not disagree on two of the rest of its place: the recorded
    nearby texts next to it, the recorded link, its box (``changed_box``). Renamed and moved
    both, it is as likely another element sharing a word with the target (a shorter "All
    replies" in another section for a removed "View all 146 replies"), and the source
    abstains. One of the three may change with a rename (a redesign moves a button it
    renames). An answer of another role that links somewhere, where the reference (from a
    table that records links) recorded none, disagrees on its link
    (:func:`~resolver.decide.facts.gained_link`: a "Log In" link for a removed "Log In"
    button). A name that begins with a long recorded name
    (:func:`~resolver.decide.facts.bears_cut_name`) is that name cut by its recorder, not
    changed. The one link to the recorded address, under the element that held the target
    and keeping a recorded word (:func:`kept_address`), is the target renamed in its list
    (the new layout moved it and rewrote its neighbours)."""
    signals = decision.candidates[0].signals
    if xpath_selects_best(decision, 1.0) or ctx.table.document_paths is None:
        return None
    name, role = signals.get("name", 1.0), signals.get("role", 1.0)
    if role >= 1.0 - ROUNDING and (
        name >= NAME_TIERS["masked"] - ROUNDING
        or bears_cut_name(ctx.ref, ctx.table, ctx.first, ctx.config.cut_name_chars)
    ):
        return None
    link = signals.get("web:href", 1.0)
    if link >= 1.0 - ROUNDING and kept_address(ctx, decision):
        return None
    if role < 1.0 - ROUNDING and gained_link(ctx.ref, ctx.table, ctx.first):
        link = 0.0  # a control recorded without a link became one that links somewhere
    moved = [
        what
        for what, value, floor in (
            ("nearby", signals.get("web:nearby", 1.0), 1.0),
            ("link", link, 1.0),
            ("box", signals.get("bbox", 1.0), ctx.config.changed_box),
        )
        if value < floor - ROUNDING
    ]
    if len(moved) < 2:
        return None
    why = (
        f"the best differs from the reference in name ({name:.2f}) or role ({role:.2f}), the "
        f"recorded xpath does not select it, and its {' and '.join(moved)} disagree: another "
        "element sharing a word is as likely as the target changed"
    )
    return overruled(decision, "not_found", why)


def kept_address(ctx: Context, decision: Decision) -> bool:
    """Whether the best is the one element linking where the recorded link did
    (:func:`~resolver.decide.judge.sole_address`), under the element that held the target
    (its document path the recorded xpath's but for its own position), and keeps a word of
    the recorded name: a link a redesign renamed in its list and laid out elsewhere ("car
    loan" to "auto loan"). A link to the same address in another part of the page is as
    likely a copy left by a removed target."""
    ref, table, best = ctx.ref, ctx.table, decision.best
    paths = table.document_paths
    if best is None or not ref.name or not ref.xpath or paths is None:
        return False
    answer = paths[ctx.first]
    if not answer or not sole_address(ref, table):
        return False
    old, new = indexed_steps(ref.xpath), indexed_steps(str(answer))
    if old[:-1] != new[:-1] or (old[-1:] and tags(old[-1]) != tags(new[-1])):
        return False
    return keeps_a_word(ref.name, best.name)


def name_only(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.name_only``: an answer that bears the recorded name but agrees on nothing of
    the target's place (the recorded xpath does not select it, and its nearby texts, its
    link and its box, under ``changed_box``, all differ) is a namesake elsewhere: a footer's
    copy of a header link, a look-alike left by a removed target. Each of the four must be
    known. A link to the same anchor of its page (``#contact``) agrees even where the page's
    own address changed (a capture saved elsewhere, a staging host)."""
    best = decision.best
    if best is None:
        return None
    signals = best.signals
    if signals.get("name", 0.0) < NAME_TIERS["normalized"] - ROUNDING:
        return None
    place = [signals.get(k, 1.0) for k in ("id:xpath", "web:nearby", "web:href", "bbox")]
    if place[0] > 0.0 or place[1] >= 1.0 - ROUNDING or place[2] >= 1.0 - ROUNDING:
        return None
    if place[3] >= ctx.config.changed_box or same_anchor(ctx.ref, ctx.table, ctx.first):
        return None
    why = (
        f"only its name agrees: the recorded xpath does not select it, and its neighbours "
        f"({place[1]:.2f}), link ({place[2]:.2f}) and box ({place[3]:.2f}) differ: a namesake "
        "elsewhere"
    )
    return overruled(decision, "not_found", why)


def other_kind_rule(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.other_kind``: an answer of another kind than the target
    (:func:`~resolver.decide.facts.other_kind`: none of the recorded classes, which other
    elements still bear) is not the target: the source abstains. One that the recorded xpath
    selects and that bears the recorded name (or the reference none) is the target
    restyled: it keeps its place and name, and new classes alone do not refuse it."""
    ref, table, row = ctx.ref, ctx.table, ctx.first
    if xpath_selects_best(decision, 0.0) and (not ref.name or bears_name(ref, table, row)):
        return None
    if not other_kind(ref, table, row):
        return None
    why = (
        "the best bears none of the recorded classes, which other elements still bear: "
        "another kind of element"
    )
    return overruled(decision, "not_found", why)


def dressed_otherwise(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.dressed_otherwise``: an answer that the recorded xpath does not select,
    dressed otherwise than the target. It lacks a recorded class the page still uses
    (:func:`~resolver.decide.facts.lost_class`: a footer link without the header's
    ``nav-link``), or a recorded descriptive attribute's value
    (:func:`~resolver.decide.facts.lost_attribute`, the first ``attribute_compared``
    characters: another ``title`` on a link of the recorded text). It is another element
    bearing the target's name, and the source abstains. A target that moved keeps its
    classes and attributes; a build that renamed the classes left no row with the recorded
    one; a target restyled or renamed in place (a new ``alt`` with its new name) is still
    selected by its xpath."""
    if xpath_selects_best(decision, 1.0):
        return None
    ref, table, row = ctx.ref, ctx.table, ctx.first
    lost = lost_class(ref, table, row)
    attribute = (
        None if lost is not None else lost_attribute(ref, table, row, ctx.config.attribute_compared)
    )
    if lost is not None:
        why = f"the best lacks the recorded class {lost!r}, which other elements still bear"
    elif attribute is not None:
        why = f"the best's {attribute} attribute is not the recorded one: another element"
    else:
        return None
    return overruled(decision, "not_found", why)


def dressed_twin(ctx: Context, decision: Decision) -> Decision | None:
    """``ambiguous.dressed_twin``: the answer lacks a recorded class the page still uses,
    while another element of the recorded role and name bears every recorded class
    (:func:`~resolver.decide.facts.namesake_dressed_there`). Namesakes were reordered: the
    recorded xpath, which :func:`dressed_otherwise` lets select an answer restyled in place,
    followed the slot to the namesake dressed otherwise, and the classes point at the
    other. Which of the two the target is, nothing settles, and the source doubts."""
    ref, table, row = ctx.ref, ctx.table, ctx.first
    if not namesake_dressed_there(ref, table, row):
        return None
    lost = lost_class(ref, table, row)
    why = (
        f"the best lacks the recorded class {lost!r}, and another element of its name and "
        "role bears every recorded class: namesakes reordered"
    )
    return overruled(decision, "ambiguous", why)


def numbered_series(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.numbered_series``: an answer whose name is the recorded one with other
    numbers, which the recorded xpath does not select, while another element of its role
    shares that pattern (a numbered series: footnotes "22", "23", "24", "status code 400"
    and "500"): the numbers name the members, and the answer is another member rather than
    the target renumbered. A counter ("Inbox (3)" become "Inbox (12)") has no second
    member."""
    best, table = decision.best, ctx.table
    if best is None or not ctx.ref.name or table.document_paths is None:
        return None
    if xpath_selects_best(decision, 1.0):
        return None
    if abs(best.signals.get("name", 0.0) - NAME_TIERS["masked"]) > ROUNDING:
        return None
    row = ctx.first
    members = index_of(table).lookup("mask", table.names_mask[row])
    members = members[table.role_codes[members] == table.role_codes[row]]
    if members.size < 2:
        return None
    why = (
        f"{best.name!r} differs from the recorded name in its numbers only, the recorded "
        f"xpath does not select it, and {members.size} elements of its role follow that "
        "pattern: another member of a numbered series"
    )
    return overruled(decision, "not_found", why)


_DRAWN_RULES = frozenset(
    {
        "accept.drawn_at_place",
        "accept.drawn_in_box",
        "accept.drawn_in_column",
        "accept.mark_in_box",
        "accept.caption_at_place",
        "accept.placeholder_at_place",
    }
)
"""The rules that take an answer for its place and look rather than its name."""


def name_unread(ctx: Context, decision: Decision) -> Decision | None:
    """``refuse.name_unread``: on a table whose names are read from pixels
    (:attr:`~resolver.table.CandidateTable.names_read`: a screenshot), an answer for a
    named reference must bear the name as read there: its name agreement at least
    ``name_read``. Under it, what answers is something else at the recorded place or of the
    recorded role (the target's text is not on the screen: removed, scrolled away, or never
    drawn, as an ``aria-label``), and a click there would be a guess; unless the answer is
    the shape drawn at the recorded place with the page around it as it was
    (``accept.drawn_at_place``, ``accept.drawn_in_box``, ``accept.mark_in_box``; or moved
    down its column with its neighbours, ``accept.drawn_in_column``), or the
    caption or placeholder recorded inside its box (``accept.caption_at_place``,
    ``accept.placeholder_at_place``)."""
    best = decision.best
    if best is None or not ctx.table.names_read or not (ctx.ref.name or "").strip():
        return None
    if decision.rule in _DRAWN_RULES:
        return None  # taken for its place and shape or caption, the name unread by design
    agreement = best.signals.get("name", 1.0)
    if agreement >= ctx.config.name_read:
        return None
    why = (
        f"the recorded name {ctx.ref.name!r} is not read on the screen: the best reads "
        f"{best.name[:60]!r} (name {agreement:.2f})"
    )
    return overruled(decision, "not_found", why)


def slot_renamed(ctx: Context, decision: Decision) -> Decision | None:
    """``ambiguous.slot_renamed``: the answer bears the recorded name, while the recorded
    xpath selects another row of the recorded role whose name keeps every recorded word and
    adds one or so (``renamed_name`` up) and that does not link elsewhere; that row sits at
    the target's place (after the page's shift) and the answer does not, or it links where
    the recorded link did and the answer elsewhere (a renamed link in running text moves
    along its line): the target renamed is as likely as a namesake elsewhere, and the source
    cannot tell which. A name with a recorded word replaced ("Featured Demo" where "Featured
    Article" was) is as likely another element of a series, and is left alone."""
    ref, table, config = ctx.ref, ctx.table, ctx.config
    best = decision.best
    if best is None or best.bbox is None or not ref.name or ref.bbox is None:
        return None
    if best.signals.get("name", 0.0) < 1.0 or not same_space(ref, table):
        return None
    rows = xpath_rows(ref, table)
    if rows is None or len(rows) != 1 or rows[0] == ctx.first:
        return None
    slot = next((c for c in decision.candidates if c.id == table.ids[rows[0]]), None)
    if slot is None or slot.bbox is None:
        return None
    name, role = slot.signals.get("name", 0.0), slot.signals.get("role", 0.0)
    if not (config.renamed_name <= name < NAME_TIERS["masked"] and role >= 1.0):
        return None
    if slot.signals.get("web:href", 1.0) <= 0.0 or not _adds_words(ref.name, slot.name):
        return None  # a word replaced, or linking elsewhere: another element's name
    target = moved_box(ref.bbox, page_shift(ref, table))
    placed = at_place(slot.bbox, target, config) and not at_place(best.bbox, target, config)
    linked = slot.signals.get("web:href", 0.0) >= 1.0 and best.signals.get("web:href", 1.0) <= 0
    if not (placed or linked):
        return None
    why = (
        f"the recorded xpath selects {slot.name!r}, a name a word apart, "
        + ("where the target was" if placed else "linking where the target did")
        + f", while {best.name!r} is "
        + ("elsewhere" if placed else "linking elsewhere")
        + ": the target may have been renamed"
    )
    return overruled(decision, "ambiguous", why)


def _adds_words(recorded: str, name: str) -> bool:
    """Whether ``name`` holds every word of the ``recorded`` name, and more (normalised)."""
    words, kept = normalize(recorded).split(), normalize(name).split()
    return bool(words) and len(kept) > len(words) and set(words) <= set(kept)
