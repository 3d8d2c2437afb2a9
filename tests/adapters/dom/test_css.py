"""The stylesheet reader: tinycss2 on the blocks that can matter, selector specificity
(Selectors 4 §17), at-rules and cascade layers, and the fallback to a whole-sheet parse."""

from __future__ import annotations

import re

import pytest

from resolver.adapters.dom.css import (
    MAX_DECLARATIONS,
    Declaration,
    Subjects,
    media_applies,
    read_sheets,
    selectors,
    specificity,
)
from resolver.adapters.dom.parse import parse_html
from resolver.adapters.dom.style import D_BLOCK, D_INLINE, D_NONE, D_UNSET, compute_styles

DESKTOP = (1280.0, 800.0)


def read(css: str) -> list[Declaration]:
    return read_sheets([css], DESKTOP)


def facts(css: str) -> list[tuple[list[str], str, str, bool]]:
    return [([s.text for s in d.selectors], d.prop, d.value, d.important) for d in read(css)]


def display_of(css: str, body: str = "<div id=t class=a>x</div>") -> int:
    doc = parse_html(f"<style>{css}</style>{body}")
    return compute_styles(doc, DESKTOP).display[doc.by_id["t"]]


@pytest.mark.parametrize(
    ("selector", "expected"),
    [
        ("#a .b div", (1, 1, 1)),
        ("div > p:first-child", (0, 1, 2)),
        ("a[href]", (0, 1, 1)),
        ("*", (0, 0, 0)),
        ("ns|p", (0, 0, 1)),
        ("p::before", (0, 0, 2)),
        ("p:before", (0, 0, 2)),  # a legacy pseudo-element, not a pseudo-class
        (":is(#a, .b) p", (1, 0, 1)),  # :is takes its most specific argument
        (":not(.a, .b.c)", (0, 2, 0)),
        (":has(> img#x)", (1, 0, 1)),
        (":where(#a .b) p", (0, 0, 1)),  # :where counts nothing
        (":nth-child(2n+1 of .a, #b)", (1, 1, 0)),
        (":nth-child(odd)", (0, 1, 0)),
        ("a.b\\:c", (0, 1, 1)),  # an escaped colon is part of the class name
        ("a[title='x, y']", (0, 1, 1)),
    ],
)
def test_specificity_follows_selectors_4(selector: str, expected: tuple[int, int, int]) -> None:
    assert specificity(selector) == expected


def test_selector_lists_split_at_top_level_commas_only() -> None:
    from tinycss2 import parse_component_value_list

    tokens = parse_component_value_list("a, b[x=','], :is(c, d) /* , */, e")
    assert [s.text for s in selectors(tokens)] == ["a", 'b[x=","]', ":is(c, d)", "e"]


def test_only_the_properties_read_are_kept_with_values_and_importance() -> None:
    css = ".a{color:red; DISPLAY: None !important; margin:0} .b{visibility:hidden}"
    assert facts(css) == [
        ([".a"], "display", "None", True),
        ([".b"], "visibility", "hidden", False),
    ]


def test_comments_inside_strings_and_braces_inside_strings() -> None:
    css = (
        '.a::before{content:"/* not a comment */"} '
        '.b[title="}{"]{display:none} /* .c{display:none} */ .d{display:block}'
    )
    assert facts(css) == [
        ([".a::before"], "content", '"/* not a comment */"', False),
        (['.b[title="}{"]'], "display", "none", False),
        ([".d"], "display", "block", False),
    ]


def test_escapes_in_selectors_properties_and_strings() -> None:
    css = ".x\\:y{disp\\lay:none} .z{content:'\\7B'}"
    assert facts(css) == [([".x\\:y"], "display", "none", False), ([".z"], "content", '"{"', False)]
    assert display_of(css, '<p id=t class="x:y">x</p>') == D_NONE


def test_nested_at_rules_are_entered_when_they_apply() -> None:
    css = (
        "@supports (display:grid){@media (min-width:600px){.a{display:none}}}"
        "@media print{@supports (x:y){.b{display:none}}}"
        "@container card (min-width: 10px){.c{display:none}}"
        "@font-face{font-display:swap} @keyframes k{from{display:none}}"
    )
    assert [f[0] for f in facts(css)] == [[".a"], [".c"]]
    narrow = read_sheets(["@media (min-width:600px){.a{display:none}}"], (400.0, 800.0))
    assert narrow == []


def test_nested_style_rules_are_not_resolved_but_the_outer_declarations_count() -> None:
    css = ".a{display:none; .b{display:block}} .c{display:inline}"
    assert facts(css) == [([".a"], "display", "none", False), ([".c"], "display", "inline", False)]


def test_layers_rank_by_first_declaration_and_unlayered_rules_win() -> None:
    css = (
        "@layer base, theme;"
        "@layer theme{.a{display:block}}"
        "@layer base{.a{display:none}}"
        "@layer {.a{display:inline}}"
    )
    ranks = {d.value: d.layer for d in read(css + ".a{visibility:hidden}")}
    assert ranks["none"] < ranks["block"] < ranks["inline"] < ranks["hidden"]
    # theme is declared after base, so it wins though its rule comes first
    assert (
        display_of(
            "@layer base, theme; @layer theme{#t{display:block}} @layer base{#t{display:none}}"
        )
        == D_BLOCK
    )
    # an unlayered rule beats a layered one of higher specificity
    assert display_of("@layer l{#t{display:none}} div{display:inline}") == D_INLINE
    # a layer's own rules beat its sub-layers'
    assert display_of("@layer a{#t{display:block} @layer b{#t.a{display:none}}}") == D_BLOCK


def test_a_repeated_media_query_keeps_each_blocks_own_layer() -> None:
    """The same ``@media`` prelude inside two layers (and at the top level) opens three
    blocks whose rules sit in three layers; a false query stays false every time."""
    query = "@media (min-width: 100px)"
    css = (
        f"@layer a{{{query}{{.a{{display:none}}}}}}"
        f"@layer b{{{query}{{.b{{display:block}}}}}}"
        f"{query}{{.c{{display:inline}}}}"
        "@media (max-width: 10px){.d{display:flex}}"
        "@media (max-width: 10px){.e{display:grid}}"
    )
    ranks = {d.value: d.layer for d in read(css)}
    assert set(ranks) == {"none", "block", "inline"}
    assert ranks["none"] < ranks["block"] < ranks["inline"]


def test_important_declarations_reverse_the_layer_order() -> None:
    css = (
        "@layer a, b; @layer a{#t{display:none !important}} @layer b{#t{display:block !important}}"
    )
    assert display_of(css) == D_NONE
    assert (
        display_of("@layer a{#t{display:none !important}} #t{display:block !important}") == D_NONE
    )


def test_bracketed_braces_fall_back_to_a_whole_sheet_parse() -> None:
    # A "{" inside a prelude's [...] opens nothing (CSS Syntax 3): the pre-pass hands the
    # sheet to tinycss2, which sees one rule.
    css = ".a[x={]{display:none} #t{display:none}"
    assert display_of(css) == D_UNSET
    assert display_of("@media screen{#t{display:none}") == D_NONE  # unclosed: closed at the end


def test_media_query_lists() -> None:
    assert media_applies("screen and (min-width: 1000px)", DESKTOP)
    assert not media_applies("print", DESKTOP)
    assert media_applies("print, (max-width: 1300px)", DESKTOP)
    assert not media_applies("not all and (min-width: 10em)", DESKTOP)
    assert media_applies("(prefers-color-scheme: light) /* , print */", DESKTOP)


def test_a_semicolon_in_a_selector_does_not_cut_it_short() -> None:
    # HTML-escaped CSS ("&gt;" inside <style> is text): the selector holds ";" and is
    # invalid, so browsers drop the rule; it must not become "div:first-child".
    css = ".a &gt;\n div:first-child{display:none} @import 'x.css'; #t{display:inline}"
    assert [f[0] for f in facts(css)] == [[".a &gt;\n div:first-child"], ["#t"]]
    assert display_of(css, "<div id=t>x</div>") == D_INLINE


def test_a_sheet_wrapped_in_cdata_has_no_rules() -> None:
    assert read("<![CDATA[ .a{display:none} @media screen{.b{display:none}} ]]>") == []


PAGE_SUBJECTS = Subjects(["html", "body", "div", "a"], [{"class": "Card big", "id": "Top"}, None])


@pytest.mark.parametrize(
    ("prelude", "possible"),
    [
        (".card", True),  # lower-cased on both sides: only ever keeps more rules
        (".missing", False),
        ("div.missing", False),
        ("span", False),
        ("span, .big", True),
        ("a:hover .missing", False),  # the rightmost compound is the subject
        (".missing a", False),  # every compound matches some element
        (".card > a + div ~ a", True),
        (".missing:not(.card)", False),
        (":not(.missing)", True),  # inside a group: says nothing about the subject
        (":is(.missing)", True),
        ("#top", True),
        ("#other", False),
        ("div > a[href*='q']", True),
        ("ul li > a[href*='q']", False),
        (".missing::before", False),
        (".card::before", True),
        ("ns|span", True),  # not interpreted: assumed to match
        ("td:nth-child(2n+1)", False),
        ("*", True),
    ],
)
def test_subjects_rule_out_rules_whose_subject_the_page_lacks(prelude: str, possible: bool) -> None:
    assert PAGE_SUBJECTS.may_match(prelude, prelude) is possible


def test_plain_compounds_read_without_the_pattern_match_it() -> None:
    """A compound of ASCII names, classes and ids has the same state split at its marks as
    parsed by the pattern, on random compounds (empty names, doubled marks, any case)."""
    import random

    pieces = ["div", "A", "x", "-", "_", "1", ".", "#", ".card", ".BIG", "#top", "#t", ".m"]
    rng = random.Random(19)
    for _ in range(5000):
        compound = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 6)))
        state = PAGE_SUBJECTS._plain_state(compound)
        assert state == PAGE_SUBJECTS._parsed_state(compound), compound


def test_unread_characters_found_in_the_utf8_as_by_the_pattern() -> None:
    """A prelude holds a character the subject test does not interpret exactly when its
    UTF-8 keeps a byte once the others are deleted (any character, surrogates included)."""
    import random

    from resolver.adapters.dom.css import _READ_BYTES, _UNREAD

    alphabet = [chr(c) for c in range(160)] + ["é", "中", "\ud800", "\U0001f600", "\u2028"]
    rng = random.Random(23)
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6)))
        kept = text.encode("utf-8", "surrogatepass").translate(None, _READ_BYTES)
        assert bool(kept) == (_UNREAD.search(text) is not None), repr(text)


def test_subjects_leave_out_only_rules_that_cannot_apply() -> None:
    css = ".card{display:none} .missing{display:block} @media screen{div .gone{display:none}}"
    full = read_sheets([css], DESKTOP)
    kept = read_sheets([css], DESKTOP, PAGE_SUBJECTS)
    assert [d.selectors[0].text for d in full] == [".card", ".missing", "div .gone"]
    assert [(d.selectors[0].text, d.order) for d in kept] == [(".card", 0)]


def test_subjects_do_not_change_which_declarations_the_limit_cuts() -> None:
    css = ".missing{display:none}" * MAX_DECLARATIONS + ".card{display:block}"
    kept = read_sheets([css], DESKTOP, PAGE_SUBJECTS)
    assert kept == read_sheets([css], DESKTOP)
    assert len(kept) == MAX_DECLARATIONS
    assert {d.selectors[0].text for d in kept} == {".missing"}


@pytest.mark.parametrize(
    "prelude",
    [
        "a", "div.a#b::before, p:after", " .x > .y ~ z + w *", "a\n  b", ".a,,.b", "#5",
        "a::-webkit-scrollbar", ":-moz-focusring", "td:first-child", "ul li:before",
        ".a&gt;\n  .b::-webkit-scrollbar", ".x:hover&gt; .n,\n .m", "a&amp;b", "&#62;a", "a;b",
    ],
)  # fmt: skip
def test_simple_selector_lists_read_without_the_tokenizer_match_it(prelude: str) -> None:
    from resolver.adapters.dom.css import _simple_selectors, _tokens

    assert _simple_selectors(prelude) == tuple(selectors(_tokens(prelude)))


def test_random_simple_selector_lists_read_without_the_tokenizer_match_it() -> None:
    """Random lists of the simple pieces (HTML-escaped combinators among them) read the
    same with and without the tokenizer, whenever the simple reading accepts them."""
    import random

    from resolver.adapters.dom.css import _simple_selectors, _tokens

    pieces = ["a", "div", ".b", "#c", "#5", ":hover", "::before", ":after", "-x", "&", ";",
              "&gt;", "&amp;", "&#62;", " ", "\n", "\t", ",", ">", "+", "~", "*", "gt"]  # fmt: skip
    rng = random.Random(17)
    for _ in range(3000):
        prelude = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 10)))
        simple = _simple_selectors(prelude)
        if simple is not None:
            assert simple == tuple(selectors(_tokens(prelude))), prelude


@pytest.mark.parametrize(
    "prelude", ["a:nth-child(2)", "a[href]", ".caf\u00e9", "a\\:b", "--x", "a/**/b", "a" * 60 + "("]
)
def test_other_selector_lists_go_to_the_tokenizer(prelude: str) -> None:
    from resolver.adapters.dom.css import _simple_selectors

    assert _simple_selectors(prelude) is None


def test_sheets_worth_reading() -> None:
    from resolver.adapters.dom.css import _worth_reading

    assert _worth_reading("A{DISPLAY:NONE}") and _worth_reading("@LAYER x;")
    assert _worth_reading(".a{dis\\70lay:none}")  # an escape may spell a property
    assert not _worth_reading(".a{color:red;width:3px}")
    assert [d.prop for d in read("A{DISPLAY:NONE}")] == ["display"]


@pytest.mark.timeout(10)
def test_selectors_the_engine_would_take_minutes_over_are_not_matched() -> None:
    """A chain of 40 ``div`` compounds on 50 nested ``div``s: the engine would try every way
    of picking the ancestors. It is left out; a real page's costliest selector is far below
    the bound, and selectors with one step are let through uncounted."""
    from resolver.adapters.dom.css import MAX_MATCH_COST, MatchCost
    from resolver.adapters.dom.style import compute_styles

    chain = " ".join(["div"] * 40)
    doc = parse_html(f"<style>{chain}{{display:none}}</style>" + "<div>" * 50 + "x")
    costs = MatchCost(doc.tags, doc.attrs, doc.parent)
    assert costs(chain) > MAX_MATCH_COST and not costs.allow(chain)
    assert costs("div > div > div") <= 50 and costs.allow("div div")
    assert costs(".a .b span") == 0  # no element has class a
    assert costs(":has(div div div) div") > costs("div")  # steps inside a pseudo-class count
    compute_styles(doc)  # in time
    from resolver.adapters.dom import analyze

    page = analyze("<div>" * 50 + "x")
    assert page.css(chain) == [] and len(page.css("div div")) == 49  # a recorded selector too


def test_blanking_tries_the_pattern_where_it_can_start_with_the_same_result() -> None:
    """Comments, strings, escapes and ``url()`` are blanked as a plain ``sub`` of a
    backtracking pattern for the same tokens blanks them, on random text made of their
    pieces (unclosed ones, newlines in strings, escapes at the end, non-latin-1 characters)."""
    import random

    from resolver.adapters.dom.css import _ESCAPED, blank_opaque

    reference = re.compile(
        r"/\*.*?(?:\*/|\Z)"
        r"|\"(?:[^\"\\\n]|\\.)*(?:\"|$)"
        r"|'(?:[^'\\\n]|\\.)*(?:'|$)"
        r"|\\."
        r"|u[rR][lL]\(\s*[^\s\"'()\\]*\s*\)"
        r"|U[rR][lL]\(\s*[^\s\"'()\\]*\s*\)",
        re.DOTALL | re.MULTILINE,
    )  # (the same tokens, one character per step of a backtracking group)

    def blank(match: re.Match[str]) -> str:
        text = match.group()
        return (_ESCAPED if text[0] == "\\" else " ") * len(text)

    pieces = ['"', "'", "\\", "/", "*", "/*", "*/", "**", "u", "U", "rl(", "Rl(", "url(", "URL(",
              "(", ")", " ", "\n", "\\\n", "a", "{", "}", ";", "é", "中", "\x00", "\t"]  # fmt: skip
    rng = random.Random(7)
    for _ in range(5000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 24)))
        blanked, lowered = blank_opaque(text)
        expected = reference.sub(blank, text)
        assert blanked == expected, text
        assert lowered == expected.encode("latin-1", "replace").lower(), text


def test_url_contents_checked_without_the_pattern_match_it() -> None:
    """At a ``url(``, the end found by a search for ``)`` and a check of the contents is
    the end of the pattern's match, or its absence, on random contents (every ASCII space
    the pattern knows, quotes, parentheses, backslashes, non-ASCII, no closing at all)."""
    import random

    from resolver.adapters.dom.css import _OPAQUE, _url_end

    pieces = ["a", "b:", "/", ";", "=", " ", "\t", "\n", "\r", "\f", "\v", "\x1c", "\x1f",
              "\x00", "\x7f", '"', "'", "(", ")", "\\", "é", "\u3000", "\x85", "%20"]  # fmt: skip
    rng = random.Random(11)
    for _ in range(20000):
        inner = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        text = rng.choice(["", "x", "{"]) + rng.choice(["url(", "URL(", "uRl("]) + inner
        start = text.index("(") - 3
        found = _OPAQUE.match(text, start)
        end = _url_end(text, start)
        if end == -2:
            assert not text[start + 4 :].split(")")[0].isascii(), text
        else:
            assert end == (found.end() if found else -1), text


def test_string_ends_found_without_the_pattern_match_it() -> None:
    """At a quote, the end found by searching for the closing quote is the end of the
    pattern's match, on random strings (the other quote, escapes, newlines, no closing)."""
    import random

    from resolver.adapters.dom.css import _OPAQUE, _string_end

    pieces = ["a", " ", '"', "'", "\\", "\n", "\r", "é", "中", ";", "}"]
    rng = random.Random(13)
    for _ in range(20000):
        text = rng.choice(["", "x", "{"]) + rng.choice(['"', "'"])
        start = len(text) - 1
        text += "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        found = _OPAQUE.match(text, start)
        end = _string_end(text, start)
        if end == -2:
            stop = text.find(text[start], start + 1) % (len(text) + 1)
            assert "\\" in text[start:stop] or "\n" in text[start:stop], text
        else:
            assert found is not None and end == found.end(), text


def test_plain_declarations_read_without_the_tokenizer_match_it() -> None:
    """One keyword, ``!important`` or not, in any case and spacing: the same property,
    value and importance as tinycss2 gives; anything else goes to tinycss2."""
    import random

    import tinycss2

    from resolver.adapters.dom.css import _declaration, _plain_declaration

    rng = random.Random(8)
    spaces = ["", " ", "\n", "\t", "\r\n", "\f", "  \n   ", "\u00a0", "/**/"]
    names = ["display", "Display", "VISIBILITY", "content", "text-transform", "color", "-display"]
    values = ["none", "Block", "inline-block", "a1", "-webkit-box", "9a", "x_y", '""', "attr(x)",
              "none none"]  # fmt: skip
    bangs = ["", "!important", "! important", "!IMPORTANT", "!imp", "!", "! !important"]
    read = 0
    for _ in range(20000):
        piece = "".join(
            (rng.choice(spaces), rng.choice(names), rng.choice(spaces), ":", rng.choice(spaces),
             rng.choice(values), rng.choice(spaces), rng.choice(bangs), rng.choice(spaces))
        )  # fmt: skip
        plain = _plain_declaration(piece)
        if plain is not None:
            read += 1
            assert plain == _declaration(tinycss2.parse_one_declaration(piece, True)), piece
    assert read > 500


def test_small_sheets_list_their_blocks_as_numpy_does(monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    from resolver.adapters.dom import css

    rng = random.Random(3)
    for _ in range(3000):
        text = "".join(rng.choice("{}a;") for _ in range(rng.randint(1, 60)))
        monkeypatch.setattr(css, "_SMALL_STRUCTURE", 512)
        looped = css._Structure.of(text)
        monkeypatch.setattr(css, "_SMALL_STRUCTURE", -1)
        counted = css._Structure.of(text)
        assert (looped is None) == (counted is None), text
        if looped is not None and counted is not None:
            assert (looped._opens, looped._closes) == (counted._opens, counted._closes), text


def test_candidates_found_at_the_colons_are_those_each_word_finds() -> None:
    """A large sheet's candidate starts, found from its colons, ``@`` and NULs, are those
    the search for each word finds (names before spaces and colons, at the start, inside
    longer names, ``@layer`` with and without a word boundary)."""
    import random

    from resolver.adapters.dom import css

    pieces = [b"display", b"visibility", b"text-transform", b"content", b"content-visibility",
              b"@layer", b"@layers", b"@layer-", b":", b" ", b"\t", b"\x0b", b"\x0c", b"\n",
              b"\x00", b"a", b"y", b"t", b"-", b"@", b"isplay", b" " * 40, b"xxx"]  # fmt: skip
    rng = random.Random(5)
    for _ in range(20000):
        text = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 20)))
        assert css._candidates_at_marks(text) == css._candidate_starts(text), text


def test_blocks_open_at_the_end_read_as_the_parser_reads_them() -> None:
    """A sheet whose blocks are left open at the end takes the fast path, with those blocks
    closed after the text: the same declarations as ``tinycss2.parse_stylesheet`` gives."""
    import random

    import tinycss2

    from resolver.adapters.dom import css

    pieces = ["a", "b ", ".x", "{", "{", "}", "display:none", "display: block !important", ";",
              "content:'x", 'content:"y"', "/*", "*/", "@media screen{", "@media print{", " ",
              "\n", "@font-face{", "text-transform:upper", "\\64isplay:none", "url(x", "c > d",
              "visibility:hidden"]  # fmt: skip
    rng = random.Random(11)
    tested = 0
    for _ in range(6000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 14)))
        blanked, lowered = css.blank_opaque(text)
        plan = css._Structure.of(blanked, lowered)
        if plan is None or not plan.closed_after:
            continue
        fast = css._Reader((1280.0, 800.0))
        fast._read_plain(text, blanked, lowered, plan)
        slow = css._Reader((1280.0, 800.0))
        slow._walk(tinycss2.parse_stylesheet(text, True, True), 0, css.UNLAYERED)
        assert (fast.found, fast.layers) == (slow.found, slow.layers), text
        tested += 1
    assert tested > 1000
