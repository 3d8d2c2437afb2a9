"""Per-element states: rendered, hidden from assistive technology, block-level, enabled."""

from __future__ import annotations

import pytest

from resolver.adapters.dom.parse import Document, parse_html
from resolver.adapters.dom.style import compute_styles
from resolver.adapters.dom.visibility import States, compute_states


def analyze(html: str) -> tuple[Document, States]:
    doc = parse_html(html)
    return doc, compute_states(doc, compute_styles(doc))


def states(html: str, *selectors: str) -> list[tuple[bool, bool, bool]]:
    """``(rendered, hidden, aria_hidden)`` of the one element each selector selects."""
    doc, s = analyze(html)
    found = []
    for selector in selectors:
        (element,) = doc.css(selector)
        found.append((s.rendered[element], s.hidden[element], s.aria_hidden[element]))
    return found


SHOWN = (True, False, False)
NOT_RENDERED = (False, True, False)
ARIA_HIDDEN = (True, True, True)
INVISIBLE = (True, True, False)  # rendered, but visibility: hidden


def test_noscript_is_rendered_only_with_scripting_off() -> None:
    page = "<p>t</p><noscript id=n><a href=x id=a>x</a><b hidden id=h>y</b></noscript>"
    doc = parse_html(page, scripting=False)
    s = compute_states(doc, compute_styles(doc))
    (n,), (a,), (h,) = doc.css("#n"), doc.css("#a"), doc.css("#h")
    assert (s.rendered[n], s.rendered[a], s.rendered[h]) == (True, True, False)
    assert not s.block[n]  # an ordinary inline element
    on, s_on = analyze(page)
    (n,) = on.css("#n")
    assert not s_on.rendered[n] and on.content[n] == ["<a href=x id=a>x</a><b hidden id=h>y</b>"]
    # HTML §15.3.1: "display: none !important" with scripting on, whatever the author says
    on, s_on = analyze("<style>noscript{display:block}</style><noscript id=n>x</noscript>")
    assert not s_on.rendered[on.css("#n")[0]]


@pytest.mark.parametrize(
    ("html", "selectors", "expected"),
    [
        ("<div hidden id=a><b id=b>x</b></div><p id=c>y</p>", "#a #b #c",
         [NOT_RENDERED, NOT_RENDERED, SHOWN]),
        # an author display undoes the hidden attribute
        ("<style>#a{display:block}</style><div hidden id=a>x</div>", "#a", [SHOWN]),
        ("<div style='display:none' id=a><b id=b>x</b></div>", "#a #b",
         [NOT_RENDERED, NOT_RENDERED]),
        ("<style>.x{display:none}</style><div class=x id=a><b id=b>x</b></div>", "#a #b",
         [NOT_RENDERED, NOT_RENDERED]),
        ("<div aria-hidden=true id=a><b id=b>x</b></div><div aria-hidden=false id=c>y</div>",
         "#a #b #c", [ARIA_HIDDEN, ARIA_HIDDEN, SHOWN]),
        ("<div inert id=a><button id=b>x</button></div>", "#a #b", [ARIA_HIDDEN, ARIA_HIDDEN]),
        # visibility: hidden is inherited, and undone by visibility: visible below
        ("<div style='visibility:hidden' id=a><b id=b>x</b>"
         "<i id=c style='visibility:visible'>y</i></div>", "#a #b #c",
         [INVISIBLE, INVISIBLE, SHOWN]),
        # a closed details renders its first summary only
        ("<details id=d><summary id=s1>S</summary><summary id=s2>T</summary><p id=p>x</p>"
         "</details>", "#d #s1 #s2 #p", [SHOWN, SHOWN, NOT_RENDERED, NOT_RENDERED]),
        ("<details open><summary id=s1>S</summary><p id=p>x</p></details>", "#s1 #p",
         [SHOWN, SHOWN]),
        ("<input type=hidden id=a><input id=b><dialog id=c>d</dialog><dialog open id=d>e"
         "</dialog>", "#a #b #c #d", [NOT_RENDERED, SHOWN, NOT_RENDERED, SHOWN]),
        # content-visibility: hidden renders the element but not its content
        ("<div style='content-visibility:hidden' id=a><p id=b>x</p></div>", "#a #b",
         [SHOWN, NOT_RENDERED]),
        ("<svg id=s><title id=t>T</title><defs id=d></defs><g id=g></g></svg>", "#s #t #d #g",
         [SHOWN, NOT_RENDERED, NOT_RENDERED, SHOWN]),
        ("<script id=s>x</script><p id=p>x</p>", "#s #p", [NOT_RENDERED, SHOWN]),
    ],
)  # fmt: skip
def test_rendered_and_hidden(html: str, selectors: str, expected: list[tuple[bool, ...]]) -> None:
    assert states(html, *selectors.split()) == expected


def test_template_content_is_not_in_the_tree() -> None:
    doc, s = analyze("<template id=t><button>x</button></template><p>y</p>")
    assert doc.tags == ["html", "head", "template", "body", "p"]
    (template,) = doc.css("#t")
    assert doc.content[template] == []
    assert s.rendered[template] is False


def enabled(html: str, *selectors: str) -> list[bool]:
    doc, s = analyze(html)
    return [s.enabled[doc.css(selector)[0]] for selector in selectors]


def test_disabled_controls_and_aria_disabled_subtrees() -> None:
    page = "<button disabled id=a>x</button><div aria-disabled=true id=b><button id=c>y</button>"
    page += "</div><button id=d>z</button>"
    assert enabled(page, "#a", "#b", "#c", "#d") == [False, False, False, True]


def test_a_disabled_fieldset_spares_its_first_legend() -> None:
    page = (
        "<fieldset disabled id=f><legend><input id=a></legend><input id=b>"
        "<legend><input id=c></legend></fieldset><input id=d>"
    )
    assert enabled(page, "#f", "#a", "#b", "#c", "#d") == [False, True, False, False, True]


def test_a_disabled_optgroup_disables_its_options() -> None:
    page = (
        "<select><optgroup disabled id=g><option id=a>1</option></optgroup>"
        "<optgroup><option id=b>2</option></optgroup><option id=c>3</option></select>"
    )
    assert enabled(page, "#g", "#a", "#b", "#c") == [False, False, True, True]


def test_block_level_elements() -> None:
    doc, s = analyze(
        "<div id=a>x</div><span id=b>y</span><span id=c style='display:block'>z</span>"
        "<div id=d style='display:inline'>w</div><span id=e style='display:inline-flex'>v</span>"
        "<br id=f>"
    )
    block = [s.block[doc.css(f"#{k}")[0]] for k in "abcdef"]
    assert block == [True, False, True, False, True, True]


def test_subtree_ends() -> None:
    doc, s = analyze("<div id=a><p id=b><b id=c>x</b></p><i id=d></i></div><span id=e></span>")
    assert doc.tags == ["html", "head", "body", "div", "p", "b", "i", "span"]
    assert s.end == [8, 2, 8, 7, 6, 6, 7, 8]
