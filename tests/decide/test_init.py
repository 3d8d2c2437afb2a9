"""The decision package as a whole: ``decide_many`` is ``decide`` per reference, each decision
names its rules, and a configuration keys the caches by value (pickled too)."""

import pickle

from resolver import MatchConfig


def test_config_hash_follows_its_values() -> None:
    # Configurations key the tables' caches: equal values, one key; any other value, another.
    a, b = MatchConfig(), MatchConfig(w_name=MatchConfig().w_name)
    c = a.with_options({"min_margin": 0.3})
    assert a == b and hash(a) == hash(b) and {a: 1}[b] == 1
    assert c != a and c not in {a: 1} and hash(c) == hash(MatchConfig(min_margin=0.3))
    copied = pickle.loads(pickle.dumps(c))
    assert copied == c and hash(copied) == hash(c)


def test_decide_many_is_decide_for_each_reference_and_names_the_rules() -> None:
    from decide_helpers import _buttons

    from resolver import SemanticElementRef
    from resolver.decide import RULES_BY_ID, decide, decide_many

    table = _buttons()
    refs = [
        SemanticElementRef(role="button", name="OK", bbox=(500, 400, 570, 430)),  # accepted
        SemanticElementRef(role="button", name="OK"),  # two equal OKs: a tie
        SemanticElementRef(role="button", name="Cancel"),  # nothing like it
        SemanticElementRef(role="link", name="Help"),  # the link, not its image
    ]
    config = MatchConfig()
    many = decide_many(refs, table, config)
    assert many == [decide(ref, table, config) for ref in refs]
    assert [d.status for d in many] == ["accepted", "ambiguous", "not_found", "accepted"]
    assert [d.rule for d in many] == [
        "accept.score", "ambiguous.margin", "refuse.threshold", "accept.score",
    ]  # fmt: skip
    for decision in many:
        assert decision.rules and decision.rules[-1] == decision.rule
        assert all(rule in RULES_BY_ID for rule in decision.rules)
        assert decision.status != "pending"
