"""Styles: author rules (cascade, specificity, order, !important, @media), inline style,
display and visibility outcomes, generated content."""

from __future__ import annotations

import pytest

from resolver.adapters.dom.parse import parse_html
from resolver.adapters.dom.style import (
    D_BLOCK,
    D_INHERIT,
    D_INLINE,
    D_NONE,
    D_REVERT,
    D_UNSET,
    T_UNSET,
    T_UPPER,
    V_HIDDEN,
    V_UNSET,
    V_VISIBLE,
    Styles,
    compute_styles,
    content_text,
)

DESKTOP = (1280.0, 800.0)


def styled(html: str, viewport: tuple[float, float] = DESKTOP) -> tuple[Styles, int]:
    """The page's styles and the index of its element ``#t``."""
    doc = parse_html(html)
    return compute_styles(doc, viewport), doc.by_id["t"]


def display_of(html: str, viewport: tuple[float, float] = DESKTOP) -> int:
    styles, t = styled(html, viewport)
    return styles.display[t]


def test_a_rule_in_a_style_element_applies() -> None:
    assert display_of("<style>.x{display:none}</style><div class=x id=t>a</div>") == D_NONE
    assert display_of("<style>.y{display:none}</style><div class=x id=t>a</div>") == D_UNSET


@pytest.mark.parametrize(
    ("css", "outcome"),
    [
        # higher specificity wins whatever the order
        ("#t{display:block} span{display:none}", D_BLOCK),
        ("span{display:none} #t{display:block}", D_BLOCK),
        # equal specificity: the later rule wins
        (".a{display:none} .b{display:inline}", D_INLINE),
        (".b{display:inline} .a{display:none}", D_NONE),
        # !important beats specificity
        ("#t{display:block} span{display:none !important}", D_NONE),
    ],
)
def test_cascade_specificity_order_and_important(css: str, outcome: int) -> None:
    html = f"<style>{css}</style><span class='a b' id=t>a</span>"
    assert display_of(html) == outcome


def test_inline_style_beats_rules_unless_they_are_important() -> None:
    rule = "<style>span{display:none}</style>"
    assert display_of(rule + "<span id=t style='display:inline-block'>a</span>") == D_BLOCK
    strong = "<style>span{display:none!important}</style>"
    assert display_of(strong + "<span id=t style='display:block'>a</span>") == D_NONE


def test_media_queries_are_evaluated_against_the_viewport() -> None:
    narrow_only = "<style>@media (max-width: 600px){.m{display:none}}</style>"
    page = narrow_only + "<div class=m id=t>a</div>"
    assert display_of(page) == D_UNSET
    assert display_of(page, (500.0, 800.0)) == D_NONE
    wide = "<style>@media screen and (min-width: 1000px){.m{display:none}}</style>"
    assert display_of(wide + "<div class=m id=t>a</div>") == D_NONE
    printed = "<style>@media print{.m{display:none}}</style><div class=m id=t>a</div>"
    assert display_of(printed) == D_UNSET
    em = "<style>@media (min-width: 100em){.m{display:none}}</style>"  # 1600 px
    assert display_of(em + "<div class=m id=t>a</div>") == D_UNSET


def test_sheets_that_do_not_apply_are_ignored() -> None:
    print_sheet = "<style media=print>.a{display:none}</style><div class=a id=t>a</div>"
    assert display_of(print_sheet) == D_UNSET
    noscript = "<noscript><style>.a{display:none}</style></noscript><div class=a id=t>a</div>"
    assert display_of(noscript) == D_UNSET
    # with scripting off, a style inside noscript applies like any other
    doc = parse_html(noscript, scripting=False)
    (t,) = doc.css("#t")
    assert compute_styles(doc, DESKTOP).display[t] == D_NONE
    commented = "<style>/* .a{display:none} */</style><div class=a id=t>a</div>"
    assert display_of(commented) == D_UNSET


def test_dynamic_and_unparsable_selectors_do_not_hide_anything_else() -> None:
    hover = "<style>.x:hover{display:none}</style><div class=x id=t>a</div>"
    assert display_of(hover) == D_UNSET
    broken = "<style>.a{display:none} ..bad{display:none}</style><div class=a id=t>a</div>"
    assert display_of(broken) == D_NONE


@pytest.mark.parametrize(
    ("value", "outcome"),
    [
        ("none", D_NONE),
        ("inline", D_INLINE),
        ("contents", D_INLINE),
        ("ruby-text", D_INLINE),
        ("block", D_BLOCK),
        ("inline-block", D_BLOCK),  # atomic boxes are separated like blocks
        ("flex", D_BLOCK),
        ("table-cell", D_BLOCK),
        ("inherit", D_INHERIT),
        ("unset", D_INLINE),  # display is not inherited: unset is its initial value
        ("initial", D_INLINE),
        ("revert", D_REVERT),
    ],
)
def test_display_values(value: str, outcome: int) -> None:
    assert display_of(f"<span id=t style='display:{value}'>a</span>") == outcome


@pytest.mark.parametrize("keyword", ["inherit", "initial", "unset", "revert"])
def test_defaulting_keywords_override_display_none(keyword: str) -> None:
    # A later rule with a CSS-wide keyword wins the cascade like any other declaration.
    page = (
        f"<style>.k{{display:none}} @media (min-width:1024px){{.k{{display:{keyword}}}}}"
        "</style><div><a class=k id=t href=x>A</a></div>"
    )
    assert display_of(page) not in (D_NONE, D_UNSET)


@pytest.mark.parametrize(
    ("value", "outcome"),
    [("hidden", V_HIDDEN), ("collapse", V_HIDDEN), ("visible", V_VISIBLE), ("inherit", V_UNSET)],
)
def test_visibility_values(value: str, outcome: int) -> None:
    styles, t = styled(f"<div id=t style='visibility:{value}'>a</div>")
    assert styles.visibility[t] == outcome


def test_text_transform_and_content_visibility() -> None:
    styles, t = styled("<div id=t style='text-transform:uppercase'>a</div>")
    assert styles.transform[t] == T_UPPER
    assert styles.content_hidden[t] is False
    styles, t = styled("<div id=t style='content-visibility:hidden'>a</div>")
    assert styles.transform[t] == T_UNSET
    assert styles.content_hidden[t] is True


def test_generated_content_before_and_after() -> None:
    css = "<style>.x::before{content:'Hi ' attr(data-n)} #t:after{content:\"!\"}</style>"
    styles, t = styled(css + "<div class=x data-n=5 id=t>a</div>")
    assert styles.before == {t: "Hi 5"}
    assert styles.after == {t: "!"}


def test_rule_matching_per_element_is_the_element_s_own() -> None:
    """Whether an element matches a selector, by one query per selector or element by
    element: the element itself, never an element that only contains a match (what Lexbor's
    ``css_matches`` answers); unparsable selectors match nothing; ``:scope`` and deep pages
    are tested element by element, with the same answers."""
    from resolver.adapters.dom.style import _ElementMatches

    page = (
        "<div id=a class='x y'><p class=x><span class=z>1</span></p><b>2</b></div>"
        "<ul><li class=x>a</li><li><a href=#>b</a></li></ul><p>3</p><section><div>4</div>"
        "</section><table><tr><td class=z>5</td></tr></table><template><i class=x></i></template>"
    )
    selectors = ["div", ".x", ".x .z", "div > p", "li + li", "p ~ section", ":root", "html",
                 "li:first-child", "p:has(span)", "*", ":scope > div", "td.z", "i.x", "a[href]",
                 ":is(b, td)", ".y .x span", "))", "&gt; div", ".none"]  # fmt: skip
    for html in (page, "<div>" * 600 + "<p class=x>deep</p>"):
        doc = parse_html(html)
        matches = _ElementMatches(doc)
        for selector in selectors:
            try:
                own = set(doc.css(selector))
            except Exception:
                own = set()
            for i, node in enumerate(doc.nodes):
                if selector.startswith(":scope"):  # relative to the element itself
                    try:
                        first = node.css_first(selector)
                    except Exception:
                        first = None
                    expected = first is not None and first.mem_id == node.mem_id
                else:
                    expected = i in own
                assert matches(i, selector) == expected, (selector, i, doc.tags[i])
    doc = parse_html(page)
    p = doc.tags.index("p")
    assert doc.nodes[p].css_matches(".z") and not _ElementMatches(doc)(p, ".z")
    assert parse_html("<div>" * 600).reparented and not parse_html(page).reparented


def test_generated_content_is_the_matching_element_s_not_its_ancestors() -> None:
    # The outer ".b" is not inside an ".a"; it only contains the ".b" that is. (Wikipedia's
    # navbox lists: a cell got the brackets of the nested lists inside it.)
    doc = parse_html(
        "<style>.a .b::before{content:'('} .a .b::after{content:')'}</style>"
        "<div class=b id=t><span class=a><i class=b id=i>x</i></span></div>"
    )
    styles = compute_styles(doc)
    t, i = doc.by_id["t"], doc.by_id["i"]
    assert t not in styles.before and t not in styles.after
    assert styles.before.get(i) == "(" and styles.after.get(i) == ")"


def test_repeated_selectors_are_run_once_unless_joining_could_change_them() -> None:
    from resolver.adapters.dom.style import _distinct

    assert _distinct([".a", "p", ".a", "div > p", "p"]) == [".a", "p", "div > p"]
    kept = ["a\\", "b", "a\\", "[x='1']"]  # an escape at the end joins the next selector
    assert _distinct(kept) == kept
    assert _distinct(["[x='1']", "p", "[x='1']"]) == ["[x='1']", "p"]  # closed strings
    unclosed = ['p "[bad string]\n', "b", "b"]  # as tinycss2 writes a bad string
    assert _distinct(unclosed) == unclosed
    assert display_of("<style>.a{display:none} .b{color:red} .a{display:none}</style>"
                      "<p id=t class=a>x</p>") == D_NONE  # fmt: skip


def test_selectors_are_checked_in_joined_lists_with_the_same_verdicts() -> None:
    """Lists are halved until they parse; selectors that could read differently once
    joined (an escape, a slash, a bad string) are tried alone. The verdicts are each
    selector's own."""
    import random

    from selectolax.lexbor import LexborHTMLParser

    from resolver.adapters.dom.style import _parsable

    probe = LexborHTMLParser("<p></p>").root
    pool = ["p", ".a", "#b > c", "a:hover", "p:nth-child(2n+1)", "a[href='x']", "p::before",
            "a:unknown-pseudo", "p >", "..x", "[x", ":not(", "a\\", "a /* b", "b",
            'p "[bad string]\n', "::-webkit-scrollbar", ":is(a, b)", "a + b ~ c", "*|p",
            "&"]  # fmt: skip

    def alone(selector: str) -> bool:
        try:
            probe.css_matches(selector)
        except Exception:
            return False
        return True

    rng = random.Random(4)
    for _ in range(300):
        chosen = list(dict.fromkeys(rng.sample(pool, rng.randint(1, len(pool)))))
        assert _parsable(probe, chosen) == {s for s in chosen if alone(s)}, chosen


def test_content_values() -> None:
    assert content_text('"a" / "alt"', {}) == "alt"  # the alternative text replaces the rest
    assert content_text('counter(x) "b"', {}) == "b"
    assert content_text("attr(title)", {"title": "T"}) == "T"
    assert content_text('"\\41 B"', {}) == "AB"
    assert content_text("none", {}) is None
    assert content_text("normal", {}) is None


def test_cdata_wrapped_sheet_is_dropped_as_browsers_do() -> None:
    # CSS Syntax 3: "[" opens a block running to its "]", so the whole sheet is one prelude.
    page = "<style><![CDATA[ .a{color:red} #t{display:none} ]]></style><p id=t>x</p>"
    assert display_of(page) == D_UNSET
    quoted = '<style>a[title="{"]{display:none} #t{display:none}</style><p id=t>x</p>'
    assert display_of(quoted) == D_NONE


def test_plain_style_attributes_read_as_tinycss2_reads_them() -> None:
    """The split-at-``;`` reading of plain ``style`` attributes gives what tinycss2 gives,
    on generated attributes mixing plain and not-so-plain declarations."""
    import random

    import tinycss2
    from tinycss2 import ast

    from resolver.adapters.dom.style import _INLINE_PROPS, _inline_declarations, _value_text

    rng = random.Random(11)
    names = ["display", "DISPLAY", " visibility", "text-transform ", "content-visibility",
             "width", "--x", "dis play", "", "displa\u0130"]  # fmt: skip
    values = ["none", " block ", "inline-block", "Hidden", "1px", "", "table cell",
              "none !important", "var(--a)", "'x'", "-webkit-box", "a1"]  # fmt: skip
    for _ in range(4000):
        pieces = []
        for _ in range(rng.randint(0, 4)):
            name, value = rng.choice(names), rng.choice(values)
            pieces.append(rng.choice([f"{name}:{value}", f"{name} : {value}", name, value]))
        style = rng.choice([";", "; ", ";\n"]).join(pieces) + rng.choice(["", ";"])
        expected = [
            (node.lower_name, _value_text(node.value))
            for node in tinycss2.parse_blocks_contents(
                style, skip_comments=True, skip_whitespace=True
            )
            if isinstance(node, ast.Declaration) and node.lower_name in _INLINE_PROPS
        ]
        assert _inline_declarations(style) == expected, style


def test_selectors_that_cannot_select_anything_are_not_queried() -> None:
    """Of a rule's selectors, those naming a class, id or tag the page lacks are left out
    of the queries; the styles are the same."""
    from resolver.adapters.dom.css import Subjects, read_sheets
    from resolver.adapters.dom.parse import parse_html
    from resolver.adapters.dom.style import _compile, compute_styles

    page = (
        "<style>.gone, #nothere, .a, section p {display:none} .b{display:block}</style>"
        "<div class=a>x</div><div class=b>y</div><p>z</p>"
    )
    doc = parse_html(page)
    subjects = Subjects(doc.tags, doc.attrs)
    declared = read_sheets([".gone, #nothere, .a, section p {display:none}"], (1280, 800))
    assert [r.selector for r in _compile(declared, doc, subjects)] == [".a"]
    assert {r.selector for r in _compile(declared, doc)} == {".gone", "#nothere", ".a", "section p"}
    display = compute_styles(doc).display
    first = doc.tags.index("div")
    assert (display[first], display[first + 1]) == (D_NONE, D_BLOCK)
