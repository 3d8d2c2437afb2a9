"""The per-source decision: threshold, margin over a different target, the control over its
label, and recorded selectors that must be verified."""

import dataclasses
import pickle
from typing import Any

import pytest

from resolver import MatchConfig, SemanticElementRef
from resolver.adapters.vision.table import LABEL_NAMED_ROLES
from resolver.decide import decide, prefer_control, same_target, verify_selector
from resolver.decide.facts import bears_name, own_table_row
from resolver.geometry import CoordSpace
from resolver.matcher import score_table
from resolver.observation import Observation
from resolver.table import CandidateTable, TableBuilder
from resolver.web import MAX_NEARBY_CHARS


def _buttons() -> CandidateTable:
    b = TableBuilder("a11y", "test")
    root = b.add("dlg", raw_role="dialog", name="Settings", bbox=(0, 0, 600, 500))
    ok = b.add("ok", raw_role="button", name="OK", parent=root, bbox=(500, 160, 570, 190))
    b.add("okt", raw_role="StaticText", name="OK", parent=ok, bbox=(510, 165, 560, 185))
    b.add("ok2", raw_role="button", name="OK", parent=root, bbox=(500, 400, 570, 430))
    link = b.add("l", raw_role="link", name="Help", parent=root, bbox=(10, 10, 60, 30))
    b.add("li", raw_role="img", name="Help", parent=link, bbox=(10, 10, 30, 30))
    return b.build()


def test_same_target_nested_rows() -> None:
    table = _buttons()
    assert same_target(table, 1, 2, 0.85)  # the button and its own text
    assert not same_target(table, 1, 3, 0.85)  # two different OK buttons
    assert same_target(table, 4, 5, 0.85)  # same name, nested


def test_accepts_clear_winner_and_refuses_twins() -> None:
    table, config = _buttons(), MatchConfig()
    near_second = SemanticElementRef(role="button", name="OK", bbox=(500, 398, 570, 428))
    accepted = decide(near_second, table, config)
    assert accepted.status == "accepted" and accepted.best is not None
    assert accepted.best.id == "ok2" and accepted.margin >= config.min_margin
    twins = decide(SemanticElementRef(role="button", name="OK"), table, config)
    assert twins.status == "ambiguous"
    assert twins.runner_up is not None and {twins.best.id, twins.runner_up.id} == {"ok", "ok2"}  # type: ignore[union-attr]
    absent = decide(SemanticElementRef(role="button", name="Apply"), table, config)
    assert absent.status == "not_found" and absent.rule == "refuse.threshold"


def test_threshold_and_margin_are_config() -> None:
    table = _buttons()
    ref = SemanticElementRef(role="button", name="OK", bbox=(500, 398, 570, 428))
    assert decide(ref, table, MatchConfig(min_margin=0.99)).status == "ambiguous"
    assert decide(ref, table, MatchConfig(threshold=1.0)).status == "not_found"


def test_config_hash_follows_its_values() -> None:
    # Configurations key the tables' caches: equal values, one key; any other value, another.
    a, b = MatchConfig(), MatchConfig(w_name=MatchConfig().w_name)
    c = a.with_options({"min_margin": 0.3})
    assert a == b and hash(a) == hash(b) and {a: 1}[b] == 1
    assert c != a and c not in {a: 1} and hash(c) == hash(MatchConfig(min_margin=0.3))
    copied = pickle.loads(pickle.dumps(c))
    assert copied == c and hash(copied) == hash(c)


def test_control_preferred_over_its_label() -> None:
    table, config = _buttons(), MatchConfig(min_margin=0.2)
    ref = SemanticElementRef(name="Help", bbox=(10, 10, 30, 30))  # the icon's own box
    scored = score_table(ref, table, config)
    assert table.ids[int(scored.rows[0])] == "li"
    preferred = prefer_control(table, scored, config)
    assert table.ids[int(preferred.rows[0])] == "l"


def _selectable() -> CandidateTable:
    b = TableBuilder("dom", "fake", executor_prefix="xpath:")
    b.add("/b[1]", raw_role="button", name="Save")
    b.add("/b[2]", raw_role="button", name="Save as")
    table = b.build()
    rows = {"#save": [0], "#as": [1]}
    object.__setattr__(table, "selector_resolver", lambda kind, sel: rows.get(sel, []))
    return table


@pytest.mark.parametrize(
    ("ref", "config", "verified"),
    [
        (SemanticElementRef(role="button", name="Save", css_selector="#save"), MatchConfig(), True),
        # the name of the selected element disagrees with the recorded one
        (SemanticElementRef(role="button", name="Save", css_selector="#as"), MatchConfig(), False),
        # ... unless the caller lowers the bar
        (
            SemanticElementRef(role="button", name="Save", css_selector="#as"),
            MatchConfig(selector_name=0.5, threshold=0.5, min_margin=0.5),
            True,
        ),
        # a link is not a button enough when the bar is high
        (
            SemanticElementRef(role="link", name="Save", css_selector="#save"),
            MatchConfig(selector_role=0.9),
            False,
        ),
    ],
)
def test_selector_verification(
    ref: SemanticElementRef, config: MatchConfig, verified: bool
) -> None:
    table = _selectable()
    found = verify_selector(ref, table, config, score_table(ref, table, config))
    assert (found is not None) == verified
    if found is not None:
        assert found[2] == f"css:{ref.css_selector}"


def test_a_label_repeating_its_control_gives_way_even_when_ahead() -> None:
    from resolver import Observation, SemanticElementRef, resolve

    # The link's target changed (evidence only the link carries); its text child, which
    # has no link target, would lead by more than the margin. They are one click target.
    tree = {"id": "r", "role": "document", "name": "P", "children": [
        {"id": "a", "role": "link", "name": "Forgot password?", "bbox": [10, 10, 130, 26],
         "attributes": {"href": "/reset"}, "children": [
            {"id": "t", "role": "text", "name": "Forgot password?", "bbox": [10, 10, 130, 26]}]},
        {"id": "b", "role": "button", "name": "Sign in", "bbox": [10, 40, 90, 60]}]}  # fmt: skip
    ref = SemanticElementRef(name="Forgot password?", href="/forgot", bbox=(10, 10, 130, 26))
    assert resolve(ref, Observation(accessibility_tree=tree)).executor_id == "a11y:a"
    # A reference that asks for the label itself still gets it.
    text = SemanticElementRef(role="text", name="Forgot password?", bbox=(10, 10, 130, 26))
    assert resolve(text, Observation(accessibility_tree=tree)).executor_id in ("a11y:t", "a11y:a")


def test_a_score_that_is_the_threshold_is_accepted_despite_rounding() -> None:
    from resolver import MatchConfig, Observation, SemanticElementRef, resolve

    tree = {"id": "1", "role": "button", "name": "Go", "hidden": True}
    ref = SemanticElementRef(role="button", name="Go")
    found = resolve(ref, Observation(accessibility_tree=tree))
    # Ask for exactly the score it got, plus less than a rounding error.
    again = resolve(ref, Observation(accessibility_tree=tree),
                    config=MatchConfig(threshold=min(1.0, found.score + 1e-12)))  # fmt: skip
    assert again.executor_id == "a11y:1"


def _screenshot(b: TableBuilder, window: str = "") -> CandidateTable:
    """The table of a screenshot, declaring what the vision source declares of itself; a
    ``window`` ID suffix (``@600,150,400x300``) makes it a hint window's."""
    region = None
    if window:
        left, top, size = window[1:].split(",")
        width, height = size.split("x")
        region = (float(left), float(top), float(left) + float(width), float(top) + float(height))
    return b.build(
        screen_size=(1280.0, 800.0), window=region, groups_by_title=True,
        label_named_roles=LABEL_NAMED_ROLES,
    )  # fmt: skip


def _vision(window: str = "", *, groups: bool = True) -> CandidateTable:
    """Two OK buttons as vision reads them: in the groups "Display" and "Network" when their
    headings are seen, in no group otherwise; ``window`` is a hint window's ID suffix."""
    b = TableBuilder("vision", "screenshot", executor_prefix="vision:")
    parents = [-1, -1]
    if groups:
        parents = [
            b.add(f"g{k}{window}", raw_role="group", name=title, role="group", bbox=box)
            for k, (title, box) in enumerate(
                [("Display", (370, 130, 910, 320)), ("Network", (370, 330, 910, 520))]
            )
        ]
    for k, top in enumerate((284.0, 482.0)):
        b.add(f"ok{k}{window}", raw_role="rect", name="OK", role="button", parent=parents[k],
              bbox=(827, top, 904, top + 31))  # fmt: skip
    return _screenshot(b, window)


def _ok(box: tuple[float, float, float, float], *path: str) -> SemanticElementRef:
    return SemanticElementRef(role="button", name="OK", bbox=box, container_path=path)


DISPLAY_BOX = (827.0, 284.0, 903.0, 314.0)
NETWORK_BOX = (827.0, 482.0, 903.0, 512.0)


def test_vision_groups_outweigh_a_stale_box() -> None:
    # The Display group moved down: the recorded box now points at Network's OK.
    ref = _ok(NETWORK_BOX, "Notes", "Preferences", "Display")
    decision = decide(ref, _vision(), MatchConfig())
    assert decision.status == "accepted" and decision.best is not None
    assert decision.best.id == "ok0" and decision.best.signals["container"] == 1.0


def test_vision_rows_without_a_seen_group_are_not_punished() -> None:
    # Landmarks and titles vision cannot see are no evidence; neither is a missing group.
    for ref in (_ok(DISPLAY_BOX, "Sign in", "[main]", "[form]"), _ok(DISPLAY_BOX)):
        decision = decide(ref, _vision(groups=False), MatchConfig())
        assert decision.status == "accepted" and decision.best is not None
        assert decision.best.id == "ok0" and decision.best.score > 0.9
    unseen = decide(_ok(DISPLAY_BOX, "Notes", "Display"), _vision(groups=False), MatchConfig())
    assert unseen.best is not None and "container" not in unseen.best.signals


def test_vision_twins_that_moved_abstain_without_their_group() -> None:
    config = MatchConfig()
    moved = (827.0, 300.0, 903.0, 330.0)  # near Display's OK, not on it: a stale box
    ungrouped = decide(_ok(moved, "Notes", "Preferences", "Display"), _vision(groups=False), config)
    assert ungrouped.status == "ambiguous" and ungrouped.rule == "ambiguous.group_unseen"
    # Where the target was, or without a recorded group, the box still decides.
    assert decide(_ok(DISPLAY_BOX, "Notes", "Display"), _vision(groups=False), config).status == (
        "accepted"
    )
    assert decide(_ok(moved, "Notes", "[main]"), _vision(groups=False), config).status == (
        "accepted"
    )


def test_a_vision_window_without_the_recorded_group_defers() -> None:
    ref = _ok(DISPLAY_BOX, "Notes", "Preferences", "Display")
    window = decide(ref, _vision("@600,150,400x300", groups=False), MatchConfig())
    assert window.status == "ambiguous" and window.rule == "ambiguous.group_unseen"
    assert decide(ref, _vision("@600,150,400x300"), MatchConfig()).status == "accepted"


def test_a_vision_answer_in_another_group_is_not_taken_for_the_target() -> None:
    # The target's group ("Security") is gone; the OK now at its place is Display's.
    config = MatchConfig()
    ref = _ok(DISPLAY_BOX, "Notes", "Preferences", "Security")
    screen = decide(ref, _vision(), config)
    assert screen.status == "ambiguous" and screen.rule == "ambiguous.group_unseen"
    window = decide(ref, _vision("@600,150,400x300"), config)
    assert window.status == "ambiguous" and window.rule == "ambiguous.group_unseen"
    # Shown in no group, or in a group like the recorded one, the box still decides.
    assert decide(ref, _vision(groups=False), config).status == "accepted"
    assert decide(_ok(DISPLAY_BOX, "Notes", "Display settings"), _vision(), config).status == (
        "accepted"
    )


def test_a_lone_vision_answer_far_away_in_another_group_is_refused() -> None:
    b = TableBuilder("vision", "screenshot", executor_prefix="vision:")
    group = b.add("g", raw_role="group", name="Q3 report draft", role="group",
                  bbox=(200, 400, 1070, 520))  # fmt: skip
    b.add("s", raw_role="rect", name="Save", role="button", parent=group,
          bbox=(959, 466, 1021, 500))  # fmt: skip
    table = _screenshot(b)
    ref = SemanticElementRef(role="button", name="Save", bbox=(1115.0, 10.0, 1175.0, 42.0),
                             container_path=("Docs", "Document actions"))  # fmt: skip
    refused = decide(ref, table, MatchConfig())
    assert refused.status == "not_found" and refused.rule == "refuse.other_group"
    near = ref.model_copy(update={"bbox": (950.0, 460.0, 1020.0, 495.0)})
    assert decide(near, table, MatchConfig()).status == "accepted"
    assert decide(ref.model_copy(update={"container_path": ("Docs",)}), table,
                  MatchConfig()).status == "accepted"  # fmt: skip


def _linked_paragraphs(texts: tuple[str, ...], linked: tuple[int, ...]) -> CandidateTable:
    """Paragraphs named by their text, one below another; those in ``linked`` hold a "link"
    link. Each link's XPath names its paragraph."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Page", bbox=(0, 0, 1280, 800))
    top = 100.0
    for k, text in enumerate(texts):
        par = b.add(f"p{k}", raw_role="group", name=text, parent=root, bbox=(8, top, 600, top + 20))
        if k in linked:
            b.add(f"a{k}", raw_role="link", name="link", parent=par, bbox=(8, top, 40, top + 17),
                  xpath=f"/html[1]/body[1]/p[{k + 1}]/a[1]")  # fmt: skip
        top += 30.0 if k in linked else 0.0
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_a_group_gone_with_its_place_leaves_a_slid_look_alike_unanswered() -> None:
    # Recorded: the 2nd of three "link" links, in a section the page no longer names so.
    ref = SemanticElementRef(
        role="link", name="link", bbox=(8.0, 130.0, 40.0, 147.0), screen_size=(1280, 800),
        container_path=("Links and images",), xpath="/html[1]/body[1]/p[2]/a[1]",
        occurrence=(1, 3), lookalikes=((8.0, 100.0, 40.0, 117.0), (8.0, 160.0, 40.0, 177.0)),
        coord_space="css_px",
    )  # fmt: skip
    # The link went: no row of the recorded group is left (no container signal either),
    # fewer "link" links are, and the recorded xpath selects nothing. The third link slid
    # into the target's place.
    texts = ("Lorem link zero", "Lorem one", "Lorem link two")
    gone = decide(ref, _linked_paragraphs(texts, (0, 2)), MatchConfig())
    assert gone.status == "ambiguous" and gone.rule == "ambiguous.lookalike_path"
    # No link went: the target is answered.
    reworded = ("Lorem link nil", "Lorem link uno", "Lorem link two")
    kept = decide(ref, _linked_paragraphs(reworded, (0, 1, 2)), MatchConfig())
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "a1"
    # Nine links, look-alikes past the recorded list's cap: the recorded occurrence counts
    # them. All nine left, the page reshaped (the xpath selects nothing): answered.
    many = ref.model_copy(update={
        "occurrence": (1, 9), "xpath": "/html[1]/body[1]/div[1]/p[2]/a[1]",
        "lookalikes": tuple((8.0, y, 40.0, y + 17.0) for y in (100.0, *range(160, 400, 30))),
    })  # fmt: skip
    nine = _linked_paragraphs(tuple(f"Lorem {k}" for k in range(9)), tuple(range(9)))
    assert decide(many, nine, MatchConfig()).status == "accepted"


def _teasers(
    *, image: bool, thumb: str = "thumb", title: str = "Sleep better", first: str | None = None
) -> CandidateTable:
    """Two teasers, each an image link (``thumb`` class, named by its title attribute) and a
    title link; ``image`` False removes the first teaser's image link, ``first`` gives it
    another class than the second's."""
    link = f'<a class="{first or thumb}" href="/snore" title="{title}"><img alt=""></a>'
    first = link if image else ""
    html = f"""<html><body><div id="rec">
    <div>{first}<a class="title" href="/snore">Sleep better Snore Clinic</a></div>
    <div><a class="{thumb}" href="/fly" title="Cheap flights"><img alt=""></a>
    <a class="title" href="/fly">Cheap flights Trips</a></div></div></body></html>"""
    return Observation(dom_html=html).candidates("dom")


def test_an_element_of_another_kind_in_the_targets_slot_is_not_the_target() -> None:
    ref = SemanticElementRef(role="link", name="Sleep better", classes=("thumb",), href="/snore",
                             css_selector="#rec > div:nth-of-type(1) > a:nth-of-type(1)",
                             xpath="/html[1]/body[1]/div[1]/div[1]/a[1]")  # fmt: skip
    config = MatchConfig()
    kept = decide(ref, _teasers(image=True), config)
    assert (
        kept.status == "accepted"
        and kept.best is not None
        and kept.rule == "accept.verified_selector"
    )
    # The image link went; the title link slid into its slot, with a longer name and none of
    # the recorded classes, which the other teaser's image link still bears.
    gone = decide(ref, _teasers(image=False), config)
    assert gone.status == "not_found" and gone.rule == "refuse.other_kind"
    # Renamed, keeping its class: still the target. A build that renamed every class: the
    # classes say nothing.
    renamed = decide(ref, _teasers(image=True, title="Sleep much better"), config)
    assert renamed.status == "accepted" and renamed.best is not None
    assert renamed.best.name == "Sleep much better"
    rebuilt = decide(ref, _teasers(image=True, thumb="c-9f2a"), config)
    assert rebuilt.status == "accepted" and rebuilt.best is not None
    assert rebuilt.best.name == "Sleep better"
    # The image link alone restyled, at its place and with its name: the target still.
    restyled = decide(ref, _teasers(image=True, first="tile-card"), config)
    assert restyled.status == "accepted" and restyled.best is not None
    assert restyled.best.name == "Sleep better"


def _menus(
    *, target: bool, copy_class: str | None, menu_class: str = "menu__name"
) -> CandidateTable:
    """A menu of ``menu_class`` links ("Sports" first while ``target``) and, further down,
    a list holding another "Sports" link with ``copy_class`` (no class attribute if None)."""
    item = '<li><a class="{}" href="/{}">{}</a></li>'
    menu = [("sports", "Sports")] * target + [("news", "News"), ("weather", "Weather")]
    links = "".join(item.format(menu_class, path, name) for path, name in menu)
    copy = f' class="{copy_class}"' if copy_class is not None else ""
    html = f"""<html><body><div><ul>{links}</ul></div>
    <div><p>More</p><ul><li><a href="/archive">Archive</a></li>
    <li><a{copy} href="/sports">Sports</a></li></ul></div></body></html>"""
    return Observation(dom_html=html).candidates("dom")


def test_an_answer_without_a_recorded_class_the_page_still_uses_is_not_the_target() -> None:
    ref = SemanticElementRef(role="link", name="Sports", tag="a", href="/sports",
                             classes=("link", "menu__name"),
                             xpath="/html[1]/body[1]/div[1]/ul[1]/li[1]/a[1]")  # fmt: skip
    config = MatchConfig()
    kept = decide(ref, _menus(target=True, copy_class="link"), config)
    assert kept.status == "accepted" and kept.best is not None
    assert kept.best.id == "/html[1]/body[1]/div[1]/ul[1]/li[1]/a[1]"
    # The menu's "Sports" went; the other one lacks "menu__name", which the menu still uses.
    for copy_class in ("link", None):
        gone = decide(ref, _menus(target=False, copy_class=copy_class), config)
        assert gone.status == "not_found" and gone.rule == "refuse.dressed_otherwise"
    # Dressed as the menu's links: nothing in its classes speaks against it.
    dressed = decide(ref, _menus(target=False, copy_class="link menu__name"), config)
    assert dressed.status == "accepted"
    # A build that renamed the menu's class: no element bears the recorded one any more.
    rebuilt = decide(ref, _menus(target=False, copy_class="link", menu_class="nav-item"), config)
    assert rebuilt.status == "accepted"
    # The target restyled where it was: the recorded xpath still selects it.
    restyled = decide(ref, _menus(target=True, copy_class="link", menu_class="nav-item"), config)
    assert restyled.status == "accepted" and restyled.best is not None
    assert restyled.best.id == "/html[1]/body[1]/div[1]/ul[1]/li[1]/a[1]"


def _linked_menu(sports_class: str | None) -> CandidateTable:
    """A CDP tree linked to a ``DOM.getDocument`` result: a menu of two ``menu__name``
    links, and below it a "Sports" link with ``sports_class`` (none if None)."""

    def element(backend: int, tag: str, attrs: list[str], children: list[Any]) -> Any:
        return {"nodeType": 1, "localName": tag, "backendNodeId": backend,
                "attributes": attrs, "children": children}  # fmt: skip

    menu = [element(b, "a", ["class", "menu__name"], []) for b in (4, 5)]
    sports = element(7, "a", ["class", sports_class] if sports_class else [], [])
    body = element(2, "body", [], [element(3, "div", [], menu), element(6, "div", [], [sports])])
    document = {"root": {"nodeType": 9, "children": [element(1, "html", [], [body])]}}
    nodes: list[dict[str, Any]] = [
        {
            "nodeId": "r",
            "role": {"value": "RootWebArea"},
            "childIds": ["n4", "n5", "n7"],
            "backendDOMNodeId": 1,
        }
    ]
    for backend, name in ((4, "News"), (5, "Weather"), (7, "Sports")):
        nodes.append(
            {
                "nodeId": f"n{backend}",
                "role": {"value": "link"},
                "name": {"value": name},
                "parentId": "r",
                "backendDOMNodeId": backend,
            }
        )
    obs = Observation(accessibility_tree={"nodes": nodes}, dom_node_map=document)
    return obs.candidates("a11y")


def test_an_accessibility_tree_linked_to_its_document_knows_classes_too() -> None:
    ref = SemanticElementRef(role="link", name="Sports", classes=("menu__name",),
                             xpath="/html[1]/body[1]/div[1]/a[1]")  # fmt: skip
    gone = decide(ref, _linked_menu(None), MatchConfig())
    assert gone.status == "not_found" and gone.rule == "refuse.dressed_otherwise"
    dressed = decide(ref, _linked_menu("menu__name"), MatchConfig())
    assert dressed.status == "accepted" and dressed.best is not None
    assert dressed.best.id == "n7"


def _quiz_links(*, target: bool, other_title: str | None) -> CandidateTable:
    """Teasers of links each titled by its own article; "Quiz" first while ``target``, and
    a "Quiz" link further down with ``other_title`` (no title attribute if None)."""
    teaser = '<li><a href="/{}" title="{}">{}</a></li>'
    items = [("apple", "Apple quiz: how well do you know it?", "Quiz")] * target + [
        ("news", "Today in brief", "News"), ("mail", "Letters to the editor", "Mail"),
    ]  # fmt: skip
    links = "".join(teaser.format(*item) for item in items)
    title = f' title="{other_title}"' if other_title is not None else ""
    html = f"""<html><body><div><ul>{links}</ul></div>
    <div><p>Games</p><ul><li><a href="/chess">Chess</a></li>
    <li><a{title} href="/quiz">Quiz</a></li></ul></div></body></html>"""
    return Observation(dom_html=html).candidates("dom")


def test_an_answer_without_a_recorded_attribute_value_is_not_the_target() -> None:
    title = "Apple quiz: how well do you know it?"
    ref = SemanticElementRef(role="link", name="Quiz", tag="a", attributes={"title": title},
                             xpath="/html[1]/body[1]/div[1]/ul[1]/li[1]/a[1]")  # fmt: skip
    config = MatchConfig()
    kept = decide(ref, _quiz_links(target=True, other_title="Weekly games quiz"), config)
    assert kept.status == "accepted" and kept.best is not None
    assert kept.best.id == "/html[1]/body[1]/div[1]/ul[1]/li[1]/a[1]"
    # The teaser went; the other "Quiz" link has another title, or none.
    for other in ("Weekly games quiz", None):
        gone = decide(ref, _quiz_links(target=False, other_title=other), config)
        assert gone.status == "not_found" and gone.rule == "refuse.dressed_otherwise"
    # Its title is the recorded one: nothing in its attributes speaks against it.
    same = decide(ref, _quiz_links(target=False, other_title=title), config)
    assert same.status == "accepted"
    # A long value that the recorder capped before normalising still agrees.
    long_title = "Quiz of the week: " + "a very long description " * 12
    capped = ref.model_copy(update={"attributes": {"title": long_title[:254]}})
    assert decide(capped, _quiz_links(target=False, other_title=long_title), config).status == (
        "accepted"
    )


def _share_bars(first: str) -> CandidateTable:
    """Two share bars of unnamed icon links, each to its own address; the first bar's first
    link has class ``first``, every other "icon-btn"."""
    icon = '<a class="{}" href="https://social.example/share?u={}"></a>'
    html = f"""<html><body><div id="top">{icon.format(first, 1)}{icon.format("icon-btn", 2)}
    </div><p>Story</p><div id="end">{icon.format("icon-btn", 3)}{icon.format("icon-btn", 4)}
    </div></body></html>"""
    return Observation(dom_html=html).candidates("dom")


def test_an_unnamed_target_restyled_in_place_is_still_the_target() -> None:
    ref = SemanticElementRef(role="link", classes=("icon-btn",), tag="a",
                             href="https://social.example/share?u=1",
                             css_selector="#top > a:nth-of-type(1)",
                             xpath="/html[1]/body[1]/div[1]/a[1]")  # fmt: skip
    kept = decide(ref, _share_bars("icon-btn"), MatchConfig())
    assert kept.status == "accepted" and kept.best is not None
    # Only its classes changed, while the other icons keep the recorded one: the recorded
    # selector still selects it, and new classes alone do not refuse it.
    restyled = decide(ref, _share_bars("share-icon"), MatchConfig())
    assert restyled.status == "accepted" and restyled.best is not None
    assert restyled.best.id == "/html[1]/body[1]/div[1]/a[1]"


def _legal_links(*, first: bool) -> CandidateTable:
    """Two "Acuerdo del usuario" links to different pages, one above the other; ``first``
    False removes the upper one, and the lower one moves up to 60 px."""
    upper = '<a href="/acuerdo">Acuerdo del usuario</a>' if first else ""
    html = f"""<html><body><div id="legal"><p>Aviso</p>{upper}
    <a href="/privacidad">Acuerdo del usuario</a></div></body></html>"""
    layout = {"/html/body/div/p": [100, 0, 400, 10]}
    if first:
        layout["/html/body/div/a[1]"] = [100, 10, 240, 30]
        layout["/html/body/div/a[2]"] = [100, 100, 240, 120]
    else:
        layout["/html/body/div/a"] = [100, 60, 240, 80]
    return Observation(dom_html=html, dom_layout=layout).candidates("dom")


def test_a_positional_selector_is_not_trusted_to_a_look_alike_linking_elsewhere() -> None:
    ref = SemanticElementRef(
        role="link", name="Acuerdo del usuario", href="/acuerdo", bbox=(100, 10, 240, 30),
        css_selector="#legal > a:nth-of-type(1)", xpath="/html[1]/body[1]/div[1]/a[1]",
        lookalikes=((100, 100, 240, 120),), occurrence=(0, 2), coord_space="css_px",
    )  # fmt: skip
    config = MatchConfig()
    kept = decide(ref, _legal_links(first=True), config)
    assert kept.status == "accepted" and kept.rule == "accept.verified_selector"
    # The upper link went: the selector now selects the lower one, 50 px off the recorded
    # place and linking elsewhere. With a look-alike gone, the matcher judges it instead.
    gone = decide(ref, _legal_links(first=False), config)
    assert gone.status != "accepted" and "accept.verified_selector" not in gone.rules


def test_a_surviving_look_alike_linking_elsewhere_is_not_the_target() -> None:
    # Two "Read" links to different stories; the upper one (the target) went, and the lower
    # one slid into its place: of its group, but linking to the other story.
    b = TableBuilder("a11y", "test", id_columns=("href",))
    root = b.add("doc", raw_role="RootWebArea", name="Page", bbox=(0, 0, 1280, 800))
    b.add("r", raw_role="link", name="Read", parent=root, bbox=(8, 100, 208, 120), href="/b")
    table = b.build(coord_space=CoordSpace.CSS_PX, screen_size=(1280.0, 800.0))
    ref = SemanticElementRef(role="link", name="Read", href="/a", bbox=(8.0, 100.0, 208.0, 120.0),
                             container_path=("Page",), occurrence=(0, 2),
                             lookalikes=((8.0, 400.0, 208.0, 420.0),), coord_space="css_px",
                             screen_size=(1280, 800))  # fmt: skip
    gone = decide(ref, table, MatchConfig())
    assert gone.status == "not_found" and gone.rule == "refuse.survivor_link"
    # The same link: the target, whose look-alike went.
    kept = decide(ref.model_copy(update={"href": "/b"}), table, MatchConfig())
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "r"


def _headings() -> CandidateTable:
    """Two sections' headings in a page, as a changed version shows them."""
    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Readability Test", bbox=(0, 0, 1280, 800))
    b.add("p", raw_role="paragraph", name="Lorem ipsum", parent=root, bbox=(8, 120, 1271, 156))
    b.add("h2", raw_role="heading", name="Single <figure>", parent=root, bbox=(8, 194, 1272, 221))
    b.add("h3", raw_role="heading", name="List of <img>", parent=root, bbox=(8, 367, 1272, 394))
    return b.build(screen_size=(1280.0, 800.0))


def test_an_answer_named_as_a_recorded_neighbour_is_that_neighbour() -> None:
    table, config = _headings(), MatchConfig()
    box = (8.0, 154.0, 1272.0, 181.0)
    base = SemanticElementRef(role="heading", name="Single <img>", bbox=box)
    kept = decide(base, table, config)  # a renamed heading where the target was: answered
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "h2"
    for ref in (
        base.model_copy(update={"nearby_text": ("Lorem ipsum", "Single <figure>")}),
        base.model_copy(update={"anchors": (("Single <figure>", (8.0, 194.0, 1272.0, 221.0)),)}),
    ):
        refused = decide(ref, table, config)
        assert refused.status == "not_found" and refused.rule == "refuse.neighbour_name"
    # The recorded name itself is never a neighbour's: the exact name is still answered.
    exact = SemanticElementRef(role="heading", name="Single <figure>", bbox=box,
                               nearby_text=("Lorem ipsum",))  # fmt: skip
    assert decide(exact, table, config).status == "accepted"


def test_a_neighbour_text_cut_by_the_recorder_still_names_that_neighbour() -> None:
    # A recorder keeps a nearby text's first MAX_NEARBY_CHARS characters: a teaser's title
    # link, longer than that, still names the neighbour of the image link that went.
    title = "Ekonomika: " + "restaurace nebudou kontrolovat hosty " * 3
    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Zprávy", bbox=(0, 0, 1280, 800))
    b.add("t", raw_role="link", name=title.strip(), parent=root, bbox=(8, 300, 900, 320))
    table = b.build(screen_size=(1280.0, 800.0))
    image_link = SemanticElementRef(role="link", name=title[11:].strip(), bbox=(8, 300, 900, 320))
    assert decide(image_link, table, MatchConfig()).status == "accepted"
    cut = image_link.model_copy(update={"nearby_text": ("před hodinou", title[:MAX_NEARBY_CHARS])})
    refused = decide(cut, table, MatchConfig())
    assert refused.status == "not_found" and refused.rule == "refuse.neighbour_name"
    # A text shorter than the cut is compared whole; and a cut text the recorded name begins
    # with too may be the target's own (a heading around it), not a neighbour's.
    short = image_link.model_copy(update={"nearby_text": (title[:40],)})
    assert decide(short, table, MatchConfig()).status == "accepted"
    own = cut.model_copy(update={"name": title.strip() + " (updated)"})
    assert decide(own, table, MatchConfig()).status == "accepted"


def test_a_vision_field_named_by_its_label_is_not_a_neighbour() -> None:
    # Vision names a text field by the label it reads beside it, which a recorder also keeps
    # as the field's neighbour: the field is answered; a button with that name is not.
    def table(role: str) -> CandidateTable:
        b = TableBuilder("vision", "screenshot", executor_prefix="vision:")
        b.add("f", raw_role="rect", name="Full name", role=role, bbox=(100, 200, 400, 230))
        return _screenshot(b)

    ref = SemanticElementRef(role="textbox", name="Billing Full name", bbox=(100, 200, 400, 230),
                             anchors=(("Full name", (100, 180, 170, 196)),))  # fmt: skip
    assert decide(ref, table("textbox"), MatchConfig()).status == "accepted"
    button = ref.model_copy(update={"role": "button"})
    assert decide(button, table("button"), MatchConfig()).status == "not_found"


def test_the_targets_own_text_is_not_a_neighbour() -> None:
    # A button named "Show password" that shows "Show": a recorder keeps the caption as a
    # nearby text and an anchor inside the button's box. Vision reads only "Show" there; it
    # is the target's own text, not a neighbour's name.
    b = TableBuilder("vision", "screenshot", executor_prefix="vision:")
    b.add("s", raw_role="text", name="Show", role="link", bbox=(762, 322, 793, 340))
    table = _screenshot(b)
    box = (756.0, 317.0, 801.0, 345.0)
    inside = SemanticElementRef(role="button", name="Show password", bbox=box,
                                nearby_text=("Password", "Show"),
                                anchors=(("Show", (762.0, 323.0, 796.0, 338.0)),))  # fmt: skip
    assert decide(inside, table, MatchConfig()).status == "accepted"
    beside = inside.model_copy(update={"anchors": (("Show", (700.0, 323.0, 740.0, 338.0)),)})
    refused = decide(beside, table, MatchConfig())
    assert refused.status == "not_found" and refused.rule == "refuse.neighbour_name"


def _footer_survivor(*, tag: str) -> CandidateTable:
    """A page whose header link "Bookmarks" is gone; a "Bookmarks" link is left in the
    ``tag`` element at the bottom, far from the header's texts in reading order."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Works", bbox=(0, 0, 1280, 6000))
    for k, text in enumerate(("Home", "Blog", "News", "About", "Jobs", "Press")):
        b.add(f"x{k}", raw_role="StaticText", name=text, parent=root,
              bbox=(8, 100 + 20 * k, 80, 117 + 20 * k))  # fmt: skip
    b.add("s", raw_role="link", name="Bookmarks", parent=root, bbox=(88, 5000, 160, 5017),
          xpath=f"/html[1]/body[1]/{tag}[1]/div[1]/ul[1]/li[1]/a[1]")  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0))


def test_an_answer_with_only_its_name_and_role_for_it_is_refused() -> None:
    ref = SemanticElementRef(
        role="link", name="Bookmarks", bbox=(88.0, 120.0, 160.0, 137.0), container_path=("Works",),
        xpath="/html[1]/body[1]/header[1]/nav[1]/ul[1]/li[2]/a[1]", nearby_text=("Home", "Blog"),
    )  # fmt: skip
    table = _footer_survivor(tag="footer")
    refused = decide(ref, table, MatchConfig())
    assert refused.status == "not_found" and refused.rule == "refuse.stray"
    # Any one of box, neighbours or document place agreeing is enough to answer (with the
    # neighbours-left-behind rule off: the header's texts are still where the link was).
    apart = {"left_far": 100.0}
    assert decide(ref, table, MatchConfig(stray_box=0.0, **apart)).status == "accepted"
    assert decide(ref, table, MatchConfig(stray_path=0.0, **apart)).status == "accepted"
    near = ref.model_copy(update={"nearby_text": ("Press",)})
    assert decide(near, table, MatchConfig(**apart)).status == "accepted"
    # Without a recorded xpath there is no document place to compare: no refusal.
    assert decide(ref.model_copy(update={"xpath": None}), table, MatchConfig()).status == (
        "accepted"
    )


def _left_behind(*, moved_texts: bool = False, slot_taken: bool = False) -> CandidateTable:
    """A page whose "Subscribe" link in a list of three went; another "Subscribe" link is
    left far below, in the last list. ``moved_texts`` moves the list's texts down beside it instead;
    ``slot_taken`` puts another link at the recorded xpath."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Works", bbox=(0, 0, 1280, 6000))
    top = 4000 if moved_texts else 300
    for k, text in enumerate(("Older posts", "Newer posts")):
        b.add(f"x{k}", raw_role="StaticText", name=text, parent=root,
              bbox=(8, top + 40 * k, 120, top + 17 + 40 * k))  # fmt: skip
    if slot_taken:
        b.add("o", raw_role="link", name="Archive", parent=root, bbox=(8, 320, 80, 337),
              xpath="/html[1]/body[1]/main[1]/ul[1]/li[2]/a[1]")  # fmt: skip
    b.add("s", raw_role="link", name="Subscribe", parent=root, bbox=(8, 4020, 90, 4037),
          xpath="/html[1]/body[1]/main[1]/ul[3]/li[1]/a[1]")  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0))


def test_a_target_that_left_its_neighbours_behind_is_gone() -> None:
    ref = SemanticElementRef(
        role="link", name="Subscribe", bbox=(8.0, 320.0, 90.0, 337.0),
        xpath="/html[1]/body[1]/main[1]/ul[1]/li[2]/a[1]",
        nearby_text=("Older posts", "Newer posts"),
    )  # fmt: skip
    config = MatchConfig(stray_box=0.0)  # the older rule would refuse it too: keep it out
    refused = decide(ref, _left_behind(), config)
    assert refused.status == "not_found" and refused.rule == "refuse.left_behind"
    # The texts went along (a reordered block), or another element holds its slot (a list
    # reordered around it): the answer stands.
    assert decide(ref, _left_behind(moved_texts=True), config).status == "accepted"
    assert decide(ref, _left_behind(slot_taken=True), config).status == "accepted"
    # Within a screen of the neighbours: the rule does not apply.
    assert decide(ref, _left_behind(), replace_far(config, 6.0)).status == "accepted"
    # Neighbours that are not where the target was say nothing of it.
    far_ref = ref.model_copy(update={"bbox": (8.0, 2000.0, 90.0, 2017.0)})
    assert decide(far_ref, _left_behind(), config).status == "accepted"


def replace_far(config: MatchConfig, far: float) -> MatchConfig:
    return dataclasses.replace(config, left_far=far)


def _torn(
    renamed: str,
    *,
    xpath: str = "/html[1]/body[1]/main[1]/p[2]/a[1]",
    twin: str = "Friday deals for books",
    right: int = 260,
) -> CandidateTable:
    """A link renamed ``renamed`` at the top (``right`` its right edge), under ``xpath``; a
    link named ``twin`` (the recorded name) far below, among the texts recorded next to the
    target."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Deals", bbox=(0, 0, 1280, 2000))
    b.add("r", raw_role="link", name=renamed, parent=root, bbox=(8, 100, right, 117),
          xpath=xpath)  # fmt: skip
    for k in range(12):
        b.add(f"f{k}", raw_role="StaticText", name=f"Paragraph {k} of the page", parent=root,
              bbox=(8, 200 + 40 * k, 600, 217 + 40 * k))  # fmt: skip
    b.add("a", raw_role="StaticText", name="Books of the week", parent=root,
          bbox=(8, 880, 220, 897))  # fmt: skip
    b.add("t", raw_role="link", name=twin, parent=root,
          bbox=(8, 900, 220, 917), xpath="/html[1]/body[1]/main[1]/p[7]/a[1]")  # fmt: skip
    b.add("c", raw_role="StaticText", name="Shipping is free", parent=root,
          bbox=(8, 920, 220, 937))  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0))


def test_a_near_namesake_at_the_recorded_xpath_and_place_holds_back_a_narrow_best() -> None:
    ref = SemanticElementRef(
        role="link", name="Friday deals for books", bbox=(8.0, 100.0, 220.0, 117.0),
        xpath="/html[1]/body[1]/main[1]/p[2]/a[1]",
        nearby_text=("Books of the week", "Shipping is free"),
    )  # fmt: skip
    # With its order among look-alikes recorded (the first of one: the recorder looked, and
    # the namesake below came later), the row in the target's slot is not taken for the
    # target renamed (that takes a reference that recorded nothing of its look-alikes):
    # the answer stays open.
    ref = ref.model_copy(update={"occurrence": (0, 1)})
    torn = decide(ref, _torn("Friday deals"), MatchConfig())
    assert torn.status == "ambiguous" and torn.rule == "ambiguous.torn"
    assert torn.best is not None and torn.best.id == "t"
    # A clear lead, a row under the xpath that is not at the place or bears the recorded
    # name exactly, or an xpath selecting nothing: the best stands.
    assert decide(ref, _torn("Friday deals"), MatchConfig(torn_margin=0.05)).status == "accepted"
    moved = ref.model_copy(update={"bbox": (8.0, 400.0, 220.0, 417.0)})
    assert decide(moved, _torn("Friday deals"), MatchConfig()).status == "accepted"
    gone = _torn("Friday deals", xpath="/html[1]/body[1]/main[1]/p[3]/a[1]")
    assert decide(ref, gone, MatchConfig()).status == "accepted"
    assert decide(ref, _torn("Opening hours"), MatchConfig()).status == "accepted"


def test_a_namesake_in_the_recorded_document_place_holds_back_a_narrow_best() -> None:
    # Two "Friday deals for books" links; the recorded xpath names the lower one, the box
    # leans to the upper one by a little: place in the document against place on screen.
    table = _torn("Friday deals for books")
    ref = SemanticElementRef(
        role="link", name="Friday deals for books", bbox=(8.0, 200.0, 220.0, 217.0),
        xpath="/html[1]/body[1]/main[1]/p[7]/a[1]", occurrence=(0, 2),
    )  # fmt: skip
    held = decide(ref, table, MatchConfig())
    assert held.status == "ambiguous" and held.rule == "ambiguous.torn"
    assert decide(ref, table, MatchConfig(torn_margin=0.0)).status == "accepted"


def test_a_target_renamed_in_its_slot_is_found_without_recorded_look_alikes() -> None:
    # The reference of another recorder: no look-alikes, no order. The link under the
    # recorded xpath, at the recorded place, gained a word; a namesake sits elsewhere.
    ref = SemanticElementRef(
        role="link", name="Friday deals for books", bbox=(8.0, 100.0, 220.0, 117.0),
        xpath="/html[1]/body[1]/main[1]/p[2]/a[1]",
        nearby_text=("Books of the week", "Shipping is free"),
    )  # fmt: skip
    found = decide(ref, _torn("Friday deals"), MatchConfig())
    assert found.status == "accepted" and found.best is not None and found.best.id == "r"
    assert found.rule == "accept.renamed_in_slot"
    # Only a number changed ("Image 1" for "Image 2"), or the xpath names another element:
    # still torn.
    numbered = ref.model_copy(update={"name": "Friday deals 2"})
    twins = _torn("Friday deals 3", twin="Friday deals 2", right=220)
    assert decide(numbered, twins, MatchConfig()).status == "ambiguous"
    # The same ambiguity with a recorded xpath that selects no row there: not taken.
    from resolver.decide import RULES_BY_ID, Context

    slot = RULES_BY_ID["accept.renamed_in_slot"]
    table = _torn("Friday deals")
    doubt = dataclasses.replace(found, status="ambiguous", reason="tied")

    def judged(reference: SemanticElementRef) -> str:
        ctx = Context(reference, table, score_table(reference, table, MatchConfig()), MatchConfig())
        return slot.apply(ctx, doubt).status

    assert judged(ref) == "accepted"
    other = ref.model_copy(update={"xpath": "/html[1]/body[1]/p[3]/a[1]"})
    assert judged(other) == "ambiguous"


def _slid_twins(first: str, *, grouped: bool = False) -> CandidateTable:
    """Two "Read" links left of a row of three: the second slid into the first's place.
    ``first`` is the XPath of the link now on the left; ``grouped`` puts the other link in a
    named group of its own, lower down."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Page", bbox=(0, 0, 1280, 800))
    b.add("t", raw_role="StaticText", name="Intro", parent=root, bbox=(8, 40, 200, 60))
    group = b.add("g", raw_role="group", name="More", parent=root) if grouped else root
    places = ((8, 100, first), (240, 600 if grouped else 100, "/html[1]/body[1]/div[1]/a[1]"))
    for k, (x, y, xpath) in enumerate(places):
        b.add(f"r{k}", raw_role="link", name="Read", parent=group if k else root,
              bbox=(x, y, x + 200, y + 20), xpath=xpath)  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0))


def test_a_gone_look_alike_and_a_gone_path_leave_the_slid_twin_unanswered() -> None:
    ref = SemanticElementRef(
        role="link", name="Read", bbox=(8.0, 100.0, 208.0, 120.0), container_path=("Page",),
        xpath="/html[1]/body[1]/p[1]/span[1]/a[1]", occurrence=(0, 3), screen_size=(1280, 800),
        lookalikes=((240.0, 100.0, 440.0, 120.0), (472.0, 100.0, 672.0, 120.0)),
    )  # fmt: skip
    # The recorded place in the document is gone: the first link may be a survivor.
    slid = _slid_twins("/html[1]/body[1]/p[1]/span[2]/a[1]")
    gone = decide(ref, slid, MatchConfig())
    assert gone.status == "ambiguous" and gone.rule == "ambiguous.lookalike_path"
    # Still there (another look-alike went): answered.
    kept = decide(ref, _slid_twins("/html[1]/body[1]/p[1]/span[1]/a[1]"), MatchConfig())
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "r0"
    # With every look-alike left (the page was reshaped, none removed), a changed path
    # alone refuses nothing.
    whole = ref.model_copy(update={"occurrence": None, "lookalikes": ref.lookalikes[:1]})
    assert decide(whole, slid, MatchConfig()).status == "accepted"
    # ... also when a look-alike left the recorded group for another one.
    pair = ref.model_copy(update={"occurrence": (0, 2), "lookalikes": ref.lookalikes[:1]})
    regrouped = _slid_twins("/html[1]/body[1]/p[1]/span[2]/a[1]", grouped=True)
    assert decide(pair, regrouped, MatchConfig()).status == "accepted"


def _moved_page(second_namesake: bool) -> CandidateTable:
    b = TableBuilder("a11y", "test")
    root = b.add("0", raw_role="RootWebArea", name="Blog")
    nav = b.add("n", raw_role="navigation", name="Site", parent=root, bbox=(0, 0, 1280, 40))
    b.add("h", raw_role="link", name="Home", parent=nav, bbox=(10, 10, 60, 30))
    side = b.add("s", raw_role="list", name="More", parent=root, bbox=(900, 40, 1280, 800))
    b.add("t", raw_role="link", name="Tools", parent=side, bbox=(950, 700, 1010, 720))
    b.add("o", raw_role="link", name="Toolbox", parent=nav, bbox=(70, 10, 130, 30))
    if second_namesake:
        b.add("t2", raw_role="link", name="Tools", parent=side, bbox=(950, 740, 1010, 760))
    return b.build(coord_space="css_px")


def test_a_sole_namesake_that_moved_is_accepted_under_the_threshold() -> None:
    # "Tools" moved from the navigation to the bottom of the side bar: box, container and
    # place all disagree, but no other row has its name and the recorder saw no look-alike.
    config = MatchConfig(threshold=0.7)  # the moved link scores about 0.61
    ref = SemanticElementRef(
        role="link", name="Tools", bbox=(70, 10, 120, 30), container_path=("Blog", "More tools"),
        anchors=(("Home", (10, 10, 60, 30)),),
    )  # fmt: skip
    decision = decide(ref, _moved_page(False), config)
    assert decision.status == "accepted" and decision.best is not None
    assert decision.best.id == "t" and decision.rule == "accept.sole_namesake"
    assert decision.best.score < config.threshold
    # Not when the page has a second "Tools", nor when the recorder saw look-alikes or
    # wrote nothing of the page around it (it may not have looked).
    assert decide(ref, _moved_page(True), config).status != "accepted"
    twin = ref.model_copy(update={"lookalikes": ((950, 740, 1010, 760),)})
    assert decide(twin, _moved_page(False), config).status != "accepted"
    blind = ref.model_copy(update={"anchors": ()})
    assert decide(blind, _moved_page(False), config).status != "accepted"
    strict = MatchConfig(threshold=0.7, sole_threshold=0.69)
    assert decide(ref, _moved_page(False), strict).status != "accepted"


def _renamed_page(third: bool) -> CandidateTable:
    b = TableBuilder("a11y", "test")
    root = b.add("0", raw_role="RootWebArea", name="News")
    art = b.add("a", raw_role="article", name="Story", parent=root, bbox=(0, 0, 800, 900))
    b.add("t", raw_role="link", name="Share this story", parent=art, bbox=(20, 100, 260, 120))
    b.add("w", raw_role="link", name="Share", parent=art, bbox=(20, 130, 120, 150))
    if third:
        b.add("x", raw_role="link", name="Share", parent=art, bbox=(20, 600, 120, 620))
    return b.build(coord_space="css_px")


def test_a_renamed_target_at_its_place_wins_over_its_look_alike_at_the_look_alike_s() -> None:
    # Two "Share" links were recorded (the target first); the target became "Share this
    # story", wider along its line, and stayed where it was; its look-alike kept the name and
    # its own place just below.
    ref = SemanticElementRef(
        role="link", name="Share", bbox=(20, 100, 120, 120), container_path=("News", "Story"),
        occurrence=(0, 2), lookalikes=((20, 130, 120, 150),),
        anchors=(("Story", (0, 0, 800, 900)),),
    )  # fmt: skip
    decision = decide(ref, _renamed_page(False), MatchConfig())
    assert decision.status == "accepted" and decision.best is not None
    assert decision.best.id == "t" and decision.rule == "accept.renamed_target"
    assert decision.runner_up is not None and decision.runner_up.id == "w"
    # A third "Share" now: as many namesakes as were recorded, so the target may still be
    # one of them; and without the recorded look-alike the page cannot be read this way.
    assert not {"accept.renamed_target", "accept.renamed_in_slot"} & set(
        decide(ref, _renamed_page(True), MatchConfig()).rules
    )
    alone = ref.model_copy(update={"lookalikes": ()})
    assert not {"accept.renamed_target", "accept.renamed_in_slot"} & set(
        decide(alone, _renamed_page(False), MatchConfig()).rules
    )


def _two_renamed(target_xpath: str) -> CandidateTable:
    """The target and one of its two recorded look-alikes were renamed; one "Share" is left
    at the other look-alike's place."""
    from resolver.adapters._common import XPATH_KEYS

    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("0", raw_role="RootWebArea", name="News")
    art = b.add("a", raw_role="article", name="Story", parent=root, bbox=(0, 0, 800, 900))
    b.add("t", raw_role="link", name="Share this story", parent=art, bbox=(20, 100, 260, 120),
          xpath=target_xpath)  # fmt: skip
    b.add("w", raw_role="link", name="Share", parent=art, bbox=(20, 130, 120, 150),
          xpath="/html[1]/body[1]/article[1]/p[2]/a[1]")  # fmt: skip
    b.add("x", raw_role="link", name="Share it", parent=art, bbox=(20, 600, 120, 620),
          xpath="/html[1]/body[1]/article[1]/p[9]/a[1]")  # fmt: skip
    return b.build(coord_space="css_px", id_keys=XPATH_KEYS)


def test_a_renamed_target_with_a_renamed_look_alike_needs_its_recorded_xpath() -> None:
    ref = SemanticElementRef(
        role="link", name="Share", bbox=(20, 100, 120, 120), container_path=("News", "Story"),
        occurrence=(0, 3), lookalikes=((20, 130, 120, 150), (20, 600, 120, 620)),
        anchors=(("Story", (0, 0, 800, 900)),), xpath="/html[1]/body[1]/article[1]/p[1]/a[1]",
    )  # fmt: skip
    kept = decide(ref, _two_renamed("/html[1]/body[1]/article[1]/p[1]/a[1]"), MatchConfig())
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "t"
    assert kept.rule == "accept.renamed_target"
    # Fewer namesakes than recorded look-alikes and the recorded xpath names another place:
    # the page does not read as one renamed target.
    moved = decide(ref, _two_renamed("/html[1]/body[1]/div[1]/a[1]"), MatchConfig())
    assert not {"accept.renamed_target", "accept.renamed_in_slot"} & set(moved.rules)


def _pushed_down(footer_xpath: str) -> CandidateTable:
    """A banner pushed a header and a footer "Home" link down and renumbered the page's
    wrapper (``div[2]`` -> ``div[3]``); the two links are nearly tied by their boxes."""
    from resolver.adapters._common import XPATH_KEYS

    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("0", raw_role="RootWebArea", name="Shop", bbox=(0, 0, 1280, 2000))
    b.add("h", raw_role="link", name="Home", parent=root, bbox=(20, 300, 80, 320),
          xpath="/html[1]/body[1]/div[3]/header[1]/nav[1]/a[1]")  # fmt: skip
    b.add("f", raw_role="link", name="Home", parent=root, bbox=(20, 400, 80, 420),
          xpath=footer_xpath)  # fmt: skip
    return b.build(coord_space="css_px", id_keys=XPATH_KEYS, screen_size=(1280.0, 800.0))


def test_a_tie_is_broken_by_the_place_in_the_document_after_a_level_was_renumbered() -> None:
    ref = SemanticElementRef(
        role="link", name="Home", bbox=(20, 100, 80, 120),
        xpath="/html[1]/body[1]/div[2]/header[1]/nav[1]/a[1]",
    )  # fmt: skip
    taken = decide(ref, _pushed_down("/html[1]/body[1]/div[3]/footer[1]/a[1]"), MatchConfig())
    assert taken.status == "accepted" and taken.best is not None and taken.best.id == "h"
    assert taken.rule == "accept.path_tie"
    # The other link's path agrees as well: still a tie.
    alike = _pushed_down("/html[1]/body[1]/div[4]/header[1]/nav[1]/a[1]")
    assert decide(ref, alike, MatchConfig()).status == "ambiguous"
    # A dead heat (the recorded box halfway between them) is not decided by the path's
    # similarity alone (with two steps renumbered; one alone is
    # test_an_xpath_renumbered_at_one_step_breaks_a_tie_between_look_alikes).
    midway = ref.model_copy(
        update={
            "bbox": (20, 350, 80, 370),
            "xpath": "/html[1]/body[1]/div[2]/header[1]/nav[2]/a[1]",
        }
    )
    heat = decide(midway, _pushed_down("/html[1]/body[1]/div[3]/footer[1]/a[1]"), MatchConfig())
    assert heat.status == "ambiguous" and heat.margin < 0.02
    # Without a recorded xpath, or with one the best does not resemble more, no answer.
    assert (
        decide(ref.model_copy(update={"xpath": None}), _pushed_down("/x[1]"), MatchConfig()).status
        == "ambiguous"
    )


def _shared_links() -> CandidateTable:
    from resolver.adapters._common import XPATH_KEYS

    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("0", raw_role="RootWebArea", name="News")
    for k, y in enumerate((100, 130)):
        b.add(f"s{k}", raw_role="link", name="Share", parent=root, bbox=(20, y, 120, y + 20),
              xpath=f"/html[1]/body[1]/p[{k + 1}]/a[1]")  # fmt: skip
    return b.build(coord_space="css_px", id_keys=XPATH_KEYS)


def test_an_accessibility_tree_with_xpaths_breaks_a_tie_with_the_recorded_xpath() -> None:
    # Two "Share" links 30 px apart, the recorded box nearer the second: a tie by the box.
    table, config = _shared_links(), MatchConfig()
    loose = SemanticElementRef(role="link", name="Share", bbox=(20, 116, 120, 136))
    assert decide(loose, table, config).status == "ambiguous"
    recorded = loose.model_copy(update={"xpath": "/html/body/p[2]/a"})
    decision = decide(recorded, table, config)
    assert decision.status == "accepted" and decision.best is not None
    assert decision.best.id == "s1" and decision.rule == "accept.verified_selector"
    # A reference that recorded its look-alikes gets the tie-break while they are all still
    # there (the target and one look-alike: two namesakes), not when one more or one fewer
    # is (the document places moved); and an xpath that selects the row the box puts second
    # does not overturn the ranking.
    ours = recorded.model_copy(update={"lookalikes": ((20, 100, 120, 120),)})
    assert decide(ours, table, config).status == "accepted"
    more = recorded.model_copy(update={"lookalikes": ((20, 100, 120, 120), (20, 300, 120, 320))})
    assert decide(more, table, config).status == "ambiguous"
    nearer_first = recorded.model_copy(update={"bbox": (20, 108, 120, 128)})
    assert decide(nearer_first, table, config).status == "ambiguous"


def test_a_selected_row_whose_number_differs_does_not_agree_while_the_namesake_is_there() -> None:
    from resolver.decide.select import agrees as _agrees

    def page(*names: str) -> CandidateTable:
        b = TableBuilder("a11y", "test")
        root = b.add("0", raw_role="RootWebArea", name="Gallery")
        for k, name in enumerate(names):
            b.add(
                f"i{k}", raw_role="img", name=name, parent=root, bbox=(8, 20 * k, 76, 20 * k + 18)
            )
        return b.build()

    ref = SemanticElementRef(role="image", name="Image 2")
    config = MatchConfig()
    swapped = page("Image 1", "Image 2")  # the two traded places: the slot holds "Image 1"
    assert not _agrees(ref, swapped, 1, config)
    assert _agrees(ref, swapped, 2, config)
    renumbered = page("Image 1", "Image 3")  # the target's number changed: no namesake left
    assert _agrees(ref, renumbered, 1, config)


def _article_pushed_down(
    shift: float, gap: float = 34, second_href: str = "https://blog.example/post/2"
) -> CandidateTable:
    """Four "Read more" links in paragraphs ``gap`` px apart, all to the same post but the
    second to ``second_href``, the whole article pushed down by ``shift``."""
    b = TableBuilder("a11y", "test", id_columns=("xpath", "href"))
    root = b.add("doc", raw_role="RootWebArea", name="Page", bbox=(0, 0, 1280, 800))
    for k in range(4):
        top = 150 + gap * k + shift
        href = second_href if k == 1 else "https://blog.example/post/2"
        b.add(f"a{k + 1}", raw_role="link", name="Read more", parent=root,
              bbox=(8, top, 90, top + 17), xpath=f"/html[1]/body[1]/article[1]/p[{k + 1}]/a[1]",
              href=href)  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_a_recorded_xpath_outweighs_a_page_shift_on_an_accessibility_tree() -> None:
    # A foreign recorder's reference (no look-alikes recorded) to the second of four
    # "Read more" links; a banner then pushed the article down by 80 px.
    ref = SemanticElementRef(
        role="link", name="Read more", bbox=(8, 184, 90, 201), screen_size=(1280, 800),
        xpath="/html[1]/body[1]/article[1]/p[2]/a[1]", href="https://blog.example/post/2",
    )  # fmt: skip
    config = MatchConfig()
    pushed = decide(ref, _article_pushed_down(80), config)
    # Nothing sits at the recorded place: place no longer tells the twins apart, the
    # document place does.
    assert pushed.status == "accepted" and pushed.best is not None and pushed.best.id == "a2"
    # Links 20 px apart pushed by 16 px: the first now sits at the recorded place, which
    # speaks for it, and the xpath does not overturn that (the twins may have been reordered).
    close = ref.model_copy(update={"bbox": (8, 170, 90, 187)})
    held = decide(close, _article_pushed_down(16, gap=20), config)
    assert held.status == "ambiguous" and held.best is not None and held.best.id == "a1"
    # The row under the xpath agrees less on something other than place (its link now has a
    # fragment, the others link exactly where the recorded one did): the xpath does not
    # overturn that, however far the page moved.
    elsewhere = decide(ref, _article_pushed_down(300, second_href="https://blog.example/post/2#top"),
                       config)  # fmt: skip
    assert elsewhere.status == "ambiguous" and elsewhere.best is not None
    assert elsewhere.best.id == "a1"


def _replies(xpath: str) -> CandidateTable:
    """A comment page with one "All replies" link at ``xpath``, far from where a recorded
    "View all 146 replies" was (between "About" and "Help"), to the same address."""
    b = TableBuilder("a11y", "test", id_columns=("xpath", "href"))
    root = b.add("doc", raw_role="RootWebArea", name="Comments", bbox=(0, 0, 1280, 800))
    b.add("all", raw_role="link", name="All replies", parent=root, bbox=(48, 600, 115, 617),
          xpath=xpath, href="https://news.example/thread/9")  # fmt: skip
    texts = ("Reply", "Share", "Report", "Hosts of other people", "About", "Help")
    for k, text in enumerate(texts):
        b.add(f"n{k}", raw_role="link", name=text, parent=root,
              bbox=(215, 640 + 40 * k, 300, 657 + 40 * k),
              xpath=f"/html[1]/body[1]/section[1]/div[4]/a[{k + 1}]")  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_a_renamed_answer_the_recorded_xpath_does_not_select_must_keep_its_place() -> None:
    ref = SemanticElementRef(
        role="link", name="View all 146 replies", bbox=(215, 800, 344, 817),
        screen_size=(1280, 800), xpath="/html[1]/body[1]/section[1]/div[3]/a[1]",
        href="https://news.example/thread/9", nearby_text=("Reply", "Share", "Report", "About"),
    )  # fmt: skip
    config = MatchConfig()
    # Renamed, moved 200 px away into another section, among other neighbours: as likely
    # another link sharing words with a removed target.
    elsewhere = _replies("/html[1]/body[1]/section[2]/a[1]")
    moved = decide(ref, elsewhere, config)
    assert moved.status == "not_found" and moved.rule == "refuse.changed_and_moved"
    # The recorded xpath still selects it: the target renamed in its place.
    kept = decide(ref, _replies("/html[1]/body[1]/section[1]/div[3]/a[1]"), config)
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "all"
    # Renamed but at the recorded place with the recorded neighbours: renamed in place.
    placed = ref.model_copy(update={"bbox": (48, 600, 115, 617), "nearby_text": ()})
    assert decide(placed, elsewhere, config).status == "accepted"
    # Only the box disagrees (its recorded neighbours are all next to it): a redesign may
    # move a control it renames.
    near = ref.model_copy(update={"nearby_text": ("Reply", "Share", "Report")})
    assert decide(near, elsewhere, config).status == "accepted"
    # The rule asks for the rest of the place only of a changed name or role.
    same = ref.model_copy(update={"name": "All replies"})
    assert decide(same, elsewhere, config).status == "accepted"


def _illustrations(*tops: float) -> CandidateTable:
    """Images named "Illustration" at the given tops, each selected by its own css."""
    b = TableBuilder("dom", "fake", executor_prefix="xpath:")
    for k, top in enumerate(tops):
        b.add(f"/html[1]/body[1]/img[{k + 1}]", raw_role="img", name="Illustration",
              bbox=(8, top, 9, top + 1))  # fmt: skip
    table = b.build(coord_space="css_px")
    rows = {f"body > img:nth-of-type({k + 1})": [k] for k in range(len(tops))}
    object.__setattr__(table, "selector_resolver", lambda kind, sel: rows.get(sel, []))
    return table


def test_a_positional_selector_is_not_trusted_to_a_namesake_elsewhere_when_one_is_gone() -> None:
    # Recorded: the first of two 1-px images, at y=21, with its look-alike at y=117.
    ref = SemanticElementRef(
        role="image", name="Illustration", bbox=(8, 21, 9, 22),
        css_selector="body > img:nth-of-type(1)", lookalikes=((8, 117, 9, 118),),
    )  # fmt: skip
    config = MatchConfig()
    both = decide(ref, _illustrations(21, 117), config)
    assert both.status == "accepted" and both.best is not None
    assert both.best.id == "/html[1]/body[1]/img[1]" and both.rule == "accept.verified_selector"
    # The target was removed: its selector now selects the look-alike, far from its place.
    gone = decide(ref, _illustrations(117), config)
    assert "accept.verified_selector" not in gone.rules
    assert gone.status != "accepted"
    # A look-alike gone, the one selected still at the target's place: trusted.
    held = decide(ref, _illustrations(21), config)
    assert held.status == "accepted" and held.rule == "accept.verified_selector"


def _follow_links(
    level: str, shift: float, extra: tuple[tuple[str, str], ...] = ()
) -> CandidateTable:
    """Three "Follow" links, one per article 300 px apart under ``/html/body/{level}``,
    pushed down by ``shift``; ``extra`` adds a link ``(name, xpath)`` far below."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Thread", bbox=(0, 0, 1280, 800))
    for k in range(3):
        top = 150 + 300 * k + shift
        b.add(f"f{k + 1}", raw_role="link", name="Follow", parent=root,
              bbox=(48, top, 96, top + 17),
              xpath=f"/html[1]/body[1]/{level}/article[{k + 1}]/header[1]/a[1]")  # fmt: skip
    for k, (name, xpath) in enumerate(extra):
        b.add(f"x{k}", raw_role="link", name=name, parent=root,
              bbox=(48, 3000 + 40 * k, 110, 3017 + 40 * k), xpath=xpath)  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_an_xpath_renumbered_at_one_step_breaks_a_tie_between_look_alikes() -> None:
    # Recorded: the second article's link. A banner then renumbered body's div[2] to div[3]
    # and pushed everything down by 150 px: the first and second links are as far from
    # the recorded box, and the recorded xpath selects nothing.
    ref = SemanticElementRef(
        role="link", name="Follow", bbox=(48, 450, 96, 467), screen_size=(1280, 800),
        xpath="/html[1]/body[1]/div[2]/article[2]/header[1]/a[1]",
    )  # fmt: skip
    config = MatchConfig()
    pushed = decide(ref, _follow_links("div[3]", 150), config)
    assert pushed.status == "accepted" and pushed.best is not None and pushed.best.id == "f2"
    assert pushed.rule == "accept.renumbered_tie"
    # Another "Follow" under the same steps down to the renumbered one, at another position
    # there (a sibling section): the renumbered step no longer tells the target.
    sibling = ("Follow", "/html[1]/body[1]/div[4]/article[9]/header[1]/a[1]")
    assert decide(ref, _follow_links("div[3]", 150, (sibling,)), config).status == "ambiguous"
    # Namesakes that differ further down do not stand in the way.
    deeper = ("Follow", "/html[1]/body[1]/div[3]/aside[1]/header[1]/a[1]")
    assert decide(ref, _follow_links("div[3]", 150, (deeper,)), config).status == "accepted"
    # The recorded xpath still selects an element of the recorded role (the target renamed
    # in its place, perhaps): the renumbered step is no evidence.
    renamed = ("Unfollow", ref.xpath or "")
    assert decide(ref, _follow_links("div[3]", 150, (renamed,)), config).status == "ambiguous"
    # Without a box the tie is a want of evidence: the path alone does not decide it.
    boxless = ref.model_copy(update={"bbox": None, "screen_size": None})
    assert decide(boxless, _follow_links("div[3]", 150), config).status == "ambiguous"
    # Without the banner's renumbering (look-alikes one list-item step apart): no tie-break.
    listed = ref.model_copy(update={"xpath": "/html[1]/body[1]/div[3]/article[5]/header[1]/a[1]"})
    assert decide(listed, _follow_links("div[3]", 150), config).status == "ambiguous"


def _footnotes(*numbers: str, name: str = "", xpath_of: str = "sup") -> CandidateTable:
    """Footnote links named by their numbers in one paragraph, each under its own xpath."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Book", bbox=(0, 0, 1280, 800))
    for k, number in enumerate(numbers):
        b.add(f"n{number}", raw_role="link", name=f"{name}{number}", parent=root,
              bbox=(100 + 60 * k, 300, 112 + 60 * k, 315),
              xpath=f"/html[1]/body[1]/p[1]/{xpath_of}[{k + 1}]/a[1]")  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_another_member_of_a_numbered_series_is_not_the_target_renumbered() -> None:
    # Recorded: footnote "22" between "21" and "23"; it was removed, and "23" slid left.
    ref = SemanticElementRef(
        role="link", name="22", bbox=(160, 300, 172, 315), screen_size=(1280, 800),
        xpath="/html[1]/body[1]/p[1]/sup[9]/a[1]",
    )  # fmt: skip
    config = MatchConfig()
    series = decide(ref, _footnotes("21", "23"), config)
    assert series.status == "not_found" and series.rule == "refuse.numbered_series"
    # A counter has no second member: "Inbox (3)" became "Inbox (12)".
    counter = ref.model_copy(update={"name": "Inbox (3)"})
    single = decide(counter, _footnotes("(12)", name="Inbox "), config)
    assert single.status == "accepted" and single.best is not None
    # The recorded xpath still selects it: the target renumbered in its place.
    placed = ref.model_copy(update={"xpath": "/html[1]/body[1]/p[1]/sup[2]/a[1]"})
    assert decide(placed, _footnotes("21", "23"), config).status == "accepted"


def _unnamed_links(href: str) -> CandidateTable:
    b = TableBuilder("a11y", "test", id_columns=("xpath", "href"))
    root = b.add("doc", raw_role="RootWebArea", name="Wiki", bbox=(0, 0, 1280, 800))
    b.add("i", raw_role="link", name="", parent=root, bbox=(40, 200, 140, 260),
          xpath="/html[1]/body[1]/article[1]/a[3]", href=href)  # fmt: skip
    b.add("t", raw_role="StaticText", name="Han Solo", parent=root, bbox=(40, 270, 140, 290))
    texts = ("Falcon", "Hoth", "Endor", "Naboo", "Leia", "Luke")  # the last two far below
    for k, text in enumerate(texts):
        b.add(f"s{k}", raw_role="StaticText", name=text, parent=root,
              bbox=(40, 300 + 300 * k, 140, 320 + 300 * k))  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_an_unnamed_reference_is_not_answered_by_a_link_to_another_address() -> None:
    # An image link without a name was removed; the next one slid into its place.
    ref = SemanticElementRef(
        role="link", bbox=(40, 200, 140, 260), screen_size=(1280, 800),
        xpath="/html[1]/body[1]/article[1]/a[4]", href="https://wiki.example/f/solo.png",
    )  # fmt: skip
    config = MatchConfig()
    other = decide(ref, _unnamed_links("https://wiki.example/f/falcon.png"), config)
    assert other.status == "not_found" and other.rule == "refuse.unnamed"
    same = decide(ref, _unnamed_links("https://wiki.example/f/solo.png"), config)
    assert same.status == "accepted" and same.best is not None and same.best.id == "i"
    # No link recorded: its place must speak for it. Recorded 300 px lower, by "Han Solo"
    # and "Leia", the link up here is not it; recorded where it is, it is.
    placeless = ref.model_copy(
        update={
            "href": None, "bbox": (40, 500, 140, 560), "container_path": ("Wiki",),
            "nearby_text": ("Han Solo", "Leia"),
        }
    )  # fmt: skip
    away = decide(placeless, _unnamed_links("https://wiki.example/f/falcon.png"), config)
    assert away.status == "not_found" and away.rule == "refuse.unnamed"
    here = placeless.model_copy(update={"bbox": (40, 200, 140, 260)})
    assert decide(here, _unnamed_links("https://wiki.example/f/falcon.png"), config).status == (
        "accepted"
    )


def _tag_lists(both: bool) -> CandidateTable:
    """Two dated entries, each with a "PostgreSQL" tag link; ``both=False``: the first
    entry's link was removed."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Notes", bbox=(0, 0, 1280, 800))
    for k, date in enumerate(("13 August 2019", "11 May 2017")):
        text = f"{date}: anomaly detection in PostgreSQL with plain SQL"
        item = b.add(f"e{k}", raw_role="listitem", name=text, parent=root,
                     bbox=(40, 100 + 200 * k, 600, 180 + 200 * k))  # fmt: skip
        if both or k:
            b.add(f"p{k}", raw_role="link", name="PostgreSQL", parent=item,
                  bbox=(60, 150 + 200 * k, 150, 165 + 200 * k),
                  xpath=f"/html[1]/body[1]/ul[1]/li[{k + 1}]/a[1]")  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_a_namesake_in_another_container_is_not_taken_when_a_look_alike_is_gone() -> None:
    ref = SemanticElementRef(
        role="link", name="PostgreSQL", bbox=(60, 150, 150, 165), screen_size=(1280, 800),
        container_path=("Notes", "13 August 2019: anomaly detection in PostgreSQL with plain SQL"),
        lookalikes=((900, 700, 990, 715),),  # the look-alike was elsewhere (since moved up)
        xpath="/html[1]/body[1]/ul[1]/li[1]/span[1]/a[1]",
    )  # fmt: skip
    config = MatchConfig()
    gone = decide(ref, _tag_lists(False), config)
    assert gone.status != "accepted"
    assert gone.rule == "refuse.shrunk_group"
    # Both still there: the target, in its container, is answered.
    both = decide(ref, _tag_lists(True), config)
    assert both.status == "accepted" and both.best is not None and both.best.id == "p0"


def _footer_privacy(href: str) -> CandidateTable:
    """A page whose only "Privacy" link is in the footer strip, between "Terms" and "Help"
    (after the story in reading order, drawn 120 px under the header)."""
    b = TableBuilder("a11y", "test", id_columns=("xpath", "href"))
    root = b.add("doc", raw_role="RootWebArea", name="News", bbox=(0, 0, 1280, 800))
    for k, text in enumerate(("Sports", "Weather", "Markets", "Opinion")):
        b.add(f"h{k}", raw_role="link", name=text, parent=root,
              bbox=(20 + 90 * k, 20, 100 + 90 * k, 37), href=f"https://news.example/{text}",
              xpath=f"/html[1]/body[1]/header[1]/a[{k + 1}]")  # fmt: skip
    for k in range(5):  # the article
        b.add(f"p{k}", raw_role="paragraph", name=f"Paragraph {k} of the story", parent=root,
              bbox=(20, 100 + 1000 * k, 1200, 1000 + 1000 * k))  # fmt: skip
    for k, text in enumerate(("Terms", "Privacy", "Help")):
        b.add(f"f{k}", raw_role="link", name=text, parent=root,
              bbox=(20 + 90 * k, 140, 100 + 90 * k, 157),
              xpath=f"/html[1]/body[1]/footer[1]/a[{k + 1}]",
              href=href if text == "Privacy" else f"https://news.example/{text}")  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_a_namesake_that_agrees_on_nothing_but_its_name_is_not_the_target() -> None:
    # Recorded: the header's "Privacy" link (between "Markets" and "Opinion"), since removed.
    ref = SemanticElementRef(
        role="link", name="Privacy", bbox=(380, 20, 460, 37), screen_size=(1280, 800),
        xpath="/html[1]/body[1]/header[1]/a[5]", href="https://news.example/privacy-header",
        nearby_text=("Terms", "Help", "Opinion"),
    )  # fmt: skip
    config = MatchConfig()
    footer = decide(ref, _footer_privacy("https://news.example/privacy"), config)
    assert footer.status == "not_found" and footer.rule == "refuse.name_only"
    # The same link (same address): one of the four agrees, and it is taken.
    same = decide(ref, _footer_privacy("https://news.example/privacy-header"), config)
    assert same.status == "accepted" and same.best is not None and same.best.id == "f1"
    # A link to the same anchor of a page whose own address changed agrees too.
    anchored = ref.model_copy(update={"href": "file:///old/page.html#privacy"})
    moved = decide(anchored, _footer_privacy("file:///new/page.html#privacy"), config)
    assert moved.status == "accepted"


def _login_link(*, href: str | None) -> CandidateTable:
    """A header with a "Log In" link (to ``href``) where a "Log In" button was, the header's
    texts before it in reading order, and "Subscribe" in the footer."""
    b = TableBuilder("a11y", "test", id_columns=("xpath", "href"))
    root = b.add("doc", raw_role="RootWebArea", name="News", bbox=(0, 0, 1280, 800))
    for k, text in enumerate(("World", "Business", "Opinion")):
        b.add(f"t{k}", raw_role="StaticText", name=text, parent=root,
              bbox=(20 + 90 * k, 60, 100 + 90 * k, 77))  # fmt: skip
    b.add("l", raw_role="link", name="Log In", parent=root, bbox=(1160, 12, 1230, 32),
          href=href, xpath="/html[1]/body[1]/header[1]/div[2]/a[1]")  # fmt: skip
    for k in range(12):  # the story, then the footer's "Subscribe"
        b.add(f"p{k}", raw_role="paragraph", name=f"Paragraph {k}", parent=root,
              bbox=(20, 100 + 40 * k, 1200, 130 + 40 * k))  # fmt: skip
    b.add("s", raw_role="StaticText", name="Subscribe", parent=root, bbox=(20, 700, 120, 717))
    return b.build(coord_space=CoordSpace.CSS_PX, screen_size=(1280.0, 800.0))


def test_a_control_recorded_without_a_link_is_not_a_link_of_its_name() -> None:
    # Recorded: the "Log In" button (no link), next to "Subscribe" and "Opinion"; it went,
    # and a "Log In" link of the same header is next to "Opinion" only ("Subscribe" moved
    # to the footer).
    ref = SemanticElementRef(
        role="button", name="Log In", bbox=(1150.0, 10.0, 1222.0, 32.0), screen_size=(1280, 800),
        xpath="/html[1]/body[1]/header[1]/div[2]/button[1]", nearby_text=("Subscribe", "Opinion"),
        coord_space="css_px",
    )  # fmt: skip
    gone = decide(ref, _login_link(href="https://news.example/login"), MatchConfig())
    assert gone.status == "not_found" and gone.rule == "refuse.changed_and_moved"
    # The same element without a link (a table that knows no links for it): only its
    # neighbours differ, and it is taken for the target changed.
    kept = decide(ref, _login_link(href=None), MatchConfig())
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "l"


def _tagged_posts(posts: tuple[tuple[str, float], ...]) -> CandidateTable:
    """Posts ``(year, top)``, each a group named by its year holding a tag list that reads
    alike in every post ("Tags: PostgreSQL, SQL") with one "PostgreSQL" link."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Notes", bbox=(0, 0, 1280, 800))
    for k, (year, top) in enumerate(posts):
        post = b.add(f"g{k}", raw_role="group", name=f"Posts of {year}", parent=root,
                     bbox=(20, top - 40, 700, top + 40))  # fmt: skip
        item = b.add(f"l{k}", raw_role="listitem", name="Tags: PostgreSQL, SQL", parent=post,
                     bbox=(40, top, 600, top + 20))  # fmt: skip
        b.add(f"p{k}", raw_role="link", name="PostgreSQL", parent=item,
              bbox=(90, top, 170, top + 17),
              xpath=f"/html[1]/body[1]/section[{k + 1}]/a[1]")  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_the_survivor_in_a_look_alike_container_is_not_taken_for_a_removed_target() -> None:
    # Recorded: the 2019 post's tag link; its look-alikes in two posts 300 and 600 px lower.
    ref = SemanticElementRef(
        role="link", name="PostgreSQL", bbox=(90, 100, 170, 117), screen_size=(1280, 800),
        container_path=("Notes", "Posts of 2019", "Tags: PostgreSQL, SQL"),
        lookalikes=((90, 400, 170, 417), (90, 700, 170, 717)),
        xpath="/html[1]/body[1]/section[1]/div[1]/a[1]",
    )  # fmt: skip
    config = MatchConfig()
    # The 2019 link removed: the 2017 one, at its recorded place and nearest to where the
    # target was, is its survivor, though its tag list reads the same.
    gone = decide(ref, _tagged_posts((("2017", 400),)), config)
    assert gone.status == "not_found" and gone.rule == "refuse.lookalike_place"
    # The posts were reordered and one went: a namesake lies nearer to the target's place,
    # so the place no longer tells, and the container does.
    moved = decide(ref, _tagged_posts((("Drafts", 250), ("2019", 400))), config)
    assert moved.status == "accepted" and moved.best is not None and moved.best.id == "p1"


def _twice_listed(*, removed: bool = True, footer_texts: bool = True) -> CandidateTable:
    """A page whose header and footer list the same four links; the header's "Demos" went
    (``removed``). Without ``footer_texts`` the footer holds "Demos" alone."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Works", bbox=(0, 0, 1280, 6000))
    links = ("Hacks", "Videos", "Demos", "About")
    for part, top in (("header", 40), ("footer", 5000)):
        for k, text in enumerate(links):
            if part == "header" and text == "Demos" and removed:
                continue
            if part == "footer" and text != "Demos" and not footer_texts:
                continue
            b.add(f"{part}{k}", raw_role="link", name=text, parent=root,
                  bbox=(8 + 100 * k, top, 80 + 100 * k, top + 17),
                  xpath=f"/html[1]/body[1]/{part}[1]/nav[1]/ul[1]/li[{k + 1}]/a[1]")  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0))


def _pictures(boxes: tuple[tuple[float, float, float, float], ...]) -> CandidateTable:
    """Images of one caption at ``boxes`` (a picture and the placeholder drawn around it)."""
    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Profiling", bbox=(0, 0, 1280, 800))
    for k, box in enumerate(boxes):
        b.add(f"i{k}", raw_role="image", name="CPU profile", parent=root, bbox=box)
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_the_placeholder_drawn_around_a_removed_picture_is_not_the_picture() -> None:
    # Recorded: the picture, and its look-alike, the placeholder around it (one centre).
    picture, placeholder = (64.0, 200.0, 1216.0, 700.0), (6.0, 164.0, 1274.0, 736.0)
    ref = SemanticElementRef(role="img", name="CPU profile", bbox=picture, screen_size=(1280, 800),
                             lookalikes=(placeholder,), coord_space="css_px")  # fmt: skip
    gone = decide(ref, _pictures((placeholder,)), MatchConfig())
    assert gone.status == "not_found" and gone.rule == "refuse.lookalike_place"
    # The placeholder went instead: the picture, at its own box, is answered.
    kept = decide(ref, _pictures((picture,)), MatchConfig())
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "i0"


def test_a_namesake_in_a_copy_of_the_neighbourhood_is_not_the_target() -> None:
    ref = SemanticElementRef(
        role="link", name="Demos", bbox=(208.0, 40.0, 280.0, 57.0),
        xpath="/html[1]/body[1]/header[1]/nav[1]/ul[1]/li[3]/a[1]",
        nearby_text=("Videos", "Hacks", "About"),
    )  # fmt: skip
    refused = decide(ref, _twice_listed(), MatchConfig())
    assert refused.status == "not_found"
    assert refused.rule == "refuse.slot_kept"
    # The target still in the header: it is the answer.
    kept = decide(ref, _twice_listed(removed=False), MatchConfig())
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "header2"
    # A footer "Demos" without the header's texts next to it is another rule's matter.
    other = decide(ref, _twice_listed(footer_texts=False), MatchConfig())
    assert "refuse.slot_kept" not in other.rules
    # Within a quarter screen of the target's place: the rule does not apply.
    near = dataclasses.replace(MatchConfig(), left_near=7.0)
    assert "refuse.slot_kept" not in decide(ref, _twice_listed(), near).rules
    # The recorded xpath selecting the answer: it stands.
    footer = "/html[1]/body[1]/footer[1]/nav[1]/ul[1]/li[3]/a[1]"
    footer_xpath = ref.model_copy(update={"xpath": footer})
    assert decide(footer_xpath, _twice_listed(), MatchConfig()).status == "accepted"


def _social_links(region: str, *, header: bool = True) -> CandidateTable:
    """A page whose header's social links went (``header``: its navigation is still there,
    with a sign-in link); ``region`` (``footer[1]/nav[1]`` or ``header[1]/nav[2]``) holds the
    three social links at the bottom."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Works", bbox=(0, 0, 1280, 6000))
    if header:
        nav = b.add("h", raw_role="navigation", parent=root, bbox=(0, 0, 1280, 80),
                    xpath="/html[1]/body[1]/header[1]/nav[1]")  # fmt: skip
        b.add("s", raw_role="link", name="Sign in", parent=nav, bbox=(1100, 40, 1180, 57),
              xpath="/html[1]/body[1]/header[1]/nav[1]/ul[1]/li[4]/a[1]")  # fmt: skip
    b.add("p", raw_role="StaticText", name="An article", parent=root, bbox=(8, 100, 600, 400))
    for k, text in enumerate(("Facebook", "Twitter", "Instagram")):
        b.add(f"l{k}", raw_role="link", name=text, parent=root,
              bbox=(8 + 100 * k, 5000, 80 + 100 * k, 5017), href=f"https://{text.lower()}.com/w",
              xpath=f"/html[1]/body[1]/{region}/ul[1]/li[{k + 1}]/a[1]")  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0))


def test_a_namesake_in_another_region_of_the_page_is_not_the_target() -> None:
    ref = SemanticElementRef(
        role="link", name="Facebook", bbox=(8.0, 40.0, 80.0, 57.0),
        xpath="/html[1]/body[1]/header[1]/nav[1]/ul[1]/li[1]/a[1]",
        href="https://facebook.com/w", nearby_text=("Twitter", "Instagram"),
    )  # fmt: skip
    refused = decide(ref, _social_links("footer[1]/nav[1]"), MatchConfig())
    assert refused.status == "not_found" and refused.rule == "refuse.other_region"
    # The same links moved to the bottom of the same region: the answer stands.
    moved = decide(ref, _social_links("header[1]/nav[2]"), MatchConfig())
    assert moved.status == "accepted" and moved.best is not None and moved.best.id == "l0"
    # Near the recorded place, the region alone is no reason.
    assert (
        decide(ref, _social_links("footer[1]/nav[1]"), MatchConfig(stray_box=0.0)).status
        == "accepted"
    )
    # The header gone altogether: a redesign that moved its links, and the answer stands.
    gone = decide(ref, _social_links("footer[1]/nav[1]", header=False), MatchConfig())
    assert gone.status == "accepted" and gone.best is not None and gone.best.id == "l0"


def _sorted_rows(*, raw_row: str = "row", label: str = "") -> CandidateTable:
    """A users table sorted since it was recorded: Alice's row went from the top to the
    bottom, 250 px down. Each row (``raw_row``), named by its text or ``label``, holds the
    person's name, "Active", "Edit" and "Delete"."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Users", bbox=(0, 0, 1280, 2000))
    grid = b.add("t", raw_role="table", name="Users", parent=root, bbox=(0, 80, 1280, 420))
    people = ("Grace Kim", "Bob Stone", "Carol Diaz", "David Lee", "Eve Moss", "Alice Johnson")
    cells = ((8, 200), (1000, 1090), (1100, 1150), (1180, 1230))
    for k, person in enumerate(people):
        top, name = 100 + 50 * k, label or f"{person} Active Edit Delete"
        box = (0, top, 1280, top + 40)
        row = b.add(f"r{k}", raw_role=raw_row, name=name, parent=grid, bbox=box)
        for j, text in enumerate((person, "Active", "Edit", "Delete")):
            left, right = cells[j]
            path = f"/html[1]/body[1]/table[1]/tbody[1]/tr[{k + 1}]/td[{j + 1}]/button[1]"
            b.add(f"{text}{k}", raw_role="StaticText" if j < 2 else "button", name=text,
                  parent=row, bbox=(left, top, right, top + 20),
                  xpath=path if j >= 2 else None)  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0))


def test_a_table_row_named_by_its_own_text_is_no_copy_of_the_neighbourhood() -> None:
    ref = SemanticElementRef(
        role="button", name="Edit", bbox=(1100.0, 100.0, 1150.0, 120.0),
        container_path=("Users", "Users", "Alice Johnson Active Edit Delete"),
        xpath="/html[1]/body[1]/table[1]/tbody[1]/tr[1]/td[3]/button[1]",
        nearby_text=("Active", "Delete"),
    )  # fmt: skip
    # Every recorded text has a copy where the target was (another row's), but the
    # recorded row, by its text, tells it apart.
    kept = decide(ref, _sorted_rows(), MatchConfig())
    assert kept.status == "accepted" and kept.best is not None and kept.best.id == "Edit5"
    # Only a table row counts so, and only one no other look-alike's container shares.
    table = _sorted_rows()
    assert own_table_row(ref, table, table.ids.index("Edit5"), MatchConfig())
    assert not own_table_row(
        ref, _sorted_rows(raw_row="group"), table.ids.index("Edit5"), MatchConfig()
    )
    alike = ref.model_copy(update={"container_path": ("Users", "Users", "User")})
    assert not own_table_row(
        alike, _sorted_rows(label="User"), table.ids.index("Edit5"), MatchConfig()
    )


def _teaser_links(title: str | None) -> CandidateTable:
    """A teaser on an accessibility tree with xpaths: the category link "Football", a title
    link named ``title`` (None: removed, so the links after it move up a slot), then a
    longer link under the teaser's picture."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="News", bbox=(0, 0, 1280, 800))
    links = [("cat", "Football", (8.0, 280.0, 76.0, 297.0))]
    if title is not None:
        links.append(("title", title, (8.0, 300.0, 300.0, 317.0)))
    links.append(("more", "Football Mosquera stood me up", (8.0, 520.0, 400.0, 537.0)))
    for k, (key, name, box) in enumerate(links):
        b.add(key, raw_role="link", name=name, parent=root, bbox=box,
              xpath=f"/html[1]/body[1]/div[1]/a[{k + 1}]")  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_a_renamed_row_a_selector_selects_away_from_the_targets_place_is_not_verified() -> None:
    ref = SemanticElementRef(
        role="link", name="Mosquera stood me up", bbox=(8, 300, 300, 317),
        screen_size=(1280, 800), xpath="/html[1]/body[1]/div[1]/a[2]",
        nearby_text=("Football", "Football Mosquera stood me up"),
        anchors=(("Football", (8.0, 280.0, 76.0, 297.0)),),
    )  # fmt: skip
    config = MatchConfig()
    # The title link went: its slot now holds the link under the picture, 200 px lower, a
    # neighbour recorded beside the target. The selector does not vouch for it.
    gone = decide(ref, _teaser_links(None), config)
    assert gone.status == "not_found" and "accept.verified_selector" not in gone.rules
    # The title renamed in its place keeps the selector's word.
    renamed = decide(ref, _teaser_links("Mosquera stood me up again"), config)
    assert renamed.status == "accepted" and renamed.rule == "accept.verified_selector"
    assert renamed.best is not None and renamed.best.id == "title"
    # Without anchors the page's shift is unknown (a banner may have pushed everything
    # down), so the place is not asked.
    blind = ref.model_copy(update={"anchors": ()})
    assert decide(blind, _teaser_links(None), config).rule == "accept.verified_selector"


def _figures(*codes: str) -> CandidateTable:
    """Pictures of a status chart, each named "Anomaly in status code N", above a caption
    that begins with that name; a removed picture leaves its figure (and the others their
    xpaths) in place."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Anomalies", bbox=(0, 0, 1280, 800))
    for code in codes:
        k = 0 if code.startswith("40") else 1
        top = 200.0 + 120.0 * k
        b.add(f"img{code}", raw_role="image", name=f"Anomaly in status code {code}",
              parent=root, bbox=(48, top, 240, top + 80),
              xpath=f"/html[1]/body[1]/figure[{k + 1}]/img[1]")  # fmt: skip
        b.add(f"cap{code}", raw_role="StaticText", name=f"Anomaly in status code {code}: seen",
              parent=root, bbox=(48, top + 84, 400, top + 100))  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_an_answer_heading_a_recorded_neighbours_text_is_that_neighbour() -> None:
    # Recorded: the picture of status code 400, above the figure of status code 500, whose
    # caption the recorder kept as a nearby text. The 400 figure went.
    ref = SemanticElementRef(
        role="img", name="Anomaly in status code 400", bbox=(48, 200, 240, 280),
        screen_size=(1280, 800), xpath="/html[1]/body[1]/figure[1]/img[1]",
        nearby_text=("Anomaly in status code 400: seen", "Anomaly in status code 500: seen"),
    )  # fmt: skip
    config = MatchConfig()
    gone = decide(ref, _figures("500"), config)
    assert gone.status == "not_found" and gone.rule == "refuse.neighbour_name"
    # The target renumbered in its place is still answered: no recorded text is headed by
    # its new name.
    renumbered = decide(ref, _figures("401", "500"), config)
    assert renumbered.status == "accepted" and renumbered.best is not None
    assert renumbered.best.id == "img401"
    # A recorded text that merely goes on after the name in one word is not headed by it.
    joined = ref.model_copy(update={"nearby_text": ("Anomaly in status code 5000 seen",)})
    assert decide(joined, _figures("500"), config).status == "accepted"
    # Nor does a text that heads the recorded name too: the target's own words, shortened.
    own = ref.model_copy(update={"name": "Anomaly in status code 500: seen twice"})
    assert decide(own, _figures("500"), config).status == "accepted"


def test_a_removed_control_is_not_answered_by_its_opposite() -> None:
    # "Follow" went; the "Unfollow" beside it slid into its nth-of-type slot. By letters the
    # two agree (0.86), by meaning not at all.
    def page(*links: str) -> CandidateTable:
        items = "".join(f'<a class="button" href="#f">{text}</a>' for text in links)
        html = f'<html><body><div id="card">{items}</div></body></html>'
        return Observation(dom_html=html).candidates("dom")

    ref = SemanticElementRef(role="link", name="Follow", tag="a", classes=("button",),
                             href="#f", css_selector="#card > a:nth-of-type(1)",
                             xpath="/html[1]/body[1]/div[1]/a[1]")  # fmt: skip
    config = MatchConfig()
    assert decide(ref, page("Follow", "Unfollow"), config).status == "accepted"
    assert decide(ref, page("Unfollow"), config).status == "not_found"
    # Renamed a little in its slot, it is still the target.
    assert decide(ref, page("Follow us", "Unfollow"), config).status == "accepted"


def _replies_left(top: float) -> CandidateTable:
    """One "Reply" link left of two, its top at ``top``, beside the post it answers."""
    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Thread", bbox=(0, 0, 1280, 800))
    b.add("post", raw_role="StaticText", name="First post", parent=root,
          bbox=(100, top - 30, 400, top - 10))  # fmt: skip
    b.add("reply", raw_role="link", name="Reply", parent=root, bbox=(100, top, 160, top + 20))
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0))


def test_a_target_that_moved_while_its_look_alike_went_is_still_found() -> None:
    # Two "Reply" links were recorded; the second went, and the page above the first grew,
    # so it moved down 40 px. It is nearer to where it was than to where the other was, and
    # the rules that refuse a survivor find none: it is the target.
    ref = SemanticElementRef(
        role="link", name="Reply", bbox=(100, 300, 160, 320), screen_size=(1280, 800),
        container_path=("Thread",), occurrence=(0, 2), lookalikes=((100, 600, 160, 620),),
        nearby_text=("First post",),
    )  # fmt: skip
    moved = decide(ref, _replies_left(340.0), MatchConfig())
    assert moved.status == "accepted" and moved.best is not None and moved.best.id == "reply"
    # Where the other one was, it is that one's survivor.
    there = decide(ref, _replies_left(600.0), MatchConfig())
    assert there.status != "accepted"


def test_a_name_of_symbols_alone_is_borne_only_by_that_symbol() -> None:
    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Archive")
    for rid, name in (("toggle", " ►"), ("bare", ""), ("other", "»"), ("word", "2013")):
        b.add(rid, raw_role="link", name=name, parent=root)
    table = b.build()
    ref = SemanticElementRef(role="link", name="►")
    borne = [rid for i, rid in enumerate(table.ids) if bears_name(ref, table, i)]
    assert borne == ["toggle"]
    assert bears_name(SemanticElementRef(role="link", name="2013"), table, table.ids.index("word"))


def _share_links(xpath: str, *, parent_kept: bool = False) -> CandidateTable:
    """A page with one "Share" link, far below the recorded one, at ``xpath``;
    ``parent_kept`` keeps the recorded link's list item, with its text."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Works", bbox=(0, 0, 1280, 6000))
    if parent_kept:
        kept = "/html[1]/body[1]/div[2]/div[1]/ul[1]/li[2]/span[1]"
        b.add("t", raw_role="StaticText", name="3 comments", parent=root,
              bbox=(8, 400, 90, 417), xpath=kept)  # fmt: skip
    b.add("s", raw_role="link", name="Share", parent=root, bbox=(8, 3000, 60, 3017),
          xpath=xpath)  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0))


def test_an_answer_in_another_branch_of_the_document_is_not_the_target() -> None:
    ref = SemanticElementRef(
        role="link", name="Share", bbox=(8.0, 400.0, 60.0, 417.0),
        xpath="/html[1]/body[1]/div[2]/div[1]/ul[1]/li[2]/a[1]",
    )  # fmt: skip
    # Three steps at other positions: the sidebar's "Share", the article's is gone.
    far = _share_links("/html[1]/body[1]/div[3]/div[2]/ul[1]/li[4]/a[1]")
    refused = decide(ref, far, MatchConfig())
    assert refused.status == "not_found" and refused.rule == "refuse.far_in_document"
    # Three steps of other tags, while the recorded link's list item is still there: the same.
    # Without it, the branch was rebuilt (a redesign), and the tags say nothing.
    retagged = "/html[1]/body[1]/div[2]/aside[1]/ol[1]/p[1]/a[1]"
    assert decide(ref, _share_links(retagged, parent_kept=True), MatchConfig()).status == (
        "not_found"
    )
    assert decide(ref, _share_links(retagged), MatchConfig()).status == "accepted"
    # The target moved: its block reordered and a wrapper added (one step renumbered, one
    # level more), or a banner renumbered the top and a sibling went before it (two steps).
    for moved in (
        "/html[1]/body[1]/div[2]/div[1]/ul[1]/li[5]/span[1]/a[1]",
        "/html[1]/body[1]/div[3]/div[1]/ul[1]/li[1]/a[1]",
    ):
        assert decide(ref, _share_links(moved), MatchConfig()).status == "accepted"
    # Without a recorded xpath there is no place in the document to compare; at the recorded
    # place, the target stayed where it was while wrappers renumbered the steps above it.
    unplaced = ref.model_copy(update={"xpath": None})
    assert decide(unplaced, far, MatchConfig()).status == "accepted"
    in_place = ref.model_copy(update={"bbox": (8.0, 3000.0, 60.0, 3017.0)})
    assert decide(in_place, far, MatchConfig()).status == "accepted"
