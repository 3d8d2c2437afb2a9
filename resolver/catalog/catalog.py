"""The element catalog: an indexed list of what an agent can act on, whose indexes survive
re-renders.

An index names an entry, and an entry keeps the :class:`~resolver.models.SemanticElementRef`
it was built from. When the page changed between the catalog and the action, the index is
not looked up in a new list (where it may now name a different element): the entry's
reference is resolved again on the new observation, and the answer is given only when it is
clear (a stricter threshold and margin than a plain :func:`~resolver.resolve`) or maps back
to this entry on the catalog's page, does not map back to another element, is claimed by
no other entry with a better score, and is not the look-alike of the element the entry's
recorded selectors still select (:meth:`Catalog._find_again`); otherwise a typed refusal
with the candidates.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import Any, Final

from pydantic_core import PydanticSerializationError

from ..adapters.dom.elements import ElementFacts
from ..capture.rows import ref_from_row
from ..chain import resolve, resolve_many
from ..config import MatchConfig
from ..errors import (
    AmbiguousMatchError,
    CatalogOutdatedError,
    ElementNotFoundError,
    ElementNotInteractableError,
    InvalidObservationError,
    ResolutionError,
)
from ..index import index_of
from ..models import SemanticElementRef
from ..observation import Observation
from ..results import Resolution
from ..roles import ACTIONABLE_ROLES
from ..snapshot.dom import dom_secrets
from ..snapshot.redact import MASK, Scrubber, is_sensitive
from ..table import CandidateTable
from ..text import valid_unicode
from ..web import MAX_ATTRIBUTE, MAX_NEARBY_CHARS
from .entries import actionable_rows, order_rows, page_facts, regions
from .model import CatalogEntry, CatalogView
from .render import render_catalog
from .targets import Target, parse_target, rows_for_selector, rows_for_text

__all__ = ["REUSE_CONFIG", "Catalog", "build_catalog", "catalog_version"]

REUSE_CONFIG: Final[MatchConfig] = MatchConfig(threshold=0.85, min_margin=0.15)
"""Threshold and margin for finding an entry again on a changed page: stricter than a plain
resolve, because the caller chose the element by its index and must never get another one
(measured in ``benchmarks/catalog``)."""

_MAX_VALUE: Final[int] = 200
_DEFAULT: Final[MatchConfig] = MatchConfig()
_MAX_CLAIMED: Final[int] = 4  # later observations whose claims are kept


def catalog_version(observation: Observation, table: CandidateTable) -> str:
    """12 hex digits of SHA-1 over the URL, the viewport, the table's structure (role and
    depth of every row) and the name of every row: the same while nothing an agent sees
    changed, different when the structure or any text did. Texts count, not only controls'
    names: a sorted table keeps its structure and its buttons' names, and only its rows'
    texts tell that index 1's "Delete" now sits in another user's row."""
    digest = hashlib.sha1()
    digest.update(
        f"{observation.url or ''}\0{_viewport(observation, table)}\0".encode(errors="surrogatepass")
    )
    digest.update(table.role_codes.tobytes())
    digest.update(table.depth.tobytes())
    digest.update("\x1e".join(table.names).encode(errors="surrogatepass"))
    return digest.hexdigest()[:12]


def _layout_digest(observation: Observation, table: CandidateTable) -> str:
    """SHA-1 over what :func:`catalog_version` covers but the texts: the URL, the viewport,
    the structure and the role and name of every actionable row. Equal for two observations
    whose controls are the same, in the same places of the same structure."""
    digest = hashlib.sha1()
    digest.update(
        f"{observation.url or ''}\0{_viewport(observation, table)}\0".encode(errors="surrogatepass")
    )
    digest.update(table.role_codes.tobytes())
    digest.update(table.depth.tobytes())
    for role, name in zip(table.roles, table.names, strict=True):
        if role in ACTIONABLE_ROLES:
            digest.update(f"{role}\x1f{name}\x1e".encode(errors="surrogatepass"))
    return digest.hexdigest()


def _viewport(observation: Observation, table: CandidateTable) -> tuple[float, float] | None:
    """The screen size the boxes are measured in, when known."""
    return observation.screen_size or table.screen_size


def _tri(value: int) -> bool | None:
    return None if value < 0 else bool(value)


def _entry(
    table: CandidateTable,
    facts: ElementFacts,
    row: int,
    index: int,
    region: str,
    scrubber: Scrubber,
    clear_px: float,
) -> CatalogEntry:
    """The catalog entry of one row (secrets the scrubber knows removed from its texts); one
    that lies under a desktop's dialog (:meth:`~resolver.table.CandidateTable.clear_point`)
    is not visible: the dialog is drawn over it."""
    attrs = facts.attrs(row)
    covered = (
        table.dialogs_over_any()
        and table.box(row) is not None
        and table.clear_point(row, clear_px) is None
    )
    value = table.values[row][:_MAX_VALUE]
    if value and _secret(table, facts, row):
        value = MASK
    return CatalogEntry(
        index=index,
        row=row,
        executor_id=table.executor_id(row),
        role=table.roles[row],
        name=scrubber.scrub(table.names[row]),
        value=scrubber.scrub(value),
        bbox=table.box(row),
        region=scrubber.scrub(region),
        visible=False if covered else _tri(int(table.visible[row])),
        enabled=_tri(int(table.enabled[row])),
        focused=_tri(int(table.focused[row])),
        href=scrubber.scrub(attrs.get("href") or "") or None,
        selectors=tuple(facts.selectors(row)),
        ref=_scrubbed_ref(ref_from_row(table, row), scrubber),
    )


def _scrubbed_ref(ref: SemanticElementRef, scrubber: Scrubber) -> SemanticElementRef:
    """``ref`` with the page's secrets removed from its texts (a name that echoes a secret
    then matches a little less well; a catalog is logged and shown)."""
    if not scrubber.count:
        return ref
    return ref.model_copy(
        update={
            "name": scrubber.scrub(ref.name) if ref.name else ref.name,
            "container_path": tuple(scrubber.scrub(c) for c in ref.container_path),
            # The mask may be longer than what it hides: keep within the field's bounds.
            "nearby_text": tuple(scrubber.scrub(t)[:MAX_NEARBY_CHARS] for t in ref.nearby_text),
            "anchors": tuple((scrubber.scrub(n), box) for n, box in ref.anchors),
            "panel": ref.panel and (ref.panel[0], scrubber.scrub(ref.panel[1])),
            "heading": scrubber.scrub(ref.heading) if ref.heading else ref.heading,
            "attributes": {k: scrubber.scrub(v)[:MAX_ATTRIBUTE] for k, v in ref.attributes.items()},
        }
    )


def _secret(table: CandidateTable, facts: ElementFacts, row: int) -> bool:
    """Whether the row's value is a secret (see :mod:`resolver.snapshot.redact`)."""
    return is_sensitive(
        table.roles[row], table.names[row], raw_role=table.raw_roles[row], attrs=facts.attrs(row)
    )


def _scrubber(
    obs: Observation, table: CandidateTable, facts: ElementFacts, rows: list[int]
) -> Scrubber:
    """A scrubber that knows the secret values of ``rows`` and of the page's secret fields."""
    scrubber = Scrubber()
    for row in rows:
        if table.values[row] and _secret(table, facts, row):
            scrubber.mask(table.values[row])
    if obs.dom_html is not None:
        dom_secrets(obs.dom_html, scrubber)
    return scrubber


def build_catalog(
    observation: Observation | Any,
    *,
    source: str = "a11y",
    row_tolerance: float = 8.0,
    config: MatchConfig | None = None,
) -> Catalog:
    """The catalog of what an agent can act on in ``observation``.

    Parameters
    ----------
    observation:
        An :class:`~resolver.Observation` (or anything ``Observation.from_any`` takes).
    source:
        ``"a11y"``, ``"dom"`` or ``"vision"``: whose table the entries come from.
    row_tolerance:
        Pixels within which two elements' tops count as one line of the order.
    config:
        Threshold and margin for finding entries again on a changed page
        (default :data:`REUSE_CONFIG`).

    Raises
    ------
    InvalidObservationError
        The observation lacks the source's input or cannot be read.

    Examples
    --------
    >>> tree = {"id": "1", "role": "form", "name": "Sign in", "children": [
    ...     {"id": "2", "role": "textbox", "name": "Email", "bbox": [10, 10, 200, 30]},
    ...     {"id": "3", "role": "button", "name": "Send", "bbox": [10, 40, 80, 60]}]}
    >>> catalog = build_catalog(Observation(accessibility_tree=tree))
    >>> [(e.index, e.role, e.name) for e in catalog.entries]
    [(0, 'textbox', 'Email'), (1, 'button', 'Send')]
    >>> catalog.resolve("index=1")
    'a11y:3'
    """
    obs = Observation.from_any(observation)
    table = obs.candidates(source)
    facts = page_facts(obs, table)
    region_of = regions(table)
    ordered = order_rows(table, actionable_rows(table, facts), row_tolerance)
    scrubber = _scrubber(obs, table, facts, ordered)
    clear_px = (config or REUSE_CONFIG).clear_px
    entries = tuple(
        _entry(table, facts, row, i, region_of[row], scrubber, clear_px)
        for i, row in enumerate(ordered)
    )
    view = CatalogView(
        version=catalog_version(obs, table),
        source=source,
        url=obs.url,
        title=_title(table),
        viewport=_viewport(obs, table),
        entries=entries,
    )
    return Catalog(view, obs, config=config)


def _title(table: CandidateTable) -> str | None:
    """The name of the outermost document or window row, when it has one."""
    for row in range(min(len(table), 3)):
        if table.roles[row] in ("document", "window", "application") and table.names[row]:
            return table.names[row]
    return None


class Catalog:
    """An indexed list of actionable elements (see :func:`build_catalog`).

    ``entries`` are in the catalog's order; ``version`` is the digest that tells whether two
    observations show the same page (:func:`catalog_version`).
    """

    def __init__(
        self,
        view: CatalogView,
        observation: Observation | None = None,
        *,
        config: MatchConfig | None = None,
    ) -> None:
        self.view = view
        self.observation = observation
        self.config = config or REUSE_CONFIG
        # Per later observation (kept alive here, so its id is not reused): which entry
        # claims each of its rows (see _claims). Bounded: an agent moves on page by page.
        self._claimed: dict[int, tuple[Observation, dict[int, tuple[float, int]]]] = {}
        self._lock = threading.Lock()
        self._layout: str | None = None  # _layout_digest of the catalog's own observation

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled and copied as its view, observation and config (what it learnt of later
        observations is not carried): a process pool can take it."""
        return (_remade, (self.view, self.observation, self.config))

    @property
    def version(self) -> str:
        """12 hex digits; see :func:`catalog_version`."""
        return self.view.version

    @property
    def source(self) -> str:
        """The source the entries come from."""
        return self.view.source

    @property
    def entries(self) -> tuple[CatalogEntry, ...]:
        """The entries, in order."""
        return self.view.entries

    def __len__(self) -> int:
        return len(self.view.entries)

    def __repr__(self) -> str:
        return f"Catalog(version={self.version!r}, source={self.source!r}, entries={len(self)})"

    def entry(self, index: int) -> CatalogEntry:
        """Entry ``index``; :class:`~resolver.errors.InvalidTargetError` when there is none."""
        return self.entries[parse_target(f"index={index}", len(self)).index]

    def ref(self, index: int) -> Any:
        """The :class:`~resolver.models.SemanticElementRef` entry ``index`` was built from."""
        return self.entry(index).ref

    def render(
        self, *, max_chars: int = 6000, max_tokens: int | None = None,
        covered: Collection[int] = (),
    ) -> str:  # fmt: skip
        """The abbreviated view for a model, grouped by region, within a size budget
        (``max_tokens`` is estimated as four characters a token); ``covered``: indexes
        something else is drawn over on the live page (``[covered]``,
        :func:`resolver.act.covered.covered_entries`)."""
        return render_catalog(self.view, max_chars=max_chars, max_tokens=max_tokens,
                              covered=covered)  # fmt: skip

    def to_json(self, *, indent: int | None = None) -> str:
        """The full view (:class:`CatalogView`), JSON; half a character in the page's text
        (a lone surrogate, which UTF-8 cannot carry) is written as U+FFFD."""
        try:
            return self.view.model_dump_json(indent=indent)
        except PydanticSerializationError:
            view = valid_unicode(self.view.model_dump(mode="json"))
            return json.dumps(view, indent=indent, ensure_ascii=False,
                              separators=None if indent else (",", ":"))  # fmt: skip

    @classmethod
    def from_json(cls, text: str | bytes, *, config: MatchConfig | None = None) -> Catalog:
        """A catalog read back from :meth:`to_json` (without its observation: pass one to
        :meth:`resolve`).

        Raises
        ------
        InvalidObservationError
            The text is not a catalog.
        """
        try:
            view = CatalogView.model_validate_json(text)
        except ValueError as exc:
            raise InvalidObservationError(f"not a catalog: {exc}") from exc
        return cls(view, None, config=config)

    @staticmethod
    def json_schema() -> dict[str, Any]:
        """JSON Schema of :meth:`to_json`'s output."""
        return CatalogView.model_json_schema()

    def resolve(
        self,
        target: str | int,
        *,
        expected_version: str | None = None,
        observation: Observation | Any = None,
    ) -> str:
        """The executor ID of ``target`` in ``observation`` (default: the catalog's own).

        Parameters
        ----------
        target:
            ``"index=N"`` (or ``N``), ``"css=..."``, ``"xpath=..."`` or ``"text=..."``.
        expected_version:
            The version the caller chose the index on; when it is not this catalog's,
            :class:`~resolver.errors.CatalogOutdatedError` is raised rather than guessing
            which element that index meant.
        observation:
            What the page shows now. When it differs from the catalog's observation, an
            index is resolved again from its entry's reference: the same element, or a
            refusal.

        Raises
        ------
        InvalidTargetError
            ``VALIDATION_ERROR``: a malformed target, or an index the catalog lacks.
        CatalogOutdatedError
            ``CATALOG_OUTDATED``: ``expected_version`` is not this catalog's version.
        ElementNotFoundError, AmbiguousMatchError
            The element is not on the new page, or cannot be told apart there.
        ElementNotInteractableError
            ``ELEMENT_NOT_INTERACTABLE``: found, but hidden or disabled.
        """
        parsed = parse_target(target, len(self))
        if expected_version is not None and expected_version != self.version:
            raise CatalogOutdatedError(
                f"the index was chosen on catalog {expected_version}, this is {self.version}: "
                "render the catalog again and choose again",
                details={"expected_version": expected_version, "version": self.version},
                rule="refuse.catalog_outdated",
            )
        obs = self._observation(observation)
        if parsed.kind == "index":
            return self._index(parsed, obs)
        table = obs.candidates(self.source)
        if parsed.kind == "text":
            rows = rows_for_text(table, parsed.value)
        else:
            rows = rows_for_selector(table, page_facts(obs, table), parsed.kind, parsed.value)
        return _only(table, rows, parsed)

    def _observation(self, observation: Observation | Any) -> Observation:
        """The observation to act in."""
        if observation is not None:
            return Observation.from_any(observation)
        if self.observation is None:
            raise InvalidObservationError(
                "this catalog was read from JSON and has no observation: pass observation="
            )
        return self.observation

    def _index(self, target: Target, obs: Observation) -> str:
        """An entry in ``obs``: itself on the catalog's own page, else found again."""
        entry = self.entries[target.index]
        if obs is self.observation:
            self._check_uncovered(obs.candidates(self.source), entry.row, entry)
            _check_interactable(entry.visible, entry.enabled, entry)
            return entry.executor_id
        table = obs.candidates(self.source)
        if entry.row < len(table) and (
            catalog_version(obs, table) == self.version or self._same_place(entry, obs, table)
        ):
            row = entry.row  # nothing around the entry changed: the same row is its element
        else:
            row = self._find_again(entry, obs, table)
        self._check_uncovered(table, row, entry)
        _check_interactable(_tri(int(table.visible[row])), _tri(int(table.enabled[row])), entry)
        return table.executor_id(row)

    def _check_uncovered(self, table: CandidateTable, row: int, entry: CatalogEntry) -> None:
        """Refuse an element that lies under a dialog drawn over its window on a desktop's
        tree (:meth:`~resolver.table.CandidateTable.clear_point`) with
        ``ELEMENT_NOT_INTERACTABLE``: a click on it would land on the dialog."""
        if not table.dialogs_over_any() or table.box(row) is None:
            return
        if table.clear_point(row, self.config.clear_px) is not None:
            return
        dialog = table.dialogs_over(row)[-1]
        raise ElementNotInteractableError(
            f"index {entry.index} ({entry.role} {entry.name!r}) lies under the "
            f"{table.roles[dialog]} {table.names[dialog][:80]!r}: answer the dialog first",
            details={"index": entry.index, "state": "covered"},
            rule="refuse.not_interactable",
        )

    def _same_place(self, entry: CatalogEntry, obs: Observation, table: CandidateTable) -> bool:
        """Whether only texts away from ``entry`` changed: the same controls in the same
        structure (:func:`_layout_digest`), and the entry's row with the same role, name and
        containers (a clock that ticks elsewhere keeps an index on its row; a sorted table,
        whose rows' texts moved, does not)."""
        if self.observation is None:
            return False
        old = self.observation.candidates(self.source)
        if self._layout is None:
            self._layout = _layout_digest(self.observation, old)
        row = entry.row
        return (
            row < len(old)
            and old.roles[row] == table.roles[row]
            and old.names[row] == table.names[row]
            and old.containers[row] == table.containers[row]
            and _layout_digest(obs, table) == self._layout
        )

    def _find_again(self, entry: CatalogEntry, obs: Observation, table: CandidateTable) -> int:
        """The row of ``entry``'s element on a changed page, or a refusal.

        The entry's reference is resolved with the library's usual decision, and the answer's
        own reference is resolved back on the catalog's page. A clear answer
        (:attr:`config`'s threshold and margin) is taken unless it maps back to another
        element (the survivor of a removed look-alike is the counterpart of that
        look-alike). A narrower answer is taken only when it maps back to this entry and
        neither has look-alikes (elements with its role, name and container path): among
        look-alikes a shifted row maps back as well as the right one."""
        loose = replace(self.config, threshold=_DEFAULT.threshold, min_margin=_DEFAULT.min_margin)
        try:
            found = resolve(
                entry.ref, obs, sources=(self.source,), config=loose, coords_fallback="never"
            )
        except ResolutionError as exc:
            raise _refusal(entry, self.version, exc) from exc
        row = _resolved_row(found, obs, table)
        self._check_claim(entry, found, obs, table, row, loose)
        self._check_selectors(entry, found, obs, table, row)
        back, alike = self._back(table, row, loose)
        clear = found.score >= self.config.threshold and found.margin >= self.config.min_margin
        # A verified recorded selector may answer behind a better-scoring row (margin < 0):
        # a narrow answer is taken only when it also leads by the usual margin.
        narrow = found.score >= loose.threshold and found.margin >= loose.min_margin
        if clear and (back is None or self._same_element(entry, back)):
            return row
        if (
            narrow
            and not clear
            and back == entry.row
            and not alike
            and entry.ref.occurrence is None
        ):
            return row
        why = (
            "is the counterpart of another element of the catalog's page"
            if back is not None and not self._same_element(entry, back)
            else "fits only narrowly and does not map back to this entry"
        )
        if self.observation is None:
            why = "fits only narrowly and the catalog has no page to map it back to (from JSON)"
        raise _refusal(
            entry,
            self.version,
            ElementNotFoundError(
                f"{found.candidate.name!r} (score {found.score:.2f}, margin {found.margin:.2f}) "
                + why,
                candidates=(found.candidate, *found.alternatives),
                trace=found.trace,
                rule="refuse.index_maps_elsewhere",
            ),
        )

    def _check_claim(
        self, entry: CatalogEntry, found: Resolution, obs: Observation, table: CandidateTable,
        row: int, config: MatchConfig,
    ) -> None:  # fmt: skip
        """Refuse ``row`` when another entry claims it with at least ``found``'s score."""
        rival = self._claims(obs, table, config).get(row)
        if rival is None or rival[1] == entry.index or rival[0] < found.score:
            return
        other = self.entries[rival[1]]
        raise _refusal(
            entry,
            self.version,
            ElementNotFoundError(
                f"{found.candidate.name!r} fits index {other.index} ({other.role} "
                f"{other.name!r}) better (score {rival[0]:.2f} against {found.score:.2f}): "
                "one element is not two entries",
                candidates=(found.candidate, *found.alternatives),
                trace=found.trace,
                rule="refuse.index_claimed",
            ),
        )

    def _check_selectors(
        self, entry: CatalogEntry, found: Resolution, obs: Observation, table: CandidateTable,
        row: int,
    ) -> None:  # fmt: skip
        """Refuse ``row`` when the entry's recorded selectors still select one element, a
        look-alike of ``row`` (same role and name) and not ``row`` itself: structure and
        position then disagree about which of two twins the index named (two same-named links
        of one list item whose order changed), and only one of them can be right. A selector
        is evidence, not proof: when the recorded innermost container (a table row's text)
        is around ``row`` and not around the selected look-alike, the selector is the stale
        one (rows sorted under a positional XPath) and ``row`` stands."""
        other = _selector_row(entry.ref, obs, table)
        if other is None or table.executor_id(other) == table.executor_id(row):
            return
        if table.is_ancestor(other, row) or table.is_ancestor(row, other):
            return  # one click target
        if table.roles[other] != table.roles[row] or _fold(table.names[other]) != _fold(
            table.names[row]
        ):
            return
        if _stale_selector(entry.ref, table, row, other):
            return
        raise _refusal(
            entry,
            self.version,
            AmbiguousMatchError(
                f"{found.candidate.name!r} fits best, but the recorded selectors select its "
                f"look-alike {table.executor_id(other)}",
                candidates=(found.candidate, *found.alternatives),
                trace=found.trace,
                rule="ambiguous.index_selectors",
            ),
        )

    def _claims(
        self, obs: Observation, table: CandidateTable, config: MatchConfig
    ) -> dict[int, tuple[float, int]]:
        """Per row of ``obs``, the best claim on it: ``(score, entry index)`` of the entry
        whose reference resolves to it with the highest score (every entry resolved once per
        observation, with ``resolve_many``, and kept)."""
        with self._lock:
            cached = self._claimed.get(id(obs))
            if cached is not None and cached[0] is obs:
                return cached[1]
        found = resolve_many([e.ref for e in self.entries], obs, sources=(self.source,),
                             config=config, coords_fallback="never")  # fmt: skip
        claims: dict[int, tuple[float, int]] = {}
        for entry, answer in zip(self.entries, found, strict=True):
            if isinstance(answer, ResolutionError):
                continue
            try:
                row = _resolved_row(answer, obs, table)
            except InvalidObservationError:
                continue
            if answer.score > claims.get(row, (-1.0, -1))[0]:
                claims[row] = (answer.score, entry.index)
        with self._lock:
            if len(self._claimed) >= _MAX_CLAIMED:
                self._claimed.pop(next(iter(self._claimed)))
            self._claimed[id(obs)] = (obs, claims)
        return claims

    def _back(
        self, table: CandidateTable, row: int, config: MatchConfig
    ) -> tuple[int | None, bool]:
        """The catalog page's row that ``row`` of the new page resolves back to (``None``
        when there is no page or it refuses), and whether ``row`` has look-alikes."""
        back_ref = ref_from_row(table, row)
        if self.observation is None:
            return None, back_ref.occurrence is not None
        try:
            back = resolve(back_ref, self.observation, sources=(self.source,), config=config,
                           coords_fallback="never")  # fmt: skip
        except ResolutionError:
            return None, back_ref.occurrence is not None
        old = self.observation.candidates(self.source)
        return _answer_row(back.executor_id, self.observation, old), back_ref.occurrence is not None

    def _same_element(self, entry: CatalogEntry, row: int) -> bool:
        """Whether ``row`` of the catalog's page is ``entry``'s element (or inside it, or
        around it as one click target)."""
        if row == entry.row or self.observation is None:
            return True
        old = self.observation.candidates(self.source)
        return old.is_ancestor(row, entry.row) or old.is_ancestor(entry.row, row)


def _refusal(entry: CatalogEntry, version: str, exc: ResolutionError) -> ResolutionError:
    """``exc`` again, saying which index it is about."""
    return type(exc)(
        f"index {entry.index} ({entry.role} {entry.name!r}): the page changed and "
        f"{exc.message[0].lower()}{exc.message[1:]}",
        code=exc.code,
        candidates=exc.evidence.candidates,
        trace=exc.evidence.trace,
        details={**exc.evidence.details, "index": entry.index, "version": version},
        rule=exc.evidence.rule,
    )


def _resolved_row(found: Resolution, obs: Observation, table: CandidateTable) -> int:
    """The row a resolution answered: its candidate's own row when the table has it (no
    selector to run again), else the row its executor ID names."""
    row = index_of(table).rows_by_id.get(found.candidate.id)
    return row if row is not None else _answer_row(found.executor_id, obs, table)


def _answer_row(executor_id: str, obs: Observation, table: CandidateTable) -> int:
    """The row an answer names (a ``css:`` answer is a verified selector: the row it selects)."""
    row = table.executor_row(executor_id)
    if row is None and executor_id.startswith("css:"):
        hits = rows_for_selector(table, page_facts(obs, table), "css", executor_id[4:])
        row = hits[0] if len(hits) == 1 else None
    if row is None:
        raise InvalidObservationError(f"answer {executor_id} has no row")
    return row


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()


def _stale_selector(ref: SemanticElementRef, table: CandidateTable, row: int, other: int) -> bool:
    """Whether the recorded innermost container names ``row``'s surroundings and not those
    of ``other``, the element the recorded selectors select now."""
    if not ref.container_path:
        return False
    inner = _fold(ref.container_path[-1])
    mine = {_fold(c) for c in table.containers[row]}
    theirs = {_fold(c) for c in table.containers[other]}
    return bool(inner) and inner in mine and inner not in theirs


def _selector_row(ref: SemanticElementRef, obs: Observation, table: CandidateTable) -> int | None:
    """The one row that every recorded selector still selecting exactly one element agrees
    on (``None`` when none does or they disagree)."""
    facts: ElementFacts | None = None
    chosen: set[str] = set()
    first: int | None = None
    for kind, selector in (("xpath", ref.xpath), ("css", ref.css_selector)):
        if not selector:
            continue
        facts = facts or page_facts(obs, table)
        try:
            hits = rows_for_selector(table, facts, kind, selector)
        except ResolutionError:
            continue
        ids = {table.executor_id(h) for h in hits}
        if len(ids) != 1:
            continue
        chosen |= ids
        first = hits[0] if first is None else first
    return first if len(chosen) == 1 else None


def _check_interactable(visible: bool | None, enabled: bool | None, entry: CatalogEntry) -> None:
    """Refuse a hidden or disabled element with ``ELEMENT_NOT_INTERACTABLE``."""
    if visible is False or enabled is False:
        state = "hidden" if visible is False else "disabled"
        raise ElementNotInteractableError(
            f"index {entry.index} ({entry.role} {entry.name!r}) is {state}",
            details={"index": entry.index, "state": state},
            rule="refuse.not_interactable",
        )


def _only(table: CandidateTable, rows: Sequence[int], target: Target) -> str:
    """The one row a selector or text target selects, or a typed refusal."""
    if len(rows) == 1:
        return table.executor_id(rows[0])
    found = [table.row(r) for r in rows[:10]]
    if not rows:
        raise ElementNotFoundError(
            f"{target.kind}={target.value!r} selects nothing", rule="refuse.target_selects_nothing"
        )
    raise AmbiguousMatchError(
        f"{target.kind}={target.value!r} selects {len(rows)} elements",
        candidates=found,
        rule="ambiguous.target_selects_many",
    )


def _remade(view: CatalogView, observation: Observation | None, config: MatchConfig) -> Catalog:
    """The catalog :meth:`Catalog.__reduce__` took apart."""
    return Catalog(view, observation, config=config)
