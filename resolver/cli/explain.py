"""``resolver explain``: resolve one reference, print the candidates and the decision, and
draw them on the screenshot (or a blank canvas of the screen size) as a PNG: the ranked
boxes labelled with rank, score and the deciding rule, the answer's click point or a
refusal's banner, the recorded box, and a legend."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import Evidence, ResolutionError
from ..explain import diagnostic_lines, explain
from ._inputs import (
    ALL_SOURCES,
    ConfidenceOpt,
    Coords,
    CoordsOpt,
    DomOpt,
    FormatOpt,
    JsonOpt,
    LimitOpt,
    MarginOpt,
    RefOpt,
    ScreenshotOpt,
    ScreenSizeOpt,
    SourcesOpt,
    ThresholdOpt,
    TreeOpt,
    UrlOpt,
    read_observation,
    read_ref,
    resolve_options,
)
from ._output import EXIT_NOT_RESOLVED, CliError, cell, console, emit_json
from .resolve import check_unavailable, status_of

__all__ = ["register", "run_explain"]


def register(app: typer.Typer) -> None:
    """Add the ``explain`` command."""
    app.command("explain")(run_explain)


def _candidates(result: Any) -> list[dict[str, Any]]:
    if isinstance(result, Evidence):
        return [c.to_dict() for c in result.candidates]
    ranked = [{"executor_id": result.executor_id, "role": result.candidate.role,
               "name": result.candidate.name, "score": result.score}]  # fmt: skip
    ranked += [
        {"executor_id": a.executor_id, "role": a.role, "name": a.name, "score": a.score}
        for a in result.alternatives
    ]
    return ranked


def _print(result: Any, out_path: Path) -> None:
    from rich.table import Table

    out = console()
    if isinstance(result, Evidence):
        out.print(f"[bold red]not resolved[/] (rule {cell(result.rule or '-')}): " + "; ".join(
            cell(f"{t.source} {t.status} ({t.rule})") for t in result.trace))  # fmt: skip
    else:
        out.print(f"[bold green]resolved[/] {cell(result.executor_id)} (source "
                  f"{cell(result.source)}, rule {cell(result.rule)}, score {result.score:.3f}, "
                  f"margin {result.margin:.3f})")  # fmt: skip
    for line in diagnostic_lines(result.trace):
        out.print(f"[yellow]{cell(line)}[/]")
    table = Table("rank", "executor id", "role", "name", "score", title="candidates")
    for i, c in enumerate(_candidates(result), 1):
        score = c.get("score")
        shown = f"{score:.3f}" if isinstance(score, (int, float)) else ""
        table.add_row(str(i), cell(c.get("executor_id")), cell(c.get("role")),
                      cell(c.get("name")), shown)  # fmt: skip
    out.print(table)
    out.print(f"picture: {cell(out_path)}")


def run_explain(
    ref: RefOpt,
    tree: TreeOpt = None,
    dom: DomOpt = None,
    screenshot: ScreenshotOpt = None,
    tree_format: FormatOpt = None,
    screen_size: ScreenSizeOpt = None,
    url: UrlOpt = None,
    sources: SourcesOpt = ALL_SOURCES,
    threshold: ThresholdOpt = None,
    margin: MarginOpt = None,
    min_confidence: ConfidenceOpt = None,
    coords: CoordsOpt = Coords.unobserved,
    out: Annotated[Path, typer.Option(help="The PNG to write.")] = Path("explain.png"),
    limit: LimitOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Resolve one reference and draw the candidates, the runner-up and the answer (PNG).

    Each ranked box is labelled with its rank, role, name, score and, for the best, the
    deciding rule; the answer's click point is marked, a refusal gets a red banner naming
    its rule, the recorded box is drawn dashed (an arrow at the edge when it lies off the
    picture) and a legend sits in the corner farthest from the answer.

    Exit 0 resolved, 3 not resolved (the picture is still written), 2 bad input (or no
    source could look because an optional extra is missing).
    """
    checked = read_ref(ref)
    options = resolve_options(sources, threshold, margin, coords, min_confidence)
    obs = read_observation(tree, dom, screenshot, tree_format=tree_format,
                           screen_size=screen_size, url=url, limits=limit)  # fmt: skip
    try:
        with console(stderr=True).status("resolving and drawing..."):
            result = explain(checked, obs, out, **options)
    except ResolutionError as exc:
        status_of(exc)
        raise CliError(exc.message) from exc
    except OSError as exc:
        raise CliError(f"--out: cannot write {out}: {exc.strerror or exc}") from exc
    if isinstance(result, Evidence):
        check_unavailable(result.trace)
    if as_json:
        if isinstance(result, Evidence):
            emit_json({"rule": result.rule, "candidates": _candidates(result),
                       "trace": [t.to_dict() for t in result.trace],
                       "picture": str(out)})  # fmt: skip
        else:
            emit_json({**result.to_dict(), "picture": str(out)})
    else:
        _print(result, out)
    if isinstance(result, Evidence):
        raise typer.Exit(EXIT_NOT_RESOLVED)
