"""Roles: explicit role tokens, HTML-AAM implicit roles, presentational conflicts, tables."""

from __future__ import annotations

import pytest

from resolver.adapters.base import SourceInput
from resolver.adapters.dom import analyze, build_table


def role_of(html: str, selector: str = "#t") -> str:
    analysis = analyze(html)
    (element,) = analysis.css(selector)
    return analysis.roles[element]


@pytest.mark.parametrize(
    ("html", "role"),
    [
        # explicit roles: first valid token, synonyms, invalid tokens fall through
        ('<div id=t role="foo button link">x</div>', "button"),
        ('<div id=t role="presentation">x</div>', "none"),
        ('<div id=t role="image">x</div>', "img"),
        ('<div id=t role="nonsense">x</div>', "generic"),
        ('<nav id=t role="bogus">x</nav>', "navigation"),
        # presentational role conflict: focusable or globally labelled elements keep theirs
        ('<button id=t role="none">x</button>', "button"),
        ('<h2 id=t role="none" aria-label="y">x</h2>', "heading"),
        ('<h2 id=t role="none">x</h2>', "none"),
        # inputs
        ("<input id=t>", "textbox"),
        ("<input id=t type=email>", "textbox"),
        ("<input id=t type=password>", "textbox"),
        ("<input id=t type=search>", "searchbox"),
        ("<input id=t type=text list=l>", "combobox"),
        ("<input id=t type=checkbox>", "checkbox"),
        ("<input id=t type=radio>", "radio"),
        ("<input id=t type=range>", "slider"),
        ("<input id=t type=number>", "spinbutton"),
        ("<input id=t type=submit>", "button"),
        ("<input id=t type=image alt=go>", "button"),
        ("<textarea id=t></textarea>", "textbox"),
        # links, images
        ("<a id=t href=#>x</a>", "link"),
        ("<a id=t>x</a>", "generic"),
        ("<img id=t alt=x>", "img"),
        ("<img id=t>", "img"),
        ('<img id=t alt="">', "none"),
        ('<img id=t alt="" title="t">', "img"),
        # select size/multiple
        ("<select id=t><option>a</select>", "combobox"),
        ("<select id=t size=4><option>a</select>", "listbox"),
        ("<select id=t multiple><option>a</select>", "listbox"),
        ("<select><option id=t>a</select>", "option"),
        # sectioning: section/form names, header/footer/aside scoping
        ("<section id=t>x</section>", "generic"),
        ('<section id=t aria-label="S">x</section>', "region"),
        ("<form id=t></form>", "form"),
        ("<header id=t>x</header>", "banner"),
        ("<footer id=t>x</footer>", "contentinfo"),
        ("<aside id=t>x</aside>", "complementary"),
        ("<article><aside id=t>x</aside></article>", "generic"),
        ('<article><aside id=t aria-label="a">x</aside></article>', "complementary"),
        # lists
        ("<ul><li id=t>x</li></ul>", "listitem"),
        ('<ul role="none"><li id=t>x</li></ul>', "none"),
        ("<dl><dt id=t>x</dt><dd>y</dd></dl>", "term"),
        ("<dl><dt>x</dt><dd id=t>y</dd></dl>", "definition"),
        # misc
        ("<h3 id=t>x</h3>", "heading"),
        ("<p id=t>x</p>", "paragraph"),
        ("<hr id=t>", "separator"),
        ("<fieldset id=t></fieldset>", "group"),
        ("<details id=t><summary>s</summary></details>", "group"),
        ("<details><summary id=t>s</summary></details>", "button"),
        ("<dialog id=t open>x</dialog>", "dialog"),
        ("<progress id=t></progress>", "progressbar"),
        ("<output id=t></output>", "status"),
        ("<label id=t>x</label>", "label"),
        ("<span id=t>x</span>", "generic"),
        ("<my-widget id=t>x</my-widget>", "generic"),
    ],
)
def test_roles(html: str, role: str) -> None:
    assert role_of(html) == role


DATA = (
    "<table id=t><caption>c</caption><tr><th>h</th><td>1</td></tr>"
    "<tr><th>g</th><td>2</td></tr></table>"
)
LAYOUT = "<table id=t><tr><td>a</td><td>b</td></tr></table>"


def test_data_tables_and_their_parts() -> None:
    assert role_of(DATA) == "table"
    assert role_of(DATA, "tr:first-child") == "row"
    assert role_of(DATA, "tr:first-child > th") == "rowheader"
    assert role_of(DATA, "tr:first-child > td") == "cell"
    header = "<table><thead><tr><th id=t>Name</th></tr></thead><tr><td>x</td></tr></table>"
    assert role_of(header) == "columnheader"
    assert role_of('<table><tr><th id=t scope="col">a</th><td>b</td></tr></table>') == (
        "columnheader"
    )


def test_layout_tables_are_generic_like_chromium() -> None:
    assert role_of(LAYOUT) == "generic"
    assert role_of(LAYOUT, "td:first-child") == "generic"
    assert role_of('<table id=t role="presentation"><tr><td>a</td></tr></table>') == "none"
    assert role_of('<table role="grid"><tr><td id=t>a</td></tr></table>') == "gridcell"


def test_layout_cells_are_named_from_their_content_like_chromium() -> None:
    # Chromium's LayoutTableCell: generic, named by its content as a cell is.
    html = """<table><tr><td id=a>Log in <a href="/x">now</a><img alt="Logo"></td>
    <td id=b role="presentation">Skip</td><td id=c title="tip"></td></tr></table>
    <table><tr><th>H</th></tr><tr><td id=d>data</td></tr></table>"""
    analysis = analyze(html)
    a, b, c, d = (analysis.css(f"#{k}")[0] for k in "abcd")
    assert analysis.roles[a] == "generic"
    assert analysis.name(a) == "Log in now Logo"
    assert analysis.roles[b] == "none" and analysis.name(b) == ""  # an author's role wins
    assert analysis.name(c) == ""  # no content: nothing, as for any generic
    assert analysis.roles[d] == "cell" and analysis.name(d) == "data"
    # Its content keeps rows of its own: the cell is a named container, not a control.
    table = build_table(SourceInput(raw=html))
    rows = {table.ids[i]: (table.roles[i], table.names[i]) for i in range(len(table.ids))}
    cell = "/html[1]/body[1]/table[1]/tbody[1]/tr[1]/td[1]"
    assert rows[cell] == ("generic", "Log in now Logo")
    assert rows[cell + "#text"] == ("text", "Log in")
    assert rows[cell + "/a[1]"] == ("link", "now")
    assert rows[cell + "/img[1]"] == ("img", "Logo")


def test_svg_roles() -> None:
    assert role_of("<svg id=t><title>Logo</title></svg>") == "img"
    assert role_of("<svg><path id=t /></svg>") == "none"


def aria_role_of(html: str, selector: str = "#t") -> str:
    analysis = analyze(html)
    (element,) = analysis.css(selector)
    return analysis.aria_role(element)


@pytest.mark.parametrize(
    ("html", "role", "aria"),
    [
        # ARIA 1.3 roles folded into generic keep their computedrole spelling
        ("<p><sub id=t>2</sub></p>", "generic", "subscript"),
        ("<p><sup id=t>2</sup></p>", "generic", "superscript"),
        ("<img id=t src=x alt=a>", "img", "image"),
        ('<div id=t role="img">x</div>', "img", "image"),
        # header/footer: landmarks at the top, sectionheader/sectionfooter in sectioning
        # content (main included, as in Chromium); aside in main stays complementary
        ("<header id=t>x</header>", "banner", "banner"),
        ("<article><header id=t>x</header></article>", "generic", "sectionheader"),
        ("<main><footer id=t>x</footer></main>", "generic", "sectionfooter"),
        ("<nav><header id=t aria-label=x>x</header></nav>", "generic", "sectionheader"),
        ("<main><aside id=t>x</aside></main>", "complementary", "complementary"),
        ("<nav><aside id=t>x</aside></nav>", "generic", "generic"),
        # li: a list ancestor makes a listitem; an orphan is generic
        ("<li id=t>x</li>", "generic", "generic"),
        ("<ul><div><li id=t>x</li></div></ul>", "listitem", "listitem"),
        ('<div role="list"><li id=t>x</li></div>', "listitem", "listitem"),
        # only the first summary child of details is its button
        ("<details><summary id=t>a</summary></details>", "button", "button"),
        ("<details><summary>a</summary><summary id=t>b</summary></details>", "generic", "generic"),
        ("<summary id=t>x</summary>", "generic", "generic"),
        # rowgroups: thead, tbody and tfoot are not exposed unless focusable (as WPT expects)
        ("<table><thead id=t><tr><th>a<th>b</thead><tr><td>1<td>2</table>", "none", "none"),
        ("<table><tr><td>1<td>2<tfoot id=t><tr><td>3<td>4</tfoot></table>", "none", "none"),
        (
            "<table><thead id=t tabindex=-1><tr><th>a<th>b</thead><tr><td>1<td>2</table>",
            "rowgroup",
            "rowgroup",
        ),
        # the header cells of an unexposed thead stay column headers
        (
            "<table><thead><tr><th id=t>a<th>b</thead><tr><th>1<td>2</table>",
            "columnheader",
            "columnheader",
        ),
        ("<table><thead><tr><th>a<th>b</thead><tbody id=t><tr><td>1<td>2</table>", "none", "none"),
        (
            "<table><thead><tr><th>a<th>b</thead><tbody id=t tabindex=0><tr><td>1<td>2</table>",
            "rowgroup",
            "rowgroup",
        ),
        # inline elements with ARIA 1.2 roles, and generic ones
        ("<p><s id=t>x</s></p>", "deletion", "deletion"),
        ("<p><q id=t>x</q></p>", "generic", "generic"),
        ("<p><a id=t>x</a></p>", "generic", "generic"),
        ("<body id=t>x</body>", "generic", "generic"),
        ("<math><mi id=t>x</mi></math>", "generic", "generic"),
    ],
)
def test_contextual_roles_and_computed_spelling(html: str, role: str, aria: str) -> None:
    assert role_of(html) == role
    assert aria_role_of(html) == aria
