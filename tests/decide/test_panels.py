"""Panels shown one at a time: an answer in another dialog or tab panel than the recorded one."""

from __future__ import annotations

from resolver import MatchConfig, SemanticElementRef
from resolver.capture import ref_from_row
from resolver.decide import decide, rule
from resolver.decide.panels import panel_of
from resolver.table import CandidateTable, TableBuilder


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
    landmarks = ref.model_copy(update={"container_path": ("Account",)})
    found = decide(landmarks, _page(dialog="Discard changes?"), MatchConfig())
    assert found.rule != "refuse.other_panel"


def test_the_nearest_named_panel_above_a_row() -> None:
    table = _page("Billing", dialog="Delete file?")
    assert table.ids[panel_of(table, table.ids.index("save-Billing")) or 0] == "panel-Billing"
    assert table.ids[panel_of(table, table.ids.index("ok-Delete file?")) or 0] == "dlg-Delete file?"
    assert panel_of(table, table.ids.index("tab-Profile")) is None
