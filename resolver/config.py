"""Weights and thresholds of the matcher: data, documented, overridable per call.

Every number the resolver decides with is here. ``resolve(ref, obs, threshold=0.7)`` or
``resolve(ref, obs, config=MatchConfig(w_bbox=0.0))`` override them for one call.

The score of a candidate is::

    score = role_gate * name_gate * container_gate * box_gate * visibility
            * (sum_i w_i * s_i) / (sum_i w_i)

over the signals ``i`` the reference actually has (name, role, bbox, container path, state,
platform IDs, look-alike order, web evidence), each ``s_i`` in ``[0, 1]``. The gates make a
contradiction costly: a heading with the right name is not the button, "Cancel" in the right
place is not "Save", and an "OK" in another group is not this "OK".
A candidate is accepted when its score reaches ``threshold`` **and** beats the best
candidate that is a different target by ``min_margin``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from functools import cached_property
from typing import Any

from .errors import ConfigError
from .text import CUT_NAME_CHARS

__all__ = ["DEFAULT_CONFIG", "MatchConfig"]

_COUNTS = frozenset(
    {
        "top_k",
        "nearby_window",
        "far_steps",
        "table_row_depth",
        "title_rows",
        "attribute_compared",
        "shifted_below",
        "tail_steps",
        "drawn_anchors",
    }
)
"""Fields that are counts (positive ints); every other field is a number in ``[0, 1]`` but
those below."""
_STEPS = frozenset({"href_moved_segments", "cut_name_chars", "stem_chars"})
"""Counts where 0 turns something off: an int from 0 up."""
_SCREENS = frozenset(
    {
        "left_near",
        "left_far",
        "drawn_slack",
        "drawn_picture",
        "drawn_fit",
        "mark_reach",
        "drawn_row_gap",
    }
)
"""Fields measured in screen heights: any finite number from 0 up."""
_PIXELS = frozenset({"screen_height", "clear_px"})
"""Fields measured in pixels: a finite number above 0."""


@dataclass(frozen=True)
class MatchConfig:
    """The matcher's weights, gates and decision thresholds (see the module docstring)."""

    w_name: float = 0.40
    """Name agreement (exact > normalised > digit-masked > fuzzy; :mod:`resolver.text`)."""
    w_role: float = 0.15
    """Graded role compatibility (:data:`resolver.roles.COMPAT`)."""
    w_bbox: float = 0.20
    """Box agreement: centre distance relative to size, IoU and size ratio."""
    w_container: float = 0.25
    """Agreement of the named-ancestor path, innermost entries weighing most."""
    w_state: float = 0.05
    """Enabled/focused agreement, when the ref recorded them."""
    w_id: float = 0.50
    """Each platform ID the ref carries and a row matches (automation_id, accessibility_id)."""
    w_occurrence: float = 0.15
    """The recorded ordinal among elements with the same role and name (the 2nd "Share"),
    counted for the rows of that group only."""
    w_path: float = 0.15
    """A recorded xpath or css selector a row still matches: positional, so weaker than an ID
    (after a reorder the old path names the neighbour)."""

    w_tag: float = 0.05
    """Web evidence, each counted only where the row has a value too
    (:mod:`resolver.web`): the same HTML tag (weak: markup changes)."""
    w_class: float = 0.10
    """Jaccard overlap of the hand-written class tokens (generated ones are left out)."""
    w_href: float = 0.15
    """The same link target (path and stable query; a different fragment alone counts half)."""
    href_moved_segments: int = 2
    """A link target counts as the same when one path is the other with leading segments
    added or dropped, this many segments or more kept (``/mortgage/mortgage-rates`` and
    ``/personal/mortgage/mortgage-rates``: a redesign moved the site's pages under a new
    section), its query the same or one query a part of the other (a parameter dropped);
    0 counts equal paths only."""
    w_attribute: float = 0.10
    """Agreement of the recorded ``name``/``type``/``placeholder``/``title``/``alt``
    attributes the row also has."""
    w_nearby: float = 0.15
    """Share of the recorded nearby texts (those still on the page) found next to the row."""
    nearby_window: int = 3
    """A recorded nearby text counts as next to a row within this many texts of it in
    reading order (insertions between them are tolerated)."""

    role_gate_floor: float = 0.25
    """Role gate is ``min(1, floor + compat)``: an incompatible role keeps a quarter."""
    bbox_gate_floor: float = 0.85
    """Box gate is ``floor + (1 - floor) * box`` for a box in the observation's own space
    (1.0: position adds evidence but never vetoes)."""
    container_gate_floor: float = 0.4
    """Container gate is ``floor + (1 - floor) * container_similarity``."""
    name_gate_floor: float = 0.3
    """Name gate is ``floor + (1 - floor) * name_similarity``: "Cancel" where "Save" was
    recorded keeps under half its score, however well it sits."""
    outer_container_match: float = 0.9
    """The outermost recorded container entry (a window or page title) counts only when some
    container or named ancestor of the observation agrees with it at least this much;
    otherwise it is left out (see ``matcher._usable_container``)."""
    hidden_factor: float = 0.6
    """Multiplier for rows the source reports as not visible."""
    bbox_unknown: float = 0.3
    """Box score for a row without geometry when the ref has a box."""
    bbox_other_space: float = 0.35
    """Box weight multiplier when ref and table boxes are in different coordinate spaces."""

    threshold: float = 0.6
    """Minimum score to accept a candidate."""
    min_margin: float = 0.06
    """Minimum lead over the best different target; below it the source is ambiguous."""
    min_confidence: float = 0.0
    """Minimum estimated probability of being right (:func:`resolver.calibration.confidence`
    of the score, margin and signals); 0 leaves the decision to ``threshold`` and
    ``min_margin``. One option to trade answers for fewer wrong ones and fewer answers for
    removed targets (0.9 where a wrong click costs more; the risk/coverage table of
    benchmarks/RESULTS.md)."""
    exact_agreement: float = 0.95
    """A recorded field agrees exactly with a row from this agreement up (a name differing
    in case or a stray character still does). An answer agreeing exactly with no recorded
    field (its role only compatible, its name only similar, its tag, class, link and place
    different) is refused (``refuse.nothing_exact``), where names are read as written; 0
    turns the rule off."""
    sole_threshold: float = 0.3
    """A best row under ``threshold`` is still accepted from this score up when it is the
    reference's sole namesake: the only row with the recorded name and role, exactly, where
    the reference recorded the page around it (anchors) and no look-alike, leading by
    ``sole_margin`` (its box, container and neighbours moved with a redesign; nothing else
    on the page has its name). Set it to ``threshold`` to turn the rule off."""
    sole_margin: float = 0.2
    """See ``sole_threshold``."""
    pairwise_accept: float = 1.0
    """Off (1) by default. Below 1: in a tie no tie-breaking rule could break, a web
    reference's tied row is accepted when the learned pairwise model
    (:mod:`resolver.pairwise`) gives it at least this probability and it leads every other
    target by ``pairwise_margin`` (rule ``accept.pairwise``). 0.5 is the value chosen on the
    redesigns it was fitted on, leaving one tune app out at a time
    (``benchmarks/similo/train.py``), where it answers one more tie per half; on the real
    pages' changed versions, whose ties are between elements a changed page moved, most of
    the ties it answered were wrong, so it stays off unless a replay is known to face a
    redesign (benchmarks/RESULTS.md)."""
    pairwise_margin: float = 0.02
    """See ``pairwise_accept``: the lead in probability over the best row that is not the
    same control (its ancestor or descendant)."""
    top_k: int = 5
    """How many alternatives a Resolution reports."""
    same_target_iou: float = 0.85
    """An ancestor/descendant overlapping this much is the same click target, not a rival."""
    name_read: float = 0.5
    """Name agreement a vision answer needs for a named reference (``refuse.name_unread``):
    under it the recorded name is not read on the screen."""
    drawn_iou: float = 0.5
    """On a screenshot, the overlap with the recorded box (after the page's shift) a shape
    drawn without readable text (an icon, a bordered box) needs to be taken for a named
    target whose name is read nowhere (``accept.drawn_at_place``: no row reads it by
    ``drawn_name``, nor by ``name_read`` at the recorded place), ..."""
    drawn_name: float = 0.9
    """See ``drawn_iou``."""
    drawn_slack: float = 0.01
    """... while every recorded anchor read on the screen lies within this many screen
    heights of its recorded place (after that shift), ..."""
    drawn_anchors: int = 2
    """... at least this many of them (one after the target in reading order)."""
    drawn_fit: float = 0.004
    """On a screenshot, how far (in screen heights) each edge of a drawn shape may lie from
    the recorded box for ``accept.drawn_in_box`` to take it for a reference whose box is all
    it recorded of its place (another tool's): a detected border or icon reaches a pixel or
    two beyond the element's box."""
    stem_chars: int = 4
    """On a screenshot, how many first characters a word of a control's caption and a word of
    its recorded name must share (over half of the shorter word too) for
    ``accept.stem_in_box`` to take the caption for the name in another form ("Comments"
    for "Comment"); 0 turns the rule off."""
    drawn_nearby: float = 0.5
    """See ``drawn_fit``: the share of the recorded neighbour texts read around the shape."""
    drawn_row_gap: float = 0.1
    """See ``drawn_fit``: how far apart (in screen heights, edge to edge along their line
    or column) two shapes of one kind and size may lie for ``accept.drawn_in_box`` to take
    them for a row of like icons, the next of which slides into a removed one's place."""
    mark_reach: float = 0.05
    """For ``accept.mark_in_box``, how near (in screen heights) a row must be to the mark
    filling the recorded box for its neighbour texts to be read around the mark: the mark
    itself is no row, and reads no text."""
    drawn_picture: float = 0.03
    """The shortest side, in screen heights, of a picture taken for a recorded link by
    ``accept.drawn_at_place`` and ``accept.drawn_in_box`` (a link around a logo, an avatar
    or a social network's icon is drawn as the picture, which the vision source takes for an
    image): a word the screen's reading missed (two CJK characters, a line tall) is taken for
    an icon too, and the link that moved into a link's place would be taken for it."""
    shaped_box: float = 0.8
    """On a screenshot, the box agreement (``bbox``) at which the one shape of the recorded
    role reading the recorded name is taken over plain readings of it left tied with it
    (``accept.shaped_at_place``)."""
    drawn_inside: float = 0.9
    """On a screenshot, the share of a text's box inside an element's recorded box (after
    the page's shift) for the one text reading the element's name to be taken for it (a
    field's placeholder, a heading set in body type: ``accept.read_at_place``)."""
    alt_indent: float = 0.5
    """On a screenshot, how far right of the recorded box's left side (in heights of the
    text read) the one link-coloured text reading a picture's name must start for
    ``accept.read_at_place`` to take it for the picture drawn as its alternative text: a
    picture that did not load draws a broken-image icon first, then the text. A link that
    starts where the picture did is a caption beside it (a logo and the site's name), which
    stays when the picture goes."""
    window_name: float = 0.9
    """Name agreement under which a hint window's answer needs one of the recorded anchors
    read in that window (``ambiguous.window_unanchored``): without them, nothing says the
    page did not move under the recorded box."""
    lookalike_box: float = 0.75
    """Box agreement (after the page's shift) under which a vision answer in a hint window,
    outside the group its reference recorded, counts as not where the target was, so that a
    larger window or the whole screen judges it. An OCR box is the ink's, a recorded one the
    element's: on unchanged real pages the target itself agrees 0.78-0.88 (RESULTS.md, the
    vision source). (On the other sources a look-alike's
    survivor is told by where it is, nearer a recorded look-alike's place than the
    target's, and by the rules after it; a box under this alone no longer refuses.)"""
    stray_box: float = 0.5
    """An answer whose box agrees less than this (after the page's shift), ..."""
    stray_nearby: float = 0.5
    """... with at most this share of the recorded nearby texts next to it, ..."""
    stray_path: float = 0.9
    """... and whose place in the document agrees less than this with the recorded xpath's
    (the sequence of tags, positions ignored) has only its name and role for it: it may be
    a look-alike left by a removed target, and the source abstains."""
    left_near: float = 0.25
    """A recorded neighbour (a nearby text that is unique on the page) this close to where
    the target was (after the page's shift; in screen heights, the table's or 800 px) is
    still in place, ..."""
    left_far: float = 1.0
    """... and an answer farther than this (screen heights) from every such neighbour,
    while the recorded xpath selects nothing, is another element: the target went and left
    its neighbours behind, and the source abstains."""
    torn_margin: float = 0.1
    """When the recorded xpath now selects another row of the best's role, at the recorded
    place, with nearly the recorded name (renamed a little), while the best is elsewhere,
    the best is accepted only if it leads by this much: the reference is torn between its
    name and its place."""
    changed_box: float = 0.75
    """An answer whose role differs from the recorded one, or whose name differs by more
    than its numbers, and which the recorded xpath does not select, is taken for the target
    changed only if no two of the rest of its place disagree: all recorded nearby texts
    next to it, the recorded link, and a box agreeing at least this much (after the page's
    shift). Changed in name and moved in place both, it is as likely another element that
    shares a word, and the source abstains. An answer bearing the recorded name is refused
    when it disagrees on all three (its box under this) and the recorded xpath does not
    select it: a namesake elsewhere."""
    cut_name_chars: int = CUT_NAME_CHARS
    """A recorded name this many characters long or longer (normalised) that an answer's
    longer name begins with is that name cut by its recorder (recorders keep the first
    characters of a long name), not a changed one (``refuse.changed_and_moved``); 0 turns
    this off. (The name score counts a name cut in the middle of a word as the best fuzzy
    agreement from ``resolver.text.CUT_NAME_CHARS`` characters on, whatever this is.)"""
    selector_role: float = 0.5
    """A recorded css/xpath selector is trusted only if the role of the one element it selects
    is at least this compatible with the recorded role (:func:`resolver.roles.role_compat`)."""
    selector_name: float = 0.85
    """... and its name at least this similar to the recorded name
    (:func:`resolver.text.name_similarity`)."""
    xpath_nearby_slack: float = 0.26
    """How much less nearby-text agreement than the best a row may have and still be taken
    for the target by its recorded xpath (a verified selector on a table linked to its
    document, a tie broken by one renumbered step): one recorded text of four, a neighbour
    edited or removed."""

    renamed_place: float = 0.5
    """Box overlap (IoU, after the page's shift) at which a row sits at a recorded place
    (the target's, or a look-alike's) for the rules that tell a renamed target from a
    namesake; ..."""
    renamed_inside: float = 0.9
    """... or, as a renamed element grows or shrinks along its line, the share of the
    smaller box inside the larger, ..."""
    renamed_height: float = 0.25
    """... with their heights within this share of the larger."""
    column_slack: float = 0.5
    """How far (in heights of the recorded box) a box's left edge may lie from the recorded
    box's for the box to have moved straight up or down the page."""
    renamed_name: float = 0.6
    """Name agreement from which a row at the target's place is the target renamed a
    little."""
    path_tie: float = 0.1
    """Lead in document-place agreement (xpaths compared step by step) with which the best
    of tied rows is taken, ..."""
    path_tie_lead: float = 0.02
    """... when its score leads too, by this much at least: the path confirms a lean, it
    does not decide a dead heat (sorted table rows, whose paths trade places)."""
    far_steps: int = 3
    """Steps of the recorded xpath at which an answer's place in the document must differ,
    all renumbered or all retagged, for it to lie in another branch of the page."""
    shifted_below: int = 3
    """Steps under a changed step of the recorded xpath that must be as recorded for a tied
    row there to be the target under a replaced or shifted wrapper (``accept.shifted_tie``):
    below the steps that name a table row's or list item's slot (row, cell, control)."""
    tail_steps: int = 3
    """Last steps of the recorded xpath (tags and positions) an unnamed row's document path
    must end with, inside the same landmark regions, to be the target whose region was
    rebuilt around it (``accept.tail_in_region``)."""
    screen_height: float = 800.0
    """Screen height (px) assumed for a table that does not give its own, for the rules
    measured in screen heights."""
    clear_px: float = 4.0
    """Width and height (screen px or points) a part of an answer's box beside the dialogs
    drawn over it needs for a click to land on the answer (``refuse.under_dialog``; the
    answer's point is then that part's centre)."""
    own_text: float = 0.9
    """Share of a recorded anchor's box inside the target's recorded box for the anchor to
    be the target's own text (the visible caption of a button named otherwise), not a
    neighbour."""
    table_row_depth: int = 4
    """How far above an element its table row may be (cell, a wrapper, the row)."""
    title_rows: int = 12
    """Rows at most between a block's title and a control of the block (a card's title,
    price and button are a few rows apart; ``refuse.heading_gone``): a heading further above
    is a section's, which an edit may remove while the control stays."""
    attribute_compared: int = 200
    """Characters of a normalised attribute value compared: a recorder caps long values (a
    picture's ``alt``) before they are normalised, the table after, so the ends differ."""
    group_agrees: float = 0.5
    """Container-entry similarity at which a table whose groups are named by visible titles
    shows a recorded group (the answer is in it; a row's group is that group)."""
    lookalike_name: float = 0.9
    """Name similarity at which two rows of such a table are look-alikes (any role)."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in _COUNTS:
                if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                    raise ConfigError(f"{f.name} must be a positive int")
            elif f.name in _STEPS:
                if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    raise ConfigError(f"{f.name} must be an int from 0 up, got {value!r}")
            elif f.name in _PIXELS:
                if (
                    not isinstance(value, (int, float))
                    or isinstance(value, bool)
                    or not 0.0 < float(value) < float("inf")
                ):
                    raise ConfigError(f"{f.name} must be a finite number above 0, got {value!r}")
            elif f.name in _SCREENS:
                if (
                    not isinstance(value, (int, float))
                    or isinstance(value, bool)
                    or not 0.0 <= float(value) < float("inf")
                ):
                    raise ConfigError(f"{f.name} must be a finite number from 0 up, got {value!r}")
            elif (
                not isinstance(value, (int, float))
                or isinstance(value, bool)
                or not (0.0 <= float(value) <= 1.0)
            ):
                raise ConfigError(f"{f.name} must be a number in [0, 1], got {value!r}")

    @cached_property
    def _values_hash(self) -> int:
        return hash(tuple(getattr(self, f.name) for f in fields(self)))

    def __hash__(self) -> int:
        """The hash of the values, computed once: a configuration is part of the keys of
        the tables' shared caches, which every reference of a batch looks up."""
        return self._values_hash

    def with_options(self, options: dict[str, Any]) -> MatchConfig:
        """A copy with the given fields replaced; unknown names raise a typed error."""
        if not options:
            return self
        known = {f.name for f in fields(self)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ConfigError(
                f"unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
            )
        return replace(self, **options)

    def as_dict(self) -> dict[str, Any]:
        """All values, for logs and the docs."""
        return asdict(self)


DEFAULT_CONFIG = MatchConfig()
