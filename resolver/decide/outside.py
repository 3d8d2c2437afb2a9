"""The rules asked outside one source's decision over a table: by the chain
(:mod:`resolver.chain`) and by a catalog checking an index used on a changed page
(:mod:`resolver.catalog`). They have no check of their own here; the registry lists them
after the decision's rules (:data:`~resolver.decide.registry.RULES`), so that traces,
errors and the rules table name them like every other rule."""

from __future__ import annotations

from typing import Final

from .rule import Rule

__all__ = ["OUTSIDE_RULES"]

OUTSIDE_RULES: Final[tuple[Rule, ...]] = (
    # -- chain: applied by resolver.chain, no check over a table ------------------------------
    Rule(
        "refuse.no_input", "refuses", "chain",
        "The observation has no input for this source.",
    ),
    Rule(
        "refuse.unavailable", "refuses", "chain",
        "The source needs an optional extra that is not installed.",
    ),
    Rule(
        "refuse.absent_upstream", "refuses", "chain",
        "A stronger source looked and found evidence the target is gone (or its twins "
        "indistinguishable); a weaker source does not overrule it, nor do the coordinates.",
    ),
    Rule(
        "scope.dom_names_it", "scopes", "chain",
        "A stronger source's evidence of absence does not stop the DOM source when the "
        "element at the recorded XPath bears the recorded role and name in the page's DOM but "
        "not in the stronger source's tree (an empty link the tree names by its blank text, "
        "the DOM by its title; a control the tree leaves out): the sources disagree on that "
        "element, and the DOM judges it.",
    ),
    Rule(
        "refuse.scored_downstream", "refuses", "chain",
        "A stronger source looked among rows of the recorded role and found none similar "
        "enough (refuse.threshold, refuse.stray); a weaker source's answer by its score alone "
        "does not overrule it, unless a recorded identifier (selector, XPath, platform ID) "
        "selects that answer.",
    ),
    Rule(
        "refuse.off_screen", "refuses", "chain",
        "A source that sees only the screen (vision) refuses a reference whose recorded box, "
        "rescaled to that screen, is centred outside it: the target is not visible there.",
    ),
    Rule(
        "scope.screen", "scopes", "chain",
        "A source that sees only the screen judges a reference without the look-alikes "
        "recorded off that screen: the rules that count look-alikes count those it can show.",
    ),
    Rule(
        "refuse.coords_after_look", "refuses", "chain",
        "Recorded coordinates are not used once a source saw the UI and did not find the "
        "element (coords_fallback='unobserved').",
    ),
    Rule(
        "refuse.no_box", "refuses", "chain",
        "Recorded coordinates cannot be used: the reference has no box.",
    ),
    Rule(
        "accept.recorded_box", "accepts", "chain",
        "The recorded box's centre, rescaled to the observation, when the policy allows.",
    ),
    # -- catalog: applied by resolver.catalog to an index used on a changed page --------------
    Rule(
        "refuse.catalog_outdated", "refuses", "catalog",
        "The index was chosen on another version of the catalog.",
    ),
    Rule(
        "refuse.index_maps_elsewhere", "refuses", "catalog",
        "The entry's element found again does not map back to the entry on the catalog's "
        "page (it is the counterpart of another element, or fits only narrowly).",
    ),
    Rule(
        "refuse.index_claimed", "refuses", "catalog",
        "Another entry of the catalog fits the element found at least as well: one element "
        "is not two entries.",
    ),
    Rule(
        "ambiguous.index_selectors", "doubts", "catalog",
        "The entry's recorded selectors select a look-alike of the element found, not it, "
        "and the recorded innermost container does not tell the two apart (around the "
        "element found and not around the look-alike, it is the selector that is stale).",
    ),
    Rule(
        "refuse.not_interactable", "refuses", "catalog",
        "The element is found but hidden or disabled, or (on a desktop's tree) lies under a "
        "dialog drawn over its window.",
    ),
    Rule(
        "refuse.target_selects_nothing", "refuses", "catalog",
        "A css, xpath or text target selects no element.",
    ),
    Rule(
        "ambiguous.target_selects_many", "doubts", "catalog",
        "A css, xpath or text target selects more than one element.",
    ),
)  # fmt: skip
"""The chain's and the catalog's rules, in the order the registry lists them."""
