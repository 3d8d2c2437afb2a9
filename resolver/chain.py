"""The resolution chain (a11y -> DOM -> vision -> coords) and the public verbs.

Each source the observation has is judged in turn (:func:`resolver.decide.decide`); the first
that accepts answers. A source that looked and found nothing certain is recorded in the trace
and the next one is tried, unless that source refused with evidence of absence (the target's
record, slot or neighbours are there without it; its twins cannot be told apart:
:func:`resolver.decide.shows_absence`): a weaker source does not overrule a stronger one's
evidence, so the later sources, the coordinates too, are skipped (``refuse.absent_upstream``)
and the error names the stronger source's rule. A source that had no input, could not be
used, had no candidates or no row of the reference's role, or found nothing good enough,
passes on to the next; but when it looked among rows of the reference's role and found none
similar enough, a weaker source's answer by its score alone does not overrule it (only a
recorded identifier that selects the answer does: ``refuse.scored_downstream``).

``coords`` (the recorded bbox centre) is a last resort that, by default, is used only when no
earlier source could look at all: once a source has seen the UI and not found the element,
clicking the old position would be a guess.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any, Final, Literal

from .adapters import SOURCE_NAMES, SOURCES
from .adapters._common import no_cyclic_gc
from .config import DEFAULT_CONFIG, MatchConfig
from .decide import Decision, decide, decide_many, scored_alone, shows_absence, shows_no_match
from .decide.facts import xpath_column_resolver
from .errors import (
    AmbiguousMatchError,
    ConfigError,
    ElementNotFoundError,
    InvalidObservationError,
    InvalidReferenceError,
    ResolutionError,
    SourceUnavailableError,
)
from .geometry import scale_between
from .models import MAX_ANCHORS, SemanticElementRef
from .observation import Observation
from .results import Candidate, Resolution, TraceEntry, center
from .roles import canonical_role
from .table import CandidateTable
from .text import normalize

__all__ = ["DEFAULT_SOURCES", "resolve", "resolve_element", "resolve_many"]

DEFAULT_SOURCES: Final[tuple[str, ...]] = (*SOURCE_NAMES, "coords")
"""Every source in the registry, in order, then the recorded coordinates."""
CoordsPolicy = Literal["unobserved", "always", "never"]
RefLike = SemanticElementRef | Mapping[str, Any] | str | bytes


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


def _ref_items(refs: Any) -> Iterator[Any]:
    """The references of ``refs`` one by one. A single reference (an object, a mapping or a
    JSON text, which would otherwise be taken apart into its fields or characters) and
    anything that is not iterable are an :class:`InvalidReferenceError`."""
    if isinstance(refs, (str, bytes, bytearray, Mapping, SemanticElementRef)):
        raise InvalidReferenceError(
            f"refs must be an iterable of references (a list, say); got one "
            f"{type(refs).__name__}: pass [ref], or call resolve"
        )
    try:
        return iter(refs)
    except TypeError:
        raise InvalidReferenceError(
            f"refs must be an iterable of references (a list, say); got {type(refs).__name__}"
        ) from None


def _settings(
    sources: Iterable[str],
    config: MatchConfig | None,
    coords_fallback: str,
    options: dict[str, Any],
) -> tuple[tuple[str, ...], MatchConfig]:
    """Checked sources and the config with per-call options applied."""
    base = config if config is not None else DEFAULT_CONFIG
    if not isinstance(base, MatchConfig):
        raise ConfigError(f"config must be a MatchConfig, got {type(base).__name__}")
    if coords_fallback not in ("unobserved", "always", "never"):
        raise ConfigError("coords_fallback must be 'unobserved', 'always' or 'never'")
    if isinstance(sources, str):
        chosen: tuple[str, ...] = (sources,)
    elif isinstance(sources, Iterable) and not isinstance(sources, Mapping | bytes):
        chosen = tuple(sources)
    else:
        raise InvalidReferenceError(f"sources must be source names, not {sources!r:.60}")
    if not chosen or any(s not in DEFAULT_SOURCES for s in chosen):
        raise InvalidReferenceError(
            f"sources must be a non-empty subset of {DEFAULT_SOURCES}; got {chosen!r}"
        )
    return chosen, base.with_options(options)


# -- the chain -----------------------------------------------------------------------------


class _Run:
    """One reference going down the chain: the trace so far and what was seen."""

    def __init__(
        self, ref: SemanticElementRef, observation: Observation, config: MatchConfig
    ) -> None:
        self.ref = ref
        self.observation = observation
        self.clear_px = config.clear_px
        """How wide and high a part of an answer beside the dialogs drawn over it must be for
        its point to go there (:meth:`~resolver.table.CandidateTable.clear_point`)."""
        self.trace: list[TraceEntry] = []
        self.evidence: list[Candidate] = []
        self.looked = False
        self.ambiguous = False
        self.gone: TraceEntry | None = None
        """The entry of the source that found evidence of absence, once one did."""
        self.unmatched: TraceEntry | None = None
        """The entry of the first source that looked among rows of the reference's role and
        found none similar enough (:func:`resolver.decide.shows_no_match`)."""
        self.details: dict[str, Any] = {}
        """What the error reports besides the reference (the visible region, when a source
        refused the reference as off its screen)."""

    def source(self, source: str, config: MatchConfig) -> Resolution | None:
        """Judge one source; a Resolution when it accepts.

        Hint-first: a source with a region builder (vision) is judged first on windows
        around the ref's recorded box, smallest first (``Source.regions``); the first window
        in which it accepts answers, and the whole input is read only when none does.
        """
        if self.upstream(source):
            return None
        if not self.observation.has(source):
            self.absent(source)
            return None
        ref = self.ref
        try:
            if self.off_screen(source):
                return None
            ref = self.on_screen(source)
            for region in SOURCES[source].regions(ref.bbox, ref.screen_size):
                window = self.focused(source, self.observation.region_candidates(source, region))
                decision = decide(ref, window, config)
                if decision.status == "accepted" and not self.outweighed(decision):
                    self.looked = True
                    reason = f"{decision.reason}, in the window {region.describe()}"
                    entry = TraceEntry(
                        source, "accepted", reason, decision.best, decision.runner_up,
                        decision.rule, decision.rules, window.diagnostics,
                    )  # fmt: skip
                    self.trace.append(entry)
                    return self._answer(source, decision, window)
            table = self.focused(source, self.observation.candidates(source))
        except SourceUnavailableError as exc:
            self.unavailable(source, exc)
            return None
        return self.judged(source, decide(ref, table, config), table)

    def off_screen(self, source: str) -> bool:
        """``refuse.off_screen``: a source that sees only the screen (vision) refuses a
        reference whose recorded box, rescaled to that screen, has its centre outside it
        (below the fold, scrolled away): whatever it read there would be another element, and
        the recorded coordinates are off the screen too, so they are not tried either. The
        visible region goes into the error's details."""
        frame = self.observation.visible_frame(source)
        box = self.ref.bbox
        if frame is None or box is None:
            return False
        sx, sy = scale_between(self.ref.screen_size, frame)
        scaled = (box[0] * sx, box[1] * sy, box[2] * sx, box[3] * sy)
        x, y = center(scaled)
        if 0.0 <= x <= frame[0] and 0.0 <= y <= frame[1]:
            return False
        self.looked = True
        region = (0.0, 0.0, frame[0], frame[1])
        self.details.update(visible_region=region, recorded_box_on_screen=scaled)
        reason = (
            f"the recorded box ({', '.join(f'{v:g}' for v in scaled)}) lies outside what the "
            f"{source} source sees (0, 0, {frame[0]:g}, {frame[1]:g}): not visible on this screen"
        )
        entry = TraceEntry(source, "not_found", reason, rule="refuse.off_screen")
        self.trace.append(entry)
        self.gone = entry  # the recorded coordinates would click off the screen too
        return True

    def focused(self, source: str, table: CandidateTable) -> CandidateTable:
        """``table`` with the rows the reference's name singles out, when the source can
        add them (:attr:`~resolver.adapters.base.Source.focuser`)."""
        focuser = SOURCES[source].load_focuser()
        name = self.ref.name
        return table if focuser is None or not name else focuser(table, name)

    def on_screen(self, source: str) -> SemanticElementRef:
        """The reference as a source that sees only the screen can check it: the recorded
        look-alikes whose boxes lay off that screen are left out (``scope.screen``), so
        that the rules counting look-alikes (``refuse.shrunk_group``, the look-alike ties)
        count those the screen can show. A list cut at its limit is kept whole: it never
        said how many there were."""
        frame = self.observation.visible_frame(source)
        ref = self.ref
        if frame is None or not ref.lookalikes or len(ref.lookalikes) >= MAX_ANCHORS:
            return ref
        sx, sy = scale_between(ref.screen_size, frame)
        shown = tuple(
            box
            for box in ref.lookalikes
            if 0.0 <= (box[0] + box[2]) / 2 * sx <= frame[0]
            and 0.0 <= (box[1] + box[3]) / 2 * sy <= frame[1]
        )
        return (
            ref
            if len(shown) == len(ref.lookalikes)
            else ref.model_copy(update={"lookalikes": shown})
        )

    def upstream(self, source: str) -> bool:
        """Whether an earlier source found evidence of absence; if so, ``source`` is recorded
        as skipped."""
        if self.gone is None:
            return False
        reason = (
            f"{self.gone.source} found evidence that the target is gone ({self.gone.rule}); "
            f"{source} does not overrule it"
        )
        self.trace.append(TraceEntry(source, "skipped", reason, rule="refuse.absent_upstream"))
        return True

    def absent(self, source: str) -> None:
        """Record that the observation has no input for ``source``."""
        reason = f"the observation has no {source} input"
        self.trace.append(TraceEntry(source, "absent", reason, rule="refuse.no_input"))

    def unavailable(self, source: str, exc: SourceUnavailableError) -> None:
        """Record that ``source`` cannot be used here (an extra is not installed)."""
        self.trace.append(TraceEntry(source, "unavailable", exc.message, rule="refuse.unavailable"))

    def judged(self, source: str, decision: Decision, table: CandidateTable) -> Resolution | None:
        """Record the decision on ``source``'s whole ``table`` (with what building it
        repaired); a Resolution when it accepts."""
        self.looked = True
        entry = TraceEntry(
            source, decision.status, decision.reason, decision.best, decision.runner_up,
            decision.rule, decision.rules, table.diagnostics,
        )  # fmt: skip
        if decision.status == "accepted":
            if self.overruling(source, decision, table):
                return None
            self.trace.append(entry)
            return self._answer(source, decision, table)
        if shows_absence(self.ref, table, decision):
            if source != "dom" and dom_names_it(self.ref, table, self.observation):
                entry = replace(entry, rules=(*entry.rules, "scope.dom_names_it"))
            else:
                self.gone = entry
        self.trace.append(entry)
        if self.unmatched is None and shows_no_match(self.ref, table, decision):
            self.unmatched = entry
        self.ambiguous = self.ambiguous or decision.status == "ambiguous"
        self.evidence.extend(decision.candidates[:3])
        return None

    def outweighed(self, decision: Decision) -> bool:
        """Whether an accepted ``decision`` rests on its score alone after a stronger source
        found no row of the reference's role similar enough (``refuse.scored_downstream``;
        a hint window's such answer is passed over quietly, the whole input then judged)."""
        return self.unmatched is not None and scored_alone(decision)

    def overruling(self, source: str, decision: Decision, table: CandidateTable) -> bool:
        """``refuse.scored_downstream``: whether ``decision``, an answer of ``source``, rests
        on its score alone (:func:`resolver.decide.scored_alone`) after a stronger source
        found no row of the reference's role similar enough. A weaker source's similarity
        does not overrule the stronger one's; an identifier the reference recorded that
        selects the answer does. When it does not, the refusal is recorded (with the
        answer it would have been among the evidence) and the chain goes on."""
        stronger = self.unmatched
        if stronger is None or not self.outweighed(decision):
            return False
        reason = (
            f"{decision.reason}, but {stronger.source} found no row similar enough "
            f"({stronger.rule}) and only the score speaks for this one: no recorded "
            "identifier selects it"
        )
        self.trace.append(
            TraceEntry(
                source, "not_found", reason, decision.best, decision.runner_up,
                "refuse.scored_downstream", (*decision.rules, "refuse.scored_downstream"),
                table.diagnostics,
            )
        )  # fmt: skip
        self.evidence.extend(decision.candidates[:3])
        return True

    def _answer(self, source: str, decision: Decision, table: CandidateTable) -> Resolution:
        best = decision.candidates[0]
        box = self._words(source, table, best) or best.bbox
        point = None if box is None else center(box)
        if point is not None and box is best.bbox and table.points_differ():
            # A desktop's answer off the screen has no point; one partly under a dialog
            # drawn over it has its point beside the dialog.
            row = table.executor_row(best.executor_id)
            point = point if row is None else table.click_point(row, self.clear_px)
        return Resolution(
            executor_id=best.executor_id,
            source=source,
            score=best.score,
            margin=decision.margin,
            candidate=best,
            point=point,
            alternatives=decision.candidates[1:],
            trace=tuple(self.trace),
        )

    def _words(
        self, source: str, table: CandidateTable, best: Candidate
    ) -> tuple[float, float, float, float] | None:
        """The box of the recorded name's own words inside the answer, when the source can
        tell (a name inside a longer text run), else ``None``."""
        boxer = SOURCES[source].load_answer_boxer() if source in SOURCES else None
        name = self.ref.name
        if boxer is None or not name or best.name == name:
            return None
        rows = [i for i, ident in enumerate(table.ids) if ident == best.id]
        return boxer(table, rows[0], name) if rows else None

    def coords(self, policy: str) -> Resolution | None:
        """The recorded box centre, rescaled to the observation, when the policy allows (and no
        source found evidence of absence)."""
        if self.upstream("coords"):
            return None
        ref = self.ref
        allowed = policy == "always" or (policy == "unobserved" and not self.looked)
        if ref.bbox is None or not allowed:
            reason = (
                "the reference has no bbox"
                if ref.bbox is None
                else "an earlier source saw the UI and did not find the element; clicking the "
                "recorded position would be a guess (coords_fallback='always' allows it)"
            )
            rule = "refuse.no_box" if ref.bbox is None else "refuse.coords_after_look"
            self.trace.append(TraceEntry("coords", "skipped", reason, rule=rule))
            return None
        sx, sy = scale_between(ref.screen_size, self.observation.screen_size)
        box = (ref.bbox[0] * sx, ref.bbox[1] * sy, ref.bbox[2] * sx, ref.bbox[3] * sy)
        x, y = center(box)
        executor = f"coords:{round(x)},{round(y)}"
        cand = Candidate(
            "coords", executor, executor, canonical_role(ref.role), ref.name or "", box, 0.0
        )
        reason = "the recorded bbox centre, no source could look"
        self.trace.append(TraceEntry("coords", "accepted", reason, rule="accept.recorded_box"))
        return Resolution(executor, "coords", 0.0, 0.0, cand, (x, y), (), tuple(self.trace))

    def _deciding_rule(self) -> str:
        """The rule behind the error: the source's that found evidence of absence, when one
        did; else the first source's that found a tie, when one did; else the first that
        looked and refused; else the first entry's (why no source could look)."""
        if self.gone is not None:
            return self.gone.rule
        for wanted in (("ambiguous",), ("not_found",), ()):
            for entry in self.trace:
                if not wanted or entry.status in wanted:
                    return entry.rule
        return ""

    def failure(self) -> ResolutionError:
        """The typed error when no source answered, with the evidence gathered."""
        ref = self.ref
        described = ref.name or ref.role or ref.automation_id or ref.xpath or "the element"
        evidence: dict[str, Any] = {
            "candidates": tuple(self.evidence),
            "trace": tuple(self.trace),
            "details": {"ref": ref.model_dump(mode="json"), **self.details},
            "rule": self._deciding_rule(),
        }
        tied = self.ambiguous if self.gone is None else self.gone.status == "ambiguous"
        if tied:
            return AmbiguousMatchError(
                f"{described!r}: more than one candidate fits and none clearly best; "
                "refine the reference (container path, bbox) or ask",
                **evidence,
            )
        if not self.looked:
            reason = "; ".join(f"{t.source}: {t.reason}" for t in self.trace)
            message = f"{described!r}: no source could look for it ({reason})"
            return ElementNotFoundError(message, **evidence)
        if evidence["rule"] == "refuse.off_screen":
            return ElementNotFoundError(
                f"{described!r} is not visible: its recorded box lies outside the screen "
                f"{self.details['visible_region']}",
                **evidence,
            )
        return ElementNotFoundError(
            f"{described!r} is not in this observation with enough confidence", **evidence
        )


def dom_names_it(ref: SemanticElementRef, table: CandidateTable, observation: Observation) -> bool:
    """``scope.dom_names_it``: whether the element at the recorded XPath bears the recorded
    role and name in the page's DOM but not in ``table`` (a tree that names it otherwise, as
    Chromium names an empty link by its blank text where the DOM reads its title, or has no
    row for it): the two sources disagree on that element, so a refusal of ``table``'s
    source for missing namesakes is no evidence that it is gone, and the DOM judges it."""
    xpath, name, here = ref.xpath, normalize(ref.name or ""), xpath_column_resolver(table)
    if not xpath or not name or not ref.role or here is None or not observation.has("dom"):
        return False
    if any(table.names_norm[r] == name for r in here("xpath", xpath)):
        return False
    try:
        dom = observation.candidates("dom")
    except ResolutionError:
        return False
    there, role = xpath_column_resolver(dom), canonical_role(ref.role)
    return there is not None and any(
        dom.roles[r] == role and dom.names_norm[r] == name for r in there("xpath", xpath)
    )


def _resolve(
    ref: SemanticElementRef,
    observation: Observation,
    sources: tuple[str, ...],
    config: MatchConfig,
    coords_fallback: str,
) -> Resolution:
    run = _Run(ref, observation, config)
    for source in sources:
        found = run.coords(coords_fallback) if source == "coords" else run.source(source, config)
        if found is not None:
            return found
    raise run.failure()


# -- public verbs ----------------------------------------------------------------------------


def resolve(
    ref: RefLike,
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
        Which sources to try, in order (default a11y, dom, vision, coords). A source that
        refuses with evidence that the target is gone (or that its twins cannot be told
        apart) ends the chain: a weaker source does not overrule it
        (:func:`resolver.decide.shows_absence`, ``refuse.absent_upstream``).
    config:
        A :class:`~resolver.config.MatchConfig`; ``**options`` override single fields
        (``threshold=0.7``, ``min_margin=0.1``, ``w_bbox=0``...).
    coords_fallback:
        ``"unobserved"`` (default): use the recorded bbox centre only if no earlier source could
        look; ``"always"``: also after sources looked and failed (never after evidence of
        absence); ``"never"``.

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
    chosen, cfg = _settings(sources, config, coords_fallback, options)
    checked_ref = _coerce_ref(ref)
    obs = Observation.from_any(observation)
    return _resolve(checked_ref, obs, chosen, cfg, coords_fallback)


def resolve_element(
    ref: RefLike,
    observation: Observation | Any,
    *,
    sources: Sequence[str] = DEFAULT_SOURCES,
    config: MatchConfig | None = None,
    coords_fallback: CoordsPolicy = "unobserved",
    **options: Any,
) -> str:
    """The executor ID for ``ref`` in ``observation`` (same options as :func:`resolve`).

    Examples
    --------
    >>> tree = {"id": "1", "role": "button", "name": "Submit", "bbox": [0, 0, 80, 24]}
    >>> resolve_element({"role": "button", "name": "Submit"}, {"accessibility_tree": tree})
    'a11y:1'
    """
    return resolve(
        ref, observation, sources=sources, config=config, coords_fallback=coords_fallback,
        **options,
    ).executor_id  # fmt: skip


def resolve_many(
    refs: Iterable[RefLike],
    observation: Observation | Any,
    *,
    sources: Sequence[str] = DEFAULT_SOURCES,
    config: MatchConfig | None = None,
    coords_fallback: CoordsPolicy = "unobserved",
    **options: Any,
) -> list[Resolution | ResolutionError]:
    """Resolve many refs against one observation, as one batch per source.

    Each entry is what :func:`resolve` gives for that ref with the same options (answer,
    score, margin, alternatives, trace, or error), but the refs a source still has to judge
    are ranked together (:func:`resolver.batch.score_many`): the table, its indexes and the
    work that refs with the same name, role or containers have in common are shared.

    Parameters
    ----------
    refs:
        References (:class:`SemanticElementRef`, or their dict / JSON forms).
    observation:
        As for :func:`resolve`.
    sources, config, coords_fallback, **options:
        As for :func:`resolve`, for every ref.

    Returns
    -------
    list of Resolution or ResolutionError
        One entry per ref, in order: the :class:`ResolutionError` a ref raised is returned,
        not raised, so one missing element does not hide the others. An unreadable
        observation or invalid options still raise, as does ``refs`` that is a single
        reference or no iterable (:class:`InvalidReferenceError`).
    """
    items = _ref_items(refs)
    chosen, cfg = _settings(sources, config, coords_fallback, options)
    with no_cyclic_gc():  # a batch makes many short-lived objects and no cycles
        obs = Observation.from_any(observation)
        return _resolved_many(items, obs, chosen, cfg, coords_fallback)


def _resolved_many(
    items: Iterable[Any],
    obs: Observation,
    chosen: Sequence[str],
    cfg: MatchConfig,
    coords_fallback: CoordsPolicy,
) -> list[Resolution | ResolutionError]:
    """:func:`resolve_many` of ``items``, read and checked."""
    out: list[Resolution | ResolutionError | None] = []
    runs: dict[int, _Run] = {}
    for ref in items:
        try:
            runs[len(out)] = _Run(_coerce_ref(ref), obs, cfg)
            out.append(None)
        except ResolutionError as exc:
            out.append(exc)
    # Source by source, every reference still unanswered at once: the same trace, answer or
    # error per reference as resolve() gives, with one ranking pass per table.
    for source in chosen:
        pending = {i: run for i, run in runs.items() if out[i] is None}
        if not pending:
            break
        for i, found in _source_many(pending, obs, source, cfg, coords_fallback).items():
            out[i] = found
    return [runs[i].failure() if found is None else found for i, found in enumerate(out)]


def _source_many(
    runs: dict[int, _Run],
    observation: Observation,
    source: str,
    config: MatchConfig,
    coords_fallback: str,
) -> dict[int, Resolution | ResolutionError]:
    """One source for many runs: the answers and errors, by run, of those it settles."""
    if source == "coords":
        answered = {i: run.coords(coords_fallback) for i, run in runs.items()}
        return {i: found for i, found in answered.items() if found is not None}
    runs = {i: run for i, run in runs.items() if not run.upstream(source)}
    if not runs:
        return {}
    if SOURCES[source].region_builder is not None or not observation.has(source):
        # Windows around each reference's own box (or nothing to look at): one at a time.
        return _one_by_one(runs, source, config)
    try:
        table = observation.candidates(source)
    except SourceUnavailableError as exc:
        for run in runs.values():
            run.unavailable(source, exc)
        return {}
    try:
        decisions = decide_many([run.ref for run in runs.values()], table, config)
    except InvalidObservationError:
        raise
    except ResolutionError:
        # Raised for some reference: judged one at a time, it fails that reference only.
        return _one_by_one(runs, source, config)
    settled: dict[int, Resolution | ResolutionError] = {}
    for (i, run), decision in zip(runs.items(), decisions, strict=True):
        found = run.judged(source, decision, table)
        if found is not None:
            settled[i] = found
    return settled


def _one_by_one(
    runs: dict[int, _Run], source: str, config: MatchConfig
) -> dict[int, Resolution | ResolutionError]:
    """One source for each run in turn; an error ends its run only."""
    settled: dict[int, Resolution | ResolutionError] = {}
    for i, run in runs.items():
        try:
            found = run.source(source, config)
        except InvalidObservationError:
            raise
        except ResolutionError as exc:
            settled[i] = exc
            continue
        if found is not None:
            settled[i] = found
    return settled
