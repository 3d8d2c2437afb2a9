"""Panels shown one at a time: an answer in another dialog or tab panel than the recorded one."""

from __future__ import annotations

from resolver import MatchConfig, SemanticElementRef
from resolver.capture import ref_from_row
from resolver.decide import decide, rule
from resolver.decide.panels import panel_closed, panel_of
from resolver.table import CandidateTable, TableBuilder

CONFIG = MatchConfig()


def _page(tab: str = "Profile", dialog: str | None = None, role: str = "dialog") -> CandidateTable:
    """An account page: two tabs, the shown tab's panel (a form with Save and Cancel) and,
    when given, a dialog asking ``dialog`` with OK and Cancel, drawn where every dialog is."""
    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Account", bbox=(0, 0, 1000, 700))
    tabs = b.add("tabs", raw_role="tablist", name="Sections", parent=root, bbox=(20, 80, 300, 100))
    for k, name in enumerate(("Profile", "Billing")):
        b.add(f"tab-{name}", raw_role="tab", name=name, parent=tabs,
              bbox=(20 + 60 * k, 80, 75 + 60 * k, 100))  # fmt: skip
    panel = b.add(f"panel-{tab}", raw_role="tabpanel", name=tab, parent=root,
                  bbox=(20, 110, 440, 200))  # fmt: skip
    b.add(f"email-{tab}", raw_role="textbox", name="Email", parent=panel, bbox=(80, 140, 300, 160))
    b.add(f"save-{tab}", raw_role="button", name="Save", parent=panel, bbox=(33, 174, 79, 195))
    b.add(f"cancel-{tab}", raw_role="button", name="Cancel", parent=panel,
          bbox=(84, 174, 141, 195))  # fmt: skip
    if dialog is not None:
        box = b.add(f"dlg-{dialog}", raw_role=role, name=dialog, parent=root,
                    bbox=(300, 120, 524, 279))  # fmt: skip
        b.add(f"ask-{dialog}", raw_role="StaticText", name=f"{dialog} It cannot be undone.",
              parent=box, bbox=(318, 206, 506, 223))  # fmt: skip
        b.add(f"ok-{dialog}", raw_role="button", name="OK", parent=box, bbox=(318, 240, 353, 261))
        b.add(f"no-{dialog}", raw_role="button", name="Cancel", parent=box,
              bbox=(358, 240, 415, 261))  # fmt: skip
    return b.build(coord_space="css_px")


def _recorded(table: CandidateTable, row_id: str) -> SemanticElementRef:
    return ref_from_row(table, table.ids.index(row_id))


def test_the_ok_of_another_dialog_is_refused_and_both_are_named() -> None:
    ref = _recorded(_page(dialog="Delete file?"), "ok-Delete file?")
    assert ref.container_path[-1] == "Delete file?"
    same = decide(ref, _page(dialog="Delete file?"), MatchConfig())
    assert same.status == "accepted" and same.best is not None
    assert same.best.id == "ok-Delete file?"
    other = decide(ref, _page(dialog="Discard changes?"), MatchConfig())
    assert other.status == "not_found" and other.rule == "refuse.other_panel"
    assert "Discard changes?" in other.reason and "Delete file?" in other.reason
    alert = decide(ref, _page(dialog="Discard changes?", role="alertdialog"), MatchConfig())
    assert alert.rule == "refuse.other_panel"
    assert rule("refuse.other_panel").absence == "gone"  # a weaker source does not overrule it


def test_the_save_of_another_tab_is_refused() -> None:
    ref = _recorded(_page("Profile"), "save-Profile")
    assert decide(ref, _page("Profile"), MatchConfig()).status == "accepted"
    found = decide(ref, _page("Billing"), MatchConfig())
    assert found.status == "not_found" and found.rule == "refuse.other_panel"
    assert "tabpanel 'Billing'" in found.reason and "'Profile'" in found.reason


def test_a_renamed_or_unrecorded_panel_keeps_the_answer() -> None:
    ref = _recorded(_page(dialog="Delete file?"), "ok-Delete file?")
    renamed = decide(ref, _page(dialog="Delete this file?"), MatchConfig())
    assert renamed.status == "accepted" and renamed.best is not None
    assert renamed.best.id == "ok-Delete this file?"
    # A name cut by its recorder's length limit stands for the whole name.
    cut = ref.model_copy(update={"container_path": ("Account", "Delete fi")})
    assert decide(cut, _page(dialog="Delete file?"), MatchConfig()).status == "accepted"
    # A recorder that took containers from landmarks only did not record the panel: nothing
    # recorded contradicts the one shown.
    landmarks = ref.model_copy(update={"container_path": ("Account",), "panel": None})
    found = decide(landmarks, _page(dialog="Discard changes?"), MatchConfig())
    assert found.rule != "refuse.other_panel"


def test_the_nearest_named_panel_above_a_row() -> None:
    table = _page("Billing", dialog="Delete file?")
    assert table.ids[panel_of(table, table.ids.index("save-Billing")) or 0] == "panel-Billing"
    assert table.ids[panel_of(table, table.ids.index("ok-Delete file?")) or 0] == "dlg-Delete file?"
    assert panel_of(table, table.ids.index("tab-Profile")) is None


def _profile(dialog: str | None = "New password", *, flat: bool = False) -> CandidateTable:
    """A profile form with its own Save and, when ``dialog`` is given, a dialog of that name
    open over it with another Save (``""``: an unnamed dialog). ``flat``: the same elements
    as a list, with no tree."""
    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Profile", bbox=(0, 0, 1200, 700))
    up = -1 if flat else root
    b.add("name", raw_role="textbox", name="Name", parent=up, bbox=(60, 80, 240, 100))
    b.add("save-page", raw_role="button", name="Save", parent=up, bbox=(248, 80, 295, 101))
    if dialog is not None:
        box = b.add("dlg", raw_role="dialog", name=dialog, parent=up, bbox=(401, 276, 799, 424))
        under = -1 if flat else box
        b.add("pw", raw_role="textbox", name="Password", parent=under, bbox=(480, 330, 660, 350))
        b.add("save-dlg", raw_role="button", name="Save", parent=under,
              bbox=(676, 363, 723, 384))  # fmt: skip
    return b.build(coord_space="css_px")


def _saved(panel: tuple[str, str] | None = ("dialog", "New password")) -> SemanticElementRef:
    """The dialog's Save as a page's click event records it: no look-alikes (the page beneath
    a modal dialog is hidden), the dialog's name as its container."""
    return SemanticElementRef(role="button", name="Save", bbox=(676, 363, 723, 384),
                              container_path=("New password",), panel=panel)  # fmt: skip


def test_a_closed_dialogs_save_is_refused_not_the_pages_clicked() -> None:
    assert _recorded(_profile(), "save-dlg").panel == ("dialog", "New password")
    assert _recorded(_profile(), "save-page").panel is None
    ref = _saved()
    shown = decide(ref, _profile(), MatchConfig())
    assert shown.status == "accepted" and shown.best is not None and shown.best.id == "save-dlg"
    closed = decide(ref, _profile(None), MatchConfig())
    assert closed.status == "not_found" and closed.rule == "refuse.panel_closed"
    assert "'New password'" in closed.reason and "no dialog, tab panel" in closed.reason
    assert rule("refuse.panel_closed").absence == "gone"
    # Without the recorded panel the page's own Save was clicked.
    before = decide(_saved(None), _profile(None), MatchConfig())
    assert before.status == "accepted" and before.best is not None
    assert before.best.id == "save-page"


def test_a_panel_of_another_name_is_refused_a_renamed_or_unnamed_one_kept() -> None:
    ref = _saved().model_copy(update={"container_path": ()})
    other = decide(ref, _profile("Unsaved changes"), MatchConfig())
    assert other.status == "not_found" and other.rule == "refuse.panel_closed"
    assert "'Unsaved changes'" in other.reason
    renamed = decide(ref, _profile("Choose a new password"), MatchConfig())
    assert renamed.status == "accepted" and renamed.best is not None
    assert renamed.best.id == "save-dlg"
    unnamed = decide(ref, _profile(""), MatchConfig())
    assert unnamed.status == "accepted"
    # An unnamed dialog recorded: any dialog will do, none is refused.
    anonymous = _saved(("dialog", "")).model_copy(update={"container_path": ()})
    assert decide(anonymous, _profile("Unsaved changes"), MatchConfig()).status == "accepted"
    gone = decide(anonymous, _profile(None), MatchConfig())
    assert gone.rule == "refuse.panel_closed" and "a dialog" in gone.reason


def test_no_tree_or_no_panel_role_says_nothing_of_panels() -> None:
    ref = _saved()
    flat = decide(ref, _profile(None, flat=True), MatchConfig())
    assert flat.status == "accepted" and flat.rule != "refuse.panel_closed"
    grouped = ref.model_copy(update={"panel": ("group", "New password")})
    assert decide(grouped, _profile(None), MatchConfig()).status == "accepted"
    assert panel_closed.__doc__ is not None and "refuse.panel_closed" in panel_closed.__doc__


def _sections(shown: str) -> CandidateTable:
    """Two disclosure sections (``<details>``), the ``shown`` one open: its Street field and
    Apply button; the closed one shows its summary only."""
    b = TableBuilder("a11y", "test")
    root = b.add("doc", raw_role="RootWebArea", name="Account", bbox=(0, 0, 1000, 700))
    for k, title in enumerate(("Shipping address", "Invoice address")):
        top = 100 + 40 * k
        group = b.add(f"sec-{title}", raw_role="group", parent=root, bbox=(8, top, 428, top + 30))
        b.add(f"sum-{title}", raw_role="DisclosureTriangle", name=title, parent=group,
              bbox=(8, top, 428, top + 20))  # fmt: skip
        if title == shown:
            b.add(f"street-{title}", raw_role="textbox", name="Street", parent=group,
                  bbox=(60, 210, 240, 230))  # fmt: skip
            b.add(f"apply-{title}", raw_role="button", name="Apply", parent=group,
                  bbox=(250, 210, 300, 231))  # fmt: skip
    return b.build(coord_space="css_px")


def test_the_apply_of_another_open_section_is_refused() -> None:
    ref = _recorded(_sections("Shipping address"), "apply-Shipping address")
    assert ref.panel == ("details", "Shipping address")
    assert ref.container_path == ("Account",)  # an unnamed group adds no container
    event = SemanticElementRef(role="button", name="Apply", bbox=(250, 210, 300, 231),
                               container_path=("Account",), panel=ref.panel)  # fmt: skip
    same = decide(event, _sections("Shipping address"), MatchConfig())
    assert same.status == "accepted" and same.best is not None
    other = decide(event, _sections("Invoice address"), MatchConfig())
    assert other.status == "not_found" and other.rule == "refuse.panel_closed"
    assert "section 'Shipping address'" in other.reason
    assert "section 'Invoice address'" in other.reason
    # Without the recorded section the other section's Apply was clicked.
    before = decide(event.model_copy(update={"panel": None}), _sections("Invoice address"),
                    MatchConfig())  # fmt: skip
    assert before.status == "accepted"


def _notepad(dialog: bool, field: tuple[float, float, float, float]) -> CandidateTable:
    """Notepad (screen pixels) with a text field, and a message box over it when asked."""
    b = TableBuilder("a11y", "test")
    main = b.add("main", raw_role="window", name="Untitled - Notepad", bbox=(0, 0, 800, 600))
    b.add("edit", raw_role="textbox", name="Text Editor", parent=main, bbox=field)
    if dialog:
        box = b.add("dlg", raw_role="dialog", name="Confirm Save As", parent=main,
                    bbox=(300, 220, 660, 360))  # fmt: skip
        b.add("yes", raw_role="button", name="Yes", parent=box, bbox=(400, 320, 470, 345))
    return b.build(coord_space="screen_px")


def test_a_field_wholly_under_a_dialog_is_refused_one_beside_it_kept() -> None:
    small = (350.0, 250.0, 550.0, 270.0)
    ref = ref_from_row(_notepad(False, small), 1)
    assert decide(ref, _notepad(False, small), CONFIG).status == "accepted"
    under = decide(ref, _notepad(True, small), CONFIG)
    assert (under.status, under.rule) == ("not_found", "refuse.under_dialog")
    assert "Confirm Save As" in under.reason
    big = (0.0, 50.0, 800.0, 600.0)  # partly under it: a click beside the dialog lands
    assert decide(ref_from_row(_notepad(False, big), 1), _notepad(True, big), CONFIG).status == (
        "accepted"
    )
    # A looser size for the part beside it does not save the small field.
    assert decide(ref, _notepad(True, small), MatchConfig(clear_px=1.0)).status == "not_found"
