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
from typing import Any, Final

from ...errors import InvalidObservationError
from ...table import CandidateTable, TableBuilder
from . import BuildContext, TreeFormat, TreeInput

_SPEC: Final[re.Pattern[str]] = re.compile(r"^[\s|]*(child_window\(.*\))\s*$")
_ARG: Final[re.Pattern[str]] = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')
_MNEMONIC: Final[re.Pattern[str]] = re.compile(r"&(.)")
_HEADER: Final[str] = "Control Identifiers:"
_UNKNOWN: Final[tuple[int, int, int]] = (-1, -1, -1)

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


def build(tree: TreeInput, context: BuildContext) -> CandidateTable:
    """One row per control line; a spec line refines the control above it."""
    max_nodes = context.max_nodes
    ids: list[str] = []
    raw_roles: list[str] = []
    names: list[str] = []
    parents: list[int] = []
    boxes: list[tuple[float, float, float, float]] = []
    automation_ids: list[str | None] = []
    class_names: list[str | None] = []
    specs: list[str | None] = []
    # Open controls, innermost last: [depth, row, path, children seen so far].
    stack: list[list[Any]] = []
    roots = 0
    cls = text = ""  # the last control's class and window text, which its spec refines
    fast_control, fast_spec, mnemonic = _FAST_CONTROL.match, _FAST_SPEC.match, _MNEMONIC.sub
    for line in str(tree.data).splitlines():
        if "child_window(" in line:
            if not ids:
                continue
            found = fast_spec(line)
            if found is not None:
                spec, title, class_name, auto_id, control_type = found.groups()
            else:
                general = _SPEC.match(line)
                if general is None:
                    continue
                spec = general.group(1)
                title, class_name, auto_id, control_type = _keys(spec)
            name = text
            if title is None and name == "None":
                name = ""
            if control_type is None and class_name is not None and "&" in name:
                name = mnemonic(r"\1", name)  # win32 window text keeps '&' mnemonics
            names[-1] = name
            raw_roles[-1] = control_type or cls
            automation_ids[-1] = auto_id or None
            class_names[-1] = class_name or None
            specs[-1] = spec
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
        row = len(ids)
        if row >= max_nodes:
            raise InvalidObservationError(
                f"the tree has more than {max_nodes} nodes; raise max_nodes to read it",
                details={"max_nodes": max_nodes},
            )
        while stack and stack[-1][0] >= depth:
            stack.pop()
        if stack:
            open_control = stack[-1]
            index = open_control[3]
            open_control[3] = index + 1
            parent = open_control[1]
            path = f"{open_control[2]}.{index}"
        else:
            parent = -1
            path = str(roots)
            roots += 1
        ids.append(path)
        raw_roles.append(cls)
        names.append("" if text == "None" else text)  # until a spec gives a title
        parents.append(parent)
        boxes.append(box)
        automation_ids.append(None)
        class_names.append(None)
        specs.append(None)
        stack.append([depth, row, path, 0])
    if not ids:
        raise InvalidObservationError("no control lines found in the pywinauto dump")
    n = len(ids)
    builder = TableBuilder(
        "a11y", "pywinauto", platform="uia",
        id_columns=("automation_id", "class_name", "child_window"), max_rows=max_nodes,
    )  # fmt: skip
    builder.extend(
        ids=ids,
        raw_roles=raw_roles,
        names=names,
        parents=parents,
        boxes=boxes,
        values=[""] * n,
        states=[_UNKNOWN] * n,
        platform_ids={
            "automation_id": automation_ids,
            "class_name": class_names,
            "child_window": specs,
        },
    )
    return builder.build(coord_space="screen_px", screen_size=context.screen_size)


FORMAT = TreeFormat("pywinauto", detect, build)
