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
friendly class of the first line (win32 backend); the name is the window text, with win32
``&`` accelerator marks removed (``'&Find Next'`` -> ``'Find Next'``) and pywinauto's
``'None'`` read as empty when the spec has no title. Boxes are ``(L, T, R, B)`` screen pixels
(``coord_space="screen_px"``). ``auto_id`` fills ``automation_id``, ``class_name`` fills
``class_name``, and the spec itself is kept as ``child_window`` (what a pywinauto executor
passes to ``window.child_window(...)``). Row and executor IDs are child-index paths.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from ...errors import InvalidObservationError
from ...table import CandidateTable
from . import BuildContext, TreeFormat, TreeInput
from ._columns import Columns

_SPEC: Final[re.Pattern[str]] = re.compile(r"^[\s|]*(child_window\(.*\))\s*$")
_ARG: Final[re.Pattern[str]] = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')
_MNEMONIC: Final[re.Pattern[str]] = re.compile(r"&(.)")
_HEADER: Final[str] = "Control Identifiers:"
_UNKNOWN: Final[tuple[int, int, int]] = (-1, -1, -1)


@dataclass
class _Control:
    """One control's lines, before it becomes a row."""

    depth: int
    cls: str
    text: str
    box: tuple[float, float, float, float]
    spec: str = ""


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
    depth = prefix.count("|")
    return _Control(depth, cls.strip(), head[sep + 4 : -1], (left, top, right, bottom))


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


def build(tree: TreeInput, context: BuildContext) -> CandidateTable:
    """One row per control line; spec lines refine the control above them."""
    cols = Columns(("automation_id", "class_name", "child_window"), context.max_nodes)
    pids = cols.platform_ids
    # Controls are collected first: a spec line (role, auto_id) follows its control line.
    controls: list[_Control] = []
    for line in str(tree.data).splitlines():
        if "child_window(" in line:
            spec = _SPEC.match(line)
            if spec is not None and controls:
                controls[-1].spec = spec.group(1)
            continue
        control = _control(line) if "(L" in line else None
        if control is not None:
            controls.append(control)
            if len(controls) > context.max_nodes:
                raise InvalidObservationError(
                    f"the tree has more than {context.max_nodes} nodes; raise max_nodes to read it",
                    details={"max_nodes": context.max_nodes},
                )
    stack: list[tuple[int, int, str]] = []  # (depth, row, path)
    counts: dict[int, int] = {}  # children seen per parent row (-1: top level)
    for control in controls:
        while stack and stack[-1][0] >= control.depth:
            stack.pop()
        parent, parent_path = (stack[-1][1], stack[-1][2]) if stack else (-1, "")
        index = counts.get(parent, 0)
        counts[parent] = index + 1
        path = f"{parent_path}.{index}" if parent_path else str(index)
        args = {k: v.replace('\\"', '"') for k, v in _ARG.findall(control.spec)}
        text = control.text
        if text == "None" and "title" not in args:
            text = ""
        if "control_type" not in args and "class_name" in args:
            text = _MNEMONIC.sub(r"\1", text)  # win32 window text keeps '&' mnemonics
        role = args.get("control_type") or control.cls
        row = cols.row(path, role, text, parent, control.box, "", _UNKNOWN)
        pids["automation_id"].append(args.get("auto_id") or None)
        pids["class_name"].append(args.get("class_name") or None)
        pids["child_window"].append(control.spec or None)
        stack.append((control.depth, row, path))
    if not controls:
        raise InvalidObservationError("no control lines found in the pywinauto dump")
    return cols.build("pywinauto", "uia", coord_space="screen_px", screen_size=context.screen_size)


FORMAT = TreeFormat("pywinauto", detect, build)
