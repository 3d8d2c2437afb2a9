import json
from pathlib import Path

import pytest
from desktop_trees import notepad

from resolver import (
    AmbiguousMatchError,
    CatalogOutdatedError,
    ElementNotFoundError,
    ElementNotInteractableError,
    InvalidObservationError,
    InvalidTargetError,
    Observation,
    ResolutionError,
)
from resolver.catalog import Catalog, CatalogView, build_catalog, catalog_version
from resolver.errors import ErrorCode
from resolver.replay.captures import folder_captures, load_capture

CAPTURED = Path(__file__).resolve().parents[2] / "fixtures" / "captured"


def _page(swap: bool = False, rename: str = "Save", extra: bool = False) -> Observation:
    ok = {"id": "ok", "role": "button", "name": rename, "bbox": [10, 300, 80, 330]}
    cancel = {"id": "cancel", "role": "button", "name": "Cancel", "bbox": [100, 300, 180, 330]}
    kids = [
        {"id": "email", "role": "textbox", "name": "Email", "bbox": [10, 100, 300, 130]},
        {"id": "off", "role": "checkbox", "name": "Subscribe", "bbox": [10, 200, 30, 220],
         "disabled": True},
        *([cancel, ok] if swap else [ok, cancel]),
    ]  # fmt: skip
    if extra:
        kids.insert(0, {"id": "new", "role": "button", "name": "Accept cookies",
                        "bbox": [10, 10, 200, 40]})  # fmt: skip
    tree = {"id": "f", "role": "form", "name": "Profile", "children": kids}
    return Observation(accessibility_tree=tree, url="https://example.test/profile")


def test_entries_in_reading_order_with_state() -> None:
    catalog = build_catalog(_page())
    assert [(e.role, e.name) for e in catalog.entries] == [
        ("textbox", "Email"), ("checkbox", "Subscribe"), ("button", "Save"), ("button", "Cancel"),
    ]  # fmt: skip
    assert catalog.entries[1].enabled is False and not catalog.entries[1].interactable
    assert all(e.region == 'form "Profile"' for e in catalog.entries)
    assert catalog.ref(2).name == "Save"


def test_version_is_stable_and_changes_with_structure() -> None:
    assert build_catalog(_page()).version == build_catalog(_page()).version
    assert len(build_catalog(_page()).version) == 12
    assert build_catalog(_page(rename="Store")).version != build_catalog(_page()).version
    assert build_catalog(_page(extra=True)).version != build_catalog(_page()).version
    obs = _page()
    assert catalog_version(obs, obs.candidates("a11y")) == build_catalog(obs).version


def test_resolve_on_its_own_page_and_typed_refusals() -> None:
    catalog = build_catalog(_page())
    assert catalog.resolve("index=2") == catalog.resolve(2) == "a11y:ok"
    assert catalog.resolve("text=cancel") == "a11y:cancel"
    with pytest.raises(ElementNotInteractableError) as err:
        catalog.resolve("index=1")
    assert err.value.code is ErrorCode.ELEMENT_NOT_INTERACTABLE
    with pytest.raises(CatalogOutdatedError) as outdated:
        catalog.resolve("index=2", expected_version="000000000000")
    assert outdated.value.code is ErrorCode.CATALOG_OUTDATED
    for bad in ("index=9", "index=-1", "index=x", "frame=3", "css=", None, 2.5):
        with pytest.raises(InvalidTargetError) as invalid:
            catalog.resolve(bad)  # type: ignore[arg-type]
        assert invalid.value.code is ErrorCode.VALIDATION_ERROR
    with pytest.raises(ElementNotFoundError):
        catalog.resolve("text=Delete account")


def test_a_reused_index_follows_its_element_or_refuses() -> None:
    catalog = build_catalog(_page())
    version = catalog.version
    # The page re-rendered: a banner button came first and the two buttons swapped.
    changed = _page(swap=True, extra=True)
    assert build_catalog(changed).entries[2].name != "Save"  # the naive index moved on
    assert catalog.resolve("index=2", expected_version=version, observation=changed) == "a11y:ok"
    # The element is gone: a refusal, never the element now at that index.
    gone = Observation(accessibility_tree={"id": "f", "role": "form", "name": "Profile",
                                           "children": [{"id": "x", "role": "button",
                                                         "name": "Delete",
                                                         "bbox": [10, 300, 80, 330]}]})  # fmt: skip
    with pytest.raises(ElementNotFoundError) as err:
        catalog.resolve("index=2", observation=gone)
    assert err.value.evidence.details["index"] == 2


def test_twins_that_cannot_be_told_apart_are_refused() -> None:
    def twins(*ys: float) -> Observation:
        kids = [{"id": f"b{i}", "role": "button", "name": "OK", "bbox": [10, y, 60, y + 20]}
                for i, y in enumerate(ys)]  # fmt: skip
        return Observation(accessibility_tree={"id": "r", "role": "dialog", "name": "Confirm",
                                               "children": kids})  # fmt: skip

    catalog = build_catalog(twins(100, 200))
    # Unchanged structure: the same row is the same element, wherever it moved.
    assert catalog.resolve("index=0", observation=twins(150, 150)) == "a11y:b0"
    # A third look-alike, all in one place: nothing tells them apart. A refusal, with them.
    with pytest.raises((AmbiguousMatchError, ElementNotFoundError)) as err:
        catalog.resolve("index=0", observation=twins(150, 150, 150))
    assert len(err.value.evidence.candidates) >= 2


def test_json_round_trip_and_schema() -> None:
    catalog = build_catalog(_page())
    text = catalog.to_json()
    again = Catalog.from_json(text)
    assert again.version == catalog.version and again.entries == catalog.entries
    assert again.resolve("index=2", observation=_page(swap=True)) == "a11y:ok"
    with pytest.raises(InvalidObservationError):
        again.resolve("index=2")  # no observation kept in JSON
    with pytest.raises(InvalidObservationError):
        Catalog.from_json("{not json")
    schema = Catalog.json_schema()
    assert schema["title"] == "CatalogView" and "entries" in schema["properties"]
    CatalogView.model_validate(json.loads(text))


def test_a_page_holding_half_a_character_writes_its_catalog_as_json() -> None:
    """A lone surrogate in a name and an ID (a script cut an emoji) is written as U+FFFD;
    the catalog reads back and its index still finds the element on the page."""
    page = {"id": "r", "role": "main", "name": "Shop \ud83d", "children": [
        {"id": "b\ud800", "role": "button", "name": "Buy \ud83d", "bbox": [0, 0, 10, 10]},
        {"id": "c", "role": "link", "name": "Help", "bbox": [0, 20, 10, 30]},
    ]}  # fmt: skip
    obs = Observation(accessibility_tree=page)
    text = build_catalog(obs).to_json()
    assert "Buy \ufffd" in text and json.loads(text)["entries"][0]["executor_id"] == "a11y:b\ufffd"
    again = Catalog.from_json(text)
    assert again.entries[0].name == "Buy \ufffd"
    assert again.resolve("index=0", observation=obs) == "a11y:b\ud800"
    assert build_catalog(obs).to_json(indent=2).startswith('{\n  "version"')


def test_a_catalog_pickles_and_copies() -> None:
    """A process pool can take a catalog: it travels as its view, observation and config,
    and its indexes answer as the original's do."""
    import copy
    import pickle

    catalog = build_catalog(_page())
    for again in (pickle.loads(pickle.dumps(catalog)), copy.deepcopy(catalog)):
        assert again.version == catalog.version and again.entries == catalog.entries
        assert again.config == catalog.config
        assert again.resolve("index=2") == catalog.resolve("index=2")
        assert again.resolve("index=2", observation=_page(swap=True)) == "a11y:ok"


def test_captured_page_with_dom_selectors_and_links() -> None:
    captures = folder_captures(CAPTURED)
    obs = load_capture("login", captures["login"]).observation
    catalog = build_catalog(obs)
    by_name = {e.name: e for e in catalog.entries}
    assert by_name["Email"].selectors[0] == ("css", "#email")
    assert by_name["Help"].href == "#help"
    assert catalog.resolve("css=#email") == by_name["Email"].executor_id
    dom = build_catalog(obs, source="dom")
    assert [e.name for e in dom.entries] == [e.name for e in catalog.entries]
    assert dom.resolve("css=#email") == dom.resolve("text=Email").replace("#text", "")
    changed = load_capture("login.v2", captures["login.v2"]).observation
    sign_in = next(e for e in catalog.entries if e.name == "Sign in")
    label = load_capture("login.v2", captures["login.v2"]).labels
    expected = {f"a11y:{v['ax_node_id']}" for v in label.values()}
    answer = catalog.resolve(f"index={sign_in.index}", observation=changed)
    assert answer in expected


def test_a_narrow_answer_is_taken_only_when_it_maps_back() -> None:
    def page(name: str, y: float = 300) -> Observation:
        kids = [
            {"id": "e", "role": "textbox", "name": "Email", "bbox": [10, 100, 300, 130]},
            {"id": "s", "role": "button", "name": name, "bbox": [10, y, 120, y + 30]},
            {"id": "c", "role": "button", "name": "Cancel", "bbox": [140, y, 220, y + 30]},
        ]
        return Observation(accessibility_tree={"id": "f", "role": "form", "name": "Profile",
                                               "children": kids})  # fmt: skip

    catalog = build_catalog(page("Save changes"))
    renamed = page("Save all changes", 340)  # scores under the reuse threshold
    assert catalog.resolve("index=1", observation=renamed) == "a11y:s"
    # Without the catalog's page there is nothing to map back to: a refusal, with evidence.
    with pytest.raises(ElementNotFoundError) as err:
        Catalog.from_json(catalog.to_json()).resolve("index=1", observation=renamed)
    assert "no page to map it back to" in err.value.message
    assert err.value.evidence.candidates[0].name == "Save all changes"
    # "Cancel" maps back to its own entry, not to "Save changes": never the wrong element.
    gone = Observation(accessibility_tree={"id": "f", "role": "form", "name": "Profile",
                                           "children": [{"id": "c", "role": "button",
                                                         "name": "Cancel",
                                                         "bbox": [10, 300, 90, 330]}]})  # fmt: skip
    with pytest.raises((ElementNotFoundError, AmbiguousMatchError)):
        catalog.resolve("index=1", observation=gone)


def test_secrets_are_masked_and_scrubbed_from_every_entry() -> None:
    tree = {"id": "f", "role": "form", "name": "Log in", "children": [
        {"id": "pw", "role": "textbox", "name": "Passwort", "value": "hunter22",
         "bbox": [0, 0, 100, 20]},
        {"id": "copy", "role": "button", "name": "Copy hunter22",
         "bbox": [0, 30, 100, 50]}]}  # fmt: skip
    catalog = build_catalog(Observation(accessibility_tree=tree))
    assert [e.value for e in catalog.entries] == ["[redacted]", ""]
    assert catalog.entries[1].name == "Copy [redacted]"
    assert "hunter22" not in catalog.render()
    assert "hunter22" not in catalog.to_json()  # nor in the references kept for re-resolving
    assert Catalog.from_json(catalog.to_json()).entries == catalog.entries
    # A dialog naming the secret: the references' containers and panels are scrubbed too.
    # (a second "Copy hunter22" under another heading: the heading tells the two apart)
    title = {"id": "t", "role": "heading", "name": "hunter22 saved", "bbox": [0, -30, 100, -10]}
    other = [
        {"id": "t2", "role": "heading", "name": "Other", "bbox": [0, 60, 100, 80]},
        {"id": "c2", "role": "button", "name": "Copy hunter22", "bbox": [0, 90, 100, 110]},
    ]
    dialog = {"id": "d", "role": "dialog", "name": "Keep hunter22?",
              "children": [title, *tree["children"], *other]}  # fmt: skip
    kept = build_catalog(Observation(accessibility_tree=dialog))
    copy = next(e for e in kept.entries if e.role == "button")
    assert copy.ref.panel == ("dialog", "Keep [redacted]?")
    assert copy.ref.heading == "[redacted] saved"
    assert "hunter22" not in kept.to_json() and "hunter22" not in kept.render()


def test_one_element_is_not_two_entries() -> None:
    def page(kids: list[dict]) -> Observation:  # type: ignore[type-arg]
        return Observation(accessibility_tree={"id": "r", "role": "document", "name": "P",
                                               "children": kids})  # fmt: skip

    # Links between the two reports keep "Quarterly reports" out of the first one's recorded
    # neighbours and anchors (an answer bearing a neighbour's name is refused before this).
    fillers = [
        {"id": f"f{k}", "role": "link", "name": f"Filler {'ABCD'[k]}",
         "bbox": [10, 130 + 30 * k, 100, 150 + 30 * k]}
        for k in range(4)
    ]  # fmt: skip
    old = page([
        {"id": "t", "role": "link", "name": "Quarterly report", "bbox": [10, 100, 160, 120]},
        *fillers,
        {"id": "s", "role": "link", "name": "Quarterly reports", "bbox": [10, 400, 170, 420]},
        {"id": "o", "role": "link", "name": "Other", "bbox": [300, 100, 360, 120]},
    ])  # fmt: skip
    new = page([
        *fillers,
        {"id": "s2", "role": "link", "name": "Quarterly reports", "bbox": [10, 400, 170, 420]},
        {"id": "o2", "role": "link", "name": "Other", "bbox": [300, 100, 360, 120]},
    ])  # fmt: skip
    catalog = build_catalog(old)
    index = {e.name: k for k, e in enumerate(catalog.entries)}
    assert index["Quarterly report"] == 0
    # "Quarterly report" is gone; the nearest thing left is another entry's element.
    with pytest.raises(ElementNotFoundError) as err:
        catalog.resolve("index=0", observation=new)
    assert "one element is not two entries" in err.value.message
    assert catalog.resolve(f"index={index['Quarterly reports']}", observation=new) == "a11y:s2"
    assert catalog.resolve(f"index={index['Other']}", observation=new) == "a11y:o2"


def test_twins_whose_selectors_and_position_disagree_are_refused() -> None:
    item = "/html[1]/body[1]/ul[1]/li[2]"

    def node(i: str, role: str, name: str, box: list[float], xpath: str,
             kids: tuple[str, ...] = ()) -> dict:  # type: ignore[type-arg]  # fmt: skip
        return {"node_id": i, "role": role, "name": name, "bbox": box, "domRef": xpath,
                "children": list(kids)}  # fmt: skip

    def page(swapped: bool) -> Observation:
        # A list item with an image link and a text link to the same story; the redesign puts
        # the text link first and renames another link (so the catalog's version changes).
        img, txt = ("img", f"{item}/a[1]"), ("txt", f"{item}/p[1]/a[1]")
        first, second = (txt, img) if swapped else (img, txt)
        nodes = [
            node("r", "list", "News", [0, 0, 300, 300], "/html[1]/body[1]/ul[1]", ("a", "li", "b")),
            node("a", "link", "Alpha", [10, 60, 90, 80], "/html[1]/body[1]/ul[1]/li[1]/a[1]"),
            node("li", "listitem", "", [0, 95, 200, 155], item, (first[0], second[0])),
            node(first[0], "link", "Rice art", [10, 100, 90, 120], first[1]),
            node(second[0], "link", "Rice art", [10, 130, 90, 150], second[1]),
            node("b", "link", "Beta news" if swapped else "Beta", [10, 170, 90, 190],
                 "/html[1]/body[1]/ul[1]/li[3]/a[1]"),
        ]  # fmt: skip
        return Observation(accessibility_tree={"ax_tree": {"root_id": "r", "nodes": nodes}})

    catalog = build_catalog(page(False))
    text_link = next(e for e in catalog.entries if e.executor_id == "a11y:txt")
    # Position and order now point at the image link, the recorded XPath at the text link:
    # either may be meant, so the index is refused rather than answered with the twin.
    with pytest.raises(AmbiguousMatchError) as err:
        catalog.resolve(f"index={text_link.index}", observation=page(True))
    assert "recorded selectors select its look-alike a11y:txt" in err.value.message
    assert err.value.evidence.candidates[0].executor_id == "a11y:img"


def test_version_of_a_table_with_lone_surrogates() -> None:
    tree = {"role": "list", "children": [{"role": "button", "name": "O\ud800K"}]}
    obs = Observation(accessibility_tree=tree)
    version = catalog_version(obs, obs.candidates("a11y"))
    assert len(version) == 12
    other = Observation(accessibility_tree={**tree, "children": [{"role": "button", "name": "OK"}]})
    assert catalog_version(other, other.candidates("a11y")) != version


def _users(order: list[str]) -> Observation:
    rows = []
    for i, who in enumerate(order):
        y = 40 + 30 * i
        button = {"id": f"del-{who}-{i}", "role": "button", "name": "Delete",
                  "bbox": [310, y + 5, 390, y + 25],
                  "xpath": f"/html[1]/body[1]/table[1]/tr[{i + 1}]/td[2]/button[1]"}  # fmt: skip
        cells = [{"id": f"c{i}", "role": "cell", "name": who, "bbox": [0, y, 100, y + 30]},
                 {"id": f"d{i}", "role": "cell", "name": "", "children": [button]}]  # fmt: skip
        rows.append({"id": f"row{i}", "role": "row", "name": f"{who} {who.lower()}@x.org Delete",
                     "bbox": [0, y, 400, y + 30], "children": cells})  # fmt: skip
    return Observation(accessibility_tree={"id": "t", "role": "table", "name": "Users",
                                           "children": rows})  # fmt: skip


def test_a_sorted_table_keeps_each_rows_index_on_its_own_row() -> None:
    # Sorting moves texts, not structure or control names: the version must still change,
    # or an index is taken by position and acts on another user's button.
    people = ["Alice", "Bob", "Carol", "Dave"]
    catalog = build_catalog(_users(people))
    sorted_page = _users(people[::-1])
    assert build_catalog(sorted_page).version != catalog.version
    for entry, who in zip(catalog.entries, people, strict=True):
        try:
            answer = catalog.resolve(f"index={entry.index}", observation=sorted_page)
        except ResolutionError:
            continue  # a refusal is allowed; another row's button is not
        assert answer.startswith(f"a11y:del-{who}-"), (entry.index, who, answer)


def test_a_positional_selector_left_on_another_row_does_not_outvote_the_row() -> None:
    # Each entry recorded its button's positional XPath; after the sort that XPath selects
    # another user's button, while the recorded row text names the row the button is in now.
    people = ["Alice", "Bob", "Carol", "Dave"]
    catalog = build_catalog(_users(people))
    assert all(e.ref.xpath for e in catalog.entries)
    sorted_page = _users(people[::-1])
    answers = [
        catalog.resolve(f"index={e.index}", observation=sorted_page) for e in catalog.entries
    ]
    assert [a.split("-")[1] for a in answers] == people


def test_a_text_changing_elsewhere_keeps_an_index_on_its_row_without_a_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def page(clock: str) -> Observation:
        return Observation(accessibility_tree={"id": "r", "role": "main", "children": [
            {"id": "clock", "role": "text", "name": clock, "bbox": [0, 0, 80, 20]},
            {"id": "save", "role": "button", "name": "Save", "bbox": [0, 40, 60, 60]},
        ]})  # fmt: skip

    catalog = build_catalog(page("10:00"))
    later = page("10:01")
    assert build_catalog(later).version != catalog.version  # a text changed: a new version

    def searched(*args: object) -> int:
        raise AssertionError("the entry was searched for again")

    monkeypatch.setattr(Catalog, "_find_again", searched)
    assert catalog.resolve("index=0", observation=later) == "a11y:save"


def test_an_index_under_a_desktops_dialog_is_not_interactable() -> None:
    small = notepad(field=("Find what", [350, 250, 550, 270]))  # wholly under the box
    catalog = build_catalog(Observation(accessibility_tree=small))
    field = next(e for e in catalog.entries if e.name == "Find what")
    assert field.visible is False  # drawn over: listed as hidden, not offered first
    assert "Find what [hidden]" in catalog.render()
    with pytest.raises(ElementNotInteractableError) as refused:
        catalog.resolve(f"index={field.index}")
    assert "Confirm Save As" in str(refused.value)
    assert refused.value.evidence.details["state"] == "covered"
    with pytest.raises(ElementNotInteractableError):  # and on a later observation alike
        catalog.resolve(f"index={field.index}", observation=Observation(accessibility_tree=small))
    # Partly under it: clickable beside the dialog, so the index is answered.
    beside = build_catalog(Observation(accessibility_tree=notepad()))
    entry = next(e for e in beside.entries if e.name == "Text Editor")
    assert entry.visible is not False and beside.resolve(f"index={entry.index}") == "a11y:0.0"
