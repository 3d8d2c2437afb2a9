"""pywinauto ``print_control_identifiers()`` / ``dump_tree()`` text.

Input: text (``TreeInput("text", ...)``), optionally starting with ``Control Identifiers:``.
Each control takes up to three lines, indented by one ``"   | "`` per level below the top::

    Dialog - 'Replace'    (L179, T174, R657, B409)
    ['ReplaceDialog', 'Dialog', 'Replace']
    child_window(title="Replace", class_name="#32770")
       |
       | Edit - 'Folder name:'    (L790, T596, R1036, B619)
       | ['3', 'Edit', 'Edit1', 'Edit0']
       | child_window(title="Folder name:", auto_id="13156", control_type="Edit")

The depth is the number of ``|`` before the control line (so tabs or stray spaces in pasted
dumps do not matter). The role is the ``control_type`` of the spec line (UIA backend) or the
friendly class of the first line (win32 backend), except that a window is a dialog only
when its ``class_name`` is the Win32 dialog class ``#32770`` (pywinauto calls every
top-level window ``Dialog``: Notepad's main window too); the name is the window text, with win32
``&`` accelerator marks removed (``'&Find Next'`` -> ``'Find Next'``) and pywinauto's
``'None'`` read as empty when the spec has no title. Boxes are ``(L, T, R, B)`` screen pixels
(``coord_space="screen_px"``). ``auto_id`` fills ``automation_id``, ``class_name`` fills
``class_name``, and the spec itself is kept as ``child_window`` (what a pywinauto executor
passes to ``window.child_window(...)``). Row and executor IDs are child-index paths.
"""

from __future__ import annotations

import re
from typing import Final

from ...errors import InvalidObservationError
from ...geometry import CoordSpace
from ...roles import WINDOW_SPELLINGS, windows_window_role
from ...table import NO_STATE, CandidateTable, TableBuilder
from . import SourceInput, TreeFormat, TreeInput
from ._walk import Outline

_SPEC: Final[re.Pattern[str]] = re.compile(r"^[\s|]*(child_window\(.*\))\s*$")
_ARG: Final[re.Pattern[str]] = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')
_MNEMONIC: Final[re.Pattern[str]] = re.compile(r"&(.)")
_HEADER: Final[str] = "Control Identifiers:"

# The lines pywinauto itself prints, read by one regex each; any other line takes the general
# path (_control, _SPEC and _ARG), which gives the same result on these. A fast control line
# has no "(" in its text, so "(L" is the box; a fast spec has its keys in pywinauto's order
# with no quote or backslash in a value, so its _ARG pairs are exactly the groups.
_FAST_CONTROL: Final[re.Pattern[str]] = re.compile(
    r"([ \t|]*)([A-Za-z]\w*) - '([^()]*)' *\(L(-?\d+), T(-?\d+), R(-?\d+), B(-?\d+)\) *\Z"
)
_FAST_VALUE: Final[str] = r'"([^"\\]*)"(?:, (?!\)))?'
_FAST_SPEC: Final[re.Pattern[str]] = re.compile(
    rf"[ \t|]*(child_window\((?:title={_FAST_VALUE})?(?:class_name={_FAST_VALUE})?"
    rf"(?:auto_id={_FAST_VALUE})?(?:control_type={_FAST_VALUE})?\)) *\Z"
)

# One control line: depth, class, window text, (left, top, right, bottom).
_Control = tuple[int, str, str, tuple[float, float, float, float]]


def _control(line: str) -> _Control | None:
    """Read a ``Class - 'text'    (L.., T.., R.., B..)`` line (plain string work, no regex)."""
    line = line.rstrip()
    open_at = line.rfind("(L")
    if open_at < 0 or not line.endswith(")"):
        return None
    parts = line[open_at + 1 : -1].split(",")
    head = line[:open_at].rstrip()
    sep = head.find(" - '")
    if len(parts) != 4 or sep < 0 or not head.endswith("'"):
        return None
    try:
        left, top, right, bottom = (float(p.strip()[1:]) for p in parts)
    except ValueError:
        return None
    prefix = head[:sep]
    cls = prefix.lstrip(" \t|")
    if not cls or not cls[0].isalpha():
        return None
    return (prefix.count("|"), cls.strip(), head[sep + 4 : -1], (left, top, right, bottom))


def _keys(spec: str) -> tuple[str | None, str | None, str | None, str | None]:
    """``title``, ``class_name``, ``auto_id`` and ``control_type`` of a ``child_window(...)``
    spec (``None`` where absent), escapes undone."""
    args = {k: v.replace('\\"', '"') for k, v in _ARG.findall(spec)}
    get = args.get
    return (get("title"), get("class_name"), get("auto_id"), get("control_type"))


def detect(tree: TreeInput) -> bool:
    """Text whose first line is ``Control Identifiers:`` or a ``Class - 'text'  (L.., ..)``."""
    if tree.kind != "text" or not isinstance(tree.data, str):
        return False
    for line in tree.data.splitlines()[:5]:
        stripped = line.strip()
        if not stripped:
            continue
        return stripped == _HEADER or _control(line) is not None
    return False


def _general_spec(line: str) -> tuple[str, str | None, str | None, str | None, str | None] | None:
    """``(spec, title, class_name, auto_id, control_type)`` of a spec line that the fast
    pattern does not read; ``None`` when it is no spec."""
    general = _SPEC.match(line)
    if general is None:
        return None
    spec = general.group(1)
    return (spec, *_keys(spec))


def build(tree: TreeInput, source: SourceInput) -> CandidateTable:
    """One row per control line; a spec line completes the row of the control above it."""
    builder = TableBuilder(
        "a11y", "pywinauto", platform="uia",
        id_columns=("automation_id", "class_name", "child_window"), max_rows=source.max_nodes,
    )  # fmt: skip
    rows = builder.rows
    outline = Outline(builder)
    cls = text = ""  # the last control's class and window text, which its spec refines
    fast_control, fast_spec = _FAST_CONTROL.match, _FAST_SPEC.match
    for line in str(tree.data).splitlines():
        if "child_window(" in line:
            if not rows:
                continue
            found = fast_spec(line)
            read = found.groups() if found is not None else _general_spec(line)
            if read is None:
                continue
            spec, title, class_name, auto_id, control_type = read
            name = text
            if title is None and name == "None":
                name = ""
            elif control_type is None and class_name is not None and "&" in name:
                name = _MNEMONIC.sub(r"\1", name)  # win32 window text keeps '&' mnemonics
            role = control_type or cls
            if role in WINDOW_SPELLINGS:  # pywinauto calls every top-level window "Dialog"
                role = windows_window_role(role, class_name, False)
            last = rows[-1]
            rows[-1] = (
                last[0], role, name, last[3], last[4], "", NO_STATE,
                auto_id or None, class_name or None, spec,
            )  # fmt: skip
            continue
        if "(L" not in line:
            continue
        fast = fast_control(line)
        if fast is not None:
            prefix, cls, text, left, top, right, bottom = fast.groups()
            depth = prefix.count("|")
            box = (float(left), float(top), float(right), float(bottom))
        else:
            control = _control(line)
            if control is None:
                continue
            depth, cls, text, box = control
        parent, path = outline.place(depth)
        name = "" if text == "None" else text  # until a spec gives a title
        rows.append((path, cls, name, parent, box, "", NO_STATE, None, None, None))
    if not rows:
        raise InvalidObservationError("no control lines found in the pywinauto dump")
    return builder.build(coord_space=CoordSpace.SCREEN_PX, screen_size=source.screen_size)


FORMAT = TreeFormat("pywinauto", detect, build)
