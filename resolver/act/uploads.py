"""Files put into a page's file field: ``{"action": "upload", "target": T, "files": [...]}``.

A target that is an ``<input type=file>`` gets the files at once (CDP's
``DOM.setFileInputFiles``; the page sees ``input`` and ``change`` as after a person's
choice). Any other target (most sites draw a button and hide the field) is clicked with the
tab's file chooser intercepted (``Page.setInterceptFileChooserDialog``): the field the
chooser opened for gets the files. A click that opens no chooser within
:data:`CHOOSER_WAIT_MS` is refused, as is a disabled field and several files for a field
that takes one; an empty list empties a file field (its value cleared, ``input`` and
``change`` sent) and is refused for any other target.

Paths name files on the machine the browser runs on. A session's ``upload_root`` confines
them (a server's ``--upload-dir``: paths relative to it, never outside it, links followed
before the check); a session with ``uploads`` off refuses every upload (a server started
without ``--upload-dir``: an agent must not send the page any file of the machine).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from ..errors import ElementNotInteractableError, InvalidTargetError

__all__ = ["CHOOSER_WAIT_MS", "EMPTY_FIELD_JS", "FILE_FIELD_JS", "through_chooser", "upload_paths"]

CHOOSER_WAIT_MS: Final[int] = 2000
"""How long a click is given to open a file chooser, at most."""
_STEP_MS: Final[int] = 20
FILE_FIELD_JS: Final[str] = r"""function () {
  const file = this.localName === "input" && this.type === "file";
  return {file, multiple: file && this.multiple, disabled: file && this.matches(":disabled")};
}"""
"""What the target is (called on its node): a file field, taking several files, disabled."""
EMPTY_FIELD_JS: Final[str] = r"""function () {
  this.value = "";
  this.dispatchEvent(new Event("input", {bubbles: true}));
  this.dispatchEvent(new Event("change", {bubbles: true}));
  return true;
}"""
"""Empties a file field (called on its node) as a person's emptied choice would."""


def upload_paths(files: Sequence[str], *, allowed: bool, root: Path | None) -> list[str]:
    """The absolute paths of ``files``, each an existing regular file.

    Raises
    ------
    InvalidTargetError
        Uploads are off, a path leaves ``root`` (or is absolute where a root is set), or
        names no file.
    """
    if not allowed:
        raise InvalidTargetError(
            "uploads are off for this page: a server takes files only from the folder it was "
            "started with (--upload-dir)"
        )
    out = []
    for given in files:
        try:
            full = _resolved(given, root)
            found = full.is_file()
        except (OSError, ValueError, RuntimeError) as exc:  # (a NUL, too long, no home)
            raise InvalidTargetError(f"no file at {given!r:.200}: {exc}") from None
        if not found:
            raise InvalidTargetError(f"no file at {given!r:.200}")
        out.append(str(full))
    return out


def _resolved(given: str, root: Path | None) -> Path:
    """``given`` made absolute, links followed: inside ``root`` when one is set."""
    path = Path(given)
    if root is None:
        return path.expanduser().resolve()
    base = root.resolve()
    if path.is_absolute():
        raise InvalidTargetError(f"{given!r:.200}: give a path inside the upload folder")
    full = (base / path).resolve()
    if not full.is_relative_to(base):
        raise InvalidTargetError(f"{given!r:.200} is outside the upload folder")
    return full


def through_chooser(
    page: Any, click: Callable[[], None], wait_ms: int = CHOOSER_WAIT_MS, *, cdp: Any = None
) -> Any:
    """Run ``click`` with the file chooser intercepted on ``cdp`` (the CDP session of the
    frame the control is in, whose target opens the chooser: the tab's by default); CDP's
    ``Page.fileChooserOpened`` parameters (``backendNodeId``, ``mode``) of the chooser it
    opened, a node of that session.

    Raises
    ------
    ElementNotInteractableError
        No chooser opened within ``wait_ms``.
    """
    from ..integrations.cdp import _session

    cdp = _session(page) if cdp is None else cdp
    events = getattr(cdp, "session", cdp)  # (a Bounded session's events are its session's)
    opened: list[Any] = []

    def heard(params: Any = None) -> None:
        opened.append(params)

    events.on("Page.fileChooserOpened", heard)
    try:
        cdp.send("Page.enable")
        cdp.send("Page.setInterceptFileChooserDialog", {"enabled": True})
        click()
        waited = 0
        while not opened and waited < wait_ms:
            page.wait_for_timeout(_STEP_MS)
            waited += _STEP_MS
    finally:
        with contextlib.suppress(Exception):  # (a page closed by the click)
            cdp.send("Page.setInterceptFileChooserDialog", {"enabled": False})
        with contextlib.suppress(Exception):
            events.remove_listener("Page.fileChooserOpened", heard)
    if not opened or not isinstance(opened[0], dict):
        raise ElementNotInteractableError(
            f"clicking it opened no file chooser within {wait_ms} ms: not an upload control"
        )
    return opened[0]
