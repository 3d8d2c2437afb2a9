"""Heal a recording: resolve every step again on the current site and record the element
found there, so the recording keeps working after the page changed.

The "current site" is the snapshot a replay resolves the step against (``against``:
``"last"`` by default here, the recording's newest snapshot; ``"next"``, ``"preceding"``,
or one snapshot file given as ``observation``). A step that resolves there gets the
reference recorded from the element found (:func:`resolver.capture.ref_from_row`, merged
with the old reference by :func:`resolver.capture.complete.merge_ref`, so a platform ID the
page does not show is kept); a step that is refused keeps its element, and both are marked
with a ``heal`` field in the healed copy. The copy has the input's format and file name and
is written to ``out_dir`` with ``heal-report.json`` and ``heal-report.md``; the input is
never written.

>>> from resolver.replay.heal import heal_recording
>>> report = heal_recording("rec.json", out_dir="healed")  # doctest: +SKIP
>>> report.counts()  # doctest: +SKIP
{'steps': 12, 'healed': 11, 'changed': 3, 'refused': 1, 'skipped': 0}
"""

from __future__ import annotations

import copy
import dataclasses
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PureWindowsPath
from typing import Any, Final

from ..capture.complete import TABLE_SOURCES, answer_row, merge_ref
from ..capture.rows import ref_from_row
from ..chain import _coerce_ref, resolve
from ..errors import ResolutionError
from ..limits import DEFAULT_LIMITS, Limits
from ..models import SemanticElementRef
from ..observation import Observation
from ..text import json_text, valid_unicode
from .model import Against, Recording, ReplayError, ReplayOptions, Step
from .recording import _load, read_recording
from .run import _completed, _Observations, _target_snapshot, _verdict
from .sources import HEAL_REPORT

__all__ = [
    "HealReport",
    "HealedStep",
    "heal_one",
    "heal_recording",
    "write_healed",
    "write_reports",
]

REPORT_JSON: Final[str] = HEAL_REPORT
REPORT_MD: Final[str] = "heal-report.md"
_SHOWN_FIELDS: Final[tuple[str, ...]] = (
    "role", "name", "container_path", "occurrence", "xpath", "css_selector", "test_id",
    "automation_id", "accessibility_id", "href",
)  # fmt: skip
"""Fields whose change the report names (a box or the anchors change with any layout)."""


@dataclass(frozen=True)
class HealedStep:
    """What healing did to one step.

    ``status`` is ``"healed"`` (resolved on the current snapshot; its element is the one
    recorded there), ``"refused"`` (the resolver refused: ``code`` and ``message`` say why;
    the old element is kept) or ``"skipped"`` (no snapshot to resolve against).
    ``changed`` maps the fields whose value differs in the healed element to ``[old, new]``;
    ``verdict`` judges the answer as a replay does, where the recording knows the right node
    on that snapshot (``correct``, ``wrong``, ``rejected``, ``false_hit``, ...).
    """

    step: str
    index: int
    status: str
    snapshot: str | None
    answer: str | None = None
    source: str | None = None
    rule: str | None = None
    confidence: float | None = None
    score: float | None = None
    margin: float | None = None
    code: str | None = None
    message: str | None = None
    changed: dict[str, list[Any]] = field(default_factory=dict)
    verdict: str | None = None  # against the recording's expected node there, as a replay
    element: dict[str, Any] | None = None  # the healed element (None unless healed)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view (without the healed element, which is in the healed copy)."""
        out = dataclasses.asdict(self)
        del out["element"]
        return out

    def mark(self) -> dict[str, Any]:
        """The ``heal`` field the step's entry gets in the healed copy."""
        keys = ("status", "snapshot", "rule", "confidence", "code", "message")
        mark = {k: getattr(self, k) for k in keys if getattr(self, k) is not None}
        if self.changed:
            mark["changed"] = sorted(self.changed)
        return mark


@dataclass
class HealReport:
    """What :func:`heal_recording` did to one recording."""

    recording: str
    output: str | None
    against: str
    sources: tuple[str, ...]
    steps: list[HealedStep]
    untargeted: int = 0

    def counts(self) -> dict[str, int]:
        """Steps, healed, changed (healed with another role, name or ID), refused, skipped,
        and wrong (healed onto a node the recording says is not the element)."""
        status = [s.status for s in self.steps]
        return {
            "steps": len(self.steps),
            "healed": status.count("healed"),
            "changed": sum(1 for s in self.steps if s.status == "healed" and _named(s)),
            "refused": status.count("refused"),
            "skipped": status.count("skipped"),
            "wrong": sum(1 for s in self.steps if s.verdict in ("wrong", "false_hit")),
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view: the recording, the output, the counts and every step."""
        return {
            "recording": self.recording,
            "output": self.output,
            "against": self.against,
            "sources": list(self.sources),
            "untargeted": self.untargeted,
            "counts": self.counts(),
            "steps": [s.to_dict() for s in self.steps],
        }

    def to_markdown(self) -> str:
        """A readable report: counts, then a table of every step."""
        c = self.counts()
        lines = [
            f"# Heal report: {_md(Path(self.recording).name)}",
            "",
            f"Resolved against: {self.against} · sources: {', '.join(self.sources)}",
            f"Healed copy: {_md(self.output or '(not written)')}",
            "",
            f"{c['steps']} steps: {c['healed']} healed ({c['changed']} with a changed name, "
            f"role or ID), {c['refused']} refused, {c['skipped']} skipped; {c['wrong']} judged "
            "wrong where the recording knows the right node.",
            "",
            "| step | status | snapshot | rule | confidence | code | verdict | changed |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for s in self.steps:
            conf = "" if s.confidence is None else f"{s.confidence:.3f}"
            lines.append(
                f"| {_md(s.step)} | {s.status} | {_md(s.snapshot or '')} | {_md(s.rule or '')} "
                f"| {conf} | {_md(s.code or '')} | {s.verdict or ''} | {_md(_change_text(s))} |"
            )
        refused = [s for s in self.steps if s.status != "healed" and s.message]
        if refused:
            lines += ["", "## Refused", ""]
            lines += [f"- step {_md(s.step)} ({s.code}): {_md(s.message or '')}" for s in refused]
        return "\n".join(lines) + "\n"


def _named(step: HealedStep) -> bool:
    return any(k in step.changed for k in ("role", "name", "xpath", "css_selector", "test_id"))


def _change_text(step: HealedStep) -> str:
    parts = []
    for key in ("role", "name"):
        if key in step.changed:
            old, new = step.changed[key]
            parts.append(f"{key}: {old!r} → {new!r}")
    others = sorted(k for k in step.changed if k not in ("role", "name"))
    if others:
        parts.append(", ".join(others))
    return "; ".join(parts)


def _md(text: str) -> str:
    """Text safe in a Markdown table cell (one line, no pipes)."""
    return " ".join(str(text).split()).replace("|", "\\|")[:200]


def _dump(ref: SemanticElementRef) -> dict[str, Any]:
    dumped: dict[str, Any] = ref.model_dump(mode="json", exclude_none=True)
    return dumped


def _changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, list[Any]]:
    """``[old, new]`` for every shown field whose value differs."""
    return {
        key: [old.get(key), new.get(key)]
        for key in _SHOWN_FIELDS
        if old.get(key) != new.get(key) and (old.get(key) or new.get(key))
    }


def _heal_step(
    step: Step, sid: str | None, obs: Observation | None, options: ReplayOptions
) -> HealedStep:
    """Resolve one step on its current snapshot and record the element found there."""
    base: dict[str, Any] = {"step": step.step, "index": step.index, "snapshot": sid}
    if sid is None or obs is None:
        message = "no snapshot to resolve the step against"
        return HealedStep(status="skipped", code="NO_SNAPSHOT", message=message, **base)
    resolve_options = {**options.resolve_options(), "coords_fallback": "never"}
    try:
        old = _coerce_ref(step.ref)
        found = resolve(old, obs, **resolve_options)
        if found.source not in TABLE_SOURCES:
            return HealedStep(status="refused", code="NO_ELEMENT", answer=found.executor_id,
                              message=f"{found.source} answers a point, not an element",
                              **base)  # fmt: skip
        table = obs.candidates(found.source)
        fresh = merge_ref(ref_from_row(table, answer_row(table, found)), old)
    except ResolutionError as exc:
        return HealedStep(status="refused", code=exc.code.value, message=exc.message,
                          rule=exc.evidence.rule or None, **base)  # fmt: skip
    except ValueError as exc:  # a reference the model rejects
        return HealedStep(status="refused", code="INVALID_REFERENCE", message=str(exc), **base)
    element = _dump(fresh)
    return HealedStep(
        status="healed", answer=found.executor_id, source=found.source,
        rule=found.rule or None, confidence=round(found.confidence, 4),
        score=round(found.score, 4), margin=round(found.margin, 4),
        changed=_changes(_dump(old), element), element=element, **base,
    )  # fmt: skip


def _heal_steps(recording: Recording, options: ReplayOptions) -> list[HealedStep]:
    override = None
    if options.observation is not None:
        override = Observation(accessibility_tree=Path(options.observation), limits=options.limits)
    observations = _Observations(recording, override, options)
    healed = []
    for step in recording.steps:
        sid = _target_snapshot(recording, step, options)
        obs = None if sid is None else observations.get(sid)
        if options.complete:
            step, _ = _completed(step, observations, options)
        done = _heal_step(step, sid, obs, options)
        if sid is not None:
            expected = step.expected.get(sid)
            done = dataclasses.replace(done, verdict=_verdict(done.answer, expected))
        healed.append(done)
    return healed


def _set_element(entry: dict[str, Any], element: dict[str, Any], openadapt: bool) -> None:
    """Replace the entry's element where the reader took it from (``target``, then
    ``action.element``, then ``element``)."""
    if openadapt:
        entry["element"] = element
        return
    action = entry.get("action")
    if isinstance(entry.get("target"), Mapping) and entry["target"]:
        entry["target"] = element
    elif isinstance(action, dict) and isinstance(action.get("element"), Mapping):
        action["element"] = element
    else:
        entry["element"] = element


def _entry_of(entries: list[dict[str, Any]], step: HealedStep, openadapt: bool) -> dict[str, Any]:
    """The raw entry (or openadapt line) a step was read from."""
    position = int(step.step) - 1 if openadapt else step.index
    return entries[position]


def _copy_snapshot_files(entries: Sequence[Mapping[str, Any]], src: Path, out: Path) -> None:
    """Copy the snapshot files the timeline names (relative to the recording) beside the copy."""
    for entry in entries:
        file = entry.get("file")
        if entry.get("kind") != "ax_snapshot" or "snapshot" in entry or not isinstance(file, str):
            continue
        named = PureWindowsPath(file)
        if named.anchor or ".." in named.parts:
            continue  # the reader refuses it anyway
        target = out / file
        if (src / file).is_file() and (src / file).resolve() != target.resolve():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src / file, target)


def write_healed(
    path: Path,
    recording: Recording,
    steps: Sequence[HealedStep],
    out_dir: Path,
    *,
    limits: Limits = DEFAULT_LIMITS,
) -> Path:
    """Write the healed copy of the recording at ``path`` into ``out_dir`` (same file name
    and format; snapshot files it names copied beside it) and return its path.

    Raises
    ------
    ReplayError
        The copy would be the input file itself.
    RecordingError
        The input cannot be read again.
    """
    target = out_dir / path.name
    if target.resolve() == path.resolve():
        raise ReplayError(f"{path}: the healed copy would overwrite the input; choose another "
                          "output folder")  # fmt: skip
    header, named = _load(path, limits)
    entries = [copy.deepcopy(dict(entry)) for _, entry in named]
    openadapt = recording.fmt == "openadapt_jsonl"
    for step in steps:
        entry = _entry_of(entries, step, openadapt)
        if step.element is not None:
            _set_element(entry, step.element, openadapt)
        entry["heal"] = step.mark()
    out_dir.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".jsonl":
        lines = ([dict(header)] if header else []) + entries
        text = "".join(json_text(line) + "\n" for line in lines)
    else:
        text = json_text({**header, "timeline": entries}) + "\n"
    target.write_text(text, encoding="utf-8")
    _copy_snapshot_files(entries, path.parent, out_dir)
    return target


def heal_recording(
    path: str | Path,
    *,
    out_dir: str | Path,
    against: Against | None = None,
    sources: Sequence[str] | None = None,
    observation: str | Path | None = None,
    options: ReplayOptions | None = None,
) -> HealReport:
    """Resolve every step of a recording on the current site and write a healed copy.

    Parameters
    ----------
    path:
        A recording_v1 file (``.json`` or ``.jsonl``) or an openadapt-style JSONL file.
    out_dir:
        Where the healed copy (same file name) and ``heal-report.json`` / ``heal-report.md``
        are written (created if needed). It must not be the input's folder.
    against:
        The snapshot each step is healed on: ``"last"`` (default, the newest one),
        ``"next"`` (the first after the step) or ``"preceding"`` (as recorded).
    sources:
        Where to look for the element (default: the replay's sources).
    observation:
        One snapshot file every step is healed on instead (the current page).
    options:
        Replay options (threshold, margin, limits, ``complete``); ``against``, ``sources``
        and ``observation`` override theirs.

    Returns
    -------
    HealReport
        What was healed, by which rule, at which confidence, and what was refused, with its
        code.

    Raises
    ------
    RecordingError
        The recording is corrupt, truncated or not a recording.
    ReplayError
        The copy would overwrite the input, or the observation cannot be read.
    """
    base = options or ReplayOptions(against="last")
    update: dict[str, Any] = {}
    if against is not None:
        update["against"] = against
    if sources is not None:
        update["sources"] = tuple(sources)
    if observation is not None:
        update["observation"] = str(observation)
    chosen = dataclasses.replace(base, **update)
    out = Path(out_dir)
    report = heal_one(Path(path), out, chosen)
    write_reports([report], out)
    return report


def heal_one(src: Path, out: Path, options: ReplayOptions) -> HealReport:
    """Heal one recording under ``options`` and write its copy into ``out`` (no report
    files: :func:`write_reports` writes them for every recording of a run).

    Raises
    ------
    RecordingError, ReplayError
        As :func:`heal_recording`.
    """
    if (out / src.name).resolve() == src.resolve():
        raise ReplayError(f"{src}: the healed copy would overwrite the input; choose another "
                          "output folder")  # fmt: skip
    recording = read_recording(src, limits=options.limits)
    try:
        steps = _heal_steps(recording, options)
    except (OSError, ResolutionError) as exc:
        raise ReplayError(f"{src}: cannot heal: {exc}") from exc
    against = f"file {options.observation}" if options.observation else options.against
    report = HealReport(str(src), None, against, options.sources, steps, recording.untargeted)
    report.output = str(write_healed(src, recording, steps, out, limits=options.limits))
    return report


def write_reports(reports: Sequence[HealReport], out_dir: Path) -> None:
    """Write ``heal-report.json`` (every recording's report) and ``heal-report.md``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    doc = {"recordings": [r.to_dict() for r in reports]}
    (out_dir / REPORT_JSON).write_text(json_text(doc, indent=2) + "\n", encoding="utf-8")
    text = valid_unicode("\n".join(r.to_markdown() for r in reports))  # (a cut emoji: U+FFFD)
    (out_dir / REPORT_MD).write_text(text, encoding="utf-8")
