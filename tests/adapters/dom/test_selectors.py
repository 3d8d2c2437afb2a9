"""Selectors: XPaths and CSS paths per element, ranked selectors, running recorded XPaths."""

from __future__ import annotations

import random

import pytest

from resolver.adapters.dom.parse import Document, parse_html
from resolver.adapters.dom.selectors import (
    CssPathRunner,
    XPathRunner,
    compute_paths,
    count_selector_values,
    css_string,
    map_to_rows,
    ranked_selectors,
)

PAGE = (
    "<div id=main><p>a</p><p>b</p><span>c</span></div>"
    "<div id=dup></div><div id=dup><a href=x>l</a></div>"
    "<div id='1st'></div><svg><g><path/></g></svg>"
)


@pytest.fixture(scope="module")
def doc() -> Document:
    return parse_html(PAGE)


def index(doc: Document, xpath: str) -> int:
    return compute_paths(doc).xpath.index(xpath)


def test_xpaths_count_same_tag_siblings_and_name_foreign_elements(doc: Document) -> None:
    paths = compute_paths(doc)
    assert paths.xpath[:3] == ["/html[1]", "/html[1]/head[1]", "/html[1]/body[1]"]
    assert paths.xpath[doc.tags.index("span")] == "/html[1]/body[1]/div[1]/span[1]"
    assert "/html[1]/body[1]/div[1]/p[2]" in paths.xpath
    path = doc.tags.index("path")
    steps = ["*[local-name()='svg'][1]", "*[local-name()='g'][1]", "*[local-name()='path'][1]"]
    assert paths.xpath[path] == "/html[1]/body[1]/" + "/".join(steps)
    assert paths.layout[path] == "/html[1]/body[1]/svg[1]/g[1]/path[1]"


def test_css_paths_start_at_the_nearest_unique_id(doc: Document) -> None:
    paths = compute_paths(doc)
    css = dict(zip(paths.xpath, paths.css, strict=True))
    assert css["/html[1]/body[1]/div[1]"] == "#main"
    assert css["/html[1]/body[1]/div[1]/p[2]"] == "#main > p:nth-of-type(2)"
    assert css["/html[1]/body[1]/div[1]/span[1]"] == "#main > span"
    # a duplicated id is not unique: the path goes on from html
    assert css["/html[1]/body[1]/div[3]/a[1]"] == "html > body > div:nth-of-type(3) > a"
    assert css["/html[1]/body[1]/div[4]"] == '[id="1st"]'  # not a CSS identifier
    assert paths.id_count == {"main": 1, "dup": 2, "1st": 1}


def test_every_css_path_and_xpath_selects_exactly_its_element(doc: Document) -> None:
    paths = compute_paths(doc)
    runner = XPathRunner(doc)
    for element in range(len(doc)):
        assert doc.css(paths.css[element]) == [element], paths.css[element]
        assert runner.run(paths.xpath[element]) == [element], paths.xpath[element]


@pytest.mark.parametrize(
    ("xpath", "selected"),
    [
        # the fast path: child and descendant steps, positions, attributes, local-name()
        ("/html/body/div[1]/p[2]", ["/html[1]/body[1]/div[1]/p[2]"]),
        ("//p", ["/html[1]/body[1]/div[1]/p[1]", "/html[1]/body[1]/div[1]/p[2]"]),
        ("//P", ["/html[1]/body[1]/div[1]/p[1]", "/html[1]/body[1]/div[1]/p[2]"]),
        ("//div[@id='dup']", ["/html[1]/body[1]/div[2]", "/html[1]/body[1]/div[3]"]),
        ("/html/body/div[last()]", ["/html[1]/body[1]/div[4]"]),
        ("/html/body/div[5]", []),
        # lxml: functions and text tests
        ("//div[contains(@id,'du')]", ["/html[1]/body[1]/div[2]", "/html[1]/body[1]/div[3]"]),
        ("//a[text()='l']", ["/html[1]/body[1]/div[3]/a[1]"]),
        # invalid or relative: nothing
        ("((", []),
        ("p", []),
    ],
)
def test_xpath_runner(doc: Document, xpath: str, selected: list[str]) -> None:
    assert XPathRunner(doc).run(xpath) == [index(doc, x) for x in selected]


def test_xpath_runner_attribute_presence_and_local_name(doc: Document) -> None:
    runner = XPathRunner(doc)
    assert [doc.attrs[e]["id"] for e in runner.run("//div[@id]")] == ["main", "dup", "dup", "1st"]
    assert runner.run("//*[local-name()='path']") == [doc.tags.index("path")]


RANKED_PAGE = """<header><a href="/" id="home">Home</a></header><main>
<button id="save" data-testid="save" aria-label="Save it">Save</button>
<button data-testid="dup">Save</button><button data-testid="dup" aria-label="Copy">Copy</button>
<div id="twin"></div><div id="twin"><button>Twin</button></div></main>"""
ROWS = (
    ["link", "button", "button", "button", "button"],
    ["Home", "Save it", "Save", "Copy", "Twin"],
)


def test_selector_counts() -> None:
    doc = parse_html(RANKED_PAGE)
    counts = count_selector_values(doc, *ROWS)
    assert counts.testid == {("data-testid", "save"): 1, ("data-testid", "dup"): 2}
    assert counts.aria_label == {("button", "Save it"): 1, ("button", "Copy"): 1}
    assert counts.role_name[("button", "Save")] == 1
    assert counts.text == {"Home": 1, "Save it": 1, "Save": 1, "Copy": 1, "Twin": 1}


def test_ranked_selectors_offer_only_unique_ones() -> None:
    doc = parse_html(RANKED_PAGE)
    paths = compute_paths(doc)
    roles, names = ROWS
    counts = count_selector_values(doc, [*roles, "button"], [*names, "Save"])  # "Save" twice
    (save,) = doc.css("#save")
    assert ranked_selectors(doc, paths, save, "button", "Save it", counts) == [
        ("css", "#save"),
        ("css", '[data-testid="save"]'),
        ("role", 'role=button[name="Save it"]'),
        ("css", 'button[aria-label="Save it"]'),
        ("text", 'text="Save it"'),
        ("css", "#save"),
        ("xpath", "/html[1]/body[1]/main[1]/button[1]"),
    ]
    second = doc.css("main > button")[1]  # shares its test ID and its name
    assert ranked_selectors(doc, paths, second, "button", "Save", counts) == [
        ("css", "html > body > main > button:nth-of-type(2)"),
        ("xpath", "/html[1]/body[1]/main[1]/button[2]"),
    ]
    (twin,) = doc.css("div > button")  # inside a duplicated id: a path from html
    assert ranked_selectors(doc, paths, twin, "button", "Twin", counts)[-2:] == [
        ("css", "html > body > main > div:nth-of-type(2) > button"),
        ("xpath", "/html[1]/body[1]/main[1]/div[2]/button[1]"),
    ]


def test_ranked_selectors_select_their_element() -> None:
    doc = parse_html(RANKED_PAGE)
    paths = compute_paths(doc)
    counts = count_selector_values(doc, *ROWS)
    runner = XPathRunner(doc)
    for element in doc.css("a, button"):
        for kind, selector in ranked_selectors(doc, paths, element, "button", "", counts):
            assert kind in ("css", "xpath")
            if kind == "css":
                assert doc.css(selector) == [element], selector
            else:
                assert runner.run(selector) == [element], selector


def test_css_string_escapes() -> None:
    assert css_string("plain") == '"plain"'
    assert css_string('a"b\\c\n') == '"a\\"b\\\\c\\a "'


def test_map_to_rows_drops_unmapped_elements_and_repeats() -> None:
    assert map_to_rows([3, 1, 2, 3, 0], [-1, 5, 5, 7]) == [7, 5]


# --- CSS paths of child steps, without the selector engine -------------------------------

_TAGS = ("div", "a", "span", "li", "ul", "p", "svg", "td", "custom-el")


def _random_page(rng: random.Random, svg: bool = True) -> str:
    """A random page of nested elements with repeated tags, duplicate and odd ids, SVG."""
    parts: list[str] = []

    def element(depth: int) -> None:
        tag = rng.choice(_TAGS[:-3] if depth > 3 else _TAGS)
        if tag == "svg" and not svg:
            tag = "div"
        ident = rng.choice(["", "", "", " id=x", " id=y", " id=X", " id='a b'", " id=--z"])
        if tag == "svg":
            parts.append(f"<svg{ident}><a><title>t</title></a><g><a></a><foreignObject>"
                         "<div><a>in</a></div></foreignObject></g></svg>")  # fmt: skip
            return
        parts.append(f"<{tag}{ident}>")
        for _ in range(0 if depth > 5 else rng.randrange(0 if depth > 2 else 1, 4)):
            element(depth + 1)
        parts.append(f"</{tag}>")

    for _ in range(rng.randrange(1, 4)):
        element(0)
    return "<!doctype html><body>" + "".join(parts) + "</body>"


def _random_selector(rng: random.Random, doc: Document) -> str:
    """A child path ending at a random element (as recorders write them), sometimes
    changed: another position, a tag, an id, a step dropped or another combinator."""
    e = rng.randrange(len(doc.tags))
    steps: list[str] = []
    while e >= 0:
        tag = doc.tags[e].lower()
        ident = (doc.attrs[e] or {}).get("id")
        if ident and rng.random() < 0.3:
            steps.append(f"#{ident}")
            break
        same = [c for c in doc.content[doc.parent[e]] if isinstance(c, int)] if e else [0]
        k = [c for c in same if doc.tags[c].lower() == tag].index(e) + 1
        steps.append(tag if rng.random() < 0.3 else f"{tag}:nth-of-type({k})")
        e = doc.parent[e]
        if e >= 0 and rng.random() < 0.15:
            break
    steps.reverse()
    change = rng.random()
    if change < 0.1:
        steps[rng.randrange(len(steps))] = f"{rng.choice(_TAGS)}:nth-of-type({rng.randint(1, 3)})"
    elif change < 0.15:
        return " ".join(steps)
    elif change < 0.2:
        steps[0] = rng.choice(["#x", "#y", "#X", "#--z", "#a\\ b", ".c", "*"])
    return rng.choice([" > ", ">", " >  "]).join(steps)


def test_css_path_runner_answers_as_the_selector_engine_does() -> None:
    """On random pages (duplicate ids, SVG with HTML inside, repeated tags), every child
    path the runner answers selects what Lexbor selects, and most are answered."""
    rng = random.Random(7)
    answered = 0
    for _ in range(60):
        page = _random_page(rng)
        quirks = rng.random() < 0.2
        doc = parse_html(page.removeprefix("<!doctype html>") if quirks else page)
        runner = CssPathRunner(doc)
        for _ in range(40):
            selector = _random_selector(rng, doc)
            fast = runner.run(selector)
            if fast is not None:
                answered += 1
                assert fast == doc.css(selector), (page, selector)
    assert answered > 1000


def test_css_path_runner_leaves_other_selectors_to_the_engine() -> None:
    doc = parse_html("<!doctype html>" + PAGE)
    runner = CssPathRunner(doc)
    for selector in ("div p", "#main > p.x", "div > p:first-child", "#1st", "svg > g",
                     "div:nth-of-type(+1)", "div ~ p", "a, p", "[id=dup] > a"):  # fmt: skip
        assert runner.run(selector) is None, selector
    assert runner.run("#dup > a") == doc.css("#dup > a") != []
    assert runner.run("html > body > div:nth-of-type(1) > p:nth-of-type(2)") == [
        index(doc, "/html[1]/body[1]/div[1]/p[2]")
    ]
    assert CssPathRunner(parse_html(PAGE)).run("#dup > a") is None  # quirks: ids without case


def test_a_long_list_of_links_is_selected_by_position_without_a_scan() -> None:
    """``a:nth-of-type(k)`` among thousands of links: the answer of the engine, and a
    catalog's worth of such paths stays far under the time the engine takes for them."""
    links = "".join(f"<a href=#{i}>{i}</a>" for i in range(3000))
    doc = parse_html(f"<!doctype html><p id=list><span>{links}</span></p>")
    runner = CssPathRunner(doc)
    for k in (1, 855, 3000, 3001):
        selector = f"#list > span:nth-of-type(1) > a:nth-of-type({k})"
        assert runner.run(selector) == doc.css(selector)
    assert len(runner._groups) == 2  # the span's children grouped once, not scanned per path


def test_xpath_fast_path_answers_as_lxml_does() -> None:
    """Absolute paths to random elements (some changed: another position, a tag, ``*``,
    ``//``), on random pages: the fast path, where it answers, selects what lxml does.
    (Without SVG: the lxml copy lower-cases ``foreignObject``, a browser does not.)"""
    rng = random.Random(11)
    answered = 0
    for _ in range(40):
        doc = parse_html(_random_page(rng, svg=False))
        paths = compute_paths(doc).xpath
        runner = XPathRunner(doc)
        for _ in range(30):
            steps = rng.choice(paths).split("/")[1:]
            change = rng.random()
            at = rng.randrange(len(steps))
            if change < 0.15:
                steps[at] = f"{rng.choice(_TAGS)}[{rng.randint(1, 3)}]"
            elif change < 0.25:
                steps[at] = "*" if rng.random() < 0.5 else f"*[{rng.randint(1, 2)}]"
            path = "/" + "/".join(steps)
            if change > 0.9:
                path = "//" + "/".join(steps[at:])
            fast = runner._fast(path)
            if fast is not None:
                answered += 1
                assert fast == runner._slow(path), path
    assert answered > 900


def test_the_css_and_xpath_runners_of_a_page_share_its_children_grouping() -> None:
    from resolver.adapters.dom import analyze

    analysis = analyze("<!doctype html><body><ul id=l><li><a>1</a></li><li><a>2</a></li></ul>")
    assert analysis.css("#l > li:nth-of-type(2) > a") == analysis.xpath("/html/body/ul/li[2]/a")
    assert analysis._css_paths is not None and analysis._xpath is not None
    assert analysis._css_paths._groups is analysis._xpath._groups
