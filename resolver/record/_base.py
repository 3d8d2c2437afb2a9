"""What every recorder shares: the journal, the timeline entries, redaction and ``finish``.

A run is written as it happens. :meth:`Recorder.start` creates a journal next to the output
file (``<output>.journal``): its first line is a header (``{"kind": "recording",
"schema_version": 1, "mode", "id", "trace_id", "prefix", "created_at", "prompt", "context",
"file"}``), every
timeline entry after it is one JSON line, flushed and fsync'd before the call returns, so a
crash loses at most the entry being written. :meth:`Recorder.resume` reads a journal back
(dropping a torn last line) and carries on; :meth:`Recorder.finish` writes the recording_v1
document atomically (a temporary file, fsync'd, then ``os.replace``) and removes the journal.

Every string of every entry passes through the run's :class:`~resolver.snapshot.redact.Scrubber`
before it is written: text typed into a password, one-time-code or token field
(:func:`~resolver.snapshot.redact.is_sensitive`) is replaced by
:data:`~resolver.snapshot.redact.MASK` and remembered, and later occurrences of it (a page
echoing it) are masked too. Snapshots are SnapshotV1 documents built with ``redact=True``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar, Final, TypeVar

from ..errors import RecordingError, shorten
from ..models import SemanticElementRef
from ..snapshot import MASK, is_sensitive, to_snapshot_v1
from ..snapshot.redact import Scrubber
from ..text import json_text

__all__ = ["JOURNAL_SUFFIX", "SCHEMA_VERSION", "Recorder", "RecorderError", "read_journal"]

SCHEMA_VERSION: Final[int] = 1
DIALOG_TEXT: Final[int] = 2000
"""Characters of a dialog's message, default value and answer kept in its entry."""
JOURNAL_SUFFIX: Final[str] = ".journal"
"""The journal of ``run-agent-t1-20260101-120000.json`` is ``...-120000.json.journal``."""
_SAFE: Final[re.Pattern[str]] = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
_TEXT_ACTIONS: Final[frozenset[str]] = frozenset({"type", "change", "input", "select"})
_R = TypeVar("_R", bound="Recorder")
Clock = Callable[[], datetime]


class RecorderError(RecordingError):
    """A recorder was used out of order (an entry before ``start`` or after ``finish``,
    ``finish`` twice), or given bad input (a result for a step it never saw, a target node
    the preceding snapshot does not hold, a file name part with a path in it), or its
    journal cannot be read. Nothing is written when it is raised."""


def _iso(moment: datetime) -> str:
    """An ISO 8601 UTC timestamp with milliseconds (``2026-01-01T12:00:00.000Z``)."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _name_part(value: Any, what: str) -> str:
    """``value`` when it can be part of a file name (letters, digits, ``.``, ``_``, ``-``)."""
    if not isinstance(value, str) or not _SAFE.fullmatch(value):
        raise RecorderError(
            f"{what} {value!r} cannot be part of a file name: use 1-100 letters, digits, "
            "'.', '_' or '-', starting with a letter or digit"
        )
    return value


def _line(entry: Mapping[str, Any]) -> bytes:
    """One journal line; text that is not valid Unicode (half a character a page script
    cut: a lone surrogate) makes the line ASCII, with escapes that read back as it was."""
    return (json_text(entry, allow_nan=False) + "\n").encode("utf-8")


def _fsync_dir(folder: Path) -> None:
    """Make a rename or an unlink in ``folder`` durable (where the platform allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # Windows opens no folders
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read_journal(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
    """The header, the entries and the byte length of the intact part of a journal.

    A last line cut short (no newline, or not JSON: the entry being written when the process
    died) is left out; anything else that is not a JSON object is an error.

    Raises
    ------
    RecorderError
        The file cannot be read, has no header, or a line before the last is corrupt.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise RecorderError(f"cannot read the journal {path}: {exc.strerror or exc}") from exc
    lines = data.split(b"\n")
    good = 0
    values: list[dict[str, Any]] = []
    for number, raw in enumerate(lines[:-1], 1):  # lines[-1] has no newline: torn or empty
        try:
            value = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            if number == len(lines) - 1:
                break  # the last line, newline written but content not: torn too
            raise RecorderError(f"{Path(path).name}: line {number} is corrupt: {exc}") from exc
        if not isinstance(value, dict):
            raise RecorderError(f"{Path(path).name}: line {number} is not a JSON object")
        values.append(value)
        good += len(raw) + 1
    if not values or values[0].get("kind") != "recording":
        raise RecorderError(f"{Path(path).name}: not a recorder journal (no header line)")
    return values[0], values[1:], good


def _scrubbed(value: Any, scrubber: Scrubber) -> Any:
    """``value`` with every remembered secret masked in each string it holds."""
    if isinstance(value, str):
        return scrubber.scrub(value)
    if isinstance(value, Mapping):
        return {k: _scrubbed(v, scrubber) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_scrubbed(v, scrubber) for v in value]
    return value


def as_dict(value: Any, what: str) -> dict[str, Any]:
    """A mapping, or a pydantic model's JSON dump, as a plain dict."""
    if hasattr(value, "model_dump"):
        dumped = value.model_dump(mode="json", exclude_none=True)
        return dict(dumped)
    if isinstance(value, Mapping):
        return dict(value)
    raise RecorderError(f"{what} must be a dict or a model, got {type(value).__name__}")


def element_dict(element: Any) -> dict[str, Any] | None:
    """A recorded element (a :class:`SemanticElementRef` or its dict) as a checked dict."""
    if element is None:
        return None
    if not isinstance(element, SemanticElementRef):
        element = SemanticElementRef(**as_dict(element, "action.element"))
    return dict(element.model_dump(mode="json", exclude_none=True))


def element_is_secret(element: Mapping[str, Any] | None) -> bool:
    """Whether a recorded element is a password, one-time-code or token field, judged by the
    SnapshotV1 rules from its role, name and HTML attributes."""
    if not element:
        return False
    attrs = {k: str(v) for k, v in (element.get("attributes") or {}).items()}
    if element.get("dom_id"):
        attrs.setdefault("id", str(element["dom_id"]))
    return is_sensitive(str(element.get("role") or ""), str(element.get("name") or ""),
                        attrs=attrs)  # fmt: skip


class Recorder:
    """The journal and the timeline of one run; :class:`~resolver.record.AgentRecorder` and
    :class:`~resolver.record.HumanRecorder` add what they observe.

    Parameters
    ----------
    out_dir:
        The folder the recording (and, while it runs, its journal) is written to.
    prefix:
        The file name's first part (``<prefix>-<mode>-<trace_id>-<yyyyMMdd-HHmmss>.json``).
    clock:
        Returns the current time (an aware ``datetime``); UTC now by default.
    """

    mode: ClassVar[str] = "agent"

    def __init__(self, out_dir: str | Path, *, prefix: str = "run", clock: Clock | None = None):
        self.out_dir = Path(out_dir)
        self.prefix = _name_part(prefix, "prefix")
        self._clock: Clock = clock or (lambda: datetime.now(UTC))
        self._header: dict[str, Any] | None = None
        self._fh: Any = None
        self._finished = False
        self._scrubber = Scrubber()
        self._steps: set[str] = set()
        self._urls: list[str] = []
        self._counts = {"actions": 0, "snapshots": 0}
        self._current: str | None = None  # the snapshot the next action is taken on
        self._current_doc: Mapping[str, Any] | None = None  # and its SnapshotV1
        self._nodes: dict[str, frozenset[str]] = {}  # node IDs of each snapshot
        self._masked: dict[str, frozenset[str]] = {}  # nodes whose value a snapshot masked
        self.path: Path | None = None

    # -- the journal ---------------------------------------------------------------------

    @property
    def journal_path(self) -> Path | None:
        """Where the journal is while the run lasts (``None`` before ``start``)."""
        return None if self.path is None else self.path.with_name(self.path.name + JOURNAL_SUFFIX)

    def start(self, prompt: str | None, trace_id: str, context: Any = None) -> Path:
        """Begin the run: create the journal and write its header.

        Parameters
        ----------
        prompt:
            What the run was asked to do (the task of an agent, a note for a person).
        trace_id:
            The run's ID, part of the file name (letters, digits, ``.``, ``_``, ``-``).
        context:
            Anything JSON-serialisable about the run (model, app version, ...).

        Returns
        -------
        Path
            The journal's path.

        Raises
        ------
        RecorderError
            The run was started already, ``trace_id`` cannot be part of a file name, or a
            recording of that name exists.
        """
        if self._header is not None:
            raise RecorderError("start: the run was started already")
        trace = _name_part(trace_id, "trace_id")
        now = self._clock()
        stem = f"{self.prefix}-{self.mode}-{trace}-{now.astimezone(UTC):%Y%m%d-%H%M%S}"
        self.path = self.out_dir / f"{stem}.json"
        if self.path.exists():
            raise RecorderError(f"start: {self.path} exists already")
        header = {"kind": "recording", "schema_version": SCHEMA_VERSION, "mode": self.mode,
                  "id": stem, "trace_id": trace, "prefix": self.prefix,
                  "created_at": _iso(now), "prompt": prompt, "context": context,
                  "file": self.path.name}  # fmt: skip
        self.out_dir.mkdir(parents=True, exist_ok=True)
        journal = self.journal_path
        assert journal is not None
        try:
            self._fh = open(journal, "xb")  # noqa: SIM115 (kept open for the run)
        except FileExistsError as exc:
            raise RecorderError(f"start: the journal {journal} exists (resume it?)") from exc
        self._header = header
        self._write(header)
        _fsync_dir(self.out_dir)
        return journal

    def _write(self, entry: Mapping[str, Any]) -> None:
        try:
            data = _line(entry)
        except (TypeError, ValueError) as exc:
            raise RecorderError(f"an entry is not JSON-serialisable: {exc}") from exc
        self._fh.write(data)
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def check_open(self, what: str) -> None:
        """Raise :class:`RecorderError` (naming ``what``) unless the run is started and not
        finished."""
        self._open(what)

    def _open(self, what: str) -> None:
        if self._header is None:
            raise RecorderError(f"{what}: the run is not started (call start first)")
        if self._finished:
            raise RecorderError(f"{what}: the run is finished")

    def _append(self, kind: str, fields: Mapping[str, Any]) -> dict[str, Any]:
        """Write one timeline entry (``kind``, ``ts``, then ``fields``), secrets masked."""
        entry = {"kind": kind, "ts": _iso(self._clock()), **fields}
        clean: dict[str, Any] = _scrubbed(entry, self._scrubber)
        self._write(clean)
        self._track(clean)
        return clean

    def _track(self, entry: Mapping[str, Any]) -> None:
        """Update what later calls check and what the summary counts."""
        kind = entry.get("kind")
        url = entry.get("url")
        known = kind in ("navigation", "ax_snapshot") and isinstance(url, str) and bool(url)
        if known and isinstance(url, str) and url not in self._urls:
            self._urls.append(url)
        if kind == "navigation":
            self._current = self._current_doc = None
        elif kind == "ax_snapshot":
            sid = str(entry["snapshot_id"])
            nodes = entry.get("snapshot", {}).get("ax_tree", {}).get("nodes", [])
            self._nodes[sid] = frozenset(str(n.get("id")) for n in nodes)
            self._masked[sid] = frozenset(str(n.get("id")) for n in nodes
                                          if n.get("value") == MASK)  # fmt: skip
            self._current, self._current_doc = sid, entry.get("snapshot")
            self._counts["snapshots"] += 1
        elif kind in ("decision", "human_action"):
            self._steps.add(str(entry["step"]))
            self._counts["actions"] += 1

    # -- entries every recorder writes ---------------------------------------------------

    def navigation(self, url: str, reason: str = "navigate") -> None:
        """Record that the page changed (a ``navigation`` entry): actions after it are taken
        on a newer snapshot.

        Parameters
        ----------
        url:
            The new address.
        reason:
            Why (``"navigate"``, ``"reload"``, ``"new_tab"``, ``"back_forward"``, ...).
        """
        self._open("navigation")
        if not isinstance(url, str) or not isinstance(reason, str):
            raise RecorderError("navigation: url and reason must be strings")
        self._append("navigation", {"url": url, "reason": reason})

    def dialog(
        self,
        step: str | None,
        kind: str,
        message: str,
        answer: str,
        *,
        default_value: str = "",
        text: str | None = None,
        url: str | None = None,
    ) -> None:
        """Record a JavaScript dialog the page opened after action ``step`` and how it was
        answered (a ``dialog`` entry); texts are cut to :data:`DIALOG_TEXT` characters, and
        a prompt's answer is masked when its message asks for a secret.

        Parameters
        ----------
        step:
            The action that was running, or ``None`` before the first.
        kind:
            ``alert``, ``confirm``, ``prompt`` or ``beforeunload``.
        message, default_value:
            The dialog's message and a prompt's default value.
        answer:
            ``"accepted"`` or ``"dismissed"`` (``"elsewhere"``: something else answered).
        text:
            What an accepted prompt returned.
        url:
            The page that opened it.
        """
        self._open("dialog")
        if text is not None and is_sensitive("textbox", message):
            text = MASK
        self._append("dialog", {
            "step": step, "type": str(kind), "message": shorten(str(message), DIALOG_TEXT),
            "default_value": shorten(str(default_value), DIALOG_TEXT), "answer": str(answer),
            "text": None if text is None else shorten(str(text), DIALOG_TEXT), "url": url,
        })  # fmt: skip

    def _snapshot_entry(self, observation: Any, url: str | None) -> str:
        """Write the SnapshotV1 of ``observation`` as an ``ax_snapshot`` entry; its ID."""
        assert self._header is not None
        ts = _iso(self._clock())
        snap = to_snapshot_v1(observation, redact=True, trace_id=self._trace_id(), ts=ts)
        sid = f"s{self._counts['snapshots'] + 1}"
        self._append("ax_snapshot", {"snapshot_id": sid, "url": url or snap.get("url"),
                                     "snapshot": snap})  # fmt: skip
        return sid

    def _trace_id(self) -> str:
        assert self._header is not None
        return str(self._header.get("trace_id") or "")

    def _target(self, node: Any) -> str | None:
        """A target node (``"12"`` or ``"a11y:12"``) checked against the current snapshot."""
        if node is None:
            return None
        text = str(node).removeprefix("a11y:")
        if self._current is None:
            raise RecorderError(
                f"target_node {text!r}: there is no snapshot of the current page to name a "
                "node of (call snapshot(page) first)"
            )
        if text not in self._nodes[self._current]:
            raise RecorderError(f"target_node {text!r} is not a node of snapshot {self._current!r}")
        return text

    def _typed(self, action: dict[str, Any], node: str | None, secret: bool) -> dict[str, Any]:
        """``action`` with the text of a field that holds a secret replaced by the mask."""
        if action.get("type") not in _TEXT_ACTIONS or not action.get("text"):
            return action
        masked = self._current is not None and node in self._masked.get(self._current, ())
        if secret or masked or element_is_secret(action.get("element")):
            action = {**action, "text": self._scrubber.mask(str(action["text"]))}
        return action

    # -- the end -------------------------------------------------------------------------

    def finish(self, ended_reason: str) -> Path:
        """Write the recording_v1 document atomically and remove the journal.

        Parameters
        ----------
        ended_reason:
            Why the run ended (``"done"``, ``"error"``, ``"user_closed"``, ...).

        Returns
        -------
        Path
            The recording's path.

        Raises
        ------
        RecorderError
            The run was not started, or was finished already.
        """
        self._open("finish")
        assert self.path is not None
        journal = self.journal_path
        assert journal is not None
        self._fh.close()
        self._finished = True
        header, entries, _ = read_journal(journal)
        doc = self._document(header, entries, str(ended_reason))
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open(tmp, "wb") as out:
            out.write(json_text(doc, indent=1).encode("utf-8"))
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, self.path)
        _fsync_dir(self.out_dir)
        journal.unlink()
        _fsync_dir(self.out_dir)
        return self.path

    def _document(
        self, header: Mapping[str, Any], entries: list[dict[str, Any]], ended_reason: str
    ) -> dict[str, Any]:
        """The recording_v1 document, keys in their stable order."""
        return {
            "schema_version": SCHEMA_VERSION,
            "mode": self.mode,
            "id": header.get("id"),
            "created_at": header.get("created_at"),
            "ended_at": _iso(self._clock()),
            "prompt": header.get("prompt"),
            "context": header.get("context"),
            "timeline": entries,
            "summary": {
                "urls": list(self._urls),
                "action_count": self._counts["actions"],
                "ax_snapshot_count": self._counts["snapshots"],
                "ended_reason": ended_reason,
            },
        }

    @classmethod
    def resume(cls: type[_R], journal_path: str | Path, *, clock: Clock | None = None) -> _R:
        """Carry on a run whose process stopped before ``finish``, from its journal.

        A torn last line (the entry being written when the process died) is cut off; every
        entry before it is kept. Secrets masked before the crash stay masked in what was
        written, but the new process does not know them, so an echo of one written after
        the resume is masked only where its field is a secret field.

        Raises
        ------
        RecorderError
            The journal cannot be read, is another mode's, or is corrupt before its last line.
        """
        journal = Path(journal_path)
        header, entries, good = read_journal(journal)
        if header.get("mode") != cls.mode:
            raise RecorderError(f"{journal.name}: a {header.get('mode')!r} journal, not "
                                f"{cls.mode!r}")  # fmt: skip
        name = str(header.get("file") or journal.name.removesuffix(JOURNAL_SUFFIX))
        recorder = cls(journal.parent, prefix=str(header.get("prefix") or "run"), clock=clock)
        recorder.path = journal.parent / name
        recorder._header = header
        recorder._fh = open(journal, "r+b")  # noqa: SIM115 (kept open for the run)
        recorder._fh.truncate(good)
        recorder._fh.seek(good)
        recorder._replay(entries)
        return recorder

    def _replay(self, entries: Iterable[Mapping[str, Any]]) -> None:
        """Rebuild the run's state from the entries of a journal."""
        for entry in entries:
            self._track(entry)
