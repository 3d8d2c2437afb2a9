import pytest
from capture_tree import TREE

from resolver import InvalidReferenceError, Observation, ResolutionError, resolve_element
from resolver.capture import ref_from_row
from resolver.index import index_of
from resolver.table import TableBuilder


def test_ref_from_row_records_what_identifies_the_element() -> None:
    obs = Observation(accessibility_tree=TREE, screen_size=(800, 600))
    table = obs.candidates("a11y")
    ref = ref_from_row(table, table.ids.index("save"))
    assert ref.role == "button"
    assert ref.name == "Save"
    assert ref.bbox == (10.0, 5.0, 70.0, 35.0)
    assert ref.container_path == ("Editor", "Main")
    assert ref.automation_id == "btnSave"
    assert ref.enabled is True
    assert ref.screen_size == (800, 600)
    assert resolve_element(ref, obs) == "a11y:save"
    assert ref_from_row(table, 0, with_ids=False).automation_id is None
    with pytest.raises(InvalidReferenceError):
        ref_from_row(table, 99)


def test_ref_from_row_records_every_id_column_the_table_has() -> None:
    from resolver.models import ID_FIELDS
    from resolver.table import TableBuilder

    b = TableBuilder("dom", "html", id_columns=[column for _, column in ID_FIELDS])
    b.add("x", raw_role="button", name="Go", automation_id="go", accessibility_id="Go now",
          xpath="/html/body/button", css="#go")  # fmt: skip
    ref = ref_from_row(b.build(), 0)
    assert (ref.automation_id, ref.accessibility_id, ref.xpath, ref.css_selector) == (
        "go", "Go now", "/html/body/button", "#go",
    )  # fmt: skip


def test_ref_from_row_records_web_evidence_and_nearby_text() -> None:
    html = """<html><body><p>Your account</p><form>
    <input name="q" type="search" placeholder="Search" title="Search the site"
           class="field css-1x2y3z">
    <a href="/help?utm_source=x" class="help">Help</a></form><p>Footer</p></body></html>"""
    table = Observation(dom_html=html, url="https://example.org/").candidates("dom")
    field = table.roles.index("searchbox")
    ref = ref_from_row(table, field)
    assert ref.tag == "input" and ref.classes == ("field", "css-1x2y3z")
    assert ref.attributes == {"name": "q", "type": "search", "placeholder": "Search",
                              "title": "Search the site"}  # fmt: skip
    assert ref.nearby_text == ("Your account", "Help", "Footer")
    link = ref_from_row(table, table.names.index("Help"))
    assert link.href == "https://example.org/help?utm_source=x"
    bare = ref_from_row(table, field, with_ids=False)
    assert bare.tag is None and bare.attributes == {} and bare.nearby_text == ref.nearby_text


def _two_tweets(*, first: bool = True, top_at: int = 100) -> dict[str, object]:
    """An article with a "Tweet" button at its top and another in its "Related" box."""
    top = {"id": "t1", "role": "button", "name": "Tweet", "bbox": [48, top_at, 120, top_at + 30]}
    intro = {
        "id": "i",
        "role": "StaticText",
        "name": "Intro",
        "bbox": [48, top_at - 40, 90, top_at],
    }
    related = {"id": "r", "role": "group", "name": "Related", "children": [
        {"id": "t2", "role": "button", "name": "Tweet", "bbox": [48, 4000, 120, 4030],
         "children": [{"id": "t2t", "role": "StaticText", "name": "Tweet",
                       "bbox": [50, 4005, 90, 4025]}]}]}  # fmt: skip
    main = {
        "id": "m",
        "role": "main",
        "children": [intro, top, related] if first else [intro, related],
    }
    return {"id": "root", "role": "RootWebArea", "name": "Article", "children": [main]}


def test_ref_from_row_records_its_lookalikes_and_their_survivor_is_refused() -> None:
    base = Observation(accessibility_tree=_two_tweets(), screen_size=(1280, 800))
    table = base.candidates("a11y")
    ref = ref_from_row(table, table.ids.index("t1"))
    # The footer's button is recorded, not its own text (another role) nor the header's own.
    assert ref.lookalikes == ((48.0, 4000.0, 120.0, 4030.0),)
    assert ref.occurrence is None  # different containers: no order among them
    assert resolve_element(ref, base) == "a11y:t1"
    gone = Observation(accessibility_tree=_two_tweets(first=False), screen_size=(1280, 800))
    with pytest.raises(ResolutionError) as refused:
        resolve_element(ref, gone, sources=("a11y",))
    assert refused.value.evidence.rule == "refuse.lookalike_place"
    # Both still there, the target moved next to its look-alike's place: nothing is gone,
    # and what tells them apart (here the group it is in) still decides.
    grouped = _two_tweets(top_at=3900)
    main = grouped["children"][0]  # type: ignore[index]
    main["children"][1] = {"id": "s", "role": "group", "name": "Share",
                           "children": [main["children"][1]]}  # fmt: skip
    moved = Observation(accessibility_tree=grouped, screen_size=(1280, 800))
    told = ref.model_copy(update={"container_path": ("Article", "Share"), "anchors": ()})
    assert resolve_element(told, moved, sources=("a11y",)) == "a11y:t1"
    # Without the recorded look-alikes, the footer's survivor is answered.
    blind = ref.model_copy(update={"lookalikes": ()})
    assert resolve_element(blind, gone, sources=("a11y",)) == "a11y:t2"


def _archive(*, first: bool = True) -> dict[str, object]:
    """A blog archive: a "►" toggle per year, beside an unnamed link and a "»" link."""
    years = [
        {"id": f"y{year}", "role": "listitem", "children": [
            {"id": f"t{year}", "role": "link", "name": "►", "bbox": [8, top, 24, top + 16]},
            {"id": f"a{year}", "role": "link", "name": str(year), "bbox": [30, top, 80, top + 16]},
        ]}
        for year, top in ((2013, 100), (2014, 120))
    ]  # fmt: skip
    if not first:
        del years[0]["children"][0]  # type: ignore[attr-defined]
        for item in years:  # the list closes up
            for child in item["children"]:  # type: ignore[attr-defined]
                child["bbox"] = [child["bbox"][0], child["bbox"][1] - 20,
                                 child["bbox"][2], child["bbox"][3] - 20]  # fmt: skip
    others = [
        {"id": "u", "role": "link", "bbox": [8, 60, 24, 76]},
        {"id": "n", "role": "link", "name": "»", "bbox": [8, 80, 24, 96]},
    ]
    main = {"id": "m", "role": "complementary", "children": others + years}
    return {"id": "root", "role": "RootWebArea", "name": "Archive", "children": [main]}


def test_a_name_of_symbols_alone_has_look_alikes_drawn_with_the_same_symbol() -> None:
    table = Observation(accessibility_tree=_archive(), screen_size=(1280, 800)).candidates("a11y")
    ref = ref_from_row(table, table.ids.index("t2013"))
    # The other toggle; not the unnamed link nor the "»".
    assert ref.lookalikes == ((8.0, 120.0, 24.0, 136.0),)
    assert index_of(table).namesakes(" ► ").tolist() == [
        table.ids.index(f"t{y}") for y in (2013, 2014)
    ]
    # The first year's toggle went and the next slid into its place: refused, not answered
    # (with no look-alike recorded, that toggle was answered).
    gone = Observation(accessibility_tree=_archive(first=False), screen_size=(1280, 800))
    with pytest.raises(ResolutionError) as refused:
        resolve_element(ref, gone, sources=("a11y",))
    assert refused.value.evidence.rule == "refuse.lookalike_place"


def test_anchors_include_elements_whose_inner_text_repeats_their_name() -> None:
    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Page", bbox=(0, 0, 800, 600))
    head = b.add("h", raw_role="heading", name="Pricing", parent=root, bbox=(8, 40, 200, 60))
    b.add("ht", raw_role="StaticText", name="Pricing", parent=head, bbox=(8, 40, 200, 60))
    b.add("go", raw_role="button", name="Buy", parent=root, bbox=(8, 80, 60, 96))
    table = b.build()
    ref = ref_from_row(table, table.ids.index("go"))
    assert ("Pricing", (8.0, 40.0, 200.0, 60.0)) in ref.anchors


def _blank_fields(*, gone: int | None = None, shift: float = 0.0) -> dict[str, object]:
    """A form of three unlabelled text fields stacked 30 px apart, under a "Coupon code"
    field and beside an unlabelled checkbox; ``gone`` removes one field and the fields below
    it move up into its place; ``shift`` moves the whole form down."""
    fields = []
    for k in range(3):
        if k == gone:
            continue
        top = 100 + 30 * (k - (gone is not None and k > gone)) + shift
        fields.append({"id": f"f{k}", "role": "textbox", "bbox": [8, top, 180, top + 21]})
    form = {"id": "form", "role": "form", "children": [
        {"id": "c", "role": "textbox", "name": "Coupon code",
         "bbox": [8, 60 + shift, 180, 81 + shift]},
        {"id": "x", "role": "checkbox", "bbox": [200, 100 + shift, 213, 113 + shift]},
        *fields,
        {"id": "s", "role": "button", "name": "Send", "bbox": [8, 200 + shift, 60, 221 + shift]},
    ]}  # fmt: skip
    return {"id": "root", "role": "RootWebArea", "name": "Order", "children": [form]}


def test_an_unlabelled_field_records_the_other_unlabelled_fields_as_its_look_alikes() -> None:
    table = Observation(accessibility_tree=_blank_fields(), screen_size=(1280, 800)).candidates(
        "a11y"
    )
    ref = ref_from_row(table, table.ids.index("f1"))
    # The other blank text fields, nearest first; not the named field nor the blank checkbox.
    assert ref.lookalikes == ((8.0, 100.0, 180.0, 121.0), (8.0, 160.0, 180.0, 181.0))
    assert index_of(table).unnamed(int(table.role_codes[table.ids.index("f1")])).tolist() == [
        table.ids.index(f"f{k}") for k in range(3)
    ]
    # The whole form moved down: all three are there, and the middle one is answered.
    moved = Observation(accessibility_tree=_blank_fields(shift=40), screen_size=(1280, 800))
    assert resolve_element(ref, moved, sources=("a11y",)) == "a11y:f1"
    # The middle field went and the last slid into its place: one of the three is gone,
    # perhaps the target, and nothing but place speaks for the one there now. Refused.
    gone = Observation(accessibility_tree=_blank_fields(gone=1), screen_size=(1280, 800))
    with pytest.raises(ResolutionError) as refused:
        resolve_element(ref, gone, sources=("a11y",))
    assert refused.value.evidence.rule == "refuse.unnamed"
    # Without the recorded look-alikes, the field in its place was answered.
    blind = ref.model_copy(update={"lookalikes": ()})
    assert resolve_element(blind, gone, sources=("a11y",)) == "a11y:f2"
    # Another platform's tree names the fields (a hint per field): no blank field is left to
    # count, and the named field at the target's place, by its neighbours, is answered.
    named = _blank_fields()
    for child in named["children"][0]["children"]:  # type: ignore[index]
        if child["id"].startswith("f"):
            child["name"] = f"Line {child['id'][1]}"
    labelled = Observation(accessibility_tree=named, screen_size=(1280, 800))
    assert resolve_element(ref, labelled, sources=("a11y",)) == "a11y:f1"


def test_look_alikes_are_the_nearest_eight_leaving_out_the_elements_own_parts() -> None:
    # Twenty unnamed icon links in a column, the fifth wrapping an unnamed link of its own
    # (its own part, not a look-alike).
    links = []
    for k in range(20):
        link: dict[str, object] = {"id": f"l{k}", "role": "link",
                                   "bbox": [8, 40 * k, 40, 40 * k + 32]}  # fmt: skip
        if k == 4:
            link["children"] = [{"id": "inner", "role": "link", "bbox": [10, 162, 38, 190]}]
        links.append(link)
    tree = {"id": "root", "role": "RootWebArea", "name": "Icons", "children": links}
    table = Observation(accessibility_tree=tree, screen_size=(1280, 800)).candidates("a11y")
    ref = ref_from_row(table, table.ids.index("l4"))
    tops = [box[1] for box in ref.lookalikes]
    # Nearest first (ties in document order), the inner link left out: rows 3, 5, 2, 6, ...
    assert tops == [120.0, 200.0, 80.0, 240.0, 40.0, 280.0, 0.0, 320.0]


def test_the_heading_is_recorded_where_it_tells_the_element_apart() -> None:
    b = TableBuilder("a11y", "test")
    root = b.add("r", raw_role="RootWebArea", name="Shop")
    b.add("nav", raw_role="heading", name="Navigation", parent=root)
    for k in range(2):
        b.add(f"home-{k}", raw_role="link", name="Home", parent=root)
    for title in ("Blue mug", "Red mug"):
        b.add(f"t-{title}", raw_role="heading", name=title, parent=root)
        b.add(f"add-{title}", raw_role="button", name="Add to cart", parent=root)
    b.add("dup", raw_role="heading", name="Red mug", parent=root)  # a second "Red mug"
    b.add("add-dup", raw_role="button", name="Add to cart", parent=root)
    b.add("alone", raw_role="button", name="Checkout", parent=root)
    table = b.build()

    def heading(row_id: str) -> str | None:
        return ref_from_row(table, table.ids.index(row_id)).heading

    assert heading("add-Blue mug") == "Blue mug"
    assert heading("add-Red mug") is None and heading("add-dup") is None  # one title's text
    assert heading("home-0") is None  # both links under "Navigation"
    assert heading("t-Red mug") is None  # a heading has no heading of its own
    assert heading("alone") is None and heading("nav") is None  # no namesake, a heading


@pytest.mark.parametrize("row", ["1", True, 1.0, None])
def test_a_row_that_is_no_int_is_refused(row: object) -> None:
    table = Observation(accessibility_tree=TREE).candidates("a11y")
    with pytest.raises(InvalidReferenceError, match="a row is an int"):
        ref_from_row(table, row)  # type: ignore[arg-type]


def test_rows_of_anything_but_a_table_are_refused_and_numpy_rows_are_read() -> None:
    import numpy as np

    with pytest.raises(InvalidReferenceError, match="CandidateTable"):
        ref_from_row(None, 0)  # type: ignore[arg-type]
    table = Observation(accessibility_tree=TREE).candidates("a11y")
    assert ref_from_row(table, np.int64(1)) == ref_from_row(table, 1)


def test_an_element_drawn_with_no_area_is_no_anchor() -> None:
    # A hidden frame at the page's corner is the nearest uniquely named element; it stays
    # there as the page scrolls, so where it is tells nothing of how the page moved.
    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Page", bbox=(0, 0, 800, 600))
    b.add("frame", raw_role="Iframe", name="tracker.html", parent=root, bbox=(0, 0, 0, 0))
    b.add("go", raw_role="link", name="Follow", parent=root, bbox=(8, 10, 60, 26))
    b.add("far", raw_role="paragraph", name="Comment body", parent=root,
          bbox=(8, 300, 400, 317))  # fmt: skip
    table = b.build()
    ref = ref_from_row(table, table.ids.index("go"))
    assert [name for name, _ in ref.anchors] == ["Comment body", "Page"]
