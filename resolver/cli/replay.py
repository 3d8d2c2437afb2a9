"""``resolver replay``: replay recordings (files, folders, capture folders) locally or on a
Dask cluster, print the tables and write the JSON and HTML reports."""

from __future__ import annotations

import time
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from ..limits import DEFAULT_LIMITS
from ..replay.model import ReplayError, ReplayOptions, Task
from ..replay.report import build_report, write_json
from ..replay.run import ResultStore, replay_local
from ..replay.sources import discover
from ._inputs import (
    ALL_SOURCES,
    ConfidenceOpt,
    Coords,
    CoordsOpt,
    JsonOpt,
    LimitOpt,
    MarginOpt,
    SourcesOpt,
    ThresholdOpt,
    checked_path,
    read_limits,
    read_sources,
)
from ._output import EXIT_WRONG, MAX_LINE, CliError, cell, console, emit_json, progress

__all__ = ["register", "run_heal", "run_replay"]


class Against(StrEnum):
    """Which snapshot each step is resolved against."""

    preceding = "preceding"
    next = "next"
    last = "last"


PathsArg = Annotated[
    list[Path],
    typer.Argument(metavar="PATH", help="Recording files, folders of them, or capture folders."),
]
OutOpt = Annotated[
    Path, typer.Option(help="Folder for results/ (one file per recording) and the reports.")
]
ResumeOpt = Annotated[
    bool, typer.Option(help="Reuse results in --out made from the same files and options.")
]
SchedulerOpt = Annotated[str | None, typer.Option(help="Dask scheduler address (tcp://host:8786).")]
WorkersOpt = Annotated[
    int | None, typer.Option(min=1, max=256, help="Start a local Dask cluster of N workers.")
]
TimeoutOpt = Annotated[
    float, typer.Option(min=0.1, help="Seconds to wait for the scheduler or local cluster.")
]
ChunkOpt = Annotated[
    int | None,
    typer.Option(
        min=1,
        max=10000,
        help="Recordings per cluster task (default: about eight tasks per worker thread, "
        "at most 50 recordings each).",
    ),
]
ThreadsOpt = Annotated[
    bool, typer.Option(help="Local cluster workers as threads of this process (tests).")
]
AgainstOpt = Annotated[
    Against,
    typer.Option(
        help="Resolve each step against the snapshot before it, the next one (the page after "
        "the action), or the last one."
    ),
]
ObservationOpt = Annotated[
    Path | None, typer.Option(help="Resolve every step against this snapshot file instead.")
]
HtmlOpt = Annotated[bool, typer.Option(help="Also write report.html.")]
PicturesOpt = Annotated[
    int, typer.Option(min=0, max=200, help="Explain pictures of failures in the HTML.")
]
StrictOpt = Annotated[bool, typer.Option(help="Exit 1 when any answer is wrong.")]
HealOpt = Annotated[
    Path | None,
    typer.Option(
        "--heal",
        metavar="OUT_DIR",
        help="Instead of judging the steps, heal the recordings: resolve every step on the "
        "snapshot --against selects (or --observation) and write copies whose elements are "
        "recorded from the elements found there, with heal-report.json and heal-report.md, "
        "into OUT_DIR (never over an input).",
    ),
]
CompleteOpt = Annotated[
    bool,
    typer.Option(
        "--complete",
        help="Complete each reference from the snapshot it was recorded on (its look-alikes, "
        "anchors and nearby texts) before resolving it; for references written by other tools.",
    ),
]


def register(app: typer.Typer) -> None:
    """Add the ``replay`` command."""
    app.command("replay")(run_replay)


def _run(
    tasks: list[Task],
    options: ReplayOptions,
    store: ResultStore,
    resume: bool,
    cluster: tuple[str | None, int | None, bool, float, int | None],
) -> list[dict[str, Any]]:
    """Replay locally, or on the cluster when a scheduler or a worker count is given."""
    scheduler, workers, threads, timeout, chunk = cluster
    with progress(len(tasks), "replaying") as advance:
        if scheduler is None and workers is None:
            return replay_local(tasks, options, store=store, resume=resume, progress=advance)
        from ..replay.cluster import connect, replay_dask

        with connect(scheduler, workers=workers, processes=not threads, timeout=timeout) as client:
            return replay_dask(client, tasks, options, store=store, resume=resume,
                               progress=advance, chunk=chunk)  # fmt: skip


def _tables(report: dict[str, Any]) -> None:
    from rich.table import Table

    def pct(value: Any) -> str:
        return "–" if value is None else f"{100 * value:.1f}%"

    columns = ("recording", "mode", "status", "steps", "correct", "wrong", "abstained",
               "rejected", "false hit", "accuracy", "median ms")  # fmt: skip
    table = Table(*columns, title="per recording")
    for r in report["recordings"]:
        median = "–" if r["median_ms"] is None else f"{r['median_ms']:.2f}"
        name = (
            r["recording"] if r["recording"].startswith("captures/") else Path(r["recording"]).name
        )
        table.add_row(cell(name), cell(r.get("mode") or ""), cell(r["status"]), str(r["steps"]),
                      str(r["correct"]), str(r["wrong"]), str(r["abstained"]), str(r["rejected"]),
                      str(r["false_hit"]), pct(r["accuracy"]), median)  # fmt: skip
    out = console()
    out.print(table)
    o = report["overall"]
    snapshots = report["meta"].get("snapshots")
    beside = f", {snapshots} snapshot files beside them" if snapshots else ""
    out.print(
        f"{o['recordings']} recordings ({o['corrupt']} corrupt, skipped{beside}), "
        f"{o['resolutions']} "
        f"resolutions: accuracy {pct(o['accuracy'])}, wrong {pct(o['wrong_rate'])} of judged "
        f"answers, removed rejected {pct(o['rejection'])}, median {o['median_ms'] or 0:.2f} ms"
    )
    rules = Table("rule", "steps", "correct", "wrong", "abstained", "rejected", "false hit",
                  title="by deciding rule")  # fmt: skip
    for rule, r in report.get("by_rule", {}).items():
        rules.add_row(cell(rule), str(r["steps"]), str(r["correct"]), str(r["wrong"]),
                      str(r["abstained"]), str(r["rejected"]), str(r["false_hit"]))  # fmt: skip
    if report.get("by_rule"):
        out.print(rules)
    for bad in report["corrupt"]:
        out.print(f"[red]skipped[/] {cell(bad['recording'])}: {cell(bad['error'], MAX_LINE)}")


def _write(report: dict[str, Any], results: list[dict[str, Any]], out: Path,
           options: ReplayOptions, html: bool, pictures: int) -> None:  # fmt: skip
    write_json(report, out / "report.json")
    if html:
        from ..replay.html import failure_pictures, render_html

        with console(stderr=True).status("drawing the explain pictures..."):
            pics = failure_pictures(results, options, limit=pictures) if pictures else []
        page = render_html(report, pics)  # a file name's undecodable bytes show as "?"
        (out / "report.html").write_text(page, encoding="utf-8", errors="replace")
    written = f"report.json{', report.html' if html else ''}"
    console(stderr=True).print(f"reports in {cell(out)}/ ({written})")


def _recordings_only(results: list[dict[str, Any]], paths: list[Path]) -> list[dict[str, Any]]:
    """The results of recordings: snapshot files found beside them are left out (a folder
    holds a recording and the snapshots its timeline names); none left is bad input."""
    recordings = [r for r in results if r["status"] != "snapshot"]
    if not recordings:
        shown = ", ".join(str(p) for p in paths)
        raise CliError(
            f"no recordings in {shown}: only snapshot files ({len(results)}), which a "
            "recording names in its timeline"
        )
    return recordings


def _finish(report: dict[str, Any], as_json: bool, strict: bool) -> None:
    """Print the report; exit 2 when every recording was corrupt, 1 with ``--strict`` when
    an answer was wrong."""
    if as_json:
        emit_json(report)
    else:
        _tables(report)
    overall = report["overall"]
    if overall["corrupt"] == overall["recordings"]:
        raise CliError(f"every recording given is corrupt ({overall['corrupt']}): nothing was "
                       "replayed (see the skipped lines or report.json)")  # fmt: skip
    if strict and (overall["wrong"] or overall["false_hit"]):
        raise typer.Exit(EXIT_WRONG)


def _checked(
    paths: list[Path], out: Path, observation: Path | None, both: bool
) -> tuple[list[Path], Path]:
    """The paths and the output folder, checked: every one a possible file name, the
    observation an existing file, not both --scheduler and --workers (``both``)."""
    if both:
        raise CliError("give --scheduler or --workers, not both")
    checked = [checked_path(path, "PATH") for path in paths]
    if observation is not None and not checked_path(observation, "--observation").is_file():
        raise CliError(f"--observation: no such file: {observation}")
    return checked, checked_path(out, "--out")


def run_replay(
    paths: PathsArg,
    out: OutOpt = Path("replay-report"),
    resume: ResumeOpt = True,
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
    connect_timeout: TimeoutOpt = 30.0,
    chunk: ChunkOpt = None,
    threads: ThreadsOpt = False,
    against: AgainstOpt = Against.preceding,
    observation: ObservationOpt = None,
    sources: SourcesOpt = ALL_SOURCES,
    threshold: ThresholdOpt = None,
    margin: MarginOpt = None,
    min_confidence: ConfidenceOpt = None,
    complete: CompleteOpt = False,
    coords: CoordsOpt = Coords.unobserved,
    html: HtmlOpt = True,
    pictures: PicturesOpt = 8,
    strict: StrictOpt = False,
    limit: LimitOpt = None,
    heal: HealOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Re-resolve every decision and human action of recordings and report how they fare.

    Corrupt recordings are reported and skipped; snapshot files kept beside the recordings
    are not recordings and are left out. A recording over --limit max_recording_bytes=N is
    skipped as corrupt; the others (max_nodes, max_depth, ...) apply to every snapshot a step
    is resolved against. Exit 0 done (1 with --strict when an answer was wrong), 2 bad input
    (no recordings, every recording corrupt, a bad option or --limit, unknown source,
    unreachable scheduler, the dask extra missing); with --heal, 1 means a step was refused.
    """
    paths, out = _checked(paths, out, observation, scheduler is not None and workers is not None)
    options = ReplayOptions(
        sources=read_sources(sources), threshold=threshold, min_margin=margin,
        min_confidence=min_confidence, against=against.value, coords_fallback=coords.value,
        observation=str(observation) if observation else None, complete=complete,
        limits=read_limits(limit) or DEFAULT_LIMITS,
    )  # fmt: skip
    if heal is not None:
        return run_heal(paths, heal, options, as_json=as_json, strict=strict)
    start = time.perf_counter()
    try:
        tasks = discover(paths, skip=out)
        out.mkdir(parents=True, exist_ok=True)
        cluster = (scheduler, workers, threads, connect_timeout, chunk)
        results = _run(tasks, options, ResultStore(out, options), resume, cluster)
    except ReplayError as exc:
        raise CliError(str(exc)) from exc
    except OSError as exc:
        raise CliError(f"--out: cannot write {out}: {exc.strerror or exc}") from exc
    where = scheduler or (f"LocalCluster({workers})" if workers else "local")
    recordings = _recordings_only(results, paths)
    meta = {"against": options.against, "sources": ",".join(options.sources),
            "scheduler": where, "seconds": round(time.perf_counter() - start, 3),
            "snapshots": len(results) - len(recordings)}  # fmt: skip
    report = build_report(recordings, meta=meta)
    _write(report, recordings, out, options, html, pictures)
    _finish(report, as_json, strict)


def run_heal(
    paths: list[Path], out: Path, options: ReplayOptions, *, as_json: bool, strict: bool
) -> None:
    """Heal every recording file under ``paths`` into ``out``; print what was healed."""
    from ..replay.heal import HealReport, heal_one, write_reports
    from ..replay.model import RecordingError

    out = checked_path(out, "--heal")
    target = out.resolve()
    if any(p.resolve() == target or p.resolve().parent == target for p in paths):
        raise CliError(f"--heal: {out} holds the recordings given; the healed copies would "
                       "overwrite them (choose another folder)")  # fmt: skip
    try:
        tasks = [t for t in discover(paths, skip=out) if t.kind == "file"]
    except ReplayError as exc:
        raise CliError(str(exc)) from exc
    reports: list[HealReport] = []
    failed: list[tuple[str, str]] = []
    written: set[str] = set()
    for task in tasks:
        name = Path(task.path).name
        if name in written:
            failed.append((task.path, f"another recording named {name} was healed already"))
            continue
        try:
            reports.append(heal_one(Path(task.path), out, options))
            written.add(name)
        except RecordingError as exc:
            failed.append((task.path, str(exc)))
        except ReplayError as exc:
            raise CliError(str(exc)) from exc
        except OSError as exc:
            raise CliError(f"--heal: cannot write {out}: {exc.strerror or exc}") from exc
    if not reports:
        raise CliError(f"no recording could be healed ({len(failed)} skipped as corrupt)")
    write_reports(reports, out)
    _print_heal(reports, failed, out, as_json)
    if strict and any(r.counts()["refused"] for r in reports):
        raise typer.Exit(EXIT_WRONG)


def _print_heal(
    reports: list[Any], failed: list[tuple[str, str]], out: Path, as_json: bool
) -> None:
    if as_json:
        emit_json({"recordings": [r.to_dict() for r in reports],
                   "skipped": [{"recording": p, "error": e} for p, e in failed]})  # fmt: skip
        return
    from rich.table import Table

    table = Table("recording", "steps", "healed", "changed", "refused", "skipped", "wrong",
                  title="healed")  # fmt: skip
    for report in reports:
        c = report.counts()
        table.add_row(cell(Path(report.recording).name), *(str(c[k]) for k in (
            "steps", "healed", "changed", "refused", "skipped", "wrong")))  # fmt: skip
    out_console = console()
    out_console.print(table)
    for path, error in failed:
        out_console.print(f"[red]skipped[/] {cell(path)}: {cell(error, MAX_LINE)}")
    console(stderr=True).print(f"healed copies and heal-report.json/.md in {cell(out)}/")
