"""The DOM source's CandidateTable: rows, columns, layout, and selector verification."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from resolver import MatchConfig, Observation, SemanticElementRef, resolve
from resolver.adapters.base import SourceInput
from resolver.adapters.dom import DomNative, analyze, build_table, ranked_selectors
from resolver.errors import InvalidObservationError
from resolver.geometry import CoordSpace

CAPTURED = Path(__file__).resolve().parents[3] / "fixtures" / "captured"
NOSCRIPT_PAGE = CAPTURED.parent / "live" / "noscript.html"
PAGES = sorted(p for p in CAPTURED.glob("*") if (p / "dom.html").is_file())

PAGE = """<!doctype html><html><body>
<header><a href="/">Home</a>
<button id="menu" data-testid="menu-btn">Menu <i class="icon">≡</i></button></header>
<main><h1>Orders</h1>
<p>Three orders are <b>waiting</b>. <a href="/all">See all</a></p>
<div class="card"><span>Total</span><span>42</span></div>
<ul><li>Alice <button aria-label="Delete Alice">x</button></li>
    <li>Bob <button aria-label="Delete Bob" disabled>x</button></li></ul>
<div hidden><button>Ghost</button></div>
<button aria-hidden="true" tabindex="-1">Decoy</button>
<div onclick="go()">Clickable</div>
</main></body></html>"""


@pytest.fixture(scope="module")
def table():  # type: ignore[no-untyped-def]
    return Observation(dom_html=PAGE).candidates("dom")


def _row(table, role: str, name: str) -> int:  # type: ignore[no-untyped-def]
    hits = [i for i in range(len(table)) if table.roles[i] == role and table.names[i] == name]
    assert len(hits) == 1, (role, name, hits)
    return hits[0]


def test_rows_are_preorder_with_parents_and_containers(table) -> None:  # type: ignore[no-untyped-def]
    assert table.source == "dom"
    assert all(table.parent[i] < i for i in range(len(table)))
    delete = _row(table, "button", "Delete Alice")
    item = int(table.parent[delete])
    assert table.roles[item] == "listitem"
    assert "[main]" in table.containers[delete]
    assert table.executor_ids[delete] == "xpath:" + table.ids[delete]
    assert table.ids[delete].startswith("/html[1]/body[1]/main[1]/ul[1]/li[1]/button[1]")


def test_text_leaves_generic_controls_and_hidden_elements(table) -> None:  # type: ignore[no-untyped-def]
    assert _row(table, "text", "Three orders are waiting.") >= 0
    assert _row(table, "text", "Total42") >= 0
    assert _row(table, "text", "Alice") >= 0
    assert _row(table, "generic", "Clickable") >= 0
    assert "Ghost" not in table.names  # not rendered: no row
    decoy = _row(table, "button", "Decoy")
    assert table.visible[decoy] == 0  # rendered but aria-hidden
    assert table.enabled[_row(table, "button", "Delete Bob")] == 0
    assert table.enabled[_row(table, "button", "Delete Alice")] == 1


def test_platform_ids(table) -> None:  # type: ignore[no-untyped-def]
    menu = _row(table, "button", "Menu ≡")
    assert table.platform_ids["css"][menu] == "#menu"
    assert table.platform_ids["dom_id"][menu] == "menu"
    assert table.platform_ids["testid"][menu] == "menu-btn"
    assert table.platform_ids["tag"][menu] == "button"
    assert table.xpaths[menu] == table.ids[menu]
    assert np.isnan(table.bboxes[menu]).all()


def test_web_columns() -> None:
    html = """<html><body><a href="../all" class="more link" title="Every order">See all</a>
    <img src="x.png" alt="Logo"><input name="q" type="text" placeholder="Find"></body></html>"""
    table = build_table(SourceInput(html, url="https://shop.example/orders/list"))
    web = table.platform_ids
    link = _row(table, "link", "See all")
    assert web["href"][link] == "https://shop.example/all"
    assert web["class"][link] == "more link" and web["attr:title"][link] == "Every order"
    assert web["attr:alt"][_row(table, "img", "Logo")] == "Logo"
    field = _row(table, "textbox", "Find")
    assert (web["attr:name"][field], web["attr:type"][field]) == ("q", "text")
    assert web["attr:placeholder"][field] == "Find" and web["href"][field] is None
    relative = build_table(SourceInput(html)).platform_ids["href"]
    assert relative[link] == "../all"  # no page URL: kept as written


@pytest.mark.parametrize(
    ("head", "url", "href"),
    [
        ('<base href="docs/">', "https://shop.example/orders/list", "https://shop.example/orders/all"),
        ('<base target="_top"><base href="/v2/">', "https://shop.example/orders/list", "https://shop.example/all"),
        ('<base href="https://cdn.example/a/b/">', None, "https://cdn.example/a/all"),
        ('<base href="docs/">', None, "../all"),  # relative, no page URL: nothing to resolve
        ('<base href="http://[::1">', "https://shop.example/orders/list", "https://shop.example/all"),
        ('<svg><base href="/svg/"></base></svg>', "https://shop.example/x/y", "https://shop.example/all"),
    ],
)  # fmt: skip
def test_links_resolve_against_the_document_base_url(head: str, url: str | None, href: str) -> None:
    # element.href: against the first HTML <base> with an href, itself resolved against the
    # page's URL (HTML, "document base URL").
    html = f"<html><head>{head}</head><body><a href='../all'>See all</a></body></html>"
    table = build_table(SourceInput(html, url=url))
    assert table.platform_ids["href"][_row(table, "link", "See all")] == href


def test_selector_resolver_maps_to_rows(table) -> None:  # type: ignore[no-untyped-def]
    run = table.selector_resolver
    menu = _row(table, "button", "Menu ≡")
    assert run("css", "#menu") == [menu]
    assert run("css", "#menu .icon") == [menu]  # inside a control: the control
    assert run("xpath", "//button[@id='menu']/i") == [menu]
    assert run("css", "[hidden] button") == []  # unrendered
    assert run("css", "main") == [_row(table, "main", "")]
    assert len(run("css", "li > button")) == 2
    assert run("css", "div..bad[") == []
    assert run("xpath", "//*[contains(@class, 'card')]") == [_row(table, "text", "Total42")]
    assert run("xpath", "//button[text()='Decoy']") == [_row(table, "button", "Decoy")]
    assert run("xpath", "/html/body/main/ul/li[2]/button") == [_row(table, "button", "Delete Bob")]
    assert run("xpath", "((") == []
    assert run("bogus", "x") == []


def test_ranked_selectors_each_select_exactly_their_element(table) -> None:  # type: ignore[no-untyped-def]
    menu = _row(table, "button", "Menu ≡")
    kinds = [k for k, _ in ranked_selectors(table, menu)]
    assert kinds[0] == "css" and kinds[-1] == "xpath"
    assert ranked_selectors(table, menu)[0] == ("css", "#menu")
    assert ("css", '[data-testid="menu-btn"]') in ranked_selectors(table, menu)
    with pytest.raises(InvalidObservationError, match="not in the table"):
        ranked_selectors(table, len(table) + 5)


def test_ranked_selectors_refuse_tables_of_other_sources() -> None:
    a11y = Observation(accessibility_tree={"role": "button", "name": "x"}).candidates("a11y")
    with pytest.raises(InvalidObservationError, match="DOM source"):
        ranked_selectors(a11y, 0)


def test_the_table_keeps_the_page_model_and_compares_xpaths_normalised(table) -> None:  # type: ignore[no-untyped-def]
    native = table.native
    assert isinstance(native, DomNative)
    assert len(native.row_of) == len(native.analysis)
    menu = _row(table, "button", "Menu ≡")
    assert native.row_of[native.analysis.css("#menu")[0]] == menu
    assert native.resolve("css", "#menu") == table.selector_resolver("css", "#menu") == [menu]
    assert table.id_key("xpath", table.ids[menu]) == "/html/body/header/button"


def test_text_directly_inside_a_row_is_a_child_row_run_on_its_element() -> None:
    table = build_table(SourceInput("<ul><li>One <a href=x>two</a></li></ul>"))
    assert table.ids == (
        "/html[1]/body[1]/ul[1]",
        "/html[1]/body[1]/ul[1]/li[1]",
        "/html[1]/body[1]/ul[1]/li[1]#text",
        "/html[1]/body[1]/ul[1]/li[1]/a[1]",
    )
    assert table.roles == ("list", "listitem", "text", "link")
    assert table.raw_roles == ("ul", "li", "#text", "a")
    assert table.names == ("", "", "One", "two")
    assert table.parent.tolist() == [-1, 0, 1, 1]
    assert table.executor_ids[2] == "xpath:/html[1]/body[1]/ul[1]/li[1]"
    assert table.platform_ids["xpath"][2] == "/html[1]/body[1]/ul[1]/li[1]"


def test_form_control_values() -> None:
    page = (
        "<input id=a value=typed><input type=password id=b value=secret>"
        "<input type=checkbox checked id=c><textarea id=d>long text</textarea>"
        "<select id=e><option>one</option><option selected>two</option></select>"
        '<div role=slider aria-valuenow=7 aria-label="Level" id=f></div>'
    )
    table = build_table(SourceInput(page))
    values = {
        table.platform_ids["dom_id"][i]: table.values[i]
        for i in range(len(table))
        if not table.ids[i].endswith("#text")
    }
    assert values == {"a": "typed", "b": "", "c": "checked", "d": "long text", "e": "two",
                      "f": "7", None: ""}  # fmt: skip


def test_build_table_input_facts() -> None:
    table = build_table(SourceInput("<button>a</button>", screen_size=(800.0, 600.0)))
    assert table.screen_size == (800.0, 600.0)
    assert table.coord_space == CoordSpace.UNKNOWN
    with pytest.raises(InvalidObservationError, match="more than 2 nodes"):
        build_table(SourceInput("<button>a</button><button>b</button><p>c</p>", max_nodes=2))
    with pytest.raises(InvalidObservationError, match="no dom_html"):
        build_table(SourceInput(None))


def test_layout_boxes_from_the_capture_in_either_xpath_form() -> None:
    html = "<body><button>A</button><div><button>B</button></div></body>"
    full = {"/html[1]/body[1]/div[1]/button[1]": [10, 20, 110, 50]}
    short = {"/html/body/div/button": [10, 20, 110, 50]}
    for layout in (full, short):
        table = Observation(dom_html=html, dom_layout=layout).candidates("dom")
        b = table.names.index("B")
        assert table.bboxes[b].tolist() == [10, 20, 110, 50]
        assert np.isnan(table.bboxes[table.names.index("A")]).all()
        assert table.coord_space == CoordSpace.CSS_PX
    boxed = {"/html/body/div/button": {"x": 10, "y": 20, "width": 100, "height": 30}}
    table = Observation(dom_html=html, dom_layout=boxed).candidates("dom")
    assert table.bboxes[table.names.index("B")].tolist() == [10, 20, 110, 50]


@pytest.mark.skipif(not PAGES, reason="fixtures/captured is not there")
@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_fixture_pages_selectors_are_unique_and_verified(page: Path) -> None:
    table = Observation(dom_html=(page / "dom.html").read_bytes()).candidates("dom")
    analysis = analyze((page / "dom.html").read_bytes())
    assert len(set(table.ids)) == len(table.ids)
    for row in range(len(table)):
        if table.ids[row].endswith("#text"):
            continue
        for kind, selector in ranked_selectors(table, row):
            if kind == "css":
                assert len(analysis.css(selector)) == 1, selector
                assert table.selector_resolver("css", selector) == [row], selector
            elif kind == "xpath":
                assert table.selector_resolver("xpath", selector) == [row]


@pytest.mark.skipif(not PAGES, reason="fixtures/captured is not there")
@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_labelled_targets_have_rows_that_agree_with_chromium(page: Path) -> None:
    labels = json.loads((page / "labels.json").read_text())
    table = Observation(dom_html=(page / "dom.html").read_bytes()).candidates("dom")
    rows = {rid: i for i, rid in enumerate(table.ids)}
    for key, label in labels.items():
        if label["role"] in (None, "none", "generic") or label.get("ax_node_id") is None:
            continue
        assert label["xpath"] in rows, key
        row = rows[label["xpath"]]
        assert table.names[row] == " ".join((label["name"] or "").split()), key


def test_every_rendered_element_has_an_answer() -> None:
    page = (
        "<div>Q3 <strong>report</strong> <sub>2</sub></div><a href=x>go</a>"
        "<p style='display:none'><a href=y>gone</a></p>"
    )
    native = build_table(SourceInput(raw=page)).native
    assert isinstance(native, DomNative)
    strong = native.element("/html[1]/body[1]/div[1]/strong[1]")
    assert strong is not None and (strong.role, strong.row) == ("strong", -1)
    sub = native.element("xpath:/html[1]/body[1]/div[1]/sub[1]")
    assert sub is not None and sub.aria_role == "subscript"
    block = native.element("/html[1]/body[1]/div[1]")
    assert block is not None and (block.aria_role, block.name) == ("generic", "")
    link = native.element("/html[1]/body[1]/a[1]")
    assert link is not None and (link.role, link.name) == ("link", "go") and link.row >= 0
    assert native.element("/html[1]/body[1]/p[1]/a[1]") is None  # not rendered
    assert native.element("/html[1]/body[1]/nav[1]") is None  # no such element


# What Chromium 156 exposes on fixtures/live/noscript.html with JavaScript disabled (checked
# live by test_scripting_off_agrees_with_chromium_without_javascript): role, name, XPath.
NOSCRIPT_ROWS = [
    ("link", "Static forecast", "/html[1]/body[1]/main[1]/noscript[1]/p[1]/a[1]"),
    ("textbox", "City", "/html[1]/body[1]/main[1]/noscript[1]/form[1]/input[1]"),
    ("button", "Search", "/html[1]/body[1]/main[1]/noscript[1]/form[1]/button[1]"),
    ("img", "Forecast map", "/html[1]/body[1]/main[1]/noscript[1]/img[1]"),
    ("note", "", "/html[1]/body[1]/main[1]/noscript[1]/noscript[1]/span[1]"),
]


def _rows(table) -> set[tuple[str, str, str]]:  # type: ignore[no-untyped-def]
    return {(table.roles[i], table.names[i], table.ids[i]) for i in range(len(table))}


def test_scripting_off_renders_noscript_content() -> None:
    html = NOSCRIPT_PAGE.read_text(encoding="utf-8")
    on = _rows(Observation(dom_html=html).candidates("dom"))
    off = _rows(Observation(dom_html=html, scripting=False).candidates("dom"))
    refresh = ("button", "Refresh", "/html[1]/body[1]/main[1]/div[1]/button[1]")
    # Scripting on (the default): <noscript> is one unrendered text node.
    assert refresh in on
    assert not any("noscript" in xpath for _, _, xpath in on)
    # Scripting off: its elements have rows; its <style> hides the script-only button; the
    # tracking pixel in <head> ends the head, so the head's later <style> moves to <body>.
    assert set(NOSCRIPT_ROWS) <= off
    assert refresh not in off
    assert not any(name == "Hidden" for _, name, _ in off)  # <div hidden> inside noscript
    analysis = analyze(html, scripting=False)
    assert "/html[1]/body[1]/img[1]" in analysis.paths.xpath
    assert "/html[1]/body[1]/style[1]" in analysis.paths.xpath
    assert "/html[1]/head[1]/style[1]" not in analysis.paths.xpath
    assert analysis.doc.scripting is False


def test_scripting_must_be_a_bool() -> None:
    with pytest.raises(InvalidObservationError, match="scripting"):
        Observation(dom_html="<p>x</p>", scripting="no")  # type: ignore[arg-type]
    assert Observation.from_any({"dom_html": "<p>x</p>"}).scripting is True
    assert Observation.from_any({"dom_html": "<p>x</p>", "scripting": False}).scripting is False


@pytest.mark.browser
@pytest.mark.timeout(120)
def test_scripting_off_agrees_with_chromium_without_javascript() -> None:
    from live_browser import browser_missing, chromium

    from resolver.roles import canonical_role

    missing = browser_missing()
    if missing:
        pytest.skip(missing)
    with chromium() as browser:
        context = browser.new_context(java_script_enabled=False)
        page = context.new_page()
        page.goto(NOSCRIPT_PAGE.as_uri())
        cdp = context.new_cdp_session(page)
        root = cdp.send("DOM.getDocument", {"depth": -1})["root"]
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
        chromium_tags: list[tuple[str, str]] = []
        xpath_of: dict[int, str] = {}

        def walk(node: dict[str, object], path: str) -> None:
            seen: dict[str, int] = {}
            for child in node.get("children") or []:  # type: ignore[attr-defined]
                if child["nodeType"] != 1:
                    continue
                tag = child["localName"]
                seen[tag] = seen.get(tag, 0) + 1
                xpath = f"{path}/{tag}[{seen[tag]}]"
                xpath_of[child["backendNodeId"]] = xpath
                chromium_tags.append((tag, xpath))
                walk(child, xpath)

        walk(root, "")
        context.close()
    analysis = analyze(NOSCRIPT_PAGE.read_bytes(), scripting=False)
    # The same tree (the <head> noscript's <img> ends the head, as in the browser) ...
    assert chromium_tags == list(zip(analysis.doc.tags, analysis.paths.xpath, strict=True))
    # ... and the same role and name for every element Chromium exposes with a role.
    element = {x: i for i, x in enumerate(analysis.paths.xpath)}
    compared = 0
    for node in nodes:
        role = node.get("role", {}).get("value")
        xpath = xpath_of.get(node.get("backendDOMNodeId", -1))
        if node.get("ignored") or xpath is None or role in (None, "generic", "none"):
            continue
        i = element[xpath]
        assert analysis.rendered(i), xpath
        assert analysis.roles[i] == canonical_role(role, "cdp"), xpath
        assert analysis.name(i) == " ".join(node.get("name", {}).get("value", "").split()), xpath
        compared += 1
    assert compared >= len(NOSCRIPT_ROWS)


def test_build_leaves_the_collector_as_it_found_it() -> None:
    """The build pauses the cyclic collector and moves its survivors to the oldest
    generation; it leaves the collector enabled (or disabled) as it was, and never releases
    objects the process froze itself."""
    import gc

    source = SourceInput(raw=PAGE)
    assert gc.isenabled()
    build_table(source)
    assert gc.isenabled() and gc.get_freeze_count() == 0
    gc.disable()
    try:
        build_table(source)
        assert not gc.isenabled()
    finally:
        gc.enable()
    keep = [[k] for k in range(100)]
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        build_table(source)
        # The process's frozen objects stay frozen: an unfreeze would leave none. (A frozen
        # object freed during the build, such as a regular expression evicted from `re`'s
        # cache, leaves the count too, so it may drop by a few.)
        assert frozen - 1000 < gc.get_freeze_count() <= frozen
        assert gc.isenabled()
    finally:
        gc.unfreeze()
    assert keep


def test_the_page_title_is_the_table_s_document_name() -> None:
    cases = {
        "<title>  Orders \n of\tToday </title><p>x": "Orders of Today",
        "<svg><title>A chart</title></svg><title>Report</title>": "Report",
        "<p>No title</p>": "",
        "<title></title><h1>Empty</h1>": "",
    }
    for html, title in cases.items():
        assert Observation(dom_html=html).candidates("dom").document_name == title


def test_a_path_that_starts_with_the_page_title_is_not_read_as_the_heading_s() -> None:
    # A CDP shim writes every named ancestor, the page (its title) first; the article's
    # heading repeats the title, so the title resembles a named ancestor of the heading's
    # link only, and counted as a container it would put every other row under the gate.
    html = """<html><head><title>Metroid, told</title></head><body>
    <nav><a href="/video">Video</a> <a href="/review">Review</a></nav>
    <h1><a href="/story">Metroid, told</a></h1><p>Text</p></body></html>"""
    layout = {
        "/html/body/nav/a[1]": [10, 10, 60, 30],
        "/html/body/nav/a[2]": [70, 10, 130, 30],
        "/html/body/h1/a": [10, 60, 400, 100],
    }
    obs = Observation(dom_html=html, dom_layout=layout)
    ref = SemanticElementRef(
        role="link", name="Review", bbox=(70, 10, 130, 30), container_path=("Metroid, told",)
    )
    res = resolve(ref, obs, sources=("dom",))
    assert res.executor_id == "xpath:/html[1]/body[1]/nav[1]/a[2]"
    assert res.score > 0.9


def test_a_layout_cell_named_under_the_page_title_is_no_evidence_where_the_dom_has_none() -> None:
    # Chromium names a layout table's cell by all its text, and a CDP shim writes it right
    # under the page title. Where the page now has nothing resembling that level (0.9: here
    # the cells became plain blocks), it is dropped with the title, as an outermost level is.
    from resolver.matcher import _usable_container

    html = """<html><head><title>Weekly edition</title></head><body>
    <main aria-label="Weekly edition"><div><div>
    <div><a href="/sec">Security</a> <a href="/kernel">Kernel</a></div>
    <p>Log in now, create an account, subscribe to the weekly edition</p></div>
    <div><nav aria-label="Weekly edition Kernel Security Log in now">
    <a href="/menu/sec">Security</a></nav></div></div></main></body></html>"""
    table = Observation(dom_html=html).candidates("dom")
    cell = "Security Kernel Log in now, create an account, subscribe to the weekly edition"
    config = MatchConfig()
    assert _usable_container(("Weekly edition", cell), "security", table, config) == ()
    # A level that something here resembles stays (a named group that still exists).
    menu = "Weekly edition Kernel Security Log in now"
    assert _usable_container(("Weekly edition", menu), "security", table, config) == (menu,)
    # The same when nothing here resembles the title itself either.
    bare = Observation(dom_html=html.replace(' aria-label="Weekly edition"', "")).candidates("dom")
    assert _usable_container(("Weekly edition", cell), "security", bare, config) == ()
    # Without the title first, an inner level that matches nothing stays: that is how a
    # removed group shows.
    assert _usable_container(("Weekly edition", menu, cell), "security", table, config) == (
        menu,
        cell,
    )
