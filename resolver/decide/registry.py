"""The ordered registry of rules, :data:`RULES`, and the engine that asks them.

Why the order is what it is:

1. ``select`` comes first because a recorded selector that still selects one agreeing element is
   the strongest evidence there is; it is checked on the ranking as the matcher made it. Only then
   may a label give way to its control, so the judge weighs the element that acts.
2. ``judge`` turns the ranking into a verdict: nothing to judge, nothing to judge *by*, too low,
   too close, too unsure, else accepted. Each rule assumes the earlier ones passed.
3. ``review``: first the rules that may accept what the judge refused or left tied, the only
   namesake under the threshold (``accept.sole_namesake``), the one unnamed row its recorded
   selector still selects (``accept.selected_unnamed``) and, for a reference without a box or a
   name, the one row under its xpath with a wrapper near the top changed (``accept.shifted_tie``),
   then for one without a name the one row ending its path as the recorded xpath does in the same
   regions (``accept.tail_in_region``), so that what they accept is reviewed like any other answer.
   Then the refusals, asked until one refuses or doubts the answer. They go from the most direct
   evidence of a removed target to the most circumstantial: the answer bears a recorded neighbour's
   name; a look-alike is gone and the answer sits where a look-alike was, or the recorded path went
   too, or the answer links where a look-alike did; then place (on screen, among neighbours, in
   regions and branches of the document), the xpath torn between two rows, then what the answer is
   (name and role changed, name alone, classes and attributes, a numbered series), then counts (a
   shrunk group, an unnamed target), and last the groups a source sees only by their titles. A rule
   earlier in the list wins; its reason is the more specific. After them, the tie-breakers, for a
   verdict that is still ``ambiguous`` (the margin's or a doubting rule's): each accepts only with
   evidence just one of the tied rows has, renamed targets (by the recorded look-alikes, then by
   the recorded slot) before place in the document (the path, then one renumbered step, then the
   landmark regions and tags), then the heading before each row; last the learned model
   (``accept.pairwise``), for a tie none of them could break.
4. ``final``: ``min_confidence`` has the last word on every answer, however it was made.
5. ``chain``: the chain's own verdicts on a source it could not ask, a source it need not ask (a
   stronger one found evidence of absence, :func:`shows_absence`), a weaker source's answer by its
   score alone after a stronger one found nothing similar (:mod:`~resolver.decide.downstream`) and
   on the recorded coordinates (:mod:`resolver.chain`).
6. ``catalog``: a catalog's checks of an index used on a changed page (:mod:`resolver.catalog`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..batch import score_many
from ..config import MatchConfig
from ..matcher import Scored, score_table
from ..models import SemanticElementRef
from ..results import Candidate
from ..table import CandidateTable
from . import (
    drawn,
    edits,
    groups,
    headings,
    identity,
    judge,
    learned,
    lookalikes,
    place,
    readings,
    select,
    ties,
)
from .downstream import looked_for_role, twins_alike
from .outside import OUTSIDE_RULES
from .panels import PANEL_RULES
from .records import RECORD_RULES
from .rule import Check, Context, Decision, Rule, Status, fired

__all__ = ["RULES", "RULES_BY_ID", "decide", "decide_many", "rule", "shows_absence"]

_ACC: Final = ("accepted",)
_AMB: Final = ("ambiguous",)
_NF: Final = ("not_found",)
_STRAY: Final = ("stray_box", "stray_nearby", "stray_path")

RULES: Final[tuple[Rule, ...]] = (
    # -- select: before the rows are judged ---------------------------------------------------
    Rule(
        "accept.verified_selector", "accepts", "select",
        "A recorded css/xpath selects exactly one element whose role and name agree and that "
        "the ranking does not contradict; it answers at once.",
        select.verified_selector_rule,
        params=("selector_role", "selector_name", "threshold", "min_margin", "stray_box",
                "xpath_nearby_slack", "href_moved_segments", "exact_agreement"),
    ),
    Rule(
        "prefer.control", "prefers", "select",
        "A label that narrowly beats the control around it (or only repeats its name) gives "
        "way to the control, which is what acts.",
        select.prefer_control_rule,
        params=("min_margin", "same_target_iou"),
    ),
    # -- judge: the ranking becomes a verdict -------------------------------------------------
    Rule(
        "refuse.no_candidates", "refuses", "judge",
        "The source has no rows to judge.", judge.no_candidates,
    ),
    Rule(
        "refuse.role_only", "refuses", "judge",
        "The reference has nothing but its role in this source (its box is in another "
        "coordinate space): too little to tell rows apart.", judge.role_only,
    ),
    Rule(
        "refuse.threshold", "refuses", "judge",
        "The best score is under the threshold.", judge.under_threshold, params=("threshold",),
    ),
    Rule(
        "refuse.nothing_exact", "refuses", "judge",
        "The best row agrees exactly with no recorded field (role only compatible, name only "
        "similar, tag, class, link and place different), where names are read as written.",
        judge.nothing_exact, params=("exact_agreement",),
    ),
    Rule(
        "ambiguous.margin", "doubts", "judge",
        "The best leads the best row that is a different target by less than the margin.",
        judge.under_margin, params=("min_margin", "same_target_iou"), absence="twins",
    ),
    Rule(
        "refuse.low_confidence", "refuses", "judge",
        "The estimated probability of being right (score, margin, signals) is under "
        "min_confidence.", judge.low_confidence, params=("min_confidence",),
    ),
    Rule(
        "accept.score", "accepts", "judge",
        "The best clears the threshold and the margin.", judge.by_score,
    ),
    # -- review: answers under the threshold, refusals, then tie-breakers ---------------------
    Rule(
        "accept.sole_namesake", "accepts", "review",
        "Under the threshold, but the only row with the recorded role and name, for a "
        "reference that recorded anchors and no look-alike.",
        judge.sole_namesake, _NF, ("threshold", "sole_threshold", "sole_margin"),
    ),
    Rule(
        "accept.sole_cut_name", "accepts", "review",
        "Under the threshold, but of the recorded role and the only element whose name begins "
        "with the recorded name, cut by its recorder.", judge.sole_cut_name, _NF,
        ("sole_threshold", "cut_name_chars"),
    ),
    Rule(
        "accept.sole_kindless", "accepts", "review",
        "Under the threshold, but the only element bearing the recorded name, for a reference "
        "recorded with no kind of element (generic) and no look-alike.", judge.sole_kindless,
        _NF, ("sole_threshold",),
    ),
    Rule(
        "accept.sole_link", "accepts", "review",
        "Under the threshold, but of the recorded role, the only element linking where the "
        "recorded link did (not the site's root), its name keeping a recorded word.",
        judge.sole_link, _NF, ("sole_threshold",),
    ),
    Rule(
        "accept.selected_renamed", "accepts", "review", "Under the threshold, renamed, of "
        "the recorded role, selected by the recorded selector, with every recorded neighbour "
        "text and class around it.", select.selected_renamed, _NF, ("sole_threshold",),
    ),
    Rule(
        "accept.selected_unnamed", "accepts", "review",
        "Under the threshold, for a named reference: its recorded selector selects one row "
        "of its role that has no name now, alone in bearing the recorded kind classes, where "
        "the target was.", select.selected_unnamed, _NF, ("selector_role", "stray_box"),
    ),
    Rule(
        "accept.drawn_at_place", "accepts", "review",
        "On a screenshot, a named target whose name is read nowhere: the one shape of its "
        "role (else the one mark nothing took for a shape) drawn at the recorded place, "
        "every recorded anchor read there where it was.",
        drawn.drawn_at_place, ("not_found", "ambiguous"),
        ("name_read", "drawn_name", "drawn_iou", "drawn_slack", "drawn_anchors",
         "drawn_picture", "mark_reach", "nearby_window", "w_name", "w_bbox", "w_nearby",
         "screen_height"),
    ),
    Rule(
        "accept.drawn_in_box", "accepts", "review",
        "On a screenshot, a named target whose name is read nowhere (a picture's: not at its "
        "box; its alternative text written elsewhere is another element) and whose box is "
        "all the reference recorded of its place: the one shape of its role (for a link, a picture "
        "too: a logo linking home), showing no text (or "
        "only a pictogram read as one or two Chinese or Japanese characters on a screen "
        "without such text), that fills the recorded box, no shape of its kind and size "
        "next to it on its line or column (with no text read between them), its recorded "
        "neighbour texts (if any) read around it.", drawn.drawn_in_box, ("not_found", "ambiguous"),
        ("name_read", "drawn_name", "drawn_iou", "drawn_fit", "drawn_nearby",
         "drawn_row_gap", "drawn_slack", "drawn_picture", "screen_height"),
    ),
    Rule(
        "accept.mark_in_box", "accepts", "review",
        "On a screenshot, as accept.drawn_in_box for what the screen draws apart from the "
        "rest without the vision source taking it for a shape (a logo, a tiny empty "
        "button): the one mark filling the recorded box, no text read in it, none like it "
        "beside it, its recorded neighbour texts (if any) read around it.",
        drawn.mark_in_box, ("not_found", "ambiguous"),
        ("name_read", "drawn_name", "drawn_fit", "drawn_nearby", "mark_reach", "nearby_window",
         "w_name", "w_bbox", "w_nearby", "drawn_slack", "screen_height"),
    ),
    Rule(
        "accept.drawn_in_column", "accepts", "review",
        "On a screenshot, as accept.drawn_in_box for a shape moved straight up or down: "
        "the one shape of its role showing no text with the recorded box's left and right "
        "edges and size, none like it beside it, its recorded neighbour texts read around it.",
        drawn.drawn_in_column, ("not_found", "ambiguous"),
        ("name_read", "drawn_name", "drawn_fit", "drawn_row_gap", "drawn_nearby",
         "drawn_slack", "drawn_picture", "screen_height"),
    ),
    Rule(
        "accept.stem_in_box", "accepts", "review",
        "On a screenshot, a named target whose name is read nowhere and whose box is all the "
        "reference recorded of its place: the one shape of its role that fills the recorded "
        "box, none like it beside it, showing a caption that says the name in another form "
        "(a word of each beginning alike: \"11 Comments\" for \"Comment\").",
        drawn.stem_in_box, ("not_found", "ambiguous"),
        ("drawn_name", "drawn_iou", "drawn_fit", "drawn_row_gap", "drawn_picture",
         "stem_chars", "screen_height"),
    ),
    Rule(
        "accept.read_at_place", "accepts", "review",
        "On a screenshot, an element drawn otherwise than its role (a field without a "
        "border, a heading in body type, a picture that did not load drawn as its "
        "alternative text): the one text reading its name (or its name cut), "
        "inside its recorded box, every recorded anchor read there where it was (a reference "
        "that recorded only its box: read as plain text in the box's column, nothing else "
        "reading its name there; from a screen of another size, at one of its readings).",
        readings.read_at_place, ("not_found", "ambiguous"), ("drawn_name", "drawn_inside",
         "drawn_slack", "drawn_anchors", "screen_height", "cut_name_chars", "alt_indent"),
    ),
    Rule(
        "prefer.shaped", "prefers", "review",
        "On a screenshot, a button answered by a text of another role (a link) gives way to "
        "the one button drawn as one that reads its name as it is, of the recorded box's size "
        "and within a line of it: the control moved, a link of its name in its place.",
        readings.prefer_shaped, ("accepted", "ambiguous"), ("drawn_fit", "screen_height"),
    ),
    Rule(
        "accept.shaped_at_place", "accepts", "review",
        "On a screenshot, tied: the one shape of the recorded role reading its name, at its "
        "box, every other reading of it drawn otherwise and further.",
        readings.shaped_at_place, _AMB, ("drawn_name", "shaped_box"),
    ),
    Rule(
        "accept.extended_at_place", "accepts", "review",
        "On a screenshot, a name read nowhere as recorded: the one element whose words begin "
        "with the recorded name's and go on (a count added), inside the recorded box, every "
        "recorded anchor read there where it was, one after it (a reference that recorded "
        "only its box: on a screen of the recorded size, a count added only).",
        edits.extended_at_place, ("not_found", "ambiguous"),
        ("drawn_name", "drawn_inside", "drawn_slack", "drawn_anchors", "screen_height"),
    ),
    Rule(
        "accept.edited_at_place", "accepts", "review",
        "On a screenshot, a name read nowhere as recorded: the one element whose words are "
        "the recorded name's with one word added or dropped, on the recorded line, "
        "every recorded anchor read there where it was, one after it.",
        edits.edited_at_place, ("not_found", "ambiguous"),
        ("drawn_name", "drawn_inside", "drawn_slack", "drawn_anchors", "screen_height"),
    ),
    Rule(
        "accept.edited_in_box", "accepts", "review",
        "On a screenshot, a button whose box is all the reference recorded of its place, its "
        "name read on no button: the one button starting at the recorded box, its top and "
        "bottom there, whose caption is the recorded name with one word added or dropped, "
        "its recorded neighbour texts (if any) read around it.",
        edits.edited_in_box, ("not_found", "ambiguous"),
        ("drawn_fit", "drawn_nearby", "screen_height"),
    ),
    Rule(
        "accept.caption_at_place", "accepts", "review",
        "On a screenshot, a named target whose name is read nowhere and whose recorded "
        "anchors include its own visible caption: the one element reading that caption, "
        "inside the recorded box, the other recorded anchors read where they were.",
        readings.caption_at_place, ("not_found", "ambiguous"),
        ("name_read", "drawn_name", "drawn_inside", "drawn_slack", "drawn_anchors",
         "screen_height"),
    ),
    Rule(
        "accept.placeholder_at_place", "accepts", "review",
        "On a screenshot, a field that recorded its placeholder, its name (an aria-label) "
        "read nowhere or none recorded: the one element reading the placeholder, centred "
        "inside the recorded box, the recorded anchors read where they were (a reference "
        "that recorded only its box: on a screen of the recorded size, or moved straight up "
        "or down the box's column with its recorded neighbour texts).",
        readings.placeholder_at_place, ("not_found", "ambiguous"),
        ("name_read", "drawn_name", "drawn_inside", "drawn_slack", "drawn_anchors",
         "drawn_fit", "drawn_nearby", "screen_height"),
    ),
    Rule(
        "accept.sole_dressed", "accepts", "review",
        "For a reference without a name that nothing else told apart: the one row bearing "
        "every recorded kind class, of its role and tag, where it was.", select.sole_dressed,
        _NF, ("selector_role", "stray_box"),
    ),
    Rule(
        "accept.shifted_tie", "accepts", "review",
        "Tied, or told apart by nothing but the role, for a reference without a box or a "
        "name: exactly one row of its role and name (of the tied rows, where no row bears "
        "the name) has the recorded xpath with one step well above it changed.",
        ties.shifted_tie, ("not_found", "ambiguous"),
        ("shifted_below", "min_margin"),
    ),
    Rule(
        "accept.tail_in_region", "accepts", "review",
        "Tied, or told apart by nothing but the role, for a reference without a name: "
        "exactly one unnamed row of its role ends its path with the recorded xpath's last "
        "steps, inside the same landmark regions.", ties.tail_in_region,
        ("not_found", "ambiguous"), ("tail_steps", "min_margin"),
    ),
    Rule(
        "refuse.neighbour_name", "refuses", "review",
        "The answer bears the name of an element recorded next to the target, not the "
        "target's: the target is gone.", identity.neighbour_name, _ACC, ("own_text",),
        absence="gone",
    ),
    Rule(
        "refuse.lookalike_place", "refuses", "review",
        "A look-alike is gone and the answer sits nearer where a recorded look-alike was "
        "than where the target was (unless the recorded table row names it).",
        lookalikes.lookalike_place, _ACC, ("table_row_depth",), absence="gone",
    ),
    Rule(
        "ambiguous.lookalike_path", "doubts", "review",
        "A look-alike is gone and the recorded xpath selects nothing: the target may be the "
        "one that went.", lookalikes.lookalike_path, _ACC, absence="gone",
    ),
    Rule(
        "refuse.survivor_link", "refuses", "review",
        "A look-alike is gone and the answer links elsewhere than the target did: a "
        "surviving look-alike.", lookalikes.survivor_link, _ACC, absence="gone",
        params=("href_moved_segments",),
    ),
    Rule(
        "ambiguous.namesake_link", "doubts", "review",
        "The answer links elsewhere than the recorded link and another element of its role "
        "and name links there: rows of one name were reordered.", lookalikes.namesake_link,
        _ACC, absence="twins", params=("href_moved_segments",),
    ),
    Rule(
        "refuse.stray", "refuses", "review",
        "Not where the target was, not among its recorded neighbours, not at its place in "
        "the document: only name and role speak for it.", place.stray, _ACC, _STRAY,
    ),
    Rule(
        "refuse.left_behind", "refuses", "review",
        "The target's recorded neighbours stayed where it was, its xpath selects nothing, "
        "and the answer is far from them.", place.left_behind, _ACC,
        ("left_near", "left_far", "screen_height"), absence="gone",
    ),
    Rule(
        "refuse.slot_kept", "refuses", "review",
        "The answer's neighbourhood has a second copy where the target was: the "
        "neighbourhood stayed without the target.", place.slot_kept, _ACC,
        ("stray_box", "left_near", "nearby_window", "screen_height", "table_row_depth"),
        absence="gone",
    ),
    Rule(
        "refuse.neighbourhood_twice", "refuses", "review", "On a screenshot, the recorded "
        "neighbours are read beside the answer and where the target was: the neighbourhood is "
        "drawn twice, the target gone from one copy.", place.neighbourhood_twice, _ACC,
        ("stray_box", "left_near", "nearby_window", "screen_height"), absence="gone",
    ),
    Rule(
        "refuse.other_region", "refuses", "review",
        "The answer lies in another landmark region than the recorded one, which is still "
        "on the page, away from the recorded place.", place.other_region, _ACC, ("stray_box",),
        absence="gone",
    ),
    Rule(
        "ambiguous.torn", "doubts", "review",
        "The recorded xpath selects another row of the best's role bearing the recorded "
        "name (or renamed, at the recorded place; without a recorded box, by the recorded "
        "neighbours as well as the best), and the best leads it by little; for a reference "
        "with a box and no xpath, the one ranked row of the best's role renamed a little at "
        "the recorded place.", place.torn, _ACC,
        ("torn_margin", "renamed_name", "renamed_place", "renamed_inside", "renamed_height",
         "same_target_iou"),
    ),
    Rule(
        "ambiguous.lookalike_off", "doubts", "review",
        "On the whole of a screenshot, a named reference with recorded look-alikes shows fewer "
        "of its role and name than its recorded boxes put on the screen, no recorded anchor is "
        "read, and the answer is away from the recorded place: a look-alike may have moved into "
        "view.", lookalikes.lookalike_off, _ACC,
        ("drawn_slack", "screen_height", "renamed_place", "renamed_inside", "renamed_height"),
    ),
    Rule(
        "ambiguous.twin_moved", "doubts", "review",
        "On a screenshot of the recorded size, a reference that recorded no anchors and no "
        "look-alikes: the answer has a twin on the screen and is not at the recorded place "
        "(a twin is, or the answer lies farther than a slack from it); the page's move is "
        "unknown, so the box cannot choose among them. A move keeps to its column: twins "
        "wholly across the recorded box's column do not doubt an answer in it, nor, when the "
        "answer kept the recorded left edge, twins off that edge around which the recorded "
        "neighbour texts are read less. A hint window, which shows no twins beyond it, "
        "leaves such an answer to the whole screen.",
        place.twin_moved, _ACC,
        ("drawn_slack", "screen_height", "renamed_place", "renamed_inside", "renamed_height",
         "same_target_iou", "group_agrees", "column_slack"), absence="twins",
    ),
    Rule(
        "refuse.far_in_document", "refuses", "review",
        "The answer's document path differs from the recorded xpath at several steps and it "
        "lies away from the target's place: another branch of the page.",
        place.far_in_document, _ACC, ("far_steps", "left_near", "screen_height"),
    ),
    Rule(
        "refuse.changed_and_moved", "refuses", "review",
        "Role or name changed (not merely cut), two of nearby texts, link and box disagree, "
        "and it is not the one link to the recorded address in the target's parent.",
        identity.changed_and_moved, _ACC, ("changed_box", "cut_name_chars"),
    ),
    Rule(
        "ambiguous.slot_renamed", "doubts", "review",
        "The answer bears the recorded name, while the recorded xpath selects a row of its "
        "role, its name the recorded one with a word or so added, at the target's place "
        "(the answer elsewhere) or linking where the target did (the answer elsewhere): "
        "the target may have been renamed.",
        identity.slot_renamed, _ACC,
        ("renamed_name", "renamed_place", "renamed_inside", "renamed_height"),
    ),
    Rule(
        "refuse.name_only", "refuses", "review",
        "Only the name agrees: xpath, nearby texts, link and box all differ.",
        identity.name_only, _ACC, ("changed_box",),
    ),
    Rule(
        "refuse.name_unread", "refuses", "review",
        "On a screenshot, the answer does not bear the recorded name as read there: the "
        "target's text is not on the screen.",
        identity.name_unread, _ACC, ("name_read",),
    ),
    Rule(
        "refuse.other_kind", "refuses", "review",
        "The answer bears none of the recorded classes, which other elements still bear.",
        identity.other_kind_rule, _ACC,
    ),
    Rule(
        "refuse.dressed_otherwise", "refuses", "review",
        "The answer lacks a recorded class the page still uses, or a recorded attribute's "
        "value, and the recorded xpath does not select it.",
        identity.dressed_otherwise, _ACC, ("attribute_compared",),
    ),
    Rule(
        "ambiguous.dressed_twin", "doubts", "review",
        "The answer lacks a recorded class the page still uses, and another element of its "
        "name and role bears every recorded class: namesakes reordered.",
        identity.dressed_twin, _ACC,
    ),
    Rule(
        "refuse.numbered_series", "refuses", "review",
        "The answer's name differs in its numbers only, and other elements of its role "
        "follow that pattern: another member of a series.", identity.numbered_series, _ACC,
    ),
    Rule(
        "refuse.shrunk_group", "refuses", "review",
        "Fewer elements bear the recorded role and name than were recorded, and the answer "
        "is in another container.", lookalikes.shrunk_group, _ACC, absence="gone",
    ),
    Rule(
        "refuse.unnamed", "refuses", "review",
        "Without a name: another role or link, neither at its place nor by its neighbours, "
        "off its box with another shape drawn in it or no neighbour read, or look-alikes gone.",
        lookalikes.unnamed, _ACC, ("stray_box", "stray_nearby", "drawn_iou"),
    ),
    Rule(
        "refuse.other_group", "refuses", "review",
        "Groups named only by visible titles: the answer is shown in another group and not "
        "where the target was.", groups.other_group, _ACC, ("group_agrees", "stray_box"),
    ),
    Rule(
        "ambiguous.group_unseen", "doubts", "review",
        "Groups named only by visible titles: the answer is not shown in the recorded group, "
        "and it has look-alikes and moved (or the hint window may cut the title off); for "
        "another tool's box, look-alikes across the column of an answer in it do not count.",
        groups.group_unseen, _ACC,
        ("group_agrees", "lookalike_box", "lookalike_name", "same_target_iou", "renamed_place",
         "renamed_inside", "renamed_height"),
    ),
    Rule(
        "ambiguous.window_unanchored", "doubts", "review",
        "In a hint window, an answer that does not read the recorded name (a recorded word "
        "missing), where the window reads none of the recorded anchors: the page may have "
        "moved; the whole screen judges.", groups.window_unanchored, _ACC, ("window_name",),
    ),
    *judge.LINK_RULES,
    Rule(
        "accept.renamed_target", "accepts", "review",
        "Tied: the row with the recorded name sits at a recorded look-alike's place, the "
        "other, renamed a little, at the target's.", ties.renamed_target, _AMB,
        ("renamed_name", "renamed_place", "renamed_inside", "renamed_height"),
    ),
    Rule(
        "accept.renamed_in_slot", "accepts", "review",
        "Tied: a row renamed a little sits at the target's place under its recorded xpath; "
        "the namesake is elsewhere.", ties.renamed_in_slot, _AMB,
        ("renamed_name", "renamed_place", "renamed_inside", "renamed_height"),
    ),
    Rule(
        "accept.path_tie", "accepts", "review",
        "Tied: the best's document path agrees with the recorded xpath clearly better than "
        "every rival's.", ties.path_tie, _AMB,
        ("path_tie", "path_tie_lead", "threshold", "min_margin", "same_target_iou"),
    ),
    Rule(
        "accept.renumbered_tie", "accepts", "review",
        "Tied: exactly one row of the recorded role and name has the recorded xpath with "
        "one step renumbered.", ties.renumbered_tie, _AMB,
        ("threshold", "min_margin", "xpath_nearby_slack"),
    ),
    Rule(
        "accept.shape_tie", "accepts", "review",
        "Tied (a dead heat included), for a reference with an xpath and no box: exactly one "
        "tied row lies in the recorded landmark regions, under the recorded xpath's tags "
        "(positions ignored) clearly better than every other tied row.", ties.shape_tie, _AMB,
        ("path_tie", "threshold", "min_margin", "same_target_iou"),
    ),
    Rule(
        "accept.twin_at_place", "accepts", "review",
        "On a screenshot of the recorded size, a reference that recorded only its box of its "
        "place (no anchors, no look-alikes) is tied, and exactly one tied row of its role "
        "and name fills the recorded box (no other of them stands at it): the box tells the "
        "twins apart, so that one is taken.", place.twin_at_place, _AMB,
        ("threshold", "min_margin", "renamed_place", "renamed_inside", "renamed_height",
         "same_target_iou"),
    ),
    Rule(
        "accept.neighbour_words", "accepts", "review",
        "On a screenshot, tied: every tied row that is another target than the best is words "
        "read inside a longer text that reads a recorded neighbour text whole, and the best "
        "is not; those words are that neighbour's, not a look-alike, so the best is taken.",
        ties.neighbour_words, _AMB, ("threshold", "min_margin", "same_target_iou"),
    ),
    *headings.HEADING_TIE_RULES,
    Rule(
        "accept.pairwise", "accepts", "review",
        "Tied and no tie-breaker applies, but a learned pairwise model over the web "
        "reference's fields (name, xpath, tag, classes, link, attributes, neighbour texts, "
        "box) is sure of one of the tied rows and leads every other target.",
        learned.pairwise, _AMB, ("pairwise_accept", "pairwise_margin", "min_margin"),
    ),
    # -- final ---------------------------------------------------------------------------------
    *RECORD_RULES, *PANEL_RULES,
    *judge.GONE_LINK_RULES, *headings.HEADING_FINAL_RULES,
    Rule(
        "refuse.min_confidence", "refuses", "final",
        "Any answer whose estimated probability of being right is under min_confidence.",
        judge.min_confidence, _ACC, ("min_confidence",),
    ),
    *OUTSIDE_RULES,
)  # fmt: skip
"""Every rule of the decision, in the order the engine asks them (see the module
docstring)."""

RULES_BY_ID: Final[dict[str, Rule]] = {r.id: r for r in RULES}
""":data:`RULES` by id."""

_Step = tuple[str, Check, tuple[Status, ...]]  # a rule's id, test and statuses looked at


def _steps(*stages: str) -> tuple[_Step, ...]:
    """The rules of ``stages`` with a test, as :meth:`Rule.apply` reads them."""
    return tuple((r.id, r.check, r.on) for r in RULES if r.stage in stages and r.check)


_SELECT: Final = _steps("select")
_JUDGE: Final = _steps("judge")
_AFTER: Final = _steps("review", "final")
_FINAL: Final = _steps("final")


def rule(rule_id: str) -> Rule:
    """The rule of id ``rule_id``; a ``KeyError`` names the unknown id."""
    try:
        return RULES_BY_ID[rule_id]
    except KeyError:
        raise KeyError(f"no rule {rule_id!r}; known: {', '.join(RULES_BY_ID)}") from None


def shows_absence(ref: SemanticElementRef, table: CandidateTable, decision: Decision) -> bool:
    """Whether ``decision``, one source's refusal or doubt on ``table``, is evidence that
    ``ref``'s target is gone (or that its twins cannot be told apart), which a weaker
    source does not overrule (``refuse.absent_upstream``).

    It is when the rule that made the decision says so (:attr:`Rule.absence`: ``"gone"``;
    ``"twins"`` only when the tied rows are twins, :func:`~.downstream.twins_alike`) and
    the table has a row of the reference's role: a source without one (another role
    vocabulary, a pruned tree) has not looked where the target would be. A refusal for
    lack of evidence (no candidates, only the role to judge by, a score under the
    threshold, an unsure estimate) is not: a later source may still find the target.
    ``decision`` is the source's refusal or doubt for ``ref``, made on ``table``.
    """
    if decision.status == "accepted":
        return False
    made_by = RULES_BY_ID.get(decision.rule)
    if made_by is None or not made_by.absence:
        return False
    if not looked_for_role(ref, table):
        return False
    return made_by.absence == "gone" or twins_alike(ref, decision)


def _selected(ctx: Context) -> Decision:
    """The ``select`` stage: a decision when a rule made one, else ``pending`` with the rows
    to judge (``ranking``)."""
    return _first_made(_SELECT, ctx, Decision("pending", "", ranking=ctx.scored))


def _first_made(steps: tuple[_Step, ...], ctx: Context, decision: Decision) -> Decision:
    """The pending ``decision`` after ``steps`` (:meth:`Rule.apply`), up to one deciding."""
    for rule_id, check, _ in steps:
        out = check(ctx, decision)
        if out is not None:
            decision = fired(decision, out, rule_id)
            if decision.status != "pending":
                break
    return decision


def _judged(ctx: Context, decision: Decision) -> Decision:
    """The ``judge``, ``review`` and ``final`` stages on a pending decision, its candidates
    built (``ctx.scored`` is the ranking the judge sees)."""
    decision = _first_made(_JUDGE, ctx, decision)
    for rule_id, check, on in _AFTER:
        if decision.status in on:
            out = check(ctx, decision)
            if out is not None:
                decision = fired(decision, out, rule_id)
                ctx = ctx.following(decision)
    return decision


def _finished(ctx: Context, decision: Decision) -> Decision:
    """A decision made in the ``select`` stage: only the ``final`` stage is asked."""
    ctx = ctx.following(decision)
    for rule_id, check, on in _FINAL:
        if decision.status in on:
            out = check(ctx, decision)
            if out is not None:
                decision = fired(decision, out, rule_id)
    return decision


def decide(ref: SemanticElementRef, table: CandidateTable, config: MatchConfig) -> Decision:
    """Rank ``table``'s rows for ``ref`` and judge them by :data:`RULES`.

    Returns
    -------
    Decision
        ``accepted``, ``ambiguous`` or ``not_found``, naming the rule that made it
        (:attr:`Decision.rule`).
    """
    return _decisions(table, config, [ref], [score_table(ref, table, config)])[0]


def decide_many(
    refs: Sequence[SemanticElementRef], table: CandidateTable, config: MatchConfig
) -> list[Decision]:
    """:func:`decide` for every reference, ranked together (:func:`resolver.batch.score_many`).

    Parameters
    ----------
    refs:
        The references, in order.
    table:
        The one table they are judged against.
    config:
        One configuration for all of them.

    Returns
    -------
    list of Decision
        One per reference, in order, equal to what ``decide`` returns for it.
    """
    return _decisions(table, config, refs, score_many(refs, table, config))


def _decisions(
    table: CandidateTable,
    config: MatchConfig,
    refs: Sequence[SemanticElementRef],
    ranked: Sequence[Scored],
) -> list[Decision]:
    """Each reference's decision; the candidates of every ranking still to judge are built
    in one pass (:meth:`Candidate.ranked_many`)."""
    contexts = []
    steps = []
    for ref, scored in zip(refs, ranked, strict=True):
        ctx = Context(ref, table, scored, config)
        contexts.append(ctx)
        steps.append(_selected(ctx))
    to_judge = [d.ranking for d in steps if d.status == "pending" and d.ranking is not None]
    built = iter(Candidate.ranked_many(table, to_judge))
    out: list[Decision] = []
    for ctx, step in zip(contexts, steps, strict=True):
        if step.status != "pending" or step.ranking is None:
            out.append(_finished(ctx, step))
            continue
        judged = Context(ctx.ref, table, step.ranking, config)
        start = judge.pending(judged, next(built))
        start = Decision(
            "pending", "", start.candidates, start.runner_up, start.margin, step.rule, step.rules
        )
        out.append(_judged(judged, start))
    return out
