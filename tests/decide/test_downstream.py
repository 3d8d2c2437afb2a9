"""What a stronger source's refusal asks of a weaker source's answer."""

from decide_helpers import _buttons

from resolver import MatchConfig, SemanticElementRef
from resolver.decide import decide, scored_alone, shows_no_match
from resolver.decide.downstream import table_roles
from resolver.table import TableBuilder


def test_a_refusal_under_the_threshold_among_rows_of_the_role_shows_no_match() -> None:
    table, config = _buttons(), MatchConfig()
    apply = SemanticElementRef(role="button", name="Apply")
    refused = decide(apply, table, config)
    assert refused.rule == "refuse.threshold" and shows_no_match(apply, table, refused)
    # No row of the role: the source did not look where the target would be.
    checkbox = SemanticElementRef(role="checkbox", name="Apply")
    assert not shows_no_match(checkbox, table, decide(checkbox, table, config))
    # A tie, or an answer, is not a refusal for want of a similar row.
    twins = SemanticElementRef(role="button", name="OK")
    assert not shows_no_match(twins, table, decide(twins, table, config))
    found = SemanticElementRef(role="button", name="OK", bbox=(500, 398, 570, 428))
    assert not shows_no_match(found, table, decide(found, table, config))
    assert table_roles(table) >= {"button", "link", "dialog"}


def test_an_answer_rests_on_its_score_alone_unless_an_identifier_selects_it() -> None:
    b = TableBuilder("dom", "test", id_columns=("dom_id",))
    b.add("a", raw_role="button", name="Search", dom_id="go", bbox=(10, 10, 90, 40))
    b.add("b", raw_role="link", name="Help", bbox=(10, 60, 90, 90))
    table, config = b.build(), MatchConfig()
    plain = SemanticElementRef(role="button", name="Search")
    by_score = decide(plain, table, config)
    assert by_score.rule == "accept.score" and scored_alone(by_score)
    with_id = plain.model_copy(update={"dom_id": "go"})
    selected = decide(with_id, table, config)
    assert selected.rule == "accept.score" and not scored_alone(selected)
    assert not scored_alone(decide(SemanticElementRef(role="button", name="Nope"), table, config))
