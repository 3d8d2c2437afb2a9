"""Web evidence: class, link and text normalisation, reading order, and the soft signals."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from resolver import (
    ConfigError,
    MatchConfig,
    Observation,
    SemanticElementRef,
    resolve,
)
from resolver.capture import ref_from_row
from resolver.matcher import score_table
from resolver.table import CandidateTable, TableBuilder
from resolver.web import (
    NearbyIndex,
    WebQuery,
    href_key,
    is_generated_class,
    nearby_key,
    nearby_texts,
    paths_agree,
    stable_classes,
    web_values,
    web_vectors,
)

COLUMNS = ("tag", "class", "href", "attr:type", "attr:placeholder")


@pytest.mark.parametrize(
    "token", ["css-1x2y3z", "sc-AbCd", "Button_root__3xYz1", "c3a9f01b", "x123", "12345",
              "bRkKfw", "fwjlmD", "kGHfSj", "jsx-2891", "a" * 41],
)  # fmt: skip
def test_generated_classes_are_recognised(token: str) -> None:
    assert is_generated_class(token)


@pytest.mark.parametrize(
    "token",
    ["nav-link", "col-md-6", "btn", "is-active", "h1", "mt-4", "isActive", "icon-24px", "NavBar"],
)
def test_hand_written_classes_are_kept(token: str) -> None:
    assert not is_generated_class(token)


def test_stable_classes_drop_generated_tokens() -> None:
    assert stable_classes(["btn", "css-1x2y3z", "primary", ""]) == {"btn", "primary"}


def test_href_key_drops_volatile_parts() -> None:
    assert href_key("https://www.example.org/news/?utm_source=x&id=3&fbclid=Z#top") == (
        "example.org", "/news?id=3", "top",
    )  # fmt: skip
    assert href_key("/news?b=2&a=1") == ("", "/news?a=1&b=2", "")
    assert href_key("#top", "file:///page.html") == ("", "/page.html", "top")
    assert href_key("/s?session=a1b2c3d4e5f6a7b8c9d0e1") == ("", "/s", "")
    for nothing in ("", "  ", "#", "javascript:void(0)"):
        assert href_key(nothing) is None


def test_web_values_read_the_attributes() -> None:
    attrs = {"class": " btn primary ", "href": "a/b", "type": "submit", "alt": " "}
    values = dict(zip(("class", "href", "name", "type", "placeholder", "title", "alt"),
                      web_values(attrs, "https://x.org/dir/"), strict=True))  # fmt: skip
    assert values == {
        "class": "btn primary", "href": "https://x.org/dir/a/b", "name": None, "type": "submit",
        "placeholder": None, "title": None, "alt": None,
    }  # fmt: skip
    assert web_values(None) == (None,) * 7


def _table(rows: list[tuple[str, str, str, int, dict[str, str | None]]]) -> CandidateTable:
    """Rows of ``(id, role, name, parent, web columns)``."""
    b = TableBuilder("dom", "html", executor_prefix="xpath:", id_columns=COLUMNS)
    for node_id, role, name, parent, web in rows:
        b.add(node_id, raw_role=role, name=name, parent=parent, **web)
    return b.build()


def _links() -> CandidateTable:
    """Two "Edit" links, each with its own neighbourhood and evidence."""
    return _table([
        ("root", "main", "", -1, {}),
        ("t1", "text", "Alice Smith", 0, {}),
        ("e1", "link", "Edit", 0, {"tag": "a", "class": "edit user-edit css-9zz1y",
                                   "href": "/users/1/edit?utm_source=mail"}),
        ("e1t", "text", "Edit", 2, {}),
        ("t2", "text", "Admin", 0, {}),
        ("t3", "text", "Bob Jones", 0, {}),
        ("e2", "link", "Edit", 0, {"tag": "button", "class": "edit css-1ab2c",
                                   "href": "/users/2/edit"}),
        ("t4", "text", "Viewer", 0, {}),
    ])  # fmt: skip


def test_reading_order_skips_text_repeating_its_parent() -> None:
    table = _links()
    index = table.derived(NearbyIndex)
    assert [table.ids[r] for r in index.seq] == ["t1", "e1", "t2", "t3", "e2", "t4"]
    assert nearby_texts(table, 2) == ("Alice Smith", "Admin", "Bob Jones")
    assert nearby_texts(table, 6) == ("Bob Jones", "Admin", "Viewer")


def _pictures_in_a_run(names_read: bool = True) -> CandidateTable:
    """A screenshot's run "Share Mail" read across two pictures that did not load, each
    picture a row named by its part of the run, inside it, declared by the source as
    re-reading the run (``rereadings``); a heading above and a radio below. With
    ``names_read`` False, a tree's table of the same rows, which declares nothing."""
    b = TableBuilder("vision" if names_read else "a11y", "test")
    b.add("h", raw_role="text", role="heading", name="Latest stories", bbox=(7, 440, 200, 462))
    run = b.add("r", raw_role="text", role="link", name="ShareMail", bbox=(25, 472, 206, 493))
    b.add("0~alt", raw_role="icon", role="img", name="Share", parent=run, bbox=(7, 472, 58, 493))
    b.add("2~alt", raw_role="icon", role="img", name="Mail", parent=run, bbox=(62, 472, 206, 493))
    b.add("o", raw_role="radio", role="radio", name="Full archive", bbox=(59, 531, 75, 547))
    declared = {"names_read": True, "rereadings": frozenset({2, 3})} if names_read else {}
    return b.build(screen_size=(1280.0, 800.0), **declared)


def test_a_screenshot_reads_a_picture_named_by_part_of_its_run_once() -> None:
    # The pictures re-read the run's ink: one text in reading order, so the heading stays
    # within reach of the radio.
    table = _pictures_in_a_run()
    index = table.derived(NearbyIndex)
    assert [table.ids[r] for r in index.seq] == ["h", "r", "o"]
    assert nearby_texts(table, 4) == ("ShareMail", "Latest stories")
    # A tree's rows are each a text of their own.
    tree = _pictures_in_a_run(names_read=False)
    assert [tree.ids[r] for r in tree.derived(NearbyIndex).seq] == ["h", "r", "0~alt", "2~alt", "o"]


def _first(ref: SemanticElementRef, table: CandidateTable, **options: float) -> str:
    scored = score_table(ref, table, MatchConfig(**options))  # type: ignore[arg-type]
    assert scored.scores[0] > scored.scores[1]
    return table.ids[int(scored.rows[0])]


@pytest.mark.parametrize(
    ("fields", "winner"),
    [
        ({"href": "https://site.org/users/2/edit"}, "e2"),
        ({"href": "/users/1/edit"}, "e1"),
        ({"classes": ("user-edit", "css-abc12")}, "e1"),
        ({"tag": "button"}, "e2"),
        ({"nearby_text": ("Bob Jones", "Viewer")}, "e2"),
        ({"nearby_text": ("Alice Smith",)}, "e1"),
    ],
)
def test_each_signal_tells_look_alikes_apart(fields: dict[str, object], winner: str) -> None:
    ref = SemanticElementRef(role="link", name="Edit", **fields)  # type: ignore[arg-type]
    assert _first(ref, _links(), nearby_window=1) == winner


def test_attributes_agree_by_equality() -> None:
    table = _table([
        ("f1", "textbox", "", -1, {"attr:type": "email", "attr:placeholder": "Your email"}),
        ("f2", "textbox", "", -1, {"attr:type": "text", "attr:placeholder": "Your name"}),
    ])  # fmt: skip
    ref = SemanticElementRef(role="textbox", attributes={"placeholder": "your  EMAIL"})
    assert _first(ref, table) == "f1"
    both = SemanticElementRef(role="textbox", attributes={"type": "email", "placeholder": "x"})
    query = WebQuery.build(both)
    assert query is not None
    _, _, signals = web_vectors(query, table, MatchConfig())
    assert signals["web:attr"].tolist() == [0.5, 0.0]


def test_missing_values_are_neutral() -> None:
    table = _links()
    # The ref has web evidence the rows lack (or no row carries): nothing changes.
    plain = score_table(SemanticElementRef(role="link", name="Edit"), table, MatchConfig())
    for fields in (
        {"attributes": {"alt": "logo"}},
        {"nearby_text": ("Nowhere on this page",)},
        {"classes": ("css-1x2y3z",)},  # generated: no evidence
        {"href": "#"},
    ):
        ref = SemanticElementRef(role="link", name="Edit", **fields)  # type: ignore[arg-type]
        assert (
            WebQuery.build(ref) is None
            or not web_vectors(
                WebQuery.build(ref),
                table,
                MatchConfig(),  # type: ignore[arg-type]
            )[1].any()
        )
        scored = score_table(ref, table, MatchConfig())
        assert np.allclose(scored.scores, plain.scores)
    # Rows without a value keep their score when the ref has one.
    ref = SemanticElementRef(role="link", name="Edit", href="/users/1/edit", tag="a")
    query = WebQuery.build(ref)
    assert query is not None
    num, den, _ = web_vectors(query, table, MatchConfig())
    assert num[0] == den[0] == 0.0 and den[2] > 0


def test_a_rename_with_the_same_link_is_found() -> None:
    html = """<html><body><nav><a class="nav" href="/news">News</a>
    <a class="nav" href="/sport">Sport</a></nav><main><p>Lead story</p></main></body></html>"""
    before = Observation(dom_html=html).candidates("dom")
    row = before.names.index("Sport")
    ref = ref_from_row(before, row)
    assert ref.href == "/sport" and ref.classes == ("nav",) and ref.tag == "a"
    assert ref.nearby_text == ("News", "Lead story")
    # Without its selectors the reference is found by its evidence, renamed or not.
    ref = ref.model_copy(update={"css_selector": None, "xpath": None})
    changed = Observation(dom_html=html.replace(">Sport<", ">Sports<"))
    res = resolve(ref, changed, sources=("dom",))
    assert res.executor_id == changed.candidates("dom").executor_ids[row]


def test_nearby_window_is_a_positive_count() -> None:
    assert MatchConfig(nearby_window=2).nearby_window == 2
    for bad in (0, 1.5, True):
        with pytest.raises(ConfigError, match="nearby_window"):
            MatchConfig(nearby_window=bad)  # type: ignore[arg-type]


def test_classes_no_row_has_any_more_are_no_evidence() -> None:
    table = _links()
    plain = score_table(SemanticElementRef(role="link", name="Edit"), table, MatchConfig())
    renamed = SemanticElementRef(role="link", name="Edit", classes=("renamed", "other"))
    assert np.allclose(score_table(renamed, table, MatchConfig()).scores, plain.scores)
    # While one row still shares a class, the others with classes count it against them.
    ref = SemanticElementRef(role="link", name="Edit", classes=("user-edit",))
    scored = score_table(ref, table, MatchConfig())
    assert table.ids[int(scored.rows[0])] == "e1" and scored.scores[1] < plain.scores[1]
    # A link target no row has is held against the rows with another one (the target may
    # be gone, and its link with it).
    moved = score_table(SemanticElementRef(role="link", name="Edit", href="/moved"), table,
                        MatchConfig())  # fmt: skip
    assert moved.scores[0] < plain.scores[0]


def test_nearby_texts_of_a_table_row_stay_in_the_row() -> None:
    from resolver import Observation
    from resolver.web import nearby_texts

    def row(rid: str, person: str) -> dict:  # type: ignore[type-arg]
        return {"id": rid, "role": "row", "name": "", "children": [
            {"id": rid + "p", "role": "cell", "name": person},
            {"id": rid + "e", "role": "button", "name": "Edit"},
            {"id": rid + "d", "role": "button", "name": "Delete"}]}  # fmt: skip

    tree = {"id": "t", "role": "table", "name": "Users",
            "children": [row("a", "Alice Smith"), row("b", "Bob Jones")]}  # fmt: skip
    table = Observation(accessibility_tree=tree).candidates("a11y")
    texts = nearby_texts(table, table.ids.index("ad"))
    assert "Alice Smith" in texts and "Bob Jones" not in texts
    # Outside a table row the neighbours are not cut off.
    flat = Observation(accessibility_tree={"id": "r", "role": "list", "name": "L", "children": [
        {"id": "x", "role": "link", "name": "One"}, {"id": "y", "role": "link", "name": "Two"},
        {"id": "z", "role": "link", "name": "Three"}]}).candidates("a11y")  # fmt: skip
    assert nearby_texts(flat, flat.ids.index("y")) == ("One", "Three") or "One" in nearby_texts(
        flat, flat.ids.index("y")
    )


def test_nearby_texts_are_recorded_only_as_far_as_the_matcher_looks() -> None:
    from resolver import Observation, resolve
    from resolver.capture import ref_from_row
    from resolver.web import NEARBY_REACH, nearby_texts

    # Four tabs whose labels differ only by a digit (skipped as repeats of the element's own
    # name), then the panel text: five places from the first tab, out of the matcher's
    # window. Recorded anyway, it would point at the later tabs.
    kids = [{"id": f"t{i}", "role": "tab", "name": f"Tab label {i}"} for i in range(1, 5)]
    kids.append({"id": "p", "role": "tabpanel", "name": "", "children": [
        {"id": "c", "role": "text", "name": "Tab content 1"}]})  # fmt: skip
    obs = Observation(accessibility_tree={"id": "r", "role": "document", "name": "",
                                          "children": kids})  # fmt: skip
    table = obs.candidates("a11y")
    first = table.ids.index("t1")
    assert nearby_texts(table, first) == () and NEARBY_REACH == 3
    assert resolve(ref_from_row(table, first), obs).executor_id == "a11y:t1"


@pytest.mark.parametrize("seed", range(5))
def test_nearby_counts_each_recorded_text_once_per_row(seed: int) -> None:
    # Texts repeated at close places: their windows overlap, and a row near two places of
    # one text still counts that text once.
    rng = np.random.default_rng(seed)
    words = ["Share", "Home", "Read more", "Next", "Sign in"]
    b = TableBuilder("a11y", "test")
    root = b.add("r", raw_role="RootWebArea", name="")
    for i, word in enumerate(rng.choice(words, size=60)):
        b.add(f"n{i}", raw_role="StaticText", name=str(word), parent=root)
    table = b.build()
    index = table.derived(NearbyIndex)
    seq = index.seq.tolist()
    for window in (1, 3):
        keys = ("share", "home", "absent")
        hits, found = index.near(keys, window)
        want = _near_counts(table, seq, keys, window)
        assert found == 2
        assert hits.tolist() == want
        share = index.near_share(keys, window)
        assert share is not None and share.tolist() == [w / 2 for w in want]
    assert index.near_share(("absent",), 3) is None


def _near_counts(
    table: CandidateTable, seq: list[int], keys: tuple[str, ...], window: int
) -> list[int]:
    """Per row, how many of ``keys`` name a text within ``window`` places of the row's place
    in the reading order ``seq`` (the place of the next text for a row outside it)."""
    want = []
    for row in range(len(table)):
        place = sum(1 for r in seq if r < row)
        want.append(sum(
            any(abs(p - place) <= window for p, r in enumerate(seq) if table.names_norm[r] == key)
            for key in keys
        ))  # fmt: skip
    return want


@pytest.mark.parametrize("seed", range(5))
def test_nearby_counts_for_rows_outside_the_reading_order(seed: int) -> None:
    # Unnamed rows, and rows repeating their parent's name, are not in the sequence: each
    # counts at the place of the next text (a row after the last text, past the end).
    rng = np.random.default_rng(seed)
    words = ["Share", "Home", "Read more", "Next", "Sign in", ""]
    b = TableBuilder("a11y", "test")
    root = b.add("r", raw_role="RootWebArea", name="")
    last, last_name = root, ""
    for i, word in enumerate(rng.choice(words, size=80)):
        inner = rng.random() < 0.2 and last != root
        name = last_name if inner else str(word)
        last = b.add(f"n{i}", raw_role="StaticText", name=name, parent=last if inner else root)
        last_name = name
    table = b.build()
    index = table.derived(NearbyIndex)
    seq = index.seq.tolist()
    assert len(seq) < len(table) - 1
    for window in (1, 2):
        keys = ("home", "next", "absent")
        hits, found = index.near(keys, window)
        want = _near_counts(table, seq, keys, window)
        assert hits.tolist() == want
        share = index.near_share(keys, window)
        assert share is not None and share.tolist() == [w / found for w in want]
    # Many tuples counted together: each tuple's runs give its share alone.
    tuples = [("home",), ("absent",), ("next", "home", "absent"), ("share", "read more")]
    for window in (1, 3):
        many = index.near_runs(tuples, window)
        for one, runs in zip(tuples, many, strict=True):
            alone = index.near_share(one, window)
            assert (runs is None) == (alone is None)
            assert runs is None or alone is None or runs.expand().tolist() == alone.tolist()


def test_recorded_neighbour_texts_count_for_the_row_that_has_them() -> None:
    # Two look-alike links; only the texts each node recorded tell them apart (the page's
    # reading order puts the same texts next to both).
    from resolver import Observation, SemanticElementRef, resolve

    tree = {"id": "r", "role": "document", "children": [
        {"id": "a", "role": "link", "name": "Apply", "tag": "a",
         "nearby_text": ["Car loans", "Rates from 5%"]},
        {"id": "b", "role": "link", "name": "Apply", "tag": "a",
         "nearby_text": ["Mortgages", "Rates from 3%"]},
    ]}  # fmt: skip
    obs = Observation(accessibility_tree=tree)
    ref = SemanticElementRef(role="link", name="Apply", tag="a", nearby_text=("Mortgages",))
    assert resolve(ref, obs, sources=("a11y",)).executor_id == "a11y:b"
    ref = SemanticElementRef(role="link", name="Apply", tag="a", nearby_text=("Car loans",))
    assert resolve(ref, obs, sources=("a11y",)).executor_id == "a11y:a"


def test_join_and_split_nearby() -> None:
    from resolver.web import MAX_NEARBY, join_nearby, split_nearby

    assert join_nearby("not a list") is None
    assert join_nearby([" ", None]) is None
    many = [f"text {i}" for i in range(MAX_NEARBY + 3)]
    joined = join_nearby(many)
    assert joined is not None
    assert split_nearby(joined) == tuple(many[:MAX_NEARBY])


def test_nearby_keys_remembered_are_the_keys_computed() -> None:
    texts = ["Inbox (12)", "  Read   more ", "Ünïcode – text", "x" * 80, "", "Inbox (12)"]
    assert [nearby_key(t) for t in texts] == [nearby_key.__wrapped__(t) for t in texts]


def test_a_link_moved_under_a_new_section_is_the_same_link() -> None:
    """A redesign moved the site's pages under ``/personal`` and dropped a tracking
    parameter: the recorded links still agree; a page of another section, a page one
    segment in common, or a list page's other page does not."""
    recorded = "/mortgage/mortgage-rates"
    html = (
        "<html><body><footer><p>"
        '<a href="/personal/mortgage/mortgage-refinance">refinance your home</a> '
        '<a href="/personal/mortgage/mortgage-rates">mortgage rates</a> '
        '<a href="/rates">rates</a> <a href="/auto/mortgage-rates">car rates</a> '
        '<a href="/loans?offer=7">auto loan</a> <a href="/list?page=2">more</a>'
        "</p></footer></body></html>"
    )
    obs = Observation(dom_html=html)
    table = obs.candidates("dom")
    links = [table.names.index(n) for n in ("refinance your home", "mortgage rates", "rates",
                                            "car rates", "auto loan", "more")]  # fmt: skip
    for href, agree in ((recorded, [0.0, 1.0, 0.0, 0.0, 0.0, 0.0]),
                        ("/loans?offer=7&ref=abc", [0.0, 0.0, 0.0, 0.0, 1.0, 0.0]),
                        ("/list", [0.0] * 6)):  # fmt: skip
        query = WebQuery.build(SemanticElementRef(role="link", name="x", href=href))
        assert query is not None
        signals = web_vectors(query, table, MatchConfig())[2]
        assert [float(signals["web:href"][r]) for r in links] == agree, href
    # The answer's link agrees; counting equal paths only, it disagrees.
    ref = SemanticElementRef(role="link", name="mortgage rates", href=recorded)
    for moved, agree in ((2, 1.0), (0, 0.0)):
        res = resolve(ref, obs, sources=("dom",), href_moved_segments=moved)
        assert res.executor_id == table.executor_ids[links[1]]
        assert res.candidate.signals["web:href"] == agree
    # Where a row still links to the recorded path, the page has not moved: a link to the
    # same last segments under another section is another link.
    both = Observation(dom_html=html.replace('href="/rates"', f'href="{recorded}"'))
    query = WebQuery.build(SemanticElementRef(role="link", name="x", href=recorded))
    assert query is not None
    agree = web_vectors(query, both.candidates("dom"), MatchConfig())[2]["web:href"]
    assert [float(agree[r]) for r in links[:3]] == [0.0, 0.0, 1.0]
    with pytest.raises(ConfigError, match="href_moved_segments"):
        MatchConfig(href_moved_segments=-1)
    assert paths_agree(recorded, "/personal/mortgage/mortgage-rates", 0) is False


@pytest.mark.parametrize("seed", range(20))
def test_a_rows_count_of_spans_is_read_from_their_edges_alone(seed: int) -> None:
    # Per row, how many spans hold it: spread from the sorted edges (start 2r + 1, end 2r),
    # against counting span by span; spans may overlap, touch, or run to the table's end.
    rng = np.random.default_rng(seed)
    b = TableBuilder("a11y", "test")
    root = b.add("r", raw_role="RootWebArea", name="")
    for i in range(int(rng.integers(1, 40))):
        b.add(f"n{i}", raw_role="StaticText", name=f"w{i}", parent=root)
    index = NearbyIndex(b.build())
    n = len(index.position)
    spans, want = [], np.zeros(n)
    for _ in range(int(rng.integers(1, 6))):
        low = int(rng.integers(0, n + 1))
        high = int(rng.integers(low, n + 1))
        spans.append(np.array([2 * low + 1, 2 * high], dtype=np.intp))
        want[low:high] += 1.0
    got = index._covered(spans, 1)
    assert got.dtype == np.float64 and got.tolist() == want.tolist()
    # Divided per distinct count before it is spread: the same numbers as dividing after.
    assert index._covered(spans, 3).tolist() == (want / 3).tolist()


def test_rows_are_found_by_their_link_path_without_its_query() -> None:
    from resolver.web import WebIndex

    b = TableBuilder("a11y", "test", id_columns=("href",))
    root = b.add("0", raw_role="RootWebArea", name="Bank")
    b.add("a", raw_role="link", name="Auto", parent=root, href="https://bank.test/auto?offer=2")
    b.add("b", raw_role="link", name="Auto", parent=root, href="https://bank.test/auto")
    b.add("c", raw_role="link", name="Home", parent=root, href="https://bank.test/home?x=1")
    b.add("d", raw_role="text", name="Plain", parent=root)
    rows = b.build().derived(WebIndex).bare_path_rows
    assert {path: found.tolist() for path, found in rows.items()} == {"/auto": [1, 2], "/home": [3]}


def _clone_screen(read: bool) -> CandidateTable:
    """A heading drawn as one line ("HTTPS clone URL", a bold word and the rest), the field
    under it, and a paragraph far below."""
    b = TableBuilder("vision" if read else "a11y", "test")
    b.add("h", raw_role="text", role="text", name="HTTPS clone URL", bbox=(10, 550, 160, 570))
    b.add("f", raw_role="rect", role="textbox", name="", bbox=(7, 589, 187, 613))
    for k in range(6):
        b.add(f"p{k}", raw_role="text", role="text", name=f"Paragraph {'xyz'[k % 3]} {k}",
              bbox=(10, 640 + 30 * k, 400, 660 + 30 * k))  # fmt: skip
    extra = {"names_read": True} if read else {}
    return b.build(screen_size=(1280.0, 800.0), **extra)


def test_a_line_read_on_a_screenshot_stands_for_the_texts_it_joins() -> None:
    keys = (nearby_key("HTTPS"), nearby_key("clone URL"))
    on_screen = _clone_screen(True)
    share = on_screen.derived(NearbyIndex).near_share(keys, 1)
    assert share is not None
    assert share[on_screen.ids.index("f")] == pytest.approx(1.0)
    assert share[on_screen.ids.index("p5")] == pytest.approx(0.0)
    # A tree's text nodes are what they are: a node holding both texts is neither.
    assert _clone_screen(False).derived(NearbyIndex).near_share(keys, 1) is None


def _places_by_walk(table: CandidateTable) -> dict[str, list[int]]:
    """Every text key's places in the reading order, one place after another (a line read
    on a screen also holds its parts at its place): what :meth:`NearbyIndex.places` finds."""
    from resolver.web import LINE_ROLE, _line_parts

    index = table.derived(NearbyIndex)
    out: dict[str, list[int]] = {}
    for place, row in enumerate(index.seq.tolist()):
        masked = table.names_mask[row]
        if masked[:40]:
            out.setdefault(masked[:40], []).append(place)
        if table.names_read and table.raw_roles[row] == LINE_ROLE:
            for part in _line_parts(masked):
                out.setdefault(part, []).append(place)
    return out


@pytest.mark.parametrize(
    "table",
    [_links(), _pictures_in_a_run(), _clone_screen(True), _clone_screen(False)],
    ids=["links", "pictures", "screen", "tree"],
)
def test_a_text_keys_places_are_the_places_a_walk_finds(table: CandidateTable) -> None:
    index = table.derived(NearbyIndex)
    want = _places_by_walk(table)
    for key, places in want.items():
        found = index.places(key)
        assert found is not None and found.tolist() == places, key
    for absent in ("", "nothing here", "edit#"):
        assert index.places(absent) is None or absent in want


def test_many_text_keys_are_found_through_an_index_as_by_scanning() -> None:
    """Past the scans a column answers (``index.SEARCHES``), keys come from its index."""
    b = TableBuilder("a11y", "test")
    root = b.add("r", raw_role="list", name="")
    for k in range(300):
        b.add(f"i{k}", raw_role="text", name=f"Item {'abc'[k % 3]} word{k % 40}", parent=root)
    table = b.build()
    index = table.derived(NearbyIndex)
    want = _places_by_walk(table)
    for _ in range(2):  # the first keys scanned, then every key through the index
        for key, places in want.items():
            found = index.places(key)
            assert found is not None and found.tolist() == places


_SCHEMES = ["", "http:", "https:", "HTTPS:", "file:", "mailto:", "C:", "1a:", "javascript:", "a+b:"]
_HOSTS = ["", "//", "//www.Example.org", "//example.org:8080", "//[::1]", "//user@host",
          "//h%41st", "//ex ample.org", "//host.", "///"]  # fmt: skip
_PATHS = ["", "/", "/a/b/", "/a?x=1&utm_source=y", "/a;b", "/wiki/Special:Search", "/a b",
          "/\u00e9t\u00e9", "a/b", "/a\tb", "/%2F", "/?", "/a?session=1#x"]  # fmt: skip
_FRAGMENTS = ["", "#", "#top", "#a?b", "#a#b", "#\u00e9", "# x"]


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(_SCHEMES), st.sampled_from(_HOSTS), st.sampled_from(_PATHS),
    st.sampled_from(_FRAGMENTS), st.sampled_from(["", " ", "\n"]),
)  # fmt: skip
def test_a_plain_link_target_is_read_as_urlsplit_reads_it(
    scheme: str, host: str, path: str, fragment: str, pad: str
) -> None:
    """A target of the plain form is read at once; every target gives the key parsing it
    with ``urlsplit`` gives."""
    from resolver.web import _href_key, _parsed_href_key

    href = pad + scheme + host + path + fragment + pad
    stripped = href.strip()
    said = stripped and stripped != "#" and stripped[:11].lower() != "javascript:"
    want = _parsed_href_key(stripped, None) if said else None
    assert _href_key(href, None) == want
    assert href_key(href) == want  # (remembered: the same again)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aZ09.-/:#?@[]%+ \u00e9w", max_size=24))
def test_any_link_target_is_read_as_urlsplit_reads_it(href: str) -> None:
    from resolver.web import _href_key, _parsed_href_key

    stripped = href.strip()
    said = stripped and stripped != "#" and stripped[:11].lower() != "javascript:"
    assert _href_key(href, None) == (_parsed_href_key(stripped, None) if said else None)


def test_a_page_forgotten_is_read_as_for_the_first_time() -> None:
    from resolver.text import _ONE_BY_ONE, normalize, normalize_many
    from resolver.web import _HREF_KEYS, REMEMBERED_HREF, forget_pages

    assert href_key("/remembered/x") == ("", "/remembered/x", "")
    long = "/" + "x" * REMEMBERED_HREF
    assert href_key(long) == ("", long, "")
    assert "/remembered/x" in _HREF_KEYS and long not in _HREF_KEYS
    normalize_many(["Caf\u00e9 remembered", "\u00e9" * 300])
    assert "Caf\u00e9 remembered" in _ONE_BY_ONE[normalize]
    assert "\u00e9" * 300 not in _ONE_BY_ONE[normalize]  # (too long to remember)
    assert nearby_key("Sign in") == "sign in"
    forget_pages()
    assert not _HREF_KEYS and nearby_key.cache_info().currsize == 0
    assert not any(_ONE_BY_ONE.values())
