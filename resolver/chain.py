"""The resolution chain: a11y -> DOM -> vision -> coords, and the public verbs.

Each source the observation has is scored in turn; the first whose best candidate clears the
threshold *and* leads the best different target by the margin wins. A source that looked and
found nothing certain is recorded in the trace and the next one is tried. ``coords`` (the
recorded bbox centre) is a last resort that, by default, is used only when no earlier source
could look at all: once a source has seen the UI and not found the element, clicking the old
position would be a guess.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Final, Literal

import numpy as np

from .config import DEFAULT_CONFIG, MatchConfig
from .errors import (
    AmbiguousMatchError,
    ElementNotFoundError,
    InvalidObservationError,
    InvalidReferenceError,
    ResolutionError,
    SourceUnavailableError,
)
from .matcher import Scored, score_rows, score_table
from .models import SemanticElementRef
from .observation import Observation
from .roles import canonical_role, role_compat
from .table import CandidateTable
from .text import name_similarity

__all__ = [
    "Candidate",
    "Resolution",
    "TraceEntry",
    "resolve",
    "resolve_element",
    "resolve_many",
]

SourceName = Literal["a11y", "dom", "vision", "coords"]
DEFAULT_SOURCES: Final[tuple[SourceName, ...]] = ("a11y", "dom", "vision", "coords")
CoordsPolicy = Literal["unobserved", "always", "never"]


@dataclass(frozen=True)
class Candidate:
    """One scored row, as evidence: where it came from, what it is, and why it scored so."""

    source: str
    id: str
    executor_id: str
    role: str
    name: str
    bbox: tuple[float, float, float, float] | None
    score: float
    signals: Mapping[str, float] = field(default_factory=dict)
    container_path: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        data = asdict(self)
        data["signals"] = dict(self.signals)
        return data


@dataclass(frozen=True)
class TraceEntry:
    """What one source did: ``accepted``, ``ambiguous``, ``not_found``, ``absent`` (the
    observation lacks its input), ``unavailable`` (not installed), or ``skipped``."""

    source: str
    status: str
    reason: str
    best: Candidate | None = None
    runner_up: Candidate | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "source": self.source,
            "status": self.status,
            "reason": self.reason,
            "best": None if self.best is None else self.best.to_dict(),
            "runner_up": None if self.runner_up is None else self.runner_up.to_dict(),
        }


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

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view (for logs, replay reports and agent prompts)."""
        return {
            "executor_id": self.executor_id,
            "source": self.source,
            "score": self.score,
            "margin": self.margin,
            "candidate": self.candidate.to_dict(),
            "point": None if self.point is None else list(self.point),
            "alternatives": [c.to_dict() for c in self.alternatives],
            "trace": [t.to_dict() for t in self.trace],
        }


# -- input coercion -----------------------------------------------------------------------


def _coerce_ref(ref: Any) -> SemanticElementRef:
    if isinstance(ref, SemanticElementRef):
        return ref
    if isinstance(ref, Mapping):
        return SemanticElementRef.model_validate(dict(ref))  # type: ignore[no-any-return]
    if isinstance(ref, (str, bytes)):
        return SemanticElementRef.model_validate_json(ref)  # type: ignore[no-any-return]
    raise InvalidReferenceError(
        f"ref must be a SemanticElementRef, a mapping or JSON; got {type(ref).__name__}"
    )


def _config(config: MatchConfig | None, options: dict[str, Any]) -> MatchConfig:
    base = config if config is not None else DEFAULT_CONFIG
    if not isinstance(base, MatchConfig):
        raise InvalidReferenceError("config must be a MatchConfig")
    return base.with_options(options)


def _check_sources(sources: Iterable[str]) -> tuple[str, ...]:
    if isinstance(sources, str):
        sources = (sources,)
    out = tuple(sources)
    unknown = [s for s in out if s not in DEFAULT_SOURCES]
    if unknown or not out:
        raise InvalidReferenceError(
            f"sources must be a non-empty subset of {DEFAULT_SOURCES}; got {out!r}"
        )
    return out


# -- one source -----------------------------------------------------------------------------


def _box(table: CandidateTable, row: int) -> tuple[float, float, float, float] | None:
    left, top, right, bottom = table.bboxes[row].tolist()
    if left != left:  # NaN: the table stores unknown boxes as four NaNs
        return None
    return (left, top, right, bottom)


def _candidate(table: CandidateTable, scored: Scored, j: int) -> Candidate:
    row = int(scored.rows[j])
    return Candidate(
        source=table.source,
        id=table.ids[row],
        executor_id=table.executor_ids[row],
        role=table.roles[row],
        name=table.names[row],
        bbox=_box(table, row),
        score=round(float(scored.scores[j]), 4),
        signals={k: round(v[j].item(), 4) for k, v in scored.signals.items()},
        container_path=table.containers[row],
    )


def _iou(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    iw = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    ih = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = iw * ih
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else float(a == b)


def _same_target(table: CandidateTable, a: int, b: int, iou_min: float) -> bool:
    """Nested rows that are one click target: a button and its label text, a list item and
    its only link. Clicking the inner one activates the outer one."""
    if table.executor_ids[a] == table.executor_ids[b]:
        return True
    if not (table.is_ancestor(a, b) or table.is_ancestor(b, a)):
        return False
    names = table.names_norm
    if not names[a] or not names[b] or names[a] == names[b]:
        return True
    box_a, box_b = _box(table, a), _box(table, b)
    return box_a is not None and box_b is not None and _iou(box_a, box_b) >= iou_min


@dataclass(frozen=True)
class _Outcome:
    status: str
    reason: str
    scored: Scored
    best: int | None = None  # position in scored
    runner: int | None = None
    margin: float = 0.0


_LABEL_ROLES: Final[frozenset[str]] = frozenset(
    {"text", "label", "img", "generic", "none", "unknown", "paragraph", "strong", "emphasis"}
)


def _prefer_control(table: CandidateTable, scored: Scored, config: MatchConfig) -> Scored:
    """When the winner is the label inside a control (text in a link, an icon in a button)
    and that control scores nearly as well, answer with the control: it is what acts."""
    if scored.rows.size < 2:
        return scored
    best = int(scored.rows[0])
    if table.roles[best] not in _LABEL_ROLES:
        return scored
    for j in range(1, scored.rows.size):
        row = int(scored.rows[j])
        if scored.scores[0] - scored.scores[j] > config.min_margin:
            break
        if table.roles[row] not in _LABEL_ROLES and table.is_ancestor(row, best):
            order = np.asarray([j, *(i for i in range(scored.rows.size) if i != j)])
            signals = {k: v[order] for k, v in scored.signals.items()}
            return Scored(scored.rows[order], scored.scores[order], signals, scored.evaluated)
    return scored


def _decide(table: CandidateTable, scored: Scored, config: MatchConfig) -> _Outcome:
    if scored.rows.size == 0:
        return _Outcome("not_found", "the source has no candidates", scored)
    if not scored.identifying:
        reason = (
            "the reference has nothing here but its role (its box is in another coordinate "
            "space): too little to tell candidates apart"
        )
        return _Outcome("not_found", reason, scored, 0, None, 0.0)
    best_score = float(scored.scores[0])
    runner: int | None = None
    for j in range(1, scored.rows.size):
        if not _same_target(
            table, int(scored.rows[0]), int(scored.rows[j]), config.same_target_iou
        ):
            runner = j
            break
    runner_score = float(scored.scores[runner]) if runner is not None else 0.0
    margin = best_score - runner_score
    if best_score < config.threshold:
        reason = f"best score {best_score:.3f} is below the threshold {config.threshold:.2f}"
        return _Outcome("not_found", reason, scored, 0, runner, margin)
    if margin < config.min_margin:
        reason = (
            f"best {best_score:.3f} leads the runner-up {runner_score:.3f} by {margin:.3f}, "
            f"less than the margin {config.min_margin:.2f}"
        )
        return _Outcome("ambiguous", reason, scored, 0, runner, margin)
    return _Outcome(
        "accepted", f"score {best_score:.3f}, margin {margin:.3f}", scored, 0, runner, margin
    )


def _verify_selector(
    ref: SemanticElementRef, table: CandidateTable, config: MatchConfig, scored: Scored
) -> tuple[int, float, str, str] | None:
    """A recorded css/xpath that still selects exactly one row, whose role and name agree
    with the ref, and which the semantic evidence does not contradict: it clears the
    threshold and no other row beats it by the margin (an ``nth-of-type`` selector may now
    point at a sibling that took the old place)."""
    resolver = table.selector_resolver
    if resolver is None:
        return None
    best = float(scored.scores[0]) if scored.scores.size else 0.0
    for kind, selector in (("css", ref.css_selector), ("xpath", ref.xpath)):
        if not selector:
            continue
        try:
            rows = list(resolver(kind, selector))
        except ResolutionError:
            continue
        if len(rows) != 1:
            continue
        row = rows[0]
        if ref.role and role_compat(canonical_role(ref.role), table.roles[row]) < 0.5:
            continue
        if ref.name and name_similarity(ref.name, table.names[row]) < 0.85:
            continue
        score = float(score_rows(ref, table, config, np.asarray([row]))[0])
        if score < config.threshold or score < best - config.min_margin:
            continue
        executor = f"css:{selector}" if kind == "css" else table.executor_ids[row]
        reason = f"recorded {kind} selector still selects one element that agrees"
        return row, score, executor, reason
    return None


def _center(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2.0, (box[1] + box[3]) / 2.0)


def _resolution_from(
    table: CandidateTable,
    scored: Scored,
    outcome: _Outcome,
    trace: list[TraceEntry],
) -> Resolution:
    best = _candidate(table, scored, 0)
    alternatives = tuple(_candidate(table, scored, j) for j in range(1, scored.rows.size))
    runner = None if outcome.runner is None else _candidate(table, scored, outcome.runner)
    trace.append(TraceEntry(table.source, "accepted", outcome.reason, best, runner))
    return Resolution(
        executor_id=best.executor_id,
        source=table.source,
        score=best.score,
        margin=round(outcome.margin, 4),
        candidate=best,
        point=None if best.bbox is None else _center(best.bbox),
        alternatives=alternatives,
        trace=tuple(trace),
    )


# -- the chain -----------------------------------------------------------------------------


def _coords(
    ref: SemanticElementRef, observation: Observation, trace: list[TraceEntry]
) -> Resolution:
    assert ref.bbox is not None
    box = ref.bbox
    if ref.screen_size and observation.screen_size:
        sx = observation.screen_size[0] / ref.screen_size[0]
        sy = observation.screen_size[1] / ref.screen_size[1]
        box = (box[0] * sx, box[1] * sy, box[2] * sx, box[3] * sy)
    x, y = _center(box)
    executor = f"coords:{round(x)},{round(y)}"
    cand = Candidate(
        "coords", executor, executor, canonical_role(ref.role), ref.name or "", box, 0.0
    )
    trace.append(TraceEntry("coords", "accepted", "the recorded bbox centre, no source could look"))
    return Resolution(executor, "coords", 0.0, 0.0, cand, (x, y), (), tuple(trace))


def _resolve(
    ref: SemanticElementRef,
    observation: Observation,
    sources: tuple[str, ...],
    config: MatchConfig,
    coords_fallback: str,
) -> Resolution:
    trace: list[TraceEntry] = []
    evidence: list[Candidate] = []
    looked = False
    ambiguous = False
    for source in sources:
        if source == "coords":
            allowed = coords_fallback == "always" or (
                coords_fallback == "unobserved" and not looked
            )
            if ref.bbox is None:
                trace.append(TraceEntry("coords", "skipped", "the reference has no bbox"))
            elif not allowed:
                trace.append(
                    TraceEntry(
                        "coords",
                        "skipped",
                        "an earlier source saw the UI and did not find the element; "
                        "clicking the recorded position would be a guess "
                        "(coords_fallback='always' allows it)",
                    )
                )
            else:
                return _coords(ref, observation, trace)
            continue
        if not observation.has(source):
            trace.append(TraceEntry(source, "absent", f"the observation has no {source} input"))
            continue
        try:
            table = observation.candidates(source)
        except SourceUnavailableError as exc:
            trace.append(TraceEntry(source, "unavailable", exc.message))
            continue
        looked = True
        scored = score_table(ref, table, config)
        verified = _verify_selector(ref, table, config, scored)
        if verified is not None:
            row, score, executor, reason = verified
            one = Scored(np.asarray([row], dtype=np.intp), np.asarray([score]), {}, 1)
            cand = _candidate(table, one, 0)
            cand = Candidate(**{**asdict(cand), "executor_id": executor})
            trace.append(TraceEntry(source, "accepted", reason, cand))
            alternatives = tuple(
                _candidate(table, scored, j)
                for j in range(scored.rows.size)
                if int(scored.rows[j]) != row
            )
            rival = max((c.score for c in alternatives), default=0.0)
            return Resolution(
                executor, source, round(score, 4), round(score - rival, 4), cand,
                None if cand.bbox is None else _center(cand.bbox), alternatives, tuple(trace),
            )  # fmt: skip
        scored = _prefer_control(table, scored, config)
        outcome = _decide(table, scored, config)
        if outcome.status == "accepted":
            return _resolution_from(table, scored, outcome, trace)
        ambiguous = ambiguous or outcome.status == "ambiguous"
        best = None if outcome.best is None else _candidate(table, scored, outcome.best)
        runner = None if outcome.runner is None else _candidate(table, scored, outcome.runner)
        trace.append(TraceEntry(source, outcome.status, outcome.reason, best, runner))
        evidence.extend(_candidate(table, scored, j) for j in range(min(3, scored.rows.size)))
    described = ref.name or ref.role or ref.automation_id or ref.xpath or "the element"
    details = {"ref": ref.model_dump(mode="json")}
    cands = [c.to_dict() for c in evidence]
    steps = [t.to_dict() for t in trace]
    if ambiguous:
        raise AmbiguousMatchError(
            f"{described!r}: more than one candidate fits and none clearly best; "
            "refine the reference (container path, bbox) or ask",
            candidates=cands, trace=steps, details=details,
        )  # fmt: skip
    if not looked:
        reason = "; ".join(f"{t.source}: {t.reason}" for t in trace)
        raise ElementNotFoundError(
            f"{described!r}: no source could look for it ({reason})",
            candidates=cands, trace=steps, details=details,
        )  # fmt: skip
    raise ElementNotFoundError(
        f"{described!r} is not in this observation with enough confidence",
        candidates=cands, trace=steps, details=details,
    )  # fmt: skip


def resolve(
    ref: SemanticElementRef | Mapping[str, Any] | str,
    observation: Observation | Any,
    *,
    sources: Sequence[str] = DEFAULT_SOURCES,
    config: MatchConfig | None = None,
    coords_fallback: CoordsPolicy = "unobserved",
    **options: Any,
) -> Resolution:
    """Find ``ref`` in ``observation`` and explain the answer.

    Parameters
    ----------
    ref:
        A :class:`SemanticElementRef` (or its dict / JSON form).
    observation:
        An :class:`Observation`, a mapping with its fields, or any object with
        ``accessibility_tree`` / ``dom_html`` / ``screenshot`` attributes.
    sources:
        Which sources to try, in order (default a11y, dom, vision, coords).
    config:
        A :class:`~resolver.config.MatchConfig`; ``**options`` override single fields
        (``threshold=0.7``, ``min_margin=0.1``, ``w_bbox=0``...).
    coords_fallback:
        ``"unobserved"`` (default): use the recorded bbox centre only if no earlier source could
        look; ``"always"``: also after sources looked and failed; ``"never"``.

    Returns
    -------
    Resolution

    Raises
    ------
    InvalidReferenceError
        The reference or an option is invalid.
    InvalidObservationError
        The observation cannot be read (malformed, cyclic, too large, unknown format).
    AmbiguousMatchError
        Candidates fit about equally well; the evidence lists them.
    ElementNotFoundError
        No candidate is good enough; the evidence lists the nearest ones.

    Examples
    --------
    >>> tree = {"id": "root", "role": "dialog", "name": "Settings", "children": [
    ...     {"id": "ok1", "role": "button", "name": "OK", "bbox": [10, 10, 60, 30]},
    ...     {"id": "ok2", "role": "button", "name": "OK", "bbox": [10, 300, 60, 320]}]}
    >>> ref = SemanticElementRef(role="button", name="OK", bbox=(12, 298, 62, 318))
    >>> resolve(ref, Observation(accessibility_tree=tree)).executor_id
    'a11y:ok2'
    """
    checked_ref = _coerce_ref(ref)
    obs = Observation.from_any(observation)
    cfg = _config(config, options)
    if coords_fallback not in ("unobserved", "always", "never"):
        raise InvalidReferenceError("coords_fallback must be 'unobserved', 'always' or 'never'")
    return _resolve(checked_ref, obs, _check_sources(sources), cfg, coords_fallback)


def resolve_element(
    ref: SemanticElementRef | Mapping[str, Any] | str,
    observation: Observation | Any,
    **options: Any,
) -> str:
    """The executor ID for ``ref`` in ``observation`` (see :func:`resolve` for options).

    Examples
    --------
    >>> tree = {"id": "1", "role": "button", "name": "Submit", "bbox": [0, 0, 80, 24]}
    >>> resolve_element({"role": "button", "name": "Submit"}, {"accessibility_tree": tree})
    'a11y:1'
    """
    return resolve(ref, observation, **options).executor_id


def resolve_many(
    refs: Iterable[SemanticElementRef | Mapping[str, Any] | str],
    observation: Observation | Any,
    **options: Any,
) -> list[Resolution | ResolutionError]:
    """Resolve many refs against one observation, sharing its parsed tree and tables.

    Returns one entry per ref, in order: a :class:`Resolution`, or the
    :class:`ResolutionError` that ref raised (returned, not raised, so one missing element does
    not hide the others). An unreadable observation or invalid options still raise.
    """
    obs = Observation.from_any(observation)
    sources = _check_sources(options.pop("sources", DEFAULT_SOURCES))
    cfg = _config(options.pop("config", None), {})
    coords_fallback = options.pop("coords_fallback", "unobserved")
    cfg = cfg.with_options(options)
    out: list[Resolution | ResolutionError] = []
    for ref in refs:
        try:
            out.append(_resolve(_coerce_ref(ref), obs, sources, cfg, coords_fallback))
        except InvalidObservationError:
            raise
        except ResolutionError as exc:
            out.append(exc)
    return out
