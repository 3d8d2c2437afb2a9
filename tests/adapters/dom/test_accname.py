"""Accessible names (accname 1.2 / HTML-AAM) and the hidden rules they depend on."""

from __future__ import annotations

import pytest

from resolver.adapters.dom import analyze


def name_of(html: str, selector: str = "#t") -> str:
    analysis = analyze(html)
    (element,) = analysis.css(selector)
    return analysis.name(element)


@pytest.mark.parametrize(
    ("html", "name"),
    [
        # 2B aria-labelledby: order, hidden references, no recursion into a second hop
        ('<button id=t aria-labelledby="a b">x</button><i id=a>One</i><i id=b>Two</i>', "One Two"),
        (
            '<button id=t aria-labelledby="a">x</button><i id=a hidden>Hidden <b>ref</b></i>',
            "Hidden ref",
        ),
        (
            '<button id=t aria-labelledby="a">x</button><i id=a>Vis<b hidden>no</b>ible</i>',
            "Visible",
        ),
        (
            '<button id=t aria-labelledby="a">x</button>'
            '<i id=a aria-labelledby="b">A</i><i id=b>B</i>',
            "A",
        ),
        ('<button id=t aria-labelledby="missing">Content</button>', "Content"),
        ('<input id=t aria-labelledby="l t" aria-label="self"><i id=l>Pre</i>', "Pre self"),
        # 2D aria-label; empty or whitespace-only is ignored
        ('<button id=t aria-label="Close">X</button>', "Close"),
        ('<button id=t aria-label="  ">Save</button>', "Save"),
        # 2E native labels
        ("<label for=t>Email</label><input id=t>", "Email"),
        ("<label>Name <input id=t></label>", "Name"),
        ("<label for=t>A</label><label for=t>B</label><input id=t>", "A B"),
        ('<input id=t type=submit value="Go">', "Go"),
        ("<input id=t type=submit>", "Submit"),
        ("<input id=t type=reset>", "Reset"),
        ('<input id=t type=image alt="Search">', "Search"),
        ('<input id=t placeholder="Find">', "Find"),
        ('<input id=t title="Tip" placeholder="Find">', "Tip"),
        ('<img id=t alt="Logo" title="x">', "Logo"),
        ('<img id=t title="Only title">', "Only title"),
        ("<fieldset id=t><legend>Shipping</legend></fieldset>", "Shipping"),
        ("<table id=t><caption>Prices</caption><tr><td>1</td></tr></table>", "Prices"),
        ("<svg id=t><title>Chart</title></svg>", "Chart"),
        ("<select><option id=t label=Short>Long text</option></select>", "Short"),
        # 2F name from content: descendants, block spacing, alt of images, embedded controls
        ("<a id=t href=#>Read <b>more</b></a>", "Read more"),
        ("<a id=t href=#><div>One</div><div>Two</div></a>", "One Two"),
        ('<a id=t href=#><img alt="Home"></a>', "Home"),
        ('<a id=t href=#><span aria-hidden="true">*</span>Cart</a>', "Cart"),
        ('<a id=t href=#>Total <span aria-label="5 items">5</span></a>', "Total 5 items"),
        ('<a id=t href=# title="Tooltip"></a>', "Tooltip"),
        ("<h2 id=t>Hello<br>world</h2>", "Hello world"),
        # (a wrapping label labels its first labelable descendant: the checkbox)
        ("<label><input id=t type=checkbox> Show <input value=10> rows</label>", "Show 10 rows"),
        (
            "<label><input id=t type=checkbox>Size <select><option>S<option selected>M</select>"
            "</label>",
            "Size M",
        ),
        ("<label><input id=t type=checkbox>Volume <input type=range value=7></label>", "Volume 7"),
        (
            "<label><input id=t type=checkbox>Vol <span role=slider aria-valuenow=3></span>"
            "</label>",
            "Vol 3",
        ),
        # roles that do not take their name from content
        ("<nav id=t><a href=#>A</a></nav>", ""),
        ("<div id=t>Plain</div>", ""),
        ('<nav id=t aria-label="Main">x</nav>', "Main"),
        # whitespace normalisation
        ("<button id=t>\n  Save \t changes\n</button>", "Save changes"),
    ],
)
def test_names(html: str, name: str) -> None:
    assert name_of(html) == name


@pytest.mark.parametrize(
    ("html", "name"),
    [
        ("<button id=t>A<span hidden>B</span>C</button>", "AC"),
        ('<button id=t>A<span style="display:none">B</span>C</button>', "AC"),
        ('<button id=t>A<span style="visibility: hidden">B</span>C</button>', "AC"),
        (
            '<button id=t>A <span style="visibility:hidden">B <i style="visibility:visible">C'
            "</i></span></button>",
            "A C",
        ),
        ("<button id=t>A<span inert>B</span></button>", "A"),
        ("<style>.off{display:none}</style><button id=t>A<span class=off>B</span></button>", "A"),
        (
            "<style>@media (max-width: 600px) {.m{display:none}}</style>"
            "<button id=t>A<span class=m>B</span></button>",
            "AB",
        ),
        (
            "<style>.x{display:none} .x.on{display:inline}</style>"
            "<button id=t>A<span class='x on'>B</span></button>",
            "AB",
        ),
        (
            "<style>#t span{display:none !important}</style>"
            '<button id=t>A<span style="display:inline">B</span></button>',
            "A",
        ),
        (
            "<style>[hidden]{display:block}</style><button id=t>A<span hidden>B</span></button>",
            "A B",
        ),
        (
            "<style>.i::before{content:'\\2605'} .j:after{content:attr(data-n) ' new'}</style>"
            "<button id=t><span class=i></span> Star <span class=j data-n=3></span></button>",
            "★ Star 3 new",
        ),
        ("<style>.up{text-transform:uppercase}</style><a id=t href=# class=up>menu</a>", "MENU"),
        (
            "<button id=t>A<script>B</script><template>C</template><noscript>D</noscript></button>",
            "A",
        ),
    ],
)
def test_hidden_content_and_page_styles(html: str, name: str) -> None:
    assert name_of(html) == name


def test_closed_details_hide_all_but_the_summary() -> None:
    analysis = analyze("<details><summary>More</summary><button id=t>Inside</button></details>")
    (button,) = analysis.css("#t")
    assert not analysis.states.rendered[button]
    assert analysis.name(button) == ""
    opened = analyze("<details open><summary>M</summary><button id=t>In</button></details>")
    assert opened.name(opened.css("#t")[0]) == "In"


def test_unrendered_element_has_no_name_but_aria_hidden_one_keeps_it() -> None:
    assert name_of("<div hidden><button id=t>Gone</button></div>") == ""
    assert name_of('<button id=t aria-hidden="true">Still <b>here</b></button>') == "Still here"


def test_labelledby_cycles_terminate() -> None:
    html = '<b id=a aria-labelledby="b">A</b><b id=b aria-labelledby="a">B</b>'
    html += '<button id=t aria-labelledby="a b t">T</button>'
    assert name_of(html) == "A B T"


def test_enabled_state() -> None:
    analysis = analyze(
        "<fieldset disabled><legend><input id=a></legend><input id=b></fieldset>"
        '<div aria-disabled="true"><button id=c>x</button></div><button id=d disabled>y</button>'
        "<button id=e>z</button>"
    )
    enabled = {
        s: analysis.states.enabled[analysis.css(s)[0]] for s in ["#a", "#b", "#c", "#d", "#e"]
    }
    assert enabled == {"#a": True, "#b": False, "#c": False, "#d": False, "#e": True}


@pytest.mark.parametrize(
    ("html", "name"),
    [
        # 2C: a menu inside a label adds nothing; a range input without a value is halfway
        ("<label for=t>Pick <ul role=menu><li>x</li></ul> one</label><input id=t>", "Pick one"),
        ("<label for=t>Level <input type=range min=0 max=10></label><input id=t>", "Level 5"),
        ("<label for=t>Qty <input type=number value=3> items</label><input id=t>", "Qty 3 items"),
        # text-only descendants: hidden ones drop out, transformed ones keep the transform
        ("<button id=t>Go <b aria-hidden=true>x</b><i hidden>y</i>on</button>", "Go on"),
        (
            "<style>.x{text-transform:uppercase}</style>"
            "<a id=t href=#><span class=x>one</span> two</a>",
            "ONE two",
        ),
    ],
)
def test_embedded_controls_and_text_leaves(html: str, name: str) -> None:
    assert name_of(html) == name


@pytest.mark.parametrize(
    ("html", "name"),
    [
        # no-break spaces are not collapsed: only ASCII whitespace is
        ("<a id=t href=x>a&nbsp;b</a>", "a\xa0b"),
        ("<a id=t href=x>Zeppelin&nbsp;</a>", "Zeppelin\xa0"),
        ("<a id=t href=x>&nbsp;</a>", "\xa0"),
        # an embedded combobox reached through aria-owns contributes its value
        (
            "<input id=t type=file><label for=t>Flash <span aria-owns=o>the screen</span>"
            " times.</label><div id=o><div role=combobox><ul role=listbox><li role=option"
            " aria-selected=true>1</li></ul></div></div>",
            "Flash the screen 1 times.",
        ),
        # Chromium: alt="" is an image's whole name, a title does not replace it
        ("<img id=t src=x alt='' title=tip aria-describedby=q>", ""),
        # Chromium: a label element, even empty, keeps the placeholder out of the name
        ("<label for=t></label><input id=t placeholder=Search>", ""),
        ("<input id=t placeholder=Search>", "Search"),
        # Chromium: generic and time are not named by their own title; abbr is
        ("<span id=t title=required>*</span>", ""),
        ("<time id=t title=today>now</time>", ""),
        ("<abbr id=t title='World Wide Web'>WWW</abbr>", "World Wide Web"),
        ("<a id=t href=x><span title=inner>i</span> text</a>", "i text"),
    ],
)
def test_chromium_grade_names(html: str, name: str) -> None:
    assert name_of(html) == name


def test_collapsing_matches_html_whitespace_rules_on_any_text() -> None:
    """The fast path (``str.split``) and the spelled-out rule (runs of HTML's ASCII whitespace
    become one space, other spaces stay) agree on text with and without Unicode spaces."""
    import random
    import re

    from resolver.adapters.dom.accname import _collapse

    rng = random.Random(3)
    alphabet = ["a", "é", "—", " ", "  ", "\t", "\n", "\r", "\f", "\xa0", "\u2009", "\u3000"]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        if text.isascii():
            continue  # (ASCII text takes str.split as it is)
        expected = re.sub(r"[ \t\n\r\f]+", " ", text).strip(" \t\n\r\f")
        assert _collapse(text) == expected, repr(text)


def test_a_link_around_content_500_elements_deep_is_named() -> None:
    # Blink keeps trees up to 512 deep; naming walks them with three frames a level, more
    # than the interpreter's default 1,000. The limit is raised for the walk and restored.
    import sys

    from resolver.adapters.base import SourceInput
    from resolver.adapters.dom import build_table

    limit = sys.getrecursionlimit()
    deep = "<div>" * 500 + "Read on" + "</div>" * 500
    table = build_table(SourceInput(raw=f"<a href='/next'>{deep}</a>"))
    assert (table.roles[0], table.names[0]) == ("link", "Read on")
    # Nested layout tables: every cell is named from all it holds.
    cells = "<table><tr><td>" * 120 + "Inner" + "</td></tr></table>" * 120
    nested = build_table(SourceInput(raw=cells, max_nodes=10**6))
    assert {nested.names[i] for i in range(len(nested.names))} == {"Inner"}
    assert sys.getrecursionlimit() == limit


def test_a_walk_in_another_thread_keeps_the_raised_limit_until_it_ends() -> None:
    # The recursion limit is the process's: a walk that started while another had raised it
    # must not find it lowered under it when that other walk ends first.
    import sys
    import threading

    from resolver.adapters.dom.accname import _STACK, _deep_walk

    limit = sys.getrecursionlimit()
    if limit >= _STACK:
        sys.setrecursionlimit(1000)
    inside, outer_done = threading.Event(), threading.Event()
    seen: list[int] = []

    def inner() -> str:
        inside.set()
        outer_done.wait(5)
        seen.append(sys.getrecursionlimit())  # the outer walk has ended by now
        return ""

    def outer() -> str:
        worker.start()
        inside.wait(5)
        return ""

    worker = threading.Thread(target=lambda: _deep_walk(inner))
    try:
        _deep_walk(outer)
        outer_done.set()
        worker.join(5)
        assert seen and seen[0] >= _STACK
        assert sys.getrecursionlimit() == min(limit, 1000)  # restored once both ended
    finally:
        sys.setrecursionlimit(limit)
