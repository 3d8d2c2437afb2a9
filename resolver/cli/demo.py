"""``resolver demo``: record every labelled element of the bundled captured pages and resolve
it on their changed versions; print what went right, what was refused, and one example."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Annotated, Any

import typer

from ..chain import resolve, resolve_element
from ..errors import ResolutionError
from ..replay import Outcome, Trial, demo_captures, folder_captures, iter_trials, run_trials
from ..replay import summarize as summary_of
from ._inputs import ALL_SOURCES, SourcesOpt, read_sources
from ._output import EXIT_WRONG, CliError, progress

__all__ = ["register", "run_demo"]

_COLUMNS = ("trials", "correct", "wrong", "abstained", "rejected", "false_hit")
_HEADER = (
    f"{'scenario':<26} {'refs':>4} {'correct':>7} {'wrong':>5} {'abstain':>7} "
    f"{'removed ok':>10} {'false hit':>9}"
)


def register(app: typer.Typer) -> None:
    """Add the ``demo`` command."""
    app.command("demo")(run_demo)


def _outcomes(trials: list[Trial], sources: tuple[str, ...]) -> list[Outcome]:
    """Resolve every trial, with a progress bar."""
    outcomes: list[Outcome] = []
    with progress(len(trials), "resolving") as advance:
        for trial in trials:
            outcomes += run_trials([trial], lambda r, o: resolve_element(r, o, sources=sources))
            advance()
    return outcomes


def run_demo(
    fixtures: Annotated[
        Path | None,
        typer.Argument(help="A folder of capture folders (default: the bundled captures)."),
    ] = None,
    sources: SourcesOpt = ALL_SOURCES,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Print every trial.")] = False,
) -> None:
    """Resolve the bundled captured pages' elements on their changed versions.

    Exit 0 no wrong answer, 1 some answer was wrong, 2 the captures cannot be read.
    """
    chosen = read_sources(sources)
    try:
        captures = folder_captures(fixtures) if fixtures else demo_captures()
        trials = list(iter_trials(captures))
        outcomes = _outcomes(trials, chosen)
    except ResolutionError as exc:
        raise CliError(exc.message) from exc
    print(f"Recorded on each base page, resolved on its changed versions (sources: {sources})")
    print()
    total = _table(outcomes)
    print()
    print(
        f"accuracy on present targets {total['accuracy_present']:.1%}, "
        f"wrong answers {total['wrong_rate_answered']:.1%} of answers, "
        f"removed targets rejected {total['rejection_removed']:.1%}, "
        f"median {total['median_ms']:.2f} ms per resolve (first call per page builds its table)"
    )
    print()
    _details(outcomes, verbose=verbose)
    _example(trials, chosen)
    if total["wrong"]:
        raise typer.Exit(EXIT_WRONG)


def _row(label: str, counts: dict[str, Any]) -> str:
    trials, correct, wrong, abstained, rejected, false_hit = (counts[c] for c in _COLUMNS)
    return (
        f"{label:<26} {trials:>4} {correct:>7} {wrong:>5} {abstained:>7} "
        f"{rejected:>10} {false_hit:>9}"
    )


def _table(outcomes: list[Outcome]) -> dict[str, Any]:
    """Print one line per scenario and a total; return the total's summary."""
    by_scenario: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        by_scenario[outcome.trial.scenario].append(outcome)
    print(_HEADER)
    print("-" * len(_HEADER))
    for scenario, items in by_scenario.items():
        print(_row(scenario, summary_of(items)))
    total = summary_of(outcomes)
    print("-" * len(_HEADER))
    print(_row("all", total))
    return total


def _details(outcomes: list[Outcome], *, verbose: bool) -> None:
    """Every trial (verbose), or only those not answered right."""
    if not verbose:
        print("Not answered or not right (abstentions are by design when evidence is thin):")
    for outcome in outcomes:
        t = outcome.trial
        if verbose:
            print(
                f"{outcome.verdict:<9} {t.scenario:<26} {t.key:<36} "
                f"expected={t.expected} answer={outcome.answer} {outcome.error_code or ''}"
            )
        elif outcome.verdict in ("wrong", "false_hit", "abstained"):
            print(
                f"  {outcome.verdict:<9} {t.scenario:<24} {t.key:<34} "
                f"{outcome.error_code or outcome.answer}"
            )


def _example(trials: list[Trial], sources: tuple[str, ...]) -> None:
    """One resolution in full: the recorded reference, the answer and the rival it beat."""
    example = next(
        (t for t in trials if t.key.endswith("display.ok") and ".v2" in t.scenario), None
    )
    if example is None:
        return
    res = resolve(example.ref, example.changed.observation, sources=sources)
    print()
    print(f"Example: {example.key} recorded as")
    print("  " + example.ref.model_dump_json(exclude_none=True))
    print(
        f"resolved in {example.changed.name} to {res.executor_id} "
        f"(score {res.score:.3f}, margin {res.margin:.3f}); runner-up:"
    )
    if res.alternatives:
        alt = res.alternatives[0]
        print(
            f"  {alt.executor_id} {alt.role} {alt.name!r} in {list(alt.container_path)} "
            f"score {alt.score:.3f}"
        )
