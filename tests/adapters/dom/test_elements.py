from resolver import Observation
from resolver.adapters.dom.elements import ElementFacts

HTML = '<a id="home" href="/home" class="nav">Home</a><button data-testid="go">Go</button>'


def test_facts_of_a_dom_table() -> None:
    table = Observation(dom_html=HTML).candidates("dom")
    facts = ElementFacts(table, None)
    row = table.names.index("Home")
    assert facts.known and facts.dom_row(row) == row
    assert facts.attrs(row)["href"] == "/home"
    assert facts.selectors(row)[0] == ("css", "#home")


def test_facts_through_an_xpath_link_and_without_dom() -> None:
    node = {"id": "1", "role": "link", "name": "Home", "domRef": "/html[1]/body[1]/a[1]"}
    tree = {"ax_tree": {"root_id": "1", "nodes": [node]}}
    obs = Observation(accessibility_tree=tree, dom_html=HTML)
    a11y = obs.candidates("a11y")
    facts = ElementFacts(a11y, obs.candidates("dom"))
    assert facts.attrs(0).get("href") == "/home"
    assert ("css", "#home") in facts.selectors(0)
    bare = ElementFacts(a11y, None)
    assert not bare.known and bare.attrs(0) == {} and bare.selectors(0) == []
