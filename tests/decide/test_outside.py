"""The chain's and the catalog's rules: listed by the registry, after the decision's own."""

from resolver.decide import RULES
from resolver.decide.outside import OUTSIDE_RULES


def test_the_rules_asked_outside_a_table_have_no_check_and_come_last() -> None:
    assert OUTSIDE_RULES and all(r.check is None for r in OUTSIDE_RULES)
    assert {r.stage for r in OUTSIDE_RULES} == {"chain", "catalog"}
    assert RULES[-len(OUTSIDE_RULES) :] == OUTSIDE_RULES
    # Every rule the registry lists with a stage of its own is one of them.
    assert [r for r in RULES if r.stage in ("chain", "catalog")] == list(OUTSIDE_RULES)
