import math
from pathlib import Path

import pytest

from resolver import InvalidObservationError, Observation, resolve
from resolver.capture import ref_from_row

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "formats"

OLD_NS = (
    '<desktop xmlns:st="uri:deskat:state.at-spi.gnome.org" '
    'xmlns:cp="uri:deskat:component.at-spi.gnome.org" '
    'xmlns:win="uri:deskat:uia.windows.microsoft.org">'
    '<window name="Notepad" st:enabled="true" st:visible="true" cp:screencoord="(10, 20)" '
    'cp:size="(300, 200)" cp:windowcoord="(0, 0)">'
    '<button name="Save" st:enabled="false" st:visible="true" st:keyboard_focused="true" '
    'cp:screencoord="(20, 40)" cp:size="(60, 24)" win:class="x"/>'
    '<tag-32770 name="Replace" st:enabled="true"/>'
    "</window></desktop>"
)


def table(raw: object, **kw: object):  # type: ignore[no-untyped-def]
    return Observation(accessibility_tree=raw, **kw).candidates("a11y")  # type: ignore[arg-type]


def test_linux_fixture_roles_names_boxes_states() -> None:
    t = table((FIXTURES / "atspi" / "invoice.xml").read_bytes())
    assert t.format == "atspi" and t.coord_space == "screen_px"
    rows = {(t.roles[i], t.names[i]): i for i in range(len(t))}
    save = rows[("button", "Save")]
    assert t.raw_roles[save] == "push-button"
    assert t.bboxes[save].tolist() == [51.0, 67.0, 128.0, 103.0]
    delete = rows[("button", "Delete")]
    assert t.enabled[delete] == 0 and t.enabled[save] == 1  # Linux states: absent = not set
    name_box = rows[("textbox", "Customer name")]
    assert t.values[name_box] == "Ada Lovelace" and t.focused[name_box] == 1
    assert rows[("text", "Customer name:")] > 0  # a label is static text
    assert ("combobox", "Germany") in rows  # GTK names a combo box by its selection
    assert t.containers[save][-1] == "Main toolbar"
    assert t.executor_ids[0] == "a11y:0" and t.executor_ids[save].startswith("a11y:0.0.0.")


def test_old_namespaces_and_windows_dialect() -> None:
    t = table(OLD_NS)
    assert [t.roles[i] for i in range(len(t))] == ["desktop", "window", "button", "dialog"]
    assert t.bboxes[2].tolist() == [20.0, 40.0, 80.0, 64.0]
    assert t.enabled[2] == 0 and t.focused[2] == 1  # explicit "false" / keyboard_focused
    assert t.enabled[3] == 1 and math.isnan(t.bboxes[3][0])
    assert t.platform_ids["class_name"][2] == "button"  # Windows: the tag is the class


def test_missing_and_absurd_coordinates_are_nan() -> None:
    t = table(
        '<desktop-frame xmlns:cp="https://accessibility.ubuntu.example.org/ns/component">'
        '<label name="a" cp:screencoord="(-2147483648, -2147483648)" cp:size="(0, 0)"/>'
        '<label name="b" cp:screencoord="(1, 2)"/>'
        '<label name="c" cp:screencoord="oops" cp:size="(1, 1)"/>'
        '<label name="d" cp:screencoord="(5, 5)" cp:size="(-3, 4)"/>'
        "</desktop-frame>"
    )
    assert len(t) == 5 and all(math.isnan(t.bboxes[i][0]) for i in range(1, 5))


@pytest.mark.parametrize(
    "raw",
    [
        "<desktop-frame><frame name='x'><push-button name='y'>",  # truncated
        "<desktop-frame><frame name='x'></desktop-frame>",  # mismatched tags
        b"<desktop-frame>\xff</desktop-frame>",  # not UTF-8
    ],
)
def test_malformed_xml_is_typed(raw: object) -> None:
    with pytest.raises(InvalidObservationError):
        table(raw)


def test_max_nodes_is_enforced() -> None:
    xml = "<desktop-frame>" + "<label name='x'/>" * 50 + "</desktop-frame>"
    with pytest.raises(InvalidObservationError):
        table(xml, max_nodes=10)
    assert len(table(xml, max_nodes=51)) == 51


def test_deep_tree_is_read_without_recursion() -> None:
    depth = 200
    xml = "<desktop-frame>" + "<filler name='f'>" * depth + "</filler>" * depth + "</desktop-frame>"
    t = table(xml)
    assert len(t) == depth + 1 and int(t.depth[-1]) == depth


def _gedit(question: bool) -> str:
    """gedit (AT-SPI, as OSWorld writes it) with its "Save changes?" message box open."""
    ns = (
        'xmlns:st="https://accessibility.ubuntu.example.org/ns/state" '
        'xmlns:cp="https://accessibility.ubuntu.example.org/ns/component"'
    )

    def button(name: str, x: int, y: int, width: int = 90) -> str:
        return f'<push-button name="{name}" cp:screencoord="({x}, {y})" cp:size="({width}, 34)"/>'

    box = (
        '<alert name="Question" cp:screencoord="(300, 250)" cp:size="(420, 180)">'
        '<label name="Save changes before closing?" cp:screencoord="(320, 270)" '
        'cp:size="(380, 20)"/>' + button("Close without Saving", 320, 380, 160)
        + button("Cancel", 490, 380) + button("Save", 590, 380) + "</alert>"
    )  # fmt: skip
    return (
        f'<desktop-frame {ns} name="main"><application name="gedit">'
        '<frame name="notes (~/) - gedit" cp:screencoord="(0, 0)" cp:size="(1000, 700)">'
        + button("Save", 880, 10) + '<text name="" cp:screencoord="(0, 60)" cp:size="(1000, 640)"/>'
        "</frame>" + (box if question else "") + "</application></desktop-frame>"
    )  # fmt: skip


def test_an_alert_is_a_message_box() -> None:
    # AT-SPI's "alert" is a message box (GTK's message dialogs, a page's role=alertdialog).
    t = table(_gedit(True))
    box = t.roles.index("alertdialog")
    assert t.names[box] == "Question" and t.coord_space == "screen_px"
    save = [i for i, name in enumerate(t.names) if name == "Save"][-1]
    assert ref_from_row(t, save).panel == ("alertdialog", "Question")
    # The text field under it is clicked below it, not on the box's "Cancel".
    field = ref_from_row(table(_gedit(False)), 4)
    assert field.role == "textbox"
    assert resolve(field, Observation(accessibility_tree=_gedit(True))).point == (500.0, 565.0)
