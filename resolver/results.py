"""What a resolution returns: :class:`Resolution`, the :class:`Candidate` rows it weighed, and
one :class:`TraceEntry` per source it tried."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from .calibration import confidence
from .geometry import Box
from .matcher import Scored
from .table import CandidateTable

__all__ = ["Candidate", "Resolution", "TraceEntry", "center", "rounded"]


_TIE: Final[float] = 1e-6
"""How close to a half a scaled value may come before :func:`rounded` asks ``round``."""

_FEW: Final[int] = 64
"""Up to this many values, :func:`rounded` asks ``round`` of each: a resolve rounds a few
dozen numbers, where the dozen numpy calls cost more than the loop."""


def rounded(values: npt.NDArray[np.float64], digits: int = 4) -> list[float]:
    """``[round(v, digits) for v in values]``, computed for the whole array at once when
    there are more than a few values (:data:`_FEW`).

    ``round`` rounds the exact binary value half to even; scaling by ``10**digits`` is off by
    far less than :data:`_TIE`, so away from a tie the nearest integer is the same, and the
    division back is the correctly rounded double of that decimal, as ``round`` returns.
    Values near a tie, huge or not finite are left to ``round`` itself.

    Parameters
    ----------
    values:
        The numbers.
    digits:
        Decimals kept.

    Returns
    -------
    list of float
        Equal to ``round(v, digits)`` for each value (``-0.0``, ``nan`` and ``inf`` too).
    """
    if values.size <= _FEW:
        return [round(v, digits) for v in values.tolist()]
    scale = 10.0**digits
    # A value is sure when its scaled distance to the nearest integer is clear of a half
    # and it is small; NaN compares false, so it is unsure too.
    if float(np.abs(values).max()) * scale < 1e9:
        # All small and finite (NaN fails the test): no warning to silence.
        scaled = values * scale
        near = np.rint(scaled)
        sure = np.abs(scaled - near) < 0.5 - _TIE
    else:
        with np.errstate(over="ignore", invalid="ignore"):
            scaled = values * scale
            near = np.rint(scaled)
            sure = (np.abs(scaled - near) < 0.5 - _TIE) & (np.abs(scaled) < 1e9)
    out: list[float] = (near / scale).tolist()
    if not sure.all():
        for i in np.flatnonzero(~sure).tolist():
            out[i] = round(float(values[i]), digits)
    return out


def center(box: Box) -> tuple[float, float]:
    """The centre of a box: where a coordinate executor clicks."""
    return ((box[0] + box[2]) / 2.0, (box[1] + box[3]) / 2.0)


def _box(value: Any) -> Box | None:
    """A box read back from JSON (``None`` stays ``None``)."""
    if value is None:
        return None
    left, top, right, bottom = (float(v) for v in value)
    return (left, top, right, bottom)


@dataclass(frozen=True)
class Candidate:
    """One scored row, as evidence: where it came from, what it is, and why it scored so."""

    source: str
    id: str
    executor_id: str
    role: str
    name: str
    bbox: Box | None
    score: float
    signals: Mapping[str, float] = field(default_factory=dict)
    container_path: tuple[str, ...] = ()

    @classmethod
    def of(cls, table: CandidateTable, scored: Scored, j: int) -> Candidate:
        """The ``j``-th scored row of ``table``."""
        signals = {k: round(v[j].item(), 4) for k, v in scored.signals.items()}
        return cls.at_row(table, int(scored.rows[j]), float(scored.scores[j]), signals)

    @classmethod
    def at_row(
        cls, table: CandidateTable, row: int, score: float, signals: Mapping[str, float]
    ) -> Candidate:
        """Row ``row`` of ``table`` with ``score`` (rounded to 4 places) and ``signals``."""
        return cls(
            source=table.source,
            id=table.ids[row],
            executor_id=table.executor_id(row),
            role=table.roles[row],
            name=table.names[row],
            bbox=table.box(row),
            score=round(score, 4),
            signals=signals,
            container_path=table.containers[row],
        )

    @classmethod
    def ranked(cls, table: CandidateTable, scored: Scored) -> tuple[Candidate, ...]:
        """Every scored row of ``table``, in order: :meth:`of` for each."""
        return cls.ranked_many(table, [scored])[0]

    @classmethod
    def ranked_many(
        cls, table: CandidateTable, scoreds: Sequence[Scored]
    ) -> list[tuple[Candidate, ...]]:
        """:meth:`ranked` for several results on one table, with all their scores and
        signals rounded in one pass (per number, ``round`` is most of the cost)."""
        columns = [c for scored in scoreds for c in (scored.scores, *scored.signals.values())]
        numbers = rounded(np.concatenate(columns)) if columns else []
        every_row = [scored.rows.tolist() for scored in scoreds]
        boxes = table.bboxes[
            np.concatenate([scored.rows for scored in scoreds]) if scoreds else []
        ].tolist()
        source, out, at, boxed = table.source, [], 0, 0
        for scored, rows in zip(scoreds, every_row, strict=True):
            size, names = len(rows), list(scored.signals)
            block = numbers[at : at + size * (1 + len(names))]
            at += len(block)
            signals = [dict(zip(names, block[size + j :: size], strict=True)) for j in range(size)]
            made = []
            for row, box, score, values in zip(
                rows, boxes[boxed : boxed + size], block[:size], signals, strict=True
            ):
                made.append(
                    cls._made(
                        source=source,
                        id=table.ids[row],
                        executor_id=table.executor_id(row),
                        role=table.roles[row],
                        name=table.names[row],
                        bbox=None if box[0] != box[0] else (box[0], box[1], box[2], box[3]),
                        score=score,
                        signals=values,
                        container_path=table.containers[row],
                    )
                )
            boxed += size
            out.append(tuple(made))
        return out

    @classmethod
    def _made(cls, **values: Any) -> Candidate:
        """``cls(**values)`` given every field, without the frozen dataclass's
        ``object.__setattr__`` per field (a batch makes a candidate per ranked row)."""
        made = object.__new__(cls)
        made.__dict__.update(values)
        return made

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        data = asdict(self)
        data["signals"] = dict(self.signals)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Candidate:
        """The candidate :meth:`to_dict` wrote (missing fields take their defaults)."""
        box = data.get("bbox")
        return cls(
            source=str(data.get("source", "")),
            id=str(data.get("id", "")),
            executor_id=str(data.get("executor_id", "")),
            role=str(data.get("role", "")),
            name=str(data.get("name", "")),
            bbox=None
            if box is None
            else (float(box[0]), float(box[1]), float(box[2]), float(box[3])),
            score=float(data.get("score", 0.0)),
            signals={str(k): float(v) for k, v in dict(data.get("signals") or {}).items()},
            container_path=tuple(str(e) for e in data.get("container_path") or ()),
        )


@dataclass(frozen=True)
class TraceEntry:
    """What one source did: ``accepted``, ``ambiguous``, ``not_found``, ``absent`` (the
    observation lacks its input), ``unavailable`` (not installed), or ``skipped``.

    ``rule`` is the id of the rule that made the verdict (:data:`resolver.decide.RULES`:
    ``accept.score``, ``refuse.stray``, ``ambiguous.margin`` ...); ``rules`` every rule that
    changed it on the way, in order (the last is ``rule``); ``reason`` says the same in
    words, for a person. ``diagnostics`` is what building the source's table repaired or
    dropped, by kind (:attr:`resolver.table.CandidateTable.diagnostics`; empty when nothing
    was, or the source built no table).
    """

    source: str
    status: str
    reason: str
    best: Candidate | None = None
    runner_up: Candidate | None = None
    rule: str = ""
    rules: tuple[str, ...] = ()
    diagnostics: Mapping[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "source": self.source,
            "status": self.status,
            "rule": self.rule,
            "rules": list(self.rules),
            "reason": self.reason,
            "best": None if self.best is None else self.best.to_dict(),
            "runner_up": None if self.runner_up is None else self.runner_up.to_dict(),
            "diagnostics": dict(self.diagnostics),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TraceEntry:
        """The entry :meth:`to_dict` wrote (missing fields take their defaults)."""
        best, runner = data.get("best"), data.get("runner_up")
        return cls(
            source=str(data.get("source", "")),
            status=str(data.get("status", "")),
            reason=str(data.get("reason", "")),
            best=None if not best else Candidate.from_dict(best),
            runner_up=None if not runner else Candidate.from_dict(runner),
            rule=str(data.get("rule", "")),
            rules=tuple(str(r) for r in data.get("rules") or ()),
            diagnostics={str(k): int(v) for k, v in dict(data.get("diagnostics") or {}).items()},
        )


@dataclass(frozen=True)
class Resolution:
    """The answer: what to act on, how sure, and why.

    Attributes
    ----------
    executor_id:
        ``a11y:<id>``, ``xpath:<xpath>``, ``css:<selector>``, ``vision:<i>`` or ``coords:<x>,<y>``.
    source:
        The source that answered.
    score:
        The winner's score in ``[0, 1]``.
    margin:
        Its lead over the best candidate that is a different target (its score if none).
        Rows more than :data:`resolver.matcher.RELEVANT_GAP` behind are not scored, so a
        margin above that gap means only "more than the gap".
    candidate:
        The winning row.
    point:
        Click point (centre of the winner's bbox) when a bbox is known.
    alternatives:
        The next best rows of the winning source.
    trace:
        One entry per source tried, in order.
    """

    executor_id: str
    source: str
    score: float
    margin: float
    candidate: Candidate
    point: tuple[float, float] | None
    alternatives: tuple[Candidate, ...] = ()
    trace: tuple[TraceEntry, ...] = ()

    @property
    def rule(self) -> str:
        """The id of the rule that accepted the answer (the last trace entry's)."""
        return self.trace[-1].rule if self.trace else ""

    @property
    def confidence(self) -> float:
        """Estimated probability that this answer is the recorded element, from its score,
        margin and signals (:func:`resolver.calibration.confidence`)."""
        return confidence(self.score, self.margin, self.candidate.signals)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view (for logs, replay reports and agent prompts)."""
        return {
            "executor_id": self.executor_id,
            "source": self.source,
            "score": self.score,
            "margin": self.margin,
            "confidence": round(self.confidence, 4),
            "rule": self.rule,
            "candidate": self.candidate.to_dict(),
            "point": None if self.point is None else list(self.point),
            "alternatives": [c.to_dict() for c in self.alternatives],
            "trace": [t.to_dict() for t in self.trace],
        }
